/*
 * test_runplan.c — a plan lists exactly the runs a model consumes: plan,
 * fabricate each planned run's time from a known law, fit, and recover the
 * law, with every planned configuration used and nothing missing.
 */
#include "models/block.h"
#include "models/runplan.h"
#include "models/strip.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double MBPP = 32.0 / 1048576.0;
static const double C = 1.25, D = 0.375, GAMMA = 0.003;
static const double QC = 0.5, QD = 0.25, QE = 0.0625, QG = 0.002;

static double work_of(double pa, double pb)
{
    return MBPP * pa * pb;
}

static double tcomp(double pa, double pb)
{
    return 1e-6 * pa * pb * (1 + 0.04 * sin(pa / 3000.0)) + 0.02;
}

/* The strip law, or (for block plans) the quadratic strip overhead on top
 * of a base time; the (2,2) reference is tcomp*1.1. */
static double fabricate(const runplan_run *r, double pa, double pb)
{
    double w = work_of(pa, pb);
    switch (r->role) {
    case RUNPLAN_TCOMP: return tcomp(pa, pb);
    case RUNPLAN_STRIP_OVERHEAD: return tcomp(pa, pb) + C + D * log2((double)r->np) + GAMMA * w;
    case RUNPLAN_BLOCK_REFERENCE: return 1.1 * tcomp(pa, pb);
    case RUNPLAN_BLOCK_BASE: return 1.05 * tcomp(pa, pb);
    case RUNPLAN_BLOCK_STRIP: {
        double L = log2((double)r->np);
        return 1.05 * tcomp(pa, pb) + QC + QD * L + QE * L * L + QG * w;
    }
    }
    return NAN;
}

/* Every planned run, each repetition a row (times varied by +-1% around
 * the law so the mean is exact); side selects one side of a split plan. */
static size_t rows_of(const runplan *p, int side, mesh_run *out)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nruns; i++) {
        const runplan_run *r = &p->runs[i];
        if (r->side != side)
            continue;
        double pa = (double)r->na / (double)r->npa, pb = (double)r->nb / (double)r->npb;
        for (long k = 0; k < r->reps; k++) {
            double f = r->reps == 1 ? 1 : k % 2 ? 0.99 : 1.01;
            out[n++] = (mesh_run){(double)r->npa, (double)r->npb, pa, pb, work_of(pa, pb),
                                  fabricate(r, pa, pb) * f};
        }
    }
    return n;
}

static size_t count_side(const runplan *p, int side)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nruns; i++)
        n += p->runs[i].side == side;
    return n;
}

static void check_rel(double got, double want, double tol)
{
    if (testutil_rel_diff(got, want) > tol)
        fprintf(stderr, "got %.15g want %.15g\n", got, want);
    CU_ASSERT_TRUE(testutil_rel_diff(got, want) <= tol);
}

static void all_used(const mesh_configs *cs, size_t planned)
{
    CU_ASSERT_EQUAL(cs->nconfigs, planned);
    for (size_t k = 0; k < cs->nconfigs; k++)
        CU_ASSERT_TRUE(cs->configs[k].used);
}

/* Strip: the paper's plan for 65536^2 on 64 processes, twice each. */
static void test_strip_plan_fit(void)
{
    runplan p;
    char err[200];
    runplan_options opt = {NULL, 0, NULL, 0, 2, 0, 0, NULL, 0};
    CU_ASSERT_TRUE_FATAL(runplan_strip(65536, 65536, 64, &opt, &p, err, sizeof err));
    /* Steps 1-2: 2 sequential + 2 np0 x 2 levels. */
    CU_ASSERT_EQUAL(p.nruns, 6);
    CU_ASSERT_EQUAL(p.runs[0].role, RUNPLAN_TCOMP);
    CU_ASSERT_EQUAL(p.runs[0].na, 1024);
    CU_ASSERT_EQUAL(p.runs[0].nb, 65536);
    CU_ASSERT_EQUAL(p.runs[0].seq_of_np, 64);
    CU_ASSERT_EQUAL(p.runs[1].na, 256);
    CU_ASSERT_EQUAL(p.runs[2].npa, 4);
    CU_ASSERT_EQUAL(p.runs[2].npb, 1);
    CU_ASSERT_EQUAL(p.runs[2].na, 4096);
    CU_ASSERT_EQUAL(p.runs[1].seq_of_np, 0);
    CU_ASSERT_EQUAL(runplan_max_np(&p), 8);
    mesh_run rows[64];
    size_t n = rows_of(&p, 0, rows);
    CU_ASSERT_EQUAL(n, 12);
    strip_options so = {.work_tol = 0.01, .msg_len = 65536};
    strip_model m;
    CU_ASSERT_EQUAL_FATAL(strip_fit(rows, n, &so, &m, NULL), STRIP_OK);
    all_used(&m.configs, p.nruns);
    check_rel(m.law.coef[0], C, 1e-9);
    check_rel(m.law.coef[1], D, 1e-9);
    check_rel(m.law.gamma, GAMMA, 1e-9);
    strip_target t = {64, 1024, 65536, NAN};
    strip_prediction pr;
    CU_ASSERT_TRUE_FATAL(strip_predict(&m, &t, &pr));
    CU_ASSERT_EQUAL(pr.tcomp_match, MESH_EXACT);
    check_rel(pr.time_s, tcomp(1024, 65536) + C + 6 * D + GAMMA * work_of(1024, 65536), 1e-9);
    strip_model_free(&m);
    runplan_free(&p);
}

