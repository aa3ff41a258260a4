/*
 * error_pool.c — see error_pool.h. A flat list: an archive's backtests
 * number in the hundreds, and each experiment asks four times.
 */
#include "gen/fit/error_pool.h"

#include <stdlib.h>
#include <string.h>

#include "gen/base/growth.h"
#include "gen/base/textout.h"
#include "gen/fit/error_prior.h"

typedef struct {
    const char *family;
    const campaign *camp;
    calibrate_score score;
} pooled_score;

struct error_pool {
    pooled_score *items;
    size_t n, cap;
    error_prior *prior; /* NULL: none */
};

error_pool *error_pool_new(void)
{
    return calloc(1, sizeof(error_pool));
}

void error_pool_free(error_pool *pool)
{
    if (!pool)
        return;
    free(pool->items);
    error_prior_free(pool->prior);
    free(pool);
}

static bool holds(const error_pool *pool, const char *family, const campaign *camp, size_t config)
{
    for (size_t i = 0; i < pool->n; i++)
        if (pool->items[i].camp == camp && pool->items[i].score.config == config &&
            strcmp(pool->items[i].family, family) == 0)
            return true;
    return false;
}

bool error_pool_add(error_pool *pool, const char *family, const campaign *camp,
                    const calibrate_score *scores, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (holds(pool, family, camp, scores[i].config))
            continue;
        if (!growth_reserve(&pool->items, &pool->cap, pool->n + 1, sizeof *pool->items))
            return false;
        pool->items[pool->n++] = (pooled_score){family, camp, scores[i]};
    }
    return true;
}

/* error_pool_model, per unit of roughness when per_unit. */
static calibrate_status pool_model(const error_pool *pool, const char *family,
                                   const campaign *camp, size_t bin, double level, bool per_unit,
                                   calibrate_model *out)
{
    memset(out, 0, sizeof *out);
    size_t n = 0;
    calibrate_score *mine = malloc((pool && pool->n ? pool->n : 1) * sizeof *mine);
    if (!mine)
        return CALIBRATE_NOMEM;
    for (size_t i = 0; pool && i < pool->n; i++) {
        const pooled_score *p = &pool->items[i];
        if (p->camp != camp && strcmp(p->family, family) == 0 &&
            (bin == CALIBRATE_POOL_BINS || calibrate_distance_bin(p->score.distance) == bin))
            mine[n++] = p->score;
    }
    calibrate_status st = per_unit ? calibrate_fit_per_unit(mine, n, level, out)
                                   : calibrate_fit(mine, n, level, out);
    free(mine);
    return st;
}

calibrate_status error_pool_model(const error_pool *pool, const char *family,
                                  const campaign *camp, size_t bin, double level,
                                  calibrate_model *out)
{
    return pool_model(pool, family, camp, bin, level, false, out);
}

void error_pool_set_prior(error_pool *pool, error_prior *prior)
{
    error_prior_free(pool->prior);
    pool->prior = prior;
}

const error_prior *error_pool_prior(const error_pool *pool)
{
    return pool ? pool->prior : NULL;
}

calibrate_status error_pool_target(const error_pool *pool, const char *family,
                                   const campaign *camp, size_t bin, double level,
                                   calibrate_model *out, size_t *npool, size_t *nprior)
{
    calibrate_model prior;
    calibrate_status st = pool_model(pool, family, camp, bin, level, true, out);
    *npool = st == CALIBRATE_OK ? out->nscores : 0;
    *nprior = 0;
    if (st == CALIBRATE_NOMEM ||
        error_prior_model(error_pool_prior(pool), family, bin, level, &prior) != CALIBRATE_OK)
        return st;
    *nprior = prior.nscores;
    if (st != CALIBRATE_OK) {
        *out = prior;
        return CALIBRATE_OK;
    }
    calibrate_model archive = *out;
    return calibrate_shrink(&archive, &prior, CALIBRATE_POOL_WEIGHT, level, out);
}

