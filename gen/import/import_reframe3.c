/*
 * import_reframe3.c — ReFrame 3 perflogs, and the rules every ReFrame
 * reader shares (units, test parameters, process counts, dates); see
 * import_reframe3.h.
 */
#include "gen/import/import_reframe3.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/column_rules.h"
#include "gen/base/textout.h"
#include "gen/base/units.h"
#include "gen/base/dates.h"

/* ---- Shared by every ReFrame reader ---- */

static bool is_missing(const char *v)
{
    return !v || !v[0] || strcmp(v, "None") == 0 || strcmp(v, "null") == 0;
}

bool import_reframe3_unit_is_time(const char *unit)
{
    double f;
    return unit && units_time_factor(unit, &f);
}

/* A unit that is a rate or ratio ("MB/s", "steps/s"): never a duration. */
static bool is_rate(const char *unit)
{
    return unit && strchr(unit, '/');
}

/* The column var becomes (see import_reframe3_set_perf); malloc'ed. */
static char *perf_column(const char *var, bool timed, bool only_time)
{
    if (timed && only_time)
        return strdup("time_s");
    char *id = import_identifier(var);
    char *out = id ? malloc(strlen(id) + 16) : NULL;
    if (out)
        sprintf(out, timed ? "time_%s_s" : "metric_%s", id);
    free(id);
    return out;
}

/* The value to write: a time in seconds (> 0), else the text unchanged. */
static bool perf_value(const char *var, const char *value, const char *unit, double factor,
                       char *buf, size_t len, const import_reframe3_at *at)
{
    double x;
    if (!import_number(value, &x)) {
        diag_add(at->diags, at->file, at->line, at->column, "%s '%s' is not a number", var,
                 value);
        return false;
    }
    if (isnan(factor)) {
        snprintf(buf, len, "%s", value);
        return true;
    }
    if (!(x > 0) || !isfinite(x * factor)) {
        diag_add(at->diags, at->file, at->line, at->column,
                 "%s '%s' %s is not a time > 0: a run cannot take no or negative time", var,
                 value, unit);
        return false;
    }
    if (factor == 1)
        snprintf(buf, len, "%s", value); /* seconds already: the digits as written */
    else
        textout_shortest_number(buf, len, x * factor);
    return true;
}

/* A variable that is no time keeps its values as written, so they must
 * all be in one unit: 10 MB/s and 0.02 GB/s in one column would read as
 * 500 times apart. (Times are converted to seconds, whatever their unit.)
 * No unit given counts as a unit of its own. False (recorded, naming both
 * units and where the first was given) otherwise. */
static bool one_unit(import_rows *out, const char *column, const char *var, const char *unit,
                     const import_reframe3_at *at)
{
    const import_unit *first;
    if (!import_rows_unit(out, column, unit ? unit : "", at->file, at->line, at->column,
                          &first)) {
        diag_add(at->diags, at->file, at->line, at->column, "out of memory");
        return false;
    }
    if (!first)
        return true;
    diag_add(at->diags, at->file, at->line, at->column,
             "%s in '%s' here but in '%s' at %s:%ld:%ld: one column holds one unit and "
             "perfcast converts only times, so %s is not converted: make the test report "
             "one unit", var, unit ? unit : "(none)",
             first->unit[0] ? first->unit : "(none)", first->file, first->line, first->at, var);
    return false;
}

bool import_reframe3_set_perf(import_rows *out, const char *var, const char *value,
                              const char *unit, bool only_time, const import_reframe3_at *at)
{
    if (is_missing(unit))
        unit = NULL;
    double factor = NAN;
    bool timed = unit && units_time_factor(unit, &factor);
    if (!timed && units_name_is_duration(var) && !is_rate(unit)) {
        if (unit)
            diag_add(at->diags, at->file, at->line, at->column,
                     "%s looks like a time but its unit '%s' is not a time unit (%s): its "
                     "scale cannot be known", var, unit, UNITS_KNOWN);
        else
            diag_add(at->diags, at->file, at->line, at->column,
                     "%s looks like a time but no unit is given (a time unit: %s): its scale "
                     "cannot be known", var, UNITS_KNOWN);
        return false;
    }
    char text[64] = "";
    if (!is_missing(value) &&
        !perf_value(var, value, unit, timed ? factor : NAN, text, sizeof text, at))
        return false;
    char *column = perf_column(var, timed, only_time);
    if (column && !timed && !is_missing(value) && !one_unit(out, column, var, unit, at)) {
        free(column);
        return false;
    }
    bool ok = column && import_rows_set(out, column, text[0] ? text : NULL) &&
              import_rows_add_response(out, column) &&
              import_rows_note(out, "`%s`: ReFrame performance variable %s, in %s%s.", column,
                               var, unit ? unit : "no unit given",
                               timed && factor != 1 ? ", converted to seconds" : "");
    if (!ok)
        diag_add(at->diags, at->file, at->line, at->column, "out of memory");
    free(column);
    return ok;
}

