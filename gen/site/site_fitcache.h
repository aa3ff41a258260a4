/*
 * site_fitcache.h — fits cached by their inputs (issue 22, item 9): a
 * build keeps every experiment's fitted results (gen/fit/fit_record.h) in
 * the site folder, and the next build reuses those whose inputs did not
 * change instead of refitting, so one new run in one campaign refits that
 * campaign only.
 *
 * The key of an experiment's record hashes everything that determines it:
 * a format version, the running perfcast executable (site_program_key: a
 * new binary never reuses an old fit), the digest of the pooled error
 * model the build calibrates with and of its shipped prior
 * (gen/fit/error_prior.h: a regenerated prior refits everything), the archive's own files (clusters.csv
 * and the others beside the campaigns), every file of the experiment's
 * campaign (its runs and experiments.csv: siblings lend each other
 * backtests), and every file of a campaign that lends it backtests
 * (experiment_lender_campaign). A record whose key differs, whose bytes
 * do not hash to what its header says, or that does not read back
 * (fit_record_read) is ignored and the experiment refitted: a cache entry
 * is never trusted, only matched.
 *
 * The pooled error model (gen/fit/error_pool.h) is an input like any
 * other, and it is refreshed by this rule: a build reuses the previous
 * build's pool, read back bit for bit, unless
 *   - there is none, it is damaged, or another perfcast wrote it;
 *   - the archive's set of experiments changed (a campaign or experiment
 *     added, removed or renamed, a model changed, one newly refused or
 *     accepted by `check`): the pool's families and campaigns would not
 *     be this archive's;
 *   - the archive's runs (rows of every runs.csv) number 10% more, or
 *     fewer, than when the pool was filled: the pool then lacks a tenth
 *     of the evidence, or holds runs that are gone. The count is the
 *     archive's, never the wall clock's, so the same archive with the same
 *     previous pool gives the same site;
 *   - the build is asked to (perfcast build --refresh-pool).
 * Otherwise the pool stays as it was, with the run count it was filled
 * at, so small nightly additions accumulate until the tenth forces a
 * refill. Why: every campaign's calibrated intervals shrink toward the
 * pool, so a pool refilled on every new run would change every
 * campaign's key and refit everything; a pool a few runs old differs from
 * the refilled one by those runs' backtests in one family among hundreds.
 * A refilled pool changes every key: that build refits everything.
 *
 * The file: OUT/.perfcast-fits (hidden, so never published as a page nor
 * listed in the manifest), written beside the staged site while its pages
 * are and put in place by the commit (gen/site/site_out.h,
 * site_out_stage_private: it comes with a new folder, or replaces the
 * previous file in one rename right after an in-place commit; a build
 * killed before leaves the previous cache, whose entries still match only
 * their own inputs):
 *
 *     perfcast-fits 1 PROGRAM
 *     pool RUNS SHAPE HASH LEN        then LEN bytes: error_pool_write's text
 *     fit CAMPAIGN INDEX KEY HASH LEN then LEN bytes: fit_record_write's text
 *
 * numbers in hex, HASH the hash_bytes of the LEN bytes (seed 0: an entry
 * whose bytes do not match it is skipped), CAMPAIGN %-encoded like a
 * record's texts; entries in the archive's order. The same inputs give the
 * same bytes.
 *
 * Ownership: site_fitcache_open returns a cache freed by
 * site_fitcache_free; site_fitcache_find returns a pointer into it, valid
 * until the free. Not thread-safe: one per build (its only thread of its
 * own is the folder hasher of site_fitcache_open).
 */
#ifndef PERFCAST_SITE_FITCACHE_H
#define PERFCAST_SITE_FITCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gen/base/fileio.h"
#include "gen/fit/backtest_cache.h"
#include "gen/ingest/archive.h"

extern const char site_fitcache_name[]; /* ".perfcast-fits" */

/* Refill the pool when runs grew or shrank by this fraction of the count
 * it was filled at. */
#define SITE_FITCACHE_POOL_GROWTH 0.10

typedef struct site_fitcache site_fitcache;

typedef struct {
    bool pool_reused;          /* the previous build's pool was read back */
    size_t experiments_reused; /* records read back instead of fitting */
    size_t experiments_fitted; /* experiments run (and recorded) */
} site_fitcache_stats;

/* The cache of out_dir's previous build (none when out_dir is NULL, new,
 * or its cache is unreadable), for a build of a by the program with key
 * program (site_program_key; 0: nothing is reused). With refresh_pool the
 * previous pool is not reused. With threaded, the campaigns' folders are
 * hashed for their keys on a thread of its own until site_fitcache_pool
 * (the only other thread the cache uses; it is joined there or by the
 * free). NULL when out of memory. */
site_fitcache *site_fitcache_open(const char *out_dir, const archive *a, uint64_t program,
                                  bool refresh_pool, bool threaded);
void site_fitcache_free(site_fitcache *fc);

/* Put the pool into cache (backtest_cache_pool): the previous build's
 * when the rule above allows, else filled from every experiment
 * (experiment_fill_pool); then every key depends on it. False when out of
 * memory. */
bool site_fitcache_pool(site_fitcache *fc, backtest_cache *cache);

/* The key of experiment results of campaign c (after site_fitcache_pool). */
uint64_t site_fitcache_key(const site_fitcache *fc, const campaign *c);

/* The previous build's record of experiment index of campaign c under
 * key (*len bytes), or NULL when it has none or its bytes are damaged. */
const char *site_fitcache_find(const site_fitcache *fc, const campaign *c, size_t index,
                               uint64_t key, size_t *len);

/* Keep a record for the next build (found or new); counts it as reused
 * or fitted. False when out of memory. */
bool site_fitcache_keep(site_fitcache *fc, const campaign *c, size_t index, uint64_t key,
                        const char *record, size_t len, bool reused);

void site_fitcache_get_stats(const site_fitcache *fc, site_fitcache_stats *s);

/* What was kept, the next build's cache file (the build writes it as
 * site_fitcache_name with its site: gen/site/site.c), as *n parts in
 * order: a new array owned by the caller (free), whose parts point into
 * fc, valid until the next keep or the free; NULL when out of memory. */
fileio_part *site_fitcache_parts(const site_fitcache *fc, size_t *n);

#endif
