/*
 * experiment.c — selection of training runs and target configurations, and
 * the one place where measured means and errors are computed for all models.
 */
#include "gen/experiment.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/calibration.h"
#include "gen/config_index.h"
#include "gen/model_adapters.h"
#include "models/expr.h"

static const struct {
    const char *model;
    model_adapter_fn run;
} adapters[] = {
    {"scopred", model_scopred_run},
    {"strip", model_strip_run},
    {"block", model_block_run},
    {"multicluster", model_multicluster_run},
    {"multicore", model_multicore_run},
};

model_adapter_fn experiment_adapter(const char *model)
{
    for (size_t i = 0; model && i < sizeof adapters / sizeof adapters[0]; i++)
        if (strcmp(adapters[i].model, model) == 0)
            return adapters[i].run;
    return NULL;
}

static bool has_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* Columns that record what a run measured or when, not what was run. */
static const char *const measurement_columns[] = {
    "rep", "date", "note", "cycles", "iterations", "rel_residual", "error_max", NULL,
};

bool experiment_is_identifying(const char *column)
{
    /* metric_* holds a measured figure that is not a time (a bandwidth a
     * ReFrame test reported, an Extra-P metric): a result, not a setting. */
    if (has_prefix(column, "time_") || has_prefix(column, "published_") ||
        has_prefix(column, "metric_"))
        return false;
    for (const char *const *m = measurement_columns; *m; m++)
        if (strcmp(column, *m) == 0)
            return false;
    return true;
}

bool experiment_column_identifies(const table_column *col)
{
    return !col->result && experiment_is_identifying(col->name);
}

static void fail_at(experiment_result *res, const char *cell, int offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Record a failure at character offset of cell (see experiment_where). */
static void fail_at(experiment_result *res, const char *cell, int offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->error, sizeof res->error, fmt, ap);
    va_end(ap);
    res->ok = false;
    res->where = (experiment_where){cell, offset};
}

void experiment_point_at(const experiment_input *in, const char *cell, int offset)
{
    if (in->where)
        *in->where = (experiment_where){cell, offset};
}

void experiment_error_position(const experiment_result *res, long *line, long *column)
{
    const experiment_info *e = res->input.exp;
    *line = e ? e->line : 0;
    *column = e ? experiment_cell_column(e, res->where.cell, res->where.offset) : 1;
}

void experiment_error_text(const campaign *c, const experiment_result *res, char *buf,
                           size_t len)
{
    long line, column;
    experiment_error_position(res, &line, &column);
    snprintf(buf, len, "%s/experiments.csv:%ld:%ld: %s", c->dir ? c->dir : c->name, line, column,
             res->error);
}

/* Split "a + b" into trimmed names. */
static bool split_responses(const char *text, experiment_input *in)
{
    const char *s = text;
    while (*s) {
        s += strspn(s, " \t+");
        size_t n = strcspn(s, "+"), len = n;
        while (len > 0 && isspace((unsigned char)s[len - 1]))
            len--;
        if (len > 0) {
            char **more = realloc(in->responses, (in->nresponses + 1) * sizeof *more);
            if (!more)
                return false;
            in->responses = more;
            if (!(in->responses[in->nresponses] = strndup(s, len)))
                return false;
            in->nresponses++;
        }
        s += n;
    }
    return in->nresponses > 0;
}

double experiment_row_response(const table *runs, size_t row, char *const *responses,
                               size_t nresponses)
{
    double sum = 0;
    for (size_t i = 0; i < nresponses; i++) {
        int c = table_find(runs, responses[i]);
        double v = c < 0 ? NAN : table_number(runs, row, (size_t)c);
        if (isnan(v))
            return NAN;
        sum += v;
    }
    return sum;
}

/* The summed response of a row of the experiment's campaign. */
static double row_response(const experiment_input *in, size_t row)
{
    return experiment_row_response(&in->camp->runs, row, in->responses, in->nresponses);
}

