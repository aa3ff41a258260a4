/*
 * import_extrap.c — Extra-P's text input format.
 *
 *   PARAMETER p                 one line per parameter (1 to 4), or several names
 *   POINTS ( 2 ) ( 4 ) ( 8 )    coordinates; "POINTS 2 4 8" with one parameter;
 *                               any number of POINTS lines, in order
 *   REGION name                 the call path the following DATA lines belong to
 *   METRIC name                 the metric of the following DATA lines
 *   DATA v1 v2 ...              one line per coordinate, in POINTS order: the
 *                               repetitions measured there
 *   # ...                       a comment
 *
 * Each (coordinate, repetition) becomes one run; `rep` numbers the
 * repetitions from 1. The parameter that is the process count becomes `np`
 * (the one named by --map NAME=np, else one called p, np, procs, processes,
 * ranks or nprocs, else the only parameter); the others keep their names.
 * Each (region, metric) becomes a column: a time metric (time, runtime,
 * walltime, elapsed) is `time_s` when it is the only one, else
 * `time_<region>_s`; any other metric is `metric_<metric>_<region>`.
 */
#include "gen/import/import.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gen/base/column_rules.h"
#include "gen/import/import_lines.h"

#define MAX_PARAMS 4

typedef struct {
    char *region;
    char *metric;
    long line;
    size_t coord;
    double *values;
    long *columns;  /* where each value is on its line */
    size_t nvalues;
} data_line;

typedef struct {
    const char *file;
    diag_list *diags;
    char *params[MAX_PARAMS];
    size_t nparams;
    long param_line;
    double *coords;   /* ncoords * nparams */
    long *coord_columns; /* where each coordinate value is: ncoords * nparams */
    long *coord_lines;   /* the POINTS line of each coordinate */
    size_t ncoords;
    char *region;
    char *metric;
    size_t next_coord;
    data_line *data;
    size_t ndata;
    bool oom;
} extrap_reader;

static void reader_free(extrap_reader *r)
{
    for (size_t i = 0; i < r->nparams; i++)
        free(r->params[i]);
    free(r->coords);
    free(r->coord_columns);
    free(r->coord_lines);
    free(r->region);
    free(r->metric);
    for (size_t i = 0; i < r->ndata; i++) {
        free(r->data[i].region);
        free(r->data[i].metric);
        free(r->data[i].values);
        free(r->data[i].columns);
    }
    free(r->data);
}

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
        if (r->nparams == MAX_PARAMS) {
            diag_add(r->diags, r->file, l->line, l->fields[i].column,
                     "more than %d parameters (Extra-P's text format allows at most %d)",
                     MAX_PARAMS, MAX_PARAMS);
            return false;
        }
        if (r->ncoords > 0) {
            diag_add(r->diags, r->file, l->line, l->fields[i].column,
                     "PARAMETER after POINTS: declare every parameter first");
            return false;
        }
        if (!(r->params[r->nparams++] = strdup(l->fields[i].text)))
            return (r->oom = true, false);
    }
    r->param_line = l->line;
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

