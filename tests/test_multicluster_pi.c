/*
 * test_multicluster_pi.c — the multi-cluster model's own 95% interval
 * through its adapter (gen/fit/multicluster_pi.h): the link's width from
 * the ping-pong rows and the nominal link, worked out by hand here; the
 * interval assembled from the parts the note reports, by the formula of
 * models/multicluster.h written out again here; no interval, and why,
 * without the pooled strip backtests or without a nominal link.
 */
#include "gen/fit/backtest_cache.h"
#include "gen/fit/experiment_run.h"
#include "tests/testutil.h"
#include "tests/testutil_archive.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double N = 1024; /* every run's row length */

static const char HEADER[] = "cluster,code,np,npa,npb,na,nb,work_mb,np_a,np_b,rows_a,rows_b,"
                             "tag_cluster_b,cycles,time_s,rep,kind,cluster_b,bytes,link_lat_us,"
                             "link_bw_gbs,ppn\n";

/* The split job of test_measured_link.c: 16 processes of X with 128 rows,
 * 8 of Y with 256, 10 V-cycles, 4 processes per node; two ping-pong rows,
 * 100 us at 0.01 GB/s and 300 us at 0.04 GB/s. Its measured time is 5 s. */
static const char SPLIT[] = "X,mg,24,,,4096,1024,,16,8,2048,2048,Y,10,5,1,,,,,,4\n"
                            "X,mgbench,24,,,,,,,,,,,,,1,pingpong,Y,16400,100,0.01,\n"
                            "Y,mgbench,24,,,,,,,,,,,,,2,pingpong,X,16400,300,0.04,\n";

/* Strip runs of a cluster: sequential meshes of rows and rows/4, parallel
 * np 2 .. top, two repetitions, a smooth law with a little curvature so
 * that the backtests of the strip experiment score non-zero errors. */
static void strip_runs(char *out, size_t len, const char *cluster, double rows, double speed,
                       double top)
{
    size_t at = strlen(out);
    const double per[] = {rows, rows / 4};
    for (int rep = 0; rep < 2; rep++)
        for (int i = 0; i < 2; i++)
            for (double np = 1; np <= top; np *= 2) {
                double work = 32.0 / 1048576.0 * per[i] * N;
                double t = speed * work + (np > 1 ? 0.3 + 0.1 * log2(np) + 0.02 * np : 0);
                at += (size_t)snprintf(out + at, len - at,
                                       "%s,mg,%g,%g,1,%g,%g,%.17g,,,,,,,%.17g,%d,,,,,,\n", cluster,
                                       np, np, np * per[i], N, work, t * (rep ? 0.99 : 1.01),
                                       rep);
            }
}

static char dir[256];

/* Campaign "s" ran under SimGrid SMPI (engine = smpi on every row): its
 * link's two directions share the bandwidth (gen/ingest/pair_link.h). */
static bool s_simulated;

/* runs with a last column engine = smpi on every row (in place; room for
 * it is the caller's). */
static void add_engine(char *runs, size_t len)
{
    static char copy[40000];
    size_t at = 0;
    snprintf(copy, sizeof copy, "%s", runs);
    for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n"))
        at += (size_t)snprintf(runs + at, len - at, "%s%s\n", line,
                               at ? ",smpi" : ",engine");
}

/* Campaign "other": a strip experiment on X, np 1-16, whose backtests
 * fill the strip pool; campaign "s": the split with training runs np <= 8
 * of both clusters, experiment mc with the options cluster_b=Y and
 * `more`. clusters gives clusters.csv. */
static void make_archive_with(const char *clusters, const char *more)
{
    char exps[256];
    snprintf(exps, sizeof exps, "name,model,train,target,options\nmc,multicluster,np <= 8,"
                                "np_a > 0,\"cluster_b=Y%s\"\n", more);
    static char runs[32768];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    snprintf(runs, sizeof runs, "%s", HEADER);
    strip_runs(runs, sizeof runs, "X", 128, 0.05, 16);
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(
        dir, clusters, "other", "name,model,train,target,options\nst,strip,np <= 8,np == 16,\n",
        runs));
    snprintf(runs, sizeof runs, "%s", HEADER);
    strip_runs(runs, sizeof runs, "X", 128, 0.05, 8);
    strip_runs(runs, sizeof runs, "Y", 256, 0.03, 8);
    snprintf(runs + strlen(runs), sizeof runs - strlen(runs), "%s", SPLIT);
    if (s_simulated)
        add_engine(runs, sizeof runs);
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, clusters, "s", exps, runs));
}

static void make_archive(const char *clusters)
{
    make_archive_with(clusters, "");
}

typedef struct {
    double estimate, pi_low, pi_high, cal_low, cal_high;
    char note[4096];
} split_result;

