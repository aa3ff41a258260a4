/*
 * png.c — PNG chunks, row filters and a deflate stream of LZ77 matches
 * with dynamic Huffman codes (see png.h).
 *
 * Deflate (RFC 1951): the filtered rows pass through a sliding window of
 * twice deflate's 32 KiB reach; at each position the longest earlier
 * match (the run of the previous byte first, then up to MAX_CHAIN
 * earlier positions with the same three-byte hash) or else a literal
 * byte becomes a token; every BLOCK_TOKENS tokens are coded as one block
 * with Huffman codes built from their own frequencies (length-limited to
 * 15 bits, the code lengths themselves run-length coded as the format
 * asks). Memory stays about 400 KB whatever the image's size.
 */
#include "render/png.h"

#include <cairo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum {
    LITLEN_SYMBOLS = 286, DIST_SYMBOLS = 30, END_OF_BLOCK = 256, MAX_CODE_BITS = 15,
    MIN_MATCH = 3, MAX_MATCH = 258,
    WINDOW = 32768,      /* deflate's largest distance */
    /* The window's bytes: under the C library's 128 KiB threshold for
     * mapping fresh pages, room for the window, the widest row (1 + 3 *
     * 16384 bytes) and a match's lookahead; slid about every 90 KB. */
    BUFFER = 126 * 1024,
    HASH_BITS = 14,
    MAX_CHAIN = 2,       /* earlier positions tried per match (8: 2% smaller, 15% slower) */
    NICE_MATCH = 128,    /* long enough: stop looking */
    BLOCK_TOKENS = 16384 /* tokens per deflate block */
};

/* ------------------------------------------------------------------ */
/* Adler-32, zero runs in one step                                     */

enum { ADLER_MOD = 65521, ADLER_REDUCE_EVERY = 4096 };

/* Adler-32 with the modulo taken every ADLER_REDUCE_EVERY updates (a
 * byte or a run of zeros): 64 bits cannot overflow between. */
typedef struct {
    uint64_t a, b;
    unsigned pending;
} adler_state;

static void adler_reduce(adler_state *s)
{
    s->a %= ADLER_MOD;
    s->b %= ADLER_MOD;
    s->pending = 0;
}

static void adler_bytes(adler_state *s, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        s->a += p[i];
        s->b += s->a;
        if (++s->pending == ADLER_REDUCE_EVERY)
            adler_reduce(s);
    }
}

/* k zero bytes: a stays, b grows by k * a (a < 2^21, k < 2^16: b grows
 * by less than 2^37 a run, so 4096 runs cannot overflow it either). */
static void adler_zeros(adler_state *s, size_t k)
{
    s->b += k * s->a;
    if (++s->pending == ADLER_REDUCE_EVERY)
        adler_reduce(s);
}

static uint32_t adler_value(adler_state *s)
{
    adler_reduce(s);
    return (uint32_t)(s->b << 16 | s->a);
}

/* ------------------------------------------------------------------ */
/* Rows: the PNG's uncompressed stream                                 */

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

/* First j >= from (below n) where a[j] and b[j] differ in colour: four
 * pixels a step while they agree. */
static int same_run(const uint32_t *a, const uint32_t *b, int from, int n)
{
    const uint64_t mask = (uint64_t)RGB_MASK << 32 | RGB_MASK;
    int j = from;
    for (; j + 4 <= n; j += 4) {
        uint64_t a0, a1, b0, b1;
        memcpy(&a0, a + j, 8), memcpy(&a1, a + j + 2, 8);
        memcpy(&b0, b + j, 8), memcpy(&b1, b + j + 2, 8);
        if (((a0 ^ b0) | (a1 ^ b1)) & mask)
            break;
    }
    while (j < n && ((a[j] ^ b[j]) & RGB_MASK) == 0)
        j++;
    return j;
}

/* First x >= from whose pixel differs from its reference (the pixel above
 * for Up, on the left for Sub, black left of the first). */
static int skip_same(const uint32_t *row, const uint32_t *above, int filter, int from, int width)
{
    if (filter == FILTER_UP)
        return same_run(row, above, from, width);
    if (from == 0 && (row[0] & RGB_MASK) != 0)
        return 0;
    int x = from ? from : 1;
    return 1 + same_run(row + 1, row, x - 1, width - 1);
}

/* One filtered row (its filter byte, then 3 bytes a pixel) at out, added
 * to the checksum; runs of pixels equal to their reference become zeros
 * without arithmetic. */
