/*
 * test_config_groups.c — hashed grouping of rows into configurations
 * (gen/config_groups.h) against the pairwise definition
 * (experiment_same_configuration) on a table with repetitions, missing
 * numbers and texts, negative zero and non-identifying columns.
 */
#include "gen/config_groups.h"
#include "gen/experiment.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdlib.h>

static void test_against_pairwise(void)
{
    table t;
    table_init(&t);
    CU_ASSERT_FATAL(table_add_column(&t, "cluster", COL_TEXT) == 0);
    CU_ASSERT_FATAL(table_add_column(&t, "np", COL_NUMBER) == 1);
    CU_ASSERT_FATAL(table_add_column(&t, "time_s", COL_NUMBER) == 2);
    CU_ASSERT_FATAL(table_add_column(&t, "rep", COL_NUMBER) == 3);
    /* cluster, np (NAN = missing), time, rep */
    const char *cl[] = {"A", "A", "B", NULL, "A", NULL, "B", "A", "A"};
    double np[] = {1, 1, 1, 2, NAN, 2, 1, -0.0, 0.0};
    size_t n = sizeof np / sizeof np[0];
    size_t rows[16];
    for (size_t i = 0; i < n; i++) {
        long r = table_add_row(&t, (long)i + 2);
        table_set_text(&t, (size_t)r, 0, cl[i]);
        table_set_number(&t, (size_t)r, 1, np[i]);
        table_set_number(&t, (size_t)r, 2, 1.0 + (double)i); /* differs: not identifying */
        table_set_number(&t, (size_t)r, 3, (double)i);
        rows[i] = (size_t)r;
    }
    size_t *g, ng;
    CU_ASSERT_TRUE_FATAL(config_groups(&t, rows, n, &g, &ng));
    /* Groups: {0,1} {2,6} {3,5} {4} {7,8}: first-appearance numbering. */
    size_t want[] = {0, 0, 1, 2, 3, 2, 1, 4, 4};
    CU_ASSERT_EQUAL(ng, 5);
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(g[i], want[i]);
        for (size_t j = 0; j < n; j++)
            CU_ASSERT_EQUAL(g[i] == g[j], experiment_same_configuration(&t, rows[i], rows[j]));
    }
    free(g);
    CU_ASSERT_TRUE_FATAL(config_groups(&t, rows, 0, &g, &ng));
    CU_ASSERT_EQUAL(ng, 0);
    free(g);
    table_free(&t);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"hashed grouping equals the pairwise one", test_against_pairwise},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"config groups", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