/* The next parameter of a display name: *p at " %key=value", the key and
 * value cut out (malloc'ed) and *p moved past them. False at the end. */
static bool next_param(const char **p, char **key, char **value)
{
    const char *start = strstr(*p, " %");
    if (!start)
        return false;
    start += 2;
    const char *end = strstr(start, " %"), *eq = strchr(start, '=');
    if (!end)
        end = start + strlen(start);
    *p = end;
    if (!eq || eq > end) {
        *key = strndup(start, (size_t)(end - start));
        *value = strdup("");
    } else {
        *key = strndup(start, (size_t)(eq - start));
        *value = strndup(eq + 1, (size_t)(end - eq - 1));
    }
    return true;
}

char *import_reframe3_name_procs(const char *display_name)
{
    const char *p = display_name;
    char *key, *value, *found = NULL;
    while (!found && next_param(&p, &key, &value)) {
        if (key && value && import_is_procs_name(key))
            found = value, value = NULL;
        free(key);
        free(value);
    }
    return found;
}

/* Columns perfcast fills itself: a parameter of that name is renamed. */
static bool is_own_column(const char *name)
{
    static const char *const own[] = {"np", "ppn", "nodes", "cluster", "code", "rep", "engine"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strcmp(name, own[i]) == 0)
            return true;
    return column_is_measured(name);
}

/* The column of parameter key with value: see import_reframe3_set_name. */
static char *param_column(const char *key, const char *value)
{
    double x;
    char *id = import_identifier(key);
    char *out = id ? malloc(strlen(id) + 8) : NULL;
    if (out && import_number(value, &x))
        sprintf(out, "%s%s", is_own_column(id) ? "param_" : "", id);
    else if (out)
        sprintf(out, "tag_%s", id);
    free(id);
    return out;
}

bool import_reframe3_set_name(import_rows *out, const char *display_name,
                              const import_reframe3_at *at)
{
    const char *first = strstr(display_name, " %");
    size_t n = first ? (size_t)(first - display_name) : strlen(display_name);
    char *code = strndup(display_name, n);
    bool ok = code && import_rows_set(out, "code", code);
    free(code);
    const char *p = display_name;
    char *key, *value;
    while (ok && next_param(&p, &key, &value)) {
        ok = key && value;
        if (ok && !import_is_procs_name(key)) {
            char *column = param_column(key, value);
            ok = column && import_rows_set(out, column, value);
            free(column);
        }
        free(key);
        free(value);
    }
    if (!ok)
        diag_add(at->diags, at->file, at->line, at->column, "out of memory");
    return ok;
}

static bool whole_at_least_one(const char *text)
{
    double v;
    return !is_missing(text) && import_number(text, &v) && v >= 1 && v == floor(v) &&
           v < 1e15;
}

bool import_reframe3_set_np(import_rows *out, const char *what, const char *tasks,
                            const char *per_node, const import_reframe3_at *at)
{
    if (!whole_at_least_one(tasks)) {
        diag_add(at->diags, at->file, at->line, at->column,
                 "%s '%s' is not a whole number >= 1", what, tasks ? tasks : "");
        return false;
    }
    bool ok = import_rows_set(out, "np", tasks) &&
              (!whole_at_least_one(per_node) || import_rows_set(out, "ppn", per_node));
    if (!ok)
        diag_add(at->diags, at->file, at->line, at->column, "out of memory");
    return ok;
}

/* The day of when into day ("YYYY-MM-DD"; 24 bytes leave the compiler
 * no doubt); false when it is none. */
static bool day_of(const char *when, char day[24])
{
    size_t n = strlen(when);
    bool dashed = n >= 10 && when[4] == '-' && when[7] == '-';
    bool compact = !dashed && n >= 8 && (n == 8 || when[8] == 'T');
    size_t len = dashed ? 10 : 8;
    if ((!dashed && !compact) || (n > len && when[len] != 'T' && when[len] != ' '))
        return false;
    int y = dates_digits(when, 4), m = dates_digits(when + (dashed ? 5 : 4), 2),
        d = dates_digits(when + (dashed ? 8 : 6), 2);
    if (y < 0 || m < 0 || d < 0 || !dates_day_exists(y, m, d))
        return false;
    snprintf(day, 24, "%04d-%02d-%02d", y, m, d);
    return true;
}

