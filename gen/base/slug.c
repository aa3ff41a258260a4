/*
 * slug.c — see slug.h.
 */
#include "gen/base/slug.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "gen/base/hash.h"

enum { SLUG_MAX = 60 };

/* 32 symbols, 5 bits each: digits and the letters but 'e', 'i', 'l', 'o'
 * (no e-notation, nothing to misread). */
static const char hash_digits[] = "0123456789abcdfghjkmnpqrstuvwxyz";

static bool keeps(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           (c == '.' && !first);
}

void slug_append(const char *name, rbuf *out)
{
    size_t start = out->len, n = strlen(name);
    bool changed = n == 0 || n > SLUG_MAX;
    bool dash = false;
    for (size_t i = 0; i < n && out->len - start < SLUG_MAX; i++) {
        char c = name[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (keeps(c, out->len == start)) {
            changed |= c != name[i];
            rbuf_putc(out, c);
            dash = false;
        } else {
            changed = true;
            if (!dash && out->len > start)
                rbuf_putc(out, '-');
            dash = true;
        }
    }
    if (changed) {
        if (out->len > start && !dash)
            rbuf_putc(out, '-');
        uint64_t h = hash_bytes(name, n, 0) >> 29; /* the top 35 bits */
        for (int i = 6; i >= 0; i--)
            rbuf_putc(out, hash_digits[(h >> (5 * i)) & 31]);
    }
}
