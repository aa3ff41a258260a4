/*
 * test_contention.c — node contention of Tcomp (models/contention.h) and
 * the strip model under it (issue 23 item 1).
 *
 * Every expected number is worked out by hand in the comments, never by
 * the code under test: the law's factors on the dev-16core node; a strip
 * campaign whose truth is T = Tcomp1 x max(1, ppn x 10/40) + 0.01 +
 * 0.005 log2 np + 0.002 work, fitted on np 2, 4, 8 of one 16-core node and
 * predicted at 16 (exact with the law, far off with the paper's model),
 * first on the model directly, then end to end through `perfcast predict
 * --format csv`, read back with gawk — and, by default, the geometric mean
 * of the two with its own interval spanning them (what the strip adapter
 * does where the cluster gives both bandwidths); the line each fit prints about the
 * law, the option's errors and the clusters.csv column's FILE:LINE:COL.
 */
#include "models/block.h"
#include "models/contention.h"
#include "models/strip.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dev-16core: one core 7.3 GB/s, the node 69.2 GB/s (clusters.csv). */
static void test_law_by_hand(void)
{
    contention_law law = contention_roofline(7.3, 69.2);
    CU_ASSERT_TRUE(law.on);
    /* 16 x 7.3 = 116.8; 116.8 / 69.2 = 1.687861271676... */
    CU_ASSERT_DOUBLE_EQUAL(contention_factor(&law, 16), 1.6878612716763, 1e-12);
    /* 12 x 7.3 = 87.6; 87.6 / 69.2 = 1.265895953757... */
    CU_ASSERT_DOUBLE_EQUAL(contention_factor(&law, 12), 1.2658959537572, 1e-12);
    /* 9 x 7.3 = 65.7 < 69.2: the bus is not full, exactly 1 */
    CU_ASSERT_EQUAL(contention_factor(&law, 9), 1);
    CU_ASSERT_EQUAL(contention_factor(&law, 1), 1);
    /* 69.2 / 7.3 = 9.479452054794... */
    CU_ASSERT_DOUBLE_EQUAL(contention_saturation(&law), 9.4794520547945, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(contention_tcomp(&law, 0.2, 16), 0.2 * 1.6878612716763, 1e-12);
    /* Unknown processes per node or bandwidth: no guess, factor 1. */
    CU_ASSERT_EQUAL(contention_factor(&law, NAN), 1);
    CU_ASSERT_EQUAL(contention_factor(&law, 0), 1);
    contention_law half = contention_roofline(NAN, 69.2);
    CU_ASSERT_FALSE(half.on);
    CU_ASSERT_EQUAL(contention_factor(&half, 16), 1);
    CU_ASSERT_FALSE(contention_roofline(7.3, 0).on);
    CU_ASSERT_TRUE(isnan(contention_saturation(&half)));
    contention_law none = contention_none();
    CU_ASSERT_EQUAL(contention_factor(&none, 64), 1);

    char text[300];
    contention_text(text, sizeof text, &law, 16);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "16 processes share one node: Tcomp x 1.69 from the "
                                        "node's bandwidth"));
    contention_text(text, sizeof text, &law, 8);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "8 processes share one node: Tcomp unchanged"));
    contention_text(text, sizeof text, &law, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "1 process alone on one node: Tcomp unchanged"));
    contention_text(text, sizeof text, &law, NAN);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "processes per node unknown"));
}

/* A configuration takes the most crowded of its repetitions. */
static void test_config_ppn(void)
{
    mesh_run runs[] = {{2, 1, 8, 8, 1, 1}, {2, 1, 8, 8, 1, 1.1}, {4, 1, 8, 8, 1, 2}};
    double ppn[] = {2, 1, NAN};
    mesh_configs cs;
    CU_ASSERT_TRUE_FATAL(mesh_configs_build(runs, 3, 0.01, &cs));
    CU_ASSERT_EQUAL_FATAL(cs.nconfigs, 2);
    double out[2];
    contention_config_ppn(&cs, ppn, out);
    CU_ASSERT_EQUAL(out[cs.config_of[0]], 2);
    CU_ASSERT_TRUE(isnan(out[cs.config_of[2]]));
    contention_config_ppn(&cs, NULL, out);
    CU_ASSERT_TRUE(isnan(out[0]) && isnan(out[1]));
    mesh_configs_free(&cs);
}