bool import_reframe3_set_date(import_rows *out, const char *what, const char *when,
                              const import_reframe3_at *at)
{
    char day[24];
    if (is_missing(when))
        return true;
    if (!day_of(when, day)) {
        diag_add(at->diags, at->file, at->line, at->column,
                 "%s '%s' is not a date (YYYY-MM-DD, optionally with THH:MM:SS and a zone)",
                 what, when);
        return false;
    }
    if (import_rows_set(out, "date", day))
        return true;
    diag_add(at->diags, at->file, at->line, at->column, "out of memory");
    return false;
}

/* ---- ReFrame 3 perflogs ---- */

bool import_reframe3_line(const import_line *l)
{
    return l->nfields >= 4 && strncmp(l->fields[1].text, "reframe ", 8) == 0;
}

/* The value of key=... on line l, or NULL; *column its position. */
static const char *keyed(const import_line *l, const char *key, long *column)
{
    size_t n = strlen(key);
    for (size_t f = 2; f < l->nfields; f++)
        if (strncmp(l->fields[f].text, key, n) == 0 && l->fields[f].text[n] == '=') {
            if (column)
                *column = l->fields[f].column + (long)n + 1;
            return l->fields[f].text + n + 1;
        }
    return NULL;
}

static bool is_setting(const char *field)
{
    static const char *const keys[] = {"jobid=",  "num_tasks=", "num_tasks_per_node=", "ref=",
                                       "system=", "partition=", "environ="};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (strncmp(field, keys[k], strlen(keys[k])) == 0)
            return true;
    return false;
}

/* The performance variable of a line: the VAR=VALUE field that is not a
 * setting (index into fields), or 0 when there is none. */
static size_t perf_field(const import_line *l)
{
    for (size_t f = 3; f < l->nfields; f++)
        if (strchr(l->fields[f].text, '=') && !is_setting(l->fields[f].text))
            return f;
    return 0;
}

/* The unit: the last field, when it is not a key=value one. */
static const char *unit_of(const import_line *l)
{
    const char *last = l->fields[l->nfields - 1].text;
    return strchr(last, '=') ? NULL : last;
}

/* Whether exactly one distinct variable of the file is measured in a time
 * unit (it is then time_s). */
static bool one_timed_var(const import_text *text)
{
    const char *first = NULL;
    size_t first_len = 0;
    for (size_t i = 0; i < text->nlines; i++) {
        const import_line *l = &text->lines[i];
        size_t f = perf_field(l);
        if (!f || !import_reframe3_unit_is_time(unit_of(l)))
            continue;
        size_t len = strcspn(l->fields[f].text, "=");
        if (!first)
            first = l->fields[f].text, first_len = len;
        else if (len != first_len || strncmp(first, l->fields[f].text, len) != 0)
            return false;
    }
    return first != NULL;
}

/* The label's parts, cut out of "NAME on SYS:PART using ENV" (up to 3.9)
 * or "NAME @SYS:PART+ENV" (3.10 on); malloc'ed, NULL when absent. */
typedef struct {
    char *name, *system, *partition, *environ;
} label_parts;

static void label_free(label_parts *p)
{
    free(p->name);
    free(p->system);
    free(p->partition);
    free(p->environ);
}

static bool label_split(const char *label, label_parts *p)
{
    memset(p, 0, sizeof *p);
    const char *on = strstr(label, " on "), *at = strstr(label, " @");
    const char *where = at ? at + 2 : on ? on + 4 : NULL;
    const char *env_sep = at ? "+" : " using ";
    size_t name_len = at ? (size_t)(at - label) : on ? (size_t)(on - label) : strlen(label);
    p->name = strndup(label, name_len);
    if (!where)
        return p->name != NULL;
    const char *env = strstr(where, env_sep);
    size_t wlen = env ? (size_t)(env - where) : strlen(where);
    const char *colon = memchr(where, ':', wlen);
    p->system = strndup(where, colon ? (size_t)(colon - where) : wlen);
    if (colon)
        p->partition = strndup(colon + 1, wlen - (size_t)(colon + 1 - where));
    if (env)
        p->environ = strdup(env + strlen(env_sep));
    return p->name && p->system && (!colon || p->partition) && (!env || p->environ);
}

/* Replace *part by the line's key= field when there is one. */
static bool override(const import_line *l, const char *key, char **part)
{
    const char *v = keyed(l, key, NULL);
    if (!v || is_missing(v))
        return true;
    free(*part);
    *part = strdup(v);
    return *part != NULL;
}

