/*
 * experiment_check.h — lints the rows of a campaign's experiments.csv
 * against the columns of its runs.csv while the archive loads: known model,
 * unique valid names, responses that are numeric columns, filters and
 * formulas that parse and are well typed over the runs' columns (names
 * exist; no text in arithmetic; no number compared with a text; a filter
 * yields a number), options of the form key=value;key=value. Every problem
 * is reported with the position of the offending character.
 *
 * What needs the models or the data (option values, the selections, the
 * fit) is checked by gen/cli/archive_check.h, which `perfcast check` runs.
 */
#ifndef PERFCAST_EXPERIMENT_CHECK_H
#define PERFCAST_EXPERIMENT_CHECK_H

#include "gen/base/csvread.h"
#include "gen/base/diag.h"
#include "gen/ingest/experiment_info.h"
#include "models/table.h"

/* The models perfcast knows, NULL-terminated. */
extern const char *const experiment_models[];

/* Record where each experiment's cells are (experiment_info.cells), from
 * the parsed experiments.csv. */
void experiment_locate_all(experiment_info *exps, size_t n, const csv_doc *doc);

/* Check every experiment (after experiment_locate_all) against runs; file
 * is the display name of experiments.csv. */
void experiment_check_all(const table *runs, const experiment_info *exps, size_t n,
                          const csv_doc *doc, const char *file, diag_list *d);

#endif
