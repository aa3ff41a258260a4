/*
 * import_rowset.c — see import_rowset.h. Open addressing with linear
 * probing, at most half full.
 */
#include "gen/import/import_rowset.h"

#include <stdlib.h>
#include <string.h>

#include "gen/base/hash.h"

void import_rowset_init(import_rowset *s)
{
    memset(s, 0, sizeof *s);
}

void import_rowset_free(import_rowset *s)
{
    free(s->slots);
    memset(s, 0, sizeof *s);
}

/* The slot holding text, or the free slot where it would go. */
static size_t find(const import_rowset *s, const char *buf, const char *text, size_t len,
                   uint64_t h)
{
    size_t i = (size_t)h & (s->nslots - 1);
    uint64_t tag = h >> 40;
    for (;; i = (i + 1) & (s->nslots - 1)) {
        const import_rowset_slot *x = &s->slots[i];
        if (!x->used)
            return i;
        if (x->tag == tag && x->len == len && memcmp(buf + x->offset, text, len) == 0)
            return i;
    }
}

bool import_rowset_has(const import_rowset *s, const char *buf, const char *text, size_t len)
{
    if (!s->nslots)
        return false;
    return s->slots[find(s, buf, text, len, hash_bytes(text, len, 0))].used;
}

static bool grow(import_rowset *s, const char *buf)
{
    size_t n = s->nslots ? 2 * s->nslots : 1024;
    import_rowset_slot *slots = calloc(n, sizeof *slots), *old = s->slots;
    if (!slots)
        return false;
    size_t nold = s->nslots;
    s->slots = slots;
    s->nslots = n;
    for (size_t i = 0; i < nold; i++)
        if (old[i].used) {
            const char *text = buf + old[i].offset;
            s->slots[find(s, buf, text, old[i].len, hash_bytes(text, old[i].len, 0))] = old[i];
        }
    free(old);
    return true;
}

bool import_rowset_add(import_rowset *s, const char *buf, size_t offset, size_t len)
{
    if (offset >= ((uint64_t)1 << 40) || len > UINT32_MAX)
        return false;
    if (2 * (s->n + 1) > s->nslots && !grow(s, buf))
        return false;
    const char *text = buf + offset;
    uint64_t h = hash_bytes(text, len, 0);
    size_t i = find(s, buf, text, len, h);
    if (!s->slots[i].used) {
        s->slots[i] = (import_rowset_slot){offset, h >> 40, (uint32_t)len, 1};
        s->n++;
    }
    return true;
}
