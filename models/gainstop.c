/*
 * gainstop.c — see gainstop.h.
 */
#include "models/gainstop.h"

#include <math.h>

#include "models/levels.h"

/* The smallest y[i] / y[j] over the levels i above j. */
static double best_after(const double *y, size_t n, size_t j)
{
    double best = INFINITY;
    for (size_t i = j + 1; i < n; i++)
        best = fmin(best, y[i] / y[j]);
    return best;
}

static bool is_stop(const double *x, const double *y, size_t n, size_t j)
{
    return best_after(y, n, j) > 1 - GAINSTOP_MIN_GAIN &&
           x[n - 1] >= GAINSTOP_MIN_SPAN * x[j] && y[j] <= (1 - GAINSTOP_EARLIER_GAIN) * y[0];
}

gainstop_status gainstop_find(const double *x, const double *y, size_t n, gainstop_result *out)
{
    if (!x || !y || !out)
        return GAINSTOP_BAD_INPUT;
    if (n < 3)
        return GAINSTOP_FEW_LEVELS;
    if (!levels_valid(x, y, n))
        return GAINSTOP_BAD_INPUT;
    *out = (gainstop_result){.found = false};
    for (size_t j = 1; j + 1 < n; j++) {
        if (!is_stop(x, y, n, j))
            continue;
        *out = (gainstop_result){.found = true,
                                 .level = j,
                                 .x_stop = x[j],
                                 .x_last = x[n - 1],
                                 .best_ratio = best_after(y, n, j),
                                 .last_ratio = y[n - 1] / y[j]};
        break;
    }
    return GAINSTOP_OK;
}

const char *gainstop_status_text(gainstop_status s)
{
    switch (s) {
    case GAINSTOP_OK:
        return "ok";
    case GAINSTOP_FEW_LEVELS:
        return "fewer than 3 training levels";
    case GAINSTOP_BAD_INPUT:
        return "levels not positive and ascending";
    }
    return "unknown status";
}