/* Block: the paper's plan for (8,16) on 65536 x 131072. */
static void test_block_plan_fit(void)
{
    runplan p;
    char err[200];
    runplan_options opt = {NULL, 0, NULL, 0, 1, 0, 0, NULL, 0};
    CU_ASSERT_TRUE_FATAL(runplan_block(65536, 131072, 8, 16, &opt, &p, err, sizeof err));
    /* (2,2) + 2 directions x 4 np (2,4,8,16) x 3 levels. */
    CU_ASSERT_EQUAL(p.nruns, 1 + 2 * 4 * 3);
    CU_ASSERT_EQUAL(p.runs[0].na, 16384);
    CU_ASSERT_EQUAL(p.runs[0].nb, 16384);
    CU_ASSERT_EQUAL(runplan_max_np(&p), 16);
    mesh_run rows[64];
    size_t n = rows_of(&p, 0, rows);
    block_options bo = {.work_tol = 0.01};
    block_target t = {8, 16, 8192, 8192, NAN};
    block_model m;
    CU_ASSERT_EQUAL_FATAL(block_fit(rows, n, &bo, &t, &m, NULL), BLOCK_OK);
    all_used(&m.configs, p.nruns);
    check_rel(m.a.law.coef[0], QC, 1e-9);
    check_rel(m.a.law.coef[2], QE, 1e-9);
    check_rel(m.b.law.coef[1], QD, 1e-9);
    check_rel(m.b.law.gamma, QG, 1e-9);
    block_prediction pr;
    CU_ASSERT_TRUE_FATAL(block_predict(&m, &t, &pr));
    double w = work_of(8192, 8192);
    double ov16 = QC + QD * 4 + QE * 16 + QG * w;
    check_rel(pr.time_s, 1.1 * tcomp(8192, 8192) + ov16, 1e-9);
    CU_ASSERT_EQUAL(pr.dominant, BLOCK_DOMINANT_B);
    block_model_free(&m);
    runplan_free(&p);
}

/* A grid with npa <= 2 needs no (np,1) strips, and the fit needs none. */
static void test_block_plan_small_direction(void)
{
    runplan p;
    char err[200];
    const long nps[] = {4, 8};
    const long levels[] = {1, 2};
    runplan_options opt = {nps, 2, levels, 2, 1, 0, 0, NULL, 0};
    CU_ASSERT_TRUE_FATAL(runplan_block(16384, 262144, 2, 32, &opt, &p, err, sizeof err));
    CU_ASSERT_EQUAL(p.nruns, 1 + 3 * 2);
    for (size_t i = 1; i < p.nruns; i++)
        CU_ASSERT_EQUAL(p.runs[i].npa, 1);
    mesh_run rows[32];
    size_t n = rows_of(&p, 0, rows);
    block_options bo = {.work_tol = 0.01};
    block_target t = {2, 32, 8192, 8192, NAN};
    block_model m;
    CU_ASSERT_EQUAL_FATAL(block_fit(rows, n, &bo, &t, &m, NULL), BLOCK_OK);
    all_used(&m.configs, p.nruns);
    CU_ASSERT_TRUE(m.b.law.degree_reduced); /* two np: a line */
    block_model_free(&m);
    runplan_free(&p);
}

/* Multi-cluster: each side's strip plan at its own rows per process. */
static void test_multicluster_plan_fit(void)
{
    runplan p;
    char err[200];
    const long np[2] = {64, 32}, rows[2] = {512, 1024};
    runplan_options opt = {NULL, 0, NULL, 0, 1, 0, 0, NULL, 0};
    CU_ASSERT_TRUE_FATAL(runplan_multicluster(65536, np, rows, &opt, &p, err, sizeof err));
    CU_ASSERT_EQUAL(count_side(&p, 0), 6);
    CU_ASSERT_EQUAL(count_side(&p, 1), 6);
    for (int side = 0; side < 2; side++) {
        mesh_run r[32];
        size_t n = rows_of(&p, side, r);
        strip_options so = {.work_tol = 0.01, .msg_len = 65536};
        strip_model m;
        CU_ASSERT_EQUAL_FATAL(strip_fit(r, n, &so, &m, NULL), STRIP_OK);
        all_used(&m.configs, count_side(&p, side));
        strip_target t = {(double)np[side], (double)rows[side], 65536, NAN};
        strip_prediction pr;
        CU_ASSERT_TRUE_FATAL(strip_predict(&m, &t, &pr));
        CU_ASSERT_EQUAL(pr.tcomp_match, MESH_EXACT);
        strip_model_free(&m);
    }
    runplan_free(&p);
}

