/*
 * reconcile.h — one total time from its parts and from a direct model of
 * the total, and the parts adjusted so that they add up to it (issue #22,
 * "sum of parts"; seed 004 Table 11 predicts FT's setup, evolve, FFTcpu and
 * FFTcomm separately and adds them).
 *
 * Two estimates of the same total exist once the total is also modelled
 * directly: S = sum of the parts' estimates p_i, and T, the direct model's.
 * Each comes with a standard deviation: s_T for T, and for S the sum of the
 * parts' s_i — the paper's rule for the total's interval and a bound that
 * holds whatever the correlation between the part fits (the standard
 * deviation of a sum never exceeds the sum of the standard deviations).
 * The combined total is their inverse-variance weighted mean
 *
 *     C = w S + (1 - w) T,   w = s_T^2 / (s_T^2 + s_S^2),
 *
 * (w = 1/2 when both are exact), with the standard deviation bounded by
 * w s_S + (1 - w) s_T, again whatever the correlation: S and T come from
 * the same runs, so no narrowing from independence is claimed.
 *
 * The parts are then reconciled with C by weighted least squares with
 * their variances as weights (Hyndman et al., "Optimal combination
 * forecasts for hierarchical time series", 2011; the diagonal "WLS"
 * variant of Wickramasuriya et al., 2019): the difference C - S is shared
 * among the parts in proportion to s_i^2, so an uncertain part absorbs
 * more of it than a sharp one, and the parts add up to C exactly. A part
 * that this would make negative is held at zero and the rest shared among
 * the others (a time cannot be negative); parts with no spread at all
 * (every s_i = 0) share it in proportion to their estimates.
 *
 * The standard deviations may be given in any common multiple (95%
 * half-widths, say): the weights depend on their ratios only, and the
 * bound on C's comes back in the same multiple.
 *
 * Statuses: RECONCILE_OK; RECONCILE_BAD_INPUT when k is 0 or above
 * RECONCILE_MAX_PARTS, an estimate is not finite, or a standard deviation
 * is negative or not finite (nothing is filled then);
 * RECONCILE_NOT_POSITIVE when C is not positive (the two estimates
 * disagree so much that no positive parts add up to it; the result holds
 * C, and parts_out the parts unchanged).
 *
 * Ownership: the caller owns every array (parts_out has k elements).
 * Nothing is allocated. No I/O.
 */
#ifndef PERFCAST_RECONCILE_H
#define PERFCAST_RECONCILE_H

#include <stddef.h>

enum { RECONCILE_MAX_PARTS = 64 }; /* more components than any table has */

typedef enum {
    RECONCILE_OK = 0,
    RECONCILE_BAD_INPUT,
    RECONCILE_NOT_POSITIVE,
} reconcile_status;

typedef struct {
    double total;       /* C */
    double total_sd;    /* bound on C's standard deviation: w s_S + (1 - w) s_T */
    double weight_sum;  /* w, the weight of the sum of the parts */
    double sum_parts;   /* S */
    double sum_sd;      /* s_S = sum of the parts' s_i */
    size_t nclipped;    /* parts held at zero */
} reconcile_result;

/* Combine the k parts (estimates parts[], standard deviations sds[]) with
 * the direct total (total, total_sd); the reconciled parts go to
 * parts_out[] (may alias parts). */
reconcile_status reconcile_sum(const double *parts, const double *sds, size_t k, double total,
                               double total_sd, double *parts_out, reconcile_result *out);

const char *reconcile_status_text(reconcile_status s);

#endif
