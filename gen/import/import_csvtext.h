/*
 * import_csvtext.h — a small archive CSV file (clusters.csv,
 * experiments.csv) as text cells, for an import to extend and write back
 * whole: the old rows keep every cell as it was, new columns come last and
 * are empty in old rows. (runs.csv, which may hold millions of rows, is
 * merged as a stream: gen/import/import_write.c.)
 *
 * Ownership: csv_text_load fills a csv_text the caller releases with
 * csv_text_free (also after a failed load); rows added with
 * csv_text_add_row are taken over. csv_text_serialize appends to the
 * caller's rbuf.
 */
#ifndef PERFCAST_IMPORT_CSVTEXT_H
#define PERFCAST_IMPORT_CSVTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/base/diag.h"
#include "render/buf.h"

typedef struct {
    bool exists;
    char **header;
    size_t ncols;
    char ***rows;   /* rows[r][c], "" when empty; every row has ncols cells */
    size_t nrows;
    size_t cap;
} csv_text;

/* Load path when it exists (a missing file is an empty csv_text); a file
 * that exists but does not parse is a problem: an import never rewrites a
 * file it cannot read. */
bool csv_text_load(const char *path, csv_text *out, diag_list *diags);
void csv_text_free(csv_text *t);

/* The column called name, or -1. */
long csv_text_column(const csv_text *t, const char *name);

/* Add a column at the end unless there is one called name; old rows get
 * an empty cell in it. False when out of memory. */
bool csv_text_add_column(csv_text *t, const char *name);

/* Append a row of ncols cells (taken over, also on failure). False when
 * out of memory. */
bool csv_text_add_row(csv_text *t, char **cells);

/* One row of n cells as a CSV line: RFC 4180 quoting (only where a cell
 * holds a comma, quote, CR or LF), LF end. False when out of memory. */
bool csv_text_put_row(rbuf *out, const char *const *cells, size_t n);

/* The whole file: header, then every row, RFC 4180 quoting, LF ends. */
bool csv_text_serialize(const csv_text *t, rbuf *out);

/* A row of ncols copies of "" (a template to fill); NULL when out of memory. */
char **csv_text_blank_row(size_t ncols);

/* Replace cell c of row (owned by the caller) with a copy of value. */
bool csv_text_set_cell(char **row, size_t c, const char *value);

void csv_text_free_row(char **row, size_t ncols);

#endif
