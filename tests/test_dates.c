/*
 * test_dates.c — the one calendar rule (gen/base/dates.h), by hand: leap
 * years by the Gregorian rule (2000 yes, 1900 no), month lengths, and the
 * exact YYYY-MM-DD shape the archive's date cells must have.
 */
#include "tests/testutil.h"

#include "gen/base/dates.h"

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

int main(void)
{
    static const testutil_test tests[] = {
        {"days of the calendar", test_days},
        {"the YYYY-MM-DD text", test_text},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"dates", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