static void filter_row(unsigned char *out, const uint32_t *row, const uint32_t *above, int width,
                       adler_state *adler)
{
    int filter = choose_filter(row, above, width);
    *out++ = (unsigned char)filter;
    adler_bytes(adler, out - 1, 1);
    int x = 0;
    while (x < width) {
        int same_to = skip_same(row, above, filter, x, width);
        size_t zeros = 3 * (size_t)(same_to - x);
        memset(out, 0, zeros);
        adler_zeros(adler, zeros);
        out += zeros;
        x = same_to;
        if (x == width)
            break;
        uint32_t p = row[x];
        uint32_t ref = filter == FILTER_UP ? above[x] : x ? row[x - 1] : 0;
        for (int c = 0; c < 3; c++)
            out[c] = (unsigned char)((channel(p, c) - channel(ref, c)) & 0xFFu);
        adler_bytes(adler, out, 3);
        out += 3;
        x++;
    }
}

/* ------------------------------------------------------------------ */
/* Tokens and their codes                                              */

/* A literal (dist 0, value the byte) or a match (value its length), with
 * its length and distance codes. */
typedef struct {
    uint16_t value;
    uint16_t dist;
    uint8_t length_code, dist_code;
} token;

/* Length codes 257..285 and distance codes 0..29: base and extra bits
 * (RFC 1951 3.2.5). */
