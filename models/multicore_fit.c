/*
 * multicore_fit.c — fitting the product law of models/multicore.h:
 * identifiability screening, log-linear starting values, several
 * Levenberg-Marquardt starts (GSL multifit_nlinear), and the covariance of
 * the winner for the delta method.
 *
 * Parameters: theta = (scale, c_1 .. c_k) over the k kept factors, with
 * u_jk = z_jk / zref_k - 1 and prediction scale * prod_k (1 + c_k u_jk).
 */
#include "models/multicore.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>

/* A factor is constant when its z varies by less than this, relatively. */
#define CONSTANT_TOL 1e-9
/* A factor duplicates another when the affine fit between their z leaves
 * residuals below this fraction of its range. */
#define DUPLICATE_TOL 1e-9
/* Scaled singular values below this fraction of the largest: rank-deficient. */
#define RANK_TOL 1e-9

/* What the residual and Jacobian callbacks see. */
typedef struct {
    size_t n, k;
    const double *u; /* n*k normalised z of the kept factors */
    const double *y;
    const double *w; /* residual weights: 1/y (relative) or 1 */
} problem;

/* The k factor values of run j and their product. */
static double factor_values(const problem *pb, const gsl_vector *x, size_t j, double *f)
{
    double prod = 1;
    for (size_t i = 0; i < pb->k; i++) {
        f[i] = 1 + gsl_vector_get(x, 1 + i) * pb->u[j * pb->k + i];
        prod *= f[i];
    }
    return prod;
}

static int residuals_f(const gsl_vector *x, void *params, gsl_vector *r)
{
    const problem *pb = params;
    double f[MULTICORE_MAX_FACTORS];
    double scale = gsl_vector_get(x, 0);
    for (size_t j = 0; j < pb->n; j++) {
        double v = pb->w[j] * (scale * factor_values(pb, x, j, f) - pb->y[j]);
        if (!isfinite(v))
            return GSL_EBADFUNC;
        gsl_vector_set(r, j, v);
    }
    return GSL_SUCCESS;
}

static int jacobian_df(const gsl_vector *x, void *params, gsl_matrix *J)
{
    const problem *pb = params;
    double f[MULTICORE_MAX_FACTORS];
    double scale = gsl_vector_get(x, 0);
    for (size_t j = 0; j < pb->n; j++) {
        double prod = factor_values(pb, x, j, f);
        gsl_matrix_set(J, j, 0, pb->w[j] * prod);
        for (size_t a = 0; a < pb->k; a++) {
            /* Product of the other factors, without dividing by f[a] (it may be 0). */
            double others = 1;
            for (size_t b = 0; b < pb->k; b++)
                if (b != a)
                    others *= f[b];
            double v = pb->w[j] * scale * pb->u[j * pb->k + a] * others;
            if (!isfinite(v))
                return GSL_EBADFUNC;
            gsl_matrix_set(J, j, 1 + a, v);
        }
    }
    return GSL_SUCCESS;
}

static bool positive(double v)
{
    return isfinite(v) && v > 0;
}

static multicore_status check_input(const multicore_data *d, const multicore_options *o,
                                    char *err, size_t errlen)
{
    if (d->m < 1 || d->m > MULTICORE_MAX_FACTORS) {
        snprintf(err, errlen, "a multicore fit needs 1 to %d factors, not %zu",
                 MULTICORE_MAX_FACTORS, d->m);
        return MULTICORE_EINVAL;
    }
    if (o->starts < 1 || o->max_iter < 1) {
        snprintf(err, errlen, "the multicore fit needs at least one start and one iteration");
        return MULTICORE_EINVAL;
    }
    for (size_t j = 0; j < d->n; j++) {
        if (!positive(d->y[j])) {
            snprintf(err, errlen, "training run %zu: the response must be a number > 0", j + 1);
            return MULTICORE_EINVAL;
        }
        for (size_t i = 0; i < d->m; i++)
            if (!positive(d->z[j * d->m + i])) {
                snprintf(err, errlen, "training run %zu: z of factor %zu must be a number > 0",
                         j + 1, i + 1);
                return MULTICORE_EINVAL;
            }
    }
    return MULTICORE_OK;
}

