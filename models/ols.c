/*
 * ols.c — least squares by Householder QR with R's limited pivoting.
 *
 * Columns are scaled to unit norm first: a design mixing N^3 (1e12) with
 * an intercept (1) would otherwise lose digits in the reflections, and the
 * aliasing test (remaining norm < tol * own norm) is scale-free anyway.
 * The statistics follow R's summary.lm and predict.lm formula by formula,
 * so the two can be compared to rounding.
 */
#include "models/ols.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Below this relative residual size a fit counts as exact (see exact_fit). */
#define EXACT_FIT_RATIO 1e-20

const char *ols_absence_text(ols_absence a)
{
    switch (a) {
    case OLS_PRESENT:
        return "";
    case OLS_NO_RESIDUAL_DF:
        return "no residual degrees of freedom: as many estimable coefficients as runs";
    case OLS_EXACT_FIT:
        return "the training runs are fitted exactly: no residual variance to estimate";
    case OLS_CONSTANT_RESPONSE:
        return "the response is the same in every training run: nothing to explain";
    case OLS_INTERCEPT_ONLY:
        return "no term is estimable besides the intercept: nothing to test";
    }
    return "";
}

const char *ols_status_text(ols_status s)
{
    switch (s) {
    case OLS_OK:
        return "ok";
    case OLS_ERR_NOMEM:
        return "out of memory";
    case OLS_ERR_NO_RUNS:
        return "no training runs";
    case OLS_ERR_NOT_FINITE:
        return "a term value or a response is not a finite number";
    case OLS_ERR_TOO_LARGE:
        return "a term value or a response is too large for a least-squares fit "
               "(beyond 1e150: rescale it, e.g. to other units)";
    }
    return "unknown error";
}

void ols_free(ols_model *m)
{
    free(m->coef);
    free(m->std_error);
    free(m->t);
    free(m->p);
    free(m->aliased);
    free(m->fitted);
    free(m->residuals);
    free(m->hat);
    free(m->order);
    free(m->scale);
    free(m->rinv);
    free(m->alias);
    free(m->count);
    free(m->within);
    free(m->weight);
    memset(m, 0, sizeof *m);
}

/* Room for a fit of n rows and p coefficients; the leverages only when
 * leverages is true. */
static bool allocate(ols_model *m, size_t n, size_t p, bool leverages)
{
    m->coef = calloc(p, sizeof *m->coef);
    m->std_error = calloc(p, sizeof *m->std_error);
    m->t = calloc(p, sizeof *m->t);
    m->p = calloc(p, sizeof *m->p);
    m->aliased = calloc(p, sizeof *m->aliased);
    m->order = calloc(p, sizeof *m->order);
    m->scale = calloc(p, sizeof *m->scale);
    m->fitted = calloc(n, sizeof *m->fitted);
    m->residuals = calloc(n, sizeof *m->residuals);
    m->hat = leverages ? calloc(n, sizeof *m->hat) : NULL;
    return m->coef && m->std_error && m->t && m->p && m->aliased && m->order &&
           m->scale && m->fitted && m->residuals && (m->hat || !leverages);
}

static double norm2(const double *v, size_t len)
{
    /* Two passes (max, then scaled sum) so huge or tiny values never
     * overflow or underflow. */
    double big = 0;
    for (size_t i = 0; i < len; i++)
        if (fabs(v[i]) > big)
            big = fabs(v[i]);
    if (big == 0)
        return 0;
    double s = 0;
    for (size_t i = 0; i < len; i++)
        s += (v[i] / big) * (v[i] / big);
    return big * sqrt(s);
}

/* The design value of coefficient j for one row of term values: 1 for the
 * intercept, else the term's value. */
static double term_or_one(const double *terms, size_t j)
{
    return j == 0 ? 1.0 : terms[j - 1];
}

/* The same in run i of the row-major n x k term matrix x. */
static double design_value(const double *x, size_t k, size_t i, size_t j)
{
    return term_or_one(x + i * k, j);
}

/* Column j of [1 x] into col, weighted by root and divided by its norm
 * (*scale). */
static void scaled_column(const double *x, size_t n, size_t k, size_t j, const double *root,
                          double *col, double *scale)
{
    for (size_t i = 0; i < n; i++)
        col[i] = design_value(x, k, i, j) * (root ? root[i] : 1.0);
    double s = norm2(col, n);
    *scale = s > 0 ? s : 1.0;
    for (size_t i = 0; i < n; i++)
        col[i] /= *scale;
}

/* Column-major copy of [1 x], each column divided by its norm. A group of
 * count runs weighs as much as count copies of its row: its row is
 * multiplied by sqrt(count) (root, NULL for one run each). */
static double *scaled_design(const double *x, size_t n, size_t k, const double *root,
                             double *scale)
{
    size_t p = k + 1;
    double *a = malloc(n * p * sizeof *a);
    for (size_t j = 0; a && j < p; j++)
        scaled_column(x, n, k, j, root, a + j * n, &scale[j]);
    return a;
}

