/*
 * test_termsearch.c — the automatic term search: its leave-one-out errors
 * from the hat matrix equal real refits without each run, and it recovers
 * the generating terms of synthetic data (strong scaling 1/P, a log-squared
 * term, EP's N/P, Linpack's N^3/(P*Q)) in most of ten noise draws, every
 * formula it picks predicts well outside the data, and it says why when it
 * cannot search.
 */
#include "models/ols.h"
#include "models/scopred.h"
#include "models/termsearch.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deterministic uniform noise in [-1, 1] (splitmix64), so the data are
 * fixed for a seed. */
static double noise(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) / (double)(1ULL << 53) * 2 - 1;
}

/* Squared leave-out error of each run, refitting without its group
 * (group NULL: without the run alone). */
static double refit_error(const double *x, const double *y, size_t n, size_t k,
                          const size_t *group, size_t i)
{
    double *xs = malloc(n * k * sizeof *xs), *ys = malloc(n * sizeof *ys);
    CU_ASSERT_FATAL(xs && ys);
    size_t r = 0;
    for (size_t j = 0; j < n; j++) {
        if (j == i || (group && group[j] == group[i]))
            continue;
        memcpy(xs + r * k, x + j * k, k * sizeof *xs);
        ys[r++] = y[j];
    }
    ols_model mo;
    CU_ASSERT_EQUAL_FATAL(ols_fit(xs, ys, r, k, &mo), OLS_OK);
    ols_prediction p;
    ols_predict(&mo, x + i * k, 0.95, &p);
    ols_free(&mo);
    free(xs);
    free(ys);
    return y[i] - p.estimate;
}

/* Leave-out residuals from the hat matrix versus real refits, one run at a
 * time and one configuration (three repetitions) at a time. */
static void test_loo_equals_refits(void)
{
    enum { N = 12, K = 2 };
    double x[N * K], y[N], loo[N];
    size_t group[N];
    unsigned long long st = 1;
    for (size_t i = 0; i < N; i++) {
        double c = (double)(i / 3) + 1; /* four configurations, three runs each */
        x[i * K] = c * c;
        x[i * K + 1] = log2(c) * c;
        group[i] = i / 3;
        y[i] = 3 + 0.5 * x[i * K] - 0.1 * x[i * K + 1] + noise(&st);
    }
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, y, N, K, &m), OLS_OK);
    CU_ASSERT_EQUAL_FATAL(ols_loo_residuals(&m, x, K, NULL, loo), OLS_OK);
    for (size_t i = 0; i < N; i++) {
        CU_ASSERT_DOUBLE_EQUAL(loo[i], m.residuals[i] / (1 - m.hat[i]), 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(loo[i], refit_error(x, y, N, K, NULL, i), 1e-9);
    }
    /* Four configurations and three coefficients: each can be left out. */
    CU_ASSERT_EQUAL_FATAL(ols_loo_residuals(&m, x, K, group, loo), OLS_OK);
    for (size_t i = 0; i < N; i++)
        CU_ASSERT_DOUBLE_EQUAL(loo[i], refit_error(x, y, N, K, group, i), 1e-9);
    ols_free(&m);

    /* A run with leverage 1 cannot be left out. */
    const double x2[] = {1, 2, 3}, y2[] = {1, 2, 4};
    CU_ASSERT_EQUAL_FATAL(ols_fit(x2, y2, 2, 1, &m), OLS_OK);
    CU_ASSERT_EQUAL_FATAL(ols_loo_residuals(&m, x2, 1, NULL, loo), OLS_OK);
    CU_ASSERT_TRUE(isinf(loo[0]) && isinf(loo[1]));
    ols_free(&m);
}

/* One synthetic scenario: data from a known formula with noise, and a
 * configuration outside the data to predict. */
typedef struct {
    const char *names[3];
    size_t m, n;
    double params[128 * 3], y[128];
    double target[3], target_y; /* noise-free truth at the target */
    const char *want;           /* the generating formula, as the search writes it */
} scenario;

