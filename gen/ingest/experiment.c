/*
 * experiment.c — selection of training runs and target configurations, and
 * the one place where measured means and errors are computed for all models.
 */
#include "gen/ingest/experiment.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/column_rules.h"
#include "gen/base/config_index.h"
#include "models/expr.h"

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
    size_t len;
    for (const char *s = text; (s = experiment_response_next(s, &len)); s += len) {
        char **more = realloc(in->responses, (in->nresponses + 1) * sizeof *more);
        if (!more)
            return false;
        in->responses = more;
        if (!(in->responses[in->nresponses] = strndup(s, len)))
            return false;
        in->nresponses++;
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

bool experiment_response_is_time(const experiment_input *in)
{
    for (size_t r = 0; r < in->nresponses; r++)
        if (!column_is_time(in->responses[r]))
            return false;
    return in->nresponses > 0;
}

/* The response columns of the experiment, found once: a name is hashed
 * and compared per lookup, and the response is read for every run. */
typedef struct {
    const table *runs;
    int *cols;    /* column of each response; -1 when absent */
    size_t n;
} response_cols;

static bool response_cols_init(response_cols *rc, const experiment_input *in)
{
    rc->runs = &in->camp->runs;
    rc->n = in->nresponses;
    rc->cols = malloc((rc->n + 1) * sizeof *rc->cols);
    for (size_t i = 0; rc->cols && i < rc->n; i++)
        rc->cols[i] = table_find(rc->runs, in->responses[i]);
    return rc->cols != NULL;
}

/* The summed response of a row of the experiment's campaign, as
 * experiment_row_response sums it. */
static double row_response(const response_cols *rc, size_t row)
{
    double sum = 0;
    for (size_t i = 0; i < rc->n; i++) {
        double v = rc->cols[i] < 0 ? NAN : table_number(rc->runs, row, (size_t)rc->cols[i]);
        if (isnan(v))
            return NAN;
        sum += v;
    }
    return sum;
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
    /* Many rows at a time (expr_eval_rows), up to each row that fails. */
    double v[256];
    for (size_t r = 0; r < runs->nrows && ok;) {
        size_t len = runs->nrows - r < 256 ? runs->nrows - r : 256;
        size_t done = expr_eval_rows(e, runs, NULL, r, len, v, 1, &err);
        for (size_t i = 0; i < done; i++)
            matches[r + i] = v[i] != 0;
        r += done;
        if (done == len)
            continue;
        if (err.missing_value) {
            matches[r++] = false; /* a run without the column simply does not match */
        } else {
            fail_at(res, what, err.column, "%s in the %s filter (runs.csv line %ld)", err.message,
                    what, runs->line[r]);
            ok = false;
        }
    }
    expr_free(e);
    return ok;
}

/* The target configuration of row; ntargets when it is none. */
static size_t find_config(const config_index *ix, const experiment_input *in, size_t row)
{
    size_t t = config_index_find(ix, row);
    return t == CONFIG_NONE ? in->ntargets : t;
}

/* Add row to its target configuration (gen/base/config_index.h numbers them as
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
static void note_history(const config_index *ix, const response_cols *rc, experiment_input *in)
{
    for (size_t i = 0; i < in->ntrain; i++) {
        size_t t = find_config(ix, in, in->train_rows[i]);
        if (t >= in->ntargets)
            continue;
        target_config *tc = &in->targets[t];
        double v = row_response(rc, in->train_rows[i]);
        tc->history_mean = tc->nhistory ? tc->history_mean + v : v;
        tc->nhistory++;
    }
    for (size_t t = 0; t < in->ntargets; t++)
        if (in->targets[t].nhistory)
            in->targets[t].history_mean /= (double)in->targets[t].nhistory;
}

static void measure_targets(experiment_input *in, const response_cols *rc)
{
    for (size_t i = 0; i < in->ntargets; i++) {
        target_config *t = &in->targets[i];
        double sum = 0;
        t->nmeasured = 0;
        for (size_t k = 0; k < t->nrows; k++) {
            double v = row_response(rc, t->rows[k]);
            if (!isnan(v)) {
                sum += v;
                t->nmeasured++;
            }
        }
        t->measured = t->nmeasured ? sum / (double)t->nmeasured : NAN;
    }
}

static bool select_rows(experiment_input *in, const response_cols *rc, experiment_result *res)
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
        if (runs_row_is_pingpong(runs, r))
            continue; /* a link measurement: only the multi-cluster model reads it */
        if (train[r] && !isnan(row_response(rc, r)))
            in->train_rows[in->ntrain++] = r;
        if (target[r] && !add_target_row(&ix, in, r)) {
            fail_at(res, NULL, 0, "out of memory");
            ok = false;
        }
    }
    if (ok)
        note_history(&ix, rc, in);
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
    in->where = &res->where;
    if (!split_responses(e->response ? e->response : EXPERIMENT_DEFAULT_RESPONSE, in)) {
        fail_at(res, "response", 0, "no response column");
        return false;
    }
    /* time_s is not required in runs.csv: say plainly when the response
     * (time_s by default) is missing, rather than "selects no measured run". */
    for (size_t i = 0; i < in->nresponses; i++)
        if (table_find(&c->runs, in->responses[i]) < 0) {
            bool own = e->response && strcmp(e->response, EXPERIMENT_DEFAULT_RESPONSE) != 0;
            fail_at(res, "response", 0, "the response column '%s' is not in runs.csv%s",
                    in->responses[i],
                    own ? "" : " (" EXPERIMENT_DEFAULT_RESPONSE " is the default response; name "
                               "another in the response column)");
            return false;
        }
    response_cols rc;
    if (!response_cols_init(&rc, in)) {
        free(rc.cols);
        fail_at(res, NULL, 0, "out of memory");
        return false;
    }
    bool ok = select_rows(in, &rc, res);
    if (ok)
        measure_targets(in, &rc);
    free(rc.cols);
    return ok;
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