static void test_plan_errors(void)
{
    runplan p;
    char err[200];
    runplan_options opt = {NULL, 0, NULL, 0, 1, 0, 0, NULL, 0};
    CU_ASSERT_FALSE(runplan_strip(1000, 1000, 64, &opt, &p, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "na = 1000 is not divisible by np = 64"));
    const long odd_levels[] = {3};
    runplan_options o3 = {NULL, 0, odd_levels, 1, 1, 0, 0, NULL, 0};
    CU_ASSERT_FALSE(runplan_strip(1024, 1024, 4, &o3, &p, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not divisible by work level 3"));
    CU_ASSERT_EQUAL(p.nruns, 0);
    runplan_options o0 = {NULL, 0, NULL, 0, 0, 0, 0, NULL, 0};
    CU_ASSERT_FALSE(runplan_strip(1024, 1024, 4, &o0, &p, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "repetitions"));
    const long small[] = {2};
    runplan_options os = {small, 1, NULL, 0, 1, 0, 0, NULL, 0};
    CU_ASSERT_FALSE(runplan_block(1024, 1024, 8, 8, &os, &p, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "below 3"));
    CU_ASSERT_FALSE(runplan_block(1001, 1024, 8, 8, &opt, &p, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "does not divide"));
    const long np[2] = {4, 0}, rows[2] = {16, 16};
    CU_ASSERT_FALSE(runplan_multicluster(1024, np, rows, &opt, &p, err, sizeof err));
    runplan_free(&p);
}

/* A plan never lists one run twice, and says why a run is larger than
 * its target: both sides of a multi-cluster plan on one cluster share
 * their equal runs (each side's script still runs them), a one-process
 * target is no plan, and a 2-process strip target's np0 = 4, 8 runs are
 * marked as above it. */
static void test_plan_repeats_and_size(void)
{
    runplan p;
    char err[300];
    runplan_options opt = {NULL, 0, NULL, 0, 1, 0, 0, NULL, 0};
    const long np[2] = {8, 8}, rows[2] = {256, 256}, rows_b[2] = {256, 128};
    CU_ASSERT_TRUE_FATAL(runplan_multicluster(4096, np, rows, &opt, &p, err, sizeof err));
    size_t both = p.nruns;
    CU_ASSERT_EQUAL(runplan_share_sides(&p), both / 2);
    CU_ASSERT_EQUAL(p.nruns, both / 2);
    for (size_t i = 0; i < p.nruns; i++) {
        CU_ASSERT_TRUE(p.runs[i].shared && p.runs[i].side == 0);
        CU_ASSERT_TRUE(runplan_on_side(&p.runs[i], 1));
    }
    runplan_free(&p);
    /* Other rows per process on B: nothing to share. */
    CU_ASSERT_TRUE_FATAL(runplan_multicluster(4096, np, rows_b, &opt, &p, err, sizeof err));
    both = p.nruns;
    CU_ASSERT_EQUAL(runplan_share_sides(&p), 0);
    CU_ASSERT_EQUAL(p.nruns, both);
    CU_ASSERT_FALSE(runplan_on_side(&p.runs[0], 1));
    runplan_free(&p);
    CU_ASSERT_FALSE(runplan_strip(4096, 4096, 1, &opt, &p, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "a target on one process is itself the sequential run"));
    CU_ASSERT_FALSE(runplan_block(4096, 4096, 1, 1, &opt, &p, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "a target on one process"));
    CU_ASSERT_TRUE_FATAL(runplan_strip(4096, 4096, 2, &opt, &p, err, sizeof err));
    size_t above = 0;
    for (size_t i = 0; i < p.nruns; i++) {
        CU_ASSERT_EQUAL(runplan_above_target(&p, &p.runs[i]), p.runs[i].np > 2);
        above += runplan_above_target(&p, &p.runs[i]);
    }
    CU_ASSERT_EQUAL(above, 4); /* np0 = 4 and 8 at levels 1 and 4 */
    runplan_free(&p);
}

/* The configurations of `plan --format csv` (each rep's row once), and
 * whether one of them comes twice. */
static bool csv_repeats(const char *csv, size_t *nconfigs)
{
    char seen[64][160];
    size_t n = 0;
    bool twice = false;
    for (const char *line = csv ? strchr(csv, '\n') : NULL; line && line[1];
         line = strchr(line + 1, '\n')) {
        const char *rep = line + 1;
        for (int commas = 0; *rep && *rep != '\n' && commas < 8; rep++)
            commas += *rep == ',';
        const char *end = strchr(line + 1, '\n');
        bool pingpong = strstr(line + 1, ",pingpong,") &&
                        strstr(line + 1, ",pingpong,") < (end ? end : rep + strlen(rep));
        if (strncmp(rep, "1,", 2) != 0 || pingpong)
            continue; /* one row per solve configuration: its first repetition */
        char config[160];
        snprintf(config, sizeof config, "%.*s", (int)(rep - line - 1), line + 1);
        for (size_t i = 0; i < n; i++)
            twice = twice || strcmp(seen[i], config) == 0;
        if (n < 64)
            snprintf(seen[n++], sizeof seen[0], "%s", config);
    }
    *nconfigs = n;
    return twice;
}

static void test_cli_no_repeats(void)
{
    char *out = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 --np 16 "
                                                "--np0 4,4,8"), 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "--np0: 4 is listed twice"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model block --target 4096x4096 --grid "
                                                "8x8 --nps 4,8,4"), 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "--nps: 4 is listed twice"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 --np 16 "
                                                "--levels 1,4,1"), 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "--levels: 1 is listed twice"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model multicluster --target 4096x4096 "
                                                "--np 8,8 --cluster ci-2core,ci-2core --format "
                                                "csv 2>/dev/null"), 0);
    CU_ASSERT_FALSE(csv_repeats(out, &n));
    CU_ASSERT_EQUAL(n, 6); /* Tcomp and np0 = 4, 8 at levels 1 and 4, once */
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "side B's run too (one cluster for both sides)"));
    free(out);
    /* Side B's script stands alone: it runs the shared runs too. */
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "%s plan --model multicluster --target 4096x4096 "
                                                "--np 8,8 --cluster ci-2core,ci-2core --format "
                                                "slurm --side B 2>/dev/null | grep -c "
                                                "'^run_step '", testutil_perfcast()), 0);
    CU_ASSERT_EQUAL(out ? atoi(out) : 0, 6);
    free(out);
    /* Two clusters: each side its own runs, even where they look alike. */
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model multicluster --target 4096x4096 "
                                                "--np 8,8 --cluster ci-2core,dev-16core --format "
                                                "csv 2>/dev/null"), 0);
    CU_ASSERT_FALSE(csv_repeats(out, &n));
    CU_ASSERT_EQUAL(n, 12);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 --np 1"),
                    1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "a target on one process is itself the sequential "
                                              "run the strip model starts from"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 --np 2 "
                                                "--format csv"), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, ",8,8,1,16384,4096,,1,,strip overhead level 1; "
                                              "more processes than the target's 2: the model's "
                                              "step asks this np0 whatever the target"));
    free(out);
}