static bool add_coordinate(extrap_reader *r, const double *values, const long *columns,
                           long line)
{
    size_t n = (r->ncoords + 1) * r->nparams;
    double *more = realloc(r->coords, n * sizeof *more);
    if (more)
        r->coords = more;
    long *cols = more ? realloc(r->coord_columns, n * sizeof *cols) : NULL;
    if (cols)
        r->coord_columns = cols;
    long *lines = cols ? realloc(r->coord_lines, (r->ncoords + 1) * sizeof *lines) : NULL;
    if (!lines)
        return (r->oom = true, false);
    r->coord_lines = lines;
    memcpy(r->coords + r->ncoords * r->nparams, values, r->nparams * sizeof *values);
    memcpy(r->coord_columns + r->ncoords * r->nparams, columns, r->nparams * sizeof *columns);
    r->coord_lines[r->ncoords] = line;
    r->ncoords++;
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
        return (r->oom = true, false);
    size_t n = tokenize_points(l->text, tok, max);
    bool grouped = n > 1 && strcmp(tok[1].text, "(") == 0;
    double values[MAX_PARAMS];
    long columns[MAX_PARAMS];
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
                ok = add_coordinate(r, values, columns, l->line);
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
            ok = add_coordinate(r, values, columns, l->line);
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

static bool on_data(extrap_reader *r, const import_line *l)
{
    if (r->next_coord >= r->ncoords) {
        diag_add(r->diags, r->file, l->line, 1,
                 "DATA line %zu of this region and metric, but only %zu POINTS",
                 r->next_coord + 1, r->ncoords);
        return false;
    }
    if (l->nfields < 2) {
        diag_add(r->diags, r->file, l->line, (long)strlen(l->text) + 1, "DATA without values");
        return false;
    }
    data_line *more = realloc(r->data, (r->ndata + 1) * sizeof *more);
    if (!more)
        return (r->oom = true, false);
    r->data = more;
    data_line *d = &r->data[r->ndata];
    memset(d, 0, sizeof *d);
    r->ndata++;
    d->line = l->line;
    d->coord = r->next_coord++;
    d->region = strdup(r->region ? r->region : "");
    d->metric = strdup(r->metric ? r->metric : "");
    d->values = malloc((l->nfields - 1) * sizeof *d->values);
    d->columns = malloc((l->nfields - 1) * sizeof *d->columns);
    if (!d->region || !d->metric || !d->values || !d->columns)
        return (r->oom = true, false);
    for (size_t i = 1; i < l->nfields; i++) {
        if (!import_number(l->fields[i].text, &d->values[i - 1])) {
            diag_add(r->diags, r->file, l->line, l->fields[i].column, "'%s' is not a number",
                     l->fields[i].text);
            return false;
        }
        d->columns[i - 1] = l->fields[i].column;
        d->nvalues++;
    }
    return true;
}

static bool on_line(extrap_reader *r, const import_line *l)
{
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
        r->next_coord = 0;
        if (!set_text(key[0] == 'R' ? &r->region : &r->metric, rest_of_line(l)))
            return (r->oom = true, false);
        return true;
    }
    diag_add(r->diags, r->file, l->line, l->fields[0].column,
             "unknown keyword '%s' (expected PARAMETER, POINTS, REGION, METRIC or DATA)", key);
    return false;
}

/* ------------------------------------------------------------------ */
/* naming and rows                                                     */

static bool is_time_metric(const char *m)
{
    static const char *const names[] = {"time", "runtime", "walltime", "elapsed", "time_s"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(m, names[i]) == 0)
            return true;
    return false;
}

static bool is_process_count_name(const char *p)
{
    static const char *const names[] = {"p", "np", "procs", "processes", "ranks", "nprocs"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(p, names[i]) == 0)
            return true;
    return false;
}

/* The runs.csv column of each parameter; -1 in *np_index when none is np. */
static bool name_parameters(const import_request *req, extrap_reader *r, char **columns,
                            long *np_index)
{
    *np_index = -1;
    for (size_t i = 0; i < r->nparams; i++) {
        const char *to = import_mapped(req, r->params[i]);
        if (strcmp(to, "np") == 0 || (to == r->params[i] && is_process_count_name(to)))
            *np_index = *np_index < 0 ? (long)i : *np_index;
    }
    if (*np_index < 0 && r->nparams == 1)
        *np_index = 0;
    if (*np_index < 0) {
        diag_add(r->diags, r->file, r->param_line, 1,
                 "no parameter is the process count: say which with --map NAME=np");
        return false;
    }
    for (size_t i = 0; i < r->nparams; i++)
        if (!(columns[i] = (long)i == *np_index ? strdup("np")
                                                : import_identifier(import_mapped(req, r->params[i]))))
            return (r->oom = true, false);
    return true;
}

/* The column of a (region, metric) pair; malloc'ed. */
static char *data_column(const import_request *req, const extrap_reader *r, const data_line *d)
{
    char pair[512];
    snprintf(pair, sizeof pair, "%s:%s", d->region, d->metric);
    const char *mapped = import_mapped(req, pair);
    if (mapped != pair)
        return strdup(mapped);
    size_t time_pairs = 0;
    for (size_t i = 0; i < r->ndata; i++) {
        bool first = true;
        for (size_t k = 0; k < i && first; k++)
            first = strcmp(r->data[k].region, r->data[i].region) != 0 ||
                    strcmp(r->data[k].metric, r->data[i].metric) != 0;
        time_pairs += first && is_time_metric(r->data[i].metric);
    }
    if (is_time_metric(d->metric) && time_pairs == 1)
        return strdup("time_s");
    char *region = import_identifier(d->region[0] ? d->region : "all");
    char *metric = import_identifier(d->metric[0] ? d->metric : "value");
    size_t n = (region ? strlen(region) : 0) + (metric ? strlen(metric) : 0) + 16;
    char *out = region && metric ? malloc(n) : NULL;
    if (out && is_time_metric(d->metric))
        snprintf(out, n, "time_%s_s", region);
    else if (out)
        snprintf(out, n, "metric_%s_%s", metric, region);
    free(region);
    free(metric);
    return out;
}