/* Mean and range of every factor's z. */
static void describe_factors(const multicore_data *d, multicore_fit *fit)
{
    for (size_t i = 0; i < d->m; i++) {
        multicore_factor_fit *f = &fit->factors[i];
        double sum = 0;
        f->zmin = f->zmax = d->z[i];
        for (size_t j = 0; j < d->n; j++) {
            double z = d->z[j * d->m + i];
            sum += z;
            f->zmin = fmin(f->zmin, z);
            f->zmax = fmax(f->zmax, z);
        }
        f->zref = sum / (double)d->n;
        f->a0 = 1;
        f->a1 = 0;
        f->se_a0 = f->se_a1 = NAN;
    }
}

/* Least-squares line z_i = slope * z_k + offset; true when it is exact. */
static bool affine_in(const multicore_data *d, const multicore_fit *fit, size_t i, size_t k,
                      double *slope, double *offset)
{
    const multicore_factor_fit *fi = &fit->factors[i], *fk = &fit->factors[k];
    double sxy = 0, sxx = 0;
    for (size_t j = 0; j < d->n; j++) {
        double dx = d->z[j * d->m + k] - fk->zref, dy = d->z[j * d->m + i] - fi->zref;
        sxy += dx * dy;
        sxx += dx * dx;
    }
    *slope = sxy / sxx;
    *offset = fi->zref - *slope * fk->zref;
    if (fabs(*offset) <= 1e-12 * fi->zref)
        *offset = 0; /* proportional: keep rounding noise out of messages */
    for (size_t j = 0; j < d->n; j++) {
        double fitted = *slope * d->z[j * d->m + k] + *offset;
        if (fabs(d->z[j * d->m + i] - fitted) > DUPLICATE_TOL * (fi->zmax - fi->zmin))
            return false;
    }
    return true;
}

/* Drop constant factors and factors affine in an earlier kept one. */
static void screen_factors(const multicore_data *d, multicore_fit *fit)
{
    fit->nkept = 0;
    for (size_t i = 0; i < d->m; i++) {
        multicore_factor_fit *f = &fit->factors[i];
        f->status = MULTICORE_KEPT;
        if (f->zmax - f->zmin <= CONSTANT_TOL * f->zmax) {
            f->status = MULTICORE_CONSTANT;
            continue;
        }
        for (size_t k = 0; k < i; k++)
            if (fit->factors[k].status == MULTICORE_KEPT &&
                affine_in(d, fit, i, k, &f->dup_slope, &f->dup_offset)) {
                f->status = MULTICORE_DUPLICATE;
                f->duplicate_of = k;
                break;
            }
        if (f->status == MULTICORE_KEPT)
            fit->nkept++;
    }
}

/* Log-linear start: log y = b0 + sum p_k log z_k; a power law linearised at
 * zref has c_k = p_k and scale = exp(b0 + sum p_k log zref_k). Truncated SVD
 * copes with log-collinear factors (procs = nodes * cores). */
static bool loglinear_start(const multicore_data *d, const multicore_fit *fit,
                            const size_t *kept, gsl_vector *x0)
{
    size_t n = d->n, p = 1 + fit->nkept;
    gsl_matrix *X = gsl_matrix_alloc(n, p);
    gsl_vector *ly = gsl_vector_alloc(n), *b = gsl_vector_alloc(p);
    gsl_matrix *cov = gsl_matrix_alloc(p, p);
    gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, p);
    bool ok = X && ly && b && cov && ws;
    if (ok) {
        for (size_t j = 0; j < n; j++) {
            gsl_matrix_set(X, j, 0, 1);
            for (size_t a = 0; a < fit->nkept; a++)
                gsl_matrix_set(X, j, 1 + a, log(d->z[j * d->m + kept[a]]));
            gsl_vector_set(ly, j, log(d->y[j]));
        }
        double chisq;
        size_t rank;
        ok = gsl_multifit_linear_tsvd(X, ly, 1e-10, b, cov, &chisq, &rank, ws) == GSL_SUCCESS;
    }
    if (ok) {
        double logscale = gsl_vector_get(b, 0);
        for (size_t a = 0; a < fit->nkept; a++) {
            logscale += gsl_vector_get(b, 1 + a) * log(fit->factors[kept[a]].zref);
            gsl_vector_set(x0, 1 + a, gsl_vector_get(b, 1 + a));
        }
        gsl_vector_set(x0, 0, exp(logscale));
        ok = isfinite(gsl_vector_get(x0, 0));
    }
    gsl_multifit_linear_free(ws);
    gsl_matrix_free(cov);
    gsl_vector_free(b);
    gsl_vector_free(ly);
    gsl_matrix_free(X);
    return ok;
}

