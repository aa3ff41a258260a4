/*
 * compare.h — every model that applies to an experiment, fitted on the same
 * training runs and scored on the same held-out runs.
 *
 * For an experiment the candidates are: the experiment's own model (as
 * experiments.csv gives it), the ScoPred term search (scopred without a
 * formula) and every other model (strip, block, multicluster, multicore)
 * with its defaults. Each runs through experiment_run on the experiment's
 * own train and target filters; a candidate whose adapter refuses the data
 * "does not apply" and keeps the adapter's reason. Scores are those of
 * models/calibrate.h (median and max |error|, coverage and mean width of
 * the calibrated 95% PI; the model's own PI is scored too).
 *
 * The pooled error model (gen/fit/error_pool.h) calibrates every
 * candidate, not only the own model: with a cache (the one a build or
 * `perfcast fit` passes to experiment_run_shared, whose pool is filled
 * once from the own backtests of every experiment of the archive), each
 * candidate's interval shrinks toward the pool of its model name (the
 * family: "scopred" for both ScoPred candidates, "strip" for strip tried
 * on a block experiment, ...) over the archive's other campaigns. The
 * experiment adds nothing to a candidate's pool: the pool holds only
 * experiments' own models, and never the experiment's own campaign. A
 * candidate's own backtests are refitted on the experiment's training
 * runs with the configurations it predicts left out (calibration.h), and
 * are not kept in the cache (the candidate is a copy of the experiment
 * made for one run). So the own model's row equals the experiment's
 * calibrated interval everywhere it is shown, and the best model is chosen
 * among intervals all made the same way. Without a cache (NULL) every
 * candidate is calibrated on its own backtests alone, as before the pool.
 *
 * Per campaign the scores are pooled over its experiments by candidate.
 * The best candidate, among those that predicted every held-out target the
 * campaign's own models predicted, is the one whose calibrated 95% PI has
 * the lowest mean interval score (models/calibrate.h: Gneiting-Raftery on
 * log times, which charges both width and misses, so an interval that is
 * sharp and holds beats one that is wide and one that misses); candidates
 * without a calibrated interval on every target rank after those with one;
 * ties and the rest go by the lowest median |error|.
 *
 * Ownership: compare_experiment_run fills a compare_result released with
 * compare_result_free; compare_campaign_pool fills a compare_result the
 * same way. Labels and reasons are owned by the result.
 */
#ifndef PERFCAST_COMPARE_H
#define PERFCAST_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/fit/backtest_cache.h"
#include "gen/fit/verdict.h"
#include "gen/ingest/experiment.h"
#include "models/calibrate.h"

typedef struct {
    char *label;             /* "scopred (formula)", "scopred (term search)", "strip", ... */
    bool own;                /* the experiment's own model */
    bool applies;            /* the adapter fitted and predicted */
    char *reason;            /* why it does not apply, NULL when it does */
    calibrate_scores calibrated; /* error and the calibrated 95% PI */
    calibrate_scores textbook;   /* the model's own 95% PI (same errors) */
    verdict verdict;             /* of this model on this split; pooled rows: reasons NULL */
    /* the held-out targets it predicted, for pooling */
    double *estimate, *measured, *cal_low, *cal_high, *pi_low, *pi_high;
    size_t n;
} compare_row;

typedef struct {
    compare_row *rows;
    size_t nrows;
    size_t ntargets;         /* held-out (measured) targets of the experiment(s) */
    int best;                /* the best row (above) among those that cover all, -1 none */
} compare_result;

/* Run every candidate on experiment e of campaign c, calibrated through
 * cache (above; NULL: no pool). own, when not NULL, is the experiment's
 * result already computed with the same cache (reused, not rerun). With
 * term_search false the ScoPred term search is left out: it is the one
 * expensive candidate (a search per backtest refit, seconds on five
 * parameters), too slow for every site build until the search is fast.
 * Returns false only when out of memory; out is always initialised. */
bool compare_experiment_run(const archive *a, const campaign *c, const experiment_info *e,
                            const experiment_result *own, bool term_search,
                            backtest_cache *cache, compare_result *out);

/* Pool the per-experiment results of one campaign by label into out.
 * False only when out of memory. */
bool compare_campaign_pool(const compare_result *per_exp, size_t n, compare_result *out);

void compare_result_free(compare_result *r);

#endif
