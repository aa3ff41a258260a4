/*
 * rjopts.c — see rjopts.h.
 */
#include "gen/fit/rjopts.h"

#include "gen/base/suggest.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const *rjopts_keys(const char *model)
{
    /* "scaling" is every model's (gen/fit/scaling_option.h). */
    static const char *const strip[] = {"np0",      "work_tol", "tcomp", "contention",
                                        "overhead", "scaling",  NULL};
    static const char *const block[] = {"nps",     "work_tol", "t22",     "contention", "overhead",
                                        "network", "jobnp",    "between", "scaling",    NULL};
    static const char *const multicluster[] = {"cluster_b", "np0",        "work_tol",
                                               "tcomp",     "quantum",    "backtests_from",
                                               "link",      "contention", "scaling",
                                               NULL};
    if (!model)
        return NULL;
    if (strcmp(model, "strip") == 0)
        return strip;
    if (strcmp(model, "block") == 0)
        return block;
    if (strcmp(model, "multicluster") == 0)
        return multicluster;
    return NULL;
}

void rjopts_free(rjopts *o)
{
    for (size_t i = 0; i < o->n; i++) {
        free(o->items[i].key);
        free(o->items[i].value);
    }
    free(o->items);
    memset(o, 0, sizeof *o);
}

const char *rjopts_get(const rjopts *o, const char *key)
{
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->items[i].key, key) == 0)
            return o->items[i].value;
    return NULL;
}

