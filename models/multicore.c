/*
 * multicore.c — the parts of the multicore model around the fit: the
 * factor list of seed 003, formula parsing, prediction with delta-method
 * intervals, and the paper's error measure. The fit is in multicore_fit.c.
 */
#include "models/multicore.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

static const struct {
    const char *name;
    const char *definition;
} factor_table[MULTICORE_NFACTORS] = {
    [MULTICORE_MBW_READ] = {"mbw_read", "MBW_rd/Nc"},
    [MULTICORE_MBW_WRITE] = {"mbw_write", "MBW_wr/Nc"},
    [MULTICORE_NODES] = {"nodes", "1/Nn"},
    [MULTICORE_CORES] = {"cores", "1/Nc"},
    [MULTICORE_PROCS] = {"procs", "1/(Nc*Nn)"},
    [MULTICORE_NET_BW] = {"net_bw", "NBW/Nc"},
    [MULTICORE_PLATFORM] = {"platform", "1/pc"},
};

const char *multicore_factor_name(multicore_factor f)
{
    return f < MULTICORE_NFACTORS ? factor_table[f].name : "?";
}

const char *multicore_factor_definition(multicore_factor f)
{
    return f < MULTICORE_NFACTORS ? factor_table[f].definition : "?";
}

/* The factor called name[0..len), or MULTICORE_NFACTORS. */
static multicore_factor factor_by_name(const char *name, size_t len)
{
    for (int f = 0; f < MULTICORE_NFACTORS; f++)
        if (strlen(factor_table[f].name) == len && strncmp(factor_table[f].name, name, len) == 0)
            return (multicore_factor)f;
    return MULTICORE_NFACTORS;
}

bool multicore_parse_formula(const char *text, multicore_factor *out, size_t max,
                             size_t *n, char *err, size_t errlen)
{
    *n = 0;
    const char *p = text ? text : "";
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        const char *start = p;
        while (*p && *p != '*' && !isspace((unsigned char)*p))
            p++;
        size_t len = (size_t)(p - start);
        while (isspace((unsigned char)*p))
            p++;
        if (len == 0) {
            snprintf(err, errlen, "%s", *n == 0 && !*p
                         ? "empty multicore formula: name factors such as 'procs * mbw_read'"
                         : "missing factor name around '*' in the multicore formula");
            return false;
        }
        multicore_factor f = factor_by_name(start, len);
        if (f == MULTICORE_NFACTORS) {
            snprintf(err, errlen, "unknown multicore factor '%.*s' (known: mbw_read, mbw_write, "
                     "nodes, cores, procs, net_bw, platform)", (int)len, start);
            return false;
        }
        for (size_t i = 0; i < *n; i++)
            if (out[i] == f) {
                snprintf(err, errlen, "factor '%s' appears twice in the multicore formula",
                         factor_table[f].name);
                return false;
            }
        if (*n == max) {
            snprintf(err, errlen, "too many factors in the multicore formula (at most %zu)", max);
            return false;
        }
        out[(*n)++] = f;
        if (!*p)
            return true;
        if (*p != '*') {
            snprintf(err, errlen, "expected '*' between multicore factors, found '%c'", *p);
            return false;
        }
        p++;
    }
}

/* True when v is a usable positive quantity. */
static bool positive(double v)
{
    return isfinite(v) && v > 0;
}

bool multicore_factor_z(multicore_factor f, const multicore_config *c, double *z,
                        const char **missing)
{
    double num = 1, den = 1;
    const char *need = NULL;
    switch (f) {
    case MULTICORE_MBW_READ:  num = c->mbw_read_gbs;  need = "mbw_read_gbs"; break;
    case MULTICORE_MBW_WRITE: num = c->mbw_write_gbs; need = "mbw_write_gbs"; break;
    case MULTICORE_NET_BW:    num = c->net_bw_gbs;    need = "net_bw_gbs"; break;
    case MULTICORE_PLATFORM:  den = c->platform_contribution; need = "platform_contribution"; break;
    case MULTICORE_NODES:     den = c->nodes; need = "nodes"; break;
    case MULTICORE_CORES:
    case MULTICORE_PROCS:     break;
    default:
        *missing = "factor";
        return false;
    }
    if (need && !(positive(num) && positive(den))) {
        *missing = need;
        return false;
    }
    /* Every factor except nodes and platform is shared by the Nc processes of a node. */
    if (f != MULTICORE_NODES && f != MULTICORE_PLATFORM) {
        if (!positive(c->procs_per_node)) {
            *missing = "ppn";
            return false;
        }
        den *= c->procs_per_node;
    }
    if (f == MULTICORE_PROCS) {
        if (!positive(c->nodes)) {
            *missing = "nodes";
            return false;
        }
        den *= c->nodes;
    }
    *z = num / den;
    return true;
}

