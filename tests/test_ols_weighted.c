/*
 * test_ols_weighted.c — weighted least squares (ols_fit_grouped_weighted,
 * ols_fit_weighted, the weighted prefix functions, ols_predict_weighted)
 * against sources that do not share its code: the closed-form weighted
 * regression on one term (sums written out here), refits without each
 * configuration for the leave-one-out sum, the HC3 sandwich written out
 * with 2 x 2 matrices, and integer weights as repeated rows of ols_fit.
 */
#include "models/ols.h"
#include "tests/testutil.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { G = 7 };

/* Seven configurations of a time falling as 1/p with repetitions (1 to 3)
 * and a spread within each: the term is 1/p. */
static const double P[G] = {1, 2, 4, 8, 16, 32, 64};
static const double COUNT[G] = {1, 2, 3, 1, 2, 3, 2};

static void make(double *x, double *mean, double *within, double *weight)
{
    for (size_t c = 0; c < G; c++) {
        x[c] = 1 / P[c];
        mean[c] = (0.5 + 100 / P[c]) * (1 + 0.03 * sin(5.0 * (double)c));
        within[c] = COUNT[c] > 1 ? 0.01 * mean[c] * mean[c] : 0;
        weight[c] = 1 / (mean[c] * mean[c]);
    }
}

/* Closed-form weighted fit of mean ~ a + b x, each run of c weighing
 * weight[c]: weighted means and sums of squares. */
typedef struct {
    double a, b, sw, xbar, sxx, rss;
} wls;

static wls closed_form(const double *x, const double *mean, const double *within,
                       const double *weight, const bool *keep)
{
    wls f = {0};
    double swx = 0, swy = 0;
    for (size_t c = 0; c < G; c++) {
        if (keep && !keep[c])
            continue;
        double w = weight[c] * COUNT[c];
        f.sw += w;
        swx += w * x[c];
        swy += w * mean[c];
    }
    f.xbar = swx / f.sw;
    double ybar = swy / f.sw, sxy = 0;
    for (size_t c = 0; c < G; c++) {
        if (keep && !keep[c])
            continue;
        double w = weight[c] * COUNT[c];
        f.sxx += w * (x[c] - f.xbar) * (x[c] - f.xbar);
        sxy += w * (x[c] - f.xbar) * (mean[c] - ybar);
    }
    f.b = sxy / f.sxx;
    f.a = ybar - f.b * f.xbar;
    for (size_t c = 0; c < G; c++) {
        if (keep && !keep[c])
            continue;
        double r = mean[c] - f.a - f.b * x[c];
        f.rss += weight[c] * (within[c] + COUNT[c] * r * r);
    }
    return f;
}

static double runs(void)
{
    double n = 0;
    for (size_t c = 0; c < G; c++)
        n += COUNT[c];
    return n;
}

/* Coefficients, weighted rss, sigma and the prediction interval against
 * the closed form. */
static void test_closed_form(void)
{
    double x[G], mean[G], within[G], weight[G];
    make(x, mean, within, weight);
    wls f = closed_form(x, mean, within, weight, NULL);
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit_grouped_weighted(x, mean, COUNT, weight, within, G, 1, &m),
                          OLS_OK);
    CU_ASSERT_DOUBLE_EQUAL(m.coef[0], f.a, 1e-9 * fabs(f.a));
    CU_ASSERT_DOUBLE_EQUAL(m.coef[1], f.b, 1e-9 * fabs(f.b));
    CU_ASSERT_DOUBLE_EQUAL(m.rss, f.rss, 1e-9 * f.rss);
    CU_ASSERT_EQUAL(m.n, 14);
    CU_ASSERT_EQUAL(m.df_resid, 12);
    double sigma = sqrt(f.rss / (runs() - 2));
    CU_ASSERT_DOUBLE_EQUAL(m.sigma, sigma, 1e-9 * sigma);
    /* A new run at p = 128 weighing 1/estimate^2: its variance is
     * sigma^2 (estimate^2 + 1/sw + (x0 - xbar)^2 / sxx). */
    double x0 = 1.0 / 128, est = f.a + f.b * x0;
    double lev = 1 / f.sw + (x0 - f.xbar) * (x0 - f.xbar) / f.sxx;
    double half = gsl_cdf_tdist_Pinv(0.975, runs() - 2) * sigma * sqrt(est * est + lev);
    ols_prediction p;
    ols_predict_weighted(&m, &x0, 1 / (est * est), 0.95, &p);
    CU_ASSERT_DOUBLE_EQUAL(p.estimate, est, 1e-9 * est);
    CU_ASSERT_DOUBLE_EQUAL(p.pi_high - p.estimate, half, 1e-9 * half);
    CU_ASSERT_DOUBLE_EQUAL(p.estimate - p.pi_low, half, 1e-9 * half);
    ols_predict_weighted(&m, &x0, 0, 0.95, &p); /* no weight: no interval */
    CU_ASSERT_TRUE(isnan(p.pi_low) && isnan(p.pi_high) && isfinite(p.ci_low));
    ols_free(&m);
}

