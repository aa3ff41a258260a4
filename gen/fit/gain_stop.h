/*
 * gain_stop.h — name the point where an experiment's training runs stopped
 * gaining (models/gainstop.h) when its targets continue them.
 *
 * For an experiment whose response is a time (every summed column a
 * time_* column, gen/base/column_rules.h), each target's line of training
 * runs (gen/fit/trend_line.h: the runs it extends along one numeric
 * identifying column) is searched for a stop. Where one is found:
 *   - the target's prediction note says it lies beyond it;
 *   - the report's gain_stop text (the first stop, in target order) says
 *     where the runs stopped, how far the larger runs reach, what the best
 *     of them did, and how many targets lie beyond; `fit`, `predict` and
 *     the verdict (gen/fit/verdict.h) show it.
 * Any model: the stop is a property of the runs, not of a law. None is
 * looked for when the experiment declares weak scaling (option
 * scaling=weak, gen/fit/scaling_option.h): a flat time is then the aim.
 *
 * Ownership: the strings go into res->rep (released by report_free).
 */
#ifndef PERFCAST_GAIN_STOP_H
#define PERFCAST_GAIN_STOP_H

#include <stdbool.h>
#include "gen/ingest/experiment.h"

/* Look for the stop and write it into res->rep as above. False only when
 * out of memory. */
bool gain_stop_note(experiment_result *res);

#endif