/* np from num_tasks=, else from a parameter named as a process count. */
static bool set_tasks(const char *file, const import_line *l, const char *name, import_rows *out,
                      diag_list *diags)
{
    import_reframe3_at at = {file, l->line, 1, diags};
    const char *tasks = keyed(l, "num_tasks", &at.column);
    if (tasks)
        return import_reframe3_set_np(out, "num_tasks", tasks,
                                      keyed(l, "num_tasks_per_node", NULL), &at);
    char *param = import_reframe3_name_procs(name);
    at.column = l->fields[param ? 2 : l->nfields - 1].column;
    bool ok = param && import_reframe3_set_np(out, "the process-count parameter", param,
                                              keyed(l, "num_tasks_per_node", NULL), &at);
    if (!param)
        diag_add(diags, file, l->line, at.column,
                 "no num_tasks=N field and no test parameter named as a process count: add "
                 "num_tasks=%%(check_num_tasks)s to the perflog format");
    free(param);
    return ok;
}

/* Code, parameters, np, cluster and environment of a run, from its label
 * and fields. */
static bool set_label(const char *file, const import_line *l, import_rows *out,
                      diag_list *diags)
{
    import_reframe3_at at = {file, l->line, l->fields[2].column, diags};
    label_parts p;
    bool ok = label_split(l->fields[2].text, &p) && override(l, "system", &p.system) &&
              override(l, "partition", &p.partition) && override(l, "environ", &p.environ);
    char *cluster = ok && p.system ? import_cluster_name(p.system, p.partition) : NULL;
    ok = ok && (!p.system || cluster) && (!cluster || import_rows_set(out, "cluster", cluster)) &&
         (!p.environ || import_rows_set(out, "tag_environ", p.environ));
    if (!ok)
        diag_add(diags, file, at.line, at.column, "out of memory");
    ok = ok && set_tasks(file, l, p.name, out, diags) && import_reframe3_set_name(out, p.name, &at);
    free(cluster);
    label_free(&p);
    return ok;
}

/* A new run: note, label, np, date. */
static bool start_run(const char *file, const import_line *l, import_rows *out, diag_list *diags)
{
    import_reframe3_at at = {file, l->line, l->fields[0].column, diags};
    const char *jobid = keyed(l, "jobid", NULL);
    char note[128];
    snprintf(note, sizeof note, "job %s", jobid ? jobid : "?");
    if (!import_rows_add_row(out) || !import_rows_set(out, "note", note)) {
        diag_add(diags, file, l->line, 1, "out of memory");
        return false;
    }
    return set_label(file, l, out, diags) &&
           import_reframe3_set_date(out, "the completion time", l->fields[0].text, &at);
}

static bool same_job(const import_line *a, const import_line *b)
{
    const char *ja = keyed(a, "jobid", NULL), *jb = keyed(b, "jobid", NULL);
    return strcmp(a->fields[0].text, b->fields[0].text) == 0 &&
           strcmp(a->fields[2].text, b->fields[2].text) == 0 &&
           (ja && jb ? strcmp(ja, jb) == 0 : ja == jb);
}

/* Set the line's variable on the current run. */
static bool add_value(const char *file, const import_line *l, bool only_time, import_rows *out,
                      diag_list *diags)
{
    size_t f = perf_field(l);
    if (!f)
        return true; /* a line without a value: nothing to record */
    const char *field = l->fields[f].text, *eq = strchr(field, '=');
    import_reframe3_at at = {file, l->line, l->fields[f].column + (long)(eq - field) + 1, diags};
    char *var = strndup(field, (size_t)(eq - field));
    bool ok = var && import_reframe3_set_perf(out, var, eq + 1, unit_of(l), only_time, &at);
    if (!var)
        diag_add(diags, file, l->line, at.column, "out of memory");
    free(var);
    return ok;
}

bool import_reframe3_read(const import_request *req, const char *file, const import_text *text,
                          import_rows *out, diag_list *diags)
{
    (void)req;
    bool only_time = one_timed_var(text);
    bool ok = true;
    for (size_t i = 0; ok && i < text->nlines; i++) {
        const import_line *l = &text->lines[i];
        if (!import_reframe3_line(l)) {
            diag_add(diags, file, l->line, 1,
                     "not a ReFrame perflog line (DATE|reframe VERSION|CHECK INFO|...)");
            return false;
        }
        if (i == 0 || !same_job(&text->lines[i - 1], l))
            ok = start_run(file, l, out, diags);
        ok = ok && add_value(file, l, only_time, out, diags);
    }
    return ok;
}
