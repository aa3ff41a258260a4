/*
 * test_rjadapters.c — the strip, block and multi-cluster adapters end to
 * end: a temporary archive whose runs follow known laws exactly is loaded,
 * each experiment is run through experiment_run, and the predictions and
 * errors must equal the construction; bad options and rows give clear
 * errors.
 */
#include "gen/fit/experiment_run.h"
#include "gen/ingest/experiment.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double MBPP = 32.0 / 1048576.0;
static const double N = 1024; /* row length of every strip run (nb) */

typedef struct {
    double k, c, d, g;   /* Tcomp = k*work*(1 + cache(rows)), Tcomm = c + d log2 np + g work */
} law;

static const law LX = {0.05, 0.5, 0.25, 0.002};
static const law LY = {0.03, 0.8, 0.40, 0.003};

static double work_of(double rows, double len)
{
    return MBPP * rows * len;
}

static double tcomp(const law *l, double rows)
{
    return l->k * work_of(rows, N) * (1 + 0.02 * sin(rows / 50.0)) + 0.01;
}

static double strip_time(const law *l, double np, double rows)
{
    double t = tcomp(l, rows);
    return np == 1 ? t : t + l->c + l->d * log2(np) + l->g * work_of(rows, N);
}

typedef struct {
    char *text;
    size_t len, cap;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(buf *b, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->text = realloc(b->text, b->cap);
    }
    memcpy(b->text + b->len, line, (size_t)n + 1);
    b->len += (size_t)n;
}

/* Strip runs of one cluster: Tcomp at rows/l and np0 x 1 at np0*rows/l,
 * twice each (+-1%: the mean is the law). Columns: cluster,code,np,npa,npb,
 * na,nb,work_mb,np_a,np_b,rows_a,rows_b,tag_cluster_b,time_s,rep */
static void strip_runs(buf *b, const char *cluster, const law *l, double rows)
{
    const double levels[] = {1, 4}, np0[] = {4, 8};
    for (int rep = 0; rep < 2; rep++) {
        double f = rep ? 0.99 : 1.01;
        for (size_t i = 0; i < 2; i++) {
            double r = rows / levels[i];
            put(b, "%s,mg,1,1,1,%.17g,%.17g,%.17g,,,,,,%.17g,%d\n", cluster, r, N,
                work_of(r, N), strip_time(l, 1, r) * f, rep);
            for (size_t k = 0; k < 2; k++)
                put(b, "%s,mg,%g,%g,1,%.17g,%.17g,%.17g,,,,,,%.17g,%d\n", cluster, np0[k], np0[k],
                    np0[k] * r, N, work_of(r, N), strip_time(l, np0[k], r) * f, rep);
        }
    }
}

static char dir[256];

static void write(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, text));
}

/* Archive: clusters X and Y; campaign s (strip + multicluster). */
static void make_strip_archive(const char *experiments)
{
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    write("clusters.csv", "cluster,mem_per_core_gb,rate_per_core_hour\nX,1,1\nY,1,2\n");
    buf b = {0};
    put(&b, "cluster,code,np,npa,npb,na,nb,work_mb,np_a,np_b,rows_a,rows_b,tag_cluster_b,time_s,rep\n");
    strip_runs(&b, "X", &LX, 128);
    strip_runs(&b, "Y", &LY, 128);
    strip_runs(&b, "Y", &LY, 256);
    /* Targets: X at 64 processes (measured, = law), X at 128 (unmeasured). */
    put(&b, "X,mg,64,,,8192,1024,,,,,,,%.17g,0\n", strip_time(&LX, 64, 128));
    put(&b, "X,mg,128,,,16384,1024,,,,,,,,\n");
    /* A split job: 16 of X with 128 rows each, 8 of Y with 256 rows each. */
    put(&b, "X,mg,24,,,4096,1024,,16,8,2048,2048,Y,,\n");
    write("s/runs.csv", b.text);
    write("s/experiments.csv", experiments);
    write("s/README.md", "test\n");
    free(b.text);
}

