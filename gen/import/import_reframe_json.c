/*
 * import_reframe_json.c — ReFrame's JSON run report; see
 * import_reframe_json.h. json-c parses the report; the text is kept beside
 * it only to say where a refused value stands (json-c keeps no positions).
 */
#include "gen/import/import_reframe_json.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/fileio.h"
#include "gen/import/import_reframe3.h"

/* The report being read. The text spans [start, end) of the current test
 * case, found by scanning the text in step with json-c's arrays. */
typedef struct {
    const char *file;
    const char *text;
    diag_list *diags;
    import_rows *out;
    const char *session_start; /* session_info.time_start (ReFrame 3's date) */
    bool only_time;            /* the report has one timed variable */
    size_t scan;               /* where the text scan stands */
    size_t start, end;         /* the current test case's text */
} report;

/* ---- Positions in the text ---- */

static size_t skip_blanks(const char *t, size_t i)
{
    while (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')
        i++;
    return i;
}

/* The end of the string whose opening quote is at t[i]. */
static size_t skip_string(const char *t, size_t i)
{
    for (i++; t[i] && t[i] != '"'; i++)
        if (t[i] == '\\' && t[i + 1])
            i++;
    return t[i] ? i + 1 : i;
}

/* The end of the JSON value at t[i] (the text parsed, so it is valid). */
static size_t skip_value(const char *t, size_t i)
{
    if (t[i] == '"')
        return skip_string(t, i);
    if (t[i] != '{' && t[i] != '[') {
        while (t[i] && !strchr(",}] \t\r\n", t[i]))
            i++;
        return i;
    }
    int depth = 0;
    do {
        if (t[i] == '"') {
            i = skip_string(t, i);
            continue;
        }
        depth += (t[i] == '{' || t[i] == '[') - (t[i] == '}' || t[i] == ']');
        i++;
    } while (t[i] && depth > 0);
    return i;
}

/* Line and column (code points from 1) of byte off of text. */
static void line_col(const char *text, size_t off, long *line, long *col)
{
    *line = 1, *col = 1;
    for (size_t i = 0; i < off && text[i]; i++) {
        if (text[i] == '\n')
            ++*line, *col = 1;
        else if (((unsigned char)text[i] & 0xC0) != 0x80)
            ++*col;
    }
}

/* Move to the first element of the next "testcases" array. */
static void scan_run(report *r)
{
    const char *found = strstr(r->text + r->scan, "\"testcases\"");
    size_t i = found ? (size_t)(found - r->text) + 11 : strlen(r->text);
    i = skip_blanks(r->text, i);
    i = r->text[i] == ':' ? skip_blanks(r->text, i + 1) : i;
    r->scan = r->text[i] == '[' ? i + 1 : i;
}

/* Take the next element of the array as the current test case. */
static void scan_case(report *r)
{
    size_t i = skip_blanks(r->text, r->scan);
    i = r->text[i] == ',' ? skip_blanks(r->text, i + 1) : i;
    r->start = i;
    r->end = r->text[i] == '{' ? skip_value(r->text, i) : i;
    r->scan = r->end;
}

/* Where needle stands in the current test case, from byte from on, as
 * FILE:LINE:COL of the value after it (its key's ':' and a '[' skipped);
 * the test case's start when it is not there. */
static import_reframe3_at locate(const report *r, size_t from, const char *needle, size_t *past)
{
    const char *found = strstr(r->text + (from > r->start ? from : r->start), needle);
    size_t off = r->start;
    if (found && (size_t)(found - r->text) < r->end) {
        off = skip_blanks(r->text, (size_t)(found - r->text) + strlen(needle));
        off = r->text[off] == ':' ? skip_blanks(r->text, off + 1) : off;
        off = r->text[off] == '[' ? skip_blanks(r->text, off + 1) : off;
    }
    if (past)
        *past = off;
    import_reframe3_at at = {r->file, 1, 1, r->diags};
    line_col(r->text, off, &at.line, &at.column);
    return at;
}

/* The text "KEY" with its quotes, for locate. */
static void quoted(char *buf, size_t len, const char *key)
{
    snprintf(buf, len, "\"%s\"", key);
}

static import_reframe3_at at_key(const report *r, const char *key)
{
    char needle[256];
    quoted(needle, sizeof needle, key);
    return locate(r, r->start, needle, NULL);
}

/* ---- Values ---- */

/* A member as text (numbers as written), NULL when absent or null. */
static const char *text_of(json_object *o, const char *key)
{
    json_object *v;
    if (!o || !json_object_object_get_ex(o, key, &v) || !v ||
        json_object_is_type(v, json_type_object) || json_object_is_type(v, json_type_array))
        return NULL;
    return json_object_get_string(v);
}

static json_object *member(json_object *o, const char *key, json_type type)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, type) ? v
                                                                                      : NULL;
}

