/*
 * overhead.c — see overhead.h. Lines by gsl_fit_linear; the polynomial in
 * log2 np by Householder QR on caller-owned arrays, so no GSL workspace is
 * allocated (GSL's default handler would abort on a failed allocation).
 */
#include "models/overhead.h"

#include <gsl/gsl_fit.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *overhead_status_text(overhead_status s)
{
    switch (s) {
    case OVERHEAD_OK: return "ok";
    case OVERHEAD_NOMEM: return "out of memory";
    case OVERHEAD_BAD_INPUT: return "an overhead point is not a finite number or has np < 1";
    case OVERHEAD_TOO_FEW_WORKS:
        return "no process count has runs at two different work levels, so no line "
               "overhead = alpha + gamma*work can be fitted";
    case OVERHEAD_TOO_FEW_NP:
        return "fewer than two process counts have a line over work, so alpha(np) "
               "cannot be extrapolated in log2 np";
    }
    return "unknown error";
}

void overhead_law_free(overhead_law *law)
{
    free(law->lines);
    memset(law, 0, sizeof *law);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Distinct np values of the points, ascending, into nps (n slots). */
static size_t distinct_np(const overhead_point *pts, size_t n, double *nps)
{
    for (size_t i = 0; i < n; i++)
        nps[i] = pts[i].np;
    qsort(nps, n, sizeof *nps, cmp_double);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || nps[i] != nps[k - 1])
            nps[k++] = nps[i];
    return k;
}

/* Fit the line of one np; false when its points have fewer than two works.
 * x and y are scratch arrays of n slots. */
static bool fit_line(const overhead_point *pts, size_t n, double np,
                     double *x, double *y, overhead_line *line)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (pts[i].np == np) {
            x[m] = pts[i].work;
            y[m] = pts[i].overhead;
            m++;
        }
    double lo = x[0], hi = x[0];
    for (size_t i = 1; i < m; i++) {
        lo = fmin(lo, x[i]);
        hi = fmax(hi, x[i]);
    }
    if (m < 2 || !(hi - lo > 1e-12 * fmax(fabs(hi), 1.0)))
        return false;
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(x, 1, y, 1, m, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    line->np = np;
    line->alpha = c0;
    line->gamma = c1;
    line->npoints = m;
    line->work_min = lo;
    line->work_max = hi;
    line->max_residual = 0;
    for (size_t i = 0; i < m; i++)
        line->max_residual = fmax(line->max_residual, fabs(y[i] - c0 - c1 * x[i]));
    return true;
}

/* Least-squares polynomial of degree p in L through (L[i], a[i]), i < n,
 * n > p; exact when n == p + 1. coef gets p + 1 values. */
static bool fit_polynomial(const double *L, const double *a, size_t n, int p, double *coef)
{
    size_t cols = (size_t)p + 1;
    double *buf = malloc(sizeof(double) * (n * cols + n + n + cols + cols));
    if (!buf)
        return false;
    double *design = buf, *rhs = buf + n * cols, *resid = rhs + n;
    double *tau = resid + n, *x = tau + cols;
    for (size_t i = 0; i < n; i++) {
        double v = 1;
        for (size_t j = 0; j < cols; j++, v *= L[i])
            design[i * cols + j] = v;
        rhs[i] = a[i];
    }
    gsl_matrix_view A = gsl_matrix_view_array(design, n, cols);
    gsl_vector_view b = gsl_vector_view_array(rhs, n);
    gsl_vector_view t = gsl_vector_view_array(tau, cols);
    gsl_vector_view xv = gsl_vector_view_array(x, cols);
    gsl_vector_view r = gsl_vector_view_array(resid, n);
    gsl_linalg_QR_decomp(&A.matrix, &t.vector);
    gsl_linalg_QR_lssolve(&A.matrix, &t.vector, &b.vector, &xv.vector, &r.vector);
    for (size_t j = 0; j < 3; j++)
        coef[j] = j < cols ? x[j] : 0;
    free(buf);
    return true;
}

static bool points_valid(const overhead_point *pts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(pts[i].np) || pts[i].np < 1 || !isfinite(pts[i].work) ||
            !isfinite(pts[i].overhead))
            return false;
    return true;
}

/* Lines for every np with two distinct works; records the skipped ones. */
static overhead_status fit_lines(const overhead_point *pts, size_t n, overhead_law *out)
{
    double *nps = malloc(sizeof(double) * n * 3);
    out->lines = malloc(sizeof *out->lines * n);
    if (!nps || !out->lines) {
        free(nps);
        return OVERHEAD_NOMEM;
    }
    size_t k = distinct_np(pts, n, nps);
    for (size_t i = 0; i < k; i++) {
        if (fit_line(pts, n, nps[i], nps + n, nps + 2 * n, &out->lines[out->nlines]))
            out->nlines++;
        else if (out->nskipped++ < sizeof out->skipped_np / sizeof out->skipped_np[0])
            out->skipped_np[out->nskipped - 1] = nps[i];
    }
    free(nps);
    return out->nlines == 0 ? OVERHEAD_TOO_FEW_WORKS : OVERHEAD_OK;
}

/* alpha as a polynomial in log2 np through the lines' intercepts. */
static overhead_status fit_alpha(overhead_law *out, int degree)
{
    size_t n = out->nlines;
    if (n < 2)
        return OVERHEAD_TOO_FEW_NP;
    out->degree = (size_t)degree < n ? degree : (int)n - 1;
    out->degree_reduced = out->degree < degree;
    double *L = malloc(sizeof(double) * 2 * n);
    if (!L)
        return OVERHEAD_NOMEM;
    for (size_t i = 0; i < n; i++) {
        L[i] = log2(out->lines[i].np);
        L[n + i] = out->lines[i].alpha;
    }
    bool ok = fit_polynomial(L, L + n, n, out->degree, out->coef);
    free(L);
    if (!ok)
        return OVERHEAD_NOMEM;
    out->gamma = out->lines[n - 1].gamma;
    out->np_max = out->lines[n - 1].np;
    return OVERHEAD_OK;
}

overhead_status overhead_fit(const overhead_point *pts, size_t n, int degree,
                             overhead_law *out)
{
    memset(out, 0, sizeof *out);
    if (degree < 1 || degree > 2 || !points_valid(pts, n))
        return OVERHEAD_BAD_INPUT;
    if (n == 0)
        return OVERHEAD_TOO_FEW_WORKS;
    overhead_status s = fit_lines(pts, n, out);
    if (s == OVERHEAD_OK)
        s = fit_alpha(out, degree);
    if (s != OVERHEAD_OK)
        overhead_law_free(out);
    return s;
}

double overhead_alpha(const overhead_law *law, double np)
{
    double L = log2(np);
    return law->coef[0] + law->coef[1] * L + law->coef[2] * L * L;
}

double overhead_eval(const overhead_law *law, double np, double work)
{
    return overhead_alpha(law, np) + law->gamma * work;
}

bool overhead_work_outside(const overhead_law *law, double work, double tol)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < law->nlines; i++) {
        lo = fmin(lo, law->lines[i].work_min);
        hi = fmax(hi, law->lines[i].work_max);
    }
    tol = fmax(tol, 1e-9);
    return work < lo * (1 - tol) || work > hi * (1 + tol);
}

const overhead_line *overhead_line_of(const overhead_law *law, double np)
{
    for (size_t i = 0; i < law->nlines; i++)
        if (law->lines[i].np == np)
            return &law->lines[i];
    return NULL;
}
