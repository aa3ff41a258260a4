/*
 * import_rowset.h — which rows a runs.csv being written already holds, so
 * an import adds each row once: rows are kept as their serialized text in
 * the output buffer, and the set remembers where each one is (offset and
 * length) under a hash of its text. Two rows are the same row when their
 * text is the same, byte for byte (every cell, in the file's column order).
 *
 * Memory: 16 bytes a slot, two slots a row at most; no copy of a row.
 *
 * Ownership: import_rowset_init fills a set the caller releases with
 * import_rowset_free; the buffer it indexes belongs to the caller and must
 * not change under rows already added (appending is fine).
 */
#ifndef PERFCAST_IMPORT_ROWSET_H
#define PERFCAST_IMPORT_ROWSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t offset : 40; /* where the row starts in the buffer */
    uint64_t tag : 24;    /* high bits of its hash: most mismatches never compare text */
    uint32_t len;         /* its length, line end included */
    uint32_t used;        /* 1 when the slot holds a row */
} import_rowset_slot;

typedef struct {
    import_rowset_slot *slots;
    size_t nslots;
    size_t n;
} import_rowset;

void import_rowset_init(import_rowset *s);
void import_rowset_free(import_rowset *s);

/* Whether the row text[0..len) (inside buf at offset, or anywhere when
 * offset is ignored) is in the set: buf is the buffer the set indexes. */
bool import_rowset_has(const import_rowset *s, const char *buf, const char *text, size_t len);

/* Remember the row at buf[offset .. offset+len). False when out of memory
 * or the buffer outgrows what a slot can address (1 TiB). */
bool import_rowset_add(import_rowset *s, const char *buf, size_t offset, size_t len);

#endif
