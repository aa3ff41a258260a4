/*
 * import_reframe.c — ReFrame 4 performance logs as its default `filelog`
 * handler writes them: '|'-separated, a header line first
 * (`result|job_completion_time|...|num_tasks|...|system|...`), then one line
 * per test case run. Each performance variable VAR has the columns
 * VAR_value, VAR_unit, VAR_ref, VAR_lower_thres and VAR_upper_thres. Header
 * names may carry ReFrame's `check_` prefix. A later header line (files
 * concatenated after ReFrame rotated them) starts a new table.
 *
 * Each line becomes one run: np = num_tasks (else a test parameter named
 * as a process count), ppn = num_tasks_per_node, cluster =
 * system-partition (characters other than letters, digits, '.', '_' and
 * '-' become '-'), code = the test's name without its parameters, one
 * column per parameter of its display name (`name`, or `display_name` when
 * the format has it: "stream %size=100" gives size = 100, so sizes 100 and
 * 200 are different configurations), date = the day of
 * job_completion_time, tag_environ = environ, note = "job JOBID, RESULT".
 * A variable in a time unit (s, ms, us, ...) is a time in seconds: `time_s`
 * when it is the only one, else `time_<var>_s`; any other is
 * `metric_<var>` (a measured figure, not a setting of the run). These rules
 * are shared with the other ReFrame readers (gen/import/import_reframe3.h).
 * "None", "null" and empty values are empty. --map NAME=COLUMN sends the
 * header column NAME to COLUMN instead.
 *
 * ReFrame 3 logs (no header line) are read by gen/import/import_reframe3.c,
 * JSON run reports (`reframe --report-file`, first non-blank byte '{') by
 * gen/import/import_reframe_json.c.
 */
#include "gen/import/import.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/import/import_lines.h"
#include "gen/import/import_reframe3.h"
#include "gen/import/import_reframe_json.h"

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

/* The unit of variable var on line l (NULL when none is given). */
static const char *unit_at(const reframe_table *t, const import_line *l, const char *var)
{
    char key[256];
    snprintf(key, sizeof key, "%s_unit", var);
    return cell(t, l, key);
}

/* Whether exactly one variable is measured in a time unit, as the table's
 * first run says (it is then time_s). */
static bool one_timed_var(const reframe_table *t, const import_line *first, char **vars,
                          size_t nvars)
{
    size_t timed = 0;
    for (size_t v = 0; v < nvars; v++)
        timed += import_reframe3_unit_is_time(unit_at(t, first, vars[v]));
    return timed == 1;
}

/* Where column name is on line l (1 when the header lacks it). */
static import_reframe3_at at_column(const reframe_table *t, const import_line *l,
                                    const char *name)
{
    long c = find_column(t->head, name);
    return (import_reframe3_at){t->file, l->line, c < 0 ? 1 : l->fields[c].column, t->diags};
}

/* The column that holds the process count: num_tasks, or a --map to np. */
static const char *np_source(const reframe_table *t)
{
    const char *source = find_column(t->head, "num_tasks") >= 0 ? "num_tasks" : NULL;
    for (size_t c = 0; c < t->req->nmaps; c++)
        if (strcmp(t->req->maps[c].to, "np") == 0)
            source = t->req->maps[c].from;
    return source;
}

/* The test's name with its parameters: display_name, else name. */
static const char *display_name(const reframe_table *t, const import_line *l)
{
    return cell(t, l, "display_name") ? cell(t, l, "display_name") : cell(t, l, "name");
}

/* np: the num_tasks (or mapped) column, else a parameter named as a
 * process count. */
static bool set_np(const reframe_table *t, const import_line *l)
{
    const char *source = np_source(t), *per_node = cell(t, l, "num_tasks_per_node");
    import_reframe3_at at = at_column(t, l, source ? source : "name");
    if (source && cell(t, l, source))
        return import_reframe3_set_np(t->out, source, cell(t, l, source), per_node, &at);
    char *param = display_name(t, l) ? import_reframe3_name_procs(display_name(t, l)) : NULL;
    bool ok = param && import_reframe3_set_np(t->out, "the process-count parameter", param,
                                              per_node, &at);
    if (!param)
        diag_add(t->diags, t->file, source ? l->line : t->head->line, source ? at.column : 1,
                 source ? "no %s on this line: the process count is required (or --map a "
                          "column to np)"
                        : "no num_tasks column%s: add %%(check_num_tasks)s to the perflog "
                          "format, or --map a column to np",
                 source ? source : "");
    free(param);
    return ok;
}

