/*
 * plot.c — draws a plot_spec with Cairo (see plot.h).
 *
 * The same drawing code runs on an SVG surface and on an image surface;
 * font metrics are unhinted on both, so the layout is the same in the two
 * files and does not depend on the surface.
 */
#include "render/plot.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/drawlock.h"
#include "render/escape.h"
#include "render/png.h"

/* The colours of one scheme. Cairo draws with the light one; the SVG
 * names every colour as a CSS variable (plot_theme_role) whose value its
 * <style> sets per prefers-color-scheme, so a dark page shows a dark chart.
 *
 * The palette follows Okabe & Ito (2008), "Color Universal Design" (blue,
 * orange, bluish green, reddish purple, vermillion, black, sky blue,
 * yellow), darkened on white and lightened on the dark background where
 * the original falls below 3:1 contrast (orange 2.2:1 and yellow 1.3:1 on
 * white; black on dark). Two of its colours were too close to tell apart
 * once made legible: sky blue darkened to 3:1 is the blue again (a CIE76
 * difference of 7), and vermillion stays 21 from the darkened orange; a
 * purple (ColorBrewer's 0x5E3C99, on dark 0xB2ABD2) and a brick red
 * (0xC0392B, on dark 0xF4766B) take their places, so that every two
 * colours of a scheme are at least 27 apart (tests/test_charts.c checks
 * 20 on every chart). */
typedef struct {
    unsigned palette[PLOT_PALETTE_SIZE];
    unsigned grey, bg, grid, frame, text_dark, text_mid, text_muted;
} theme;

static const theme light = {
    {0x0072B2, 0xB36B00, 0x009E73, 0xB0508A, 0xC0392B, 0x000000, 0x5E3C99, 0x8A7A00},
    0x6B6B6B, 0xFFFFFF, 0xE0E0E0, 0x595959, 0x1A1A1A, 0x333333, 0x595959};
static const theme dark = {
    {0x4A9BD8, 0xE69F00, 0x009E73, 0xCC79A7, 0xF4766B, 0xE6E6E6, 0xB2ABD2, 0xF0E442},
    0x9E9E9E, 0x14171B, 0x33393F, 0xA8A8A8, 0xE4E8EC, 0xD0D4D8, 0xA8B0B8};

/* The themable colours in a fixed order: palette, then the others. */
enum { ROLE_GREY = PLOT_PALETTE_SIZE, ROLE_BG, ROLE_GRID, ROLE_FRAME, ROLE_TEXT_DARK,
       ROLE_TEXT_MID, ROLE_TEXT_MUTED, ROLE_COUNT };
static const char *const role_names[ROLE_COUNT] = {
    "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "grey", "bg", "grid", "frame", "text",
    "text-mid", "text-muted"};

static unsigned role_color(const theme *t, int role)
{
    if (role < PLOT_PALETTE_SIZE)
        return t->palette[role];
    const unsigned others[] = {t->grey, t->bg, t->grid, t->frame, t->text_dark, t->text_mid,
                               t->text_muted};
    return others[role - PLOT_PALETTE_SIZE];
}

/* The role of a light colour, -1 when it has none. */
static int light_role(unsigned rgb)
{
    for (int r = 0; r < ROLE_COUNT; r++)
        if (role_color(&light, r) == rgb)
            return r;
    return -1;
}

/* Sizes in px of the 400 px wide drawing. Shown at a 390 px viewport the
 * page's content column is 369 px wide (style.css: 0.6rem padding, a 1 px
 * border), so 12 px text still reads 11 px there. */
enum {
    MARGIN_TOP = 34, MARGIN_LEFT = 64, MARGIN_RIGHT = 14, PLOT_AREA_HEIGHT = 230,
    BELOW_PLOT = 50, LEGEND_ROW = 17, LEGEND_SYMBOL = 26, LEGEND_GAP = 16,
    FONT_TITLE = 13, FONT_LABEL = 12, FONT_TICK = 12, FONT_NOTE = 12
};

static const char *const font_family = "DejaVu Sans";

bool plot_font_installed(char *found, size_t len)
{
    snprintf(found, len, "%s", "");
    FcPattern *want = FcNameParse((const FcChar8 *)font_family);
    if (!want)
        return false;
    FcConfigSubstitute(NULL, want, FcMatchPattern);
    FcDefaultSubstitute(want);
    FcResult result;
    FcPattern *match = FcFontMatch(NULL, want, &result);
    FcChar8 *family = NULL;
    if (match && FcPatternGetString(match, FC_FAMILY, 0, &family) == FcResultMatch)
        snprintf(found, len, "%s", (const char *)family);
    if (match)
        FcPatternDestroy(match);
    FcPatternDestroy(want);
    return strcmp(found, font_family) == 0;
}

void plot_release_fonts(void)
{
    cairo_debug_reset_static_data();
    FcFini();
}

unsigned plot_color(int i)
{
    if (i < 0)
        return light.grey;
    return light.palette[i % PLOT_PALETTE_SIZE];
}

static void set_color(cairo_t *cr, unsigned rgb, double alpha)
{
    cairo_set_source_rgba(cr, ((rgb >> 16) & 0xFF) / 255.0, ((rgb >> 8) & 0xFF) / 255.0,
                          (rgb & 0xFF) / 255.0, alpha);
}

/* Where drawing goes. Graphics go to cr. Text is measured and drawn on
 * text, a second context on the same surface, each use of it between
 * text_begin and text_end: Cairo's fonts are shared between threads and
 * touched only under the drawing lock (render/drawlock.h), so the
 * graphics, most of a chart's time, are drawn without it. Drawing onto a
 * caller's context (plot_draw), text is cr and the caller holds the lock.
 *
 * Text becomes Cairo glyphs on the PNG; <text> elements on the SVG,
 * collected in svg_text and added after Cairo has written the graphics
 * (Cairo would write every glyph as an outline, which is most of the
 * file and of the time, and unreadable to screen readers and search). */
