/*
 * import_rows.c — the table every importer fills (see import.h).
 */
#include "gen/base/hash.h"
#include "gen/base/textout.h"
#include "gen/import/import.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A chunk of the arena; cells are carved from the newest one. */
typedef struct arena_chunk {
    struct arena_chunk *next;
    size_t used, size;
    char data[];
} arena_chunk;

struct import_arena {
    arena_chunk *head;
};

enum { CHUNK_BYTES = 1 << 20 };

/* n bytes from the arena, at a multiple of align (a power of two); NULL
 * when out of memory. Texts take align 1: a million short cells would
 * waste a third of their memory on padding. */
static void *arena_alloc(import_rows *t, size_t n, size_t align)
{
    if (!t->arena && !(t->arena = calloc(1, sizeof *t->arena)))
        return NULL;
    arena_chunk *c = t->arena->head;
    if (c)
        c->used = (c->used + align - 1) & ~(align - 1);
    if (!c || c->used > c->size || c->size - c->used < n) {
        size_t size = n > CHUNK_BYTES ? n : CHUNK_BYTES;
        if (!(c = malloc(sizeof *c + size)))
            return NULL;
        *c = (arena_chunk){t->arena->head, 0, size};
        t->arena->head = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    return p;
}

static char *arena_strdup(import_rows *t, const char *s)
{
    size_t n = strlen(s) + 1;
    char *copy = arena_alloc(t, n, 1);
    if (copy)
        memcpy(copy, s, n);
    return copy;
}

void import_rows_init(import_rows *t)
{
    memset(t, 0, sizeof *t);
}

static void free_strings(char **s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

void import_rows_free(import_rows *t)
{
    for (arena_chunk *c = t->arena ? t->arena->head : NULL, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(t->arena);
    free(t->packed);
    free(t->nrow_cols);
    free(t->open);
    free(t->name_slots);
    free_strings(t->names, t->ncols);
    free_strings(t->responses, t->nresponses);
    free_strings(t->notes, t->nnotes);
    free_strings(t->sources, t->nsources);
    for (size_t i = 0; i < t->nunits; i++) {
        free(t->units[i].column);
        free(t->units[i].unit);
        free(t->units[i].file);
    }
    free(t->units);
    memset(t, 0, sizeof *t);
}

/* Append a copy of s to the array *items of *n strings. */
static bool push_string(char ***items, size_t *n, const char *s)
{
    char *copy = strdup(s);
    char **more = copy ? realloc(*items, (*n + 1) * sizeof *more) : NULL;
    if (!more) {
        free(copy);
        return false;
    }
    more[(*n)++] = copy;
    *items = more;
    return true;
}

/* ------------------------------------------------------------------ */
/* Rows: the open one, then packed                                     */

/* The open row's cells, packed: where a reader set every column in order
 * (the common case) they already lie one after the other in the arena and
 * nothing is copied; otherwise they are copied after each other (the
 * first texts stay where they are, unused: pointers handed out stay
 * valid). */
static bool seal_row(import_rows *t)
{
    size_t r = t->nrows - 1, n = t->open_cols;
    bool contiguous = n > 0 && t->open[0];
    for (size_t c = 1; contiguous && c < n; c++)
        contiguous = t->open[c] && t->open[c] == t->open[c - 1] + strlen(t->open[c - 1]) + 1;
    if (contiguous || n == 0) {
        t->packed[r] = n ? t->open[0] : NULL;
    } else {
        size_t bytes = 0;
        for (size_t c = 0; c < n; c++)
            bytes += (t->open[c] ? strlen(t->open[c]) : 0) + 1;
        char *p = arena_alloc(t, bytes, 1);
        if (!p)
            return false;
        t->packed[r] = p;
        for (size_t c = 0; c < n; c++) {
            size_t len = t->open[c] ? strlen(t->open[c]) : 0;
            memcpy(p, t->open[c] ? t->open[c] : "", len + 1);
            p += len + 1;
        }
    }
    t->nrow_cols[r] = n;
    return true;
}

bool import_rows_add_row(import_rows *t)
{
    if (t->nrows > 0 && !seal_row(t))
        return false;
    if (t->nrows == t->rows_cap) {
        size_t cap = t->rows_cap ? 2 * t->rows_cap : 256;
        char **packed = realloc(t->packed, cap * sizeof *packed);
        if (!packed)
            return false;
        t->packed = packed;
        size_t *widths = realloc(t->nrow_cols, cap * sizeof *widths);
        if (!widths)
            return false;
        t->nrow_cols = widths;
        t->rows_cap = cap;
    }
    for (size_t c = 0; c < t->open_cols; c++)
        t->open[c] = NULL;
    t->open_cols = 0;
    t->packed[t->nrows] = NULL;
    t->nrow_cols[t->nrows] = 0;
    t->nrows++;
    return true;
}

/* ------------------------------------------------------------------ */
/* Column names by hash                                                */

static size_t name_slot(const import_rows *t, const char *column)
{
    size_t i = (size_t)hash_bytes(column, strlen(column), 0) & (t->nname_slots - 1);
    while (t->name_slots[i] && strcmp(t->names[t->name_slots[i] - 1], column) != 0)
        i = (i + 1) & (t->nname_slots - 1);
    return i;
}

static long column_index(const import_rows *t, const char *column)
{
    if (!t->nname_slots)
        return -1;
    size_t at = t->name_slots[name_slot(t, column)];
    return at ? (long)at - 1 : -1;
}

/* Add a column; its index, or -1 when out of memory. */
static long add_column(import_rows *t, const char *column)
{
    if (!push_string(&t->names, &t->ncols, column))
        return -1;
    if (2 * t->ncols > t->nname_slots) {
        size_t n = t->nname_slots ? 2 * t->nname_slots : 16;
        size_t *slots = calloc(n, sizeof *slots);
        if (!slots)
            return -1;
        free(t->name_slots);
        t->name_slots = slots;
        t->nname_slots = n;
        for (size_t c = 0; c < t->ncols; c++)
            t->name_slots[name_slot(t, t->names[c])] = c + 1;
    } else {
        t->name_slots[name_slot(t, column)] = t->ncols;
    }
    return (long)t->ncols - 1;
}

bool import_rows_set(import_rows *t, const char *column, const char *value)
{
    if (t->nrows == 0)
        return false;
    long c = t->next_column < t->ncols && strcmp(t->names[t->next_column], column) == 0
                 ? (long)t->next_column
                 : column_index(t, column);
    if (c < 0 && (c = add_column(t, column)) < 0)
        return false;
    t->next_column = (size_t)c + 1 < t->ncols ? (size_t)c + 1 : 0;
    if ((size_t)c >= t->open_cap) {
        size_t cap = t->ncols > 8 ? 2 * t->ncols : 16;
        char **open = realloc(t->open, cap * sizeof *open);
        if (!open)
            return false;
        for (size_t k = t->open_cap; k < cap; k++)
            open[k] = NULL;
        t->open = open;
        t->open_cap = cap;
    }
    /* An empty cell is stored as "" so that a row set in column order stays
     * one run of texts; import_rows_get gives NULL for it. */
    char *copy = arena_strdup(t, value ? value : "");
    if (!copy)
        return false;
    t->text_bytes += strlen(copy) + 1;
    t->open[c] = copy;
    if ((size_t)c + 1 > t->open_cols)
        t->open_cols = (size_t)c + 1;
    return true;
}

bool import_rows_set_number(import_rows *t, const char *column, double value)
{
    char text[32];
    textout_shortest_number(text, sizeof text, value);
    return import_rows_set(t, column, text);
}

const char *import_rows_get(const import_rows *t, size_t r, const char *column)
{
    long c = column_index(t, column);
    if (c < 0 || r >= t->nrows)
        return NULL;
    const char *cell;
    if (r == t->nrows - 1) {
        cell = (size_t)c < t->open_cols ? t->open[c] : NULL;
    } else {
        if ((size_t)c >= t->nrow_cols[r])
            return NULL;
        cell = t->packed[r];
        for (long k = 0; k < c; k++)
            cell += strlen(cell) + 1;
    }
    return cell && *cell ? cell : NULL;
}

void import_rows_cells(const import_rows *t, size_t r, const char **cells)
{
    bool open = r == t->nrows - 1;
    size_t n = open ? t->open_cols : t->nrow_cols[r];
    const char *cell = open ? NULL : t->packed[r];
    for (size_t c = 0; c < t->ncols; c++) {
        const char *v = NULL;
        if (c < n) {
            v = open ? t->open[c] : cell;
            if (!open)
                cell += strlen(cell) + 1;
        }
        cells[c] = v && *v ? v : NULL;
    }
}

long import_rows_column(const import_rows *t, const char *name)
{
    return column_index(t, name);
}

size_t import_rows_text_bytes(const import_rows *t)
{
    return t->text_bytes;
}

bool import_rows_add_response(import_rows *t, const char *column)
{
    for (size_t i = 0; i < t->nresponses; i++)
        if (strcmp(t->responses[i], column) == 0)
            return true;
    return push_string(&t->responses, &t->nresponses, column);
}

bool import_rows_note(import_rows *t, const char *fmt, ...)
{
    /* Sized to the text: a note naming a long region is never cut. */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *line = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!line)
        return false;
    va_start(ap, fmt);
    vsnprintf(line, (size_t)n + 1, fmt, ap);
    va_end(ap);
    bool ok = true, known = false;
    for (size_t i = 0; i < t->nnotes && !known; i++)
        known = strcmp(t->notes[i], line) == 0;
    if (!known)
        ok = push_string(&t->notes, &t->nnotes, line);
    free(line);
    return ok;
}

bool import_rows_source(import_rows *t, const char *name)
{
    for (size_t i = 0; i < t->nsources; i++)
        if (strcmp(t->sources[i], name) == 0)
            return true;
    return push_string(&t->sources, &t->nsources, name);
}

const import_map *import_unknown_map(const import_request *req, const import_rows *t)
{
    for (size_t m = 0; m < req->nmaps; m++) {
        bool known = false;
        for (size_t i = 0; i < t->nsources && !known; i++)
            known = strcmp(t->sources[i], req->maps[m].from) == 0;
        if (!known)
            return &req->maps[m];
    }
    return NULL;
}

bool import_rows_unit(import_rows *t, const char *column, const char *unit, const char *file,
                      long line, long at, const import_unit **other)
{
    *other = NULL;
    for (size_t i = 0; i < t->nunits; i++)
        if (strcmp(t->units[i].column, column) == 0) {
            if (strcmp(t->units[i].unit, unit) != 0)
                *other = &t->units[i];
            return true;
        }
    import_unit u = {strdup(column), strdup(unit), strdup(file), line, at};
    import_unit *more = u.column && u.unit && u.file
                            ? realloc(t->units, (t->nunits + 1) * sizeof *more)
                            : NULL;
    if (!more) {
        free(u.column);
        free(u.unit);
        free(u.file);
        return false;
    }
    more[t->nunits++] = u;
    t->units = more;
    return true;
}

const char *import_mapped(const import_request *req, const char *name)
{
    for (size_t i = 0; i < req->nmaps; i++)
        if (strcmp(req->maps[i].from, name) == 0)
            return req->maps[i].to;
    return name;
}

double import_unitless_time(const import_request *req)
{
    return req->time_unit ? req->time_unit_seconds : 1;
}

char *import_identifier(const char *text)
{
    size_t n = strlen(text);
    char *out = malloc(n + 2);
    if (!out)
        return NULL;
    size_t k = 0;
    if (isdigit((unsigned char)text[0]))
        out[k++] = '_';
    for (const char *p = text; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (isalnum(ch) || ch == '_')
            out[k++] = (char)ch;
        else if (k > 0 && out[k - 1] != '_')
            out[k++] = '_';
    }
    while (k > 1 && out[k - 1] == '_')
        k--;
    if (k == 0)
        out[k++] = '_';
    out[k] = '\0';
    return out;
}

char *import_cluster_name(const char *system, const char *partition)
{
    size_t n = strlen(system) + (partition ? strlen(partition) : 0) + 2;
    char *out = malloc(n);
    if (!out)
        return NULL;
    snprintf(out, n, "%s%s%s", system, partition ? "-" : "", partition ? partition : "");
    for (char *p = out; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-')
            *p = '-';
    return out;
}

bool import_is_procs_name(const char *name)
{
    static const char *const names[] = {"p",      "np",        "nprocs",   "procs",
                                        "processes", "ranks",  "nranks",   "mpi_ranks",
                                        "tasks",  "ntasks",    "num_tasks", "num_procs",
                                        "mpi_tasks"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(name, names[i]) == 0)
            return true;
    return false;
}