/* Strong scaling: T = 2 + 50/P with 1% noise, P = 1..64, three runs each. */
static void strong_scaling(scenario *sc, unsigned long long seed)
{
    *sc = (scenario){.names = {"P"}, .m = 1, .n = 21, .target = {128},
                     .target_y = 2 + 50.0 / 128, .want = "P^(-1)"};
    for (size_t i = 0; i < sc->n; i++) {
        double p = pow(2, (double)(i / 3));
        sc->params[i] = p;
        sc->y[i] = (2 + 50 / p) * (1 + 0.01 * noise(&seed));
    }
}

/* T = 1 + 3*log2(P)^2 + 0.5*P, P = 1..40, additive noise. */
static void log_squared(scenario *sc, unsigned long long seed)
{
    double t = 50;
    *sc = (scenario){.names = {"P"}, .m = 1, .n = 40, .target = {t},
                     .target_y = 1 + 3 * pow(log2(t), 2) + 0.5 * t, .want = "log2(P)^2 + P"};
    for (size_t i = 0; i < sc->n; i++) {
        double p = (double)i + 1;
        sc->params[i] = p;
        sc->y[i] = 1 + 3 * pow(log2(p), 2) + 0.5 * p + 0.05 * noise(&seed);
    }
}

/* EP (seed 004, Table 1 layout): T = 0.03 + N/(4e6*P), N = 2^24..2^30,
 * P = 2..16, 2% noise: the search should find the paper's own N/P. */
static void ep(scenario *sc, unsigned long long seed)
{
    const double classes[] = {16777216, 33554432, 268435456, 1073741824};
    *sc = (scenario){.names = {"N", "P"}, .m = 2, .target = {1073741824, 32},
                     .target_y = 0.03 + 1073741824 / (4e6 * 32), .want = "N*P^(-1)"};
    for (size_t c = 0; c < 4; c++)
        for (double P = 2; P <= 16; P += 2, sc->n++) {
            sc->params[sc->n * 2] = classes[c];
            sc->params[sc->n * 2 + 1] = P;
            sc->y[sc->n] = (0.03 + classes[c] / (4e6 * P)) * (1 + 0.02 * noise(&seed));
        }
}

/* Linpack's leading term N^3/(P*Q) over three parameters, 1% noise. */
static void linpack(scenario *sc, unsigned long long seed)
{
    *sc = (scenario){.names = {"N", "P", "Q"}, .m = 3, .target = {10000, 16, 16},
                     .target_y = 1 + 2e-10 * 1e12 / 256, .want = "N^3*P^(-1)*Q^(-1)"};
    for (double N = 3000; N <= 8000; N += 1000)
        for (double P = 1; P <= 8; P *= 2)
            for (double Q = 1; Q <= 8; Q *= 2, sc->n++) {
                double *row = sc->params + sc->n * 3;
                row[0] = N;
                row[1] = P;
                row[2] = Q;
                sc->y[sc->n] = (1 + 2e-10 * N * N * N / (P * Q)) * (1 + 0.01 * noise(&seed));
            }
}

/* Look up the scenario's parameters for one row of values. */
typedef struct {
    const scenario *sc;
    const double *row;
} row_ctx;

static bool row_lookup(void *ctx, const char *name, expr_value *out)
{
    const row_ctx *rc = ctx;
    for (size_t j = 0; j < rc->sc->m; j++)
        if (strcmp(rc->sc->names[j], name) == 0) {
            out->kind = VALUE_NUMBER;
            out->number = rc->row[j];
            return true;
        }
    return false;
}

/* Fit the chosen formula like any user formula and return the relative
 * error of its prediction at the target. */
