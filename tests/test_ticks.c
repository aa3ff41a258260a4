/*
 * test_ticks.c — axes for legal but extreme values: the smallest
 * subnormal (5e-324), the largest double, a single value, zero, ranges
 * spanning the whole double range, on every scale. Each must give finite,
 * increasing ticks covering the clamped range (no NaN or infinity for a
 * page to print); under make check SAN=1 this also proves there is no
 * undefined behaviour (render/ticks.c once computed INT_MIN - 1). Then
 * `perfcast build` of an archive holding a 5e-324 s run writes pages
 * without NaN or inf.
 */
#include "render/ticks.h"
#include "tests/testutil.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void expect_sane(axis_scale scale, double min, double max)
{
    axis_ticks t;
    bool ok = ticks_compute(scale, min, max, &t);
    if (!ok)
        fprintf(stderr, "\nticks(%d, %g, %g) refused\n", scale, min, max);
    CU_ASSERT_TRUE_FATAL(ok);
    CU_ASSERT_TRUE(t.n >= 2 && t.n <= TICKS_MAX);
    CU_ASSERT_TRUE(isfinite(t.lo) && isfinite(t.hi) && t.lo < t.hi);
    if (scale != SCALE_LINEAR) {
        CU_ASSERT_TRUE(t.lo > 0 && isfinite(t.hi / t.lo));
    }
    double lo = fmax(min, scale == SCALE_LINEAR ? -TICKS_RANGE_MAX : 1 / TICKS_RANGE_MAX);
    double hi = fmin(max, TICKS_RANGE_MAX);
    CU_ASSERT_TRUE(t.lo <= lo * (lo > 0 ? 1 + 1e-9 : 1 - 1e-9));
    CU_ASSERT_TRUE(t.hi >= hi * (hi > 0 ? 1 - 1e-9 : 1 + 1e-9));
    for (size_t i = 0; i < t.n; i++) {
        CU_ASSERT_TRUE(isfinite(t.at[i]));
        CU_ASSERT_TRUE(i == 0 || t.at[i] > t.at[i - 1]);
        CU_ASSERT_PTR_NULL(strstr(t.label[i], "nan"));
        CU_ASSERT_PTR_NULL(strstr(t.label[i], "inf"));
    }
}

static void test_extreme_ranges(void)
{
    static const axis_scale scales[] = {SCALE_LINEAR, SCALE_LOG10, SCALE_LOG2};
    const double tiny = 5e-324, big = DBL_MAX;
    const double cases[][2] = {
        {tiny, tiny}, {tiny, 2 * tiny}, {tiny, 1000}, {tiny, big}, {1, big},
        {big, big},   {DBL_MIN, DBL_MIN}, {1e-200, 1e-199}, {1e150, 1e151}, {0.5, 0.5},
    };
    for (size_t s = 0; s < 3; s++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            expect_sane(scales[s], cases[i][0], cases[i][1]);
    expect_sane(SCALE_LINEAR, -big, big);
    expect_sane(SCALE_LINEAR, 0, 0);
    expect_sane(SCALE_LINEAR, -tiny, tiny);
    expect_sane(SCALE_LINEAR, 0, tiny);
}

/* Ticks at the data's process counts: np 3, 6, 12, 14 and 24 (repeats,
 * NaN and a value outside the axis left out) give exactly those ticks,
 * labelled as written, and the range 3..24; one value or more than
 * TICKS_MAX distinct ones leave the computed ticks alone. */
static void test_ticks_at_values(void)
{
    axis_ticks t;
    CU_ASSERT_TRUE_FATAL(ticks_compute(SCALE_LOG2, 3, 24, &t));
    const double v[] = {12, 3, 24, 6, 14, 12, NAN, 3, 1e9};
    CU_ASSERT_TRUE(ticks_use_values(&t, v, 9));
    static const char *const want[] = {"3", "6", "12", "14", "24"};
    CU_ASSERT_EQUAL_FATAL(t.n, 5);
    for (size_t i = 0; i < 5; i++)
        CU_ASSERT_STRING_EQUAL(t.label[i], want[i]);
    CU_ASSERT_EQUAL(t.lo, 3);
    CU_ASSERT_EQUAL(t.hi, 24);

    axis_ticks u, before;
    CU_ASSERT_TRUE_FATAL(ticks_compute(SCALE_LOG2, 1, 64, &u));
    before = u;
    const double one[] = {8, 8};
    CU_ASSERT_FALSE(ticks_use_values(&u, one, 2));
    double many[TICKS_MAX + 1];
    for (size_t i = 0; i <= TICKS_MAX; i++)
        many[i] = 1 + (double)i;
    CU_ASSERT_FALSE(ticks_use_values(&u, many, TICKS_MAX + 1));
    CU_ASSERT_EQUAL(memcmp(&u, &before, sizeof u), 0);
}

static void test_ordinary_ranges_unchanged(void)
{
    axis_ticks t;
    CU_ASSERT_TRUE_FATAL(ticks_compute(SCALE_LOG10, 3, 700, &t));
    CU_ASSERT_DOUBLE_EQUAL(t.lo, 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(t.hi, 1000, 1e-9);
    CU_ASSERT_FALSE(ticks_compute(SCALE_LOG10, 0, 1, &t));
    CU_ASSERT_FALSE(ticks_compute(SCALE_LINEAR, NAN, 1, &t));
    CU_ASSERT_FALSE(ticks_compute(SCALE_LINEAR, 2, 1, &t));
}

/* A site built from the fixture with one run's time replaced by value:
 * no sanitizer report, the campaign page exists, and no page shows a NaN
 * or an infinity (a value near DBL_MAX overflows a least-squares fit). */
static void build_with_time(const char *value)
{
    char work[256];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(work, sizeof work));
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "cp -r tests/fixtures/site/basic '%s/a' && "
                    "sed -i 's/^ant,toy,1,1000,1013.0300,/ant,toy,1,1000,%s,/' '%s/a/alpha/runs.csv' && "
                    "grep -q %s '%s/a/alpha/runs.csv'", work, value, work, value, work), 0);
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "build --archive '%s/a' --out '%s/site'", work, work);
    /* 0, or 1 for the fixture's deliberately broken campaign; never a
     * sanitizer abort. */
    CU_ASSERT_TRUE(rc == 0 || rc == 1);
    CU_ASSERT_PTR_NULL(out ? strstr(out, "runtime error") : NULL);
    free(out);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "test -f '%s/site/campaigns/alpha/index.html'",
                                          work), 0);
    CU_ASSERT_NOT_EQUAL(testutil_run_commandf(NULL, "grep -rliwE 'nan|inf|infinity' '%s/site'",
                                              work), 0);
    testutil_remove_dir(work);
}

static void test_build_with_tiny_time(void)
{
    build_with_time("5e-324");
}

static void test_build_with_huge_time(void)
{
    build_with_time("1.7e308");
}

int main(void)
{
    static const testutil_test tests[] = {
        {"extreme and degenerate ranges", test_extreme_ranges},
        {"ordinary ranges unchanged", test_ordinary_ranges_unchanged},
        {"ticks at the data's values", test_ticks_at_values},
        {"build with a 5e-324 s run", test_build_with_tiny_time},
        {"build with a 1.7e308 s run", test_build_with_huge_time},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"ticks", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
