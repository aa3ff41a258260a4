/*
 * experiment_check.c — see experiment_check.h.
 */
#include "gen/ingest/experiment_check.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gen/ingest/experiment_names.h"
#include "models/expr.h"
#include "models/multicore.h"

const char *const experiment_models[] = {
    "scopred", "strip", "block", "multicluster", "multicore", NULL,
};


typedef struct {
    const char *file;
    const csv_row *header;
    const csv_row *row;
    const table *runs;
    const experiment_info *exp;
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

/* Leading white space of a cell, which the loaded value leaves out. */
static size_t leading_space(const char *text)
{
    size_t n = 0;
    while (isspace((unsigned char)text[n]))
        n++;
    return n;
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

/* Parse the cell and type it over the runs' columns, as the fit will
 * evaluate it on every row: a filter or a formula must give a number. */
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
    value_kind kind;
    /* The text the fit will see: without leading white space, which also
     * is where experiment_cell_column counts from. */
    expr *e = expr_parse(f->text + leading_space(f->text), &err);
    if (!e || !expr_check_types(e, expr_kind_table_column, (void *)x->runs, &kind, &err)) {
        diag_add(x->d, x->file, f->line, experiment_cell_column(x->exp, name, err.column),
                 "%s in the %s", err.message, what);
    } else if (kind != VALUE_NUMBER) {
        diag_add(x->d, x->file, f->line, experiment_cell_column(x->exp, name, 1),
                 "the %s gives a text, expected a number (a filter is a condition such as "
                 "np <= 8)", what);
    }
    expr_free(e);
}

static void check_response(const cell_ctx *x)
{
    const csv_field *f = cell(x, "response");
    if (!f)
        return;
    size_t len;
    for (const char *s = f->text; (s = experiment_response_next(s, &len)); s += len) {
        char *name = strndup(s, len);
        int col = name ? table_find(x->runs, name) : -1;
        if (name && (col < 0 || x->runs->cols[col].kind != COL_NUMBER))
            diag_add(x->d, x->file, f->line, column_at(f, (long)(s - f->text)),
                     "unknown response column '%s' (expected a numeric column of runs.csv, e.g. time_s)",
                     name);
        free(name);
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

static void check_one(const cell_ctx *x, const experiment_info *exps, size_t index)
{
    const experiment_info *e = &exps[index];
    const csv_field *name = cell(x, "name");
    const csv_field *model = cell(x, "model");
    const char *why = name ? experiment_name_problem(e->name) : NULL;
    if (why)
        diag_add(x->d, x->file, name->line, name->column, "the experiment name %s", why);
    for (size_t i = 0; i < index; i++)
        if (name && strcmp(exps[i].name, e->name) == 0)
            diag_add(x->d, x->file, name->line, name->column,
                     "duplicate experiment name '%s' (first on line %ld)", e->name, exps[i].line);
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

/* Where the cells of experiment e start (text, after an opening quote). */
static void locate_cells(const csv_row *header, const csv_row *row, experiment_info *e)
{
    struct { const char *name; long *column; } cells[] = {
        {"name", &e->cells.name}, {"model", &e->cells.model},
        {"response", &e->cells.response}, {"formula", &e->cells.formula},
        {"train", &e->cells.train}, {"target", &e->cells.target},
        {"options", &e->cells.options},
    };
    for (size_t i = 0; i < header->nfields && i < row->nfields; i++)
        for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++)
            if (strcmp(header->fields[i].text, cells[k].name) == 0)
                *cells[k].column = column_at(&row->fields[i],
                                             (long)leading_space(row->fields[i].text));
}

/* The row of doc holding the experiment on line, or NULL. */
static const csv_row *row_on_line(const csv_doc *doc, long line)
{
    for (size_t r = 1; r < doc->nrows; r++)
        if (doc->rows[r].line == line)
            return &doc->rows[r];
    return NULL;
}

void experiment_locate_all(experiment_info *exps, size_t n, const csv_doc *doc)
{
    for (size_t i = 0; i < n && doc->nrows > 0; i++) {
        const csv_row *row = row_on_line(doc, exps[i].line);
        if (row)
            locate_cells(&doc->rows[0], row, &exps[i]);
    }
}

void experiment_check_all(const table *runs, const experiment_info *exps, size_t n,
                          const csv_doc *doc, const char *file, diag_list *d)
{
    for (size_t i = 0; i < n && doc->nrows > 0; i++) {
        const csv_row *row = row_on_line(doc, exps[i].line);
        if (row) {
            cell_ctx x = {file, &doc->rows[0], row, runs, &exps[i], d};
            check_one(&x, exps, i);
        }
    }
    experiment_names_check_clashes(exps, n, file, d);
}
