/*
 * schema.h — turns a parsed CSV document into a typed table, checking every
 * cell against the rule of its column.
 *
 * Each known column has a rule (text, number, positive integer, date, ...);
 * columns not listed get a default rule from their name (see
 * schema_default_rule). Problems go to a diag_list with the cell's position;
 * a row with a problem is left out of the table, the others are kept, so one
 * pass reports every problem of the file.
 *
 * Ownership: schema_load_table fills a table the caller frees (table_free).
 */
#ifndef PERFCAST_SCHEMA_H
#define PERFCAST_SCHEMA_H

#include <stdbool.h>
#include "gen/base/csvread.h"
#include "gen/base/diag.h"
#include "models/table.h"

typedef enum {
    RULE_TEXT,        /* any text */
    RULE_NUMBER,      /* any finite number */
    RULE_POSITIVE,    /* number > 0 */
    RULE_NONNEGATIVE, /* number >= 0 */
    RULE_COUNT,       /* integer >= 1 */
    RULE_INDEX,       /* integer >= 0 */
    RULE_DATE,        /* text YYYY-MM-DD */
} value_rule;

typedef struct {
    const char *name;
    value_rule rule;
    bool required_column; /* the header must have it */
    bool required_value;  /* every row must fill it */
    const char *meaning;  /* one line for --help and messages */
} column_spec;

typedef struct {
    const char *file;          /* display name for messages */
    const column_spec *specs;  /* known columns, terminated by {NULL} */
    bool allow_unknown;        /* keep unknown columns (else: error) */
    bool allow_no_rows;        /* a header without rows is fine (else: error) */
    /* Optional extra check of a text cell (e.g. "is this cluster known?").
     * Returns NULL when fine, or a message. */
    const char *(*check_text)(void *ctx, const char *column, const char *value);
    /* Optional check of a whole row once its cells are stored (values that
     * need one another, e.g. a ping-pong row's link columns). Returns NULL
     * when fine, or a message with *column naming the cell to point at
     * (NULL or a column absent from the header: the row's first cell); the
     * row is then left out like any row with a problem. */
    const char *(*check_row)(void *ctx, const table *t, size_t row, const char **column);
    void *check_ctx;
} schema;

/* Rule for a column not in the spec list: time_*_s components are
 * non-negative, published_* numbers non-negative, tag_* text, else number. */
value_rule schema_default_rule(const char *column);

/* True for columns holding text rather than numbers under rule. */
bool schema_rule_is_text(value_rule rule);

/* Build the table. Returns false when the header itself is unusable
 * (nothing loaded); row problems are reported and those rows skipped, so
 * compare diags->count before and after to know whether all was well. */
bool schema_load_table(const csv_doc *doc, const schema *s, table *out, diag_list *diags);

/* An optional file `name` at the top of the archive folder dir (advice.csv,
 * acknowledgements.csv): read (never through a link out of dir) and typed
 * by specs, unknown columns refused, a header alone fine. True with doc
 * and out filled when the file is there and its header usable (row
 * problems go to diags as schema_load_table says); false when it is
 * absent or unreadable (diags then says why). *path receives the file's
 * path either way (NULL only when out of memory). The caller frees doc,
 * out and *path in every case. */
bool schema_load_optional(const char *dir, const char *name, const column_spec *specs,
                          char **path, csv_doc *doc, table *out, diag_list *diags);

/* The column of the cell under header `name` on the row of doc that starts
 * at `line` (past its opening quote when quoted), for messages about a
 * value the table holds; 1 when there is no such cell. */
long schema_cell_column(const csv_doc *doc, long line, const char *name);

/* schema_load_table fed row by row, for csv_read_rows: init, pass
 * schema_stream_row as the csv_row_fn with the stream as its ctx, then
 * schema_stream_finish (which returns what schema_load_table would). The
 * stream's fields are private to schema.c. */
typedef struct {
    int *table_col;            /* per header field: table column, -1 = skipped */
    value_rule *rule;
    const column_spec **spec;
    size_t n;
} schema_layout;

typedef struct {
    const schema *s;
    table *out;
    diag_list *diags;
    schema_layout layout;
    size_t nrows;              /* rows seen, header included */
    long header_line;
    bool header_ok;
} schema_stream;

void schema_stream_init(schema_stream *st, const schema *s, table *out, diag_list *diags);
bool schema_stream_row(void *stream, const csv_row *row);
/* A csv_lines_fn: makes room in the table for the rows to come. */
void schema_stream_lines(void *stream, size_t lines);
bool schema_stream_finish(schema_stream *st);

/* Instead of finish, when the file turned out unusable: frees the layout
 * and the table, reports nothing more. */
void schema_stream_discard(schema_stream *st);

#endif
