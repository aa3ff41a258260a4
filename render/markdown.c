/*
 * markdown.c — the Markdown writer behind markdown.h.
 */
#include "render/markdown.h"

#include <cmark-gfm.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* prefix[text](url): a link ("") or an image ("!"). */
static void put_link(rbuf *b, const char *prefix, const char *text, bool trim, const char *url)
{
    rbuf_puts(b, prefix);
    rbuf_putc(b, '[');
    esc_markdown(b, text, trim);
    rbuf_puts(b, "](");
    put_url(b, url);
    rbuf_putc(b, ')');
}

void md_link(rbuf *b, const char *text, const char *url)
{
    put_link(b, "", text, false, url);
}

void md_image(rbuf *b, const char *alt, const char *url)
{
    put_link(b, "!", alt, true, url);
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

void md_fold_begin(rbuf *b, const char *summary)
{
    rbuf_puts(b, "<details>\n<summary>");
    rbuf text;
    rbuf_init(&text);
    esc_text(&text, summary); /* one line: render/html.c accepts no newline */
    esc_html(b, rbuf_str(&text));
    rbuf_free(&text);
    rbuf_puts(b, "</summary>\n\n");
}

void md_fold_end(rbuf *b)
{
    rbuf_puts(b, "</details>\n\n");
}

void md_bullet(rbuf *b)
{
    rbuf_puts(b, "- ");
}

void md_numbered(rbuf *b, size_t n)
{
    rbuf_printf(b, "%zu. ", n);
}

void md_end_item(rbuf *b)
{
    rbuf_putc(b, '\n');
}

void md_end_list(rbuf *b)
{
    rbuf_putc(b, '\n');
}

/* The schemes cmark's safe mode drops (its _scan_dangerous_url). */
static bool dangerous_url(const char *url)
{
    static const char *const schemes[] = {"javascript:", "vbscript:", "file:", "data:"};
    static const char *const images[] = {"data:image/png", "data:image/gif", "data:image/jpeg",
                                         "data:image/webp"};
    while (*url == ' ' || *url == '\t')
        url++;
    for (size_t i = 0; i < sizeof images / sizeof images[0]; i++)
        if (strncasecmp(url, images[i], strlen(images[i])) == 0)
            return false;
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
        if (strncasecmp(url, schemes[i], strlen(schemes[i])) == 0)
            return true;
    return false;
}

/* Swap raw HTML for text that shows it, and drop dangerous link targets. */
static void defuse(cmark_node *n)
{
    cmark_node_type t = cmark_node_get_type(n);
    if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE) {
        const char *url = cmark_node_get_url(n);
        if (url && dangerous_url(url))
            cmark_node_set_url(n, "");
        return;
    }
    cmark_node *text = cmark_node_new(t == CMARK_NODE_HTML_BLOCK ? CMARK_NODE_CODE_BLOCK
                                                                   : CMARK_NODE_TEXT);
    const char *literal = cmark_node_get_literal(n);
    cmark_node_set_literal(text, literal ? literal : "");
    if (t == CMARK_NODE_HTML_BLOCK)
        cmark_node_set_fence_info(text, "html");
    cmark_node_replace(n, text);
    cmark_node_free(n);
}

/* Headings go `shift` levels down (at most to 6), so a README's "# Title"
 * quoted on a page whose own title is the only <h1> stays below it. */
static void sanitize(rbuf *b, const char *markdown, int shift)
{
    rbuf clean;
    rbuf_init(&clean);
    esc_clean(&clean, markdown);
    cmark_node *doc = cmark_parse_document(rbuf_str(&clean), clean.len, CMARK_OPT_DEFAULT);
    /* Collect first: the tree must not change under the iterator. */
    cmark_node **found = NULL;
    size_t n = 0, cap = 0;
    cmark_iter *it = cmark_iter_new(doc);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *node = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(node);
        if (ev == CMARK_EVENT_ENTER && t == CMARK_NODE_HEADING && shift > 0) {
            int level = cmark_node_get_heading_level(node) + shift;
            cmark_node_set_heading_level(node, level > 6 ? 6 : level);
        }
        if (ev != CMARK_EVENT_ENTER || (t != CMARK_NODE_HTML_BLOCK && t != CMARK_NODE_HTML_INLINE &&
                                        t != CMARK_NODE_LINK && t != CMARK_NODE_IMAGE))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            cmark_node **more = realloc(found, cap * sizeof *more);
            if (!more)
                break;
            found = more;
        }
        found[n++] = node;
    }
    cmark_iter_free(it);
    for (size_t i = 0; i < n; i++)
        defuse(found[i]);
    free(found);
    char *text = cmark_render_commonmark(doc, CMARK_OPT_DEFAULT, 0);
    if (text)
        rbuf_puts(b, text);
    else
        b->oom = true;
    free(text);
    cmark_node_free(doc);
    rbuf_free(&clean);
}

void md_sanitize(rbuf *b, const char *markdown)
{
    sanitize(b, markdown, 0);
}

void md_quote_markdown(rbuf *b, const char *markdown)
{
    rbuf clean;
    rbuf_init(&clean);
    sanitize(&clean, markdown, 2);
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
