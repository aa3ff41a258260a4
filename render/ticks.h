/*
 * ticks.h — axis ranges and tick marks people can read: steps of 1, 2 or
 * 5 times a power of ten on linear axes, decades (or 1-2-5 within a
 * decade) on logarithmic axes, powers of two for processor counts.
 */
#ifndef PERFCAST_RENDER_TICKS_H
#define PERFCAST_RENDER_TICKS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    SCALE_LINEAR,
    SCALE_LOG10, /* times, costs: ticks at 1-2-5 or decades */
    SCALE_LOG2   /* processor counts: ticks at powers of two */
} axis_scale;

enum { TICKS_MAX = 24, TICK_LABEL_LEN = 24 };

typedef struct {
    axis_scale scale;
    double lo, hi;    /* the axis range; lo < hi, both > 0 on log scales */
    size_t n;         /* number of ticks, at least 2 */
    double at[TICKS_MAX];
    char label[TICKS_MAX][TICK_LABEL_LEN];
} axis_ticks;

/* The largest magnitude an axis reaches (and on log scales, 1/it the
 * smallest): beyond it, ratios of the range would overflow a double. */
#define TICKS_RANGE_MAX 1e100

/* Choose range and ticks covering [min, max] (min <= max, finite, and
 * positive on log scales), clamped to TICKS_RANGE_MAX as above: a value
 * beyond it (a time of 5e-324 s) lies off the axis rather than making it
 * NaN. Returns false when the bounds are unusable; when it returns true,
 * every tick and the range are finite, lo < hi, and hi / lo is finite on
 * log scales. */
bool ticks_compute(axis_scale scale, double min, double max, axis_ticks *out);

/* Put the ticks at the data's own values (the process counts 3, 6, 12,
 * 14 a reader looks for) instead of the computed ones: the distinct
 * finite values of v[0..n) inside [t->lo, t->hi], ascending, when there
 * are 2 to TICKS_MAX of them, and the range becomes their span (the first
 * and last tick at the ends, room for close labels); otherwise t is left
 * as it is. Returns whether the ticks were replaced. */
bool ticks_use_values(axis_ticks *t, const double *v, size_t n);

/* A short label: "0.05", "2", "1000", "2e+05" (no trailing zeros). */
void ticks_format(double v, char *out, size_t len);

#endif
