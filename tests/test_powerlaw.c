/*
 * test_powerlaw.c — the free-exponent power law (models/powerlaw.h) and
 * its place among the term search's candidates (models/termsearch.h, FREE
 * POWER LAW). The exponent and the leave-one-configuration-out error are
 * recomputed here by refits written out in closed form (a simple
 * regression of ln y on ln p, then y ~ c + a p^k weighted by 1/y^2), not
 * by the module's code through models/ols.h:
 *
 * - an exact law 100 p^-0.6: the exponent -0.6, c 0, a 100, the text;
 * - a law with a floor and a scatter of +-3%: exponent and LOO error equal
 *   to the written-out refits;
 * - two parameters 5 p^-0.7 s^1.5: both exponents;
 * - the term search on 50 p^-0.6 (three runs a configuration, +-2%)
 *   chooses the power law, which no quarter step reaches; perfcast
 *   predicts np = 512 with it as the law says;
 * - with forward folds on 5 configurations it wins by how it predicts the
 *   next larger one;
 * - not a candidate: an exponents option, the absolute scale, a response
 *   not positive, an exponent beyond 3.
 */
#include "models/powerlaw.h"
#include "models/termsearch.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_RUNS = 64 };

/* The whole law by hand on one run per configuration (i with keep[i]):
 * k = slope of ln y on ln p rounded to 0.01, then c, a weighted 1/y^2. */
static void law_by_hand(const double *p, const double *y, const bool *keep, size_t n, double *k,
                        double *c, double *a)
{
    double lp[MAX_RUNS] = {0}, ly[MAX_RUNS] = {0}, t[MAX_RUNS] = {0}, w[MAX_RUNS] = {0}, lna;
    for (size_t i = 0; i < n; i++) {
        lp[i] = log(p[i]);
        ly[i] = log(y[i]);
        w[i] = 1 / (y[i] * y[i]);
    }
    testutil_line_fit(lp, ly, NULL, keep, n, false, &lna, k);
    *k = round(*k * 100) / 100;
    for (size_t i = 0; i < n; i++)
        t[i] = pow(p[i], *k);
    testutil_line_fit(t, y, w, keep, n, false, c, a);
}

static bool build(const double *p, size_t n, size_t m, const double *y, termdata *d)
{
    return termdata_build(p, n, m, y, d) && termdata_weigh_relative(d);
}

static void test_exact_law(void)
{
    double p[7], y[7];
    for (size_t i = 0; i < 7; i++) {
        p[i] = (double)(2u << i);
        y[i] = 100 * pow(p[i], -0.6);
    }
    termdata d;
    CU_ASSERT_TRUE_FATAL(build(p, 7, 1, y, &d));
    powerlaw pl;
    bool nomem = false;
    CU_ASSERT_TRUE_FATAL(powerlaw_fit(&d, NULL, &pl, &nomem));
    CU_ASSERT_EQUAL(pl.nparams, 1);
    CU_ASSERT_EQUAL(pl.exponent[0], -0.6); /* the double "-0.6" reads back as */
    CU_ASSERT_DOUBLE_EQUAL(pl.intercept, 0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(pl.scale, 100, 1e-9);
    double at = 1024;
    CU_ASSERT_DOUBLE_EQUAL(powerlaw_value(&pl, &at), 100 * pow(1024, -0.6), 1e-9);
    const char *names[] = {"np"};
    char text[64] = "";
    powerlaw_append(text, sizeof text, names, &pl);
    CU_ASSERT_STRING_EQUAL(text, "np^(-0.6)");
    CU_ASSERT_FALSE(nomem);
    termdata_free(&d);
}

/* y = 3 + 40 p^-0.8, each off by +3%, -3% in turn. */
static size_t floor_data(double *p, double *y)
{
    size_t n = 8;
    for (size_t i = 0; i < n; i++) {
        p[i] = (double)(1u << i);
        y[i] = (3 + 40 * pow(p[i], -0.8)) * (i % 2 ? 0.97 : 1.03);
    }
    return n;
}

static void test_by_hand(void)
{
    double p[MAX_RUNS], y[MAX_RUNS];
    size_t n = floor_data(p, y);
    termdata d;
    CU_ASSERT_TRUE_FATAL(build(p, n, 1, y, &d));
    powerlaw pl;
    bool nomem = false;
    CU_ASSERT_TRUE_FATAL(powerlaw_fit(&d, NULL, &pl, &nomem));
    double k, c, a;
    law_by_hand(p, y, NULL, n, &k, &c, &a);
    CU_ASSERT_EQUAL(pl.exponent[0], k);
    CU_ASSERT_DOUBLE_EQUAL(pl.intercept, c, 1e-9 * fabs(c));
    CU_ASSERT_DOUBLE_EQUAL(pl.scale, a, 1e-9 * fabs(a));
    /* LOO: each configuration left out, the exponent refitted too. */
    bool keep[MAX_RUNS];
    double sse = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++)
            keep[j] = j != i;
        law_by_hand(p, y, keep, n, &k, &c, &a);
        double r = (y[i] - c - a * pow(p[i], k)) / y[i];
        sse += r * r;
    }
    double loo = powerlaw_loo_error(&d, &nomem);
    CU_ASSERT_DOUBLE_EQUAL(loo, sse / (double)n, 1e-9 * sse / (double)n);
    CU_ASSERT_FALSE(nomem);
    termdata_free(&d);
}

