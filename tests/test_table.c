/*
 * test_table.c — column lookup by name (hashed): every one of 40,000
 * columns is found at its index, absent names are not, duplicates are
 * refused, names that share a hash slot or a prefix stay apart, and a wide
 * header with a repeated column is reported at the repeat's column; short
 * texts are stored once per table (interned). The
 * speed of a wide header is measured by make bench, not here.
 */
#include "gen/base/csvread.h"
#include "gen/ingest/schema.h"
#include "models/table.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WIDE = 40000 };

static void test_many_columns(void)
{
    table t;
    table_init(&t);
    CU_ASSERT_EQUAL(table_find(&t, "c0"), -1); /* empty table */
    char name[32];
    for (int i = 0; i < WIDE; i++) {
        snprintf(name, sizeof name, "c%d", i);
        CU_ASSERT_EQUAL_FATAL(table_add_column(&t, name, i % 2 ? COL_TEXT : COL_NUMBER), i);
    }
    long wrong = 0;
    for (int i = 0; i < WIDE; i++) {
        snprintf(name, sizeof name, "c%d", i);
        wrong += table_find(&t, name) != i;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(table_find(&t, "c40000"), -1);
    CU_ASSERT_EQUAL(table_find(&t, "c"), -1);
    CU_ASSERT_EQUAL(table_find(&t, ""), -1);
    CU_ASSERT_EQUAL(table_find(&t, "c00"), -1);
    /* A duplicate is refused and changes nothing. */
    CU_ASSERT_EQUAL(table_add_column(&t, "c123", COL_TEXT), -1);
    CU_ASSERT_EQUAL(t.ncols, WIDE);
    CU_ASSERT_EQUAL(table_find(&t, "c123"), 123);
    /* Rows still reach the right column after all the growth. */
    long r = table_add_row(&t, 7);
    CU_ASSERT_TRUE(table_set_text(&t, (size_t)r, 39999, "last"));
    CU_ASSERT_STRING_EQUAL(table_text_named(&t, 0, "c39999"), "last");
    CU_ASSERT_TRUE(isnan(table_number_named(&t, 0, "c0")));
    table_free(&t);
    CU_ASSERT_EQUAL(table_find(&t, "c1"), -1);
    /* A freed table is reusable. */
    CU_ASSERT_EQUAL(table_add_column(&t, "c1", COL_TEXT), 0);
    CU_ASSERT_EQUAL(table_find(&t, "c1"), 0);
    table_free(&t);
}

static void test_select_keeps_lookup(void)
{
    table t, sel;
    table_init(&t);
    CU_ASSERT_EQUAL(table_add_column(&t, "np", COL_NUMBER), 0);
    CU_ASSERT_EQUAL(table_add_column(&t, "cluster", COL_TEXT), 1);
    table_add_row(&t, 2);
    table_add_row(&t, 3);
    table_set_number(&t, 1, 0, 8);
    size_t rows[] = {1};
    CU_ASSERT_TRUE_FATAL(table_select_rows(&t, rows, 1, &sel));
    CU_ASSERT_EQUAL(table_find(&sel, "cluster"), 1);
    CU_ASSERT_EQUAL(table_number_named(&sel, 0, "np"), 8);
    table_free(&sel);
    table_free(&t);
}

static void test_text_storage(void)
{
    /* Many small strings, one larger than a storage block, and bytes
     * without a NUL: every cell keeps its own text. */
    table t;
    table_init(&t);
    CU_ASSERT_EQUAL(table_add_column(&t, "note", COL_TEXT), 0);
    size_t big = 600 * 1024;
    char *large = malloc(big + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(large);
    memset(large, 'L', big);
    large[big] = '\0';
    char buf[32];
    long wrong = 0;
    for (int i = 0; i < 50000; i++) {
        long r = table_add_row(&t, i + 2);
        snprintf(buf, sizeof buf, "run %d", i);
        bool ok = i == 777 ? table_set_text(&t, (size_t)r, 0, large)
                           : table_set_text_n(&t, (size_t)r, 0, buf, strlen(buf) - 1);
        wrong += !ok;
    }
    for (int i = 0; i < 50000; i++) {
        snprintf(buf, sizeof buf, "run %d", i);
        buf[strlen(buf) - 1] = '\0';
        const char *got = table_text(&t, (size_t)i, 0);
        wrong += i == 777 ? strcmp(got, large) != 0 : strcmp(got, buf) != 0;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_TRUE(table_set_text(&t, 3, 0, NULL));
    CU_ASSERT_PTR_NULL(table_text(&t, 3, 0));
    CU_ASSERT_TRUE(table_set_text(&t, 4, 0, ""));
    CU_ASSERT_STRING_EQUAL(table_text(&t, 4, 0), "");
    free(large);
    table_free(&t);
}

/* Short texts are stored once per table: equal ones share a pointer in
 * any row and column, prefixes and longer texts stay apart, and once
 * TABLE_INTERNED distinct texts are held a new one gets its own copy while
 * the earlier ones are still shared. */
static void test_interned_texts(void)
{
    table t;
    table_init(&t);
    CU_ASSERT_EQUAL(table_add_column(&t, "a", COL_TEXT), 0);
    CU_ASSERT_EQUAL(table_add_column(&t, "b", COL_TEXT), 1);
    char buf[TABLE_INTERNED_LEN + 8];
    long wrong = 0;
    enum { DISTINCT = TABLE_INTERNED + 100 };
    for (int i = 0; i < 2 * DISTINCT; i++) {
        long r = table_add_row(&t, i + 2);
        snprintf(buf, sizeof buf, "v%d", i % DISTINCT);
        wrong += !table_set_text(&t, (size_t)r, 0, buf);
        wrong += !table_set_text_n(&t, (size_t)r, 1, buf, strlen(buf) - (i % 2));
    }
    for (int i = 0; i < 2 * DISTINCT; i++) {
        snprintf(buf, sizeof buf, "v%d", i % DISTINCT);
        wrong += strcmp(table_text(&t, (size_t)i, 0), buf) != 0;
        buf[strlen(buf) - (i % 2)] = '\0';
        wrong += strcmp(table_text(&t, (size_t)i, 1), buf) != 0;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    /* Rows 0 and DISTINCT hold "v0" in column a: one copy, also where
     * column b holds "v0" (row 0). Odd rows cut column b's text short: row
     * 11 holds "v11" and "v1", apart, and its "v1" is row 1's. */
    CU_ASSERT_PTR_EQUAL(table_text(&t, 0, 0), table_text(&t, DISTINCT, 0));
    CU_ASSERT_PTR_EQUAL(table_text(&t, 0, 0), table_text(&t, 0, 1));
    CU_ASSERT_PTR_NOT_EQUAL(table_text(&t, 11, 0), table_text(&t, 11, 1));
    CU_ASSERT_PTR_EQUAL(table_text(&t, 11, 1), table_text(&t, 1, 0));
    size_t late = DISTINCT - 1; /* "v4195": first seen after the set filled up */
    CU_ASSERT_STRING_EQUAL(table_text(&t, late, 0), table_text(&t, late + DISTINCT, 0));
    CU_ASSERT_PTR_NOT_EQUAL(table_text(&t, late, 0), table_text(&t, late + DISTINCT, 0));
    /* Longer than TABLE_INTERNED_LEN: always a copy of its own. */
    memset(buf, 'x', TABLE_INTERNED_LEN + 1);
    buf[TABLE_INTERNED_LEN + 1] = '\0';
    CU_ASSERT_TRUE(table_set_text(&t, 0, 0, buf));
    CU_ASSERT_TRUE(table_set_text(&t, 1, 0, buf));
    CU_ASSERT_STRING_EQUAL(table_text(&t, 1, 0), buf);
    CU_ASSERT_PTR_NOT_EQUAL(table_text(&t, 0, 0), table_text(&t, 1, 0));
    table_free(&t);
}

/* A header of `n` columns x0..x(n-1), then `extra` appended. */
static char *wide_header(int n, const char *extra)
{
    size_t cap = (size_t)n * 8 + strlen(extra) + 64, used = 0;
    char *text = malloc(cap);
    for (int i = 0; i < n && text; i++)
        used += (size_t)snprintf(text + used, cap - used, "x%d,", i);
    if (text)
        snprintf(text + used, cap - used, "%s\n", extra);
    return text;
}

static void test_wide_header_duplicate(void)
{
    static const column_spec specs[] = {{"np", RULE_COUNT, true, false, "processes"},
                                        {NULL, RULE_TEXT, false, false, NULL}};
    schema s = {.file = "wide.csv", .specs = specs, .allow_unknown = true, .allow_no_rows = true};
    char *text = wide_header(WIDE, "np,x17");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    csv_doc doc;
    diag_list d;
    diag_init(&d);
    CU_ASSERT_TRUE_FATAL(csv_parse_buffer(text, strlen(text), "wide.csv", &doc, &d));
    table t;
    CU_ASSERT_FALSE(schema_load_table(&doc, &s, &t, &d));
    CU_ASSERT_EQUAL_FATAL(d.count, 1);
    CU_ASSERT_EQUAL(d.items[0].line, 1);
    CU_ASSERT_EQUAL(d.items[0].column, (long)strlen(text) - 3); /* the "x17" at the end */
    CU_ASSERT_PTR_NOT_NULL(strstr(d.items[0].message, "duplicate column 'x17'"));
    csv_doc_free(&doc);
    diag_free(&d);
    free(text);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"40,000 columns found by name", test_many_columns},
        {"selected rows keep the lookup", test_select_keeps_lookup},
        {"text cells in blocks", test_text_storage},
        {"short texts stored once", test_interned_texts},
        {"wide header with a duplicate", test_wide_header_duplicate},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"table", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
