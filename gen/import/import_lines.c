/*
 * import_lines.c — see import_lines.h.
 */
#include "gen/import/import_lines.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/csvread.h"
#include "gen/base/fileio.h"

static void line_free(import_line *l)
{
    for (size_t i = 0; i < l->nfields; i++)
        free(l->fields[i].text);
    free(l->fields);
    free(l->text);
    memset(l, 0, sizeof *l);
}

void import_text_free(import_text *t)
{
    for (size_t i = 0; i < t->nlines; i++)
        line_free(&t->lines[i]);
    free(t->lines);
    memset(t, 0, sizeof *t);
}

/* Characters (code points) in the first n bytes of s. */
static long chars_in(const char *s, size_t n)
{
    long count = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            count++;
    return count;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static bool add_field(import_line *out, const char *line, size_t start, size_t end)
{
    while (start < end && is_blank(line[start]))
        start++;
    while (end > start && is_blank(line[end - 1]))
        end--;
    import_field *more = realloc(out->fields, (out->nfields + 1) * sizeof *more);
    if (!more)
        return false;
    out->fields = more;
    char *text = malloc(end - start + 1);
    if (!text)
        return false;
    memcpy(text, line + start, end - start);
    text[end - start] = '\0';
    out->fields[out->nfields].text = text;
    out->fields[out->nfields].column = chars_in(line, start) + 1;
    out->nfields++;
    return true;
}

bool import_text_split(const char *text, long line, char sep, import_line *out)
{
    memset(out, 0, sizeof *out);
    out->line = line;
    if (!(out->text = strdup(text)))
        return false;
    size_t n = strlen(text), start = 0;
    if (sep == ' ') {
        for (size_t i = 0; i <= n; i++) {
            bool blank = i == n || is_blank(text[i]);
            if (blank && i > start && !add_field(out, text, start, i))
                return false;
            if (blank)
                start = i + 1;
        }
        return true;
    }
    for (size_t i = 0; i <= n; i++) {
        if (i < n && text[i] != sep)
            continue;
        if (!add_field(out, text, start, i))
            return false;
        start = i + 1;
    }
    return true;
}

static bool only_blanks(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_blank(s[i]) && s[i] != '\r')
            return false;
    return true;
}

bool import_text_read(const char *path, const char *display, char sep, import_text *out,
                      diag_list *diags)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    char *data = fileio_read_file(path, &len);
    if (!data) {
        diag_add(diags, display, 0, 0, "cannot read: %s", strerror(errno));
        return false;
    }
    /* A NUL byte would cut the line it is in short ("2<NUL>999" read as
     * 2): text files hold none. */
    size_t bad = csv_utf8_invalid_at(data, len);
    const char *nul = memchr(data, '\0', bad < len ? bad : len);
    if (nul)
        bad = (size_t)(nul - data);
    if (bad < len) {
        long line = 1;
        size_t line_start = 0;
        for (size_t i = 0; i < bad; i++)
            if (data[i] == '\n') {
                line++;
                line_start = i + 1;
            }
        diag_add(diags, display, line, chars_in(data + line_start, bad - line_start) + 1,
                 "%s", nul ? "a NUL byte: this is not a text file (nothing imported)"
                           : "invalid UTF-8");
        free(data);
        return false;
    }
    size_t start = 0;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        start = 3; /* a byte-order mark */
    bool ok = true;
    long line = 1;
    while (ok && start < len) {
        char *end = memchr(data + start, '\n', len - start);
        size_t stop = end ? (size_t)(end - data) : len;
        size_t text_end = stop > start && data[stop - 1] == '\r' ? stop - 1 : stop;
        if (!only_blanks(data + start, stop - start)) {
            import_line *more = realloc(out->lines, (out->nlines + 1) * sizeof *more);
            ok = more != NULL;
            if (ok) {
                out->lines = more;
                char saved = data[text_end];
                data[text_end] = '\0';
                ok = import_text_split(data + start, line, sep, &out->lines[out->nlines]);
                data[text_end] = saved;
                out->nlines++;
            }
        }
        start = stop + 1;
        line++;
    }
    free(data);
    if (!ok)
        diag_add(diags, display, 0, 0, "out of memory");
    else if (out->nlines == 0)
        diag_add(diags, display, 0, 0, "the file is empty");
    if (!ok || out->nlines == 0) {
        import_text_free(out);
        return false;
    }
    return true;
}

bool import_number(const char *text, double *out)
{
    const char *why = NULL;
    return *text && csv_parse_number(text, out, &why) && isfinite(*out);
}

/* The first byte of data that is not a blank, or 0. */
static char first_non_blank(const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (data[i] != ' ' && data[i] != '\t' && data[i] != '\r' && data[i] != '\n')
            return data[i];
    return 0;
}

bool import_file_complete(const char *path, const char *display, bool allow, diag_list *diags)
{
    size_t len;
    char *data = fileio_read_file(path, &len);
    if (!data)
        return true;
    char first = first_non_blank(data, len);
    bool complete = len == 0 || data[len - 1] == '\n' || first == '{' || first == '[' || allow;
    if (!complete) {
        long line = 1;
        size_t start = 0;
        for (size_t i = 0; i < len; i++)
            if (data[i] == '\n')
                line++, start = i + 1;
        diag_add(diags, display, line, chars_in(data + start, len - start) + 1,
                 "the file ends inside its last line (no line end): it may have been cut while "
                 "it was written, and its last value read short; nothing imported (give "
                 "--allow-truncated if the file is complete)");
    }
    free(data);
    return complete;
}
