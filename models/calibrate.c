/*
 * calibrate.c — backtest calibration, bootstrap half-widths and held-out
 * scores (see calibrate.h for the method).
 */
#include "models/calibrate.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The type-7 (linear interpolation) quantile q of sorted v[0..n). */
static double sorted_quantile(const double *v, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t k = (size_t)floor(pos);
    if (k + 1 >= n)
        return v[n - 1];
    return v[k] + (pos - (double)k) * (v[k + 1] - v[k]);
}

/* Count the distinct fold ids among the used scores. */
static size_t count_folds(const calibrate_score *s, const bool *used, size_t n)
{
    size_t folds = 0;
    for (size_t i = 0; i < n; i++) {
        if (!used[i])
            continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = used[j] && s[j].fold == s[i].fold;
        folds += !seen;
    }
    return folds;
}

static bool score_usable(const calibrate_score *s)
{
    return isfinite(s->predicted) && isfinite(s->measured) && s->predicted > 0 &&
           s->measured > 0 && isfinite(s->distance) && s->distance >= 0;
}

/* The median of v[0..n), n > 0, sorted in place. */
static double median_in_place(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    return sorted_quantile(v, n, 0.5);
}

/* calibrate_fit, on errors per unit of roughness when per_unit. */
static calibrate_status fit_scores(const calibrate_score *scores, size_t n, double level,
                                   bool per_unit, calibrate_model *out)
{
    memset(out, 0, sizeof *out);
    out->scale = out->t = NAN;
    if (!(level > 0 && level < 1))
        return CALIBRATE_BAD_INPUT;
    bool *used = calloc(n ? n : 1, sizeof *used);
    if (!used)
        return CALIBRATE_NOMEM;
    double *abs_z = malloc((n ? n : 1) * sizeof *abs_z);
    double *nearest_z = malloc((n ? n : 1) * sizeof *nearest_z);
    if (!abs_z || !nearest_z) {
        free(used), free(abs_z), free(nearest_z);
        return CALIBRATE_NOMEM;
    }
    size_t nnearest = 0;
    double sum_sq = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(used[i] = score_usable(&scores[i])))
            continue;
        double e = log(scores[i].predicted / scores[i].measured);
        double unit = per_unit && scores[i].unit > 0 ? scores[i].unit : 1;
        double z = e / (fmax(scores[i].distance, CALIBRATE_MIN_DISTANCE) * unit);
        sum_sq += z * z;
        abs_z[out->nscores++] = fabs(z);
        if (scores[i].depth == 1)
            nearest_z[nnearest++] = fabs(z);
        out->max_abs_log_error = fmax(out->max_abs_log_error, fabs(e));
    }
    out->nfolds = count_folds(scores, used, n);
    free(used);
    if (out->nscores == 0) {
        free(abs_z), free(nearest_z);
        return CALIBRATE_NO_SCORES;
    }
    out->scale = sqrt(sum_sq / (double)out->nscores);
    out->robust_scale = median_in_place(abs_z, out->nscores) / CALIBRATE_MAD_NORMAL;
    out->nearest_scale = nnearest ? median_in_place(nearest_z, nnearest) / CALIBRATE_MAD_NORMAL
                                  : out->robust_scale;
    out->nnearest = nnearest;
    free(abs_z), free(nearest_z);
    out->t = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, (double)out->nscores);
    return CALIBRATE_OK;
}

calibrate_status calibrate_fit(const calibrate_score *scores, size_t n, double level,
                               calibrate_model *out)
{
    return fit_scores(scores, n, level, false, out);
}

calibrate_status calibrate_fit_per_unit(const calibrate_score *scores, size_t n, double level,
                                        calibrate_model *out)
{
    return fit_scores(scores, n, level, true, out);
}

double calibrate_half_width(const calibrate_model *m, double distance)
{
    if (!isfinite(distance) || distance < 0)
        distance = 0;
    return m->t * m->scale * fmax(distance, CALIBRATE_MIN_DISTANCE);
}

