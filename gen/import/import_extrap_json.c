/*
 * import_extrap_json.c — Extra-P's JSON and JSON Lines inputs (see
 * import_extrap_json.h for the layouts). A document whose first object
 * has "params" is JSON Lines, read line by line; any other is one JSON
 * document, legacy when it has "callpaths", current otherwise — the same
 * choices Extra-P's readers make.
 */
#include "gen/import/import_extrap_json.h"

#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/import/import_lines.h"

typedef struct {
    const char *file;
    const extrap_json_sink *sink;
    diag_list *diags;
    size_t nparams;
    char *keys[EXTRAP_MAX_PARAMS]; /* JSON Lines: the parameters, in the first line's order */
} json_reader;

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool extrap_json_detect(const char *data, size_t len)
{
    size_t i = 0;
    while (i < len && is_blank(data[i]))
        i++;
    return i < len && (data[i] == '{' || data[i] == '[');
}

void extrap_json_line_col(const char *data, size_t offset, long *line, long *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset; i++) {
        if (data[i] == '\n')
            *line += 1, *column = 1;
        else if (((unsigned char)data[i] & 0xC0) != 0x80)
            *column += 1;
    }
}

/* Record a problem at line (0: none known) and return false. */
static bool fail(const json_reader *j, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail(const json_reader *j, long line, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    diag_add(j->diags, j->file, line, line > 0, "%s", message);
    return false;
}

/* A finite number, or a string holding one (Extra-P reads both with float()). */
static bool number_of(json_object *o, double *out)
{
    switch (json_object_get_type(o)) {
    case json_type_int:
    case json_type_double:
        *out = json_object_get_double(o);
        return isfinite(*out);
    case json_type_string:
        return import_number(json_object_get_string(o), out);
    default:
        return false;
    }
}

/* Member key of object o when it has type t, else NULL. */
static json_object *member(json_object *o, const char *key, json_type t)
{
    json_object *m = NULL;
    if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &m))
        return NULL;
    return json_object_is_type(m, t) ? m : NULL;
}

/* Parse one JSON value from data[0..len); NULL with the problem recorded
 * at its line and column (first_line: the line data starts on). */
static json_object *parse(const json_reader *j, const char *data, size_t len, long first_line,
                          size_t *end)
{
    if (len > INT_MAX) {
        fail(j, first_line, "too large for the JSON reader");
        return NULL;
    }
    json_tokener *tok = json_tokener_new();
    if (!tok) {
        fail(j, 0, "out of memory");
        return NULL;
    }
    /* Strict, as Python's json module that Extra-P reads with: no trailing commas. */
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
    json_object *doc = json_tokener_parse_ex(tok, data, (int)len);
    enum json_tokener_error err = json_tokener_get_error(tok);
    *end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (doc)
        return doc;
    long line, column;
    extrap_json_line_col(data, *end, &line, &column);
    diag_add(j->diags, j->file, first_line + line - 1, column, "%s",
             err == json_tokener_continue ? "the JSON ends early (a cut file?)"
                                          : json_tokener_error_desc(err));
    return NULL;
}

/* Numbers of array a (n of them) into out; false at the first that is not one. */
static bool numbers_of(json_object *a, double *out, size_t n, size_t *bad)
{
    for (*bad = 0; *bad < n; (*bad)++)
        if (!number_of(json_object_array_get_idx(a, *bad), &out[*bad]))
            return false;
    return true;
}

/* ------------------------------------------------------------------ */
/* Keys given twice: json-c keeps the last silently                     */

/* s[i] is the opening quote of a string of valid JSON: the index past
 * its closing quote. */
static size_t past_string(const char *s, size_t i)
{
    for (i++; s[i] != '"'; i++)
        if (s[i] == '\\')
            i++;
    return i + 1;
}

static size_t past_blank(const char *s, size_t i, size_t n)
{
    while (i < n && is_blank(s[i]))
        i++;
    return i;
}

/* The key text at s[at] (a string of valid JSON) as json-c reads it,
 * escapes resolved: "p" and "\u0070" are one key. NULL when out of memory. */
static json_object *key_text(const char *s, size_t at)
{
    json_tokener *tok = json_tokener_new();
    json_object *o = tok ? json_tokener_parse_ex(tok, s + at, (int)(past_string(s, at) - at))
                         : NULL;
    if (tok)
        json_tokener_free(tok);
    return o;
}

