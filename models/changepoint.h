/*
 * changepoint.h — did one configuration's run time change between dates?
 *
 * Input: the repetitions of one configuration, grouped by date (oldest
 * first). A centre re-runs the same job now and then; a step between two
 * dates that the repetition noise cannot explain means the cluster or the
 * code changed ("changed on DATE").
 *
 * Method (chosen from the statistics below, never tuned to the archive's
 * recorded history):
 *  - work in log time, so a step is a ratio and the noise of a slow and a
 *    fast configuration compare;
 *  - each date's level is the median of its runs (one stray slow run of an
 *    oversubscribed job does not move it); the step between consecutive
 *    dates a and b is log(median_b / median_a);
 *  - the noise is the pooled within-date standard deviation s of log time
 *    over all dates of the configuration (dates with one run add nothing),
 *    with dof = sum(n_d - 1) >= CHANGEPOINT_MIN_DOF; the standard error of
 *    the step is s * sqrt(pi/2) * sqrt(1/n_a + 1/n_b) (the median of n
 *    normal draws has variance ~ (pi/2) s^2 / n);
 *  - the step is flagged when |step| > CHANGEPOINT_K standard errors AND
 *    |median_b / median_a - 1| >= CHANGEPOINT_MIN_REL. k = 3: a history
 *    page compares many configurations at many dates, and 3 standard
 *    errors keeps false alarms from noise rare (0.3% per comparison under
 *    normal noise) while a real step of a few noise widths still shows.
 *    The 10% floor: with many repetitions a 2% drift becomes
 *    "significant", but it is not something a centre acts on, and runs on
 *    a shared node drift that much between days anyway.
 *  - every consecutive pair is tested on its own (several steps can be
 *    flagged in one series).
 *
 * Ownership: changepoint_detect fills a caller-provided array of steps (one
 * per consecutive pair, ndates - 1 of them); nothing is allocated. No I/O.
 */
#ifndef PERFCAST_CHANGEPOINT_H
#define PERFCAST_CHANGEPOINT_H

#include <stdbool.h>
#include <stddef.h>

#define CHANGEPOINT_K 3.0         /* standard errors a step must exceed */
#define CHANGEPOINT_MIN_REL 0.10  /* ... and the relative change it must reach */
#define CHANGEPOINT_MIN_DOF 2     /* repetition degrees of freedom needed for a noise estimate */

/* One date's repetitions: times in seconds, all > 0 and finite. */
typedef struct {
    const double *times;
    size_t n;
} changepoint_date;

/* The comparison of date i with date i + 1. */
typedef struct {
    double median_before;  /* seconds */
    double median_after;
    double rel_change;     /* median_after / median_before - 1 */
    double z;              /* |log step| / its standard error; NAN without a noise estimate */
    bool changed;          /* beyond both thresholds */
} changepoint_step;

typedef enum {
    CHANGEPOINT_OK = 0,
    CHANGEPOINT_BAD_INPUT,  /* a date without runs, or a time <= 0 or not finite */
    CHANGEPOINT_NO_NOISE    /* fewer than CHANGEPOINT_MIN_DOF repetition dof (or zero
                             * spread): steps are filled, none is flagged, z is NAN */
} changepoint_status;

/* The median of n > 0 values (the mean of the middle two for even n);
 * does not modify v (O(n^2): a date has a handful of repetitions). NAN for
 * n == 0. */
double changepoint_median(const double *v, size_t n);

/* Compare every pair of consecutive dates of dates[0..ndates). steps has
 * room for ndates - 1 entries (none is written for ndates < 2, which is
 * CHANGEPOINT_OK with nothing to compare). On CHANGEPOINT_BAD_INPUT the
 * steps are unspecified. */
changepoint_status changepoint_detect(const changepoint_date *dates, size_t ndates,
                                      changepoint_step *steps);

#endif