bool error_pool_write(const error_pool *pool, rbuf *out)
{
    for (size_t i = 0; pool && i < pool->n; i++) {
        const pooled_score *p = &pool->items[i];
        char v[4][17];
        textout_double_bits(v[0], p->score.predicted);
        textout_double_bits(v[1], p->score.measured);
        textout_double_bits(v[2], p->score.distance);
        textout_double_bits(v[3], p->score.unit);
        rbuf_printf(out, "%s\t%s\t%zu\t%zu\t%s\t%s\t%s\t%s\t%zu\n", p->family, p->camp->name,
                    p->score.config, p->score.fold, v[0], v[1], v[2], v[3], p->score.depth);
    }
    return !out->oom;
}

/* The archive's text for the model name family (so the pool's pointer
 * lives as long as the archive), NULL when no experiment of a has it. */
static const char *archive_family(const archive *a, const char *family)
{
    for (size_t i = 0; i < a->ncampaigns; i++)
        for (size_t j = 0; j < a->campaigns[i].nexperiments; j++) {
            const char *model = a->campaigns[i].experiments[j].model;
            if (model && strcmp(model, family) == 0)
                return model;
        }
    return NULL;
}

/* The family and campaign of the line before: lines come grouped by
 * campaign, and finding a campaign by name scans the archive (a pool of a
 * thousand campaigns spent most of its reading there). */
typedef struct {
    const char *family;
    const campaign *camp;
} last_names;

/* One line (NUL-terminated, no newline) into pool; false when it does not parse. */
static bool read_score(error_pool *pool, const archive *a, char *line, last_names *last)
{
    char *field[9], *save = NULL;
    size_t n = 0;
    for (char *f = strtok_r(line, "\t", &save); f && n < 9; f = strtok_r(NULL, "\t", &save))
        field[n++] = f;
    if (n != 9 || strtok_r(NULL, "\t", &save))
        return false;
    if (!last->family || strcmp(last->family, field[0]) != 0)
        last->family = archive_family(a, field[0]);
    if (!last->camp || strcmp(last->camp->name, field[1]) != 0)
        last->camp = archive_campaign(a, field[1]);
    const char *family = last->family;
    const campaign *camp = last->camp;
    /* CONFIG, FOLD and DEPTH: whole numbers, nothing after them. */
    char *whole[3] = {field[2], field[3], field[8]}, *end[3];
    pooled_score p = {family, camp,
                      {.config = strtoull(whole[0], &end[0], 10),
                       .fold = strtoull(whole[1], &end[1], 10),
                       .depth = strtoull(whole[2], &end[2], 10)}};
    for (size_t i = 0; i < 3; i++)
        if (*end[i] || end[i] == whole[i])
            return false;
    if (!textout_parse_double_bits(field[4], &p.score.predicted) ||
        !textout_parse_double_bits(field[5], &p.score.measured) ||
        !textout_parse_double_bits(field[6], &p.score.distance) ||
        !textout_parse_double_bits(field[7], &p.score.unit))
        return false;
    if (!family || !camp || !growth_reserve(&pool->items, &pool->cap, pool->n + 1, sizeof p))
        return false;
    pool->items[pool->n++] = p;
    return true;
}

bool error_pool_read(error_pool *pool, const archive *a, const char *text, size_t len)
{
    char *copy = malloc(len + 1);
    bool ok = copy != NULL;
    if (ok) {
        memcpy(copy, text, len);
        copy[len] = '\0';
        ok = strlen(copy) == len && (len == 0 || copy[len - 1] == '\n');
    }
    last_names last = {NULL, NULL};
    for (char *line = copy; ok && *line;) {
        char *nl = strchr(line, '\n');
        *nl = '\0';
        ok = read_score(pool, a, line, &last);
        line = nl + 1;
    }
    free(copy);
    if (!ok)
        pool->n = 0;
    return ok;
}
