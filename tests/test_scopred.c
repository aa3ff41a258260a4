/*
 * test_scopred.c — the ScoPred regression (models/scopred.h, models/ols.h):
 * agreement with R's lm/summary/predict on five synthetic data sets
 * (tests/fixtures/scopred, made by make_ref.R there), a regression worked
 * by hand, and every ill-posed case: duplicate and aliased terms, fewer
 * runs than coefficients, zero residual degrees of freedom, an exact fit,
 * a constant response, bad formulas.
 */
#include "models/ols.h"
#include "models/scopred.h"
#include "tests/scopred_ref.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REL 1e-6

/* |got - want| within rel of max(|want|, floor): floor keeps values that
 * are zero up to noise (a residual, a t near 0) from demanding digits that
 * the data do not determine. */
static bool near_floor(double got, double want, double rel, double floor)
{
    if (isnan(want))
        return isnan(got);
    double scale = fabs(want) > floor ? fabs(want) : floor;
    return fabs(got - want) <= rel * scale;
}

static void check_near(const char *set, const char *what, size_t i, double got, double want,
                       double floor)
{
    bool ok = near_floor(got, want, REL, floor);
    if (!ok)
        fprintf(stderr, "%s %s[%zu]: got %.12g, R %.12g\n", set, what, i, got, want);
    CU_ASSERT_TRUE(ok);
}

/* Term matrix of the fixture: the formula evaluated over data.csv. */
static double *design_of(const ref_set *r, const scopred_formula *f)
{
    size_t n = r->data.nrows;
    size_t *rows = malloc(n * sizeof *rows);
    double *x = malloc((n * f->nterms + 1) * sizeof *x);
    CU_ASSERT_FATAL(rows && x);
    for (size_t i = 0; i < n; i++)
        rows[i] = i;
    expr_error err = {0};
    size_t bad = 0;
    CU_ASSERT_TRUE_FATAL(scopred_design(f, &r->data, rows, n, x, &err, &bad));
    free(rows);
    return x;
}

/* Our term values must be R's: the formula means what the R script says. */
static void check_terms(const char *set, const ref_set *r, const scopred_formula *f,
                        const double *x)
{
    CU_ASSERT_EQUAL_FATAL(r->terms.ncols, f->nterms);
    for (size_t j = 0; j < f->nterms; j++)
        for (size_t i = 0; i < r->data.nrows; i++)
            check_near(set, "term", j, x[i * f->nterms + j], r->terms.cols[j].num[i], 0);
}

static void check_coefficients(const char *set, const ref_set *r, const ols_model *m)
{
    CU_ASSERT_EQUAL(m->n, r->n);
    CU_ASSERT_EQUAL(m->rank, r->rank);
    CU_ASSERT_EQUAL(m->df_resid, r->df_resid);
    CU_ASSERT_EQUAL_FATAL(m->ncoef, r->ncoef);
    for (size_t j = 0; j < m->ncoef; j++) {
        CU_ASSERT_EQUAL(m->aliased[j], isnan(r->coef[j][0]));
        check_near(set, "coef", j, m->coef[j], r->coef[j][0], 0);
        check_near(set, "se", j, m->std_error[j], r->coef[j][1], 0);
        check_near(set, "t", j, m->t[j], r->coef[j][2], 1e-3);
        check_near(set, "p", j, m->p[j], r->coef[j][3], 0);
    }
}

static void check_summary(const char *set, const ref_set *r, const ols_model *m)
{
    if (!r->has_sigma) {
        CU_ASSERT_TRUE(isnan(m->sigma));
        CU_ASSERT_EQUAL(m->sigma_absent, OLS_NO_RESIDUAL_DF);
        return;
    }
    check_near(set, "sigma", 0, m->sigma, r->sigma, 0);
    check_near(set, "r2", 0, m->r2, r->r2, 0);
    check_near(set, "adj_r2", 0, m->adj_r2, r->adj_r2, 0);
    CU_ASSERT_TRUE_FATAL(r->has_f);
    check_near(set, "f", 0, m->f, r->f, 0);
    check_near(set, "f_p", 0, m->f_p, r->f_p, 0);
    CU_ASSERT_EQUAL(m->f_df1, (size_t)r->f_df1);
    CU_ASSERT_EQUAL(m->df_resid, (size_t)r->f_df2);
}

