/*
 * powerlaw.c — the free-exponent power law c + a * p1^k1 * ... : exponents
 * on the log scale, coefficients on the search's weights, and its
 * leave-one-configuration-out error with the exponents refitted (see
 * powerlaw.h).
 */
#include "models/powerlaw.h"

#include "models/ols.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Scratch of one fit over at most g configurations. */
typedef struct {
    double *x;     /* g x TERMDATA_MAX_FACTORS: ln of the parameters, then the term */
    double *y;     /* g: ln(mean), then the mean */
    double *count, *weight, *within; /* g each, of the kept configurations */
    size_t *config; /* g: which configuration each row is */
} scratch;

static void scratch_free(scratch *w)
{
    free(w->x);
    free(w->y);
    free(w->count);
    free(w->weight);
    free(w->within);
    free(w->config);
}

static bool scratch_init(scratch *w, size_t g)
{
    *w = (scratch){.x = malloc((g * TERMDATA_MAX_FACTORS + 1) * sizeof *w->x),
                   .y = malloc((g + 1) * sizeof *w->y),
                   .count = malloc((g + 1) * sizeof *w->count),
                   .weight = malloc((g + 1) * sizeof *w->weight),
                   .within = malloc((g + 1) * sizeof *w->within),
                   .config = malloc((g + 1) * sizeof *w->config)};
    return w->x && w->y && w->count && w->weight && w->within && w->config;
}

/* The value of parameter p at configuration c. */
static double param_at(const termdata *d, size_t p, size_t c)
{
    return d->value_at[p][d->level[c * d->m + p]];
}

/* The usable parameters of d into pl (false when none or too many). */
static bool choose_params(const termdata *d, powerlaw *pl)
{
    pl->nparams = 0;
    for (size_t p = 0; p < d->m; p++) {
        if (!d->usable[p])
            continue;
        if (pl->nparams == TERMDATA_MAX_FACTORS)
            return false;
        pl->param[pl->nparams++] = p;
    }
    return pl->nparams > 0;
}

/* Step 1: the exponents by least squares of ln(mean) on the ln(p_j) over
 * the w's rows (each weighing its run count), rounded. */
static bool fit_exponents(const termdata *d, scratch *w, size_t rows, powerlaw *pl, bool *nomem)
{
    size_t q = pl->nparams;
    for (size_t r = 0; r < rows; r++) {
        size_t c = w->config[r];
        if (!(d->mean[c] > 0))
            return false;
        w->y[r] = log(d->mean[c]);
        w->within[r] = 0; /* the spread does not move the coefficients */
        for (size_t j = 0; j < q; j++)
            w->x[r * q + j] = log(param_at(d, pl->param[j], c));
    }
    ols_model m;
    ols_status st = ols_fit_grouped(w->x, w->y, w->count, w->within, rows, q, &m);
    *nomem |= st == OLS_ERR_NOMEM;
    bool ok = st == OLS_OK && m.rank == q + 1, constant = true;
    for (size_t j = 0; ok && j < q; j++) {
        double k = round(m.coef[j + 1] * POWERLAW_STEPS) / POWERLAW_STEPS;
        ok = fabs(k) <= POWERLAW_MAX_EXPONENT;
        constant &= k == 0;
        pl->exponent[j] = k;
    }
    ols_free(&m);
    return ok && !constant;
}

/* p1^k1 * ... of the law at configuration c of d. */
static double powerlaw_term_at(const termdata *d, const powerlaw *pl, size_t c)
{
    double v = 1;
    for (size_t j = 0; j < pl->nparams; j++)
        v *= pow(param_at(d, pl->param[j], c), pl->exponent[j]);
    return v;
}

/* Step 2: c and a by the search's weighted least squares of the means on
 * the term over w's rows; the model into *m (to release) when not NULL. */
static bool fit_coefficients(const termdata *d, scratch *w, size_t rows, powerlaw *pl,
                             ols_model *keep, bool *nomem)
{
    for (size_t r = 0; r < rows; r++) {
        size_t c = w->config[r];
        w->x[r] = powerlaw_term_at(d, pl, c);
        w->y[r] = d->mean[c];
        w->within[r] = d->within[c];
        if (!isfinite(w->x[r]))
            return false;
    }
    ols_model m;
    ols_status st = ols_fit_grouped_weighted(w->x, w->y, w->count, w->weight, w->within, rows,
                                             1, &m);
    *nomem |= st == OLS_ERR_NOMEM;
    bool ok = st == OLS_OK && m.rank == 2;
    if (ok) {
        pl->intercept = m.coef[0];
        pl->scale = m.coef[1];
    }
    if (ok && keep)
        *keep = m;
    else
        ols_free(&m);
    return ok;
}

