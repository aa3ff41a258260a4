/*
 * pdfdoc.c — a PDF document of headings, paragraphs, tables and figures
 * (see pdfdoc.h).
 */
#include "render/pdfdoc.h"
#include "render/drawlock.h"

#include <cairo-pdf.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A4 landscape in points: a cost table's seven columns fit on one line. */
static const double page_w = 841.89, page_h = 595.28;
static const double margin = 42, footer_room = 22;
static const double cell_pad_x = 4, cell_pad_y = 2.5, block_gap = 8;

static const char *const font_family = "DejaVu Sans";

typedef struct {
    double size;
    bool bold;
    unsigned rgb;
} text_style;

/* Every style of the document, in one array: a page's texts are kept in
 * one glyph run per style (struct pdfdoc.runs), indexed by the style's
 * place here. */
enum { TITLE, HEADING_1, HEADING_2, HEADING_3, BODY, CELL, HEAD, FOOTER, STYLE_COUNT };
static const text_style styles[STYLE_COUNT] = {
    [TITLE] = {20, true, 0x1A1A1A},     [HEADING_1] = {15, true, 0x1A1A1A},
    [HEADING_2] = {12, true, 0x1A1A1A}, [HEADING_3] = {10.5, true, 0x333333},
    [BODY] = {9.5, false, 0x1A1A1A},    [CELL] = {8.5, false, 0x1A1A1A},
    [HEAD] = {8.5, true, 0x1A1A1A},     [FOOTER] = {8, false, 0x595959},
};

enum { RULE_RGB = 0x999999, HEAD_FILL_RGB = 0xEEEEEE };

/* A text measured once in a style: a report's tables repeat their
 * texts (verdicts, clusters, currencies) and each cell is measured for
 * its column, wrapped and aligned, and Cairo's text extents are most of a
 * report's time. Its glyphs (positions from the origin) are asked of
 * Cairo when it is first drawn. Open addressing; text and glyphs owned. */
typedef struct {
    const text_style *style; /* NULL: a free slot */
    char *text;
    size_t len;
    uint64_t hash;
    double width;
    cairo_glyph_t *glyphs; /* NULL until drawn (or when it has none) */
    int nglyphs;
} text_entry;

typedef struct {
    text_entry *slots;
    size_t n, cap; /* cap: a power of two, or 0 */
} text_memo;

/* The glyphs of a page's texts in one style, drawn by one call when the
 * page ends: Cairo's PDF surface records every drawing call and replays
 * it twice at the page's end (to analyse it, then to write it), so a
 * 1,000-row table drawn cell by cell made most of a report's time. */
typedef struct {
    cairo_glyph_t *glyphs;
    size_t n, cap;
} glyph_run;

struct pdfdoc {
    cairo_surface_t *surface;
    cairo_t *cr;
    char *title;
    const text_style *style; /* the font selected on cr; NULL: unknown */
    text_memo texts;
    glyph_run runs[STYLE_COUNT]; /* the current page's texts, not yet drawn */
    rbuf scratch;    /* a piece of text being measured or drawn */
    double y;        /* the cursor: where the next block starts */
    size_t page;     /* the current page, from 1 */
    bool page_empty; /* nothing drawn on the current page yet */
    int outline_parent; /* the last level-1 heading's outline entry */
    bool oom;
};

static double text_bottom(void)
{
    return page_h - margin - footer_room;
}

static double text_width_avail(void)
{
    return page_w - 2 * margin;
}

static bool failed(const pdfdoc *d)
{
    return d->oom || cairo_status(d->cr) != CAIRO_STATUS_SUCCESS;
}

static void set_rgb(cairo_t *cr, unsigned rgb)
{
    cairo_set_source_rgb(cr, ((rgb >> 16) & 0xFF) / 255.0, ((rgb >> 8) & 0xFF) / 255.0,
                         (rgb & 0xFF) / 255.0);
}

/* Select s's font, only when another is selected: selecting it again
 * makes Cairo look its scaled font up again. */
static void use_font(pdfdoc *d, const text_style *s)
{
    if (d->style != s) {
        cairo_select_font_face(d->cr, font_family, CAIRO_FONT_SLANT_NORMAL,
                               s->bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(d->cr, s->size);
        d->style = s;
    }
}

static double line_height(const text_style *s)
{
    return s->size * 1.3;
}

/* text[0 .. len) in the scratch buffer, NUL-terminated for Cairo. */
static const char *piece(pdfdoc *d, const char *text, size_t len)
{
    rbuf_clear(&d->scratch);
    if (!rbuf_put(&d->scratch, text, len))
        d->oom = true;
    return rbuf_str(&d->scratch);
}

/* FNV-1a: the memo's hash (render/ knows no gen/ module). */
static uint64_t text_hash(const char *text, size_t len)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 1099511628211ULL;
    return h;
}

