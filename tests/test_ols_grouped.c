/*
 * test_ols_grouped.c — the fit of runs summarised by configuration
 * (ols_fit_grouped) against the plain fit of the runs themselves: the same
 * coefficients, statistics, HC3 standard errors and leave-one-configuration-
 * out errors (ols_loo_residuals with the configurations as groups, itself
 * checked against refits in test_termsearch.c), and the same aliasing;
 * and ols_fit_without_leverages against ols_fit, ols_fit_grouped_after
 * against ols_fit_grouped.
 */
#include "models/ols.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CONFIGS = 9, K = 2, MAX_RUNS = CONFIGS * 4 };

static double rel(double a, double b)
{
    return fabs(a - b) / fmax(fabs(b), 1e-300);
}

/* Configurations c = 1..9 with 1 to 4 repetitions each; terms c^2 and
 * c*log2(c) (second column * aliased when alias is set). */
static size_t make_runs(double *x, double *y, size_t *group, bool alias)
{
    size_t n = 0;
    for (size_t c = 0; c < CONFIGS; c++) {
        double v = (double)c + 1;
        for (size_t r = 0; r <= (c * 7) % 4; r++, n++) {
            x[n * K] = v * v;
            x[n * K + 1] = alias ? 2 * v * v : v * log2(v);
            group[n] = c;
            /* Noise that differs between repetitions: a fixed pattern. */
            y[n] = 3 + 0.5 * v * v - 0.2 * v * log2(v) + 0.3 * sin(7.0 * (double)n);
        }
    }
    return n;
}

/* The same runs summarised: one row per configuration. */
static size_t summarise(const double *x, const double *y, const size_t *group, size_t n,
                        double *gx, double *mean, double *count, double *within)
{
    size_t g = 0;
    for (size_t i = 0; i < n; i++) {
        size_t c = group[i];
        if (c >= g) {
            g = c + 1;
            gx[c * K] = x[i * K];
            gx[c * K + 1] = x[i * K + 1];
            mean[c] = count[c] = within[c] = 0;
        }
        mean[c] += y[i];
        count[c]++;
    }
    for (size_t c = 0; c < g; c++)
        mean[c] /= count[c];
    for (size_t i = 0; i < n; i++)
        within[group[i]] += (y[i] - mean[group[i]]) * (y[i] - mean[group[i]]);
    return g;
}

