/*
 * termsearch.c — forward selection of p^i*log2(p)^j terms by leave-one-
 * configuration-out cross-validation, a restricted family for few
 * configurations, the constant model as last resort, and a nested error
 * for the whole procedure (see termsearch.h).
 */
#include "models/termsearch.h"

#include "models/ols.h"
#include "models/powerlaw.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEEDS 2          /* best single factors of each parameter to grow */
#define MAX_MOVES 64     /* bound on the improvement steps of one term */
#define MOVE_GAIN 0.01   /* a change of shape must lower the error by 1% */
#define REPLACE_PASSES 8 /* bound on the passes of sequential replacement */
/* Moves stepping two factors' exponents (pair_steps): 4 per pair. */
#define PAIR_STEPS (4 * TERMDATA_MAX_FACTORS * (TERMDATA_MAX_FACTORS - 1) / 2)

/* A candidate law of the average: its terms (at most LAW_TERMS; nterms 0
 * is the constant), or the free power law (power: pl, nterms 1), and its
 * criterion (lower is better). */
#define LAW_TERMS 8
#define LAW_SLOTS (TERMSEARCH_MAX_LAWS + 1)
typedef struct {
    term_shape terms[LAW_TERMS];
    size_t nterms;
    double criterion;
    bool power;
    powerlaw pl;
} law;

typedef struct {
    const termdata *d;
    size_t max_terms;
    double min_gain, alpha;
    term_factor *alphabet; /* every single factor of every usable parameter */
    size_t nalphabet;
    term_shape *chosen;    /* terms selected so far */
    size_t nchosen;
    bool free_power;       /* the free power law is a candidate (FREE POWER
                              LAW): relative scale, no exponents option */
    bool power_chosen;     /* the free power law power is the chosen model
                              (chosen keeps the searched terms, a law of
                              the average) */
    powerlaw power;
    termsearch_kind kind;
    bool forward;          /* restricted family scored by forward folds */
    const double *positive_at; /* points a positive response must stay positive
                                  at (options), m values each; NULL: none */
    size_t npositive_at;   /* 0 also when some configuration's mean is not
                              positive (not a time: no rule) */
    size_t refused_nonpositive; /* restricted laws that scored best so far but
                                   predict zero or less at such a point */
    size_t fold_min;       /* fewest training configurations of a fold */
    double *fold;          /* forward-fold scratch: a design and 3 columns */
    double *chosen_values; /* nchosen x g */
    double *x;             /* design scratch, g x (nchosen + 1) */
    double *values;        /* scratch for one candidate's values */
    double *batch;         /* BATCH candidates' values, g each (score_many) */
    term_shape *moves;     /* the candidates of one step of the local search */
    term_shape parent;     /* the shape they move from, and its values */
    double *parent_values; /* (parent_ok: termdata_values returned true) */
    bool parent_ok;
    double *head_values;   /* the same without its last factor (head_ok) */
    bool head_ok;
    double *move_error;    /* and their scores */
    unsigned long long *memo_key; /* scores of shapes tried with the terms chosen
                                     so far (see memo_slot); 0 = free slot */
    double *memo_error;
    bool *memo_bound;      /* memo_error is only a lower bound (score_many) */
    size_t memo_cap, memo_used;   /* memo_cap a power of two (0: no memo yet) */
    ols_prefix prefix;     /* the chosen terms factored, for the candidates */
    bool prefix_ready;     /* prefix is that of the terms chosen so far */
    size_t evaluated;      /* candidates scored */
    double error;          /* LOO mean squared error of the chosen model */
    double base;           /* the same for the intercept alone */
    char why[512];
    bool nomem;
    law laws[LAW_SLOTS];   /* the candidates of the average (see averaged) */
    size_t nlaws;
} search;

static void say(search *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(search *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why, sizeof s->why, fmt, ap);
    va_end(ap);
}

/* The chosen terms factored once for the candidates after them
 * (ols_prefix: the same fits, bit for bit); false when out of memory. */
static bool chosen_prefix(search *s)
{
    if (s->prefix_ready)
        return true;
    const termdata *d = s->d;
    size_t k = s->nchosen;
    double *x = malloc((d->g * k + 1) * sizeof *x);
    if (!x)
        return false;
    for (size_t r = 0; r < d->g; r++)
        for (size_t j = 0; j < k; j++)
            x[r * k + j] = s->chosen_values[j * d->g + r];
    ols_status st = ols_prefix_init_weighted(&s->prefix, x, d->mean, d->count, d->weight, d->g, k);
    free(x);
    s->prefix_ready = st == OLS_OK;
    return s->prefix_ready;
}

/* The weighted least-squares fit of y ~ 1 + the first cols columns of
 * s->x over the configurations (weights 1, or 1/mean^2 on the relative
 * scale: termdata.h). */
static ols_status fit_design(const search *s, size_t cols, ols_model *m)
{
    const termdata *d = s->d;
    return ols_fit_grouped_weighted(s->x, d->mean, d->count, d->weight, d->within, d->g, cols, m);
}

/* Cross-validation error of y ~ 1 + the first cols columns of s->x: the
 * mean squared error of each run predicted without its configuration;
 * INFINITY when some coefficient is not estimable or a configuration
 * cannot be left out. */
static double loo_error(search *s, size_t cols)
{
    const termdata *d = s->d;
    ols_model m;
    /* A candidate after the chosen terms: their columns are factored once. */
    ols_status st = cols == s->nchosen + 1 && chosen_prefix(s)
                        ? ols_fit_grouped_after_weighted(&s->prefix, s->x, d->mean, d->count,
                                                         d->weight, d->within, d->g, cols, &m)
                        : fit_design(s, cols, &m);
    double e = INFINITY;
    if (st == OLS_OK && m.rank == cols + 1)
        st = ols_grouped_loo_sse(&m, &e);
    if (st == OLS_OK && m.rank == cols + 1)
        e /= (double)d->n;
    else
        e = INFINITY;
    s->nomem |= st == OLS_ERR_NOMEM;
    ols_free(&m);
    return e;
}

/* Put the chosen terms and t (when not NULL) into s->x; false when t is
 * unusable. Returns the number of columns in *cols. */
