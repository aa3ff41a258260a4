/*
 * escape.c — text cleaning and escaping for HTML/XML, Markdown and CSV.
 */
#include "render/escape.h"

#include <string.h>

#define REPLACEMENT 0xFFFDu

int utf8_decode(const char *s, unsigned *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned c = u[0];
    int len;
    unsigned min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2, min = 0x80, c &= 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, min = 0x800, c &= 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, min = 0x10000, c &= 0x07;
    } else {
        *cp = REPLACEMENT;
        return 1;
    }
    for (int i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80) {   /* also stops at the NUL */
            *cp = REPLACEMENT;
            return i;
        }
        c = (c << 6) | (u[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        *cp = REPLACEMENT;
        return len;
    }
    *cp = c;
    return len;
}

bool utf8_encode(rbuf *b, unsigned cp)
{
    char out[4];
    int n;
    if (cp < 0x80) {
        out[0] = (char)cp, n = 1;
    } else if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    } else if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
    } else {
        out[0] = (char)(0xF0 | (cp >> 18));
        out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
    }
    return rbuf_put(b, out, (size_t)n);
}

/* Control characters XML 1.0 and the other formats cannot carry. */
static bool is_control(unsigned cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0xFFFE || cp == 0xFFFF;
}

/* Walk s character by character; fn appends one (clean) code point. */
typedef bool (*emit_fn)(rbuf *b, unsigned cp, void *state);

static bool each_char(rbuf *b, const char *s, emit_fn emit, void *state)
{
    while (s && *s) {
        unsigned cp;
        s += utf8_decode(s, &cp);
        if (!emit(b, cp, state))
            return false;
    }
    return !b->oom;
}

static bool emit_text(rbuf *b, unsigned cp, void *state)
{
    (void)state;
    if (cp == '\t' || cp == '\n' || cp == '\r')
        return rbuf_putc(b, ' ');
    return utf8_encode(b, is_control(cp) ? REPLACEMENT : cp);
}

bool esc_text(rbuf *b, const char *s)
{
    return each_char(b, s, emit_text, NULL);
}

/* Multi-line text: the caller folds CR LF into one LF. */
static bool put_clean(rbuf *b, unsigned cp)
{
    if (cp == '\t' || cp == '\n')
        return rbuf_putc(b, (char)cp);
    if (cp == '\r')
        return rbuf_putc(b, '\n');
    return utf8_encode(b, is_control(cp) ? REPLACEMENT : cp);
}

bool esc_clean(rbuf *b, const char *s)
{
    while (s && *s) {
        if (s[0] == '\r' && s[1] == '\n')
            s++;
        unsigned cp;
        s += utf8_decode(s, &cp);
        if (!put_clean(b, cp))
            return false;
    }
    return !b->oom;
}

static bool emit_html(rbuf *b, unsigned cp, void *state)
{
    (void)state;
    switch (cp) {
    case '&': return rbuf_puts(b, "&amp;");
    case '<': return rbuf_puts(b, "&lt;");
    case '>': return rbuf_puts(b, "&gt;");
    case '"': return rbuf_puts(b, "&quot;");
    case '\'': return rbuf_puts(b, "&#39;");
    case '\t': case '\n': return rbuf_putc(b, (char)cp);
    case '\r': return rbuf_putc(b, '\n');
    default: return utf8_encode(b, is_control(cp) ? REPLACEMENT : cp);
    }
}

bool esc_html(rbuf *b, const char *s)
{
    return each_char(b, s, emit_html, NULL);
}

/* ------------------------------------------------------------------ */
/* Markdown                                                            */

static bool is_alnum(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool is_blank(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Would c at s[i] be read as markup? prev is the previous byte written
 * (0 at the start of the text), s + i + 1 what follows. */
static bool md_needs_escape(const char *s, size_t i, unsigned char prev, bool at_start)
{
    unsigned char c = (unsigned char)s[i], next = (unsigned char)s[i + 1];
    bool next_ends = next == 0 || is_blank(next);
    switch (c) {
    case '\\': case '`': case '*': case '[': case ']': case '<': case '|': case '~':
        return true;
    case '_': /* emphasis, except inside a word (snake_case) */
        return !(is_alnum(prev) && is_alnum(next));
    case '&': /* an entity: &amp; &#38; */
        return is_alnum(next) || next == '#';
    case '#': case '>': /* a heading or a quote at the start of a line */
        return at_start;
    case '-': case '+': case '=': /* a list item, a rule or a setext underline */
        return at_start && (next_ends || next == c);
    default:
        return false;
    }
}

/* The length of the run of ASCII digits at the start of s. */
static size_t leading_digits(const char *s)
{
    size_t n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n;
}

bool esc_markdown(rbuf *b, const char *s, bool trim)
{
    if (!s)
        return !b->oom;
    if (trim)
        while (is_blank((unsigned char)*s))
            s++;
    size_t len = strlen(s);
    if (trim)
        while (len > 0 && is_blank((unsigned char)s[len - 1]))
            len--;
    size_t digits = leading_digits(s);
    unsigned char prev = 0;
    bool in_blanks = false;
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        if (is_blank(c)) { /* runs of blanks and line breaks become one space */
            if (!in_blanks)
                rbuf_putc(b, ' ');
            in_blanks = true;
            prev = ' ';
            i++;
            continue;
        }
        in_blanks = false;
        if (is_alnum(c)) { /* never markup: a run of them in one copy */
            size_t end = i + 1;
            while (end < len && is_alnum((unsigned char)s[end]))
                end++;
            rbuf_put(b, s + i, end - i);
            prev = (unsigned char)s[end - 1];
            i = end;
            continue;
        }
        bool list_number = i == digits && digits > 0 && (c == '.' || c == ')') &&
                           (i + 1 >= len || is_blank((unsigned char)s[i + 1]));
        if (c < 0x80) {
            if (list_number || md_needs_escape(s, i, prev, i == 0))
                rbuf_putc(b, '\\');
            if (c < 0x20 || c == 0x7F)
                utf8_encode(b, REPLACEMENT);
            else
                rbuf_putc(b, (char)c);
            prev = c;
            i++;
            continue;
        }
        unsigned cp;
        i += (size_t)utf8_decode(s + i, &cp);
        utf8_encode(b, is_control(cp) ? REPLACEMENT : cp);
        prev = 0x80;
    }
    return !b->oom;
}

static bool csv_needs_quotes(const char *s)
{
    size_t n = strlen(s);
    return strpbrk(s, ",\"\r\n\t") != NULL || (n > 0 && (s[0] == ' ' || s[n - 1] == ' '));
}

static bool emit_csv(rbuf *b, unsigned cp, void *state)
{
    (void)state;
    if (cp == '"')
        return rbuf_puts(b, "\"\"");
    return emit_text(b, cp, NULL);
}

bool esc_csv(rbuf *b, const char *s)
{
    if (!s)
        return !b->oom;
    bool quote = csv_needs_quotes(s);
    if (quote)
        rbuf_putc(b, '"');
    if (strchr("=+-@", s[0]) && s[0])
        rbuf_putc(b, '\'');
    each_char(b, s, emit_csv, NULL);
    if (quote)
        rbuf_putc(b, '"');
    return !b->oom;
}
