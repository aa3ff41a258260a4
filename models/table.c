/*
 * table.c — column-oriented storage for table.h.
 *
 * Columns grow together: every column always has row_cap slots, so adding a
 * row is one realloc per column and reading a cell is an index. Column
 * names are found through an open-addressing hash (linear probing), so a
 * file with tens of thousands of columns loads in linear time.
 */
#include "models/table.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void table_init(table *t)
{
    memset(t, 0, sizeof *t);
}

/* A block of text cells, NUL-terminated one after the other. */
struct table_block {
    struct table_block *next;
    size_t used, cap;
    char bytes[];
};

enum { BLOCK_BYTES = 256 * 1024 };

static void column_free(table_column *c)
{
    free(c->name);
    free(c->num);
    free(c->text);
}

/* A copy of the len bytes at s, NUL-terminated, in t's blocks; NULL when
 * out of memory. A string larger than a block gets a block of its own. */
static char *store_string(table *t, const char *s, size_t len)
{
    struct table_block *b = t->strings;
    if (!b || b->cap - b->used < len + 1) {
        size_t cap = len + 1 > BLOCK_BYTES ? len + 1 : BLOCK_BYTES;
        struct table_block *fresh = malloc(sizeof *fresh + cap);
        if (!fresh)
            return NULL;
        fresh->used = 0;
        fresh->cap = cap;
        /* A big string's own block goes second, so the current block keeps
         * filling. */
        if (b && cap > BLOCK_BYTES) {
            fresh->next = b->next;
            b->next = fresh;
        } else {
            fresh->next = b;
            t->strings = fresh;
        }
        b = fresh;
    }
    char *copy = b->bytes + b->used;
    if (len)
        memcpy(copy, s, len);
    copy[len] = '\0';
    b->used += len + 1;
    return copy;
}

/* ------------------------------------------------------------------ */
/* Interned texts (table.h: Memory)                                    */

/* FNV-1a of the len bytes at s. */
static uint64_t bytes_hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

/* The slot of the text s[0..len) among the interned: where it is, or the
 * free slot where it would go (the set is never more than half full). */
static size_t interned_slot(const table *t, const char *s, size_t len, uint64_t h)
{
    size_t mask = t->interned_cap - 1, i = (size_t)(h ^ h >> 29) & mask;
    for (const char *x; (x = t->interned[i]); i = (i + 1) & mask)
        if (memcmp(x, s, len) == 0 && x[len] == '\0')
            return i;
    return i;
}

/* Room for one more interned text; false when out of memory. */
static bool interned_reserve(table *t)
{
    if (2 * (t->ninterned + 1) <= t->interned_cap)
        return true;
    size_t old_cap = t->interned_cap, cap = old_cap ? 2 * old_cap : 64;
    char **old = t->interned, **fresh = calloc(cap, sizeof *fresh);
    if (!fresh)
        return false;
    t->interned = fresh;
    t->interned_cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i]) {
            size_t len = strlen(old[i]);
            t->interned[interned_slot(t, old[i], len, bytes_hash(old[i], len))] = old[i];
        }
    free(old);
    return true;
}

/* The table's copy of s[0..len): the interned one when there is one, else
 * a new one (interned while the set has room); NULL when out of memory. */
static char *store_text(table *t, const char *s, size_t len)
{
    if (len > TABLE_INTERNED_LEN)
        return store_string(t, s, len);
    uint64_t h = bytes_hash(s, len);
    size_t slot = t->interned_cap ? interned_slot(t, s, len, h) : 0;
    if (t->interned_cap && t->interned[slot])
        return t->interned[slot];
    char *copy = store_string(t, s, len);
    if (!copy || t->ninterned >= TABLE_INTERNED || !interned_reserve(t))
        return copy; /* not interned: a later equal text gets its own copy */
    t->interned[interned_slot(t, s, len, h)] = copy;
    t->ninterned++;
    return copy;
}

void table_free(table *t)
{
    for (size_t i = 0; i < t->ncols; i++)
        column_free(&t->cols[i]);
    while (t->strings) {
        struct table_block *next = t->strings->next;
        free(t->strings);
        t->strings = next;
    }
    free(t->cols);
    free(t->line);
    free(t->name_index);
    free(t->interned);
    table_init(t);
}

/* FNV-1a: short column names, no adversary that matters (a crafted header
 * can only make its own check slower, and probing stays linear). */
static size_t name_hash(const char *name)
{
    uint64_t h = 1469598103934665603u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    return (size_t)h;
}

/* The slot of name in the index: where it is, or the free slot where it
 * would go. The index always has a free slot (index_cap > 2 * ncols). */
static size_t index_slot(const table *t, const char *name)
{
    size_t mask = t->index_cap - 1, i = name_hash(name) & mask;
    while (t->name_index[i] && strcmp(t->cols[t->name_index[i] - 1].name, name) != 0)
        i = (i + 1) & mask;
    return i;
}

int table_find(const table *t, const char *name)
{
    if (t->index_cap == 0)
        return -1;
    size_t slot = t->name_index[index_slot(t, name)];
    return slot ? (int)(slot - 1) : -1;
}

/* Make room in the index and in cols for one more column. */
static bool reserve_column(table *t)
{
    if (t->ncols == t->col_cap) {
        size_t cap = t->col_cap ? t->col_cap * 2 : 8;
        table_column *cols = realloc(t->cols, cap * sizeof *cols);
        if (!cols)
            return false;
        t->cols = cols;
        t->col_cap = cap;
    }
    if (2 * (t->ncols + 1) < t->index_cap)
        return true;
    size_t cap = t->index_cap ? t->index_cap * 2 : 16;
    size_t *index = calloc(cap, sizeof *index);
    if (!index)
        return false;
    free(t->name_index);
    t->name_index = index;
    t->index_cap = cap;
    for (size_t c = 0; c < t->ncols; c++)
        t->name_index[index_slot(t, t->cols[c].name)] = c + 1;
    return true;
}

