/*
 * test_measured_link.c — the multi-cluster model with the link between the
 * clusters measured by mgbench --pingpong (runs.csv rows kind=pingpong):
 * the option link=measured|model|none and its default rule, T_link from
 * the measured latency and bandwidth against arithmetic written out here,
 * ping-pong rows kept out of every fit and target, and the archive
 * reader's FILE:LINE:COL errors for a bad ping-pong row.
 */
#include "gen/fit/experiment_run.h"
#include "gen/ingest/experiment.h"
#include "tests/testutil.h"
#include "tests/testutil_archive.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double N = 1024; /* the row length of every run */

static const char CLUSTERS[] =
    "cluster,mem_per_core_gb,rate_per_core_hour,link_bw_gbs,link_lat_us\n"
    "X,1,1,0.0125,100\nY,1,2,0.0125,100\n";

static const char HEADER[] = "cluster,code,np,npa,npb,na,nb,work_mb,np_a,np_b,rows_a,rows_b,"
                             "tag_cluster_b,cycles,time_s,rep,kind,cluster_b,bytes,link_lat_us,"
                             "link_bw_gbs\n";

/* The split job: 16 processes of X with 128 rows each, 8 of Y with 256,
 * rows of 1024, 10 V-cycles. */
static const char TARGET[] = "X,mg,24,,,4096,1024,,16,8,2048,2048,Y,10,,0,,,,,\n";

/* Two ping-pong rows between X and Y, one in each order: latencies 100
 * and 300 us, bandwidths 0.01 and 0.04 GB/s. */
static const char PINGPONG[] = "X,mgbench,24,,,,,,,,,,,,,1,pingpong,Y,16400,100,0.01\n"
                               "Y,mgbench,24,,,,,,,,,,,,,2,pingpong,X,16400,300,0.04\n";

/* Strip training runs of one cluster (sequential meshes of rows and
 * rows/4, np0 = 4, 8 at both), any smooth law: the tests below read the
 * link's share only, which the strip fits do not touch. */
static void strip_runs(char *out, size_t len, const char *cluster, double rows, double speed)
{
    size_t at = strlen(out);
    const double per[] = {rows, rows / 4}, nps[] = {1, 4, 8};
    for (int rep = 0; rep < 2; rep++)
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < 3; k++) {
                double work = 32.0 / 1048576.0 * per[i] * N;
                double t = speed * work * (1 + 0.05 * k) + (k ? 0.3 + 0.1 * log2(nps[k]) : 0);
                at += (size_t)snprintf(out + at, len - at,
                                       "%s,mg,%g,%g,1,%g,%g,%.17g,,,,,,,%.17g,%d,,,,,\n", cluster,
                                       nps[k], nps[k], nps[k] * per[i], N, work,
                                       t * (rep ? 0.99 : 1.01), rep);
            }
}

static char dir[256];

/* The archive: clusters X and Y, campaign s with the training runs, the
 * split target and `extra` rows; experiment mc with the given options. */
static void make_archive(const char *options, const char *extra)
{
    static char runs[16384], exps[512];
    snprintf(runs, sizeof runs, "%s", HEADER);
    strip_runs(runs, sizeof runs, "X", 128, 0.05);
    strip_runs(runs, sizeof runs, "Y", 256, 0.03);
    snprintf(runs + strlen(runs), sizeof runs - strlen(runs), "%s%s", TARGET, extra);
    snprintf(exps, sizeof exps, "name,model,train,target,options\n"
                                "mc,multicluster,np <= 8,np_a > 0,\"%s\"\n", options);
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, CLUSTERS, "s", exps, runs));
}

/* Runs experiment mc of the archive: its estimate of the split job, the
 * note and warnings joined in text (NULL to skip), NAN on failure. */
static double estimate(char *text, size_t len)
{
    archive a;
    testutil_load_archive(dir, &a);
    CU_ASSERT_EQUAL_FATAL(a.ncampaigns, 1);
    const campaign *c = &a.campaigns[0];
    experiment_result res;
    bool ok = experiment_run(&a, c, campaign_experiment(c, "mc"), &res);
    if (!ok)
        fprintf(stderr, "%s\n", res.error);
    double t = ok && res.rep.npreds == 1 ? res.rep.preds[0].estimate : NAN;
    if (text) {
        snprintf(text, len, "%s", ok && res.rep.npreds ? res.rep.preds[0].note : "");
        for (size_t i = 0; i < res.rep.nwarnings; i++)
            snprintf(text + strlen(text), len - strlen(text), "\n%s", res.rep.warnings[i]);
    }
    CU_ASSERT_EQUAL(res.input.ntargets, 1); /* the ping-pong rows are no target */
    experiment_result_free(&res);
    archive_free(&a);
    testutil_remove_dir(dir);
    return t;
}

