/*
 * test_multicore.c — the multicore regression of seed 003: factor
 * definitions, formula parsing, the paper's error (3), recovery of known
 * product laws (3 to 7 factors, exact and with 2% noise), the dropping of
 * unidentifiable factors, the validation modes of section V (interpolation,
 * extrapolation in nodes, cross-platform), delta-method values against R,
 * and the gen/ adapter.
 */
#include "models/multicore.h"
#include "tests/testutil.h"
#include "tests/test_multicore_util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The maximum relative difference between fitted and true predictions over
 * the training runs and over fresh points inside the training box. */
static double max_prediction_gap(const multicore_fit *fit, const law *lw, const runs *r, rng *g)
{
    double worst = 0;
    multicore_prediction p;
    for (size_t j = 0; j < r->n; j++) {
        CU_ASSERT_EQUAL_FATAL(multicore_predict(fit, &r->z[j * r->m], &p), MULTICORE_OK);
        worst = fmax(worst, testutil_rel_diff(p.estimate, law_value(lw, &r->z[j * r->m])));
    }
    double z0[MULTICORE_MAX_FACTORS];
    for (size_t k = 0; k < 20; k++) {
        for (size_t i = 0; i < r->m; i++) {
            const multicore_factor_fit *f = &fit->factors[i];
            z0[i] = f->zmin + (f->zmax - f->zmin) * rng_uniform(g);
        }
        CU_ASSERT_EQUAL_FATAL(multicore_predict(fit, z0, &p), MULTICORE_OK);
        worst = fmax(worst, testutil_rel_diff(p.estimate, law_value(lw, z0)));
    }
    return worst;
}