static void check_runs(const char *set, const ref_set *r, const ols_model *m)
{
    if (!r->has_sigma)
        return;
    CU_ASSERT_EQUAL_FATAL(r->nruns, m->n);
    for (size_t i = 0; i < m->n; i++) {
        check_near(set, "residual", i, m->residuals[i], r->run[i][0], m->sigma);
        check_near(set, "hat", i, m->hat[i], r->run[i][1], 0);
    }
}

static void check_predictions(const char *set, const ref_set *r, const scopred_formula *f,
                              const ols_model *m)
{
    CU_ASSERT_EQUAL_FATAL(r->targets.nrows, r->has_sigma ? r->npred : r->targets.nrows);
    double x0[REF_MAX_COEF];
    for (size_t t = 0; t < r->targets.nrows; t++) {
        table_row_ctx rc = {.t = &r->targets, .row = t};
        expr_error err = {0};
        CU_ASSERT_TRUE_FATAL(scopred_formula_eval(f, expr_lookup_table_row, &rc, x0, &err));
        ols_prediction p;
        ols_predict(m, x0, 0.95, &p);
        if (!r->has_sigma) {
            CU_ASSERT_EQUAL(p.interval_absent, OLS_NO_RESIDUAL_DF);
            CU_ASSERT_TRUE(isnan(p.ci_low) && isnan(p.pi_high));
            CU_ASSERT_TRUE(isfinite(p.estimate));
            continue;
        }
        check_near(set, "estimate", t, p.estimate, r->pred[t][0], 0);
        check_near(set, "ci_low", t, p.ci_low, r->pred[t][1], 0);
        check_near(set, "ci_high", t, p.ci_high, r->pred[t][2], 0);
        check_near(set, "pi_low", t, p.pi_low, r->pred[t][3], 0);
        check_near(set, "pi_high", t, p.pi_high, r->pred[t][4], 0);
    }
}

static void check_against_r(const char *set)
{
    scopred_formula f;
    ref_set *r = ref_set_open(set, &f);
    double *x = design_of(r, &f);
    check_terms(set, r, &f, x);
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, fixture_column(&r->data, "y"), r->data.nrows,
                                  f.nterms, &m), OLS_OK);
    check_coefficients(set, r, &m);
    check_summary(set, r, &m);
    check_runs(set, r, &m);
    check_predictions(set, r, &f, &m);
    ols_free(&m);
    free(x);
    ref_set_close(r, &f);
}

static void test_r_linpack(void) { check_against_r("linpack"); }
static void test_r_ft_duplicate(void) { check_against_r("ft_duplicate"); }
static void test_r_fixed_p(void) { check_against_r("fixed_p"); }
static void test_r_ep_hetero(void) { check_against_r("ep_hetero"); }
static void test_r_few_runs(void) { check_against_r("few_runs"); }

/* ------------------------------------------------------------------ */
/* Worked by hand                                                      */

/* x = 1,2,3,4; y = 2,4,5,8: xbar 2.5, ybar 4.75, Sxx 5, Sxy 9.5, so
 * b1 = 1.9, b0 = 0; residuals .1 .2 -.7 .4, RSS 0.7 on 2 df, sigma^2 .35;
 * TSS 18.75, R^2 = 1 - .7/18.75, F = 18.05/.35; se(b1) = sqrt(.35/5),
 * se(b0) = sqrt(.35*(1/4 + 2.5^2/5)). At x0 = 5: 9.5, leverage
 * 1/4 + 2.5^2/5 = 1.5 (largest training leverage 0.7: an extrapolation);
 * t(0.975, 2) = 4.302652729749464 (R: qt(0.975, 2)). */
