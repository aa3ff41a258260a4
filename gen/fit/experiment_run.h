/*
 * experiment_run.h — runs one experiment of a campaign: the selections of
 * gen/ingest/experiment.h (experiment_prepare), the model named in experiments.csv
 * (its adapter, gen/fit/model_adapters.h), the signed errors of the predictions
 * and, for experiment_run, the calibrated 95% prediction intervals
 * (gen/fit/calibration.h).
 *
 * Ownership: experiment_run and experiment_fit fill an experiment_result
 * that the caller releases with experiment_result_free, also on failure.
 * Statuses: both always fill res and return res->ok; on failure res->error
 * holds the reason and res->where the cell of experiments.csv it points at
 * (experiment_error_text formats them as FILE:LINE:COL).
 */
#ifndef PERFCAST_EXPERIMENT_RUN_H
#define PERFCAST_EXPERIMENT_RUN_H

#include <stdbool.h>
#include "gen/fit/backtest_cache.h"
#include "gen/ingest/archive.h"
#include "gen/ingest/experiment.h"

/* Run an experiment: experiment_fit, then the calibrated intervals
 * (gen/fit/calibration.h). */
bool experiment_run(const archive *a, const campaign *c,
                    const experiment_info *e, experiment_result *res);

/* experiment_run sharing lent backtests through cache with the other
 * experiments run with it (gen/fit/backtest_cache.h): a build passes one
 * cache to every experiment, so a lender's backtests are computed once.
 * The result is the same as experiment_run's. */
bool experiment_run_shared(const archive *a, const campaign *c, const experiment_info *e,
                           backtest_cache *cache, experiment_result *res);

/* experiment_run without the calibrated intervals (no cal_low/cal_high,
 * no interval_method): the selections, the fit and the errors, which is
 * all that can fail for a reason other than memory. With estimates_only
 * (experiment_input.estimates_only) the report may also lack the fit's
 * statistics, diagnostics and notes. `check` uses it so: it reads only
 * whether the experiment runs, and the calibration (a refit per left-out
 * fold) and the diagnostics (a second regression over every run) cost
 * many times the fit. */
bool experiment_fit(const archive *a, const campaign *c, const experiment_info *e,
                    bool estimates_only, experiment_result *res);

/* Fill cache's pooled error model (gen/fit/error_pool.h) from every
 * experiment of a, in its order, unless it is filled already (a build
 * that read the previous pool). experiment_run_shared does it before its
 * first calibrated interval; a build that keys cached fits on the pool
 * calls it first. skip (NULL: none) is a campaign whose experiments are
 * left out: a pool never serves an experiment its own campaign's
 * backtests, so a command that runs the experiments of one campaign only
 * (`fit`, `compare`) fills it without them — the same intervals, without
 * refitting the siblings (a term search beside a given formula made a
 * `fit` of the formula 100 times slower). A pool filled without skip and
 * asked for another campaign gets skip's experiments added then (at the
 * end: only a build's order is kept, and a build fills it whole).
 * False when out of memory. */
bool experiment_fill_pool(const archive *a, const campaign *skip, backtest_cache *cache);

/* The campaign of a that lends e backtests (a multi-cluster experiment's
 * backtests_from), NULL when none does: e's results depend on its runs. */
const campaign *experiment_lender_campaign(const archive *a, const experiment_info *e);

/* Whether a predicted time is a prediction: no run takes zero seconds or
 * less, so an estimate there says the model does not hold at that target
 * (and NAN or an infinity is no time at all). predict notes such an
 * estimate beside it; advise gives no time in its place. */
bool experiment_time_holds(double time_s);

/* The words for such an estimate, the same wherever it is reported. */
extern const char EXPERIMENT_NONPOSITIVE_TIME[];

/* The adapter for a model name, or NULL when the model is unknown. */
model_adapter_fn experiment_adapter(const char *model);

#endif
