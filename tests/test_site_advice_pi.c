/*
 * test_site_advice_pi.c — the advice pages give every ranked option an
 * interval and a verdict (gen/site/site_advice_pi.h), each long reason
 * once per page, on the embedded archive:
 *   - a published prediction's interval (on the advice page and on every
 *     cluster page's published runs) is recomputed here from rj-strip's
 *     runs.csv (read with the test's own CSV reader; the run's own row
 *     left out; t(0.975; 10) = 2.2281 from the t table), not through the
 *     program;
 *   - a model option's interval is the one `perfcast advise` prints for
 *     the same question, and its verdict that of the prediction it names,
 *     as estimates.csv (a different page) gives it;
 *   - footnotes: each note is listed once and every row points at one.
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

static bool load(const char *rel, csv_doc *doc)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/site/%s", dir, rel);
    return testutil_csv_load(path, doc);
}

/* The interval of rj-strip's printed prediction on runs row `skip`: the
 * other rows with a measured and a printed time make the sample (11 of
 * them, hence t(0.975; 10) = 2.2281). False when the row has none. */
static bool paper_interval(const csv_doc *runs, size_t skip, double *lo, double *hi)
{
    double sum = 0, sq = 0;
    size_t n = 0;
    if (!(num(runs, skip, "time_s") > 0) || !(num(runs, skip, "published_prediction_s") > 0))
        return false;
    for (size_t r = 0; r + 1 < runs->nrows; r++) {
        double m = num(runs, r, "time_s"), p = num(runs, r, "published_prediction_s");
        if (r == skip || !(m > 0) || !(p > 0))
            continue;
        double x = log(m / p);
        sum += x, sq += x * x, n++;
    }
    CU_ASSERT_EQUAL_FATAL(n, 11);
    double mean = sum / n, sd = sqrt((sq - n * mean * mean) / (n - 1));
    double half = 2.2281 * sd * sqrt(1 + 1.0 / n);
    *lo = exp(mean - half), *hi = exp(mean + half);
    return true;
}

/* wrg2-myrinet:64 is rj-strip's runs.csv line 3 (row 1 here). */
static void test_published_interval(void)
{
    csv_doc runs, opts;
    double lo, hi;
    CU_ASSERT_TRUE_FATAL(testutil_csv_load("archive/rj-strip/runs.csv", &runs));
    CU_ASSERT_TRUE_FATAL(paper_interval(&runs, 1, &lo, &hi));
    CU_ASSERT_TRUE_FATAL(load("advice/scenario-1.csv", &opts));
    bool seen = false;
    for (size_t r = 0; r + 1 < opts.nrows; r++) {
        if (strcmp(testutil_csv_cell(&opts, r, "option"), "wrg2-myrinet:64") != 0)
            continue;
        double t = num(&opts, r, "time_s");
        CU_ASSERT_DOUBLE_EQUAL(t, 983.9, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(num(&opts, r, "cal_pi_low_s") / t, lo, 1e-4);
        CU_ASSERT_DOUBLE_EQUAL(num(&opts, r, "cal_pi_high_s") / t, hi, 1e-4);
        testutil_assert_cell(&opts, r, "verdict", "not verified");
        seen = true;
    }
    CU_ASSERT(seen);
    csv_doc_free(&opts);
    /* Every rj-strip run on a cluster page: its own row left out. */
    size_t checked = 0;
    for (size_t r = 0; r + 1 < runs.nrows; r++) {
        if (!paper_interval(&runs, r, &lo, &hi))
            continue;
        char rel[256];
        snprintf(rel, sizeof rel, "clusters/%s/published.csv",
                 testutil_csv_cell(&runs, r, "cluster"));
        csv_doc pub;
        CU_ASSERT_TRUE_FATAL(load(rel, &pub));
        double p = num(&runs, r, "published_prediction_s"), m = num(&runs, r, "time_s");
        for (size_t k = 0; k + 1 < pub.nrows; k++)
            if (strcmp(testutil_csv_cell(&pub, k, "campaign"), "rj-strip") == 0 &&
                num(&pub, k, "predicted_s") == p && num(&pub, k, "measured_s") == m) {
                CU_ASSERT_DOUBLE_EQUAL(num(&pub, k, "pi_low_s"), p * lo, 1e-4 * p);
                CU_ASSERT_DOUBLE_EQUAL(num(&pub, k, "pi_high_s"), p * hi, 1e-4 * p);
                checked++;
                break;
            }
        csv_doc_free(&pub);
    }
    CU_ASSERT_EQUAL(checked, 12);
    csv_doc_free(&runs);
}

/* A model option's interval is the one `perfcast advise` prints for the
 * same question (archive/advice.csv's sim-scenario-1, asked here on the
 * command line; both CSVs read by the test's own reader), and its verdict
 * that of the prediction it names ("verdict from smpi-strip / strip-b at
 * 128 processes"), as estimates.csv (a different page) gives it. */
static void test_model_interval(void)
{
    csv_doc opts, est, adv;
    char path[512], *out = NULL;
    CU_ASSERT_TRUE_FATAL(load("advice/sim-scenario-1.csv", &opts));
    CU_ASSERT_TRUE_FATAL(load("estimates.csv", &est));
    snprintf(path, sizeof path, "%s/advise.csv", dir);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "advise --archive archive --campaign "
                                                      "smpi-multi --code mgbench --size 65536x2048 "
                                                      "--free sim-a-fe:64,sim-b-gige:32 --format "
                                                      "csv > %s", path), 0);
    free(out);
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, &adv));
    size_t same = 0, verdicts = 0;
    for (size_t r = 0; r + 1 < opts.nrows; r++) {
        const char *name = testutil_csv_cell(&opts, r, "option");
        for (size_t a = 0; a + 1 < adv.nrows; a++) {
            if (strcmp(testutil_csv_cell(&adv, a, "option"), name) != 0 ||
                !(num(&adv, a, "time_low_s") > 0))
                continue;
            CU_ASSERT_DOUBLE_EQUAL(num(&opts, r, "cal_pi_low_s") / num(&adv, a, "time_low_s"), 1,
                                   1e-9);
            CU_ASSERT_DOUBLE_EQUAL(num(&opts, r, "cal_pi_high_s") / num(&adv, a, "time_high_s"),
                                   1, 1e-9);
            same++;
        }
        const char *from = testutil_csv_cell(&opts, r, "interval_from");
        const char *v = from ? strstr(from, "; verdict from ") : NULL;
        char camp[64], exp_name[64];
        double np;
        if (!v || sscanf(v, "; verdict from %63s / %63s at %lf processes", camp, exp_name,
                         &np) != 3)
            continue;
        const char *cluster = testutil_csv_cell(&opts, r, "cluster_a");
        for (size_t e = 0; e + 1 < est.nrows; e++) {
            if (strcmp(testutil_csv_cell(&est, e, "campaign"), camp) != 0 ||
                strcmp(testutil_csv_cell(&est, e, "experiment"), exp_name) != 0 ||
                num(&est, e, "np") != np ||
                (strcmp(testutil_csv_cell(&opts, r, "sides"), "1") == 0 &&
                 strcmp(testutil_csv_cell(&est, e, "cluster"), cluster) != 0))
                continue;
            testutil_assert_cell(&opts, r, "verdict", testutil_csv_cell(&est, e, "verdict"));
            verdicts++;
            break;
        }
    }
    CU_ASSERT(same >= 2);
    CU_ASSERT_EQUAL(verdicts, 3);
    csv_doc_free(&opts);
    csv_doc_free(&est);
    csv_doc_free(&adv);
}