static double target_error(const scenario *sc, const char *formula)
{
    scopred_formula f;
    expr_error err = {0};
    CU_ASSERT_TRUE_FATAL(scopred_formula_parse(formula, &f, &err));
    double *x = malloc(sc->n * f.nterms * sizeof *x), x0[8];
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    for (size_t i = 0; i < sc->n; i++) {
        row_ctx rc = {sc, sc->params + i * sc->m};
        CU_ASSERT_TRUE_FATAL(scopred_formula_eval(&f, row_lookup, &rc, x + i * f.nterms, &err));
    }
    row_ctx tc = {sc, sc->target};
    CU_ASSERT_TRUE_FATAL(scopred_formula_eval(&f, row_lookup, &tc, x0, &err));
    ols_model m;
    CU_ASSERT_EQUAL_FATAL(ols_fit(x, sc->y, sc->n, f.nterms, &m), OLS_OK);
    ols_prediction p;
    ols_predict(&m, x0, 0.95, &p);
    ols_free(&m);
    free(x);
    scopred_formula_free(&f);
    return fabs(p.estimate - sc->target_y) / sc->target_y;
}

/* Over ten noise draws, the search must find the generating formula at
 * least `exact` times, and every formula it picks must predict the target
 * outside the data within max_error. */
static void check_scenario(void (*make)(scenario *, unsigned long long), size_t exact,
                           double max_error, termsearch_scale scale)
{
    termsearch_options opt = {.scale = scale};
    scenario *sc = malloc(sizeof *sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    size_t hits = 0;
    char misses[1024] = "";
    for (unsigned long long seed = 1; seed <= 10; seed++) {
        make(sc, seed);
        termsearch_result r;
        CU_ASSERT_TRUE_FATAL(termsearch_run(sc->names, sc->params, sc->n, sc->m, sc->y, &opt,
                                            &r));
        CU_ASSERT_PTR_NOT_NULL_FATAL(r.formula);
        CU_ASSERT_TRUE(r.loo_rmse < r.base_loo_rmse);
        hits += strcmp(r.formula, sc->want) == 0;
        double e = target_error(sc, r.formula);
        if (e > max_error || strcmp(r.formula, sc->want) != 0) {
            size_t used = strlen(misses);
            snprintf(misses + used, sizeof misses - used, "  seed %llu: '%s', %.2f%% off\n",
                     seed, r.formula, 100 * e);
        }
        CU_ASSERT_TRUE(e <= max_error);
        termsearch_free(&r);
    }
    if (hits < exact)
        fprintf(stderr, "'%s' found %zu times of 10, want %zu:\n%s", sc->want, hits, exact,
                misses);
    CU_ASSERT_TRUE(hits >= exact);
    free(sc);
}

/* Multiplicative noise: the relative scale (the default) is the scale the
 * data were made on. log_squared's noise is additive (0.05 whatever the
 * time): it is searched in absolute units, as the option scale=absolute
 * allows (on the relative scale it finds the law 8 times of 10, the other
 * two adding a third term that changes the prediction by 0.01%). */
static void test_strong_scaling(void) { check_scenario(strong_scaling, 9, 0.05, TERMSEARCH_RELATIVE); }
static void test_log_squared(void) { check_scenario(log_squared, 9, 0.05, TERMSEARCH_ABSOLUTE); }
static void test_ep_product(void) { check_scenario(ep, 8, 0.05, TERMSEARCH_RELATIVE); }
static void test_three_parameters(void) { check_scenario(linpack, 7, 0.05, TERMSEARCH_RELATIVE); }

/* Noise-free data: the generating term is found and nothing else. */
static void test_exact_data(void)
{
    const char *names[] = {"P"};
    double p[8], y[8];
    for (size_t i = 0; i < 8; i++) {
        p[i] = (double)(1u << i);
        y[i] = 2 + 50 / p[i];
    }
    termsearch_result r;
    CU_ASSERT_TRUE_FATAL(termsearch_run(names, p, 8, 1, y, NULL, &r));
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.formula);
    CU_ASSERT_STRING_EQUAL(r.formula, "P^(-1)");
    CU_ASSERT_TRUE(r.loo_rmse < 1e-9);
    termsearch_free(&r);
}

/* Fewer than four runs, no usable parameter, pure noise: the search still
 * answers, and says how little that answer is worth. */
