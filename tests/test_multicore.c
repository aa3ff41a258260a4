/*
 * test_multicore.c — the multicore regression of seed 003: factor
 * definitions, formula parsing, the paper's error (3), recovery of known
 * product laws (3 to 7 factors, exact and with 2% noise), the dropping of
 * unidentifiable factors, the validation modes of section V (interpolation,
 * extrapolation in nodes, cross-platform), delta-method values against R,
 * and the gen/ adapter.
 */
#include "gen/fit/experiment_run.h"
#include "gen/ingest/experiment.h"
#include "models/multicore.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- synthetic runs from known laws ----------------------------------------
 * Everything here is generated, never measured: runs follow a product law
 * exactly, optionally times (1 + noise * N(0,1)) from a fixed seed. */

typedef struct {
    uint64_t state;
} rng;

/* splitmix64: uniform in [0, 1). */
static double rng_uniform(rng *g)
{
    uint64_t z = (g->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* Standard normal by Box-Muller. */
static double rng_normal(rng *g)
{
    double u = 1 - rng_uniform(g), v = rng_uniform(g);
    return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* T = scale * prod (a0[i] + a1[i] * z[i]). */
typedef struct {
    size_t m;
    double scale;
    double a0[MULTICORE_MAX_FACTORS], a1[MULTICORE_MAX_FACTORS];
} law;

static double law_value(const law *lw, const double *z)
{
    double t = lw->scale;
    for (size_t i = 0; i < lw->m; i++)
        t *= lw->a0[i] + lw->a1[i] * z[i];
    return t;
}

typedef struct {
    size_t n, m, cap;
    double *z, *y;
    double *truth; /* the law's value of each run (y without noise) */
} runs;

static void runs_init(runs *r, size_t m)
{
    memset(r, 0, sizeof *r);
    r->m = m;
}

static void runs_free(runs *r)
{
    free(r->z);
    free(r->y);
    free(r->truth);
    memset(r, 0, sizeof *r);
}

/* Append a run at z following lw, with multiplicative noise. */
static void runs_add(runs *r, const law *lw, const double *z, double noise, rng *g)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 32;
        r->z = realloc(r->z, r->cap * r->m * sizeof *r->z);
        r->y = realloc(r->y, r->cap * sizeof *r->y);
        r->truth = realloc(r->truth, r->cap * sizeof *r->truth);
        CU_ASSERT_FATAL(r->z && r->y && r->truth);
    }
    memcpy(&r->z[r->n * r->m], z, r->m * sizeof *z);
    r->truth[r->n] = law_value(lw, z);
    r->y[r->n] = r->truth[r->n] * (noise > 0 ? 1 + noise * rng_normal(g) : 1);
    r->n++;
}

/* Factor i of a random law lives on [lo_i, 10 lo_i] with lo_i = 0.05 (i+1);
 * a0 in [0.3, 1), a1 such that a1*z is 0.5 to 1.5 times a0 mid-range. */
static void law_random(law *lw, size_t m, rng *g)
{
    lw->m = m;
    lw->scale = 100 * (0.5 + rng_uniform(g));
    for (size_t i = 0; i < m; i++) {
        double mid = 0.05 * (double)(i + 1) * 5.5;
        lw->a0[i] = 0.3 + 0.7 * rng_uniform(g);
        lw->a1[i] = lw->a0[i] * (0.5 + rng_uniform(g)) / mid;
    }
}

/* n runs log-uniform in the law's box. */
static void runs_random_box(runs *r, const law *lw, size_t n, rng *g, double noise)
{
    runs_init(r, lw->m);
    double z[MULTICORE_MAX_FACTORS];
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < lw->m; i++)
            z[i] = 0.05 * (double)(i + 1) * pow(10, rng_uniform(g));
        runs_add(r, lw, z, noise, g);
    }
}

/* A platform's node: read, write and network bandwidth, platform contribution. */
typedef struct {
    double mbw_read, mbw_write, net_bw, pc;
} platform;

/* Append runs for every (nodes, ppn) on platform pf, z from the factors fs. */
static void layout_runs(runs *r, const law *lw, const multicore_factor *fs, const platform *pf,
                        const double *nodes, size_t nn, const double *ppn, size_t nppn,
                        double noise, rng *g)
{
    for (size_t a = 0; a < nn; a++)
        for (size_t b = 0; b < nppn; b++) {
            multicore_config c = {nodes[a], ppn[b], pf->mbw_read, pf->mbw_write, pf->net_bw, pf->pc};
            double z[MULTICORE_MAX_FACTORS];
            for (size_t i = 0; i < r->m; i++) {
                const char *missing;
                CU_ASSERT_FATAL(multicore_factor_z(fs[i], &c, &z[i], &missing));
            }
            runs_add(r, lw, z, noise, g);
        }
}

static const platform plain_node = {10, 6, 1.25, 1};

/* All seven factors of equation (2) on four platforms, 1-16 nodes, 1-8 ppn.
 * Bandwidth slopes are negative (more bandwidth, less time). */
static void paper_runs(runs *r, law *lw, double noise, rng *g)
{
    static const multicore_factor fs[] = {
        MULTICORE_MBW_READ, MULTICORE_MBW_WRITE, MULTICORE_NODES, MULTICORE_CORES,
        MULTICORE_PROCS, MULTICORE_NET_BW, MULTICORE_PLATFORM,
    };
    static const platform pfs[] = {
        {10, 6, 1.25, 1.0}, {20, 15, 0.125, 1.8}, {14, 7, 1.0, 0.7}, {30, 20, 2.5, 1.3},
    };
    *lw = (law){7, 40, {1.0, 0.9, 0.3, 0.6, 0.2, 1.0, 0.4}, {-0.02, -0.03, 0.7, 0.4, 0.8, -0.1, 0.6}};
    runs_init(r, 7);
    for (size_t p = 0; p < 4; p++)
        layout_runs(r, lw, fs, &pfs[p], (double[]){1, 2, 4, 8, 16}, 5, (double[]){1, 2, 4, 8}, 4,
                    noise, g);
}

typedef struct {
    double mean_err_measured; /* equation (3) against the (noisy) runs */
    double mean_err_law;      /* equation (3) against the law */
    double max_gap_law;       /* max relative difference from the law */
    double ci_cover_law;      /* share of runs whose law value is inside the 95% CI */
    double pi_cover_measured; /* share of runs inside the 95% PI */
} fit_quality;

static fit_quality assess_fit(const multicore_fit *fit, const runs *r)
{
    fit_quality q = {0};
    size_t ci_in = 0, pi_in = 0;
    for (size_t j = 0; j < r->n; j++) {
        multicore_prediction p;
        CU_ASSERT_EQUAL_FATAL(multicore_predict(fit, &r->z[j * r->m], &p), MULTICORE_OK);
        q.mean_err_measured += multicore_error_pct(r->y[j], p.estimate) / (double)r->n;
        q.mean_err_law += multicore_error_pct(r->truth[j], p.estimate) / (double)r->n;
        q.max_gap_law = fmax(q.max_gap_law, testutil_rel_diff(p.estimate, r->truth[j]));
        ci_in += p.ci_low <= r->truth[j] && r->truth[j] <= p.ci_high;
        pi_in += p.pi_low <= r->y[j] && r->y[j] <= p.pi_high;
    }
    q.ci_cover_law = (double)ci_in / (double)r->n;
    q.pi_cover_measured = (double)pi_in / (double)r->n;
    return q;
}

