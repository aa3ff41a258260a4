/*
 * test_site_units.c — numbers as the pages show them (gen/site/site_pages.h):
 * durations in human units, no e-notation, concise chart alt texts. The
 * expected strings are written out by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/site/site_pages.h"
#include "tests/testutil.h"

static void expect_fmt(void (*fmt)(rbuf *, double), double v, const char *want)
{
    rbuf b;
    rbuf_init(&b);
    fmt(&b, v);
    if (strcmp(rbuf_str(&b), want) != 0)
        fprintf(stderr, "\n%.17g -> [%s], want [%s]\n", v, rbuf_str(&b), want);
    CU_ASSERT_STRING_EQUAL(rbuf_str(&b), want);
    rbuf_free(&b);
}

static void test_durations(void)
{
    expect_fmt(site_fmt_duration, 0.4789, "0.4789 s");
    expect_fmt(site_fmt_duration, 12.5, "12.5 s");
    expect_fmt(site_fmt_duration, 59.49, "59.49 s");
    expect_fmt(site_fmt_duration, 59.7, "1 min 0 s");       /* rounds to a whole minute */
    expect_fmt(site_fmt_duration, 984.3, "16 min 24 s");    /* the 16-minute job */
    expect_fmt(site_fmt_duration, 3599.4, "59 min 59 s");
    expect_fmt(site_fmt_duration, 3599.6, "1 h 00 min");
    expect_fmt(site_fmt_duration, 2 * 3600 + 5 * 60 + 10, "2 h 05 min");
    expect_fmt(site_fmt_duration, 100 * 3600 + 29.9 * 60, "100 h 30 min");
    expect_fmt(site_fmt_duration, 99999 * 3600.0, "99999 h 00 min");
    expect_fmt(site_fmt_duration, 123456 * 3600.0, "123456 h");
    expect_fmt(site_fmt_duration, 1e21, "2.778 \xC3\x97 10\xC2\xB9\xE2\x81\xB7 h"); /* past LONG_MAX minutes */
    expect_fmt(site_fmt_duration, -1e21, "\xE2\x88\x92" "2.778 \xC3\x97 10\xC2\xB9\xE2\x81\xB7 h");
    expect_fmt(site_fmt_duration, 0, "0 s");
    expect_fmt(site_fmt_duration, -90, "\xE2\x88\x92" "1 min 30 s");
    expect_fmt(site_fmt_duration, NAN, "\xE2\x80\x94");
}

static void test_numbers_without_e(void)
{
    expect_fmt(site_fmt, 2.312e-04, "0.0002312"); /* the cost */
    expect_fmt(site_fmt, 3.07592e-05, "3.076 \xC3\x97 10\xE2\x81\xBB\xE2\x81\xB5");
    expect_fmt(site_fmt, 1234567, "1.235 \xC3\x97 10\xE2\x81\xB6");
    expect_fmt(site_fmt, -0.00001, "-1 \xC3\x97 10\xE2\x81\xBB\xE2\x81\xB5");
    expect_fmt(site_fmt, -0.0, "0");
    expect_fmt(site_fmt, 984.3, "984.3");
}

static void test_interval_clipped_at_zero(void)
{
    rbuf b;
    rbuf_init(&b);
    bool clipped = false;
    site_fmt_interval(&b, 0.4, 75, &clipped);
    CU_ASSERT_STRING_EQUAL(rbuf_str(&b), "0.4 s \xE2\x80\x93 1 min 15 s");
    CU_ASSERT_FALSE(clipped);
    rbuf_clear(&b);
    site_fmt_interval(&b, -0.2, 1.5, &clipped); /* a PI below zero: shown as 0, marked */
    CU_ASSERT_STRING_EQUAL(rbuf_str(&b), "0\xE2\x80\xA0 \xE2\x80\x93 1.5 s");
    CU_ASSERT_TRUE(clipped);
    rbuf_clear(&b);
    clipped = false;
    site_fmt_interval(&b, NAN, 1.5, &clipped);
    CU_ASSERT_STRING_EQUAL(rbuf_str(&b), "\xE2\x80\x94");
    CU_ASSERT_FALSE(clipped);
    rbuf_free(&b);
}

static void expect_money(double v, const char *want)
{
    rbuf b;
    rbuf_init(&b);
    site_fmt_money(&b, v, "EUR");
    CU_ASSERT_STRING_EQUAL(rbuf_str(&b), want);
    rbuf_free(&b);
}

