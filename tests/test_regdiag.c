/*
 * test_regdiag.c — residual diagnostics against R: shapiro.test on samples
 * covering each branch of Royston's algorithm, and on the fixture fits
 * shapiro.test(residuals), the studentized Breusch-Pagan statistic,
 * cooks.distance() and influence.measures()' Cook flag (values made by
 * tests/fixtures/scopred/make_ref.R). Plus the verdict lines and the
 * cases where a check cannot be made.
 */
#include "models/ols.h"
#include "models/regdiag.h"
#include "models/scopred.h"
#include "tests/scopred_ref.h"
#include "tests/testutil.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REL 1e-6

static void check_near(const char *what, size_t i, double got, double want)
{
    bool ok = ref_near(got, want, REL);
    if (!ok)
        fprintf(stderr, "%s[%zu]: got %.12g, R %.12g\n", what, i, got, want);
    CU_ASSERT_TRUE(ok);
}

static void test_shapiro_against_r(void)
{
    char *text = testutil_read_file("tests/fixtures/scopred/shapiro.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char *save = NULL;
    size_t samples = 0;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *rest = line;
        size_t n = strtoul(rest, &rest, 10);
        double w_r = strtod(rest, &rest), p_r = strtod(rest, &rest);
        double *x = malloc(n * sizeof *x);
        CU_ASSERT_PTR_NOT_NULL_FATAL(x);
        for (size_t i = 0; i < n; i++)
            x[i] = strtod(rest, &rest);
        double w, p;
        CU_ASSERT_TRUE(regdiag_shapiro_wilk(x, n, &w, &p));
        check_near("shapiro W, n", n, w, w_r);
        check_near("shapiro p, n", n, p, p_r);
        free(x);
        samples++;
    }
    CU_ASSERT_EQUAL(samples, 10);
    free(text);
}

static void test_shapiro_refuses(void)
{
    const double same[] = {2, 2, 2, 2}, two[] = {1, 2};
    double w, p;
    CU_ASSERT_FALSE(regdiag_shapiro_wilk(same, 4, &w, &p));
    CU_ASSERT_FALSE(regdiag_shapiro_wilk(two, 2, &w, &p));
}

/* Load a fixture set (on the heap: it is large), fit it and run the
 * diagnostics; fixture_free releases all three. */
static ref_set *fit_fixture(const char *set, ols_model *m, regdiag_result *d)
{
    scopred_formula f;
    ref_set *r = ref_set_open(set, &f);
    size_t n = r->data.nrows, k = f.nterms;
    /* R's own term values, so this test depends on the regression only. */
    double *x = malloc(n * k * sizeof *x);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < k; j++)
            x[i * k + j] = r->terms.cols[j].num[i];
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, fixture_column(&r->data, "y"), n, k, m), OLS_OK);
    CU_ASSERT_TRUE_FATAL(regdiag_run(m, x, k, d));
    free(x);
    scopred_formula_free(&f);
    return r;
}

static void fixture_free(ref_set *r, ols_model *m, regdiag_result *d)
{
    regdiag_free(d);
    ols_free(m);
    ref_set_free(r);
    free(r);
}

static void check_against_r(const char *set)
{
    ols_model m;
    regdiag_result d;
    ref_set *r = fit_fixture(set, &m, &d);
    CU_ASSERT_TRUE_FATAL(r->has_shapiro && r->has_bp);
    CU_ASSERT_PTR_NULL(d.normality_skipped);
    check_near("shapiro W", 0, d.sw_w, r->sw_w);
    check_near("shapiro p", 0, d.sw_p, r->sw_p);
    CU_ASSERT_PTR_NULL(d.variance_skipped);
    check_near("BP", 0, d.bp, r->bp);
    check_near("BP p", 0, d.bp_p, r->bp_p);
    CU_ASSERT_EQUAL(d.bp_df, (size_t)r->bp_df);
    CU_ASSERT_PTR_NULL(d.influence_skipped);
    size_t flagged = 0;
    for (size_t i = 0; i < m.n; i++) {
        check_near("Cook's D", i, d.cooks[i], r->run[i][2]);
        CU_ASSERT_EQUAL(d.influential[i], r->run[i][3] != 0);
        flagged += r->run[i][3] != 0;
    }
    CU_ASSERT_EQUAL(d.ninfluential, flagged);
    fixture_free(r, &m, &d);
}

static void test_r_linpack(void) { check_against_r("linpack"); }
static void test_r_ft_duplicate(void) { check_against_r("ft_duplicate"); }
static void test_r_fixed_p(void) { check_against_r("fixed_p"); }
static void test_r_ep_hetero(void) { check_against_r("ep_hetero"); }

/* ep_hetero has noise growing with the time and one disturbed run (the
 * first 2-process class-A run, the 49th row): every verdict says so. */
