/*
 * backtest_cache.c — see backtest_cache.h. A short list searched in
 * order: an archive has a few dozen lending experiments at most.
 */
#include "gen/fit/backtest_cache.h"

#include <stdlib.h>

typedef struct {
    const experiment_info *e;
    model_adapter_fn adapter;
    lent_backtests lent;
} cache_entry;

struct backtest_cache {
    cache_entry *items;
    size_t n;
};

backtest_cache *backtest_cache_new(void)
{
    return calloc(1, sizeof(backtest_cache));
}

void backtest_cache_free(backtest_cache *cache)
{
    if (!cache)
        return;
    for (size_t i = 0; i < cache->n; i++)
        free(cache->items[i].lent.scores);
    free(cache->items);
    free(cache);
}

const lent_backtests *backtest_cache_find(const backtest_cache *cache, const experiment_info *e,
                                          model_adapter_fn adapter)
{
    for (size_t i = 0; cache && i < cache->n; i++)
        if (cache->items[i].e == e && cache->items[i].adapter == adapter)
            return &cache->items[i].lent;
    return NULL;
}

size_t backtest_cache_count(const backtest_cache *cache)
{
    return cache ? cache->n : 0;
}

bool backtest_cache_add(backtest_cache *cache, const experiment_info *e, model_adapter_fn adapter,
                        lent_backtests *l)
{
    cache_entry *more = realloc(cache->items, (cache->n + 1) * sizeof *more);
    if (!more) {
        free(l->scores);
        l->scores = NULL;
        return false;
    }
    cache->items = more;
    cache->items[cache->n++] = (cache_entry){e, adapter, *l};
    l->scores = NULL;
    return true;
}
