/*
 * regdiag.c — residual diagnostics for an ols_model (see regdiag.h).
 */
#include "models/regdiag.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Shapiro–Wilk (Royston 1995)                                         */

static double polynomial(const double *c, size_t nc, double x)
{
    double v = 0;
    for (size_t i = nc; i-- > 0;)
        v = v * x + c[i];
    return v;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Royston's approximation of the Shapiro–Wilk coefficients for the sorted
 * sample: antisymmetric, unit norm. */
static void shapiro_coefficients(size_t n, double *a)
{
    static const double c1[] = {0, 0.221157, -0.147981, -2.07119, 4.434685, -2.706056};
    static const double c2[] = {0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633};
    size_t half = n / 2;
    memset(a, 0, n * sizeof *a);
    if (n == 3) {
        a[0] = -sqrt(0.5);
        a[2] = sqrt(0.5);
        return;
    }
    /* m: expected normal order statistics (Blom), lower half, negative. */
    double sum_m2 = 0;
    for (size_t i = 0; i < half; i++) {
        a[i] = gsl_cdf_ugaussian_Pinv(((double)i + 1 - 0.375) / ((double)n + 0.25));
        sum_m2 += 2 * a[i] * a[i];
    }
    double u = 1 / sqrt((double)n), root = sqrt(sum_m2);
    double an = polynomial(c1, 6, u) - a[0] / root;
    double an1 = polynomial(c2, 6, u) - a[1] / root;
    size_t exact = n > 5 ? 2 : 1; /* extreme coefficients set by polynomial */
    double fac = n > 5 ? sqrt((sum_m2 - 2 * a[0] * a[0] - 2 * a[1] * a[1]) /
                              (1 - 2 * an * an - 2 * an1 * an1))
                       : sqrt((sum_m2 - 2 * a[0] * a[0]) / (1 - 2 * an * an));
    for (size_t i = exact; i < half; i++)
        a[i] /= fac;
    a[0] = -an;
    if (exact == 2)
        a[1] = -an1;
    for (size_t i = 0; i < half; i++)
        a[n - 1 - i] = -a[i];
}

/* Royston's normalising transformations of log(1 - W). */
static double shapiro_p(size_t n, double w, double one_minus_w)
{
    static const double g[] = {-2.273, 0.459};
    static const double c3[] = {0.544, -0.39978, 0.025054, -6.714e-4};
    static const double c4[] = {1.3822, -0.77857, 0.062767, -0.0020322};
    static const double c5[] = {-1.5861, -0.31082, -0.083751, 0.0038915};
    static const double c6[] = {-0.4803, -0.082676, 0.0030302};
    double dn = (double)n, y = log(one_minus_w), m, s;
    if (n == 3) {
        double p = 6 / M_PI * (asin(sqrt(w)) - M_PI / 3);
        return p > 0 ? p : 0;
    }
    if (n <= 11) {
        double gamma = polynomial(g, 2, dn);
        if (y >= gamma)
            return 1e-99; /* beyond the approximation: certainly not normal */
        y = -log(gamma - y);
        m = polynomial(c3, 4, dn);
        s = exp(polynomial(c4, 4, dn));
    } else {
        double ln = log(dn);
        m = polynomial(c5, 4, ln);
        s = exp(polynomial(c6, 3, ln));
    }
    return gsl_cdf_ugaussian_Q((y - m) / s);
}

bool regdiag_shapiro_wilk(const double *x, size_t n, double *w, double *p)
{
    if (n < 3 || n > 5000)
        return false;
    double *s = malloc(2 * n * sizeof *s);
    if (!s)
        return false;
    double *a = s + n;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, compare_doubles);
    double range = s[n - 1] - s[0];
    double big = fabs(s[0]) > fabs(s[n - 1]) ? fabs(s[0]) : fabs(s[n - 1]);
    if (!(range > 1e-10 * big)) {
        free(s);
        return false;
    }
    shapiro_coefficients(n, a);
    /* W is the squared correlation of the sorted sample with a; 1 - W is
     * formed directly so W near 1 keeps its digits. */
    double mean = 0;
    for (size_t i = 0; i < n; i++)
        mean += s[i] / range;
    mean /= (double)n;
    double ssa = 0, ssx = 0, sax = 0;
    for (size_t i = 0; i < n; i++) {
        double xi = s[i] / range - mean;
        ssa += a[i] * a[i];
        ssx += xi * xi;
        sax += a[i] * xi;
    }
    double root = sqrt(ssa * ssx);
    double one_minus_w = (root - sax) * (root + sax) / (ssa * ssx);
    *w = 1 - one_minus_w;
    *p = shapiro_p(n, *w, one_minus_w);
    free(s);
    return true;
}