static bool run_experiment(const char *name, experiment_result *res, archive *a)
{
    diag_list d;
    diag_init(&d);
    archive_load(dir, a, &d);
    if (d.count)
        diag_print(&d, stderr);
    diag_free(&d);
    CU_ASSERT_EQUAL_FATAL(a->ncampaigns, 1);
    const campaign *c = &a->campaigns[0];
    const experiment_info *e = campaign_experiment(c, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    return experiment_run(a, c, e, res);
}

static void check_rel(double got, double want, double tol)
{
    if (testutil_rel_diff(got, want) > tol)
        fprintf(stderr, "got %.15g want %.15g\n", got, want);
    CU_ASSERT_TRUE(testutil_rel_diff(got, want) <= tol);
}

static const report_coef *coef(const report *r, const char *term)
{
    for (size_t i = 0; i < r->ncoefs; i++)
        if (strcmp(r->coefs[i].term, term) == 0)
            return &r->coefs[i];
    return NULL;
}

static void test_strip_adapter(void)
{
    make_strip_archive("name,model,train,target,options\n"
                       "st,strip,np <= 8,cluster == 'X' && np >= 64,\"np0=4,8\"\n");
    archive a;
    experiment_result res;
    CU_ASSERT_TRUE_FATAL(run_experiment("st", &res, &a));
    if (!res.ok)
        fprintf(stderr, "%s\n", res.error);
    const report *r = &res.rep;
    CU_ASSERT_STRING_EQUAL(r->model, "strip");
    CU_ASSERT_EQUAL_FATAL(r->npreds, 2);
    check_rel(r->preds[0].estimate, strip_time(&LX, 64, 128), 1e-9);
    check_rel(r->preds[1].estimate, strip_time(&LX, 128, 128), 1e-9);
    CU_ASSERT_TRUE(isnan(r->preds[0].ci_low) && isnan(r->preds[0].pi_high));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->preds[0].note, "no interval"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->preds[0].note, "exact per-process mesh 128x1024, 2 runs"));
    CU_ASSERT_TRUE(fabs(res.input.targets[0].error_pct) < 1e-7);
    CU_ASSERT_TRUE(isnan(res.input.targets[1].error_pct));
    const report_coef *c = coef(r, "c"), *d = coef(r, "d"), *g = coef(r, "gamma");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    check_rel(c->coefficient, LX.c, 1e-9);
    check_rel(d->coefficient, LX.d, 1e-9);
    check_rel(g->coefficient, LX.g, 1e-9);
    CU_ASSERT_TRUE(isnan(c->std_error));
    CU_ASSERT_PTR_NOT_NULL(coef(r, "alpha(4)"));
    CU_ASSERT_PTR_NOT_NULL(coef(r, "gamma(8)"));
    const report_stat *spread = report_find_stat(r, "rep_spread_max_pct");
    CU_ASSERT_PTR_NOT_NULL_FATAL(spread);
    check_rel(spread->value, 2, 1e-9);
    const report_stat *runs = report_find_stat(r, "runs");
    CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
    CU_ASSERT_DOUBLE_EQUAL(runs->value, 12, 0);
    experiment_result_free(&res);
    archive_free(&a);
    testutil_remove_dir(dir);
}

static void test_multicluster_adapter(void)
{
    make_strip_archive("name,model,train,target\n"
                       "mc,multicluster,np <= 8,np_a > 0\n");
    archive a;
    experiment_result res;
    CU_ASSERT_TRUE_FATAL(run_experiment("mc", &res, &a));
    const report *r = &res.rep;
    CU_ASSERT_STRING_EQUAL(r->model, "multicluster");
    CU_ASSERT_EQUAL_FATAL(r->npreds, 1);
    double ta = strip_time(&LX, 16, 128), tb = strip_time(&LY, 8, 256);
    check_rel(r->preds[0].estimate, fmax(ta, tb), 1e-9);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->preds[0].note, "balanced split"));
    /* One fit per cluster, prefixed. */
    CU_ASSERT_PTR_NOT_NULL(coef(r, "X/mg/nb=1024: c"));
    CU_ASSERT_PTR_NOT_NULL(coef(r, "Y/mg/nb=1024: gamma"));
    experiment_result_free(&res);
    archive_free(&a);
    testutil_remove_dir(dir);
}

static void expect_failure(const char *experiments, const char *name, const char *message)
{
    make_strip_archive(experiments);
    archive a;
    experiment_result res;
    CU_ASSERT_FALSE(run_experiment(name, &res, &a));
    if (!strstr(res.error, message))
        fprintf(stderr, "error '%s' lacks '%s'\n", res.error, message);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.error, message));
    experiment_result_free(&res);
    archive_free(&a);
    testutil_remove_dir(dir);
}

/* An option's value refused, the failure pointed at the options cell. */
static void expect_option_failure(const char *experiments, const char *message)
{
    make_strip_archive(experiments);
    archive a;
    experiment_result res;
    CU_ASSERT_FALSE(run_experiment("x", &res, &a));
    if (!strstr(res.error, message))
        fprintf(stderr, "error '%s' lacks '%s'\n", res.error, message);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.error, message));
    CU_ASSERT_PTR_NOT_NULL(res.where.cell);
    CU_ASSERT_STRING_EQUAL(res.where.cell ? res.where.cell : "", "options");
    experiment_result_free(&res);
    archive_free(&a);
    testutil_remove_dir(dir);
}

