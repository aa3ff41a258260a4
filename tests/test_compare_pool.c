/*
 * test_compare_pool.c — `perfcast compare` calibrates every model with the
 * archive's pooled error model, as the site does (gen/fit/compare.h; issue
 * 22, items 4 and 7), on a copy of the embedded archive.
 *
 *  - The own model's row of `perfcast compare --format csv` equals the
 *    site's calibrated interval for that experiment: its targets, coverage,
 *    mean width, median width ratio and interval score, recomputed by
 *    tests/pi_scores.awk from the site's <experiment>-predictions.csv, for
 *    campaigns of every model family. The compare output is read with gawk
 *    too, not with perfcast's CSV reader.
 *  - A candidate (strip tried on the multi-cluster experiment `split`) is
 *    calibrated exactly as an experiment of that model on the same split
 *    would be: the copy gets an experiment `split-as-strip` (strip, same
 *    train and target), and compare's strip row for `split` equals the
 *    site's interval for `split-as-strip`. Both shrink toward the strip
 *    pool of the other campaigns; had the candidate no pool (the code
 *    before), its row was 0 of 3 inside at x1.1, and the site's 3 of 3.
 *  - No leakage: multiplying the measured times at np = 8 of
 *    `mgbench16-strip` by 1.5 (held-out targets of strip-16-from-2-4,
 *    training runs of its sibling strip-16) changes the errors of every
 *    model on strip-16-from-2-4 but none of their calibrated intervals,
 *    while strip-16's move: intervals never learn from their targets, not
 *    through the pool (which leaves the campaign, and so strip-16's
 *    backtests, out) nor through the backtests borrowed from strip-16
 *    (which leave the targets out).
 *  - Determinism: compare twice gives the same bytes, and so does the
 *    site's compare CSV over two builds.
 */
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char root[256];

/* gawk reading CSV (testutil.h), writing it with commas; the program
 * follows, its opening quote given here. */
#define GAWK_CSV TESTUTIL_GAWK_CSV "-v OFS=, '"

/* A copy of the embedded archive in root/NAME with `split-as-strip` added
 * to smpi-multi; with scale_targets, the times of mgbench16-strip at
 * np = 8 times 1.5: held-out targets of strip-16-from-2-4 (np >= 8), and
 * training runs of its sibling strip-16 (np <= 8). */
static void copy_archive(const char *name, bool scale_targets)
{
    CU_ASSERT_EQUAL_FATAL(
        testutil_run_commandf(NULL,
                              "mkdir -p '%s/%s' && cp -r archive/. '%s/%s/' && "
                              "printf 'split-as-strip,strip,time_s,,np <= 8,"
                              "np_a >= 1 && np_a == np_b && rows_a == rows_b,,\\n' "
                              ">> '%s/%s/smpi-multi/experiments.csv'",
                              root, name, root, name, root, name),
        0);
    if (scale_targets)
        CU_ASSERT_EQUAL_FATAL(
            testutil_run_commandf(
                NULL,
                "f='%s/%s/mgbench16-strip/runs.csv' && " GAWK_CSV
                "NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next } "
                "$c[\"np\"] == 8 { $c[\"time_s\"] = sprintf(\"%%.9g\", "
                "$c[\"time_s\"] * 1.5) } { print }' \"$f\" > \"$f.new\" && mv \"$f.new\" \"$f\"",
                root, name),
            0);
}

static void build_site(const char *archive, const char *site)
{
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "build --archive '%s/%s' --out '%s/%s' --quiet", root,
                                   archive, root, site);
    if (rc != 0)
        fprintf(stderr, "%s\n", out ? out : "");
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(out);
}

static void setup(void)
{
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(root, sizeof root));
    copy_archive("a", false);
    build_site("a", "site");
}

/* compare's CSV of campaign (experiment only, when not NULL) on
 * root/archive into root/file; exit status. */
