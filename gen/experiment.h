/*
 * experiment.h — runs one experiment of a campaign: selects the training
 * runs and the target configurations with the experiment's filters, hands
 * them to the model named in experiments.csv, and fills a report.
 *
 * Target rows that share every identifying column (see
 * experiment_is_identifying) form one configuration (gen/config_index.h:
 * found by a hash of those cells, linear in the rows); their measured
 * responses are averaged and the signed error 100*(estimate-measured)/measured
 * is computed here, the same way for every model.
 *
 * Ownership: experiment_run fills an experiment_result that the caller
 * releases with experiment_result_free.
 */
#ifndef PERFCAST_EXPERIMENT_H
#define PERFCAST_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/archive.h"
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

/* Run an experiment: experiment_fit, then the calibrated intervals
 * (gen/calibration.h). Always fills res (check res->ok); returns res->ok. */
bool experiment_run(const archive *a, const campaign *c,
                    const experiment_info *e, experiment_result *res);

/* experiment_run without the calibrated intervals (no cal_low/cal_high,
 * no interval_method): the selections, the fit and the errors, which is
 * all that can fail for a reason other than memory. With estimates_only
 * (experiment_input.estimates_only) the report may also lack the fit's
 * statistics, diagnostics and notes. `check` uses it so: it reads only
 * whether the experiment runs, and the calibration (a refit per left-out
 * fold) and the diagnostics (a second regression over every run) cost
 * many times the fit. */
bool experiment_fit(const archive *a, const campaign *c, const experiment_info *e,
                    bool estimates_only, experiment_result *res);

void experiment_result_free(experiment_result *res);

/* The first half of experiment_run: responses, training rows, target
 * configurations and their measured means; no model is called. */
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

/* True for the columns that identify a configuration: everything except
 * responses (time_*), published_* columns and the measurement columns rep,
 * date, note, cycles, iterations, rel_residual, error_max. */
bool experiment_is_identifying(const char *column);

/* experiment_is_identifying for a column of a campaign's runs: also false
 * for a column flagged as a result (an experiment's response, see
 * campaign_mark_results), whatever its name. */
bool experiment_column_identifies(const table_column *col);

/* Whether rows a and b of runs are one configuration: the same value (or
 * both missing) in every identifying column. */
bool experiment_same_configuration(const table *runs, size_t a, size_t b);

/* Record that the failure an adapter is about to return lies at character
 * offset of cell (see experiment_where); does nothing when in->where is NULL. */
void experiment_point_at(const experiment_input *in, const char *cell, int offset);

/* Line and column in experiments.csv where a failed result's reason points. */
void experiment_error_position(const experiment_result *res, long *line, long *column);

/* "FILE:LINE:COL: reason" of a failed result into buf (truncated to len),
 * FILE being experiments.csv of campaign c. */
void experiment_error_text(const campaign *c, const experiment_result *res, char *buf,
                           size_t len);

/* The adapter for a model name, or NULL when the model is unknown. */
model_adapter_fn experiment_adapter(const char *model);

#endif
