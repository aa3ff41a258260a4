/*
 * test_costing.c — memory per process, feasibility and cost, against the
 * published numbers of seed 000 (Tables I and II, Scenario 2's "about 10
 * times" claim) and hand-derived cases.
 */
#include "models/costing.h"
#include "tests/testutil.h"

#include <math.h>
#include <string.h>

/* 32 bytes per mesh point: seed 000 gives 2 GB per process for 65536^2 on
 * 64 processes and 1 GB for 32768^2 on 32 (65536*1024 points = 2 GiB). */
static const double MBPP = 32.0 / 1048576.0;

/* Scenario 2 (seed 000): cluster A charged 1 unit per CPU hour, B 2 units.
 * Memory per core: B has 8 GB per 4-core node; A is given 2 GB per
 * process, as Table I ran 2 GB processes on 64 of its cores. */
static const costing_cluster A = {"A", 2, 1, "units"};
static const costing_cluster B = {"B", 2, 2, "units"};

static double cost_of(const costing_side *sides, size_t n, double t)
{
    costing_result r;
    CU_ASSERT_TRUE(costing_evaluate(sides, n, t, &r));
    return r.cost;
}

/* Table II: (32,32) on A+B, 65536^2, measured 1645.5 s, predicted 1686.0 s;
 * 32 of B with Myrinet, 32768^2, measured 281.0 s, predicted 259.5 s. The
 * paper: the finer run costs "approximately 10 times" the B/Myrinet one.
 * By hand: 96*1645.5/(64*281.0) = 8.784, 96*1686.0/(64*259.5) = 9.746. */
static void test_scenario2_cost_ratio(void)
{
    costing_side split[2] = {{&A, 32, NAN}, {&B, 32, NAN}};
    costing_side b_only[1] = {{&B, 32, NAN}};
    double measured = cost_of(split, 2, 1645.5) / cost_of(b_only, 1, 281.0);
    double predicted = cost_of(split, 2, 1686.0) / cost_of(b_only, 1, 259.5);
    CU_ASSERT_DOUBLE_EQUAL(measured, 8.784, 0.001);
    CU_ASSERT_DOUBLE_EQUAL(predicted, 9.746, 0.001);
    costing_result r;
    CU_ASSERT_TRUE(costing_evaluate(split, 2, 1686.0, &r));
    CU_ASSERT_DOUBLE_EQUAL(r.core_hours, 64 * 1686.0 / 3600, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r.cost, 96 * 1686.0 / 3600, 1e-9);
    CU_ASSERT_STRING_EQUAL(r.currency, "units");
}

/* Table I: 65536^2 needs 4 GB per process on 32 cores of B, which has
 * 2 GB per core: infeasible. 64 of A at 2 GB fits; the equal split (64,32)
 * needs (1 GB, 2 GB) and fits. */
static void test_table1_memory(void)
{
    double n = 65536;
    costing_side b32[1] = {{&B, 32, MBPP * n * n / 32}};
    costing_result r;
    CU_ASSERT_TRUE(costing_evaluate(b32, 1, 1000, &r));
    CU_ASSERT_EQUAL(r.fit, COSTING_TOO_BIG);
    CU_ASSERT_DOUBLE_EQUAL(b32[0].mem_mb, 4096, 1e-9);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "needs 4096 MB per process but B has 2048 MB"));

    costing_side a64[1] = {{&A, 64, MBPP * n * n / 64}};
    CU_ASSERT_TRUE(costing_evaluate(a64, 1, 1000, &r));
    CU_ASSERT_EQUAL(r.fit, COSTING_FITS);
    CU_ASSERT_STRING_EQUAL(r.reason, "");

    costing_side split[2] = {{&A, 64, MBPP * n * (n / 2 / 64)}, {&B, 32, MBPP * n * (n / 2 / 32)}};
    CU_ASSERT_DOUBLE_EQUAL(split[0].mem_mb, 1024, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(split[1].mem_mb, 2048, 1e-9);
    CU_ASSERT_TRUE(costing_evaluate(split, 2, 1044.4, &r));
    CU_ASSERT_EQUAL(r.fit, COSTING_FITS);
    CU_ASSERT_DOUBLE_EQUAL(r.cost, (64 * 1 + 32 * 2) * 1044.4 / 3600, 1e-9);
}

/* Scenario 2: 32 processes alone reach 32768^2 (1 GB each); both
 * clusters together reach 65536^2 (2 GB each, 1024 rows per process). */