/* Fit r with default options; the status is asserted OK. */
static void fit_runs(const runs *r, multicore_fit *fit)
{
    multicore_options o;
    multicore_options_default(&o);
    char err[200] = "";
    multicore_status st = multicore_fit_run(&(multicore_data){r->n, r->m, r->z, r->y}, &o, fit, err,
                                            sizeof err);
    if (st != MULTICORE_OK)
        fprintf(stderr, "fit failed: %s\n", err);
    CU_ASSERT_EQUAL_FATAL(st, MULTICORE_OK);
}

/* ---- formula and factors ------------------------------------------------ */

static void test_parse_formula(void)
{
    multicore_factor f[MULTICORE_NFACTORS];
    size_t n = 0;
    char err[200];
    CU_ASSERT_TRUE(multicore_parse_formula("procs * nodes * cores * mbw_read", f, 7, &n, err, sizeof err));
    CU_ASSERT_EQUAL(n, 4);
    CU_ASSERT_EQUAL(f[0], MULTICORE_PROCS);
    CU_ASSERT_EQUAL(f[1], MULTICORE_NODES);
    CU_ASSERT_EQUAL(f[2], MULTICORE_CORES);
    CU_ASSERT_EQUAL(f[3], MULTICORE_MBW_READ);
    CU_ASSERT_TRUE(multicore_parse_formula("mbw_read*mbw_write*nodes*cores*procs*net_bw*platform",
                                           f, 7, &n, err, sizeof err));
    CU_ASSERT_EQUAL(n, 7);
    CU_ASSERT_EQUAL(f[6], MULTICORE_PLATFORM);

    static const struct { const char *text, *message; } bad[] = {
        {"", "empty multicore formula"},
        {"   ", "empty multicore formula"},
        {"procs * * nodes", "missing factor name"},
        {"procs *", "missing factor name"},
        {"procs * clock", "unknown multicore factor 'clock'"},
        {"procs * procs", "'procs' appears twice"},
        {"procs nodes", "expected '*'"},
        {"procs + nodes", "expected '*'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        CU_ASSERT_FALSE(multicore_parse_formula(bad[i].text, f, 7, &n, err, sizeof err));
        if (!strstr(err, bad[i].message))
            fprintf(stderr, "'%s': got '%s', want '%s'\n", bad[i].text, err, bad[i].message);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].message));
    }
}

static void test_factor_z(void)
{
    /* Section II.E by hand: Nn = 4 nodes, Nc = 2 processes per node, node
     * bandwidths 10 (read), 8 (write), 1.25 (network) GB/s, pc = 2. */
    multicore_config c = {4, 2, 10, 8, 1.25, 2};
    static const double want[MULTICORE_NFACTORS] = {
        [MULTICORE_MBW_READ] = 5, [MULTICORE_MBW_WRITE] = 4, [MULTICORE_NODES] = 0.25,
        [MULTICORE_CORES] = 0.5, [MULTICORE_PROCS] = 0.125, [MULTICORE_NET_BW] = 0.625,
        [MULTICORE_PLATFORM] = 0.5,
    };
    for (int f = 0; f < MULTICORE_NFACTORS; f++) {
        double z = NAN;
        const char *missing = NULL;
        CU_ASSERT_TRUE(multicore_factor_z((multicore_factor)f, &c, &z, &missing));
        CU_ASSERT_DOUBLE_EQUAL(z, want[f], 1e-15);
    }
    const char *missing = NULL;
    double z;
    multicore_config no_bw = {4, 2, NAN, 8, 0, 2};
    CU_ASSERT_FALSE(multicore_factor_z(MULTICORE_MBW_READ, &no_bw, &z, &missing));
    CU_ASSERT_STRING_EQUAL(missing, "mbw_read_gbs");
    CU_ASSERT_FALSE(multicore_factor_z(MULTICORE_NET_BW, &no_bw, &z, &missing));
    CU_ASSERT_STRING_EQUAL(missing, "net_bw_gbs");
    multicore_config no_ppn = {4, NAN, 10, 8, 1, 2};
    CU_ASSERT_FALSE(multicore_factor_z(MULTICORE_CORES, &no_ppn, &z, &missing));
    CU_ASSERT_STRING_EQUAL(missing, "ppn");
    CU_ASSERT_TRUE(multicore_factor_z(MULTICORE_NODES, &no_ppn, &z, &missing));
    CU_ASSERT_STRING_EQUAL(multicore_factor_name(MULTICORE_NET_BW), "net_bw");
    CU_ASSERT_STRING_EQUAL(multicore_factor_definition(MULTICORE_PROCS), "1/(Nc*Nn)");
}

/* ---- the paper's error, equation (3) -------------------------------------- */

