/*
 * hash.c — see hash.h. A multiply-xorshift mix over 8-byte words, then the
 * tail: cheap, and good enough to tell files and names apart. hash_bytes
 * and hash_stream share the three steps below, so they cannot differ.
 */
#include "gen/base/hash.h"

#include <string.h>

static uint64_t start(size_t len, uint64_t seed)
{
    return seed ^ (0x9E3779B97F4A7C15ull * (len + 1));
}

static uint64_t mix_word(uint64_t h, const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    return h ^ (h >> 32);
}

/* The last len < 8 bytes at p (p may be NULL when len is 0). */
static uint64_t finish(uint64_t h, const unsigned char *p, size_t len)
{
    uint64_t tail = 0;
    if (len > 0) /* p may be NULL for empty data: memcpy must not see it */
        memcpy(&tail, p, len);
    h = (h ^ tail) * 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 29);
}

uint64_t hash_bytes(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = start(len, seed);
    for (; len >= 8; p += 8, len -= 8)
        h = mix_word(h, p);
    return finish(h, p, len);
}

void hash_stream_begin(hash_stream *s, size_t len, uint64_t seed)
{
    s->h = start(len, seed);
    s->npending = 0;
}

void hash_stream_add(hash_stream *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    if (n == 0) /* data may be NULL then */
        return;
    if (s->npending > 0) { /* complete the word begun by the last piece */
        size_t take = 8 - s->npending < n ? 8 - s->npending : n;
        memcpy(s->pending + s->npending, p, take);
        s->npending += take, p += take, n -= take;
        if (s->npending < 8)
            return;
        s->h = mix_word(s->h, s->pending);
        s->npending = 0;
    }
    for (; n >= 8; p += 8, n -= 8)
        s->h = mix_word(s->h, p);
    memcpy(s->pending, p, n);
    s->npending = n;
}

uint64_t hash_stream_end(const hash_stream *s)
{
    return finish(s->h, s->pending, s->npending);
}