/* Whether the keys at s[a] and s[b] are one key. */
static bool same_key(const char *s, size_t a, size_t b)
{
    size_t la = past_string(s, a) - a, lb = past_string(s, b) - b;
    if (!memchr(s + a, '\\', la) && !memchr(s + b, '\\', lb))
        return la == lb && memcmp(s + a, s + b, la) == 0;
    json_object *x = key_text(s, a), *y = key_text(s, b);
    bool same = x && y && strcmp(json_object_get_string(x), json_object_get_string(y)) == 0;
    json_object_put(x);
    json_object_put(y);
    return same;
}

/* Walk the valid JSON value at s[*i] (n bytes in all) past its end; the
 * first key given twice in one object: *dup at it, *first at the earlier
 * one, and false. Records are lines of a few keys: comparing each key
 * with the object's earlier ones (its first 64) costs nothing worth a
 * hash. */
static bool keys_once(const char *s, size_t *i, size_t n, size_t *dup, size_t *first)
{
    size_t at = past_blank(s, *i, n);
    if (s[at] == '"') {
        *i = past_string(s, at);
        return true;
    }
    if (s[at] != '{' && s[at] != '[') {
        while (at < n && !strchr(",]} \t\r\n", s[at]))
            at++;
        *i = at;
        return true;
    }
    bool object = s[at] == '{';
    size_t keys[64], nkeys = 0;
    at = past_blank(s, at + 1, n);
    while (s[at] != (object ? '}' : ']')) {
        if (object) {
            for (size_t k = 0; k < nkeys; k++)
                if (same_key(s, keys[k], at)) {
                    *dup = at, *first = keys[k];
                    return false;
                }
            if (nkeys < sizeof keys / sizeof keys[0])
                keys[nkeys++] = at;
            at = past_blank(s, past_string(s, at), n) + 1; /* the ':' */
        }
        if (!keys_once(s, &at, n, dup, first))
            return false;
        at = past_blank(s, at, n);
        if (s[at] == ',')
            at = past_blank(s, at + 1, n);
    }
    *i = at + 1;
    return true;
}

/* A record with a key twice ({"params": {"p": 2, "p": 4}}) is refused:
 * a JSON reader keeps one of the two silently, and which point was meant
 * is not known. data[0..len) is the record's line, which parsed. */
static bool no_key_twice(const json_reader *j, const char *data, size_t len, long line)
{
    size_t i = 0, dup, first;
    if (keys_once(data, &i, len, &dup, &first))
        return true;
    long l, column, first_column;
    extrap_json_line_col(data, first, &l, &first_column);
    extrap_json_line_col(data, dup, &l, &column);
    int klen = (int)(past_string(data, dup) - dup);
    diag_add(j->diags, j->file, line, column,
             "key %.*s given twice in one object (first at column %ld): which value is meant "
             "is not known", klen > 60 ? 60 : klen, data + dup, first_column);
    return false;
}

/* ------------------------------------------------------------------ */
/* JSON Lines                                                          */

static bool line_parameters(json_reader *j, json_object *params, long line)
{
    json_object_object_foreach(params, key, value) {
        (void)value;
        if (j->nparams == EXTRAP_MAX_PARAMS)
            return fail(j, line, "more than %d parameters", EXTRAP_MAX_PARAMS);
        if (!(j->keys[j->nparams] = strdup(key)))
            return fail(j, 0, "out of memory");
        j->nparams++;
        if (!j->sink->parameter(j->sink->ctx, key, line))
            return false;
    }
    return j->nparams > 0 || fail(j, line, "\"params\" is empty: no parameter");
}

/* One record: {"params": {...}, "callpath": "...", "metric": "...", "value": v or [v...]}. */
static bool line_record(json_reader *j, json_object *o, long line)
{
    json_object *params = member(o, "params", json_type_object);
    if (!params)
        return fail(j, line, "no \"params\" object (each line of Extra-P's JSON Lines has one)");
    if (j->nparams == 0 && !line_parameters(j, params, line))
        return false;
    if ((size_t)json_object_object_length(params) != j->nparams)
        return fail(j, line, "%d parameters here, %zu in the first line: every line the same",
                    json_object_object_length(params), j->nparams);
    double point[EXTRAP_MAX_PARAMS];
    for (size_t i = 0; i < j->nparams; i++) {
        json_object *v = NULL;
        if (!json_object_object_get_ex(params, j->keys[i], &v))
            return fail(j, line, "no parameter '%s' here (the first line has it)", j->keys[i]);
        if (!number_of(v, &point[i]))
            return fail(j, line, "parameter '%s' is not a number", j->keys[i]);
    }
    json_object *callpath = member(o, "callpath", json_type_string);
    json_object *metric = member(o, "metric", json_type_string);
    json_object *value = NULL;
    if (!json_object_object_get_ex(o, "value", &value))
        return fail(j, line, "no \"value\"");
    bool list = json_object_is_type(value, json_type_array);
    size_t n = list ? json_object_array_length(value) : 1, bad = 0;
    double *values = malloc((n ? n : 1) * sizeof *values);
    if (!values)
        return fail(j, 0, "out of memory");
    bool ok = list ? numbers_of(value, values, n, &bad) : number_of(value, values);
    if (!ok)
        fail(j, line, list ? "\"value\" item %zu is not a number" : "\"value\" is not a number",
             bad + 1);
    else if (n == 0)
        ok = fail(j, line, "\"value\" is an empty list");
    ok = ok && j->sink->measurement(j->sink->ctx,
                                    callpath ? json_object_get_string(callpath) : "<root>",
                                    metric ? json_object_get_string(metric) : "<default>", point,
                                    values, n, line);
    free(values);
    return ok;
}

