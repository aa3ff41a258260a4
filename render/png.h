/*
 * png.h — the PNG writer for chart images.
 *
 * Rows are filtered as libpng does (per row, the one of None, Sub and Up
 * whose bytes read as signed sum least; a row equal to the one above is
 * Up, all zeros) and compressed by zlib's deflate at its
 * default level 6: about 20 KB for a 720 x 450 chart, 45% less than the
 * run-length encoder this replaced and a little less than Cairo's own
 * writer (libpng, same level), without libpng's per-pixel conversions.
 * Any PNG reader decodes the result (the tests use Cairo's).
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