static void test_grouped_equals_runs(void)
{
    double x[MAX_RUNS * K], y[MAX_RUNS], loo[MAX_RUNS];
    double gx[CONFIGS * K], mean[CONFIGS], count[CONFIGS], within[CONFIGS];
    size_t group[MAX_RUNS];
    size_t n = make_runs(x, y, group, false);
    size_t g = summarise(x, y, group, n, gx, mean, count, within);
    CU_ASSERT_EQUAL_FATAL(g, CONFIGS);
    CU_ASSERT_TRUE_FATAL(n > g + 5);
    ols_model runs, grouped;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y, n, K, &runs), OLS_OK);
    CU_ASSERT_EQUAL_FATAL(ols_fit_grouped(gx, mean, count, within, g, K, &grouped), OLS_OK);
    CU_ASSERT_EQUAL(grouped.n, n);
    CU_ASSERT_EQUAL(grouped.ngroups, g);
    CU_ASSERT_EQUAL(grouped.rank, runs.rank);
    CU_ASSERT_EQUAL(grouped.df_resid, runs.df_resid);
    for (size_t j = 0; j <= K; j++) {
        CU_ASSERT_TRUE(rel(grouped.coef[j], runs.coef[j]) < 1e-10);
        CU_ASSERT_TRUE(rel(grouped.std_error[j], runs.std_error[j]) < 1e-10);
        CU_ASSERT_TRUE(rel(grouped.p[j], runs.p[j]) < 1e-8);
        double se_runs, se_grouped;
        CU_ASSERT_EQUAL(ols_hc3_std_error(&runs, x, K, j, &se_runs), OLS_OK);
        CU_ASSERT_EQUAL(ols_hc3_std_error(&grouped, gx, K, j, &se_grouped), OLS_OK);
        CU_ASSERT_TRUE(rel(se_grouped, se_runs) < 1e-10);
    }
    CU_ASSERT_TRUE(rel(grouped.rss, runs.rss) < 1e-10);
    CU_ASSERT_TRUE(rel(grouped.mss, runs.mss) < 1e-10);
    CU_ASSERT_TRUE(rel(grouped.sigma, runs.sigma) < 1e-10);
    CU_ASSERT_TRUE(rel(grouped.r2, runs.r2) < 1e-10);
    CU_ASSERT_TRUE(rel(grouped.f, runs.f) < 1e-10);
    CU_ASSERT_TRUE(rel(grouped.max_hat, runs.max_hat) < 1e-10);
    /* Leave-one-configuration-out: the grouped sum equals the runs'. */
    CU_ASSERT_EQUAL_FATAL(ols_loo_residuals(&runs, x, K, group, loo), OLS_OK);
    double want = 0, got = 0, plain = 0;
    for (size_t i = 0; i < n; i++)
        want += loo[i] * loo[i];
    CU_ASSERT_EQUAL(ols_grouped_loo_sse(&grouped, &got), OLS_OK);
    CU_ASSERT_TRUE(rel(got, want) < 1e-9);
    /* On a plain fit it is the leave-one-run-out sum. */
    CU_ASSERT_EQUAL_FATAL(ols_loo_residuals(&runs, x, K, NULL, loo), OLS_OK);
    want = 0;
    for (size_t i = 0; i < n; i++)
        want += loo[i] * loo[i];
    CU_ASSERT_EQUAL(ols_grouped_loo_sse(&runs, &plain), OLS_OK);
    CU_ASSERT_TRUE(rel(plain, want) < 1e-12);
    /* Predictions agree too. */
    ols_prediction a, b;
    const double x0[K] = {144, 12 * log2(12)};
    ols_predict(&runs, x0, 0.95, &a);
    ols_predict(&grouped, x0, 0.95, &b);
    CU_ASSERT_TRUE(rel(b.estimate, a.estimate) < 1e-10);
    CU_ASSERT_TRUE(rel(b.pi_high, a.pi_high) < 1e-10);
    ols_free(&runs);
    ols_free(&grouped);
}

/* ols_fit_without_leverages: every number of ols_fit, bit for bit (the
 * same arithmetic), and no leverages. */
static void test_without_leverages(void)
{
    double x[MAX_RUNS * K], y[MAX_RUNS];
    size_t group[MAX_RUNS];
    size_t n = make_runs(x, y, group, false);
    ols_model full, lean;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y, n, K, &full), OLS_OK);
    CU_ASSERT_EQUAL_FATAL(ols_fit_without_leverages(x, y, n, K, &lean), OLS_OK);
    CU_ASSERT_PTR_NULL(lean.hat);
    CU_ASSERT_EQUAL(lean.max_hat, 0);
    CU_ASSERT_TRUE(full.max_hat > 0);
    CU_ASSERT_EQUAL(lean.rank, full.rank);
    for (size_t j = 0; j <= K; j++) {
        CU_ASSERT_EQUAL(lean.coef[j], full.coef[j]);
        CU_ASSERT_EQUAL(lean.std_error[j], full.std_error[j]);
        CU_ASSERT_EQUAL(lean.p[j], full.p[j]);
    }
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(lean.fitted[i], full.fitted[i]);
        CU_ASSERT_EQUAL(lean.residuals[i], full.residuals[i]);
    }
    CU_ASSERT_EQUAL(lean.rss, full.rss);
    CU_ASSERT_EQUAL(lean.r2, full.r2);
    CU_ASSERT_EQUAL(lean.f_p, full.f_p);
    ols_free(&full);
    ols_free(&lean);
}

