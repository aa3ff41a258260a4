/*
 * png.h — a fast PNG writer for chart images.
 *
 * Why not zlib's compressor (libpng's, also Cairo's own PNG writer): at
 * level 6 it cost about 5 ms for a 720 x 450 chart, four times the
 * drawing, and its exact output depends on the zlib version, so two
 * machines would publish different PNG bytes for the same archive. This
 * writer is plain C with fixed choices: the same bytes everywhere.
 *
 * Method: charts are large areas of one colour with lines and text, so
 * per row the Sub or Up filter (whichever leaves more pixels at zero),
 * runs of equal pixels written as zeros without arithmetic; then greedy
 * LZ77 over deflate's 32 KiB window (the run of the previous byte first,
 * then two earlier positions with the same three bytes: repeated glyphs,
 * rows like the ones above), and dynamic Huffman codes built from each
 * block's own symbol frequencies. On the bench chart (`make bench`) that
 * is 0.78 times gnuplot's pngcairo and 0.93 times libpng at zlib level 6
 * on the same pixels (tests/test_render.c); it costs about 0.1 ms a chart
 * (10-20% of drawing one) more than the run-length coder it replaced,
 * which wrote 1.16 times gnuplot's size.
 * Memory: about 400 KB whatever the image's size. Any PNG reader decodes
 * the result (the tests use Cairo's).
 */
#ifndef PERFCAST_RENDER_PNG_H
#define PERFCAST_RENDER_PNG_H

#include <cairo.h>
#include <stdbool.h>
#include "render/buf.h"

/* Append a PNG (8-bit RGB, no alpha, not interlaced) of the image whose
 * pixels are in Cairo's CAIRO_FORMAT_RGB24 layout: one native-endian
 * uint32 0x00RRGGBB per pixel, rows `stride` bytes apart. Returns false
 * for a size outside 1..16384 pixels or when out of memory. */
bool png_encode_rgb24(const unsigned char *pixels, int width, int height, int stride, rbuf *out);

/* Decode a PNG held in memory with Cairo's (libpng's) reader, independent
 * of the writer above. Ownership: the caller destroys the surface, which
 * is in an error state (cairo_surface_status) when data is no PNG. */
cairo_surface_t *png_decode(const void *data, size_t len);

/* What a PNG file holds, read back with Cairo's (libpng's) decoder: for
 * checking the charts a build wrote. */
typedef struct {
    int width, height;
    size_t colors;  /* distinct colours, counted up to 16 */
} png_info;

/* Decode data; false when it is not a PNG Cairo can read. */
bool png_inspect(const void *data, size_t len, png_info *info);

#endif
