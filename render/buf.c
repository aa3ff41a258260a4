/*
 * buf.c — the growable buffer behind buf.h.
 */
#include "render/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rbuf_init(rbuf *b)
{
    memset(b, 0, sizeof *b);
}

void rbuf_free(rbuf *b)
{
    free(b->data);
    rbuf_init(b);
}

void rbuf_clear(rbuf *b)
{
    b->len = 0;
    b->oom = false;
    if (b->data)
        b->data[0] = '\0';
}

bool rbuf_reserve(rbuf *b, size_t n)
{
    if (b->oom)
        return false;
    if (b->cap && n < b->cap - b->len)
        return true;
    size_t need = b->len + n + 1;
    if (need < n) {
        b->oom = true;
        return false;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    char *data = realloc(b->data, cap);
    if (!data) {
        b->oom = true;
        return false;
    }
    b->data = data;
    b->cap = cap;
    return true;
}

bool rbuf_put(rbuf *b, const void *p, size_t n)
{
    if (!rbuf_reserve(b, n))
        return false;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return true;
}

bool rbuf_puts(rbuf *b, const char *s)
{
    return rbuf_put(b, s, strlen(s));
}

bool rbuf_putc(rbuf *b, char c)
{
    return rbuf_put(b, &c, 1);
}

bool rbuf_printf(rbuf *b, const char *fmt, ...)
{
    if (!rbuf_reserve(b, 64))
        return false;
    /* Usually the text fits the room there is: one formatting pass. */
    size_t room = b->cap - b->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->data + b->len, room, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->data[b->len] = '\0';
        return false;
    }
    if ((size_t)n >= room) {
        if (!rbuf_reserve(b, (size_t)n))
            return false;
        va_start(ap, fmt);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
    return true;
}

bool rbuf_number(rbuf *b, double v)
{
    /* Whole numbers below 1e10 print the same under %.10g as as integers. */
    if (v > -1e10 && v < 1e10 && v == (double)(long long)v) {
        char digits[24], *p = digits + sizeof digits;
        long long n = (long long)v;
        unsigned long long u = n < 0 ? (unsigned long long)-n : (unsigned long long)n;
        do
            *--p = (char)('0' + u % 10);
        while ((u /= 10) > 0);
        if (n < 0)
            *--p = '-';
        return rbuf_put(b, p, (size_t)(digits + sizeof digits - p));
    }
    return rbuf_printf(b, "%.10g", v);
}

const char *rbuf_str(const rbuf *b)
{
    return b->data ? b->data : "";
}

char *rbuf_take(rbuf *b)
{
    char *data = b->oom ? NULL : b->data;
    if (b->oom)
        free(b->data);
    rbuf_init(b);
    return data;
}
