/*
 * trend_line.h — the training runs a target continues along one parameter
 * (the input of models/trendbound.h).
 *
 * A target lies on the line of one identifying numeric column k when some
 * training runs agree with it on every other identifying column (text or
 * number; two missing values agree) and its value of k is above every one
 * of theirs: it extrapolates those runs along k alone. The line is their
 * distinct values of k, ascending, each with the mean response of its
 * runs. A target beyond the runs along no column (it interpolates, or no
 * run shares its other values) or along more than one has no line: which
 * trend it continues is then not one series of runs.
 *
 * Ownership: trend_line_find fills a trend_line whose x and y the caller
 * releases with trend_line_free (also after a false return). No I/O.
 */
#ifndef PERFCAST_TREND_LINE_H
#define PERFCAST_TREND_LINE_H

#include <stdbool.h>
#include <stddef.h>

#include "models/table.h"

typedef struct {
    double *x;        /* the line's levels of its column, ascending */
    double *y;        /* the mean response of the runs at each level */
    size_t n;         /* levels; 0 when the target has no line */
    int column;       /* the column k of runs, -1 when none */
    double x_target;  /* the target's value of it */
} trend_line;

/* The line of runs row target_row among the ntrain training rows
 * train_rows (train_y[i] the response of train_rows[i]). True with n = 0
 * when there is none; false only when out of memory. */
bool trend_line_find(const table *runs, const size_t *train_rows, const double *train_y,
                     size_t ntrain, size_t target_row, trend_line *out);

void trend_line_free(trend_line *line);

#endif