static void test_always_answers(void)
{
    /* Three configurations, y = 1 + log2(P) exactly: the restricted family
     * finds it (the old search refused: "too few training runs"). */
    const char *names[] = {"P", "Z"};
    const double few[] = {1, 0, 2, 0, 4, 0}, yf[] = {1, 2, 3};
    termsearch_result r;
    CU_ASSERT_TRUE_FATAL(termsearch_run(names, few, 3, 2, yf, NULL, &r));
    CU_ASSERT_PTR_NULL(r.failure);
    CU_ASSERT_STRING_EQUAL(r.formula, "log2(P)");
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_RESTRICTED);
    CU_ASSERT_EQUAL(r.nconfigs, 3);
    CU_ASSERT_STRING_EQUAL(termsearch_confidence(&r), "few points: low confidence");
    termsearch_free(&r);

    /* P constant, Z zero: nothing usable, the constant model says why. */
    const double flat[] = {4, 0, 4, 0, 4, 0, 4, 0, 4, 0}, y[] = {1, 2, 3, 2, 1};
    CU_ASSERT_TRUE_FATAL(termsearch_run(names, flat, 5, 2, y, NULL, &r));
    CU_ASSERT_STRING_EQUAL(r.formula, "1");
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_CONSTANT);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.why, "positive and varies"));
    CU_ASSERT_STRING_EQUAL(termsearch_confidence(&r), "constant model: no term helps");
    termsearch_free(&r);

    /* Pure noise: no term earns its place; the message names the rule that
     * refused the best one. */
    const char *one[] = {"P"};
    double p[30], yn[30];
    unsigned long long st = 13;
    for (size_t i = 0; i < 30; i++) {
        p[i] = (double)(i % 10) + 1;
        yn[i] = 5 + noise(&st);
    }
    termsearch_options opt = {.max_terms = 2, .min_gain = 0.05};
    CU_ASSERT_TRUE_FATAL(termsearch_run(one, p, 30, 1, yn, &opt, &r));
    CU_ASSERT_STRING_EQUAL(r.formula, "1");
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_CONSTANT);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.why, "the best, "));
    termsearch_free(&r);

    CU_ASSERT_TRUE_FATAL(termsearch_run(one, p, 0, 1, yn, NULL, &r));
    CU_ASSERT_PTR_NULL(r.formula);
    CU_ASSERT_PTR_NOT_NULL(r.failure);
    termsearch_free(&r);
}

/* A request beyond TERMSEARCH_MAX_TERMS is taken as the bound: SIZE_MAX
 * (what strtoul makes of "-1") once wrapped a buffer's size to nothing
 * and the search wrote past it. */
static void test_max_terms_bound(void)
{
    scenario sc;
    log_squared(&sc, 3);
    const size_t asked[] = {SIZE_MAX, SIZE_MAX - 2, TERMSEARCH_MAX_TERMS + 1};
    termsearch_options bound = {.max_terms = TERMSEARCH_MAX_TERMS};
    termsearch_result want;
    CU_ASSERT_TRUE_FATAL(termsearch_run(sc.names, sc.params, sc.n, sc.m, sc.y, &bound, &want));
    for (size_t i = 0; i < sizeof asked / sizeof *asked; i++) {
        termsearch_options opt = {.max_terms = asked[i]};
        termsearch_result r;
        CU_ASSERT_TRUE_FATAL(termsearch_run(sc.names, sc.params, sc.n, sc.m, sc.y, &opt, &r));
        CU_ASSERT_STRING_EQUAL(r.formula, want.formula);
        CU_ASSERT_EQUAL(r.nterms, want.nterms);
        termsearch_free(&r);
    }
    termsearch_free(&want);
}

/* Four configurations of strong scaling, 2% noise (the regions where the
 * old search refused to predict): the restricted family finds 1/P and
 * predicts the next doubling within 5%; the nested error is computed by
 * leaving each configuration out, and is worse than the selection's own. */
