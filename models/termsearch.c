/*
 * termsearch.c — forward selection of p^i*log2(p)^j terms by leave-one-out
 * cross-validation (see termsearch.h).
 */
#include "models/termsearch.h"

#include "models/ols.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_QUARTERS 12  /* exponents from -3 to 3 in steps of 1/4 */
#define MAX_LOG_POWER 2
#define MAX_FACTORS 4    /* parameters in one product term */
#define SEEDS 2          /* best single factors of each parameter to grow */
#define MAX_MOVES 64     /* bound on the improvement steps of one term */
#define MOVE_GAIN 0.01   /* a change of shape must lower the error by 1% */
#define ALPHA 0.05       /* significance of an added term, before Bonferroni */

typedef struct {
    size_t param;
    int quarters; /* exponent i = quarters / 4 */
    int log_power;
} factor;

typedef struct {
    factor f[MAX_FACTORS];
    size_t nf;
} term;

/* Factors p^(q/4) * log2(p)^j are indexed (j, q) within a parameter. */
#define FACTOR_KINDS ((MAX_LOG_POWER + 1) * (2 * MAX_QUARTERS + 1))

/* The runs are summarised once by configuration (runs with the same
 * parameter values): count, mean response and spread around the mean.
 * Every candidate is then scored on the configurations alone
 * (ols_fit_grouped), which gives the fit and the leave-one-configuration-
 * out error of the runs themselves; and the value of every factor at every
 * distinct value of its parameter is computed once, so a candidate's
 * values are products of table look-ups. */
typedef struct {
    const double *params; /* n x m */
    size_t n, m;
    const double *y;
    size_t g;             /* configurations */
    double *count, *mean, *within; /* g each */
    size_t *level;        /* g x m: the configuration's value of each parameter,
                             as an index into that parameter's distinct values */
    size_t *nlevels;      /* m: distinct values of each parameter */
    double **factor_at;   /* m: FACTOR_KINDS x nlevels[p] factor values, NULL
                             for a parameter that is not used */
    factor *alphabet;     /* every single factor of every usable parameter */
    size_t nalphabet;
    term *chosen;         /* terms selected so far */
    size_t nchosen;
    double *chosen_values;/* nchosen x g */
    double *x;            /* design scratch, g x (nchosen + 1) */
    double *values;       /* scratch for one candidate's values */
    size_t evaluated;     /* candidates scored */
    bool nomem;
} search;

static double factor_value(const factor *f, double p)
{
    double v = 1;
    if (f->quarters)
        v *= pow(p, f->quarters / 4.0);
    if (f->log_power)
        v *= pow(log2(p), f->log_power);
    return v;
}

static size_t factor_kind(const factor *f)
{
    return (size_t)f->log_power * (2 * MAX_QUARTERS + 1) + (size_t)(f->quarters + MAX_QUARTERS);
}

/* Values of t in every configuration into out; false when one is not
 * finite or all are equal (then t is no candidate: the intercept already
 * covers it). */
static bool term_values(const search *s, const term *t, double *out)
{
    bool varies = false;
    const double *table[MAX_FACTORS];
    for (size_t k = 0; k < t->nf; k++)
        table[k] = s->factor_at[t->f[k].param] + factor_kind(&t->f[k]) * s->nlevels[t->f[k].param];
    for (size_t r = 0; r < s->g; r++) {
        double v = 1;
        for (size_t k = 0; k < t->nf; k++)
            v *= table[k][s->level[r * s->m + t->f[k].param]];
        if (!isfinite(v))
            return false;
        out[r] = v;
        varies |= v != out[0];
    }
    return varies;
}

/* Cross-validation error of y ~ 1 + the first cols columns of s->x: the
 * mean squared error of each run predicted without its
 * configuration; INFINITY when some coefficient is not estimable or a
 * configuration cannot be left out. */
static double loo_error(search *s, size_t cols)
{
    ols_model m;
    ols_status st = ols_fit_grouped(s->x, s->mean, s->count, s->within, s->g, cols, &m);
    double e = INFINITY;
    if (st == OLS_OK && m.rank == cols + 1)
        st = ols_grouped_loo_sse(&m, &e);
    if (st == OLS_OK && m.rank == cols + 1)
        e /= (double)s->n;
    else
        e = INFINITY;
    s->nomem |= st == OLS_ERR_NOMEM;
    ols_free(&m);
    return e;
}

