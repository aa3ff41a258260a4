/*
 * text_table.h — tables for people on a terminal: cells in aligned
 * columns (widths counted in characters, not bytes: "—" and "×" are one),
 * two spaces apart, text left and numbers right. Long texts do not belong
 * in a cell: callers put them in numbered notes under the table.
 *
 * Ownership: text_table_init fills a table the caller releases with
 * text_table_free; cells are copied.
 */
#ifndef PERFCAST_TEXT_TABLE_H
#define PERFCAST_TEXT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    size_t ncols;
    bool *right;     /* per column: aligned right (numbers) */
    char **cells;    /* row-major, the header row first */
    size_t n, cap;
    bool oom;
} text_table;

/* A table of ncols columns; right[c] aligns column c right (NULL: all left). */
void text_table_init(text_table *t, size_t ncols, const bool *right);

/* Append the next cell (rows fill left to right; the first row is the
 * header). NULL is an empty cell. */
void text_table_cell(text_table *t, const char *text);

/* Print the table; false when memory ran out while it was filled. */
bool text_table_print(const text_table *t, FILE *out);

void text_table_free(text_table *t);

#endif