static void reverse(double *v, size_t len)
{
    for (size_t i = 0, j = len; i + 1 < j; i++) {
        j--;
        double t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* Move column l (and its bookkeeping) to the end, keeping the order of the
 * others, as dqrdc2 does. Columns are contiguous, so this is a rotation of
 * one block by n values, done in place by three reversals. */
static void rotate_to_end(double *a, size_t n, size_t p, size_t *order, size_t l)
{
    double *block = a + l * n;
    size_t len = (p - l) * n;
    reverse(block, n);
    reverse(block + n, len - n);
    reverse(block, len);
    size_t o = order[l];
    memmove(order + l, order + l + 1, (p - l - 1) * sizeof *order);
    order[p - 1] = o;
}

/* Apply the reflection I - beta v v' (v in rows l..n-1 of v) to c. */
static void reflect(const double *v, double beta, size_t l, size_t n, double *c)
{
    double s = 0;
    for (size_t i = l; i < n; i++)
        s += v[i] * c[i];
    s *= beta;
    for (size_t i = l; i < n; i++)
        c[i] -= s * v[i];
}

/* Zero column v (n values) below row l by a Householder reflection,
 * applied to the nrest columns after it (rest, n apart) and to qty; norm
 * is that of rows l.. of v. With keep (n values), the reflection's vector
 * is copied there and its factor into *keep_beta first (an ols_prefix
 * applies them later to a column added after it). */
static void householder_step(double *v, double *rest, size_t nrest, size_t n, size_t l,
                             double *qty, double norm, double *keep, double *keep_beta)
{
    double alpha = v[l] > 0 ? -norm : norm;
    double beta = 1.0 / (norm * norm - alpha * v[l]);
    v[l] -= alpha;
    if (keep) {
        memcpy(keep + l, v + l, (n - l) * sizeof *v);
        *keep_beta = beta;
    }
    for (size_t j = 0; j < nrest; j++)
        reflect(v, beta, l, n, rest + j * n);
    reflect(v, beta, l, n, qty);
    v[l] = alpha;
    for (size_t i = l + 1; i < n; i++)
        v[i] = 0;
}

/* The QR with limited pivoting; returns the rank. */
static size_t decompose(double *a, size_t n, size_t p, size_t *order, double *qty)
{
    size_t active = p; /* columns not (yet) set aside as negligible */
    size_t steps = n < p ? n : p;
    for (size_t l = 0; l < steps; l++) {
        double norm = 0;
        while (l < active && (norm = norm2(a + l * n + l, n - l)) < OLS_TOLERANCE) {
            rotate_to_end(a, n, p, order, l);
            active--;
        }
        if (l >= active)
            break;
        if (l + 1 < n)
            householder_step(a + l * n, a + (l + 1) * n, p - l - 1, n, l, qty, norm, NULL, NULL);
    }
    return active < n ? active : n;
}

/* rinv = inverse of the upper-triangular R11 (rank x rank, row-major). */
static void invert_r11(const double *a, size_t n, size_t r, double *rinv)
{
    for (size_t j = 0; j < r; j++) {
        rinv[j * r + j] = 1.0 / a[j * n + j];
        for (size_t i = j; i-- > 0;) {
            double s = 0;
            for (size_t q = i + 1; q <= j; q++)
                s += a[q * n + i] * rinv[q * r + j];
            rinv[i * r + j] = -s / a[i * n + i];
        }
        for (size_t i = j + 1; i < r; i++)
            rinv[i * r + j] = 0;
    }
}

/* alias = R11^-1 R12: each left-out column in terms of the estimable ones. */
static void alias_relations(const double *a, size_t n, size_t p, size_t r,
                            const double *rinv, double *alias)
{
    size_t left_out = p - r;
    for (size_t i = 0; i < r; i++)
        for (size_t q = 0; q < left_out; q++) {
            double s = 0;
            for (size_t j = i; j < r; j++)
                s += rinv[i * r + j] * a[(r + q) * n + j];
            alias[i * left_out + q] = s;
        }
}

static void set_coefficients(ols_model *m, const double *qty)
{
    size_t r = m->rank, p = m->ncoef;
    for (size_t j = 0; j < p; j++) {
        m->coef[j] = m->std_error[j] = m->t[j] = m->p[j] = NAN;
        m->aliased[j] = true;
    }
    for (size_t i = 0; i < r; i++) {
        double s = 0;
        for (size_t j = i; j < r; j++)
            s += m->rinv[i * r + j] * qty[j];
        size_t c = m->order[i];
        m->coef[c] = s / m->scale[c];
        m->aliased[c] = false;
    }
}

static void set_fitted(ols_model *m, const double *x, const double *y, size_t k)
{
    for (size_t i = 0; i < m->ngroups; i++) {
        double f = 0;
        for (size_t q = 0; q < m->rank; q++) {
            size_t c = m->order[q];
            f += design_value(x, k, i, c) * m->coef[c];
        }
        m->fitted[i] = f;
        m->residuals[i] = y[i] - f;
    }
}

/* The scaled design value of the coefficient at pivoted position q, for
 * one row of term values. */
static double scaled_value(const ols_model *m, const double *terms, size_t q)
{
    size_t c = m->order[q];
    return term_or_one(terms, c) / m->scale[c];
}

/* z = R11^-T x~ for one row of term values: the row in the coordinates
 * where the hat matrix is a dot product, H_ab = z_a.z_b. */
static void whiten(const ols_model *m, const double *terms, double *z)
{
    size_t r = m->rank;
    for (size_t i = 0; i < r; i++)
        z[i] = scaled_value(m, terms, i); /* x~, then overwritten from the end */
    for (size_t j = r; j-- > 0;) {
        double sum = 0;
        for (size_t i = 0; i <= j; i++)
            sum += m->rinv[i * r + j] * z[i];
        z[j] = sum;
    }
}

static double dot(const double *a, const double *b, size_t len)
{
    double s = 0;
    for (size_t i = 0; i < len; i++)
        s += a[i] * b[i];
    return s;
}

/* The leverage x0'(X'X)^-1 x0 = ||z||^2 of one row of term values; z has
 * room for rank values. */
static double leverage_in(const ols_model *m, const double *terms, double *z)
{
    whiten(m, terms, z);
    double h = 0;
    for (size_t j = 0; j < m->rank; j++)
        h += z[j] * z[j];
    return h;
}

static double leverage_of(const ols_model *m, const double *terms)
{
    double small[8], *z = m->rank <= 8 ? small : malloc(m->rank * sizeof *z);
    double h = z ? leverage_in(m, terms, z) : NAN;
    if (z != small)
        free(z);
    return h;
}

static bool set_hat(ols_model *m, const double *x, size_t k)
{
    double *z = malloc((m->rank + 1) * sizeof *z);
    if (!z)
        return false;
    m->max_hat = 0;
    for (size_t i = 0; i < m->ngroups; i++) {
        m->hat[i] = leverage_in(m, x + i * k, z);
        if (m->hat[i] > m->max_hat)
            m->max_hat = m->hat[i];
    }
    free(z);
    return true;
}

static bool is_constant(const double *y, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (y[i] != y[0])
            return false;
    return true;
}

/* The runs a row of the fit stands for (1 unless grouped). */
static double runs_of(const ols_model *m, size_t i)
{
    return m->count ? m->count[i] : 1.0;
}

/* Grouped fits: every group's spread around its mean is 0, and so is the
 * spread between the group means. */
static bool groups_constant(const ols_model *m, const double *y)
{
    for (size_t i = 0; m->within && i < m->ngroups; i++)
        if (m->within[i] != 0)
            return false;
    return is_constant(y, m->ngroups);
}

/* The sum of the squared responses of every run. */
static double sum_squares(const ols_model *m, const double *y)
{
    double yy = 0;
    for (size_t i = 0; i < m->ngroups; i++)
        yy += runs_of(m, i) * y[i] * y[i] + (m->within ? m->within[i] : 0);
    return yy;
}

static void set_summary(ols_model *m, const double *y, const double *qty)
{
    size_t g = m->ngroups, r = m->rank, df = m->df_resid;
    m->rss = 0;
    for (size_t i = r; i < g; i++)
        m->rss += qty[i] * qty[i];
    for (size_t i = 0; m->within && i < g; i++)
        m->rss += m->within[i];
    bool constant = groups_constant(m, y);
    bool exact = constant || m->rss <= EXACT_FIT_RATIO * sum_squares(m, y);
    if (exact) {
        m->rss = 0;
        for (size_t i = 0; i < g; i++)
            m->residuals[i] = 0;
    }
    double mean = 0, runs = 0;
    for (size_t i = 0; i < g; i++) {
        mean += runs_of(m, i) * m->fitted[i];
        runs += runs_of(m, i); /* m->n unless weighted: whole numbers, exact */
    }
    mean /= runs;
    m->mss = 0;
    for (size_t i = 0; i < g && !constant; i++)
        m->mss += runs_of(m, i) * (m->fitted[i] - mean) * (m->fitted[i] - mean);
    size_t n = m->n;

    m->sigma_absent = df == 0 ? OLS_NO_RESIDUAL_DF : OLS_PRESENT;
    m->test_absent = df == 0 ? OLS_NO_RESIDUAL_DF : exact ? OLS_EXACT_FIT : OLS_PRESENT;
    m->r2_absent = constant ? OLS_CONSTANT_RESPONSE : OLS_PRESENT;
    m->adj_r2_absent = constant ? OLS_CONSTANT_RESPONSE : df == 0 ? OLS_NO_RESIDUAL_DF : OLS_PRESENT;
    m->f_absent = constant ? OLS_CONSTANT_RESPONSE : r < 2 ? OLS_INTERCEPT_ONLY : m->test_absent;

    m->sigma = m->sigma_absent ? NAN : sqrt(m->rss / (double)df);
    m->r2 = m->r2_absent ? NAN : m->mss / (m->mss + m->rss);
    m->adj_r2 = m->adj_r2_absent ? NAN : 1 - (1 - m->r2) * ((double)(n - 1) / (double)df);
    m->f_df1 = r - 1;
    m->f = m->f_p = NAN;
    if (!m->f_absent) {
        m->f = (m->mss / (double)m->f_df1) / (m->rss / (double)df);
        m->f_p = gsl_cdf_fdist_Q(m->f, (double)m->f_df1, (double)df);
    }
}

static void set_inference(ols_model *m)
{
    size_t r = m->rank;
    for (size_t i = 0; i < r && !m->sigma_absent; i++) {
        double v = 0;
        for (size_t j = i; j < r; j++)
            v += m->rinv[i * r + j] * m->rinv[i * r + j];
        size_t c = m->order[i];
        m->std_error[c] = m->sigma * sqrt(v) / m->scale[c];
        if (m->test_absent)
            continue;
        m->t[c] = m->coef[c] / m->std_error[c];
        m->p[c] = 2 * gsl_cdf_tdist_Q(fabs(m->t[c]), (double)m->df_resid);
    }
}

/* OLS_OK when every value is finite and small enough to square and sum. */
static ols_status check_values(const double *v, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (!isfinite(v[i]))
            return OLS_ERR_NOT_FINITE;
        if (fabs(v[i]) > OLS_MAX_MAGNITUDE)
            return OLS_ERR_TOO_LARGE;
    }
    return OLS_OK;
}

/* The start of every fit: values checked, the model allocated, the
 * weights root = sqrt(count * weight) (NULL without counts nor weights)
 * and qty = y * root. With weights, m->count and m->within keep the
 * weighted counts and spreads (every sum of squares is then weighted) and
 * m->weight the weights; m->n counts the runs themselves. */
static ols_status begin_fit(const double *x, const double *y, size_t g, size_t k,
                            const double *count, const double *within, const double *weight,
                            bool leverages, ols_model *m, double **root, double **qty)
{
    *root = *qty = NULL;
    if (g == 0)
        return OLS_ERR_NO_RUNS;
    ols_status values = check_values(y, g);
    if (values == OLS_OK)
        values = check_values(x, g * k);
    if (values != OLS_OK)
        return values;
    size_t p = k + 1;
    m->ngroups = g;
    m->ncoef = p;
    if (!allocate(m, g, p, leverages))
        return OLS_ERR_NOMEM;
    for (size_t j = 0; j < p; j++)
        m->order[j] = j;
    bool rows_weighed = count || weight;
    *root = rows_weighed ? malloc(g * sizeof **root) : NULL;
    *qty = malloc(g * sizeof **qty);
    if ((rows_weighed && !*root) || !*qty)
        return OLS_ERR_NOMEM;
    if (rows_weighed && (!(m->count = malloc(g * sizeof *m->count)) ||
                         !(m->within = malloc(g * sizeof *m->within))))
        return OLS_ERR_NOMEM;
    if (weight && !(m->weight = malloc(g * sizeof *m->weight)))
        return OLS_ERR_NOMEM;
    m->n = 0;
    for (size_t i = 0; i < g; i++) {
        double runs = count ? count[i] : 1.0, spread = within ? within[i] : 0.0;
        if (weight) {
            m->weight[i] = weight[i];
            runs *= weight[i];
            spread *= weight[i];
        }
        if (*root)
            (*root)[i] = sqrt(runs);
        (*qty)[i] = y[i] * (*root ? (*root)[i] : 1.0);
        m->n += count ? (size_t)count[i] : 1;
        if (rows_weighed) {
            m->count[i] = runs;
            m->within[i] = spread;
        }
    }
    return OLS_OK;
}

/* The end of every fit, once m->rank is known: R (the upper triangle of
 * the first p rows of r, columns lda apart) inverted, the coefficients,
 * fitted values, leverages and statistics. */
static ols_status end_fit(ols_model *m, const double *r, size_t lda, const double *x,
                          const double *y, size_t k, const double *qty, bool leverages)
{
    size_t p = k + 1;
    m->df_resid = m->n - m->rank;
    m->rinv = malloc(m->rank * m->rank * sizeof *m->rinv);
    m->alias = malloc((m->rank * (p - m->rank) + 1) * sizeof *m->alias);
    if (!m->rinv || !m->alias)
        return OLS_ERR_NOMEM;
    invert_r11(r, lda, m->rank, m->rinv);
    alias_relations(r, lda, p, m->rank, m->rinv, m->alias);
    set_coefficients(m, qty);
    set_fitted(m, x, y, k);
    if (leverages && !set_hat(m, x, k))
        return OLS_ERR_NOMEM;
    set_summary(m, y, qty);
    set_inference(m);
    return OLS_OK;
}

/* The fit of ols_fit and ols_fit_grouped: g rows of x and y, row i
 * standing for count[i] runs (count NULL: one each); the leverages only
 * when leverages is true. */
static ols_status fit_rows(const double *x, const double *y, size_t g, size_t k,
                           const double *count, const double *within, const double *weight,
                           bool leverages, ols_model *m)
{
    double *root, *qty, *a = NULL;
    ols_status st = begin_fit(x, y, g, k, count, within, weight, leverages, m, &root, &qty);
    if (st == OLS_OK && !(a = scaled_design(x, g, k, root, m->scale)))
        st = OLS_ERR_NOMEM;
    if (st == OLS_OK) {
        m->rank = decompose(a, g, k + 1, m->order, qty);
        st = end_fit(m, a, g, x, y, k, qty, leverages);
    }
    free(root);
    free(a);
    free(qty);
    return st;
}

ols_status ols_fit(const double *x, const double *y, size_t n, size_t k, ols_model *m)
{
    memset(m, 0, sizeof *m);
    return fit_rows(x, y, n, k, NULL, NULL, NULL, true, m);
}

ols_status ols_fit_without_leverages(const double *x, const double *y, size_t n, size_t k,
                                     ols_model *m)
{
    memset(m, 0, sizeof *m);
    return fit_rows(x, y, n, k, NULL, NULL, NULL, false, m);
}

/* Are the groups' counts whole numbers >= 1 and their spreads finite and
 * not negative, and (weight not NULL) every weight positive and finite? */
static bool groups_valid(const double *count, const double *within, const double *weight,
                         size_t g)
{
    for (size_t i = 0; i < g; i++)
        if (!(count[i] >= 1) || count[i] != floor(count[i]) || !(within[i] >= 0) ||
            !isfinite(within[i]) || (weight && !(weight[i] > 0 && isfinite(weight[i]))))
            return false;
    return true;
}

ols_status ols_fit_grouped(const double *x, const double *mean, const double *count,
                           const double *within, size_t g, size_t k, ols_model *m)
{
    memset(m, 0, sizeof *m);
    if (!groups_valid(count, within, NULL, g))
        return OLS_ERR_NOT_FINITE;
    return fit_rows(x, mean, g, k, count, within, NULL, true, m);
}

ols_status ols_fit_grouped_weighted(const double *x, const double *mean, const double *count,
                                    const double *weight, const double *within, size_t g,
                                    size_t k, ols_model *m)
{
    memset(m, 0, sizeof *m);
    if (!groups_valid(count, within, weight, g))
        return OLS_ERR_NOT_FINITE;
    return fit_rows(x, mean, g, k, count, within, weight, true, m);
}

ols_status ols_fit_weighted(const double *x, const double *y, const double *weight, size_t n,
                            size_t k, ols_model *m)
{
    memset(m, 0, sizeof *m);
    for (size_t i = 0; i < n; i++)
        if (!(weight[i] > 0 && isfinite(weight[i])))
            return OLS_ERR_NOT_FINITE;
    return fit_rows(x, y, n, k, NULL, NULL, weight, true, m);
}

/* Does x0 keep every linear relation the training data put on the left-out
 * columns? Returns the first pivoted position that breaks one, or ncoef. */
static size_t first_broken_relation(const ols_model *m, const double *x0)
{
    size_t r = m->rank, left_out = m->ncoef - r;
    for (size_t q = 0; q < left_out; q++) {
        double want = scaled_value(m, x0, r + q), got = 0, size = fabs(want);
        for (size_t i = 0; i < r; i++) {
            double term = m->alias[i * left_out + q] * scaled_value(m, x0, i);
            got += term;
            size += fabs(term);
        }
        if (fabs(want - got) > 1e-6 * size)
            return r + q;
    }
    return m->ncoef;
}

void ols_predict(const ols_model *m, const double *x0, double level, ols_prediction *out)
{
    out->estimate = 0;
    for (size_t q = 0; q < m->rank; q++) {
        size_t c = m->order[q];
        out->estimate += term_or_one(x0, c) * m->coef[c];
    }
    out->leverage = leverage_of(m, x0);
    /* A training row recomputed can differ from its own leverage by rounding. */
    out->extrapolation = out->leverage > m->max_hat * (1 + 1e-9) + 1e-12;
    size_t broken = first_broken_relation(m, x0);
    out->not_estimable = broken < m->ncoef;
    out->first_broken = out->not_estimable ? m->order[broken] : 0;
    if (out->not_estimable)
        out->extrapolation = true;

    out->interval_absent = m->test_absent;
    out->se_mean = out->ci_low = out->ci_high = out->pi_low = out->pi_high = NAN;
    if (out->interval_absent)
        return;
    double tq = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, (double)m->df_resid);
    out->se_mean = m->sigma * sqrt(out->leverage);
    double ci = tq * out->se_mean;
    double pi = tq * m->sigma * sqrt(1 + out->leverage);
    out->ci_low = out->estimate - ci;
    out->ci_high = out->estimate + ci;
    out->pi_low = out->estimate - pi;
    out->pi_high = out->estimate + pi;
}

