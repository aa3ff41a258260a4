/*
 * pooled_width.h — the archive's pooled extrapolation error of one model
 * family at one distance, for a prediction that has no calibration of its
 * own: each side of the multi-cluster model (a strip prediction;
 * gen/fit/model_multicluster.c, models/multicluster.h) and the options of
 * `perfcast advise` (gen/advice/advise.h).
 *
 * Method: calibration's pool-only interval (gen/fit/calibration.h) as it
 * was before the shipped prior (gen/fit/error_prior.h): the archive's pool
 * alone, not error_pool_target's pool shrunk toward the prior, so an
 * archive with no pooled strip backtests gives no width here where a strip
 * experiment would get the prior's (kept so: the scored multi-cluster
 * numbers were measured this way). The family's backtests in the archive's campaigns
 * other than camp (error_pool_model; camp NULL: every campaign), in the
 * pool's bin of the distance (calibrate_distance_bin), or over every bin
 * when that one is empty; s and Student's t as calibrate_shrink gives them
 * with no own score and weight CALIBRATE_POOL_WEIGHT; the log half-width
 * h = t s max(distance, CALIBRATE_MIN_DISTANCE) (calibrate_half_width).
 *
 * Ownership: nothing is allocated or kept. No I/O.
 */
#ifndef PERFCAST_POOLED_WIDTH_H
#define PERFCAST_POOLED_WIDTH_H

#include <stddef.h>
#include "gen/fit/error_pool.h"

/* The 95% log half-width for a prediction of family at distance doublings
 * beyond its training runs; NAN when the pool holds no score of family
 * outside camp (or pool is NULL, or the distance is not finite). *nscores
 * (may be NULL) gets the pooled scores it came from. */
double pooled_half_width(const error_pool *pool, const char *family, const campaign *camp,
                         double distance, size_t *nscores);

#endif
