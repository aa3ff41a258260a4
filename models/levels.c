/*
 * levels.c — see levels.h.
 */
#include "models/levels.h"

#include <math.h>

bool levels_positive(double v)
{
    return isfinite(v) && v > 0;
}

bool levels_valid(const double *x, const double *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!levels_positive(x[i]) || !levels_positive(y[i]) || (i > 0 && !(x[i] > x[i - 1])))
            return false;
    return true;
}