/* Bit for bit, every number two models hold (same shape). */
static size_t model_differences(const ols_model *a, const ols_model *b)
{
    size_t bad = a->rank != b->rank || a->ncoef != b->ncoef || a->ngroups != b->ngroups ||
                 a->n != b->n || a->test_absent != b->test_absent;
    if (bad)
        return bad;
    const double *pa[] = {a->coef, a->std_error, a->t, a->p, a->scale};
    const double *pb[] = {b->coef, b->std_error, b->t, b->p, b->scale};
    for (size_t v = 0; v < 5; v++)
        bad += memcmp(pa[v], pb[v], a->ncoef * sizeof *pa[v]) != 0;
    const double *ga[] = {a->fitted, a->residuals, a->hat};
    const double *gb[] = {b->fitted, b->residuals, b->hat};
    for (size_t v = 0; v < 3; v++)
        bad += memcmp(ga[v], gb[v], a->ngroups * sizeof *ga[v]) != 0;
    bad += memcmp(a->order, b->order, a->ncoef * sizeof *a->order) != 0;
    bad += memcmp(a->rinv, b->rinv, a->rank * a->rank * sizeof *a->rinv) != 0;
    bad += memcmp(a->alias, b->alias, a->rank * (a->ncoef - a->rank) * sizeof *a->alias) != 0;
    const double sa[] = {a->rss, a->mss, a->sigma, a->r2, a->f, a->f_p, a->max_hat};
    const double sb[] = {b->rss, b->mss, b->sigma, b->r2, b->f, b->f_p, b->max_hat};
    return bad + (memcmp(sa, sb, sizeof sa) != 0);
}

/* ols_fit_grouped_after: the fit of a prefix plus one column is
 * ols_fit_grouped's, bit for bit: with 0, 1 and 2 prefix columns, a last
 * column aliased with them (set aside), a prefix the QR would reorder and
 * too few rows (both fall back), every candidate of a small search. */
static void test_after_prefix(void)
{
    enum { G = 40, KMAX = 3 };
    double x[G * KMAX], prefix[G * KMAX], mean[G], count[G], within[G];
    const char *shapes[] = {"c", "ac", "abc", "aba", "zbc", "abc"};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t k = strlen(shapes[s]), g = s == 5 ? 3 : G;
        for (size_t i = 0; i < g; i++) {
            double v = (double)i + 1;
            for (size_t j = 0; j < k; j++) {
                char c = shapes[s][j];
                /* a = v^2, b = log2(v), c = 1/v; z = 0 (a column the QR sets aside) */
                x[i * k + j] = c == 'a' ? v * v : c == 'b' ? log2(v) : c == 'c' ? 1 / v : 0;
                if (j + 1 < k)
                    prefix[i * (k - 1) + j] = x[i * k + j];
            }
            mean[i] = 2 + 0.3 * v + sin(3.0 * v);
            count[i] = 1 + (double)(i % 3);
            within[i] = 0.01 * (double)(i % 5);
        }
        ols_prefix pre;
        ols_model plain, after;
        CU_ASSERT_EQUAL_FATAL(ols_prefix_init(&pre, prefix, mean, count, g, k - 1), OLS_OK);
        CU_ASSERT_EQUAL(pre.usable, s <= 3); /* "aba": the prefix itself is fine */
        CU_ASSERT_EQUAL_FATAL(ols_fit_grouped(x, mean, count, within, g, k, &plain), OLS_OK);
        CU_ASSERT_EQUAL_FATAL(ols_fit_grouped_after(&pre, x, mean, count, within, g, k, &after),
                              OLS_OK);
        CU_ASSERT_EQUAL(model_differences(&plain, &after), 0);
        if (s == 3)
            CU_ASSERT_EQUAL(after.rank, k); /* the repeated a set aside */
        ols_free(&plain);
        ols_free(&after);
        ols_prefix_free(&pre);
    }
}

/* The leave-one-group-out sum of the full fit of [prefix col], or
 * INFINITY when that fit is not of full rank (as the term search scores). */
static double full_loo_sse(const double *prefix, size_t k, const double *col, const double *mean,
                           const double *count, const double *within, size_t g)
{
    double x[40 * 4], sse = INFINITY;
    for (size_t i = 0; i < g; i++) {
        memcpy(x + i * (k + 1), prefix + i * k, k * sizeof *x);
        x[i * (k + 1) + k] = col[i];
    }
    ols_model m;
    if (ols_fit_grouped(x, mean, count, within, g, k + 1, &m) == OLS_OK && m.rank == k + 2)
        CU_ASSERT_EQUAL(ols_grouped_loo_sse(&m, &sse), OLS_OK);
    ols_free(&m);
    return sse;
}

