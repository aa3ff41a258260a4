/*
 * csvread.c — libcsv driven one byte at a time.
 *
 * libcsv reports fields and rows but not where they are. Feeding it a byte
 * at a time lets us know the exact offset at which each callback fires, and
 * so the line and column of every field, which every error message needs.
 * Archives are small (kilobytes to a few megabytes), so the extra calls cost
 * nothing that matters.
 */
#include "gen/csvread.h"
#include "gen/fileio.h"

#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct {
    csv_doc *doc;
    csv_row row;          /* the row being assembled */
    size_t row_cap;
    long line, column;    /* position of the next byte to feed */
    long field_line, field_column; /* where the current field started */
    bool field_started;   /* a byte of the current field has been seen */
    bool field_quoted;    /* ... and that byte was a '"' */
    bool oom;
} reader;

static void row_free(csv_row *row)
{
    for (size_t i = 0; i < row->nfields; i++)
        free(row->fields[i].text);
    free(row->fields);
    memset(row, 0, sizeof *row);
}

void csv_doc_free(csv_doc *doc)
{
    for (size_t i = 0; i < doc->nrows; i++)
        row_free(&doc->rows[i]);
    free(doc->rows);
    memset(doc, 0, sizeof *doc);
}

static void on_field(void *data, size_t len, void *ctx)
{
    reader *r = ctx;
    if (r->oom)
        return;
    if (r->row.nfields == r->row_cap) {
        size_t cap = r->row_cap ? r->row_cap * 2 : 16;
        csv_field *f = realloc(r->row.fields, cap * sizeof *f);
        if (!f) {
            r->oom = true;
            return;
        }
        r->row.fields = f;
        r->row_cap = cap;
    }
    char *text = malloc(len + 1);
    if (!text) {
        r->oom = true;
        return;
    }
    if (len)
        memcpy(text, data, len);
    text[len] = '\0';
    if (r->row.nfields == 0)
        r->row.line = r->field_line;
    r->row.fields[r->row.nfields++] =
        (csv_field){text, r->field_line, r->field_column, r->field_quoted};
    r->field_quoted = false;
    r->field_started = false;
}

static void on_row(int terminator, void *ctx)
{
    reader *r = ctx;
    (void)terminator;
    r->field_started = false;
    if (r->oom)
        return;
    csv_doc *doc = r->doc;
    csv_row *rows = realloc(doc->rows, (doc->nrows + 1) * sizeof *rows);
    if (!rows) {
        r->oom = true;
        row_free(&r->row);
        return;
    }
    doc->rows = rows;
    r->row.end_column = r->column;
    doc->rows[doc->nrows++] = r->row;
    memset(&r->row, 0, sizeof r->row);
    r->row_cap = 0;
}

/* Advance the position past one byte. Continuation bytes of a UTF-8
 * sequence do not move the column: columns count characters. */
static void advance(reader *r, unsigned char c)
{
    if (c == '\n') {
        r->line++;
        r->column = 1;
    } else if ((c & 0xC0) != 0x80) {
        r->column++;
    }
}

size_t csv_utf8_invalid_at(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        size_t n;
        unsigned min;
        if (c < 0x80) { i++; continue; }
        else if ((c & 0xE0) == 0xC0) { n = 1; min = 0x80; }
        else if ((c & 0xF0) == 0xE0) { n = 2; min = 0x800; }
        else if ((c & 0xF8) == 0xF0) { n = 3; min = 0x10000; }
        else return i;
        unsigned cp = c & (0x3F >> n);
        for (size_t k = 1; k <= n; k++) {
            if (i + k >= len || (s[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        /* Overlong forms, UTF-16 surrogates and values past U+10FFFF. */
        if (cp < min || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
            return i;
        i += n + 1;
    }
    return len;
}

/* Line and column of byte offset off in data. */
static void position_of(const char *data, size_t off, long *line, long *column)
{
    reader r = {.line = 1, .column = 1};
    for (size_t i = 0; i < off; i++)
        advance(&r, (unsigned char)data[i]);
    *line = r.line;
    *column = r.column;
}

static bool feed(struct csv_parser *p, reader *r, const char *data, size_t len,
                 const char *name, diag_list *diags)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)data[i];
        /* A field starts at its first byte that is not a delimiter or line end. */
        if (!r->field_started && c != ',' && c != '\n' && c != '\r') {
            r->field_started = true;
            r->field_quoted = c == '"';
            r->field_line = r->line;
            r->field_column = r->column;
        }
        if (csv_parse(p, data + i, 1, on_field, on_row, r) != 1) {
            int code = csv_error(p);
            if (code == CSV_EPARSE)
                diag_add(diags, name, r->line, r->column,
                         "malformed quoting: found '%c' %s", c,
                         c == '"' ? "inside an unquoted field (quote the whole field and double the quote)"
                                  : "after a closing quote (expected ',' or end of line)");
            else
                diag_add(diags, name, r->line, r->column, "%s", csv_strerror(code));
            return false;
        }
        if (r->oom) {
            diag_add(diags, name, r->line, r->column, "out of memory");
            return false;
        }
        /* Position of the next field: after the delimiter just consumed. */
        advance(r, c);
        if (c == ',' || c == '\n' || c == '\r')
            if (!r->field_started) {
                r->field_line = r->line;
                r->field_column = r->column;
            }
    }
    return true;
}

/* True when data holds nothing but spaces and line ends (data need not be
 * NUL-terminated). */
static bool only_blank(const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isspace((unsigned char)data[i]))
            return false;
    return true;
}

