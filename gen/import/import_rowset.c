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

enum { TAG_BITS = 24 };

static size_t slot_offset(import_rowset_slot x)
{
    return (size_t)(x >> TAG_BITS) - 1;
}

/* The slot holding text (a whole line, its line end last), or the free
 * slot where it would go. */
static size_t find(const import_rowset *s, const char *buf, size_t buf_len, const char *text,
                   size_t len, uint64_t h)
{
    size_t i = (size_t)h & (s->nslots - 1);
    uint64_t tag = h >> (64 - TAG_BITS);
    for (;; i = (i + 1) & (s->nslots - 1)) {
        import_rowset_slot x = s->slots[i];
        if (!x)
            return i;
        size_t at = slot_offset(x);
        if ((x & ((1u << TAG_BITS) - 1)) == tag && at + len <= buf_len &&
            memcmp(buf + at, text, len) == 0)
            return i;
    }
}

bool import_rowset_has(const import_rowset *s, const char *buf, size_t buf_len, const char *text,
                       size_t len)
{
    if (!s->nslots)
        return false;
    return s->slots[find(s, buf, buf_len, text, len, hash_bytes(text, len, 0))] != 0;
}

/* The length of the CSV line at text, its line end included: the first
 * line end outside quotes (a quoted cell may hold line ends). */
static size_t line_length(const char *text)
{
    bool quoted = false;
    size_t n = 0;
    while (text[n] && (quoted || text[n] != '\n'))
        quoted ^= text[n++] == '"';
    return n + (text[n] == '\n');
}

/* Move the rows into n slots (a power of two above twice their number). */
static bool rehash(import_rowset *s, const char *buf, size_t buf_len, size_t n)
{
    import_rowset_slot *slots = calloc(n, sizeof *slots), *old = s->slots;
    if (!slots)
        return false;
    size_t nold = s->nslots;
    s->slots = slots;
    s->nslots = n;
    for (size_t i = 0; i < nold; i++)
        if (old[i]) {
            const char *text = buf + slot_offset(old[i]);
            size_t len = line_length(text);
            s->slots[find(s, buf, buf_len, text, len, hash_bytes(text, len, 0))] = old[i];
        }
    free(old);
    return true;
}

bool import_rowset_reserve(import_rowset *s, const char *buf, size_t buf_len, size_t rows)
{
    size_t n = 1024;
    while (n < 2 * rows + 2)
        n *= 2;
    return n <= s->nslots || rehash(s, buf, buf_len, n);
}

bool import_rowset_add(import_rowset *s, const char *buf, size_t buf_len, size_t offset,
                       size_t len)
{
    if (offset + 1 >= ((uint64_t)1 << (64 - TAG_BITS)))
        return false;
    if (2 * (s->n + 1) > s->nslots &&
        !rehash(s, buf, buf_len, s->nslots ? 2 * s->nslots : 1024))
        return false;
    const char *text = buf + offset;
    uint64_t h = hash_bytes(text, len, 0);
    size_t i = find(s, buf, buf_len, text, len, h);
    if (!s->slots[i]) {
        s->slots[i] = ((uint64_t)(offset + 1) << TAG_BITS) | (h >> (64 - TAG_BITS));
        s->n++;
    }
    return true;
}
