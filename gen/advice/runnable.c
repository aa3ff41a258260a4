/*
 * runnable.c — see runnable.h.
 */
#include "gen/advice/runnable.h"

#include <math.h>

static bool whole(double x)
{
    return isfinite(x) && x == floor(x);
}

bool runnable_strip(double np, double na)
{
    return whole(np) && whole(na) && np >= 1 && na >= 2 && fmod(na, np) == 0;
}

bool runnable_split(const double np[2], const double rows[2], double na)
{
    for (int i = 0; i < 2; i++)
        if (!whole(np[i]) || np[i] < 1 || !whole(rows[i]) || rows[i] < 2 ||
            fmod(rows[i], 2) != 0)
            return false;
    return np[0] * rows[0] + np[1] * rows[1] == na;
}

double runnable_split_step(double quantum)
{
    if (!whole(quantum) || quantum < 1)
        return 2;
    return fmod(quantum, 2) == 0 ? quantum : 2 * quantum;
}