/* The slot of (style, text) in m: its entry, or the free slot where it
 * goes. m->cap must be non-zero. */
static text_entry *memo_slot(text_memo *m, const text_style *style, const char *text,
                              size_t len, uint64_t hash)
{
    for (size_t i = (size_t)hash & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        text_entry *e = &m->slots[i];
        if (!e->style || (e->style == style && e->hash == hash && e->len == len &&
                          memcmp(e->text, text, len) == 0))
            return e;
    }
}

/* Room for one more entry (the table at most half full); false when out
 * of memory. */
static bool memo_grow(text_memo *m)
{
    if (2 * (m->n + 1) <= m->cap)
        return true;
    text_memo bigger = {calloc(m->cap ? 2 * m->cap : 256, sizeof *bigger.slots), m->n,
                         m->cap ? 2 * m->cap : 256};
    if (!bigger.slots)
        return false;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].style)
            *memo_slot(&bigger, m->slots[i].style, m->slots[i].text, m->slots[i].len,
                       m->slots[i].hash) = m->slots[i];
    free(m->slots);
    *m = bigger;
    return true;
}

static void memo_free(text_memo *m)
{
    for (size_t i = 0; i < m->cap; i++) {
        free(m->slots[i].text);
        cairo_glyph_free(m->slots[i].glyphs);
    }
    free(m->slots);
}

/* The memo's entry of text[0 .. len) in the current font (d->style),
 * measured by Cairo the first time; NULL when out of memory (or no font
 * is selected), and *width is then measured anyway. */
static text_entry *measured(pdfdoc *d, const char *text, size_t len, double *width)
{
    uint64_t hash = text_hash(text, len);
    text_entry *e = d->style && memo_grow(&d->texts)
                        ? memo_slot(&d->texts, d->style, text, len, hash)
                        : NULL;
    if (e && e->style) {
        *width = e->width;
        return e;
    }
    cairo_text_extents_t ext;
    cairo_text_extents(d->cr, piece(d, text, len), &ext);
    *width = ext.x_advance;
    char *copy = e ? malloc(len ? len : 1) : NULL;
    if (!copy)
        return NULL;
    memcpy(copy, text, len);
    *e = (text_entry){d->style, copy, len, hash, ext.x_advance, NULL, 0};
    d->texts.n++;
    return e;
}

/* The width of text[0 .. len) in the current font (d->style). */
static double piece_width(pdfdoc *d, const char *text, size_t len)
{
    double width;
    measured(d, text, len, &width);
    return width;
}

/* ------------------------------------------------------------------ */
/* Wrapping                                                            */

typedef struct {
    size_t start, len;
} span;

typedef struct {
    span *lines;
    size_t n, cap;
} span_list;

static bool is_space(char c)
{
    return c == ' ' || c == '\n';
}

static void push_line(pdfdoc *d, span_list *l, size_t start, size_t len)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        span *grown = realloc(l->lines, cap * sizeof *grown);
        if (!grown) {
            d->oom = true;
            return;
        }
        l->lines = grown, l->cap = cap;
    }
    l->lines[l->n++] = (span){start, len};
}

/* The end of the longest run of characters from pos that fits width (at
 * least one character): for a word wider than its column. */
static size_t fitting_chars(pdfdoc *d, const char *text, size_t pos, double width)
{
    size_t end = pos;
    while (text[end] && !is_space(text[end])) {
        size_t next = end + 1;
        while ((text[next] & 0xC0) == 0x80) /* the rest of a UTF-8 character */
            next++;
        if (end > pos && piece_width(d, text + pos, next - pos) > width)
            break;
        end = next;
    }
    return end;
}

/* The lines of text wrapped to width in the current font; at least one
 * (empty for empty text). The caller frees l->lines. */