static void test_four_configurations(void)
{
    const char *names[] = {"P"};
    double p[8], y[8];
    unsigned long long st = 7;
    for (size_t i = 0; i < 8; i++) {
        p[i] = (double)(1u << (i / 2));
        y[i] = (3 + 60 / p[i]) * (1 + 0.02 * noise(&st));
    }
    termsearch_result r;
    CU_ASSERT_TRUE_FATAL(termsearch_run(names, p, 8, 1, y, NULL, &r));
    CU_ASSERT_STRING_EQUAL(r.formula, "P^(-1)");
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_RESTRICTED);
    CU_ASSERT_EQUAL(r.nested_folds, 4);
    CU_ASSERT_TRUE(r.nested_rmse >= r.loo_rmse);
    CU_ASSERT_TRUE(r.loo_rmse < 0.1 * r.base_loo_rmse);
    termsearch_free(&r);

    /* The full search's Bonferroni test cannot pass with four points, but
     * a relaxed alpha lets it (an experiments.csv option). */
    const double p6[] = {1, 2, 4, 8, 16, 32}, y6[] = {63.2, 32.6, 17.8, 10.6, 6.9, 4.9};
    termsearch_options loose = {.alpha = 0.5};
    CU_ASSERT_TRUE_FATAL(termsearch_run(names, p6, 6, 1, y6, &loose, &r));
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_SEARCHED);
    termsearch_free(&r);
}

/* The nested error by hand: P is negative (not usable), so every fold
 * chooses the constant and predicts each left-out configuration by the
 * mean of the other three: y = 1, 2, 3, 10 give errors -4, -8/3, -4/3, 8. */
static void test_nested_by_hand(void)
{
    const char *names[] = {"P"};
    const double p[] = {-1, -2, -3, -4}, y[] = {1, 2, 3, 10};
    termsearch_options absolute = {.scale = TERMSEARCH_ABSOLUTE}; /* as derived */
    termsearch_result r;
    CU_ASSERT_TRUE_FATAL(termsearch_run(names, p, 4, 1, y, &absolute, &r));
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_CONSTANT);
    double want = sqrt((16 + 64.0 / 9 + 16.0 / 9 + 64) / 4);
    CU_ASSERT_DOUBLE_EQUAL(r.nested_rmse, want, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.base_loo_rmse, want, 1e-12);
    CU_ASSERT_EQUAL(r.nested_folds, 4);
    termsearch_free(&r);
}

/* Candidate exponents from the options: parsed, checked, and obeyed. */
static void test_exponent_option(void)
{
    termsearch_options opt = {0};
    char err[128];
    CU_ASSERT_TRUE(termsearch_parse_exponents("-1, -0.5,0.5 ,1,2", &opt, err, sizeof err));
    CU_ASSERT_EQUAL(opt.nquarters, 5);
    CU_ASSERT_EQUAL(opt.quarters[0], -4);
    CU_ASSERT_EQUAL(opt.quarters[1], -2);
    CU_ASSERT_EQUAL(opt.quarters[4], 8);
    CU_ASSERT_FALSE(termsearch_parse_exponents("1,0.3", &opt, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "'0.3'"));
    CU_ASSERT_FALSE(termsearch_parse_exponents("4", &opt, err, sizeof err));
    CU_ASSERT_FALSE(termsearch_parse_exponents("1x", &opt, err, sizeof err));
    CU_ASSERT_FALSE(termsearch_parse_exponents("", &opt, err, sizeof err));

    /* T = 2 + 50/P, but only positive exponents allowed: no P^(-1). */
    const char *names[] = {"P"};
    double p[8], y[8];
    for (size_t i = 0; i < 8; i++) {
        p[i] = (double)(1u << i);
        y[i] = 2 + 50 / p[i];
    }
    CU_ASSERT_TRUE(termsearch_parse_exponents("0.5,1,2", &opt, err, sizeof err));
    termsearch_result r;
    CU_ASSERT_TRUE_FATAL(termsearch_run(names, p, 8, 1, y, &opt, &r));
    CU_ASSERT_PTR_NULL(strstr(r.formula, "(-"));
    termsearch_free(&r);
}

