/*
 * import_reframe.c — ReFrame 4 performance logs as its default `filelog`
 * handler writes them: '|'-separated, a header line first
 * (`result|job_completion_time|...|num_tasks|...|system|...`), then one line
 * per test case run. Each performance variable VAR has the columns
 * VAR_value, VAR_unit, VAR_ref, VAR_lower_thres and VAR_upper_thres. Header
 * names may carry ReFrame's `check_` prefix. A later header line (files
 * concatenated after ReFrame rotated them) starts a new table.
 *
 * Each line becomes one run: np = num_tasks, ppn = num_tasks_per_node,
 * cluster = system-partition (characters other than letters, digits, '.',
 * '_' and '-' become '-'), code = short_name (else name), date = the day of
 * job_completion_time, tag_environ = environ, note = "job JOBID, RESULT".
 * A variable measured in seconds is a time: `time_s` when it is the only
 * one, else `time_<var>_s`; any other is `metric_<var>` (a measured figure,
 * not a setting of the run). "None", "null" and empty values are empty.
 * --map NAME=COLUMN sends the header column NAME to COLUMN instead.
 * ReFrame 3 logs (no header line) are read by gen/import/import_reframe3.c.
 */
#include "gen/import/import.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/import/import_lines.h"
#include "gen/import/import_reframe3.h"

typedef struct {
    const char *file;
    const import_request *req;
    const import_line *head;
    diag_list *diags;
    import_rows *out;
} reframe_table;

static const char *header_name(const import_field *f)
{
    return strncmp(f->text, "check_", 6) == 0 ? f->text + 6 : f->text;
}

static long find_column(const import_line *head, const char *name)
{
    for (size_t c = 0; c < head->nfields; c++)
        if (strcmp(header_name(&head->fields[c]), name) == 0)
            return (long)c;
    return -1;
}

static bool is_missing(const char *v)
{
    return !v[0] || strcmp(v, "None") == 0 || strcmp(v, "null") == 0;
}