/* A copy of s[0..len) without surrounding blanks. */
static char *trimmed(const char *s, size_t len)
{
    while (len > 0 && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    return strndup(s, len);
}

static bool allowed_key(const char *const *allowed, const char *key)
{
    for (; *allowed; allowed++)
        if (strcmp(*allowed, key) == 0)
            return true;
    return false;
}

static void list_keys(const char *const *allowed, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (; *allowed && used < len; allowed++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", *allowed);
}

/* Add one "key=value" item. */
static bool add_item(rjopts *o, const char *s, size_t n, const char *const *allowed, char *err,
                     size_t errlen)
{
    const char *eq = memchr(s, '=', n);
    if (!eq) {
        snprintf(err, errlen, "expected key=value in the options, got '%.*s'", (int)n, s);
        return false;
    }
    char *key = trimmed(s, (size_t)(eq - s));
    char *value = trimmed(eq + 1, n - (size_t)(eq - s) - 1);
    rjopt *more = key && value ? realloc(o->items, sizeof *more * (o->n + 1)) : NULL;
    if (!more) {
        free(key);
        free(value);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    o->items = more;
    o->items[o->n++] = (rjopt){key, value};
    if (!allowed_key(allowed, key)) {
        char keys[400], near[100];
        size_t n = 0;
        while (allowed[n])
            n++;
        list_keys(allowed, keys, sizeof keys);
        snprintf(err, errlen, "unknown option '%s' (known: %s)%s", key, keys,
                 suggest_clause(key, allowed, n, near, sizeof near));
        return false;
    }
    for (size_t i = 0; i + 1 < o->n; i++)
        if (strcmp(o->items[i].key, key) == 0) {
            snprintf(err, errlen, "option '%s' given twice", key);
            return false;
        }
    return true;
}

bool rjopts_parse(const char *text, const char *const *allowed, rjopts *out, char *err,
                  size_t errlen)
{
    memset(out, 0, sizeof *out);
    for (const char *s = text ? text : ""; *s;) {
        size_t n = strcspn(s, ";");
        if (strspn(s, " \t") < n && !add_item(out, s, n, allowed, err, errlen)) {
            rjopts_free(out);
            return false;
        }
        s += n;
        if (*s == ';')
            s++;
    }
    return true;
}

/* A whole string as a finite number. */
static bool to_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (end == s || *end || errno || !isfinite(v))
        return false;
    *out = v;
    return true;
}

bool rjopts_number(const rjopts *o, const char *key, double def, double lo, double *out,
                   char *err, size_t errlen)
{
    const char *v = rjopts_get(o, key);
    double x = def;
    if (v && !(to_number(v, &x) && x >= lo)) {
        snprintf(err, errlen, "option %s=%s: expected a number >= %g", key, v, lo);
        return false;
    }
    *out = x;
    return true;
}

bool rjopts_work_tol(const rjopts *o, double *out, char *err, size_t errlen)
{
    return rjopts_number(o, "work_tol", 0.02, 0, out, err, errlen);
}

bool rjopts_whole(const char *key, const char *text, long lo, long hi, long *out, char *err,
                  size_t errlen)
{
    const char *s = text + strspn(text, " \t");
    const char *digits = s + (*s == '+' || *s == '-');
    char *end = (char *)s;
    errno = 0;
    long v = isdigit((unsigned char)*digits) ? strtol(s, &end, 10) : 0;
    end += strspn(end, " \t");
    if (end == s || *end || errno || v < lo || v > hi) {
        snprintf(err, errlen, "option %s=%s: expected a whole number from %ld to %ld", key, text,
                 lo, hi);
        return false;
    }
    *out = v;
    return true;
}

bool rjopts_either(const rjopts *o, const char *key, const char *no, const char *yes, bool def,
                   bool *out, char *err, size_t errlen)
{
    const char *v = rjopts_get(o, key);
    *out = v ? strcmp(v, yes) == 0 : def;
    if (!v || *out || strcmp(v, no) == 0)
        return true;
    snprintf(err, errlen, "option %s=%s: expected %s or %s", key, v, yes, no);
    return false;
}

bool rjopts_exact(const rjopts *o, const char *key, bool *exact, char *err, size_t errlen)
{
    return rjopts_either(o, key, "interpolate", "exact", false, exact, err, errlen);
}

bool rjopts_contention(const rjopts *o, rjopts_contention_mode *mode, char *err, size_t errlen)
{
    const char *v = rjopts_get(o, "contention");
    *mode = RJOPTS_CONTENTION_AUTO;
    if (!v)
        return true;
    if (strcmp(v, "roofline") == 0 || strcmp(v, "none") == 0) {
        *mode = v[0] == 'r' ? RJOPTS_CONTENTION_ROOFLINE : RJOPTS_CONTENTION_NONE;
        return true;
    }
    snprintf(err, errlen, "option contention=%s: expected roofline or none", v);
    return false;
}

bool rjopts_overhead(const rjopts *o, overhead_law_kind *law, char *err, size_t errlen)
{
    const char *text = rjopts_get(o, "overhead");
    *law = OVERHEAD_LAW_AUTO;
    if (text && !overhead_law_parse(text, law)) {
        snprintf(err, errlen, "option overhead=%s: expected log2, node, topology or auto", text);
        return false;
    }
    return true;
}

bool rjopts_number_list(const char *text, double *out, size_t max, size_t *n, char *err,
                        size_t errlen)
{
    *n = 0;
    for (const char *s = text;;) {
        size_t len = strcspn(s, ",");
        char *item = trimmed(s, len);
        double v;
        bool ok = item && to_number(item, &v) && v > 0 && *n < max;
        free(item);
        if (!ok) {
            snprintf(err, errlen, "expected a list of positive numbers like 4,8,16 (at most %zu), got '%s'",
                     max, text);
            return false;
        }
        out[(*n)++] = v;
        if (!s[len])
            return true;
        s += len + 1;
    }
}

/* A whole number >= 1 from s[0..len). */
static bool whole(const char *s, size_t len, long *out)
{
    char *item = trimmed(s, len);
    double v;
    bool ok = item && to_number(item, &v) && v >= 1 && v == floor(v) && v < 1e15;
    free(item);
    if (ok)
        *out = (long)v;
    return ok;
}

bool rjopts_size(const char *text, long *a, long *b, char *err, size_t errlen)
{
    size_t n = strcspn(text, "xX");
    if (!text[n] || !whole(text, n, a) || !whole(text + n + 1, strlen(text + n + 1), b)) {
        snprintf(err, errlen, "expected a size like 65536x65536, got '%s'", text);
        return false;
    }
    return true;
}

bool rjopts_resources(const char *text, rjopts_resource *out, size_t max, size_t *n, char *err,
                      size_t errlen)
{
    *n = 0;
    for (const char *s = text;;) {
        size_t len = strcspn(s, ",");
        const char *colon = memchr(s, ':', len);
        size_t name_len = colon ? (size_t)(colon - s) : 0;
        bool ok = colon && name_len > 0 && name_len < sizeof out->name && *n < max &&
                  whole(colon + 1, len - name_len - 1, &out[*n].np);
        if (!ok) {
            snprintf(err, errlen,
                     "expected free resources like wrg2-ethernet:64,wrg3-myrinet:32 (at most %zu), got '%s'",
                     max, text);
            return false;
        }
        char *name = trimmed(s, name_len);
        if (!name) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        snprintf(out[*n].name, sizeof out->name, "%s", name);
        free(name);
        (*n)++;
        if (!s[len])
            return true;
        s += len + 1;
    }
}