/* ---- The command line: perfcast plan -> fabricated runs -> perfcast fit/predict. */

/* The law behind the fabricated runs of the CLI tests. */
static double cli_time(long np, long npa, long npb, double pa, double pb, bool block)
{
    double w = work_of(pa, pb);
    if (!block)
        return np == 1 ? tcomp(pa, pb) : tcomp(pa, pb) + C + D * log2((double)np) + GAMMA * w;
    if (npa == 2 && npb == 2)
        return 1.1 * tcomp(pa, pb);
    double L = log2((double)np);
    return 1.05 * tcomp(pa, pb) + (np > 2 ? QC + QD * L + QE * L * L + QG * w : 0);
}

/* Turn `plan --format csv` output into runs.csv text with time_s and
 * work_mb filled from the law, plus the target row; counts the rows. */
static char *fabricate_runs(const char *plan, bool block, const char *target, size_t *nrows)
{
    size_t cap = strlen(plan) * 2 + 4096, len = 0;
    char *out = malloc(cap);
    len += (size_t)snprintf(out, cap, "cluster,code,np,npa,npb,na,nb,seq_of_np,rep,time_s,work_mb\n");
    const char *line = strchr(plan, '\n');
    *nrows = 0;
    while (line && line[1]) {
        line++;
        char cluster[64], code[64];
        long np, npa, npb, na, nb, rep;
        char seq[32] = "";
        if (sscanf(line, "%63[^,],%63[^,],%ld,%ld,%ld,%ld,%ld,", cluster, code, &np, &npa, &npb,
                   &na, &nb) != 7)
            break;
        const char *p = line;
        for (int commas = 0; commas < 7; p++)
            commas += *p == ',';
        sscanf(p, "%31[^,]", seq);
        p = strchr(p, ',') + 1;
        rep = atol(p);
        double pa = (double)na / (double)npa, pb = (double)nb / (double)npb;
        len += (size_t)snprintf(out + len, cap - len, "%s,%s,%ld,%ld,%ld,%ld,%ld,%s,%ld,%.17g,%.17g\n",
                                cluster, code, np, npa, npb, na, nb, seq, rep,
                                cli_time(np, npa, npb, pa, pb, block), work_of(pa, pb));
        (*nrows)++;
        line = strchr(line, '\n');
    }
    snprintf(out + len, cap - len, "%s\n", target);
    return out;
}