/* T_link by hand (models/multicluster.h's law): rows halve while every
 * process's rows are even and >= 2, so 128 and 256 rows per process halve
 * 7 times (A's 128 -> 1, B's 256 -> 2; the row 1024 -> 8): L = 8. Levels
 * 0..6 send 10 rows each of 8 (1024/2^l + 2) bytes,
 *   8 x (1024 + 512 + 256 + 128 + 64 + 32 + 16 + 7 x 2) = 16368 bytes, x 10;
 * the allreduce one double and the gather the larger side's share of the
 * coarsest grid, 16 x 1 x 8 = 8 x 2 x 8 = 128 doubles: 8 x 129 = 1032.
 * So 10 x 7 + 2 = 72 messages and 164712 bytes per V-cycle, 10 cycles. */
static double link_by_hand(double latency_s, double bw_bytes_s)
{
    return 10 * (72 * latency_s + 164712 / bw_bytes_s);
}

static void check_rel(double got, double want, double tol)
{
    if (!(testutil_rel_diff(got, want) <= tol))
        fprintf(stderr, "got %.15g want %.15g\n", got, want);
    CU_ASSERT_TRUE(testutil_rel_diff(got, want) <= tol);
}

/* A note's T_link is `link` (by hand), and its estimate t is
 * models/multicluster.h's max(TA, TB, max(BA, BB) + T_link) of the parts
 * it prints (6 digits), where TA and TB make the paper's estimate. The
 * runs give no engine: a real, full-duplex link. */
static void check_link(const char *note, double t, double paper, double link)
{
    double ta = testutil_number_after(note, "max(TA "), tb = testutil_number_after(note, "s, TB ");
    double ba = testutil_number_after(note, "max(BA "), bb = testutil_number_after(note, ", BB ");
    check_rel(testutil_number_after(note, "+ T_link "), link, 1e-5);
    check_rel(fmax(ta, tb), paper, 1e-5);
    CU_ASSERT_TRUE(ba > 0 && ba < ta && bb > 0 && bb < tb);
    check_rel(t, fmax(fmax(ta, tb), fmax(ba, bb) + link), 1e-5);
    CU_ASSERT_PTR_NOT_NULL(strstr(note, "full duplex"));
}

/* The ping-pong rows average to 200 us (mean latency) and 16 MB/s (the
 * mean cost per byte: (1/0.01 + 1/0.04) / 2 = 62.5 s/GB); the nominal path
 * of clusters.csv is 100 + 100 us and 12.5 MB/s. */
static void test_measured_link_by_hand(void)
{
    char text[4096], text_measured[4096];
    make_archive("cluster_b=Y;link=none", PINGPONG);
    double paper = estimate(NULL, 0);
    make_archive("cluster_b=Y", PINGPONG); /* the default: measured, the rows are there */
    double measured = estimate(text_measured, sizeof text_measured);
    snprintf(text, sizeof text, "%s", text_measured);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "the link between the clusters, measured by ping-pong "
                                        "(runs.csv line 27, 2 rows)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "72 messages and 164.7 kB per V-cycle over 8 levels"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "at 16 MB/s and 200 us"));
    make_archive("cluster_b=Y;link=measured", PINGPONG);
    double forced = estimate(NULL, 0);
    make_archive("cluster_b=Y;link=model", PINGPONG);
    double nominal = estimate(text, sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "the link between the clusters, nominal, from "
                                        "clusters.csv"));
    check_link(text_measured, measured, paper, link_by_hand(200e-6, 16e6));
    check_rel(forced, measured, 1e-15);
    check_link(text, nominal, paper, link_by_hand(200e-6, 12.5e6));
    printf("\n  T_link measured by hand %.6g s, nominal by hand %.6g s\n",
           link_by_hand(200e-6, 16e6), link_by_hand(200e-6, 12.5e6));
}

/* Without ping-pong rows the default is the nominal link; link=measured
 * then leaves the link out and says why. The ping-pong rows, selected by
 * the train filter np <= 8 when their np is, never change the fit. */
static void test_default_rule(void)
{
    char text[4096];
    make_archive("cluster_b=Y;link=model", "");
    double nominal = estimate(NULL, 0);
    make_archive("cluster_b=Y", "");
    check_rel(estimate(NULL, 0), nominal, 1e-15);
    make_archive("cluster_b=Y;link=none", "");
    double paper = estimate(NULL, 0);
    make_archive("cluster_b=Y;link=measured", "");
    check_rel(estimate(text, sizeof text), paper, 1e-15);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "option link=measured, but the campaign has no "
                                        "ping-pong row"));
    make_archive("cluster_b=Y;link=none",
                 "X,mgbench,2,,,,,,,,,,,,,1,pingpong,Y,16400,100,0.01\n");
    check_rel(estimate(NULL, 0), paper, 1e-15);
    make_archive("cluster_b=Y;link=sometimes", "");
    CU_ASSERT_TRUE(isnan(estimate(NULL, 0)));
}

