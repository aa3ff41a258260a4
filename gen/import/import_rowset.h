/*
 * import_rowset.h — which rows a runs.csv being written already holds, so
 * an import adds each row once: rows are kept as their serialized text in
 * the output buffer, and the set remembers where each one is (offset and
 * length) under a hash of its text. Two rows are the same row when their
 * text is the same, byte for byte (every cell, in the file's column order).
 *
 * Memory: 8 bytes a slot, two slots a row at most; no copy of a row.
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

/* A slot: (offset + 1) << 24 | the high 24 bits of the row's hash; 0 is a
 * free slot. The row's length is not kept: a line that matches the
 * buffer at offset up to and including its own unquoted line end is that
 * row (the quoting state at each byte follows from the bytes before it). */
typedef uint64_t import_rowset_slot;

typedef struct {
    import_rowset_slot *slots;
    size_t nslots;
    size_t n;
} import_rowset;

void import_rowset_init(import_rowset *s);
void import_rowset_free(import_rowset *s);

/* Room for rows rows without growing (growing holds the old and the new
 * slots at once). False when out of memory. */
bool import_rowset_reserve(import_rowset *s, const char *buf, size_t buf_len, size_t rows);

/* Whether the line text[0..len) (a whole row, its line end last) is in
 * the set; buf[0..buf_len) is the buffer the set indexes. */
bool import_rowset_has(const import_rowset *s, const char *buf, size_t buf_len, const char *text,
                       size_t len);

/* Remember the line at buf[offset .. offset+len) (buf holds buf_len
 * bytes). False when out of memory or the buffer outgrows what a slot can
 * address (1 TiB). */
bool import_rowset_add(import_rowset *s, const char *buf, size_t buf_len, size_t offset,
                       size_t len);

#endif
