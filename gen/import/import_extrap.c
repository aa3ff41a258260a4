/*
 * import_extrap.c — Extra-P's inputs: its text format here, its JSON and
 * JSON Lines formats through import_extrap_json (detected by the first
 * non-blank byte, '{' or '[').
 *
 *   PARAMETER p                 one line per parameter (1 to 4), or several names
 *   POINTS ( 2 ) ( 4 ) ( 8 )    coordinates; "POINTS 2 4 8" with one parameter;
 *                               any number of POINTS lines, in order
 *   REGION name                 the call path the following DATA lines belong to
 *   METRIC name                 the metric of the following DATA lines
 *   DATA v1 v2 ...              one line per coordinate, in POINTS order: the
 *                               repetitions measured there; a block (the DATA
 *                               lines after a REGION or METRIC line) has one
 *                               per point or none, never part of them
 *   # ...                       a comment
 *
 * Every format fills the same table: parameters, distinct points, series
 * (a region and a metric) and cells (the values of one series at one
 * point; values given twice for a cell are more repetitions, as Extra-P
 * reads them). Points, series and cells are found by hashing, so a file
 * of N DATA lines is read in about N steps.
 *
 * Each (point, repetition) becomes one run; `rep` numbers the repetitions
 * from 1. Every parameter is a column: the process count is `np` (the one
 * --map NAME=np names, else the one import_is_procs_name recognises; a
 * parameter named otherwise is never taken as np, even when it is the only
 * one), the others keep their names as identifiers. Each series becomes a
 * column: a time metric is `time_s` when it is the only one, else
 * `time_<region>_s`; any other metric is `metric_<metric>_<region>`. What
 * is a time is gen/base/units.h's rule, the one every importer follows: a
 * name that says duration (time, runtime, comm_time; not start_time) is
 * in seconds, as Extra-P's own inputs give them, or in --time-unit's
 * unit; a name may carry its own unit ("time [ms]", "runtime_us",
 * "elapsed (min)", "latency [us]", "kernel_ns"), and values are converted
 * to seconds; a bracketed unit perfcast does not know on a time's name is
 * refused, never guessed. Two sources that would share a column are
 * refused, never merged.
 */
#include "gen/import/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gen/base/column_rules.h"
#include "gen/base/csvread.h"
#include "gen/base/fileio.h"
#include "gen/base/hash.h"
#include "gen/base/units.h"
#include "gen/import/import_extrap_json.h"
#include "gen/import/import_lines.h"
#include "gen/base/growth.h"

#define MAX_TEXT_PARAMS 4

/* ------------------------------------------------------------------ */
/* keymap: byte strings to indexes (open addressing)                   */

typedef struct {
    char *key; /* NULL: free slot */
    size_t len;
    size_t value;
} keymap_slot;

typedef struct {
    keymap_slot *slots;
    size_t cap, count;
} keymap;

static void keymap_free(keymap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->slots[i].key);
    free(m->slots);
    memset(m, 0, sizeof *m);
}

static keymap_slot *keymap_slot_for(const keymap *m, const void *key, size_t len)
{
    size_t i = (size_t)hash_bytes(key, len, 0) & (m->cap - 1);
    while (m->slots[i].key &&
           (m->slots[i].len != len || memcmp(m->slots[i].key, key, len) != 0))
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

static bool keymap_grow(keymap *m)
{
    keymap bigger = {calloc(m->cap ? m->cap * 2 : 64, sizeof(keymap_slot)),
                     m->cap ? m->cap * 2 : 64, m->count};
    if (!bigger.slots)
        return false;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key)
            *keymap_slot_for(&bigger, m->slots[i].key, m->slots[i].len) = m->slots[i];
    free(m->slots);
    *m = bigger;
    return true;
}

/* The index stored for key; when absent, fresh is stored and *added set.
 * False when out of memory. */
static bool keymap_get(keymap *m, const void *key, size_t len, size_t fresh, size_t *index,
                       bool *added)
{
    if (2 * (m->count + 1) > m->cap && !keymap_grow(m))
        return false;
    keymap_slot *s = keymap_slot_for(m, key, len);
    *added = s->key == NULL;
    if (*added) {
        if (!(s->key = malloc(len ? len : 1)))
            return false;
        memcpy(s->key, key, len);
        s->len = len;
        s->value = fresh;
        m->count++;
    }
    *index = s->value;
    return true;
}

/* ------------------------------------------------------------------ */
/* the table every format fills                                        */

typedef struct {
    long line, column; /* line 0: a JSON document, no position known */
} extrap_at;

typedef struct {
    size_t series, coord;
    double *values;  /* the repetitions, in file order */
    extrap_at *at;
    size_t n, cap;
} extrap_cell;

