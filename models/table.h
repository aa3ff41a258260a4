/*
 * table.h — an in-memory table of named columns, the common currency between
 * archive ingest (gen/), the models (models/) and the renderers (render/).
 *
 * A column is either numeric or text. A missing numeric value is NAN (ingest
 * rejects NaN and infinities in the input, so NAN can only mean "missing");
 * a missing text value is NULL. Each row remembers the line of the file it
 * came from, so later stages can point at the source of a problem.
 *
 * Ownership: a table owns its column names, its cells and its strings.
 * table_free() releases everything. Pointers returned by the accessors stay
 * valid until the table is modified or freed. No function here does I/O.
 *
 * Memory: text cells are copied into large blocks owned by the table (no
 * malloc per cell), so a table holds about its text, 8 bytes per cell and
 * 8 bytes per row; a value replaced in place keeps its old bytes until
 * table_free. Short texts are stored once per table (interned: the first
 * TABLE_INTERNED distinct ones of up to TABLE_INTERNED_LEN bytes), so a
 * column that repeats a few values (cluster, code, date) costs 8 bytes a
 * cell; cells with the same text may then share one pointer, which is why
 * a cell's text must never be written through.
 */
#ifndef PERFCAST_TABLE_H
#define PERFCAST_TABLE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { COL_NUMBER, COL_TEXT } column_kind;

typedef struct {
    char *name;
    column_kind kind;
    double *num;  /* nrows values when kind == COL_NUMBER; NAN = missing */
    char **text;  /* nrows strings when kind == COL_TEXT; NULL = missing */
    bool result;  /* a measured result the caller named (an experiment's
                     response): never part of what identifies a row */
} table_column;

typedef struct {
    size_t ncols;
    size_t nrows;
    size_t row_cap;
    table_column *cols;
    long *line;   /* source line of each row, or 0 when the row was built in memory */
    size_t col_cap;     /* slots in cols */
    size_t *name_index; /* hash of the column names: column + 1, 0 = free slot */
    size_t index_cap;   /* slots in name_index, a power of two > 2 * ncols */
    struct table_block *strings; /* where text cells live (newest block first) */
    char **interned;     /* texts stored once: open addressing, NULL = free slot */
    size_t interned_cap; /* slots in interned, a power of two (0: none yet) */
    size_t ninterned;
} table;

#define TABLE_INTERNED 4096
#define TABLE_INTERNED_LEN 64

/* Initialise an empty table (no columns, no rows). */
void table_init(table *t);

/* Release everything the table owns; the table is left empty and reusable. */
void table_free(table *t);

/* Add a column; every existing row gets a missing value in it.
 * Returns the new column's index, or -1 when out of memory or the name exists. */
int table_add_column(table *t, const char *name, column_kind kind);

/* Index of the column called name, or -1. Constant time (hashed), so a
 * header of many columns is checked in linear time. */
int table_find(const table *t, const char *name);

/* Make room for nrows rows in all (a reader that knows how many rows are
 * coming spares the table its growing copies); false when out of memory. */
bool table_reserve_rows(table *t, size_t nrows);

/* Append a row of missing values; returns its index, or -1 when out of memory. */
long table_add_row(table *t, long source_line);

/* Set a cell. table_set_text copies s (NULL stores "missing").
 * Both return false when out of memory or on a kind mismatch. */
bool table_set_number(table *t, size_t row, size_t col, double v);
bool table_set_text(table *t, size_t row, size_t col, const char *s);

/* table_set_text of the len bytes at s (which need not end in a NUL). */
bool table_set_text_n(table *t, size_t row, size_t col, const char *s, size_t len);

/* Read a cell; NAN / NULL when missing or when the kind does not match. */
double table_number(const table *t, size_t row, size_t col);
const char *table_text(const table *t, size_t row, size_t col);

/* The cell of row in the column called name; NAN / NULL when the column is
 * absent, or as table_number / table_text. For reading a few named cells;
 * a loop over many rows should call table_find once. */
double table_number_named(const table *t, size_t row, const char *name);
const char *table_text_named(const table *t, size_t row, const char *name);

/* Whether rows a and b hold the same value in column c (two missing
 * values are the same; text compares by content). */
bool table_same_cells(const table_column *c, size_t a, size_t b);

/* Copy of the rows whose indices are listed, all columns kept.
 * Returns false when out of memory (dst is then left empty). dst must be
 * initialised or freed; the caller owns the result. */
bool table_select_rows(const table *src, const size_t *rows, size_t nrows, table *dst);

#endif
