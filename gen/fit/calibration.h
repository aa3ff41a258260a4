/*
 * calibration.h — calibrated 95% prediction intervals and range-based
 * extrapolation for every model, wired around the model adapters.
 *
 * After an adapter has fitted an experiment, calibration_apply refits the
 * same adapter on parts of the training runs (models/calibrate.h explains
 * the method): per scale parameter (a numeric identifying column with
 * positive values, np, N, P, ...) it leaves out the configurations at the
 * largest trained level, then the two largest (the smallest too where a
 * target lies below the trained range), predicts them, and turns the
 * errors into a half-width that grows with the target's distance beyond
 * the training range. Models that cannot be refitted on fewer levels are
 * bootstrapped over repetitions (fixed seed) instead. Where an
 * experiment's own runs allow no refit, it borrows backtests: from the
 * campaign's other experiments with the same model, formula and options
 * (the same code on the same machine), and then from the lender the
 * caller names (a multi-cluster experiment's option backtests_from: the
 * strip experiments of that campaign, since the multi-cluster model is
 * built from strip models of its clusters, so their extrapolation errors
 * are its own). No backtest, own or borrowed, trains on or scores a
 * configuration the calibrated experiment predicts: a lender's
 * configurations that are the borrower's targets are left out of its
 * refits, so an interval never learns from the runs it is judged on. It
 * fills, for every
 * prediction, cal_low/cal_high, distance and beyond ("np 512 = 2x max
 * trained 256"), and rep->interval_method in words. A target's distance
 * also counts the machine's dimensions no column states: more processes
 * per node, or more nodes, than any training run (gen/ingest/run_layout.h)
 * is an extrapolation too, so its interval widens even when the backtests
 * never crossed that line; for a model whose law is fitted across the
 * network's levels (report_prediction.level_regimes), so are more nodes
 * than any training run of the target's own torus dimension or fat-tree
 * level (one doubling where no training run sits on that level), even
 * between training runs of lower and higher levels. When the refits show the runs changing at the
 * top of a parameter's range beyond the model's law
 * (calibrate_regime_change), rep->regime says so.
 *
 * With a cache whose pool is filled (calibration_pool_add for every
 * experiment of the archive, gen/fit/error_pool.h), the log error scale s
 * and Student's t are shrunk toward the backtests of the same model family
 * in the archive's other campaigns, per bin of distance
 * (models/calibrate.h, calibrate_shrink), and interval_method says where
 * each width came from ("x/÷1.8: 3 own backtests shrunk toward 41 strip
 * backtests elsewhere (1-2 doublings)"). Where the cache's pool has the
 * shipped prior (backtest_cache_load_prior, gen/fit/error_prior.h), that
 * target is the archive's pool shrunk toward the prior, or the prior alone
 * where the archive has no backtest of the family (a campaign alone in its
 * archive), and the words name it ("... toward the shipped prior (873
 * backtests of perfcast's data)"). Shrunk, the experiment's own backtests
 * count with the robust scale of its nearest refits (models/calibrate.h,
 * NEAREST REFITS): one wild refit of three no longer sets the width, and
 * the refits one level deep extrapolate as the targets do. Every error counts per unit of its
 * experiment's roughness (models/calibrate.h, calibrate_roughness_unit:
 * how far its training runs' log times stray from the line through their
 * neighbours along each scale parameter, the other identifying values
 * held, never counting a target), and a target's half-width is multiplied
 * by its own experiment's unit: a pool or prior learned mostly on jumpy
 * codes no longer widens a smooth one's interval as much, nor a smooth
 * pool narrow a jumpy one's; the method text gives u. An experiment with no backtest of
 * its own or borrowed then takes the pool's width, at least the bootstrap's
 * where its runs repeat: never a noise-only interval when a pool or a
 * prior exists. Without a cache (or an empty pool and no prior) the
 * intervals are as before.
 *
 * Ownership: everything it makes belongs to the report.
 */
#ifndef PERFCAST_CALIBRATION_H
#define PERFCAST_CALIBRATION_H

#include <stdbool.h>
#include "gen/fit/backtest_cache.h"
#include "gen/ingest/experiment.h"

#define CALIBRATION_BOOTSTRAP_RESAMPLES 100
#define CALIBRATION_BOOTSTRAP_SEED 20240611u

/* Experiments of another campaign and model that lend their backtests
 * (a multi-cluster experiment's backtests_from: the strip experiments of
 * the campaign it names). The caller resolves them from the model's own
 * options (gen/fit/experiment_run.c), so this file knows no model by name. */
typedef struct {
    const campaign *camp;     /* NULL: nobody lends */
    const char *model;        /* its experiments of this model lend */
    model_adapter_fn adapter; /* their adapter */
    const char *why;          /* why they may, for the interval's method text */
} calibration_lender;

/* Calibrate res->rep (an adapter's successful report) by refitting with
 * adapter; lender (NULL: none) lends backtests when neither the
 * experiment's own runs nor its siblings' allow any. Backtests lent by
 * another experiment are taken from cache when a borrower before this one
 * computed them, and kept there otherwise (NULL: computed for this call
 * only; gen/fit/backtest_cache.h). Returns false only
 * when out of memory; a calibration that is impossible leaves the
 * intervals absent and says why in interval_method. */
/* Add experiment e's own backtests (refitted with adapter, the
 * configurations it predicts left out) to the pool of cache, and keep them
 * in cache for its calibration. An experiment that cannot be prepared, or
 * trains on or predicts nothing, adds nothing. False only when out of
 * memory. */
bool calibration_pool_add(const archive *a, const campaign *camp, const experiment_info *e,
                          model_adapter_fn adapter, backtest_cache *cache);

bool calibration_apply(experiment_result *res, model_adapter_fn adapter,
                       const calibration_lender *lender, backtest_cache *cache);

/* The roughness unit of in's usable training runs (models/calibrate.h,
 * calibrate_roughness_unit), by the rule calibration_apply uses: for a
 * width that comes from the pool, per unit of roughness, and is scaled
 * back by the prediction's own unit (gen/fit/pooled_width.h). NAN only
 * when out of memory. */
double calibration_training_unit(const experiment_input *in);

#endif
