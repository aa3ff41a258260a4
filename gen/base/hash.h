/*
 * hash.h — a fast 64-bit hash of bytes, for change detection and short
 * file-name suffixes (gen/base/slug.h, the site's manifest), never for
 * security. Its values are written into built sites (manifests, slugs),
 * so changing the function changes published file names.
 *
 * hash_stream gives the same value for bytes that arrive in pieces (a
 * file read a block at a time, never whole): begun with the total
 * length, fed the pieces in order, ended.
 */
#ifndef PERFCAST_HASH_H
#define PERFCAST_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The hash of data[0..len), chained from seed (0 to start). */
uint64_t hash_bytes(const void *data, size_t len, uint64_t seed);

typedef struct {
    uint64_t h;
    unsigned char pending[8]; /* bytes of a word not yet complete */
    size_t npending;
} hash_stream;

/* Begin the hash of len bytes chained from seed. */
void hash_stream_begin(hash_stream *s, size_t len, uint64_t seed);

/* The next n bytes (the pieces must add up to the len begun with). */
void hash_stream_add(hash_stream *s, const void *data, size_t n);

/* hash_bytes of the bytes added. */
uint64_t hash_stream_end(const hash_stream *s);

#endif