static void test_money(void)
{
    expect_money(44.96, "44.96 EUR");
    expect_money(4.6133, "4.61 EUR");
    expect_money(2.312e-04, "0.00023 EUR"); /* the cost, no e-notation */
    expect_money(0.009824, "0.0098 EUR");
    expect_money(0.01, "0.010 EUR");
    expect_money(0.01898, "0.019 EUR"); /* and its bounds, two digits too: */
    expect_money(0.01258, "0.013 EUR");
    expect_money(0.09543, "0.095 EUR");
    expect_money(0.1, "0.10 EUR");
    expect_money(0, "0.00 EUR");
    expect_money(NAN, "\xE2\x80\x94");
}

static void test_concise_alt(void)
{
    const char *long_alt = "time (s) against processes (np) for experiment block-1024: measured "
                           "runs with their spread (training runs filled, held-out runs hollow), "
                           "predicted curve and 95% prediction interval";
    CU_ASSERT_TRUE_FATAL(strlen(long_alt) >= 150);
    rbuf md;
    rbuf_init(&md);
    site_md_chart(&md, "x-scaling", long_alt, "x.csv");
    const char *md_text = rbuf_str(&md);
    /* The alt text ends at the last clause boundary under 145 bytes ... */
    CU_ASSERT_PTR_NOT_NULL(strstr(md_text, "![time (s) against processes (np) for experiment "
                                           "block-1024: measured runs with their spread "
                                           "(training runs filled, held-out runs hollow)]"
                                           "(x-scaling.svg)"));
    /* ... the whole description follows as text, then the data link. */
    CU_ASSERT_PTR_NOT_NULL(strstr(md_text, "predicted curve and 95% prediction interval."));
    CU_ASSERT_PTR_NOT_NULL(strstr(md_text, "[x.csv](x.csv)"));
    /* A comma inside parentheses is no clause boundary: the site's own
     * scaling alt was cut to "... (training runs filled circles". */
    rbuf_clear(&md);
    site_md_chart(&md, "z", "time (s) against processes (np) for experiment table2a: measured runs "
                            "with their spread (training runs filled circles, held-out runs "
                            "hollow squares), the fitted curve", "z.csv");
    CU_ASSERT_PTR_NOT_NULL(strstr(rbuf_str(&md), "![time (s) against processes (np) for experiment "
                                                 "table2a: measured runs with their spread]"
                                                 "(z.svg)"));
    rbuf_clear(&md);
    site_md_chart(&md, "y", "Cost against time", "y.csv");
    CU_ASSERT_PTR_NOT_NULL(strstr(rbuf_str(&md), "![Cost against time](y.svg)\n\nChart as"));
    rbuf_free(&md);
}

/* The advice pages give times as durations, as the README promises: in
 * the embedded site's Scenario 1 table (its fourth column is the time),
 * every time ends in a unit ("16 min 24 s", "1.081 s"), none is a bare
 * number of seconds (983.9). */
static void test_advice_durations(void)
{
    char dir[256], path[512], *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "build --archive archive --out %s", dir),
                          0);
    free(out);
    snprintf(path, sizeof path, "%s/advice/scenario-1.md", dir);
    char *md = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(md);
    size_t rows = 0, with_unit = 0;
    for (char *line = strtok(md, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "| ", 2) != 0 || !(line[2] >= '0' && line[2] <= '9'))
            continue; /* a ranked row starts with its rank */
        char *cell = line;
        for (int k = 0; k < 3 && cell; k++)
            cell = strchr(cell + 1, '|');
        char *end = cell ? strchr(cell + 1, '|') : NULL;
        if (!cell || !end)
            continue;
        rows++;
        *end = '\0';
        with_unit += strstr(cell, " s ") || strstr(cell, " min") || strstr(cell, " h");
    }
    CU_ASSERT(rows > 0);
    CU_ASSERT_EQUAL(with_unit, rows);
    free(md);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"durations in human units", test_durations},
        {"advice times as durations", test_advice_durations},
        {"numbers on pages never in e-notation", test_numbers_without_e},
        {"costs in fixed decimals with the currency", test_money},
        {"intervals clipped at zero are marked", test_interval_clipped_at_zero},
        {"long alt texts are cut at a clause, the rest shown", test_concise_alt},
        {NULL, NULL}};
    static const testutil_suite suites[] = {{"site units", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
