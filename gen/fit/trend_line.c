/*
 * trend_line.c — see trend_line.h.
 */
#include "gen/fit/trend_line.h"

#include <math.h>
#include <stdlib.h>

#include "gen/base/config_index.h"

#define SAME_CONFIG -2 /* a row that agrees with the target everywhere */
#define OFF_LINE -1    /* a row that differs in two identifying columns or more */

/* The one identifying column in which training row r differs from the
 * target, SAME_CONFIG or OFF_LINE. */
static int differing_column(const table *runs, size_t r, size_t target)
{
    int found = SAME_CONFIG;
    for (size_t j = 0; j < runs->ncols; j++) {
        if (!config_column_identifies(&runs->cols[j]) ||
            table_same_cells(&runs->cols[j], r, target))
            continue;
        if (found != SAME_CONFIG)
            return OFF_LINE;
        found = (int)j;
    }
    return found;
}

/* Is the target beyond the rows on column k's line (some, each with a
 * finite value of k below the target's)? */
static bool beyond_along(const table *runs, const size_t *train_rows, const int *differs,
                         size_t ntrain, size_t target, size_t k)
{
    const table_column *col = &runs->cols[k];
    double v = col->num[target];
    bool some = false;
    if (col->kind != COL_NUMBER || !isfinite(v))
        return false;
    for (size_t i = 0; i < ntrain; i++) {
        if (differs[i] != (int)k)
            continue;
        double x = col->num[train_rows[i]];
        if (!isfinite(x) || x >= v)
            return false;
        some = true;
    }
    return some;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The line's distinct values of column k, ascending, and the mean response
 * at each. */
static bool collect_levels(const table *runs, const size_t *train_rows, const double *train_y,
                           const int *differs, size_t ntrain, size_t k, trend_line *out)
{
    const double *col = runs->cols[k].num;
    size_t m = 0;
    double *values = malloc((ntrain + 1) * sizeof *values);
    out->x = malloc((ntrain + 1) * sizeof *out->x);
    out->y = malloc((ntrain + 1) * sizeof *out->y);
    if (!values || !out->x || !out->y) {
        free(values);
        return false;
    }
    for (size_t i = 0; i < ntrain; i++)
        if (differs[i] == (int)k)
            values[m++] = col[train_rows[i]];
    qsort(values, m, sizeof *values, compare_doubles);
    for (size_t i = 0; i < m; i++)
        if (i == 0 || values[i] != values[i - 1])
            out->x[out->n++] = values[i];
    for (size_t l = 0; l < out->n; l++) {
        double sum = 0;
        size_t count = 0;
        for (size_t i = 0; i < ntrain; i++)
            if (differs[i] == (int)k && col[train_rows[i]] == out->x[l])
                sum += train_y[i], count++;
        out->y[l] = sum / (double)count;
    }
    free(values);
    return true;
}

/* The column whose line the target extrapolates; -1 when none or several. */
static int line_column(const table *runs, const size_t *train_rows, const int *differs,
                       size_t ntrain, size_t target)
{
    int found = -1;
    for (size_t i = 0; i < ntrain; i++)
        if (differs[i] == SAME_CONFIG)
            return -1; /* a training run at the target: no extrapolation */
    for (size_t k = 0; k < runs->ncols; k++) {
        if (!beyond_along(runs, train_rows, differs, ntrain, target, k))
            continue;
        if (found >= 0)
            return -1;
        found = (int)k;
    }
    return found;
}

bool trend_line_find(const table *runs, const size_t *train_rows, const double *train_y,
                     size_t ntrain, size_t target_row, trend_line *out)
{
    *out = (trend_line){.column = -1, .x_target = NAN};
    int *differs = malloc((ntrain + 1) * sizeof *differs);
    if (!differs)
        return false;
    for (size_t i = 0; i < ntrain; i++)
        differs[i] = differing_column(runs, train_rows[i], target_row);
    int k = line_column(runs, train_rows, differs, ntrain, target_row);
    bool ok = true;
    if (k >= 0) {
        out->column = k;
        out->x_target = runs->cols[k].num[target_row];
        ok = collect_levels(runs, train_rows, train_y, differs, ntrain, (size_t)k, out);
    }
    free(differs);
    return ok;
}

void trend_line_free(trend_line *line)
{
    free(line->x);
    free(line->y);
    line->x = line->y = NULL;
    line->n = 0;
}
