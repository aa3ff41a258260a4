/*
 * termdata.c — configurations and tabulated factors for the term search
 * (see termdata.h).
 */
#include "models/termdata.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Factors are indexed (j, q) within their parameter's table. */
#define FACTOR_KINDS ((TERMDATA_MAX_LOG_POWER + 1) * (2 * TERMDATA_MAX_QUARTERS + 1))

static size_t factor_kind(const term_factor *f)
{
    return (size_t)f->log_power * (2 * TERMDATA_MAX_QUARTERS + 1) +
           (size_t)(f->quarters + TERMDATA_MAX_QUARTERS);
}

static double factor_value(const term_factor *f, double p)
{
    double v = 1;
    if (f->quarters)
        v *= pow(p, f->quarters / 4.0);
    if (f->log_power)
        v *= pow(log2(p), f->log_power);
    return v;
}

double term_shape_value(const term_shape *s, const double *point)
{
    double v = 1;
    for (size_t k = 0; k < s->nf; k++)
        v *= factor_value(&s->f[k], point[s->f[k].param]);
    return isfinite(v) ? v : NAN;
}

/* Distinct rows of values, found by hashing their bytes. */
typedef struct {
    const double *data;
    size_t len, stride;
    size_t *first; /* per slot: the first row with these values + 1, 0 = free */
    size_t *id;    /* per slot: their number */
    size_t cap;    /* a power of two, more than twice the rows numbered */
} distinct_rows;

static uint64_t row_bytes_hash(const distinct_rows *d, size_t row)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (size_t k = 0; k < d->len; k++) {
        uint64_t v;
        memcpy(&v, d->data + row * d->stride + k, sizeof v);
        h = (h ^ v) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    return h;
}

/* The slot of row's values: where they are, or the free slot for them. */
static size_t distinct_slot(const distinct_rows *d, size_t row, uint64_t h)
{
    const double *values = d->data + row * d->stride;
    for (size_t i = (size_t)h & (d->cap - 1);; i = (i + 1) & (d->cap - 1)) {
        if (!d->first[i])
            return i;
        const double *seen = d->data + (d->first[i] - 1) * d->stride;
        if (memcmp(seen, values, d->len * sizeof *values) == 0)
            return i;
    }
}

/* Double the slots; false when out of memory. */
static bool distinct_grow(distinct_rows *d)
{
    distinct_rows bigger = *d;
    bigger.cap = d->cap ? 2 * d->cap : 1024;
    bigger.first = calloc(bigger.cap, sizeof *bigger.first);
    bigger.id = malloc(bigger.cap * sizeof *bigger.id);
    if (!bigger.first || !bigger.id) {
        free(bigger.first);
        free(bigger.id);
        return false;
    }
    for (size_t i = 0; i < d->cap; i++)
        if (d->first[i]) {
            size_t row = d->first[i] - 1;
            size_t j = distinct_slot(&bigger, row, row_bytes_hash(&bigger, row));
            bigger.first[j] = d->first[i];
            bigger.id[j] = d->id[i];
        }
    free(d->first);
    free(d->id);
    *d = bigger;
    return true;
}

/* Number the distinct rows (len values each, stride apart) of data in the
 * order they first appear: id[i] for each of the n rows; returns how many
 * (0 when out of memory). Rows are equal when their bytes are, as the
 * repetitions of a configuration are; a hash of the bytes finds them in
 * one pass (sorting the rows took three sorts of every training run). */
static size_t number_distinct(const double *data, size_t n, size_t len, size_t stride,
                              size_t *id)
{
    distinct_rows d = {.data = data, .len = len, .stride = stride};
    size_t count = 0;
    bool ok = distinct_grow(&d);
    for (size_t i = 0; ok && i < n; i++) {
        uint64_t h = row_bytes_hash(&d, i);
        size_t slot = distinct_slot(&d, i, h);
        if (!d.first[slot]) {
            if (2 * (count + 1) > d.cap) {
                ok = distinct_grow(&d);
                slot = distinct_slot(&d, i, h);
            }
            d.first[slot] = i + 1;
            d.id[slot] = count++;
        }
        id[i] = d.id[slot];
    }
    free(d.first);
    free(d.id);
    return ok ? count : 0;
}