/* The best scale for the slopes in x (weighted least squares in one unknown). */
static void best_scale(const problem *pb, gsl_vector *x)
{
    double f[MULTICORE_MAX_FACTORS], num = 0, den = 0, logsum = 0;
    for (size_t j = 0; j < pb->n; j++) {
        double g = factor_values(pb, x, j, f), w2 = pb->w[j] * pb->w[j];
        num += w2 * g * pb->y[j];
        den += w2 * g * g;
        logsum += log(pb->y[j]);
    }
    double scale = num / den;
    gsl_vector_set(x, 0, isfinite(scale) && scale > 0 ? scale : exp(logsum / (double)pb->n));
}

/* Starting point number s (0 = the log-linear start itself). Later starts
 * are reproducible perturbations: all slopes 1 (pure proportionality), all
 * 0 (no effect), then the log-linear slopes times multipliers in [-0.5, 2)
 * from a small linear congruential generator seeded by s. */
static void make_start(const problem *pb, const gsl_vector *loglin, size_t s, gsl_vector *x)
{
    gsl_vector_memcpy(x, loglin);
    if (s == 0)
        return;
    unsigned long state = 2654435761ul * (unsigned long)s + 12345ul;
    for (size_t a = 0; a < pb->k; a++) {
        double c = gsl_vector_get(loglin, 1 + a);
        if (s == 1)
            c = 1;
        else if (s == 2)
            c = 0;
        else {
            state = (state * 6364136223846793005ul + 1442695040888963407ul) & 0xfffffffffffful;
            c *= -0.5 + 2.5 * (double)(state >> 16) / 4294967296.0;
        }
        gsl_vector_set(x, 1 + a, c);
    }
    best_scale(pb, x);
}

typedef struct {
    gsl_vector *x;
    double cost;
    bool converged;
    size_t iterations;
} start_result;

/* Run LM from x0; fills res (cost INFINITY when the start failed). */
static void run_start(gsl_multifit_nlinear_workspace *ws, gsl_multifit_nlinear_fdf *fdf,
                      const gsl_vector *x0, size_t max_iter, start_result *res)
{
    res->cost = INFINITY;
    res->converged = false;
    res->iterations = 0;
    if (gsl_multifit_nlinear_init(x0, fdf, ws) != GSL_SUCCESS)
        return;
    int info = 0;
    int status = gsl_multifit_nlinear_driver(max_iter, 1e-12, 1e-12, 0.0, NULL, NULL, &info, ws);
    gsl_vector *r = gsl_multifit_nlinear_residual(ws);
    double norm = gsl_blas_dnrm2(r);
    if (status == GSL_EBADFUNC || !isfinite(norm))
        return;
    /* No progress or the iteration limit can still mean "at the minimum to
     * working precision": accept it when looser tolerances are met. */
    res->converged = status == GSL_SUCCESS ||
                     gsl_multifit_nlinear_test(1e-8, 1e-8, 0.0, &info, ws) == GSL_SUCCESS;
    res->cost = norm * norm;
    res->iterations = gsl_multifit_nlinear_niter(ws);
    gsl_vector_memcpy(res->x, gsl_multifit_nlinear_position(ws));
}