static bool read_lines(json_reader *j, const char *data, size_t len)
{
    long line = 1;
    bool ok = true;
    for (size_t start = 0; ok && start < len; line++) {
        const char *nl = memchr(data + start, '\n', len - start);
        size_t stop = nl ? (size_t)(nl - data) : len, end = 0, skip = start;
        while (skip < stop && is_blank(data[skip]))
            skip++;
        if (skip < stop) {
            json_object *o = parse(j, data + start, stop - start, line, &end);
            size_t rest = start + end;
            while (rest < stop && is_blank(data[rest]))
                rest++;
            ok = o != NULL;
            if (ok && rest < stop) {
                long l, column;
                extrap_json_line_col(data + start, end, &l, &column);
                diag_add(j->diags, j->file, line, column, "more after the record on this line");
                ok = false;
            }
            ok = ok && no_key_twice(j, data + start, stop - start, line) &&
                 line_record(j, o, line);
            json_object_put(o);
        }
        start = stop + 1;
    }
    return ok;
}

/* ------------------------------------------------------------------ */
/* JSON, current layout                                                */

static bool current_parameters(json_reader *j, json_object *doc)
{
    json_object *params = member(doc, "parameters", json_type_array);
    size_t n = params ? json_object_array_length(params) : 0;
    if (n == 0 || n > EXTRAP_MAX_PARAMS)
        return fail(j, 0, "\"parameters\": expected a list of 1 to %d names", EXTRAP_MAX_PARAMS);
    for (size_t i = 0; i < n; i++) {
        json_object *p = json_object_array_get_idx(params, i);
        if (!json_object_is_type(p, json_type_string))
            return fail(j, 0, "parameters[%zu] is not a name", i);
        if (!j->sink->parameter(j->sink->ctx, json_object_get_string(p), 0))
            return false;
    }
    j->nparams = n;
    return true;
}

/* One {"point": [...], "values": [...]} of measurements.CALLPATH.METRIC[i]. */
static bool current_measurement(json_reader *j, const char *callpath, const char *metric,
                                json_object *m, size_t i)
{
    json_object *point = member(m, "point", json_type_array);
    json_object *values = member(m, "values", json_type_array);
    size_t n = values ? json_object_array_length(values) : 0, bad;
    double coords[EXTRAP_MAX_PARAMS];
    if (!point || json_object_array_length(point) != j->nparams)
        return fail(j, 0, "measurements.%s.%s[%zu]: \"point\" must list %zu numbers", callpath,
                    metric, i, j->nparams);
    if (!numbers_of(point, coords, j->nparams, &bad))
        return fail(j, 0, "measurements.%s.%s[%zu].point[%zu] is not a number", callpath, metric,
                    i, bad);
    if (n == 0)
        return fail(j, 0, "measurements.%s.%s[%zu]: \"values\" must be a non-empty list",
                    callpath, metric, i);
    double *v = malloc(n * sizeof *v);
    if (!v)
        return fail(j, 0, "out of memory");
    bool ok = numbers_of(values, v, n, &bad) ||
              fail(j, 0, "measurements.%s.%s[%zu].values[%zu] is not a number", callpath, metric,
                   i, bad);
    ok = ok && j->sink->measurement(j->sink->ctx, callpath, metric, coords, v, n, 0);
    free(v);
    return ok;
}

