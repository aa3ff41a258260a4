/*
 * changepoint.c — steps between dates beyond the repetition noise
 * (changepoint.h has the method and why its thresholds are what they are).
 */
#include "models/changepoint.h"

#include <math.h>

/* The k-th smallest of v (0-based) without sorting a copy: the value with
 * at most k values below it and more than k at or below it. */
static double kth_smallest(const double *v, size_t n, size_t k)
{
    for (size_t i = 0; i < n; i++) {
        size_t below = 0, at_or_below = 0;
        for (size_t j = 0; j < n; j++) {
            below += v[j] < v[i];
            at_or_below += v[j] <= v[i];
        }
        if (below <= k && k < at_or_below)
            return v[i];
    }
    return NAN; /* unreachable for finite values */
}

double changepoint_median(const double *v, size_t n)
{
    if (n == 0)
        return NAN;
    if (n % 2)
        return kth_smallest(v, n, n / 2);
    return 0.5 * (kth_smallest(v, n, n / 2 - 1) + kth_smallest(v, n, n / 2));
}

static bool dates_valid(const changepoint_date *dates, size_t ndates)
{
    for (size_t d = 0; d < ndates; d++) {
        if (dates[d].n == 0 || !dates[d].times)
            return false;
        for (size_t i = 0; i < dates[d].n; i++)
            if (!(isfinite(dates[d].times[i]) && dates[d].times[i] > 0))
                return false;
    }
    return true;
}

/* Pooled within-date standard deviation of log time; *dof receives
 * sum(n_d - 1). */
static double pooled_log_sd(const changepoint_date *dates, size_t ndates, size_t *dof)
{
    double ss = 0;
    *dof = 0;
    for (size_t d = 0; d < ndates; d++) {
        const changepoint_date *dt = &dates[d];
        double mean = 0;
        for (size_t i = 0; i < dt->n; i++)
            mean += log(dt->times[i]);
        mean /= (double)dt->n;
        for (size_t i = 0; i < dt->n; i++) {
            double e = log(dt->times[i]) - mean;
            ss += e * e;
        }
        *dof += dt->n - 1;
    }
    return *dof ? sqrt(ss / (double)*dof) : NAN;
}

changepoint_status changepoint_detect(const changepoint_date *dates, size_t ndates,
                                      changepoint_step *steps)
{
    if (ndates && !dates_valid(dates, ndates))
        return CHANGEPOINT_BAD_INPUT;
    if (ndates < 2)
        return CHANGEPOINT_OK;
    size_t dof;
    double sd = pooled_log_sd(dates, ndates, &dof);
    bool have_noise = dof >= CHANGEPOINT_MIN_DOF && sd > 0;
    for (size_t d = 0; d + 1 < ndates; d++) {
        changepoint_step *s = &steps[d];
        s->median_before = changepoint_median(dates[d].times, dates[d].n);
        s->median_after = changepoint_median(dates[d + 1].times, dates[d + 1].n);
        s->rel_change = s->median_after / s->median_before - 1;
        s->z = NAN;
        s->changed = false;
        if (!have_noise)
            continue;
        double se = sd * sqrt(M_PI / 2)
                    * sqrt(1.0 / (double)dates[d].n + 1.0 / (double)dates[d + 1].n);
        s->z = fabs(log(s->median_after / s->median_before)) / se;
        s->changed = s->z > CHANGEPOINT_K && fabs(s->rel_change) >= CHANGEPOINT_MIN_REL;
    }
    return have_noise ? CHANGEPOINT_OK : CHANGEPOINT_NO_NOISE;
}
