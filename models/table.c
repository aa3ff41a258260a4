/*
 * table.c — column-oriented storage for table.h.
 *
 * Columns grow together: every column always has row_cap slots, so adding a
 * row is one realloc per column and reading a cell is an index.
 */
#include "models/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void table_init(table *t)
{
    memset(t, 0, sizeof *t);
}

static void column_free(table_column *c, size_t nrows)
{
    free(c->name);
    free(c->num);
    if (c->text)
        for (size_t r = 0; r < nrows; r++)
            free(c->text[r]);
    free(c->text);
}

void table_free(table *t)
{
    for (size_t i = 0; i < t->ncols; i++)
        column_free(&t->cols[i], t->nrows);
    free(t->cols);
    free(t->line);
    table_init(t);
}

int table_find(const table *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (strcmp(t->cols[i].name, name) == 0)
            return (int)i;
    return -1;
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
    if (table_find(t, name) >= 0)
        return -1;
    table_column *cols = realloc(t->cols, (t->ncols + 1) * sizeof *cols);
    if (!cols)
        return -1;
    t->cols = cols;
    table_column c = {.kind = kind};
    c.name = strdup(name);
    if (!c.name || !column_alloc(&c, t->row_cap)) {
        column_free(&c, 0);
        return -1;
    }
    t->cols[t->ncols] = c;
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

bool table_set_text(table *t, size_t row, size_t col, const char *s)
{
    if (row >= t->nrows || col >= t->ncols || t->cols[col].kind != COL_TEXT)
        return false;
    char *copy = NULL;
    if (s && !(copy = strdup(s)))
        return false;
    free(t->cols[col].text[row]);
    t->cols[col].text[row] = copy;
    return true;
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
