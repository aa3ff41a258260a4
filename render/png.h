/*
 * png.h — a fast PNG writer for chart images.
 *
 * zlib (libpng's compressor, also Cairo's own PNG writer) costs about 5 ms
 * for a 720 x 450 chart, four times the drawing itself, and the site has
 * thousands of charts. Charts are large areas of one colour with a few
 * lines, so this writer uses what that shape allows: per row the Sub or Up
 * filter (whichever leaves more pixels at zero), runs of zero bytes as
 * repeats of the previous byte, and one deflate block whose Huffman codes
 * are built from the image's own symbol frequencies. About 1.4 times
 * zlib's size at level 6 (and smaller than gnuplot's pngcairo for the same
 * chart: `make bench`) for a fraction of its time. Any PNG reader decodes
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