static bool check_value(extrap_reader *r, const data_line *d, const char *column, size_t k)
{
    bool positive = strcmp(column, "time_s") == 0;
    bool time = column_is_time(column);
    double v = d->values[k];
    if ((positive && v <= 0) || (time && v < 0)) {
        diag_add(r->diags, r->file, d->line, d->columns[k], "%g is not a time (%s must be %s)",
                 v, column, positive ? "> 0" : ">= 0");
        return false;
    }
    return true;
}

/* Rows for one coordinate: one per repetition, every data column set. */
static bool emit_coordinate(extrap_reader *r, size_t coord, char **param_cols, char **data_cols,
                            long np_index, import_rows *out)
{
    size_t reps = 0;
    for (size_t i = 0; i < r->ndata; i++)
        if (r->data[i].coord == coord && r->data[i].nvalues > reps)
            reps = r->data[i].nvalues;
    const double *point = r->coords + coord * r->nparams;
    double np = point[np_index];
    if (reps > 0 && (np < 1 || np != floor(np))) {
        diag_add(r->diags, r->file, r->coord_lines[coord],
                 r->coord_columns[coord * r->nparams + (size_t)np_index],
                 "the process count %s is %g here, not a whole number >= 1",
                 r->params[np_index], np);
        return false;
    }
    for (size_t rep = 0; rep < reps; rep++) {
        bool ok = import_rows_add_row(out) && import_rows_set_number(out, "rep", (double)rep + 1);
        for (size_t p = 0; ok && p < r->nparams; p++)
            ok = import_rows_set_number(out, param_cols[p], point[p]);
        for (size_t i = 0; ok && i < r->ndata; i++) {
            const data_line *d = &r->data[i];
            if (d->coord != coord || rep >= d->nvalues)
                continue;
            if (!check_value(r, d, data_cols[i], rep))
                return false;
            ok = import_rows_set_number(out, data_cols[i], d->values[rep]);
        }
        if (!ok)
            return (r->oom = true, false);
    }
    return true;
}

static bool emit_rows(const import_request *req, extrap_reader *r, import_rows *out)
{
    char *param_cols[MAX_PARAMS] = {0};
    char **data_cols = calloc(r->ndata + 1, sizeof *data_cols);
    long np_index;
    bool ok = data_cols && name_parameters(req, r, param_cols, &np_index);
    for (size_t i = 0; ok && i < r->ndata; i++)
        ok = (data_cols[i] = data_column(req, r, &r->data[i])) != NULL ||
             (r->oom = true, false);
    /* Responses: time_s first, then the others in file order. */
    for (size_t i = 0; ok && i < r->ndata; i++)
        if (strcmp(data_cols[i], "time_s") == 0)
            ok = import_rows_add_response(out, "time_s");
    for (size_t i = 0; ok && i < r->ndata; i++)
        ok = import_rows_add_response(out, data_cols[i]);
    for (size_t c = 0; ok && c < r->ncoords; c++)
        ok = emit_coordinate(r, c, param_cols, data_cols, np_index, out);
    if (ok && np_index >= 0 && strcmp(r->params[np_index], "np") != 0)
        ok = import_rows_note(out, "Extra-P parameter `%s` is the process count `np`.",
                              r->params[np_index]);
    for (size_t i = 0; ok && i < r->ndata; i++) {
        bool first = true;
        for (size_t k = 0; k < i && first; k++)
            first = strcmp(data_cols[k], data_cols[i]) != 0;
        if (first)
            ok = import_rows_note(out, "`%s`: region '%s', metric '%s'.", data_cols[i],
                                  r->data[i].region, r->data[i].metric);
    }
    for (size_t i = 0; i < MAX_PARAMS; i++)
        free(param_cols[i]);
    for (size_t i = 0; data_cols && i < r->ndata; i++)
        free(data_cols[i]);
    free(data_cols);
    return ok;
}

bool import_read_extrap(const import_request *req, const char *path, import_rows *out,
                        diag_list *diags)
{
    import_text text;
    if (!import_text_read(path, path, ' ', &text, diags))
        return false;
    extrap_reader r = {.file = path, .diags = diags};
    size_t before = diags->count;
    bool ok = true;
    for (size_t i = 0; ok && i < text.nlines; i++)
        ok = on_line(&r, &text.lines[i]);
    if (ok && r.ndata == 0) {
        diag_add(diags, path, 0, 0, "no DATA lines: nothing to import");
        ok = false;
    }
    ok = ok && emit_rows(req, &r, out);
    if (r.oom)
        diag_add(diags, path, 0, 0, "out of memory");
    reader_free(&r);
    import_text_free(&text);
    return ok && diags->count == before;
}