typedef struct {
    cairo_t *cr;
    cairo_t *text;
    bool take_lock; /* text_begin takes the drawing lock (false: the caller holds it) */
    rbuf *svg_text; /* NULL when drawing the PNG */
} canvas;

/* ------------------------------------------------------------------ */
/* Axes                                                                */

typedef struct {
    axis_ticks ticks;
    double lo, hi; /* the range shown: the ticks' range and a margin */
    double p0, p1; /* pixel positions of lo and hi */
} axis_map;

static bool showable(axis_scale scale, double v)
{
    return isfinite(v) && (scale == SCALE_LINEAR || v > 0);
}

static double to_px(const axis_map *m, double v)
{
    double lo = m->lo, hi = m->hi, t;
    if (m->ticks.scale == SCALE_LINEAR)
        t = (v - lo) / (hi - lo);
    else
        t = (log(v) - log(lo)) / (log(hi) - log(lo));
    return m->p0 + t * (m->p1 - m->p0);
}

typedef struct {
    double min, max;
    bool any;
} extent;

static void extend(extent *e, double v)
{
    if (!e->any || v < e->min)
        e->min = v;
    if (!e->any || v > e->max)
        e->max = v;
    e->any = true;
}

/* Extend e by the y values (y, lo, hi) a layer draws at point i. */
static void extend_y(extent *e, const plot_layer *l, size_t i, axis_scale scale)
{
    const double *values[3] = {l->y, l->lo, l->hi};
    for (int k = 0; k < 3; k++)
        if (values[k] && showable(scale, values[k][i]))
            extend(e, values[k][i]);
}

/* Data extents; counts the points that cannot be shown. */
static size_t data_extents(const plot_spec *s, extent *x, extent *y)
{
    size_t hidden = 0;
    for (size_t k = 0; k < s->nlayers; k++) {
        const plot_layer *l = &s->layers[k];
        if (l->kind == LAYER_HLINE) {
            extend(y, l->value - l->band);
            extend(y, l->value + l->band);
            continue;
        }
        if (l->kind == LAYER_DIAGONAL)
            continue;
        for (size_t i = 0; i < l->n; i++) {
            bool y_ok = l->kind == LAYER_POINTS || l->kind == LAYER_LINE
                            ? showable(s->y_scale, l->y[i])
                            : showable(s->y_scale, l->lo[i]) || showable(s->y_scale, l->hi[i]);
            if (!showable(s->x_scale, l->x[i]) || !y_ok) {
                hidden += l->kind == LAYER_POINTS;
                continue;
            }
            extend(x, l->x[i]);
            extend_y(y, l, i, s->y_scale);
        }
    }
    return hidden;
}

static void default_extent(extent *e, axis_scale scale)
{
    if (!e->any) {
        e->min = scale == SCALE_LINEAR ? 0 : 1;
        e->max = 10;
    }
}

/* Show a margin of 3% of the axis beyond its outer ticks, so markers on
 * the edge stay whole inside the frame. */
