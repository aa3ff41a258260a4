/*
 * test_compare.c — `perfcast compare` on a campaign worked by hand.
 *
 * Runs: T = 2 + 8/np at np = 1, 2, 4 (two repetitions each, +-0.1), and the
 * held-out np = 8 measured 3.5 and np = 16 measured 2.5. ScoPred with the
 * formula 1/np fits a = 2, b = 8 exactly in the means, so the estimates are
 * 3 and 2.5: errors -14.2857% and 0%, median 7.142857, max 14.285714.
 * The residuals are +-0.1: sigma = sqrt(6 * 0.01 / 4) = 0.122474, and with
 * (X'X)^-1 = [[2.625, -3.5], [-3.5, 6]] / 3.5 the leverages are 0.526786
 * (np 8) and 0.631696 (np 16), so the 95% PI half-widths are
 * t(0.975, 4) * sigma * sqrt(1 + h) = 0.420152 and 0.434350: 3.5 is outside,
 * 2.5 inside. The backtests are exact (the refit on np = 1, 2 predicts
 * np = 4 without error), so the calibrated PI is the textbook one: 1 of 2
 * inside, mean width 100 * (2 * 0.420152 / 3 + 2 * 0.434350 / 2.5) / 2; the
 * width factors (3 + 0.420152) / (3 - 0.420152) and (2.5 + 0.434350) /
 * (2.5 - 0.434350), median their mean; the interval scores (log scale,
 * alpha 0.05) the log of each factor, plus 40 log(3.5 / 3.420152) for the
 * miss above.
 * Strip, block, multicluster and multicore do not apply (no mesh or node
 * columns) and must say why. The output is read with a plain comma split,
 * not perfcast's reader.
 */
#include "gen/fit/compare.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[256];

static void make_archive(void)
{
    char path[512];
    /* The widths below are derived from this campaign's runs alone: no
     * shipped error prior (test_error_prior.c has it). */
    setenv("PERFCAST_ERROR_PRIOR", "none", 1);
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/clusters.csv", dir);
    testutil_write_file(path, "cluster\nA\n");
    snprintf(path, sizeof path, "%s/c/runs.csv", dir);
    testutil_write_file(path,
                        "cluster,np,time_s,rep\n"
                        "A,1,9.9,1\nA,1,10.1,2\n"
                        "A,2,5.9,1\nA,2,6.1,2\n"
                        "A,4,3.9,1\nA,4,4.1,2\n"
                        "A,8,3.5,1\n"
                        "A,16,2.5,1\n");
    snprintf(path, sizeof path, "%s/c/experiments.csv", dir);
    testutil_write_file(path, "name,model,response,formula,train,target\n"
                              "e,scopred,time_s,1/np,np <= 4,np >= 8\n");
    snprintf(path, sizeof path, "%s/c/README.md", dir);
    testutil_write_file(path, "c\n");
}

/* The fields of the output line whose first two fields are exp and model
 * (a plain split: the checked fields contain no commas or quotes). */
static int find_line(char *out, const char *exp, const char *model, char **fields, int max)
{
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s,%s,", exp, model);
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, prefix, strlen(prefix)) != 0)
            continue;
        int n = 0;
        for (char *s = line; s && n < max; n++) {
            fields[n] = s;
            char *comma = strchr(s, ',');
            if (comma)
                *comma = '\0';
            s = comma ? comma + 1 : NULL;
        }
        return n;
    }
    return 0;
}

static void expect_formula_row(const char *output, const char *exp)
{
    char *copy = strdup(output);
    char *f[18];
    int n = find_line(copy, exp, "scopred (formula)", f, 18);
    CU_ASSERT_FATAL(n >= 15);
    CU_ASSERT_STRING_EQUAL(f[3], "true");                    /* applies */
    CU_ASSERT_EQUAL(atoi(f[4]), 2);                           /* targets */
    CU_ASSERT_DOUBLE_EQUAL(atof(f[5]), 50.0 / 7, 1e-6);       /* median |error| */
    CU_ASSERT_DOUBLE_EQUAL(atof(f[6]), 100.0 / 7, 1e-6);      /* max |error| */
    CU_ASSERT_EQUAL(atoi(f[7]), 2);                           /* calibrated: with */
    CU_ASSERT_EQUAL(atoi(f[8]), 1);                           /* inside */
    double width = 100 * (2 * 0.420152 / 3 + 2 * 0.434350 / 2.5) / 2;
    CU_ASSERT_DOUBLE_EQUAL(atof(f[9]), width, 5e-3); /* half-widths to 6 digits */
    double r1 = (3 + 0.420152) / (3 - 0.420152), r2 = (2.5 + 0.434350) / (2.5 - 0.434350);
    CU_ASSERT_DOUBLE_EQUAL(atof(f[10]), (r1 + r2) / 2, 1e-4); /* median width factor */
    double score = (log(r1) + 40 * log(3.5 / (3 + 0.420152)) + log(r2)) / 2;
    CU_ASSERT_DOUBLE_EQUAL(atof(f[11]), score, 1e-4);         /* interval score */
    CU_ASSERT_EQUAL(atoi(f[12]), 2);                          /* own PI: with */
    CU_ASSERT_EQUAL(atoi(f[13]), 1);                          /* inside */
    /* 2 targets (fewer than 3) and max |error| 14.3%: uncertain on the split;
     * the pooled row has none of its own. */
    CU_ASSERT_FATAL(n >= 17);
    CU_ASSERT_STRING_EQUAL(f[16], strcmp(exp, "*") == 0 ? "" : "uncertain");
    free(copy);
}