static void test_hand_simple_regression(void)
{
    const double x[] = {1, 2, 3, 4}, y[] = {2, 4, 5, 8};
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y, 4, 1, &m), OLS_OK);
    CU_ASSERT_DOUBLE_EQUAL(m.coef[1], 1.9, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.coef[0], 0.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.rss, 0.7, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.sigma, sqrt(0.35), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.r2, 1 - 0.7 / 18.75, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.adj_r2, 1 - (0.7 / 18.75) * 3 / 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.f, 18.05 / 0.35, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(m.std_error[1], sqrt(0.35 / 5), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.std_error[0], sqrt(0.35 * (0.25 + 6.25 / 5)), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.hat[0], 0.7, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.max_hat, 0.7, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.residuals[2], -0.7, 1e-12);
    const double x0 = 5;
    ols_prediction p;
    ols_predict(&m, &x0, 0.95, &p);
    double tq = 4.302652729749464;
    CU_ASSERT_DOUBLE_EQUAL(p.estimate, 9.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(p.leverage, 1.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(p.ci_high - p.estimate, tq * sqrt(0.35 * 1.5), 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(p.estimate - p.pi_low, tq * sqrt(0.35 * 2.5), 1e-9);
    CU_ASSERT_TRUE(p.extrapolation);
    const double inside = 2.5;
    ols_predict(&m, &inside, 0.95, &p);
    CU_ASSERT_FALSE(p.extrapolation);
    CU_ASSERT_DOUBLE_EQUAL(p.leverage, 0.25, 1e-12);
    ols_free(&m);
}

/* ------------------------------------------------------------------ */
/* Ill-posed fits                                                      */

static void test_constant_response(void)
{
    const double x[] = {1, 2, 3, 4, 5}, y[] = {3.5, 3.5, 3.5, 3.5, 3.5};
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y, 5, 1, &m), OLS_OK);
    CU_ASSERT_DOUBLE_EQUAL(m.coef[0], 3.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.coef[1], 0.0, 1e-12);
    CU_ASSERT_EQUAL(m.r2_absent, OLS_CONSTANT_RESPONSE);
    CU_ASSERT_EQUAL(m.f_absent, OLS_CONSTANT_RESPONSE);
    CU_ASSERT_EQUAL(m.test_absent, OLS_EXACT_FIT);
    CU_ASSERT_TRUE(isnan(m.r2) && isnan(m.adj_r2) && isnan(m.f) && isnan(m.t[1]));
    CU_ASSERT_EQUAL(m.sigma, 0.0);
    CU_ASSERT_EQUAL(m.std_error[1], 0.0);
    const double x0 = 10;
    ols_prediction p;
    ols_predict(&m, &x0, 0.95, &p);
    CU_ASSERT_DOUBLE_EQUAL(p.estimate, 3.5, 1e-12);
    CU_ASSERT_EQUAL(p.interval_absent, OLS_EXACT_FIT);
    CU_ASSERT_TRUE(isnan(p.ci_low) && isnan(p.pi_high));
    ols_free(&m);
}

static void test_exact_fit(void)
{
    const double x[] = {1, 2, 3, 4, 5}, y[] = {5, 8, 11, 14, 17};
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y, 5, 1, &m), OLS_OK);
    CU_ASSERT_DOUBLE_EQUAL(m.coef[1], 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.r2, 1, 1e-12);
    CU_ASSERT_EQUAL(m.test_absent, OLS_EXACT_FIT);
    CU_ASSERT_EQUAL(m.f_absent, OLS_EXACT_FIT);
    CU_ASSERT_TRUE(isnan(m.p[1]) && isnan(m.f_p));
    CU_ASSERT_EQUAL(m.sigma, 0.0);
    ols_free(&m);
}

static void test_zero_residual_df(void)
{
    const double x[] = {2, 6}, y[] = {1, 3};
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y, 2, 1, &m), OLS_OK);
    CU_ASSERT_EQUAL(m.rank, 2);
    CU_ASSERT_EQUAL(m.df_resid, 0);
    CU_ASSERT_DOUBLE_EQUAL(m.coef[1], 0.5, 1e-12);
    CU_ASSERT_EQUAL(m.sigma_absent, OLS_NO_RESIDUAL_DF);
    CU_ASSERT_TRUE(isnan(m.sigma) && isnan(m.std_error[0]) && isnan(m.adj_r2));
    CU_ASSERT_DOUBLE_EQUAL(m.r2, 1, 1e-12);
    const double x0 = 4;
    ols_prediction p;
    ols_predict(&m, &x0, 0.95, &p);
    CU_ASSERT_DOUBLE_EQUAL(p.estimate, 2, 1e-12);
    CU_ASSERT_EQUAL(p.interval_absent, OLS_NO_RESIDUAL_DF);
    CU_ASSERT_STRING_EQUAL(ols_absence_text(p.interval_absent),
                           "no residual degrees of freedom: as many estimable coefficients as runs");
    ols_free(&m);
}