static void test_two_parameters(void)
{
    double x[2 * 20], y[20];
    size_t n = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++, n++) {
            x[2 * n] = (double)(1 << (i + 1));
            x[2 * n + 1] = 10.0 * (j + 1);
            y[n] = 5 * pow(x[2 * n], -0.7) * pow(x[2 * n + 1], 1.5);
        }
    termdata d;
    CU_ASSERT_TRUE_FATAL(build(x, n, 2, y, &d));
    powerlaw pl;
    bool nomem = false;
    CU_ASSERT_TRUE_FATAL(powerlaw_fit(&d, NULL, &pl, &nomem));
    CU_ASSERT_EQUAL(pl.nparams, 2);
    CU_ASSERT_EQUAL(pl.exponent[0], -0.7);
    CU_ASSERT_EQUAL(pl.exponent[1], 1.5);
    const char *names[] = {"np", "s"};
    char text[64] = "";
    powerlaw_append(text, sizeof text, names, &pl);
    CU_ASSERT_STRING_EQUAL(text, "np^(-0.7)*s^1.5");
    termdata_free(&d);
}

/* 50 p^-0.6 at p = 1 .. 64, three runs each off by +2%, 0, -2%. */
static size_t falling_data(double *p, double *y)
{
    size_t n = 0;
    for (size_t i = 0; i < 7; i++)
        for (int r = -1; r <= 1; r++, n++) {
            p[n] = (double)(1u << i);
            y[n] = 50 * pow(p[n], -0.6) * (1 + 0.02 * r);
        }
    return n;
}

static void test_search_chooses_it(void)
{
    double p[MAX_RUNS], y[MAX_RUNS];
    size_t n = falling_data(p, y);
    const char *names[] = {"np"};
    termsearch_result r;
    CU_ASSERT_TRUE_FATAL(termsearch_run(names, p, n, 1, y, NULL, &r));
    CU_ASSERT_STRING_EQUAL(r.formula, "np^(-0.6)");
    CU_ASSERT_EQUAL(r.nterms, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.why, "free power law"));
    /* Within the runs' 2% scatter a quarter-step law of two terms comes
     * close; the average keeps it, the power law first and heavier, with
     * its criterion the refitted LOO error. */
    CU_ASSERT_TRUE_FATAL(r.nlaws >= 1);
    CU_ASSERT_STRING_EQUAL(r.laws[0].formula, "np^(-0.6)");
    CU_ASSERT_TRUE(r.laws[0].weight > 0.5);
    termdata d;
    bool nomem = false;
    CU_ASSERT_TRUE_FATAL(build(p, n, 1, y, &d));
    if (r.nlaws > 1)
        CU_ASSERT_EQUAL(r.laws[0].criterion, powerlaw_loo_error(&d, &nomem));
    CU_ASSERT_DOUBLE_EQUAL(r.loo_rmse, sqrt(powerlaw_loo_error(&d, &nomem)), 1e-15);
    termdata_free(&d);
    termsearch_free(&r);
}

/* End to end: perfcast fits the chosen formula np^(-0.6) with the relative
 * weights and predicts np = 512 as 50 * 512^-0.6 (the runs' means follow
 * the law exactly, two runs each 0.1% apart), and `fit` names the law. */