static void test_error_equation3(void)
{
    /* 100*|actual - predicted|/actual: relative to the actual time, so an
     * over- and an under-prediction by the same amount give the same error,
     * and swapping actual and predicted does not. */
    CU_ASSERT_DOUBLE_EQUAL(multicore_error_pct(200, 190), 5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(multicore_error_pct(200, 210), 5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(multicore_error_pct(100, 50), 50, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(multicore_error_pct(50, 100), 100, 1e-12);
    /* Section IV's pair of times: 579 s (8 nodes x 2) against 786 s (4 x 4). */
    CU_ASSERT_DOUBLE_EQUAL(multicore_error_pct(579, 786), 100.0 * 207 / 579, 1e-12);
    CU_ASSERT_TRUE(isnan(multicore_error_pct(0, 1)));
    CU_ASSERT_TRUE(isnan(multicore_error_pct(-3, 1)));
    CU_ASSERT_TRUE(isnan(multicore_error_pct(NAN, 1)));
    CU_ASSERT_TRUE(isnan(multicore_error_pct(1, INFINITY)));

    multicore_error_summary s;
    const double errs[] = {5, 1, NAN, 9};
    multicore_summarise_errors(errs, 4, &s);
    CU_ASSERT_EQUAL(s.n, 3);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(s.min, 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.max, 9, 0);
    multicore_summarise_errors(errs + 2, 1, &s);
    CU_ASSERT_EQUAL(s.n, 0);
    CU_ASSERT_TRUE(isnan(s.mean) && isnan(s.min) && isnan(s.max));
}

/* ---- recovery of known laws ------------------------------------------------ */

/* The largest relative gap between fitted and true predictions at 20 fresh
 * points inside the training box (the training runs are in assess_fit). */
static double fresh_point_gap(const multicore_fit *fit, const law *lw, rng *g)
{
    double worst = 0, z0[MULTICORE_MAX_FACTORS];
    multicore_prediction p;
    for (size_t k = 0; k < 20; k++) {
        for (size_t i = 0; i < fit->m; i++) {
            const multicore_factor_fit *f = &fit->factors[i];
            z0[i] = f->zmin + (f->zmax - f->zmin) * rng_uniform(g);
        }
        CU_ASSERT_EQUAL_FATAL(multicore_predict(fit, z0, &p), MULTICORE_OK);
        worst = fmax(worst, testutil_rel_diff(p.estimate, law_value(lw, z0)));
    }
    return worst;
}

/* Fitted coefficients equal the law's once both are normalised to 1 at zref:
 * the scale ambiguity is removed, so there is one answer. */
static void check_coefficients(const multicore_fit *fit, const law *lw, double tol)
{
    double scale = lw->scale;
    for (size_t i = 0; i < lw->m; i++) {
        const multicore_factor_fit *f = &fit->factors[i];
        double at_ref = lw->a0[i] + lw->a1[i] * f->zref;
        scale *= at_ref;
        CU_ASSERT_DOUBLE_EQUAL(f->a0, lw->a0[i] / at_ref, tol);
        CU_ASSERT_DOUBLE_EQUAL(f->a1 * f->zref, lw->a1[i] * f->zref / at_ref, tol);
        CU_ASSERT_DOUBLE_EQUAL(f->a0 + f->a1 * f->zref, 1, 1e-12);
    }
    CU_ASSERT_TRUE(testutil_rel_diff(fit->scale, scale) < tol);
}

static void test_exact_laws_3_to_7_factors(void)
{
    for (size_t m = 3; m <= 7; m++) {
        rng g = {1000 + m};
        law lw;
        runs r;
        law_random(&lw, m, &g);
        runs_random_box(&r, &lw, 12 * m, &g, 0.0);
        multicore_fit fit;
        fit_runs(&r, &fit);
        CU_ASSERT_TRUE(fit.converged);
        CU_ASSERT_EQUAL(fit.nkept, m);
        CU_ASSERT_TRUE(fit.identifiable);
        CU_ASSERT_TRUE(fit.sigma < 1e-9);
        fit_quality q = assess_fit(&fit, &r);
        double fresh = fresh_point_gap(&fit, &lw, &g);
        if (q.max_gap_law >= 1e-6 || fresh >= 1e-6)
            fprintf(stderr, "m=%zu: gaps %g (runs), %g (fresh points)\n", m, q.max_gap_law, fresh);
        CU_ASSERT_TRUE(q.max_gap_law < 1e-6);
        CU_ASSERT_TRUE(fresh < 1e-6);
        check_coefficients(&fit, &lw, 1e-6);
        multicore_fit_free(&fit);
        runs_free(&r);
    }
}

static void test_noisy_laws_3_to_7_factors(void)
{
    for (size_t m = 3; m <= 7; m++) {
        rng g = {2000 + m};
        law lw;
        runs r;
        law_random(&lw, m, &g);
        runs_random_box(&r, &lw, 12 * m, &g, 0.02);
        multicore_fit fit;
        fit_runs(&r, &fit);
        CU_ASSERT_TRUE(fit.converged);
        fit_quality q = assess_fit(&fit, &r);
        if (!(q.mean_err_measured < 2 && q.mean_err_law < 1))
            fprintf(stderr, "m=%zu: mean error %g%% (measured), %g%% (law)\n", m,
                    q.mean_err_measured, q.mean_err_law);
        /* Equation (3) against the noisy measurements, and against the law. */
        CU_ASSERT_TRUE(q.mean_err_measured < 2);
        CU_ASSERT_TRUE(q.mean_err_law < 1);
        /* The relative residual standard error estimates the 2% noise. */
        CU_ASSERT_TRUE(fit.sigma > 0.015 && fit.sigma < 0.025);
        /* Approximate intervals that hold roughly what they promise. */
        CU_ASSERT_TRUE(q.ci_cover_law > 0.8);
        CU_ASSERT_TRUE(q.pi_cover_measured > 0.85);
        multicore_fit_free(&fit);
        runs_free(&r);
    }
}

/* The seven factors of equation (2), computed from run layouts on four
 * platforms whose bandwidths and platform contributions differ. */
static void test_paper_factors_seven(void)
{
    for (int noisy = 0; noisy <= 1; noisy++) {
        rng g = {77 + (uint64_t)noisy};
        law lw;
        runs r;
        paper_runs(&r, &lw, noisy ? 0.02 : 0.0, &g);
        multicore_fit fit;
        fit_runs(&r, &fit);
        CU_ASSERT_EQUAL(fit.nkept, 7);
        CU_ASSERT_TRUE(fit.converged);
        fit_quality q = assess_fit(&fit, &r);
        if (!noisy) {
            CU_ASSERT_TRUE(q.max_gap_law < 1e-6);
            check_coefficients(&fit, &lw, 1e-6);
        } else {
            CU_ASSERT_TRUE(q.mean_err_measured < 2);
            CU_ASSERT_TRUE(q.mean_err_law < 1);
        }
        multicore_fit_free(&fit);
        runs_free(&r);
    }
}

/* ---- identifiability --------------------------------------------------------- */

static void test_constant_factor_dropped(void)
{
    /* One node throughout: 1/Nn is 1 in every run and cannot be identified;
     * mbw_read = 10/ppn is procs = 1/ppn times 10: the same information. */
    multicore_factor fs[] = {MULTICORE_NODES, MULTICORE_PROCS, MULTICORE_MBW_READ};
    law lw = {3, 50, {0.5, 0.2, 0.3}, {0.5, 0.8, 0.07}};
    runs r;
    runs_init(&r, 3);
    layout_runs(&r, &lw, fs, &plain_node, (double[]){1}, 1, (double[]){1, 2, 4, 8}, 4, 0, NULL);
    multicore_fit fit;
    fit_runs(&r, &fit);
    CU_ASSERT_EQUAL(fit.factors[0].status, MULTICORE_CONSTANT);
    CU_ASSERT_DOUBLE_EQUAL(fit.factors[0].zref, 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(fit.factors[0].c, 0, 0);
    CU_ASSERT_TRUE(isnan(fit.factors[0].se_a0));
    CU_ASSERT_EQUAL(fit.factors[1].status, MULTICORE_KEPT);
    CU_ASSERT_EQUAL(fit.factors[2].status, MULTICORE_DUPLICATE);
    CU_ASSERT_EQUAL(fit.factors[2].duplicate_of, 1);
    CU_ASSERT_DOUBLE_EQUAL(fit.factors[2].dup_slope, 10, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(fit.factors[2].dup_offset, 0, 1e-9);
    CU_ASSERT_EQUAL(fit.nkept, 1);
    /* Four configurations, two parameters: the law (quadratic in 1/ppn) is
     * not representable, but the fit is finite and honest about it. */
    CU_ASSERT_TRUE(isfinite(fit.scale) && isfinite(fit.sigma) && fit.sigma > 0);
    multicore_prediction p;
    double z_same[] = {1, 0.25, 2.5}, z_two_nodes[] = {0.5, 0.125, 2.5};
    double z_far[] = {1, 1.0 / 16, 10.0 / 16}, z_untied[] = {1, 0.25, 5};
    CU_ASSERT_EQUAL(multicore_predict(&fit, z_same, &p), MULTICORE_OK);
    CU_ASSERT_EQUAL(p.extrapolation, MULTICORE_INSIDE);
    CU_ASSERT_TRUE(isfinite(p.ci_low) && p.ci_low < p.estimate && p.estimate < p.ci_high);
    CU_ASSERT_TRUE(p.pi_low < p.ci_low && p.ci_high < p.pi_high);
    CU_ASSERT_EQUAL(multicore_predict(&fit, z_two_nodes, &p), MULTICORE_OK);
    CU_ASSERT_EQUAL(p.extrapolation, MULTICORE_DROPPED_CHANGED);
    CU_ASSERT_EQUAL(p.extrapolation_factor, 0);
    CU_ASSERT_EQUAL(multicore_predict(&fit, z_far, &p), MULTICORE_OK);
    CU_ASSERT_EQUAL(p.extrapolation, MULTICORE_OUTSIDE_RANGE);
    CU_ASSERT_EQUAL(p.extrapolation_factor, 1);
    CU_ASSERT_EQUAL(multicore_predict(&fit, z_untied, &p), MULTICORE_OK);
    CU_ASSERT_EQUAL(p.extrapolation, MULTICORE_DROPPED_CHANGED);
    CU_ASSERT_EQUAL(p.extrapolation_factor, 2);
    multicore_fit_free(&fit);
    runs_free(&r);
}

static void test_rank_deficient(void)
{
    /* Three configurations (two runs each) and three factors that are
     * neither constant nor affine in each other: four parameters that three
     * distinct points cannot separate. The fit is made, flagged, and has no
     * standard errors or intervals. */
    double z[] = {1, 1, 1, 1, 1, 1, 2, 1, 3, 2, 1, 3, 3, 2, 1, 3, 2, 1};
    double y[] = {10, 10.4, 7, 7.2, 5, 5.1};
    multicore_options o;
    multicore_options_default(&o);
    multicore_fit fit;
    char err[200] = "";
    CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){6, 3, z, y}, &o, &fit, err, sizeof err),
                          MULTICORE_OK);
    CU_ASSERT_EQUAL(fit.nkept, 3);
    CU_ASSERT_FALSE(fit.identifiable);
    CU_ASSERT_PTR_NULL(fit.cov);
    CU_ASSERT_TRUE(isnan(fit.se_scale) && isnan(fit.factors[1].se_a1));
    multicore_prediction p;
    CU_ASSERT_EQUAL(multicore_predict(&fit, z, &p), MULTICORE_OK);
    CU_ASSERT_TRUE(isfinite(p.estimate) && isnan(p.ci_low) && isnan(p.pi_high));
    multicore_fit_free(&fit);
}

static void test_all_factors_constant(void)
{
    /* Nothing varies: the model is a constant; with relative residuals the
     * constant minimising sum ((C - y)/y)^2 is sum(1/y) / sum(1/y^2). */
    double z[] = {1, 1, 1}, y[] = {10, 12, 14};
    multicore_options o;
    multicore_options_default(&o);
    multicore_fit fit;
    char err[200] = "";
    CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){3, 1, z, y}, &o, &fit, err, sizeof err),
                          MULTICORE_OK);
    CU_ASSERT_EQUAL(fit.nkept, 0);
    double s1 = 1.0 / 10 + 1.0 / 12 + 1.0 / 14, s2 = 1.0 / 100 + 1.0 / 144 + 1.0 / 196;
    CU_ASSERT_DOUBLE_EQUAL(fit.scale, s1 / s2, 1e-9);
    CU_ASSERT_EQUAL(fit.df, 2);
    multicore_fit_free(&fit);
    /* Absolute residuals: the plain mean. */
    o.residuals = MULTICORE_ABSOLUTE;
    CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){3, 1, z, y}, &o, &fit, err, sizeof err),
                          MULTICORE_OK);
    CU_ASSERT_DOUBLE_EQUAL(fit.scale, 12, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(fit.sigma, 2, 1e-9); /* sqrt((4 + 0 + 4) / 2) */
    multicore_fit_free(&fit);
}

