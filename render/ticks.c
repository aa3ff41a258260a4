/*
 * ticks.c — tick selection for ticks.h.
 */
#include "render/ticks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ticks_format(double v, char *out, size_t len)
{
    if (fabs(v) < 1e-12)
        v = 0; /* no "-0" and no "1e-17" for a zero made by rounding */
    double a = fabs(v);
    if (a != 0 && (a >= 1e6 || a < 1e-4))
        snprintf(out, len, "%.3g", v);
    else
        snprintf(out, len, "%.6g", v);
}

static void add_tick(axis_ticks *t, double v)
{
    if (t->n < TICKS_MAX) {
        t->at[t->n] = v;
        ticks_format(v, t->label[t->n], TICK_LABEL_LEN);
        t->n++;
    }
}

/* The 1-2-5 step giving about `want` intervals over span. */
static double nice_step(double span, int want)
{
    double raw = span / want;
    double mag = pow(10, floor(log10(raw)));
    static const double factors[] = {1, 2, 5, 10};
    for (size_t i = 0; i < 4; i++)
        if (factors[i] * mag >= raw * 0.999)
            return factors[i] * mag;
    return 10 * mag;
}

static bool linear_ticks(double min, double max, axis_ticks *t)
{
    if (max - min < 1e-12 * fmax(1, fabs(max))) {
        /* One value: a tenth of it either side, or +-1 around a value so
         * close to zero that a tenth of it would underflow. */
        double pad = fabs(min) > 1 / TICKS_RANGE_MAX ? fabs(min) * 0.1 : 1;
        min -= pad;
        max += pad;
    }
    double step = nice_step(max - min, 5);
    double first = floor(min / step + 1e-9), last = ceil(max / step - 1e-9);
    t->lo = first * step;
    t->hi = last * step;
    for (double k = first; k <= last + 0.5; k++)
        add_tick(t, k * step);
    return t->n >= 2;
}

/* Ticks at m * 10^d for the multipliers m, from the largest such value
 * <= min to the smallest >= max. */
static void log_multiplier_ticks(double min, double max, const double *mult, size_t nmult,
                                 axis_ticks *t)
{
    t->n = 0;
    double lo = NAN, hi = NAN;
    for (int d = (int)floor(log10(min)) - 1; d <= (int)ceil(log10(max)) + 1; d++) {
        for (size_t i = 0; i < nmult; i++) {
            double v = mult[i] * pow(10, d);
            if (v <= min * (1 + 1e-9))
                lo = v;
            if (v >= max * (1 - 1e-9) && isnan(hi))
                hi = v;
        }
    }
    t->lo = lo;
    t->hi = hi;
    for (int d = (int)floor(log10(lo)) - 1; d <= (int)ceil(log10(hi)) + 1; d++)
        for (size_t i = 0; i < nmult; i++) {
            double v = mult[i] * pow(10, d);
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
                add_tick(t, v);
        }
}

static bool log10_ticks(double min, double max, axis_ticks *t)
{
    if (max / min < 1.0001) {
        min /= 2;
        max *= 2;
    }
    static const double one_two_five[] = {1, 2, 5};
    static const double all[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    log_multiplier_ticks(min, max, one_two_five, 3, t);
    if (t->n >= 3 && t->n <= 10)
        return true;
    if (t->n > 10) {
        /* Wide: decades, every few decades beyond about 8 of them. */
        int d0 = (int)floor(log10(min) + 1e-9), d1 = (int)ceil(log10(max) - 1e-9);
        int every = (d1 - d0 + 7) / 8;
        d0 = (int)(floor((double)d0 / every) * every);
        d1 = (int)(ceil((double)d1 / every) * every);
        t->n = 0;
        t->lo = pow(10, d0);
        t->hi = pow(10, d1);
        for (int d = d0; d <= d1; d += every)
            add_tick(t, pow(10, d));
        return true;
    }
    log_multiplier_ticks(min, max, all, 9, t);
    if (t->n >= 3)
        return true;
    /* A narrow range: linear steps look right and read better. */
    t->n = 0;
    return linear_ticks(min, max, t) && t->lo > 0;
}

static bool log2_ticks(double min, double max, axis_ticks *t)
{
    double e0 = floor(log2(min) + 1e-9), e1 = ceil(log2(max) - 1e-9);
    if (e1 <= e0) {
        e0 -= 1;
        e1 += 1;
    }
    int every = (int)ceil((e1 - e0) / 10); /* at most about 10 labels */
    e0 = floor(e0 / every) * every;
    e1 = ceil(e1 / every) * every;
    t->lo = exp2(e0);
    t->hi = exp2(e1);
    for (double e = e0; e <= e1 + 0.5; e += every)
        add_tick(t, exp2(e));
    return true;
}

/* v brought into [-TICKS_RANGE_MAX, TICKS_RANGE_MAX]; on log scales into
 * [1 / TICKS_RANGE_MAX, TICKS_RANGE_MAX]. */
static double clamp_to_range(axis_scale scale, double v)
{
    double lo = scale == SCALE_LINEAR ? -TICKS_RANGE_MAX : 1 / TICKS_RANGE_MAX;
    return fmin(fmax(v, lo), TICKS_RANGE_MAX);
}

/* Every tick, the range and its ratio finite (and positive on log
 * scales), so that no caller can turn them into NaN or infinity. */
static bool ticks_usable(const axis_ticks *t)
{
    bool ok = t->n >= 2 && isfinite(t->lo) && isfinite(t->hi) && t->lo < t->hi &&
              (t->scale == SCALE_LINEAR || (t->lo > 0 && isfinite(t->hi / t->lo)));
    for (size_t i = 0; ok && i < t->n; i++)
        ok = isfinite(t->at[i]);
    return ok;
}

bool ticks_compute(axis_scale scale, double min, double max, axis_ticks *out)
{
    memset(out, 0, sizeof *out);
    out->scale = scale;
    if (!isfinite(min) || !isfinite(max) || min > max)
        return false;
    if (scale != SCALE_LINEAR && min <= 0)
        return false;
    min = clamp_to_range(scale, min);
    max = clamp_to_range(scale, max);
    bool ok = false;
    switch (scale) {
    case SCALE_LINEAR: ok = linear_ticks(min, max, out); break;
    case SCALE_LOG10: ok = log10_ticks(min, max, out); break;
    case SCALE_LOG2: ok = log2_ticks(min, max, out); break;
    }
    return ok && ticks_usable(out);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

bool ticks_use_values(axis_ticks *t, const double *v, size_t n)
{
    double keep[TICKS_MAX];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i]) || v[i] < t->lo || v[i] > t->hi)
            continue;
        bool seen = false;
        for (size_t j = 0; j < k && !seen; j++)
            seen = keep[j] == v[i];
        if (seen)
            continue;
        if (k == TICKS_MAX)
            return false; /* too many to label: the computed ticks stay */
        keep[k++] = v[i];
    }
    if (k < 2)
        return false;
    qsort(keep, k, sizeof *keep, compare_doubles);
    t->lo = keep[0];
    t->hi = keep[k - 1];
    t->n = 0;
    for (size_t i = 0; i < k; i++)
        add_tick(t, keep[i]);
    return true;
}
