/*
 * hash.h — a fast 64-bit hash of bytes, for change detection and short
 * file-name suffixes (gen/base/slug.h, the site's manifest), never for
 * security. Its values are written into built sites (manifests, slugs),
 * so changing the function changes published file names.
 */
#ifndef PERFCAST_HASH_H
#define PERFCAST_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The hash of data[0..len), chained from seed (0 to start). */
uint64_t hash_bytes(const void *data, size_t len, uint64_t seed);

#endif