/* ------------------------------------------------------------------ */
/* The checks on a fit                                                 */

static const char *TOO_FEW_DF = "fewer than 3 residual degrees of freedom";

static void check_normality(const ols_model *m, regdiag_result *r)
{
    if (m->test_absent == OLS_EXACT_FIT)
        r->normality_skipped = ols_absence_text(OLS_EXACT_FIT);
    else if (m->df_resid < 3)
        r->normality_skipped = TOO_FEW_DF;
    else if (m->n > 5000)
        r->normality_skipped = "more than 5000 runs (beyond the Shapiro-Wilk approximation)";
    else if (!regdiag_shapiro_wilk(m->residuals, m->n, &r->sw_w, &r->sw_p))
        r->normality_skipped = "the residuals are all equal";
}

/* Returns false only when out of memory. */
static bool check_variance(const ols_model *m, const double *x, size_t k, regdiag_result *r)
{
    if (m->test_absent) {
        r->variance_skipped = ols_absence_text(m->test_absent);
        return true;
    }
    if (m->df_resid < 3) {
        r->variance_skipped = TOO_FEW_DF;
        return true;
    }
    size_t n = m->n;
    double *w = malloc(n * sizeof *w);
    if (!w)
        return false;
    double mean = 0, ssw = 0;
    for (size_t i = 0; i < n; i++)
        mean += m->residuals[i] * m->residuals[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++) {
        w[i] = m->residuals[i] * m->residuals[i] - mean;
        ssw += w[i] * w[i];
    }
    ols_model aux;
    ols_status st = ols_fit_without_leverages(x, w, n, k, &aux);
    bool ok = st != OLS_ERR_NOMEM;
    if (st != OLS_OK || aux.rank < 2 || !(ssw > 0)) {
        r->variance_skipped = aux.rank < 2 ? "no term to relate the variance to"
                                           : "the squared residuals are all equal";
    } else {
        double fitted2 = 0;
        for (size_t i = 0; i < n; i++)
            fitted2 += aux.fitted[i] * aux.fitted[i];
        r->bp = (double)n * fitted2 / ssw;
        r->bp_df = aux.rank - 1;
        r->bp_p = gsl_cdf_chisq_Q(r->bp, (double)r->bp_df);
    }
    ols_free(&aux);
    free(w);
    return ok;
}

/* Returns false only when out of memory. */
static bool check_influence(const ols_model *m, regdiag_result *r)
{
    if (m->test_absent) {
        r->influence_skipped = ols_absence_text(m->test_absent);
        return true;
    }
    size_t n = m->n;
    r->n = n;
    r->cooks = malloc(n * sizeof *r->cooks);
    r->influential = calloc(n, sizeof *r->influential);
    if (!r->cooks || !r->influential)
        return false;
    double p = (double)m->rank, s2 = m->sigma * m->sigma, worst = -1;
    double df = (double)m->df_resid, median = gsl_cdf_fdist_Pinv(0.5, p, df);
    for (size_t i = 0; i < n; i++) {
        double keep = 1 - m->hat[i];
        if (keep < 1e-10) {
            r->cooks[i] = NAN;
            r->influential[i] = true;
        } else {
            double e = m->residuals[i] / keep;
            r->cooks[i] = e * e * m->hat[i] / (p * s2);
            /* P(F <= D) > 1/2: only a D near the median needs the
             * distribution function (a million of those calls were 5% of
             * a fit); elsewhere the side of the median decides. */
            double d = r->cooks[i];
            bool near = !isfinite(median) || fabs(d - median) <= 1e-6 * median;
            r->influential[i] = near ? gsl_cdf_fdist_P(d, p, df) > 0.5 : d > median;
        }
        double rank_value = isnan(r->cooks[i]) ? INFINITY : r->cooks[i];
        if (rank_value > worst) {
            worst = rank_value;
            r->worst = i;
        }
        r->ninfluential += r->influential[i];
    }
    return true;
}

bool regdiag_run(const ols_model *m, const double *x, size_t k, regdiag_result *out)
{
    memset(out, 0, sizeof *out);
    check_normality(m, out);
    return check_variance(m, x, k, out) && check_influence(m, out);
}