static void test_verdicts_flag_problems(void)
{
    ols_model m;
    regdiag_result d;
    ref_set *r = fit_fixture("ep_hetero", &m, &d);
    char line[512];
    regdiag_normality_verdict(&d, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "not normal"));
    regdiag_variance_verdict(&d, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "BP = 23.9 on 1 df"));
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "spread changes"));
    long lines[REF_MAX_RUNS];
    for (size_t i = 0; i < m.n; i++)
        lines[i] = (long)i + 2;
    regdiag_influence_verdict(&d, lines, "line", line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "3 runs sway the fit: line 50 (D = 10.3)"));
    CU_ASSERT_EQUAL(d.worst, 48);
    regdiag_significance_verdict(&m, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "significant at 95%"));
    fixture_free(r, &m, &d);
}

static void test_verdicts_clean_fit(void)
{
    ols_model m;
    regdiag_result d;
    ref_set *r = fit_fixture("fixed_p", &m, &d);
    char line[512];
    regdiag_normality_verdict(&d, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "W = 0.898, p = 0.088: no evidence against"));
    regdiag_variance_verdict(&d, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "on 3 df, p = 0.72: no evidence"));
    regdiag_influence_verdict(&d, NULL, NULL, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "none; the largest is run "));
    fixture_free(r, &m, &d);
}

/* An exact fit and a fit without residual degrees of freedom check
 * nothing and say why. */
/* Influence over 3,000 runs, twenty of them far out with growing
 * residuals, so Cook's distances fall on both sides of the median of
 * F(rank, df): every flag is what the F distribution function says,
 * P(F <= D) > 1/2. */
static void test_influence_flags(void)
{
    enum { N = 3000 };
    static double x[N], y[N];
    for (size_t i = 0; i < N; i++) {
        x[i] = (double)(i % 100);
        y[i] = 1 + 0.5 * x[i] + sin(1.7 * (double)i) * (1 + (double)(i % 7));
    }
    /* Twenty far runs pulled ever further off the line: the largest ones
     * influential, the first ones not. */
    for (size_t k = 0; k < 20; k++) {
        x[k] = 2000 + 100 * (double)k;
        y[k] = 1 + 0.5 * x[k] + 60 * (double)k;
    }
    ols_model m;
    regdiag_result r;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y, N, 1, &m), OLS_OK);
    CU_ASSERT_TRUE_FATAL(regdiag_run(&m, x, 1, &r));
    double p = (double)m.rank, df = (double)m.df_resid;
    size_t wrong = 0, above = 0;
    for (size_t i = 0; i < N; i++) {
        wrong += r.influential[i] != (gsl_cdf_fdist_P(r.cooks[i], p, df) > 0.5);
        above += r.influential[i];
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_TRUE(above > 0 && above < N / 10);
    regdiag_free(&r);
    ols_free(&m);
}

static void test_checks_that_cannot_run(void)
{
    const double x[] = {1, 2, 3, 4, 5}, exact[] = {5, 8, 11, 14, 17};
    ols_model m;
    regdiag_result d;
    char line[512];
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, exact, 5, 1, &m), OLS_OK);
    CU_ASSERT_TRUE_FATAL(regdiag_run(&m, x, 1, &d));
    regdiag_normality_verdict(&d, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "not checked, the training runs are fitted exactly"));
    regdiag_variance_verdict(&d, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "not checked"));
    regdiag_influence_verdict(&d, NULL, NULL, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "not checked"));
    regdiag_significance_verdict(&m, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "not tested"));
    regdiag_free(&d);
    ols_free(&m);

    const double y3[] = {1, 2.5, 2.9};
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y3, 3, 1, &m), OLS_OK);
    CU_ASSERT_TRUE_FATAL(regdiag_run(&m, x, 1, &d));
    regdiag_normality_verdict(&d, line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "fewer than 3 residual degrees of freedom"));
    regdiag_free(&d);
    ols_free(&m);
}

int main(void)
{
    static const testutil_test shapiro[] = {
        {"Shapiro-Wilk W and p vs R, n = 3..200", test_shapiro_against_r},
        {"Shapiro-Wilk refuses equal values and n < 3", test_shapiro_refuses},
        {NULL, NULL},
    };
    static const testutil_test fits[] = {
        {"linpack-like", test_r_linpack},
        {"FT duplicate", test_r_ft_duplicate},
        {"fixed P, aliased", test_r_fixed_p},
        {"EP heteroscedastic with an outlier", test_r_ep_hetero},
        {"verdicts flag problems", test_verdicts_flag_problems},
        {"verdicts on a clean fit", test_verdicts_clean_fit},
        {"checks that cannot run say why", test_checks_that_cannot_run},
        {"influence flags: the F distribution's verdict", test_influence_flags},
        {NULL, NULL},
    };
    const testutil_suite suites[] = {
        {"shapiro-wilk", shapiro},
        {"diagnostics vs R", fits},
        {NULL, NULL},
    };
    return testutil_run_suites(suites);
}
