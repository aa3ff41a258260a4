/*
 * png.c — PNG chunks, row filters and a run-length deflate with dynamic
 * Huffman codes (see png.h).
 *
 * Deflate (RFC 1951): the image becomes a list of tokens, literal bytes and
 * repeats of the previous byte (distance 1, lengths 3-258); one block
 * then codes them with Huffman codes built from their own frequencies
 * (length-limited to 15 bits, the code lengths themselves run-length coded
 * as the format asks).
 */
#include "render/png.h"

#include <cairo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ------------------------------------------------------------------ */
/* Adler-32 of runs                                                     */

enum { ADLER_MOD = 65521, ADLER_REDUCE_EVERY = 4096 };

/* Adler-32 with the modulo taken every ADLER_REDUCE_EVERY updates: each
 * update adds at most 258*255 to a, so 64 bits cannot overflow between. */
typedef struct {
    uint64_t a, b;
    unsigned updates;
} adler32_runs;

/* Add k copies of byte v: a += k*v, b += k*a + v*k*(k+1)/2. */
static void adler_run(adler32_runs *s, unsigned v, uint64_t k)
{
    s->b += k * s->a + v * k * (k + 1) / 2;
    s->a += k * v;
    if (++s->updates == ADLER_REDUCE_EVERY) {
        s->a %= ADLER_MOD;
        s->b %= ADLER_MOD;
        s->updates = 0;
    }
}

static uint32_t adler_value(const adler32_runs *s)
{
    return (uint32_t)((s->b % ADLER_MOD) << 16 | (s->a % ADLER_MOD));
}

/* ------------------------------------------------------------------ */
/* Tokens                                                              */

enum { LITLEN_SYMBOLS = 286, END_OF_BLOCK = 256, MAX_CODE_BITS = 15 };

typedef struct {
    uint16_t sym;   /* 0-255 literal, 257-285 length */
    uint8_t nextra; /* extra bits of a length */
    uint8_t extra_value;
} token;

typedef struct {
    token *t;
    size_t n, cap;
    size_t freq[LITLEN_SYMBOLS];
    size_t matches;  /* each uses distance code 0 */
    adler32_runs adler;
    int last;        /* last byte of the uncompressed stream, -1 at start */
    bool oom;
} token_list;

static void add_token(token_list *l, token tk)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 65536;
        token *more = realloc(l->t, cap * sizeof *more);
        if (!more) {
            l->oom = true;
            return;
        }
        l->t = more;
        l->cap = cap;
    }
    l->t[l->n++] = tk;
    l->freq[tk.sym]++;
}

static void literal(token_list *l, unsigned v)
{
    add_token(l, (token){(uint16_t)v, 0, 0});
    adler_run(&l->adler, v, 1);
    l->last = (int)v;
}

