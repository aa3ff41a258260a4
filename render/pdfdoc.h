/*
 * pdfdoc.h — a printable document drawn with Cairo's PDF surface: A4
 * landscape pages of headings, wrapped paragraphs, ruled tables that
 * break across pages (their header repeated) and figures drawn as
 * vectors by a callback (the site's charts, render/chart.h). Nothing here
 * knows the archive: the caller passes plain text.
 *
 * Method: a cursor moves down the page; whatever does not fit below it
 * starts a new page, and every finished page gets a footer with the
 * document's title and the page number. Text is DejaVu Sans (fontconfig),
 * unhinted, wrapped at spaces (a word wider than its column is broken
 * between UTF-8 characters); each text's width is asked of Cairo once
 * per document and style, then remembered (a report's tables repeat
 * their texts, and measuring was most of their time), and so are its
 * glyphs; a page's texts are drawn when the page ends, one Cairo call per
 * style (Cairo's PDF surface replays every call of a page twice, and a
 * 1,000-row table drawn cell by cell was most of a report's time). A
 * figure is measured first (its callback asked for its size only), so it
 * can be placed (scaled down to fit a page when it is larger), then drawn
 * onto the page, where the PDF keeps it as vectors and its text as text,
 * which tools such as pdftotext extract.
 *
 * Threads: every function holds the drawing lock (render/drawlock.h)
 * while it calls Cairo, so documents and charts may be made on several
 * threads at once (one document per thread).
 *
 * Deterministic: the same calls give the same bytes. Cairo would stamp
 * the PDF with the time it was made; the document's date is the caller's
 * instead (an archive's newest run date, SOURCE_DATE_EPOCH).
 *
 * Errors are sticky: after a Cairo failure or running out of memory every
 * call does nothing, and pdfdoc_end reports it.
 *
 * Ownership: pdfdoc_begin returns a document that pdfdoc_end releases
 * (always exactly once); its bytes are appended to the caller's rbuf,
 * which must outlive it. Strings passed in are copied or drawn at once.
 */
#ifndef PERFCAST_RENDER_PDFDOC_H
#define PERFCAST_RENDER_PDFDOC_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>
#include "render/buf.h"

typedef struct pdfdoc pdfdoc;

/* Start a document whose PDF bytes go to out. title is its metadata
 * title and the footer's text; date ("YYYY-MM-DD", or "" for none: then
 * the PDF has no date) its creation and modification date. NULL with a reason in
 * err when Cairo cannot make the surface. */
pdfdoc *pdfdoc_begin(rbuf *out, const char *title, const char *date, char *err, size_t errlen);

/* The document's title, large, where the cursor is (the first page's top). */
void pdfdoc_title(pdfdoc *d, const char *text);

/* A heading: level 1 starts a new page (unless the page is still empty)
 * and gets an entry in the PDF's outline (bookmarks); level 2 and 3 are
 * smaller and are never left alone at the foot of a page. */
void pdfdoc_heading(pdfdoc *d, int level, const char *text);

/* A paragraph of text wrapped to the page's width. */
void pdfdoc_paragraph(pdfdoc *d, const char *text);

/* A ruled table: ncols columns with the header head (ncols strings),
 * align one letter per column ('l' left, 'r' right), and nrows rows of
 * cells (nrows * ncols strings, row by row; NULL is an empty cell).
 * Columns get their natural width when the table fits the page, else the
 * widest ones share what is left and their cells wrap. */
typedef struct {
    size_t ncols, nrows;
    const char *const *head;
    const char *align;
    const char *const *cells;
} pdfdoc_table_spec;

void pdfdoc_table(pdfdoc *d, const pdfdoc_table_spec *t);

/* Draws a figure onto cr with its top-left corner at the origin and sets
 * *width and *height to its size in PDF units (points); with cr NULL,
 * only sets the size, drawing nothing. False with a reason in err when
 * it cannot be drawn (or measured). */
typedef bool (*pdfdoc_draw_fn)(const void *ctx, cairo_t *cr, double *width, double *height,
                               char *err, size_t errlen);

/* A figure, centred: draw is called twice (measured with cr NULL, then
 * drawn) and must give the same size both times. It is measured without
 * the drawing lock (render/drawlock.h: measuring may take it) and drawn
 * with it held (it must not take it then). Returns false with err when draw
 * failed (the document goes on without the figure; the caller may say
 * why in a paragraph). */
bool pdfdoc_figure(pdfdoc *d, pdfdoc_draw_fn draw, const void *ctx, char *err, size_t errlen);

/* Finish the last page and the PDF, release d. *pages receives the number
 * of pages (may be NULL). False with a reason in err on any earlier or
 * final failure; out then holds no usable PDF. */
bool pdfdoc_end(pdfdoc *d, size_t *pages, char *err, size_t errlen);

#endif
