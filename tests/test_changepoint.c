/*
 * test_changepoint.c — steps between dates beyond the repetition noise
 * (models/changepoint.h), on small series worked by hand.
 */
#include "models/changepoint.h"
#include "tests/testutil.h"

#include <math.h>

#define NDATES(a) (sizeof(a) / sizeof((a)[0]))

/* Each date is x, 1.1x, 1.21x: log deviations -l, 0, +l around the date's
 * mean with l = ln 1.1, so every date adds 2 l^2 to the sum of squares and
 * 2 to the dof: the pooled sd is exactly ln 1.1. */
static const double FLAT_A[] = {1, 1.1, 1.21};
static const double FLAT_B[] = {1.21, 1, 1.1}; /* the same runs in another order */
static const double DOUBLED[] = {2, 2.2, 2.42};

static void test_clear_step_found_at_its_date(void)
{
    /* Three dates, the time doubles at the third: medians 1.1, 1.1, 2.2.
     * Step 2: ln 2 over se = ln 1.1 * sqrt(pi/2) * sqrt(1/3 + 1/3). */
    changepoint_date d[] = {{FLAT_A, 3}, {FLAT_B, 3}, {DOUBLED, 3}};
    changepoint_step s[2];
    CU_ASSERT_EQUAL_FATAL(changepoint_detect(d, NDATES(d), s), CHANGEPOINT_OK);
    CU_ASSERT_FALSE(s[0].changed);
    CU_ASSERT_DOUBLE_EQUAL(s[0].rel_change, 0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s[0].z, 0, 1e-12);
    CU_ASSERT_TRUE(s[1].changed);
    CU_ASSERT_DOUBLE_EQUAL(s[1].median_before, 1.1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s[1].median_after, 2.2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s[1].rel_change, 1.0, 1e-12);
    double z = log(2) / (log(1.1) * sqrt(M_PI / 3));
    CU_ASSERT_DOUBLE_EQUAL(s[1].z, z, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s[1].z, 7.1068, 1e-3); /* the number, worked by hand */
}

static void test_faster_is_a_change_too(void)
{
    changepoint_date d[] = {{DOUBLED, 3}, {FLAT_A, 3}};
    changepoint_step s[1];
    CU_ASSERT_EQUAL_FATAL(changepoint_detect(d, 2, s), CHANGEPOINT_OK);
    CU_ASSERT_TRUE(s[0].changed);
    CU_ASSERT_DOUBLE_EQUAL(s[0].rel_change, -0.5, 1e-12);
}

static void test_noise_only_finds_none(void)
{
    /* Medians 1.0 and 1.1 (10%, at the floor), but the runs scatter
     * +-20%: log sums of squares 0.042367 + 0.019989 over 4 dof, sd
     * 0.12486, se 0.12486 * sqrt(pi/3) = 0.12777, z = ln 1.1 / se = 0.746. */
    static const double a[] = {1.0, 1.2, 0.9}, b[] = {1.1, 0.95, 1.15};
    changepoint_date d[] = {{a, 3}, {b, 3}};
    changepoint_step s[1];
    CU_ASSERT_EQUAL_FATAL(changepoint_detect(d, 2, s), CHANGEPOINT_OK);
    CU_ASSERT_FALSE(s[0].changed);
    CU_ASSERT_DOUBLE_EQUAL(s[0].rel_change, 0.1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s[0].z, 0.746, 1e-3);

    /* The same runs in another order: no step at all. */
    changepoint_date same[] = {{FLAT_A, 3}, {FLAT_B, 3}};
    CU_ASSERT_EQUAL_FATAL(changepoint_detect(same, 2, s), CHANGEPOINT_OK);
    CU_ASSERT_FALSE(s[0].changed);
}

static void test_step_within_noise_finds_none(void)
{
    /* +30% between medians 1.0 and 1.3, but the runs range 0.7-1.9: sums
     * 0.290825 + 0.279188 over 4 dof, sd 0.37750, se 0.38630,
     * z = ln 1.3 / se = 0.679. */
    static const double a[] = {1.0, 1.5, 0.7}, b[] = {1.3, 0.9, 1.9};
    changepoint_date d[] = {{a, 3}, {b, 3}};
    changepoint_step s[1];
    CU_ASSERT_EQUAL_FATAL(changepoint_detect(d, 2, s), CHANGEPOINT_OK);
    CU_ASSERT_FALSE(s[0].changed);
    CU_ASSERT_DOUBLE_EQUAL(s[0].rel_change, 0.3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s[0].z, 0.679, 1e-3);
}

