/*
 * report.h — what fitting one experiment produces, whatever the model.
 *
 * Every model (scopred, strip, block, multicluster, multicore) fills the
 * same structure, so `perfcast fit/predict` and the site show all models
 * with one set of columns. A value that does not exist for a model (no
 * interval, no standard error) is NAN and is printed as an empty cell or
 * "—" with the reason in `note`; it is never printed as "nan".
 *
 * Ownership: the report owns every string and array in it; report_free
 * releases them. The add functions copy their string arguments.
 */
#ifndef PERFCAST_REPORT_H
#define PERFCAST_REPORT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *term;         /* "N^3/(3*P*Q)", "(Intercept)", "alpha.c", ... */
    double coefficient; /* NAN when aliased */
    double std_error;   /* NAN when unknown */
    double t;
    double p;
    bool aliased;       /* not estimable from the training data */
} report_coef;

typedef struct {
    char *name;   /* "r2", "adj_r2", "f", "f_p", "sigma", "n", "df_resid", ... */
    double value; /* NAN when it cannot exist; then text says why */
    char *text;   /* optional human explanation, may be NULL */
} report_stat;

typedef struct {
    size_t config;      /* index of the target configuration (gen/ groups rows) */
    double estimate;    /* seconds (or the response's unit) */
    double ci_low, ci_high;   /* 95% confidence interval of the mean; NAN = absent */
    double pi_low, pi_high;   /* 95% prediction interval of a new run; NAN = absent */
    bool extrapolation;       /* outside the training data's range */
    bool held_to_trend;       /* a searched law's estimate that left the trend of the runs'
                                 last steps, held to it (models/trendbound.h) */
    bool level_regimes;       /* the model's law changes with the network level and is
                                 fitted across levels (the strip's overhead law): calibration
                                 also counts the target's nodes beyond the training runs of
                                 its own level (gen/fit/calibration.h) */
    char *note;               /* why an interval is absent, which term dominates, ... */
    /* Filled by calibration (gen/fit/calibration.h) after the model, never by
     * a model: report_add_prediction sets them absent (NAN, NULL). */
    double cal_low, cal_high; /* calibrated 95% prediction interval; NAN = absent */
    double distance;          /* doublings beyond the training range, 0 inside; NAN unknown */
    char *beyond;             /* "np 512 = 2.0x max trained 256; ...", NULL when inside */
    char *cal_source;         /* where a pooled width came from: "x/÷1.8: 3 own backtests
                                 shrunk toward 41 strip backtests elsewhere (1-2 doublings)";
                                 NULL when the archive has no pool for it */
    /* Filled after the model by gen/fit/gain_stop.h; report_add_prediction
     * sets them absent (0). */
    double gain_stop_at;      /* the level where the runs this target extends stopped
                                 gaining (models/gainstop.h); 0 = none */
    size_t gain_stop_column;  /* the column of the runs that level is a value of (the
                                 line's, gen/fit/trend_line.h); only when gain_stop_at > 0 */
} report_prediction;

/* One component's prediction at a target when the response is a sum of
 * components (ScoPred Table 11: setup, evolve, FFTcpu, FFTcomm). */
typedef struct {
    size_t config;            /* the target, as report_prediction.config */
    char *response;           /* the component's column, "time_setup_s" */
    double estimate;
    double ci_low, ci_high, pi_low, pi_high; /* NAN = absent */
} report_part;

typedef struct {
    char *model;            /* "scopred", ... */
    char *formula;          /* the formula as fitted (after term search), may be NULL */
    char *equation;         /* human readable fitted equation, may be NULL */
    report_coef *coefs;      size_t ncoefs;
    report_stat *stats;      size_t nstats;
    report_prediction *preds; size_t npreds;
    char **diagnostics;      size_t ndiagnostics; /* one-line verdicts */
    char **warnings;         size_t nwarnings;    /* aliased terms, dropped factors, ... */
    char *interval_method;   /* how cal_low/cal_high were made (calibration), may be NULL */
    char *regime;            /* a change of regime at the top of the training range that
                                the calibration's backtests found, in words; NULL none */
    char *gain_stop;         /* where the training runs stopped gaining along the line a
                                target continues (models/gainstop.h, gen/fit/gain_stop.h),
                                in words; NULL none */
    report_part *parts;      size_t nparts;       /* per-component predictions, may be none */
    double cal_inside_log_half_width; /* the calibrated log half-width of a configuration
                                         inside the trained range (distance 0), what the
                                         site's fitted curve carries over the training
                                         runs; 0 when no backtest calibrated the report */
} report;

void report_init(report *r);
void report_free(report *r);

/* Each returns false only when out of memory. */
bool report_set_text(char **field, const char *text);
bool report_add_coef(report *r, const char *term, double coefficient,
                     double std_error, double t, double p, bool aliased);
bool report_add_stat(report *r, const char *name, double value, const char *text);
/* Copies p->note; the calibration fields start absent whatever p holds. */
bool report_add_prediction(report *r, const report_prediction *p);
/* Append text to p's note, after "; " when it holds one already. */
bool report_append_note(report_prediction *p, const char *text);
bool report_add_diagnostic(report *r, const char *line);
bool report_add_part(report *r, const report_part *p); /* copies p->response */

/* The part of target config for response, or NULL. */
const report_part *report_find_part(const report *r, size_t config, const char *response);
bool report_add_warning(report *r, const char *line);

/* The stat called name, or NULL. */
const report_stat *report_find_stat(const report *r, const char *name);

#endif