/* Offset of the first byte past CSV_MAX_LINE_BYTES in a line, or len. */
static size_t long_line_at(const char *data, size_t len)
{
    size_t start = 0;
    while (start < len) {
        const char *nl = memchr(data + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - data) : len;
        if (end - start > CSV_MAX_LINE_BYTES)
            return start + CSV_MAX_LINE_BYTES;
        start = end + 1;
    }
    return len;
}

/* Report the first byte that makes data unusable as CSV text: invalid
 * UTF-8, a NUL byte or an over-long line. True when there is none. */
static bool check_text(const char *data, size_t len, const char *name, diag_list *diags)
{
    size_t bad = csv_utf8_invalid_at(data, len);
    const char *nul = memchr(data, '\0', bad);
    size_t at = nul ? (size_t)(nul - data) : bad;
    size_t long_at = long_line_at(data, at);
    bool too_long = long_at < at;
    if (too_long)
        at = long_at;
    if (at == len)
        return true;
    long line, column;
    position_of(data, at, &line, &column);
    if (too_long)
        diag_add(diags, name, line, column,
                 "line longer than %zu bytes, the most perfcast reads (see archive/README.md)",
                 CSV_MAX_LINE_BYTES);
    else if (data[at] == '\0')
        diag_add(diags, name, line, column,
                 "NUL byte (0x00) in the text (expected UTF-8 text without NUL bytes)");
    else
        diag_add(diags, name, line, column, "invalid UTF-8 (byte 0x%02x); save the file as UTF-8",
                 (unsigned char)data[at]);
    return false;
}

bool csv_parse_buffer(const char *data, size_t len, const char *name,
                      csv_doc *doc, diag_list *diags)
{
    memset(doc, 0, sizeof *doc);
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        data += 3; /* byte-order mark; positions count from after it */
        len -= 3;
    }
    if (!check_text(data, len, name, diags))
        return false;
    if (only_blank(data, len)) {
        diag_add(diags, name, 0, 0, "the file is empty (expected a header line)");
        return false;
    }
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
        diag_add(diags, name, 0, 0, "out of memory");
        return false;
    }
    reader r = {.doc = doc, .line = 1, .column = 1, .field_line = 1, .field_column = 1};
    bool ok = feed(&p, &r, data, len, name, diags);
    if (ok && csv_fini(&p, on_field, on_row, &r) != 0) {
        diag_add(diags, name, r.field_line, r.field_column,
                 "unterminated quoted field (expected a closing '\"' before the end of the file)");
        ok = false;
    }
    if (ok && r.oom) {
        diag_add(diags, name, r.line, r.column, "out of memory");
        ok = false;
    }
    csv_free(&p);
    row_free(&r.row);
    return ok;
}

bool csv_read_file_inside(const char *root, const char *path, const char *name,
                          csv_doc *doc, diag_list *diags)
{
    memset(doc, 0, sizeof *doc);
    size_t len;
    char *buf;
    fileio_status status = fileio_read_inside(root, path, FILEIO_MAX_BYTES, &buf, &len);
    if (status != FILEIO_OK) {
        diag_add(diags, name, 0, 0, "cannot read: %s", fileio_status_text(status, errno));
        return false;
    }
    bool ok = csv_parse_buffer(buf, len, name, doc, diags);
    free(buf);
    return ok;
}

bool csv_read_file(const char *path, const char *name, csv_doc *doc, diag_list *diags)
{
    return csv_read_file_inside(NULL, path, name, doc, diags);
}

bool csv_parse_number(const char *text, double *out, const char **why)
{
    while (isspace((unsigned char)*text))
        text++;
    const char *s = text;
    if (*s == '+' || *s == '-')
        s++;
    /* Only digits may start a number: strtod would take "inf", "nan", hex. */
    if (!isdigit((unsigned char)s[0]) && !(s[0] == '.' && isdigit((unsigned char)s[1]))) {
        bool special = strncasecmp(s, "inf", 3) == 0 || strncasecmp(s, "nan", 3) == 0;
        *why = special ? "not a finite number" : "not a number";
        return false;
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        *why = "not a number";
        return false;
    }
    char *end;
    double v = strtod(text, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0') {
        *why = "not a number";
        return false;
    }
    if (!isfinite(v)) { /* overflow to infinity; underflow to 0 is fine */
        *why = "not a finite number";
        return false;
    }
    *out = v;
    return true;
}
