/*
 * test_column_rules.c — the one rule for what a column's name says
 * (gen/base/column_rules.h), case by case, and that the schema and the
 * configuration index follow it for the odd names (time_ms, time_).
 */
#include "tests/testutil.h"

#include <string.h>

#include "gen/base/column_rules.h"
#include "gen/base/config_index.h"
#include "gen/ingest/schema.h"

static void test_time_names(void)
{
    static const struct {
        const char *name;
        bool time;
    } cases[] = {
        {"time_s", true},        {"time_solve_s", true}, {"time_a_b_s", true},
        {"time_ms", false},      {"time__s", false},      {"time_", false},
        {"time_s_", false},      {"time", false},        {"times", false},
        {"metric_bw_s", false},  {"rtime_s", false},     {"published_prediction_s", false},
        {"time_x_ms", false},    {"", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CU_ASSERT_EQUAL(column_is_time(cases[i].name), cases[i].time);
        if (column_is_time(cases[i].name) != cases[i].time)
            printf("\n  %s: expected %s\n", cases[i].name, cases[i].time ? "a time" : "no time");
    }
}

static void test_sums(void)
{
    CU_ASSERT_TRUE(column_sum_is_time("time_s"));
    CU_ASSERT_TRUE(column_sum_is_time("time_a_s+time_b_s+time_c_s"));
    CU_ASSERT_FALSE(column_sum_is_time("time_a_s+metric_b"));
    CU_ASSERT_FALSE(column_sum_is_time("time_a_s+"));
    CU_ASSERT_FALSE(column_sum_is_time("+time_a_s"));
    CU_ASSERT_FALSE(column_sum_is_time("time_ms+time_a_s"));
}

static void test_measured(void)
{
    static const char *const measured[] = {"time_s", "time_ms", "time_", "metric_bw",
                                           "published_prediction_s", "rep", "date", "note",
                                           "cycles", "iterations", "rel_residual", "error_max"};
    static const char *const setting[] = {"np", "cluster", "N", "timer", "metric", "reps",
                                          "tag_layout", "published"};
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++) {
        CU_ASSERT_TRUE(column_is_measured(measured[i]));
        CU_ASSERT_FALSE(config_is_identifying(measured[i]));
    }
    for (size_t i = 0; i < sizeof setting / sizeof setting[0]; i++) {
        CU_ASSERT_FALSE(column_is_measured(setting[i]));
        CU_ASSERT_TRUE(config_is_identifying(setting[i]));
    }
}

/* The schema asks the same rule: a time in seconds may not be negative; an
 * odd time_ name is a plain number. */
static void test_schema_follows(void)
{
    CU_ASSERT_EQUAL(schema_default_rule("time_s"), RULE_NONNEGATIVE);
    CU_ASSERT_EQUAL(schema_default_rule("time_solve_s"), RULE_NONNEGATIVE);
    CU_ASSERT_EQUAL(schema_default_rule("published_prediction_s"), RULE_NONNEGATIVE);
    CU_ASSERT_EQUAL(schema_default_rule("time_ms"), RULE_NUMBER);
    CU_ASSERT_EQUAL(schema_default_rule("metric_delta"), RULE_NUMBER);
    CU_ASSERT_EQUAL(schema_default_rule("tag_site"), RULE_TEXT);
}

int main(void)
{
    static const testutil_test rules[] = {
        {"time_s and time_<part>_s are times, odd names not", test_time_names},
        {"a sum is a time when every part is", test_sums},
        {"measured columns never identify a configuration", test_measured},
        {"the schema follows the rule", test_schema_follows},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"column rules", rules}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
