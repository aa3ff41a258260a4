/*
 * site_manifest.c — parsing and writing ".perfcast-manifest" (see
 * site_manifest.h).
 */
#include "gen/site/site_manifest.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/fileio.h"

const char site_manifest_name[] = ".perfcast-manifest";

bool site_manifest_path_ok(const char *path)
{
    if (!path[0])
        return false;
    for (const char *s = path;;) {
        size_t n = strcspn(s, "/");
        if (n == 0 || s[0] == '.') /* empty, hidden, "." or ".." */
            return false;
        s += n;
        if (*s == '\0')
            return true;
        s++; /* the '/'; a trailing one leaves an empty part */
    }
}

bool site_manifest_add(site_manifest *m, const char *path, uint64_t hash, uint64_t key,
                       size_t size)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 256;
        site_manifest_entry *items = realloc(m->items, cap * sizeof *items);
        if (!items)
            return false;
        m->items = items;
        m->cap = cap;
    }
    char *copy = strdup(path);
    if (!copy)
        return false;
    m->items[m->n++] = (site_manifest_entry){copy, hash, key, size, 0};
    return true;
}

static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const site_manifest_entry *)a)->path, ((const site_manifest_entry *)b)->path);
}

void site_manifest_sort(site_manifest *m)
{
    if (m->n > 1)
        qsort(m->items, m->n, sizeof *m->items, compare_entries);
}

site_manifest_entry *site_manifest_find(const site_manifest *m, const char *path)
{
    site_manifest_entry key = {(char *)path, 0, 0, 0, 0};
    return m->n ? bsearch(&key, m->items, m->n, sizeof *m->items, compare_entries) : NULL;
}

size_t site_manifest_first_under(const site_manifest *m, const char *prefix)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(m->items[mid].path, prefix) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* "KEY N1 N2 ..." of the inputs line; left out (0) when malformed. */
static void parse_inputs(const char *s, site_manifest *m)
{
    char *end;
    uint64_t key = strtoull(s, &end, 16);
    size_t n = 0;
    while (end != s && *end == ' ' && n < SITE_MANIFEST_SUMMARY_MAX) {
        s = end + 1;
        m->summary[n++] = (size_t)strtoull(s, &end, 10);
    }
    bool ok = end != s && *end == '\0';
    m->inputs = ok ? key : 0;
    m->nsummary = ok ? n : 0;
}

bool site_manifest_parse(const char *text, site_manifest *m)
{
    bool ok = true;
    for (const char *line = text; ok && line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char *copy = strndup(line, n);
        uint64_t hash, key;
        size_t size;
        int used = 0;
        if (!copy)
            ok = false;
        else if (strncmp(copy, "inputs ", 7) == 0)
            parse_inputs(copy + 7, m);
        else if (sscanf(copy, "%" SCNx64 " %" SCNx64 " %zu %n", &hash, &key, &size, &used) == 3 &&
                 used > 0 && site_manifest_path_ok(copy + used))
            ok = site_manifest_add(m, copy + used, hash, key, size);
        free(copy);
        line = end ? end + 1 : NULL;
    }
    site_manifest_sort(m);
    return ok;
}

bool site_manifest_load(const char *dir, site_manifest *m)
{
    char *path = fileio_join(dir, site_manifest_name);
    if (!path)
        return false;
    char *text = fileio_read_file(path, NULL);
    free(path);
    bool ok = !text || site_manifest_parse(text, m);
    free(text);
    return ok;
}

char *site_manifest_text(const site_manifest *m, size_t *len)
{
    size_t cap = 64 + 24 * SITE_MANIFEST_SUMMARY_MAX;
    for (size_t i = 0; i < m->n; i++)
        cap += strlen(m->items[i].path) + 64;
    char *s = malloc(cap);
    size_t n = 0;
    if (s && m->inputs) {
        n += (size_t)snprintf(s, cap, "inputs %016" PRIx64, m->inputs);
        for (size_t i = 0; i < m->nsummary; i++)
            n += (size_t)snprintf(s + n, cap - n, " %zu", m->summary[i]);
        s[n++] = '\n';
    }
    for (size_t i = 0; s && i < m->n; i++)
        n += (size_t)snprintf(s + n, cap - n, "%016" PRIx64 " %016" PRIx64 " %zu %s\n",
                              m->items[i].hash, m->items[i].key, m->items[i].size,
                              m->items[i].path);
    if (s)
        s[n] = '\0';
    *len = s ? n : 0;
    return s;
}

void site_manifest_free(site_manifest *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->items[i].path);
    free(m->items);
    memset(m, 0, sizeof *m);
}