/* Run every start and keep the lowest cost in best. */
static bool fit_starts(const problem *pb, const multicore_data *d, const multicore_options *o,
                       multicore_fit *fit, const size_t *kept, start_result *best)
{
    size_t p = 1 + pb->k;
    gsl_multifit_nlinear_parameters params = gsl_multifit_nlinear_default_parameters();
    params.trs = gsl_multifit_nlinear_trs_lm;
    gsl_multifit_nlinear_workspace *ws =
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &params, pb->n, p);
    gsl_vector *loglin = gsl_vector_alloc(p), *x0 = gsl_vector_alloc(p);
    start_result cur = {gsl_vector_alloc(p), INFINITY, false, 0};
    bool ok = ws && loglin && x0 && cur.x;
    double *costs = ok ? malloc(o->starts * sizeof *costs) : NULL;
    bool *conv = ok ? malloc(o->starts * sizeof *conv) : NULL;
    ok = ok && costs && conv;
    if (ok && !loglinear_start(d, fit, kept, loglin)) {
        gsl_vector_set_all(loglin, 1);
        best_scale(pb, loglin);
    }
    gsl_multifit_nlinear_fdf fdf = {
        .f = residuals_f, .df = jacobian_df, .fvv = NULL, .n = pb->n, .p = p, .params = (void *)pb,
    };
    for (size_t s = 0; ok && s < o->starts; s++) {
        make_start(pb, loglin, s, x0);
        run_start(ws, &fdf, x0, o->max_iter, &cur);
        costs[s] = cur.cost;
        conv[s] = cur.converged;
        if (cur.cost < best->cost) {
            gsl_vector_memcpy(best->x, cur.x);
            best->cost = cur.cost;
            best->converged = cur.converged;
            best->iterations = cur.iterations;
        }
    }
    /* "At the best" compares residual norms, relatively, with a floor far
     * below any data's own size for fits that are exact to rounding. */
    double floor = 0;
    for (size_t j = 0; j < pb->n; j++)
        floor += pb->w[j] * pb->y[j] * pb->w[j] * pb->y[j];
    floor = 1e-10 * sqrt(floor);
    fit->starts = o->starts;
    for (size_t s = 0; ok && s < o->starts; s++) {
        fit->starts_converged += conv[s];
        fit->starts_at_best += conv[s] && sqrt(costs[s]) <= sqrt(best->cost) * (1 + 1e-6) + floor;
    }
    free(conv);
    free(costs);
    gsl_vector_free(cur.x);
    gsl_vector_free(x0);
    gsl_vector_free(loglin);
    gsl_multifit_nlinear_free(ws);
    return ok;
}

/* (J'J)^-1 at x through the SVD of the column-scaled Jacobian, into
 * fit->cov scaled by sigma^2; clears fit->identifiable on rank deficiency. */
static bool covariance(const problem *pb, const gsl_vector *x, multicore_fit *fit)
{
    size_t n = pb->n, p = 1 + pb->k;
    gsl_matrix *J = gsl_matrix_alloc(n, p), *V = gsl_matrix_alloc(p, p);
    gsl_vector *S = gsl_vector_alloc(p), *work = gsl_vector_alloc(p), *D = gsl_vector_alloc(p);
    bool ok = J && V && S && work && D;
    fit->identifiable = false;
    /* A Jacobian that overflows at the solution gives no covariance; that is
     * a property of the fit, not a failure. */
    bool finite = ok && jacobian_df(x, (void *)pb, J) == GSL_SUCCESS;
    for (size_t a = 0; finite && a < p; a++) {
        gsl_vector_view col = gsl_matrix_column(J, a);
        double norm = gsl_blas_dnrm2(&col.vector);
        gsl_vector_set(D, a, norm > 0 ? 1 / norm : 0);
        gsl_vector_scale(&col.vector, gsl_vector_get(D, a));
    }
    finite = finite && gsl_linalg_SV_decomp(J, V, S, work) == GSL_SUCCESS;
    if (finite) {
        double smax = gsl_vector_get(S, 0);
        fit->identifiable = smax > 0 && gsl_vector_get(S, p - 1) > RANK_TOL * smax;
    }
    if (ok && fit->identifiable && fit->df > 0) {
        fit->cov = calloc(p * p, sizeof *fit->cov);
        ok = fit->cov != NULL;
        double s2 = fit->sigma * fit->sigma;
        for (size_t a = 0; ok && a < p; a++)
            for (size_t b = 0; b < p; b++) {
                double v = 0;
                for (size_t l = 0; l < p; l++) {
                    double sl = gsl_vector_get(S, l);
                    v += gsl_matrix_get(V, a, l) * gsl_matrix_get(V, b, l) / (sl * sl);
                }
                fit->cov[a * p + b] = s2 * v * gsl_vector_get(D, a) * gsl_vector_get(D, b);
            }
    }
    gsl_vector_free(D);
    gsl_vector_free(work);
    gsl_vector_free(S);
    gsl_matrix_free(V);
    gsl_matrix_free(J);
    return ok;
}

/* Copy the winning parameters into the factors and work out the statistics. */
static void record_solution(const problem *pb, const gsl_vector *x, const size_t *kept,
                            multicore_fit *fit)
{
    double f[MULTICORE_MAX_FACTORS], ss_abs = 0;
    fit->scale = gsl_vector_get(x, 0);
    for (size_t a = 0; a < pb->k; a++) {
        multicore_factor_fit *ff = &fit->factors[kept[a]];
        ff->c = gsl_vector_get(x, 1 + a);
        ff->a0 = 1 - ff->c;
        ff->a1 = ff->c / ff->zref;
    }
    for (size_t j = 0; j < pb->n; j++) {
        double e = fit->scale * factor_values(pb, x, j, f) - pb->y[j];
        ss_abs += e * e;
    }
    fit->sigma = fit->df > 0 ? sqrt(fit->cost / (double)fit->df) : NAN;
    fit->sigma_abs = fit->df > 0 ? sqrt(ss_abs / (double)fit->df) : NAN;
}