static bool set_design(search *s, const term_shape *t, size_t *cols)
{
    size_t g = s->d->g;
    *cols = s->nchosen + (t != NULL);
    if (t && !termdata_values(s->d, t, s->values))
        return false;
    for (size_t r = 0; r < g; r++) {
        for (size_t k = 0; k < s->nchosen; k++)
            s->x[r * *cols + k] = s->chosen_values[k * g + r];
        if (t)
            s->x[r * *cols + s->nchosen] = s->values[r];
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Scores already computed                                              */

/* The local search of a term meets the same shapes again and again (the
 * neighbours of a shape and of its best neighbour overlap: every
 * replacement of the factor it kept), and each score is a fit over all
 * configurations. Scores are kept by shape until a term is chosen (then
 * every score changes): the same shape, factors in the same order, gives
 * the same design and so the same score, bit for bit. */

/* The shape packed into 64 bits (16 per factor), never 0; 0 when it does
 * not fit (a parameter index beyond 255): such shapes are not kept. */
static unsigned long long memo_pack(const term_shape *t)
{
    unsigned long long key = 0;
    for (size_t k = 0; k < t->nf; k++) {
        const term_factor *f = &t->f[k];
        if (f->param > 255)
            return 0;
        unsigned long long bits = 1u << 15 | (unsigned long long)f->param << 7 |
                                  (unsigned long long)(f->quarters + TERMDATA_MAX_QUARTERS) << 2 |
                                  (unsigned long long)f->log_power;
        key |= bits << (16 * k);
    }
    return key;
}

/* The slot holding key, or the free slot where it goes. */
static size_t memo_slot(const search *s, unsigned long long key)
{
    size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (s->memo_cap - 1);
    while (s->memo_key[i] != 0 && s->memo_key[i] != key)
        i = (i + 1) & (s->memo_cap - 1);
    return i;
}

/* Double the memo (or make its first 1024 slots); false when out of memory
 * (scores are then simply not kept). */
static bool memo_grow(search *s)
{
    size_t old_cap = s->memo_cap, cap = old_cap ? 2 * old_cap : 1024;
    unsigned long long *old_key = s->memo_key;
    double *old_error = s->memo_error;
    bool *old_bound = s->memo_bound;
    unsigned long long *key = calloc(cap, sizeof *key);
    double *error = malloc(cap * sizeof *error);
    bool *bound = malloc(cap * sizeof *bound);
    if (!key || !error || !bound) {
        free(key);
        free(error);
        free(bound);
        return false;
    }
    s->memo_key = key, s->memo_error = error, s->memo_bound = bound, s->memo_cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old_key[i]) {
            size_t j = memo_slot(s, old_key[i]);
            s->memo_key[j] = old_key[i];
            s->memo_error[j] = old_error[i];
            s->memo_bound[j] = old_bound[i];
        }
    free(old_key);
    free(old_error);
    free(old_bound);
    return true;
}

/* Keep the score of key: error, or only a lower bound of it. */
static void memo_put(search *s, unsigned long long key, double error, bool bound)
{
    if (key == 0 || (2 * (s->memo_used + 1) > s->memo_cap && !memo_grow(s)))
        return;
    size_t i = memo_slot(s, key);
    s->memo_used += s->memo_key[i] == 0;
    s->memo_key[i] = key;
    s->memo_error[i] = error;
    s->memo_bound[i] = bound;
}

/* The kept score of key when it settles a comparison with limit: the
 * score itself, or a bound at or above limit; NULL when none does. */
static const double *memo_get(const search *s, unsigned long long key, double limit)
{
    if (key == 0 || s->memo_cap == 0)
        return NULL;
    size_t i = memo_slot(s, key);
    if (s->memo_key[i] != key || (s->memo_bound[i] && !(s->memo_error[i] >= limit)))
        return NULL;
    return &s->memo_error[i];
}

/* Forget every score (a term was chosen). */
static void memo_clear(search *s)
{
    if (s->memo_cap)
        memset(s->memo_key, 0, s->memo_cap * sizeof *s->memo_key);
    s->memo_used = 0;
}

/* LOO error of the chosen terms plus t (INFINITY when t is unusable);
 * every call counts as a candidate scored, kept or not. */
static double score(search *s, const term_shape *t)
{
    size_t cols;
    s->evaluated++;
    unsigned long long key = memo_pack(t);
    const double *kept = memo_get(s, key, INFINITY);
    if (kept)
        return *kept;
    double e = set_design(s, t, &cols) ? loo_error(s, cols) : INFINITY;
    memo_put(s, key, e, false);
    return e;
}

/* Candidates scored together by ols_prefix_loo_sse (it interleaves four). */
#define BATCH 32

/* Score the pending candidates (their values in s->batch) into e; a score
 * at or above limit may be left a lower bound. */
static void flush_batch(search *s, const term_shape *t, const size_t *pending, size_t np,
                        double limit, double *e)
{
    const termdata *d = s->d;
    const double *cols[BATCH] = {0};
    double sse[BATCH], n = (double)d->n;
    if (np == 0)
        return;
    for (size_t j = 0; j < np; j++)
        cols[j] = s->batch + j * d->g;
    /* A sum of at least sse_limit gives a score of at least limit: the
     * division rounds monotonically. */
    double sse_limit = limit * n;
    while (isfinite(sse_limit) && sse_limit / n < limit)
        sse_limit = nextafter(sse_limit, INFINITY);
    ols_status st = ols_prefix_loo_sse_weighted(&s->prefix, cols, np, d->mean, d->count,
                                                d->weight, d->within, d->g, sse_limit, sse);
    s->nomem |= st == OLS_ERR_NOMEM;
    for (size_t j = 0; j < np; j++) {
        size_t i = pending[j];
        e[i] = st == OLS_OK ? sse[j] / n : INFINITY;
        memo_put(s, memo_pack(&t[i]), e[i], st == OLS_OK && sse[j] >= sse_limit);
    }
}

static bool same_factor(const term_factor *a, const term_factor *b)
{
    return a->param == b->param && a->quarters == b->quarters && a->log_power == b->log_power;
}

/* Do the first n factors of a and b agree? */
static bool same_start(const term_shape *a, const term_shape *b, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!same_factor(&a->f[k], &b->f[k]))
            return false;
    return true;
}

/* termdata_values of t; from the parent's values when t is the parent
 * with one factor multiplied in last, or from the values of the parent
 * without its last factor when t replaces that one (most moves of the
 * local search): the same products in the same order. */
static bool candidate_values(const search *s, const term_shape *t, double *out)
{
    const term_shape *p = &s->parent;
    if (s->parent_ok && t->nf == p->nf + 1 && same_start(t, p, p->nf))
        return termdata_values_times(s->d, s->parent_values, &t->f[p->nf], out);
    if (s->head_ok && t->nf == p->nf && same_start(t, p, p->nf - 1))
        return termdata_values_times(s->d, s->head_values, &t->f[p->nf - 1], out);
    return termdata_values(s->d, t, out);
}

/* The parent of the moves about to be scored, and its values. */
static void set_parent(search *s, const term_shape *t)
{
    term_shape head = *t;
    head.nf--;
    s->parent = *t;
    s->parent_ok = termdata_values(s->d, t, s->parent_values);
    s->head_ok = head.nf > 0 && termdata_values(s->d, &head, s->head_values);
}

/* score() of each of the n shapes t, into e: the same values (loo_error's
 * sum, computed from the chosen terms' factored prefix and each
 * candidate's column alone when the prefix allows: ols_prefix_loo_sse,
 * bit for bit) and the same count of candidates scored; except that a
 * score at or above limit may be only a lower bound at or above limit, for
 * a caller that needs only the scores below it. */
static void score_many(search *s, const term_shape *t, size_t n, double limit, double *e)
{
    const termdata *d = s->d;
    if (!chosen_prefix(s) || !s->prefix.usable) {
        for (size_t i = 0; i < n; i++)
            e[i] = score(s, &t[i]);
        return;
    }
    size_t pending[BATCH], np = 0;
    for (size_t i = 0; i < n; i++) {
        s->evaluated++;
        unsigned long long key = memo_pack(&t[i]);
        const double *kept = memo_get(s, key, limit);
        if (kept) {
            e[i] = *kept;
        } else if (!candidate_values(s, &t[i], s->batch + np * d->g)) {
            e[i] = INFINITY;
            memo_put(s, key, e[i], false);
        } else {
            pending[np++] = i;
            if (np == BATCH) {
                flush_batch(s, t, pending, np, limit, e);
                np = 0;
            }
        }
    }
    flush_batch(s, t, pending, np, limit, e);
}

