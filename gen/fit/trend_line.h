/*
 * trend_line.h — the training runs a target continues along one parameter
 * (the input of models/trendbound.h).
 *
 * A target lies on the line of one identifying numeric column k when some
 * training runs agree with it on every other identifying column (text or
 * number; two missing values agree: config_same_line) and its value of k
 * is above every one of theirs: it extrapolates those runs along k alone.
 * The line is their distinct values of k, ascending, each with the mean
 * response of its runs. A target that was run (a configuration of the
 * training runs), or that is beyond the runs along no column or along
 * more than one, has no line: which trend it continues is then not one
 * series of runs.
 *
 * Why an index: a fit predicts every target and every calibration refit
 * its held-out ones; scanning every training run for each target made a
 * 100,000-run term search twenty times slower. The index groups the
 * training runs by configuration once and, per numeric identifying
 * column, sorts the configurations by the hash of their other identifying
 * cells then by their value (config_line_point, gen/base/config_index.h):
 * a target's line along k is one binary search away, its members
 * confirmed cell by cell.
 *
 * Ownership: trend_index_build fills a trend_index the caller releases
 * with trend_index_free (also after a false return); the index reads runs,
 * which must outlive it. trend_line_find fills a trend_line whose x and y
 * the caller releases with trend_line_free (also after a false return).
 * No I/O.
 */
#ifndef PERFCAST_TREND_LINE_H
#define PERFCAST_TREND_LINE_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/base/config_index.h"
#include "models/table.h"

/* A zeroed trend_index is empty: nothing is found in it, and
 * trend_index_free accepts it. */
typedef struct {
    const table *runs;
    size_t nconfigs;
    size_t *config_row;           /* per configuration: one of its runs */
    double *config_mean;          /* per configuration: the mean response of its runs */
    size_t *cols;                 /* the numeric identifying columns */
    config_line_point **by_col;   /* per column: every configuration (item), sorted */
    size_t ncols;
} trend_index;

typedef struct {
    double *x;        /* the line's levels of its column, ascending */
    double *y;        /* the mean response of the runs at each level */
    size_t n;         /* levels; 0 when the target has no line */
    int column;       /* the column k of runs, -1 when none */
    double x_target;  /* the target's value of it */
} trend_line;

/* The index of the ntrain training rows train_rows of runs (train_y[i] the
 * response of train_rows[i]). False only when out of memory. */
bool trend_index_build(const table *runs, const size_t *train_rows, const double *train_y,
                       size_t ntrain, trend_index *out);

void trend_index_free(trend_index *ix);

/* The line of runs row target_row. True with n = 0 when there is none;
 * false only when out of memory. */
bool trend_line_find(const trend_index *ix, size_t target_row, trend_line *out);

void trend_line_free(trend_line *line);

#endif
