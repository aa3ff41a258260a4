/*
 * trendbound.h — keep a searched law's extrapolation within the trend of
 * its own runs.
 *
 * Input: the training levels of one line of configurations (the values x
 * of the one parameter along which the target lies beyond the runs, the
 * other identifying values those of the target), ascending, each with the
 * mean time y of its runs; the target's value x_t above the largest; and
 * the estimate a law (or an average of laws) gives there.
 *
 * Why: the term search chooses laws by how well they fit the training
 * runs, not by how they bend beyond them. A power of np fitted to a step
 * at the last level (issue 22: np^3, +1248%), or a falling law whose
 * curvature carries it below anything the runs did, extrapolates a change
 * per doubling that no pair of neighbouring levels showed. On the public
 * design data (the sets of tests/fixtures/public and rounds 1-6, README
 * "Trend bound") the last steps of the runs themselves predicted the
 * largest level about as well as the laws, and far better where a law
 * bent away.
 *
 * Method: slopes are per doubling of x on the log scale of time,
 * s = ln(y_b / y_a) / log2(x_b / x_a). The law's slope beyond the top
 * level, s_law = ln(estimate / y_top) / log2(x_t / x_top), is held within
 * [min(0, s_1, .., s_k), max(0, s_1, .., s_k)], s_i the slopes of the last
 * k = TRENDBOUND_RECENT intervals between training levels (0 is always
 * inside: a time that stops changing is never out of trend); the bounded
 * estimate is y_top * exp(s_bounded * log2(x_t / x_top)). The recent
 * intervals, not all of them: near the top is where the runs show the
 * regime the target continues (a strong-scaling time falls as 1/np at
 * small np and flattens later). k = 2 was chosen on the design data, the
 * only window of 1, 2, 3, 4 and all intervals that predicted no round
 * worse than the laws (README "Trend bound"); held-back rounds 7 and 8,
 * scored once with and without it, then made it the ScoPred adapter's
 * default (gen/fit/model_scopred.c, option trend).
 *
 * Needs at least TRENDBOUND_RECENT + 1 levels (fewer: TRENDBOUND_FEW_LEVELS,
 * nothing bounded), every x and y positive and finite, x strictly
 * ascending, x_t above the last x and a positive finite estimate
 * (else TRENDBOUND_BAD_INPUT).
 *
 * Ownership: nothing is allocated; the caller's arrays are only read.
 * No I/O, no global state.
 */
#ifndef PERFCAST_TRENDBOUND_H
#define PERFCAST_TRENDBOUND_H

#include <stdbool.h>
#include <stddef.h>

#define TRENDBOUND_RECENT 2 /* intervals between the top training levels that bound the slope */

typedef enum {
    TRENDBOUND_OK,
    TRENDBOUND_FEW_LEVELS,
    TRENDBOUND_BAD_INPUT
} trendbound_status;

typedef struct {
    double estimate;    /* the bounded estimate (the law's where it was in trend) */
    double slope_law;   /* the law's slope per doubling beyond the top level */
    double slope_low;   /* the bounds: min(0, recent slopes) */
    double slope_high;  /*             max(0, recent slopes) */
    double doublings;   /* log2(x_t / x_top) */
    bool bounded;       /* the law's slope was outside and the estimate moved */
} trendbound_result;

/* Bound estimate at x_target by the trend of the n levels (x, y); out is
 * filled on TRENDBOUND_OK only. */
trendbound_status trendbound_apply(const double *x, const double *y, size_t n, double x_target,
                                   double estimate, trendbound_result *out);

/* Static text for a status. */
const char *trendbound_status_text(trendbound_status s);

#endif