static bool read_current(json_reader *j, json_object *doc)
{
    json_object *measurements = member(doc, "measurements", json_type_object);
    if (!current_parameters(j, doc))
        return false;
    if (!measurements)
        return fail(j, 0, "\"measurements\": expected an object of call paths");
    json_object_object_foreach(measurements, callpath, metrics) {
        if (!json_object_is_type(metrics, json_type_object))
            return fail(j, 0, "measurements.%s: expected an object of metrics", callpath);
        json_object_object_foreach(metrics, metric, list) {
            if (!json_object_is_type(list, json_type_array))
                return fail(j, 0, "measurements.%s.%s: expected a list", callpath, metric);
            for (size_t i = 0; i < json_object_array_length(list); i++)
                if (!current_measurement(j, callpath, metric, json_object_array_get_idx(list, i),
                                         i))
                    return false;
        }
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* JSON, legacy layout: lists of {"id": N, ...} joined by their ids     */

/* The items of list key ordered by id: out[id - 1] (ids 1..n, each once,
 * as Extra-P's reader, which sorts them and indexes by id - 1, needs). */
static json_object **by_id(json_reader *j, json_object *doc, const char *key, size_t *n)
{
    json_object *list = member(doc, key, json_type_array);
    *n = list ? json_object_array_length(list) : 0;
    if (*n == 0) {
        fail(j, 0, "\"%s\": expected a non-empty list", key);
        return NULL;
    }
    json_object **out = calloc(*n, sizeof *out);
    if (!out) {
        fail(j, 0, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < *n; i++) {
        json_object *item = json_object_array_get_idx(list, i);
        double id;
        json_object *o = NULL;
        bool has = json_object_is_type(item, json_type_object) &&
                   json_object_object_get_ex(item, "id", &o) && number_of(o, &id);
        if (!has || id < 1 || id > (double)*n || id != floor(id) || out[(size_t)id - 1]) {
            fail(j, 0, "%s[%zu]: \"id\" must be a whole number from 1 to %zu, each used once",
                 key, i, *n);
            free(out);
            return NULL;
        }
        out[(size_t)id - 1] = item;
    }
    return out;
}

/* The "name" of each item (borrowed from the document). */
static bool names_of(json_reader *j, json_object **items, size_t n, const char *key,
                     const char **names)
{
    for (size_t i = 0; i < n; i++) {
        json_object *name = member(items[i], "name", json_type_string);
        if (!name)
            return fail(j, 0, "%s: the item with id %zu has no \"name\"", key, i + 1);
        names[i] = json_object_get_string(name);
    }
    return true;
}

/* The point of coordinate item c: its parameter_value_pairs by parameter_id. */
static bool legacy_point(json_reader *j, json_object *c, size_t id, double *point)
{
    json_object *pairs = member(c, "parameter_value_pairs", json_type_array);
    bool seen[EXTRAP_MAX_PARAMS] = {false};
    if (!pairs || json_object_array_length(pairs) != j->nparams)
        return fail(j, 0, "coordinate %zu: \"parameter_value_pairs\" must list %zu pairs", id,
                    j->nparams);
    for (size_t i = 0; i < j->nparams; i++) {
        json_object *pair = json_object_array_get_idx(pairs, i), *o = NULL;
        double pid, value;
        bool ok = json_object_object_get_ex(pair, "parameter_id", &o) && number_of(o, &pid) &&
                  pid >= 1 && pid <= (double)j->nparams && pid == floor(pid) &&
                  !seen[(size_t)pid - 1] &&
                  json_object_object_get_ex(pair, "parameter_value", &o) && number_of(o, &value);
        if (!ok)
            return fail(j, 0,
                        "coordinate %zu, pair %zu: expected a \"parameter_id\" from 1 to %zu "
                        "(each once) and a numeric \"parameter_value\"",
                        id, i + 1, j->nparams);
        seen[(size_t)pid - 1] = true;
        point[(size_t)pid - 1] = value;
    }
    return true;
}

/* An id member of measurement m that indexes n items: its index, or false. */
static bool index_of(json_object *m, const char *key, size_t n, size_t *index)
{
    json_object *o = NULL;
    double id;
    if (!json_object_object_get_ex(m, key, &o) || !number_of(o, &id) || id < 1 ||
        id > (double)n || id != floor(id))
        return false;
    *index = (size_t)id - 1;
    return true;
}

typedef struct {
    json_object **params, **callpaths, **metrics, **coords;
    size_t nparams, ncallpaths, nmetrics, ncoords;
    const char **param_names, **callpath_names, **metric_names;
    double *points; /* ncoords * nparams */
} legacy_tables;

static void legacy_free(legacy_tables *t)
{
    free(t->params);
    free(t->callpaths);
    free(t->metrics);
    free(t->coords);
    free(t->param_names);
    free(t->callpath_names);
    free(t->metric_names);
    free(t->points);
}

static bool legacy_load(json_reader *j, json_object *doc, legacy_tables *t)
{
    if (!(t->params = by_id(j, doc, "parameters", &t->nparams)) ||
        !(t->callpaths = by_id(j, doc, "callpaths", &t->ncallpaths)) ||
        !(t->metrics = by_id(j, doc, "metrics", &t->nmetrics)) ||
        !(t->coords = by_id(j, doc, "coordinates", &t->ncoords)))
        return false;
    if (t->nparams > EXTRAP_MAX_PARAMS)
        return fail(j, 0, "more than %d parameters", EXTRAP_MAX_PARAMS);
    j->nparams = t->nparams;
    t->param_names = calloc(t->nparams, sizeof *t->param_names);
    t->callpath_names = calloc(t->ncallpaths, sizeof *t->callpath_names);
    t->metric_names = calloc(t->nmetrics, sizeof *t->metric_names);
    t->points = calloc(t->ncoords * t->nparams, sizeof *t->points);
    if (!t->param_names || !t->callpath_names || !t->metric_names || !t->points)
        return fail(j, 0, "out of memory");
    if (!names_of(j, t->params, t->nparams, "parameters", t->param_names) ||
        !names_of(j, t->callpaths, t->ncallpaths, "callpaths", t->callpath_names) ||
        !names_of(j, t->metrics, t->nmetrics, "metrics", t->metric_names))
        return false;
    for (size_t c = 0; c < t->ncoords; c++)
        if (!legacy_point(j, t->coords[c], c + 1, t->points + c * t->nparams))
            return false;
    for (size_t i = 0; i < t->nparams; i++)
        if (!j->sink->parameter(j->sink->ctx, t->param_names[i], 0))
            return false;
    return true;
}

static bool read_legacy(json_reader *j, json_object *doc)
{
    legacy_tables t = {0};
    json_object *measurements = member(doc, "measurements", json_type_array);
    bool ok = legacy_load(j, doc, &t);
    if (ok && !measurements)
        ok = fail(j, 0, "\"measurements\": expected a list");
    for (size_t i = 0; ok && i < json_object_array_length(measurements); i++) {
        json_object *m = json_object_array_get_idx(measurements, i), *o = NULL;
        size_t coord, callpath, metric;
        double value;
        if (!index_of(m, "coordinate_id", t.ncoords, &coord) ||
            !index_of(m, "callpath_id", t.ncallpaths, &callpath) ||
            !index_of(m, "metric_id", t.nmetrics, &metric) ||
            !json_object_object_get_ex(m, "value", &o) || !number_of(o, &value))
            ok = fail(j, 0,
                      "measurements[%zu]: expected a coordinate_id, callpath_id and metric_id "
                      "naming listed items and a numeric \"value\"",
                      i);
        else
            ok = j->sink->measurement(j->sink->ctx, t.callpath_names[callpath],
                                      t.metric_names[metric], t.points + coord * t.nparams,
                                      &value, 1, 0);
    }
    legacy_free(&t);
    return ok;
}

/* ------------------------------------------------------------------ */

/* Whether the first non-blank line is a JSON Lines record: an object with
 * "params" on a line of its own. */
static bool is_json_lines(const char *data, size_t len)
{
    size_t start = 0;
    while (start < len && is_blank(data[start]))
        start++;
    const char *nl = memchr(data + start, '\n', len - start);
    size_t stop = nl ? (size_t)(nl - data) : len;
    if (stop - start > INT_MAX)
        return false;
    json_tokener *tok = json_tokener_new();
    json_object *first = tok ? json_tokener_parse_ex(tok, data + start, (int)(stop - start)) : NULL;
    bool lines = member(first, "params", json_type_object) != NULL;
    json_object_put(first);
    if (tok)
        json_tokener_free(tok);
    return lines;
}

bool extrap_json_read(const char *file, const char *data, size_t len,
                      const extrap_json_sink *sink, diag_list *diags)
{
    json_reader j = {.file = file, .sink = sink, .diags = diags};
    if (is_json_lines(data, len)) {
        bool ok = read_lines(&j, data, len);
        for (size_t i = 0; i < j.nparams; i++)
            free(j.keys[i]);
        return ok;
    }
    size_t end = 0;
    json_object *doc = parse(&j, data, len, 1, &end);
    if (!doc)
        return false;
    bool ok;
    if (!json_object_is_type(doc, json_type_object))
        ok = fail(&j, 1, "expected an object (Extra-P's JSON input), not a list");
    else if (json_object_object_get_ex(doc, "callpaths", NULL))
        ok = read_legacy(&j, doc);
    else
        ok = read_current(&j, doc);
    json_object_put(doc);
    return ok;
}