static void set_view(axis_map *m)
{
    double lo = m->ticks.lo, hi = m->ticks.hi;
    if (m->ticks.scale == SCALE_LINEAR) {
        double margin = (hi - lo) * 0.03;
        m->lo = lo - margin, m->hi = hi + margin;
    } else {
        double margin = pow(hi / lo, 0.03);
        m->lo = lo / margin, m->hi = hi * margin;
    }
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

typedef enum { ALIGN_LEFT, ALIGN_CENTER, ALIGN_RIGHT } align;

/* Clean text, shortened with an ellipsis to fit max_width (0 = no limit). */
static void fit_text(cairo_t *cr, const char *text, double max_width, rbuf *out)
{
    esc_text(out, text ? text : "");
    if (max_width <= 0 || out->oom)
        return;
    cairo_text_extents_t ext;
    cairo_text_extents(cr, rbuf_str(out), &ext);
    if (ext.x_advance <= max_width)
        return;
    while (out->len > 0) {
        /* Drop one UTF-8 character and try again with the ellipsis. */
        do
            out->len--;
        while (out->len > 0 && (out->data[out->len] & 0xC0) == 0x80);
        out->data[out->len] = '\0';
        size_t keep = out->len;
        rbuf_puts(out, "\xE2\x80\xA6");
        cairo_text_extents(cr, rbuf_str(out), &ext);
        if (ext.x_advance <= max_width || out->oom)
            return;
        out->len = keep;
        out->data[keep] = '\0';
    }
}

static void svg_text(rbuf *out, double x, double y, const char *text, align a, double size,
                     bool bold, unsigned rgb, bool vertical)
{
    static const char *const anchors[] = {"start", "middle", "end"};
    rbuf_printf(out, "<text x=\"%.2f\" y=\"%.2f\" font-family=\"DejaVu Sans, Verdana, sans-serif\" "
                "font-size=\"%g\"%s fill=\"#%06X\" text-anchor=\"%s\"", x, y, size,
                bold ? " font-weight=\"bold\"" : "", rgb, anchors[a]);
    int role = light_role(rgb);
    if (role >= 0)
        rbuf_printf(out, " style=\"fill:var(--%s)\"", role_names[role]);
    if (vertical)
        rbuf_printf(out, " transform=\"rotate(-90 %.2f %.2f)\"", x, y);
    rbuf_putc(out, '>');
    esc_html(out, text);
    rbuf_puts(out, "</text>\n");
}

/* cv's text context, the drawing lock held until text_end. */
static cairo_t *text_begin(const canvas *cv)
{
    if (cv->take_lock)
        drawlock_enter();
    return cv->text;
}

static void text_end(const canvas *cv)
{
    if (cv->take_lock)
        drawlock_leave();
}

/* Text at (x, y), aligned on x; vertical text reads bottom to top. */
static void draw_text(const canvas *cv, double x, double y, const char *text, align a,
                      double size, bool bold, double max_width, unsigned rgb, bool vertical)
{
    cairo_t *cr = text_begin(cv);
    cairo_select_font_face(cr, font_family, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    rbuf t;
    rbuf_init(&t);
    fit_text(cr, text, max_width, &t);
    if (cv->svg_text) {
        svg_text(cv->svg_text, x, y, rbuf_str(&t), a, size, bold, rgb, vertical);
    } else {
        cairo_text_extents_t ext;
        cairo_text_extents(cr, rbuf_str(&t), &ext);
        double dx = a == ALIGN_LEFT ? 0 : a == ALIGN_CENTER ? ext.x_advance / 2 : ext.x_advance;
        cairo_save(cr);
        cairo_translate(cr, x, y);
        if (vertical)
            cairo_rotate(cr, -M_PI / 2);
        set_color(cr, rgb, 1);
        cairo_move_to(cr, -dx, 0);
        cairo_show_text(cr, rbuf_str(&t));
        cairo_restore(cr);
    }
    text_end(cv);
    rbuf_free(&t);
}

static double text_width(cairo_t *cr, const char *text, double size)
{
    cairo_select_font_face(cr, font_family, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    rbuf t;
    rbuf_init(&t);
    esc_text(&t, text);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, rbuf_str(&t), &ext);
    rbuf_free(&t);
    return ext.x_advance;
}

/* ------------------------------------------------------------------ */
/* Marks                                                               */

static void marker_path(cairo_t *cr, plot_marker m, double x, double y)
{
    const double r = 4.2;
    switch (m) {
    case MARK_SQUARE:
        cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
        break;
    case MARK_TRIANGLE:
        cairo_move_to(cr, x, y - r * 1.1);
        cairo_line_to(cr, x + r, y + r * 0.8);
        cairo_line_to(cr, x - r, y + r * 0.8);
        cairo_close_path(cr);
        break;
    case MARK_DIAMOND:
        cairo_move_to(cr, x, y - r * 1.2);
        cairo_line_to(cr, x + r, y);
        cairo_line_to(cr, x, y + r * 1.2);
        cairo_line_to(cr, x - r, y);
        cairo_close_path(cr);
        break;
    default:
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, r, 0, 2 * M_PI);
        break;
    }
}

static void draw_marker(cairo_t *cr, const plot_layer *l, double x, double y)
{
    unsigned rgb = plot_color(l->color);
    marker_path(cr, l->marker % MARK_COUNT, x, y);
    if (l->hollow) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill_preserve(cr);
        set_color(cr, rgb, 1);
        cairo_set_line_width(cr, 1.6);
        cairo_stroke(cr);
    } else {
        set_color(cr, rgb, 1);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_set_line_width(cr, 0.8);
        cairo_stroke(cr);
    }
}

static void line_style(cairo_t *cr, const plot_layer *l, double width)
{
    static const double dash[] = {6, 4};
    set_color(cr, plot_color(l->color), 1);
    cairo_set_line_width(cr, width);
    cairo_set_dash(cr, dash, l->dashed ? 2 : 0, 0);
}

typedef struct {
    axis_map x, y;
    double left, top, right, bottom; /* the plot area */
} frame;

static bool point_ok(const plot_spec *s, double x, double y)
{
    return showable(s->x_scale, x) && showable(s->y_scale, y);
}

static void draw_points(cairo_t *cr, const plot_spec *s, const frame *f, const plot_layer *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (point_ok(s, l->x[i], l->y[i]))
            draw_marker(cr, l, to_px(&f->x, l->x[i]), to_px(&f->y, l->y[i]));
}

static void draw_line(cairo_t *cr, const plot_spec *s, const frame *f, const plot_layer *l)
{
    bool pen_down = false;
    for (size_t i = 0; i < l->n; i++) {
        if (!point_ok(s, l->x[i], l->y[i])) {
            pen_down = false;
            continue;
        }
        double px = to_px(&f->x, l->x[i]), py = to_px(&f->y, l->y[i]);
        if (pen_down)
            cairo_line_to(cr, px, py);
        else
            cairo_move_to(cr, px, py);
        pen_down = true;
    }
    line_style(cr, l, 2);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
}

/* The path so far stroked as the dashed edges of an outline-only band
 * (the textbook PI beside the calibrated one), in the layer's colour. */
static void stroke_band_edges(cairo_t *cr, int color)
{
    static const double dash[] = {4, 3};
    set_color(cr, plot_color(color), 1);
    cairo_set_line_width(cr, 1.3);
    cairo_set_dash(cr, dash, 2, 0);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
}

