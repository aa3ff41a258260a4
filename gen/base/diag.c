/*
 * diag.c — the list of input problems behind diag.h.
 */
#include "gen/base/diag.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void diag_init(diag_list *d)
{
    memset(d, 0, sizeof *d);
}

void diag_free(diag_list *d)
{
    for (size_t i = 0; i < d->count; i++) {
        free(d->items[i].file);
        free(d->items[i].message);
    }
    free(d->items);
    diag_init(d);
}

static bool reserve(diag_list *d, size_t extra)
{
    if (d->count + extra <= d->cap)
        return true;
    size_t cap = d->cap ? d->cap * 2 : 16;
    while (cap < d->count + extra)
        cap *= 2;
    diag *items = realloc(d->items, cap * sizeof *items);
    if (!items)
        return false;
    d->items = items;
    d->cap = cap;
    return true;
}

void diag_add(diag_list *d, const char *file, long line, long column, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    diag item = {strdup(file ? file : "?"), line, column, strdup(message)};
    if (!item.file || !item.message || !reserve(d, 1)) {
        free(item.file);
        free(item.message);
        fprintf(stderr, "perfcast: out of memory while reporting: %s\n", message);
        return;
    }
    d->items[d->count++] = item;
}

void diag_print(const diag_list *d, FILE *out)
{
    for (size_t i = 0; i < d->count; i++) {
        const diag *g = &d->items[i];
        if (g->line > 0)
            fprintf(out, "%s:%ld:%ld: %s\n", g->file, g->line, g->column > 0 ? g->column : 1,
                    g->message);
        else
            fprintf(out, "%s: %s\n", g->file, g->message);
    }
}

void diag_append(diag_list *dst, diag_list *src)
{
    if (src->count == 0) { /* nothing to move: memcpy must not see NULL lists */
        diag_free(src);
        return;
    }
    if (!reserve(dst, src->count)) {
        fprintf(stderr, "perfcast: out of memory: %zu problems not reported\n", src->count);
        diag_free(src);
        return;
    }
    memcpy(dst->items + dst->count, src->items, src->count * sizeof *src->items);
    dst->count += src->count;
    free(src->items);
    diag_init(src);
}
