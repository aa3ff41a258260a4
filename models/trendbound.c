/*
 * trendbound.c — see trendbound.h.
 */
#include "models/trendbound.h"

#include <math.h>

#include "models/levels.h"

/* Slope per doubling between levels a and b: ln(y_b / y_a) / log2(x_b / x_a). */
static double slope(const double *x, const double *y, size_t a, size_t b)
{
    return log(y[b] / y[a]) / log2(x[b] / x[a]);
}

trendbound_status trendbound_apply(const double *x, const double *y, size_t n, double x_target,
                                   double estimate, trendbound_result *out)
{
    if (!x || !y || !out)
        return TRENDBOUND_BAD_INPUT;
    if (n < TRENDBOUND_RECENT + 1)
        return TRENDBOUND_FEW_LEVELS;
    if (!levels_valid(x, y, n) || !levels_positive(x_target) || !(x_target > x[n - 1]) ||
        !levels_positive(estimate))
        return TRENDBOUND_BAD_INPUT;
    double low = 0, high = 0;
    for (size_t i = n - TRENDBOUND_RECENT; i < n; i++) {
        double s = slope(x, y, i - 1, i);
        low = fmin(low, s);
        high = fmax(high, s);
    }
    double top = y[n - 1], d = log2(x_target / x[n - 1]);
    double law = log(estimate / top) / d;
    double kept = fmin(fmax(law, low), high);
    *out = (trendbound_result){.estimate = kept == law ? estimate : top * exp(kept * d),
                               .slope_law = law,
                               .slope_low = low,
                               .slope_high = high,
                               .doublings = d,
                               .bounded = kept != law};
    return TRENDBOUND_OK;
}

const char *trendbound_status_text(trendbound_status s)
{
    switch (s) {
    case TRENDBOUND_OK:
        return "ok";
    case TRENDBOUND_FEW_LEVELS:
        return "fewer training levels than the trend needs";
    case TRENDBOUND_BAD_INPUT:
        return "levels not positive and ascending, or the target not beyond them";
    }
    return "unknown status";
}