static const unsigned short length_base[29] = {
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const unsigned char length_extra[29] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
    3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const unsigned short dist_base[DIST_SYMBOLS] = {
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
    257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const unsigned char dist_extra[DIST_SYMBOLS] = {
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
    7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* Index of the highest set bit of v > 0. */
static int top_bit(unsigned v)
{
    return 31 - __builtin_clz(v);
}

/* The code of a length (0 for 257 .. 28 for 285): eight single lengths,
 * then four codes per power of two. */
static int length_code(unsigned len)
{
    unsigned v = len - MIN_MATCH;
    if (len == MAX_MATCH)
        return 28;
    if (v < 8)
        return (int)v;
    int b = top_bit(v);
    return 4 * (b - 1) + (int)((v >> (b - 2)) & 3);
}

/* The code of a distance: four single distances, then two codes per
 * power of two. */
static int dist_code(unsigned dist)
{
    unsigned v = dist - 1;
    if (v < 4)
        return (int)v;
    int b = top_bit(v);
    return 2 * b + (int)((v >> (b - 1)) & 1);
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

/* Bits into a byte array sized for the block (block_bound), LSB first. */
typedef struct {
    unsigned char *p;
    size_t len;
    uint64_t bits;
    int nbits;
} bit_writer;

/* At most MAX_TOKEN_BYTES per token (15 + 5 + 15 + 13 bits), the two
 * trees' header under HEADER_BYTES. */
enum { MAX_TOKEN_BYTES = 6, HEADER_BYTES = 1024 };

static size_t block_bound(size_t ntokens)
{
    return HEADER_BYTES + MAX_TOKEN_BYTES * (ntokens + 1);
}

/* n <= 16 bits. */
static inline void put_bits(bit_writer *w, uint32_t value, int n)
{
    w->bits |= (uint64_t)value << w->nbits;
    w->nbits += n;
    if (w->nbits >= 32) {
        for (int i = 0; i < 4; i++)
            w->p[w->len++] = (unsigned char)(w->bits >> (8 * i));
        w->bits >>= 32;
        w->nbits -= 32;
    }
}

static void flush_bits(bit_writer *w)
{
    for (; w->nbits > 0; w->nbits -= 8) {
        w->p[w->len++] = (unsigned char)w->bits;
        w->bits >>= 8;
    }
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

/* Code lengths and canonical codes for the n symbols of freq. */
static void build_code(const size_t *freq, int n, uint8_t *len, huff *code)
{
    code_lengths(freq, n, MAX_CODE_BITS, len);
    canonical_codes(len, n, code);
}

/* One block's tokens and their symbol counts. */
typedef struct {
    token *t;
    size_t n;
    size_t lit_freq[LITLEN_SYMBOLS];
    size_t dist_freq[DIST_SYMBOLS];
} token_block;

/* The tokens as one dynamic block (the last one when final). */
static void write_block(bit_writer *w, const token_block *b, bool final)
{
    uint8_t lit_len[LITLEN_SYMBOLS], dist_len[DIST_SYMBOLS];
    huff lit[LITLEN_SYMBOLS], dist[DIST_SYMBOLS];
    size_t lit_freq[LITLEN_SYMBOLS];
    memcpy(lit_freq, b->lit_freq, sizeof lit_freq);
    lit_freq[END_OF_BLOCK] = 1;
    build_code(lit_freq, LITLEN_SYMBOLS, lit_len, lit);
    build_code(b->dist_freq, DIST_SYMBOLS, dist_len, dist);
    int hlit = LITLEN_SYMBOLS, hdist = DIST_SYMBOLS;
    while (hlit > 257 && lit_len[hlit - 1] == 0)
        hlit--;
    while (hdist > 1 && dist_len[hdist - 1] == 0)
        hdist--;
    if (dist_len[0] == 0 && hdist == 1)
        dist_len[0] = 1; /* no match at all: readers want one distance code */
    put_bits(w, final, 1); /* BFINAL */
    write_header(w, lit_len, hlit, dist_len, hdist);
    for (size_t i = 0; i < b->n; i++) {
        const token *t = &b->t[i];
        if (!t->dist) {
            put_bits(w, lit[t->value].code, lit[t->value].len);
            continue;
        }
        int lc = t->length_code, dc = t->dist_code;
        put_bits(w, lit[257 + lc].code, lit[257 + lc].len);
        put_bits(w, t->value - length_base[lc], length_extra[lc]);
        put_bits(w, dist[dc].code, dist[dc].len);
        put_bits(w, t->dist - dist_base[dc], dist_extra[dc]);
    }
    put_bits(w, lit[END_OF_BLOCK].code, lit[END_OF_BLOCK].len);
}

/* ------------------------------------------------------------------ */
/* The encoder: rows into the window, matches into blocks              */

typedef struct {
    /* the image, filtered one row at a time into the window */
    const unsigned char *pixels;
    int width, height, stride, next_row;
    size_t row_bytes;
    adler_state adler;
    size_t total;        /* bytes in the whole stream */
    /* the sliding window: win[k] is byte base + k of the stream */
    unsigned char *win;
    size_t base, filled;
    int32_t *head;       /* [1 << HASH_BITS]: the last position with that hash, -1 none */
    uint16_t *prev;      /* [WINDOW]: how far back the position before it with the same
                            hash lies, 0 none (so the chains need no sliding) */
    token_block block;
    bit_writer w;
    rbuf *out;
} encoder;

_Static_assert(BUFFER >= 2 * WINDOW + 1 + 3 * 16384 + MAX_MATCH, "a row fits after sliding");

/* Append the next filtered row to the window. */
static void filter_next_row(encoder *e)
{
    const unsigned char *p = e->pixels + (size_t)e->next_row * (size_t)e->stride;
    const uint32_t *row = (const uint32_t *)(const void *)p;
    const uint32_t *above = e->next_row ? (const uint32_t *)(const void *)(p - e->stride) : NULL;
    filter_row(e->win + e->filled, row, above, e->width, &e->adler);
    e->filled += e->row_bytes;
    e->next_row++;
}

/* Keep only the WINDOW bytes before position i (and those after it).
 * Called when a row does not fit: the lookahead past i is under
 * MAX_MATCH, so i lies more than 2 * WINDOW past the base. */
static void slide(encoder *e, size_t i)
{
    size_t drop = i - WINDOW - e->base;
    memmove(e->win, e->win + drop, e->filled - drop);
    e->base += drop;
    e->filled -= drop;
}

/* Make the window hold the bytes from i to MAX_MATCH past it (or to the
 * stream's end). */
static void fill_window(encoder *e, size_t i)
{
    size_t want = e->total - i < MAX_MATCH ? e->total : i + MAX_MATCH;
    while (e->base + e->filled < want) {
        if (BUFFER - e->filled < e->row_bytes)
            slide(e, i);
        filter_next_row(e);
    }
}

static const unsigned char *at(const encoder *e, size_t pos)
{
    return e->win + (pos - e->base);
}

static uint32_t hash3(const unsigned char *p)
{
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
    return (v * 2654435761u) >> (32 - HASH_BITS);
}

/* How many bytes (up to max) at a and b agree; a < b may overlap. Eight
 * at a time, then byte by byte (the same answer on any byte order). */
static unsigned match_length(const unsigned char *a, const unsigned char *b, unsigned max)
{
    unsigned len = 0;
    while (len + 8 <= max) {
        uint64_t x, y;
        memcpy(&x, a + len, 8);
        memcpy(&y, b + len, 8);
        if (x != y)
            break;
        len += 8;
        /* A long match (blank areas): let the C library compare the rest. */
        if (len == 32 && memcmp(a + len, b + len, max - len) == 0)
            return max;
    }
    while (len < max && a[len] == b[len])
        len++;
    return len;
}

static void index_position(encoder *e, size_t i, uint32_t hash)
{
    int32_t last = e->head[hash];
    e->prev[i & (WINDOW - 1)] = last >= 0 && i - (size_t)last <= WINDOW ? (uint16_t)(i - (size_t)last) : 0;
    e->head[hash] = (int32_t)i;
}

/* The longest match for position i whose first three bytes hash to hash
 * (*dist its distance; 0 when shorter than MIN_MATCH): first the run of
 * the previous byte (distance 1, the blank areas of a chart), then up to
 * MAX_CHAIN earlier positions with the same hash, nearest first; ties
 * keep the nearer one. */
static unsigned longest_match(const encoder *e, size_t i, uint32_t hash, unsigned *dist)
{
    unsigned max = e->total - i < MAX_MATCH ? (unsigned)(e->total - i) : MAX_MATCH;
    const unsigned char *here = at(e, i);
    unsigned best = i && here[-1] == here[0] ? match_length(here - 1, here, max) : 0;
    *dist = 1;
    int32_t cand = e->head[hash];
    for (int chain = MAX_CHAIN; chain > 0 && best < NICE_MATCH && best < max && cand >= 0 &&
                                i - (size_t)cand <= WINDOW;
         chain--) {
        const unsigned char *there = at(e, (size_t)cand);
        if (there[best] == here[best]) {
            unsigned len = match_length(there, here, max);
            if (len > best) {
                best = len;
                *dist = (unsigned)(i - (size_t)cand);
            }
        }
        uint16_t back = e->prev[cand & (WINDOW - 1)];
        if (!back)
            break;
        cand -= back;
    }
    return best >= MIN_MATCH ? best : 0;
}

/* Code the tokens so far as a block; the bits go out whole bytes at a time. */
static void end_block(encoder *e, bool final)
{
    write_block(&e->w, &e->block, final);
    if (final)
        flush_bits(&e->w);
    rbuf_put(e->out, e->w.p, e->w.len);
    e->w.len = 0;
    memset(&e->block.lit_freq, 0, sizeof e->block.lit_freq);
    memset(&e->block.dist_freq, 0, sizeof e->block.dist_freq);
    e->block.n = 0;
}

static void add_literal(encoder *e, unsigned char byte)
{
    e->block.t[e->block.n++] = (token){byte, 0, 0, 0};
    e->block.lit_freq[byte]++;
}

static void add_match(encoder *e, unsigned len, unsigned dist)
{
    int lc = length_code(len), dc = dist_code(dist);
    e->block.t[e->block.n++] = (token){(uint16_t)len, (uint16_t)dist, (uint8_t)lc, (uint8_t)dc};
    e->block.lit_freq[257 + lc]++;
    e->block.dist_freq[dc]++;
}

/* Greedy LZ77 over the whole stream: the longest match at each position
 * or a literal. Positions inside a match are not indexed: indexing them
 * cost more time than the matches they would add saved bytes. */
static void deflate_stream(encoder *e)
{
    size_t i = 0;
    while (i < e->total) {
        if (e->base + e->filled - i < MAX_MATCH)
            fill_window(e, i);
        if (e->block.n == BLOCK_TOKENS)
            end_block(e, false);
        if (e->total - i < MIN_MATCH) {
            add_literal(e, *at(e, i++));
            continue;
        }
        uint32_t hash = hash3(at(e, i));
        unsigned dist, len = longest_match(e, i, hash, &dist);
        index_position(e, i, hash);
        if (!len) {
            add_literal(e, *at(e, i++));
            continue;
        }
        add_match(e, len, dist);
        i += len;
    }
    end_block(e, true);
}

/* Allocate the encoder's buffers (each under 128 KB: the C library keeps
 * them on its heap instead of mapping fresh pages for every image). */
static bool encoder_init(encoder *e, const unsigned char *pixels, int width, int height,
                         int stride, rbuf *out)
{
    *e = (encoder){.pixels = pixels, .width = width, .height = height, .stride = stride,
                   .adler = {1, 0, 0}, .out = out};
    e->row_bytes = 1 + 3 * (size_t)width;
    e->total = e->row_bytes * (size_t)height;
    e->win = malloc(BUFFER);
    e->head = malloc(((size_t)1 << HASH_BITS) * sizeof *e->head);
    e->prev = malloc(WINDOW * sizeof *e->prev);
    e->block.t = malloc(BLOCK_TOKENS * sizeof *e->block.t);
    e->w.p = malloc(block_bound(BLOCK_TOKENS));
    if (!e->win || !e->head || !e->prev || !e->block.t || !e->w.p)
        return false;
    memset(e->head, 0xFF, ((size_t)1 << HASH_BITS) * sizeof *e->head); /* all -1 */
    return true;
}

static void encoder_free(encoder *e)
{
    free(e->win);
    free(e->head);
    free(e->prev);
    free(e->block.t);
    free(e->w.p);
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
    encoder e;
    if (!encoder_init(&e, pixels, width, height, stride, out)) {
        encoder_free(&e);
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
    deflate_stream(&e);
    put_u32(out, adler_value(&e.adler));
    end_chunk(out, c);
    encoder_free(&e);

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