static void wrap(pdfdoc *d, const char *text, double width, span_list *l)
{
    *l = (span_list){0};
    size_t pos = 0, len = strlen(text);
    /* Most cells fit on one line: then the loop below would end with the
     * whole text (widths add up, Cairo's toy API does not kern), so it is
     * measured once. */
    if (len && !is_space(text[0]) && !strchr(text, '\n') && piece_width(d, text, len) <= width) {
        push_line(d, l, 0, len);
        return;
    }
    while (pos < len && !d->oom) {
        while (pos < len && is_space(text[pos]))
            pos++;
        if (pos >= len)
            break;
        size_t best = pos, next = pos;
        while (next < len && text[next] != '\n') {
            size_t end = next;
            while (end < len && text[end] == ' ')
                end++;
            while (end < len && !is_space(text[end]))
                end++;
            if (piece_width(d, text + pos, end - pos) > width)
                break;
            best = next = end;
        }
        if (best == pos)
            best = fitting_chars(d, text, pos, width);
        push_line(d, l, pos, best - pos);
        pos = best;
    }
    if (l->n == 0)
        push_line(d, l, 0, 0);
}

/* ------------------------------------------------------------------ */
/* Drawing text                                                        */

static bool run_reserve(glyph_run *r, size_t more)
{
    if (r->n + more <= r->cap)
        return true;
    size_t cap = r->cap ? r->cap : 1024;
    while (cap < r->n + more)
        cap *= 2;
    cairo_glyph_t *grown = realloc(r->glyphs, cap * sizeof *grown);
    if (!grown)
        return false;
    r->glyphs = grown, r->cap = cap;
    return true;
}

/* text[0 .. len) in style s, its baseline starting at (x, y): its glyphs
 * join the page's run of s, drawn when the page ends (draw_runs). */
static void put_text(pdfdoc *d, const text_style *s, double x, double y, const char *text,
                     size_t len)
{
    use_font(d, s);
    double width;
    text_entry *e = measured(d, text, len, &width);
    if (!e) {
        d->oom = true;
        return;
    }
    if (!e->glyphs && len &&
        cairo_scaled_font_text_to_glyphs(cairo_get_scaled_font(d->cr), 0, 0, piece(d, text, len),
                                         (int)len, &e->glyphs, &e->nglyphs, NULL, NULL,
                                         NULL) != CAIRO_STATUS_SUCCESS) {
        e->glyphs = NULL, e->nglyphs = 0;
        d->oom = true; /* Cairo's only failure here is memory */
        return;
    }
    glyph_run *r = &d->runs[s - styles];
    if (!run_reserve(r, (size_t)e->nglyphs)) {
        d->oom = true;
        return;
    }
    for (int i = 0; i < e->nglyphs; i++)
        r->glyphs[r->n++] = (cairo_glyph_t){e->glyphs[i].index, x + e->glyphs[i].x,
                                            y + e->glyphs[i].y};
}

/* Draw the page's texts not yet drawn, one call per style. Texts never
 * overlap the rules, fills and figures drawn meanwhile, so drawing them
 * later changes nothing on the page. */
static void draw_runs(pdfdoc *d)
{
    for (size_t i = 0; i < STYLE_COUNT; i++) {
        glyph_run *r = &d->runs[i];
        if (r->n == 0)
            continue;
        use_font(d, &styles[i]);
        set_rgb(d->cr, styles[i].rgb);
        cairo_show_glyphs(d->cr, r->glyphs, (int)r->n);
        r->n = 0;
    }
}

/* ------------------------------------------------------------------ */
/* Pages                                                               */

static void draw_footer(pdfdoc *d)
{
    char number[32];
    snprintf(number, sizeof number, "page %zu", d->page);
    const text_style *s = &styles[FOOTER];
    double baseline = page_h - margin + s->size;
    use_font(d, s); /* the number is measured in it */
    double right = page_w - margin - piece_width(d, number, strlen(number));
    put_text(d, s, margin, baseline, d->title, strlen(d->title));
    put_text(d, s, right, baseline, number, strlen(number));
    draw_runs(d);
}

static void finish_page(pdfdoc *d)
{
    draw_footer(d);
    cairo_show_page(d->cr);
    d->page++;
    d->y = margin;
    d->page_empty = true;
}

/* Start a new page unless height fits below the cursor (or the page is
 * empty: what does not fit an empty page is drawn anyway, clipped). */
static void need(pdfdoc *d, double height)
{
    if (!d->page_empty && d->y + height > text_bottom())
        finish_page(d);
}