static void test_bad_input(void)
{
    multicore_options o;
    multicore_options_default(&o);
    multicore_fit fit;
    char err[200] = "";
    double z[] = {1, 2, 3, 4}, y[] = {4, 3, 2, 1};
    double y_bad[] = {4, 0, 2, 1}, z_bad[] = {1, NAN, 3, 4};
    CU_ASSERT_EQUAL(multicore_fit_run(&(multicore_data){4, 1, z, y_bad}, &o, &fit, err, sizeof err),
                    MULTICORE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "training run 2: the response must be a number > 0"));
    multicore_fit_free(&fit);
    CU_ASSERT_EQUAL(multicore_fit_run(&(multicore_data){4, 1, z_bad, y}, &o, &fit, err, sizeof err),
                    MULTICORE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "training run 2: z of factor 1"));
    multicore_fit_free(&fit);
    /* Three factors that are neither constant nor affine in each other:
     * four parameters, three runs. */
    double z3[] = {1, 1, 1, 2, 1, 3, 3, 2, 1};
    CU_ASSERT_EQUAL(multicore_fit_run(&(multicore_data){3, 3, z3, y}, &o, &fit, err, sizeof err),
                    MULTICORE_ETOOFEW);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "3 training runs for 4 parameters"));
    multicore_fit_free(&fit);
    CU_ASSERT_EQUAL(multicore_fit_run(&(multicore_data){0, 1, z, y}, &o, &fit, err, sizeof err),
                    MULTICORE_ETOOFEW);
    multicore_fit_free(&fit);
    o.starts = 0;
    CU_ASSERT_EQUAL(multicore_fit_run(&(multicore_data){4, 1, z, y}, &o, &fit, err, sizeof err),
                    MULTICORE_EINVAL);
    multicore_fit_free(&fit);
    /* Exactly as many runs as parameters: a fit through both points, but no
     * sigma and no intervals. y = 5 - z is 4.5 * (1 - 0.2222 (z/1.5 - 1)). */
    multicore_options_default(&o);
    double y2[] = {4, 3};
    CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){2, 1, z, y2}, &o, &fit, err, sizeof err),
                          MULTICORE_OK);
    CU_ASSERT_EQUAL(fit.df, 0);
    CU_ASSERT_TRUE(isnan(fit.sigma));
    CU_ASSERT_PTR_NULL(fit.cov);
    CU_ASSERT_DOUBLE_EQUAL(fit.scale, 3.5, 1e-9);
    multicore_prediction p;
    CU_ASSERT_EQUAL(multicore_predict(&fit, (double[]){1.25}, &p), MULTICORE_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.estimate, 3.75, 1e-9);
    CU_ASSERT_TRUE(isnan(p.ci_low) && isnan(p.pi_high) && isnan(p.se));
    CU_ASSERT_EQUAL(multicore_predict(&fit, (double[]){-1}, &p), MULTICORE_EINVAL);
    multicore_fit_free(&fit);
}

/* ---- validation modes of section V ------------------------------------------- */

