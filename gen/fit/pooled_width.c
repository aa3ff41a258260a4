/*
 * pooled_width.c — see pooled_width.h.
 */
#include "gen/fit/pooled_width.h"

#include <math.h>
#include <string.h>

#include "models/calibrate.h"

double pooled_half_width(const error_pool *pool, const char *family, const campaign *camp,
                         double distance, size_t *nscores)
{
    calibrate_model pooled, none, m;
    memset(&none, 0, sizeof none);
    if (nscores)
        *nscores = 0;
    if (!pool || !isfinite(distance))
        return NAN;
    size_t bins[2] = {calibrate_distance_bin(distance), CALIBRATE_POOL_BINS};
    for (int k = 0; k < 2; k++) {
        if (error_pool_model(pool, family, camp, bins[k], CALIBRATE_LEVEL, &pooled) !=
                CALIBRATE_OK ||
            calibrate_shrink(&none, &pooled, CALIBRATE_POOL_WEIGHT, CALIBRATE_LEVEL, &m) !=
                CALIBRATE_OK)
            continue;
        if (nscores)
            *nscores = pooled.nscores;
        return calibrate_half_width(&m, distance);
    }
    return NAN;
}