/* Fill one contiguous run [from, to) of the band. */
static void fill_band_run(cairo_t *cr, const frame *f, const plot_layer *l, size_t from, size_t to)
{
    if (to - from < 1)
        return;
    for (size_t i = from; i < to; i++) {
        double px = to_px(&f->x, l->x[i]), py = to_px(&f->y, l->hi[i]);
        if (i == from)
            cairo_move_to(cr, px, py);
        else
            cairo_line_to(cr, px, py);
    }
    for (size_t i = to; i-- > from;)
        cairo_line_to(cr, to_px(&f->x, l->x[i]), to_px(&f->y, l->lo[i]));
    cairo_close_path(cr);
    if (to - from == 1) { /* a single x: a short bar shows the interval */
        double px = to_px(&f->x, l->x[from]);
        cairo_new_path(cr);
        cairo_rectangle(cr, px - 4, to_px(&f->y, l->hi[from]), 8,
                        to_px(&f->y, l->lo[from]) - to_px(&f->y, l->hi[from]));
    }
    if (l->hollow) { /* outline only: the two edges, dashed */
        cairo_new_path(cr);
        for (int edge = 0; edge < 2; edge++) {
            const double *v = edge ? l->hi : l->lo;
            for (size_t i = from; i < to; i++) {
                double px = to_px(&f->x, l->x[i]), py = to_px(&f->y, v[i]);
                if (i == from)
                    cairo_move_to(cr, px - (to - from == 1 ? 5 : 0), py);
                cairo_line_to(cr, px + (to - from == 1 ? 5 : 0), py);
            }
        }
        stroke_band_edges(cr, l->color);
        return;
    }
    set_color(cr, plot_color(l->color), 0.22);
    cairo_fill_preserve(cr);
    set_color(cr, plot_color(l->color), 0.55);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
}

static void draw_band(cairo_t *cr, const plot_spec *s, const frame *f, const plot_layer *l)
{
    size_t from = 0;
    for (size_t i = 0; i <= l->n; i++) {
        bool ok = i < l->n && showable(s->x_scale, l->x[i]) && showable(s->y_scale, l->lo[i]) &&
                  showable(s->y_scale, l->hi[i]);
        if (!ok) {
            fill_band_run(cr, f, l, from, i);
            from = i + 1;
        }
    }
}

static void draw_errorbars(cairo_t *cr, const plot_spec *s, const frame *f, const plot_layer *l)
{
    line_style(cr, l, 1.2);
    for (size_t i = 0; i < l->n; i++) {
        if (!point_ok(s, l->x[i], l->lo[i]) || !showable(s->y_scale, l->hi[i]))
            continue;
        double px = to_px(&f->x, l->x[i]);
        double y0 = to_px(&f->y, l->lo[i]), y1 = to_px(&f->y, l->hi[i]);
        cairo_move_to(cr, px, y0);
        cairo_line_to(cr, px, y1);
        cairo_move_to(cr, px - 3, y0);
        cairo_line_to(cr, px + 3, y0);
        cairo_move_to(cr, px - 3, y1);
        cairo_line_to(cr, px + 3, y1);
    }
    cairo_stroke(cr);
}

/* y = x and its relative band, or y = value and its absolute band. */
static void draw_reference(cairo_t *cr, const frame *f, const plot_layer *l)
{
    double x0 = f->x.lo, x1 = f->x.hi;
    double a0, a1, b0, b1, c0, c1; /* band low, band high, line at x0 and x1 */
    if (l->kind == LAYER_DIAGONAL) {
        a0 = x0 * (1 - l->band), a1 = x1 * (1 - l->band);
        b0 = x0 * (1 + l->band), b1 = x1 * (1 + l->band);
        c0 = x0, c1 = x1;
    } else {
        a0 = a1 = l->value - l->band;
        b0 = b1 = l->value + l->band;
        c0 = c1 = l->value;
    }
    if (l->band > 0 && showable(f->y.ticks.scale, a0) && showable(f->y.ticks.scale, a1)) {
        cairo_move_to(cr, f->left, to_px(&f->y, a0));
        cairo_line_to(cr, f->right, to_px(&f->y, a1));
        cairo_line_to(cr, f->right, to_px(&f->y, b1));
        cairo_line_to(cr, f->left, to_px(&f->y, b0));
        cairo_close_path(cr);
        set_color(cr, plot_color(l->color), 0.15);
        cairo_fill(cr);
    }
    if (showable(f->y.ticks.scale, c0)) {
        cairo_move_to(cr, f->left, to_px(&f->y, c0));
        cairo_line_to(cr, f->right, to_px(&f->y, c1));
        line_style(cr, l, 1.2);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
}

static void draw_layer(cairo_t *cr, const plot_spec *s, const frame *f, const plot_layer *l)
{
    switch (l->kind) {
    case LAYER_POINTS: draw_points(cr, s, f, l); break;
    case LAYER_LINE: draw_line(cr, s, f, l); break;
    case LAYER_BAND: draw_band(cr, s, f, l); break;
    case LAYER_ERRORBARS: draw_errorbars(cr, s, f, l); break;
    case LAYER_DIAGONAL:
    case LAYER_HLINE: draw_reference(cr, f, l); break;
    }
}

/* ------------------------------------------------------------------ */
/* Legend                                                              */

static bool has_legend(const plot_layer *l)
{
    return l->legend && l->legend[0];
}

static size_t legend_entries(const plot_spec *s)
{
    size_t n = 0;
    for (size_t k = 0; k < s->nlayers; k++)
        n += has_legend(&s->layers[k]);
    return n;
}

/* The widest legend text. */
static double legend_text_width(cairo_t *cr, const plot_spec *s)
{
    double w = 0;
    for (size_t k = 0; k < s->nlayers; k++)
        if (has_legend(&s->layers[k]))
            w = fmax(w, text_width(cr, s->layers[k].legend, FONT_TICK));
    return w;
}

static void legend_symbol(cairo_t *cr, const plot_layer *l, double x, double y)
{
    switch (l->kind) {
    case LAYER_POINTS:
        draw_marker(cr, l, x + LEGEND_SYMBOL / 2.0, y);
        break;
    case LAYER_BAND:
        if (l->hollow) {
            cairo_move_to(cr, x, y - 4);
            cairo_line_to(cr, x + LEGEND_SYMBOL - 4, y - 4);
            cairo_move_to(cr, x, y + 4);
            cairo_line_to(cr, x + LEGEND_SYMBOL - 4, y + 4);
            stroke_band_edges(cr, l->color);
            break;
        }
        /* fall through */
    case LAYER_ERRORBARS:
        cairo_rectangle(cr, x, y - 6, LEGEND_SYMBOL - 4, 12);
        set_color(cr, plot_color(l->color), l->kind == LAYER_BAND ? 0.3 : 0.6);
        cairo_fill(cr);
        break;
    default: /* lines and references: a stroke, over a band patch if any */
        if ((l->kind == LAYER_DIAGONAL || l->kind == LAYER_HLINE) && l->band > 0) {
            cairo_rectangle(cr, x, y - 6, LEGEND_SYMBOL - 4, 12);
            set_color(cr, plot_color(l->color), 0.15);
            cairo_fill(cr);
        }
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x + LEGEND_SYMBOL - 4, y);
        line_style(cr, l, 2);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        break;
    }
}

