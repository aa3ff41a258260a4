/*
 * test_site_estimates.c — the "my job" page (gen/site/site_estimates.c) on
 * the embedded archive: its CSV, read with the CSV reader, has for every
 * job an interval around its time and a cost interval in proportion to
 * it; every row's time and interval are what `perfcast predict` prints for
 * that experiment (another path through the program, read with the same
 * reader); the index links to the page.
 */
#include "tests/testutil.h"
#include "tests/testutil_csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[256];

static double num(const csv_doc *doc, size_t r, const char *col)
{
    const char *v = testutil_csv_cell(doc, r, col);
    return v && *v ? atof(v) : NAN;
}

/* Whether predict's CSV for campaign/experiment has a row with this
 * estimate and calibrated interval (10 significant digits both ways). */
static bool predict_has(const char *campaign, const char *experiment, double est, double lo,
                        double hi)
{
    char *out = NULL, path[512];
    if (testutil_perfcast_run(&out, "predict --archive archive --format csv %s '%s'", campaign,
                              experiment) != 0) {
        free(out);
        return false;
    }
    snprintf(path, sizeof path, "%s/predict.csv", dir);
    testutil_write_file(path, out);
    free(out);
    csv_doc doc;
    bool found = false;
    if (!testutil_csv_load(path, &doc))
        return false;
    for (size_t r = 0; r + 1 < doc.nrows && !found; r++) {
        double e = num(&doc, r, "estimate"), l = num(&doc, r, "cal_pi_low"),
               h = num(&doc, r, "cal_pi_high");
        found = fabs(e - est) <= 1e-9 * fabs(est) &&
                (isnan(lo) ? isnan(l) : fabs(l - lo) <= 1e-9 * fabs(lo)) &&
                (isnan(hi) ? isnan(h) : fabs(h - hi) <= 1e-9 * fabs(hi));
    }
    csv_doc_free(&doc);
    return found;
}

static void test_estimates(void)
{
    char *out = NULL, path[512];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "build --archive archive --out %s/site", dir),
                          0);
    free(out);
    snprintf(path, sizeof path, "%s/site/index.md", dir);
    char *index = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(index && strstr(index, "(estimates.md)"));
    free(index);
    snprintf(path, sizeof path, "%s/site/estimates.csv", dir);
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, &doc));
    CU_ASSERT_TRUE_FATAL(doc.nrows > 20);
    size_t checked = 0, costed = 0;
    for (size_t r = 0; r + 1 < doc.nrows; r++) {
        double t = num(&doc, r, "time_s"), lo = num(&doc, r, "cal_pi_low_s"),
               hi = num(&doc, r, "cal_pi_high_s"), cost = num(&doc, r, "cost");
        CU_ASSERT(t > 0);
        if (isfinite(lo) && isfinite(hi))
            CU_ASSERT(lo <= t * (1 + 1e-9) && t <= hi * (1 + 1e-9));
        if (isfinite(cost) && isfinite(lo) && isfinite(hi)) {
            CU_ASSERT_DOUBLE_EQUAL(num(&doc, r, "cost_low"), cost * lo / t, 1e-6 * cost + 1e-12);
            CU_ASSERT_DOUBLE_EQUAL(num(&doc, r, "cost_high"), cost * hi / t, 1e-6 * cost + 1e-12);
            costed++;
        }
        /* Every tenth row against perfcast predict. */
        if (r % 10 == 0) {
            bool same = predict_has(testutil_csv_cell(&doc, r, "campaign"),
                                    testutil_csv_cell(&doc, r, "experiment"), t, lo, hi);
            if (!same)
                printf("\n  row %zu (%s/%s) not in predict's output\n", r,
                       testutil_csv_cell(&doc, r, "campaign"),
                       testutil_csv_cell(&doc, r, "experiment"));
            CU_ASSERT(same);
            checked++;
        }
    }
    CU_ASSERT(checked > 2 && costed > 0);
    csv_doc_free(&doc);
    /* A cluster page points at its section of the page, and its cost.csv
     * carries the same intervals and verdicts. */
    snprintf(path, sizeof path, "%s/site/clusters/dev-16core/index.md", dir);
    char *cluster = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(cluster && strstr(cluster, "(../../estimates.md#cluster-dev-16core)"));
    free(cluster);
    snprintf(path, sizeof path, "%s/site/clusters/dev-16core/cost.csv", dir);
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, &doc));
    size_t rows = 0;
    for (size_t r = 0; r + 1 < doc.nrows; r++) {
        double t = num(&doc, r, "time_s"), lo = num(&doc, r, "cal_pi_low_s"),
               hi = num(&doc, r, "cal_pi_high_s");
        const char *v = testutil_csv_cell(&doc, r, "verdict");
        CU_ASSERT(v && *v);
        if (isfinite(lo) && isfinite(hi))
            CU_ASSERT(lo <= t * (1 + 1e-9) && t <= hi * (1 + 1e-9));
        rows++;
    }
    CU_ASSERT(rows > 0);
    csv_doc_free(&doc);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"every predicted job with its interval, as predict says", test_estimates},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"estimates page", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