static void test_single_run_and_no_runs(void)
{
    const double x[] = {2}, y[] = {7};
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y, 1, 1, &m), OLS_OK);
    CU_ASSERT_EQUAL(m.rank, 1);
    CU_ASSERT_TRUE(m.aliased[1]);
    CU_ASSERT_DOUBLE_EQUAL(m.coef[0], 7, 1e-12);
    ols_free(&m);
    CU_ASSERT_EQUAL(ols_fit(x, y, 0, 1, &m), OLS_ERR_NO_RUNS);
    ols_free(&m);
    const double bad[] = {1, NAN}, yy[] = {1, 2};
    CU_ASSERT_EQUAL(ols_fit(bad, yy, 2, 1, &m), OLS_ERR_NOT_FINITE);
    ols_free(&m);
    /* Finite but too large to square: the fit would print NaN. */
    const double xs[] = {1, 2, 4}, huge[] = {1.7e308, 1, 0.5};
    CU_ASSERT_EQUAL(ols_fit(xs, huge, 3, 1, &m), OLS_ERR_TOO_LARGE);
    ols_free(&m);
    const double big_x[] = {1, 2e150, 4}, ys[] = {1, 2, 3};
    CU_ASSERT_EQUAL(ols_fit(big_x, ys, 3, 1, &m), OLS_ERR_TOO_LARGE);
    ols_free(&m);
}

/* A zero column and a column equal to a multiple of the intercept are
 * aliased; the later of two proportional columns is the one left out. */
static void test_aliased_columns(void)
{
    /* terms: a, 0, 2, 3a, b */
    const double a[] = {1, 2, 3, 5, 8, 9}, b[] = {2, 1, 4, 3, 7, 5};
    const double y[] = {3, 4, 8, 9, 17, 16};
    double x[6 * 5];
    for (size_t i = 0; i < 6; i++) {
        x[i * 5 + 0] = a[i];
        x[i * 5 + 1] = 0;
        x[i * 5 + 2] = 2;
        x[i * 5 + 3] = 3 * a[i];
        x[i * 5 + 4] = b[i];
    }
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y, 6, 5, &m), OLS_OK);
    CU_ASSERT_EQUAL(m.rank, 3);
    bool want[] = {false, false, true, true, true, false};
    for (size_t j = 0; j < 6; j++)
        CU_ASSERT_EQUAL(m.aliased[j], want[j]);
    /* The fit equals the one without the aliased columns. */
    double xr[6 * 2];
    for (size_t i = 0; i < 6; i++) {
        xr[i * 2] = a[i];
        xr[i * 2 + 1] = b[i];
    }
    ols_model r;
    CU_ASSERT_EQUAL_FATAL(ols_fit(xr, y, 6, 2, &r), OLS_OK);
    CU_ASSERT_DOUBLE_EQUAL(m.coef[1], r.coef[1], 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.coef[5], r.coef[2], 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.std_error[5], r.std_error[2], 1e-12);
    /* A target that keeps 3a = 3*a is estimable; one that does not is flagged. */
    const double keep[] = {4, 0, 2, 12, 3}, breaks[] = {4, 0, 2, 13, 3};
    ols_prediction p;
    ols_predict(&m, keep, 0.95, &p);
    CU_ASSERT_FALSE(p.not_estimable);
    ols_predict(&m, breaks, 0.95, &p);
    CU_ASSERT_TRUE(p.not_estimable);
    CU_ASSERT_EQUAL(p.first_broken, 4);
    CU_ASSERT_TRUE(p.extrapolation);
    ols_free(&m);
    ols_free(&r);
}

/* ------------------------------------------------------------------ */
/* Formulas and the report                                             */

static void test_formula_terms(void)
{
    scopred_formula f;
    expr_error err = {0};
    CU_ASSERT_TRUE_FATAL(scopred_formula_parse("(N/P)*log(N) + (N/P)*log(N) - 2*N", &f, &err));
    CU_ASSERT_EQUAL_FATAL(f.nterms, 3);
    CU_ASSERT_STRING_EQUAL(f.names[0], "N/P*log(N)");
    CU_ASSERT_STRING_EQUAL(f.names[1], "N/P*log(N)");
    CU_ASSERT_STRING_EQUAL(f.names[2], "-(2*N)");
    CU_ASSERT_EQUAL(f.first_copy[0], 0);
    CU_ASSERT_EQUAL(f.first_copy[1], 0);
    CU_ASSERT_EQUAL(f.first_copy[2], 2);
    scopred_formula_free(&f);
}

/* Variables: N = 1000, P = 4, zero = 0, cluster = "a" (text). */
static bool lookup(void *ctx, const char *name, expr_value *out)
{
    (void)ctx;
    out->kind = VALUE_NUMBER;
    if (strcmp(name, "N") == 0)
        out->number = 1000;
    else if (strcmp(name, "P") == 0)
        out->number = 4;
    else if (strcmp(name, "zero") == 0)
        out->number = 0;
    else if (strcmp(name, "cluster") == 0) {
        out->kind = VALUE_STRING;
        out->string = "a";
    } else
        return false;
    return true;
}