static void test_largest_pow2(void)
{
    double rows[2];
    costing_side a32[1] = {{&A, 32, NAN}};
    CU_ASSERT_DOUBLE_EQUAL(costing_largest_pow2(a32, 1, MBPP, rows), 32768, 0);
    CU_ASSERT_DOUBLE_EQUAL(rows[0], 1024, 0);
    costing_side both[2] = {{&A, 32, NAN}, {&B, 32, NAN}};
    CU_ASSERT_DOUBLE_EQUAL(costing_largest_pow2(both, 2, MBPP, rows), 65536, 0);
    CU_ASSERT_DOUBLE_EQUAL(rows[0], 1024, 0);
    CU_ASSERT_DOUBLE_EQUAL(rows[1], 1024, 0);
    /* Unequal memory: B holds twice as many rows per process as A. */
    costing_cluster big = {"big", 4, 1, NULL};
    costing_side mixed[2] = {{&A, 32, NAN}, {&big, 32, NAN}};
    CU_ASSERT_DOUBLE_EQUAL(costing_largest_pow2(mixed, 2, MBPP, rows), 65536, 0);
    CU_ASSERT_DOUBLE_EQUAL(32 * rows[0] + 32 * rows[1], 65536, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(rows[1], 2 * rows[0], 1e-9);
    costing_cluster unknown = {"u", NAN, 1, NULL};
    costing_side u[1] = {{&unknown, 32, NAN}};
    CU_ASSERT_DOUBLE_EQUAL(costing_largest_pow2(u, 1, MBPP, rows), 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(costing_largest_pow2(a32, 1, NAN, rows), 0, 0);
}

static void test_unknowns_and_currencies(void)
{
    costing_cluster norate = {"n", 2, NAN, "GBP"};
    costing_cluster euro = {"e", 2, 1, "EUR"};
    costing_cluster nomem = {"m", NAN, 1, "units"};
    costing_result r;
    costing_side s1[1] = {{&norate, 4, 100}};
    CU_ASSERT_TRUE(costing_evaluate(s1, 1, 3600, &r));
    CU_ASSERT_TRUE(isnan(r.cost));
    CU_ASSERT_DOUBLE_EQUAL(r.core_hours, 4, 1e-12);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "rate of n is unknown"));
    CU_ASSERT_STRING_EQUAL(r.currency, "GBP");

    costing_side s2[2] = {{&A, 4, 100}, {&euro, 4, 100}};
    CU_ASSERT_TRUE(costing_evaluate(s2, 2, 3600, &r));
    CU_ASSERT_TRUE(isnan(r.cost));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.reason, "different currencies"));

    costing_side s3[1] = {{&nomem, 4, 100}};
    CU_ASSERT_TRUE(costing_evaluate(s3, 1, 3600, &r));
    CU_ASSERT_EQUAL(r.fit, COSTING_MEMORY_UNKNOWN);
    CU_ASSERT_DOUBLE_EQUAL(r.cost, 4, 1e-12);
    costing_side s4[1] = {{&A, 4, NAN}};
    CU_ASSERT_TRUE(costing_evaluate(s4, 1, 3600, &r));
    CU_ASSERT_EQUAL(r.fit, COSTING_MEMORY_UNKNOWN);

    CU_ASSERT_FALSE(costing_evaluate(s4, 0, 3600, &r));
    CU_ASSERT_FALSE(costing_evaluate(s4, 1, NAN, &r));
    costing_side s5[1] = {{&A, 0, 1}};
    CU_ASSERT_FALSE(costing_evaluate(s5, 1, 10, &r));
}

/* Least squares through the origin, by hand: works 3, 5 MB on 1, 2
 * points give (3*1 + 5*2)/(1 + 4) = 2.6 MB per point. */
static void test_mb_per_point(void)
{
    const double work[] = {3, 5}, points[] = {1, 2};
    CU_ASSERT_DOUBLE_EQUAL(costing_mb_per_point(work, points, 2), 2.6, 1e-12);
    CU_ASSERT_TRUE(isnan(costing_mb_per_point(work, points, 0)));
    CU_ASSERT_TRUE(costing_fits(2048, 2));
    CU_ASSERT_FALSE(costing_fits(2048.01, 2));
    CU_ASSERT_FALSE(costing_fits(NAN, 2));
}

int main(void)
{
    static const testutil_test tests[] = {
        {"Scenario 2 cost ratio (Table II)", test_scenario2_cost_ratio},
        {"Table I memory feasibility", test_table1_memory},
        {"largest power-of-two mesh", test_largest_pow2},
        {"unknown rates, memory, currencies", test_unknowns_and_currencies},
        {"memory per mesh point", test_mb_per_point},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"costing", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
