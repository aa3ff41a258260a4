/*
 * experiment_check.c — see experiment_check.h.
 */
#include "gen/experiment_check.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gen/fileio.h"
#include "gen/model_adapters.h"
#include "models/expr.h"
#include "models/multicore.h"

const char *const experiment_models[] = {
    "scopred", "strip", "block", "multicluster", "multicore", NULL,
};


typedef struct {
    const char *file;
    const csv_row *header;
    const csv_row *row;
    const campaign *camp;
    diag_list *d;
} cell_ctx;

static bool in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (strcmp(*list, s) == 0)
            return true;
    return false;
}

/* The field of the current row under column name (NULL when absent). */
static const csv_field *cell(const cell_ctx *x, const char *name)
{
    for (size_t i = 0; i < x->header->nfields && i < x->row->nfields; i++)
        if (strcmp(x->header->fields[i].text, name) == 0)
            return &x->row->fields[i];
    return NULL;
}

/* Column of character `offset` (0-based) of a cell's text. */
static long column_at(const csv_field *f, long offset)
{
    return f->column + (f->quoted ? 1 : 0) + offset;
}

typedef struct {
    const cell_ctx *x;
    const csv_field *f;
    const char *what;        /* "filter", "formula" */
    bool ok;
} name_check;

static bool check_name(void *ctx, const char *name, int column)
{
    name_check *nc = ctx;
    if (table_find(&nc->x->camp->runs, name) < 0) {
        diag_add(nc->x->d, nc->x->file, nc->f->line, column_at(nc->f, column - 1),
                 "unknown column '%s' in the %s (not in runs.csv)", name, nc->what);
        nc->ok = false;
    }
    return true;
}

/* A multicore formula is a product of factor names, not an expression
 * over run columns: the model's own parser is the judge. */
static void check_factors(const cell_ctx *x, const csv_field *f)
{
    multicore_factor factors[MULTICORE_NFACTORS];
    size_t n;
    char err[200];
    if (!multicore_parse_formula(f->text, factors, MULTICORE_NFACTORS, &n, err, sizeof err))
        diag_add(x->d, x->file, f->line, column_at(f, 0), "%s in the formula", err);
}

static void check_expression(const cell_ctx *x, const char *name, const char *what,
                             bool multicore)
{
    const csv_field *f = cell(x, name);
    if (!f || strspn(f->text, " \t") == strlen(f->text))
        return;
    if (multicore) {
        check_factors(x, f);
        return;
    }
    expr_error err;
    expr *e = expr_parse(f->text, &err);
    if (!e) {
        diag_add(x->d, x->file, f->line, column_at(f, err.column - 1), "%s in the %s", err.message, what);
        return;
    }
    name_check nc = {x, f, what, true};
    expr_visit_names(e, check_name, &nc);
    expr_free(e);
}

static void check_response(const cell_ctx *x)
{
    const csv_field *f = cell(x, "response");
    if (!f)
        return;
    const char *s = f->text;
    while (*s) {
        size_t skip = strspn(s, " \t+");
        s += skip;
        size_t n = strcspn(s, "+");
        size_t len = n;
        while (len > 0 && isspace((unsigned char)s[len - 1]))
            len--;
        if (len == 0)
            break;
        char *name = strndup(s, len);
        int col = name ? table_find(&x->camp->runs, name) : -1;
        if (name && (col < 0 || x->camp->runs.cols[col].kind != COL_NUMBER))
            diag_add(x->d, x->file, f->line, column_at(f, (long)(s - f->text)),
                     "unknown response column '%s' (expected a numeric column of runs.csv, e.g. time_s)",
                     name);
        free(name);
        s += n;
    }
}

static void check_options(const cell_ctx *x)
{
    const csv_field *f = cell(x, "options");
    if (!f)
        return;
    const char *s = f->text;
    while (*s) {
        size_t n = strcspn(s, ";");
        size_t lead = strspn(s, " \t");
        if (n > lead) {
            const char *eq = memchr(s, '=', n);
            if (!eq || eq == s + lead)
                diag_add(x->d, x->file, f->line, column_at(f, (long)(s + lead - f->text)),
                         "expected key=value in the options (separate several with ';')");
        }
        s += n;
        if (*s == ';')
            s++;
    }
}

static bool valid_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
            return false;
    return true;
}

static void check_one(const cell_ctx *x, const experiment_info *e, size_t index)
{
    const csv_field *name = cell(x, "name");
    const csv_field *model = cell(x, "model");
    if (name && !valid_name(e->name))
        diag_add(x->d, x->file, name->line, name->column,
                 "experiment name '%s' must be letters, digits, '_' or '-'", e->name);
    for (size_t i = 0; i < index; i++)
        if (name && strcmp(x->camp->experiments[i].name, e->name) == 0)
            diag_add(x->d, x->file, name->line, name->column,
                     "duplicate experiment name '%s' (first on line %ld)", e->name,
                     x->camp->experiments[i].line);
    if (model && !in_list(experiment_models, e->model))
        diag_add(x->d, x->file, model->line, model->column,
                 "unknown model '%s' (expected scopred, strip, block, multicluster or multicore)",
                 e->model);
    check_response(x);
    check_expression(x, "train", "train filter", false);
    check_expression(x, "target", "target filter", false);
    bool multicore = strcmp(e->model, "multicore") == 0;
    check_expression(x, "formula", "formula", multicore);
    check_options(x);
}

/* Where experiment e's options cell starts, for messages about it. */
static void locate_options(const csv_row *header, const csv_row *row, experiment_info *e)
{
    for (size_t i = 0; i < header->nfields && i < row->nfields; i++)
        if (strcmp(header->fields[i].text, "options") == 0)
            e->options_column = row->fields[i].column;
}

void experiment_locate_all(campaign *c, const csv_doc *doc)
{
    for (size_t i = 0; i < c->nexperiments; i++)
        for (size_t r = 1; r < doc->nrows; r++)
            if (doc->rows[r].line == c->experiments[i].line)
                locate_options(&doc->rows[0], &doc->rows[r], &c->experiments[i]);
}

void experiment_check_options(const archive *a, diag_list *d)
{
    for (size_t i = 0; i < a->ncampaigns; i++) {
        const campaign *c = &a->campaigns[i];
        char *file = fileio_join(c->dir, "experiments.csv");
        for (size_t k = 0; k < c->nexperiments; k++) {
            const experiment_info *e = &c->experiments[k];
            char err[300];
            if (e->problem)
                continue; /* reported with its row already */
            if (!model_check_options(c, e, err, sizeof err))
                diag_add(d, file ? file : c->dir, e->line, e->options_column, "%s", err);
        }
        free(file);
    }
}

void experiment_check_all(const campaign *c, const csv_doc *doc, const char *file, diag_list *d)
{
    if (doc->nrows == 0)
        return;
    for (size_t i = 0; i < c->nexperiments; i++) {
        const experiment_info *e = &c->experiments[i];
        for (size_t r = 1; r < doc->nrows; r++)
            if (doc->rows[r].line == e->line) {
                cell_ctx x = {file, &doc->rows[0], &doc->rows[r], c, d};
                check_one(&x, e, i);
                break;
            }
    }
}