/* work_tol takes the same values in the three models (block read any
 * number, a negative tolerance included), and every option failure points
 * at the options cell (it pointed at the row). */
static void test_option_values(void)
{
    const char *head = "name,model,train,target,options\n";
    const char *rows[][2] = {
        {"x,strip,np <= 8,np >= 64,work_tol=-1\n", "option work_tol=-1: expected a number >= 0"},
        {"x,block,np <= 8,np >= 64,work_tol=-1\n", "option work_tol=-1: expected a number >= 0"},
        {"x,block,np <= 8,np >= 64,work_tol=abc\n", "option work_tol=abc: expected a number >= 0"},
        {"x,multicluster,np <= 8,np >= 64,work_tol=-0.5\n",
         "option work_tol=-0.5: expected a number >= 0"},
        {"x,multicluster,np <= 8,np >= 64,quantum=0\n", "option quantum=0: expected a number >= 1"},
        {"x,strip,np <= 8,np >= 64,np0=4;np0=8\n", "given twice"},
        {"x,block,np <= 8,np >= 64,\"nps=2,x\"\n", "expected a list of positive numbers"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        char text[300];
        snprintf(text, sizeof text, "%s%s", head, rows[i][0]);
        expect_option_failure(text, rows[i][1]);
    }
}

static void test_adapter_errors(void)
{
    expect_failure("name,model,train,target,options\nx,strip,np <= 8,np >= 64,bogus=1\n", "x",
                   "unknown option 'bogus' (known: np0, work_tol, tcomp, contention, overhead, scaling)");
    expect_failure("name,model,train,target,options\nx,strip,np <= 8,np >= 64,tcomp=maybe\n", "x",
                   "expected exact or interpolate");
    expect_failure("name,model,train,target,options\nx,strip,np <= 8,np >= 64,np0=4;np0=8\n", "x",
                   "given twice");
    expect_failure("name,model,train,target,options\nx,strip,np <= 8,np >= 64,overhead=cubic\n", "x",
                   "option overhead=cubic: expected log2, node, topology or auto");
    /* Only np0 = 4: alpha cannot be extrapolated. */
    expect_failure("name,model,train,target,options\nx,strip,np <= 8,cluster == 'X' && np >= 64,np0=4\n",
                   "x", "fewer than two process counts");
    /* No sequential runs in training. */
    expect_failure("name,model,train,target\nx,strip,np >= 4 && np <= 8,cluster == 'X' && np >= 64\n",
                   "x", "no sequential run");
    /* tcomp=exact and a target without its sequential run. */
    expect_failure("name,model,train,target,options\n"
                   "x,strip,np <= 8,np == 24,tcomp=exact\n",
                   "x", "tcomp=exact");
    /* A block target without a grid. */
    expect_failure("name,model,train,target\nx,block,np <= 8,np == 128\n", "x", "");
    expect_failure("name,model,train,target\nx,multicluster,np <= 8,np == 128\n", "x",
                   "needs cluster, tag_cluster_b");
}

/* Block campaign: (2,2), strips (np,1) and (1,np) at np 2,4,8,16 and l 1,2,4. */
static double blk_base(double pa, double pb)
{
    return 4e-6 * pa * pb + 0.05;
}

/* alpha quadratic in L = log2 np (times `curve`: 0 makes it a line) plus
 * gamma * work. */
static double blk_overhead(bool along_a, double np, double w, double curve)
{
    double L = log2(np);
    return along_a ? 0.3 + 0.1 * L + curve * 0.05 * L * L + 0.004 * w
                   : 0.2 + 0.2 * L + curve * 0.02 * L * L + 0.003 * w;
}

static const double BLK_PA = 512, BLK_PB = 256;

/* Campaign k: T(2,2) = 1.2 x the strips' base, strips of blk_overhead. */
static void make_block_archive(double curve)
{
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    write("clusters.csv", "cluster\nZ\n");
    buf b = {0};
    const double pa = BLK_PA, pb = BLK_PB, nps[] = {2, 4, 8, 16}, levels[] = {1, 2, 4};
    put(&b, "cluster,code,np,npa,npb,na,nb,work_mb,time_s\n");
    put(&b, "Z,mg,4,2,2,%g,%g,%.17g,%.17g\n", 2 * pa, 2 * pb, MBPP * pa * pb, 1.2 * blk_base(pa, pb));
    for (int dir_a = 0; dir_a < 2; dir_a++)
        for (size_t k = 0; k < 4; k++)
            for (size_t l = 0; l < 3; l++) {
                double qa = dir_a ? pa / levels[l] : pa, qb = dir_a ? pb : pb / levels[l];
                double w = MBPP * qa * qb, np = nps[k];
                double t = blk_base(qa, qb) + (np > 2 ? blk_overhead(dir_a, np, w, curve) : 0);
                put(&b, "Z,mg,%g,%g,%g,%g,%g,%.17g,%.17g\n", np, dir_a ? np : 1, dir_a ? 1 : np,
                    dir_a ? np * qa : qa, dir_a ? qb : np * qb, w, t);
            }
    put(&b, "Z,mg,256,16,16,%g,%g,,\n", 16 * pa, 16 * pb);
    put(&b, "Z,mg,64,32,2,%g,%g,,\n", 32 * pa, 2 * pb);
    write("k/runs.csv", b.text);
    free(b.text);
    write("k/experiments.csv", "name,model,train,target\nblk,block,time_s > 0,np >= 64\n");
    write("k/README.md", "k\n");
}

static void test_block_adapter(void)
{
    const double pa = BLK_PA, pb = BLK_PB;
    make_block_archive(1);
    archive a;
    experiment_result res;
    CU_ASSERT_TRUE_FATAL(run_experiment("blk", &res, &a));
    const report *r = &res.rep;
    CU_ASSERT_EQUAL_FATAL(r->npreds, 2);
    double w = MBPP * pa * pb;
    double want = 1.2 * blk_base(pa, pb) +
                  fmax(blk_overhead(true, 16, w, 1), blk_overhead(false, 16, w, 1));
    check_rel(r->preds[0].estimate, want, 1e-9);
    check_rel(r->preds[1].estimate, 1.2 * blk_base(pa, pb) + blk_overhead(true, 32, w, 1), 1e-9);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->preds[0].note, "Ta dominates"));
    /* The 16x16 and the 32x2 target share the per-process mesh: one fit,
     * each law, statistic and the equation once (they were printed once
     * per kind of target, under the same prefix). */
    CU_ASSERT_PTR_NOT_NULL(coef(r, "a: e"));
    CU_ASSERT_PTR_NOT_NULL(coef(r, "b: e"));
    CU_ASSERT_EQUAL(r->ncoefs, 2 * (3 * 2 + 3 + 1)); /* alpha, gamma per np (4, 8, 16); c d e; gamma */
    for (size_t i = 0; i < r->ncoefs; i++)
        for (size_t j = i + 1; j < r->ncoefs; j++)
            CU_ASSERT_STRING_NOT_EQUAL(r->coefs[i].term, r->coefs[j].term);
    for (size_t i = 0; i < r->nstats; i++)
        for (size_t j = i + 1; j < r->nstats; j++)
            CU_ASSERT_STRING_NOT_EQUAL(r->stats[i].name, r->stats[j].name);
    const char *eq = strstr(r->equation, "T = T(2,2) + max(Ta, Tb)");
    CU_ASSERT_PTR_NOT_NULL(eq);
    CU_ASSERT_PTR_NULL(eq ? strstr(eq + 1, "T = T(2,2)") : NULL);
    experiment_result_free(&res);
    archive_free(&a);
    testutil_remove_dir(dir);
}