static void test_hand_case(void)
{
    make_archive();
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "compare --format csv --archive %s c", dir);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "experiment,model,own,applies,targets,"));
    expect_formula_row(out, "e");
    expect_formula_row(out, "*"); /* one experiment: the pooled row is the same */
    static const char *const others[] = {"strip", "block", "multicluster", "multicore"};
    for (size_t i = 0; i < 4; i++) {
        char *copy = strdup(out), *f[18];
        int n = find_line(copy, "e", others[i], f, 18);
        CU_ASSERT_FATAL(n >= 16);
        CU_ASSERT_STRING_EQUAL(f[3], "false");
        CU_ASSERT(strlen(f[15]) > 5); /* a reason */
        free(copy);
    }
    free(out);

    /* Text: says the best model; unknown campaign and experiment fail. */
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "compare --archive %s c", dir), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "best model for c: "));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "compare --archive %s nosuch", dir), 1);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "compare --archive %s c nosuch", dir), 1);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "compare --archive %s", dir), 2);
    free(out);
    testutil_remove_dir(dir);
}

/* The best model: three candidates on two targets both measured 10 s.
 *   wide:  estimates 10.5, 9.5 (|error| 5%), calibrated PI 1..100 s both:
 *          interval score log(100) = 4.61 each;
 *   sharp: estimates 10.8, 9.2 (8%), PIs 9..12 and 8.5..11, both holding
 *          10: scores log(12/9) = 0.288 and log(11/8.5) = 0.258;
 *   point: estimates 10.1, 9.9 (1%), no interval.
 * The sharp interval that holds wins, though its error is the largest;
 * the point estimate without an interval ranks last whatever its error. */
static compare_row row_of(const char *label, const double *est, double lo0, double hi0, double lo1,
                          double hi1)
{
    compare_row w = {.label = strdup(label), .applies = true, .n = 2};
    double *a[6];
    for (int k = 0; k < 6; k++)
        a[k] = calloc(2, sizeof(double));
    w.estimate = a[0], w.measured = a[1], w.cal_low = a[2], w.cal_high = a[3];
    w.pi_low = a[4], w.pi_high = a[5];
    for (int i = 0; i < 2; i++) {
        w.estimate[i] = est[i], w.measured[i] = 10;
        w.pi_low[i] = w.pi_high[i] = NAN;
    }
    w.cal_low[0] = lo0, w.cal_high[0] = hi0, w.cal_low[1] = lo1, w.cal_high[1] = hi1;
    return w;
}

static void test_best_is_sharp_and_true(void)
{
    static const double wide[] = {10.5, 9.5}, sharp[] = {10.8, 9.2}, point[] = {10.1, 9.9};
    compare_row *rows = malloc(3 * sizeof *rows);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rows);
    rows[0] = row_of("wide", wide, 1, 100, 1, 100);
    rows[1] = row_of("sharp", sharp, 9, 12, 8.5, 11);
    rows[2] = row_of("point", point, NAN, NAN, NAN, NAN);
    compare_result one = {.rows = rows, .nrows = 3, .ntargets = 2, .best = -1};
    compare_result pooled;
    CU_ASSERT_TRUE_FATAL(compare_campaign_pool(&one, 1, &pooled));
    CU_ASSERT_EQUAL_FATAL(pooled.nrows, 3);
    CU_ASSERT_DOUBLE_EQUAL(pooled.rows[0].calibrated.mean_interval_score, log(100), 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(pooled.rows[1].calibrated.mean_interval_score,
                           (log(12.0 / 9) + log(11 / 8.5)) / 2, 1e-9);
    CU_ASSERT_TRUE(pooled.best >= 0 && strcmp(pooled.rows[pooled.best].label, "sharp") == 0);
    compare_result_free(&pooled);
    compare_result_free(&one);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"compare on a hand-worked campaign", test_hand_case},
        {"the best model is the sharpest interval that holds", test_best_is_sharp_and_true},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"compare", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