/* Parameter p's distinct values and every factor's value at each. level[i]
 * is run i's value as an index. */
static bool tabulate(termdata *t, const double *params, size_t p, const size_t *level)
{
    size_t nl = t->nlevels[p];
    double *values = t->value_at[p] = malloc(nl * sizeof *values);
    double *table = t->factor_at[p] = malloc(FACTOR_KINDS * nl * sizeof *table);
    if (!values || !table)
        return false;
    for (size_t i = 0; i < t->n; i++)
        values[level[i]] = params[i * t->m + p];
    for (int j = 0; j <= TERMDATA_MAX_LOG_POWER; j++)
        for (int q = -TERMDATA_MAX_QUARTERS; q <= TERMDATA_MAX_QUARTERS; q++) {
            term_factor f = {p, q, j};
            for (size_t l = 0; l < nl; l++)
                table[factor_kind(&f) * nl + l] = factor_value(&f, values[l]);
        }
    return true;
}

/* usable[p]: positive, finite, and more than one value over the
 * configurations. */
static void mark_usable(termdata *t)
{
    for (size_t p = 0; p < t->m; p++) {
        bool ok = t->g > 0, varies = false;
        for (size_t c = 0; ok && c < t->g; c++) {
            double v = t->value_at[p][t->level[c * t->m + p]];
            ok = v > 0 && isfinite(v);
            varies |= t->level[c * t->m + p] != t->level[p];
        }
        t->usable[p] = ok && varies;
    }
}

static bool allocate_configs(termdata *t, size_t g)
{
    t->g = g;
    t->count = calloc(g + 1, sizeof *t->count);
    t->mean = calloc(g + 1, sizeof *t->mean);
    t->within = calloc(g + 1, sizeof *t->within);
    t->weight = malloc((g + 1) * sizeof *t->weight);
    for (size_t c = 0; t->weight && c < g; c++)
        t->weight[c] = 1;
    t->level = malloc((g * t->m + 1) * sizeof *t->level);
    t->usable = calloc(t->m + 1, sizeof *t->usable);
    return t->count && t->mean && t->within && t->weight && t->level && t->usable;
}

/* Count, mean and spread of each configuration; config[i] is run i's. */
static void summarise(termdata *t, const double *y, const size_t *config)
{
    for (size_t i = 0; i < t->n; i++) {
        t->count[config[i]]++;
        t->mean[config[i]] += y[i];
    }
    for (size_t c = 0; c < t->g; c++)
        t->mean[c] /= t->count[c];
    for (size_t i = 0; i < t->n; i++) {
        double d = y[i] - t->mean[config[i]];
        t->within[config[i]] += d * d;
    }
}

bool termdata_build(const double *params, size_t n, size_t m, const double *y, termdata *t)
{
    *t = (termdata){.n = n, .m = m, .owns_tables = true};
    size_t *config = malloc((n + 1) * sizeof *config), *level = malloc((n + 1) * sizeof *level);
    t->nlevels = calloc(m + 1, sizeof *t->nlevels);
    t->value_at = calloc(m + 1, sizeof *t->value_at);
    t->factor_at = calloc(m + 1, sizeof *t->factor_at);
    bool ok = config && level && t->nlevels && t->value_at && t->factor_at;
    size_t g = ok ? number_distinct(params, n, m, m, config) : 0;
    ok = ok && (g > 0 || n == 0) && allocate_configs(t, g);
    if (ok)
        summarise(t, y, config);
    for (size_t p = 0; ok && p < m; p++) {
        ok = (t->nlevels[p] = number_distinct(params + p, n, 1, m, level)) > 0 || n == 0;
        for (size_t i = 0; ok && i < n; i++)
            t->level[config[i] * m + p] = level[i];
        ok = ok && tabulate(t, params, p, level);
    }
    if (ok)
        mark_usable(t);
    t->config = config;
    free(level);
    return ok;
}

