/*
 * test_reconcile.c — one total from its parts and a direct model of it
 * (models/reconcile.h), against cases worked by hand (the arithmetic is
 * written out beside each case).
 */
#include "models/reconcile.h"
#include "tests/testutil.h"

#include <math.h>

/* Parts 1 and 2 (sd 0.1, 0.2), direct total 3.6 (sd 0.3). S = 3, s_S =
 * 0.3, so both variances are 0.09: w = 0.5, C = 3.3, sd bound 0.3. The
 * difference 0.3 is shared as 0.01 : 0.04, i.e. 0.06 and 0.24: parts 1.06
 * and 2.24. */
static void test_equal_weights(void)
{
    const double parts[] = {1, 2}, sds[] = {0.1, 0.2};
    double out[2];
    reconcile_result r;
    CU_ASSERT_EQUAL_FATAL(reconcile_sum(parts, sds, 2, 3.6, 0.3, out, &r), RECONCILE_OK);
    CU_ASSERT_DOUBLE_EQUAL(r.sum_parts, 3.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.sum_sd, 0.3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.weight_sum, 0.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.total, 3.3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.total_sd, 0.3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(out[0], 1.06, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(out[1], 2.24, 1e-12);
    CU_ASSERT_EQUAL(r.nclipped, 0);
}

/* A sharp direct total (2, sd 0.01) against a vague small part (0.1, sd 1)
 * and a sharp large one (5, sd 0.1). s_S = 1.1, w = 0.0001 / 1.2101, C =
 * 2 + 3.1 w = 2.000256177. Shared 1 : 0.01 the difference -3.09974 would
 * take the small part to 0.1 - 3.069 < 0: it is held at zero and the
 * large part takes all of C. */
static void test_clipped_part(void)
{
    const double parts[] = {0.1, 5}, sds[] = {1, 0.1};
    double out[2];
    reconcile_result r;
    CU_ASSERT_EQUAL_FATAL(reconcile_sum(parts, sds, 2, 2, 0.01, out, &r), RECONCILE_OK);
    double w = 0.0001 / 1.2101;
    CU_ASSERT_DOUBLE_EQUAL(r.weight_sum, w, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(r.total, 2 + 3.1 * w, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.total_sd, w * 1.1 + (1 - w) * 0.01, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(out[0], 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(out[1], 2 + 3.1 * w, 1e-12);
    CU_ASSERT_EQUAL(r.nclipped, 1);
}

/* Exact parts (sd 0) and an exact total: w = 1/2; the difference goes to
 * the parts in proportion to their estimates. Parts 1 and 3, total 6:
 * C = 5, +1 shared 1 : 3, parts 1.25 and 3.75. Writing into the input
 * array is allowed. */
static void test_exact_inputs(void)
{
    double parts[] = {1, 3};
    const double sds[] = {0, 0};
    reconcile_result r;
    CU_ASSERT_EQUAL_FATAL(reconcile_sum(parts, sds, 2, 6, 0, parts, &r), RECONCILE_OK);
    CU_ASSERT_DOUBLE_EQUAL(r.total, 5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.total_sd, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(parts[0], 1.25, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(parts[1], 3.75, 1e-12);
}

/* A part 1 (sd 1) and a direct total -3 (sd 1): C = -1, no positive parts
 * add up to it; the parts come back unchanged. Bad inputs fill nothing. */
static void test_refusals(void)
{
    const double parts[] = {1}, sds[] = {1};
    double out[1] = {42};
    reconcile_result r;
    CU_ASSERT_EQUAL(reconcile_sum(parts, sds, 1, -3, 1, out, &r), RECONCILE_NOT_POSITIVE);
    CU_ASSERT_DOUBLE_EQUAL(r.total, -1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(out[0], 1, 0);
    const double nan_part[] = {NAN}, neg_sd[] = {-1};
    out[0] = 42;
    CU_ASSERT_EQUAL(reconcile_sum(nan_part, sds, 1, 1, 1, out, &r), RECONCILE_BAD_INPUT);
    CU_ASSERT_EQUAL(reconcile_sum(parts, neg_sd, 1, 1, 1, out, &r), RECONCILE_BAD_INPUT);
    CU_ASSERT_EQUAL(reconcile_sum(parts, sds, 0, 1, 1, out, &r), RECONCILE_BAD_INPUT);
    CU_ASSERT_EQUAL(reconcile_sum(parts, sds, 1, INFINITY, 1, out, &r), RECONCILE_BAD_INPUT);
    CU_ASSERT_DOUBLE_EQUAL(out[0], 42, 0);
    CU_ASSERT_PTR_NOT_NULL(reconcile_status_text(RECONCILE_NOT_POSITIVE));
}

int main(void)
{
    static const testutil_test tests[] = {
        {"equal weights", test_equal_weights},
        {"a part held at zero", test_clipped_part},
        {"exact inputs", test_exact_inputs},
        {"refusals", test_refusals},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"reconcile", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