static int compare_to(const char *archive, const char *campaign, const char *experiment,
                      const char *file)
{
    return testutil_run_commandf(NULL, "'%s' compare --archive '%s/%s' --format csv %s %s > '%s/%s'",
                                 testutil_perfcast(), root, archive, campaign,
                                 experiment ? experiment : "", root, file);
}

/* The rows of compare's CSV root/file that awk_condition selects (on
 * fields $1 experiment, $2 model, $3 own, $4 applies), as "EXPERIMENT
 * targets N with W inside I width W% ratio R score S", one a line; the
 * caller frees. */
static char *compare_rows(const char *file, const char *awk_condition)
{
    char *out = NULL;
    int rc = testutil_run_commandf(
        &out,
        GAWK_CSV
        "function v(x) { return x == \"\" ? \"nan\" : sprintf(\"%%.10g\", x) } "
        "NR > 1 && %s { printf \"%%s targets %%d with %%d inside %%d width %%s ratio %%s "
        "score %%s\\n\", $1, $5, $8, $9, v($10), v($11), v($12) }' '%s/%s'",
        awk_condition, root, file);
    CU_ASSERT_EQUAL(rc, 0);
    return out;
}

/* The site's scores of experiment exp of campaign, by tests/pi_scores.awk,
 * into want (a line as compare_rows gives, without the experiment). */
static bool site_scores(const char *campaign, const char *exp, char *want, size_t len)
{
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "gawk -f tests/pi_scores.awk '%s/site/campaigns/%s/%s-predictions.csv'",
                                   root, campaign, exp);
    bool ok = rc == 0 && out;
    if (ok)
        snprintf(want, len, "%s", out);
    free(out);
    return ok;
}

/* Compare "targets N with W inside I width A ratio B score C" lines:
 * counts equal, numbers to 1e-8 relative (both print 10 digits). */
static void expect_same_scores(const char *what, const char *got, const char *want)
{
    unsigned n1, w1, i1, n2, w2, i2;
    char a1[32], b1[32], c1[32], a2[32], b2[32], c2[32];
    const char *fmt = "targets %u with %u inside %u width %31s ratio %31s score %31s";
    int k1 = sscanf(got, fmt, &n1, &w1, &i1, a1, b1, c1);
    int k2 = sscanf(want, fmt, &n2, &w2, &i2, a2, b2, c2);
    CU_ASSERT_EQUAL_FATAL(k1, 6);
    CU_ASSERT_EQUAL_FATAL(k2, 6);
    bool same = n1 == n2 && w1 == w2 && i1 == i2;
    const char *x[] = {a1, b1, c1}, *y[] = {a2, b2, c2};
    for (int j = 0; j < 3; j++) {
        double u = strtod(x[j], NULL), v = strtod(y[j], NULL);
        same = same && (isnan(u) ? isnan(v) : fabs(u - v) <= 1e-8 * fmax(fabs(v), 1e-12));
    }
    if (!same)
        fprintf(stderr, "\n%s: compare %s, site %s", what, got, want);
    CU_ASSERT_TRUE(same);
}

/* Every experiment's own row in compare against the site's predictions. */
static void test_own_row_is_site_interval(void)
{
    static const char *const campaigns[] = {
        "mgbench16-strip", "smpi-heldout-block", "smpi-multi",
        "scopred-ft",      "scopred-linpack",    "mgbench16-multicore",
    };
    size_t checked = 0;
    for (size_t c = 0; c < sizeof campaigns / sizeof campaigns[0]; c++) {
        CU_ASSERT_EQUAL_FATAL(compare_to("a", campaigns[c], NULL, "own.csv"), 0);
        char *rows = compare_rows("own.csv", "$1 != \"*\" && $3 == \"true\" && $4 == \"true\"");
        CU_ASSERT_PTR_NOT_NULL_FATAL(rows);
        for (char *line = strtok(rows, "\n"); line; line = strtok(NULL, "\n")) {
            char exp[128], want[256];
            CU_ASSERT_EQUAL_FATAL(sscanf(line, "%127s", exp), 1);
            CU_ASSERT_TRUE_FATAL(site_scores(campaigns[c], exp, want, sizeof want));
            expect_same_scores(exp, line + strlen(exp) + 1, want);
            checked++;
        }
        free(rows);
    }
    CU_ASSERT(checked >= 15); /* every family, several experiments each */
}

