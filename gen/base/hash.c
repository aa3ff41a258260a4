/*
 * hash.c — see hash.h. A multiply-xorshift mix over 8-byte words, then the
 * tail: cheap, and good enough to tell files and names apart.
 */
#include "gen/base/hash.h"

#include <string.h>

uint64_t hash_bytes(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed ^ (0x9E3779B97F4A7C15ull * (len + 1));
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
        p += 8;
        len -= 8;
    }
    uint64_t tail = 0;
    if (len > 0) /* p may be NULL for empty data: memcpy must not see it */
        memcpy(&tail, p, len);
    h = (h ^ tail) * 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 29;
    return h;
}
