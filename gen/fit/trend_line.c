/*
 * trend_line.c — see trend_line.h.
 */
#include "gen/fit/trend_line.h"

#include <math.h>
#include <stdlib.h>

/* The training configurations: one run of each and its mean response. */
static bool group_configs(const size_t *train_rows, const double *train_y, size_t ntrain,
                          trend_index *ix)
{
    size_t *group_of = NULL, *count = NULL;
    if (!config_groups(ix->runs, train_rows, ntrain, &group_of, &ix->nconfigs))
        return false;
    ix->config_row = malloc((ix->nconfigs + 1) * sizeof *ix->config_row);
    ix->config_mean = calloc(ix->nconfigs + 1, sizeof *ix->config_mean);
    count = calloc(ix->nconfigs + 1, sizeof *count);
    bool ok = ix->config_row && ix->config_mean && count;
    for (size_t i = 0; ok && i < ntrain; i++) {
        size_t g = group_of[i];
        if (count[g]++ == 0)
            ix->config_row[g] = train_rows[i];
        ix->config_mean[g] += train_y[i];
    }
    for (size_t g = 0; ok && g < ix->nconfigs; g++)
        ix->config_mean[g] /= (double)count[g];
    free(group_of);
    free(count);
    return ok;
}

/* Column k's points: every configuration, sorted (config_line_point_compare). */
static config_line_point *column_points(const trend_index *ix, size_t k)
{
    config_line_point *e = malloc((ix->nconfigs + 1) * sizeof *e);
    for (size_t g = 0; e && g < ix->nconfigs; g++)
        e[g] = (config_line_point){config_line_hash(ix->runs, ix->config_row[g], k),
                                   ix->runs->cols[k].num[ix->config_row[g]], g};
    if (e)
        qsort(e, ix->nconfigs, sizeof *e, config_line_point_compare);
    return e;
}

bool trend_index_build(const table *runs, const size_t *train_rows, const double *train_y,
                       size_t ntrain, trend_index *out)
{
    *out = (trend_index){.runs = runs};
    bool ok = group_configs(train_rows, train_y, ntrain, out);
    out->cols = ok ? malloc((runs->ncols + 1) * sizeof *out->cols) : NULL;
    out->by_col = ok ? calloc(runs->ncols + 1, sizeof *out->by_col) : NULL;
    ok = ok && out->cols && out->by_col;
    for (size_t k = 0; ok && k < runs->ncols; k++) {
        if (runs->cols[k].kind != COL_NUMBER || !config_column_identifies(&runs->cols[k]))
            continue;
        out->cols[out->ncols] = k;
        out->by_col[out->ncols] = column_points(out, k);
        ok = out->by_col[out->ncols++] != NULL;
    }
    return ok;
}

void trend_index_free(trend_index *ix)
{
    for (size_t i = 0; ix->by_col && i < ix->ncols; i++)
        free(ix->by_col[i]);
    free(ix->by_col);
    free(ix->cols);
    free(ix->config_row);
    free(ix->config_mean);
    *ix = (trend_index){0};
}

/* The first of column c's entries on line h (n when none). */
static size_t first_on_line(const trend_index *ix, size_t c, uint64_t h)
{
    size_t lo = 0, hi = ix->nconfigs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix->by_col[c][mid].line < h)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* How the target stands to the configurations on its line along column
 * c: LINE_NONE (none there), LINE_BEYOND (above each, each value finite),
 * LINE_NOT_BEYOND, or LINE_RUN (one of them is the target's
 * configuration). *from and *count: where the line's entries are. */
enum { LINE_NONE, LINE_BEYOND, LINE_NOT_BEYOND, LINE_RUN };

static int line_status(const trend_index *ix, size_t c, size_t target, size_t *from,
                       size_t *count)
{
    size_t k = ix->cols[c];
    double v = ix->runs->cols[k].num[target];
    const config_line_point *e = ix->by_col[c];
    uint64_t h = config_line_hash(ix->runs, target, k);
    int status = LINE_NONE;
    *count = 0;
    for (size_t i = *from = first_on_line(ix, c, h); i < ix->nconfigs && e[i].line == h; i++) {
        size_t row = ix->config_row[e[i].item];
        if (!config_same_line(ix->runs, row, target, k))
            continue; /* another line with the same hash */
        if (table_same_cells(&ix->runs->cols[k], row, target))
            return LINE_RUN;
        if (!isfinite(v) || !isfinite(e[i].x) || e[i].x >= v)
            status = LINE_NOT_BEYOND;
        else if (status == LINE_NONE)
            status = LINE_BEYOND;
        (*count)++;
    }
    return status;
}

/* Copy column c's line (count confirmed entries from `from`) into out. */
static bool copy_line(const trend_index *ix, size_t c, size_t target, size_t from, size_t count,
                      trend_line *out)
{
    size_t k = ix->cols[c];
    const config_line_point *e = ix->by_col[c];
    out->x = malloc((count + 1) * sizeof *out->x);
    out->y = malloc((count + 1) * sizeof *out->y);
    if (!out->x || !out->y)
        return false;
    for (size_t i = from; out->n < count; i++)
        if (config_same_line(ix->runs, ix->config_row[e[i].item], target, k)) {
            out->x[out->n] = e[i].x;
            out->y[out->n++] = ix->config_mean[e[i].item];
        }
    out->column = (int)k;
    out->x_target = ix->runs->cols[k].num[target];
    return true;
}

bool trend_line_find(const trend_index *ix, size_t target_row, trend_line *out)
{
    *out = (trend_line){.column = -1, .x_target = NAN};
    size_t found = 0, found_from = 0, found_count = 0;
    int beyond = 0;
    for (size_t c = 0; c < ix->ncols; c++) {
        size_t from, count;
        int status = line_status(ix, c, target_row, &from, &count);
        if (status == LINE_RUN)
            return true; /* a training run at the target: no extrapolation */
        if (status == LINE_BEYOND && beyond++ == 0)
            found = c, found_from = from, found_count = count;
    }
    if (beyond != 1)
        return true;
    return copy_line(ix, found, target_row, found_from, found_count, out);
}

void trend_line_free(trend_line *line)
{
    free(line->x);
    free(line->y);
    line->x = line->y = NULL;
    line->n = 0;
}
