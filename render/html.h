/*
 * html.h — Markdown to HTML, the only way perfcast makes HTML pages.
 *
 * cmark parses CommonMark with its default options, never CMARK_OPT_UNSAFE:
 * raw HTML in the input is replaced by a comment and javascript:, vbscript:,
 * file: and data: links are dropped, so a README or any archive string
 * cannot inject markup. On top of cmark (which has no tables) this module
 * adds what the site needs:
 *   - GFM pipe tables (a paragraph, at top level or in block quotes, whose
 *     lines start with '|' and whose second line is a delimiter row), cells
 *     rendered as inline Markdown by cmark; wrapped in <div class="table">
 *     so wide tables scroll on a phone;
 *   - heading ids as GitHub makes them ("Fit of run 2" -> "fit-of-run-2",
 *     repeats get -1, -2, ...), so #anchors work in both the .md and .html;
 *   - relative links to .md files rewritten to .html (a page links to
 *     "../x/index.md"; the HTML version links to "../x/index.html").
 */
#ifndef PERFCAST_RENDER_HTML_H
#define PERFCAST_RENDER_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include "render/buf.h"

/* Append the HTML fragment for the Markdown text md (len bytes) to out.
 * Returns false only when out of memory. */
bool html_from_markdown(const char *md, size_t len, rbuf *out);

/* The GitHub-style anchor of a heading text, appended to out (no dedup). */
void html_heading_id(const char *text, rbuf *out);

#endif