/* A bad ping-pong row (line 27: the header, 24 training runs, the target):
 * the archive reader names FILE:LINE:COL, the column being where `cell`
 * starts in the row, `skip` characters into it. */
static void expect_row_problem(const char *row, const char *cell, long skip, const char *message)
{
    long col = (long)(strstr(row, cell) - row) + skip + 1;
    make_archive("cluster_b=Y", row);
    archive a;
    diag_list d;
    diag_init(&d);
    archive_load(dir, &a, &d);
    CU_ASSERT_EQUAL_FATAL(d.count, 1);
    CU_ASSERT_EQUAL(d.items[0].line, 27);
    CU_ASSERT_EQUAL(d.items[0].column, col);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.items[0].file, "runs.csv"));
    if (!strstr(d.items[0].message, message))
        fprintf(stderr, "'%s' lacks '%s'\n", d.items[0].message, message);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.items[0].message, message));
    diag_free(&d);
    archive_free(&a);
    testutil_remove_dir(dir);
}

static void test_row_errors(void)
{
    static const struct {
        const char *row, *cell;
        long skip;
        const char *message;
    } cases[] = {
        {"X,mgbench,24,,,,,,,,,,,,,1,pingpong,,16400,100,0.01\n", "pingpong,", 9,
         "missing value for a ping-pong row"},
        {"X,mgbench,24,,,,,,,,,,,,,1,pingpong,Y,16400,100,\n", "100,", 4,
         "kind=pingpong needs cluster_b, link_lat_us and link_bw_gbs"},
        {"X,mgbench,24,,,,,,,,,,,,,1,pingpang,Y,16400,100,0.01\n", "pingpang", 0,
         "unknown kind (expected pingpong"},
        {"X,mgbench,24,,,,,,,,,,,,,1,pingpong,Z,16400,100,0.01\n", ",Z,", 1, "unknown cluster"},
        {"X,mgbench,24,,,,,,,,,,,,3,1,pingpong,Y,16400,100,0.01\n", "3,1,", 0,
         "expected time_s empty"},
        {"X,mgbench,24,,,,,,,,,,,,,1,pingpong,Y,16400,100,-1\n", "-1", 0,
         "expected a number greater than 0 in column 'link_bw_gbs'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_row_problem(cases[i].row, cases[i].cell, cases[i].skip, cases[i].message);
}

/* perfcast plan --model multicluster names the ping-pong run, with its
 * mgbench command for the split's boundary pair, and why; its CSV lists it
 * too, as a row of kind pingpong between X and Y (gawk reads the CSV, not
 * perfcast's reader): 16 + 8 ranks, two rows each (na 48), nb 1024. */
static void test_plan_lists_pingpong(void)
{
    char *out = NULL, csv[512];
    make_archive("cluster_b=Y", "");
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --archive %s --model multicluster "
                                                "--target 4096x1024 --np 16,8 --cluster X,Y",
                                          dir), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "mgbench --pingpong --split 16:32 --na 48 "
                                              "--nb 1024 --cluster X --cluster-b Y on 24 ranks"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "option link=measured"));
    free(out);
    out = NULL;
    snprintf(csv, sizeof csv, "%s/plan.csv", dir);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "plan --archive %s --model multicluster "
                                                "--target 4096x1024 --np 16,8 --cluster X,Y "
                                                "--format csv > %s", dir, csv), 0);
    free(out);
    out = NULL;
    /* Every row: its kind, and for the ping-pong its cluster, cluster_b,
     * np, na, nb and whether its note names the command. */
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, TESTUTIL_GAWK_CSV
                    "'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }"
                    " $c[\"kind\"] == \"pingpong\" { n++; print $c[\"cluster\"], "
                    "$c[\"cluster_b\"], $c[\"np\"], $c[\"na\"], $c[\"nb\"], "
                    "(index($c[\"note\"], \"mgbench --pingpong --split 16:32\") > 0); next }"
                    " $c[\"kind\"] == \"\" { solves++ }"
                    " END { print n + 0, \"pingpong;\", solves + 0, \"solves\" }' %s", csv), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "X Y 24 48 1024 1\n1 pingpong;"));
    CU_ASSERT_PTR_NULL(out ? strstr(out, " 0 solves") : "no output");
    if (out && !strstr(out, "X Y 24 48 1024 1"))
        fprintf(stderr, "%s\n", out);
    free(out);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"T_link from the measured link, by hand", test_measured_link_by_hand},
        {"link option: the default rule", test_default_rule},
        {"ping-pong rows: FILE:LINE:COL errors", test_row_errors},
        {"plan lists the ping-pong run", test_plan_lists_pingpong},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"measured link", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