typedef struct {
    const char *file;
    diag_list *diags;
    char **params;
    extrap_at *param_at;
    size_t nparams, params_cap;
    double *coords;     /* ncoords * nparams */
    extrap_at *coord_at; /* where each coordinate value was first given */
    size_t ncoords, coords_cap;
    keymap coord_keys;
    char **regions, **metrics;
    extrap_at *series_at;
    size_t nseries, series_cap;
    keymap series_keys;
    extrap_cell *cells;
    size_t ncells, cells_cap;
    keymap cell_keys;
    /* the text format's state: the points in POINTS order, the current block */
    size_t *points;
    size_t npoints, points_cap;
    char *region, *metric;
    size_t next_point;
    long block_line; /* the REGION or METRIC line the current DATA lines follow */
    bool oom;
} extrap_reader;

static void reader_free(extrap_reader *r)
{
    for (size_t i = 0; i < r->nparams; i++)
        free(r->params[i]);
    free(r->params);
    free(r->param_at);
    free(r->coords);
    free(r->coord_at);
    for (size_t i = 0; i < r->nseries; i++) {
        free(r->regions[i]);
        free(r->metrics[i]);
    }
    free(r->regions);
    free(r->metrics);
    free(r->series_at);
    for (size_t i = 0; i < r->ncells; i++) {
        free(r->cells[i].values);
        free(r->cells[i].at);
    }
    free(r->cells);
    keymap_free(&r->coord_keys);
    keymap_free(&r->series_keys);
    keymap_free(&r->cell_keys);
    free(r->points);
    free(r->region);
    free(r->metric);
}

static bool out_of_memory(extrap_reader *r)
{
    r->oom = true;
    return false;
}

static bool add_parameter(extrap_reader *r, const char *name, extrap_at at)
{
    size_t cap = r->params_cap;
    if (!growth_reserve(&r->params, &r->params_cap, r->nparams + 1, sizeof *r->params) ||
        !growth_reserve(&r->param_at, &cap, r->nparams + 1, sizeof *r->param_at))
        return out_of_memory(r);
    if (!(r->params[r->nparams] = strdup(name)))
        return out_of_memory(r);
    r->param_at[r->nparams++] = at;
    return true;
}

/* The index of point (nparams values), added when new; *added says so. */
static bool coordinate_of(extrap_reader *r, const double *point, const extrap_at *at,
                          size_t *coord, bool *added)
{
    double key[EXTRAP_MAX_PARAMS];
    for (size_t i = 0; i < r->nparams; i++)
        key[i] = point[i] + 0.0; /* -0 and 0 are one point */
    if (!keymap_get(&r->coord_keys, key, r->nparams * sizeof *key, r->ncoords, coord, added))
        return out_of_memory(r);
    if (!*added)
        return true;
    size_t need = (r->ncoords + 1) * r->nparams, cap = r->coords_cap;
    if (!growth_reserve(&r->coords, &r->coords_cap, need, sizeof *r->coords) ||
        !growth_reserve(&r->coord_at, &cap, need, sizeof *r->coord_at))
        return out_of_memory(r);
    memcpy(r->coords + r->ncoords * r->nparams, key, r->nparams * sizeof *key);
    memcpy(r->coord_at + r->ncoords * r->nparams, at, r->nparams * sizeof *at);
    r->ncoords++;
    return true;
}

/* The index of the series (region, metric), added when new. */
static bool series_of(extrap_reader *r, const char *region, const char *metric, extrap_at at,
                      size_t *series)
{
    size_t lr = strlen(region), lm = strlen(metric);
    char *key = malloc(lr + lm + 2);
    bool added = false;
    bool ok = key != NULL;
    if (ok) {
        memcpy(key, region, lr + 1); /* the NUL keeps "ab"+"c" apart from "a"+"bc" */
        memcpy(key + lr + 1, metric, lm + 1);
        ok = keymap_get(&r->series_keys, key, lr + lm + 2, r->nseries, series, &added);
    }
    free(key);
    if (!ok)
        return out_of_memory(r);
    if (!added)
        return true;
    size_t cap_m = r->series_cap, cap_a = r->series_cap;
    if (!growth_reserve(&r->regions, &r->series_cap, r->nseries + 1, sizeof *r->regions) ||
        !growth_reserve(&r->metrics, &cap_m, r->nseries + 1, sizeof *r->metrics) ||
        !growth_reserve(&r->series_at, &cap_a, r->nseries + 1, sizeof *r->series_at))
        return out_of_memory(r);
    r->regions[r->nseries] = strdup(region);
    r->metrics[r->nseries] = strdup(metric);
    r->series_at[r->nseries] = at;
    r->nseries++;
    if (!r->regions[r->nseries - 1] || !r->metrics[r->nseries - 1])
        return out_of_memory(r);
    return true;
}