/* Fitted coefficients equal the law's once both are normalised to 1 at zref. */
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
        multicore_options o;
        multicore_options_default(&o);
        multicore_fit fit;
        char err[200] = "";
        CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){r.n, m, r.z, r.y}, &o, &fit, err,
                                                sizeof err), MULTICORE_OK);
        CU_ASSERT_TRUE(fit.converged);
        CU_ASSERT_EQUAL(fit.nkept, m);
        CU_ASSERT_TRUE(fit.identifiable);
        CU_ASSERT_TRUE(fit.sigma < 1e-9);
        double gap = max_prediction_gap(&fit, &lw, &r, &g);
        if (gap >= 1e-6)
            fprintf(stderr, "m=%zu: prediction gap %g\n", m, gap);
        CU_ASSERT_TRUE(gap < 1e-6);
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
        multicore_options o;
        multicore_options_default(&o);
        multicore_fit fit;
        char err[200] = "";
        CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){r.n, m, r.z, r.y}, &o, &fit, err,
                                                sizeof err), MULTICORE_OK);
        CU_ASSERT_TRUE(fit.converged);
        fit_quality q = assess_fit(&fit, &lw, &r);
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
        multicore_options o;
        multicore_options_default(&o);
        multicore_fit fit;
        char err[200] = "";
        CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){r.n, r.m, r.z, r.y}, &o, &fit, err,
                                                sizeof err), MULTICORE_OK);
        CU_ASSERT_EQUAL(fit.nkept, 7);
        CU_ASSERT_TRUE(fit.converged);
        fit_quality q = assess_fit(&fit, &lw, &r);
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
    /* One node throughout: 1/Nn is 1 in every run and cannot be identified. */
    multicore_factor fs[] = {MULTICORE_NODES, MULTICORE_PROCS, MULTICORE_MBW_READ};
    law lw = {3, 50, {0.5, 0.2, 0.3}, {0.5, 0.8, 0.07}};
    runs r;
    layout_runs(&r, &lw, fs, 3, (double[]){1}, 1, (double[]){1, 2, 4, 8}, 4, 0.0);
    multicore_options o;
    multicore_options_default(&o);
    multicore_fit fit;
    char err[200] = "";
    CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){r.n, r.m, r.z, r.y}, &o, &fit, err,
                                            sizeof err), MULTICORE_OK);
    CU_ASSERT_EQUAL(fit.factors[0].status, MULTICORE_CONSTANT);
    CU_ASSERT_DOUBLE_EQUAL(fit.factors[0].zref, 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(fit.factors[0].c, 0, 0);
    CU_ASSERT_TRUE(isnan(fit.factors[0].se_a0));
    /* mbw_read = 10/ppn is procs = 1/ppn times 10: the same information. */
    CU_ASSERT_EQUAL(fit.factors[1].status, MULTICORE_KEPT);
    CU_ASSERT_EQUAL(fit.factors[2].status, MULTICORE_DUPLICATE);
    CU_ASSERT_EQUAL(fit.factors[2].duplicate_of, 1);
    CU_ASSERT_DOUBLE_EQUAL(fit.factors[2].dup_slope, 10, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(fit.factors[2].dup_offset, 0, 1e-9);
    CU_ASSERT_EQUAL(fit.nkept, 1);
    /* Four configurations, two parameters: the law (quadratic in 1/ppn) is
     * not representable, but the fit is finite and honest about it. */
    CU_ASSERT_TRUE(isfinite(fit.scale) && isfinite(fit.sigma));
    multicore_prediction p;
    double z_same[] = {1, 0.25, 2.5}, z_two_nodes[] = {0.5, 0.125, 2.5}, z_far[] = {1, 1.0 / 16, 10.0 / 16};
    CU_ASSERT_EQUAL(multicore_predict(&fit, z_same, &p), MULTICORE_OK);
    CU_ASSERT_EQUAL(p.extrapolation, MULTICORE_INSIDE);
    CU_ASSERT_TRUE(isfinite(p.ci_low) && p.ci_low < p.estimate && p.estimate < p.ci_high);
    CU_ASSERT_EQUAL(multicore_predict(&fit, z_two_nodes, &p), MULTICORE_OK);
    CU_ASSERT_EQUAL(p.extrapolation, MULTICORE_DROPPED_CHANGED);
    CU_ASSERT_EQUAL(p.extrapolation_factor, 0);
    CU_ASSERT_EQUAL(multicore_predict(&fit, z_far, &p), MULTICORE_OK);
    CU_ASSERT_EQUAL(p.extrapolation, MULTICORE_OUTSIDE_RANGE);
    CU_ASSERT_EQUAL(p.extrapolation_factor, 1);
    multicore_fit_free(&fit);
    runs_free(&r);
}

static void test_all_factors_constant(void)
{
    /* Nothing varies: the model is the mean time (relative residuals: the
     * value minimising sum ((C - y)/y)^2 is sum(1/y) / sum(1/y^2)). */
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
    /* Two factors, three parameters, two runs. */
    double z2[] = {1, 2, 2, 5};
    CU_ASSERT_EQUAL(multicore_fit_run(&(multicore_data){2, 2, z2, y}, &o, &fit, err, sizeof err),
                    MULTICORE_ETOOFEW);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "2 training runs for 3 parameters"));
    multicore_fit_free(&fit);
    CU_ASSERT_EQUAL(multicore_fit_run(&(multicore_data){0, 1, z, y}, &o, &fit, err, sizeof err),
                    MULTICORE_ETOOFEW);
    multicore_fit_free(&fit);
    o.starts = 0;
    CU_ASSERT_EQUAL(multicore_fit_run(&(multicore_data){4, 1, z, y}, &o, &fit, err, sizeof err),
                    MULTICORE_EINVAL);
    multicore_fit_free(&fit);
    /* Exactly as many runs as parameters: a fit, but no sigma and no intervals. */
    multicore_options_default(&o);
    double y2[] = {4, 3};
    CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){2, 1, z, y2}, &o, &fit, err, sizeof err),
                          MULTICORE_OK);
    CU_ASSERT_EQUAL(fit.df, 0);
    CU_ASSERT_TRUE(isnan(fit.sigma));
    CU_ASSERT_PTR_NULL(fit.cov);
    multicore_prediction p;
    CU_ASSERT_EQUAL(multicore_predict(&fit, (double[]){1.5}, &p), MULTICORE_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.estimate, 3.5, 1e-9);
    CU_ASSERT_TRUE(isnan(p.ci_low) && isnan(p.pi_high));
    CU_ASSERT_EQUAL(multicore_predict(&fit, (double[]){-1}, &p), MULTICORE_EINVAL);
    multicore_fit_free(&fit);
}

/* ---- validation modes of section V ------------------------------------------- */

static void test_extrapolation_in_nodes(void)
{
    /* Section V.A: train on 8, 16 and 32 nodes, predict up to 128. */
    multicore_factor fs[] = {MULTICORE_PROCS, MULTICORE_NODES, MULTICORE_CORES};
    law lw = {3, 900, {0.15, 0.4, 0.7}, {0.85, 9.6, 0.3}};
    for (int noisy = 0; noisy <= 1; noisy++) {
        runs train, all;
        double ppn[] = {1, 2, 4};
        layout_runs(&train, &lw, fs, 3, (double[]){8, 16, 32}, 3, ppn, 3, noisy ? 0.02 : 0);
        layout_runs(&all, &lw, fs, 3, (double[]){8, 16, 32, 64, 128}, 5, ppn, 3, 0);
        multicore_options o;
        multicore_options_default(&o);
        multicore_fit fit;
        char err[200] = "";
        CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){train.n, 3, train.z, train.y}, &o,
                                                &fit, err, sizeof err), MULTICORE_OK);
        CU_ASSERT_EQUAL(fit.nkept, 3);
        double worst = 0;
        size_t flagged = 0;
        for (size_t j = 0; j < all.n; j++) {
            multicore_prediction p;
            CU_ASSERT_EQUAL_FATAL(multicore_predict(&fit, &all.z[j * 3], &p), MULTICORE_OK);
            worst = fmax(worst, multicore_error_pct(all.y[j], p.estimate));
            flagged += p.extrapolation == MULTICORE_OUTSIDE_RANGE;
        }
        /* 64 and 128 nodes lie outside the training range of 1/Nn. */
        CU_ASSERT_EQUAL(flagged, 2 * 3);
        if (!noisy)
            CU_ASSERT_TRUE(worst < 1e-4);
        else
            CU_ASSERT_TRUE(worst < 5);
        multicore_fit_free(&fit);
        runs_free(&train);
        runs_free(&all);
    }
}