/* Evaluate a filter (the cell `what`) on every row: matches[r] = 1/0. A
 * NULL filter matches all rows. Returns false with a positioned message on a
 * parse or evaluation error. */
static bool evaluate_filter(const char *text, const char *what, const table *runs,
                            bool *matches, experiment_result *res)
{
    if (!text || strspn(text, " \t") == strlen(text)) {
        for (size_t r = 0; r < runs->nrows; r++)
            matches[r] = true;
        return true;
    }
    expr_error err;
    expr *e = expr_parse(text, &err);
    if (!e) {
        fail_at(res, what, err.column, "%s in the %s filter", err.message, what);
        return false;
    }
    bool ok = true;
    table_row_ctx ctx = {.t = runs}; /* one for every row: it remembers the columns */
    for (size_t r = 0; r < runs->nrows && ok; r++) {
        ctx.row = r;
        double v;
        if (expr_eval_number(e, expr_lookup_table_row, &ctx, &v, &err))
            matches[r] = v != 0;
        else if (err.missing_value)
            matches[r] = false; /* a run without the column simply does not match */
        else {
            fail_at(res, what, err.column, "%s in the %s filter (runs.csv line %ld)", err.message,
                    what, runs->line[r]);
            ok = false;
        }
    }
    expr_free(e);
    return ok;
}

bool experiment_same_configuration(const table *runs, size_t a, size_t b)
{
    for (size_t c = 0; c < runs->ncols; c++)
        if (experiment_column_identifies(&runs->cols[c]) &&
            !table_same_cells(&runs->cols[c], a, b))
            return false;
    return true;
}

/* The target configuration of row; ntargets when it is none. */
static size_t find_config(const config_index *ix, const experiment_input *in, size_t row)
{
    size_t t = config_index_find(ix, row);
    return t == CONFIG_NONE ? in->ntargets : t;
}

/* Add row to its target configuration (gen/config_index.h numbers them as
 * targets are numbered: in order of first appearance). */
static bool add_target_row(config_index *ix, experiment_input *in, size_t row)
{
    bool added;
    size_t k = config_index_add(ix, row, &added);
    if (k == CONFIG_NONE)
        return false;
    if (added) {
        /* Capacity doubles at powers of two. */
        if ((in->ntargets & (in->ntargets - 1)) == 0) {
            size_t cap = in->ntargets ? 2 * in->ntargets : 1;
            target_config *more = realloc(in->targets, cap * sizeof *more);
            if (!more)
                return false;
            in->targets = more;
        }
        in->targets[in->ntargets++] = (target_config){
            .measured = NAN, .error_pct = NAN, .history_mean = NAN};
    }
    target_config *t = &in->targets[k];
    if ((t->nrows & (t->nrows - 1)) == 0) {
        size_t *rows = realloc(t->rows, (t->nrows ? 2 * t->nrows : 1) * sizeof *rows);
        if (!rows)
            return false;
        t->rows = rows;
    }
    t->rows[t->nrows++] = row;
    return true;
}

/* Training runs at each target configuration: their count and mean. */
static void note_history(const config_index *ix, experiment_input *in)
{
    for (size_t i = 0; i < in->ntrain; i++) {
        size_t t = find_config(ix, in, in->train_rows[i]);
        if (t >= in->ntargets)
            continue;
        target_config *tc = &in->targets[t];
        double v = row_response(in, in->train_rows[i]);
        tc->history_mean = tc->nhistory ? tc->history_mean + v : v;
        tc->nhistory++;
    }
    for (size_t t = 0; t < in->ntargets; t++)
        if (in->targets[t].nhistory)
            in->targets[t].history_mean /= (double)in->targets[t].nhistory;
}

