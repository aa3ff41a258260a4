/*
 * error_pool.h — the archive's pooled error model: the backtest errors of
 * every experiment, by model family, that calibrated intervals shrink
 * toward (models/calibrate.h, calibrate_shrink; issue 22, item 4).
 *
 * What goes in: each experiment's own backtests (never borrowed ones: a
 * borrower would count its lender twice), scored by the same refits that
 * calibrate it (gen/fit/calibration.h), with the configurations it
 * predicts left out of them. Each held-out configuration of a campaign is
 * scored once per family: when two experiments of a campaign hold out the
 * same configuration (siblings with the same training runs, or two
 * formulas), the first added keeps it, so one run's oddity counts once.
 * What comes out, for an experiment: the pool of its family over the
 * *other* campaigns only. Within its own campaign its siblings' refits may
 * train on or score the configurations it predicts (issue 22's leak), and
 * the siblings it may learn from it borrows already, with those
 * configurations left out (calibration.c); another campaign's runs table
 * holds none of its configurations.
 *
 * Refresh: the pool is an input like the archive (issue 22, item 9). A
 * build fills it once, from every experiment, before the first calibrated
 * interval (gen/fit/experiment_run.c), in the archive's order, so it is
 * the same for every experiment and every build of the same archive; or
 * it reads the pool a previous build wrote (error_pool_write,
 * error_pool_read). When a build may reuse the previous pool instead of
 * refilling it is the site's rule (gen/site/site_fitcache.h): one new run
 * must not refit every campaign through the pool.
 *
 * Ownership: error_pool_new returns a pool freed by error_pool_free (with
 * its prior, error_pool_set_prior); it copies the scores and keeps the family and campaign pointers, which
 * must outlive it (they point into the archive). Not thread-safe.
 */
#ifndef PERFCAST_ERROR_POOL_H
#define PERFCAST_ERROR_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/fit/error_prior.h"
#include "gen/ingest/archive.h"
#include "models/calibrate.h"
#include "render/buf.h"

typedef struct error_pool error_pool;

/* NULL when out of memory. */
error_pool *error_pool_new(void);
void error_pool_free(error_pool *pool);

/* Add the n own backtest scores of an experiment of family (its model
 * name) in campaign camp; scores[i].config identifies the held-out
 * configuration (its first row), and one the pool holds for (family,
 * camp) already is skipped. False when out of memory. */
bool error_pool_add(error_pool *pool, const char *family, const campaign *camp,
                    const calibrate_score *scores, size_t n);

/* The pool of family over every campaign but camp, as calibrate_fit
 * makes it at level (raw log errors per doubling, not per unit of
 * roughness: gen/fit/pooled_width.h's widths, measured so), restricted to the scores in distance bin `bin`
 * (calibrate_distance_bin), or all of them when bin is
 * CALIBRATE_POOL_BINS. CALIBRATE_NO_SCORES when there is none (also for a
 * NULL pool), CALIBRATE_NOMEM. */
calibrate_status error_pool_model(const error_pool *pool, const char *family,
                                  const campaign *camp, size_t bin, double level,
                                  calibrate_model *out);

/* The shipped prior the pool's models shrink toward (gen/fit/error_prior.h;
 * NULL: none, as without it); the pool takes it over and frees it. */
void error_pool_set_prior(error_pool *pool, error_prior *prior);
const error_prior *error_pool_prior(const error_pool *pool); /* NULL: none */

/* What an experiment of family in camp shrinks toward at distance bin
 * (CALIBRATE_POOL_BINS: all), per unit of roughness (models/calibrate.h,
 * calibrate_roughness_unit; the caller multiplies the half-width by its
 * experiment's unit): the pool of the other campaigns
 * (error_pool_model's scores through calibrate_fit_per_unit, root mean square scale as before the prior: its
 * scores come from many campaigns, and their spread between codes and
 * machines is what a new campaign's interval must carry) shrunk toward
 * the prior of family and bin
 * (calibrate_shrink with k = min(CALIBRATE_POOL_WEIGHT, prior's scores):
 * the prior counts as much where the archive's pool is small, little
 * where it is large), the prior alone where the pool has no score there,
 * the pool alone where there is no prior. *npool and *nprior: the scores
 * of each that it holds (0: none). CALIBRATE_NO_SCORES when neither has
 * any, CALIBRATE_NOMEM. */
calibrate_status error_pool_target(const error_pool *pool, const char *family,
                                   const campaign *camp, size_t bin, double level,
                                   calibrate_model *out, size_t *npool, size_t *nprior);

/* The pool as text, one score a line in the order added:
 * FAMILY TAB CAMPAIGN TAB CONFIG TAB FOLD TAB PREDICTED TAB MEASURED TAB
 * DISTANCE TAB UNIT TAB DEPTH, the real numbers as their bits
 * (textout_double_bits), so it reads back bit for bit.
 * Appended to out; false when out of memory. */
bool error_pool_write(const error_pool *pool, rbuf *out);

/* Add the scores of text[0..len) (error_pool_write's) to pool, their
 * families and campaigns resolved in a (a family is the model of an
 * experiment of a). False, with the pool emptied, when a line does not
 * parse or names a campaign or family a lacks (then the pool must be
 * filled again), or when out of memory. */
bool error_pool_read(error_pool *pool, const archive *a, const char *text, size_t len);

#endif