/* The value of column name in the first data row of CSV text. */
static double csv_value(const char *text, const char *name)
{
    const char *header_end = strchr(text, '\n');
    if (!header_end)
        return NAN;
    int col = 0;
    for (const char *p = text; p < header_end; col++) {
        size_t n = strcspn(p, ",\n");
        if (n == strlen(name) && strncmp(p, name, n) == 0) {
            const char *v = header_end + 1;
            for (int k = 0; k < col && v; k++)
                v = strchr(v, ',') ? strchr(v, ',') + 1 : NULL;
            return v ? atof(v) : NAN;
        }
        p += n + 1;
    }
    return NAN;
}

/* Plan with plan_args, fabricate, fit with the experiment, compare. */
static void plan_fit_predict(const char *plan_args, bool block, const char *target_row,
                             const char *experiment, double want)
{
    char dir[256], path[512], *plan = NULL, *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    /* X is in no clusters.csv: its warning on stderr is no part of the CSV. */
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&plan, "plan %s --cluster X --code mg --reps 2 "
                                                       "--format csv 2>/dev/null", plan_args), 0);
    size_t nrows;
    char *runs = fabricate_runs(plan, block, target_row, &nrows);
    snprintf(path, sizeof path, "%s/clusters.csv", dir);
    testutil_write_file(path, "cluster\nX\n");
    snprintf(path, sizeof path, "%s/c/runs.csv", dir);
    testutil_write_file(path, runs);
    snprintf(path, sizeof path, "%s/c/experiments.csv", dir);
    testutil_write_file(path, experiment);
    snprintf(path, sizeof path, "%s/c/README.md", dir);
    testutil_write_file(path, "planned runs\n");
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "predict --archive %s --format csv c e", dir), 0);
    double got = csv_value(out, "estimate");
    if (testutil_rel_diff(got, want) > 1e-8)
        fprintf(stderr, "%s\n", out);
    CU_ASSERT_TRUE(testutil_rel_diff(got, want) <= 1e-8);
    free(out);
    /* Every planned run entered the fit: the "runs" stat counts them all. */
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "fit --archive %s --format json c e", dir), 0);
    char want_runs[64];
    snprintf(want_runs, sizeof want_runs, "\"runs\": %zu,", nrows);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, want_runs));
    free(out);
    free(runs);
    free(plan);
    testutil_remove_dir(dir);
}

static void test_cli_strip_plan_fit(void)
{
    double want = cli_time(32, 32, 1, 128, 1024, false);
    plan_fit_predict("--model strip --target 4096x1024 --np 32", false,
                     "X,mg,32,32,1,4096,1024,,,,",
                     "name,model,train,target\ne,strip,time_s > 0,np == 32\n", want);
}

static void test_cli_block_plan_fit(void)
{
    double w = work_of(256, 512), L = log2(16);
    double want = 1.1 * tcomp(256, 512) + QC + QD * L + QE * L * L + QG * w;
    plan_fit_predict("--model block --target 2048x8192 --grid 8x16", true,
                     "X,mg,128,8,16,2048,8192,,,,",
                     "name,model,train,target\ne,block,time_s > 0,np == 128\n", want);
}

/* The Slurm script is valid shell, asks for the largest job, and runs
 * every planned configuration once (each with --reps). */
static void test_cli_slurm_script(void)
{
    char dir[256], path[512], *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/plan.sh", dir);
    CU_ASSERT_EQUAL(testutil_perfcast_run(NULL, "plan --model block --target 65536x131072 "
                                                "--grid 8x16 --format slurm --cluster \"it's\" "
                                                "--campaign mgbench-block --partition short > %s",
                                          path), 0);
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "bash -n %s", path), 0);
    free(out);
    char *script = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(script);
    /* No --ppn and no cores_per_node: the largest run (16) on one node. */
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=16\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "#SBATCH --partition=short\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "--cluster 'it'\\''s'"));
    size_t lines = 0;
    for (const char *p = script; (p = strstr(p, "\nrun_step srun ")); p++)
        lines++;
    CU_ASSERT_EQUAL(lines, 25); /* (2,2) + 2 directions x 4 np x 3 levels */
    free(script);
    /* Multi-cluster: one script per side, each valid shell. */
    CU_ASSERT_EQUAL(testutil_perfcast_run(NULL, "plan --model multicluster --target 65536x65536 "
                                                "--np 64,32 --cluster A,B --format slurm --side B "
                                                "> %s", path), 0);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "bash -n %s", path), 0);
    script = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "--cluster B"));
    CU_ASSERT_PTR_NULL(strstr(script, "--cluster A"));
    free(script);
    testutil_remove_dir(dir);
}

static void test_cli_usage(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --help"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "--format F"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip"), 2);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model nosuch --target 8x8"), 2);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 8x8 --np 4 --format pdf"),
                    2);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model multicluster --target 8x8 --np 4,4 "
                                                "--format slurm"), 2);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 1000x8 --np 64"), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "not divisible"));
    free(out);
}

