/*
 * csvread.h — reads one CSV file (RFC 4180, via libcsv) into rows of fields
 * that remember where they came from: all at once (csv_doc) or streamed
 * row by row (csv_read_rows) for files too large to hold twice.
 *
 * Accepted: quoted fields with doubled quotes and embedded newlines, CRLF or
 * LF line ends, a UTF-8 byte-order mark, blank lines (skipped), fields of any
 * size up to the line limit. Rejected with a positioned problem: an empty
 * file, invalid UTF-8, a NUL byte (C strings would cut the field short
 * there), a line longer than CSV_MAX_LINE_BYTES, an unterminated quote, a
 * quote inside an unquoted field, text after a closing quote. Files are
 * read as fileio.h reads them: regular files of at most FILEIO_MAX_BYTES.
 * Column numbers count characters (UTF-8 code points), from 1.
 *
 * Ownership: csv_read_file fills a csv_doc the caller frees with
 * csv_doc_free, in every case. A row handed to a csv_row_fn is borrowed
 * for the duration of the call.
 */
#ifndef PERFCAST_CSVREAD_H
#define PERFCAST_CSVREAD_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/base/diag.h"

typedef struct {
    char *text;   /* NUL-terminated; "" for an empty field */
    long line;    /* where the field starts */
    long column;
    bool quoted;  /* the field was written in quotes (its text starts one column later) */
} csv_field;

typedef struct {
    csv_field *fields;
    size_t nfields;
    long line;    /* line where the row starts */
    long end_column; /* column just past the row's last character */
} csv_row;

typedef struct {
    csv_row *rows;  /* rows[0] is the header when nrows > 0 */
    size_t nrows;
    size_t row_cap; /* slots in rows */
} csv_doc;

/* Called with each row in turn (the header first). The row and its texts
 * are valid only during the call. Returns false to stop reading, after
 * reporting why (out of memory). */
typedef bool (*csv_row_fn)(void *ctx, const csv_row *row);

/* Told, before the first row, how many lines the file has: at least the
 * number of rows to come (the header included). */
typedef void (*csv_lines_fn)(void *ctx, size_t lines);

/* The longest line accepted: 16 MiB (archive/README.md). */
#define CSV_MAX_LINE_BYTES ((size_t)16 << 20)

/* Read and parse path. Returns false (and records why in diags, naming
 * the file as display_name) when the file is unusable as a whole. */
bool csv_read_file(const char *path, const char *display_name, csv_doc *doc, diag_list *diags);

/* csv_read_file for a file of an archive: path must also resolve inside
 * the folder root (no symbolic link out of the archive). */
bool csv_read_file_inside(const char *root, const char *path, const char *display_name,
                          csv_doc *doc, diag_list *diags);

/* Stream path (checked as csv_read_file_inside checks it) to fn, row by
 * row, in memory that does not grow with the file: for large files.
 * lines (may be NULL) is called first with the file's line count. No
 * row is handed over from a file that is not text (invalid UTF-8, a NUL
 * byte, an over-long line). Returns false when the file is unusable, a
 * row is malformed (rows before it were handed over) or fn stopped. */
bool csv_read_rows(const char *root, const char *path, const char *display_name,
                   csv_lines_fn lines, csv_row_fn fn, void *ctx, diag_list *diags);

/* csv_read_rows of an in-memory buffer. */
bool csv_parse_rows(const char *data, size_t len, const char *display_name, csv_row_fn fn,
                    void *ctx, diag_list *diags);

/* Parse an in-memory buffer the same way (used by tests and by
 * csv_read_file). */
bool csv_parse_buffer(const char *data, size_t len, const char *display_name,
                      csv_doc *doc, diag_list *diags);

void csv_doc_free(csv_doc *doc);

/* Parse a number cell: surrounding spaces allowed, decimal or exponent
 * notation, nothing else. Returns false with a short reason ("not a number",
 * "not a finite number") in *why. */
bool csv_parse_number(const char *text, double *out, const char **why);

/* Byte offset of the first invalid UTF-8 sequence in data, or len if valid. */
size_t csv_utf8_invalid_at(const char *data, size_t len);

#endif