static bool known(void *ctx, const char *name, bool *numeric)
{
    expr_value v;
    if (!lookup(ctx, name, &v))
        return false;
    *numeric = v.kind == VALUE_NUMBER;
    return true;
}

/* A bad formula fails at parse, name check or evaluation, each with the
 * 1-based column of the culprit in the formula text. */
static void expect_formula_error(const char *text, int column, const char *message)
{
    scopred_formula f;
    expr_error err = {0};
    bool ok = scopred_formula_parse(text, &f, &err);
    if (ok)
        ok = scopred_formula_check_names(&f, known, NULL, &err);
    if (ok) {
        double v[8];
        ok = scopred_formula_eval(&f, lookup, NULL, v, &err);
    }
    CU_ASSERT_FALSE(ok);
    bool match = err.column == column && strstr(err.message, message) != NULL;
    if (!match)
        fprintf(stderr, "'%s': got %d: %s; want %d: %s\n", text, err.column, err.message,
                column, message);
    CU_ASSERT_TRUE(match);
    scopred_formula_free(&f);
}

static void test_bad_formulas(void)
{
    expect_formula_error("N^", 3, "");
    expect_formula_error("N + log(", 9, "");
    expect_formula_error("N + X*P", 5, "unknown column 'X'");
    expect_formula_error("N*P + N/zero", 8, "division by zero");
    expect_formula_error("N*log(zero)", 3, "log(0)");
    expect_formula_error("N + cluster", 5, "holds text");
    expect_formula_error("", 1, "");
}

static bool has_text(char **lines, size_t n, const char *a, const char *b)
{
    for (size_t i = 0; i < n; i++)
        if (strstr(lines[i], a) && strstr(lines[i], b))
            return true;
    return false;
}

/* Table 14's situation: P fixed, so N*log(P) and N*P are aliased; the
 * report names the later one, keeps predicting, and flags a target that
 * changes P as not estimable. */
static void test_report_aliased(void)
{
    scopred_formula f;
    ref_set *r = ref_set_open("fixed_p", &f);
    double *x = design_of(r, &f);
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, fixture_column(&r->data, "y"), r->data.nrows, f.nterms, &m),
                          OLS_OK);
    report rep;
    report_init(&rep);
    CU_ASSERT_TRUE_FATAL(scopred_report_fit(&f, &m, NULL, &rep));
    CU_ASSERT_EQUAL_FATAL(rep.ncoefs, 5);
    CU_ASSERT_STRING_EQUAL(rep.coefs[0].term, "(Intercept)");
    CU_ASSERT_STRING_EQUAL(rep.coefs[4].term, "N*P");
    CU_ASSERT_TRUE(rep.coefs[4].aliased);
    CU_ASSERT_TRUE(isnan(rep.coefs[4].coefficient));
    CU_ASSERT_FALSE(rep.coefs[3].aliased);
    CU_ASSERT_TRUE(has_text(rep.warnings, rep.nwarnings, "'N*P'", "singularities"));
    CU_ASSERT_EQUAL(rep.nwarnings, 1);
    const char *names[] = {"r2", "adj_r2", "f", "f_p", "sigma", "n", "df_resid"};
    for (size_t i = 0; i < 7; i++) {
        const report_stat *s = report_find_stat(&rep, names[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT_TRUE(isfinite(s->value));
    }
    CU_ASSERT_DOUBLE_EQUAL(report_find_stat(&rep, "df_resid")->value, 11, 0);
    CU_ASSERT_STRING_EQUAL(rep.formula, r->formula);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.equation, "*(N^3/(3*P*Q))"));
    CU_ASSERT_PTR_NULL(strstr(rep.equation, "N*P"));

    double x0[4];
    table_row_ctx rc = {.t = &r->targets, .row = 2};
    expr_error err = {0};
    CU_ASSERT_TRUE_FATAL(scopred_formula_eval(&f, expr_lookup_table_row, &rc, x0, &err));
    ols_prediction p;
    ols_predict(&m, x0, 0.95, &p);
    CU_ASSERT_TRUE(p.not_estimable);
    char note[512];
    scopred_prediction_note(&f, &p, note, sizeof note);
    CU_ASSERT_PTR_NOT_NULL(strstr(note, "'N*P'"));
    rc.row = 0;
    CU_ASSERT_TRUE_FATAL(scopred_formula_eval(&f, expr_lookup_table_row, &rc, x0, &err));
    ols_predict(&m, x0, 0.95, &p);
    CU_ASSERT_FALSE(p.not_estimable);
    scopred_prediction_note(&f, &p, note, sizeof note);
    CU_ASSERT_STRING_EQUAL(note, "");

    report_free(&rep);
    ols_free(&m);
    free(x);
    ref_set_close(r, &f);
}

