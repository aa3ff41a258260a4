/*
 * png.c — PNG chunks, row filters and zlib's deflate (see png.h).
 */
#include "render/png.h"

#include <cairo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* zlib's level 6 (its default, libpng's too) with the filters below gives
 * about 20 KB for a 720 x 450 chart; lower levels save a little time and
 * cost 15-30% in size. */
#define PNG_DEFLATE_LEVEL 6

/* ------------------------------------------------------------------ */
/* Rows                                                                */

enum { FILTER_NONE, FILTER_SUB, FILTER_UP, FILTERS };

/* The sum of the filtered bytes read as signed: libpng's heuristic for the
 * filter that compresses best. */
static unsigned long cost(const unsigned char *v, size_t len)
{
    unsigned long sum = 0;
    for (size_t i = 0; i < len; i++)
        sum += v[i] < 128 ? v[i] : 256u - v[i];
    return sum;
}

/* The row's filter type byte and filtered bytes into out (1 + len bytes),
 * with the filter of least cost; try holds FILTERS * len bytes of scratch.
 * Average and Paeth, which libpng also tries, saved under 1% on charts
 * and cost as much time as the rest. */
static void best_filtered_row(const unsigned char *row, const unsigned char *above, size_t len,
                              unsigned char *try, unsigned char *out)
{
    int best = FILTER_UP;
    if (memcmp(row, above, len) != 0) {
        unsigned char *sub = try + FILTER_SUB * len, *up = try + FILTER_UP * len;
        memcpy(try, row, len);
        memcpy(sub, row, 3);
        for (size_t i = 3; i < len; i++)
            sub[i] = (unsigned char)(row[i] - row[i - 3]);
        for (size_t i = 0; i < len; i++)
            up[i] = (unsigned char)(row[i] - above[i]);
        unsigned long least = 0;
        for (int f = 0; f < FILTERS; f++) {
            unsigned long c = cost(try + (size_t)f * len, len);
            if (f == 0 || c < least) {
                least = c;
                best = f;
            }
        }
        memcpy(out + 1, try + (size_t)best * len, len);
    } else {
        memset(out + 1, 0, len);
    }
    out[0] = (unsigned char)best;
}

/* Cairo's RGB24 pixels (native-endian 0x00RRGGBB) as R, G, B bytes. */
static void unpack_row(const uint32_t *px, int width, unsigned char *rgb)
{
    for (int x = 0; x < width; x++) {
        rgb[3 * x] = (unsigned char)(px[x] >> 16);
        rgb[3 * x + 1] = (unsigned char)(px[x] >> 8);
        rgb[3 * x + 2] = (unsigned char)px[x];
    }
}

/* ------------------------------------------------------------------ */
/* Chunks                                                              */

static void put_u32(rbuf *b, uint32_t v)
{
    unsigned char be[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 8), (unsigned char)v};
    rbuf_put(b, be, 4);
}

/* Finish the chunk whose length field starts at `start`. */
static void end_chunk(rbuf *b, size_t start)
{
    if (b->oom)
        return;
    unsigned char *chunk = (unsigned char *)b->data + start;
    uint32_t len = (uint32_t)(b->len - start - 8);
    chunk[0] = (unsigned char)(len >> 24), chunk[1] = (unsigned char)(len >> 16);
    chunk[2] = (unsigned char)(len >> 8), chunk[3] = (unsigned char)len;
    put_u32(b, (uint32_t)crc32(0, chunk + 4, len + 4));
}

static size_t begin_chunk(rbuf *b, const char *type)
{
    size_t start = b->len;
    put_u32(b, 0);
    rbuf_put(b, type, 4);
    return start;
}

/* Deflate one filtered row (or finish the stream) straight into out. */
static bool deflate_into(z_stream *z, const unsigned char *in, size_t len, int flush, rbuf *out)
{
    z->next_in = (unsigned char *)in;
    z->avail_in = (uInt)len;
    int rc;
    do {
        if (!rbuf_reserve(out, 4096))
            return false;
        z->next_out = (unsigned char *)out->data + out->len;
        z->avail_out = 4096;
        rc = deflate(z, flush);
        out->len += 4096 - z->avail_out;
        out->data[out->len] = '\0';
    } while (rc == Z_OK && (z->avail_out == 0 || (flush == Z_FINISH)));
    return rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR;
}

