/*
 * backtest_cache.h — backtests that one experiment lends to others,
 * computed once per build and shared by every experiment that borrows
 * them (gen/fit/calibration.h says who borrows from whom). Without it, a
 * campaign of five sibling experiments refitted each sibling's backtests
 * for each of the others.
 *
 * Entries are keyed by the lending experiment (its experiment_info, which
 * lives as long as the archive), the adapter that refits it, and which of
 * its training configurations the backtests may use: a lender never
 * trains on or scores a configuration its borrower predicts
 * (gen/fit/calibration.c), so borrowers whose targets it shares with
 * different configurations get backtests of their own. A lender's folds
 * are numbered from 0 here; the borrower renumbers them after its own. An
 * experiment that lends nothing (its runs allow no refit) is cached too,
 * with no scores.
 *
 * The cache also holds the build's pooled error model (gen/fit/error_pool.h),
 * filled once from every experiment's own backtests, which the cache keeps
 * too (an experiment's own backtests are those it lends to itself: the
 * configurations it predicts left out), so the calibration that follows
 * reuses them instead of refitting.
 *
 * Ownership: backtest_cache_new returns a cache the caller releases with
 * backtest_cache_free, after every borrower is done; backtest_cache_find
 * returns a pointer into the cache, valid until the next add or the free;
 * backtest_cache_add takes over l->scores (also when it fails). Not
 * thread-safe: one cache per thread of fits.
 */
#ifndef PERFCAST_BACKTEST_CACHE_H
#define PERFCAST_BACKTEST_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/fit/error_pool.h"
#include "gen/ingest/experiment.h"
#include "models/calibrate.h"

/* One experiment's backtests, as a lender hands them over. */
typedef struct {
    calibrate_score *scores; /* folds numbered 0 .. nfolds-1 */
    size_t nscores;
    size_t nfolds;           /* refits that produced scores */
    size_t nheld;            /* held-out configurations over those refits */
    char fold_cols[256];     /* "np, N": the parameters whose levels were held out */
    char regime[320];        /* a change of regime the refits found at the top, "" none */
} lent_backtests;

typedef struct backtest_cache backtest_cache;

/* NULL when out of memory. */
backtest_cache *backtest_cache_new(void);
void backtest_cache_free(backtest_cache *cache);

/* The build's pooled error model (empty until filled; NULL for a NULL
 * cache), and whether it was filled for experiments of camp: with every
 * campaign's experiments, or with every one but camp's (a pool leaves an
 * experiment's own campaign out, gen/fit/error_pool.h, so `fit` and
 * `compare` of one campaign need not refit its siblings for it). */
error_pool *backtest_cache_pool(backtest_cache *cache);
bool backtest_cache_pool_filled(const backtest_cache *cache, const campaign *camp);
/* The campaign the pool was filled without; NULL when none (or unfilled). */
const campaign *backtest_cache_pool_without(const backtest_cache *cache);
/* Give the pool the shipped prior (gen/fit/error_prior.h,
 * error_prior_load): none when the environment says so or none is
 * installed. False, with err "FILE:LINE:COL: what", when the prior named
 * or found cannot be read or parsed. */
bool backtest_cache_load_prior(backtest_cache *cache, char *err, size_t errlen);
/* Mark the pool filled: the caller has added every experiment, except
 * those of without when it is not NULL. */
void backtest_cache_set_pool_filled(backtest_cache *cache, const campaign *without);

/* The backtests of e refitted with adapter on the configurations usable
 * marks (usable[0..n), NULL = all of them), or NULL when not cached yet. */
const lent_backtests *backtest_cache_find(const backtest_cache *cache, const experiment_info *e,
                                          model_adapter_fn adapter, const bool *usable, size_t n);

/* How many lending experiments are cached. */
size_t backtest_cache_count(const backtest_cache *cache);

/* Keep l as the backtests of e under adapter on the configurations usable
 * marks (copied). False when out of memory. */
bool backtest_cache_add(backtest_cache *cache, const experiment_info *e, model_adapter_fn adapter,
                        const bool *usable, size_t n, lent_backtests *l);

#endif