/* LOO error of the chosen terms plus t (INFINITY when t is unusable). */
static double score(search *s, const term *t)
{
    size_t cols = s->nchosen + 1;
    s->evaluated++;
    if (!term_values(s, t, s->values))
        return INFINITY;
    for (size_t r = 0; r < s->g; r++) {
        for (size_t k = 0; k < s->nchosen; k++)
            s->x[r * cols + k] = s->chosen_values[k * s->g + r];
        s->x[r * cols + s->nchosen] = s->values[r];
    }
    return loo_error(s, cols);
}

static bool uses_param(const term *t, size_t p)
{
    for (size_t k = 0; k < t->nf; k++)
        if (t->f[k].param == p)
            return true;
    return false;
}

/* Try t changed one way; keep it in *best when it scores lower. */
static void consider(search *s, const term *t, term *best, double *best_error)
{
    double e = score(s, t);
    if (e < *best_error * (1 - MOVE_GAIN)) {
        *best_error = e;
        *best = *t;
    }
}

/* The best single move from t: multiply by a factor of a parameter it does
 * not use yet, replace one factor by another of the same parameter, or
 * drop a factor. Returns true when some move lowers *error. */
static bool best_move(search *s, term *t, double *error)
{
    term best = *t, c;
    double best_error = *error;
    for (size_t a = 0; a < s->nalphabet; a++) {
        const factor *f = &s->alphabet[a];
        if (!uses_param(t, f->param) && t->nf < MAX_FACTORS) {
            c = *t;
            c.f[c.nf++] = *f;
            consider(s, &c, &best, &best_error);
        }
        for (size_t k = 0; k < t->nf; k++)
            if (t->f[k].param == f->param &&
                (t->f[k].quarters != f->quarters || t->f[k].log_power != f->log_power)) {
                c = *t;
                c.f[k] = *f;
                consider(s, &c, &best, &best_error);
            }
    }
    for (size_t k = 0; t->nf > 1 && k < t->nf; k++) {
        c = *t;
        c.f[k] = c.f[--c.nf];
        consider(s, &c, &best, &best_error);
    }
    if (!(best_error < *error))
        return false;
    *t = best;
    *error = best_error;
    return true;
}

/* Insert candidate a with error e into the list idx/err (count entries,
 * at most cap, lowest error first). */
static void keep_best(size_t *idx, double *err, size_t *count, size_t cap, size_t a, double e)
{
    size_t at = *count < cap ? (*count)++ : cap;
    while (at > 0 && err[at - 1] > e) {
        if (at < cap) {
            idx[at] = idx[at - 1];
            err[at] = err[at - 1];
        }
        at--;
    }
    if (at < cap) {
        idx[at] = a;
        err[at] = e;
    }
}

/* The best next term. Each parameter's SEEDS best single factors start a
 * local search that moves one step at a time while that lowers the error.
 * Seeds of every parameter, not only the best overall: for T = N/P with
 * few N values, P's factors alone look best, yet only N*P^(-1) fits, and
 * it is one move away from N but several from any P factor. */
static bool next_term(search *s, term *out, double *out_error)
{
    size_t seeds[SEEDS];
    double seed_error[SEEDS];
    bool any = false;
    *out_error = INFINITY;
    for (size_t p = 0; p < s->m; p++) {
        size_t ns = 0;
        for (size_t a = 0; a < s->nalphabet; a++) {
            term t = {.f = {s->alphabet[a]}, .nf = 1};
            double e = s->alphabet[a].param == p ? score(s, &t) : INFINITY;
            if (isfinite(e))
                keep_best(seeds, seed_error, &ns, SEEDS, a, e);
        }
        for (size_t i = 0; i < ns; i++) {
            term t = {.f = {s->alphabet[seeds[i]]}, .nf = 1};
            double e = seed_error[i];
            for (size_t moves = 0; moves < MAX_MOVES && best_move(s, &t, &e); moves++)
                ;
            if (e < *out_error) {
                *out_error = e;
                *out = t;
            }
        }
        any |= ns > 0;
    }
    return any;
}

