/*
 * test_cli_text.c — the text the CLI prints for people (issue 24 item 10):
 * `predict`, `compare` and `fit` in aligned columns, numbers never in
 * e-notation, a row's long note under the table as [n], an interval
 * too wide to plan on named as such, and a model's interval that reaches
 * below zero marked and explained. Read with plain string scanning, on
 * the embedded archive.
 */
#include "tests/testutil.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether text holds a number in e-notation ("4e-09", "2.5E+07"). */
static bool has_e_notation(const char *text)
{
    for (const char *p = text; *p; p++)
        if ((*p == 'e' || *p == 'E') && p > text && isdigit((unsigned char)p[-1]) &&
            (isdigit((unsigned char)p[1]) ||
             ((p[1] == '-' || p[1] == '+') && isdigit((unsigned char)p[2]))))
            return true;
    return false;
}

/* Characters (UTF-8 code points) before pointer at in line. */
static size_t column_of(const char *line, const char *at)
{
    size_t n = 0;
    for (const char *p = line; p < at; p++)
        n += ((unsigned char)*p & 0xC0) != 0x80;
    return n;
}

/* Every line of out from the first one starting with header_start to the
 * first blank line: the column at which "[" opens its note. All equal. */
static void expect_notes_aligned(char *out, const char *header_start)
{
    char *line = strstr(out, header_start);
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    long col = -1;
    size_t rows = 0;
    while (line && *line && *line != '\n') {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        char *note = strstr(line, "  [");
        if (note) {
            long c = (long)column_of(line, note + 2);
            CU_ASSERT(col < 0 || c == col);
            col = c;
            rows++;
        }
        CU_ASSERT_FALSE(has_e_notation(line));
        line = end ? end + 1 : NULL;
    }
    CU_ASSERT(rows >= 2);
}

static void test_predict_text(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "predict smpi-heldout search-c16"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "calibrated 95% PI"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n[1] beyond the training range: np 32"));
    expect_notes_aligned(out, "cluster ");
    CU_ASSERT_PTR_NULL(strstr(out, "reaches below zero")); /* every PI above zero here */
    free(out);
}

/* ScoPred's textbook PI for NPB FT at 64 processes is -0.047 s to 1.32 s
 * (symmetric in seconds): marked, and said under the table, once. */
static void test_predict_below_zero(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "predict scopred-ft table6b"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "1.323 s \xE2\x80\xA0"));
    const char *note = strstr(out, "\n\xE2\x80\xA0 The model's interval reaches below zero");
    CU_ASSERT_PTR_NOT_NULL_FATAL(note);
    const char *said = strstr(note, "reaches below zero");
    CU_ASSERT_PTR_NULL(strstr(said + 1, "reaches below zero"));
    free(out);
}

static void test_compare_text(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "compare smpi-strip strip-a"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    /* The term search covers with an interval over a hundred times wide
     * (x139 with the pooled error model; smpi-heldout's strip-c, used
     * before, is x20 with it). */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "(absurdly wide)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n[1] block: "));
    expect_notes_aligned(out, "experiment ");
    free(out);
}

static void test_fit_text(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "fit scopred-ep table2a"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    /* Everything but the fitted equation (a formula to copy) is for people. */
    char *fitted = strstr(out, "fitted:");
    char *after = fitted ? strchr(fitted, '\n') : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(after);
    CU_ASSERT_FALSE(has_e_notation(after));
    CU_ASSERT_PTR_NOT_NULL(strstr(after, "\xC3\x97 10\xE2\x81\xBB")); /* "× 10⁻" */
    free(out);
}

/* The notes under predict's table are for people too, the range beyond
 * training included, and a whole number in it is written whole (Table 3's
 * class B, N = 2^30, read "N 1.07374e+09 = 4x max trained 2.68435e+08"). */
static void test_predict_beyond_text(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "predict scopred-ep table3_np2"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    char *notes = strstr(out, "\n[1] ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(notes);
    CU_ASSERT_FALSE(has_e_notation(notes));
    CU_ASSERT_PTR_NOT_NULL(strstr(notes, "N 1073741824 = 4x max trained 268435456"));
    free(out);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"predict: aligned, notes under the table", test_predict_text},
        {"predict: a model's interval below zero marked and explained", test_predict_below_zero},
        {"compare: aligned, absurd widths named", test_compare_text},
        {"fit: no e-notation", test_fit_text},
        {"predict: the range beyond training for people, whole numbers whole",
         test_predict_beyond_text},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"cli text", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
