/*
 * pooled_width.c — see pooled_width.h.
 */
#include "gen/fit/pooled_width.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/calibrate.h"

/* What the family shrinks toward in bin (error_pool_target); nscores 0
 * when nothing. */
static calibrate_model target_in(const error_pool *pool, const char *family,
                                 const campaign *camp, size_t bin, size_t counts[2])
{
    calibrate_model m;
    memset(&m, 0, sizeof m);
    counts[0] = counts[1] = 0;
    if (error_pool_target(pool, family, camp, bin, CALIBRATE_LEVEL, &m, &counts[0],
                          &counts[1]) != CALIBRATE_OK)
        m.nscores = 0;
    return m;
}

double pooled_half_width(const error_pool *pool, const char *family, const campaign *camp,
                         double distance, double unit, size_t *npool, size_t *nprior)
{
    size_t counts[2][2];
    if (npool)
        *npool = 0;
    if (nprior)
        *nprior = 0;
    if (!pool || !isfinite(distance))
        return NAN;
    calibrate_model at[2] = {
        target_in(pool, family, camp, calibrate_distance_bin(distance), counts[0]),
        target_in(pool, family, camp, CALIBRATE_POOL_BINS, counts[1])};
    /* calibration.c's pooled_models: the archive's evidence at any
     * distance before the prior's at this one. */
    int k = at[0].nscores > 0 && !(counts[0][0] == 0 && counts[1][0] > 0) ? 0 : 1;
    calibrate_model none, m;
    memset(&none, 0, sizeof none);
    if (at[k].nscores == 0 ||
        calibrate_shrink(&none, &at[k], CALIBRATE_POOL_WEIGHT, CALIBRATE_LEVEL, &m) !=
            CALIBRATE_OK)
        return NAN;
    if (npool)
        *npool = counts[k][0];
    if (nprior)
        *nprior = counts[k][1];
    if (!(isfinite(unit) && unit > 0))
        unit = calibrate_roughness_unit(NAN);
    return calibrate_half_width(&m, distance) * unit;
}

void pooled_width_source_text(const char *family, size_t npool, size_t nprior, char *buf,
                              size_t len)
{
    if (npool && nprior)
        snprintf(buf, len, "%zu pooled %s backtests of other campaigns shrunk toward the "
                 "shipped prior's %zu", npool, family, nprior);
    else if (npool)
        snprintf(buf, len, "%zu pooled %s backtests of other campaigns", npool, family);
    else
        snprintf(buf, len, "the shipped prior's %zu %s backtests", nprior, family);
}