static void measure_targets(experiment_input *in)
{
    for (size_t i = 0; i < in->ntargets; i++) {
        target_config *t = &in->targets[i];
        double sum = 0;
        t->nmeasured = 0;
        for (size_t k = 0; k < t->nrows; k++) {
            double v = row_response(in, t->rows[k]);
            if (!isnan(v)) {
                sum += v;
                t->nmeasured++;
            }
        }
        t->measured = t->nmeasured ? sum / (double)t->nmeasured : NAN;
    }
}

static bool select_rows(experiment_input *in, experiment_result *res)
{
    const table *runs = &in->camp->runs;
    size_t n = runs->nrows;
    bool *train = calloc(n ? n : 1, sizeof *train);
    bool *target = calloc(n ? n : 1, sizeof *target);
    in->train_rows = malloc((n ? n : 1) * sizeof *in->train_rows);
    bool ok = train && target && in->train_rows;
    if (!ok)
        fail_at(res, NULL, 0, "out of memory");
    ok = ok && evaluate_filter(in->exp->train, "train", runs, train, res);
    /* Without a target filter there is nothing to predict. */
    if (ok && in->exp->target) {
        ok = evaluate_filter(in->exp->target, "target", runs, target, res);
    }
    config_index ix = {0};
    if (ok && !config_index_init(&ix, runs, 0)) {
        fail_at(res, NULL, 0, "out of memory");
        ok = false;
    }
    for (size_t r = 0; ok && r < n; r++) {
        if (train[r] && !isnan(row_response(in, r)))
            in->train_rows[in->ntrain++] = r;
        if (target[r] && !add_target_row(&ix, in, r)) {
            fail_at(res, NULL, 0, "out of memory");
            ok = false;
        }
    }
    if (ok)
        note_history(&ix, in);
    config_index_free(&ix);
    free(train);
    free(target);
    /* Room was made for every run; give back what the train filter left
     * (half of a million-run table is 4 MB). */
    size_t *fitted = ok ? realloc(in->train_rows, (in->ntrain ? in->ntrain : 1) * sizeof *fitted)
                        : NULL;
    if (fitted)
        in->train_rows = fitted;
    if (ok && in->ntrain == 0) {
        fail_at(res, "train", 0, "the train filter selects no measured run");
        ok = false;
    }
    return ok;
}

void experiment_compute_errors(experiment_result *res)
{
    experiment_input *in = &res->input;
    for (size_t i = 0; i < res->rep.npreds; i++) {
        const report_prediction *p = &res->rep.preds[i];
        if (p->config >= in->ntargets)
            continue;
        target_config *t = &in->targets[p->config];
        if (t->nmeasured > 0 && isfinite(p->estimate))
            t->error_pct = 100.0 * (p->estimate - t->measured) / t->measured;
    }
}

bool experiment_prepare(const archive *a, const campaign *c, const experiment_info *e,
                        experiment_result *res)
{
    memset(res, 0, sizeof *res);
    report_init(&res->rep);
    experiment_input *in = &res->input;
    in->arch = a;
    in->camp = c;
    in->exp = e;
    res->ok = true;
    model_adapter_fn adapter = experiment_adapter(e->model);
    in->where = &res->where;
    if (!adapter) {
        fail_at(res, "model", 0, "unknown model '%s'", e->model);
        return false;
    }
    if (!split_responses(e->response ? e->response : "time_s", in)) {
        fail_at(res, "response", 0, "no response column");
        return false;
    }
    /* time_s is not required in runs.csv: say plainly when the response
     * (time_s by default) is missing, rather than "selects no measured run". */
    for (size_t i = 0; i < in->nresponses; i++)
        if (table_find(&c->runs, in->responses[i]) < 0) {
            fail_at(res, "response", 0, "the response column '%s' is not in runs.csv%s", in->responses[i],
                 e->response && strcmp(e->response, "time_s") != 0 ? ""
                                                                   : " (time_s is the default "
                                                                     "response; name another "
                                                                     "in the response column)");
            return false;
        }
    if (!select_rows(in, res))
        return false;
    measure_targets(in);
    return true;
}