/* The IDAT payload: every row filtered and deflated. */
static bool image_data(const unsigned char *pixels, int width, int height, int stride, rbuf *out)
{
    size_t len = 3 * (size_t)width;
    unsigned char *rows = calloc(2 * len, 1), *try = malloc(FILTERS * len),
                  *filtered = malloc(len + 1);
    z_stream z;
    memset(&z, 0, sizeof z);
    bool ok = rows && try && filtered &&
              deflateInit2(&z, PNG_DEFLATE_LEVEL, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    bool started = ok;
    unsigned char *row = rows, *above = rows + len;
    for (int y = 0; ok && y < height; y++) {
        unpack_row((const uint32_t *)(const void *)(pixels + (size_t)y * (size_t)stride), width,
                   row);
        best_filtered_row(row, above, len, try, filtered);
        ok = deflate_into(&z, filtered, len + 1, Z_NO_FLUSH, out);
        unsigned char *t = above;
        above = row;
        row = t;
    }
    ok = ok && deflate_into(&z, NULL, 0, Z_FINISH, out);
    if (started)
        deflateEnd(&z);
    free(rows);
    free(try);
    free(filtered);
    return ok;
}

bool png_encode_rgb24(const unsigned char *pixels, int width, int height, int stride, rbuf *out)
{
    if (width < 1 || height < 1 || width > 16384 || height > 16384 || stride < 4 * width)
        return false;
    rbuf_put(out, "\x89PNG\r\n\x1a\n", 8);
    size_t c = begin_chunk(out, "IHDR");
    put_u32(out, (uint32_t)width);
    put_u32(out, (uint32_t)height);
    rbuf_put(out, "\x08\x02\x00\x00\x00", 5); /* 8 bits, RGB, deflate, adaptive, no interlace */
    end_chunk(out, c);

    c = begin_chunk(out, "IDAT");
    if (!image_data(pixels, width, height, stride, out))
        return false;
    end_chunk(out, c);

    c = begin_chunk(out, "IEND");
    end_chunk(out, c);
    return !out->oom;
}

/* ------------------------------------------------------------------ */
/* Reading back                                                        */

typedef struct {
    const unsigned char *data;
    size_t len, pos;
} png_reader;

static cairo_status_t read_chunk(void *closure, unsigned char *out, unsigned int n)
{
    png_reader *r = closure;
    if (n > r->len - r->pos)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(out, r->data + r->pos, n);
    r->pos += n;
    return CAIRO_STATUS_SUCCESS;
}

enum { COLOR_LIMIT = 16 };

static size_t count_colors(cairo_surface_t *s)
{
    const size_t limit = COLOR_LIMIT;
    uint32_t seen[COLOR_LIMIT];
    size_t n = 0;
    const unsigned char *px = cairo_image_surface_get_data(s);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    for (int y = 0; y < h && n < limit; y++)
        for (int x = 0; x < w && n < limit; x++) {
            uint32_t p;
            memcpy(&p, px + (size_t)y * (size_t)stride + 4 * (size_t)x, 4);
            size_t i = 0;
            while (i < n && seen[i] != p)
                i++;
            if (i == n)
                seen[n++] = p;
        }
    return n;
}

cairo_surface_t *png_decode(const void *data, size_t len)
{
    png_reader r = {data, len, 0};
    return cairo_image_surface_create_from_png_stream(read_chunk, &r);
}

bool png_inspect(const void *data, size_t len, png_info *info)
{
    memset(info, 0, sizeof *info);
    if (len < 8 || memcmp(data, "\x89PNG\r\n\x1a\n", 8) != 0)
        return false;
    cairo_surface_t *s = png_decode(data, len);
    bool ok = cairo_surface_status(s) == CAIRO_STATUS_SUCCESS;
    if (ok) {
        cairo_surface_flush(s);
        info->width = cairo_image_surface_get_width(s);
        info->height = cairo_image_surface_get_height(s);
        info->colors = count_colors(s);
    }
    cairo_surface_destroy(s);
    return ok;
}
