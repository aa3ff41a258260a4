/*
 * test_run_engine.c — runs.csv `engine`: a missing column or an empty cell
 * reads as a real (openmpi) run, smpi rows are counted as simulated, and the
 * phrases the pages and `predict` print say which.
 */
#include "gen/base/run_engine.h"
#include "tests/testutil.h"

#include <string.h>

/* A table of n rows with column `engine` holding cells (NULL = no column). */
static void make_runs(table *t, const char *const *cells, size_t n)
{
    table_init(t);
    int np = table_add_column(t, "np", COL_NUMBER);
    int engine = cells ? table_add_column(t, "engine", COL_TEXT) : -1;
    for (size_t r = 0; r < n; r++) {
        long row = table_add_row(t, (long)r + 2);
        CU_ASSERT_FATAL(row >= 0);
        table_set_number(t, (size_t)row, (size_t)np, 1.0 + (double)r);
        if (cells && cells[r])
            table_set_text(t, (size_t)row, (size_t)engine, cells[r]);
    }
}

static void test_missing_column_is_real(void)
{
    table t;
    make_runs(&t, NULL, 3);
    CU_ASSERT_STRING_EQUAL(run_engine_of(&t, 1), "openmpi");
    run_engine_counts n = run_engine_count(&t);
    CU_ASSERT_EQUAL(n.real, 3);
    CU_ASSERT_EQUAL(n.simulated, 0);
    CU_ASSERT_STRING_EQUAL(run_engine_word(&n), "openmpi");
    char buf[256];
    CU_ASSERT_STRING_EQUAL(run_engine_describe(&n, buf, sizeof buf), "real (Open MPI)");
    table_free(&t);
}

static void test_mixed_and_simulated(void)
{
    static const char *const cells[] = {"smpi", NULL, "openmpi", "smpi"};
    table t;
    make_runs(&t, cells, 4);
    CU_ASSERT_STRING_EQUAL(run_engine_of(&t, 0), "smpi");
    CU_ASSERT_STRING_EQUAL(run_engine_of(&t, 1), "openmpi"); /* empty cell */
    run_engine_counts n = run_engine_count(&t);
    CU_ASSERT_EQUAL(n.real, 2);
    CU_ASSERT_EQUAL(n.simulated, 2);
    CU_ASSERT_STRING_EQUAL(run_engine_word(&n), "mixed");
    char buf[256];
    CU_ASSERT_STRING_EQUAL(run_engine_describe(&n, buf, sizeof buf),
                           "mixed: 2 real (Open MPI), 2 simulated (SimGrid SMPI)");
    n.real = 0;
    CU_ASSERT_STRING_EQUAL(run_engine_word(&n), "smpi");
    CU_ASSERT_PTR_NOT_NULL(strstr(run_engine_describe(&n, buf, sizeof buf), "simulated seconds"));
    table_free(&t);
}

static void test_check_values(void)
{
    CU_ASSERT_PTR_NULL(run_engine_check("openmpi"));
    CU_ASSERT_PTR_NULL(run_engine_check("smpi"));
    CU_ASSERT_PTR_NULL(run_engine_check(""));
    CU_ASSERT_PTR_NOT_NULL(run_engine_check("mpich"));
    CU_ASSERT_PTR_NOT_NULL(run_engine_check("SMPI")); /* exact words only */
}

int main(void)
{
    static const testutil_test tests[] = {
        {"no engine column: real runs", test_missing_column_is_real},
        {"smpi rows are simulated", test_mixed_and_simulated},
        {"known engines only", test_check_values},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"run engine", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