/* The model on a prepared res, and the errors of its predictions. */
static bool run_adapter(experiment_result *res, bool estimates_only)
{
    experiment_input *in = &res->input;
    in->estimates_only = estimates_only;
    model_adapter_fn adapter = experiment_adapter(in->exp->model);
    if (!adapter(in, &res->rep, res->error, sizeof res->error)) {
        res->ok = false;
        if (!res->error[0])
            snprintf(res->error, sizeof res->error, "the %s fit failed", in->exp->model);
        return false;
    }
    experiment_compute_errors(res);
    return true;
}

bool experiment_fit(const archive *a, const campaign *c, const experiment_info *e,
                    bool estimates_only, experiment_result *res)
{
    return experiment_prepare(a, c, e, res) && run_adapter(res, estimates_only);
}

/* ------------------------------------------------------------------ */
/* Term values kept for the calibration's refits                       */

const double *experiment_design_row(const experiment_designs *d, const char *response,
                                    const char *formula, size_t row)
{
    if (!d || !d->position || !d->position[row])
        return NULL;
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->items[i].response, response) == 0 &&
            strcmp(d->items[i].formula, formula) == 0)
            return d->items[i].x + (d->position[row] - 1) * d->items[i].nterms;
    return NULL;
}

bool experiment_design_keep(experiment_designs *d, const char *response, const char *formula,
                            size_t nterms, double *x)
{
    experiment_design *more = realloc(d->items, (d->n + 1) * sizeof *more);
    if (!more) {
        free(x);
        return false;
    }
    d->items = more;
    experiment_design *k = &d->items[d->n];
    *k = (experiment_design){strdup(response), strdup(formula), nterms, x};
    if (!k->response || !k->formula) {
        free(k->response), free(k->formula), free(x);
        return false;
    }
    d->n++;
    return true;
}

/* Where each training run is among them; false when out of memory (the
 * refits then evaluate their formulas themselves). */
static bool designs_init(experiment_designs *d, const experiment_input *in)
{
    memset(d, 0, sizeof *d);
    d->position = calloc(in->camp->runs.nrows + 1, sizeof *d->position);
    for (size_t i = 0; d->position && i < in->ntrain; i++)
        d->position[in->train_rows[i]] = i + 1;
    return d->position != NULL;
}

static void designs_free(experiment_designs *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->items[i].response);
        free(d->items[i].formula);
        free(d->items[i].x);
    }
    free(d->items);
    free(d->position);
    memset(d, 0, sizeof *d);
}

/* experiment_fit and the calibration with designs to share (NULL: none). */
static bool fit_and_calibrate(const archive *a, const campaign *c, const experiment_info *e,
                              experiment_designs *designs, experiment_result *res)
{
    if (!experiment_prepare(a, c, e, res))
        return false;
    res->input.designs = designs && designs_init(designs, &res->input) ? designs : NULL;
    if (!run_adapter(res, false))
        return false;
    if (!calibration_apply(res, experiment_adapter(e->model))) {
        res->ok = false;
        snprintf(res->error, sizeof res->error, "out of memory while calibrating the intervals");
        return false;
    }
    return true;
}

bool experiment_run(const archive *a, const campaign *c, const experiment_info *e,
                    experiment_result *res)
{
    experiment_designs designs;
    memset(&designs, 0, sizeof designs);
    bool ok = fit_and_calibrate(a, c, e, &designs, res);
    res->input.designs = NULL; /* they live only while the experiment runs */
    designs_free(&designs);
    return ok;
}

void experiment_result_free(experiment_result *res)
{
    experiment_input *in = &res->input;
    for (size_t i = 0; i < in->nresponses; i++)
        free(in->responses[i]);
    free(in->responses);
    free(in->train_rows);
    for (size_t i = 0; i < in->ntargets; i++)
        free(in->targets[i].rows);
    free(in->targets);
    report_free(&res->rep);
    memset(res, 0, sizeof *res);
}
