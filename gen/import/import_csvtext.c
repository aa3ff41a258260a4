/*
 * import_csvtext.c — see import_csvtext.h.
 */
#include "gen/import/import_csvtext.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/base/csvread.h"
#include "gen/base/textout.h"

void csv_text_free_row(char **row, size_t ncols)
{
    for (size_t c = 0; row && c < ncols; c++)
        free(row[c]);
    free(row);
}

void csv_text_free(csv_text *t)
{
    for (size_t r = 0; r < t->nrows; r++)
        csv_text_free_row(t->rows[r], t->ncols);
    free(t->rows);
    for (size_t c = 0; t->header && c < t->ncols; c++)
        free(t->header[c]);
    free(t->header);
    memset(t, 0, sizeof *t);
}

long csv_text_column(const csv_text *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->header[c], name) == 0)
            return (long)c;
    return -1;
}

char **csv_text_blank_row(size_t ncols)
{
    char **row = calloc(ncols ? ncols : 1, sizeof *row);
    for (size_t c = 0; row && c < ncols; c++)
        if (!(row[c] = strdup(""))) {
            csv_text_free_row(row, c);
            return NULL;
        }
    return row;
}

bool csv_text_set_cell(char **row, size_t c, const char *value)
{
    char *copy = strdup(value ? value : "");
    if (!copy)
        return false;
    free(row[c]);
    row[c] = copy;
    return true;
}

bool csv_text_add_row(csv_text *t, char **cells)
{
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char ***more = realloc(t->rows, cap * sizeof *more);
        if (!more) {
            csv_text_free_row(cells, t->ncols);
            return false;
        }
        t->rows = more;
        t->cap = cap;
    }
    t->rows[t->nrows++] = cells;
    return true;
}

bool csv_text_add_column(csv_text *t, char const *name)
{
    if (csv_text_column(t, name) >= 0)
        return true;
    char **more = realloc(t->header, (t->ncols + 1) * sizeof *more);
    if (!more)
        return false;
    t->header = more;
    if (!(t->header[t->ncols] = strdup(name)))
        return false;
    for (size_t r = 0; r < t->nrows; r++) {
        char **cells = realloc(t->rows[r], (t->ncols + 1) * sizeof *cells);
        if (!cells)
            return false;
        t->rows[r] = cells;
        if (!(cells[t->ncols] = strdup(""))) {
            /* keep every row ncols wide for csv_text_free */
            for (size_t k = r; k-- > 0;)
                free(t->rows[k][t->ncols]);
            free(t->header[t->ncols]);
            return false;
        }
    }
    t->ncols++;
    return true;
}

/* ------------------------------------------------------------------ */
/* Load and write                                                      */

/* Take the cells of a parsed row (ncols of them, "" for missing ones). */
static char **take_fields(const csv_row *row, size_t ncols)
{
    char **cells = csv_text_blank_row(ncols);
    for (size_t c = 0; cells && c < ncols && c < row->nfields; c++)
        if (!csv_text_set_cell(cells, c, row->fields[c].text)) {
            csv_text_free_row(cells, ncols);
            return NULL;
        }
    return cells;
}

bool csv_text_load(const char *path, csv_text *out, diag_list *diags)
{
    memset(out, 0, sizeof *out);
    struct stat st;
    if (stat(path, &st) != 0)
        return errno == ENOENT || (diag_add(diags, path, 0, 0, "%s", strerror(errno)), false);
    out->exists = true;
    size_t before = diags->count;
    csv_doc doc;
    bool ok = csv_read_file(path, path, &doc, diags) && diags->count == before && doc.nrows > 0;
    if (ok) {
        out->header = take_fields(&doc.rows[0], doc.rows[0].nfields);
        ok = out->header != NULL;
        out->ncols = ok ? doc.rows[0].nfields : 0;
        for (size_t r = 1; ok && r < doc.nrows; r++) {
            char **cells = take_fields(&doc.rows[r], out->ncols);
            ok = cells && csv_text_add_row(out, cells);
        }
        if (!ok)
            diag_add(diags, path, 0, 0, "out of memory");
    } else if (diags->count == before) {
        diag_add(diags, path, 0, 0, "no header line; fix or remove the file before importing");
    }
    csv_doc_free(&doc);
    return ok;
}

/* One CSV cell, quoted as textout_csv_text quotes it, into an rbuf. */
static bool put_cell(rbuf *out, const char *s)
{
    if (!textout_csv_needs_quotes(s))
        return rbuf_puts(out, s);
    bool ok = rbuf_putc(out, '"');
    for (; ok && *s; s++)
        ok = (*s != '"' || rbuf_putc(out, '"')) && rbuf_putc(out, *s);
    return ok && rbuf_putc(out, '"');
}

bool csv_text_put_row(rbuf *out, const char *const *cells, size_t ncols)
{
    bool ok = true;
    for (size_t c = 0; ok && c < ncols; c++)
        ok = (c == 0 || rbuf_putc(out, ',')) && put_cell(out, cells[c]);
    return ok && rbuf_putc(out, '\n') && !out->oom;
}

bool csv_text_serialize(const csv_text *t, rbuf *out)
{
    bool ok = csv_text_put_row(out, (const char *const *)t->header, t->ncols);
    for (size_t r = 0; ok && r < t->nrows; r++)
        ok = csv_text_put_row(out, (const char *const *)t->rows[r], t->ncols);
    return ok && !out->oom;
}