/* The leave-one-configuration-out sum of weighted squared errors against
 * refits without each configuration. */
static void test_loo_against_refits(void)
{
    double x[G], mean[G], within[G], weight[G];
    make(x, mean, within, weight);
    double want = 0;
    for (size_t out = 0; out < G; out++) {
        bool keep[G];
        for (size_t c = 0; c < G; c++)
            keep[c] = c != out;
        wls f = closed_form(x, mean, within, weight, keep);
        double r = mean[out] - f.a - f.b * x[out];
        want += weight[out] * (within[out] + COUNT[out] * r * r);
    }
    ols_model m;
    double sse;
    CU_ASSERT_EQUAL_FATAL(ols_fit_grouped_weighted(x, mean, COUNT, weight, within, G, 1, &m),
                          OLS_OK);
    CU_ASSERT_EQUAL(ols_grouped_loo_sse(&m, &sse), OLS_OK);
    CU_ASSERT_DOUBLE_EQUAL(sse, want, 1e-9 * want);
    ols_free(&m);
    /* The prefix (the intercept alone) and the candidate column x. */
    ols_prefix pre;
    const double *cols[1] = {x};
    double fast;
    CU_ASSERT_EQUAL_FATAL(ols_prefix_init_weighted(&pre, x, mean, COUNT, weight, G, 0), OLS_OK);
    CU_ASSERT_EQUAL(ols_prefix_loo_sse_weighted(&pre, cols, 1, mean, COUNT, weight, within, G,
                                                INFINITY, &fast),
                    OLS_OK);
    CU_ASSERT_DOUBLE_EQUAL(fast, want, 1e-9 * want);
    ols_prefix_free(&pre);
}

/* HC3 of the slope: (X'WX)^-1 [sum over runs w^2 e^2 / (1 - w h)^2 x x']
 * (X'WX)^-1, with 2 x 2 matrices written out. */
static void test_hc3(void)
{
    double x[G], mean[G], within[G], weight[G];
    make(x, mean, within, weight);
    double a = 0, b = 0, d = 0; /* X'WX = [a b; b d] */
    for (size_t c = 0; c < G; c++) {
        double w = weight[c] * COUNT[c];
        a += w, b += w * x[c], d += w * x[c] * x[c];
    }
    double det = a * d - b * b, i00 = d / det, i01 = -b / det, i11 = a / det;
    wls f = closed_form(x, mean, within, weight, NULL);
    double var = 0;
    for (size_t c = 0; c < G; c++) {
        double h = i00 + 2 * i01 * x[c] + i11 * x[c] * x[c]; /* x'(X'WX)^-1 x */
        double slope_row = i01 + i11 * x[c];                  /* [(X'WX)^-1 x]_1 */
        double r = mean[c] - f.a - f.b * x[c];
        double e2 = within[c] + COUNT[c] * r * r; /* sum over the runs of e^2 */
        double keep = 1 - weight[c] * h;
        var += slope_row * slope_row * weight[c] * weight[c] * e2 / (keep * keep);
    }
    ols_model m;
    double se;
    CU_ASSERT_EQUAL_FATAL(ols_fit_grouped_weighted(x, mean, COUNT, weight, within, G, 1, &m),
                          OLS_OK);
    CU_ASSERT_EQUAL(ols_hc3_std_error(&m, x, 1, 1, &se), OLS_OK);
    CU_ASSERT_DOUBLE_EQUAL(se, sqrt(var), 1e-9 * sqrt(var));
    ols_free(&m);
}

/* Whole weights are repeated rows: ols_fit_weighted with weights 1, 2, 3
 * gives ols_fit's coefficients and weighted rss on the rows repeated. */
