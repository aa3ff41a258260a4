/*
 * csvread.c — libcsv with positions, streamed.
 *
 * libcsv reports fields and rows but not where they are. Its callbacks
 * fire only on a delimiter, a line end or a quote's consequences, so we
 * feed it those bytes one at a time (and know the exact position at which
 * each callback fires) and every run of ordinary bytes between them in one
 * call. That keeps the line and column of every field, which every error
 * message needs, at a small cost per field rather than per byte.
 *
 * A file is read twice, in chunks, never whole: first to check that it is
 * text (UTF-8, no NUL byte, no line over the limit; the first problem is
 * reported with its position), then to parse it, handing each row to a
 * callback. So no row reaches the caller from a file that is not text, and
 * memory does not grow with the file. A row's fields live in one buffer
 * reused from row to row (no allocation per field).
 */
#include "gen/base/csvread.h"
#include "gen/base/fileio.h"
#include "gen/base/growth.h"

#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum { CHUNK_BYTES = 1 << 20 };

/* ------------------------------------------------------------------ */
/* Is it text?                                                         */

typedef struct {
    long line, column;       /* position of the next byte */
    size_t line_bytes;       /* bytes of the current line so far */
    unsigned need;           /* UTF-8 continuation bytes still expected */
    unsigned cp, min;        /* the code point so far, its least valid value */
    long lead_line, lead_column; /* where the current sequence started */
    unsigned char lead;
    bool any_text;           /* a byte other than white space was seen */
} text_check;

static bool bad_utf8(const text_check *k, const char *name, diag_list *d)
{
    diag_add(d, name, k->lead_line, k->lead_column,
             "invalid UTF-8 (byte 0x%02x); save the file as UTF-8", k->lead);
    return false;
}

/* Start of a UTF-8 sequence at byte c (>= 0x80); false when no sequence
 * starts with c. */