/* Wrapped text at the cursor, the full text width, in style s. */
static void text_block(pdfdoc *d, const char *text, const text_style *s)
{
    if (failed(d))
        return;
    use_font(d, s);
    span_list l;
    wrap(d, text, text_width_avail(), &l);
    double lh = line_height(s);
    need(d, lh * (double)(l.n < 2 ? l.n : 2)); /* no line left alone at a page's foot */
    for (size_t i = 0; i < l.n && !d->oom; i++) {
        need(d, lh);
        put_text(d, s, margin, d->y + s->size, text + l.lines[i].start, l.lines[i].len);
        d->y += lh;
        d->page_empty = false;
    }
    free(l.lines);
}

static cairo_status_t write_to_rbuf(void *closure, const unsigned char *data, unsigned int len)
{
    return rbuf_put(closure, data, len) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* The metadata's dates, "YYYY-MM-DDT00:00:00Z": Cairo otherwise writes
 * the current time, and two runs would differ. Without a date none is
 * written (Cairo drops a date it cannot read, "" included): a report of
 * undated runs was dated 1 January 1970, which readers took for a fault. */
static void set_dates(cairo_surface_t *surface, const char *date)
{
    char iso[32] = "";
    if (date && strlen(date) == 10)
        snprintf(iso, sizeof iso, "%.10sT00:00:00Z", date);
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, iso);
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, iso);
}

static pdfdoc *begin_doc(rbuf *out, const char *title, const char *date, char *err, size_t errlen)
{
    pdfdoc *d = calloc(1, sizeof *d);
    char *t = strdup(title ? title : "");
    if (!d || !t) {
        free(d), free(t);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    d->title = t;
    rbuf_init(&d->scratch);
    d->surface = cairo_pdf_surface_create_for_stream(write_to_rbuf, out, page_w, page_h);
    cairo_pdf_surface_set_metadata(d->surface, CAIRO_PDF_METADATA_TITLE, d->title);
    cairo_pdf_surface_set_metadata(d->surface, CAIRO_PDF_METADATA_CREATOR, "perfcast");
    set_dates(d->surface, date);
    d->cr = cairo_create(d->surface);
    cairo_status_t st = cairo_status(d->cr);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(err, errlen, "cairo pdf: %s", cairo_status_to_string(st));
        cairo_destroy(d->cr);
        cairo_surface_destroy(d->surface);
        rbuf_free(&d->scratch);
        free(d->title), free(d);
        return NULL;
    }
    /* Unhinted metrics: the layout does not depend on the device. */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_set_font_options(d->cr, fo);
    cairo_font_options_destroy(fo);
    d->page = 1;
    d->y = margin;
    d->page_empty = true;
    d->outline_parent = CAIRO_PDF_OUTLINE_ROOT;
    return d;
}

static void put_title(pdfdoc *d, const char *text)
{
    text_block(d, text, &styles[TITLE]);
    d->y += block_gap;
}

/* An entry of the PDF's outline pointing at the cursor. */
static int add_outline(pdfdoc *d, int parent, const char *text)
{
    char dest[96];
    snprintf(dest, sizeof dest, "page=%zu pos=[%.1f %.1f]", d->page, margin, d->y);
    return cairo_pdf_surface_add_outline(d->surface, parent, text, dest, 0);
}

static void put_heading(pdfdoc *d, int level, const char *text)
{
    if (failed(d))
        return;
    level = level < 1 ? 1 : level > 3 ? 3 : level;
    const text_style *s = &styles[HEADING_1 + level - 1];
    if (level == 1 && !d->page_empty)
        finish_page(d);
    if (!d->page_empty)
        d->y += block_gap;
    /* A heading keeps three lines of what follows with it. */
    need(d, line_height(s) + 3 * line_height(&styles[BODY]));
    if (level == 1)
        d->outline_parent = add_outline(d, CAIRO_PDF_OUTLINE_ROOT, text);
    else if (level == 2)
        add_outline(d, d->outline_parent, text);
    text_block(d, text, s);
    d->y += block_gap / 2;
}

static void put_paragraph(pdfdoc *d, const char *text)
{
    text_block(d, text, &styles[BODY]);
    d->y += block_gap;
}

/* ------------------------------------------------------------------ */
/* Tables                                                              */

static const char *cell_text(const char *s)
{
    return s ? s : "";
}

/* Natural column widths; when they are wider than the page, the columns
 * under an equal share keep theirs and the others share the rest in
 * proportion to their natural width. */
