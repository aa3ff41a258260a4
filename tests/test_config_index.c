/*
 * test_config_index.c — configurations keyed by a hash of their identifying
 * cells (gen/base/config_index.h) against the pairwise definition
 * (config_same_configuration): on a table with repetitions, missing
 * numbers and texts, negative zero and non-identifying columns, and on
 * 20,000 rows of 5,000 configurations (the index grows from empty), where
 * each row is checked against the first row of its configuration.
 */
#include "gen/base/config_index.h"
#include "gen/ingest/experiment.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An empty table of the columns "name:n" (number) or "name:t" (text). */
static void make_table(table *t, const char *const *columns, size_t n)
{
    table_init(t);
    for (size_t i = 0; i < n; i++) {
        char name[32];
        size_t len = strcspn(columns[i], ":");
        snprintf(name, sizeof name, "%.*s", (int)len, columns[i]);
        column_kind kind = columns[i][len + 1] == 't' ? COL_TEXT : COL_NUMBER;
        CU_ASSERT_FATAL(table_add_column(t, name, kind) == (int)i);
    }
}

static void test_against_pairwise(void)
{
    table t;
    const char *const columns[] = {"cluster:t", "np:n", "time_s:n", "rep:n"};
    make_table(&t, columns, 4);
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
            CU_ASSERT_EQUAL(g[i] == g[j], config_same_configuration(&t, rows[i], rows[j]));
    }
    free(g);
    CU_ASSERT_TRUE_FATAL(config_groups(&t, rows, 0, &g, &ng));
    CU_ASSERT_EQUAL(ng, 0);
    free(g);
    table_free(&t);
}

/* 20,000 rows cycling through 5,000 configurations (np x N), each row's
 * time differing; the index starts with no room and grows. */
/* Lines along a column: rows that differ in np only are on one line of
 * np, not of N; a measured column (time_s) never separates them; the
 * hash agrees with the comparison, and CONFIG_NONE is the whole
 * configuration. */
static void test_lines(void)
{
    table t;
    const char *const columns[] = {"cluster:t", "np:n", "N:n", "time_s:n"};
    make_table(&t, columns, 4);
    const char *cl[] = {"A", "A", "A", "B"};
    double np[] = {1, 2, 2, 2}, N[] = {10, 10, 20, 10};
    for (size_t i = 0; i < 4; i++) {
        size_t r = (size_t)table_add_row(&t, (long)i + 2);
        table_set_text(&t, r, 0, cl[i]);
        table_set_number(&t, r, 1, np[i]);
        table_set_number(&t, r, 2, N[i]);
        table_set_number(&t, r, 3, 5.0 * (double)i);
    }
    CU_ASSERT_TRUE(config_same_line(&t, 0, 1, 1));  /* np differs: one np line */
    CU_ASSERT_FALSE(config_same_line(&t, 0, 1, 2)); /* not one N line */
    CU_ASSERT_TRUE(config_same_line(&t, 1, 2, 2));
    CU_ASSERT_FALSE(config_same_line(&t, 0, 2, 1)); /* np and N differ */
    CU_ASSERT_FALSE(config_same_line(&t, 1, 3, 1)); /* another cluster */
    CU_ASSERT_TRUE(config_same_line(&t, 1, 3, 0));
    CU_ASSERT_FALSE(config_same_line(&t, 0, 1, CONFIG_NONE));
    CU_ASSERT_EQUAL(config_line_hash(&t, 0, 1), config_line_hash(&t, 1, 1));
    CU_ASSERT_EQUAL(config_line_hash(&t, 1, 2), config_line_hash(&t, 2, 2));
    CU_ASSERT_EQUAL(config_line_hash(&t, 1, 0), config_line_hash(&t, 3, 0));
    CU_ASSERT_NOT_EQUAL(config_line_hash(&t, 0, 1), config_line_hash(&t, 2, 1));
    CU_ASSERT_NOT_EQUAL(config_line_hash(&t, 1, 1), config_line_hash(&t, 3, 1));
    table_free(&t);
}

static void test_many_configurations(void)
{
    enum { ROWS = 20000, CONFIGS = 5000 };
    table t;
    const char *const columns[] = {"np:n", "N:n", "code:t", "time_s:n"};
    make_table(&t, columns, 4);
    for (size_t i = 0; i < ROWS; i++) {
        long r = table_add_row(&t, (long)i + 2);
        size_t c = i % CONFIGS;
        table_set_number(&t, (size_t)r, 0, (double)(1 + c % 50));
        table_set_number(&t, (size_t)r, 1, (double)(1000 * (c / 50)));
        table_set_text(&t, (size_t)r, 2, "toy");
        table_set_number(&t, (size_t)r, 3, (double)i);
    }
    config_index ix;
    CU_ASSERT_TRUE_FATAL(config_index_init(&ix, &t, 0));
    CU_ASSERT_EQUAL(config_index_find(&ix, 0), CONFIG_NONE); /* nothing added yet */
    long wrong = 0;
    for (size_t i = 0; i < ROWS; i++) {
        bool added;
        size_t k = config_index_add(&ix, i, &added);
        wrong += k != i % CONFIGS || added != (i < CONFIGS);
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(ix.count, CONFIGS);
    for (size_t i = 0; i < ROWS; i += 7)
        wrong += config_index_find(&ix, i) != i % CONFIGS ||
                 !config_same_configuration(&t, i, ix.first_row[i % CONFIGS]);
    CU_ASSERT_EQUAL(wrong, 0);
    /* A row of a configuration never added is found in none. */
    long r = table_add_row(&t, ROWS + 2);
    table_set_number(&t, (size_t)r, 0, 1);
    table_set_number(&t, (size_t)r, 1, 1e9);
    table_set_text(&t, (size_t)r, 2, "toy");
    CU_ASSERT_EQUAL(config_index_find(&ix, (size_t)r), CONFIG_NONE);
    config_index_free(&ix);
    table_free(&t);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"hashed grouping equals the pairwise one", test_against_pairwise},
        {"5,000 configurations, the index growing", test_many_configurations},
        {"lines along one column", test_lines},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"config index", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
