/*
 * site_panels.c — small multiples (see site_panels.h).
 */
#include "gen/site/site_panels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Index of s in list[0..n), or n. */
static size_t find(char *const *list, size_t n, const char *s)
{
    size_t i = 0;
    while (i < n && strcmp(list[i], s) != 0)
        i++;
    return i;
}

/* Distinct strings of all[0..n) into list (borrowed pointers). */
static size_t distinct(char *const *all, size_t n, char **list)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (find(list, k, all[i]) == k)
            list[k++] = all[i];
    return k;
}

/* The panel key of a cell: numbers to two significant digits. */
static char *panel_key(const table *t, size_t row, size_t col)
{
    rbuf b;
    rbuf_init(&b);
    site_cell_text(t, row, col, &b);
    char *end;
    double v = strtod(rbuf_str(&b), &end);
    if (b.len > 0 && *end == '\0' && isfinite(v)) {
        char num[32];
        snprintf(num, sizeof num, "%.2g", v);
        rbuf_clear(&b);
        rbuf_puts(&b, num);
    }
    if (b.oom) {
        rbuf_free(&b);
        return NULL;
    }
    rbuf_putc(&b, '\0'); /* an empty (missing) cell still owns a string */
    return rbuf_take(&b);
}

static bool may_split_by(const site_experiment *e, size_t i)
{
    const campaign *camp = e->res.input.camp;
    const table *t = &camp->runs;
    size_t c = e->shown[i];
    bool x_counts = e->x_col >= 0 && site_is_process_count(camp, t->cols[e->x_col].name);
    return e->varies[i] && (int)c != e->x_col &&
           !(x_counts && site_is_process_count(camp, t->cols[c].name));
}

/* keys[i] of every item for column col; returns the number of distinct
 * keys, 0 when out of memory. */
static size_t keys_of(const site_experiment *e, size_t col, const size_t *rows, size_t n,
                      char **keys, char **scratch)
{
    for (size_t i = 0; i < n; i++)
        if (!(keys[i] = panel_key(&e->res.input.camp->runs, rows[i], col)))
            return 0;
    return distinct(keys, n, scratch);
}

static void free_strings(char **s, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        free(s[i]), s[i] = NULL;
}

/* The panel column, -1 for none. */
static int choose_column(const site_experiment *e, const size_t *rows, size_t n, char **keys,
                         char **scratch, bool *oom)
{
    const table *t = &e->res.input.camp->runs;
    int best = -1;
    size_t best_count = 0;
    for (size_t i = 0; i < e->nshown && !*oom; i++) {
        if (!may_split_by(e, i))
            continue;
        size_t count = keys_of(e, e->shown[i], rows, n, keys, scratch);
        free_strings(keys, n);
        *oom = count == 0 && n > 0;
        if (count < 2)
            continue;
        if (strcmp(t->cols[e->shown[i]].name, "cluster") == 0)
            return (int)e->shown[i];
        if (best < 0 || count <= best_count)
            best = (int)e->shown[i], best_count = count;
    }
    return best;
}

static bool add_title(site_panels *p, const char *text)
{
    char *copy = strdup(text);
    if (!copy)
        return false;
    p->titles[p->n++] = copy;
    return true;
}

/* "name = value" when every cell of the panel reads the same, else
 * "name ≈ key". */
static void panel_title(const site_experiment *e, int col, const char *key, const size_t *rows,
                        char *const *keys, size_t n, rbuf *out)
{
    const table *t = &e->res.input.camp->runs;
    rbuf first, cell;
    rbuf_init(&first), rbuf_init(&cell);
    bool same = true, any = false;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(keys[i], key) != 0)
            continue;
        rbuf_clear(&cell);
        site_cell_text(t, rows[i], (size_t)col, &cell);
        if (!any)
            rbuf_puts(&first, rbuf_str(&cell)), any = true;
        same = same && strcmp(rbuf_str(&first), rbuf_str(&cell)) == 0;
    }
    rbuf_printf(out, "%s %s %s", t->cols[col].name, same ? "=" : "\xE2\x89\x88",
                same ? rbuf_str(&first) : key);
    rbuf_free(&first), rbuf_free(&cell);
}

/* Cut each keyed panel into parts of at most max series. */
static bool make_parts(site_panels *p, const site_experiment *e, int col, const size_t *rows,
                       char *const *series, char **keys, size_t n, size_t max, char **scratch)
{
    size_t nkeys = distinct(keys, n, scratch);
    char **order = malloc((nkeys ? nkeys : 1) * sizeof *order);
    char **in_panel = malloc((n ? n : 1) * sizeof *in_panel);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    bool ok = order && in_panel && idx;
    for (size_t k = 0; k < nkeys; k++)
        order[k] = scratch[k];
    rbuf title;
    rbuf_init(&title);
    for (size_t k = 0; ok && k < nkeys; k++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (strcmp(keys[i], order[k]) == 0)
                idx[m] = i, in_panel[m++] = series[i];
        size_t nseries = distinct(in_panel, m, scratch);
        size_t parts = (nseries + max - 1) / max, base = p->n;
        for (size_t part = 0; ok && part < parts; part++) {
            rbuf_clear(&title);
            if (col >= 0)
                panel_title(e, col, order[k], rows, keys, n, &title);
            if (parts > 1)
                rbuf_printf(&title, "%s(%zu of %zu)", title.len ? " " : "", part + 1, parts);
            ok = !title.oom && add_title(p, rbuf_str(&title));
        }
        for (size_t j = 0; ok && j < m; j++)
            p->of[idx[j]] = base + find(scratch, nseries, series[idx[j]]) / max;
    }
    rbuf_free(&title);
    free(order), free(in_panel), free(idx);
    return ok;
}

bool site_panels_split(const site_experiment *e, const size_t *rows, char *const *series,
                       size_t nitems, size_t max_series, site_panels *out)
{
    size_t m = nitems ? nitems : 1;
    out->n = 0;
    out->of = calloc(m, sizeof *out->of);
    out->titles = calloc(m + 1, sizeof *out->titles);
    char **keys = calloc(m, sizeof *keys), **scratch = calloc(m, sizeof *scratch);
    bool ok = out->of && out->titles && keys && scratch;
    if (ok && (max_series == 0 || distinct(series, nitems, scratch) <= max_series)) {
        ok = add_title(out, "");
    } else if (ok) {
        bool oom = false;
        int col = choose_column(e, rows, nitems, keys, scratch, &oom);
        ok = !oom;
        for (size_t i = 0; ok && i < nitems; i++)
            ok = (keys[i] = col >= 0 ? panel_key(&e->res.input.camp->runs, rows[i], (size_t)col)
                                     : strdup("")) != NULL;
        ok = ok && make_parts(out, e, col, rows, series, keys, nitems, max_series, scratch);
    }
    free_strings(keys, nitems);
    free(keys), free(scratch);
    return ok;
}

void site_panels_free(site_panels *p)
{
    free_strings(p->titles, p->n);
    free(p->titles);
    free(p->of);
    p->titles = NULL, p->of = NULL, p->n = 0;
}