/* Forward folds against leave-one-out, by hand. p = 1, 2, 4, 8, one run
 * each, y = 8, 9, 8, 5: a rise and a dip on a flat code. With exponents=3
 * the restricted family is the constant, p^3, p^3*log2(p) and
 * p^3*log2(p)^2 (penalty exp(2k/4): e^0.5 for the constant, e for a term).
 *
 * Leave-one-out. The constant predicts each point by the mean of the
 * other three: residuals 8 - 22/3 = 2/3, 9 - 7 = 2, 2/3, 5 - 25/3 = -10/3;
 * MSE (4/9 + 4 + 4/9 + 100/9)/4 = 4, penalised 4e^0.5 = 6.59. c + a*p^3
 * (x = 1, 8, 64, 512) fits the dip: without p = 8 the line through
 * (1, 8), (8, 9), (64, 8) predicts 729/146 = 4.993 there, residual 0.007;
 * its MSE is 0.3389, penalised 0.921; p^3*log2(p) scores 3.82 and
 * p^3*log2(p)^2 19.3. Leave-one-out picks p^3, whose fit on all four,
 * 13506/1589 - (706/103285)*p^3, predicts -19.5 at p = 16.
 *
 * Forward folds (fit on p <= 2, predict p = 4; fit on p <= 4, predict
 * p = 8). The constant: 8.5 for 8, 25/3 for 5; MSE (1/4 + 100/9)/2 =
 * 409/72 = 5.68, penalised 9.37. c + a*p^3 through (1, 8), (8, 9) predicts
 * 8 + 63/7 = 17 at p = 4, residual -9, then 4.993 at p = 8: MSE 40.5,
 * penalised 110; the log variants 354 and 1429. Forward folds pick the
 * constant: the steep law that "explained" the dip extrapolates any step
 * between the last two points ninefold, which only a fold that predicts
 * beyond its training range sees. */
static const char *dip_names[] = {"p"};
static const double dip_p[] = {1, 2, 4, 8}, dip_y[] = {8, 9, 8, 5};

/* The hand case (p = dip_p, exponents=3) with responses y under opt. */
static void run_dip(termsearch_options *opt, const double *y, termsearch_result *r)
{
    char err[128];
    opt->scale = TERMSEARCH_ABSOLUTE; /* the errors above are in the response's units */
    CU_ASSERT_TRUE_FATAL(termsearch_parse_exponents("3", opt, err, sizeof err));
    CU_ASSERT_TRUE_FATAL(termsearch_run(dip_names, dip_p, 4, 1, y, opt, r));
}

static void test_forward_folds_by_hand(void)
{
    termsearch_options opt = {0};
    termsearch_result r;
    run_dip(&opt, dip_y, &r);
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_RESTRICTED);
    CU_ASSERT_STRING_EQUAL(r.formula, "p^3");
    CU_ASSERT_DOUBLE_EQUAL(r.loo_rmse, sqrt(0.338863756274), 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r.base_loo_rmse, 2.0, 1e-12);
    termsearch_free(&r);

    opt.selection = TERMSEARCH_SELECT_FORWARD;
    run_dip(&opt, dip_y, &r);
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_CONSTANT);
    CU_ASSERT_STRING_EQUAL(r.formula, "1");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.why, "forward folds"));
    termsearch_free(&r);

    /* A clean power law is found either way: y = 2 + 3*p^3 exactly. */
    const double law[] = {5, 26, 194, 1538};
    run_dip(&opt, law, &r);
    CU_ASSERT_STRING_EQUAL(r.formula, "p^3");
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_RESTRICTED);
    CU_ASSERT_EQUAL(r.selection, TERMSEARCH_SELECT_FORWARD);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.why, "forward folds"));
    termsearch_free(&r);

    /* Two parameters, y = N/P exactly at (N, P) = (1, 1), (1, 2), (2, 1),
     * (2, 2), (2, 4). Folds need 3 training configurations and two values
     * of their parameter: along P, fit on P <= 2 (4 configurations) and
     * predict P = 4; along N no fold (N <= 1 has one value). Only the
     * product N*P^(-1) predicts it exactly. */
    const char *np_names[] = {"N", "P"};
    const double grid[] = {1, 1, 1, 2, 2, 1, 2, 2, 2, 4}, ratio[] = {1, 0.5, 2, 1, 0.5};
    /* Exact data: on the relative scale N*P^(-3) also predicts the one
     * fold exactly, to rounding (the tie at zero error goes to rounding);
     * the hand case is about the folds, so it is searched in absolute
     * units, where only N*P^(-1) does. */
    termsearch_options every_exponent = {.selection = TERMSEARCH_SELECT_FORWARD,
                                         .scale = TERMSEARCH_ABSOLUTE};
    CU_ASSERT_TRUE_FATAL(termsearch_run(np_names, grid, 5, 2, ratio, &every_exponent, &r));
    CU_ASSERT_STRING_EQUAL(r.formula, "N*P^(-1)");
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_RESTRICTED);
    termsearch_free(&r);
}