void regdiag_free(regdiag_result *r)
{
    free(r->cooks);
    free(r->influential);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------ */
/* Verdicts                                                            */

/* "p = 0.034" or "p < 1e-10". */
static void format_p(double p, char *buf, size_t len)
{
    if (p < 1e-10)
        snprintf(buf, len, "p < 1e-10");
    else
        snprintf(buf, len, "p = %.2g", p);
}

void regdiag_normality_verdict(const regdiag_result *r, char *buf, size_t len)
{
    const char *what = "residual normality (Shapiro-Wilk)";
    if (r->normality_skipped) {
        snprintf(buf, len, "%s: not checked, %s", what, r->normality_skipped);
        return;
    }
    char p[32];
    format_p(r->sw_p, p, sizeof p);
    snprintf(buf, len, "%s: W = %.3f, %s: %s", what, r->sw_w, p,
             r->sw_p < REGDIAG_ALPHA
                 ? "the residuals are not normal, so the intervals may be off"
                 : "no evidence against normal errors");
}

void regdiag_variance_verdict(const regdiag_result *r, char *buf, size_t len)
{
    const char *what = "constant variance (Breusch-Pagan)";
    if (r->variance_skipped) {
        snprintf(buf, len, "%s: not checked, %s", what, r->variance_skipped);
        return;
    }
    char p[32];
    format_p(r->bp_p, p, sizeof p);
    snprintf(buf, len, "%s: BP = %.3g on %zu df, %s: %s", what, r->bp, r->bp_df, p,
             r->bp_p < REGDIAG_ALPHA
                 ? "the spread changes with the terms, so the intervals are too wide "
                   "in places and too narrow in others"
                 : "no evidence that the spread changes");
}

static void run_name(const long *labels, const char *word, size_t i, char *buf, size_t len)
{
    if (labels)
        snprintf(buf, len, "%s %ld", word ? word : "run", labels[i]);
    else
        snprintf(buf, len, "run %zu", i + 1);
}

/* " (D = 1.23)" or " (leverage 1)". */
static void cooks_text(const regdiag_result *r, size_t i, char *buf, size_t len)
{
    if (isnan(r->cooks[i]))
        snprintf(buf, len, " (leverage 1: the fit passes through it)");
    else
        snprintf(buf, len, " (D = %.3g)", r->cooks[i]);
}

void regdiag_influence_verdict(const regdiag_result *r, const long *labels,
                               const char *label_word, char *buf, size_t len)
{
    const char *what = "influential runs (Cook's distance)";
    char name[64], d[64];
    if (r->influence_skipped) {
        snprintf(buf, len, "%s: not checked, %s", what, r->influence_skipped);
        return;
    }
    run_name(labels, label_word, r->worst, name, sizeof name);
    cooks_text(r, r->worst, d, sizeof d);
    if (r->ninfluential == 0) {
        snprintf(buf, len, "%s: none; the largest is %s%s", what, name, d);
        return;
    }
    size_t used = (size_t)snprintf(buf, len, "%s: %zu run%s sway%s the fit:", what,
                                   r->ninfluential, r->ninfluential > 1 ? "s" : "",
                                   r->ninfluential > 1 ? "" : "s");
    size_t shown = 0;
    for (size_t i = 0; i < r->n && used < len; i++) {
        if (!r->influential[i])
            continue;
        if (shown++ == 3) {
            snprintf(buf + used, len - used, ", ...");
            break;
        }
        run_name(labels, label_word, i, name, sizeof name);
        cooks_text(r, i, d, sizeof d);
        used += (size_t)snprintf(buf + used, len - used, "%s %s%s", shown > 1 ? "," : "",
                                 name, d);
    }
}

void regdiag_significance_verdict(const ols_model *m, char *buf, size_t len)
{
    const char *what = "model significance (F test)";
    if (m->f_absent) {
        snprintf(buf, len, "%s: not tested, %s", what, ols_absence_text(m->f_absent));
        return;
    }
    char p[32];
    format_p(m->f_p, p, sizeof p);
    snprintf(buf, len, "%s: F = %.4g on %zu and %zu df, %s: %s", what, m->f, m->f_df1,
             m->df_resid, p,
             m->f_p < REGDIAG_ALPHA ? "the terms explain the response (significant at 95%)"
                                    : "the terms do not explain the response significantly");
}
