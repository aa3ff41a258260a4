/*
 * error_prior.h — the shipped prior of the pooled error model: how far
 * extrapolations of each model family have erred on the data perfcast
 * ships, the target an experiment's backtests shrink toward when its
 * archive's own pool (gen/fit/error_pool.h) is empty or small (issue 22,
 * items 4 and 7).
 *
 * Why: an archive with one campaign has nothing to pool, and an experiment
 * with four training levels has two or three refits of its own; their
 * errors alone gave intervals of x20 to x10^6 (t(0.975, 2) = 4.3 times a
 * scale that one wild backtest sets). The prior says what a scale usually
 * is, before this campaign is seen.
 *
 * Method. The file (gen/fit/prior/error_prior.tsv, installed as
 * PREFIX/share/perfcast/error_prior.tsv) has one row per model family and
 * bin of distance (calibrate_distance_bin, or "all"):
 *     FAMILY TAB BIN TAB SCORES TAB SCALE
 * SCALE the robust log error per doubling per unit of roughness (median
 * |z| / 0.6745, z as calibrate_fit_per_unit makes it, models/calibrate.h)
 * of SCORES backtests of that family and bin (no row
 * pools families: a family's errors say nothing of another's, the strip
 * model's are a tenth of the term search's). gen/fit/prior/make_error_prior.sh writes it from the
 * embedded archive and the public sets of tests/fixtures/public and its
 * heldout/ and heldout2/ (each region a campaign of its own, every experiment's own backtests, no
 * target ever scored), so it is reproducible from the source tree.
 * A row whose BIN is "floor" gives, in its SCALE column, the floor of the
 * family's roughness unit (models/calibrate.h, calibrate_roughness_unit_with)
 * learnt from SCORES backtests, and the family's scales are per unit with
 * that floor; without such a row the floor is CALIBRATE_SMOOTH_ROUGHNESS.
 * Lines starting with '#' and empty lines are comments.
 *
 * Its weight: as a scaled inverse chi-square prior on the variance of z,
 * with k = min(CALIBRATE_POOL_WEIGHT, SCORES) degrees of freedom: the
 * posterior predictive of a new z is Student's t on n + k degrees of
 * freedom with scale^2 = (n s^2 + k s0^2) / (n + k) for n scores of
 * scale s — calibrate_shrink's formula, so the prior is one more pool
 * (error_pool_target). k = 8 was fixed before the prior was measured
 * (models/calibrate.h): the shipped data are other codes on other
 * machines and may count for no more than one well-sampled experiment.
 *
 * Where: $PERFCAST_ERROR_PRIOR names the file ("none": no prior, the
 * intervals as without one); else the installed or source tree's file
 * (gen/base/share_path.h); no file found: no prior.
 *
 * Ownership: error_prior_parse and error_prior_load return a prior freed
 * by error_prior_free; error_prior_where points into it. Errors are
 * written to the caller's buffer as "FILE:LINE:COL: what". No I/O but
 * error_prior_load's one read.
 */
#ifndef PERFCAST_ERROR_PRIOR_H
#define PERFCAST_ERROR_PRIOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "models/calibrate.h"

#define ERROR_PRIOR_FILE "error_prior.tsv"
#define ERROR_PRIOR_ENV "PERFCAST_ERROR_PRIOR"
#define ERROR_PRIOR_ERROR_LEN 4400 /* room for a path (PATH_MAX) and a message */

typedef struct error_prior error_prior;

/* The prior in text[0..len), named name in errors. NULL, with err
 * "NAME:LINE:COL: ..." (or "out of memory"), when a row does not parse:
 * not four fields, an unknown bin (0, 1, 2, all or floor), a count that is not a positive
 * integer, a scale that is not finite and positive, or a family and bin
 * given twice. */
error_prior *error_prior_parse(const char *name, const char *text, size_t len, char *err,
                               size_t errlen);

/* The prior the environment and the installation name (above): *out
 * NULL when there is none. False, with err, when the file named or found
 * cannot be read or does not parse (then nothing is calibrated with a
 * prior the user did not mean). */
bool error_prior_load(error_prior **out, char *err, size_t errlen);

/* Whether error_prior_load would load no prior because none is found
 * (neither $PERFCAST_ERROR_PRIOR nor a shipped file; "none" is a choice,
 * not a miss): then every calibrated interval is made without the
 * shipped prior, as a build copied away from its tree makes them. */
bool error_prior_missing(void);

void error_prior_free(error_prior *prior);

/* The prior of family at distance bin (CALIBRATE_POOL_BINS: all): its
 * row, else the family's "all" row, as a calibrate_model (nscores SCORES, scale and robust_scale
 * SCALE, t on SCORES). CALIBRATE_NO_SCORES (zeroed) when the family has
 * no row or prior is NULL: its intervals are as without a prior. */
calibrate_status error_prior_model(const error_prior *prior, const char *family, size_t bin,
                                   double level, calibrate_model *out);

/* The floor of family's roughness unit: its "floor" row's, else
 * CALIBRATE_SMOOTH_ROUGHNESS (also for a NULL prior). */
double error_prior_floor(const error_prior *prior, const char *family);

/* A hash of the prior's text (0 for NULL): fits calibrated with it are
 * cached under it (gen/site/site_fitcache.h). */
uint64_t error_prior_digest(const error_prior *prior);

/* The file it was read from (its name for a parsed text). */
const char *error_prior_where(const error_prior *prior);

#endif
