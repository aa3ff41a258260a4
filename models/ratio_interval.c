/*
 * ratio_interval.c — prediction interval of a measured/predicted ratio on
 * a log scale (ratio_interval.h).
 */
#include "models/ratio_interval.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

ratio_interval_status ratio_interval(const double *measured, const double *predicted, size_t n,
                                     ratio_interval_result *out)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(measured[i] > 0 && predicted[i] > 0 && isfinite(measured[i]) &&
              isfinite(predicted[i])))
            return RATIO_INTERVAL_BAD_INPUT;
        sum += log(measured[i] / predicted[i]);
    }
    if (n < 3)
        return RATIO_INTERVAL_TOO_FEW;
    double mean = sum / (double)n, ss = 0;
    for (size_t i = 0; i < n; i++) {
        double d = log(measured[i] / predicted[i]) - mean;
        ss += d * d;
    }
    double sd = sqrt(ss / (double)(n - 1));
    double half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * sd * sqrt(1 + 1.0 / (double)n);
    *out = (ratio_interval_result){exp(mean - half), exp(mean + half), mean, sd, n};
    return RATIO_INTERVAL_OK;
}
