/*
 * experiment_check.h — lints the rows of a campaign's experiments.csv
 * against its runs: known model, unique valid names, responses that are
 * numeric columns, filters and formulas that parse and name existing
 * columns, options of the form key=value;key=value. Every problem is
 * reported with the position of the offending character.
 */
#ifndef PERFCAST_EXPERIMENT_CHECK_H
#define PERFCAST_EXPERIMENT_CHECK_H

#include "gen/archive.h"
#include "gen/csvread.h"

/* The models perfcast knows, NULL-terminated. */
extern const char *const experiment_models[];

/* Check every experiment of c; doc is the parsed experiments.csv (for
 * positions), file its display name. */
void experiment_check_all(const campaign *c, const csv_doc *doc, const char *file, diag_list *d);

/* Record where each experiment's options cell is (experiment_info.options_column). */
void experiment_locate_all(campaign *c, const csv_doc *doc);

/* Ask each experiment's model whether it knows the keys and values of its
 * options. Separate from loading on purpose: a campaign with a bad option
 * still loads (its fit fails with the same message, shown on its page),
 * while `perfcast check` reports the problem and exits 1. */
void experiment_check_options(const archive *a, diag_list *d);

#endif