/* A value out of range or not a whole number is named as such, with the
 * range the option takes, not as a missing option ("strip needs --np N"
 * for --np 0 sent the user looking for an --np that was there). */
static void test_cli_usage_messages(void)
{
    static const struct {
        const char *args, *says;
    } cases[] = {
        {"strip --target 4096x4096 --np 0", "--np: 0 is out of range (expected N, a whole "
                                            "number from 1 to 1000000000)"},
        {"strip --target 4096x4096 --np -4", "--np: -4 is out of range"},
        {"strip --target 4096x4096 --np 16x", "--np: '16x' is not a whole number (expected N"},
        {"strip --target 4096x4096 --np 1000000001", "--np: 1000000001 is out of range"},
        {"strip --target 4096x4096 --np 2.5", "--np: '2.5' is not a whole number"},
        {"strip --target 4096x4096 --np 4,8", "--np: expected N, a whole number from 1 to "
                                              "1000000000, got '4,8'"},
        {"strip --target 4096x4096", "strip needs --np N"},
        {"block --target 4096x4096 --grid 0x4", "--grid: 0 is out of range (expected AxB, whole "
                                                "numbers from 1 to 1000000000)"},
        {"block --target 4096x4096 --grid 4x4x4", "--grid: expected AxB"},
        {"multicluster --target 4096x4096 --np 8,8 --rows 4096,0",
         "--rows: 0 is out of range (expected RA,RB, whole numbers from 1 to 1000000000)"},
        {"multicluster --target 4096x4096 --np 8,8 --rows 2048", "--rows: expected RA,RB"},
        {"multicluster --target 4096x4096 --np 8,0", "--np: 0 is out of range (expected NA,NB"},
        {"strip --target 0x4096 --np 4", "--target: 0 is out of range (expected NAxNB"},
        {"strip --target 4096x4096 --np 16 --np0 1,4", "--np0: 1 is out of range"},
        {"block --target 4096x4096 --grid 4x4 --nps 2", "--nps: 2 is out of range"},
        {"strip --target 4096x4096 --np 16 --levels 0", "--levels: 0 is out of range"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL;
        int rc = testutil_perfcast_run(&out, "plan --model %s", cases[i].args);
        bool says = out && strstr(out, cases[i].says);
        if (rc != 2 || !says)
            fprintf(stderr, "\nplan --model %s: exit %d, '%s'\n", cases[i].args, rc,
                    out ? out : "");
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT_TRUE(says);
        free(out);
    }
    char *out = NULL; /* a size's X in either case, blanks around a number */
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 4096X4096 --np ' 16'"),
                    0);
    free(out);
}

/* A --cluster clusters.csv does not describe and a --campaign the archive
 * lacks are allowed (plan plans the first runs of new ones) but warned
 * about, with the nearest known name: a typo silently dropped the node
 * runs, or wrote a script starting a second campaign whose comment asked
 * for the --campaign that had been given. */
static void test_cli_unknown_names_warned(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 --np 16 "
                                                "--cluster ci-2cor 2>&1 >/dev/null"), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "perfcast plan: warning: no cluster 'ci-2cor' in "
                                              "archive/clusters.csv (did you mean 'ci-2core'?): "
                                              "the plan has no run that fills a node"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 --np 16 "
                                                "--format slurm --cluster ci-2core --campaign "
                                                "mgbench-strp 2>&1"), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "warning: no campaign 'mgbench-strp' in archive "
                                              "(did you mean 'mgbench-strip'?): the runs will "
                                              "start it in archive/mgbench-strp/runs.csv"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "# Time limit: a default: campaign mgbench-strp "
                                              "has no runs yet"));
    CU_ASSERT_PTR_NULL(out ? strstr(out, "give --campaign") : "no output");
    free(out);
    /* A new name far from every other: the warning, no suggestion. */
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 --np 16 "
                                                "--format mpirun --cluster ci-2core --campaign "
                                                "quite-new 2>&1 >/dev/null"), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "no campaign 'quite-new' in archive: the runs"));
    free(out);
    /* Known names, or a campaign a table does not write to: nothing said
     * (on dev-16core, whose one node holds the largest run's 8 processes). */
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 --np 16 "
                                                "--format slurm --cluster dev-16core --campaign "
                                                "mgbench16-strip 2>&1 >/dev/null"), 0);
    CU_ASSERT_STRING_EQUAL(out ? out : "no output", "");
    free(out);
    /* A script asking for more nodes than clusters.csv gives: ci-2core has
     * one node of 2 cores, and its 8-process runs need 4 such nodes. */
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 --np 16 "
                                                "--format slurm --cluster ci-2core --campaign "
                                                "mgbench-strip 2>&1 >/dev/null"), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "warning: the largest run asks for 4 nodes of 2 "
                                              "processes, but clusters.csv gives ci-2core 1 node"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 --np 16 "
                                                "--campaign quite-new 2>&1 >/dev/null"), 0);
    CU_ASSERT_STRING_EQUAL(out ? out : "no output", "");
    free(out);
}

