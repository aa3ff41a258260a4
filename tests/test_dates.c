/*
 * test_dates.c — the one calendar rule (gen/base/dates.h), by hand: leap
 * years by the Gregorian rule (2000 yes, 1900 no), month lengths, and the
 * exact YYYY-MM-DD shape the archive's date cells must have.
 */
#include "tests/testutil.h"

#include "gen/base/dates.h"

#include <stdio.h>
#include <time.h>

static void test_days(void)
{
    CU_ASSERT_TRUE(dates_day_exists(2024, 2, 29));
    CU_ASSERT_FALSE(dates_day_exists(2023, 2, 29));
    CU_ASSERT_TRUE(dates_day_exists(2000, 2, 29));
    CU_ASSERT_FALSE(dates_day_exists(1900, 2, 29));
    CU_ASSERT_TRUE(dates_day_exists(2023, 4, 30));
    CU_ASSERT_FALSE(dates_day_exists(2023, 4, 31));
    CU_ASSERT_FALSE(dates_day_exists(2023, 13, 1));
    CU_ASSERT_FALSE(dates_day_exists(2023, 0, 1));
    CU_ASSERT_FALSE(dates_day_exists(2023, 1, 0));
    CU_ASSERT_EQUAL(dates_days_in_month(2024, 2), 29);
    CU_ASSERT_EQUAL(dates_days_in_month(2023, 12), 31);
    CU_ASSERT_EQUAL(dates_days_in_month(2023, 14), 0);
}

static void test_text(void)
{
    static const struct {
        const char *text;
        bool valid;
    } cases[] = {
        {"2024-02-29", true},  {"2023-02-29", false}, {"2026-11-26", true},
        {"2026-1-26", false},  {"2026-11-26 ", false}, {"2026/11/26", false},
        {"+026-11-26", false}, {"2026-11-3x", false},  {"", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CU_ASSERT_EQUAL(dates_text_valid(cases[i].text), cases[i].valid);
    CU_ASSERT_EQUAL(dates_digits("0042", 4), 42);
    CU_ASSERT_EQUAL(dates_digits("-042", 4), -1);
    CU_ASSERT_EQUAL(dates_digits(" 42", 3), -1);
}

/* Day numbers: known values by hand (2000-01-01 is day 10957: 30 years
 * of 365 days and 7 leap days, 1972-1996), then libc's timegm as an
 * independent calendar over every day of 1899-2101. */
static void test_day_number(void)
{
    long n = 0;
    CU_ASSERT_TRUE(dates_day_number("1970-01-01", &n) && n == 0);
    CU_ASSERT_TRUE(dates_day_number("1969-12-31", &n) && n == -1);
    CU_ASSERT_TRUE(dates_day_number("2000-01-01", &n) && n == 10957);
    long a = 0, b = 0;
    CU_ASSERT_TRUE(dates_day_number("2026-11-21", &a) && dates_day_number("2026-11-26", &b));
    CU_ASSERT_EQUAL(b - a, 5);
    CU_ASSERT_TRUE(dates_day_number("2024-02-28", &a) && dates_day_number("2024-03-01", &b));
    CU_ASSERT_EQUAL(b - a, 2);
    CU_ASSERT_FALSE(dates_day_number("2023-02-29", &n));
    size_t wrong = 0;
    for (struct tm tm = {.tm_year = -1, .tm_mday = 1}; tm.tm_year < 202; tm.tm_mday++) {
        time_t t = timegm(&tm); /* normalises tm: the next day each time */
        char text[48];
        snprintf(text, sizeof text, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                 tm.tm_mday);
        wrong += !dates_day_number(text, &n) || n != (long)(t / 86400);
    }
    CU_ASSERT_EQUAL(wrong, 0);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"days of the calendar", test_days},
        {"the YYYY-MM-DD text", test_text},
        {"day numbers", test_day_number},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"dates", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
