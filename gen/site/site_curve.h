/*
 * site_curve.h — the fitted curve of an experiment over its whole range,
 * for the charts: the model evaluated at every training configuration
 * (from the first training run) and at every target (to the last one).
 *
 * Method: the experiment's model adapter runs once more on the same
 * training runs with the training configurations as its targets (the same
 * fit, so the same equation; render/ fits nothing, gen/ computes the
 * points). The targets keep the predictions and intervals of the
 * experiment's own report. Each point carries the model's textbook 95% PI
 * and the calibrated 95% PI (gen/fit/calibration.h): at a training
 * configuration, distance 0 beyond the trained range, the calibration's
 * half-width there (report.cal_inside_log_half_width) widened to contain
 * the textbook PI, as calibrate_interval does for the targets. A report
 * calibrated by bootstrap (no such half-width) gives training points no
 * calibrated PI; an adapter that fails on the extra run leaves the curve
 * with the targets only.
 *
 * Ownership: site_curve_compute fills a site_curve that site_curve_free
 * releases.
 */
#ifndef PERFCAST_SITE_CURVE_H
#define PERFCAST_SITE_CURVE_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/site/site_data.h"

typedef struct {
    size_t row;                 /* a runs row of the configuration (series and x) */
    bool target;                /* a target of the experiment, else a training one */
    double estimate;
    double pi_low, pi_high;     /* textbook 95% PI; NAN = absent */
    double cal_low, cal_high;   /* calibrated 95% PI; NAN = absent */
} curve_point;

typedef struct {
    curve_point *pts;
    size_t n;
} site_curve;

/* The curve of e (an empty one when e failed). False only when out of
 * memory; site_curve_free must be called in every case. */
bool site_curve_compute(const site_experiment *e, site_curve *out);

void site_curve_free(site_curve *c);

#endif