static void test_tiny_significant_step_is_not_a_change(void)
{
    /* +5% with a 0.1% scatter: far beyond 3 standard errors, below the
     * 10% floor. */
    static const double a[] = {1.0, 1.001, 0.999}, b[] = {1.05, 1.051, 1.049};
    changepoint_date d[] = {{a, 3}, {b, 3}};
    changepoint_step s[1];
    CU_ASSERT_EQUAL_FATAL(changepoint_detect(d, 2, s), CHANGEPOINT_OK);
    CU_ASSERT_TRUE(s[0].z > 30);
    CU_ASSERT_FALSE(s[0].changed);
}

static void test_single_date_finds_none(void)
{
    changepoint_date d[] = {{DOUBLED, 3}};
    changepoint_step s[1] = {{.changed = true}};
    CU_ASSERT_EQUAL(changepoint_detect(d, 1, s), CHANGEPOINT_OK);
    CU_ASSERT_TRUE(s[0].changed); /* untouched: nothing to compare */
}

static void test_without_repetitions_no_noise(void)
{
    /* One run a date: no spread to compare the doubling with. */
    static const double a[] = {1}, b[] = {2};
    changepoint_date d[] = {{a, 1}, {b, 1}};
    changepoint_step s[1];
    CU_ASSERT_EQUAL_FATAL(changepoint_detect(d, 2, s), CHANGEPOINT_NO_NOISE);
    CU_ASSERT_FALSE(s[0].changed);
    CU_ASSERT_TRUE(isnan(s[0].z));
    CU_ASSERT_DOUBLE_EQUAL(s[0].rel_change, 1.0, 1e-12);
    /* Identical repetitions: zero spread is no noise estimate either. */
    static const double c[] = {1, 1}, e[] = {2, 2};
    changepoint_date z[] = {{c, 2}, {e, 2}};
    CU_ASSERT_EQUAL(changepoint_detect(z, 2, s), CHANGEPOINT_NO_NOISE);
    CU_ASSERT_FALSE(s[0].changed);
}

static void test_bad_input(void)
{
    static const double zero[] = {1, 0}, nan_[] = {1, NAN}, ok[] = {1, 2};
    changepoint_step s[1];
    changepoint_date a[] = {{ok, 2}, {zero, 2}};
    changepoint_date b[] = {{nan_, 2}, {ok, 2}};
    changepoint_date c[] = {{ok, 2}, {ok, 0}};
    CU_ASSERT_EQUAL(changepoint_detect(a, 2, s), CHANGEPOINT_BAD_INPUT);
    CU_ASSERT_EQUAL(changepoint_detect(b, 2, s), CHANGEPOINT_BAD_INPUT);
    CU_ASSERT_EQUAL(changepoint_detect(c, 2, s), CHANGEPOINT_BAD_INPUT);
}

static void test_median(void)
{
    static const double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
    static const double ties[] = {1, 2, 1}, same[] = {2, 2, 2, 2};
    CU_ASSERT_DOUBLE_EQUAL(changepoint_median(odd, 3), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(changepoint_median(even, 4), 2.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(changepoint_median(ties, 3), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(changepoint_median(same, 4), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(changepoint_median(odd, 1), 3, 0);
    CU_ASSERT_TRUE(isnan(changepoint_median(odd, 0)));
}

int main(void)
{
    static const testutil_test tests[] = {
        {"a clear step is found at its date", test_clear_step_found_at_its_date},
        {"a step down is a change too", test_faster_is_a_change_too},
        {"noise only finds none", test_noise_only_finds_none},
        {"a step within the noise finds none", test_step_within_noise_finds_none},
        {"a tiny significant step is no change", test_tiny_significant_step_is_not_a_change},
        {"a single date finds none", test_single_date_finds_none},
        {"without repetitions, no noise estimate", test_without_repetitions_no_noise},
        {"bad input", test_bad_input},
        {"median", test_median},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"changepoint", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
