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

/* Markdown: `at_start` is true until the first character was written;
 * `pending_space` holds a run of blanks not yet written. */
typedef struct {
    bool trim;
    bool at_start;
    bool pending_space;
    bool after_digits_at_start; /* "12" so far: a following . or ) would make a list */
} md_state;

static bool md_always_special(unsigned cp)
{
    return cp < 0x80 && strchr("\\`*_[]<>&|~#!", (int)cp) != NULL;
}

static bool md_special_at_start(unsigned cp)
{
    return cp < 0x80 && strchr("-+=", (int)cp) != NULL;
}

static bool emit_markdown(rbuf *b, unsigned cp, void *state)
{
    md_state *st = state;
    if (cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r') {
        st->pending_space = !(st->trim && st->at_start);
        st->after_digits_at_start = false;
        return true;
    }
    if (st->pending_space && !rbuf_putc(b, ' '))
        return false;
    st->pending_space = false;
    bool escape = md_always_special(cp) || (st->at_start && md_special_at_start(cp)) ||
                  (st->after_digits_at_start && (cp == '.' || cp == ')'));
    st->after_digits_at_start = (st->at_start || st->after_digits_at_start) && cp >= '0' && cp <= '9';
    st->at_start = false;
    if (escape && !rbuf_putc(b, '\\'))
        return false;
    return utf8_encode(b, is_control(cp) ? REPLACEMENT : cp);
}

bool esc_markdown(rbuf *b, const char *s, bool trim)
{
    md_state st = {trim, true, false, false};
    if (!each_char(b, s, emit_markdown, &st))
        return false;
    if (st.pending_space && !trim)
        rbuf_putc(b, ' ');
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