static void test_integer_weights_are_repeats(void)
{
    double x[5] = {1, 2, 3, 4, 6}, y[5] = {2.1, 3.9, 6.2, 7.8, 12.5}, w[5] = {1, 2, 3, 1, 2};
    double xr[9], yr[9];
    size_t n = 0;
    for (size_t i = 0; i < 5; i++)
        for (size_t r = 0; r < (size_t)w[i]; r++, n++)
            xr[n] = x[i], yr[n] = y[i];
    ols_model mw, mr;
    CU_ASSERT_EQUAL_FATAL(ols_fit_weighted(x, y, w, 5, 1, &mw), OLS_OK);
    CU_ASSERT_EQUAL_FATAL(ols_fit(xr, yr, n, 1, &mr), OLS_OK);
    for (size_t j = 0; j < 2; j++)
        CU_ASSERT_DOUBLE_EQUAL(mw.coef[j], mr.coef[j], 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(mw.rss, mr.rss, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(mw.r2, mr.r2, 1e-12);
    ols_free(&mw);
    ols_free(&mr);
    w[2] = 0;
    CU_ASSERT_EQUAL(ols_fit_weighted(x, y, w, 5, 1, &mw), OLS_ERR_NOT_FINITE);
    ols_free(&mw);
}

/* Weights of 1 give the unweighted fits bit for bit, and the weighted
 * fit after a prefix is the full weighted fit bit for bit. */
static void test_bit_for_bit(void)
{
    double x[G * 2], mean[G], within[G], weight[G], ones[G], col[G];
    make(col, mean, within, weight);
    for (size_t c = 0; c < G; c++) {
        x[c * 2] = col[c];
        x[c * 2 + 1] = log2(P[c]);
        ones[c] = 1;
    }
    ols_model plain, one, full, after;
    CU_ASSERT_EQUAL_FATAL(ols_fit_grouped(x, mean, COUNT, within, G, 2, &plain), OLS_OK);
    CU_ASSERT_EQUAL_FATAL(ols_fit_grouped_weighted(x, mean, COUNT, ones, within, G, 2, &one),
                          OLS_OK);
    CU_ASSERT_EQUAL_FATAL(ols_fit_grouped_weighted(x, mean, COUNT, weight, within, G, 2, &full),
                          OLS_OK);
    ols_prefix pre;
    CU_ASSERT_EQUAL_FATAL(ols_prefix_init_weighted(&pre, col, mean, COUNT, weight, G, 1), OLS_OK);
    CU_ASSERT_TRUE_FATAL(pre.usable);
    CU_ASSERT_EQUAL_FATAL(ols_fit_grouped_after_weighted(&pre, x, mean, COUNT, weight, within, G,
                                                         2, &after),
                          OLS_OK);
    for (size_t j = 0; j < 3; j++) {
        CU_ASSERT_EQUAL(memcmp(&plain.coef[j], &one.coef[j], sizeof(double)), 0);
        CU_ASSERT_EQUAL(memcmp(&full.coef[j], &after.coef[j], sizeof(double)), 0);
    }
    CU_ASSERT_EQUAL(memcmp(&plain.sigma, &one.sigma, sizeof(double)), 0);
    double s1, s2, fast;
    CU_ASSERT_EQUAL(ols_grouped_loo_sse(&full, &s1), OLS_OK);
    CU_ASSERT_EQUAL(ols_grouped_loo_sse(&after, &s2), OLS_OK);
    CU_ASSERT_EQUAL(memcmp(&s1, &s2, sizeof s1), 0);
    const double *cols[1] = {x + 0};
    double second[G];
    for (size_t c = 0; c < G; c++)
        second[c] = x[c * 2 + 1];
    cols[0] = second;
    CU_ASSERT_EQUAL(ols_prefix_loo_sse_weighted(&pre, cols, 1, mean, COUNT, weight, within, G,
                                                INFINITY, &fast),
                    OLS_OK);
    CU_ASSERT_EQUAL(memcmp(&fast, &s1, sizeof s1), 0);
    ols_prefix_free(&pre);
    ols_free(&plain);
    ols_free(&one);
    ols_free(&full);
    ols_free(&after);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"weighted fit and its prediction interval against the closed form", test_closed_form},
        {"weighted leave-one-configuration-out sum against refits", test_loo_against_refits},
        {"weighted HC3 against the sandwich written out", test_hc3},
        {"whole weights are repeated rows", test_integer_weights_are_repeats},
        {"weights of 1 and the prefix: bit for bit", test_bit_for_bit},
        {NULL, NULL},
    };
    const testutil_suite suites[] = {{"ols weighted", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