static void test_extrapolation_in_nodes(void)
{
    /* Section V.A: train on 8, 16 and 32 nodes, predict up to 128. */
    multicore_factor fs[] = {MULTICORE_PROCS, MULTICORE_NODES, MULTICORE_CORES};
    law lw = {3, 900, {0.15, 0.4, 0.7}, {0.85, 9.6, 0.3}};
    double ppn[] = {1, 2, 4};
    for (int noisy = 0; noisy <= 1; noisy++) {
        rng g = {31};
        runs train, all;
        runs_init(&train, 3);
        runs_init(&all, 3);
        layout_runs(&train, &lw, fs, &plain_node, (double[]){8, 16, 32}, 3, ppn, 3,
                    noisy ? 0.02 : 0, &g);
        layout_runs(&all, &lw, fs, &plain_node, (double[]){8, 16, 32, 64, 128}, 5, ppn, 3, 0, NULL);
        multicore_fit fit;
        fit_runs(&train, &fit);
        CU_ASSERT_EQUAL(fit.nkept, 3);
        double errs[15];
        size_t flagged = 0;
        for (size_t j = 0; j < all.n; j++) {
            multicore_prediction p;
            CU_ASSERT_EQUAL_FATAL(multicore_predict(&fit, &all.z[j * 3], &p), MULTICORE_OK);
            errs[j] = multicore_error_pct(all.y[j], p.estimate);
            flagged += p.extrapolation == MULTICORE_OUTSIDE_RANGE;
        }
        /* 64 and 128 nodes lie outside the training range of 1/Nn (and 1/np). */
        CU_ASSERT_EQUAL(flagged, 2 * 3);
        multicore_error_summary s;
        multicore_summarise_errors(errs, all.n, &s);
        CU_ASSERT_TRUE(noisy ? s.mean < 2 && s.max < 5 : s.max < 1e-4);
        multicore_fit_free(&fit);
        runs_free(&train);
        runs_free(&all);
    }
}

static void test_cross_platform(void)
{
    /* Section V.C: runs of two platforms, each with its own bandwidth and
     * platform contribution, fitted together and predicted on each. X ran
     * 4-16 nodes with 1, 2 and 4 processes per node; Y only one process per
     * node on 8-64 nodes (the paper's cross-platform inputs were
     * single-process-per-node runs), so Y's multicore runs and X's runs on
     * Y's node counts are predicted through the fitted factors. */
    multicore_factor fs[] = {MULTICORE_PROCS, MULTICORE_NODES, MULTICORE_MBW_READ, MULTICORE_PLATFORM};
    law lw = {4, 300, {0.1, 0.6, 1.2, 0.2}, {0.9, 0.4, -0.03, 0.8}};
    platform x = {10, 6, 0.125, 1.0}, y = {24, 12, 1.25, 1.6};
    double ppn[] = {1, 2, 4};
    for (int noisy = 0; noisy <= 1; noisy++) {
        rng g = {57};
        double noise = noisy ? 0.02 : 0;
        runs train, on_x, on_y;
        runs_init(&train, 4);
        runs_init(&on_x, 4);
        runs_init(&on_y, 4);
        layout_runs(&train, &lw, fs, &x, (double[]){4, 8, 12, 16}, 4, ppn, 3, noise, &g);
        layout_runs(&train, &lw, fs, &y, (double[]){8, 16, 32, 64}, 4, ppn, 1, noise, &g);
        layout_runs(&on_x, &lw, fs, &x, (double[]){4, 8, 16, 32, 64}, 5, ppn, 3, 0, NULL);
        layout_runs(&on_y, &lw, fs, &y, (double[]){8, 16, 32, 64}, 4, ppn, 3, 0, NULL);
        multicore_fit fit;
        fit_runs(&train, &fit);
        CU_ASSERT_EQUAL(fit.nkept, 4);
        const runs *targets[] = {&on_x, &on_y};
        for (int pf = 0; pf < 2; pf++) {
            double errs[16];
            for (size_t j = 0; j < targets[pf]->n; j++) {
                multicore_prediction p;
                CU_ASSERT_EQUAL_FATAL(multicore_predict(&fit, &targets[pf]->z[j * 4], &p), MULTICORE_OK);
                errs[j] = multicore_error_pct(targets[pf]->y[j], p.estimate);
            }
            multicore_error_summary s;
            multicore_summarise_errors(errs, targets[pf]->n, &s);
            CU_ASSERT_EQUAL(s.n, targets[pf]->n);
            if (noisy && !(s.mean < 2 && s.max < 6))
                fprintf(stderr, "cross-platform %c: mean %g%% max %g%%\n", "XY"[pf], s.mean, s.max);
            CU_ASSERT_TRUE(noisy ? s.mean < 2 && s.max < 6 : s.max < 1e-4);
        }
        multicore_fit_free(&fit);
        runs_free(&train);
        runs_free(&on_x);
        runs_free(&on_y);
    }
}

/* ---- against R --------------------------------------------------------------- */

#include "tests/fixtures/multicore/reference_values.h"

/* One set of R's values. */
typedef struct {
    double scale, se_scale;
    const double *a0, *a1, *se_a0, *se_a1;
    double sigma, pred, ci_low, ci_high, pi_low, pi_high;
} r_reference;

static void check_against_r(multicore_residuals residuals, const r_reference *ref)
{
    multicore_options o;
    multicore_options_default(&o);
    o.residuals = residuals;
    multicore_fit fit;
    char err[200] = "";
    CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){REF_N, REF_M, ref_z, ref_y}, &o, &fit, err,
                                            sizeof err), MULTICORE_OK);
    CU_ASSERT_TRUE(testutil_rel_diff(fit.scale, ref->scale) < 1e-7);
    CU_ASSERT_TRUE(testutil_rel_diff(fit.se_scale, ref->se_scale) < 1e-6);
    for (size_t i = 0; i < REF_M; i++) {
        CU_ASSERT_TRUE(testutil_rel_diff(fit.factors[i].a0, ref->a0[i]) < 1e-7);
        CU_ASSERT_TRUE(testutil_rel_diff(fit.factors[i].a1, ref->a1[i]) < 1e-7);
        CU_ASSERT_TRUE(testutil_rel_diff(fit.factors[i].se_a0, ref->se_a0[i]) < 1e-6);
        CU_ASSERT_TRUE(testutil_rel_diff(fit.factors[i].se_a1, ref->se_a1[i]) < 1e-6);
    }
    CU_ASSERT_TRUE(testutil_rel_diff(fit.sigma, ref->sigma) < 1e-8);
    multicore_prediction p;
    CU_ASSERT_EQUAL_FATAL(multicore_predict(&fit, ref_z0, &p), MULTICORE_OK);
    CU_ASSERT_TRUE(testutil_rel_diff(p.estimate, ref->pred) < 1e-7);
    CU_ASSERT_TRUE(testutil_rel_diff(p.ci_low, ref->ci_low) < 1e-7);
    CU_ASSERT_TRUE(testutil_rel_diff(p.ci_high, ref->ci_high) < 1e-7);
    CU_ASSERT_TRUE(testutil_rel_diff(p.pi_low, ref->pi_low) < 1e-7);
    CU_ASSERT_TRUE(testutil_rel_diff(p.pi_high, ref->pi_high) < 1e-7);
    multicore_fit_free(&fit);
}

