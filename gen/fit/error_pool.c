/*
 * error_pool.c — see error_pool.h. A flat list: an archive's backtests
 * number in the hundreds, and each experiment asks four times.
 */
#include "gen/fit/error_pool.h"

#include <stdlib.h>
#include <string.h>

#include "gen/base/growth.h"

typedef struct {
    const char *family;
    const campaign *camp;
    calibrate_score score;
} pooled_score;

struct error_pool {
    pooled_score *items;
    size_t n, cap;
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

calibrate_status error_pool_model(const error_pool *pool, const char *family,
                                  const campaign *camp, size_t bin, double level,
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
    calibrate_status st = calibrate_fit(mine, n, level, out);
    free(mine);
    return st;
}