/* Standard errors of scale, a0 and a1 from fit->cov. */
static void record_errors(const size_t *kept, multicore_fit *fit)
{
    size_t p = 1 + fit->nkept;
    fit->se_scale = fit->cov ? sqrt(fit->cov[0]) : NAN;
    for (size_t a = 0; a < fit->nkept; a++) {
        multicore_factor_fit *ff = &fit->factors[kept[a]];
        double se_c = fit->cov ? sqrt(fit->cov[(1 + a) * p + 1 + a]) : NAN;
        ff->se_a0 = se_c;
        ff->se_a1 = se_c / ff->zref;
    }
}

/* Normalised z of the kept factors and the residual weights. */
static void build_problem(const multicore_data *d, const multicore_fit *fit, const size_t *kept,
                          double *u, double *w, problem *pb)
{
    for (size_t j = 0; j < d->n; j++) {
        for (size_t a = 0; a < fit->nkept; a++)
            u[j * fit->nkept + a] = d->z[j * d->m + kept[a]] / fit->factors[kept[a]].zref - 1;
        w[j] = fit->residuals == MULTICORE_RELATIVE ? 1 / d->y[j] : 1;
    }
    *pb = (problem){d->n, fit->nkept, u, d->y, w};
}

multicore_status multicore_fit_run(const multicore_data *d, const multicore_options *o,
                                   multicore_fit *fit, char *err, size_t errlen)
{
    memset(fit, 0, sizeof *fit);
    fit->scale = fit->se_scale = fit->sigma = fit->sigma_abs = fit->cost = NAN;
    fit->residuals = o->residuals;
    fit->n = d->n;
    multicore_status st = check_input(d, o, err, errlen);
    if (st != MULTICORE_OK)
        return st;
    if (d->n == 0) {
        snprintf(err, errlen, "no training runs");
        return MULTICORE_ETOOFEW;
    }
    fit->m = d->m;
    if (!(fit->factors = calloc(d->m, sizeof *fit->factors)))
        return MULTICORE_ENOMEM;
    describe_factors(d, fit);
    screen_factors(d, fit);
    size_t p = 1 + fit->nkept;
    if (d->n < p) {
        snprintf(err, errlen, "%zu training runs for %zu parameters: the multicore fit needs "
                 "at least as many runs as parameters", d->n, p);
        return MULTICORE_ETOOFEW;
    }
    fit->df = d->n - p;

    size_t kept[MULTICORE_MAX_FACTORS];
    for (size_t i = 0, a = 0; i < d->m; i++)
        if (fit->factors[i].status == MULTICORE_KEPT)
            kept[a++] = i;
    double *u = malloc((d->n * fit->nkept + 1) * sizeof *u);
    double *w = malloc(d->n * sizeof *w);
    start_result best = {gsl_vector_alloc(p), INFINITY, false, 0};
    st = u && w && best.x ? MULTICORE_OK : MULTICORE_ENOMEM;
    problem pb;
    if (st == MULTICORE_OK) {
        build_problem(d, fit, kept, u, w, &pb);
        if (!fit_starts(&pb, d, o, fit, kept, &best))
            st = MULTICORE_ENOMEM;
        else if (!isfinite(best.cost)) {
            snprintf(err, errlen, "no starting point led to a finite fit of the multicore law");
            st = MULTICORE_ENOFIT;
        }
    }
    if (st == MULTICORE_OK) {
        fit->cost = best.cost;
        fit->converged = best.converged;
        fit->iterations = best.iterations;
        record_solution(&pb, best.x, kept, fit);
        if (!covariance(&pb, best.x, fit))
            st = MULTICORE_ENOMEM;
        record_errors(kept, fit);
    }
    gsl_vector_free(best.x);
    free(w);
    free(u);
    return st;
}

void multicore_fit_free(multicore_fit *fit)
{
    free(fit->factors);
    free(fit->cov);
    memset(fit, 0, sizeof *fit);
}