/* Length codes 257..285: base length and extra bits (RFC 1951 3.2.5). */
static const unsigned short length_base[29] = {
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const unsigned char length_extra[29] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
    3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

/* Repeat the previous byte `len` (3..258) times: distance 1. */
static void match(token_list *l, unsigned len)
{
    int c = 28;
    while (length_base[c] > len)
        c--;
    add_token(l, (token){(uint16_t)(257 + c), length_extra[c], (uint8_t)(len - length_base[c])});
    l->matches++;
    adler_run(&l->adler, (unsigned)l->last, len);
}

/* k bytes of value v. */
static void run(token_list *l, unsigned v, size_t k)
{
    if (k && l->last != (int)v) {
        literal(l, v);
        k--;
    }
    while (k >= 3) {
        unsigned m = k > 258 ? 258 : (unsigned)k;
        match(l, m);
        k -= m;
    }
    while (k--)
        literal(l, v);
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

static void tokenize_row(token_list *l, const uint32_t *row, const uint32_t *above, int width)
{
    int filter = choose_filter(row, above, width);
    literal(l, (unsigned)filter);
    int x = 0;
    while (x < width) {
        int same_to = skip_same(row, above, filter, x, width);
        run(l, 0, 3 * (size_t)(same_to - x));
        x = same_to;
        if (x == width)
            break;
        uint32_t p = row[x];
        uint32_t ref = filter == FILTER_UP ? above[x] : x ? row[x - 1] : 0;
        for (int c = 0; c < 3; c++)
            literal(l, (channel(p, c) - channel(ref, c)) & 0xFFu);
        x++;
    }
}

/* ------------------------------------------------------------------ */
/* Huffman codes                                                       */

typedef struct {
    uint32_t key; /* frequency, then (in place) tree links and depths */
    uint16_t sym;
} sym_freq;

static int compare_freq(const void *a, const void *b)
{
    const sym_freq *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->sym < y->sym ? -1 : x->sym > y->sym;
}

/* Optimal code lengths of the n symbols in a, sorted by ascending
 * frequency, left in a[i].key (Moffat and Katajainen's in-place method). */
static void minimum_redundancy(sym_freq *a, int n)
{
    if (n == 1) {
        a[0].key = 1;
        return;
    }
    a[0].key += a[1].key;
    int root = 0, leaf = 2;
    for (int next = 1; next < n - 1; next++) {
        if (leaf >= n || a[root].key < a[leaf].key) {
            a[next].key = a[root].key;
            a[root++].key = (uint32_t)next;
        } else {
            a[next].key = a[leaf++].key;
        }
        if (leaf >= n || (root < next && a[root].key < a[leaf].key)) {
            a[next].key += a[root].key;
            a[root++].key = (uint32_t)next;
        } else {
            a[next].key += a[leaf++].key;
        }
    }
    a[n - 2].key = 0;
    for (int next = n - 3; next >= 0; next--)
        a[next].key = a[a[next].key].key + 1;
    int avail = 1, used = 0, depth = 0, next = n - 1;
    root = n - 2;
    while (avail > 0) {
        while (root >= 0 && (int)a[root].key == depth) {
            used++;
            root--;
        }
        while (avail > used) {
            a[next--].key = (uint32_t)depth;
            avail--;
        }
        avail = 2 * used;
        depth++;
        used = 0;
    }
}

/* Code lengths (at most max_bits) for the n symbols of freq into len:
 * optimal lengths, then the longest ones shortened until the Kraft sum
 * fits (as miniz does), assigned shortest to the most frequent. */
static void code_lengths(const size_t *freq, int n, int max_bits, uint8_t *len)
{
    sym_freq s[LITLEN_SYMBOLS];
    int used = 0;
    memset(len, 0, (size_t)n);
    for (int i = 0; i < n; i++)
        if (freq[i])
            s[used++] = (sym_freq){(uint32_t)(freq[i] > UINT32_MAX / 2 ? UINT32_MAX / 2 : freq[i]),
                                   (uint16_t)i};
    if (used == 0)
        return;
    qsort(s, (size_t)used, sizeof *s, compare_freq);
    minimum_redundancy(s, used);
    int count[33] = {0};
    for (int i = 0; i < used; i++)
        count[s[i].key > 32 ? 32 : s[i].key]++;
    for (int b = max_bits + 1; b <= 32; b++) {
        count[max_bits] += count[b];
        count[b] = 0;
    }
    uint32_t total = 0;
    for (int b = max_bits; b > 0; b--)
        total += (uint32_t)count[b] << (max_bits - b);
    while (used > 1 && total != 1u << max_bits) {
        count[max_bits]--;
        for (int b = max_bits - 1; b > 0; b--)
            if (count[b]) {
                count[b]--;
                count[b + 1] += 2;
                break;
            }
        total--;
    }
    /* Most frequent (the end of s) get the shortest codes. */
    int k = used - 1;
    for (int b = 1; b <= max_bits; b++)
        for (int c = count[b]; c > 0; c--)
            len[s[k--].sym] = (uint8_t)b;
}

typedef struct {
    uint16_t code; /* bit-reversed, ready to be written LSB first */
    uint8_t len;
} huff;

static unsigned reverse_bits(unsigned code, int len)
{
    unsigned r = 0;
    for (int i = 0; i < len; i++)
        r = (r << 1) | ((code >> i) & 1u);
    return r;
}

/* Canonical codes for the lengths (RFC 1951 3.2.2). */
static void canonical_codes(const uint8_t *len, int n, huff *out)
{
    unsigned count[MAX_CODE_BITS + 1] = {0}, next[MAX_CODE_BITS + 2] = {0};
    for (int i = 0; i < n; i++)
        count[len[i]]++;
    count[0] = 0;
    for (int b = 1; b <= MAX_CODE_BITS; b++)
        next[b + 1] = (next[b] + count[b]) << 1;
    for (int i = 0; i < n; i++)
        out[i] = (huff){(uint16_t)(len[i] ? reverse_bits(next[len[i]]++, len[i]) : 0), len[i]};
}

/* ------------------------------------------------------------------ */
/* Bits                                                                */

typedef struct {
    rbuf *out;
    uint64_t bits;
    int nbits;
} bit_writer;

static void put_bits(bit_writer *w, uint32_t value, int n)
{
    w->bits |= (uint64_t)value << w->nbits;
    w->nbits += n;
    while (w->nbits >= 8) {
        rbuf_putc(w->out, (char)(w->bits & 0xFF));
        w->bits >>= 8;
        w->nbits -= 8;
    }
}

static void flush_bits(bit_writer *w)
{
    if (w->nbits > 0)
        rbuf_putc(w->out, (char)(w->bits & 0xFF));
    w->bits = 0;
    w->nbits = 0;
}

/* The code lengths of both trees, run-length coded with symbols 16 (repeat
 * the previous 3-6 times), 17 (3-10 zeros) and 18 (11-138 zeros); each
 * item is symbol | repeat << 8. Returns the number of items. */
static size_t rle_lengths(const uint8_t *len, size_t n, uint16_t *items, size_t *freq)
{
    size_t count = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && len[j] == len[i])
            j++;
        size_t runlen = j - i;
        if (len[i] == 0 && runlen >= 3) {
            size_t r = runlen > 138 ? 138 : runlen;
            unsigned sym = r >= 11 ? 18 : 17;
            items[count++] = (uint16_t)(sym | (r - (sym == 18 ? 11 : 3)) << 8);
            freq[sym]++;
            i += r;
        } else if (len[i] != 0 && runlen >= 4) {
            items[count++] = len[i];
            freq[len[i]]++;
            size_t r = runlen - 1 > 6 ? 6 : runlen - 1;
            items[count++] = (uint16_t)(16 | (r - 3) << 8);
            freq[16]++;
            i += 1 + r;
        } else {
            items[count++] = len[i];
            freq[len[i]]++;
            i++;
        }
    }
    return count;
}