/* The cell of named column on line l, or NULL when absent or missing. */
static const char *cell(const reframe_table *t, const import_line *l, const char *name)
{
    long c = find_column(t->head, name);
    return c < 0 || is_missing(l->fields[c].text) ? NULL : l->fields[c].text;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

/* Performance variables: the header columns VAR_value, as VAR (malloc'ed). */
static size_t perf_vars(const import_line *head, char **vars, size_t max)
{
    size_t n = 0;
    for (size_t c = 0; c < head->nfields && n < max; c++) {
        const char *name = header_name(&head->fields[c]);
        if (ends_with(name, "_value"))
            vars[n++] = strndup(name, strlen(name) - 6);
    }
    return n;
}

/* The column a variable becomes (see the opening comment); malloc'ed. */
static char *var_column(const reframe_table *t, const import_line *first, char **vars,
                        size_t nvars, size_t v)
{
    char key[256];
    snprintf(key, sizeof key, "%s_value", vars[v]);
    const char *mapped = import_mapped(t->req, key);
    if (mapped != key)
        return strdup(mapped);
    size_t timed = 0;
    bool this_timed = false;
    for (size_t i = 0; i < nvars; i++) {
        snprintf(key, sizeof key, "%s_unit", vars[i]);
        const char *unit = cell(t, first, key);
        bool s = unit && strcmp(unit, "s") == 0;
        timed += s;
        this_timed = this_timed || (i == v && s);
    }
    if (this_timed && timed == 1)
        return strdup("time_s");
    char *id = import_identifier(vars[v]);
    char *out = id ? malloc(strlen(id) + 16) : NULL;
    if (out)
        sprintf(out, this_timed ? "time_%s_s" : "metric_%s", id);
    free(id);
    return out;
}

static bool whole_number_at(const reframe_table *t, const import_line *l, const char *name,
                            bool required)
{
    long c = find_column(t->head, name);
    double v;
    if (c < 0 || is_missing(l->fields[c].text)) {
        if (required)
            diag_add(t->diags, t->file, l->line, c < 0 ? 1 : l->fields[c].column,
                     "no %s on this line: the process count is required (or --map a column to np)",
                     name);
        return !required;
    }
    if (import_number(l->fields[c].text, &v) && v >= 1 && v == floor(v))
        return true;
    diag_add(t->diags, t->file, l->line, l->fields[c].column, "%s '%s' is not a whole number >= 1",
             name, l->fields[c].text);
    return false;
}

/* The standard columns of one line. */
static bool set_standard(const reframe_table *t, const import_line *l)
{
    import_rows *out = t->out;
    const char *np_source = find_column(t->head, "num_tasks") >= 0 ? "num_tasks" : NULL;
    for (size_t c = 0; c < t->req->nmaps; c++)
        if (strcmp(t->req->maps[c].to, "np") == 0)
            np_source = t->req->maps[c].from;
    if (!np_source) {
        diag_add(t->diags, t->file, t->head->line, 1,
                 "no num_tasks column: add %%(check_num_tasks)s to the perflog format, "
                 "or --map a column to np");
        return false;
    }
    if (!whole_number_at(t, l, np_source, true))
        return false;
    const char *ppn = cell(t, l, "num_tasks_per_node");
    double v;
    bool ok = import_rows_set(out, "np", cell(t, l, np_source));
    if (ok && ppn && import_number(ppn, &v) && v >= 1 && v == floor(v))
        ok = import_rows_set(out, "ppn", ppn);
    const char *system = cell(t, l, "system");
    if (ok && system) {
        char *cluster = import_cluster_name(system, cell(t, l, "partition"));
        ok = cluster && import_rows_set(out, "cluster", cluster);
        free(cluster);
    }
    const char *code = cell(t, l, "short_name") ? cell(t, l, "short_name") : cell(t, l, "name");
    ok = ok && import_rows_set(out, "code", code);
    const char *when = cell(t, l, "job_completion_time");
    if (ok && when && strlen(when) >= 10 && when[4] == '-' && when[7] == '-') {
        char day[11];
        memcpy(day, when, 10);
        day[10] = '\0';
        ok = import_rows_set(out, "date", day);
    }
    ok = ok && import_rows_set(out, "tag_environ", cell(t, l, "environ"));
    char note[256];
    snprintf(note, sizeof note, "job %s, %s", cell(t, l, "jobid") ? cell(t, l, "jobid") : "?",
             cell(t, l, "result") ? cell(t, l, "result") : "no result");
    return ok && import_rows_set(out, "note", note);
}

/* Columns the user sent elsewhere with --map (other than to np). */
static bool set_mapped(const reframe_table *t, const import_line *l)
{
    for (size_t m = 0; m < t->req->nmaps; m++) {
        const import_map *map = &t->req->maps[m];
        if (strcmp(map->to, "np") != 0 && !ends_with(map->from, "_value") &&
            !import_rows_set(t->out, map->to, cell(t, l, map->from)))
            return false;
    }
    return true;
}

static bool read_table(reframe_table *t, const import_text *text, size_t *i)
{
    char *vars[64];
    char *columns[64] = {0};
    size_t nvars = perf_vars(t->head, vars, 64);
    bool ok = true;
    size_t first = *i + 1;
    for (*i = first; ok && *i < text->nlines; (*i)++) {
        const import_line *l = &text->lines[*i];
        if (strcmp(header_name(&l->fields[0]), "result") == 0 && find_column(l, "result") == 0)
            break; /* the next table's header */
        if (l->nfields != t->head->nfields) {
            diag_add(t->diags, t->file, l->line,
                     l->nfields > t->head->nfields ? l->fields[t->head->nfields].column : 1,
                     "%zu fields where the header (line %ld) has %zu", l->nfields,
                     t->head->line, t->head->nfields);
            ok = false;
            break;
        }
        /* Units (and so column names) come from the table's first run. */
        for (size_t v = 0; ok && *i == first && v < nvars; v++)
            ok = vars[v] && (columns[v] = var_column(t, l, vars, nvars, v)) != NULL;
        ok = ok && import_rows_add_row(t->out) && set_standard(t, l) && set_mapped(t, l);
        for (size_t v = 0; ok && v < nvars; v++) {
            char key[256];
            snprintf(key, sizeof key, "%s_value", vars[v]);
            long c = find_column(t->head, key);
            const char *value = cell(t, l, key);
            double x;
            if (value && !import_number(value, &x)) {
                diag_add(t->diags, t->file, l->line, l->fields[c].column,
                         "%s '%s' is not a number", key, value);
                ok = false;
            }
            ok = ok && import_rows_set(t->out, columns[v], value) &&
                 import_rows_add_response(t->out, columns[v]);
            snprintf(key, sizeof key, "%s_unit", vars[v]);
            ok = ok && import_rows_note(t->out, "`%s`: ReFrame performance variable %s, in %s.",
                                        columns[v], vars[v],
                                        cell(t, l, key) ? cell(t, l, key) : "no unit given");
        }
    }
    if (ok && first >= text->nlines)
        diag_add(t->diags, t->file, t->head->line, 1, "a header without runs under it");
    for (size_t v = 0; v < nvars; v++) {
        free(vars[v]);
        free(columns[v]);
    }
    return ok && first < text->nlines;
}

bool import_read_reframe(const import_request *req, const char *path, import_rows *out,
                         diag_list *diags)
{
    import_text text;
    if (!import_text_read(path, path, '|', &text, diags))
        return false;
    bool ok = true;
    size_t i = 0;
    while (ok && i < text.nlines) {
        reframe_table t = {.file = path, .req = req, .head = &text.lines[i], .diags = diags,
                           .out = out};
        if (find_column(t.head, "result") < 0 && find_column(t.head, "job_completion_time") < 0) {
            if (i == 0 && import_reframe3_line(t.head)) {
                ok = import_reframe3_read(req, path, &text, out, diags);
                break;
            }
            diag_add(diags, path, t.head->line, 1,
                     "expected ReFrame 4's perflog header (result|job_completion_time|...) "
                     "or a ReFrame 3 line (DATE|reframe VERSION|...)");
            ok = false;
            break;
        }
        ok = read_table(&t, &text, &i);
    }
    import_text_free(&text);
    return ok;
}