/* The legend sits under the plot, every entry shown (the drawing grows
 * instead of cutting entries), in as many columns as the widest entry
 * allows; in one column an entry wider than the drawing takes more lines
 * (rows counts lines then). */
typedef struct {
    size_t entries, columns, rows;
    double column_width;
} legend_layout;

enum { LEGEND_MAX_LINES = 8 };

/* The room for an entry's text in a legend column. */
static double legend_text_room(const legend_layout *g)
{
    return g->column_width - LEGEND_SYMBOL - 6;
}

/* Where the lines of a legend text start (offsets into text; the first is
 * 0) when it must fit `room`: a line that does not fit breaks after its
 * last ", " that keeps it within room. A part without such a break stays
 * one line (draw_text cuts it). Returns the number of lines. */
static size_t legend_lines(cairo_t *cr, const char *text, double room,
                           size_t starts[LEGEND_MAX_LINES])
{
    char line[512];
    size_t n = 0, at = 0;
    starts[n++] = 0;
    while (n < LEGEND_MAX_LINES && text_width(cr, text + at, FONT_TICK) > room) {
        size_t best = 0;
        for (const char *p = strstr(text + at, ", "); p; p = strstr(p + 2, ", ")) {
            size_t len = (size_t)(p - text) + 1 - at; /* keeps the comma */
            if (len >= sizeof line)
                break;
            memcpy(line, text + at, len);
            line[len] = '\0';
            if (text_width(cr, line, FONT_TICK) > room)
                break;
            best = len + 1; /* the next line starts after ", " */
        }
        if (best == 0)
            break;
        at += best;
        starts[n++] = at;
    }
    return n;
}

static legend_layout layout_legend(cairo_t *cr, const plot_spec *s)
{
    legend_layout g = {legend_entries(s), 1, 0, PLOT_WIDTH - 16};
    if (g.entries == 0)
        return g;
    double entry = LEGEND_SYMBOL + 2 + legend_text_width(cr, s) + LEGEND_GAP;
    size_t fit = (size_t)((PLOT_WIDTH - 16) / entry);
    g.columns = fit < 1 ? 1 : fit > g.entries ? g.entries : fit;
    g.rows = (g.entries + g.columns - 1) / g.columns;
    g.column_width = (PLOT_WIDTH - 16) / (double)g.columns;
    if (g.columns == 1) {
        size_t starts[LEGEND_MAX_LINES];
        g.rows = 0;
        for (size_t k = 0; k < s->nlayers; k++)
            if (has_legend(&s->layers[k]))
                g.rows += legend_lines(cr, s->layers[k].legend, legend_text_room(&g), starts);
    }
    return g;
}

static void draw_legend(const canvas *cv, const plot_spec *s, const legend_layout *g, double top)
{
    size_t slot = 0; /* line slots used so far, column by column */
    char line[512];
    for (size_t k = 0; k < s->nlayers; k++) {
        const plot_layer *l = &s->layers[k];
        if (!has_legend(l))
            continue;
        double x = 8 + (double)(slot / g->rows) * g->column_width;
        double y = top + (double)(slot % g->rows) * LEGEND_ROW + 8;
        legend_symbol(cv->cr, l, x, y);
        size_t starts[LEGEND_MAX_LINES];
        size_t n = legend_lines(text_begin(cv), l->legend, legend_text_room(g), starts);
        text_end(cv);
        for (size_t j = 0; j < n; j++) {
            size_t end = j + 1 < n ? starts[j + 1] - 1 : strlen(l->legend);
            size_t len = end - starts[j] < sizeof line ? end - starts[j] : sizeof line - 1;
            memcpy(line, l->legend + starts[j], len);
            line[len] = '\0';
            draw_text(cv, x + LEGEND_SYMBOL + 2, y + 4 + (double)j * LEGEND_ROW, line, ALIGN_LEFT,
                      FONT_TICK, false, legend_text_room(g), light.text_dark, false);
        }
        slot += n;
    }
}

/* ------------------------------------------------------------------ */
/* Axes, grid, frame                                                   */

/* Tick labels from left to right, each left out where it would touch the
 * one drawn before it (the tick and its grid line stay). */
static void draw_x_tick_labels(const canvas *cv, const frame *f)
{
    double last_right = -1e9;
    for (size_t i = 0; i < f->x.ticks.n; i++) {
        double px = to_px(&f->x, f->x.ticks.at[i]);
        double half = text_width(text_begin(cv), f->x.ticks.label[i], FONT_TICK) / 2;
        text_end(cv);
        if (px - half < last_right + 3)
            continue;
        draw_text(cv, px, f->bottom + 16, f->x.ticks.label[i], ALIGN_CENTER, FONT_TICK, false, 0,
                  light.text_mid, false);
        last_right = px + half;
    }
}

