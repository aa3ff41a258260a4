/*
 * column_rules.h — what a runs.csv column's name says about it. The one
 * place these rules live: the schema, the configuration index, the
 * experiment runs, the importers and the pages ask here.
 *
 *   time_s, time_<part>_s   a measured time in seconds: a response, never
 *                           negative (schema), and an estimate of zero or
 *                           less is no prediction (experiment_run).
 *   time_<anything else>    an odd name (time_ms, time_total): a measured
 *                           column, so never part of a configuration, but
 *                           not a time in seconds: no time rule applies and
 *                           pages give it no "(s)". Importers write times as
 *                           time_<part>_s.
 *   metric_*                a measured figure that is not a time (a
 *                           bandwidth, a counter): may be negative.
 *   published_*             a figure a paper printed (published_prediction_s).
 *   rep, date, note, cycles, iterations, rel_residual, error_max
 *                           what a run measured or when, not what was run.
 *
 * Every other column identifies the configuration that was run (cluster,
 * np, N, ...). Pure: no I/O, no allocation.
 */
#ifndef PERFCAST_COLUMN_RULES_H
#define PERFCAST_COLUMN_RULES_H

#include <stdbool.h>
#include <stddef.h>

/* time_s or time_<part>_s (part not empty). */
bool column_is_time(const char *name);

/* Every column of a sum "a+b+c" (or the one column) is a time. */
bool column_sum_is_time(const char *sum);

/* A measured, recorded or published column: anything but a configuration
 * column (see above). */
bool column_is_measured(const char *name);

/* A figure a paper printed: published_*. */
bool column_is_published(const char *name);

#endif
