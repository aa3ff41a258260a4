/*
 * chart.h — the site's five kinds of chart, each drawn as SVG and PNG
 * from plain arrays (render/plot.h does the drawing). Nothing here fits
 * or predicts: the caller passes measured and predicted values.
 *
 * Groups and series (clusters, jobs) get colours and markers in the
 * natural order of their names (N=8000 before N=10000), so one cluster
 * has the same colour in every chart that shows the same set of clusters.
 *
 * Every function fills both files of a chart_files (initialised by the
 * caller with chart_files_init) or, when the caller set its cr, draws
 * the chart as vectors onto that Cairo context instead (the PDF report:
 * the same drawing, no copy of it); it returns false with a reason in err
 * when drawing fails or memory runs out.
 */
#ifndef PERFCAST_RENDER_CHART_H
#define PERFCAST_RENDER_CHART_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>
#include "render/buf.h"
#include "render/ticks.h"

typedef struct {
    rbuf svg;
    rbuf png;
    /* NULL (chart_files_init): fill svg and png. Set by the caller: draw
     * onto cr instead, the chart's top-left corner at its origin,
     * PLOT_WIDTH (render/plot.h) units wide and `height` units tall (set by
     * the drawing); svg and png stay empty. The caller owns cr. */
    cairo_t *cr;
    /* Set by the caller (with cr NULL): only set height, drawing and
     * filling nothing (measuring a chart before placing it). */
    bool size_only;
    int height;
} chart_files;

void chart_files_init(chart_files *f);
void chart_files_free(chart_files *f);

/* Predicted against measured, log-log, with y = x and a +-10% band,
 * points coloured by group (the cluster). */
typedef struct {
    const char *group;
    double measured;
    double predicted;
} chart_pvm_point;

bool chart_pred_vs_measured(const char *title, const char *unit, const chart_pvm_point *p,
                            size_t n, chart_files *out, char *err, size_t errlen);

/* Response against processors (or another x), one panel of a set of
 * small multiples: measured runs as points with their repetition spread
 * (min..max), training runs filled circles and held-out runs hollow
 * squares, per series the fitted curve through the model's values at the
 * training configurations and the targets (the caller computes them),
 * its calibrated 95% prediction interval as a filled band and the
 * model's textbook PI as dashed edges where it differs. */
typedef struct {
    const char *series;  /* legend text, e.g. "wrg3-myrinet, N=1024" */
    double x;
    double mean, min, max;
    bool held_out;       /* a target with a measurement, not a training run */
} chart_run;

typedef struct {
    const char *series;
    double x;
    double estimate;
    double pi_low, pi_high;   /* textbook 95% PI; NAN when the model gives none */
    double cal_low, cal_high; /* calibrated 95% PI; NAN when absent */
} chart_prediction;

typedef struct {
    const char *title;
    const char *x_label, *y_label;
    axis_scale x_scale;     /* SCALE_LOG2 for processors */
    const chart_run *runs;
    size_t nruns;
    const chart_prediction *preds; /* the curve's points, any order */
    size_t npreds;
    bool cover;               /* the axes also cover [x_min, x_max] x [y_min, y_max]:
                                 every panel of a set gets the same axes */
    double x_min, x_max, y_min, y_max;
} chart_scaling_data;

bool chart_scaling(const chart_scaling_data *d, chart_files *out, char *err, size_t errlen);

/* Signed error (%) of each measured target against x, with a +-10% band. */
typedef struct {
    const char *group;
    double x;
    double error_pct;
} chart_residual;

bool chart_residuals(const char *title, const char *x_label, axis_scale x_scale,
                     const chart_residual *r, size_t n, chart_files *out, char *err,
                     size_t errlen);

/* Cost against predicted time of the options on one cluster, log-log;
 * the options of one job (group) are joined by a line. */
typedef struct {
    const char *group;
    double time_s;
    double cost;
} chart_cost_point;

bool chart_cost_time(const char *title, const char *cost_label, const chart_cost_point *p,
                     size_t n, chart_files *out, char *err, size_t errlen);

/* Time against date for configurations measured on several dates: each
 * repetition a hollow point, each date's median a filled point, the
 * medians of a series joined in date order, and every change detected
 * drawn as a grey bar from the previous date's median to the new one at
 * the date of the change. x is the day (days since the first date shown;
 * the caller's axis label says so); time on a log scale. Series are the
 * configurations. */
typedef struct {
    const char *series;
    double day;
    double time_s;      /* one repetition */
} chart_history_run;

typedef struct {
    const char *series;
    double day;
    double median_s;
    double changed_from_s; /* the date before's median when a change was detected on
                              this date, else NAN */
} chart_history_median;

bool chart_history(const char *title, const char *x_label, const chart_history_run *runs,
                   size_t nruns, const chart_history_median *medians, size_t nmedians,
                   chart_files *out, char *err, size_t errlen);

#endif
