/*
 * import_experiments.h — the default experiments an import adds to
 * experiments.csv: for every response column, time ~ a + b/np (Amdahl's
 * form) fitted by ScoPred, with the largest process count held out as the
 * target when there are three or more.
 *
 * Runs that differ in anything but the process count (a problem size, a
 * second parameter, another cluster) are never fitted as one: the runs of
 * the campaign (old and new) are grouped by every identifying column but
 * the process count and tag_* labels, and each group gets its own
 * experiment, named "scaling" (or "scaling-RESPONSE") when there is one
 * group, "scaling-1", "scaling-2", ... (with the group in its title) when
 * there are several; with --scaling (import_request.scaling) its options
 * say scaling=strong or weak. More than IMPORT_MAX_GROUPS groups get no default
 * experiment, and a README note says so. An experiment already there (by
 * name) is kept as it is, but for the unfiltered one-group default once a
 * later import adds a second configuration (never one fit over both).
 *
 * The rows are seen one at a time as runs.csv is written
 * (import_groups_add), so no copy of the runs is kept: only each group's
 * key and process counts.
 *
 * Ownership: import_groups_new returns groups the caller releases with
 * import_groups_free; it copies what it keeps. import_default_experiments
 * adds rows to the caller's csv_text and notes to the caller's import_rows.
 */
#ifndef PERFCAST_IMPORT_EXPERIMENTS_H
#define PERFCAST_IMPORT_EXPERIMENTS_H

#include <stdbool.h>

#include "gen/import/import.h"
#include "gen/import/import_csvtext.h"

#define IMPORT_MAX_GROUPS 50

typedef struct import_groups import_groups;

/* Groups of runs.csv's rows, whose columns are header[0..ncols) and whose
 * process count is the column procs, for each of the responses. NULL when
 * out of memory. */
import_groups *import_groups_new(char *const *header, size_t ncols, const char *procs,
                                 char *const *responses, size_t nresponses);
void import_groups_free(import_groups *g);

/* Count one row of runs.csv (cells in header order, "" when empty). False
 * when out of memory. */
bool import_groups_add(import_groups *g, const char *const *cells);

/* Add to experiments (experiments.csv as loaded from exps_path, header
 * made when new) the default experiments of every response, one per
 * group. When a response's runs now form several groups, the one default
 * an earlier import wrote for a single group ("scaling", no filter) is
 * removed if it is exactly as an import writes it, or kept with a warning
 * in diags (the import still succeeds) when someone edited it. *changed
 * is set when experiments gained or lost a row. False when out of memory
 * (recorded in diags). */
bool import_default_experiments(const import_request *req, import_rows *rows,
                                const import_groups *g, const char *procs,
                                csv_text *experiments, bool *changed, const char *exps_path,
                                diag_list *diags);

#endif