static bool usable_param(const search *s, size_t p)
{
    bool varies = false;
    for (size_t r = 0; r < s->n; r++) {
        double v = s->params[r * s->m + p];
        if (!(v > 0) || !isfinite(v))
            return false;
        varies |= v != s->params[p];
    }
    return varies;
}

/* How unusual a factor is: whole powers, then halves, then quarters, each
 * with more log factors later; then the size of the exponent. */
static int complexity(const factor *f)
{
    int q = abs(f->quarters);
    int kind = q % 4 == 0 ? 0 : q % 2 == 0 ? 1 : 2;
    return ((kind + f->log_power) * 16 + q) * 2 + (f->quarters < 0);
}

static int compare_factors(const void *a, const void *b)
{
    const factor *x = a, *y = b;
    if (x->param != y->param)
        return x->param < y->param ? -1 : 1;
    return complexity(x) - complexity(y);
}

/* Every p^i*log2(p)^j of the usable parameters, simplest first: a later
 * factor must do clearly better to displace an earlier one (MOVE_GAIN), so
 * near ties go to the simpler shape. */
static size_t build_alphabet(search *s)
{
    size_t count = 0;
    for (size_t p = 0; p < s->m; p++) {
        if (!usable_param(s, p))
            continue;
        for (int j = 0; j <= MAX_LOG_POWER; j++)
            for (int q = -MAX_QUARTERS; q <= MAX_QUARTERS; q++)
                if (q != 0 || j != 0)
                    s->alphabet[count++] = (factor){p, q, j};
    }
    qsort(s->alphabet, count, sizeof *s->alphabet, compare_factors);
    return count;
}

/* Append " + " and the text of one term (N*P^(-1)*log2(P)^2), its
 * factors in parameter order. */
static void append_term(char *buf, size_t len, const char *const *names, const term *in)
{
    term sorted = *in;
    const term *t = &sorted;
    qsort(sorted.f, sorted.nf, sizeof *sorted.f, compare_factors);
    size_t used = strlen(buf);
    if (used)
        used += (size_t)snprintf(buf + used, len - used, " + ");
    for (size_t k = 0; k < t->nf && used < len; k++) {
        const factor *f = &t->f[k];
        const char *name = names[f->param];
        char part[160] = "";
        size_t pl = 0;
        if (f->quarters == 4)
            pl = (size_t)snprintf(part, sizeof part, "%s", name);
        else if (f->quarters > 0)
            pl = (size_t)snprintf(part, sizeof part, "%s^%g", name, f->quarters / 4.0);
        else if (f->quarters < 0)
            pl = (size_t)snprintf(part, sizeof part, "%s^(%g)", name, f->quarters / 4.0);
        if (f->log_power == 1)
            snprintf(part + pl, sizeof part - pl, "%slog2(%s)", pl ? "*" : "", name);
        else if (f->log_power > 1)
            snprintf(part + pl, sizeof part - pl, "%slog2(%s)^%d", pl ? "*" : "", name,
                     f->log_power);
        used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? "*" : "", part);
    }
}

/* p-value of the last term of y ~ 1 + chosen + t, from its HC3 standard
 * error (timing noise grows with the time; the plain t test would then
 * trust the largest runs too much). */
static double last_term_p(search *s, const term *t)
{
    score(s, t); /* leaves that design in s->x */
    size_t cols = s->nchosen + 1;
    ols_model m;
    double p = 1, se = NAN;
    ols_status st = ols_fit_grouped(s->x, s->mean, s->count, s->within, s->g, cols, &m);
    if (st == OLS_OK && !m.aliased[cols] && m.test_absent == OLS_EXACT_FIT)
        p = 0; /* noise-free data: the term explains everything left */
    else if (st == OLS_OK && !m.aliased[cols] && !m.test_absent)
        st = ols_hc3_std_error(&m, s->x, cols, cols, &se);
    if (st == OLS_OK && se > 0 && isfinite(se))
        p = 2 * gsl_cdf_tdist_Q(fabs(m.coef[cols] / se), (double)m.df_resid);
    s->nomem |= st == OLS_ERR_NOMEM;
    ols_free(&m);
    return p;
}