calibrate_status calibrate_interval(double estimate, double h, double pi_low, double pi_high,
                                    double *low, double *high)
{
    *low = *high = NAN;
    if (!(isfinite(estimate) && estimate > 0 && isfinite(h) && h >= 0))
        return CALIBRATE_BAD_INPUT;
    *low = estimate * exp(-h);
    *high = estimate * exp(h);
    /* A run time is positive: a PI reaching below zero widens only upwards. */
    if (isfinite(pi_low) && pi_low > 0)
        *low = fmin(*low, pi_low);
    if (isfinite(pi_high))
        *high = fmax(*high, pi_high);
    return CALIBRATE_OK;
}

double calibrate_second_difference(const double x[3], const double y[3])
{
    for (int i = 0; i < 3; i++)
        if (!isfinite(x[i]) || !isfinite(y[i]))
            return NAN;
    if (!(x[0] < x[1] && x[1] < x[2]))
        return NAN;
    double w2 = (x[1] - x[0]) / (x[2] - x[0]), w0 = 1 - w2;
    return (y[1] - (w0 * y[0] + w2 * y[2])) / sqrt(1 + w0 * w0 + w2 * w2);
}

double calibrate_roughness(double *dev, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(dev[i]))
            dev[m++] = fabs(dev[i]);
    if (m == 0)
        return NAN;
    qsort(dev, m, sizeof *dev, compare_doubles);
    return sorted_quantile(dev, m, 0.5) / CALIBRATE_MAD_NORMAL;
}

double calibrate_roughness_unit(double roughness)
{
    return calibrate_roughness_unit_with(roughness, CALIBRATE_SMOOTH_ROUGHNESS);
}

double calibrate_roughness_unit_with(double roughness, double floor)
{
    if (!isfinite(roughness))
        return floor;
    return hypot(roughness, floor);
}

size_t calibrate_distance_bin(double distance)
{
    if (!(distance > 1))
        return 0;
    return distance > 2 ? 2 : 1;
}

const char *calibrate_bin_words(size_t bin)
{
    static const char *const words[CALIBRATE_POOL_BINS] = {
        "up to 1 doubling", "1\xE2\x80\x93" "2 doublings", "over 2 doublings"};
    return bin < CALIBRATE_POOL_BINS ? words[bin] : "";
}

calibrate_status calibrate_shrink(const calibrate_model *own, const calibrate_model *pool,
                                  double weight, double level, calibrate_model *out)
{
    *out = *own;
    if (!(weight > 0 && level > 0 && level < 1))
        return CALIBRATE_BAD_INPUT;
    if (pool->nscores == 0 || !isfinite(pool->scale))
        return CALIBRATE_NO_SCORES;
    double k = fmin(weight, (double)pool->nscores), n = (double)own->nscores;
    double own_sq = own->nscores ? own->scale * own->scale : 0;
    out->scale = sqrt((n * own_sq + k * pool->scale * pool->scale) / (n + k));
    out->nscores = own->nscores + (size_t)k;
    out->t = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, n + k);
    out->max_abs_log_error = fmax(own->max_abs_log_error, pool->max_abs_log_error);
    return CALIBRATE_OK;
}

double calibrate_distance(double value, double lo, double hi)
{
    if (!(value > 0 && lo > 0 && hi > 0))
        return NAN;
    if (value > hi)
        return log2(value / hi);
    if (value < lo)
        return log2(lo / value);
    return 0;
}


calibrate_status calibrate_bootstrap(const double *boot, size_t n, double estimate,
                                     double rep_sd_log, double level, double *h)
{
    *h = NAN;
    if (!(estimate > 0 && isfinite(estimate) && level > 0 && level < 1))
        return CALIBRATE_BAD_INPUT;
    double *dev = malloc((n ? n : 1) * sizeof *dev);
    if (!dev)
        return CALIBRATE_NOMEM;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (boot[i] > 0 && isfinite(boot[i]))
            dev[m++] = fabs(log(boot[i] / estimate));
    if (m < 2) {
        free(dev);
        return CALIBRATE_NO_SCORES;
    }
    qsort(dev, m, sizeof *dev, compare_doubles);
    double fit_part = sorted_quantile(dev, m, level);
    free(dev);
    double noise = isfinite(rep_sd_log) && rep_sd_log > 0
                       ? gsl_cdf_ugaussian_Pinv(1 - (1 - level) / 2) * rep_sd_log
                       : 0;
    *h = sqrt(fit_part * fit_part + noise * noise);
    return CALIBRATE_OK;
}

