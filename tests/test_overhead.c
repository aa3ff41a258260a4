/*
 * test_overhead.c — the overhead law alpha(np) + gamma*work: lines per np,
 * alpha linear or quadratic in log2 np, worked by hand.
 */
#include "models/overhead.h"
#include "tests/testutil.h"

#include <math.h>

/* Lines by hand: np 4: (1, 3), (3, 7) -> alpha 1, gamma 2;
 * np 8: (1, 4), (3, 10) -> alpha 1, gamma 3; np 16: (2, 9), (4, 17) -> 1, 4.
 * alpha constant 1: c = 1, d = 0 (e = 0); gamma = gamma(16) = 4. */
static const overhead_point PTS[] = {
    {4, 1, 3}, {4, 3, 7}, {8, 1, 4}, {8, 3, 10}, {16, 2, 9}, {16, 4, 17}, {2, 5, 1},
};

static void test_lines_and_alpha(void)
{
    overhead_law law;
    CU_ASSERT_EQUAL_FATAL(overhead_fit(PTS, 7, 2, &law), OVERHEAD_OK);
    CU_ASSERT_EQUAL(law.nlines, 3);
    CU_ASSERT_EQUAL(law.nskipped, 1); /* np 2 has one work level */
    CU_ASSERT_DOUBLE_EQUAL(law.skipped_np[0], 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(law.lines[1].gamma, 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(law.coef[0], 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(law.coef[1], 0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(law.coef[2], 0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(law.gamma, 4, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(overhead_eval(&law, 64, 10), 41, 1e-9);
    CU_ASSERT_TRUE(overhead_work_outside(&law, 5, 0.01));
    CU_ASSERT_FALSE(overhead_work_outside(&law, 2.5, 0.01));
    /* Works span [1, 4]: a relative tolerance widens that to [0.99, 4.04]
     * at 1%, [0.98, 4.08] at 2% (runs of one mesh differ in work_mb by a
     * fraction of a percent: issue 12). */
    CU_ASSERT_TRUE(overhead_work_outside(&law, 4.05, 0.01));
    CU_ASSERT_FALSE(overhead_work_outside(&law, 4.03, 0.01));
    CU_ASSERT_FALSE(overhead_work_outside(&law, 0.995, 0.01));
    CU_ASSERT_TRUE(overhead_work_outside(&law, 0.985, 0.01));
    CU_ASSERT_FALSE(overhead_work_outside(&law, 4.07, 0.02));
    CU_ASSERT_TRUE(overhead_work_outside(&law, 4.0001, 0)); /* no tolerance: strict */
    /* Each measured np's own line; np 2 (one work) and 32 have none. */
    const overhead_line *l8 = overhead_line_of(&law, 8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l8);
    CU_ASSERT_DOUBLE_EQUAL(l8->alpha + l8->gamma * 2, 7, 1e-12); /* 1 + 3*2 */
    CU_ASSERT_PTR_NULL(overhead_line_of(&law, 2));
    CU_ASSERT_PTR_NULL(overhead_line_of(&law, 32));
    overhead_law_free(&law);
}

/* alpha through (2, 1), (3, 2), (4, 5): quadratic 1 + ... by hand:
 * a(L) = c + d L + e L^2 with a(2)=1, a(3)=2, a(4)=5 -> e = 1, d = -4, c = 5. */
static void test_quadratic_exact_and_reduced(void)
{
    const overhead_point q[] = {{4, 0, 1}, {4, 1, 1}, {8, 0, 2}, {8, 1, 2}, {16, 0, 5}, {16, 1, 5}};
    overhead_law law;
    CU_ASSERT_EQUAL_FATAL(overhead_fit(q, 6, 2, &law), OVERHEAD_OK);
    CU_ASSERT_EQUAL(law.degree, 2);
    CU_ASSERT_DOUBLE_EQUAL(law.coef[0], 5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(law.coef[1], -4, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(law.coef[2], 1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(overhead_alpha(&law, 32), 10, 1e-9); /* 5 - 20 + 25 */
    overhead_law_free(&law);
    /* Linear by least squares over three points: (2,1), (3,2), (4,5):
     * slope 2, intercept 8/3 - 2*3 = -10/3. */
    CU_ASSERT_EQUAL_FATAL(overhead_fit(q, 6, 1, &law), OVERHEAD_OK);
    CU_ASSERT_DOUBLE_EQUAL(law.coef[1], 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(law.coef[0], -10.0 / 3, 1e-12);
    overhead_law_free(&law);
    /* Two np only with degree 2: a line, flagged. */
    CU_ASSERT_EQUAL_FATAL(overhead_fit(q, 4, 2, &law), OVERHEAD_OK);
    CU_ASSERT_EQUAL(law.degree, 1);
    CU_ASSERT_TRUE(law.degree_reduced);
    overhead_law_free(&law);
}

static void test_failures(void)
{
    overhead_law law;
    CU_ASSERT_EQUAL(overhead_fit(PTS, 2, 1, &law), OVERHEAD_TOO_FEW_NP);
    CU_ASSERT_EQUAL(overhead_fit(PTS + 6, 1, 1, &law), OVERHEAD_TOO_FEW_WORKS);
    CU_ASSERT_EQUAL(overhead_fit(PTS, 0, 1, &law), OVERHEAD_TOO_FEW_WORKS);
    CU_ASSERT_EQUAL(overhead_fit(PTS, 7, 3, &law), OVERHEAD_BAD_INPUT);
    overhead_point bad[] = {{4, NAN, 1}, {4, 2, 1}};
    CU_ASSERT_EQUAL(overhead_fit(bad, 2, 1, &law), OVERHEAD_BAD_INPUT);
    overhead_point zero[] = {{0, 1, 1}, {0, 2, 1}};
    CU_ASSERT_EQUAL(overhead_fit(zero, 2, 1, &law), OVERHEAD_BAD_INPUT);
    overhead_law_free(&law);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"lines and alpha", test_lines_and_alpha},
        {"quadratic exact, linear, reduced", test_quadratic_exact_and_reduced},
        {"failures", test_failures},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"overhead", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
