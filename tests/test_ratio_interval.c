/*
 * test_ratio_interval.c — the log-ratio prediction interval
 * (models/ratio_interval.h) against a case worked outside the program.
 */
#include "models/ratio_interval.h"
#include "tests/testutil.h"

#include <math.h>

/* Measured 1.1, 0.9, 1.0, 1.05 s against predictions of 1 s each. Worked
 * with Python's statistics module and the t table (t(0.975; 3) = 3.1824):
 * mean of the log ratios 0.0096850, standard deviation 0.0860042, half
 * width 3.1824 * 0.0860042 * sqrt(1.25) = 0.30601, interval
 * exp(0.0096850 -/+ 0.30601) = 0.74355 .. 1.37121. Scaling the
 * predictions (all 2 s, measured doubled) changes nothing. */
static void test_worked_case(void)
{
    const double measured[] = {1.1, 0.9, 1.0, 1.05}, predicted[] = {1, 1, 1, 1};
    ratio_interval_result r;
    CU_ASSERT_EQUAL_FATAL(ratio_interval(measured, predicted, 4, &r), RATIO_INTERVAL_OK);
    CU_ASSERT_DOUBLE_EQUAL(r.mean_log, 0.0096850, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(r.sd_log, 0.0860042, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(r.low, 0.74355, 1e-4);
    CU_ASSERT_DOUBLE_EQUAL(r.high, 1.37121, 1e-4);
    CU_ASSERT_EQUAL(r.n, 4);
    const double m2[] = {2.2, 1.8, 2.0, 2.1}, p2[] = {2, 2, 2, 2};
    ratio_interval_result r2;
    CU_ASSERT_EQUAL_FATAL(ratio_interval(m2, p2, 4, &r2), RATIO_INTERVAL_OK);
    CU_ASSERT_DOUBLE_EQUAL(r2.low, r.low, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r2.high, r.high, 1e-12);
}

static void test_refusals(void)
{
    const double m[] = {1, 2, 0}, p[] = {1, 2, 1};
    ratio_interval_result r = {0};
    CU_ASSERT_EQUAL(ratio_interval(m, p, 2, &r), RATIO_INTERVAL_TOO_FEW);
    CU_ASSERT_EQUAL(ratio_interval(m, p, 3, &r), RATIO_INTERVAL_BAD_INPUT);
    const double nan_m[] = {1, NAN, 1};
    CU_ASSERT_EQUAL(ratio_interval(nan_m, p, 3, &r), RATIO_INTERVAL_BAD_INPUT);
    CU_ASSERT_EQUAL(r.n, 0); /* nothing filled */
}

int main(void)
{
    static const testutil_test tests[] = {
        {"worked case", test_worked_case},
        {"too few pairs, bad times", test_refusals},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"ratio_interval", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