void calibrate_rng_seed(calibrate_rng *g, uint64_t seed)
{
    g->state = seed ? seed : 0x9E3779B97F4A7C15ull; /* xorshift must not start at 0 */
}

size_t calibrate_rng_below(calibrate_rng *g, size_t n)
{
    uint64_t x = g->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    g->state = x;
    uint64_t r = x * 0x2545F4914F6CDD1Dull;
    return (size_t)((r >> 11) % (uint64_t)n);
}

/* The log interval score of [low, high] (both > 0) for measured y > 0
 * (calibrate.h). */
static double interval_score(double low, double high, double y)
{
    double penalty = 2 / CALIBRATE_SCORE_ALPHA;
    return log(high / low) + penalty * fmax(0, log(low / y)) + penalty * fmax(0, log(y / high));
}

calibrate_status calibrate_score_targets(const double *estimate, const double *measured,
                                         const double *low, const double *high, size_t n,
                                         calibrate_scores *out)
{
    memset(out, 0, sizeof *out);
    out->median_abs_error_pct = out->max_abs_error_pct = NAN;
    out->coverage = out->mean_width_pct = NAN;
    out->median_width_ratio = out->mean_interval_score = NAN;
    double *err = malloc((n ? n : 1) * sizeof *err);
    double *ratio = malloc((n ? n : 1) * sizeof *ratio);
    if (!err || !ratio) {
        free(err);
        free(ratio);
        return CALIBRATE_NOMEM;
    }
    double width_sum = 0, score_sum = 0;
    size_t nratio = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(isfinite(estimate[i]) && isfinite(measured[i]) && measured[i] > 0))
            continue;
        err[out->ntargets++] = fabs(100.0 * (estimate[i] - measured[i]) / measured[i]);
        if (!(isfinite(low[i]) && isfinite(high[i]) && estimate[i] != 0))
            continue;
        out->nwith_interval++;
        out->ninside += measured[i] >= low[i] && measured[i] <= high[i];
        width_sum += 100.0 * (high[i] - low[i]) / fabs(estimate[i]);
        if (low[i] > 0 && high[i] >= low[i]) {
            ratio[nratio++] = high[i] / low[i];
            score_sum += interval_score(low[i], high[i], measured[i]);
        }
    }
    if (out->ntargets > 0) {
        qsort(err, out->ntargets, sizeof *err, compare_doubles);
        out->median_abs_error_pct = sorted_quantile(err, out->ntargets, 0.5);
        out->max_abs_error_pct = err[out->ntargets - 1];
    }
    if (out->nwith_interval > 0) {
        out->coverage = (double)out->ninside / (double)out->nwith_interval;
        out->mean_width_pct = width_sum / (double)out->nwith_interval;
    }
    if (nratio > 0) {
        qsort(ratio, nratio, sizeof *ratio, compare_doubles);
        out->median_width_ratio = sorted_quantile(ratio, nratio, 0.5);
        out->mean_interval_score = score_sum / (double)nratio;
    }
    free(err);
    free(ratio);
    return CALIBRATE_OK;
}

bool calibrate_regime_change(double e_top, double e_below, double noise)
{
    double top = fabs(e_top);
    if (!isfinite(top) || !isfinite(e_below))
        return false;
    return top >= CALIBRATE_REGIME_MIN_LOG_ERROR && top >= CALIBRATE_REGIME_RATIO * fabs(e_below) &&
           top >= CALIBRATE_REGIME_RATIO * sqrt(2.0) * (isfinite(noise) ? noise : 0);
}