/* Experiment mc of campaign s, with the build's pool (pooled) or without. */
static void run_split(bool pooled, split_result *out)
{
    archive a;
    testutil_load_archive(dir, &a);
    const campaign *c = archive_campaign(&a, "s");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    backtest_cache *cache = pooled ? backtest_cache_new() : NULL;
    experiment_result res;
    bool ok = experiment_run_shared(&a, c, campaign_experiment(c, "mc"), cache, &res);
    if (!ok)
        fprintf(stderr, "%s\n", res.error);
    CU_ASSERT_TRUE_FATAL(ok && res.rep.npreds == 1);
    const report_prediction *p = &res.rep.preds[0];
    *out = (split_result){p->estimate, p->pi_low, p->pi_high, p->cal_low, p->cal_high, ""};
    snprintf(out->note, sizeof out->note, "%s", p->note ? p->note : "");
    experiment_result_free(&res);
    backtest_cache_free(cache);
    archive_free(&a);
}

/* got is want within tol (relative), else say so with the note. */
static void check_rel_note(double got, double want, double tol, const char *note)
{
    if (!(testutil_rel_diff(got, want) <= tol))
        fprintf(stderr, "got %.9g want %.9g\n%s\n", got, want, note);
    CU_ASSERT_TRUE(testutil_rel_diff(got, want) <= tol);
}

/* The number after `key` in text, NAN when absent. */
static double number_after(const char *text, const char *key)
{
    const char *at = strstr(text, key);
    return at ? strtod(at + strlen(key), NULL) : NAN;
}

static const char LINKED[] = "cluster,mem_per_core_gb,rate_per_core_hour,link_bw_gbs,link_lat_us\n"
                             "X,1,1,0.0125,100\nY,1,2,0.0125,100\n";

/* T_link's width by hand. The split's traffic (test_measured_link.c): 72
 * messages and 164712 bytes per V-cycle. Measured link 200 us, 16 MB/s;
 * nominal 200 us, 12.5 MB/s; form = ln(T_nominal / T_measured), the
 * cycles cancelling. The noise: mgbench's largest halo row, 8 (1024 + 2) =
 * 8208 bytes, takes 100 us + 8208 / 1e7 s = 920.8 us on the first row and
 * 300 us + 8208 / 4e7 s = 505.2 us on the second: two logs, sample sd
 * |ln(920.8 / 505.2)| / sqrt(2), t(0.975, 1) = 12.7062047361747, times
 * sqrt(1 + 1/2). */
static void test_link_width_by_hand(void)
{
    make_archive(LINKED);
    split_result r;
    run_split(true, &r);
    double form = log((72 * 200e-6 + 164712 / 12.5e6) / (72 * 200e-6 + 164712 / 16e6));
    double noise = 12.7062047361747 * fabs(log(920.8 / 505.2)) / sqrt(2) * sqrt(1.5);
    double want = exp(hypot(noise, form));
    double got = number_after(r.note, "T_link \xC3\x97/\xC3\xB7");
    if (!(testutil_rel_diff(got, want) <= 1e-3))
        fprintf(stderr, "T_link width got %g want %g\n%s\n", got, want, r.note);
    CU_ASSERT_TRUE(testutil_rel_diff(got, want) <= 1e-3); /* the note prints 3 digits */
    printf("\n  T_link x/%g (by hand %g); own interval %.4g-%.4g s around %.4g s\n", got, want,
           r.pi_low, r.pi_high, r.estimate);
    char apart[64];
    snprintf(apart, sizeof apart, "link %.3gx apart", exp(form));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.note, apart));

    /* The bounds from the parts the note gives (TA, TB, the boundary
     * processes BA and BB, T_link and their widths), by
     * models/multicluster.h's formula written out here. */
    double ta = number_after(r.note, "max(TA "), tb = number_after(r.note, "s, TB ");
    double ba = number_after(r.note, "max(BA "), bb = number_after(r.note, ", BB ");
    double tl = number_after(r.note, "+ T_link ");
    double ha = log(number_after(r.note, "TA \xC3\x97/\xC3\xB7"));
    double hb = log(number_after(r.note, "TB \xC3\x97/\xC3\xB7"));
    double hl = log(got);
    CU_ASSERT_TRUE(ha > 0 && hb > 0 && tl > 0 && ba > 0 && ba < ta && bb > 0 && bb < tb);
    double lo = fmax(fmax(ta / exp(ha), tb / exp(hb)), fmax(ba / exp(ha), bb / exp(hb)) +
                                                           tl / exp(hl));
    double hi = fmax(fmax(ta * exp(ha), tb * exp(hb)), fmax(ba * exp(ha), bb * exp(hb)) +
                                                           tl * exp(hl));
    CU_ASSERT_TRUE(testutil_rel_diff(r.pi_low, lo) <= 5e-3);
    CU_ASSERT_TRUE(testutil_rel_diff(r.pi_high, hi) <= 5e-3);
    CU_ASSERT_TRUE(r.pi_low < r.estimate && r.estimate < r.pi_high);
    /* The calibrated interval contains the model's own. */
    CU_ASSERT_TRUE(r.cal_low <= r.pi_low * (1 + 1e-12) && r.cal_high >= r.pi_high * (1 - 1e-12));
    testutil_remove_dir(dir);
}