/*
 * The synthetic campaign. A 16-core node, one core 10 GB/s, the node
 * 40 GB/s: factor max(1, ppn/4), so 1 at ppn 2 and 4, 2 at 8, 4 at 16.
 * Per-process meshes 256x1024 (work 2 MB, Tcomp1 0.1 s) and 512x1024
 * (4 MB, 0.2 s); T = Tcomp1 f + 0.01 + 0.005 log2 np + 0.002 work:
 *
 *   np   256x1024                        512x1024
 *    2   0.1   + 0.015 + 0.004 = 0.119   0.2   + 0.015 + 0.008 = 0.223
 *    4   0.1   + 0.020 + 0.004 = 0.124   0.2   + 0.020 + 0.008 = 0.228
 *    8   0.2   + 0.025 + 0.004 = 0.229   0.4   + 0.025 + 0.008 = 0.433
 *   16   0.4   + 0.030 + 0.004 = 0.434   0.8   + 0.030 + 0.008 = 0.838
 *
 * The paper's model (Tcomp1 at every np) sees at np 8 the overheads
 * 0.129 and 0.233: gamma = 0.104 / 2 = 0.052 (the largest np0's), while
 * alpha(2, 4, 8) = 0.015, 0.020, 0.025 stay on 0.01 + 0.005 log2 np. At
 * 16 it predicts 0.1 + 0.03 + 0.052 x 2 = 0.234 and 0.2 + 0.03 + 0.052 x
 * 4 = 0.438, 46% and 48% short.
 */
static const double NP[] = {1, 2, 4, 8};
static const double PA[] = {256, 512};
static const double TIME[4][2] = {{0.1, 0.2}, {0.119, 0.223}, {0.124, 0.228}, {0.229, 0.433}};

/* Each configuration twice, 1% above and 1% below its truth (the mean is
 * the truth). */
static size_t synthetic_runs(mesh_run *runs, double *ppn)
{
    size_t n = 0;
    for (size_t i = 0; i < 4; i++)
        for (size_t m = 0; m < 2; m++)
            for (int rep = 0; rep < 2; rep++) {
                double noise = rep ? 0.99 : 1.01;
                runs[n] = (mesh_run){NP[i], 1, PA[m], 1024, 2 * (double)(m + 1),
                                     TIME[i][m] * noise};
                ppn[n++] = NP[i];
            }
    return n;
}

