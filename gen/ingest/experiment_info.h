/*
 * experiment_info.h — one row of a campaign's experiments.csv, and where its
 * cells are, so that a problem found in a filter or formula, whether while
 * loading, by `perfcast check` or at fit time, is named as FILE:LINE:COL of
 * the character at fault.
 *
 * Ownership: the strings belong to whoever filled the struct (the archive,
 * see gen/ingest/archive.h).
 */
#ifndef PERFCAST_EXPERIMENT_INFO_H
#define PERFCAST_EXPERIMENT_INFO_H

#include <stddef.h>

/* Column in experiments.csv of the first character of each cell's value:
 * after the opening quote of a quoted field and the leading blanks that the
 * loaded value leaves out; 0 when the column is absent. */
typedef struct {
    long name, model, response, formula, train, target, options;
} experiment_cells;

/* The response an experiment predicts when its cell is empty. */
#define EXPERIMENT_DEFAULT_RESPONSE "time_s"

/* One row of experiments.csv. Empty optional cells are NULL. */
typedef struct {
    char *name;     /* required; any text without control characters, shown
                       as given (gen/ingest/experiment_names.h) */
    char *model;    /* scopred | strip | block | multicluster | multicore */
    char *response; /* column(s) to predict: EXPERIMENT_DEFAULT_RESPONSE or
                       components joined by '+': "time_setup_s+time_evolve_s" */
    char *formula;  /* model-specific: ScoPred complexity formula, multicore factors */
    char *train;    /* filter over runs: rows used to fit; NULL = all measured rows */
    char *target;   /* filter over runs: rows to predict; NULL = none */
    char *title;    /* human title; NULL = name */
    char *options;  /* model-specific "key=value;key=value", may be NULL */
    long line;      /* line in experiments.csv */
    experiment_cells cells;
    char *problem;  /* NULL, or the first problem found in its row,
                       "experiments.csv:LINE:COL: message": not to be run */
} experiment_info;

/* The column in experiments.csv (on line e->line) of character `offset`
 * (1-based; 0 = the start of the cell) of the text of cell `cell`, one of
 * "name", "model", "response", "formula", "train", "target", "options";
 * any other cell (or NULL) gives the start of the row. Quotes doubled in
 * the file are counted, so the column is the one an editor shows (within
 * the cell's first line). */
long experiment_cell_column(const experiment_info *e, const char *cell, int offset);

/* The response columns of a response cell's text ("time_a_s + time_b_s",
 * names joined by '+', blanks around them ignored): the first name at or
 * after s, its length in *len; NULL when none is left. The next is found
 * from the returned pointer + *len. The one reading of a response cell,
 * for the fit, the check and the columns it marks as results. */
const char *experiment_response_next(const char *s, size_t *len);

#endif