static const char *element_text(json_object *array, size_t i)
{
    json_object *v = json_object_array_get_idx(array, i);
    return v && !json_object_is_type(v, json_type_array) &&
                   !json_object_is_type(v, json_type_object)
               ? json_object_get_string(v)
               : NULL;
}

/* ---- Performance variables, both layouts ---- */

/* One variable of a case: name, value and unit as text (borrowed). */
typedef struct {
    const char *name, *value, *unit;
    const char *needle; /* where it stands: "SYS:PART:VAR" or "VAR" */
} perf_var;

/* The i-th variable of a case; false past the last. */
static bool case_var(json_object *tc, size_t i, perf_var *v)
{
    json_object *values = member(tc, "perfvalues", json_type_object);
    if (values) {
        size_t k = 0;
        json_object_object_foreach(values, key, array)
        {
            if (k++ != i)
                continue;
            const char *colon = strrchr(key, ':');
            v->name = colon ? colon + 1 : key;
            v->needle = key;
            v->value = json_object_is_type(array, json_type_array) ? element_text(array, 0)
                                                                    : NULL;
            v->unit = json_object_is_type(array, json_type_array) ? element_text(array, 4)
                                                                   : NULL;
            return true;
        }
        return false;
    }
    json_object *vars = member(tc, "perfvars", json_type_array);
    json_object *var = vars && i < json_object_array_length(vars)
                           ? json_object_array_get_idx(vars, i)
                           : NULL;
    if (!var || !text_of(var, "name"))
        return false;
    v->name = v->needle = text_of(var, "name");
    v->value = text_of(var, "value");
    v->unit = text_of(var, "unit");
    return true;
}

/* Whether the whole report has exactly one variable in a time unit. */
static bool one_timed_var(json_object *runs)
{
    const char *first = NULL;
    for (size_t ri = 0; ri < json_object_array_length(runs); ri++) {
        json_object *cases = member(json_object_array_get_idx(runs, ri), "testcases",
                                    json_type_array);
        for (size_t c = 0; cases && c < json_object_array_length(cases); c++) {
            perf_var v;
            for (size_t i = 0; case_var(json_object_array_get_idx(cases, c), i, &v); i++) {
                if (!import_reframe3_unit_is_time(v.unit))
                    continue;
                if (first && strcmp(first, v.name) != 0)
                    return false;
                first = v.name;
            }
        }
    }
    return first != NULL;
}

static bool set_vars(report *r, json_object *tc)
{
    perf_var v;
    for (size_t i = 0; case_var(tc, i, &v); i++) {
        char needle[256];
        size_t past;
        quoted(needle, sizeof needle, v.needle);
        locate(r, r->start, needle, &past);
        /* ReFrame 3 writes the name first, then the value's key. */
        import_reframe3_at at = strchr(v.needle, ':') ? locate(r, r->start, needle, NULL)
                                                      : locate(r, past, "\"value\"", NULL);
        if (!import_reframe3_set_perf(r->out, v.name, v.value, v.unit, r->only_time, &at))
            return false;
    }
    return true;
}

/* ---- One test case ---- */

static bool set_np(report *r, json_object *tc)
{
    json_object *vars = member(tc, "check_vars", json_type_object);
    json_object *from = vars && text_of(vars, "num_tasks") ? vars : tc;
    const char *tasks = text_of(from, "num_tasks");
    const char *per_node = text_of(from, "num_tasks_per_node");
    import_reframe3_at at = at_key(r, "num_tasks");
    if (tasks)
        return import_reframe3_set_np(r->out, "num_tasks", tasks, per_node, &at);
    const char *name = text_of(tc, "display_name");
    char *param = name ? import_reframe3_name_procs(name) : NULL;
    if (param)
        at = at_key(r, "display_name");
    bool ok = param && import_reframe3_set_np(r->out, "the process-count parameter", param,
                                              per_node, &at);
    if (!param)
        diag_add(r->diags, r->file, at.line, at.column,
                 "this test case has no num_tasks and no parameter named as a process count");
    free(param);
    return ok;
}