/* A law's error on one fold: fitted on the configurations where train[c],
 * the squared errors of the runs of the configurations where held[c] added
 * to *sse (their count to *runs). False when the law cannot be fitted. */
typedef bool (*fold_scorer)(search *s, const void *law, const bool *train, const bool *held,
                            double *sse, size_t *runs);

/* fold_scorer of y ~ 1 + the first *(const size_t *)cols columns of s->x. */
static bool fold_error(search *s, const void *ncols, const bool *train, const bool *held,
                       double *sse, size_t *runs)
{
    const termdata *d = s->d;
    size_t cols = *(const size_t *)ncols;
    double *x = s->fold, *mean = x + d->g * cols, *count = mean + d->g, *within = count + d->g;
    double *weight = within + d->g;
    size_t rows = 0;
    for (size_t c = 0; c < d->g; c++) {
        if (!train[c])
            continue;
        memcpy(x + rows * cols, s->x + c * cols, cols * sizeof *x);
        mean[rows] = d->mean[c];
        count[rows] = d->count[c];
        weight[rows] = d->weight[c];
        within[rows++] = d->within[c];
    }
    ols_model m;
    ols_status st = ols_fit_grouped_weighted(x, mean, count, weight, within, rows, cols, &m);
    bool ok = st == OLS_OK && m.rank == cols + 1;
    for (size_t c = 0; ok && c < d->g; c++) {
        if (!held[c])
            continue;
        ols_prediction p;
        ols_predict(&m, s->x + c * cols, 0.95, &p);
        double r = d->mean[c] - p.estimate;
        *sse += d->weight[c] * (d->within[c] + d->count[c] * r * r);
        *runs += (size_t)d->count[c];
        ok = isfinite(r);
    }
    s->nomem |= st == OLS_ERR_NOMEM;
    ols_free(&m);
    return ok;
}

/* fold_scorer of the free power law (law unused): refitted, exponents
 * too, on the fold's training configurations. */
static bool power_fold_error(search *s, const void *law, const bool *train, const bool *held,
                             double *sse, size_t *runs)
{
    (void)law;
    powerlaw pl;
    return powerlaw_fit(s->d, train, &pl, &s->nomem) &&
           powerlaw_add_errors(s->d, &pl, held, sse, runs);
}

/* Forward-fold error of a law (scored by score): for each usable
 * parameter and each of its values v, fit on the configurations with that
 * parameter <= v and predict those at its next larger value; folds with
 * fewer than s->fold_min training configurations are skipped, so every
 * candidate is scored on the same folds. The mean squared error over the
 * predicted runs; INFINITY when some fold cannot be fitted or no fold
 * exists. */
static double forward_folds(search *s, fold_scorer score, const void *law)
{
    const termdata *d = s->d;
    bool *train = malloc(2 * d->g * sizeof *train);
    double sse = 0;
    size_t runs = 0;
    bool ok = train != NULL;
    s->nomem |= !ok;
    for (size_t p = 0; ok && p < d->m; p++) {
        if (!d->usable[p])
            continue;
        bool *held = train + d->g;
        size_t values = 0; /* distinct values of p up to top */
        for (size_t top = 0; ok && top + 1 < d->nlevels[p]; top++) {
            size_t ntrain = 0, nheld = 0, next = d->nlevels[p];
            bool top_present = false;
            for (size_t c = 0; c < d->g; c++) {
                size_t l = d->level[c * d->m + p];
                ntrain += train[c] = l <= top;
                top_present |= l == top;
                if (l > top && l < next)
                    next = l;
            }
            for (size_t c = 0; c < d->g; c++)
                nheld += held[c] = d->level[c * d->m + p] == next;
            values += top_present;
            /* Two values of p at least: a law in p needs them to be fitted. */
            if (top_present && values >= 2 && nheld > 0 && ntrain >= s->fold_min)
                ok = score(s, law, train, held, &sse, &runs);
        }
    }
    free(train);
    return ok && runs > 0 ? sse / (double)runs : INFINITY;
}

/* Forward-fold error of y ~ 1 + the first cols columns of s->x. */
static double forward_error(search *s, size_t cols)
{
    return forward_folds(s, fold_error, &cols);
}

static bool uses_param(const term_shape *t, size_t p)
{
    for (size_t k = 0; k < t->nf; k++)
        if (t->f[k].param == p)
            return true;
    return false;
}

/* Keep t, scored e, in *best when it scores clearly lower. */
static void consider(const term_shape *t, double e, term_shape *best, double *best_error)
{
    if (e < *best_error * (1 - MOVE_GAIN)) {
        *best_error = e;
        *best = *t;
    }
}

/* Is f one of the search's candidate factors? */
static bool in_alphabet(const search *s, const term_factor *f)
{
    for (size_t a = 0; a < s->nalphabet; a++)
        if (same_factor(&s->alphabet[a], f))
            return true;
    return false;
}

/* The moves of t that step the exponents of two of its factors by a
 * quarter each, into c; returns how many (at most PAIR_STEPS). On the
 * relative scale a product's valley runs diagonally: from
 * N^2.5*P^(-0.75)*Q^(-0.75), every change of one factor is worse, while
 * N^2.5*P^(-1)*Q^(-1) is twice better and N^3*P^(-1)*Q^(-1) (the law)
 * one move further (test_termsearch.c, Linpack). */
static size_t pair_steps(const search *s, const term_shape *t, term_shape *c)
{
    size_t n = 0;
    for (size_t k = 0; k < t->nf; k++)
        for (size_t l = k + 1; l < t->nf; l++)
            for (int dk = -1; dk <= 1; dk += 2)
                for (int dl = -1; dl <= 1; dl += 2) {
                    c[n] = *t;
                    c[n].f[k].quarters += dk;
                    c[n].f[l].quarters += dl;
                    n += in_alphabet(s, &c[n].f[k]) && in_alphabet(s, &c[n].f[l]);
                }
    return n;
}

/* The best single move from t: multiply by a factor of a parameter it does
 * not use yet, replace one factor by another of the same parameter, or
 * drop a factor. Returns true when some move lowers *error. The moves are
 * listed first and scored together (score_many), then weighed in order. */
