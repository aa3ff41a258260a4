/*
 * reconcile.c — see reconcile.h for the method.
 */
#include "models/reconcile.h"

#include <math.h>
#include <stdbool.h>

const char *reconcile_status_text(reconcile_status s)
{
    switch (s) {
    case RECONCILE_OK:
        return "ok";
    case RECONCILE_BAD_INPUT:
        return "no parts, or an estimate or standard deviation that is not a finite "
               "number (or a negative standard deviation)";
    case RECONCILE_NOT_POSITIVE:
        return "the combined total is not positive: the parts and the direct model "
               "disagree too much to reconcile";
    }
    return "unknown status";
}

static bool inputs_valid(const double *parts, const double *sds, size_t k, double total,
                         double total_sd)
{
    if (k == 0 || k > RECONCILE_MAX_PARTS || !isfinite(total) || !isfinite(total_sd) ||
        total_sd < 0)
        return false;
    for (size_t i = 0; i < k; i++)
        if (!isfinite(parts[i]) || !isfinite(sds[i]) || sds[i] < 0)
            return false;
    return true;
}

/* How much of a shared difference part i takes, among the parts still
 * free (held[i] false): its variance; or, when every free part is exact,
 * its estimate; or, when those do not give a positive sum either, an
 * equal share. `mode` says which of the three applies to this round. */
static double share_of(const double *parts, const double *sds, size_t i, int mode)
{
    if (mode == 0)
        return sds[i] * sds[i];
    if (mode == 1)
        return parts[i];
    return 1.0;
}

static int share_mode(const double *parts, const double *sds, const bool *held, size_t k)
{
    double var = 0, est = 0;
    for (size_t i = 0; i < k; i++)
        if (!held[i]) {
            var += sds[i] * sds[i];
            est += parts[i] > 0 ? parts[i] : 0;
        }
    return var > 0 ? 0 : est > 0 ? 1 : 2;
}

/* One round: share what the free parts must add (c minus their sum) among
 * them; hold at zero those that would fall below it. True when no part
 * had to be held (the round's result stands). */
static bool share_round(const double *parts, const double *sds, size_t k, double c, bool *held,
                        double *parts_out, size_t *nclipped)
{
    int mode = share_mode(parts, sds, held, k);
    double free_sum = 0, weights = 0;
    for (size_t i = 0; i < k; i++)
        if (!held[i]) {
            free_sum += parts[i];
            double a = share_of(parts, sds, i, mode);
            weights += a > 0 ? a : 0;
        }
    double d = c - free_sum;
    bool settled = true;
    for (size_t i = 0; i < k; i++) {
        if (held[i]) {
            parts_out[i] = 0;
            continue;
        }
        double a = share_of(parts, sds, i, mode);
        parts_out[i] = parts[i] + (weights > 0 && a > 0 ? d * a / weights : 0);
        if (parts_out[i] < 0) {
            held[i] = true;
            (*nclipped)++;
            settled = false;
        }
    }
    return settled;
}

reconcile_status reconcile_sum(const double *parts, const double *sds, size_t k, double total,
                               double total_sd, double *parts_out, reconcile_result *out)
{
    if (!inputs_valid(parts, sds, k, total, total_sd))
        return RECONCILE_BAD_INPUT;
    double s = 0, s_sd = 0;
    for (size_t i = 0; i < k; i++) {
        s += parts[i];
        s_sd += sds[i];
    }
    double vs = s_sd * s_sd, vt = total_sd * total_sd;
    double w = vs + vt > 0 ? vt / (vs + vt) : 0.5;
    *out = (reconcile_result){.total = w * s + (1 - w) * total,
                              .total_sd = w * s_sd + (1 - w) * total_sd,
                              .weight_sum = w,
                              .sum_parts = s,
                              .sum_sd = s_sd};
    if (!(out->total > 0)) {
        for (size_t i = 0; i < k; i++)
            parts_out[i] = parts[i];
        return RECONCILE_NOT_POSITIVE;
    }
    /* At most k rounds: each unsettled round holds one more part at zero,
     * and the free parts can never all be held while the total is
     * positive. */
    bool held[RECONCILE_MAX_PARTS] = {false};
    for (size_t round = 0; round < k; round++)
        if (share_round(parts, sds, k, out->total, held, parts_out, &out->nclipped))
            break;
    return RECONCILE_OK;
}