/* The paper's FT formula: the repeat is reported once, as a duplicate. */
static void test_report_duplicate(void)
{
    const double n[] = {1, 2, 3, 4, 5}, y[] = {1.1, 1.9, 3.2, 3.9, 5.1};
    scopred_formula f;
    expr_error err = {0};
    CU_ASSERT_TRUE_FATAL(scopred_formula_parse("N + N + N", &f, &err));
    double x[15];
    for (size_t i = 0; i < 5; i++)
        x[i * 3] = x[i * 3 + 1] = x[i * 3 + 2] = n[i];
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y, 5, 3, &m), OLS_OK);
    report rep;
    report_init(&rep);
    CU_ASSERT_TRUE_FATAL(scopred_report_fit(&f, &m, "time_s: ", &rep));
    CU_ASSERT_EQUAL(rep.nwarnings, 1);
    CU_ASSERT_TRUE(has_text(rep.warnings, rep.nwarnings, "'N'", "more than once"));
    CU_ASSERT_STRING_EQUAL(rep.coefs[1].term, "time_s: N");
    CU_ASSERT_FALSE(rep.coefs[1].aliased);
    CU_ASSERT_TRUE(rep.coefs[2].aliased && rep.coefs[3].aliased);
    CU_ASSERT_PTR_NOT_NULL(report_find_stat(&rep, "time_s: r2"));
    report_free(&rep);
    ols_free(&m);
    scopred_formula_free(&f);
}

/* Absent statistics carry their reason, never a NaN without one. */
static void test_report_absent_reasons(void)
{
    const double x[] = {2, 6}, y[] = {1, 3};
    scopred_formula f;
    expr_error err = {0};
    CU_ASSERT_TRUE_FATAL(scopred_formula_parse("N", &f, &err));
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y, 2, 1, &m), OLS_OK);
    report rep;
    report_init(&rep);
    CU_ASSERT_TRUE_FATAL(scopred_report_fit(&f, &m, NULL, &rep));
    for (size_t i = 0; i < rep.nstats; i++)
        if (isnan(rep.stats[i].value)) {
            CU_ASSERT_PTR_NOT_NULL_FATAL(rep.stats[i].text);
            CU_ASSERT_TRUE(strlen(rep.stats[i].text) > 10);
        }
    CU_ASSERT_TRUE(isnan(report_find_stat(&rep, "sigma")->value));
    CU_ASSERT_DOUBLE_EQUAL(report_find_stat(&rep, "r2")->value, 1, 1e-12);
    report_free(&rep);
    ols_free(&m);
    scopred_formula_free(&f);
}

static const testutil_test r_tests[] = {
    {"linpack-like, 5 terms spanning 1e12", test_r_linpack},
    {"FT formula with a duplicate term", test_r_ft_duplicate},
    {"fixed P: aliased N*P (Table 14)", test_r_fixed_p},
    {"EP-like strong scaling", test_r_ep_hetero},
    {"fewer runs than coefficients", test_r_few_runs},
    {NULL, NULL},
};

static const testutil_test ols_tests[] = {
    {"simple regression worked by hand", test_hand_simple_regression},
    {"constant response", test_constant_response},
    {"exact fit", test_exact_fit},
    {"zero residual degrees of freedom", test_zero_residual_df},
    {"one run, no runs, NaN input", test_single_run_and_no_runs},
    {"aliased columns: zero, constant, proportional", test_aliased_columns},
    {NULL, NULL},
};

static const testutil_test formula_tests[] = {
    {"terms, names, repeats", test_formula_terms},
    {"bad formulas give positioned errors", test_bad_formulas},
    {"report names the aliased term", test_report_aliased},
    {"report names a duplicate term once", test_report_duplicate},
    {"absent statistics have reasons", test_report_absent_reasons},
    {NULL, NULL},
};

int main(void)
{
    const testutil_suite suites[] = {
        {"scopred vs R", r_tests},
        {"ols", ols_tests},
        {"scopred formula and report", formula_tests},
        {NULL, NULL},
    };
    return testutil_run_suites(suites);
}
