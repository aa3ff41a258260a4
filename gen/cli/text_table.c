/*
 * text_table.c — see text_table.h.
 */
#include "gen/cli/text_table.h"

#include <stdlib.h>
#include <string.h>

void text_table_init(text_table *t, size_t ncols, const bool *right)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    t->right = calloc(ncols ? ncols : 1, sizeof *t->right);
    if (!t->right)
        t->oom = true;
    for (size_t c = 0; right && t->right && c < ncols; c++)
        t->right[c] = right[c];
}

void text_table_cell(text_table *t, const char *text)
{
    if (t->oom)
        return;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char **more = realloc(t->cells, cap * sizeof *more);
        if (!more) {
            t->oom = true;
            return;
        }
        t->cells = more;
        t->cap = cap;
    }
    char *copy = strdup(text ? text : "");
    if (!copy) {
        t->oom = true;
        return;
    }
    t->cells[t->n++] = copy;
}

/* Characters (UTF-8 code points) of s. */
static size_t chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

bool text_table_print(const text_table *t, FILE *out)
{
    if (t->oom || t->ncols == 0)
        return !t->oom;
    size_t *width = calloc(t->ncols, sizeof *width);
    if (!width)
        return false;
    for (size_t i = 0; i < t->n; i++)
        if (chars(t->cells[i]) > width[i % t->ncols])
            width[i % t->ncols] = chars(t->cells[i]);
    for (size_t row = 0; row * t->ncols < t->n; row++) {
        char **cell = t->cells + row * t->ncols;
        size_t n = t->n - row * t->ncols < t->ncols ? t->n - row * t->ncols : t->ncols;
        while (n > 1 && !cell[n - 1][0] && !t->right[n - 1])
            n--; /* no trailing blanks */
        for (size_t c = 0; c < n; c++) {
            size_t pad = width[c] - chars(cell[c]);
            bool last = c + 1 == n;
            if (t->right[c])
                fprintf(out, "%*s%s", (int)pad, "", cell[c]);
            else
                fprintf(out, "%s%*s", cell[c], last ? 0 : (int)pad, "");
            fputs(last ? "\n" : "  ", out);
        }
    }
    free(width);
    return true;
}

void text_table_free(text_table *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->right);
    memset(t, 0, sizeof *t);
}
