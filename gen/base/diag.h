/*
 * diag.h — collects problems found in input as "FILE:LINE:COL: message".
 *
 * Ingest never stops at the first problem: it records each one here and
 * goes on, so `perfcast check` can print them all. LINE and COL are 1-based;
 * 0 means "the whole file" (then only FILE: message is printed).
 *
 * Ownership: a diag_list owns its messages; diag_free releases them.
 */
#ifndef PERFCAST_DIAG_H
#define PERFCAST_DIAG_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    char *file;
    long line;
    long column;
    char *message;
} diag;

typedef struct {
    diag *items;
    size_t count;
    size_t cap;
} diag_list;

void diag_init(diag_list *d);
void diag_free(diag_list *d);

/* Record a problem; the message is printf-formatted. Out of memory is
 * reported once on stderr and the problem is dropped (never a crash). */
void diag_add(diag_list *d, const char *file, long line, long column,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Print every problem, one per line, in the order recorded. */
void diag_print(const diag_list *d, FILE *out);

/* Move all problems of src to the end of dst; src is left empty. */
void diag_append(diag_list *dst, diag_list *src);

#endif