/* Add terms while each lowers the cross-validation error by min_gain and
 * is significant after a Bonferroni correction for the candidates tried
 * for it (the search tries hundreds of shapes; without the correction one
 * of them fits the noise). Returns the final error. */
static double select_terms(search *s, size_t max_terms, double min_gain, double base)
{
    double current = base, scale = 0;
    for (size_t i = 0; i < s->n; i++)
        scale += s->y[i] * s->y[i] / (double)s->n;
    /* Once the error is rounding noise, nothing is left to explain. */
    while (s->nchosen < max_terms && !s->nomem && current > 1e-20 * scale) {
        term t;
        double e;
        size_t before = s->evaluated;
        if (!next_term(s, &t, &e) || !(e < current * (1 - min_gain)))
            break;
        double tried = (double)(s->evaluated - before);
        if (!(last_term_p(s, &t) < ALPHA / tried))
            break;
        if (!term_values(s, &t, s->chosen_values + s->nchosen * s->g))
            break;
        s->chosen[s->nchosen++] = t;
        current = e;
    }
    return current;
}

void termsearch_free(termsearch_result *r)
{
    free(r->formula);
    memset(r, 0, sizeof *r);
}

static void search_free(search *s)
{
    for (size_t p = 0; s->factor_at && p < s->m; p++)
        free(s->factor_at[p]);
    free(s->factor_at);
    free(s->nlevels);
    free(s->level);
    free(s->count);
    free(s->mean);
    free(s->within);
    free(s->alphabet);
    free(s->chosen);
    free(s->chosen_values);
    free(s->x);
    free(s->values);
}

/* Sorting runs (or values) by their parameter values. */
typedef struct {
    const double *row;
    size_t len, index;
} keyed;

static int compare_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = memcmp(x->row, y->row, x->len * sizeof *x->row);
    if (c)
        return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Number the distinct rows (len values each, stride apart) of data in the
 * order they first appear: id[i] for each of the n rows; returns how many
 * (0 when out of memory). Sorting makes this O(n log n). */
static size_t number_distinct(const double *data, size_t n, size_t len, size_t stride,
                              size_t *id)
{
    keyed *k = malloc((n + 1) * sizeof *k);
    size_t *renumber = malloc((n + 1) * sizeof *renumber);
    size_t count = 0;
    if (k && renumber) {
        for (size_t i = 0; i < n; i++)
            k[i] = (keyed){data + i * stride, len, i};
        qsort(k, n, sizeof *k, compare_keyed);
        /* Sorted, equal rows are neighbours: number them in sorted order... */
        for (size_t i = 0; i < n; i++) {
            if (i == 0 || memcmp(k[i].row, k[i - 1].row, len * sizeof *k[i].row) != 0)
                renumber[count++] = SIZE_MAX;
            id[k[i].index] = count - 1;
        }
        /* ...then by first appearance. */
        size_t next = 0;
        for (size_t i = 0; i < n; i++) {
            if (renumber[id[i]] == SIZE_MAX)
                renumber[id[i]] = next++;
            id[i] = renumber[id[i]];
        }
    }
    free(k);
    free(renumber);
    return count;
}

/* The value of every factor of parameter p at each of its distinct values
 * (level[i]: the value of run i). */
static bool tabulate_factors(search *s, size_t p, const size_t *level)
{
    size_t nl = s->nlevels[p];
    double *values = malloc(nl * sizeof *values);
    double *t = s->factor_at[p] = malloc(FACTOR_KINDS * nl * sizeof *t);
    if (!values || !t) {
        free(values);
        return false;
    }
    for (size_t i = 0; i < s->n; i++)
        values[level[i]] = s->params[i * s->m + p];
    for (int j = 0; j <= MAX_LOG_POWER; j++)
        for (int q = -MAX_QUARTERS; q <= MAX_QUARTERS; q++) {
            factor f = {p, q, j};
            for (size_t l = 0; l < nl; l++)
                t[factor_kind(&f) * nl + l] = factor_value(&f, values[l]);
        }
    free(values);
    return true;
}