/* The block backtests (calibration refits without the largest strips,
 * which predict them) score the strip law, as a grid target uses it
 * (models/block.h, STRIP TARGETS). With alpha linear in log2 np the law
 * refitted on the 4- and 8-process strips predicts the 16-process ones
 * exactly, so every backtest error is 0; predicted on T(2,2) = 1.2 x
 * their base, as before, the 16-process a-strip of the 512 x 256 mesh
 * erred by 0.2 base / (base + Ta(16)) = 0.1149 / 1.2903 = +8.9%
 * (base 4e-6 x 512 x 256 + 0.05 = 0.5743 s, Ta(16) = 0.3 + 0.1 x 4 +
 * 0.004 x 4 MB = 0.716 s). */
static void test_block_backtests(void)
{
    make_block_archive(0);
    archive a;
    experiment_result res;
    CU_ASSERT_TRUE_FATAL(run_experiment("blk", &res, &a));
    const report_stat *bt = report_find_stat(&res.rep, "backtest_median_abs_error_pct");
    CU_ASSERT_PTR_NOT_NULL_FATAL(bt);
    CU_ASSERT_DOUBLE_EQUAL(bt->value, 0, 1e-6);
    experiment_result_free(&res);
    archive_free(&a);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"strip adapter", test_strip_adapter},
        {"multicluster adapter", test_multicluster_adapter},
        {"block adapter", test_block_adapter},
        {"block backtests score the strip law", test_block_backtests},
        {"adapter errors", test_adapter_errors},
        {"option values: one rule, at the options cell", test_option_values},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"rj adapters", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
