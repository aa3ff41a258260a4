/*
 * markdown.c — the Markdown writer behind markdown.h.
 */
#include "render/markdown.h"

#include <stdbool.h>
#include <string.h>

#include "render/escape.h"

void md_heading(rbuf *b, int level, const char *text)
{
    if (level < 1)
        level = 1;
    if (level > 6)
        level = 6;
    rbuf_printf(b, "%.*s ", level, "######");
    esc_markdown(b, text, true);
    rbuf_puts(b, "\n\n");
}

void md_text(rbuf *b, const char *text)
{
    esc_markdown(b, text, false);
}

void md_strong(rbuf *b, const char *text)
{
    rbuf_puts(b, "**");
    esc_markdown(b, text, true);
    rbuf_puts(b, "**");
}

/* Keep unreserved and path characters; percent-encode the rest (spaces,
 * parentheses, angle brackets, pipes, non-ASCII) so the destination can
 * neither end the link early nor break a table. */
static void put_url(rbuf *b, const char *url)
{
    static const char safe[] = "-._~/#?=&+,;:@!$*'%";
    for (const unsigned char *u = (const unsigned char *)url; *u; u++) {
        if ((*u >= 'a' && *u <= 'z') || (*u >= 'A' && *u <= 'Z') || (*u >= '0' && *u <= '9') ||
            strchr(safe, *u))
            rbuf_putc(b, (char)*u);
        else
            rbuf_printf(b, "%%%02X", *u);
    }
}

void md_link(rbuf *b, const char *text, const char *url)
{
    rbuf_putc(b, '[');
    esc_markdown(b, text, false);
    rbuf_puts(b, "](");
    put_url(b, url);
    rbuf_putc(b, ')');
}

void md_image(rbuf *b, const char *alt, const char *url)
{
    rbuf_puts(b, "![");
    esc_markdown(b, alt, true);
    rbuf_puts(b, "](");
    put_url(b, url);
    rbuf_putc(b, ')');
}

static size_t longest_backtick_run(const char *s)
{
    size_t best = 0, run = 0;
    for (; *s; s++) {
        run = *s == '`' ? run + 1 : 0;
        if (run > best)
            best = run;
    }
    return best;
}

void md_code(rbuf *b, const char *code, bool in_table)
{
    rbuf clean;
    rbuf_init(&clean);
    esc_text(&clean, code);
    const char *s = rbuf_str(&clean);
    size_t fence = longest_backtick_run(s) + 1, n = strlen(s);
    /* A space on each side keeps a leading or trailing backtick apart from
     * the fence, and keeps spaces at both ends; CommonMark strips exactly
     * one such space on each side. */
    bool pad = n == 0 || s[0] == '`' || s[n - 1] == '`' || (s[0] == ' ' && s[n - 1] == ' ');
    for (size_t i = 0; i < fence; i++)
        rbuf_putc(b, '`');
    if (pad)
        rbuf_putc(b, ' ');
    for (; *s; s++) {
        if (*s == '|' && in_table)
            rbuf_putc(b, '\\');
        rbuf_putc(b, *s);
    }
    if (pad)
        rbuf_putc(b, ' ');
    for (size_t i = 0; i < fence; i++)
        rbuf_putc(b, '`');
    rbuf_free(&clean);
}

void md_end_paragraph(rbuf *b)
{
    rbuf_puts(b, "\n\n");
}

void md_bullet(rbuf *b)
{
    rbuf_puts(b, "- ");
}

void md_end_item(rbuf *b)
{
    rbuf_putc(b, '\n');
}

void md_end_list(rbuf *b)
{
    rbuf_putc(b, '\n');
}

void md_quote_markdown(rbuf *b, const char *markdown)
{
    rbuf clean;
    rbuf_init(&clean);
    esc_clean(&clean, markdown);
    const char *s = rbuf_str(&clean);
    while (*s) {
        size_t n = strcspn(s, "\n");
        rbuf_puts(b, n ? "> " : ">");
        rbuf_put(b, s, n);
        rbuf_putc(b, '\n');
        s += n;
        if (*s)
            s++;
    }
    rbuf_putc(b, '\n');
    rbuf_free(&clean);
}

void md_table_begin(md_table *t, rbuf *out, size_t ncols, const char *const *headers,
                    const char *align)
{
    t->out = out;
    t->ncols = ncols;
    t->col = 0;
    for (size_t i = 0; i < ncols; i++) {
        rbuf_puts(out, "| ");
        esc_markdown(out, headers[i], true);
        rbuf_putc(out, ' ');
    }
    rbuf_puts(out, "|\n");
    for (size_t i = 0; i < ncols; i++)
        rbuf_puts(out, align && align[i] == 'r' ? "| --: " : "| --- ");
    rbuf_puts(out, "|\n");
}

static void next_cell(md_table *t)
{
    rbuf_putc(t->out, ' ');
    if (++t->col == t->ncols) {
        rbuf_puts(t->out, "|\n");
        t->col = 0;
    }
}

void md_table_markdown(md_table *t, const char *md)
{
    rbuf_puts(t->out, "| ");
    for (const char *s = md ? md : ""; *s; s++)
        rbuf_putc(t->out, *s == '\n' || *s == '\r' ? ' ' : *s);
    next_cell(t);
}

void md_table_text(md_table *t, const char *text)
{
    rbuf_puts(t->out, "| ");
    esc_markdown(t->out, text, true);
    next_cell(t);
}

void md_table_end(md_table *t)
{
    while (t->col != 0)
        md_table_markdown(t, "");
    rbuf_putc(t->out, '\n');
}