static void test_perfcast_predicts_it(void)
{
    char dir[256], runs[2048] = "cluster,np,rep,time_s\n", *out = NULL;
    for (int i = 0; i < 7; i++)
        for (int r = 0; r < 2; r++) {
            double np = (double)(1 << i), t = 50 * pow(np, -0.6) * (r ? 0.999 : 1.001);
            size_t used = strlen(runs);
            snprintf(runs + used, sizeof runs - used, "c,%g,%d,%.17g\n", np, r + 1, t);
        }
    strcat(runs, "c,512,1,\n");
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(
        dir, "cluster\nc\n", "x",
        "name,model,response,formula,train,target\npl,scopred,time_s,,np <= 64,np == 512\n",
        runs));
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "predict --archive %s --format json x pl",
                                                dir), 0);
    double want = 50 * pow(512, -0.6);
    CU_ASSERT_DOUBLE_EQUAL(testutil_number_after(out, "\"estimate\": "), want, 1e-6 * want);
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "fit --archive %s x pl", dir), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "formula: np^(-0.6)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "free power law"));
    free(out);
    testutil_remove_dir(dir);
}

/* With forward folds (selection=forward) on 5 configurations, the
 * restricted family's criterion, the law competes by how it predicts the
 * next larger configuration, refitted on the smaller ones, and wins on
 * 50 p^-0.6 (two runs each, +-1%). */
static void test_forward_folds(void)
{
    double p[10], y[10];
    for (size_t i = 0; i < 10; i++) {
        p[i] = (double)(1u << (i / 2));
        y[i] = 50 * pow(p[i], -0.6) * (i % 2 ? 0.99 : 1.01);
    }
    const char *names[] = {"np"};
    termsearch_options opt = {.selection = TERMSEARCH_SELECT_FORWARD};
    termsearch_result r;
    CU_ASSERT_TRUE_FATAL(termsearch_run(names, p, 10, 1, y, &opt, &r));
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_RESTRICTED);
    CU_ASSERT_STRING_EQUAL(r.formula, "np^(-0.6)");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.why, "next larger"));
    termsearch_free(&r);
}

/* Where the user narrows the exponents, on the absolute scale, or for a
 * response that is not a time, the law is no candidate: no formula
 * carries an exponent off the quarter steps. */
static void test_not_a_candidate(void)
{
    double p[MAX_RUNS], y[MAX_RUNS];
    size_t n = falling_data(p, y);
    const char *names[] = {"np"};
    termsearch_options opts[2] = {{.scale = TERMSEARCH_ABSOLUTE}};
    char err[64];
    CU_ASSERT_TRUE_FATAL(termsearch_parse_exponents("-1,-0.5", &opts[1], err, sizeof err));
    for (size_t o = 0; o < 2; o++) {
        termsearch_result r;
        CU_ASSERT_TRUE_FATAL(termsearch_run(names, p, n, 1, y, &opts[o], &r));
        CU_ASSERT_PTR_NULL(strstr(r.formula, "0.6"));
        for (size_t l = 0; l < r.nlaws; l++)
            CU_ASSERT_PTR_NULL(strstr(r.laws[l].formula, "0.6"));
        termsearch_free(&r);
    }
    termdata d;
    for (size_t i = 0; i < n; i++)
        y[i] -= 10; /* some means below zero: no logarithm */
    CU_ASSERT_TRUE_FATAL(termdata_build(p, n, 1, y, &d));
    powerlaw pl;
    bool nomem = false;
    CU_ASSERT_FALSE(powerlaw_fit(&d, NULL, &pl, &nomem));
    CU_ASSERT_TRUE(isinf(powerlaw_loo_error(&d, &nomem)));
    termdata_free(&d);
    for (size_t i = 0; i < n; i++)
        y[i] = pow(p[i], -3.5); /* beyond the alphabet's range */
    CU_ASSERT_TRUE_FATAL(build(p, n, 1, y, &d));
    CU_ASSERT_FALSE(powerlaw_fit(&d, NULL, &pl, &nomem));
    CU_ASSERT_FALSE(nomem);
    termdata_free(&d);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"an exact law 100 p^-0.6", test_exact_law},
        {"exponent, coefficients and LOO error by hand", test_by_hand},
        {"two parameters 5 p^-0.7 s^1.5", test_two_parameters},
        {"the term search chooses it on 50 p^-0.6", test_search_chooses_it},
        {"perfcast predicts with it", test_perfcast_predicts_it},
        {"forward folds", test_forward_folds},
        {"not a candidate", test_not_a_candidate},
        {NULL, NULL},
    };
    const testutil_suite suites[] = {{"powerlaw", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
