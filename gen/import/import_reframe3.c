/*
 * import_reframe3.c — see import_reframe3.h.
 */
#include "gen/import/import_reframe3.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    static const char *const keys[] = {"jobid=", "num_tasks=", "num_tasks_per_node=", "ref="};
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

/* How many distinct variables are measured in seconds. */
static size_t timed_vars(const import_text *text, char names[][64], size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < text->nlines; i++) {
        const import_line *l = &text->lines[i];
        size_t f = perf_field(l);
        const char *unit = unit_of(l);
        if (!f || !unit || strcmp(unit, "s") != 0)
            continue;
        size_t len = strcspn(l->fields[f].text, "=");
        bool seen = false;
        for (size_t k = 0; k < n && !seen; k++)
            seen = strlen(names[k]) == len && strncmp(names[k], l->fields[f].text, len) == 0;
        if (!seen && n < max && len < 64) {
            memcpy(names[n], l->fields[f].text, len);
            names[n++][len] = '\0';
        }
    }
    return n;
}

/* "NAME on SYS:PART using ENV" into the row's code, cluster and tag_environ. */
static bool set_info(const char *info, import_rows *out)
{
    const char *on = strstr(info, " on "), *using = strstr(info, " using ");
    if (!on)
        return import_rows_set(out, "code", info);
    char *name = strndup(info, (size_t)(on - info));
    const char *where = on + 4;
    size_t wlen = using && using > where ? (size_t)(using - where) : strlen(where);
    char *sys = strndup(where, wlen);
    char *colon = sys ? strchr(sys, ':') : NULL;
    if (colon)
        *colon = '\0';
    char *cluster = sys ? import_cluster_name(sys, colon ? colon + 1 : NULL) : NULL;
    bool ok = name && cluster && import_rows_set(out, "code", name) &&
              import_rows_set(out, "cluster", cluster) &&
              (!using || import_rows_set(out, "tag_environ", using + 7));
    free(name);
    free(sys);
    free(cluster);
    return ok;
}

/* A new run: date, code/cluster/environ, np, note. */
static bool start_run(const char *file, const import_line *l, import_rows *out, diag_list *diags)
{
    long column = 1;
    const char *tasks = keyed(l, "num_tasks", &column);
    double np;
    if (!tasks || !import_number(tasks, &np) || np < 1 || np != floor(np)) {
        diag_add(diags, file, l->line, tasks ? column : l->fields[l->nfields - 1].column,
                 tasks ? "num_tasks '%s' is not a whole number >= 1"
                       : "no num_tasks=N field%s: add num_tasks=%%(check_num_tasks)s to the "
                         "perflog format",
                 tasks ? tasks : "");
        return false;
    }
    const char *when = l->fields[0].text, *jobid = keyed(l, "jobid", NULL);
    char day[11] = "", note[128];
    if (strlen(when) >= 10 && when[4] == '-' && when[7] == '-')
        memcpy(day, when, 10), day[10] = '\0';
    snprintf(note, sizeof note, "job %s", jobid ? jobid : "?");
    const char *ppn = keyed(l, "num_tasks_per_node", NULL);
    double v;
    return import_rows_add_row(out) && import_rows_set(out, "np", tasks) &&
           import_rows_set(out, "date", day) && import_rows_set(out, "note", note) &&
           set_info(l->fields[2].text, out) &&
           (!ppn || !import_number(ppn, &v) || import_rows_set(out, "ppn", ppn));
}

static bool same_job(const import_line *a, const import_line *b)
{
    const char *ja = keyed(a, "jobid", NULL), *jb = keyed(b, "jobid", NULL);
    return strcmp(a->fields[0].text, b->fields[0].text) == 0 &&
           (ja && jb ? strcmp(ja, jb) == 0 : ja == jb);
}

/* Set the line's variable on the current run. */
static bool add_value(const char *file, const import_line *l, size_t ntimed, import_rows *out,
                      diag_list *diags)
{
    size_t f = perf_field(l);
    if (!f)
        return true; /* a line without a value: nothing to record */
    const char *field = l->fields[f].text, *eq = strchr(field, '=');
    const char *value = eq + 1, *unit = unit_of(l);
    double x;
    bool missing = !*value || strcmp(value, "None") == 0 || strcmp(value, "null") == 0;
    if (!missing && !import_number(value, &x)) {
        diag_add(diags, file, l->line, l->fields[f].column + (long)(eq - field) + 1,
                 "%.*s '%s' is not a number", (int)(eq - field), field, value);
        return false;
    }
    char *var = strndup(field, (size_t)(eq - field));
    char *id = var ? import_identifier(var) : NULL;
    char column[160];
    bool in_seconds = unit && strcmp(unit, "s") == 0;
    if (in_seconds && ntimed == 1)
        snprintf(column, sizeof column, "time_s");
    else
        snprintf(column, sizeof column, in_seconds ? "time_%s_s" : "metric_%s", id ? id : "_");
    bool ok = var && id && import_rows_set(out, column, missing ? NULL : value) &&
              import_rows_add_response(out, column) &&
              import_rows_note(out, "`%s`: ReFrame performance variable %s, in %s.", column, var,
                               unit ? unit : "no unit given");
    free(var);
    free(id);
    return ok;
}

bool import_reframe3_read(const import_request *req, const char *file, const import_text *text,
                          import_rows *out, diag_list *diags)
{
    (void)req;
    char timed[16][64];
    size_t ntimed = timed_vars(text, timed, 16);
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
        ok = ok && add_value(file, l, ntimed, out, diags);
    }
    return ok;
}