/* The hand case above (p = 1, 2, 4, 8, y = 8, 9, 8, 5, exponents=3), with
 * the target p = 16 given as a point where the time must stay positive.
 * Each law fitted on all four (least squares of c + a*x, x its values):
 *   p^3            x = 1, 8, 64, 512: 13506/1589 - (706/103285)*x,
 *                  at 16 (x = 4096): -19.5
 *   p^3*log2(p)    x = 0, 8, 128, 1536: mean x 418, Sxx 1676848,
 *                  Sxy -3764, a = -0.0022446, c = 8.4383; at 16
 *                  (x = 16384): -28.3
 *   p^3*log2(p)^2  x = 0, 8, 256, 4608: Sxx 15365168, Sxy -11380,
 *                  a = -0.00074063, c = 8.4021; at 16 (x = 65536): -40.1
 * The first two beat the constant's penalised error (0.921 and 3.82
 * against 6.59), the third does not (19.3): two laws refused, and the
 * constant, 7.5 everywhere, is chosen. At p = 8.5 the p^3 law still
 * predicts 8.4997 - 0.0068354*614.125 = 4.30 > 0 and is kept; a negative
 * response (not a time) is not constrained. */
static void test_positive_targets_by_hand(void)
{
    const double negated[] = {-8, -9, -8, -5}, target[] = {16}, near[] = {8.5};
    termsearch_options opt = {.positive_at = target, .npositive_at = 1};
    termsearch_result r;
    run_dip(&opt, dip_y, &r);
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_CONSTANT);
    CU_ASSERT_STRING_EQUAL(r.formula, "1");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.why, "2 one-term laws scoring better predict zero or less"));
    termsearch_free(&r);

    opt.positive_at = near;
    run_dip(&opt, dip_y, &r);
    CU_ASSERT_STRING_EQUAL(r.formula, "p^3");
    CU_ASSERT_PTR_NULL(strstr(r.why, "zero or less"));
    termsearch_free(&r);

    opt.positive_at = target;
    run_dip(&opt, negated, &r);
    CU_ASSERT_STRING_EQUAL(r.formula, "p^3");
    termsearch_free(&r);
}

/* The full search is held to the same rule: y = 10 - p exactly at
 * p = 1..6 (six configurations, past the few-points family) is the law
 * p, which predicts 10 - 12 = -2 at p = 12. Given that target, the search
 * adds no term and says why; without it, p is found. */