static void test_strip_synthetic(void)
{
    mesh_run runs[16];
    double ppn[16];
    size_t n = synthetic_runs(runs, ppn);
    strip_options opt = {.work_tol = 0.01, .msg_len = 1024}; /* the paper's log2 law */
    contention_law law = contention_roofline(10, 40);
    strip_model with, paper;
    CU_ASSERT_EQUAL_FATAL(strip_fit_contended(runs, ppn, n, &opt, &law, &with, NULL), STRIP_OK);
    CU_ASSERT_EQUAL_FATAL(strip_fit(runs, n, &opt, &paper, NULL), STRIP_OK);
    const double truth[] = {0.434, 0.838}, paper_says[] = {0.234, 0.438};
    for (size_t m = 0; m < 2; m++) {
        strip_target t = {16, PA[m], 1024, NAN};
        strip_prediction p;
        CU_ASSERT_TRUE_FATAL(strip_predict_contended(&with, &t, 16, &p));
        CU_ASSERT_DOUBLE_EQUAL(p.time_s, truth[m], 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(p.contention, 4, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(p.tcomp_one_s, 0.1 * (double)(m + 1), 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(p.tcomp_s, 0.4 * (double)(m + 1), 1e-12);
        CU_ASSERT_TRUE_FATAL(strip_predict(&paper, &t, &p));
        CU_ASSERT_DOUBLE_EQUAL(p.time_s, paper_says[m], 1e-9);
        CU_ASSERT_EQUAL(p.contention, 1);
        /* The law with the processes per node unknown is the paper's. */
        CU_ASSERT_TRUE_FATAL(strip_predict_contended(&with, &t, NAN, &p));
        CU_ASSERT_DOUBLE_EQUAL(p.tcomp_s, 0.1 * (double)(m + 1), 1e-12);
    }
    /* The fitted law: c = 0.01, d = 0.005, gamma = 0.002. */
    CU_ASSERT_DOUBLE_EQUAL(with.law.coef[0], 0.01, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(with.law.coef[1], 0.005, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(with.law.gamma, 0.002, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(paper.law.gamma, 0.052, 1e-9);
    CU_ASSERT_EQUAL(with.train_ppn_max, 8);
    strip_model_free(&with);
    strip_model_free(&paper);
}

/*
 * The block model on the same node (factor max(1, ppn/4)). Sequential
 * runs of per-process meshes 256x256 (1 MB) and 512x256 (2 MB) take
 * Tcomp1 = 0.1 and 0.2 s; strips (np,1), np = 2, 4, 8, take Tcomp1 f(np)
 * + 0.01 log2 np + 0.001 work; (2,2) (ppn 4, factor 1) Tcomp1 + 0.02 +
 * 0.001 work. Without their excess Tcomp1 (f - 1) the differences
 * T(np,1) - T(2,1) are 0.01 at np 4 and 0.02 at np 8, at both works.
 * Target (8,2) on 16 cores, mesh 256x256: T(2,2) = 0.1 + 0.02 + 0.001 =
 * 0.121, Ta(8) = 0.02 (its own line), Tb(2) = 0, excess 0.1 x (4 - 1) =
 * 0.3: 0.441. The paper's model adds no excess and its np 8 line goes
 * through the crowded differences 0.2 + 0.03 - 0.1 - 0.01 = 0.12 (1 MB)
 * and 0.4 + 0.03 - 0.2 - 0.01 = 0.22 (2 MB): Ta(8) = 0.12, T = 0.241.
 */
static void test_block_synthetic(void)
{
    const double nps[] = {1, 2, 4, 8};
    mesh_run runs[16];
    double ppn[16];
    size_t n = 0;
    for (size_t i = 0; i < 4; i++)
        for (int w = 1; w <= 2; w++) {
            double tcomp1 = 0.1 * w, f = fmax(1, nps[i] / 4);
            double t = nps[i] == 1 ? tcomp1 : tcomp1 * f + 0.01 * log2(nps[i]) + 0.001 * w;
            runs[n] = (mesh_run){nps[i], 1, 256 * w, 256, w, t};
            ppn[n++] = nps[i];
        }
    for (int w = 1; w <= 2; w++) {
        runs[n] = (mesh_run){2, 2, 256 * w, 256, w, 0.1 * w + 0.02 + 0.001 * w};
        ppn[n++] = 4;
    }
    block_options opt = {.work_tol = 0.01}; /* the paper's log2 law */
    block_target t = {8, 2, 256, 256, NAN};
    contention_law law = contention_roofline(10, 40);
    block_model with, paper;
    CU_ASSERT_EQUAL_FATAL(block_fit_contended(runs, ppn, n, &opt, &law, &t, &with, NULL),
                          BLOCK_OK);
    CU_ASSERT_EQUAL_FATAL(block_fit(runs, n, &opt, &t, &paper, NULL), BLOCK_OK);
    block_prediction p;
    CU_ASSERT_TRUE_FATAL(block_predict_contended(&with, &t, 16, &p));
    CU_ASSERT_DOUBLE_EQUAL(p.t22_s, 0.121, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(p.ta_s, 0.02, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(p.contention_s, 0.3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(p.time_s, 0.441, 1e-9);
    CU_ASSERT_FALSE(p.contention_unmeasured);
    CU_ASSERT_EQUAL(with.contention_unmeasured, 0);
    CU_ASSERT_TRUE_FATAL(block_predict(&paper, &t, &p));
    CU_ASSERT_DOUBLE_EQUAL(p.time_s, 0.241, 1e-9);
    block_model_free(&with);
    block_model_free(&paper);

    /* Without sequential runs the law cannot measure Tcomp1: it says so
     * and leaves the times as measured (the paper's prediction). */
    CU_ASSERT_EQUAL_FATAL(block_fit_contended(runs + 2, ppn + 2, n - 2, &opt, &law, &t, &with,
                                              NULL), BLOCK_OK);
    CU_ASSERT_TRUE_FATAL(block_predict_contended(&with, &t, 16, &p));
    CU_ASSERT_TRUE(p.contention_unmeasured);
    CU_ASSERT_TRUE(with.contention_unmeasured > 0);
    CU_ASSERT_DOUBLE_EQUAL(p.time_s, 0.241, 1e-9);
    block_model_free(&with);
}

/* ---- end to end ---------------------------------------------------- */

static char dir[256];

static const char CLUSTERS[] =
    "cluster,nodes,cores_per_node,mbw_read_gbs,mbw_core_gbs\n"
    "node16,1,16,40,10\n"
    "bare16,1,16,40,\n";

static const char EXPERIMENTS[] =
    "name,model,response,formula,train,target,title,options\n"
    "law,strip,time_s,,cluster == 'node16' && np <= 8,cluster == 'node16' && np == 16,law,"
    "contention=roofline\n"
    "both,strip,time_s,,cluster == 'node16' && np <= 8,cluster == 'node16' && np == 16,both,\n"
    "paper,strip,time_s,,cluster == 'node16' && np <= 8,cluster == 'node16' && np == 16,paper,"
    "contention=none\n"
    "bare,strip,time_s,,cluster == 'bare16' && np <= 8,cluster == 'bare16' && np == 16,bare,\n"
    "asked,strip,time_s,,cluster == 'bare16' && np <= 8,cluster == 'bare16' && np == 16,asked,"
    "contention=roofline\n"
    "typo,strip,time_s,,cluster == 'node16' && np <= 8,cluster == 'node16' && np == 16,typo,"
    "contention=roof\n";

/* runs.csv: the synthetic campaign on both clusters, the np 16 targets
 * measured at their truth. */
static char *campaign_runs(void)
{
    static const double T16[] = {0.434, 0.838};
    size_t cap = 8192, used = 0;
    char *s = malloc(cap);
    used += (size_t)snprintf(s + used, cap - used, "cluster,code,np,na,nb,work_mb,time_s\n");
    const char *clusters[] = {"node16", "bare16"};
    for (int c = 0; c < 2; c++)
        for (size_t m = 0; m < 2; m++) {
            for (size_t i = 0; i < 4; i++)
                for (int rep = 0; rep < 2; rep++)
                    used += (size_t)snprintf(s + used, cap - used, "%s,mg,%g,%g,1024,%g,%.6f\n",
                                             clusters[c], NP[i], NP[i] * PA[m],
                                             2 * (double)(m + 1),
                                             TIME[i][m] * (rep ? 0.99 : 1.01));
            used += (size_t)snprintf(s + used, cap - used, "%s,mg,16,%g,1024,%g,%g\n",
                                     clusters[c], 16 * PA[m], 2 * (double)(m + 1), T16[m]);
        }
    return s;
}

/* A column of `perfcast predict --format csv` for experiment e, read by
 * gawk (a CSV reader of its own: FPAT), in row order: "0.434 0.838". */
static char *column_of(const char *e, const char *column)
{
    char *out = NULL;
    int rc = testutil_run_commandf(
        &out,
        "%s predict --archive %s/a --format csv crowd %s | " TESTUTIL_GAWK_CSV
        "'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"%s\") col = i; next } "
        "{ printf \"%%s%%.6g\", (NR > 2 ? \" \" : \"\"), $col }'",
        testutil_perfcast(), dir, e, column);
    CU_ASSERT_EQUAL(rc, 0);
    return out;
}

static char *estimates(const char *e)
{
    return column_of(e, "estimate");
}

/* `perfcast COMMAND` of experiment e succeeds and prints text. */
static void says(const char *command, const char *e, const char *text)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "%s --archive %s/a crowd %s", command, dir, e), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, text));
    if (!(out && strstr(out, text)))
        fprintf(stderr, "%s %s: no '%s' in:\n%s\n", command, e, text, out ? out : "");
    free(out);
}

static void test_end_to_end(void)
{
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    char path[512], *runs = campaign_runs();
    snprintf(path, sizeof path, "%s/a", dir);
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(path, CLUSTERS, "crowd", EXPERIMENTS, runs));
    free(runs);

    char *out = estimates("law");
    CU_ASSERT_STRING_EQUAL(out, "0.434 0.838");
    free(out);
    out = estimates("paper");
    CU_ASSERT_STRING_EQUAL(out, "0.234 0.438");
    free(out);
    /* The default where the cluster gives both bandwidths: the geometric
     * mean of the law's and the paper's estimates (sqrt(0.434 x 0.234) =
     * 0.318679, sqrt(0.838 x 0.438) = 0.605842), its own interval the two. */
    out = estimates("both");
    CU_ASSERT_STRING_EQUAL(out, "0.318679 0.605842");
    free(out);
    out = column_of("both", "pi_low");
    CU_ASSERT_STRING_EQUAL(out, "0.234 0.438");
    free(out);
    out = column_of("both", "pi_high");
    CU_ASSERT_STRING_EQUAL(out, "0.434 0.838");
    free(out);
    out = column_of("both", "cal_pi_low");
    CU_ASSERT(out && strtod(out, NULL) <= 0.234); /* the calibrated interval holds both */
    free(out);
    /* bare16 gives no mbw_core_gbs: the law is off, the paper's numbers. */
    out = estimates("bare");
    CU_ASSERT_STRING_EQUAL(out, "0.234 0.438");
    free(out);

    says("fit", "law", "diagnostic: contention law (roofline) for cluster node16: Tcomp x "
                       "max(1, ppn x 10 GB/s per core / 40 GB/s per node), so more than 4 "
                       "processes on one node slow each other");
    says("fit", "law", "diagnostic: the most crowded parallel training runs: 8 processes share "
                       "one node: Tcomp x 2.00 from the node's bandwidth");
    says("predict", "law", "16 processes share one node: Tcomp x 4.00 from the node's bandwidth");
    says("fit", "paper", "diagnostic: contention law off (contention=none)");
    says("fit", "both", "diagnostic: contention: neither the roofline law nor the paper's model");
    says("predict", "both", "with the contention law 0.434 s: Tcomp");
    says("predict", "both", "without the law (the paper's model) 0.234 s: the estimate is the "
                            "geometric mean of the two and its interval spans both");
    says("fit", "bare", "diagnostic: contention law off for cluster bare16: clusters.csv gives "
                        "no mbw_core_gbs");
    says("fit", "asked", "warning: contention law off for cluster bare16: clusters.csv gives "
                         "no mbw_core_gbs");
    CU_ASSERT_NOT_EQUAL(testutil_perfcast_run(&out, "fit --archive %s/a crowd typo", dir), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "option contention=roof: expected roofline or none"));
    free(out);

    /* The campaign page says it in words, read by xmllint (libxml2's HTML
     * parser, not the site's writer): the diagnostic and the note. */
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "build --archive %s/a --out %s/site --quiet", dir,
                                          dir), 0);
    free(out);
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "xmllint --html --xpath \"string(//li[contains(., "
                                                "'contention law (roofline)')])\" "
                                                "%s/site/campaigns/crowd/index.html 2>/dev/null",
                                          dir), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "contention law (roofline) for cluster node16"));
    free(out);
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "xmllint --html --xpath \"count(//*[contains(text(), "
                                                "'16 processes share one node: Tcomp x 4.00')])\" "
                                                "%s/site/campaigns/crowd/index.html 2>/dev/null",
                                          dir), 0);
    CU_ASSERT(out && atoi(out) >= 2); /* the note of each of the law's two targets */
    free(out);

    /* A bad mbw_core_gbs is positioned like every number of clusters.csv:
     * "fast" is the 5th cell of line 3, after "bad,1,16,40," (12 chars). */
    snprintf(path, sizeof path, "%s/a/clusters.csv", dir);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, "cluster,nodes,cores_per_node,mbw_read_gbs,"
                                                   "mbw_core_gbs\nnode16,1,16,40,10\n"
                                                   "bad,1,16,40,fast\n"));
    CU_ASSERT_NOT_EQUAL(testutil_perfcast_run(&out, "check --archive %s/a", dir), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "clusters.csv:3:13:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "mbw_core_gbs"));
    free(out);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"the law by hand", test_law_by_hand},
        {"a configuration's processes per node", test_config_ppn},
        {"strip: roofline truth, with and without the law", test_strip_synthetic},
        {"block: roofline truth, with and without the law", test_block_synthetic},
        {"perfcast predict, fit and check", test_end_to_end},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"contention", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
