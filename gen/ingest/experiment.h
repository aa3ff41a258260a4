/*
 * experiment.h — what one experiment of a campaign works on: the training
 * runs and the target configurations its filters select
 * (experiment_prepare), the types a model adapter receives and fills, and
 * the errors of its predictions. gen/fit/experiment_run.h runs the model on
 * them.
 *
 * Target rows that share every identifying column (config_is_identifying,
 * gen/base/config_index.h, which also finds them: by a hash of those cells,
 * linear in the rows) form one configuration; their measured responses are
 * averaged and the signed error 100*(estimate-measured)/measured is
 * computed here, the same way for every model.
 *
 * Ownership: experiment_prepare (and experiment_run, experiment_fit) fill
 * an experiment_result that the caller releases with experiment_result_free.
 */
#ifndef PERFCAST_EXPERIMENT_H
#define PERFCAST_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/ingest/archive.h"
#include "models/report.h"

/* One target configuration: rows of the campaign's runs table. */
typedef struct {
    size_t *rows;     /* indices into campaign.runs */
    size_t nrows;
    double measured;  /* mean of the measured responses, NAN if none */
    size_t nmeasured;
    double error_pct; /* 100*(estimate-measured)/measured, NAN if unmeasured */
    size_t nhistory;  /* training runs of this same configuration */
    double history_mean; /* their mean response, NAN if none */
} target_config;

/* Where a failure lies in experiments.csv: a cell ("train", "target",
 * "formula", "response", "model", "options"; NULL = the experiment as a
 * whole) and the 1-based character in its text (0 = the whole cell). See
 * experiment_cell_column for the file's column. */
typedef struct {
    const char *cell;
    int offset;
} experiment_where;

/* Term values an adapter computed over every training run of an
 * experiment, kept while experiment_run calibrates it: the calibration's
 * refits fit the same formula (unless a term search chose another) on a
 * subset of those runs, so they copy rows of values instead of evaluating
 * the formula again, and get the same numbers. */
typedef struct {
    char *response;   /* the response column the formula is for */
    char *formula;    /* the formula text */
    size_t nterms;
    double *x;        /* one row of nterms values per training run, in the
                         order of experiment_input.train_rows */
} experiment_design;

typedef struct {
    experiment_design *items;
    size_t n;
    size_t *position; /* for each row of the runs table: its index among the
                         training runs + 1, 0 when it is not one */
} experiment_designs;

/* The values of formula for response at runs row `row`, or NULL when d
 * holds none (d may be NULL). */
const double *experiment_design_row(const experiment_designs *d, const char *response,
                                    const char *formula, size_t row);

/* Keep x (ntrain x nterms, owned by d from now on even on failure) as the
 * values of formula for response; false when out of memory. */
bool experiment_design_keep(experiment_designs *d, const char *response, const char *formula,
                            size_t nterms, double *x);

/* The archive's pooled extrapolation error, for a model whose estimate
 * is built from another model's predictions (the multi-cluster model's
 * sides are strip predictions): the 95% log half-width of a prediction of
 * model family `family` at `distance` doublings beyond its training runs,
 * from that family's backtests in the archive's campaigns other than the
 * experiment's shrunk toward the shipped prior (gen/fit/pooled_width.h);
 * NAN when there are none. *npool and *nprior get how many scores of each
 * it came from. */
typedef double (*experiment_pooled_width_fn)(const void *ctx, const char *family,
                                             double distance, size_t *npool, size_t *nprior);

/* What a model adapter receives. */
typedef struct {
    const archive *arch;
    const campaign *camp;
    const experiment_info *exp;
    char **responses;        /* response columns (components are summed) */
    size_t nresponses;
    size_t *train_rows;      /* runs rows selected by `train` that are measured */
    size_t ntrain;
    target_config *targets;  /* configurations selected by `target` */
    size_t ntargets;
    experiment_where *where;  /* where a failure lies: adapters set it through
                                experiment_point_at; may be NULL */
    bool estimates_only;     /* the caller reads only each prediction's config
                                and estimate (calibration refits): an adapter
                                may leave out diagnostics, notes and other
                                report text, never change an estimate */
    experiment_designs *designs; /* during experiment_run: where the fit keeps
                                    its term values and the refits find them
                                    (NULL otherwise); owned by experiment_run */
    experiment_pooled_width_fn pooled_width; /* NULL: no pool (a fit without one,
                                                a calibration refit) */
    const void *pooled_ctx;  /* its first argument */
} experiment_input;

/* A model adapter (gen/model_<name>.c): fit on in->train_rows, predict one
 * report_prediction per target (config = its index). On failure return
 * false and write a one-line reason into err (the site shows it). */
typedef bool (*model_adapter_fn)(const experiment_input *in, report *out,
                                 char *err, size_t errlen);

typedef struct {
    experiment_input input;
    report rep;
    bool ok;
    char error[512];        /* the reason, without a position */
    experiment_where where; /* where the reason points */
} experiment_result;

void experiment_result_free(experiment_result *res);

/* The first half of experiment_run: responses, training rows, target
 * configurations and their measured means; no model is called, and the
 * model's name is not checked (experiment_run does, and `check` names the
 * known models when the archive loads). */
bool experiment_prepare(const archive *a, const campaign *c,
                        const experiment_info *e, experiment_result *res);

/* The second half: error_pct of every target that has a prediction in
 * res->rep and a measurement. */
void experiment_compute_errors(experiment_result *res);

/* The response of a row of runs: the sum of the response columns (several
 * when experiments.csv joins components with '+'), NAN when a column or a
 * cell is missing. The one definition of a run's measured time, shared by
 * the target means here and the mesh adapters' training runs. */
double experiment_row_response(const table *runs, size_t row, char *const *responses,
                               size_t nresponses);

/* True when the experiment's response is a time: every column summed into
 * it is a time_* column (gen/base/column_rules.h; a metric may be
 * negative, a rate may rise). */
bool experiment_response_is_time(const experiment_input *in);

/* Record that the failure an adapter is about to return lies at character
 * offset of cell (see experiment_where); does nothing when in->where is NULL. */
void experiment_point_at(const experiment_input *in, const char *cell, int offset);

/* Line and column in experiments.csv where a failed result's reason points. */
void experiment_error_position(const experiment_result *res, long *line, long *column);

/* "FILE:LINE:COL: reason" of a failed result into buf (truncated to len),
 * FILE being experiments.csv of campaign c. */
void experiment_error_text(const campaign *c, const experiment_result *res, char *buf,
                           size_t len);

#endif