/* A plan for a cluster with fewer cores than its runs ask: the embedded
 * archive's ci-2core has 1 node of 2 cores (clusters.csv), so the strip
 * runs at np0 = 4 and 8 are marked oversubscribed, in the table and in the
 * CSV's note, and the sequential ones are not; dev-16core (16 cores) marks
 * none. */
static void test_cli_plan_crowding(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 "
                                                "--np 16 --cluster ci-2core --format csv"), 0);
    size_t rows = 0, marked = 0;
    for (char *line = out ? strchr(out, '\n') : NULL; line && line[1]; line = strchr(line + 1, '\n')) {
        long np = 0;
        CU_ASSERT_EQUAL(sscanf(line + 1, "ci-2core,mgbench,%ld,", &np), 1);
        char *end = strchr(line + 1, '\n');
        size_t len = end ? (size_t)(end - line - 1) : strlen(line + 1);
        char want[64];
        snprintf(want, sizeof want, "; oversubscribed: %ld processes on 2 cores", np);
        bool says = len > strlen(want) && memcmp(line + 1 + len - strlen(want), want, strlen(want)) == 0;
        CU_ASSERT_EQUAL(says, np > 2);
        rows++, marked += says;
    }
    CU_ASSERT_EQUAL(rows, 18);
    CU_ASSERT_EQUAL(marked, 12);
    free(out);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 "
                                                "--np 16 --cluster ci-2core"), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "4 configurations put more processes on the cluster"));
    free(out);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "plan --model strip --target 4096x4096 "
                                                "--np 16 --cluster dev-16core"), 0);
    CU_ASSERT_PTR_NULL(out ? strstr(out, "oversubscribed") : "no output");
    free(out);
}

/* Node runs, by hand. A cluster of 16 nodes x 8 cores, strip target on
 * 128 processes: the defaults 4, 8 and 2 x 8 = 16 (8 already there, now
 * "fills one node"; 16 "spans two nodes"), each at levels 1 and 4. A
 * target on 12 processes keeps 4 and 8 (16 is not below 12). One node of
 * 16 cores, block target 8x4 = 32: 4, 8, 16 (16 fills the node, no second
 * node to span). A list given by hand gets nothing added; a multi-cluster
 * plan neither. */
static void test_node_runs(void)
{
    runplan p;
    char err[200];
    runplan_options opt = {NULL, 0, NULL, 0, 1, 8, 16, NULL, 0};
    CU_ASSERT_TRUE_FATAL(runplan_strip(65536, 2048, 128, &opt, &p, err, sizeof err));
    static const long want_np[] = {1, 1, 4, 4, 8, 8, 16, 16};
    static const runplan_why want_why[] = {RUNPLAN_WHY_MODEL, RUNPLAN_WHY_MODEL,
                                           RUNPLAN_WHY_MODEL, RUNPLAN_WHY_MODEL,
                                           RUNPLAN_WHY_FILLS_NODE, RUNPLAN_WHY_FILLS_NODE,
                                           RUNPLAN_WHY_CROSSES_NODE, RUNPLAN_WHY_CROSSES_NODE};
    CU_ASSERT_EQUAL_FATAL(p.nruns, 8);
    for (size_t i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL(p.runs[i].np, want_np[i]);
        CU_ASSERT_EQUAL(p.runs[i].why, want_why[i]);
    }
    runplan_free(&p);
    CU_ASSERT_TRUE_FATAL(runplan_strip(12 * 512, 2048, 12, &opt, &p, err, sizeof err));
    CU_ASSERT_EQUAL(runplan_max_np(&p), 8);
    runplan_free(&p);

    runplan_options one = {NULL, 0, NULL, 0, 1, 16, 1, NULL, 0};
    CU_ASSERT_TRUE_FATAL(runplan_block(8192, 4096, 8, 4, &one, &p, err, sizeof err));
    size_t fills = 0, crosses = 0;
    for (size_t i = 0; i < p.nruns; i++) {
        fills += p.runs[i].why == RUNPLAN_WHY_FILLS_NODE;
        crosses += p.runs[i].why == RUNPLAN_WHY_CROSSES_NODE;
        CU_ASSERT(p.runs[i].why != RUNPLAN_WHY_FILLS_NODE || p.runs[i].np == 16);
    }
    CU_ASSERT_EQUAL(runplan_max_np(&p), 16);
    CU_ASSERT_EQUAL(fills, 2 * 3); /* (16,1) and (1,16), three levels each */
    CU_ASSERT_EQUAL(crosses, 0);
    runplan_free(&p);

    static const long given[] = {4, 8};
    runplan_options hand = {given, 2, NULL, 0, 1, 8, 16, NULL, 0};
    CU_ASSERT_TRUE_FATAL(runplan_strip(65536, 2048, 128, &hand, &p, err, sizeof err));
    CU_ASSERT_EQUAL(runplan_max_np(&p), 8);
    runplan_free(&p);
    const long np2[2] = {64, 64}, rows2[2] = {512, 512};
    CU_ASSERT_TRUE_FATAL(runplan_multicluster(2048, np2, rows2, &opt, &p, err, sizeof err));
    CU_ASSERT_EQUAL(runplan_max_np(&p), 8);
    for (size_t i = 0; i < p.nruns; i++)
        CU_ASSERT_EQUAL(p.runs[i].why, RUNPLAN_WHY_MODEL);
    runplan_free(&p);
}