/* Append n repetitions to the cell of (series, coord). */
static bool add_values(extrap_reader *r, size_t series, size_t coord, const double *values,
                       const extrap_at *at, size_t n)
{
    size_t key[2] = {series, coord}, index;
    bool added;
    if (!keymap_get(&r->cell_keys, key, sizeof key, r->ncells, &index, &added))
        return out_of_memory(r);
    if (added) {
        if (!growth_reserve(&r->cells, &r->cells_cap, r->ncells + 1, sizeof *r->cells))
            return out_of_memory(r);
        r->cells[r->ncells++] = (extrap_cell){.series = series, .coord = coord};
    }
    extrap_cell *c = &r->cells[index];
    size_t cap = c->cap;
    if (!growth_reserve(&c->values, &c->cap, c->n + n, sizeof *c->values) ||
        !growth_reserve(&c->at, &cap, c->n + n, sizeof *c->at))
        return out_of_memory(r);
    memcpy(c->values + c->n, values, n * sizeof *values);
    memcpy(c->at + c->n, at, n * sizeof *at);
    c->n += n;
    return true;
}

/* ------------------------------------------------------------------ */
/* the text format                                                     */

/* The rest of a line after its keyword field, trimmed. */
static const char *rest_of_line(const import_line *l)
{
    const char *s = l->text;
    while (*s == ' ' || *s == '\t')
        s++;
    while (*s && *s != ' ' && *s != '\t')
        s++;
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static bool set_text(char **slot, const char *value)
{
    free(*slot);
    *slot = strdup(value);
    return *slot != NULL;
}

static bool on_parameter(extrap_reader *r, const import_line *l)
{
    for (size_t i = 1; i < l->nfields; i++) {
        if (r->nparams == MAX_TEXT_PARAMS) {
            diag_add(r->diags, r->file, l->line, l->fields[i].column,
                     "more than %d parameters (Extra-P's text format allows at most %d)",
                     MAX_TEXT_PARAMS, MAX_TEXT_PARAMS);
            return false;
        }
        if (r->npoints > 0) {
            diag_add(r->diags, r->file, l->line, l->fields[i].column,
                     "PARAMETER after POINTS: declare every parameter first");
            return false;
        }
        if (!add_parameter(r, l->fields[i].text, (extrap_at){l->line, l->fields[i].column}))
            return false;
    }
    return true;
}

/* One token of a POINTS line: "(", ")" or a number, with its column. */
typedef struct {
    char text[64];
    long column;
} points_token;

static size_t tokenize_points(const char *s, points_token *out, size_t max)
{
    size_t n = 0;
    long column = 1;
    while (*s && n < max) {
        if (*s == ' ' || *s == '\t') {
            s++;
            column++;
            continue;
        }
        size_t len = (*s == '(' || *s == ')') ? 1 : strcspn(s, " \t()");
        size_t keep = len < sizeof out[n].text ? len : sizeof out[n].text - 1;
        memcpy(out[n].text, s, keep);
        out[n].text[keep] = '\0';
        out[n].column = column;
        n++;
        for (size_t i = 0; i < len; i++)
            column += ((unsigned char)s[i] & 0xC0) != 0x80;
        s += len;
    }
    return n;
}

/* A point of a POINTS line, in POINTS order; one listed twice is refused
 * (its DATA lines would be two measurements of one configuration). */
static bool add_point(extrap_reader *r, const double *values, const long *columns, long line)
{
    extrap_at at[MAX_TEXT_PARAMS];
    for (size_t i = 0; i < r->nparams; i++)
        at[i] = (extrap_at){line, columns[i]};
    size_t coord;
    bool added;
    if (!coordinate_of(r, values, at, &coord, &added))
        return false;
    if (!added) {
        const extrap_at *first = &r->coord_at[coord * r->nparams];
        diag_add(r->diags, r->file, line, columns[0],
                 "this point is listed twice (first at %ld:%ld): each point once, its "
                 "repetitions on its DATA line",
                 first->line, first->column);
        return false;
    }
    if (!growth_reserve(&r->points, &r->points_cap, r->npoints + 1, sizeof *r->points))
        return out_of_memory(r);
    r->points[r->npoints++] = coord;
    return true;
}

static bool on_points(extrap_reader *r, const import_line *l)
{
    if (r->nparams == 0) {
        diag_add(r->diags, r->file, l->line, 1, "POINTS before any PARAMETER");
        return false;
    }
    size_t max = strlen(l->text) + 1;
    points_token *tok = malloc(max * sizeof *tok);
    if (!tok)
        return out_of_memory(r);
    size_t n = tokenize_points(l->text, tok, max);
    bool grouped = n > 1 && strcmp(tok[1].text, "(") == 0;
    double values[MAX_TEXT_PARAMS];
    long columns[MAX_TEXT_PARAMS];
    size_t have = 0;
    bool ok = true, open = false;
    for (size_t i = 1; ok && i < n; i++) {
        const points_token *t = &tok[i];
        if (strcmp(t->text, "(") == 0 || strcmp(t->text, ")") == 0) {
            bool opening = t->text[0] == '(';
            ok = grouped && opening != open && (opening || have == r->nparams);
            if (!ok)
                diag_add(r->diags, r->file, l->line, t->column,
                         opening ? "unexpected '('" : "')' after %zu of %zu coordinates", have,
                         r->nparams);
            if (ok && !opening)
                ok = add_point(r, values, columns, l->line);
            open = opening;
            have = 0;
            continue;
        }
        if (!import_number(t->text, &values[have])) {
            diag_add(r->diags, r->file, l->line, t->column, "'%s' is not a number", t->text);
            ok = false;
        } else if ((grouped && !open) || have == r->nparams) {
            diag_add(r->diags, r->file, l->line, t->column, "%s",
                     grouped ? "a coordinate outside '( ... )'"
                             : "with several parameters, write each point as ( v1 v2 ... )");
            ok = false;
        } else if ((columns[have] = t->column), ++have == r->nparams && !grouped) {
            ok = add_point(r, values, columns, l->line);
            have = 0;
        }
    }
    if (ok && open) {
        diag_add(r->diags, r->file, l->line, (long)strlen(l->text) + 1, "missing ')'");
        ok = false;
    }
    free(tok);
    return ok;
}

/* "region 'R', metric 'M'" of the current block, leaving out what no
 * line named (a file without REGION lines). */
static void block_name(const extrap_reader *r, char *out, size_t len)
{
    bool region = r->region && r->region[0], metric = r->metric && r->metric[0];
    snprintf(out, len, "%s%s%s%s%s%s%s", region ? "region '" : "", region ? r->region : "",
             region ? "'" : "", region && metric ? ", " : "", metric ? "metric '" : "",
             metric ? r->metric : "", metric ? "'" : "");
    if (!region && !metric)
        snprintf(out, len, "the DATA lines");
}

/* The DATA lines since the last REGION or METRIC line cover every point
 * or none: each is one point in POINTS order, so fewer leave points
 * unmeasured (a file cut short) and would import a partial series. None
 * is fine: "METRIC time" then "REGION r" opens a block only with r. */
static bool block_complete(extrap_reader *r)
{
    if (r->next_point == 0 || r->next_point == r->npoints)
        return true;
    char name[512];
    block_name(r, name, sizeof name);
    diag_add(r->diags, r->file, r->block_line ? r->block_line : 1, 1,
             "%s: %zu DATA line%s for %zu POINTS: each DATA line is one point, in POINTS "
             "order, so every point needs one (a file cut short?)", name, r->next_point,
             r->next_point == 1 ? "" : "s", r->npoints);
    return false;
}

static bool on_data(extrap_reader *r, const import_line *l)
{
    if (r->next_point >= r->npoints) {
        char name[512];
        block_name(r, name, sizeof name);
        diag_add(r->diags, r->file, l->line, 1,
                 "DATA line %zu of %s (from line %ld), but only %zu POINTS", r->next_point + 1,
                 name, r->block_line, r->npoints);
        return false;
    }
    if (l->nfields < 2) {
        diag_add(r->diags, r->file, l->line, (long)strlen(l->text) + 1, "DATA without values");
        return false;
    }
    if (r->block_line == 0) /* DATA before any REGION or METRIC line */
        r->block_line = l->line;
    size_t n = l->nfields - 1, series;
    double *values = malloc(n * sizeof *values);
    extrap_at *at = malloc(n * sizeof *at);
    bool ok = values && at;
    for (size_t i = 0; ok && i < n; i++) {
        const import_field *f = &l->fields[i + 1];
        at[i] = (extrap_at){l->line, f->column};
        if (!import_number(f->text, &values[i])) {
            diag_add(r->diags, r->file, l->line, f->column, "'%s' is not a number", f->text);
            ok = false;
        }
    }
    if (!values || !at)
        out_of_memory(r);
    ok = ok && series_of(r, r->region ? r->region : "", r->metric ? r->metric : "",
                         (extrap_at){l->line, 1}, &series) &&
         add_values(r, series, r->points[r->next_point++], values, at, n);
    free(values);
    free(at);
    return ok;
}

static bool on_line(extrap_reader *r, const import_line *l)
{
    if (l->nfields == 0) { /* the byte check refuses NULs; this keeps fields[0] safe */
        diag_add(r->diags, r->file, l->line, 1, "a line with no keyword");
        return false;
    }
    const char *key = l->fields[0].text;
    if (key[0] == '#')
        return true;
    if (strcmp(key, "PARAMETER") == 0)
        return on_parameter(r, l);
    if (strcmp(key, "POINTS") == 0)
        return on_points(r, l);
    if (strcmp(key, "DATA") == 0)
        return on_data(r, l);
    if (strcmp(key, "REGION") == 0 || strcmp(key, "METRIC") == 0) {
        if (!block_complete(r))
            return false;
        r->next_point = 0;
        r->block_line = l->line;
        if (!set_text(key[0] == 'R' ? &r->region : &r->metric, rest_of_line(l)))
            return out_of_memory(r);
        return true;
    }
    diag_add(r->diags, r->file, l->line, l->fields[0].column,
             "unknown keyword '%s' (expected PARAMETER, POINTS, REGION, METRIC or DATA)", key);
    return false;
}

static bool read_text(extrap_reader *r, const char *path)
{
    import_text text;
    if (!import_text_read(path, path, ' ', &text, r->diags))
        return false;
    bool ok = true;
    for (size_t i = 0; ok && i < text.nlines; i++)
        ok = on_line(r, &text.lines[i]);
    ok = ok && block_complete(r);
    import_text_free(&text);
    return ok;
}

/* ------------------------------------------------------------------ */
/* the JSON formats, through the sink                                  */

static bool json_parameter(void *ctx, const char *name, long line)
{
    return add_parameter(ctx, name, (extrap_at){line, line > 0});
}

static bool json_measurement(void *ctx, const char *region, const char *metric,
                             const double *point, const double *values, size_t nvalues,
                             long line)
{
    extrap_reader *r = ctx;
    extrap_at here = {line, line > 0};
    extrap_at *at = malloc((nvalues > r->nparams ? nvalues : r->nparams) * sizeof *at + 1);
    if (!at)
        return out_of_memory(r);
    for (size_t i = 0; i < nvalues || i < r->nparams; i++)
        at[i] = here;
    size_t coord, series;
    bool added;
    bool ok = coordinate_of(r, point, at, &coord, &added) &&
              series_of(r, region, metric, here, &series) &&
              add_values(r, series, coord, values, at, nvalues);
    free(at);
    return ok;
}

/* ------------------------------------------------------------------ */
/* naming                                                              */

/* What a metric's name says: whether it is a time, and the unit of its
 * values in seconds (1 for anything not converted). */
typedef struct {
    bool time;
    double to_seconds;
    bool by_option; /* the unit is --time-unit's (the name has none) */
} metric_kind;

/* The runs.csv columns: one per parameter, one per series. */
typedef struct {
    char **params;
    char **series;
    metric_kind *kinds; /* per series */
    size_t np; /* the parameter that is the process count */
} extrap_columns;

static void columns_free(const extrap_reader *r, extrap_columns *c)
{
    for (size_t i = 0; c->params && i < r->nparams; i++)
        free(c->params[i]);
    for (size_t i = 0; c->series && i < r->nseries; i++)
        free(c->series[i]);
    free(c->params);
    free(c->series);
    free(c->kinds);
}

/* Where a diagnostic about something at at goes: its line and column,
 * or none in a JSON document (the message then says what it is about). */
static void report(extrap_reader *r, extrap_at at, const char *fmt, const char *message)
{
    diag_add(r->diags, r->file, at.line, at.column, fmt, message);
}

/* The process count: the parameter --map names np, or the one named like
 * a process count; never a parameter merely because it is alone. */
static bool choose_np(const import_request *req, extrap_reader *r, size_t *np)
{
    char message[512];
    *np = r->nparams;
    for (size_t i = 0; i < r->nparams; i++) {
        if (!import_is_procs_name(import_mapped(req, r->params[i])))
            continue;
        if (*np < r->nparams) {
            snprintf(message, sizeof message,
                     "parameters '%s' and '%s' both name a process count: say which is np "
                     "with --map NAME=np and give the other a name of its own with --map",
                     r->params[*np], r->params[i]);
            report(r, r->param_at[i], "%s", message);
            return false;
        }
        *np = i;
    }
    if (*np < r->nparams)
        return true;
    if (r->nparams == 1)
        snprintf(message, sizeof message,
                 "the only parameter, '%s', is not named like a process count (p, np, procs, "
                 "ranks, tasks, ...), so it is not taken as np: if it counts processes, give "
                 "--map %s=np",
                 r->params[0], r->params[0]);
    else
        snprintf(message, sizeof message,
                 "no parameter is named like a process count (p, np, procs, ranks, tasks, "
                 "...): say which one is with --map NAME=np");
    report(r, r->param_at[0], "%s", message);
    return false;
}

/* The kind of series s's metric (see the top of this file), by
 * gen/base/units.h's rule of what is a time: a name without a unit when
 * it says duration and marks no instant; one with a time unit when
 * units_unit_makes_time says so; false (reported) for a bracketed unknown
 * unit on a name that says duration. */
static bool classify_metric(const import_request *req, extrap_reader *r, size_t s,
                            metric_kind *kind)
{
    const char *metric = r->metrics[s], *unit;
    char stem[256];
    size_t unit_len;
    double to_seconds = 1;
    units_found found = units_in_header(metric, stem, sizeof stem, &to_seconds, &unit, &unit_len);
    bool names_time = units_name_is_duration(stem);
    *kind = (metric_kind){found == UNITS_NONE && names_time && !units_name_is_instant(stem), 1,
                          false};
    if (kind->time && req->time_unit)
        *kind = (metric_kind){true, import_unitless_time(req), true};
    if (found == UNITS_TIME && units_unit_makes_time(metric, stem, to_seconds))
        *kind = (metric_kind){true, to_seconds, false};
    const char *word;
    size_t word_len;
    char message[700];
    if (names_time && found != UNITS_UNKNOWN && !units_name_is_instant(stem) &&
        units_unknown_word(stem, &word, &word_len)) {
        snprintf(message, sizeof message,
                 "metric '%s' is a time whose name carries '%.*s', which reads as a unit "
                 "perfcast does not know (it knows " UNITS_KNOWN "): it is not guessed; name "
                 "the metric with its unit ('METRIC time [ms]')",
                 metric, (int)word_len, word);
        report(r, r->series_at[s], "%s", message);
        return false;
    }
    if (found != UNITS_UNKNOWN || !names_time)
        return true;
    snprintf(message, sizeof message,
             "metric '%s' is a time in a unit perfcast does not know, '%.*s' (it knows "
             UNITS_KNOWN "): it is not guessed; name the metric with one of these",
             metric, (int)unit_len, unit);
    report(r, r->series_at[s], "%s", message);
    return false;
}

/* The column of series s (a time or not: time); malloc'ed, NULL when out
 * of memory. */
static char *series_column(const import_request *req, const extrap_reader *r, size_t s,
                           bool time, size_t time_series)
{
    const char *region = r->regions[s], *metric = r->metrics[s];
    size_t n = strlen(region) + strlen(metric) + 2;
    char *pair = malloc(n);
    if (!pair)
        return NULL;
    snprintf(pair, n, "%s:%s", region, metric);
    const char *mapped = import_mapped(req, pair);
    char *out = mapped != pair ? strdup(mapped) : NULL;
    free(pair);
    if (mapped != pair)
        return out;
    if (time && time_series == 1)
        return strdup("time_s");
    char *reg = import_identifier(region[0] ? region : "all");
    char *met = import_identifier(metric[0] ? metric : "value");
    n = (reg ? strlen(reg) : 0) + (met ? strlen(met) : 0) + 16;
    out = reg && met ? malloc(n) : NULL;
    if (out && time)
        snprintf(out, n, "time_%s_s", reg);
    else if (out)
        snprintf(out, n, "metric_%s_%s", met, reg);
    free(reg);
    free(met);
    return out;
}

/* What --map may name: every parameter and every REGION:METRIC pair. */
static bool record_sources(extrap_reader *r, import_rows *out)
{
    bool ok = true;
    for (size_t i = 0; ok && i < r->nparams; i++)
        ok = import_rows_source(out, r->params[i]);
    for (size_t s = 0; ok && s < r->nseries; s++) {
        size_t n = strlen(r->regions[s]) + strlen(r->metrics[s]) + 2;
        char *pair = malloc(n);
        if (pair)
            snprintf(pair, n, "%s:%s", r->regions[s], r->metrics[s]);
        ok = pair && import_rows_source(out, pair);
        free(pair);
    }
    return ok || out_of_memory(r);
}

static bool name_columns(const import_request *req, extrap_reader *r, extrap_columns *c)
{
    if (!choose_np(req, r, &c->np))
        return false;
    c->params = calloc(r->nparams, sizeof *c->params);
    c->series = calloc(r->nseries + 1, sizeof *c->series);
    c->kinds = calloc(r->nseries + 1, sizeof *c->kinds);
    if (!c->params || !c->series || !c->kinds)
        return out_of_memory(r);
    for (size_t i = 0; i < r->nparams; i++)
        if (!(c->params[i] = i == c->np ? strdup("np")
                                        : import_identifier(import_mapped(req, r->params[i]))))
            return out_of_memory(r);
    size_t time_series = 0;
    for (size_t s = 0; s < r->nseries; s++) {
        if (!classify_metric(req, r, s, &c->kinds[s]))
            return false;
        time_series += c->kinds[s].time;
    }
    for (size_t s = 0; s < r->nseries; s++) {
        if (!(c->series[s] = series_column(req, r, s, c->kinds[s].time, time_series)))
            return out_of_memory(r);
        if (!column_is_time(c->series[s]))
            c->kinds[s].to_seconds = 1; /* --map made it something else: as written */
    }
    return true;
}

/* What column k of the list (rep, parameters, series) comes from. */
static void describe_column(const extrap_reader *r, size_t k, char *out, size_t len)
{
    if (k == 0)
        snprintf(out, len, "the repetition number");
    else if (k <= r->nparams)
        snprintf(out, len, "parameter '%s'", r->params[k - 1]);
    else
        snprintf(out, len, "region '%s', metric '%s'", r->regions[k - 1 - r->nparams],
                 r->metrics[k - 1 - r->nparams]);
}

/* Two sources sharing a column would overwrite each other's cells. */
static bool columns_distinct(extrap_reader *r, const extrap_columns *c)
{
    keymap seen = {0};
    bool ok = true;
    size_t total = 1 + r->nparams + r->nseries;
    for (size_t k = 0; ok && k < total; k++) {
        const char *name = k == 0 ? "rep" : k <= r->nparams ? c->params[k - 1]
                                                           : c->series[k - 1 - r->nparams];
        size_t first;
        bool added;
        if (!keymap_get(&seen, name, strlen(name), k, &first, &added)) {
            ok = out_of_memory(r);
        } else if (!added) {
            char a[300], b[300], message[700];
            describe_column(r, first, a, sizeof a);
            describe_column(r, k, b, sizeof b);
            snprintf(message, sizeof message,
                     "%s and %s would both be column %s: give one another name with --map", a,
                     b, name);
            report(r, k <= r->nparams ? r->param_at[k - 1] : r->series_at[k - 1 - r->nparams],
                   "%s", message);
            ok = false;
        }
    }
    keymap_free(&seen);
    return ok;
}

/* ------------------------------------------------------------------ */
/* rows                                                                */

/* "region 'R', metric 'M', point (4 10): " where no line is known, else "". */
static void about(const extrap_reader *r, extrap_at at, const extrap_cell *cell, size_t coord,
                  char *out, size_t len)
{
    out[0] = '\0';
    if (at.line > 0)
        return;
    size_t k = 0;
    if (cell)
        k = (size_t)snprintf(out, len, "region '%s', metric '%s', ", r->regions[cell->series],
                             r->metrics[cell->series]);
    for (size_t i = 0; i < r->nparams && k < len; i++)
        k += (size_t)snprintf(out + k, len - k, "%s%g", i ? " " : "point (",
                              r->coords[coord * r->nparams + i]);
    if (k < len)
        snprintf(out + k, len - k, "): ");
}

/* Times are seconds: none negative, and time_s (what the default
 * experiment divides by) above zero. */
static bool check_value(extrap_reader *r, const extrap_cell *cell, const char *column, size_t k)
{
    bool positive = strcmp(column, "time_s") == 0;
    bool time = column_is_time(column);
    double v = cell->values[k];
    if ((positive && v <= 0) || (time && v < 0)) {
        char where[512];
        about(r, cell->at[k], cell, cell->coord, where, sizeof where);
        diag_add(r->diags, r->file, cell->at[k].line, cell->at[k].column,
                 "%s%g is not a time (%s must be %s)", where, v, column,
                 positive ? "> 0" : ">= 0");
        return false;
    }
    return true;
}

static bool check_np(extrap_reader *r, size_t coord, size_t np)
{
    double v = r->coords[coord * r->nparams + np];
    if (v >= 1 && v == floor(v))
        return true;
    extrap_at at = r->coord_at[coord * r->nparams + np];
    char where[512];
    about(r, at, NULL, coord, where, sizeof where);
    diag_add(r->diags, r->file, at.line, at.column,
             "%sthe process count %s is %g here, not a whole number >= 1", where, r->params[np], v);
    return false;
}

/* Rows for the cells of one point (group[0..n), all of one coord): one
 * per repetition, every series of the point set. */
static bool emit_point(extrap_reader *r, const extrap_cell *const *group, size_t n,
                       const extrap_columns *c, import_rows *out)
{
    size_t coord = group[0]->coord, reps = 0;
    for (size_t i = 0; i < n; i++)
        reps = group[i]->n > reps ? group[i]->n : reps;
    if (!check_np(r, coord, c->np))
        return false;
    const double *point = r->coords + coord * r->nparams;
    for (size_t rep = 0; rep < reps; rep++) {
        bool ok = import_rows_add_row(out) && import_rows_set_number(out, "rep", (double)rep + 1);
        for (size_t p = 0; ok && p < r->nparams; p++)
            ok = import_rows_set_number(out, c->params[p], point[p]);
        for (size_t i = 0; ok && i < n; i++) {
            const extrap_cell *cell = group[i];
            if (rep >= cell->n)
                continue;
            if (!check_value(r, cell, c->series[cell->series], rep))
                return false;
            ok = import_rows_set_number(out, c->series[cell->series],
                                        units_in_seconds(cell->values[rep],
                                                         c->kinds[cell->series].to_seconds));
        }
        if (!ok)
            return out_of_memory(r);
    }
    return true;
}

/* Point order, then series order: rows come point by point, with their
 * columns in the order the series first appeared. */
static int by_point_then_series(const void *a, const void *b)
{
    const extrap_cell *x = *(const extrap_cell *const *)a, *y = *(const extrap_cell *const *)b;
    if (x->coord != y->coord)
        return x->coord < y->coord ? -1 : 1;
    return (x->series > y->series) - (x->series < y->series);
}

static bool emit_cells(extrap_reader *r, const extrap_columns *c, import_rows *out)
{
    const extrap_cell **order = malloc((r->ncells + 1) * sizeof *order);
    if (!order)
        return out_of_memory(r);
    for (size_t i = 0; i < r->ncells; i++)
        order[i] = &r->cells[i];
    qsort(order, r->ncells, sizeof *order, by_point_then_series);
    bool ok = true;
    for (size_t start = 0, end; ok && start < r->ncells; start = end) {
        for (end = start + 1; end < r->ncells && order[end]->coord == order[start]->coord; end++)
            ;
        ok = emit_point(r, order + start, end - start, c, out);
    }
    free(order);
    return ok;
}

/* Responses (time_s first, then the others in file order) and README notes. */
static bool describe(const import_request *req, extrap_reader *r, const extrap_columns *c,
                     import_rows *out)
{
    bool ok = true;
    for (size_t s = 0; ok && s < r->nseries; s++)
        if (strcmp(c->series[s], "time_s") == 0)
            ok = import_rows_add_response(out, "time_s");
    for (size_t s = 0; ok && s < r->nseries; s++)
        ok = import_rows_add_response(out, c->series[s]);
    if (ok && strcmp(r->params[c->np], "np") != 0)
        ok = import_rows_note(out, "Extra-P parameter `%s` is the process count `np`.",
                              r->params[c->np]);
    for (size_t s = 0; ok && s < r->nseries; s++) {
        const metric_kind *k = &c->kinds[s];
        char how[64] = "";
        if (k->by_option && k->to_seconds != 1)
            snprintf(how, sizeof how, ", converted from %s to seconds (--time-unit)",
                     req->time_unit);
        else if (k->to_seconds != 1)
            snprintf(how, sizeof how, ", converted to seconds");
        ok = import_rows_note(out, "`%s`: region '%s', metric '%s'%s.", c->series[s],
                              r->regions[s], r->metrics[s], how);
    }
    return ok || out_of_memory(r);
}

static bool emit_rows(const import_request *req, extrap_reader *r, import_rows *out)
{
    extrap_columns c = {0};
    bool ok = record_sources(r, out) && name_columns(req, r, &c) && columns_distinct(r, &c) &&
              describe(req, r, &c, out) &&
              emit_cells(r, &c, out);
    columns_free(r, &c);
    return ok;
}

/* ------------------------------------------------------------------ */
/* the file                                                            */

/* Bytes no Extra-P input holds: a NUL (a value "2<NUL>999" would read as
 * 2, a line starting with one would have no keyword) or invalid UTF-8. */
static bool check_bytes(const char *file, const char *data, size_t len, diag_list *diags)
{
    const char *nul = memchr(data, '\0', len);
    size_t bad = csv_utf8_invalid_at(data, len);
    size_t at = nul && (size_t)(nul - data) < bad ? (size_t)(nul - data) : bad;
    if (at >= len)
        return true;
    long line, column;
    extrap_json_line_col(data, at, &line, &column);
    diag_add(diags, file, line, column, "%s",
             data[at] == '\0' ? "a NUL byte: an Extra-P input is text, with none"
                              : "invalid UTF-8");
    return false;
}

static bool read_any(extrap_reader *r, const char *path)
{
    size_t len = 0;
    char *data = fileio_read_file(path, &len);
    if (!data) /* import_text_read says why */
        return read_text(r, path);
    bool ok = check_bytes(path, data, len, r->diags);
    if (ok && extrap_json_detect(data, len)) {
        extrap_json_sink sink = {r, json_parameter, json_measurement};
        ok = extrap_json_read(path, data, len, &sink, r->diags);
    } else if (ok) {
        ok = read_text(r, path);
    }
    free(data);
    return ok;
}

bool import_read_extrap(const import_request *req, const char *path, import_rows *out,
                        diag_list *diags)
{
    extrap_reader r = {.file = path, .diags = diags};
    size_t before = diags->count;
    bool ok = read_any(&r, path);
    if (ok && r.ncells == 0) {
        diag_add(diags, path, 0, 0, "no measurements (DATA lines): nothing to import");
        ok = false;
    }
    ok = ok && emit_rows(req, &r, out);
    if (r.oom)
        diag_add(diags, path, 0, 0, "out of memory");
    reader_free(&r);
    return ok && diags->count == before;
}