static void test_against_r_nls(void)
{
    /* tests/fixtures/multicore/reference.R fits the same law with R's nls
     * (Gauss-Newton) on the data in reference_values.h, relative residuals
     * (weights 1/y^2) and absolute ones, and computes the delta-method
     * intervals with R's own vcov() and deriv(). R stops at a relative
     * offset of 1e-7 and differentiates numerically, so agreement is to
     * about 1e-8; the tolerances leave a factor 10 or more. */
    check_against_r(MULTICORE_RELATIVE, &(r_reference){
        ref_scale, ref_se_scale, ref_a0, ref_a1, ref_se_a0, ref_se_a1, ref_sigma,
        ref_pred, ref_ci_low, ref_ci_high, ref_pi_low, ref_pi_high});
    check_against_r(MULTICORE_ABSOLUTE, &(r_reference){
        ref_abs_scale, ref_abs_se_scale, ref_abs_a0, ref_abs_a1, ref_abs_se_a0, ref_abs_se_a1,
        ref_abs_sigma, ref_abs_pred, ref_abs_ci_low, ref_abs_ci_high, ref_abs_pi_low, ref_abs_pi_high});
}

/* ---- the gen/ adapter ---------------------------------------------------------- */

/* A small archive written at test time. Two platforms follow one exact law
 * (procs * nodes * mbw_read * platform); gamma has no bandwidths and 2 cores. */
static const multicore_factor adapter_factors[] = {
    MULTICORE_PROCS, MULTICORE_NODES, MULTICORE_MBW_READ, MULTICORE_PLATFORM,
};
static const law adapter_law = {4, 300, {0.1, 0.6, 1.2, 0.2}, {0.9, 0.4, -0.03, 0.8}};
static const platform alpha = {10, 6, 0.125, 1.0}, beta = {24, 12, 1.25, 1.6};

/* Append "cluster,mgbench,d300,np,nodes,ppn,time" lines for a grid. */
static void append_runs(char *buf, size_t len, const char *cluster, const platform *pf,
                        const double *nodes, size_t nn, const double *ppn, size_t nppn)
{
    for (size_t a = 0; a < nn; a++)
        for (size_t b = 0; b < nppn; b++) {
            multicore_config c = {nodes[a], ppn[b], pf->mbw_read, pf->mbw_write, pf->net_bw, pf->pc};
            double z[4];
            for (size_t i = 0; i < 4; i++) {
                const char *missing;
                CU_ASSERT_FATAL(multicore_factor_z(adapter_factors[i], &c, &z[i], &missing));
            }
            size_t used = strlen(buf);
            snprintf(buf + used, len - used, "%s,mgbench,d300,64,64,%g,%g,%g,%.17g,1,\n", cluster,
                     nodes[a] * ppn[b], nodes[a], ppn[b], law_value(&adapter_law, z));
        }
}

static void write_adapter_archive(const char *dir)
{
    char path[512], runs[16384] = "cluster,code,dataset,na,nb,np,nodes,ppn,time_s,rep,note\n";
    snprintf(path, sizeof path, "%s/clusters.csv", dir);
    CU_ASSERT_FATAL(testutil_write_file(path,
        "cluster,cores_per_node,mbw_read_gbs,mbw_write_gbs,net_bw_gbs,platform_contribution\n"
        "alpha,4,10,6,0.125,1.0\n"
        "beta,8,24,12,1.25,1.6\n"
        "gamma,2,,,,\n"));
    append_runs(runs, sizeof runs, "alpha", &alpha, (double[]){1, 2, 4, 8}, 4, (double[]){1, 2, 4}, 3);
    append_runs(runs, sizeof runs, "beta", &beta, (double[]){2, 4, 8, 16}, 4, (double[]){1, 2, 4, 8}, 4);
    /* gamma's runs name no data set: the code and the mesh stand for it. */
    strcat(runs, "beta,mgbench,d300,64,64,256,32,8,,,to predict\n"
                 "gamma,mgbench,,64,64,1,1,1,10.0,1,\n"
                 "gamma,mgbench,,64,64,2,1,2,5.5,1,\n"
                 "gamma,mgbench,,64,64,2,1,2,5.3,2,\n"
                 "gamma,mgbench,,64,64,4,1,4,6.0,1,oversubscribed\n");
    snprintf(path, sizeof path, "%s/mc/runs.csv", dir);
    CU_ASSERT_FATAL(testutil_write_file(path, runs));
    snprintf(path, sizeof path, "%s/mc/experiments.csv", dir);
    CU_ASSERT_FATAL(testutil_write_file(path,
        "name,model,formula,train,target,options\n"
        "interp,multicore,procs * nodes * mbw_read * platform,cluster != 'gamma',cluster != 'gamma',\n"
        "extrap,multicore,procs * nodes * mbw_read * platform,cluster != 'gamma' && nodes <= 4,"
        "cluster != 'gamma',starts=4;residuals=relative\n"
        "cross,multicore,procs * nodes * mbw_read * platform,cluster == 'alpha' || (cluster == 'beta' && ppn == 1),"
        "cluster == 'beta',\n"
        "single,multicore,procs * nodes * cores * mbw_read,cluster == 'alpha' && nodes == 1,"
        "cluster == 'alpha' && nodes <= 2,\n"
        "nobw,multicore,mbw_read,cluster == 'gamma',,\n"
        "gamma,multicore,procs,cluster == 'gamma',cluster == 'gamma',residuals=absolute\n"
        "badopt,multicore,procs,,,starts=0\n"
        "badkey,multicore,procs,,,colour=blue\n"
        "twice,multicore,procs,,,starts=4;starts=8\n"
        "typo,multicore,procs,,,max_iters=10\n"
        "default,multicore,,cluster != 'gamma',,\n"
        "short,multicore,procs * nodes * mbw_read * platform,cluster != 'gamma',,starts=1;max_iter=1\n"));
    snprintf(path, sizeof path, "%s/mc/README.md", dir);
    CU_ASSERT_FATAL(testutil_write_file(path, "Synthetic runs from a known law (test only).\n"));
}

typedef struct {
    char dir[256];
    archive arch;
    experiment_result res;
} adapter_case;

/* Load the archive (once per case) and run one experiment of campaign mc. */
static bool run_adapter(adapter_case *ac, const char *experiment)
{
    CU_ASSERT_FATAL(testutil_temp_dir(ac->dir, sizeof ac->dir));
    write_adapter_archive(ac->dir);
    diag_list d;
    diag_init(&d);
    archive_load(ac->dir, &ac->arch, &d);
    if (d.count)
        diag_print(&d, stderr);
    CU_ASSERT_EQUAL(d.count, 0);
    diag_free(&d);
    const campaign *c = archive_campaign(&ac->arch, "mc");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    const experiment_info *e = campaign_experiment(c, experiment);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    return experiment_run(&ac->arch, c, e, &ac->res);
}

