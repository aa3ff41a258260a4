/*
 * site_columns.c — see site_columns.h.
 */
#include "gen/site/site_columns.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/config_index.h"

bool site_cell_missing(const table_column *c, size_t row)
{
    return c->kind == COL_NUMBER ? isnan(c->num[row]) : c->text[row] == NULL;
}

void site_cell_text(const table *t, size_t row, size_t col, rbuf *out)
{
    const table_column *c = &t->cols[col];
    if (c->kind == COL_TEXT) {
        if (c->text[row])
            rbuf_puts(out, c->text[row]);
    } else if (!isnan(c->num[row])) {
        rbuf_number(out, c->num[row]);
    }
}

void site_columns_label(const table *t, const size_t *cols, size_t ncols, size_t row,
                        bool with_cluster, int skip, rbuf *out)
{
    bool first = true;
    for (size_t i = 0; i < ncols; i++) {
        size_t c = cols[i];
        bool is_cluster = strcmp(t->cols[c].name, "cluster") == 0;
        if ((int)c == skip || (is_cluster && !with_cluster) || site_cell_missing(&t->cols[c], row))
            continue;
        if (!first)
            rbuf_puts(out, ", ");
        first = false;
        if (!is_cluster)
            rbuf_printf(out, "%s=", t->cols[c].name);
        site_cell_text(t, row, c, out);
    }
}

bool site_is_process_count(const campaign *c, const char *name)
{
    static const char *const names[] = {"npa", "npb", "nodes", "ppn", "P", "Q", "np_a", "np_b"};
    if (strcmp(name, campaign_procs(c)) == 0)
        return true;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

bool site_shown_columns(const campaign *camp, const size_t *rows, size_t n, size_t **shown,
                        bool **varies, size_t *nshown)
{
    const table *t = &camp->runs;
    *nshown = 0;
    *shown = malloc((t->ncols ? t->ncols : 1) * sizeof **shown);
    *varies = malloc((t->ncols ? t->ncols : 1) * sizeof **varies);
    if (!*shown || !*varies)
        return false;
    for (size_t c = 0; c < t->ncols; c++) {
        const table_column *col = &t->cols[c];
        if (!config_column_identifies(col))
            continue;
        bool any = false, differs = false;
        for (size_t k = 0; k < n; k++) {
            any |= !site_cell_missing(col, rows[k]);
            differs |= k > 0 && !table_same_cells(col, rows[0], rows[k]);
        }
        bool always = strcmp(col->name, "cluster") == 0 ||
                      strcmp(col->name, campaign_procs(camp)) == 0;
        if (!any || !(differs || always))
            continue;
        (*varies)[*nshown] = differs;
        (*shown)[(*nshown)++] = c;
    }
    return true;
}