static void test_positive_targets_full_search(void)
{
    const char *names[] = {"p"};
    const double p[] = {1, 2, 3, 4, 5, 6}, y[] = {9, 8, 7, 6, 5, 4}, target[] = {12};
    termsearch_result r;
    CU_ASSERT_TRUE_FATAL(termsearch_run(names, p, 6, 1, y, NULL, &r));
    CU_ASSERT_EQUAL(r.kind, TERMSEARCH_SEARCHED);
    CU_ASSERT_STRING_EQUAL(r.formula, "p");
    termsearch_free(&r);

    termsearch_options opt = {.positive_at = target, .npositive_at = 1};
    CU_ASSERT_TRUE_FATAL(termsearch_run(names, p, 6, 1, y, &opt, &r));
    CU_ASSERT_NOT_EQUAL(r.kind, TERMSEARCH_SEARCHED);
    CU_ASSERT_STRING_NOT_EQUAL(r.formula, "p");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.why, "the best term, p, would make the model predict zero "
                                         "or less at a target"));
    termsearch_free(&r);
}

/* termdata_build on 6,000 runs of 3,000 configurations (two runs each, the
 * second 3,000 rows later, so the numbering outgrows its first table):
 * configurations and each parameter's levels numbered in order of first
 * appearance, counts, means and spreads by hand; 0 and -0 are two values,
 * as their bytes are. */
static void test_termdata_configurations(void)
{
    enum { HALF = 3000, N = 2 * HALF, M = 2 };
    static double params[N * M], y[N];
    for (size_t i = 0; i < N; i++) {
        params[i * M] = (double)((i * 7) % HALF + 1);
        params[i * M + 1] = i % 4 == 1 ? -0.0 : (double)(i % 2);
        y[i] = 1 + (double)(i % 11) / 8;
    }
    termdata t;
    CU_ASSERT_TRUE_FATAL(termdata_build(params, N, M, y, &t));
    CU_ASSERT_EQUAL_FATAL(t.g, HALF);
    CU_ASSERT_EQUAL(t.nlevels[0], HALF);
    CU_ASSERT_EQUAL(t.nlevels[1], 3); /* 0, -0 and 1 */
    size_t wrong = 0;
    for (size_t c = 0; c < HALF; c++) {
        /* Configuration c first appears at row c, again at row c + HALF. */
        double mean = (y[c] + y[c + HALF]) / 2, d = y[c] - mean, e = y[c + HALF] - mean;
        wrong += t.count[c] != 2 || t.mean[c] != mean || t.within[c] != d * d + e * e;
        wrong += t.value_at[0][t.level[c * M]] != params[c * M];
        wrong += t.level[c * M] != c; /* parameter 0's value at row c is new there */
        double b = t.value_at[1][t.level[c * M + 1]];
        wrong += memcmp(&b, &params[c * M + 1], sizeof b) != 0;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    /* Parameter 1's levels by first appearance: 0 (row 0), -0 (row 1), 1 (row 3). */
    CU_ASSERT_EQUAL(t.level[0 * M + 1], 0);
    CU_ASSERT_EQUAL(t.level[1 * M + 1], 1);
    CU_ASSERT_EQUAL(t.level[3 * M + 1], 2);
    termdata_free(&t);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"configurations and levels of 6,000 runs", test_termdata_configurations},
        {"LOO from the hat matrix equals refits", test_loo_equals_refits},
        {"strong scaling 1/P, ten draws", test_strong_scaling},
        {"log2(P)^2 + P, ten draws", test_log_squared},
        {"EP: N*P^(-1), ten draws", test_ep_product},
        {"Linpack: N^3*P^(-1)*Q^(-1), ten draws", test_three_parameters},
        {"noise-free data", test_exact_data},
        {"always an answer, with its confidence", test_always_answers},
        {"max_terms beyond the bound is taken as it", test_max_terms_bound},
        {"four configurations: the restricted family", test_four_configurations},
        {"nested error by hand", test_nested_by_hand},
        {"candidate exponents option", test_exponent_option},
        {"forward folds against leave-one-out, by hand", test_forward_folds_by_hand},
        {"a time law stays positive at the targets, by hand", test_positive_targets_by_hand},
        {"the full search stops before a term that predicts a negative time",
         test_positive_targets_full_search},
        {NULL, NULL},
    };
    const testutil_suite suites[] = {{"termsearch", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