bool termdata_weigh_relative(termdata *t)
{
    for (size_t c = 0; c < t->g; c++)
        if (!(t->mean[c] > 0) || !isfinite(1 / (t->mean[c] * t->mean[c])))
            return false;
    for (size_t c = 0; c < t->g; c++)
        t->weight[c] = 1 / (t->mean[c] * t->mean[c]);
    return true;
}

bool termdata_subset(const termdata *all, const bool *keep, termdata *sub)
{
    *sub = (termdata){.m = all->m, .nlevels = all->nlevels, .value_at = all->value_at,
                      .factor_at = all->factor_at, .owns_tables = false};
    size_t g = 0;
    for (size_t c = 0; c < all->g; c++)
        g += keep[c];
    if (!allocate_configs(sub, g))
        return false;
    size_t k = 0;
    for (size_t c = 0; c < all->g; c++) {
        if (!keep[c])
            continue;
        sub->count[k] = all->count[c];
        sub->mean[k] = all->mean[c];
        sub->within[k] = all->within[c];
        sub->weight[k] = all->weight[c];
        memcpy(sub->level + k * all->m, all->level + c * all->m, all->m * sizeof *sub->level);
        sub->n += (size_t)all->count[c];
        k++;
    }
    mark_usable(sub);
    return true;
}

void termdata_free(termdata *t)
{
    free(t->count);
    free(t->mean);
    free(t->within);
    free(t->weight);
    free(t->config);
    free(t->level);
    free(t->usable);
    if (t->owns_tables) {
        for (size_t p = 0; p < t->m; p++) {
            free(t->value_at ? t->value_at[p] : NULL);
            free(t->factor_at ? t->factor_at[p] : NULL);
        }
        free(t->nlevels);
        free(t->value_at);
        free(t->factor_at);
    }
    memset(t, 0, sizeof *t);
}

bool termdata_values(const termdata *t, const term_shape *s, double *out)
{
    bool varies = false;
    const double *table[TERMDATA_MAX_FACTORS];
    for (size_t k = 0; k < s->nf; k++) {
        size_t p = s->f[k].param;
        table[k] = t->factor_at[p] + factor_kind(&s->f[k]) * t->nlevels[p];
    }
    for (size_t c = 0; c < t->g; c++) {
        double v = 1;
        for (size_t k = 0; k < s->nf; k++)
            v *= table[k][t->level[c * t->m + s->f[k].param]];
        if (!isfinite(v))
            return false;
        out[c] = v;
        varies |= v != out[0];
    }
    return varies;
}

bool termdata_values_times(const termdata *t, const double *values, const term_factor *f,
                           double *out)
{
    const double *table = t->factor_at[f->param] + factor_kind(f) * t->nlevels[f->param];
    bool varies = false;
    for (size_t c = 0; c < t->g; c++) {
        double v = values[c] * table[t->level[c * t->m + f->param]];
        if (!isfinite(v))
            return false;
        out[c] = v;
        varies |= v != out[0];
    }
    return varies;
}

int term_factor_complexity(const term_factor *f)
{
    int q = abs(f->quarters);
    int kind = q % 4 == 0 ? 0 : q % 2 == 0 ? 1 : 2;
    return ((kind + f->log_power) * 16 + q) * 2 + (f->quarters < 0);
}

int term_factor_compare(const void *a, const void *b)
{
    const term_factor *x = a, *y = b;
    if (x->param != y->param)
        return x->param < y->param ? -1 : 1;
    return term_factor_complexity(x) - term_factor_complexity(y);
}

void term_shape_append(char *buf, size_t len, const char *const *names, const term_shape *in)
{
    term_shape sorted = *in;
    const term_shape *t = &sorted;
    qsort(sorted.f, sorted.nf, sizeof *sorted.f, term_factor_compare);
    size_t used = strlen(buf);
    if (used)
        used += (size_t)snprintf(buf + used, len - used, " + ");
    for (size_t k = 0; k < t->nf && used < len; k++) {
        const term_factor *f = &t->f[k];
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