void multicore_options_default(multicore_options *o)
{
    o->starts = 8;
    o->max_iter = 1000;
    o->residuals = MULTICORE_RELATIVE;
}

/* Where z0 leaves what the training runs cover, if anywhere. */
static multicore_extrapolation check_extrapolation(const multicore_fit *fit, const double *z0,
                                                   size_t *which)
{
    for (size_t i = 0; i < fit->m; i++) {
        const multicore_factor_fit *f = &fit->factors[i];
        double tol = 1e-9 * fmax(fabs(f->zmax), fabs(f->zmin));
        bool changed = false;
        if (f->status == MULTICORE_KEPT) {
            if (z0[i] < f->zmin - tol || z0[i] > f->zmax + tol) {
                *which = i;
                return MULTICORE_OUTSIDE_RANGE;
            }
            continue;
        }
        if (f->status == MULTICORE_CONSTANT)
            changed = fabs(z0[i] - f->zref) > tol;
        else
            changed = fabs(z0[i] - (f->dup_slope * z0[f->duplicate_of] + f->dup_offset)) >
                      1e-9 * fmax(fabs(z0[i]), tol);
        if (changed) {
            *which = i;
            return MULTICORE_DROPPED_CHANGED;
        }
    }
    return MULTICORE_INSIDE;
}

multicore_status multicore_predict(const multicore_fit *fit, const double *z0,
                                   multicore_prediction *out)
{
    size_t p = 1 + fit->nkept;
    double g[1 + MULTICORE_MAX_FACTORS], f[MULTICORE_MAX_FACTORS], u[MULTICORE_MAX_FACTORS];
    if (fit->m > MULTICORE_MAX_FACTORS)
        return MULTICORE_EINVAL;
    for (size_t i = 0; i < fit->m; i++)
        if (!positive(z0[i]))
            return MULTICORE_EINVAL;

    /* Values of the kept factors and the prediction. */
    double prod = 1;
    size_t k = 0;
    for (size_t i = 0; i < fit->m; i++) {
        const multicore_factor_fit *ff = &fit->factors[i];
        if (ff->status != MULTICORE_KEPT)
            continue;
        u[k] = z0[i] / ff->zref - 1;
        f[k] = 1 + ff->c * u[k];
        prod *= f[k];
        k++;
    }
    *out = (multicore_prediction){
        .estimate = fit->scale * prod,
        .se = NAN, .ci_low = NAN, .ci_high = NAN, .pi_low = NAN, .pi_high = NAN,
    };
    out->extrapolation = check_extrapolation(fit, z0, &out->extrapolation_factor);
    if (!fit->cov || !isfinite(out->estimate))
        return MULTICORE_OK;

    /* Delta method: gradient of scale * prod f_k with respect to (scale, c_k). */
    g[0] = prod;
    for (size_t a = 0; a < k; a++) {
        double others = 1;
        for (size_t b = 0; b < k; b++)
            if (b != a)
                others *= f[b];
        g[1 + a] = fit->scale * u[a] * others;
    }
    double var = 0;
    for (size_t a = 0; a < p; a++)
        for (size_t b = 0; b < p; b++)
            var += g[a] * fit->cov[a * p + b] * g[b];
    double t = gsl_cdf_tdist_Pinv(0.975, (double)fit->df);
    double noise = fit->residuals == MULTICORE_RELATIVE ? fit->sigma * out->estimate : fit->sigma;
    out->se = sqrt(fmax(var, 0));
    double half_ci = t * out->se;
    double half_pi = t * sqrt(fmax(var, 0) + noise * noise);
    out->ci_low = out->estimate - half_ci;
    out->ci_high = out->estimate + half_ci;
    out->pi_low = out->estimate - half_pi;
    out->pi_high = out->estimate + half_pi;
    return MULTICORE_OK;
}

double multicore_error_pct(double actual, double predicted)
{
    if (!positive(actual) || !isfinite(predicted))
        return NAN;
    return 100.0 * fabs(actual - predicted) / actual;
}

void multicore_summarise_errors(const double *err, size_t n, multicore_error_summary *out)
{
    *out = (multicore_error_summary){0, NAN, NAN, NAN};
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(err[i]))
            continue;
        if (out->n == 0 || err[i] < out->min)
            out->min = err[i];
        if (out->n == 0 || err[i] > out->max)
            out->max = err[i];
        sum += err[i];
        out->n++;
    }
    if (out->n)
        out->mean = sum / (double)out->n;
}
