/*
 * campaign_settings.h — what a campaign declares about its own columns:
 *
 *   - the process count: the optional <campaign>/campaign.csv names it,
 *
 *         setting,value
 *         procs,ranks
 *
 *     so runs.csv may call it `ranks` (or `tasks`, `nprocs`...) instead of
 *     `np`; that column then has np's rules (required, whole number >= 1)
 *     and every consumer of the process count (the mesh and multicore
 *     models, site tables and charts, costing, plan) reads it through
 *     campaign_procs (gen/ingest/archive.h). Without campaign.csv the column is `np`.
 *   - its result columns: every column an experiment names as its response
 *     (`wall_seconds`) is a measured result, like time_* and metric_*, and
 *     so never tells one configuration from another (campaign_mark_results).
 *
 * Problems in campaign.csv (unknown setting, a setting given twice, a
 * column name that cannot be the process count) are reported as
 * FILE:LINE:COL and make the campaign's load fail like any other file.
 *
 * Ownership: campaign_settings_load fills a struct the caller releases with
 * campaign_settings_free; campaign_settings_run_columns returns a malloc'd
 * array the caller frees (its names point into base and settings, which
 * must outlive it).
 */
#ifndef PERFCAST_CAMPAIGN_SETTINGS_H
#define PERFCAST_CAMPAIGN_SETTINGS_H

#include <stdbool.h>
#include "gen/base/diag.h"
#include "gen/ingest/schema.h"
#include "models/table.h"

typedef struct {
    char *procs; /* the process-count column; NULL = "np" */
} campaign_settings;

/* Read DIR/campaign.csv when it exists (root: the archive, which the file
 * must stay inside; runs: runs.csv's documented columns, which procs may
 * not name, np aside; NULL skips that check). Returns false when it exists and has a problem (then
 * reported in d); a missing file leaves the defaults and returns true. */
bool campaign_settings_load(const char *root, const char *dir, const column_spec *runs,
                            campaign_settings *out, diag_list *d);

void campaign_settings_free(campaign_settings *s);

/* A copy of base (terminated by a NULL name) in which the entry "np" is
 * renamed to the campaign's process-count column; NULL when out of memory. */
column_spec *campaign_settings_run_columns(const column_spec *base, const campaign_settings *s);

/* Flag as results (table_column.result) the numeric columns of runs that a
 * response names (each '+'-joined component). The archive calls it for
 * every experiment's response (campaign_mark_results in gen/ingest/archive.h). */
void campaign_mark_response(table *runs, const char *response);

#endif
