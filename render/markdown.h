/*
 * markdown.h — writes Markdown that any viewer shows as intended and that
 * render/html.h turns into the HTML pages.
 *
 * Text arguments are plain text (archive strings included): they are
 * escaped here (render/escape.h), so no text can become markup. URLs are
 * site-relative paths built by perfcast; characters outside the safe set
 * are percent-encoded. Tables are GFM pipe tables (render/html.c reads
 * them with cmark-gfm's table extension).
 *
 * Every function appends to an rbuf; block functions end with a blank line
 * so blocks never run into each other.
 */
#ifndef PERFCAST_RENDER_MARKDOWN_H
#define PERFCAST_RENDER_MARKDOWN_H

#include <stddef.h>
#include "render/buf.h"

/* "## text" at level 1..6, then a blank line. */
void md_heading(rbuf *b, int level, const char *text);

/* Inline pieces. */
void md_text(rbuf *b, const char *text);
void md_strong(rbuf *b, const char *text);
void md_link(rbuf *b, const char *text, const char *url);
void md_image(rbuf *b, const char *alt, const char *url);
/* A code span whose fence is longer than any backtick run inside code;
 * in_table escapes pipes the way GFM tables need. */
void md_code(rbuf *b, const char *code, bool in_table);

/* End the current paragraph or list item. */
void md_end_paragraph(rbuf *b);
void md_bullet(rbuf *b);     /* starts "- " */
void md_numbered(rbuf *b, size_t n); /* starts "n. " (an ordered list item) */
void md_end_item(rbuf *b);   /* "\n" */
void md_end_list(rbuf *b);   /* "\n" */

/* Foreign Markdown (a campaign README) made safe for any Markdown viewer,
 * not only for perfcast's HTML: cmark reads it, raw HTML becomes visible
 * text (an HTML block a code block, inline HTML plain text), links and
 * images to javascript:, vbscript:, file: or data: (but raw images) lose
 * their destination, and cmark writes it back as CommonMark (every fence
 * closed). Appends the result to b. */
void md_sanitize(rbuf *b, const char *markdown);

/* Quote foreign Markdown (a campaign README), sanitized as above, as a
 * block quote: whatever it could leave open ends with the quote, so it
 * cannot swallow the rest of the page. Its headings move two levels down
 * ("# Title" becomes "### Title"), below the page's own h1 and h2. */
void md_quote_markdown(rbuf *b, const char *markdown);

/* A folded section: md_fold_begin writes "<details>" and
 * "<summary>summary</summary>" (summary is plain text, escaped here) as
 * an HTML block of its own, md_fold_end "</details>"; the Markdown between
 * them is rendered as usual and shown when the reader opens the section.
 * GitHub and render/html.c show it folded; a viewer without raw HTML shows
 * it open. Only at the top level of a page: not inside a list or quote. */
void md_fold_begin(rbuf *b, const char *summary);
void md_fold_end(rbuf *b);
/* Pipe tables. Begin with the header texts and one alignment letter per
 * column ('l' or 'r'); then give cells left to right, rows wrap after
 * ncols cells; md_table_end finishes a partial row with empty cells. */
typedef struct {
    rbuf *out;
    size_t ncols;
    size_t col;
} md_table;

void md_table_begin(md_table *t, rbuf *out, size_t ncols, const char *const *headers,
                    const char *align);
void md_table_text(md_table *t, const char *text);     /* plain text, escaped */
void md_table_markdown(md_table *t, const char *md);   /* made by md_* (pipes escaped) */
void md_table_end(md_table *t);

#endif
