/*
 * costing.c — see costing.h.
 */
#include "models/costing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MB_PER_GB 1024.0

static const char *currency_of(const costing_cluster *c)
{
    return c->currency && *c->currency ? c->currency : "units";
}

bool costing_fits(double mem_mb, double mem_per_core_gb)
{
    if (!isfinite(mem_mb) || !isfinite(mem_per_core_gb))
        return false;
    return mem_mb <= mem_per_core_gb * MB_PER_GB * (1 + 1e-9);
}

/* The feasibility of one side; writes a reason when it is not COSTING_FITS. */
static costing_fit side_fit(const costing_side *s, char *reason, size_t len)
{
    const costing_cluster *c = s->cluster;
    if (!isfinite(s->mem_mb)) {
        snprintf(reason, len, "memory per process on %s is unknown", c->name);
        return COSTING_MEMORY_UNKNOWN;
    }
    if (!isfinite(c->mem_per_core_gb)) {
        snprintf(reason, len, "memory per core of %s is unknown", c->name);
        return COSTING_MEMORY_UNKNOWN;
    }
    if (costing_fits(s->mem_mb, c->mem_per_core_gb))
        return COSTING_FITS;
    snprintf(reason, len, "needs %.0f MB per process but %s has %.0f MB per core",
             s->mem_mb, c->name, c->mem_per_core_gb * MB_PER_GB);
    return COSTING_TOO_BIG;
}

/* Cost of all sides, or NAN with a reason when a rate or the currency
 * is not known or not common. */
static double total_cost(const costing_side *sides, size_t n, double time_s,
                         costing_result *out)
{
    double cost = 0;
    for (size_t i = 0; i < n; i++) {
        const costing_cluster *c = sides[i].cluster;
        if (!isfinite(c->rate_per_core_hour)) {
            snprintf(out->reason, sizeof out->reason, "the rate of %s is unknown", c->name);
            return NAN;
        }
        if (strcmp(currency_of(c), out->currency) != 0) {
            snprintf(out->reason, sizeof out->reason,
                     "the sides are charged in different currencies (%s, %s)",
                     out->currency, currency_of(c));
            return NAN;
        }
        cost += sides[i].np * time_s / 3600 * c->rate_per_core_hour;
    }
    return cost;
}

bool costing_evaluate(const costing_side *sides, size_t nsides, double time_s,
                      costing_result *out)
{
    memset(out, 0, sizeof *out);
    out->cost = NAN;
    out->core_hours = NAN;
    out->currency = "units";
    out->fit = COSTING_MEMORY_UNKNOWN;
    if (nsides == 0 || !isfinite(time_s) || time_s < 0) {
        snprintf(out->reason, sizeof out->reason, "no sides or no valid time to cost");
        return false;
    }
    for (size_t i = 0; i < nsides; i++)
        if (!sides[i].cluster || !isfinite(sides[i].np) || sides[i].np < 1) {
            snprintf(out->reason, sizeof out->reason, "side %zu has no cluster or np < 1", i + 1);
            return false;
        }
    out->currency = currency_of(sides[0].cluster);
    out->core_hours = 0;
    for (size_t i = 0; i < nsides; i++)
        out->core_hours += sides[i].np * time_s / 3600;
    out->cost = total_cost(sides, nsides, time_s, out);
    /* A memory verdict takes the reason over from a cost remark: the worst wins. */
    out->fit = COSTING_FITS;
    for (size_t i = 0; i < nsides && out->fit != COSTING_TOO_BIG; i++) {
        char why[sizeof out->reason];
        costing_fit f = side_fit(&sides[i], why, sizeof why);
        if (f == COSTING_TOO_BIG || (f == COSTING_MEMORY_UNKNOWN && out->fit == COSTING_FITS)) {
            out->fit = f;
            snprintf(out->reason, sizeof out->reason, "%s", why);
        }
    }
    return true;
}

double costing_mb_per_point(const double *work_mb, const double *points, size_t n)
{
    double wp = 0, pp = 0;
    for (size_t i = 0; i < n; i++) {
        wp += work_mb[i] * points[i];
        pp += points[i] * points[i];
    }
    return pp > 0 ? wp / pp : NAN;
}

/* Rows per process side s can hold for rows of length n. */
static double rows_capacity(const costing_side *s, double n, double mb_per_point)
{
    return floor(s->cluster->mem_per_core_gb * MB_PER_GB * (1 + 1e-9) / (mb_per_point * n));
}

double costing_largest_pow2(const costing_side *sides, size_t nsides, double mb_per_point,
                            double *rows_per_process)
{
    if (nsides == 0 || !(mb_per_point > 0))
        return 0;
    for (size_t i = 0; i < nsides; i++)
        if (!sides[i].cluster || !isfinite(sides[i].cluster->mem_per_core_gb) ||
            !(sides[i].np >= 1))
            return 0;
    for (int k = 30; k >= 1; k--) {
        double n = ldexp(1, k), capacity = 0;
        for (size_t i = 0; i < nsides; i++)
            capacity += sides[i].np * rows_capacity(&sides[i], n, mb_per_point);
        if (capacity < n)
            continue;
        for (size_t i = 0; rows_per_process && i < nsides; i++)
            rows_per_process[i] = rows_capacity(&sides[i], n, mb_per_point) * n / capacity;
        return n;
    }
    return 0;
}