/* ols_prefix_loo_sse: each column's sum is the full fit's, bit for bit,
 * with 0, 1 and 2 prefix columns and seven columns at once (a full batch
 * of four and a partial one): a plain one, one aliased with the prefix
 * (INFINITY), a non-finite one (INFINITY), a constant one (aliased with
 * the intercept), one fitting the means exactly (only the spreads left), one
 * too large to fit and a steep one. With a limit, a sum at or above it may
 * stop early but stays at or above it; sums below it are exact. */
static void test_prefix_loo_sse(void)
{
    enum { G = 40, NCOLS = 7 };
    double prefix[G * 2], mean[G], count[G], within[G], cols[NCOLS][G];
    for (size_t k = 0; k <= 2; k++) {
        for (size_t i = 0; i < G; i++) {
            double v = (double)i + 1;
            prefix[i * k + 0] = v * v;
            if (k == 2)
                prefix[i * k + 1] = log2(v);
            mean[i] = 2 + 0.3 * v + sin(3.0 * v);
            count[i] = 1 + (double)(i % 3);
            within[i] = 0.01 * (double)(i % 5);
            cols[0][i] = 1 / v;
            cols[1][i] = k > 0 ? 3 * v * v : 5;
            cols[2][i] = i == 7 ? NAN : v;
            cols[3][i] = 4;
            cols[4][i] = mean[i];
            cols[5][i] = i == 3 ? 1e200 : v;
            cols[6][i] = pow(v, 3) * log2(v);
        }
        ols_prefix pre;
        CU_ASSERT_EQUAL_FATAL(ols_prefix_init(&pre, prefix, mean, count, G, k), OLS_OK);
        CU_ASSERT_TRUE_FATAL(pre.usable);
        const double *list[NCOLS];
        double sse[NCOLS], bounded[NCOLS];
        for (size_t j = 0; j < NCOLS; j++)
            list[j] = cols[j];
        CU_ASSERT_EQUAL_FATAL(ols_prefix_loo_sse(&pre, list, NCOLS, mean, count, within, G,
                                                 INFINITY, sse), OLS_OK);
        double finite = 0;
        for (size_t j = 0; j < NCOLS; j++) {
            double want = full_loo_sse(prefix, k, cols[j], mean, count, within, G);
            CU_ASSERT_EQUAL(memcmp(&want, &sse[j], sizeof want), 0);
            if (isfinite(sse[j]) && sse[j] > finite)
                finite = sse[j];
        }
        CU_ASSERT_TRUE(isinf(sse[1]) && isinf(sse[2]) && isinf(sse[3]) && isinf(sse[5]));
        CU_ASSERT_TRUE(isfinite(sse[0]) && isfinite(sse[4]) && isfinite(sse[6]));
        double limit = finite / 2;
        CU_ASSERT_EQUAL_FATAL(ols_prefix_loo_sse(&pre, list, NCOLS, mean, count, within, G, limit,
                                                 bounded), OLS_OK);
        for (size_t j = 0; j < NCOLS; j++) {
            if (sse[j] < limit) {
                CU_ASSERT_EQUAL(memcmp(&sse[j], &bounded[j], sizeof limit), 0);
            } else {
                CU_ASSERT_TRUE(bounded[j] >= limit);
            }
        }
        ols_prefix_free(&pre);
    }
}

/* Four poor columns and a limit below every one's residual sum of squares
 * (ols_fit_grouped's rss, with the spreads): none is fitted, each gets a
 * bound at or above the limit and below its LOO sum, and every bound is
 * at most the RSS (a lower bound of the LOO sum, less the margin). */