/* Issue 23's torus: 64 hosts of 2 cores as 4 x 4 x 4. Its second and third
 * dimensions start at 5 and 17 nodes (models/topology.h), 10 and 34
 * processes: a strip target on 128 gets np0 = 4, 8 (the paper's; 4 spans
 * two nodes) and 10, 34, each why "fills a new network level"; a target on
 * 32 keeps 10 only (34 is not below 32). */
static void test_network_level_runs(void)
{
    runplan p;
    char err[200];
    static const long level_nodes[] = {5, 17};
    runplan_options opt = {NULL, 0, NULL, 0, 1, 2, 64, level_nodes, 2};
    CU_ASSERT_TRUE_FATAL(runplan_strip(65536, 2048, 128, &opt, &p, err, sizeof err));
    size_t level_runs = 0;
    long seen[4] = {0};
    for (size_t i = 0; i < p.nruns; i++) {
        if (p.runs[i].why == RUNPLAN_WHY_NETWORK_LEVEL) {
            CU_ASSERT(p.runs[i].np == 10 || p.runs[i].np == 34);
            level_runs++;
        }
        for (int k = 0; k < 4; k++)
            seen[k] += p.runs[i].np == (long[]){4, 8, 10, 34}[k];
    }
    CU_ASSERT_EQUAL(level_runs, 2 * 2); /* two np, two work levels each */
    for (int k = 0; k < 4; k++)
        CU_ASSERT_EQUAL(seen[k], 2);
    CU_ASSERT_EQUAL(runplan_max_np(&p), 34);
    CU_ASSERT_PTR_NOT_NULL(strstr(runplan_why_text(RUNPLAN_WHY_NETWORK_LEVEL),
                                  "fills a new network level"));
    runplan_free(&p);
    CU_ASSERT_TRUE_FATAL(runplan_strip(16384, 2048, 32, &opt, &p, err, sizeof err));
    CU_ASSERT_EQUAL(runplan_max_np(&p), 10);
    runplan_free(&p);
}

/* The command line says why: sim-c-ib in the embedded clusters.csv has 16
 * nodes of 8 cores. */
static void test_cli_node_runs(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "plan --model strip --target 65536x2048 "
                                                "--np 128 --cluster sim-c-ib --format csv"), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\nsim-c-ib,mgbench,8,8,1,4096,2048,,1,,strip "
                                              "overhead level 1; fills one node: its "
                                              "memory-bandwidth contention\n"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\nsim-c-ib,mgbench,16,16,1,8192,2048,,1,,strip "
                                              "overhead level 1; spans two nodes: the node "
                                              "boundary\n"));
    free(out);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "plan --model strip --target 65536x2048 "
                                                "--np 128 --cluster sim-c-ib --np0 4,8"), 0);
    CU_ASSERT_PTR_NULL(out ? strstr(out, "16x1") : "no output");
    free(out);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"strip plan -> fit recovers the law", test_strip_plan_fit},
        {"block plan -> fit recovers the law", test_block_plan_fit},
        {"block plan with npa <= 2", test_block_plan_small_direction},
        {"multicluster plan -> fits", test_multicluster_plan_fit},
        {"plan errors", test_plan_errors},
        {"no run twice; a run above the target says so", test_plan_repeats_and_size},
        {"CLI: no configuration twice, np = 1 refused", test_cli_no_repeats},
        {"CLI: strip plan -> fit -> predict", test_cli_strip_plan_fit},
        {"CLI: block plan -> fit -> predict", test_cli_block_plan_fit},
        {"CLI: Slurm script", test_cli_slurm_script},
        {"CLI: usage", test_cli_usage},
        {"CLI: usage messages name the range", test_cli_usage_messages},
        {"CLI: an unknown cluster or campaign is warned about", test_cli_unknown_names_warned},
        {"CLI: plan marks oversubscribed runs", test_cli_plan_crowding},
        {"node runs: fill a node, span two", test_node_runs},
        {"network level runs: a torus dimension each", test_network_level_runs},
        {"CLI: plan says why a node run is there", test_cli_node_runs},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"runplan", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
