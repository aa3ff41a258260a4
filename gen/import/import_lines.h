/*
 * import_lines.h — the text files importers read, as lines of fields that
 * remember where they are (for FILE:LINE:COL messages).
 *
 * A file is split into lines (LF or CRLF); a line into fields by a
 * separator character ('|' for ReFrame and sacct, ' ' runs for Extra-P).
 * Columns count characters (UTF-8 code points) from 1. Fields are trimmed
 * of surrounding spaces and tabs; the column is that of the first kept
 * character.
 *
 * Ownership: import_text_read fills an import_text the caller releases
 * with import_text_free; every string inside belongs to it.
 */
#ifndef PERFCAST_IMPORT_LINES_H
#define PERFCAST_IMPORT_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/base/diag.h"

typedef struct {
    char *text;   /* trimmed, NUL-terminated */
    long column;
} import_field;

typedef struct {
    char *text;   /* the whole line without its line end */
    long line;
    import_field *fields;
    size_t nfields;
} import_line;

typedef struct {
    import_line *lines; /* blank lines are left out */
    size_t nlines;
} import_text;

/* Read path and split it. sep is the field separator; ' ' means any run of
 * spaces and tabs (and no empty fields). Problems (unreadable file,
 * invalid UTF-8, empty file) are recorded against display; then false is
 * returned and *out is left empty (nothing to free). */
bool import_text_read(const char *path, const char *display, char sep, import_text *out,
                      diag_list *diags);

/* Split one line of text (no line end) the same way; false when out of memory. */
bool import_text_split(const char *text, long line, char sep, import_line *out);

void import_text_free(import_text *t);

/* Whether path (shown as display) ends as a complete file: empty, or its
 * last byte a line end, or a JSON document (first non-blank byte '{' or
 * '['), whose parser catches a cut itself. A text file whose last line has
 * no line end may have been cut while it was written ("1.94292e+06" read
 * as "1.944"): that is recorded at the end of the last line and false is
 * returned, unless allow is set. An unreadable file is left to the reader
 * (true). */
bool import_file_complete(const char *path, const char *display, bool allow, diag_list *diags);

/* Parse a whole field as a finite number; false when it is not one. */
bool import_number(const char *text, double *out);

#endif