static void adapter_case_free(adapter_case *ac)
{
    experiment_result_free(&ac->res);
    archive_free(&ac->arch);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", ac->dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static double stat_value(const report *r, const char *name)
{
    const report_stat *s = report_find_stat(r, name);
    if (!s)
        fprintf(stderr, "no stat %s\n", name);
    return s ? s->value : NAN;
}

static bool has_line(char **lines, size_t n, const char *text)
{
    for (size_t i = 0; i < n; i++)
        if (strstr(lines[i], text))
            return true;
    return false;
}

static void test_adapter_interpolation(void)
{
    adapter_case ac;
    bool ok = run_adapter(&ac, "interp");
    if (!ok)
        fprintf(stderr, "interp: %s\n", ac.res.error);
    CU_ASSERT_TRUE_FATAL(ok);
    const report *r = &ac.res.rep;
    CU_ASSERT_STRING_EQUAL(r->model, "multicore");
    CU_ASSERT_STRING_EQUAL(r->formula, "procs * nodes * mbw_read * platform");
    CU_ASSERT_PTR_NOT_NULL(strstr(r->equation, "where procs = 1/(Nc*Nn)"));
    /* scale, then a0 and a1 of each factor. */
    CU_ASSERT_EQUAL_FATAL(r->ncoefs, 9);
    CU_ASSERT_STRING_EQUAL(r->coefs[0].term, "scale");
    CU_ASSERT_STRING_EQUAL(r->coefs[1].term, "procs.a0");
    CU_ASSERT_STRING_EQUAL(r->coefs[8].term, "platform.a1");
    CU_ASSERT_EQUAL(r->nwarnings, 0);
    /* 12 alpha and 16 beta configurations plus one unmeasured beta one. */
    CU_ASSERT_EQUAL(r->npreds, 29);
    CU_ASSERT_EQUAL(stat_value(r, "n"), 28);
    CU_ASSERT_EQUAL(stat_value(r, "converged"), 1);
    CU_ASSERT_EQUAL(stat_value(r, "err_n"), 28);
    CU_ASSERT_TRUE(stat_value(r, "err_max") < 1e-6);
    CU_ASSERT_EQUAL(stat_value(r, "err_n:d300:alpha"), 12);
    CU_ASSERT_EQUAL(stat_value(r, "err_n:d300:beta"), 16);
    CU_ASSERT_TRUE(stat_value(r, "err_mean:d300:beta") < 1e-6);
    CU_ASSERT_TRUE(stat_value(r, "err_min:d300:alpha") <= stat_value(r, "err_max:d300:alpha"));
    CU_ASSERT_TRUE(has_line(r->diagnostics, r->ndiagnostics, "Table II: data set d300 on platform alpha"));
    /* Predictions equal the law; the unmeasured 32-node target is extrapolated. */
    for (size_t i = 0; i < r->npreds; i++) {
        const report_prediction *p = &r->preds[i];
        const target_config *t = &ac.res.input.targets[p->config];
        if (t->nmeasured) {
            CU_ASSERT_TRUE(testutil_rel_diff(p->estimate, t->measured) < 1e-8);
            CU_ASSERT_FALSE(p->extrapolation);
            CU_ASSERT_TRUE(isfinite(p->ci_low) && p->ci_low <= p->estimate && p->estimate <= p->ci_high);
        } else {
            CU_ASSERT_TRUE(p->extrapolation);
            CU_ASSERT_PTR_NOT_NULL(p->note && strstr(p->note, "extrapolation: procs"));
        }
    }
    adapter_case_free(&ac);
}

static void test_adapter_extrapolation_and_cross_platform(void)
{
    adapter_case ac;
    CU_ASSERT_TRUE_FATAL(run_adapter(&ac, "extrap"));
    const report *r = &ac.res.rep;
    CU_ASSERT_EQUAL(stat_value(r, "starts"), 4);
    size_t flagged = 0;
    for (size_t i = 0; i < r->npreds; i++)
        flagged += r->preds[i].extrapolation;
    /* alpha at 8 nodes (3), beta at 8 and 16 nodes (8), beta at 32 nodes (1). */
    CU_ASSERT_EQUAL(flagged, 12);
    CU_ASSERT_TRUE(stat_value(r, "err_max") < 1e-4);
    adapter_case_free(&ac);

    CU_ASSERT_TRUE_FATAL(run_adapter(&ac, "cross"));
    r = &ac.res.rep;
    CU_ASSERT_EQUAL(stat_value(r, "err_n:d300:beta"), 16);
    CU_ASSERT_PTR_NULL(report_find_stat(r, "err_n:d300:alpha"));
    CU_ASSERT_TRUE(stat_value(r, "err_max:d300:beta") < 1e-4);
    adapter_case_free(&ac);
}

static void test_adapter_dropped_factors(void)
{
    adapter_case ac;
    CU_ASSERT_TRUE_FATAL(run_adapter(&ac, "single"));
    const report *r = &ac.res.rep;
    CU_ASSERT_TRUE(has_line(r->warnings, r->nwarnings,
                            "factor nodes (1/Nn) is 1 in every training run: it cannot be identified"));
    CU_ASSERT_TRUE(has_line(r->warnings, r->nwarnings, "factor cores (1/Nc) varies exactly as procs"));
    CU_ASSERT_TRUE(has_line(r->warnings, r->nwarnings, "factor mbw_read (MBW_rd/Nc) varies exactly as procs"));
    CU_ASSERT_EQUAL(stat_value(r, "factors_kept"), 1);
    CU_ASSERT_EQUAL_FATAL(r->ncoefs, 9);
    CU_ASSERT_STRING_EQUAL(r->coefs[3].term, "nodes.a0");
    CU_ASSERT_TRUE(r->coefs[3].aliased);
    CU_ASSERT_FALSE(r->coefs[1].aliased);
    /* Targets on 2 nodes change the dropped factor: flagged, with the reason
     * (at 2 x 4 processes 1/np leaves its range first, and that is said). */
    size_t changed = 0, flagged = 0;
    for (size_t i = 0; i < r->npreds; i++) {
        changed += r->preds[i].note && strstr(r->preds[i].note, "dropped factor was constant");
        flagged += r->preds[i].extrapolation;
    }
    CU_ASSERT_EQUAL(changed, 2);
    CU_ASSERT_EQUAL(flagged, 3);
    adapter_case_free(&ac);
}

static void test_adapter_oversubscribed_and_absolute(void)
{
    adapter_case ac;
    CU_ASSERT_TRUE_FATAL(run_adapter(&ac, "gamma"));
    const report *r = &ac.res.rep;
    CU_ASSERT_EQUAL(r->npreds, 3);
    CU_ASSERT_TRUE(isnan(stat_value(r, "sigma_rel")));
    size_t over = 0;
    for (size_t i = 0; i < r->npreds; i++)
        over += r->preds[i].note && strstr(r->preds[i].note, "oversubscribed: 4 processes per node on 2 cores");
    CU_ASSERT_EQUAL(over, 1);
    /* Three configurations (ppn 1, 2 with two runs, 4); no dataset cell, so
     * the data set is the code and the mesh. */
    CU_ASSERT_EQUAL(stat_value(r, "err_n:mgbench 64x64:gamma"), 3);
    CU_ASSERT_TRUE(has_line(r->diagnostics, r->ndiagnostics,
                            "Table II: data set mgbench 64x64 on platform gamma"));
    adapter_case_free(&ac);
}

static void test_adapter_default_formula(void)
{
    /* No formula: the combination of section II.E. */
    adapter_case ac;
    CU_ASSERT_TRUE_FATAL(run_adapter(&ac, "default"));
    const report *r = &ac.res.rep;
    CU_ASSERT_STRING_EQUAL(r->formula, MULTICORE_DEFAULT_FORMULA);
    CU_ASSERT_STRING_EQUAL(r->formula, "mbw_read * mbw_write * nodes * procs * net_bw * cores");
    CU_ASSERT_EQUAL(r->ncoefs, 13);
    CU_ASSERT_EQUAL(r->npreds, 0);
    CU_ASSERT_EQUAL(stat_value(r, "err_n"), 0);
    adapter_case_free(&ac);
}

static void test_adapter_not_converged(void)
{
    /* One iteration from one start cannot meet the tolerances: said so. */
    adapter_case ac;
    CU_ASSERT_TRUE_FATAL(run_adapter(&ac, "short"));
    const report *r = &ac.res.rep;
    CU_ASSERT_EQUAL(stat_value(r, "converged"), 0);
    CU_ASSERT_EQUAL(stat_value(r, "iterations"), 1);
    CU_ASSERT_TRUE(has_line(r->warnings, r->nwarnings, "did not meet its tolerances"));
    CU_ASSERT_TRUE(has_line(r->diagnostics, r->ndiagnostics, "1 starts, 0 converged"));
    adapter_case_free(&ac);
}

static void test_adapter_errors(void)
{
    static const struct { const char *experiment, *message; } cases[] = {
        {"nobw", "factor mbw_read needs mbw_read_gbs > 0 in clusters.csv for cluster gamma"},
        {"badopt", "option starts=0: expected a whole number from 1 to 1000"},
        {"badkey", "unknown multicore option 'colour' (known: starts, max_iter, residuals, scaling)"},
        {"twice", "option 'starts' given twice"},
        {"typo", "unknown multicore option 'max_iters' (known: starts, max_iter, residuals, "
                 "scaling); did you mean 'max_iter'?"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        adapter_case ac;
        CU_ASSERT_FALSE(run_adapter(&ac, cases[i].experiment));
        if (!strstr(ac.res.error, cases[i].message))
            fprintf(stderr, "%s: got '%s'\n", cases[i].experiment, ac.res.error);
        CU_ASSERT_PTR_NOT_NULL(strstr(ac.res.error, cases[i].message));
        /* An option's problem is named at its cell (it was named at the row). */
        if (strncmp(cases[i].message, "option", 6) == 0 || strstr(cases[i].message, " option "))
            CU_ASSERT_STRING_EQUAL(ac.res.where.cell ? ac.res.where.cell : "", "options");
        adapter_case_free(&ac);
    }
}

/* ---- perfcast on the embedded archive --------------------------------------------- */

/* Column index of name in a CSV header line, or -1. */
static int csv_column(const char *header, const char *name)
{
    int col = 0;
    size_t len = strlen(name);
    for (const char *p = header; *p && *p != '\n'; col++) {
        if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\n' || !p[len]))
            return col;
        p += strcspn(p, ",\n");
        if (*p == ',')
            p++;
    }
    return -1;
}

/* Field col of a CSV line (no quoted fields in these lines) as a number. */
static double csv_number(const char *line, int col)
{
    for (int c = 0; c < col; c++)
        line = strchr(line, ',') + 1;
    return strtod(line, NULL);
}

static void test_cli_embedded_campaign(void)
{
    /* perfcast predict prints the standard columns for a multicore
     * experiment of the embedded archive, and perfcast fit's Table II
     * summary is equation (3) over exactly those rows. */
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "predict --format csv --archive archive "
                                                "mgbench-multicore extrap-6144"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    static const char *const columns[] = {"cluster", "np", "nodes", "ppn", "estimate", "ci_low",
                                          "ci_high", "pi_low", "pi_high", "measured",
                                          "error_pct", "extrapolation"};
    for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
        CU_ASSERT_TRUE(csv_column(out, columns[i]) >= 0);
    int est = csv_column(out, "estimate"), meas = csv_column(out, "measured");
    int extrap = csv_column(out, "extrapolation");
    double sum = 0, max = 0;
    size_t rows = 0;
    for (const char *line = strchr(out, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        double e = multicore_error_pct(csv_number(line + 1, meas), csv_number(line + 1, est));
        CU_ASSERT_TRUE(isfinite(e));
        CU_ASSERT_EQUAL(csv_number(line + 1, extrap), 1);   /* np 3 and 4 lie beyond np <= 2 */
        sum += e;
        max = fmax(max, e);
        rows++;
    }
    CU_ASSERT_EQUAL(rows, 2);
    free(out);

    out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "fit --format json --archive archive "
                                                "mgbench-multicore extrap-6144"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    /* The CSV prints 10 significant digits. */
    CU_ASSERT_DOUBLE_EQUAL(testutil_json_number(out, "err_mean:mgbench 6144x6144:ci-2core"),
                           sum / (double)rows, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(testutil_json_number(out, "err_max:mgbench 6144x6144:ci-2core"), max,
                           1e-6);
    CU_ASSERT_EQUAL(testutil_json_number(out, "err_n:mgbench 6144x6144:ci-2core"), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "factor nodes (1/Nn) is 1 in every training run"));
    free(out);

    out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "fit --archive archive mgbench-multicore "
                                                "interp-3072"), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "Table II: data set mgbench 3072x3072 on platform ci-2core"));
    free(out);
}

