/*
 * pooled_width.h — the pooled extrapolation error of one model family at
 * one distance, for a prediction that has no calibration of its own: each
 * side of the multi-cluster model (a strip prediction;
 * gen/fit/model_multicluster.c, models/multicluster.h) and the options of
 * `perfcast advise` (gen/advice/advise.h), the command's and the site's
 * advice pages alike.
 *
 * Method: the width calibration gives a prediction with no backtest of its
 * own (gen/fit/calibration.c, pooled_models and target_model), so that a
 * strip side and a strip experiment at the same distance get one width by
 * one rule (issue 23 item 4): what the family shrinks toward
 * in the pool's bin of the distance (calibrate_distance_bin) is
 * error_pool_target's model, the archive's backtests of the family in
 * campaigns other than camp (camp NULL: every campaign) shrunk toward the
 * shipped prior (gen/fit/error_prior.h) where the pool carries one; a bin
 * where the archive's pool has no score but has some at other distances
 * gives way to every bin (the archive's own evidence before the prior), as
 * calibration's does; s and Student's t as calibrate_shrink gives them with
 * no own score and weight CALIBRATE_POOL_WEIGHT; the log half-width
 * h = t s max(distance, CALIBRATE_MIN_DISTANCE) (calibrate_half_width)
 * times the prediction's roughness unit u: the pool and the prior hold
 * errors per unit of roughness (models/calibrate.h), so the width is
 * scaled back by the unit of the runs the prediction comes from, as
 * calibration scales an experiment's (gen/fit/calibration.h,
 * calibration_training_unit). Without that factor the per-unit scale of
 * smooth strip runs (u = 0.1) would read as ten times their error.
 * Before this rule (to bc52237, the multi-cluster numbers scored on
 * tests/fixtures/heldout-sim2) the archive's pool alone was used, so an
 * archive with no pooled strip backtests gave no width here where a strip
 * experiment got the prior's.
 *
 * Ownership: nothing is allocated or kept. No I/O.
 */
#ifndef PERFCAST_POOLED_WIDTH_H
#define PERFCAST_POOLED_WIDTH_H

#include <stddef.h>
#include "gen/fit/error_pool.h"

/* The 95% log half-width for a prediction of family at distance doublings
 * beyond its training runs whose roughness unit is unit
 * (calibration_training_unit; not finite or not positive: the smooth
 * unit, calibrate_roughness_unit(NAN)); NAN when neither the archive's pool outside
 * camp nor the prior holds a score of family (or pool is NULL, or the
 * distance is not finite). *npool and *nprior (either may be NULL) get the
 * scores of each that the width came from (0: none). */
double pooled_half_width(const error_pool *pool, const char *family, const campaign *camp,
                         double distance, double unit, size_t *npool, size_t *nprior);

/* Where such a width came from, in words: "41 pooled strip backtests of
 * other campaigns shrunk toward the shipped prior's 512", "... of other
 * campaigns", "the shipped prior's 512 strip backtests". */
void pooled_width_source_text(const char *family, size_t npool, size_t nprior, char *buf,
                              size_t len);

#endif
