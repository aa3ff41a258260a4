/*
 * site_columns.c — see site_columns.h.
 */
#include "gen/site/site_columns.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/config_index.h"
#include "render/numtext.h"

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

/* The columns of one label, and which of them are said already. */
typedef struct {
    const campaign *camp;
    const table *t;
    const size_t *cols;
    size_t ncols, row;
    int skip;
    unsigned parts;
    bool said[64];       /* per entry of cols (labels have far fewer) */
    size_t nparts;       /* words written so far */
    rbuf *out;
} words_ctx;

/* The entry of cols named name with a value in the row, or -1. */
static int word_col(const words_ctx *w, const char *name)
{
    for (size_t i = 0; i < w->ncols && i < 64; i++) {
        size_t c = w->cols[i];
        if ((int)c != w->skip && strcmp(w->t->cols[c].name, name) == 0 &&
            !site_cell_missing(&w->t->cols[c], w->row))
            return (int)i;
    }
    return -1;
}

/* Whether v is the row's process count (a column that repeats it adds
 * nothing for a reader). */
static bool word_repeats_processes(const words_ctx *w, double v)
{
    int i = word_col(w, campaign_procs(w->camp));
    return i >= 0 && w->t->cols[w->cols[i]].kind == COL_NUMBER &&
           w->t->cols[w->cols[i]].num[w->row] == v;
}

static void word_sep(words_ctx *w)
{
    if (w->nparts++)
        rbuf_puts(w->out, ", ");
}

/* The value of entry i for people: text as is, a whole number in full
 * ("1073741824", never e-notation), any other number to sig significant
 * digits. */
static void word_value(words_ctx *w, int i, int sig)
{
    const table_column *col = &w->t->cols[w->cols[i]];
    double v = col->kind == COL_NUMBER ? col->num[w->row] : NAN;
    if (col->kind == COL_TEXT)
        rbuf_puts(w->out, col->text[w->row]);
    else if (v == floor(v) && fabs(v) < 1e15)
        rbuf_printf(w->out, "%.0f", v);
    else
        numtext_value(w->out, v, sig);
    w->said[i] = true;
}

/* "A×B what" from two columns, or "A×1 what" / "A what" from the first
 * alone (one_alone NULL: the pair only). */
static void word_pair(words_ctx *w, const char *a, const char *b, const char *what,
                      const char *one_alone)
{
    int i = word_col(w, a), j = word_col(w, b);
    if (i < 0 || (j < 0 && !one_alone))
        return;
    const table_column *first = &w->t->cols[w->cols[i]];
    if (j < 0 && first->kind == COL_NUMBER && first->num[w->row] == 1) {
        w->said[i] = true; /* a strip of one process is a sequential run */
        return;
    }
    word_sep(w);
    word_value(w, i, 4);
    if (j >= 0) {
        rbuf_puts(w->out, "\xC3\x97");
        word_value(w, j, 4);
        rbuf_printf(w->out, " %s", what);
    } else {
        rbuf_printf(w->out, "%s", one_alone);
    }
}

static void word_mesh(words_ctx *w)
{
    int i = word_col(w, "na"), j = word_col(w, "nb");
    if (i < 0 && j < 0)
        return;
    word_sep(w);
    const table_column *a = i >= 0 ? &w->t->cols[w->cols[i]] : NULL;
    const table_column *b = j >= 0 ? &w->t->cols[w->cols[j]] : NULL;
    bool square = a && b && a->kind == COL_NUMBER && b->kind == COL_NUMBER &&
                  a->num[w->row] == b->num[w->row];
    if (square) {
        word_value(w, i, 4), w->said[j] = true;
        rbuf_puts(w->out, "\xC2\xB2 mesh");
    } else if (a && b) {
        word_value(w, i, 4), rbuf_puts(w->out, "\xC3\x97"), word_value(w, j, 4);
        rbuf_puts(w->out, " mesh");
    } else if (a) {
        word_value(w, i, 4), rbuf_puts(w->out, " rows");
    } else {
        rbuf_puts(w->out, "rows of "), word_value(w, j, 4);
    }
}

/* "16 processes", "16 per node", "2 nodes": column name, then the words;
 * a count that repeats the process count is left out unless it is the
 * process count itself (all on one node: "16 per node" says nothing). */
static void word_count(words_ctx *w, const char *name, const char *one, const char *many)
{
    int i = word_col(w, name);
    if (i < 0)
        return;
    const table_column *col = &w->t->cols[w->cols[i]];
    if (strcmp(name, campaign_procs(w->camp)) != 0 && col->kind == COL_NUMBER &&
        word_repeats_processes(w, col->num[w->row])) {
        w->said[i] = true;
        return;
    }
    word_sep(w);
    word_value(w, i, 4);
    rbuf_puts(w->out, col->kind == COL_NUMBER && col->num[w->row] == 1 ? one : many);
}

static void word_rest(words_ctx *w)
{
    for (size_t i = 0; i < w->ncols && i < 64; i++) {
        size_t c = w->cols[i];
        const char *name = w->t->cols[c].name;
        if (w->said[i] || (int)c == w->skip || strcmp(name, "cluster") == 0 ||
            site_cell_missing(&w->t->cols[c], w->row) ||
            (!(w->parts & SITE_WORDS_PROCESSES) && site_is_process_count(w->camp, name)))
            continue;
        const table_column *col = &w->t->cols[c];
        if (col->kind == COL_NUMBER && word_repeats_processes(w, col->num[w->row]) &&
            site_is_process_count(w->camp, name)) {
            w->said[i] = true; /* P = np of an NPB run says nothing new */
            continue;
        }
        word_sep(w);
        if (strncmp(name, "tag_", 4) == 0)
            rbuf_printf(w->out, "%s ", name + 4);
        else
            rbuf_printf(w->out, "%s=", name);
        word_value(w, (int)i, 4);
    }
}

void site_columns_words(const campaign *c, const size_t *cols, size_t ncols, size_t row,
                        int skip, unsigned parts, rbuf *out)
{
    words_ctx w = {.camp = c, .t = &c->runs, .cols = cols, .ncols = ncols, .row = row,
                   .skip = skip, .parts = parts, .out = out};
    if (parts & SITE_WORDS_PROCESSES) {
        word_pair(&w, "npa", "npb", "grid", "\xC3\x97" "1 strip");
        word_pair(&w, "P", "Q", "process grid", NULL);
    }
    word_mesh(&w);
    if (parts & SITE_WORDS_PROCESSES) {
        word_count(&w, campaign_procs(c), " process", " processes");
        word_count(&w, "ppn", " per node", " per node");
        word_count(&w, "nodes", " node", " nodes");
    }
    int seq = word_col(&w, "seq_of_np");
    if (seq >= 0) { /* a sequential run standing for a strip's per-process mesh */
        word_sep(&w);
        rbuf_puts(out, "the per-process mesh of ");
        word_value(&w, seq, 4);
        rbuf_puts(out, " processes");
    }
    int work = word_col(&w, "work_mb");
    if (work >= 0) {
        word_sep(&w);
        word_value(&w, work, 3);
        rbuf_puts(out, " MB per process");
    }
    word_rest(&w);
    int cl = word_col(&w, "cluster");
    if ((parts & SITE_WORDS_CLUSTER) && cl >= 0) {
        rbuf_puts(out, w.nparts ? " on " : "on ");
        word_value(&w, cl, 4);
    }
}