static const testutil_test adapter_tests[] = {
    {"interpolation: report, Table II stats, intervals", test_adapter_interpolation},
    {"extrapolation in nodes and cross-platform", test_adapter_extrapolation_and_cross_platform},
    {"dropped factors are reported and aliased", test_adapter_dropped_factors},
    {"oversubscription note, absolute residuals", test_adapter_oversubscribed_and_absolute},
    {"an empty formula means section II.E's factors", test_adapter_default_formula},
    {"a fit that stops early is reported as not converged", test_adapter_not_converged},
    {"clear errors for missing bandwidth and bad options", test_adapter_errors},
    {"perfcast predict/fit on the embedded mgbench-multicore campaign", test_cli_embedded_campaign},
    {NULL, NULL},
};

static const testutil_test formula_tests[] = {
    {"formula parsing and errors", test_parse_formula},
    {"z of every factor (section II.E)", test_factor_z},
    {"error = 100*|actual-predicted|/actual (equation 3)", test_error_equation3},
    {NULL, NULL},
};

static const testutil_test law_tests[] = {
    {"exact laws with 3 to 7 factors are recovered to 1e-6", test_exact_laws_3_to_7_factors},
    {"laws with 2% noise: mean error under 2%", test_noisy_laws_3_to_7_factors},
    {"the seven factors of equation (2) on four platforms", test_paper_factors_seven},
    {"values and delta-method intervals agree with R nls", test_against_r_nls},
    {NULL, NULL},
};

static const testutil_test identifiability_tests[] = {
    {"constant and duplicate factors are dropped", test_constant_factor_dropped},
    {"no factor varies: a constant model", test_all_factors_constant},
    {"more parameters than distinct configurations: flagged", test_rank_deficient},
    {"bad input, too few runs, no degrees of freedom", test_bad_input},
    {NULL, NULL},
};

static const testutil_test mode_tests[] = {
    {"extrapolation in nodes (8-32 -> 128)", test_extrapolation_in_nodes},
    {"cross-platform through the platform contribution", test_cross_platform},
    {NULL, NULL},
};

int main(void)
{
    static const testutil_suite suites[] = {
        {"multicore factors and errors", formula_tests},
        {"multicore laws", law_tests},
        {"multicore identifiability", identifiability_tests},
        {"multicore validation modes", mode_tests},
        {"multicore adapter", adapter_tests},
        {NULL, NULL},
    };
    return testutil_run_suites(suites);
}
