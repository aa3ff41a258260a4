/*
 * test_textout.c — numbers for machines: the shortest text that reads back
 * as the same double (checked with strtod, and against hand-written
 * expectations), and JSON's null for what is not a number.
 */
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/textout.h"

static void test_shortest_by_hand(void)
{
    static const struct {
        double v;
        const char *want;
    } cases[] = {
        {5.62, "5.62"},       /* not 5.6200000000000001 */
        {50, "50"},           /* not 5e+01 */
        {0.1 + 0.2, "0.30000000000000004"},
        {268435456, "268435456"},
        {-3.5, "-3.5"},
        {0, "0"},
        {2.5e-5, "0.000025"},
        {1e25, "1e+25"},
        {1.5e-9, "1.5e-09"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[32];
        textout_shortest_number(buf, sizeof buf, cases[i].v);
        CU_ASSERT_STRING_EQUAL(buf, cases[i].want);
    }
}

/* Any double: the text reads back exactly. */
static void test_shortest_round_trips(void)
{
    srand(7);
    for (int i = 0; i < 20000; i++) {
        double v = ldexp((double)rand() / RAND_MAX - 0.5, rand() % 200 - 100);
        char buf[32];
        textout_shortest_number(buf, sizeof buf, v);
        CU_ASSERT_EQUAL_FATAL(strtod(buf, NULL), v);
    }
}

static void test_json_null(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    textout_json_number(f, NAN);
    fputc(' ', f);
    textout_json_number(f, INFINITY);
    fputc(' ', f);
    textout_json_number(f, 5.62);
    fclose(f);
    CU_ASSERT_STRING_EQUAL(text, "null null 5.62");
    free(text);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"shortest numbers, by hand", test_shortest_by_hand},
        {"shortest numbers round-trip", test_shortest_round_trips},
        {"JSON null for non-finite", test_json_null},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"textout", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
