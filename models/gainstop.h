/*
 * gainstop.h — where a series of runs stopped gaining: the level beyond
 * which a larger value of one parameter (np, typically) no longer made the
 * time shorter.
 *
 * Input: the training levels of one line of configurations (as
 * models/trendbound.h takes them: the values x of the parameter along
 * which a target lies beyond the runs, ascending, each with the mean time
 * y of its runs).
 *
 * Why: a strong-scaling time that has stopped falling is the regime a
 * planner most needs named. A law fitted to it extrapolates a plateau (or
 * the trend bound holds the estimate to one), and the estimate may even be
 * right; but the runs then say that more processes buy nothing, and each
 * doubling of them doubles the core-hours of the same time. Nor is the
 * plateau's continuation tested: in issue 22's round 21 the setup time of
 * a Trilinos ML solve was flat from 768 to 6144 processes and 2.5 times
 * longer at 19200. The step and knee test of models/calibrate.h
 * (calibrate_regime_change) does not see it: the law fitted below the top
 * follows the plateau there.
 *
 * Method: the stop is the smallest level j, 0 < j < n - 1, such that
 *   - no larger level gained: y_i > (1 - GAINSTOP_MIN_GAIN) y_j for every
 *     i > j (none ran 10% faster or more),
 *   - the levels beyond it span at least a doubling: x_{n-1} >= 2 x_j,
 *   - the runs had gained up to it: y_j <= (1 - GAINSTOP_EARLIER_GAIN) y_0
 *     (a time that never fell, such as weak scaling's, has no stop).
 * The three thresholds were fixed before any data set was looked at with
 * this rule (a gain under 10% is within the spread of repeated runs of
 * many public sets; a doubling is the smallest span that costs twice the
 * core-hours; a fall of a fifth says the runs were scaling). A series with
 * no such level has no stop.
 *
 * Needs at least 3 levels (fewer: GAINSTOP_FEW_LEVELS), every x and y
 * positive and finite, x strictly ascending (else GAINSTOP_BAD_INPUT).
 *
 * Ownership: nothing is allocated; the caller's arrays are only read.
 * No I/O, no global state.
 */
#ifndef PERFCAST_GAINSTOP_H
#define PERFCAST_GAINSTOP_H

#include <stdbool.h>
#include <stddef.h>

#define GAINSTOP_MIN_GAIN 0.10     /* a larger level gains when its time is this much lower */
#define GAINSTOP_MIN_SPAN 2.0      /* the levels past the stop reach this multiple of it */
#define GAINSTOP_EARLIER_GAIN 0.20 /* the time had fallen this much from the first level */

typedef enum {
    GAINSTOP_OK,
    GAINSTOP_FEW_LEVELS,
    GAINSTOP_BAD_INPUT
} gainstop_status;

typedef struct {
    bool found;          /* the runs stopped gaining; the fields below are set only then */
    size_t level;        /* j, the index of the stop in x */
    double x_stop;       /* x[j] */
    double x_last;       /* x[n - 1], the largest level */
    double best_ratio;   /* min over i > j of y_i / y_j: the best a larger level did */
    double last_ratio;   /* y[n - 1] / y[j]: the largest level against the stop */
} gainstop_result;

/* Look for the stop among the n levels (x, y); out is filled on
 * GAINSTOP_OK only (found false when there is none). */
gainstop_status gainstop_find(const double *x, const double *y, size_t n, gainstop_result *out);

/* Static text for a status. */
const char *gainstop_status_text(gainstop_status s);

#endif