static void draw_axes(const canvas *cv, const plot_spec *s, const frame *f)
{
    cairo_t *cr = cv->cr;
    cairo_set_line_width(cr, 1);
    set_color(cr, light.grid, 1);
    for (size_t i = 0; i < f->x.ticks.n; i++) {
        double px = round(to_px(&f->x, f->x.ticks.at[i])) + 0.5;
        cairo_move_to(cr, px, f->top);
        cairo_line_to(cr, px, f->bottom);
    }
    for (size_t i = 0; i < f->y.ticks.n; i++) {
        double py = round(to_px(&f->y, f->y.ticks.at[i])) + 0.5;
        cairo_move_to(cr, f->left, py);
        cairo_line_to(cr, f->right, py);
    }
    cairo_stroke(cr);
    draw_x_tick_labels(cv, f);
    for (size_t i = 0; i < f->y.ticks.n; i++)
        draw_text(cv, f->left - 6, to_px(&f->y, f->y.ticks.at[i]) + 4, f->y.ticks.label[i],
                  ALIGN_RIGHT, FONT_TICK, false, 0, light.text_mid, false);
    draw_text(cv, (f->left + f->right) / 2, f->bottom + 34, s->x_label, ALIGN_CENTER, FONT_LABEL,
              false, PLOT_WIDTH - 16, light.text_mid, false);
    draw_text(cv, 16, (f->top + f->bottom) / 2, s->y_label, ALIGN_CENTER, FONT_LABEL, false,
              f->bottom - f->top + 30, light.text_mid, true);
}

static void draw_frame(cairo_t *cr, const frame *f)
{
    set_color(cr, light.frame, 1);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, round(f->left) + 0.5, round(f->top) + 0.5, round(f->right - f->left),
                    round(f->bottom - f->top));
    cairo_stroke(cr);
}

/* ------------------------------------------------------------------ */
/* The whole plot                                                      */

/* On a process-count axis the ticks go at the processes the data has
 * (3, 6, 12, 14), not only at powers of two: the x of every drawn point,
 * line and band, and the range the axes must cover. */
static void ticks_at_data(const plot_spec *s, axis_ticks *t)
{
    size_t n = 2;
    for (size_t k = 0; k < s->nlayers; k++)
        n += s->layers[k].n;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return; /* the computed ticks stay */
    n = 0;
    for (size_t k = 0; k < s->nlayers; k++) {
        const plot_layer *l = &s->layers[k];
        bool drawn = l->kind == LAYER_POINTS || l->kind == LAYER_LINE || l->kind == LAYER_BAND;
        for (size_t i = 0; drawn && i < l->n; i++)
            if (showable(s->x_scale, l->x[i]))
                v[n++] = l->x[i];
    }
    if (s->cover && showable(s->x_scale, s->x_min) && showable(s->x_scale, s->x_max))
        v[n++] = s->x_min, v[n++] = s->x_max;
    ticks_use_values(t, v, n);
    free(v);
}

/* Where everything goes: computed once, before the surface exists (the
 * SVG's height must be known when it is created). */
typedef struct {
    frame f;
    size_t hidden;
    legend_layout legend;
    double legend_top, note_y;
    int height;
} layout;

static bool make_frame(const plot_spec *s, frame *f, size_t *hidden)
{
    extent ex = {0}, ey = {0};
    *hidden = data_extents(s, &ex, &ey);
    if (s->same_range) {
        if (ey.any) {
            extend(&ex, ey.min);
            extend(&ex, ey.max);
        }
        ey = ex;
    }
    if (s->cover) {
        const double xs[2] = {s->x_min, s->x_max}, ys[2] = {s->y_min, s->y_max};
        for (int k = 0; k < 2; k++) {
            if (showable(s->x_scale, xs[k]))
                extend(&ex, xs[k]);
            if (showable(s->y_scale, ys[k]))
                extend(&ey, ys[k]);
        }
    }
    default_extent(&ex, s->x_scale);
    default_extent(&ey, s->y_scale);
    if (!ticks_compute(s->x_scale, ex.min, ex.max, &f->x.ticks) ||
        !ticks_compute(s->y_scale, ey.min, ey.max, &f->y.ticks))
        return false;
    if (s->x_scale == SCALE_LOG2)
        ticks_at_data(s, &f->x.ticks);
    set_view(&f->x);
    set_view(&f->y);
    f->left = MARGIN_LEFT;
    f->top = MARGIN_TOP;
    f->right = PLOT_WIDTH - MARGIN_RIGHT;
    f->bottom = MARGIN_TOP + PLOT_AREA_HEIGHT;
    if (s->same_range) { /* a square plot: y = x at 45 degrees */
        double side = fmin(f->right - f->left, f->bottom - f->top);
        f->right = f->left + side;
        f->bottom = f->top + side;
    }
    f->x.p0 = f->left, f->x.p1 = f->right;
    f->y.p0 = f->bottom, f->y.p1 = f->top;
    return true;
}

static void set_font_options(cairo_t *cr)
{
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_set_font_options(cr, fo);
    cairo_font_options_destroy(fo);
}