/* Count, mean response and spread around the mean of each configuration. */
static bool summarise_configurations(search *s)
{
    size_t *config = malloc((s->n + 1) * sizeof *config);
    if (!config || !(s->g = number_distinct(s->params, s->n, s->m, s->m, config))) {
        free(config);
        return false;
    }
    s->count = calloc(s->g, sizeof *s->count);
    s->mean = calloc(s->g, sizeof *s->mean);
    s->within = calloc(s->g, sizeof *s->within);
    s->level = malloc((s->g * s->m + 1) * sizeof *s->level);
    bool ok = s->count && s->mean && s->within && s->level;
    for (size_t i = 0; ok && i < s->n; i++) {
        s->count[config[i]]++;
        s->mean[config[i]] += s->y[i];
    }
    for (size_t c = 0; ok && c < s->g; c++)
        s->mean[c] /= s->count[c];
    for (size_t i = 0; ok && i < s->n; i++) {
        double d = s->y[i] - s->mean[config[i]];
        s->within[config[i]] += d * d;
    }
    /* The parameters' distinct values: each configuration's level. */
    size_t *level = malloc((s->n + 1) * sizeof *level);
    ok = ok && level;
    for (size_t p = 0; ok && p < s->m; p++) {
        ok = (s->nlevels[p] = number_distinct(s->params + p, s->n, 1, s->m, level)) > 0;
        for (size_t i = 0; ok && i < s->n; i++)
            s->level[config[i] * s->m + p] = level[i];
        ok = ok && tabulate_factors(s, p, level);
    }
    free(level);
    free(config);
    return ok;
}

static bool search_init(search *s, const double *params, size_t n, size_t m,
                        const double *y, size_t max_terms)
{
    *s = (search){.params = params, .n = n, .m = m, .y = y};
    s->alphabet = malloc((m * (MAX_LOG_POWER + 1) * (2 * MAX_QUARTERS + 1) + 1) *
                         sizeof *s->alphabet);
    s->nlevels = calloc(m + 1, sizeof *s->nlevels);
    s->factor_at = calloc(m + 1, sizeof *s->factor_at);
    s->chosen = malloc((max_terms + 1) * sizeof *s->chosen);
    if (!s->alphabet || !s->nlevels || !s->factor_at || !s->chosen ||
        !summarise_configurations(s))
        return false;
    s->chosen_values = malloc((max_terms + 1) * s->g * sizeof *s->chosen_values);
    s->x = malloc((max_terms + 1) * s->g * sizeof *s->x);
    s->values = malloc(s->g * sizeof *s->values);
    return s->chosen_values && s->x && s->values;
}

/* Write the chosen terms into out. False only when out of memory. */
static bool describe(const search *s, const char *const *names, termsearch_result *out)
{
    out->nterms = s->nchosen;
    out->ncandidates = s->evaluated;
    if (s->nchosen == 0) {
        out->failure = "no candidate term lowers the leave-one-out error enough";
        return true;
    }
    char text[2048] = "";
    for (size_t k = 0; k < s->nchosen; k++)
        append_term(text, sizeof text, names, &s->chosen[k]);
    return (out->formula = strdup(text)) != NULL;
}

bool termsearch_run(const char *const *names, const double *params, size_t n, size_t m,
                    const double *y, const termsearch_options *opt, termsearch_result *out)
{
    memset(out, 0, sizeof *out);
    size_t max_terms = opt && opt->max_terms ? opt->max_terms : 3;
    double min_gain = opt && opt->min_gain > 0 ? opt->min_gain : TERMSEARCH_MIN_GAIN;
    if (n < 4) {
        out->failure = "too few training runs for a term search (at least 4 are needed)";
        return true;
    }
    if (max_terms > n - 3)
        max_terms = n - 3; /* keep two residual degrees of freedom */
    search s;
    bool ok = search_init(&s, params, n, m, y, max_terms);
    if (ok && (s.nalphabet = build_alphabet(&s)) == 0)
        out->failure = "no parameter that is positive and varies over the training runs";
    if (ok && !out->failure) {
        double base = loo_error(&s, 0);
        out->loo_rmse = sqrt(select_terms(&s, max_terms, min_gain, base));
        out->base_loo_rmse = sqrt(base);
        ok = !s.nomem && describe(&s, names, out);
    }
    search_free(&s);
    if (!ok)
        termsearch_free(out);
    return ok;
}
