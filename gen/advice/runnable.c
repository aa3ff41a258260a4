/*
 * runnable.c — see runnable.h.
 */
#include "gen/advice/runnable.h"

#include <math.h>

#include "models/multicluster.h"

/* mgbench/config.c: the most flops the coarsest grid's direct solve may cost. */
static const double MAX_COARSE_FLOPS = 2e9;

static bool whole(double x)
{
    return isfinite(x) && x == floor(x);
}

bool runnable_strip(double np, double na)
{
    return whole(np) && whole(na) && np >= 1 && na >= 2 && fmod(na, np) == 0;
}

/* mgbench/band.c, mgb_band_cost: flops of the banded Cholesky of a grid of
 * na x nb intervals. */
static double band_cost(double na, double nb)
{
    double ia = na - 1, ib = nb - 1, w = fmin(ia, ib);
    return ia * ib * (w + 1) * (w + 1);
}

runnable_why runnable_split_why(const double np[2], const double rows[2], double na, double nb,
                                double quantum)
{
    double q = whole(quantum) && quantum >= 1 ? quantum : 1;
    for (int i = 0; i < 2; i++)
        if (!whole(np[i]) || np[i] < 1 || !whole(rows[i]))
            return RUNNABLE_NOT_WHOLE;
    if (np[0] * rows[0] + np[1] * rows[1] != na)
        return RUNNABLE_NOT_WHOLE;
    for (int i = 0; i < 2; i++)
        if (rows[i] < 2 || fmod(rows[i], 2) != 0)
            return RUNNABLE_ODD;
    for (int i = 0; i < 2; i++)
        if (fmod(rows[i], q) != 0)
            return RUNNABLE_OFF_QUANTUM;
    double halvings = multicluster_levels(np, rows, nb) - 1;
    if (band_cost(ldexp(na, (int)-halvings), ldexp(nb, (int)-halvings)) > MAX_COARSE_FLOPS)
        return RUNNABLE_COARSE_TOO_BIG;
    return RUNNABLE_YES;
}

bool runnable_split(const double np[2], const double rows[2], double na, double nb,
                    double quantum)
{
    return runnable_split_why(np, rows, na, nb, quantum) == RUNNABLE_YES;
}

const char *runnable_why_text(runnable_why why)
{
    switch (why) {
    case RUNNABLE_YES:
        return "mgbench can run it";
    case RUNNABLE_NOT_WHOLE:
        return "rows per process not whole (--split gives each side's processes whole rows)";
    case RUNNABLE_ODD:
        return "rows per process odd or below 2 (mgbench halves every process's rows)";
    case RUNNABLE_OFF_QUANTUM:
        return "rows per process not multiples of the quantum";
    case RUNNABLE_COARSE_TOO_BIG:
        return "too few levels: the coarsest grid is too large for mgbench's direct solve "
               "(more than 2e9 flops)";
    case RUNNABLE_KINDS:
        break;
    }
    return "?";
}