/* Lay the plot out, measuring text on a scratch surface. */
static bool make_layout(const plot_spec *s, layout *lay, char *err, size_t errlen)
{
    if (!make_frame(s, &lay->f, &lay->hidden)) {
        snprintf(err, errlen, "no usable axis range");
        return false;
    }
    cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *cr = cairo_create(scratch);
    set_font_options(cr);
    lay->legend = layout_legend(cr, s);
    bool ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    cairo_surface_destroy(scratch);
    if (!ok) {
        snprintf(err, errlen, "cairo: cannot measure text");
        return false;
    }
    lay->legend_top = MARGIN_TOP + PLOT_AREA_HEIGHT + BELOW_PLOT;
    double y = lay->legend_top + (double)lay->legend.rows * LEGEND_ROW + 4;
    lay->note_y = y + 12;
    lay->height = (int)ceil(y + (lay->hidden ? 22 : 6));
    return true;
}

/* make_layout under the drawing lock: it measures text. */
static bool layout_locked(const plot_spec *s, layout *lay, char *err, size_t errlen)
{
    drawlock_enter();
    bool ok = make_layout(s, lay, err, errlen);
    drawlock_leave();
    return ok;
}

bool plot_measure(const plot_spec *spec, int *height, char *err, size_t errlen)
{
    layout lay;
    bool ok = layout_locked(spec, &lay, err, errlen);
    *height = ok ? lay.height : 0;
    return ok;
}

int plot_height(const plot_spec *spec)
{
    int height;
    char err[64];
    return plot_measure(spec, &height, err, sizeof err) ? height : 0;
}

static bool draw_plot(const canvas *cv, const plot_spec *s, const layout *lay, char *err,
                      size_t errlen)
{
    cairo_t *cr = cv->cr;
    set_color(cr, light.bg, 1);
    cairo_paint(cr);
    const frame *f = &lay->f;
    draw_text(cv, PLOT_WIDTH / 2.0, 22, s->title, ALIGN_CENTER, FONT_TITLE, true, PLOT_WIDTH - 12,
              light.text_dark, false);
    draw_axes(cv, s, f);
    cairo_save(cr);
    cairo_rectangle(cr, f->left, f->top, f->right - f->left, f->bottom - f->top);
    cairo_clip(cr);
    for (size_t k = 0; k < s->nlayers; k++)
        draw_layer(cr, s, f, &s->layers[k]);
    cairo_restore(cr);
    draw_frame(cr, f);
    draw_legend(cv, s, &lay->legend, lay->legend_top);
    if (lay->hidden) {
        char note[96];
        snprintf(note, sizeof note, "%zu point%s not shown (missing, or not positive on a log axis)",
                 lay->hidden, lay->hidden == 1 ? "" : "s");
        draw_text(cv, 8, lay->note_y, note, ALIGN_LEFT, FONT_NOTE, false, PLOT_WIDTH - 16,
                  light.text_muted, false);
    }
    cairo_status_t st = cairo_status(cr);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_status(cv->text);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(err, errlen, "cairo: %s", cairo_status_to_string(st));
        return false;
    }
    return true;
}

/* A canvas of two contexts on surface (see canvas); close_canvas ends it. */
static canvas open_canvas(cairo_surface_t *surface, rbuf *svg_text)
{
    canvas cv = {cairo_create(surface), NULL, true, svg_text};
    drawlock_enter();
    cv.text = cairo_create(surface);
    set_font_options(cv.text);
    drawlock_leave();
    return cv;
}

static void close_canvas(canvas *cv)
{
    cairo_destroy(cv->cr);
    drawlock_enter(); /* releases the fonts it used */
    cairo_destroy(cv->text);
    drawlock_leave();
}

/* ------------------------------------------------------------------ */
/* Surfaces                                                            */