/* The standard columns of one line. */
static bool set_standard(const reframe_table *t, const import_line *l)
{
    import_rows *out = t->out;
    if (!set_np(t, l))
        return false;
    const char *system = cell(t, l, "system");
    bool ok = true;
    if (system) {
        char *cluster = import_cluster_name(system, cell(t, l, "partition"));
        ok = cluster && import_rows_set(out, "cluster", cluster);
        free(cluster);
    }
    char note[256];
    snprintf(note, sizeof note, "job %s, %s", cell(t, l, "jobid") ? cell(t, l, "jobid") : "?",
             cell(t, l, "result") ? cell(t, l, "result") : "no result");
    ok = ok && import_rows_set(out, "tag_environ", cell(t, l, "environ")) &&
         import_rows_set(out, "note", note);
    if (!ok) {
        diag_add(t->diags, t->file, l->line, 1, "out of memory");
        return false;
    }
    import_reframe3_at name_at =
        at_column(t, l, cell(t, l, "display_name") ? "display_name" : "name");
    import_reframe3_at date_at = at_column(t, l, "job_completion_time");
    const char *name = display_name(t, l) ? display_name(t, l) : cell(t, l, "short_name");
    return (!name || import_reframe3_set_name(out, name, &name_at)) &&
           import_reframe3_set_date(out, "job_completion_time",
                                    cell(t, l, "job_completion_time"), &date_at);
}

/* Variable v of line l: into the column --map names, else by its unit. */
static bool set_var(const reframe_table *t, const import_line *l, const char *var,
                    bool only_time)
{
    char key[256];
    snprintf(key, sizeof key, "%s_value", var);
    import_reframe3_at at = at_column(t, l, key);
    const char *mapped = import_mapped(t->req, key);
    if (mapped == key)
        return import_reframe3_set_perf(t->out, var, cell(t, l, key), unit_at(t, l, var),
                                        only_time, &at);
    double x;
    const char *value = cell(t, l, key);
    if (value && !import_number(value, &x)) {
        diag_add(t->diags, t->file, l->line, at.column, "%s '%s' is not a number", key, value);
        return false;
    }
    return import_rows_set(t->out, mapped, value) && import_rows_add_response(t->out, mapped);
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
    size_t nvars = perf_vars(t->head, vars, 64);
    bool ok = true, only_time = false;
    for (size_t v = 0; v < nvars; v++)
        ok = ok && vars[v];
    if (!ok)
        diag_add(t->diags, t->file, t->head->line, 1, "out of memory");
    for (size_t c = 0; ok && c < t->head->nfields; c++) /* what --map may name */
        ok = import_rows_source(t->out, header_name(&t->head->fields[c]));
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
        /* Which variable is the time comes from the table's first run. */
        if (*i == first)
            only_time = one_timed_var(t, l, vars, nvars);
        ok = import_rows_add_row(t->out) && set_standard(t, l) && set_mapped(t, l);
        for (size_t v = 0; ok && v < nvars; v++)
            ok = set_var(t, l, vars[v], only_time);
    }
    if (ok && first >= text->nlines)
        diag_add(t->diags, t->file, t->head->line, 1, "a header without runs under it");
    for (size_t v = 0; v < nvars; v++)
        free(vars[v]);
    return ok && first < text->nlines;
}

/* Whether the first non-blank byte of path is '{': a JSON run report. */
static bool starts_as_json(const char *path)
{
    FILE *f = fopen(path, "rb");
    int ch = EOF;
    while (f && (ch = getc(f)) != EOF && isspace(ch))
        ;
    if (f)
        fclose(f);
    return ch == '{';
}

bool import_read_reframe(const import_request *req, const char *path, import_rows *out,
                         diag_list *diags)
{
    if (starts_as_json(path))
        return import_reframe_json_read(req, path, out, diags);
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
