/*
 * html.h — Markdown to HTML, the only way perfcast makes HTML pages.
 *
 * cmark-gfm parses GitHub Flavored Markdown (CommonMark plus its table
 * extension) with its default options, never CMARK_OPT_UNSAFE: raw HTML in
 * the input is replaced by a comment and javascript:, vbscript:, file: and
 * data: links are dropped, so a README or any archive string cannot inject
 * markup. The page is one document; on top of cmark-gfm this module adds
 * what the site needs:
 *   - tables for every reader: wrapped in <div class="table"> (it scrolls
 *     on a phone, not the page), a <caption> (the heading the table stands
 *     under, else "Table N"), <th scope="col"> headers and the first cell
 *     of each body row as <th scope="row"> (the key column), alignment as
 *     class "r" or "c"; each body cell with its column's header text as
 *     data-label (escaped), which the stylesheet shows before the cell
 *     when a narrow screen stacks the rows;
 *   - folded sections: the "<details><summary>" and "</details>" lines
 *     that md_fold_begin and md_fold_end (render/markdown.h) write at the
 *     top level of the page pass through as HTML; no other raw HTML does;
 *   - heading ids as GitHub makes them ("Fit of run 2" -> "fit-of-run-2",
 *     repeats get -1, -2, ...), so #anchors work in both the .md and .html;
 *   - relative links to .md files rewritten to .html everywhere, table
 *     cells included (a page links to "../x/index.md"; the HTML version
 *     links to "../x/index.html").
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