/* Allocate cap slots of storage for one column, all missing. */
static bool column_alloc(table_column *c, size_t cap)
{
    if (cap == 0)
        return true;
    if (c->kind == COL_NUMBER) {
        c->num = malloc(cap * sizeof *c->num);
        if (!c->num)
            return false;
        for (size_t i = 0; i < cap; i++)
            c->num[i] = NAN;
    } else {
        c->text = calloc(cap, sizeof *c->text);
        if (!c->text)
            return false;
    }
    return true;
}

int table_add_column(table *t, const char *name, column_kind kind)
{
    if (table_find(t, name) >= 0 || t->ncols >= INT_MAX || !reserve_column(t))
        return -1;
    table_column c = {.kind = kind};
    c.name = strdup(name);
    if (!c.name || !column_alloc(&c, t->row_cap)) {
        column_free(&c);
        return -1;
    }
    t->cols[t->ncols] = c;
    t->name_index[index_slot(t, name)] = t->ncols + 1;
    return (int)t->ncols++;
}

/* Grow every column to new_cap slots, new slots missing. */
static bool grow_rows(table *t, size_t new_cap)
{
    long *line = realloc(t->line, new_cap * sizeof *line);
    if (!line)
        return false;
    t->line = line;
    for (size_t i = 0; i < t->ncols; i++) {
        table_column *c = &t->cols[i];
        if (c->kind == COL_NUMBER) {
            double *num = realloc(c->num, new_cap * sizeof *num);
            if (!num)
                return false;
            for (size_t r = t->row_cap; r < new_cap; r++)
                num[r] = NAN;
            c->num = num;
        } else {
            char **text = realloc(c->text, new_cap * sizeof *text);
            if (!text)
                return false;
            memset(text + t->row_cap, 0, (new_cap - t->row_cap) * sizeof *text);
            c->text = text;
        }
    }
    t->row_cap = new_cap;
    return true;
}

bool table_reserve_rows(table *t, size_t nrows)
{
    return nrows <= t->row_cap || grow_rows(t, nrows);
}

long table_add_row(table *t, long source_line)
{
    if (t->nrows == t->row_cap && !grow_rows(t, t->row_cap ? t->row_cap * 2 : 16))
        return -1;
    t->line[t->nrows] = source_line;
    return (long)t->nrows++;
}

bool table_set_number(table *t, size_t row, size_t col, double v)
{
    if (row >= t->nrows || col >= t->ncols || t->cols[col].kind != COL_NUMBER)
        return false;
    t->cols[col].num[row] = v;
    return true;
}

bool table_set_text_n(table *t, size_t row, size_t col, const char *s, size_t len)
{
    if (row >= t->nrows || col >= t->ncols || t->cols[col].kind != COL_TEXT)
        return false;
    char *copy = NULL;
    if (s && !(copy = store_text(t, s, len)))
        return false;
    t->cols[col].text[row] = copy;
    return true;
}

bool table_set_text(table *t, size_t row, size_t col, const char *s)
{
    return table_set_text_n(t, row, col, s, s ? strlen(s) : 0);
}

double table_number(const table *t, size_t row, size_t col)
{
    if (row >= t->nrows || col >= t->ncols || t->cols[col].kind != COL_NUMBER)
        return NAN;
    return t->cols[col].num[row];
}

const char *table_text(const table *t, size_t row, size_t col)
{
    if (row >= t->nrows || col >= t->ncols || t->cols[col].kind != COL_TEXT)
        return NULL;
    return t->cols[col].text[row];
}

double table_number_named(const table *t, size_t row, const char *name)
{
    int c = table_find(t, name);
    return c < 0 ? NAN : table_number(t, row, (size_t)c);
}

const char *table_text_named(const table *t, size_t row, const char *name)
{
    int c = table_find(t, name);
    return c < 0 ? NULL : table_text(t, row, (size_t)c);
}

bool table_same_cells(const table_column *c, size_t a, size_t b)
{
    if (c->kind == COL_NUMBER)
        return c->num[a] == c->num[b] || (isnan(c->num[a]) && isnan(c->num[b]));
    const char *x = c->text[a], *y = c->text[b];
    return x == y || (x && y && strcmp(x, y) == 0);
}

bool table_select_rows(const table *src, const size_t *rows, size_t nrows, table *dst)
{
    table_init(dst);
    for (size_t c = 0; c < src->ncols; c++)
        if (table_add_column(dst, src->cols[c].name, src->cols[c].kind) < 0)
            goto fail;
        else
            dst->cols[dst->ncols - 1].result = src->cols[c].result;
    for (size_t i = 0; i < nrows; i++) {
        size_t r = rows[i];
        long nr = table_add_row(dst, r < src->nrows ? src->line[r] : 0);
        if (nr < 0 || r >= src->nrows)
            goto fail;
        for (size_t c = 0; c < src->ncols; c++) {
            bool ok = src->cols[c].kind == COL_NUMBER
                ? table_set_number(dst, (size_t)nr, c, src->cols[c].num[r])
                : table_set_text(dst, (size_t)nr, c, src->cols[c].text[r]);
            if (!ok)
                goto fail;
        }
    }
    return true;
fail:
    table_free(dst);
    return false;
}
