/*
 * site_notes.c — a table's numbered footnotes (site_notes.h).
 */
#include "gen/site/site_notes.h"

#include <stdlib.h>
#include <string.h>

#include "gen/base/growth.h"
#include "render/markdown.h"

void site_notes_init(site_notes *n)
{
    *n = (site_notes){0};
}

void site_notes_free(site_notes *n)
{
    for (size_t i = 0; i < n->n; i++)
        free(n->text[i]);
    free(n->text);
    *n = (site_notes){0};
}

size_t site_notes_add(site_notes *n, const char *text)
{
    for (size_t i = 0; i < n->n; i++)
        if (strcmp(n->text[i], text) == 0)
            return i + 1;
    char *copy = strdup(text);
    if (!copy || !growth_reserve(&n->text, &n->cap, n->n + 1, sizeof *n->text)) {
        free(copy);
        n->oom = true;
        return 0;
    }
    n->text[n->n++] = copy;
    return n->n;
}

void site_notes_mark(rbuf *cell, size_t k)
{
    rbuf_printf(cell, "[%zu]", k);
}

void site_notes_write(site_notes *n, rbuf *md)
{
    rbuf mark;
    rbuf_init(&mark);
    for (size_t i = n->written; i < n->n; i++) {
        rbuf_clear(&mark);
        site_notes_mark(&mark, i + 1);
        rbuf_putc(&mark, ' ');
        rbuf_puts(&mark, n->text[i]);
        md_bullet(md);
        md_text(md, rbuf_str(&mark));
        md_end_item(md);
    }
    if (n->n > n->written)
        md_end_list(md);
    n->written = n->n;
    rbuf_free(&mark);
}
