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
 * there are several. More than IMPORT_MAX_GROUPS groups get no default
 * experiment, and a README note says so. An experiment already there (by
 * name) is kept as it is.
 *
 * Ownership: import_default_experiments adds rows to the caller's csv_text
 * and notes to the caller's import_rows.
 */
#ifndef PERFCAST_IMPORT_EXPERIMENTS_H
#define PERFCAST_IMPORT_EXPERIMENTS_H

#include <stdbool.h>

#include "gen/import/import.h"
#include "gen/import/import_csvtext.h"

#define IMPORT_MAX_GROUPS 50

/* Add to experiments (experiments.csv as loaded, header made when new)
 * the default experiments of every response of rows over runs (runs.csv as
 * it will be written), whose process count column is procs. False when out
 * of memory or a name is too long (recorded in diags). */
bool import_default_experiments(const import_request *req, import_rows *rows,
                                const csv_text *runs, const char *procs,
                                csv_text *experiments, diag_list *diags);

#endif
