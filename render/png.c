/*
 * png.c — PNG chunks, zlib framing and a run-length deflate (see png.h).
 *
 * Deflate (RFC 1951) with the fixed Huffman code: literals 0-143 take 8
 * bits, 144-255 9 bits, lengths 256-279 7 bits and 280-287 8 bits; the
 * only distance used is 1 (code 0, five zero bits), so a match repeats the
 * previous byte: a run of zeros costs 13 bits per 258 bytes.
 */
#include "render/png.h"

#include <cairo.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Checksums                                                           */

typedef struct {
    uint32_t t[256];
} crc_table;

static void crc_table_init(crc_table *ct)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
        ct->t[n] = c;
    }
}

static uint32_t crc32_of(const crc_table *ct, const unsigned char *p, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    while (n--)
        crc = ct->t[(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

enum { ADLER_MOD = 65521, ADLER_REDUCE_EVERY = 4096 };

/* Adler-32 with the modulo taken every ADLER_REDUCE_EVERY updates: each
 * update adds at most 258*255 to a, so 64 bits cannot overflow between. */
typedef struct {
    uint64_t a, b;
    unsigned updates;
} adler32;

/* Add k copies of byte v: a += k*v, b += k*a + v*k*(k+1)/2. */
static void adler_run(adler32 *s, unsigned v, uint64_t k)
{
    s->b += k * s->a + v * k * (k + 1) / 2;
    s->a += k * v;
    if (++s->updates == ADLER_REDUCE_EVERY) {
        s->a %= ADLER_MOD;
        s->b %= ADLER_MOD;
        s->updates = 0;
    }
}

static uint32_t adler_value(const adler32 *s)
{
    return (uint32_t)((s->b % ADLER_MOD) << 16 | (s->a % ADLER_MOD));
}

/* ------------------------------------------------------------------ */
/* Bit output and the fixed Huffman code                               */

typedef struct {
    unsigned short code; /* bit-reversed, ready to be written LSB first */
    unsigned char len;
} huff;

typedef struct {
    rbuf *out;
    uint64_t bits;
    int nbits;
    huff lit[288];       /* the fixed literal/length code */
    adler32 adler;
    int last;            /* last byte of the uncompressed stream, -1 at start */
} deflater;

static unsigned reverse_bits(unsigned code, int len)
{
    unsigned r = 0;
    for (int i = 0; i < len; i++)
        r = (r << 1) | ((code >> i) & 1u);
    return r;
}

static void fixed_code(huff lit[288])
{
    for (unsigned s = 0; s < 288; s++) {
        unsigned code, len;
        if (s < 144)
            code = 0x30 + s, len = 8;
        else if (s < 256)
            code = 0x190 + (s - 144), len = 9;
        else if (s < 280)
            code = s - 256, len = 7;
        else
            code = 0xC0 + (s - 280), len = 8;
        lit[s] = (huff){(unsigned short)reverse_bits(code, (int)len), (unsigned char)len};
    }
}

/* Callers reserve room in the buffer first (per row), so the bytes go
 * straight into it. */
static void put_bits(deflater *d, uint32_t value, int n)
{
    d->bits |= (uint64_t)value << d->nbits;
    d->nbits += n;
    if (d->nbits < 32 || d->out->oom)
        return;
    rbuf *b = d->out;
    for (int i = 0; i < 4; i++)
        b->data[b->len++] = (char)((d->bits >> (8 * i)) & 0xFF);
    b->data[b->len] = '\0';
    d->bits >>= 32;
    d->nbits -= 32;
}

/* Write the bits still held, padded with zeros to whole bytes. */
static void flush_bits(deflater *d)
{
    while (d->nbits > 0) {
        rbuf_putc(d->out, (char)(d->bits & 0xFF));
        d->bits >>= 8;
        d->nbits -= 8;
    }
    d->bits = 0;
    d->nbits = 0;
}

static void literal(deflater *d, unsigned v)
{
    put_bits(d, d->lit[v].code, d->lit[v].len);
    adler_run(&d->adler, v, 1);
    d->last = (int)v;
}

/* Length codes 257..285: base length and extra bits (RFC 1951 3.2.5). */
static const unsigned short length_base[29] = {
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const unsigned char length_extra[29] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
    3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

/* Repeat the previous byte `len` (3..258) times: distance 1. */
static void match(deflater *d, unsigned len)
{
    int c = 28;
    while (length_base[c] > len)
        c--;
    put_bits(d, d->lit[257 + c].code, d->lit[257 + c].len);
    put_bits(d, len - length_base[c], length_extra[c]);
    put_bits(d, 0, 5);
    adler_run(&d->adler, (unsigned)d->last, len);
}

/* k bytes of value v. */
static void run(deflater *d, unsigned v, size_t k)
{
    if (k && d->last != (int)v) {
        literal(d, v);
        k--;
    }
    while (k >= 3) {
        unsigned m = k > 258 ? 258 : (unsigned)k;
        match(d, m);
        k -= m;
    }
    while (k--)
        literal(d, v);
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */

enum { FILTER_SUB = 1, FILTER_UP = 2 };

#define RGB_MASK 0xFFFFFFu /* the top byte of an RGB24 pixel is unused */

static unsigned channel(uint32_t px, int c)
{
    return (px >> (16 - 8 * c)) & 0xFFu;
}

/* Up when the row repeats the row above at least as often as its left
 * neighbour (checked at every other pixel), Sub otherwise. */
static int choose_filter(const uint32_t *row, const uint32_t *above, int width)
{
    if (!above)
        return FILTER_SUB;
    if (memcmp(row, above, (size_t)width * sizeof *row) == 0)
        return FILTER_UP;
    int same_left = 0, same_up = 0;
    for (int x = 1; x < width; x += 2) {
        same_left += ((row[x] ^ row[x - 1]) & RGB_MASK) == 0;
        same_up += ((row[x] ^ above[x]) & RGB_MASK) == 0;
    }
    return same_up >= same_left ? FILTER_UP : FILTER_SUB;
}

/* First x >= from whose pixel differs from its reference. */
static int skip_same(const uint32_t *row, const uint32_t *above, int filter, int from, int width)
{
    int x = from;
    if (filter == FILTER_UP) {
        while (x < width && ((row[x] ^ above[x]) & RGB_MASK) == 0)
            x++;
    } else {
        if (x == 0 && (row[0] & RGB_MASK) == 0)
            x = 1;
        if (x == 0)
            return 0;
        while (x < width && ((row[x] ^ row[x - 1]) & RGB_MASK) == 0)
            x++;
    }
    return x;
}

static void encode_row(deflater *d, const uint32_t *row, const uint32_t *above, int width)
{
    int filter = choose_filter(row, above, width);
    literal(d, (unsigned)filter);
    int x = 0;
    while (x < width) {
        int same_to = skip_same(row, above, filter, x, width);
        run(d, 0, 3 * (size_t)(same_to - x));
        x = same_to;
        if (x == width)
            break;
        uint32_t p = row[x];
        uint32_t ref = filter == FILTER_UP ? above[x] : x ? row[x - 1] : 0;
        for (int c = 0; c < 3; c++)
            literal(d, (channel(p, c) - channel(ref, c)) & 0xFFu);
        x++;
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
static void end_chunk(rbuf *b, size_t start, const crc_table *ct)
{
    if (b->oom)
        return;
    unsigned char *chunk = (unsigned char *)b->data + start;
    uint32_t len = (uint32_t)(b->len - start - 8);
    chunk[0] = (unsigned char)(len >> 24), chunk[1] = (unsigned char)(len >> 16);
    chunk[2] = (unsigned char)(len >> 8), chunk[3] = (unsigned char)len;
    put_u32(b, crc32_of(ct, chunk + 4, len + 4));
}

static size_t begin_chunk(rbuf *b, const char *type)
{
    size_t start = b->len;
    put_u32(b, 0);
    rbuf_put(b, type, 4);
    return start;
}

bool png_encode_rgb24(const unsigned char *pixels, int width, int height, int stride, rbuf *out)
{
    if (width < 1 || height < 1 || width > 16384 || height > 16384 || stride < 4 * width)
        return false;
    crc_table ct;
    crc_table_init(&ct);
    rbuf_put(out, "\x89PNG\r\n\x1a\n", 8);
    size_t c = begin_chunk(out, "IHDR");
    put_u32(out, (uint32_t)width);
    put_u32(out, (uint32_t)height);
    rbuf_put(out, "\x08\x02\x00\x00\x00", 5); /* 8 bits, RGB, deflate, adaptive, no interlace */
    end_chunk(out, c, &ct);

    c = begin_chunk(out, "IDAT");
    rbuf_put(out, "\x78\x01", 2); /* zlib: deflate, 32 KiB window, fastest */
    deflater d = {.out = out, .adler = {1, 0, 0}, .last = -1};
    fixed_code(d.lit);
    put_bits(&d, 1, 1); /* BFINAL */
    put_bits(&d, 1, 2); /* BTYPE 01: fixed Huffman */
    const uint32_t *above = NULL;
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(pixels + (size_t)y * (size_t)stride);
        /* At most 9 bits per byte: 3.4 bytes per pixel, plus the filter. */
        if (!rbuf_reserve(out, (size_t)width * 4 + 16))
            return false;
        encode_row(&d, row, above, width);
        above = row;
    }
    put_bits(&d, d.lit[256].code, d.lit[256].len); /* end of block */
    flush_bits(&d);
    put_u32(out, adler_value(&d.adler));
    end_chunk(out, c, &ct);

    c = begin_chunk(out, "IEND");
    end_chunk(out, c, &ct);
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
