/*
 * ratio_interval.h — a 95% prediction interval for the time of a job that
 * a source predicted, from how that source's other predictions compared
 * with the times measured for them (used for the predictions the papers
 * printed: seed 000's Tables I and II give measured and predicted times).
 *
 * Method: errors of timing predictions are relative, so they are taken on
 * a log scale. With r_i = ln(measured_i / predicted_i), i = 1..n, their
 * mean m and sample standard deviation s, the next log ratio lies with 95%
 * probability in
 *
 *     m ± t(0.975; n − 1) · s · sqrt(1 + 1/n)
 *
 * (the textbook prediction interval for one new observation of a normal
 * sample), and the job's time in predicted · exp(that). The caller leaves
 * the job's own measured time out of the sample, so that the interval
 * never learns from what it is judged on.
 *
 * Statuses: ratio_interval returns RATIO_INTERVAL_OK and fills low/high
 * (multipliers of the predicted time), RATIO_INTERVAL_TOO_FEW with fewer
 * than 3 usable pairs, RATIO_INTERVAL_BAD_INPUT when a time is not a
 * positive finite number (nothing is filled then).
 *
 * Ownership: nothing is allocated. No I/O.
 */
#ifndef PERFCAST_RATIO_INTERVAL_H
#define PERFCAST_RATIO_INTERVAL_H

#include <stddef.h>

typedef enum {
    RATIO_INTERVAL_OK = 0,
    RATIO_INTERVAL_TOO_FEW,
    RATIO_INTERVAL_BAD_INPUT,
} ratio_interval_status;

typedef struct {
    double low, high;  /* the time lies in [predicted * low, predicted * high] */
    double mean_log;   /* m */
    double sd_log;     /* s */
    size_t n;
} ratio_interval_result;

ratio_interval_status ratio_interval(const double *measured, const double *predicted, size_t n,
                                     ratio_interval_result *out);

#endif
