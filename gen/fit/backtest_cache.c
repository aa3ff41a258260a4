/*
 * backtest_cache.c — see backtest_cache.h. A short list searched in
 * order: an archive has a few dozen lending experiments at most.
 */
#include "gen/fit/backtest_cache.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const experiment_info *e;
    model_adapter_fn adapter;
    bool *usable;   /* copy; NULL = every configuration */
    size_t n;
    lent_backtests lent;
} cache_entry;

struct backtest_cache {
    cache_entry *items;
    size_t n;
    error_pool *pool;
    bool pool_filled;
    const campaign *pool_without; /* the campaign filled without, NULL: none */
};

backtest_cache *backtest_cache_new(void)
{
    backtest_cache *cache = calloc(1, sizeof(backtest_cache));
    if (cache && !(cache->pool = error_pool_new())) {
        free(cache);
        cache = NULL;
    }
    return cache;
}

error_pool *backtest_cache_pool(backtest_cache *cache)
{
    return cache ? cache->pool : NULL;
}

bool backtest_cache_load_prior(backtest_cache *cache, char *err, size_t errlen)
{
    error_prior *prior;
    if (!error_prior_load(&prior, err, errlen))
        return false;
    error_pool_set_prior(cache->pool, prior);
    return true;
}

bool backtest_cache_pool_filled(const backtest_cache *cache, const campaign *camp)
{
    return cache && cache->pool_filled && (!cache->pool_without || cache->pool_without == camp);
}

const campaign *backtest_cache_pool_without(const backtest_cache *cache)
{
    return cache && cache->pool_filled ? cache->pool_without : NULL;
}

void backtest_cache_set_pool_filled(backtest_cache *cache, const campaign *without)
{
    cache->pool_filled = true;
    cache->pool_without = without;
}

void backtest_cache_free(backtest_cache *cache)
{
    if (!cache)
        return;
    for (size_t i = 0; i < cache->n; i++) {
        free(cache->items[i].lent.scores);
        free(cache->items[i].usable);
    }
    free(cache->items);
    error_pool_free(cache->pool);
    free(cache);
}

static bool same_usable(const cache_entry *x, const bool *usable, size_t n)
{
    if (!x->usable || !usable)
        return !x->usable && !usable;
    return x->n == n && memcmp(x->usable, usable, n * sizeof *usable) == 0;
}

const lent_backtests *backtest_cache_find(const backtest_cache *cache, const experiment_info *e,
                                          model_adapter_fn adapter, const bool *usable, size_t n)
{
    for (size_t i = 0; cache && i < cache->n; i++)
        if (cache->items[i].e == e && cache->items[i].adapter == adapter &&
            same_usable(&cache->items[i], usable, n))
            return &cache->items[i].lent;
    return NULL;
}

size_t backtest_cache_count(const backtest_cache *cache)
{
    return cache ? cache->n : 0;
}

bool backtest_cache_add(backtest_cache *cache, const experiment_info *e, model_adapter_fn adapter,
                        const bool *usable, size_t n, lent_backtests *l)
{
    cache_entry *more = realloc(cache->items, (cache->n + 1) * sizeof *more);
    bool *copy = usable ? malloc((n ? n : 1) * sizeof *copy) : NULL;
    if (!more || (usable && !copy)) {
        if (more)
            cache->items = more;
        free(copy);
        free(l->scores);
        l->scores = NULL;
        return false;
    }
    if (copy)
        memcpy(copy, usable, n * sizeof *copy);
    cache->items = more;
    cache->items[cache->n++] = (cache_entry){e, adapter, copy, n, *l};
    l->scores = NULL;
    return true;
}
