/*
 * test_cli.c — end-to-end: the perfcast binary on the embedded archive and
 * on the archive of bad inputs; --help of every command; exit codes.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_check_embedded_archive(void)
{
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "check --archive archive");
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "; 0 problems"));
    free(out);
}

/* Every expected line of every case appears, and nothing else is reported. */
static void test_check_bad_archive(void)
{
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "check --archive tests/fixtures/bad");
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    const char *cases[] = {
        "bad_experiments", "bad_options", "duplicate_column", "empty_file", "invalid_utf8", "missing_column",
        "missing_experiments", "nan_inf", "nonpositive", "ragged_row", "stray_quote",
        "text_for_number", "unknown_cluster", "unknown_engine", "unterminated_quote", "zero_rows",
    };
    size_t expected_lines = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/fixtures/bad/%s/expected", cases[i]);
        char *want = testutil_read_file(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(want);
        for (char *line = strtok(want, "\n"); line; line = strtok(NULL, "\n")) {
            char full[512];
            snprintf(full, sizeof full, "tests/fixtures/bad/%s/%s", cases[i], line);
            if (!strstr(out, full))
                fprintf(stderr, "\nmissing: %s\n", full);
            CU_ASSERT_PTR_NOT_NULL(strstr(out, full));
            expected_lines++;
        }
        free(want);
    }
    char summary[64];
    snprintf(summary, sizeof summary, "; %zu problems", expected_lines);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, summary));
    free(out);
}

static void test_help(void)
{
    const char *commands[] = {"check", "build", "fit", "predict", "advise", "plan", "list", "import"};
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "--help"), 0);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, commands[i]));
    free(out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char args[64], usage[64];
        snprintf(args, sizeof args, "%s --help", commands[i]);
        snprintf(usage, sizeof usage, "usage: perfcast %s", commands[i]);
        int rc = testutil_perfcast_run(&out, "%s", args);
        if (rc != 0 || !out || !strstr(out, usage) || !strstr(out, "--"))
            fprintf(stderr, "\n%s: rc %d\n%s\n", args, rc, out ? out : "");
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, usage));
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "--")); /* it lists real options */
        free(out);
    }
}

static void test_usage_errors(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "%s", ""), 2);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "frobnicate"), 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "unknown command 'frobnicate'"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "check --no-such-option"), 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "unknown option --no-such-option"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "check --archive"), 2);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "fit onlyone"), 2);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "predict --format xml a b"), 2);
    free(out);
    /* Input problems are exit 1: an unknown campaign or experiment. */
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "fit --archive archive no-such-campaign x"), 1);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "check --archive tests/fixtures/no-such-dir"), 1);
    free(out);
}

/* The end-to-end run under valgrind: no invalid access, no leak.
 * valgrind is installed by .ci/deps; its own exit code 9 marks a finding. */
static void test_valgrind_clean(void)
{
    const char *archives[] = {"archive", "tests/fixtures/bad"};
    const char *san = getenv("PERFCAST_SAN");
    if (san && strcmp(san, "1") == 0) {
        /* valgrind cannot run a sanitizer build; the plain build covers it. */
        fprintf(stderr, "(valgrind skipped under SAN=1) ");
        return;
    }
    for (size_t i = 0; i < 2; i++) {
        char *out = NULL;
        int rc = testutil_run_commandf(&out,
                                       "valgrind -q --error-exitcode=9 --leak-check=full "
                                       "--errors-for-leak-kinds=definite,indirect %s check "
                                       "--archive %s", testutil_perfcast(), archives[i]);
        if (rc == 9 || rc < 0)
            fprintf(stderr, "\n%s\n", out ? out : "");
        CU_ASSERT_TRUE(rc == 0 || rc == 1);
        free(out);
    }
}

/* predict --format csv: the standard columns, and error_pct recomputed
 * from estimate and measured by hand. */
static void test_predict_csv(void)
{
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "predict --format csv scopred-ep table2a");
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    char *header = strtok(out, "\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(header);
    CU_ASSERT_PTR_NOT_NULL(strstr(header, "cluster,"));
    /* The site's predictions.csv vocabulary, then the fit on every row. */
    CU_ASSERT_PTR_NOT_NULL(strstr(header, ",estimate,ci_low,ci_high,pi_low,pi_high,"
                                          "measured,n_measured,error_pct,extrapolation,note,"
                                          "cal_pi_low,cal_pi_high,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(header, ",formula,equation,interval_method,calibration_method"));
    size_t rows = 0;
    for (char *line = strtok(NULL, "\n"); line; line = strtok(NULL, "\n")) {
        /* estimate is the 8th field of this campaign's rows, measured the 13th. */
        double v[16];
        int n = 0;
        for (char *p = line; p && n < 16; n++) {
            v[n] = strtod(p, NULL);
            p = strchr(p, ',');
            p = p ? p + 1 : NULL;
        }
        CU_ASSERT_TRUE_FATAL(n >= 16);
        double estimate = v[7], measured = v[12], error = v[14];
        CU_ASSERT_EQUAL(v[13], 1); /* n_measured */
        CU_ASSERT_DOUBLE_EQUAL(error, 100 * (estimate - measured) / measured, 1e-6);
        CU_ASSERT_EQUAL(v[15], 0); /* extrapolation: 0/1 as in the site's CSV */
        CU_ASSERT_PTR_NOT_NULL(strstr(line, ",N/P,")); /* the formula of table2a */
        rows++;
    }
    CU_ASSERT_EQUAL(rows, 3); /* Table 2: 12, 14 and 16 nodes */
    free(out);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"check: embedded archive is clean", test_check_embedded_archive},
        {"check: every bad input, positioned", test_check_bad_archive},
        {"--help everywhere", test_help},
        {"usage errors and exit codes", test_usage_errors},
        {"valgrind-clean end to end", test_valgrind_clean},
        {"predict --format csv", test_predict_csv},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"cli", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