static void column_widths(pdfdoc *d, const pdfdoc_table_spec *t, double *w)
{
    for (size_t c = 0; c < t->ncols; c++) {
        use_font(d, &styles[HEAD]);
        const char *h = cell_text(t->head[c]);
        w[c] = piece_width(d, h, strlen(h));
        use_font(d, &styles[CELL]);
        for (size_t r = 0; r < t->nrows; r++) {
            const char *s = cell_text(t->cells[r * t->ncols + c]);
            w[c] = fmax(w[c], piece_width(d, s, strlen(s)));
        }
        w[c] += 2 * cell_pad_x;
    }
    double avail = text_width_avail(), total = 0;
    for (size_t c = 0; c < t->ncols; c++)
        total += w[c];
    if (total <= avail)
        return;
    bool *fixed = calloc(t->ncols, sizeof *fixed);
    if (!fixed) {
        d->oom = true;
        return;
    }
    double left = avail, flex_total = total;
    for (bool changed = true; changed;) {
        changed = false;
        size_t nflex = 0;
        for (size_t c = 0; c < t->ncols; c++)
            nflex += !fixed[c];
        for (size_t c = 0; c < t->ncols && nflex; c++)
            if (!fixed[c] && w[c] <= left / (double)nflex) {
                fixed[c] = true, changed = true;
                left -= w[c], flex_total -= w[c];
            }
    }
    for (size_t c = 0; c < t->ncols; c++)
        if (!fixed[c])
            w[c] = fmax(2 * cell_pad_x + 12, left * w[c] / flex_total);
    free(fixed);
}

/* One row of cells: its height; drawn only when draw is set. */
static double table_row(pdfdoc *d, const pdfdoc_table_spec *t, const double *w,
                        const char *const *cells, const text_style *s, bool draw)
{
    double lh = line_height(s), height = 0, x = margin;
    for (size_t c = 0; c < t->ncols && !d->oom; c++) {
        const char *text = cell_text(cells[c]);
        use_font(d, s);
        span_list l;
        wrap(d, text, w[c] - 2 * cell_pad_x, &l);
        height = fmax(height, (double)l.n * lh);
        for (size_t i = 0; draw && i < l.n && !d->oom; i++) {
            double lw = piece_width(d, text + l.lines[i].start, l.lines[i].len);
            double lx = t->align[c] == 'r' ? x + w[c] - cell_pad_x - lw : x + cell_pad_x;
            put_text(d, s, lx, d->y + cell_pad_y + (double)i * lh + s->size,
                     text + l.lines[i].start, l.lines[i].len);
        }
        free(l.lines);
        x += w[c];
    }
    return height + 2 * cell_pad_y;
}

static void rule(pdfdoc *d, double y, double width, double line)
{
    set_rgb(d->cr, RULE_RGB);
    cairo_set_line_width(d->cr, line);
    cairo_move_to(d->cr, margin, y);
    cairo_line_to(d->cr, margin + width, y);
    cairo_stroke(d->cr);
}

static void table_head(pdfdoc *d, const pdfdoc_table_spec *t, const double *w, double width)
{
    double h = table_row(d, t, w, t->head, &styles[HEAD], false);
    set_rgb(d->cr, HEAD_FILL_RGB);
    cairo_rectangle(d->cr, margin, d->y, width, h);
    cairo_fill(d->cr);
    table_row(d, t, w, t->head, &styles[HEAD], true);
    rule(d, d->y + h, width, 0.8);
    d->y += h;
    d->page_empty = false;
}

static void put_table(pdfdoc *d, const pdfdoc_table_spec *t)
{
    if (failed(d) || t->ncols == 0)
        return;
    double *w = calloc(t->ncols, sizeof *w);
    if (!w) {
        d->oom = true;
        return;
    }
    column_widths(d, t, w);
    double width = 0;
    for (size_t c = 0; c < t->ncols; c++)
        width += w[c];
    double head_h = table_row(d, t, w, t->head, &styles[HEAD], false);
    double first_h = t->nrows ? table_row(d, t, w, t->cells, &styles[CELL], false) : 0;
    need(d, head_h + first_h);
    table_head(d, t, w, width);
    for (size_t r = 0; r < t->nrows && !failed(d); r++) {
        const char *const *row = t->cells + r * t->ncols;
        double h = table_row(d, t, w, row, &styles[CELL], false);
        if (d->y + h > text_bottom()) {
            finish_page(d);
            table_head(d, t, w, width);
        }
        table_row(d, t, w, row, &styles[CELL], true);
        rule(d, d->y + h, width, 0.4);
        d->y += h;
    }
    d->y += block_gap;
    free(w);
}