static cairo_status_t write_to_rbuf(void *closure, const unsigned char *data, unsigned int len)
{
    return rbuf_put(closure, data, len) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* Cairo names the SVG's top group after a process-wide surface counter
 * ("surface58"); renumber such ids from 1 so the bytes do not depend on
 * how many charts the process drew before. */
static void normalize_svg_ids(const char *s, size_t len, rbuf *out)
{
    static const char key[] = "surface";
    unsigned long seen[16];
    size_t nseen = 0;
    const char *end = s + len;
    while (s < end) {
        const char *hit = strstr(s, key);
        if (!hit || hit >= end) {
            rbuf_put(out, s, (size_t)(end - s));
            return;
        }
        const char *digits = hit + sizeof key - 1, *d = digits;
        while (d < end && *d >= '0' && *d <= '9')
            d++;
        rbuf_put(out, s, (size_t)(digits - s));
        s = d;
        if (d == digits)
            continue;
        unsigned long id = strtoul(digits, NULL, 10);
        size_t i = 0;
        while (i < nseen && seen[i] != id)
            i++;
        if (i == nseen && nseen < 16)
            seen[nseen++] = id;
        rbuf_printf(out, "%zu", i + 1);
    }
}

/* Cairo writes colours as "fill:rgb(0%,44.705882%,69.803922%)": each
 * becomes "#0072B2", followed where it is a themed colour by the same
 * property as a CSS variable ("fill:#0072B2;fill:var(--c0)"): browsers
 * take the variable, a viewer without CSS variables the plain colour. */
static void theme_svg_colors(const char *s, size_t len, rbuf *out)
{
    const char *end = s + len;
    while (s < end) {
        const char *hit = strstr(s, "rgb(");
        double c[3];
        int used = 0;
        char token[64] = ""; /* sscanf on a copy: on the whole file it would measure it each time */
        if (hit && hit < end)
            snprintf(token, sizeof token, "%.*s", (int)fmin(63, (double)(end - hit)), hit);
        if (!hit || hit >= end ||
            sscanf(token, "rgb(%lf%%,%lf%%,%lf%%)%n", &c[0], &c[1], &c[2], &used) != 3 || !used) {
            const char *stop = hit && hit < end ? hit + 4 : end;
            rbuf_put(out, s, (size_t)(stop - s));
            s = stop;
            continue;
        }
        rbuf_put(out, s, (size_t)(hit - s));
        unsigned rgb = 0;
        for (int k = 0; k < 3; k++)
            rgb = rgb << 8 | (unsigned)lround(fmin(fmax(c[k], 0), 100) * 2.55);
        rbuf_printf(out, "#%06X", rgb);
        int role = light_role(rgb);
        size_t before = (size_t)(hit - s);
        const char *prop = before >= 5 && strncmp(hit - 5, "fill:", 5) == 0       ? "fill"
                           : before >= 7 && strncmp(hit - 7, "stroke:", 7) == 0 ? "stroke"
                                                                                : NULL;
        if (role >= 0 && prop)
            rbuf_printf(out, ";%s:var(--%s)", prop, role_names[role]);
        s = hit + used;
    }
}

/* The stylesheet that sets the colour variables per colour scheme. */
static void theme_style(rbuf *out)
{
    const theme *schemes[2] = {&light, &dark};
    rbuf_puts(out, "<style>");
    for (int k = 0; k < 2; k++) {
        rbuf_puts(out, k ? "@media (prefers-color-scheme: dark){svg{" : "svg{");
        for (int r = 0; r < ROLE_COUNT; r++)
            rbuf_printf(out, "--%s:#%06X;", role_names[r], role_color(schemes[k], r));
        rbuf_puts(out, k ? "}}" : "}");
    }
    rbuf_puts(out, "</style>\n");
}

/* The SVG as it is published: Cairo's graphics with renumbered ids and
 * themed colours, the stylesheet first, the text elements last. */
static void finish_svg(const char *raw, const char *end, const rbuf *texts, rbuf *out)
{
    rbuf ids;
    rbuf_init(&ids);
    normalize_svg_ids(raw, (size_t)(end - raw), &ids);
    const char *svg = strstr(rbuf_str(&ids), "<svg");
    const char *open_end = svg ? strchr(svg, '>') : NULL;
    size_t head = open_end ? (size_t)(open_end + 1 - rbuf_str(&ids)) : 0;
    rbuf_put(out, ids.data, head);
    rbuf_putc(out, '\n');
    theme_style(out);
    theme_svg_colors(rbuf_str(&ids) + head, ids.len - head, out);
    rbuf_put(out, texts->data, texts->len);
    rbuf_puts(out, end);
    rbuf_free(&ids);
}

/* The SVG: Cairo's graphics with the text elements added. */
static bool render_svg(const plot_spec *spec, const layout *lay, rbuf *out, char *err,
                       size_t errlen)
{
    rbuf raw;
    rbuf_init(&raw);
    cairo_surface_t *surface =
        cairo_svg_surface_create_for_stream(write_to_rbuf, &raw, PLOT_WIDTH, lay->height);
    cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1);
#if CAIRO_VERSION >= CAIRO_VERSION_ENCODE(1, 16, 0)
    cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX);
#endif
    rbuf texts;
    rbuf_init(&texts);
    canvas cv = open_canvas(surface, &texts);
    bool ok = draw_plot(&cv, spec, lay, err, errlen);
    close_canvas(&cv);
    cairo_surface_finish(surface);
    cairo_status_t st = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    if (ok && (st != CAIRO_STATUS_SUCCESS || raw.oom)) {
        snprintf(err, errlen, "cairo svg: %s", cairo_status_to_string(st));
        ok = false;
    }
    const char *end = ok ? strstr(rbuf_str(&raw), "</svg>") : NULL;
    if (ok && !end) {
        snprintf(err, errlen, "cairo svg: no </svg>");
        ok = false;
    }
    if (ok)
        finish_svg(rbuf_str(&raw), end, &texts, out);
    rbuf_free(&raw);
    rbuf_free(&texts);
    return ok && !out->oom;
}

static bool render_png(const plot_spec *spec, const layout *lay, rbuf *out, char *err,
                       size_t errlen)
{
    cairo_surface_t *surface =
        cairo_image_surface_create(CAIRO_FORMAT_RGB24, PLOT_WIDTH, lay->height);
    canvas cv = open_canvas(surface, NULL);
    bool ok = draw_plot(&cv, spec, lay, err, errlen);
    close_canvas(&cv);
    cairo_surface_flush(surface);
    if (ok && cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        snprintf(err, errlen, "cairo: %s", cairo_status_to_string(cairo_surface_status(surface)));
        ok = false;
    }
    if (ok && !png_encode_rgb24(cairo_image_surface_get_data(surface), PLOT_WIDTH, lay->height,
                                cairo_image_surface_get_stride(surface), out)) {
        snprintf(err, errlen, "out of memory");
        ok = false;
    }
    cairo_surface_destroy(surface);
    return ok;
}

bool plot_draw(const plot_spec *spec, cairo_t *cr, int *height, char *err, size_t errlen)
{
    layout lay;
    if (!make_layout(spec, &lay, err, errlen))
        return false;
    /* The clip keeps draw_plot's background paint inside the chart. */
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, PLOT_WIDTH, lay.height);
    cairo_clip(cr);
    set_font_options(cr);
    canvas cv = {cr, cr, false, NULL};
    bool ok = draw_plot(&cv, spec, &lay, err, errlen);
    cairo_restore(cr);
    *height = lay.height;
    return ok;
}

bool plot_render(const plot_spec *spec, plot_format format, rbuf *out, char *err, size_t errlen)
{
    layout lay;
    if (!layout_locked(spec, &lay, err, errlen))
        return false;
    return format == PLOT_SVG ? render_svg(spec, &lay, out, err, errlen)
                              : render_png(spec, &lay, out, err, errlen);
}