/* The same split run under SMPI: the link's bandwidth is shared by both
 * directions (s = 2), so T_link carries each two-way row twice: of the
 * 164712 bytes a V-cycle, all but the residual rows (one a level, 8 x
 * (1024 + 512 + ... + 16 + 7 x 2) = 16368 bytes) count twice, 313056
 * bytes. The link's form error is the overlap of the two directions, none
 * to whole: log(T_link at s = 2 / T_link at s = 1) with the measured link
 * (200 us, 16 MB/s), in quadrature with the ping-pong noise of
 * test_link_width_by_hand. */
static void test_shared_link_width(void)
{
    s_simulated = true;
    make_archive(LINKED);
    s_simulated = false;
    split_result r;
    run_split(true, &r);
    double whole = 72 * 200e-6 + 313056 / 16e6, none = 72 * 200e-6 + 164712 / 16e6;
    check_rel_note(number_after(r.note, "+ T_link "), 10 * whole, 1e-5, r.note);
    double noise = 12.7062047361747 * fabs(log(920.8 / 505.2)) / sqrt(2) * sqrt(1.5);
    double want = exp(hypot(noise, log(whole / none)));
    check_rel_note(number_after(r.note, "T_link \xC3\x97/\xC3\xB7"), want, 1e-3, r.note);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.note, "both directions sharing its bandwidth"));
    char overlap[96];
    snprintf(overlap, sizeof overlap, "overlap on the shared link, from none to whole, %.3gx",
             whole / none);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.note, overlap));
    testutil_remove_dir(dir);
}

/* No pool (a fit without the build's pool): no own interval, and why. */
static void test_no_pool(void)
{
    make_archive(LINKED);
    split_result r;
    run_split(false, &r);
    CU_ASSERT_TRUE(isnan(r.pi_low) && isnan(r.pi_high));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.note, "no interval: the archive has no pooled strip "
                                          "backtests for side A"));
    testutil_remove_dir(dir);
}

/* The link measured but not nominal (clusters.csv has no link columns):
 * T_link's model error is unknown, so no interval, and why. */
static void test_no_nominal(void)
{
    make_archive("cluster,mem_per_core_gb,rate_per_core_hour\nX,1,1\nY,1,2\n");
    split_result r;
    run_split(true, &r);
    CU_ASSERT_TRUE(isnan(r.pi_low) && isnan(r.pi_high));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.note, "clusters.csv gives no nominal link"));
    testutil_remove_dir(dir);
}

/* Node contention per side (option contention, as for strip): X gives
 * one core 10 GB/s of a node's 20, so at the split's 4 processes per node
 * X's Tcomp is crowded by max(1, 4 x 10 / 20) = 2; Y gives no bandwidths,
 * so its side does not move. The training runs' nodes are unknown (no
 * ppn, no nodes, clusters.csv gives no nodes), so the fits are the same
 * and TA grows by exactly X's Tcomp alone: the sequential run of its
 * 128 x 1024 per-process mesh, 0.05 s/MB x 4 MB = 0.2 s (the mean of its
 * two repetitions at +1% and -1%). contention=none is the paper's. */
static void test_contention_per_side(void)
{
    static const char BANDWIDTH[] =
        "cluster,mem_per_core_gb,rate_per_core_hour,link_bw_gbs,link_lat_us,mbw_core_gbs,"
        "mbw_read_gbs\nX,1,1,0.0125,100,10,20\nY,1,2,0.0125,100,,\n";
    split_result crowded, paper;
    make_archive_with(BANDWIDTH, "");
    run_split(false, &crowded);
    testutil_remove_dir(dir);
    make_archive_with(BANDWIDTH, ";contention=none");
    run_split(false, &paper);
    testutil_remove_dir(dir);
    double ta[2] = {number_after(crowded.note, "max(TA "), number_after(paper.note, "max(TA ")};
    double tb[2] = {number_after(crowded.note, "s, TB "), number_after(paper.note, "s, TB ")};
    printf("\n  TA %g s crowded, %g s without the law\n", ta[0], ta[1]);
    if (!(fabs(ta[0] - ta[1] - 0.2) < 1e-3))
        fprintf(stderr, "TA %g and %g\n", ta[0], ta[1]);
    CU_ASSERT_TRUE(fabs(ta[0] - ta[1] - 0.2) < 1e-3); /* the note prints 4 digits */
    CU_ASSERT_DOUBLE_EQUAL(tb[0], tb[1], 1e-12);
    make_archive_with(BANDWIDTH, ";contention=sometimes");
    archive a;
    testutil_load_archive(dir, &a);
    const campaign *c = archive_campaign(&a, "s");
    experiment_result res;
    CU_ASSERT_FALSE(experiment_run(&a, c, campaign_experiment(c, "mc"), &res));
    CU_ASSERT_PTR_NOT_NULL(strstr(res.error, "contention"));
    experiment_result_free(&res);
    archive_free(&a);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"T_link's width and the bounds by hand", test_link_width_by_hand},
        {"a shared link: twice the bytes, the overlap as its width", test_shared_link_width},
        {"no pool: no interval", test_no_pool},
        {"no nominal link: no interval", test_no_nominal},
        {"node contention per side", test_contention_per_side},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"multicluster interval", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