/* cluster from system and partition ("SYS:PART" in ReFrame 3). */
static bool set_cluster(report *r, json_object *tc)
{
    const char *system = text_of(tc, "system"), *partition = text_of(tc, "partition");
    if (!system)
        return true;
    char *sys = strdup(system);
    char *colon = sys && !partition ? strchr(sys, ':') : NULL;
    if (colon)
        *colon = '\0', partition = colon + 1;
    char *cluster = sys ? import_cluster_name(sys, partition) : NULL;
    bool ok = cluster && import_rows_set(r->out, "cluster", cluster);
    free(cluster);
    free(sys);
    return ok;
}

static bool set_labels(report *r, json_object *tc)
{
    const char *environ = text_of(tc, "environ") ? text_of(tc, "environ")
                                                  : text_of(tc, "environment");
    const char *jobid = text_of(tc, "jobid"), *result = text_of(tc, "result");
    char note[256];
    snprintf(note, sizeof note, "job %s, %s", jobid ? jobid : "?", result ? result : "no result");
    bool ok = set_cluster(r, tc) && import_rows_set(r->out, "tag_environ", environ) &&
              import_rows_set(r->out, "note", note);
    if (!ok) {
        import_reframe3_at at = at_key(r, "system");
        diag_add(r->diags, r->file, at.line, at.column, "out of memory");
    }
    return ok;
}

static bool set_name_and_date(report *r, json_object *tc)
{
    const char *name = text_of(tc, "display_name") ? text_of(tc, "display_name")
                                                    : text_of(tc, "name");
    import_reframe3_at name_at = at_key(r, text_of(tc, "display_name") ? "display_name" : "name");
    import_reframe3_at date_at = at_key(r, "job_completion_time");
    const char *when = text_of(tc, "job_completion_time");
    const char *what = "job_completion_time";
    if (!when && r->session_start) {
        when = r->session_start, what = "session_info.time_start";
        date_at = locate(r, 0, "\"time_start\"", NULL);
    }
    return (!name || import_reframe3_set_name(r->out, name, &name_at)) &&
           import_reframe3_set_date(r->out, what, when, &date_at);
}

static bool has_values(json_object *tc)
{
    perf_var v;
    return case_var(tc, 0, &v);
}

static bool read_case(report *r, json_object *tc)
{
    scan_case(r);
    if (!json_object_is_type(tc, json_type_object) || !has_values(tc))
        return true; /* a case without performance values measured nothing */
    if (!import_rows_add_row(r->out)) {
        diag_add(r->diags, r->file, 1, 1, "out of memory");
        return false;
    }
    return set_np(r, tc) && set_labels(r, tc) && set_name_and_date(r, tc) && set_vars(r, tc);
}

/* ---- The report ---- */

static json_object *parse(const char *file, const char *text, diag_list *diags)
{
    json_tokener *tok = json_tokener_new();
    if (!tok) {
        diag_add(diags, file, 1, 1, "out of memory");
        return NULL;
    }
    json_object *doc = json_tokener_parse_ex(tok, text, (int)strlen(text) + 1);
    if (!doc) {
        long line, col;
        line_col(text, json_tokener_get_parse_end(tok), &line, &col);
        diag_add(diags, file, line, col, "not a readable JSON run report: %s",
                 json_tokener_error_desc(json_tokener_get_error(tok)));
    }
    json_tokener_free(tok);
    return doc;
}

bool import_reframe_json_read(const import_request *req, const char *path, import_rows *out,
                              diag_list *diags)
{
    (void)req;
    size_t len;
    char *text = fileio_read_file(path, &len);
    if (!text || strlen(text) != len) {
        diag_add(diags, path, 1, 1, text ? "a NUL byte in a JSON report" : "cannot read the file");
        free(text);
        return false;
    }
    json_object *doc = parse(path, text, diags);
    json_object *runs = member(doc, "runs", json_type_array);
    if (doc && !runs)
        diag_add(diags, path, 1, 1,
                 "a JSON file without \"runs\": not a ReFrame run report (reframe --report-file)");
    report r = {.file = path, .text = text, .diags = diags, .out = out};
    r.session_start = text_of(member(doc, "session_info", json_type_object), "time_start");
    r.only_time = runs && one_timed_var(runs);
    bool ok = runs != NULL;
    for (size_t ri = 0; ok && ri < json_object_array_length(runs); ri++) {
        json_object *cases = member(json_object_array_get_idx(runs, ri), "testcases",
                                    json_type_array);
        scan_run(&r);
        for (size_t c = 0; ok && cases && c < json_object_array_length(cases); c++)
            ok = read_case(&r, json_object_array_get_idx(cases, c));
    }
    json_object_put(doc);
    free(text);
    return ok;
}