/* compare's strip row for split is the site's split-as-strip. */
static void test_candidate_is_its_models_experiment(void)
{
    CU_ASSERT_EQUAL_FATAL(compare_to("a", "smpi-multi", "split", "split.csv"), 0);
    char *rows = compare_rows("split.csv", "$1 == \"split\" && $2 == \"strip\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(rows);
    char want[256];
    CU_ASSERT_TRUE_FATAL(site_scores("smpi-multi", "split-as-strip", want, sizeof want));
    CU_ASSERT_FATAL(strncmp(rows, "split targets 3 with 3 ", 23) == 0);
    expect_same_scores("split, strip", rows + strlen("split "), want);
    free(rows);
}

/* Changing the held-out measurements moves errors, never intervals; the
 * sibling that trains on them sees its intervals move (so the change
 * reaches every calibration that may use those runs). */
static void test_targets_never_calibrate(void)
{
    copy_archive("scaled", true);
    CU_ASSERT_EQUAL_FATAL(compare_to("a", "mgbench16-strip", "strip-16-from-2-4", "before.csv"), 0);
    CU_ASSERT_EQUAL_FATAL(compare_to("scaled", "mgbench16-strip", "strip-16-from-2-4", "after.csv"), 0);
    CU_ASSERT_EQUAL_FATAL(compare_to("a", "mgbench16-strip", "strip-16", "sib-before.csv"), 0);
    CU_ASSERT_EQUAL_FATAL(compare_to("scaled", "mgbench16-strip", "strip-16", "sib-after.csv"), 0);
    /* intervals: with-interval count, mean width, median ratio per model */
    char *out = NULL;
    const char *widths = GAWK_CSV
                         "NR > 1 && $4 == \"true\" { print $2, $8, $10, $11 }'";
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "cd '%s' && %s before.csv > wb && %s after.csv > wa "
                                                "&& test $(wc -l < wb) -ge 2 && cmp wb wa",
                                          root, widths, widths),
                    0);
    free(out);
    CU_ASSERT_NOT_EQUAL(testutil_run_commandf(&out, "cd '%s' && %s sib-before.csv > sb && "
                                                    "%s sib-after.csv > sa && cmp -s sb sa",
                                              root, widths, widths),
                        0);
    free(out);
    /* errors: the median |error| of every applying model moved */
    const char *errors = GAWK_CSV
                         "NR > 1 && $4 == \"true\" { print $6 }'";
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "cd '%s' && %s before.csv > eb && %s after.csv > ea "
                                                "&& paste eb ea | gawk '$1 == $2 { bad++ } "
                                                "END { exit bad + (NR < 2) }'",
                                          root, errors, errors),
                    0);
    free(out);
}

static void test_deterministic(void)
{
    CU_ASSERT_EQUAL_FATAL(compare_to("a", "smpi-multi", NULL, "d1.csv"), 0);
    CU_ASSERT_EQUAL_FATAL(compare_to("a", "smpi-multi", NULL, "d2.csv"), 0);
    build_site("a", "site2");
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "cd '%s' && cmp d1.csv d2.csv && "
                                                "cmp site/campaigns/smpi-multi/split-compare.csv "
                                                "site2/campaigns/smpi-multi/split-compare.csv",
                                          root),
                    0);
}

static void teardown(void) { testutil_remove_dir(root); }

int main(void)
{
    static const testutil_test tests[] = {
        {"setup: copy of the embedded archive, built", setup},
        {"compare's own row is the site's calibrated interval", test_own_row_is_site_interval},
        {"a candidate is calibrated as its model's experiment", test_candidate_is_its_models_experiment},
        {"held-out measurements calibrate no interval", test_targets_never_calibrate},
        {"compare and the site's comparison are deterministic", test_deterministic},
        {"teardown", teardown},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"compare_pool", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