static bool start_sequence(text_check *k, unsigned char c)
{
    k->lead = c;
    k->lead_line = k->line;
    k->lead_column = k->column;
    if ((c & 0xE0) == 0xC0) { k->need = 1; k->min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { k->need = 2; k->min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { k->need = 3; k->min = 0x10000; }
    else return false;
    k->cp = c & (0x3F >> k->need);
    return true;
}

/* Overlong forms, UTF-16 surrogates and values past U+10FFFF. */
static bool code_point_valid(unsigned cp, unsigned min)
{
    return cp >= min && !(cp >= 0xD800 && cp <= 0xDFFF) && cp <= 0x10FFFF;
}

static bool has_zero_byte(uint64_t v)
{
    return ((v - 0x0101010101010101u) & ~v & 0x8080808080808080u) != 0;
}

/* Whether the 8 bytes at s are plain ASCII: no byte >= 0x80, no NUL, no
 * line end; such a word moves the position by 8 columns and nothing else. */
static bool plain_word(const unsigned char *s)
{
    uint64_t w;
    memcpy(&w, s, sizeof w);
    return (w & 0x8080808080808080u) == 0 && !has_zero_byte(w) &&
           !has_zero_byte(w ^ 0x0a0a0a0a0a0a0a0au);
}

/* Check the next n bytes; false (after reporting) at the first problem. */
static bool check_bytes(text_check *k, const unsigned char *s, size_t n, const char *name,
                        diag_list *d)
{
    for (size_t i = 0; i < n; i++) {
        /* The common case, eight bytes at a time. */
        while (k->need == 0 && k->any_text && n - i >= 8 &&
               k->line_bytes + 8 <= CSV_MAX_LINE_BYTES && plain_word(s + i)) {
            k->column += 8;
            k->line_bytes += 8;
            i += 8;
        }
        if (i == n)
            break;
        unsigned char c = s[i];
        if (k->need) {
            if ((c & 0xC0) != 0x80)
                return bad_utf8(k, name, d);
            k->cp = (k->cp << 6) | (c & 0x3F);
            if (--k->need == 0 && !code_point_valid(k->cp, k->min))
                return bad_utf8(k, name, d);
        } else if (c >= 0x80) {
            if (!start_sequence(k, c))
                return bad_utf8(k, name, d);
        } else if (c == '\0') {
            diag_add(d, name, k->line, k->column,
                     "NUL byte (0x00) in the text (expected UTF-8 text without NUL bytes)");
            return false;
        }
        if (c == '\n') {
            k->line++;
            k->column = 1;
            k->line_bytes = 0;
            continue;
        }
        if (++k->line_bytes > CSV_MAX_LINE_BYTES) {
            diag_add(d, name, k->line, k->column,
                     "line longer than %zu bytes, the most perfcast reads (see archive/README.md)",
                     CSV_MAX_LINE_BYTES);
            return false;
        }
        if ((c & 0xC0) != 0x80) /* columns count characters */
            k->column++;
        if (!k->any_text)
            k->any_text = !isspace(c);
    }
    return true;
}

/* After the last byte: a sequence cut short, or nothing but white space. */
static bool check_end(const text_check *k, const char *name, diag_list *d)
{
    if (k->need)
        return bad_utf8(k, name, d);
    if (!k->any_text) {
        diag_add(d, name, 0, 0, "the file is empty (expected a header line)");
        return false;
    }
    return true;
}

size_t csv_utf8_invalid_at(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    text_check k = {.line = 1, .column = 1};
    size_t lead = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        if (k.need) {
            k.cp = (k.cp << 6) | (c & 0x3F);
            if ((c & 0xC0) != 0x80 || (--k.need == 0 && !code_point_valid(k.cp, k.min)))
                return lead;
        } else if (c >= 0x80) {
            lead = i;
            if (!start_sequence(&k, c))
                return lead;
        }
    }
    return k.need ? lead : len;
}

static bool has_bom(const char *data, size_t len)
{
    return len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0;
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */

typedef struct {
    csv_row_fn fn;
    void *ctx;
    csv_row row;          /* the row being assembled; texts set when handed over */
    size_t row_cap;
    size_t *offset;       /* where each field's text starts in text */
    size_t offset_cap;
    char *text;           /* the row's field texts, each NUL-terminated */
    size_t text_len, text_cap;
    long line, column;    /* position of the next byte to feed */
    long field_line, field_column; /* where the current field started */
    bool field_started;   /* a byte of the current field has been seen */
    bool field_quoted;    /* ... and it opened with a '"' (blanks before it
                             are skipped, as libcsv skips them) */
    bool field_blank;     /* ... and every byte so far is a blank */
    bool oom;
    bool stopped;         /* the callback said stop */
} reader;

static void on_field(void *data, size_t len, void *ctx)
{
    reader *r = ctx;
    if (r->oom || r->stopped)
        return;
    if (!growth_reserve((void **)&r->row.fields, &r->row_cap, r->row.nfields + 1, sizeof *r->row.fields) ||
        !growth_reserve((void **)&r->offset, &r->offset_cap, r->row.nfields + 1, sizeof *r->offset) ||
        !growth_reserve((void **)&r->text, &r->text_cap, r->text_len + len + 1, 1)) {
        r->oom = true;
        return;
    }
    if (len)
        memcpy(r->text + r->text_len, data, len);
    r->text[r->text_len + len] = '\0';
    if (r->row.nfields == 0)
        r->row.line = r->field_line;
    r->offset[r->row.nfields] = r->text_len;
    r->row.fields[r->row.nfields++] =
        (csv_field){NULL, r->field_line, r->field_column, r->field_quoted};
    r->text_len += len + 1;
    r->field_quoted = false;
    r->field_started = false;
}

static void on_row(int terminator, void *ctx)
{
    reader *r = ctx;
    (void)terminator;
    r->field_started = false;
    if (r->oom || r->stopped)
        return;
    for (size_t i = 0; i < r->row.nfields; i++)
        r->row.fields[i].text = r->text + r->offset[i];
    r->row.end_column = r->column;
    r->stopped = !r->fn(r->ctx, &r->row);
    r->row.nfields = 0;
    r->text_len = 0;
}

static void reader_free(reader *r)
{
    free(r->row.fields);
    free(r->offset);
    free(r->text);
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

/* Bytes that make libcsv call back or change its state. */
static bool is_special(unsigned char c)
{
    return c == ',' || c == '\n' || c == '\r' || c == '"';
}

static void parse_error(struct csv_parser *p, const reader *r, unsigned char c, const char *name,
                        diag_list *diags)
{
    int code = csv_error(p);
    if (code == CSV_EPARSE)
        diag_add(diags, name, r->line, r->column, "malformed quoting: found '%c' %s", c,
                 c == '"' ? "inside an unquoted field (quote the whole field and double the quote)"
                          : "after a closing quote (expected ',' or end of line)");
    else
        diag_add(diags, name, r->line, r->column, "%s", csv_strerror(code));
}

/* Feed the ordinary bytes data[0..n) (none special) in one call. */
static bool feed_run(struct csv_parser *p, reader *r, const char *data, size_t n,
                     const char *name, diag_list *diags)
{
    size_t done = csv_parse(p, data, n, on_field, on_row, r);
    for (size_t i = 0; i < done; i++)
        if (((unsigned char)data[i] & 0xC0) != 0x80)
            r->column++;
    if (done != n) {
        parse_error(p, r, (unsigned char)data[done], name, diags);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Plain lines without libcsv                                          */

/* libcsv is called back once per field and row, and feed calls it once
 * per delimiter to track positions: most of the reading time on a
 * million-row file. A plain line (no quote, no carriage return but at its
 * end, some byte other than white space) needs none of libcsv's rules, so
 * it is split here, at the start of a row, to the same fields, texts and
 * positions libcsv and feed give it (test_csvread compares the two on
 * random input): fields split at ',', spaces and tabs around an unquoted
 * field's text left out (libcsv's default), a field's position at the
 * byte after the previous delimiter, the row's end at its terminator. */

static bool is_blank(unsigned char c)
{
    return c == ' ' || c == '\t';
}

/* Whether some byte of the 8 at s is a '"', a '\r' or one of UTF-8's
 * (>= 0x80): what makes a line not plain, or its columns not its bytes. */
static bool word_needs_care(const unsigned char *s)
{
    uint64_t w;
    memcpy(&w, s, sizeof w);
    return (w & 0x8080808080808080u) != 0 || has_zero_byte(w ^ 0x2222222222222222u) ||
           has_zero_byte(w ^ 0x0d0d0d0d0d0d0d0du);
}

/* Is line[0..n) (its '\n' excluded) plain? *ascii tells whether every
 * byte of it is ASCII (then its columns are its bytes). One pass, eight
 * bytes at a time where none of them needs care. */
static bool plain_line(const char *line, size_t n, bool *ascii)
{
    const unsigned char *s = (const unsigned char *)line;
    size_t body = n > 0 && line[n - 1] == '\r' ? n - 1 : n, i = 0;
    *ascii = true;
    for (;;) {
        while (i + 8 <= body && !word_needs_care(s + i))
            i += 8;
        if (i >= body)
            break;
        if (s[i] == '"' || s[i] == '\r')
            return false;
        *ascii &= s[i] < 0x80;
        i++;
    }
    for (i = 0; i < body; i++) /* mostly the first byte */
        if (!is_blank(s[i]))
            return true;
    return false;
}

/* Columns (characters) in s[0..n): UTF-8 continuation bytes do not count. */
static long characters(const char *s, size_t n)
{
    long count = 0;
    for (size_t i = 0; i < n; i++)
        count += ((unsigned char)s[i] & 0xC0) != 0x80;
    return count;
}

/* Hand over the plain line[0..n) and step past it and its '\n'. */
static void split_plain_line(reader *r, const char *line, size_t n, bool ascii)
{
    size_t body = n > 0 && line[n - 1] == '\r' ? n - 1 : n;
    size_t start = 0;
    for (;;) {
        size_t end = start; /* fields are short: a loop beats memchr's call */
        while (end < body && line[end] != ',')
            end++;
        size_t a = start, b = end;
        while (a < b && is_blank((unsigned char)line[a]))
            a++;
        while (b > a && is_blank((unsigned char)line[b - 1]))
            b--;
        r->field_line = r->line;
        r->field_column = r->column;
        on_field((void *)(line + a), b - a, r);
        r->column += ascii ? (long)(end - start) : characters(line + start, end - start);
        if (end == body)
            break;
        r->column++; /* the comma */
        start = end + 1;
    }
    on_row('\n', r); /* end_column: the terminator's column */
    r->line++;
    r->column = 1;
    r->field_line = r->line;
    r->field_column = r->column;
}

/* Hand over the plain lines at the start of data[0..len) (libcsv being at
 * the start of a row); returns the bytes consumed. */
static size_t feed_plain_lines(reader *r, const char *data, size_t len)
{
    size_t i = 0;
    while (i < len && !r->stopped && !r->oom) {
        const char *nl = memchr(data + i, '\n', len - i);
        bool ascii;
        if (!nl || !plain_line(data + i, (size_t)(nl - data - i), &ascii))
            break;
        split_plain_line(r, data + i, (size_t)(nl - data - i), ascii);
        i = (size_t)(nl - data) + 1;
    }
    return i;
}

/* Track the current field before libcsv sees byte c: a field starts at its
 * first byte that is not a delimiter or line end; it is quoted when a '"'
 * follows blanks alone (libcsv skips blanks before a quote); it stays
 * "blank" while every byte of it is a blank. */
static void note_field_byte(reader *r, unsigned char c)
{
    if (c == ',' || c == '\n' || c == '\r')
        return;
    if (!r->field_started) {
        r->field_started = true;
        r->field_quoted = false;
        r->field_blank = true;
        r->field_line = r->line;
        r->field_column = r->column;
    }
    if (r->field_blank && c == '"') {
        /* The field is its quoted text: it starts at the quote, so that
         * callers adding 1 for the quote land on its first character. */
        r->field_quoted = true;
        r->field_line = r->line;
        r->field_column = r->column;
    }
    r->field_blank = r->field_blank && is_blank(c);
}

static bool feed(struct csv_parser *p, reader *r, const char *data, size_t len,
                 const char *name, diag_list *diags)
{
    size_t i = 0;
    while (i < len && !r->stopped) {
        /* At the start of a row (libcsv holds nothing): plain lines. */
        if (!r->field_started && r->row.nfields == 0) {
            i += feed_plain_lines(r, data + i, len - i);
            if (r->oom) {
                diag_add(diags, name, r->line, r->column, "out of memory");
                return false;
            }
            if (i >= len || r->stopped)
                break;
        }
        unsigned char c = (unsigned char)data[i];
        if (r->field_started && !is_special(c)) {
            size_t j = i + 1;
            while (j < len && !is_special((unsigned char)data[j]))
                j++;
            for (size_t k = i; r->field_blank && k < j; k++)
                r->field_blank = is_blank((unsigned char)data[k]);
            if (!feed_run(p, r, data + i, j - i, name, diags))
                return false;
            i = j;
            continue;
        }
        note_field_byte(r, c);
        if (csv_parse(p, data + i, 1, on_field, on_row, r) != 1) {
            parse_error(p, r, c, name, diags);
            return false;
        }
        if (r->oom) {
            diag_add(diags, name, r->line, r->column, "out of memory");
            return false;
        }
        /* A line end after a field of blanks alone that made no row ended
         * a line of only blanks: libcsv skips it without a callback, so the
         * field those blanks started is forgotten here, or the next row
         * would be placed on this line. */
        if ((c == '\n' || c == '\r') && r->field_started && r->field_blank)
            r->field_started = false;
        /* Position of the next field: after the delimiter just consumed. */
        advance(r, c);
        if ((c == ',' || c == '\n' || c == '\r') && !r->field_started) {
            r->field_line = r->line;
            r->field_column = r->column;
        }
        i++;
    }
    return true;
}

static bool finish(struct csv_parser *p, reader *r, const char *name, diag_list *diags)
{
    if (!r->stopped && csv_fini(p, on_field, on_row, r) != 0) {
        diag_add(diags, name, r->field_line, r->field_column,
                 "unterminated quoted field (expected a closing '\"' before the end of the file)");
        return false;
    }
    if (r->oom) {
        diag_add(diags, name, r->line, r->column, "out of memory");
        return false;
    }
    return !r->stopped;
}

static bool parser_init(struct csv_parser *p, reader *r, csv_row_fn fn, void *ctx,
                        const char *name, diag_list *diags)
{
    *r = (reader){.fn = fn, .ctx = ctx, .line = 1, .column = 1, .field_line = 1,
                  .field_column = 1};
    if (csv_init(p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
        diag_add(diags, name, 0, 0, "out of memory");
        return false;
    }
    /* libcsv grows a field's buffer by this many bytes at a time: its
     * default (128) makes a field of megabytes quadratic. */
    csv_set_blk_size(p, CHUNK_BYTES);
    return true;
}

bool csv_parse_rows(const char *data, size_t len, const char *name, csv_row_fn fn, void *ctx,
                    diag_list *diags)
{
    if (has_bom(data, len)) {
        data += 3; /* byte-order mark; positions count from after it */
        len -= 3;
    }
    text_check k = {.line = 1, .column = 1};
    if (!check_bytes(&k, (const unsigned char *)data, len, name, diags) ||
        !check_end(&k, name, diags))
        return false;
    struct csv_parser p;
    reader r;
    if (!parser_init(&p, &r, fn, ctx, name, diags))
        return false;
    bool ok = feed(&p, &r, data, len, name, diags) && finish(&p, &r, name, diags);
    csv_free(&p);
    reader_free(&r);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Files                                                               */

/* Up to want bytes of fd (fewer only at the end of the file); -1 on error. */
static ssize_t read_full(int fd, char *buf, size_t want)
{
    size_t got = 0;
    while (got < want) {
        ssize_t n = read(fd, buf + got, want - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

/* The first pass: is the file text? Sets *total to the bytes checked
 * (after a byte-order mark, whose presence *bom tells). */
static bool check_file(int fd, char *buf, const char *name, size_t *total, bool *bom,
                       long *lines, diag_list *diags)
{
    text_check k = {.line = 1, .column = 1};
    *total = 0;
    *bom = false;
    for (bool first = true;; first = false) {
        ssize_t n = read_full(fd, buf, CHUNK_BYTES);
        if (n < 0) {
            diag_add(diags, name, 0, 0, "cannot read: %s", strerror(errno));
            return false;
        }
        if (n == 0)
            break;
        const char *s = buf;
        if (first && has_bom(buf, (size_t)n)) {
            *bom = true;
            s += 3;
            n -= 3;
        }
        if (!check_bytes(&k, (const unsigned char *)s, (size_t)n, name, diags))
            return false;
        *total += (size_t)n;
        if (*total > FILEIO_MAX_BYTES) { /* it grew while being read */
            diag_add(diags, name, 0, 0, "cannot read: %s", fileio_status_text(FILEIO_TOO_LARGE, 0));
            return false;
        }
    }
    *lines = k.line;
    return check_end(&k, name, diags);
}

/* The second pass: parse the total bytes checked, no more (a run appended
 * meanwhile waits for the next read). */
static bool parse_file(int fd, char *buf, const char *name, size_t total, bool bom,
                       csv_row_fn fn, void *ctx, diag_list *diags)
{
    if (lseek(fd, bom ? 3 : 0, SEEK_SET) < 0) {
        diag_add(diags, name, 0, 0, "cannot read: %s", strerror(errno));
        return false;
    }
    struct csv_parser p;
    reader r;
    if (!parser_init(&p, &r, fn, ctx, name, diags))
        return false;
    bool ok = true;
    while (ok && total > 0 && !r.stopped) {
        ssize_t n = read_full(fd, buf, total < CHUNK_BYTES ? total : CHUNK_BYTES);
        if (n <= 0) {
            diag_add(diags, name, 0, 0, "cannot read: %s",
                     n < 0 ? strerror(errno) : "the file got shorter while being read");
            ok = false;
            break;
        }
        /* A file rewritten between the passes could hold what the first
         * pass refused; a NUL byte would cut a field short unseen. */
        if (memchr(buf, '\0', (size_t)n)) {
            diag_add(diags, name, 0, 0, "cannot read: the file changed while being read");
            ok = false;
            break;
        }
        ok = feed(&p, &r, buf, (size_t)n, name, diags);
        total -= (size_t)n;
    }
    ok = ok && finish(&p, &r, name, diags);
    csv_free(&p);
    reader_free(&r);
    return ok;
}

bool csv_read_rows(const char *root, const char *path, const char *name, csv_lines_fn lines,
                   csv_row_fn fn, void *ctx, diag_list *diags)
{
    int fd;
    size_t size;
    fileio_status status = fileio_open_inside(root, path, FILEIO_MAX_BYTES, &fd, &size);
    if (status != FILEIO_OK) {
        diag_add(diags, name, 0, 0, "cannot read: %s", fileio_status_text(status, errno));
        return false;
    }
    char *buf = malloc(CHUNK_BYTES);
    size_t total = 0;
    bool bom = false;
    long nlines = 0;
    bool ok = buf && check_file(fd, buf, name, &total, &bom, &nlines, diags);
    if (ok && lines)
        lines(ctx, (size_t)nlines);
    ok = ok && parse_file(fd, buf, name, total, bom, fn, ctx, diags);
    if (!buf)
        diag_add(diags, name, 0, 0, "out of memory");
    free(buf);
    close(fd);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Whole documents                                                     */

static void row_free(csv_row *row)
{
    free(row->fields); /* the texts share its block */
    memset(row, 0, sizeof *row);
}

void csv_doc_free(csv_doc *doc)
{
    for (size_t i = 0; i < doc->nrows; i++)
        row_free(&doc->rows[i]);
    free(doc->rows);
    memset(doc, 0, sizeof *doc);
}

/* Keep a copy of row in the csv_doc ctx: its fields and their texts in
 * one block. */
static bool keep_row(void *ctx, const csv_row *row)
{
    csv_doc *doc = ctx;
    if (!growth_reserve((void **)&doc->rows, &doc->row_cap, doc->nrows + 1, sizeof *doc->rows))
        return false;
    size_t bytes = row->nfields * sizeof(csv_field);
    for (size_t i = 0; i < row->nfields; i++)
        bytes += strlen(row->fields[i].text) + 1;
    csv_row copy = *row;
    copy.fields = malloc(bytes ? bytes : 1);
    if (!copy.fields)
        return false;
    char *text = (char *)(copy.fields + row->nfields);
    for (size_t i = 0; i < row->nfields; i++) {
        size_t n = strlen(row->fields[i].text) + 1;
        copy.fields[i] = row->fields[i];
        copy.fields[i].text = memcpy(text, row->fields[i].text, n);
        text += n;
    }
    doc->rows[doc->nrows++] = copy;
    return true;
}

/* A document that stopped early could not keep a row: out of memory. */
static bool doc_result(bool ok, const char *name, diag_list *diags, size_t before)
{
    if (!ok && diags->count == before)
        diag_add(diags, name, 0, 0, "out of memory");
    return ok;
}

bool csv_parse_buffer(const char *data, size_t len, const char *name,
                      csv_doc *doc, diag_list *diags)
{
    memset(doc, 0, sizeof *doc);
    size_t before = diags->count;
    return doc_result(csv_parse_rows(data, len, name, keep_row, doc, diags), name, diags, before);
}

bool csv_read_file_inside(const char *root, const char *path, const char *name,
                          csv_doc *doc, diag_list *diags)
{
    memset(doc, 0, sizeof *doc);
    size_t before = diags->count;
    return doc_result(csv_read_rows(root, path, name, NULL, keep_row, doc, diags), name, diags,
                      before);
}

bool csv_read_file(const char *path, const char *name, csv_doc *doc, diag_list *diags)
{
    return csv_read_file_inside(NULL, path, name, doc, diags);
}

/* The value of the plain decimal s ([digits][.digits][e[sign]digits] then
 * white space) when it is exact to compute: at most 2^53 as an integer of
 * its digits, times or divided by a power of ten up to 1e22. Both are
 * exact doubles, so the one multiplication or division rounds as strtod
 * does (Clinger's fast path), bit for bit; false for anything else (strtod
 * then decides), which keeps the parse of a million numbers off strtod's
 * general path. */
static bool exact_decimal(const char *s, bool negative, double *out)
{
    static const double powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                    1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const uint64_t limit = (uint64_t)1 << 53;
    uint64_t m = 0;
    long scale = 0;
    bool point = false;
    for (;; s++) {
        if (*s >= '0' && *s <= '9') {
            if (m > (limit - 9) / 10)
                return false;
            m = m * 10 + (uint64_t)(*s - '0');
            scale -= point;
        } else if (*s == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        bool down = *s == '-';
        s += *s == '-' || *s == '+';
        if (!(*s >= '0' && *s <= '9'))
            return false;
        long e = 0;
        for (; *s >= '0' && *s <= '9' && e < 1000; s++)
            e = e * 10 + (*s - '0');
        scale += down ? -e : e;
    }
    while (isspace((unsigned char)*s))
        s++;
    if (*s != '\0' || scale < -22 || scale > 22)
        return false;
    double v = scale < 0 ? (double)m / powers[-scale] : (double)m * powers[scale];
    *out = negative ? -v : v;
    return true;
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
    if (exact_decimal(s, *text == '-', out))
        return true;
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