static void test_prefix_screen(void)
{
    enum { G = 40, NCOLS = 4 };
    double prefix[G], mean[G], count[G], within[G], cols[NCOLS][G], x[G * 2];
    for (size_t i = 0; i < G; i++) {
        double v = (double)i + 1;
        prefix[i] = v;
        mean[i] = 2 + 0.3 * v + sin(3.0 * v);
        count[i] = 1 + (double)(i % 3);
        within[i] = 0.01 * (double)(i % 5);
        for (size_t j = 0; j < NCOLS; j++)
            cols[j][i] = cos((double)(j + 2) * v) + 0.1 * v;
    }
    ols_prefix pre;
    CU_ASSERT_EQUAL_FATAL(ols_prefix_init(&pre, prefix, mean, count, G, 1), OLS_OK);
    double rss[NCOLS], loo[NCOLS], bound[NCOLS], limit = INFINITY;
    const double *list[NCOLS];
    for (size_t j = 0; j < NCOLS; j++) {
        list[j] = cols[j];
        for (size_t i = 0; i < G; i++)
            x[i * 2] = prefix[i], x[i * 2 + 1] = cols[j][i];
        ols_model m;
        CU_ASSERT_EQUAL_FATAL(ols_fit_grouped(x, mean, count, within, G, 2, &m), OLS_OK);
        CU_ASSERT_EQUAL_FATAL(ols_grouped_loo_sse(&m, &loo[j]), OLS_OK);
        rss[j] = m.rss;
        limit = fmin(limit, 0.9 * m.rss);
        ols_free(&m);
    }
    CU_ASSERT_EQUAL_FATAL(ols_prefix_loo_sse(&pre, list, NCOLS, mean, count, within, G, limit,
                                             bound), OLS_OK);
    for (size_t j = 0; j < NCOLS; j++) {
        CU_ASSERT_TRUE(bound[j] >= limit);
        CU_ASSERT_TRUE(bound[j] < loo[j]);
        CU_ASSERT_TRUE(bound[j] <= rss[j]);
        CU_ASSERT_TRUE(bound[j] >= rss[j] * (1 - 1e-5));
    }
    ols_prefix_free(&pre);
}

/* An aliased term is left out the same way; a configuration that cannot be
 * left out makes the error infinite; bad counts are refused. */
static void test_grouped_edges(void)
{
    double x[MAX_RUNS * K], y[MAX_RUNS];
    double gx[CONFIGS * K], mean[CONFIGS], count[CONFIGS], within[CONFIGS];
    size_t group[MAX_RUNS];
    size_t n = make_runs(x, y, group, true);
    size_t g = summarise(x, y, group, n, gx, mean, count, within);
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit_grouped(gx, mean, count, within, g, K, &m), OLS_OK);
    CU_ASSERT_EQUAL(m.rank, 2);
    CU_ASSERT_TRUE(m.aliased[2]);
    ols_free(&m);

    /* Two configurations, two coefficients: neither can be left out. */
    const double tx[] = {1, 2}, tm[] = {1, 3}, tc[] = {3, 2}, tw[] = {0.5, 0.1};
    double sse = 0;
    CU_ASSERT_EQUAL_FATAL(ols_fit_grouped(tx, tm, tc, tw, 2, 1, &m), OLS_OK);
    CU_ASSERT_EQUAL(m.df_resid, 3);
    CU_ASSERT_DOUBLE_EQUAL(m.rss, 0.6, 1e-12);
    CU_ASSERT_EQUAL(ols_grouped_loo_sse(&m, &sse), OLS_OK);
    CU_ASSERT_TRUE(isinf(sse));
    ols_free(&m);

    const double bad[] = {1.5, 2};
    CU_ASSERT_EQUAL(ols_fit_grouped(tx, tm, bad, tw, 2, 1, &m), OLS_ERR_NOT_FINITE);
    ols_free(&m);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"grouped fit equals the fit of the runs", test_grouped_equals_runs},
        {"a fit without leverages: the same numbers", test_without_leverages},
        {"a fit after a factored prefix: the same numbers", test_after_prefix},
        {"LOO sums after a factored prefix, bit for bit", test_prefix_loo_sse},
        {"columns screened out by their residual sums of squares", test_prefix_screen},
        {"aliasing, configurations that cannot be left out, bad counts", test_grouped_edges},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"ols_grouped", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
