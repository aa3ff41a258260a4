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
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[256];

static void make_archive(void)
{
    char path[512];
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

int main(void)
{
    static const testutil_test tests[] = {
        {"compare on a hand-worked campaign", test_hand_case},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"compare", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
