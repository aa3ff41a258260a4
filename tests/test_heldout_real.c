/*
 * test_heldout_real.c — the real runs of a lent 16-core node
 * (tests/fixtures/heldout-real1/ and the strip part of heldout-real2/,
 * issue 23's real-node acceptance) score again as they were scored.
 *
 * The round was scored once by tests/fixtures/heldout-sim2/eval_sim.sh (a
 * copy of the embedded archive with the round's clusters.csv and
 * campaigns, `perfcast predict --format csv` of every experiment, scored by
 * gawk) at 4569c94: strip 41.6%, 2 of 6, x1.51; block 60.4%, 6 of 6,
 * x3.59; multicore 11.0%, 4 of 4, x2.48 (heldout-real1/README.md; issue
 * 23 asks <= 10%, >= 90% and <= 2.5, which this round does not meet). This
 * test builds the same archive, runs the same predictions and scores them
 * with its own reader (libcsv through testutil_csv.h, not gawk): two
 * implementations of one protocol must find the same numbers, which are
 * asserted as measured, not as the acceptance. A change of method that
 * moves them must update them here and in the READMEs: since the strip
 * model averages the contention law's and the paper's estimates where the
 * cluster gives both bandwidths (designed on this round and round 1c
 * after this round was scored: design data), strip reads 17.0%, 4 of 6,
 * x1.71; since the block model joins the measured lines around a side's
 * process count (models/block.h, BETWEEN MEASURED PROCESS COUNTS; designed
 * on this round), block reads 10.1%, 6 of 6, x3.59. Since an experiment's
 * own scale is its nearest refits' (models/calibrate.h, NEAREST REFITS;
 * designed on the public rounds, a change of width only): block x4.06
 * here and, on round 2, 6 of 6 at x4.18 (5 of 6 at x3.51 when scored);
 * multicore x2.47.
 */
#include "tests/testutil.h"
#include "tests/testutil_csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIX1 "tests/fixtures/heldout-real1"
#define FIX2 "tests/fixtures/heldout-real2"

typedef struct {
    const char *campaign, *experiment;
} real_experiment;

typedef struct {
    const char *name;
    const char *archive;                /* under root: the round's archive */
    const real_experiment *experiments; /* terminated by {NULL, NULL} */
    size_t targets;                     /* scored configurations */
    double median_error;                /* percent, as eval_sim.sh printed it */
    size_t covered;                     /* inside the calibrated 95% PI */
    double median_width;                /* high / low */
} real_family;

static const real_experiment strips[] = {
    {"real1-strip-a", "strip-a"}, {"real1-strip-b", "strip-b"}, {NULL, NULL}};
static const real_experiment blocks[] = {
    {"real1-block-a", "block-a"}, {"real1-block-b", "block-b"}, {NULL, NULL}};
static const real_experiment multicores[] = {
    {"real1-multicore", "multicore-2304-from-8"},
    {"real1-multicore", "multicore-4608-from-8"},
    {NULL, NULL}};

/* Round 2's strip part (tests/fixtures/heldout-real2/README.md), scored
 * once by eval_sim.sh at fdb8b0a with the averaged contention: 12.8%, 5 of
 * 6, x1.77 (its multicore part is still held back). */
static const real_experiment strips2[] = {
    {"real2-strip-a", "strip-a"}, {"real2-strip-b", "strip-b"}, {NULL, NULL}};
/* Its block part, scored once at e9da731 with the rule for a side between
 * measured process counts: 28.5%, 5 of 6, x3.51. */
static const real_experiment blocks2[] = {
    {"real2-block-a", "block-a"}, {"real2-block-b", "block-b"}, {NULL, NULL}};

static const real_family families[] = {
    {"strip", "a1", strips, 6, 16.983, 4, 1.7141},
    {"block", "a1", blocks, 6, 10.091, 6, 4.0550},
    {"multicore", "a1", multicores, 4, 11.048, 4, 2.4727},
    {"strip, round 2", "a2", strips2, 6, 12.782, 5, 1.7684},
    {"block, round 2", "a2", blocks2, 6, 28.540, 6, 4.1753},
};
enum { NFAMILIES = sizeof families / sizeof families[0], MAX_TARGETS = 16 };

static char root[256];

typedef struct {
    double abs_error[MAX_TARGETS], width[MAX_TARGETS];
    size_t n, covered;
} family_score;

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A round's archive under root/name: the embedded one, the round's
 * clusters.csv (main's with the lent node's row) and its campaigns, as
 * eval_sim.sh builds it. */
static void copy_round(const char *fixture, const char *name)
{
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(NULL,
                                                "cp -r archive '%s/%s' && cp %s/clusters-new.csv "
                                                "'%s/%s/clusters.csv' && cp -r %s/archive/. '%s/%s/'",
                                                root, name, fixture, root, name, fixture, root,
                                                name),
                          0);
}

static void setup(void)
{
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(root, sizeof root));
    copy_round(FIX1, "a1");
    copy_round(FIX2, "a2");
}

static double cell_number(const csv_doc *doc, size_t r, const char *column)
{
    const char *text = testutil_csv_cell(doc, r, column);
    return text && *text ? strtod(text, NULL) : NAN;
}

/* Adds the scored targets of one experiment's predictions to s. */
static void score_experiment(const char *archive, const real_experiment *e, family_score *s)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s-%s.csv", root, archive, e->experiment);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(NULL,
                                                "predict --archive '%s/%s' --format csv %s %s > '%s'",
                                                root, archive, e->campaign, e->experiment, path),
                          0);
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, &doc));
    for (size_t r = 0; r + 1 < doc.nrows; r++) {
        double measured = cell_number(&doc, r, "measured");
        if (isnan(measured))
            continue;
        double estimate = cell_number(&doc, r, "estimate");
        double low = cell_number(&doc, r, "cal_pi_low"), high = cell_number(&doc, r, "cal_pi_high");
        CU_ASSERT_TRUE_FATAL(s->n < MAX_TARGETS);
        CU_ASSERT_TRUE(isfinite(estimate) && low > 0 && high >= low);
        s->abs_error[s->n] = fabs(estimate - measured) / measured * 100;
        s->width[s->n] = high / low;
        s->covered += measured >= low && measured <= high;
        s->n++;
    }
    csv_doc_free(&doc);
}

static void test_families_score_as_recorded(void)
{
    for (size_t f = 0; f < NFAMILIES; f++) {
        const real_family *fam = &families[f];
        family_score s = {.n = 0};
        for (const real_experiment *e = fam->experiments; e->campaign; e++)
            score_experiment(fam->archive, e, &s);
        double error = median_of(s.abs_error, s.n), width = median_of(s.width, s.n);
        printf("\n  %-14s %zu targets, median |error| %.3f%%, %zu covered, median width x%.4f", fam->name,
               s.n, error, s.covered, width);
        CU_ASSERT_EQUAL(s.n, fam->targets);
        CU_ASSERT_DOUBLE_EQUAL(error, fam->median_error, 0.005);
        CU_ASSERT_EQUAL(s.covered, fam->covered);
        CU_ASSERT_DOUBLE_EQUAL(width, fam->median_width, 0.0005);
    }
    printf("\n");
}

static void teardown(void) { testutil_remove_dir(root); }

int main(void)
{
    static const testutil_test tests[] = {
        {"setup: the embedded archive with each round's node and campaigns", setup},
        {"strip, block and multicore score as when scored once", test_families_score_as_recorded},
        {"teardown", teardown},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"heldout_real", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
