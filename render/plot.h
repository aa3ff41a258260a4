/*
 * plot.h — the chart engine: an x-y plot drawn with Cairo as SVG or PNG,
 * or as vectors onto a Cairo context the caller gives (the PDF report).
 *
 * A plot is a list of layers (points, lines, bands, error bars, reference
 * lines) over two axes; this module chooses the ranges and ticks
 * (render/ticks.h), draws grid, frame, title, axis labels and a legend to
 * the right of the plot, and never fits or transforms data. Values that
 * cannot be shown (NaN, or <= 0 on a logarithmic axis) are left out and
 * counted in a note under the plot.
 *
 * Colours are an Okabe-Ito palette (distinguishable with the common
 * colour-vision deficiencies) adjusted so every colour has at least 3:1
 * contrast on its background, in a light and a dark scheme: the SVG
 * carries both in an embedded <style> chosen by prefers-color-scheme, the
 * PNG is light. Markers also differ between series so nothing depends on
 * colour alone. Ticks on a SCALE_LOG2 axis lie at the points' own x
 * values (render/ticks.h, ticks_use_values). Text is laid out with the metrics of
 * "DejaVu Sans" from fontconfig. Cairo draws everything on the PNG; on
 * the SVG it draws the graphics and the text is added as <text> elements
 * (selectable, readable by screen readers, a fraction of the size and of
 * the time of Cairo's glyph outlines), every string cleaned and
 * XML-escaped (render/escape.h).
 *
 * Output is deterministic: the same spec gives the same bytes (the SVG's
 * process-wide surface ids are renumbered from 1).
 *
 * Threads: charts may be drawn on several threads at once; text (Cairo's
 * shared fonts) is measured and drawn under the drawing lock
 * (render/drawlock.h), the graphics without it.
 */
#ifndef PERFCAST_RENDER_PLOT_H
#define PERFCAST_RENDER_PLOT_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>
#include "render/buf.h"
#include "render/ticks.h"

enum { PLOT_WIDTH = 400, PLOT_PALETTE_SIZE = 8 };

typedef enum { MARK_CIRCLE, MARK_SQUARE, MARK_TRIANGLE, MARK_DIAMOND, MARK_COUNT } plot_marker;

typedef enum {
    LAYER_POINTS,    /* a marker at each (x, y) */
    LAYER_LINE,      /* a polyline through (x, y) in the given order */
    LAYER_BAND,      /* the area between (x, lo) and (x, hi), x ascending */
    LAYER_ERRORBARS, /* a vertical bar from lo to hi at each x */
    LAYER_DIAGONAL,  /* the line y = x and the band y = x(1 +- band) */
    LAYER_HLINE      /* the line y = value and the band value +- band */
} plot_layer_kind;

/* Every chart is PLOT_WIDTH px wide (shown whole on a phone, text at its
 * size or nearly); its height grows with the legend under the plot, which
 * shows every entry. */
typedef struct {
    plot_layer_kind kind;
    const char *legend;  /* legend text; NULL = no entry. A layer with n = 0
                            and a legend is a legend entry only. */
    int color;           /* palette index (taken modulo the palette); -1 = grey */
    plot_marker marker;
    bool hollow;         /* markers drawn as outlines; BAND: its two edges
                            dashed instead of a filled area */
    bool dashed;         /* lines */
    const double *x, *y; /* n values each (y unused by BAND and ERRORBARS) */
    const double *lo, *hi;
    size_t n;
    double value;        /* HLINE: its y */
    double band;         /* DIAGONAL: relative half-width (0.1 = 10%);
                            HLINE: absolute half-width; 0 = no band */
} plot_layer;

typedef struct {
    const char *title;
    const char *x_label, *y_label; /* with units: "processors", "time (s)" */
    axis_scale x_scale, y_scale;
    bool same_range;  /* one range for both axes (y = x is the diagonal) */
    bool cover;       /* the axes also cover [x_min, x_max] x [y_min, y_max] */
    double x_min, x_max, y_min, y_max;
    const plot_layer *layers;
    size_t nlayers;
} plot_spec;

typedef enum { PLOT_SVG, PLOT_PNG } plot_format;

/* The height in px of the drawing of spec (0 when it cannot be drawn). */
int plot_height(const plot_spec *spec);

/* The same, with the reason in err when it cannot be drawn (false). */
bool plot_measure(const plot_spec *spec, int *height, char *err, size_t errlen);

/* Draw the plot and append the file's bytes to out. Returns false with a
 * reason in err when Cairo fails or memory runs out. */
bool plot_render(const plot_spec *spec, plot_format format, rbuf *out, char *err, size_t errlen);

/* Draw the plot as vectors onto cr (a PDF page, a recording surface):
 * the same drawing as the PNG's, Cairo glyphs included, its top-left
 * corner at cr's origin, PLOT_WIDTH units wide; *height receives its
 * height. cr's state is restored afterwards. Returns false with a reason in
 * err when the plot cannot be laid out or Cairo fails. The caller, who owns
 * cr, holds the drawing lock (render/drawlock.h) around it; plot_render and
 * plot_measure take it themselves. */
bool plot_draw(const plot_spec *spec, cairo_t *cr, int *height, char *err, size_t errlen);

/* Whether the charts' font, DejaVu Sans, is installed (asked of
 * fontconfig as Cairo asks it). False with the family fontconfig would
 * use instead in found ("" when it has no font at all): charts and PDFs
 * are still drawn, but laid out with another font's metrics (their bytes
 * differ from other machines') or with no text at all. */
bool plot_font_installed(char *found, size_t len);

/* Release the font caches Cairo and fontconfig keep for the life of the
 * process, so leak checkers see a clean exit. Call once, after the last
 * drawing of the process (no drawing may follow). */
void plot_release_fonts(void);

/* The palette colour i (modulo the palette; -1 = grey) as 0xRRGGBB. */
unsigned plot_color(int i);

#endif