/* Footnotes "- \[k\] text": k runs 1, 2, ... with no text twice, and the
 * table rows mention every k. */
static void test_notes_once(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/site/advice/scenario-1.md", dir);
    char *page = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    size_t k = 0;
    char *texts[64];
    for (char *line = page; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        unsigned got;
        int used = 0;
        if (sscanf(line, "- \\[%u\\] %n", &got, &used) == 1 && used > 0 && k < 64) {
            CU_ASSERT_EQUAL(got, k + 1);
            for (size_t j = 0; j < k; j++)
                CU_ASSERT(strcmp(texts[j], line + used) != 0);
            texts[k++] = line + used;
        }
        line = next;
    }
    CU_ASSERT(k >= 3);
    free(page);
    page = testutil_read_file(path);
    for (size_t j = 1; page && j <= k; j++) {
        char mark[32];
        snprintf(mark, sizeof mark, "\\[%zu\\]", j);
        size_t seen = 0;
        for (const char *p = strstr(page, mark); p; p = strstr(p + 1, mark))
            seen++;
        CU_ASSERT(seen >= 2); /* in the list and in a row */
    }
    /* The reason no model fits wrg2-ethernet is said once, not per row. */
    const char *why = "strip fit for cluster wrg2-ethernet";
    char *first = page ? strstr(page, why) : NULL;
    CU_ASSERT_PTR_NOT_NULL(first);
    CU_ASSERT_PTR_NULL(first ? strstr(first + 1, why) : NULL);
    free(page);
}

static int setup(void)
{
    char *out = NULL;
    if (!testutil_temp_dir(dir, sizeof dir))
        return 1;
    int rc = testutil_perfcast_run(&out, "build --archive archive --out %s/site --quiet", dir);
    free(out);
    return rc != 0;
}

static int teardown(void)
{
    testutil_remove_dir(dir);
    return 0;
}

int main(void)
{
    static const testutil_test tests[] = {
        {"a printed prediction's interval from the paper's other ones", test_published_interval},
        {"a model option borrows the interval it names", test_model_interval},
        {"each footnote once per page", test_notes_once},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"advice intervals", tests}, {NULL, NULL}};
    if (setup() != 0) {
        fprintf(stderr, "test_site_advice_pi: cannot build the site\n");
        return 1;
    }
    int rc = testutil_run_suites(suites);
    teardown();
    return rc;
}