static bool best_move(search *s, term_shape *t, double *error)
{
    term_shape best = *t, *c = s->moves;
    double best_error = *error;
    size_t n = 0;
    for (size_t a = 0; a < s->nalphabet; a++) {
        const term_factor *f = &s->alphabet[a];
        if (!uses_param(t, f->param) && t->nf < TERMDATA_MAX_FACTORS) {
            c[n] = *t;
            c[n].f[c[n].nf++] = *f;
            n++;
        }
        for (size_t k = 0; k < t->nf; k++)
            if (t->f[k].param == f->param &&
                (t->f[k].quarters != f->quarters || t->f[k].log_power != f->log_power)) {
                c[n] = *t;
                c[n++].f[k] = *f;
            }
    }
    for (size_t k = 0; t->nf > 1 && k < t->nf; k++) {
        c[n] = *t;
        c[n].f[k] = c[n].f[c[n].nf - 1];
        c[n++].nf--;
    }
    n += pair_steps(s, t, c + n);
    /* Only a score below best_error * (1 - MOVE_GAIN) can be kept, and
     * best_error only falls: scores above that need no more than a bound.
     * BATCH moves at a time, so that each batch's limit is the best so far. */
    set_parent(s, t);
    for (size_t from = 0; from < n; from += BATCH) {
        size_t upto = from + BATCH < n ? from + BATCH : n;
        score_many(s, c + from, upto - from, best_error * (1 - MOVE_GAIN), s->move_error + from);
        for (size_t i = from; i < upto; i++)
            consider(&c[i], s->move_error[i], &best, &best_error);
    }
    s->parent_ok = s->head_ok = false;
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
static bool next_term(search *s, term_shape *out, double *out_error)
{
    size_t seeds[SEEDS];
    double seed_error[SEEDS];
    bool any = false;
    *out_error = INFINITY;
    for (size_t p = 0; p < s->d->m; p++) {
        size_t ns = 0, n = 0;
        for (size_t a = 0; a < s->nalphabet; a++)
            if (s->alphabet[a].param == p)
                s->moves[n++] = (term_shape){.f = {s->alphabet[a]}, .nf = 1};
        score_many(s, s->moves, n, INFINITY, s->move_error);
        for (size_t a = 0, i = 0; a < s->nalphabet; a++) {
            double e = s->alphabet[a].param == p ? s->move_error[i++] : INFINITY;
            if (isfinite(e))
                keep_best(seeds, seed_error, &ns, SEEDS, a, e);
        }
        for (size_t i = 0; i < ns; i++) {
            term_shape t = {.f = {s->alphabet[seeds[i]]}, .nf = 1};
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

/* Is q (an exponent times 4) a candidate exponent? */
static bool allowed(const termsearch_options *opt, int q)
{
    if (opt->nquarters == 0)
        return true;
    for (size_t i = 0; i < opt->nquarters; i++)
        if (opt->quarters[i] == q)
            return true;
    return false;
}

/* Every allowed p^i*log2(p)^j of the usable parameters, simplest first: a
 * later factor must do clearly better to displace an earlier one
 * (MOVE_GAIN), so near ties go to the simpler shape. */
static size_t build_alphabet(search *s, const termsearch_options *opt)
{
    size_t count = 0;
    for (size_t p = 0; p < s->d->m; p++) {
        if (!s->d->usable[p])
            continue;
        for (int j = 0; j <= TERMDATA_MAX_LOG_POWER; j++)
            for (int q = -TERMDATA_MAX_QUARTERS; q <= TERMDATA_MAX_QUARTERS; q++)
                if ((q != 0 || j != 0) && allowed(opt, q))
                    s->alphabet[count++] = (term_factor){p, q, j};
    }
    qsort(s->alphabet, count, sizeof *s->alphabet, term_factor_compare);
    return count;
}

/* p-value of the last term of y ~ 1 + chosen + t, from its HC3 standard
 * error (timing noise grows with the time; the plain t test would then
 * trust the largest runs too much). */
static double last_term_p(search *s, const term_shape *t)
{
    size_t cols;
    ols_model m;
    double p = 1, se = NAN;
    if (!set_design(s, t, &cols))
        return 1;
    ols_status st = fit_design(s, cols, &m);
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

static void shape_text(const term_shape *t, const char *const *names, char *buf, size_t len)
{
    buf[0] = '\0';
    term_shape_append(buf, len, names, t);
}

static bool add_chosen(search *s, const term_shape *t, double e)
{
    if (!termdata_values(s->d, t, s->chosen_values + s->nchosen * s->d->g))
        return false;
    s->chosen[s->nchosen++] = *t;
    s->error = e;
    memo_clear(s);
    ols_prefix_free(&s->prefix);
    s->prefix_ready = false;
    return true;
}

/* Does the response look like a time: every configuration's mean positive? */
static bool positive_response(const termdata *d)
{
    for (size_t c = 0; c < d->g; c++)
        if (!(d->mean[c] > 0))
            return false;
    return true;
}

/* Does c + a*t (after the chosen terms, if any; t NULL: the chosen terms
 * alone), fitted on every configuration, predict a positive value at
 * every point of s->positive_at? Also true when there are none. */
static bool stays_positive(search *s, const term_shape *t)
{
    const termdata *d = s->d;
    size_t cols;
    if (s->npositive_at == 0)
        return true;
    if (!set_design(s, t, &cols))
        return false;
    ols_model m;
    ols_status st = fit_design(s, cols, &m);
    bool ok = st == OLS_OK && m.rank == cols + 1;
    for (size_t i = 0; ok && i < s->npositive_at; i++) {
        const double *point = s->positive_at + i * d->m;
        double v = m.coef[0] + (t ? m.coef[cols] * term_shape_value(t, point) : 0);
        for (size_t k = 0; k < s->nchosen; k++)
            v += m.coef[k + 1] * term_shape_value(&s->chosen[k], point);
        ok = v > 0; /* false for NAN too */
    }
    s->nomem |= st == OLS_ERR_NOMEM;
    ols_free(&m);
    return ok;
}

/* Take chosen term j out (the others keep their order): its shape into
 * *t. Every score changes, so the memo and the prefix go. */
static void take_out(search *s, size_t j, term_shape *t)
{
    size_t g = s->d->g, after = s->nchosen - j - 1;
    *t = s->chosen[j];
    memmove(s->chosen + j, s->chosen + j + 1, after * sizeof *s->chosen);
    memmove(s->chosen_values + j * g, s->chosen_values + (j + 1) * g,
            after * g * sizeof *s->chosen_values);
    s->nchosen--;
    memo_clear(s);
    ols_prefix_free(&s->prefix);
    s->prefix_ready = false;
}

/* Put t back as chosen term j; false (t left out) when its values are
 * unusable, which a shape the search scored cannot be. */
static bool put_back(search *s, size_t j, const term_shape *t)
{
    size_t g = s->d->g, after = s->nchosen - j;
    memmove(s->chosen + j + 1, s->chosen + j, after * sizeof *s->chosen);
    memmove(s->chosen_values + (j + 1) * g, s->chosen_values + j * g,
            after * g * sizeof *s->chosen_values);
    s->chosen[j] = *t;
    s->nchosen++;
    memo_clear(s);
    ols_prefix_free(&s->prefix);
    s->prefix_ready = false;
    if (termdata_values(s->d, t, s->chosen_values + j * g))
        return true;
    term_shape unusable;
    take_out(s, j, &unusable);
    return false;
}

/* Sequential replacement (Miller, Subset Selection in Regression, 2002,
 * 3.3): forward selection keeps its first terms for good, and on data
 * from N/P + P the first term alone is best as N*log2(N)*P^(-1); the
 * terms added after it then patch the difference with odd powers. So once
 * a term is added, each chosen term in turn is searched again with the
 * others fixed, by the local search's moves from its own shape (a change
 * must lower the LOO error by MOVE_GAIN, as every move), until a pass
 * changes none. The number of terms stays; a term unchanged leaves the
 * model exactly as it was. False when out of memory. */
static bool replace_terms(search *s, bool last_searched)
{
    bool changed = s->nchosen > 1;
    for (size_t pass = 0; changed && pass < REPLACE_PASSES && !s->nomem; pass++) {
        changed = false;
        for (size_t j = 0; j < s->nchosen; j++) {
            /* A term just added by next_term ended its own local search
             * with the others as they are (last_searched): while none has
             * changed, no move can improve it. */
            if (last_searched && pass == 0 && j + 1 == s->nchosen && !changed)
                break;
            term_shape t;
            double e = s->error;
            bool moved = false;
            take_out(s, j, &t);
            term_shape was = t;
            for (size_t moves = 0; moves < MAX_MOVES && best_move(s, &t, &e); moves++)
                moved = true;
            if (moved && !stays_positive(s, &t)) {
                t = was, e = s->error; /* no time may turn negative */
                moved = false;
            }
            if (!put_back(s, j, &t))
                return false;
            if (moved)
                s->error = e;
            changed |= moved;
        }
    }
    return !s->nomem;
}

/* Forget the factored prefix (the chosen terms' values changed). */
static void prefix_stale(search *s)
{
    ols_prefix_free(&s->prefix);
    s->prefix_ready = false;
}

/* LOO error of the chosen terms with term j split in two: *a, j's shape
 * without its factor k, and *b, that factor alone; INFINITY when either
 * is unusable. The chosen terms are as they were on return. */
static double split_error(search *s, size_t j, size_t k, term_shape *a, term_shape *b)
{
    size_t g = s->d->g, cols;
    double *values = s->chosen_values + j * g, *saved = s->head_values, e = INFINITY;
    *a = s->chosen[j];
    *b = (term_shape){.f = {a->f[k]}, .nf = 1};
    a->f[k] = a->f[--a->nf];
    memcpy(saved, values, g * sizeof *saved);
    prefix_stale(s);
    if (termdata_values(s->d, a, values) && set_design(s, b, &cols))
        e = loo_error(s, cols);
    memcpy(values, saved, g * sizeof *saved);
    prefix_stale(s);
    return e;
}

/* A product a*b of two parameters' factors can stand, to the forward
 * search, for a sum a + b (over a grid both grow together), and no move of
 * one term then reaches the sum (on T = N^2/p + sqrt(p) + M it takes
 * p^0.5*M^0.25). So, as Extra-P weighs additive against multiplicative
 * combinations of single-parameter terms, a chosen product is split into
 * two terms, a factor apart, when that passes a new term's tests (the LOO
 * error falls by min_gain; the new term significant, corrected for the
 * splits tried; no time turned negative) and terms are left to add. True
 * when one was split. */
static bool split_term(search *s)
{
    double best = s->error * (1 - s->min_gain), tried = 0;
    size_t bj = 0, bk = 0;
    bool found = false;
    for (size_t j = 0; s->nchosen < s->max_terms && j < s->nchosen; j++)
        for (size_t k = 0; s->chosen[j].nf > 1 && k < s->chosen[j].nf; k++) {
            term_shape a, b;
            double e = split_error(s, j, k, &a, &b);
            tried++;
            if (e < best)
                best = e, bj = j, bk = k, found = true;
        }
    if (!found || s->nomem)
        return false;
    term_shape a, b, old, gone;
    split_error(s, bj, bk, &a, &b);
    take_out(s, bj, &old);
    bool in = put_back(s, bj, &a);
    bool split = in && last_term_p(s, &b) < s->alpha / tried && stays_positive(s, &b) &&
                 add_chosen(s, &b, best);
    if (!split) { /* the product stays as it was */
        if (in)
            take_out(s, bj, &gone);
        put_back(s, bj, &old);
        return false;
    }
    return replace_terms(s, false);
}

/* Add terms while each lowers the cross-validation error by min_gain and
 * is significant after a Bonferroni correction for the candidates tried
 * for it (the search tries hundreds of shapes; without the correction one
 * of them fits the noise). When the first term is refused, s->why says
 * which rule refused it. */
static void select_terms(search *s, const char *const *names)
{
    const termdata *d = s->d;
    double scale = 0;
    for (size_t c = 0; c < d->g; c++)
        scale += d->weight[c] * (d->count[c] * d->mean[c] * d->mean[c] + d->within[c]) /
                 (double)d->n;
    /* Once the error is rounding noise, nothing is left to explain. */
    while (s->nchosen < s->max_terms && !s->nomem && s->error > 1e-20 * scale) {
        term_shape t;
        double e;
        size_t before = s->evaluated;
        char text[400];
        if (!next_term(s, &t, &e))
            break;
        shape_text(&t, names, text, sizeof text);
        if (!(e < s->error * (1 - s->min_gain))) {
            if (s->nchosen == 0)
                say(s, "no candidate term lowers the leave-one-configuration-out error by "
                       "%g%% (the best, %s, by %.3g%%)",
                    100 * s->min_gain, text, isfinite(e) ? 100 * (1 - e / s->error) : 0.0);
            break;
        }
        double tried = (double)(s->evaluated - before), p = last_term_p(s, &t);
        if (!(p < s->alpha / tried)) {
            if (s->nchosen == 0)
                say(s, "the best term, %s, lowers the leave-one-configuration-out error by "
                       "%.3g%% but is not significant: p = %.3g (HC3) is not below %g/%.0f, "
                       "the level corrected for the %.0f candidates tried (option alpha)",
                    text, 100 * (1 - e / s->error), p, s->alpha, tried, tried);
            break;
        }
        if (!stays_positive(s, &t)) {
            if (s->nchosen == 0)
                say(s, "the best term, %s, would make the model predict zero or less at a "
                       "target (a time is positive), so no term was added", text);
            else
                say(s, "the search stopped after %zu term%s: the next, %s, would make the "
                       "model predict zero or less at a target (a time is positive)",
                    s->nchosen, s->nchosen == 1 ? "" : "s", text);
            break;
        }
        if (!add_chosen(s, &t, e) || !replace_terms(s, true))
            break;
        while (split_term(s))
            ;
    }
}

/* ------------------------------------------------------------------ */
/* The restricted family                                               */

/* A factor of the restricted family: whole or half exponent, at most one log. */
static bool plain_factor(const term_factor *f)
{
    return f->quarters % 2 == 0 && f->log_power <= 1;
}

/* The penalised error of a model with k coefficients: LOO MSE * exp(2k/g). */
static double penalised(const search *s, double e, size_t k)
{
    return e * exp(2.0 * (double)k / (double)s->d->g);
}

/* The restricted family's criterion for the chosen terms plus t (none
 * when NULL): leave-one-configuration-out or forward-fold error. */
static double restricted_error(search *s, const term_shape *t)
{
    size_t cols;
    if (!s->forward)
        return t ? score(s, t) : s->base;
    s->evaluated += t != NULL;
    return set_design(s, t, &cols) ? forward_error(s, cols) : INFINITY;
}

/* Would a law of criterion e enter the list of the best LAW_SLOTS? */
static bool law_would_enter(const search *s, double e)
{
    return isfinite(e) && (s->nlaws < LAW_SLOTS || e < s->laws[LAW_SLOTS - 1].criterion);
}

/* Keep law l among the best LAW_SLOTS, lowest criterion first (a tie
 * keeps the earlier, simpler law first). */
static void keep_candidate(search *s, const law *l)
{
    if (!law_would_enter(s, l->criterion))
        return;
    size_t at = s->nlaws < LAW_SLOTS ? s->nlaws++ : LAW_SLOTS - 1;
    while (at > 0 && s->laws[at - 1].criterion > l->criterion) {
        s->laws[at] = s->laws[at - 1];
        at--;
    }
    s->laws[at] = *l;
}

/* The same for the law of the n terms t (n 0: the constant) with
 * criterion e. */
static void keep_law(search *s, const term_shape *t, size_t n, double e)
{
    if (n > LAW_TERMS)
        return;
    law l = {.nterms = n, .criterion = e};
    if (n)
        memcpy(l.terms, t, n * sizeof *t);
    keep_candidate(s, &l);
}

/* Does the free power law predict a positive value at every point of
 * s->positive_at? */
static bool power_stays_positive(const search *s, const powerlaw *pl)
{
    for (size_t i = 0; i < s->npositive_at; i++)
        if (!(powerlaw_value(pl, s->positive_at + i * s->d->m) > 0))
            return false; /* false for NAN too */
    return true;
}

/* FREE POWER LAW: fit it and keep it among the laws with its LOO error
 * (for the restricted family: penalise true, its criterion, LOO or forward
 * folds, penalised for its coefficients c, a and one exponent per
 * parameter); it becomes the chosen model when that beats *best by
 * MOVE_GAIN (then lowered to it) and it stays positive at the targets.
 * True when it was chosen. */
static bool consider_power(search *s, bool penalise, double *best)
{
    law l = {.power = true, .nterms = 1};
    if (!s->free_power || !powerlaw_fit(s->d, NULL, &l.pl, &s->nomem))
        return false;
    s->evaluated++;
    double loo = powerlaw_loo_error(s->d, &s->nomem);
    double e = penalise && s->forward ? forward_folds(s, power_fold_error, NULL) : loo;
    l.criterion = penalise ? penalised(s, e, 2 + l.pl.nparams) : e;
    bool wins = l.criterion < *best * (1 - MOVE_GAIN);
    if (!power_stays_positive(s, &l.pl)) {
        s->refused_nonpositive += wins;
        return false;
    }
    keep_candidate(s, &l);
    if (!wins)
        return false;
    *best = l.criterion;
    s->power = l.pl;
    s->power_chosen = true;
    s->error = loo;
    say(s, "the free power law predicts the %s configurations better than the %s "
           "(its exponents refitted in each fold)",
        penalise && s->forward ? "next larger" : "left-out",
        penalise ? "one-term laws of quarter steps, penalised for its exponents"
                 : "searched terms");
    return true;
}

/* Keep t when its penalised error beats the best by MOVE_GAIN and it
 * predicts no time at or below zero. */
static void consider_restricted(search *s, const term_shape *t, size_t k, term_shape *best,
                                double *best_score)
{
    double e = penalised(s, restricted_error(s, t), k);
    bool wins = e < *best_score * (1 - MOVE_GAIN);
    if (!wins && !law_would_enter(s, e))
        return;
    if (!stays_positive(s, t)) {
        s->refused_nonpositive += wins;
        return;
    }
    keep_law(s, t, 1, e);
    if (wins) {
        *best_score = e;
        *best = *t;
    }
}

/* The best of the constant, c + a*f for every single factor f and, over
 * two parameters, c + a*f*h for plain factors f, h. True when a term beats
 * the constant; it is then the one chosen. */
static bool select_restricted(search *s)
{
    term_shape best = {.nf = 0};
    double best_score = penalised(s, restricted_error(s, NULL), 1);
    s->nlaws = 0;
    keep_law(s, NULL, 0, best_score);
    for (size_t a = 0; a < s->nalphabet; a++) {
        term_shape t = {.f = {s->alphabet[a]}, .nf = 1};
        consider_restricted(s, &t, 2, &best, &best_score);
    }
    for (size_t a = 0; a < s->nalphabet; a++)
        for (size_t b = a + 1; b < s->nalphabet; b++) {
            const term_factor *f = &s->alphabet[a], *h = &s->alphabet[b];
            if (f->param == h->param || !plain_factor(f) || !plain_factor(h))
                continue;
            term_shape t = {.f = {*f, *h}, .nf = 2};
            consider_restricted(s, &t, 3, &best, &best_score);
        }
    if (consider_power(s, true, &best_score))
        return !s->nomem;
    if (best.nf == 0 || s->nomem)
        return false;
    size_t cols;
    set_design(s, &best, &cols);
    return add_chosen(s, &best, loo_error(s, cols));
}

/* ------------------------------------------------------------------ */
/* One search                                                          */

static void search_free(search *s)
{
    free(s->alphabet);
    free(s->chosen);
    free(s->chosen_values);
    free(s->x);
    free(s->values);
    free(s->batch);
    free(s->parent_values);
    free(s->head_values);
    free(s->moves);
    free(s->move_error);
    free(s->fold);
    free(s->memo_key);
    free(s->memo_error);
    free(s->memo_bound);
    ols_prefix_free(&s->prefix);
}

static bool search_init(search *s, const termdata *d, const termsearch_options *opt)
{
    size_t max_terms = opt->max_terms ? opt->max_terms : 3;
    if (max_terms > TERMSEARCH_MAX_TERMS)
        max_terms = TERMSEARCH_MAX_TERMS; /* before any sum with it can wrap */
    if (max_terms + 3 > d->n)
        max_terms = d->n > 3 ? d->n - 3 : 0; /* keep two residual degrees of freedom */
    if (max_terms == 0)
        max_terms = 1; /* the restricted family still has one term */
    *s = (search){.d = d, .max_terms = max_terms,
                  .min_gain = opt->min_gain > 0 ? opt->min_gain : TERMSEARCH_MIN_GAIN,
                  .alpha = opt->alpha > 0 ? opt->alpha : TERMSEARCH_ALPHA,
                  .forward = opt->selection == TERMSEARCH_SELECT_FORWARD,
                  .free_power = opt->scale == TERMSEARCH_RELATIVE && positive_response(d) &&
                                opt->nquarters == 0,
                  .positive_at = opt->positive_at,
                  /* the rule is for times: only when every mean is positive */
                  .npositive_at = positive_response(d) ? opt->npositive_at : 0};
    s->alphabet = malloc((d->m * (TERMDATA_MAX_LOG_POWER + 1) *
                          (2 * TERMDATA_MAX_QUARTERS + 1) + 1) * sizeof *s->alphabet);
    s->chosen = malloc((max_terms + 1) * sizeof *s->chosen);
    s->chosen_values = malloc(((max_terms + 1) * d->g + 1) * sizeof *s->chosen_values);
    s->x = malloc(((max_terms + 1) * d->g + 1) * sizeof *s->x);
    s->values = malloc((d->g + 1) * sizeof *s->values);
    s->batch = malloc((BATCH * d->g + 1) * sizeof *s->batch);
    s->parent_values = malloc((d->g + 1) * sizeof *s->parent_values);
    s->head_values = malloc((d->g + 1) * sizeof *s->head_values);
    /* A step of the local search: each factor multiplied in or replacing
     * each of a term's factors, and each factor dropped. */
    size_t alphabet = d->m * (TERMDATA_MAX_LOG_POWER + 1) * (2 * TERMDATA_MAX_QUARTERS + 1);
    size_t moves = alphabet * (TERMDATA_MAX_FACTORS + 1) + TERMDATA_MAX_FACTORS + PAIR_STEPS;
    s->moves = malloc(moves * sizeof *s->moves);
    s->move_error = malloc(moves * sizeof *s->move_error);
    s->fold = malloc(((max_terms + 5) * d->g + 1) * sizeof *s->fold);
    /* A fold must fit every member of the restricted family: c + a*t (2
     * coefficients), c + a*f*h (3) with two usable parameters. */
    size_t usable = 0;
    for (size_t p = 0; p < d->m; p++)
        usable += d->usable[p];
    s->fold_min = usable >= 2 ? 3 : 2;
    return s->alphabet && s->chosen && s->chosen_values && s->x && s->values && s->fold &&
           s->batch && s->parent_values && s->head_values && s->moves && s->move_error;
}

/* The laws of a searched model's average: the model itself and each
 * model without one of its terms (the intercept alone for one term),
 * scored by their leave-one-configuration-out errors. A term that barely
 * passed its tests then shares the prediction with the law without it. */
static void searched_laws(search *s)
{
    s->nlaws = 0;
    keep_law(s, s->chosen, s->nchosen, s->error);
    if (s->nchosen == 1) {
        keep_law(s, NULL, 0, s->base);
        return;
    }
    for (size_t j = 0; j < s->nchosen && !s->nomem; j++) {
        term_shape t, rest[LAW_TERMS];
        size_t cols, n = s->nchosen - 1;
        take_out(s, j, &t);
        set_design(s, NULL, &cols);
        double e = loo_error(s, cols);
        if (n <= LAW_TERMS && stays_positive(s, NULL)) {
            memcpy(rest, s->chosen, n * sizeof *rest);
            keep_law(s, rest, n, e);
        }
        if (!put_back(s, j, &t))
            s->nomem = true; /* a chosen term's values cannot be unusable */
    }
}

/* Add to why that laws scoring better than the one chosen were refused
 * because they predict a time of zero or less at a target. */
static void say_refused(search *s)
{
    size_t n = s->refused_nonpositive;
    if (n == 0)
        return;
    char before[sizeof s->why];
    memcpy(before, s->why, sizeof before);
    say(s, "%.360s%s%zu one-term law%s scoring better predict%s zero or less at a target "
           "(a time is positive), so %s not chosen",
        before, before[0] ? "; " : "", n, n == 1 ? "" : "s", n == 1 ? "s" : "",
        n == 1 ? "it was" : "they were");
}

/* Choose the model for d: the full search, the restricted family, or the
 * constant. False when out of memory. */
static bool choose(search *s, const termsearch_options *opt, const char *const *names)
{
    s->nalphabet = build_alphabet(s, opt);
    size_t cols;
    set_design(s, NULL, &cols);
    s->error = s->base = loo_error(s, 0);
    const termdata *d = s->d;
    s->kind = TERMSEARCH_CONSTANT;
    if (s->nalphabet == 0)
        say(s, "no parameter is positive and varies over the training runs");
    else if (d->g < 3)
        say(s, "%zu training configuration%s: too few to fit any term", d->g,
            d->g == 1 ? "" : "s");
    else if (d->g <= TERMSEARCH_FEW_CONFIGS) {
        if (select_restricted(s)) {
            s->kind = TERMSEARCH_RESTRICTED;
            if (s->forward)
                say(s, "chosen by forward folds: fitted on the smaller configurations, "
                       "predicting the next larger ones");
        } else if (s->forward)
            say(s, "with %zu configurations no one-term law fitted on the smaller ones "
                   "predicts the next larger ones better than their mean (forward folds)",
                d->g);
        else
            say(s, "with %zu configurations no one-term law predicts the left-out "
                   "configurations better than their mean", d->g);
    } else {
        select_terms(s, names);
        if (s->nchosen > 0) {
            s->kind = TERMSEARCH_SEARCHED;
            searched_laws(s);
            double searched = s->error;
            consider_power(s, false, &searched);
        }
        else if (!s->nomem && select_restricted(s)) {
            char refused[sizeof s->why];
            memcpy(refused, s->why, sizeof refused);
            say(s, "%.440s; a one-term law was chosen by penalised %s error", refused,
                s->forward ? "forward-fold" : "leave-one-out");
            s->kind = TERMSEARCH_RESTRICTED;
        }
    }
    say_refused(s);
    return !s->nomem;
}

/* ------------------------------------------------------------------ */
/* Nested cross-validation                                             */

/* Fit the chosen terms of s on its configurations and add the squared
 * errors of every run of all's configurations where held[c]. */
static bool score_held_out(search *s, const termdata *all, const bool *held, double *sse,
                           size_t *runs)
{
    if (s->power_chosen) {
        powerlaw_add_errors(all, &s->power, held, sse, runs);
        return true; /* as for the terms: a held-out error is added as it is */
    }
    size_t k;
    set_design(s, NULL, &k);
    double *xall = malloc((all->g * k + 1) * sizeof *xall), *v = malloc((all->g + 1) * sizeof *v);
    ols_model m = {0};
    bool ok = xall && v;
    for (size_t j = 0; ok && j < k; j++) {
        ok = termdata_values(all, &s->chosen[j], v);
        for (size_t c = 0; ok && c < all->g; c++)
            xall[c * k + j] = v[c];
    }
    ols_status st = ok ? fit_design(s, k, &m) : OLS_ERR_NOT_FINITE;
    if (st == OLS_OK) {
        for (size_t c = 0; c < all->g; c++) {
            if (!held[c])
                continue;
            ols_prediction p;
            ols_predict(&m, xall + c * k, 0.95, &p);
            double r = all->mean[c] - p.estimate;
            *sse += all->weight[c] * (all->within[c] + all->count[c] * r * r);
            *runs += (size_t)all->count[c];
        }
    }
    ols_free(&m);
    bool allocated = xall && v;
    free(xall);
    free(v);
    return st != OLS_ERR_NOMEM && allocated;
}

/* Search again within each fold's training configurations (configuration
 * c is in fold c mod folds) and score the configurations left out. */
static bool nested_error(const termdata *all, const termsearch_options *opt,
                         const char *const *names, termsearch_result *out)
{
    size_t folds = opt->nested_folds             ? opt->nested_folds
                   : all->g > TERMSEARCH_MANY_CONFIGS ? 2
                                                      : TERMSEARCH_NESTED_FOLDS;
    if (all->g <= TERMSEARCH_FEW_CONFIGS || folds > all->g)
        folds = all->g; /* few configurations: leave each out in turn */
    out->nested_rmse = NAN;
    if (folds < 2 || all->g < 3)
        return true;
    bool *held = malloc(all->g * sizeof *held), *keep = malloc(all->g * sizeof *keep);
    bool ok = held && keep;
    double sse = 0;
    size_t runs = 0;
    for (size_t f = 0; ok && f < folds; f++) {
        for (size_t c = 0; c < all->g; c++) {
            held[c] = c % folds == f;
            keep[c] = !held[c];
        }
        termdata sub = {0};
        search s = {0};
        ok = termdata_subset(all, keep, &sub) && search_init(&s, &sub, opt) &&
             choose(&s, opt, names) && score_held_out(&s, all, held, &sse, &runs);
        search_free(&s);
        termdata_free(&sub);
    }
    free(held);
    free(keep);
    if (ok && runs > 0) {
        out->nested_rmse = sqrt(sse / (double)runs);
        out->nested_folds = folds;
    }
    return ok;
}

/* ------------------------------------------------------------------ */
/* Result                                                              */

/* Is law l the chosen model of s? */
static bool is_chosen(const search *s, const law *l)
{
    if (l->power || s->power_chosen)
        return l->power && s->power_chosen;
    if (l->nterms != s->nchosen)
        return false;
    for (size_t k = 0; k < l->nterms; k++)
        if (memcmp(&l->terms[k], &s->chosen[k], sizeof l->terms[k]) != 0)
            return false;
    return true;
}

/* Akaike-type weights of the candidate laws from their criteria c (LOO
 * mean squared errors, penalised for the restricted family): exp(-(g/2)
 * ln(c / c_min)) over the g configurations, normalised; with c_min zero
 * (an exact fit), the exact laws share the weight. */
static void law_weights(const search *s, double *w)
{
    double least = INFINITY, sum = 0, g = (double)s->d->g;
    for (size_t i = 0; i < s->nlaws; i++)
        least = fmin(least, s->laws[i].criterion);
    for (size_t i = 0; i < s->nlaws; i++) {
        double c = s->laws[i].criterion;
        w[i] = least > 0 ? exp(-0.5 * g * log(c / least)) : c == 0;
        sum += w[i];
    }
    for (size_t i = 0; i < s->nlaws; i++)
        w[i] /= sum;
}

/* The formula of the free power law pl (when not NULL) or of the n terms
 * t into text ("1" for none); the number of terms. */
static size_t formula_text(const term_shape *t, size_t n, const powerlaw *pl,
                           const char *const *names, char *text, size_t len)
{
    text[0] = '\0';
    if (pl) {
        powerlaw_append(text, len, names, pl);
        return 1;
    }
    for (size_t k = 0; k < n; k++)
        term_shape_append(text, len, names, &t[k]);
    if (n == 0)
        snprintf(text, len, "1");
    return n;
}

static size_t law_text(const law *l, const char *const *names, char *text, size_t len)
{
    return formula_text(l->terms, l->nterms, l->power ? &l->pl : NULL, names, text, len);
}

static size_t chosen_text(const search *s, const char *const *names, char *text, size_t len)
{
    return formula_text(s->chosen, s->nchosen, s->power_chosen ? &s->power : NULL, names, text,
                        len);
}

/* The laws averaged into out->laws: the chosen first, then the others of
 * weight TERMSEARCH_LAW_MIN_WEIGHT or more, heaviest first, at most
 * TERMSEARCH_MAX_LAWS, weights renormalised; the chosen alone when it
 * takes TERMSEARCH_ONE_LAW or more, or when there were no candidates.
 * False only when out of memory. */
static bool averaged(const search *s, const char *const *names, termsearch_result *out)
{
    double w[LAW_SLOTS];
    size_t order[LAW_SLOTS], n = 0, chosen = LAW_SLOTS;
    law_weights(s, w);
    for (size_t i = 0; i < s->nlaws; i++)
        if (is_chosen(s, &s->laws[i]))
            chosen = i;
    if (chosen < LAW_SLOTS && w[chosen] < TERMSEARCH_ONE_LAW) {
        order[n++] = chosen;
        for (size_t i = 0; i < s->nlaws && n < TERMSEARCH_MAX_LAWS; i++)
            if (i != chosen && w[i] >= TERMSEARCH_LAW_MIN_WEIGHT)
                order[n++] = i; /* the list is lowest criterion first */
    }
    double sum = 0;
    for (size_t j = 0; j < n; j++)
        sum += w[order[j]];
    out->nlaws = n > 1 ? n : 1;
    for (size_t j = 0; j < out->nlaws; j++) {
        char text[2048];
        const law *l = n > 1 ? &s->laws[order[j]] : NULL;
        size_t terms = l ? law_text(l, names, text, sizeof text) : chosen_text(s, names, text,
                                                                               sizeof text);
        out->laws[j] = (termsearch_law){.nterms = terms, .weight = l ? w[order[j]] / sum : 1,
                                        .criterion = l ? l->criterion : NAN};
        if (!(out->laws[j].formula = strdup(text)))
            return false;
    }
    return true;
}

/* Write the chosen model into out. False only when out of memory. */
static bool describe(const search *s, const char *const *names, termsearch_result *out)
{
    out->kind = s->kind;
    out->ncandidates = s->evaluated;
    out->selection = s->forward ? TERMSEARCH_SELECT_FORWARD : TERMSEARCH_SELECT_LOO;
    out->nconfigs = s->d->g;
    out->loo_rmse = sqrt(s->error);
    out->base_loo_rmse = sqrt(s->base);
    memcpy(out->why, s->why, sizeof out->why);
    char text[2048];
    out->nterms = chosen_text(s, names, text, sizeof text);
    return (out->formula = strdup(text)) != NULL && averaged(s, names, out);
}

/* Each run's weight (its configuration's) into out->run_weight when the
 * search was relative. False only when out of memory. */
static bool run_weights(const termdata *d, termsearch_result *out)
{
    if (!out->relative)
        return true;
    out->run_weight = malloc((d->n + 1) * sizeof *out->run_weight);
    for (size_t i = 0; out->run_weight && i < d->n; i++)
        out->run_weight[i] = d->weight[d->config[i]];
    return out->run_weight != NULL;
}

const char *termsearch_confidence(const termsearch_result *r)
{
    switch (r->kind) {
    case TERMSEARCH_SEARCHED:
        return "searched";
    case TERMSEARCH_RESTRICTED:
        return r->nconfigs <= TERMSEARCH_FEW_CONFIGS
            ? "few points: low confidence"
            : "low confidence: no term passed the full search";
    case TERMSEARCH_CONSTANT:
        return "constant model: no term helps";
    }
    return "";
}

bool termsearch_parse_exponents(const char *text, termsearch_options *opt, char *err,
                                size_t errlen)
{
    opt->nquarters = 0;
    for (const char *p = text; *p;) {
        p += strspn(p, " ,");
        if (!*p)
            break;
        char *end;
        double v = strtod(p, &end);
        size_t len = strcspn(p, ",");
        double q = v * 4;
        bool good = end > p && (size_t)(end - p) <= len && strspn(end, " ") >= len - (size_t)(end - p) &&
                    fabs(q) <= TERMDATA_MAX_QUARTERS && q == floor(q);
        if (!good) {
            snprintf(err, errlen, "exponent '%.*s' is not a multiple of 1/4 from -3 to 3",
                     (int)(len > 40 ? 40 : len), p);
            return false;
        }
        if (opt->nquarters < sizeof opt->quarters / sizeof opt->quarters[0])
            opt->quarters[opt->nquarters++] = (int)q;
        p += len;
    }
    if (opt->nquarters == 0) {
        snprintf(err, errlen, "no exponent given");
        return false;
    }
    return true;
}

void termsearch_free(termsearch_result *r)
{
    free(r->formula);
    free(r->run_weight);
    for (size_t i = 0; i < r->nlaws; i++)
        free(r->laws[i].formula);
    memset(r, 0, sizeof *r);
}

bool termsearch_run(const char *const *names, const double *params, size_t n, size_t m,
                    const double *y, const termsearch_options *opt, termsearch_result *out)
{
    memset(out, 0, sizeof *out);
    out->nested_rmse = NAN;
    termsearch_options defaults = {0};
    if (!opt)
        opt = &defaults;
    if (n == 0) {
        out->failure = "no training runs to search terms on";
        return true;
    }
    termdata d = {0};
    search s = {0};
    bool ok = termdata_build(params, n, m, y, &d);
    out->relative = ok && opt->scale == TERMSEARCH_RELATIVE && termdata_weigh_relative(&d);
    ok = ok && search_init(&s, &d, opt) && choose(&s, opt, names) && describe(&s, names, out) &&
         run_weights(&d, out);
    search_free(&s);
    ok = ok && nested_error(&d, opt, names, out);
    termdata_free(&d);
    if (!ok)
        termsearch_free(out);
    return ok;
}
