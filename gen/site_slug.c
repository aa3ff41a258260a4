/*
 * site_slug.c — see site_slug.h.
 */
#include "gen/site_slug.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "gen/site_out.h"

enum { SLUG_MAX = 60 };

static bool keeps(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           (c == '.' && !first);
}

void site_slug(const char *name, rbuf *out)
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
        rbuf_printf(out, "%08" PRIx32, (uint32_t)(site_hash(name, n, 0) >> 32));
    }
}