/* The dynamic block header: tree sizes, the code-length code, the lengths. */
static void write_header(bit_writer *w, const uint8_t *lit_len, int hlit, const uint8_t *dist_len,
                         int hdist)
{
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    uint8_t all[LITLEN_SYMBOLS + 32];
    memcpy(all, lit_len, (size_t)hlit);
    memcpy(all + hlit, dist_len, (size_t)hdist);
    uint16_t items[LITLEN_SYMBOLS + 32];
    size_t freq[19] = {0};
    size_t nitems = rle_lengths(all, (size_t)(hlit + hdist), items, freq);
    uint8_t cl_len[19];
    huff cl[19];
    code_lengths(freq, 19, 7, cl_len);
    canonical_codes(cl_len, 19, cl);
    int hclen = 19;
    while (hclen > 4 && cl_len[order[hclen - 1]] == 0)
        hclen--;
    put_bits(w, 2, 2); /* BTYPE 10: dynamic Huffman (after BFINAL) */
    put_bits(w, (uint32_t)(hlit - 257), 5);
    put_bits(w, (uint32_t)(hdist - 1), 5);
    put_bits(w, (uint32_t)(hclen - 4), 4);
    for (int i = 0; i < hclen; i++)
        put_bits(w, cl_len[order[i]], 3);
    static const uint8_t repeat_bits[19] = {[16] = 2, [17] = 3, [18] = 7};
    for (size_t i = 0; i < nitems; i++) {
        unsigned sym = items[i] & 0xFF;
        put_bits(w, cl[sym].code, cl[sym].len);
        if (repeat_bits[sym])
            put_bits(w, items[i] >> 8, repeat_bits[sym]);
    }
}

/* The whole token list as one final dynamic block. */
static void write_block(bit_writer *w, token_list *l)
{
    uint8_t lit_len[LITLEN_SYMBOLS], dist_len[2] = {1, 0};
    huff lit[LITLEN_SYMBOLS];
    code_lengths(l->freq, LITLEN_SYMBOLS, MAX_CODE_BITS, lit_len);
    canonical_codes(lit_len, LITLEN_SYMBOLS, lit);
    int hlit = LITLEN_SYMBOLS;
    while (hlit > 257 && lit_len[hlit - 1] == 0)
        hlit--;
    put_bits(w, 1, 1); /* BFINAL */
    write_header(w, lit_len, hlit, dist_len, 1);
    for (size_t i = 0; i < l->n && !w->out->oom; i++) {
        const token *t = &l->t[i];
        put_bits(w, lit[t->sym].code, lit[t->sym].len);
        if (t->sym > END_OF_BLOCK) {
            put_bits(w, t->extra_value, t->nextra);
            put_bits(w, 0, 1); /* distance 1: code 0 of the one-code tree */
        }
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

bool png_encode_rgb24(const unsigned char *pixels, int width, int height, int stride, rbuf *out)
{
    if (width < 1 || height < 1 || width > 16384 || height > 16384 || stride < 4 * width)
        return false;
    token_list l = {.adler = {1, 0, 0}, .last = -1};
    const uint32_t *above = NULL;
    for (int y = 0; y < height && !l.oom; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(pixels + (size_t)y * (size_t)stride);
        tokenize_row(&l, row, above, width);
        above = row;
    }
    add_token(&l, (token){END_OF_BLOCK, 0, 0});
    if (l.oom) {
        free(l.t);
        return false;
    }

    rbuf_put(out, "\x89PNG\r\n\x1a\n", 8);
    size_t c = begin_chunk(out, "IHDR");
    put_u32(out, (uint32_t)width);
    put_u32(out, (uint32_t)height);
    rbuf_put(out, "\x08\x02\x00\x00\x00", 5); /* 8 bits, RGB, deflate, adaptive, no interlace */
    end_chunk(out, c);

    c = begin_chunk(out, "IDAT");
    rbuf_put(out, "\x78\x01", 2); /* zlib: deflate, 32 KiB window, fastest */
    bit_writer w = {.out = out};
    write_block(&w, &l);
    flush_bits(&w);
    put_u32(out, adler_value(&l.adler));
    end_chunk(out, c);
    free(l.t);

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
