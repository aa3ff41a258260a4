/*
 * verdict.h — how far an experiment's predictions can be trusted, in one
 * word and the reasons in words. Computed once in the site data step
 * (gen/site/site_data.c) and by the CLI; pages only print it.
 *
 *   reliable      measured held-out targets: median |error| <= 10%, max
 *                 <= 25%, the calibrated 95% PI covered >= 90% of them,
 *                 and nothing below weighs against it;
 *   uncertain     held-out error moderate (median <= 20%, max <= 50%), or
 *                 coverage below 90%, or a warning sign: fewer than 3
 *                 held-out targets, fewer than 2 training configurations
 *                 per fitted coefficient, targets more than 2 doublings
 *                 beyond the training range, oversubscribed runs (more
 *                 processes per node than the cluster has cores),
 *                 repetitions spreading more than 10%, calibrated intervals
 *                 wider than a factor 2 either way, an interval that is
 *                 not calibrated for misfit (bootstrap only), a change of
 *                 regime at the top of the training range (the
 *                 calibration's backtests, models/calibrate.h: the model
 *                 fitted below the top level misses it), an estimate held
 *                 to the runs' trend (models/trendbound.h: the searched
 *                 law leaves the trend of the runs' last steps there),
 *                 targets beyond where the runs stopped gaining
 *                 (gen/fit/gain_stop.h: a plateau's continuation is not
 *                 tested by the runs);
 *   unreliable    the fit failed, or median |error| > 20%, or some |error|
 *                 > 50% (a poor coverage alone makes it uncertain: with a
 *                 few targets one miss is a third of them);
 *   not verified  no held-out target was measured: nothing checks it.
 * The reasons list every rule that set or weighed on the verdict.
 *
 * A campaign's verdict is the worst among its verified experiments (not
 * verified only when none is); its reasons count the experiments by
 * verdict and give the worst one's reasons.
 *
 * Ownership: verdict_judge and verdict_campaign fill a verdict whose
 * reasons string verdict_free releases.
 */
#ifndef PERFCAST_VERDICT_H
#define PERFCAST_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/ingest/experiment.h"

typedef enum {
    VERDICT_RELIABLE = 0,
    VERDICT_UNCERTAIN,
    VERDICT_UNRELIABLE,
    VERDICT_NOT_VERIFIED,
} verdict_level;

typedef struct {
    verdict_level level;
    char *reasons;  /* "; "-separated sentences, never NULL after a judge */
} verdict;

/* "reliable", "uncertain", "unreliable", "not verified". */
const char *verdict_name(verdict_level level);

/* Judge a fitted (or failed) experiment. False only when out of memory. */
bool verdict_judge(const experiment_result *res, verdict *out);

/* The campaign's verdict from its experiments' verdicts (names[i] is the
 * experiment of per[i]). False only when out of memory. */
bool verdict_campaign(const verdict *per, const char *const *names, size_t n, verdict *out);

void verdict_free(verdict *v);

#endif