/* Both steps on the configurations with keep[c] (NULL: all) into w. */
static bool fit_into(const termdata *d, const bool *keep, scratch *w, powerlaw *out,
                     ols_model *model, bool *nomem)
{
    size_t rows = 0;
    for (size_t c = 0; c < d->g; c++) {
        if (keep && !keep[c])
            continue;
        w->config[rows] = c;
        w->count[rows] = d->count[c];
        w->weight[rows] = d->weight[c];
        rows++;
    }
    powerlaw pl = {0};
    if (!choose_params(d, &pl) || rows < pl.nparams + 1 ||
        !fit_exponents(d, w, rows, &pl, nomem) ||
        !fit_coefficients(d, w, rows, &pl, model, nomem))
        return false;
    *out = pl;
    return true;
}

bool powerlaw_fit(const termdata *d, const bool *keep, powerlaw *out, bool *nomem)
{
    scratch w;
    bool ok = scratch_init(&w, d->g);
    *nomem |= !ok;
    ok = ok && fit_into(d, keep, &w, out, NULL, nomem);
    scratch_free(&w);
    return ok;
}

double powerlaw_value(const powerlaw *pl, const double *point)
{
    double v = 1;
    for (size_t j = 0; j < pl->nparams; j++)
        v *= pow(point[pl->param[j]], pl->exponent[j]);
    v = pl->intercept + pl->scale * v;
    return isfinite(v) ? v : NAN;
}

bool powerlaw_add_errors(const termdata *d, const powerlaw *pl, const bool *held, double *sse,
                         size_t *runs)
{
    for (size_t c = 0; c < d->g; c++) {
        if (!held[c])
            continue;
        double r = d->mean[c] - (pl->intercept + pl->scale * powerlaw_term_at(d, pl, c));
        *sse += d->weight[c] * (d->within[c] + d->count[c] * r * r);
        *runs += (size_t)d->count[c];
        if (!isfinite(r))
            return false;
    }
    return true;
}

/* Each configuration left out in turn, both steps refitted on the others. */
static double refitted_loo(const termdata *d, scratch *w, bool *nomem)
{
    bool *keep = malloc(2 * d->g * sizeof *keep), *held = keep + d->g;
    if (!keep) {
        *nomem = true;
        return INFINITY;
    }
    for (size_t c = 0; c < d->g; c++) {
        keep[c] = true;
        held[c] = false;
    }
    double sse = 0;
    size_t runs = 0;
    for (size_t c = 0; c < d->g && isfinite(sse); c++) {
        powerlaw pl;
        keep[c] = false;
        held[c] = true;
        if (!fit_into(d, keep, w, &pl, NULL, nomem) ||
            !powerlaw_add_errors(d, &pl, held, &sse, &runs))
            sse = INFINITY;
        keep[c] = true;
        held[c] = false;
    }
    free(keep);
    return sse;
}

/* The exponents of the full fit kept, the hat matrix's LOO of step 2. */
static double fixed_exponent_loo(const termdata *d, scratch *w, bool *nomem)
{
    powerlaw pl;
    ols_model m;
    double sse = INFINITY;
    if (!fit_into(d, NULL, w, &pl, &m, nomem))
        return INFINITY;
    ols_status st = ols_grouped_loo_sse(&m, &sse);
    *nomem |= st == OLS_ERR_NOMEM;
    ols_free(&m);
    return st == OLS_OK ? sse : INFINITY;
}

double powerlaw_loo_error(const termdata *d, bool *nomem)
{
    scratch w;
    if (!scratch_init(&w, d->g)) {
        scratch_free(&w);
        *nomem = true;
        return INFINITY;
    }
    double sse = d->g <= POWERLAW_EXACT_LOO_MAX ? refitted_loo(d, &w, nomem)
                                                : fixed_exponent_loo(d, &w, nomem);
    scratch_free(&w);
    return isfinite(sse) ? sse / (double)d->n : INFINITY;
}

void powerlaw_append(char *buf, size_t len, const char *const *names, const powerlaw *pl)
{
    size_t used = strlen(buf);
    if (used && used < len)
        used += (size_t)snprintf(buf + used, len - used, " + ");
    bool first = true;
    for (size_t j = 0; j < pl->nparams && used < len; j++) {
        double k = pl->exponent[j];
        const char *name = names[pl->param[j]], *times = first ? "" : "*";
        if (k == 0)
            continue; /* p^0: this parameter does not move the law */
        first = false;
        if (k == 1)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", times, name);
        else if (k > 0)
            used += (size_t)snprintf(buf + used, len - used, "%s%s^%g", times, name, k);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%s^(%g)", times, name, k);
    }
}
