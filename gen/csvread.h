/*
 * csvread.h — reads one CSV file (RFC 4180, via libcsv) into rows of fields
 * that remember where they came from.
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
 * csv_doc_free, in every case.
 */
#ifndef PERFCAST_CSVREAD_H
#define PERFCAST_CSVREAD_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/diag.h"

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
} csv_doc;

/* The longest line accepted: 16 MiB (archive/README.md). */
#define CSV_MAX_LINE_BYTES ((size_t)16 << 20)

/* Read and parse path. Returns false (and records why in diags, naming
 * the file as display_name) when the file is unusable as a whole. */
bool csv_read_file(const char *path, const char *display_name, csv_doc *doc, diag_list *diags);

/* csv_read_file for a file of an archive: path must also resolve inside
 * the folder root (no symbolic link out of the archive). */
bool csv_read_file_inside(const char *root, const char *path, const char *display_name,
                          csv_doc *doc, diag_list *diags);

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