void ols_predict_weighted(const ols_model *m, const double *x0, double weight0, double level,
                          ols_prediction *out)
{
    ols_predict(m, x0, level, out);
    bool weighed = weight0 > 0 && isfinite(weight0);
    /* A run's leverage in a weighted fit is its weight times x'(X'WX)^-1 x:
     * the target's is compared with the training runs' on that scale. */
    double most = 0;
    for (size_t i = 0; m->hat && i < m->ngroups; i++)
        most = fmax(most, (m->weight ? m->weight[i] : 1) * m->hat[i]);
    if (weighed && m->hat && !out->not_estimable)
        out->extrapolation = weight0 * out->leverage > most * (1 + 1e-9) + 1e-12;
    if (out->interval_absent)
        return;
    if (!weighed) {
        out->pi_low = out->pi_high = NAN; /* a new run's spread is unknown */
        return;
    }
    double tq = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, (double)m->df_resid);
    double pi = tq * m->sigma * sqrt(1 / weight0 + out->leverage);
    out->pi_low = out->estimate - pi;
    out->pi_high = out->estimate + pi;
}

/* Solve a u = b in place (a is g x g, row-major, destroyed) by Gaussian
 * elimination with partial pivoting; false when a is singular to rounding. */
static bool solve_small(double *a, double *b, size_t g)
{
    for (size_t c = 0; c < g; c++) {
        size_t piv = c;
        for (size_t r = c + 1; r < g; r++)
            if (fabs(a[r * g + c]) > fabs(a[piv * g + c]))
                piv = r;
        if (fabs(a[piv * g + c]) < 1e-10)
            return false;
        for (size_t j = 0; j < g; j++) {
            double t = a[c * g + j];
            a[c * g + j] = a[piv * g + j];
            a[piv * g + j] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (size_t r = c + 1; r < g; r++) {
            double f = a[r * g + c] / a[c * g + c];
            for (size_t j = c; j < g; j++)
                a[r * g + j] -= f * a[c * g + j];
            b[r] -= f * b[c];
        }
    }
    for (size_t c = g; c-- > 0;) {
        for (size_t j = c + 1; j < g; j++)
            b[c] -= a[c * g + j] * b[j];
        b[c] /= a[c * g + c];
    }
    return true;
}

/* Leave-out residuals of the runs members[g] taken out together:
 * (I - H_GG)^-1 e_G. False when the group cannot be left out. */
static bool group_residuals(const ols_model *m, const double *x, size_t k,
                            const size_t *members, size_t g, double *z, double *a,
                            double *out)
{
    size_t r = m->rank;
    for (size_t i = 0; i < g; i++)
        whiten(m, x + members[i] * k, z + i * r);
    for (size_t i = 0; i < g; i++) {
        for (size_t j = 0; j < g; j++)
            a[i * g + j] = (i == j) - dot(z + i * r, z + j * r, r);
        out[i] = m->residuals[members[i]];
    }
    return solve_small(a, out, g);
}

/* Gather into members the runs of i's group not yet done; returns how many. */
static size_t gather_group(const size_t *group, size_t n, size_t i, bool *done,
                           size_t *members)
{
    size_t g = 0;
    for (size_t j = i; j < n; j++)
        if (j == i || (group && !done[j] && group[j] == group[i])) {
            members[g++] = j;
            done[j] = true;
        }
    return g;
}

ols_status ols_loo_residuals(const ols_model *m, const double *x, size_t k,
                             const size_t *group, double *out)
{
    size_t n = m->n;
    size_t *members = malloc(n * sizeof *members);
    bool *done = calloc(n, sizeof *done);
    double *z = malloc((n * m->rank + 1) * sizeof *z), *res = malloc(n * sizeof *res);
    double *a = NULL;
    size_t acap = 0;
    ols_status st = members && done && z && res ? OLS_OK : OLS_ERR_NOMEM;
    for (size_t i = 0; i < n && st == OLS_OK; i++) {
        if (done[i])
            continue;
        size_t g = gather_group(group, n, i, done, members);
        if (g * g > acap) {
            double *bigger = realloc(a, g * g * sizeof *a);
            if (!bigger) {
                st = OLS_ERR_NOMEM;
                break;
            }
            a = bigger;
            acap = g * g;
        }
        bool ok = group_residuals(m, x, k, members, g, z, a, res);
        for (size_t j = 0; j < g; j++)
            out[members[j]] = ok ? res[j] : INFINITY;
    }
    free(members);
    free(done);
    free(z);
    free(res);
    free(a);
    return st;
}

ols_status ols_grouped_loo_sse(const ols_model *m, double *sse)
{
    /* A group's rows are equal, so H_GG = h 11' with h one run's
     * leverage; (I - h 11')^-1 e_G adds h sum(e_G) / (1 - c h) to each
     * residual, and the group's squared leave-out residuals sum to its
     * spread around the mean plus c (r / (1 - c h))^2, r = mean - fitted. */
    *sse = 0;
    for (size_t i = 0; i < m->ngroups; i++) {
        double c = runs_of(m, i), keep = 1 - c * m->hat[i];
        if (keep < 1e-10) {
            *sse = INFINITY;
            return OLS_OK;
        }
        double r = m->residuals[i] / keep;
        *sse += (m->within ? m->within[i] : 0) + c * r * r;
    }
    return OLS_OK;
}

/* ------------------------------------------------------------------ */
/* A factored prefix of the design                                     */

void ols_prefix_free(ols_prefix *pre)
{
    free(pre->scale);
    free(pre->v);
    free(pre->beta);
    free(pre->r);
    free(pre->qty);
    free(pre->x);
    free(pre->root);
    free(pre->rinv);
    free(pre->xs);
    free(pre->hat);
    free(pre->q);
    free(pre->resid);
    memset(pre, 0, sizeof *pre);
}

/* The prefix's steps of decompose, each vector kept; false when one of
 * its columns would be set aside (the order would then change). */
static bool factor_prefix(ols_prefix *pre, double *a)
{
    size_t g = pre->g, p = pre->k + 1;
    for (size_t l = 0; l < p; l++) {
        double norm = norm2(a + l * g + l, g - l);
        if (norm < OLS_TOLERANCE)
            return false;
        householder_step(a + l * g, a + (l + 1) * g, p - l - 1, g, l, pre->qty, norm,
                         pre->v + l * g, &pre->beta[l]);
    }
    for (size_t j = 0; j < p; j++)
        for (size_t i = 0; i <= j; i++)
            pre->r[j * p + i] = a[j * g + i];
    return true;
}

static bool shared_after(ols_prefix *pre, const double *x);
static bool basis(ols_prefix *pre);

ols_status ols_prefix_init(ols_prefix *pre, const double *x, const double *mean,
                           const double *count, size_t g, size_t k)
{
    size_t p = k + 1;
    *pre = (ols_prefix){.g = g, .k = k};
    /* A fit after it has k + 2 columns: every one of them a step of the
     * QR only with more rows than that. */
    if (g <= k + 2 || check_values(x, g * k) != OLS_OK || check_values(mean, g) != OLS_OK)
        return OLS_OK;
    pre->scale = malloc(p * sizeof *pre->scale);
    pre->v = malloc(p * g * sizeof *pre->v);
    pre->beta = malloc(p * sizeof *pre->beta);
    pre->r = malloc(p * p * sizeof *pre->r);
    pre->qty = malloc(g * sizeof *pre->qty);
    double *root = malloc(g * sizeof *root), *a = NULL;
    bool ok = pre->scale && pre->v && pre->beta && pre->r && pre->qty && root;
    for (size_t i = 0; ok && i < g; i++) {
        root[i] = sqrt(count[i]);
        pre->qty[i] = mean[i] * root[i];
    }
    ok = ok && (a = scaled_design(x, g, k, root, pre->scale)) != NULL;
    if (ok)
        pre->usable = factor_prefix(pre, a);
    free(a);
    if (ok && pre->usable) {
        pre->root = root;
        root = NULL;
        ok = shared_after(pre, x);
    }
    free(root);
    return ok ? OLS_OK : OLS_ERR_NOMEM;
}

/* z_j = (R^-T x~)_j for j < p (whiten's sum, in its order) of one row of
 * scaled design values xs; rinv is p x p, row-major. */
static double whitened(const double *rinv, size_t p, const double *xs, size_t j)
{
    double sum = 0;
    for (size_t i = 0; i <= j; i++)
        sum += rinv[i * p + j] * xs[i];
    return sum;
}

/* Q (Q e_j = H_0 ... H_(p-1) e_j: the reflections applied backwards) and
 * the weighted means' residual Q_full (0, qty_p, ..., qty_(g-1)), for
 * screen(). False when out of memory. */
static bool basis(ols_prefix *pre)
{
    size_t g = pre->g, p = pre->k + 1;
    pre->q = calloc(p * g, sizeof *pre->q);
    pre->resid = calloc(g, sizeof *pre->resid);
    if (!pre->q || !pre->resid)
        return false;
    pre->rss = 0;
    for (size_t i = p; i < g; i++) {
        pre->resid[i] = pre->qty[i];
        pre->rss += pre->qty[i] * pre->qty[i];
    }
    for (size_t j = 0; j <= p; j++) {
        double *u = j < p ? pre->q + j * g : pre->resid;
        if (j < p)
            u[j] = 1;
        for (size_t l = p; l-- > 0;)
            reflect(pre->v + l * g, pre->beta[l], l, g, u);
    }
    return true;
}

/* What every fit after the prefix shares, for ols_prefix_loo_sse: the term
 * values, R's inverse (invert_r11's columns of the prefix are those of
 * every fit after it), each row's scaled values and the leverage summed
 * over the prefix's coordinates (leverage_in's sum stopped before the
 * last one). False when out of memory. */
static bool shared_after(ols_prefix *pre, const double *x)
{
    size_t g = pre->g, k = pre->k, p = k + 1;
    pre->x = malloc((g * k + 1) * sizeof *pre->x);
    pre->rinv = malloc(p * p * sizeof *pre->rinv);
    pre->xs = malloc(g * p * sizeof *pre->xs);
    pre->hat = malloc(g * sizeof *pre->hat);
    if (!pre->x || !pre->rinv || !pre->xs || !pre->hat)
        return false;
    memcpy(pre->x, x, g * k * sizeof *x);
    invert_r11(pre->r, p, p, pre->rinv);
    for (size_t i = 0; i < g; i++) {
        double *xs = pre->xs + i * p, h = 0;
        for (size_t j = 0; j < p; j++)
            xs[j] = term_or_one(x + i * k, j) / pre->scale[j];
        for (size_t j = 0; j < p; j++) {
            double z = whitened(pre->rinv, p, xs, j);
            h += z * z;
        }
        pre->hat[i] = h;
    }
    return basis(pre);
}

/* The last column of R^-1 (p x p, row-major, its first p - 1 columns those
 * of pre->rinv) from R's last column rlast (p values): invert_r11's loop
 * for that column. */
static void invert_last_column(const ols_prefix *pre, const double *rlast, size_t p,
                               double *rinv)
{
    size_t j = p - 1;
    for (size_t i = 0; i < j; i++)
        memcpy(rinv + i * p, pre->rinv + i * j, j * sizeof *rinv);
    for (size_t q = 0; q < j; q++)
        rinv[j * p + q] = 0;
    rinv[j * p + j] = 1.0 / rlast[j];
    for (size_t i = j; i-- > 0;) {
        double s = 0;
        for (size_t q = i + 1; q <= j; q++)
            s += (q == j ? rlast[i] : pre->r[q * j + i]) * rinv[q * p + j];
        rinv[i * p + j] = -s / pre->r[i * j + i];
    }
}

/* One candidate column after the prefix, as far as its LOO sum needs it:
 * the column (col, scaled by scale), R's last column (rlast, p values),
 * the reflected weighted means' first p values (qtop) and the residual sum
 * of squares of the fit. */
typedef struct {
    const double *col;
    double scale;
    double *rlast, *qtop;
    double rss;
} after_column;

/* The grouped LOO sum of ols_grouped_loo_sse for the fit after pre with
 * column a: set_coefficients, set_fitted, set_hat and set_summary's
 * exact-fit rule (yy: the responses' sum of squares, constant: every run
 * the same), each only as far as the sum needs them; stopped once the sum
 * reaches limit. rinv and coef: scratch of p x p and 2 p values. */
static double loo_after(const ols_prefix *pre, const after_column *a, double yy, bool constant,
                        const double *mean, const double *count, const double *within,
                        double limit, double *rinv, double *coef)
{
    size_t g = pre->g, k = pre->k, p = k + 2;
    invert_last_column(pre, a->rlast, p, rinv);
    for (size_t i = 0; i < p; i++) {
        double s = 0;
        for (size_t j = i; j < p; j++)
            s += rinv[i * p + j] * a->qtop[j];
        coef[i] = s / (i + 1 < p ? pre->scale[i] : a->scale);
    }
    /* set_summary adds every group's spread to the residuals' sum; the
     * sums only grow (rounding is monotone), so when the residuals' part
     * alone is above the exact-fit threshold the whole is too, and the g
     * additions are not needed to know that. */
    double rss = a->rss, sse = 0, threshold = EXACT_FIT_RATIO * yy;
    bool exact = constant;
    if (!exact && !(rss > threshold)) {
        for (size_t i = 0; i < g; i++)
            rss += within[i];
        exact = rss <= threshold;
    }
    /* R^-1's last column, contiguous (kept in coef's tail: p more values). */
    double *last = coef + p;
    for (size_t q = 0; q < p; q++)
        last[q] = rinv[q * p + p - 1];
    const double *col = a->col;
    for (size_t i = 0; i < g; i++) {
        const double *xs = pre->xs + i * (p - 1), *x = pre->x + i * k;
        /* set_fitted's and whiten's sums, term by term in their order. */
        double f = 0 + 1.0 * coef[0], z = 0;
        for (size_t q = 1; q <= k; q++)
            f += x[q - 1] * coef[q];
        f += col[i] * coef[p - 1];
        for (size_t q = 0; q + 1 < p; q++)
            z += last[q] * xs[q];
        z += last[p - 1] * (col[i] / a->scale);
        double h = pre->hat[i] + z * z, keep = 1 - count[i] * h;
        if (keep < 1e-10)
            return INFINITY;
        double r = (exact ? 0 : mean[i] - f) / keep;
        sse += within[i] + count[i] * r * r;
        if (sse >= limit)
            return sse; /* the rest only adds (see ols_prefix_loo_sse) */
    }
    return sse;
}

/* Candidates evaluated together: their columns interleaved (c[i * LANES +
 * b]), each lane doing exactly the single column's operations in the same
 * order, so that the sums of different columns, each a chain of
 * dependent additions, overlap instead of waiting for one another. */
#define LANES 4

/* norm2 of rows from.. of every lane (norm2's two passes, lane by lane). */
static void lane_norms(const double *c, size_t from, size_t g, double *norm)
{
    double big[LANES] = {0}, s[LANES] = {0}, div[LANES];
    for (size_t i = from; i < g; i++)
        for (size_t b = 0; b < LANES; b++)
            if (fabs(c[i * LANES + b]) > big[b])
                big[b] = fabs(c[i * LANES + b]);
    for (size_t b = 0; b < LANES; b++)
        div[b] = big[b] > 0 ? big[b] : 1.0;
    for (size_t i = from; i < g; i++)
        for (size_t b = 0; b < LANES; b++)
            s[b] += (c[i * LANES + b] / div[b]) * (c[i * LANES + b] / div[b]);
    for (size_t b = 0; b < LANES; b++)
        norm[b] = big[b] == 0 ? 0 : big[b] * sqrt(s[b]);
}

/* reflect() of the prefix's step l applied to every lane. */
static void lane_reflect(const ols_prefix *pre, size_t l, double *c)
{
    size_t g = pre->g;
    const double *v = pre->v + l * g;
    double s[LANES] = {0};
    for (size_t i = l; i < g; i++)
        for (size_t b = 0; b < LANES; b++)
            s[b] += v[i] * c[i * LANES + b];
    for (size_t b = 0; b < LANES; b++)
        s[b] *= pre->beta[l];
    for (size_t i = l; i < g; i++)
        for (size_t b = 0; b < LANES; b++)
            c[i * LANES + b] -= s[b] * v[i];
}

/* Each lane's own Householder step (householder_step at row k, norm[b]
 * the norm of its rows k..), applied to the prefix's weighted means:
 * fills a[b]'s R column, the means' first k + 1 values and the residual
 * sum of squares. */
static void lane_steps(const ols_prefix *pre, const double *c, const double *norm,
                       after_column *a)
{
    size_t g = pre->g, k = pre->k + 1;
    const double *qty = pre->qty;
    double alpha[LANES], beta[LANES], vk[LANES], s[LANES], rss[LANES] = {0};
    for (size_t b = 0; b < LANES; b++) {
        double ck = c[k * LANES + b];
        alpha[b] = ck > 0 ? -norm[b] : norm[b];
        beta[b] = 1.0 / (norm[b] * norm[b] - alpha[b] * ck);
        vk[b] = ck - alpha[b];
        s[b] = 0;
        s[b] += vk[b] * qty[k];
    }
    for (size_t i = k + 1; i < g; i++)
        for (size_t b = 0; b < LANES; b++)
            s[b] += c[i * LANES + b] * qty[i];
    for (size_t b = 0; b < LANES; b++)
        s[b] *= beta[b];
    for (size_t i = k + 1; i < g; i++)
        for (size_t b = 0; b < LANES; b++) {
            double q = qty[i] - s[b] * c[i * LANES + b];
            rss[b] += q * q;
        }
    for (size_t b = 0; b < LANES; b++) {
        for (size_t j = 0; j < k; j++) {
            a[b].rlast[j] = c[j * LANES + b];
            a[b].qtop[j] = qty[j];
        }
        a[b].rlast[k] = alpha[b];
        a[b].qtop[k] = qty[k] - s[b] * vk[b];
        a[b].rss = rss[b];
    }
}

/* The margin for rounding of screen()'s bound, and the least share of a
 * column outside the prefix's span for which the bound is trusted (nearer
 * the span the subtraction cc - proj loses too many digits). */
#define SCREEN_MARGIN 1e-6
#define SCREEN_MIN_PERP 1e-2

/* Before any fit: the residual sum of squares of each lane's fit after
 * the prefix, RSS = rss - (resid.c)^2 / |c - QQ'c|^2 plus the groups'
 * spreads (within_sum), lowered by SCREEN_MARGIN of its parts, into
 * bound[b]. The LOO sum is at least the RSS (each residual is divided by
 * 1 - c h <= 1) unless the fit is exact (then the residuals are zero:
 * hence the bound must also be clearly above yy's exact-fit level); -1
 * for a lane not thus at or above limit (it must be fitted). c holds the
 * weighted columns, unscaled, cc their sums of squares and rc their
 * products with the residual. */
static void screen(const ols_prefix *pre, const double *c, const bool *live, const double *cc,
                   const double *rc, double within_sum, double yy, double limit, double *bound)
{
    size_t g = pre->g, p = pre->k + 1;
    double proj[LANES] = {0};
    for (size_t j = 0; j < p; j++) {
        const double *q = pre->q + j * g;
        double d[LANES] = {0};
        for (size_t i = 0; i < g; i++)
            for (size_t b = 0; b < LANES; b++)
                d[b] += q[i] * c[i * LANES + b];
        for (size_t b = 0; b < LANES; b++)
            proj[b] += d[b] * d[b];
    }
    for (size_t b = 0; b < LANES; b++) {
        double perp = cc[b] - proj[b], gain = perp > 0 ? rc[b] * rc[b] / perp : INFINITY;
        double low = pre->rss - gain + within_sum - SCREEN_MARGIN * (pre->rss + gain + within_sum);
        bool trusted = live[b] && isfinite(cc[b]) && perp > SCREEN_MIN_PERP * cc[b] &&
                       isfinite(low);
        bound[b] = trusted && low >= limit && low > 1e-12 * yy ? low : -1;
    }
}

/* Up to LANES columns (cols[b], nb of them) after pre into sse[b]; c has
 * g * LANES values, work 2 p LANES + p * p + 2 p. Without fit they are
 * only screened: sse[b] is then screen()'s bound, INFINITY for a bad
 * column, or NAN where the column must be fitted. */
static void loo_lanes(const ols_prefix *pre, const double *const *cols, size_t nb,
                      const double *mean, const double *count, const double *within, double yy,
                      double within_sum, bool constant, double limit, bool fit, double *c,
                      double *work, double *sse)
{
    size_t g = pre->g, k = pre->k + 1, p = k + 1;
    bool live[LANES], bad[LANES], any_bad = false;
    double scale[LANES], norm[LANES], cc[LANES] = {0}, rc[LANES] = {0};
    const double *col[LANES];
    for (size_t b = 0; b < LANES; b++) {
        col[b] = cols[b < nb ? b : 0];
        if (b < nb)
            sse[b] = INFINITY;
    }
    /* One pass: check_values of each column, the weighted columns, and
     * screen()'s sums of squares and products with the residual. The
     * lanes go one after the other, so that each one's sums and largest
     * magnitude stay in registers (a flag stored per value, lanes
     * interleaved, was a fifth of the pass). */
    for (size_t b = 0; b < LANES; b++) {
        double largest = 0, total = 0, squares = 0, products = 0;
        for (size_t i = 0; i < g; i++) {
            double v = col[b][i], w = v * pre->root[i], m = fabs(v);
            largest = m > largest ? m : largest;
            total += v; /* a NaN, which no comparison keeps, stays here (values
                           under the bound cannot sum to one) */
            c[i * LANES + b] = w;
            squares += w * w;
            products += pre->resid[i] * w;
        }
        cc[b] = squares;
        rc[b] = products;
        bad[b] = !(largest <= OLS_MAX_MAGNITUDE) || isnan(total); /* infinities, NaN */
        live[b] = b < nb && !bad[b];
        any_bad |= !live[b];
    }
    for (size_t i = 0; any_bad && i < g; i++)
        for (size_t b = 0; b < LANES; b++)
            if (!live[b])
                c[i * LANES + b] = 0;
    if (!fit) {
        double bound[LANES];
        screen(pre, c, live, cc, rc, within_sum, yy, limit, bound);
        for (size_t b = 0; b < nb; b++)
            sse[b] = !live[b] ? INFINITY : bound[b] >= 0 ? bound[b] : NAN;
        return;
    }
    lane_norms(c, 0, g, norm);
    for (size_t b = 0; b < LANES; b++)
        scale[b] = norm[b] > 0 ? norm[b] : 1.0;
    for (size_t i = 0; i < g; i++)
        for (size_t b = 0; b < LANES; b++)
            c[i * LANES + b] /= scale[b];
    for (size_t l = 0; l < k; l++)
        lane_reflect(pre, l, c);
    lane_norms(c, k, g, norm);
    after_column a[LANES];
    double step_norm[LANES];
    for (size_t b = 0; b < LANES; b++) {
        a[b] = (after_column){cols[b < nb ? b : 0], scale[b], work + 2 * p * b,
                              work + 2 * p * b + p, 0};
        /* A dead or aliased lane's step is computed (on a harmless norm)
         * and ignored. */
        step_norm[b] = norm[b] > 0 ? norm[b] : 1;
    }
    lane_steps(pre, c, step_norm, a);
    double *scratch = work + 2 * p * LANES;
    for (size_t b = 0; b < nb; b++)
        if (live[b] && !(norm[b] < OLS_TOLERANCE)) /* else not finite or not of full rank */
            sse[b] = loo_after(pre, &a[b], yy, constant, mean, count, within, limit, scratch,
                               scratch + p * p);
}

/* ols_prefix_loo_sse with counts and spreads already checked (and, for
 * a weighted fit, weighted: count times weight, within times weight). */
static ols_status prefix_loo_sse(const ols_prefix *pre, const double *const *cols, size_t ncols,
                                 const double *mean, const double *count, const double *within,
                                 size_t g, double limit, double *sse)
{
    ols_status st = check_values(mean, g);
    if (st != OLS_OK)
        return st;
    size_t p = pre->k + 2;
    double *c = malloc((g * LANES + 2 * p * LANES + p * p + 2 * p) * sizeof *c);
    if (!c)
        return OLS_ERR_NOMEM;
    /* set_summary's exact-fit rule: the same for every column. */
    double yy = 0, within_sum = 0;
    bool constant = true;
    for (size_t i = 0; i < g; i++) {
        yy += count[i] * mean[i] * mean[i] + within[i];
        within_sum += within[i];
        constant &= within[i] == 0 && mean[i] == mean[0];
    }
    /* With a limit, every column is screened first, four at a time; those
     * it cannot settle are then fitted, packed four at a time again. */
    bool fit_all = !isfinite(limit);
    for (size_t b = 0; b < ncols; b += LANES)
        loo_lanes(pre, cols + b, ncols - b < LANES ? ncols - b : LANES, mean, count, within, yy,
                  within_sum, constant, limit, fit_all, c, c + g * LANES, sse + b);
    for (size_t b = 0; !fit_all && b < ncols;) {
        const double *pack[LANES];
        size_t at[LANES], n = 0;
        for (; b < ncols && n < LANES; b++)
            if (isnan(sse[b]))
                at[n] = b, pack[n++] = cols[b];
        double out[LANES];
        if (n > 0)
            loo_lanes(pre, pack, n, mean, count, within, yy, within_sum, constant, limit, true, c,
                      c + g * LANES, out);
        for (size_t j = 0; j < n; j++)
            sse[at[j]] = out[j];
    }
    free(c);
    return OLS_OK;
}

/* count times weight and within times weight into wcount and wwithin
 * (g each, one allocation: wwithin = wcount + g); NULL when out of memory. */
static double *weigh_groups(const double *count, const double *weight, const double *within,
                            size_t g)
{
    double *wcount = malloc((2 * g + 1) * sizeof *wcount);
    for (size_t i = 0; wcount && i < g; i++) {
        wcount[i] = count[i] * weight[i];
        wcount[g + i] = within ? within[i] * weight[i] : 0;
    }
    return wcount;
}

/* ols_prefix_loo_sse, weighted when weight is not NULL: the groups
 * checked, then their weighted counts and spreads summed. */
static ols_status checked_loo_sse(const ols_prefix *pre, const double *const *cols, size_t ncols,
                                  const double *mean, const double *count, const double *weight,
                                  const double *within, size_t g, double limit, double *sse)
{
    for (size_t b = 0; b < ncols; b++)
        sse[b] = INFINITY;
    if (!pre->usable || pre->g != g)
        return OLS_ERR_NO_RUNS;
    if (!groups_valid(count, within, weight, g))
        return OLS_ERR_NOT_FINITE;
    if (!weight)
        return prefix_loo_sse(pre, cols, ncols, mean, count, within, g, limit, sse);
    double *wcount = weigh_groups(count, weight, within, g);
    if (!wcount)
        return OLS_ERR_NOMEM;
    ols_status st = prefix_loo_sse(pre, cols, ncols, mean, wcount, wcount + g, g, limit, sse);
    free(wcount);
    return st;
}

ols_status ols_prefix_loo_sse(const ols_prefix *pre, const double *const *cols, size_t ncols,
                              const double *mean, const double *count, const double *within,
                              size_t g, double limit, double *sse)
{
    return checked_loo_sse(pre, cols, ncols, mean, count, NULL, within, g, limit, sse);
}

ols_status ols_prefix_init_weighted(ols_prefix *pre, const double *x, const double *mean,
                                    const double *count, const double *weight, size_t g,
                                    size_t k)
{
    *pre = (ols_prefix){.g = g, .k = k};
    double *wcount = weigh_groups(count, weight, NULL, g);
    if (!wcount)
        return OLS_ERR_NOMEM;
    ols_status st = ols_prefix_init(pre, x, mean, wcount, g, k);
    free(wcount);
    return st;
}

ols_status ols_prefix_loo_sse_weighted(const ols_prefix *pre, const double *const *cols,
                                       size_t ncols, const double *mean, const double *count,
                                       const double *weight, const double *within, size_t g,
                                       double limit, double *sse)
{
    return checked_loo_sse(pre, cols, ncols, mean, count, weight, within, g, limit, sse);
}

/* The last column c of the fit after pre (its index k): scaled, reflected
 * as the prefix's steps would have, then its own step; R into r (k + 1
 * square, column-major). Returns the rank. */
static size_t decompose_after(const ols_prefix *pre, const double *x, size_t k,
                              const double *root, ols_model *m, double *c, double *qty,
                              double *r)
{
    size_t g = pre->g, p = k + 1;
    scaled_column(x, g, k, k, root, c, &m->scale[k]);
    memcpy(m->scale, pre->scale, k * sizeof *m->scale);
    for (size_t l = 0; l < k; l++)
        reflect(pre->v + l * g, pre->beta[l], l, g, c);
    memcpy(qty, pre->qty, g * sizeof *qty);
    size_t rank = p;
    double norm = norm2(c + k, g - k);
    if (norm < OLS_TOLERANCE)
        rank = k; /* set aside: as the last column it stays where it is */
    else
        householder_step(c, c + g, 0, g, k, qty, norm, NULL, NULL);
    for (size_t j = 0; j < k; j++)
        memcpy(r + j * p, pre->r + j * k, (j + 1) * sizeof *r);
    memcpy(r + k * p, c, p * sizeof *r);
    return rank;
}

/* ols_fit_grouped_after, weighted when weight is not NULL. */
static ols_status fit_after(const ols_prefix *pre, const double *x, const double *mean,
                            const double *count, const double *weight, const double *within,
                            size_t g, size_t k, ols_model *m)
{
    if (!pre->usable || pre->g != g || pre->k + 1 != k)
        return weight ? ols_fit_grouped_weighted(x, mean, count, weight, within, g, k, m)
                      : ols_fit_grouped(x, mean, count, within, g, k, m);
    memset(m, 0, sizeof *m);
    if (!groups_valid(count, within, weight, g))
        return OLS_ERR_NOT_FINITE;
    double *root, *qty, *c = NULL, *r = NULL;
    ols_status st = begin_fit(x, mean, g, k, count, within, weight, true, m, &root, &qty);
    if (st == OLS_OK && (!(c = malloc(g * sizeof *c)) ||
                         !(r = malloc((k + 1) * (k + 1) * sizeof *r))))
        st = OLS_ERR_NOMEM;
    if (st == OLS_OK) {
        m->rank = decompose_after(pre, x, k, root, m, c, qty, r);
        st = end_fit(m, r, k + 1, x, mean, k, qty, true);
    }
    free(root);
    free(qty);
    free(c);
    free(r);
    return st;
}

ols_status ols_fit_grouped_after(const ols_prefix *pre, const double *x, const double *mean,
                                 const double *count, const double *within, size_t g, size_t k,
                                 ols_model *m)
{
    return fit_after(pre, x, mean, count, NULL, within, g, k, m);
}

ols_status ols_fit_grouped_after_weighted(const ols_prefix *pre, const double *x,
                                          const double *mean, const double *count,
                                          const double *weight, const double *within, size_t g,
                                          size_t k, ols_model *m)
{
    return fit_after(pre, x, mean, count, weight, within, g, k, m);
}

/* Position of coefficient j in the pivoted order. */
static size_t position_of(const ols_model *m, size_t j)
{
    size_t q = 0;
    while (q < m->ncoef && m->order[q] != j)
        q++;
    return q;
}

ols_status ols_hc3_std_error(const ols_model *m, const double *x, size_t k, size_t j,
                             double *se)
{
    *se = NAN;
    size_t q = position_of(m, j), r = m->rank;
    if (q >= r)
        return OLS_OK;
    double *z = malloc(r * sizeof *z);
    if (!z)
        return OLS_ERR_NOMEM;
    /* b = (X'X)^-1 X'y, so b_j = sum_i a_ji y_i with a_i = R11^-1 z_i
     * (scaled); HC3 weighs each run by its squared leave-one-out residual. */
    double var = 0;
    for (size_t i = 0; i < m->ngroups; i++) {
        whiten(m, x + i * k, z);
        double a = 0;
        for (size_t l = q; l < r; l++)
            a += m->rinv[q * r + l] * z[l];
        double w = m->weight ? m->weight[i] : 1.0, keep = 1 - w * m->hat[i];
        /* A group's runs share a and h: their squared residuals sum to the
         * spread around the mean plus c times the mean's squared residual.
         * Weighted, a run enters b as w a y: its term is (w a e)^2, and
         * runs_of and within are already weighted once. */
        double e2 = runs_of(m, i) * m->residuals[i] * m->residuals[i] +
                    (m->within ? m->within[i] : 0);
        e2 *= w;
        var += keep < 1e-10 ? INFINITY : a * a * e2 / (keep * keep);
    }
    free(z);
    *se = sqrt(var) / m->scale[j];
    return OLS_OK;
}