/* ------------------------------------------------------------------ */
/* Figures                                                             */

/* The figure's size, drawing nothing (a figure of hundreds of points
 * was drawn twice, and the first drawing was thrown away). */
static bool measure_figure(pdfdoc_draw_fn draw, const void *ctx, double *w, double *h,
                           char *err, size_t errlen)
{
    *w = *h = 0;
    bool ok = draw(ctx, NULL, w, h, err, errlen);
    if (ok && !(*w > 0 && *h > 0)) {
        snprintf(err, errlen, "the figure is empty");
        ok = false;
    }
    return ok;
}

/* Place a figure of w x h (measured) at the cursor, drawn by draw. */
static bool place_figure(pdfdoc *d, pdfdoc_draw_fn draw, const void *ctx, double w, double h,
                         char *err, size_t errlen)
{
    double avail_h = text_bottom() - margin;
    double scale = fmin(1, fmin(text_width_avail() / w, avail_h / h));
    need(d, h * scale);
    draw_runs(d); /* what is above it, before it */
    cairo_save(d->cr);
    cairo_translate(d->cr, margin + (text_width_avail() - w * scale) / 2, d->y);
    cairo_scale(d->cr, scale, scale);
    bool ok = draw(ctx, d->cr, &w, &h, err, errlen);
    cairo_restore(d->cr);
    d->style = NULL; /* whatever the figure selected, select again */
    d->y += h * scale + block_gap;
    d->page_empty = false;
    return ok;
}

static bool end_doc(pdfdoc *d, size_t *pages, char *err, size_t errlen)
{
    bool ok = !failed(d);
    if (ok)
        draw_footer(d);
    cairo_destroy(d->cr);
    cairo_surface_finish(d->surface);
    cairo_status_t st = cairo_surface_status(d->surface);
    cairo_surface_destroy(d->surface);
    if (!ok)
        snprintf(err, errlen, "out of memory or cairo failed while drawing the PDF");
    else if (st != CAIRO_STATUS_SUCCESS)
        snprintf(err, errlen, "cairo pdf: %s", cairo_status_to_string(st));
    ok = ok && st == CAIRO_STATUS_SUCCESS;
    if (pages)
        *pages = d->page;
    rbuf_free(&d->scratch);
    memo_free(&d->texts);
    for (size_t i = 0; i < STYLE_COUNT; i++)
        free(d->runs[i].glyphs);
    free(d->title);
    free(d);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Entry points: each holds the drawing lock while it calls Cairo      */
/* (render/drawlock.h).                                                */

pdfdoc *pdfdoc_begin(rbuf *out, const char *title, const char *date, char *err, size_t errlen)
{
    drawlock_enter();
    pdfdoc *d = begin_doc(out, title, date, err, errlen);
    drawlock_leave();
    return d;
}

void pdfdoc_title(pdfdoc *d, const char *text)
{
    drawlock_enter();
    put_title(d, text);
    drawlock_leave();
}

void pdfdoc_heading(pdfdoc *d, int level, const char *text)
{
    drawlock_enter();
    put_heading(d, level, text);
    drawlock_leave();
}

void pdfdoc_paragraph(pdfdoc *d, const char *text)
{
    drawlock_enter();
    put_paragraph(d, text);
    drawlock_leave();
}

void pdfdoc_table(pdfdoc *d, const pdfdoc_table_spec *t)
{
    drawlock_enter();
    put_table(d, t);
    drawlock_leave();
}

/* Measured first, without the lock (measuring takes it: plot_measure),
 * then drawn straight onto the page under it: painting a recording
 * surface onto the page would draw once, but with Cairo 1.16 it leaves
 * font cache entries alive after the document is destroyed, and
 * plot_release_fonts then aborts on them. */
bool pdfdoc_figure(pdfdoc *d, pdfdoc_draw_fn draw, const void *ctx, char *err, size_t errlen)
{
    if (failed(d)) {
        snprintf(err, errlen, "the document failed before the figure");
        return false;
    }
    double w, h;
    if (!measure_figure(draw, ctx, &w, &h, err, errlen))
        return false;
    drawlock_enter();
    bool ok = place_figure(d, draw, ctx, w, h, err, errlen);
    drawlock_leave();
    return ok;
}

bool pdfdoc_end(pdfdoc *d, size_t *pages, char *err, size_t errlen)
{
    drawlock_enter();
    bool ok = end_doc(d, pages, err, errlen);
    drawlock_leave();
    return ok;
}
