/*
 * buf.h — a growable byte buffer, the output type of every renderer.
 *
 * Appends never fail loudly: when memory runs out the buffer remembers it
 * (`oom`) and ignores further appends, so a renderer can append freely and
 * check once at the end. The contents are always NUL-terminated once
 * anything was appended, so text renderers can hand `data` to C string
 * functions; binary renderers (PNG) use `len`.
 *
 * Ownership: the buffer owns `data`; rbuf_free releases it. rbuf_take hands
 * it to the caller.
 */
#ifndef PERFCAST_RENDER_BUF_H
#define PERFCAST_RENDER_BUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *data;  /* NULL until the first append */
    size_t len;
    size_t cap;
    bool oom;    /* an append failed; the contents are incomplete */
} rbuf;

void rbuf_init(rbuf *b);
void rbuf_free(rbuf *b);

/* Forget the contents but keep the memory (and clear `oom`). */
void rbuf_clear(rbuf *b);

/* Make room for n more bytes; false (and `oom`) when memory runs out. */
bool rbuf_reserve(rbuf *b, size_t n);

/* Append; each returns false once the buffer is out of memory. */
bool rbuf_put(rbuf *b, const void *p, size_t n);
bool rbuf_puts(rbuf *b, const char *s);
bool rbuf_putc(rbuf *b, char c);
bool rbuf_printf(rbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A number as "%.10g" would write it, with a fast path for whole numbers
 * (run tables are mostly process counts and sizes). */
bool rbuf_number(rbuf *b, double v);

/* The text so far; "" when nothing was appended (never NULL). */
const char *rbuf_str(const rbuf *b);

/* Hand the contents to the caller (who frees them) and reset the buffer.
 * Returns NULL when the buffer is empty or out of memory. */
char *rbuf_take(rbuf *b);

#endif