static void test_cross_platform(void)
{
    /* Section V.C: train on two platforms with their platform contributions
     * (and bandwidths), predict each. Platform X runs 4..16 nodes, Y runs
     * 8..64; predictions on X at Y's node counts are checked too. */
    for (int noisy = 0; noisy <= 1; noisy++) {
        cross_platform_case cp;
        cross_platform_build(&cp, noisy ? 0.02 : 0.0);
        multicore_options o;
        multicore_options_default(&o);
        multicore_fit fit;
        char err[200] = "";
        CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){cp.train.n, cp.train.m, cp.train.z,
                                                cp.train.y}, &o, &fit, err, sizeof err), MULTICORE_OK);
        CU_ASSERT_EQUAL(fit.nkept, cp.train.m);
        for (int pf = 0; pf < 2; pf++) {
            double errs[64];
            size_t n = 0;
            for (size_t j = 0; j < cp.target[pf].n; j++) {
                multicore_prediction p;
                CU_ASSERT_EQUAL_FATAL(multicore_predict(&fit, &cp.target[pf].z[j * cp.target[pf].m], &p),
                                      MULTICORE_OK);
                errs[n++] = multicore_error_pct(cp.target[pf].y[j], p.estimate);
            }
            multicore_error_summary s;
            multicore_summarise_errors(errs, n, &s);
            CU_ASSERT_EQUAL(s.n, cp.target[pf].n);
            if (!noisy)
                CU_ASSERT_TRUE(s.max < 1e-4);
            else
                CU_ASSERT_TRUE(s.mean < 2 && s.max < 6);
        }
        multicore_fit_free(&fit);
        cross_platform_free(&cp);
    }
}

/* ---- against R --------------------------------------------------------------- */

#include "tests/fixtures/multicore/reference_values.h"

static void test_against_r_nls(void)
{
    /* tests/fixtures/multicore/reference.R fits the same law with R's nls
     * (Gauss-Newton, weights 1/y^2) on the data in reference_values.h and
     * computes the delta-method intervals with R's own vcov(). */
    multicore_options o;
    multicore_options_default(&o);
    multicore_fit fit;
    char err[200] = "";
    CU_ASSERT_EQUAL_FATAL(multicore_fit_run(&(multicore_data){REF_N, REF_M, ref_z, ref_y}, &o, &fit, err,
                                            sizeof err), MULTICORE_OK);
    CU_ASSERT_TRUE(testutil_rel_diff(fit.scale, ref_scale) < 1e-6);
    CU_ASSERT_TRUE(testutil_rel_diff(fit.se_scale, ref_se_scale) < 1e-4);
    for (size_t i = 0; i < REF_M; i++) {
        CU_ASSERT_TRUE(testutil_rel_diff(fit.factors[i].a0, ref_a0[i]) < 1e-6);
        CU_ASSERT_TRUE(testutil_rel_diff(fit.factors[i].a1, ref_a1[i]) < 1e-6);
        CU_ASSERT_TRUE(testutil_rel_diff(fit.factors[i].se_a0, ref_se_a0[i]) < 1e-4);
        CU_ASSERT_TRUE(testutil_rel_diff(fit.factors[i].se_a1, ref_se_a1[i]) < 1e-4);
    }
    CU_ASSERT_TRUE(testutil_rel_diff(fit.sigma, ref_sigma) < 1e-6);
    multicore_prediction p;
    CU_ASSERT_EQUAL_FATAL(multicore_predict(&fit, ref_z0, &p), MULTICORE_OK);
    CU_ASSERT_TRUE(testutil_rel_diff(p.estimate, ref_pred) < 1e-6);
    CU_ASSERT_TRUE(testutil_rel_diff(p.ci_low, ref_ci_low) < 1e-5);
    CU_ASSERT_TRUE(testutil_rel_diff(p.ci_high, ref_ci_high) < 1e-5);
    CU_ASSERT_TRUE(testutil_rel_diff(p.pi_low, ref_pi_low) < 1e-5);
    CU_ASSERT_TRUE(testutil_rel_diff(p.pi_high, ref_pi_high) < 1e-5);
    multicore_fit_free(&fit);
}

/* ---- the gen/ adapter ---------------------------------------------------------- */

#include "tests/test_multicore_adapter.h"

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
