/*
 * meshrun.c — see meshrun.h.
 */
#include "models/meshrun.h"

#include "models/costing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool mesh_same_size(double a, double b)
{
    return isfinite(a) && isfinite(b) && fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

bool mesh_same_work(double a, double b, double tol)
{
    return isfinite(a) && isfinite(b) && fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

const char *mesh_match_text(mesh_match m)
{
    switch (m) {
    case MESH_EXACT: return "exact per-process mesh";
    case MESH_SAME_WORK: return "same work, different mesh";
    case MESH_INTERPOLATED: return "interpolated in work";
    case MESH_EXTRAPOLATED: return "extrapolated in work";
    case MESH_SCALED: return "scaled in proportion to work from a single run";
    case MESH_NONE: return "no usable run";
    }
    return "?";
}

void mesh_match_pair_text(mesh_match a, mesh_match b, char *buf, size_t len)
{
    if (a == b)
        snprintf(buf, len, "%s on both sides", mesh_match_text(a));
    else
        snprintf(buf, len, "%s on A, %s on B", mesh_match_text(a), mesh_match_text(b));
}

/* Does run r repeat run first (the first run of a configuration)? */
static bool same_config(const mesh_run *r, const mesh_run *first, double tol)
{
    if (r->npa != first->npa || r->npb != first->npb)
        return false;
    bool mesh_known = isfinite(r->pa) && isfinite(r->pb);
    if (mesh_known != (isfinite(first->pa) && isfinite(first->pb)))
        return false;
    if (mesh_known)
        return mesh_same_size(r->pa, first->pa) && mesh_same_size(r->pb, first->pb);
    return mesh_same_work(r->work_mb, first->work_mb, tol);
}

static bool run_valid(const mesh_run *r)
{
    return isfinite(r->time_s) && r->time_s > 0 && isfinite(r->npa) && r->npa >= 1 &&
           isfinite(r->npb) && r->npb >= 1;
}

/* Mean time, spread and mean work of the runs of configuration k. */
static void summarise(const mesh_run *runs, const mesh_configs *cs, size_t k)
{
    mesh_config *c = &cs->configs[k];
    double sum = 0, lo = INFINITY, hi = -INFINITY, work = 0;
    size_t nwork = 0;
    for (size_t i = 0; i < cs->nruns; i++) {
        if (cs->config_of[i] != k)
            continue;
        const mesh_run *r = &runs[i];
        if (c->reps++ == 0) {
            c->npa = r->npa;
            c->npb = r->npb;
            c->pa = r->pa;
            c->pb = r->pb;
        }
        sum += r->time_s;
        lo = fmin(lo, r->time_s);
        hi = fmax(hi, r->time_s);
        if (isfinite(r->work_mb)) {
            work += r->work_mb;
            nwork++;
        }
    }
    c->time_s = sum / (double)c->reps;
    c->spread_pct = 100 * (hi - lo) / c->time_s;
    c->work_mb = nwork ? work / (double)nwork : NAN;
}

bool mesh_configs_build(const mesh_run *runs, size_t n, double work_tol, mesh_configs *out)
{
    memset(out, 0, sizeof *out);
    out->work_tol = work_tol;
    for (size_t i = 0; i < n; i++)
        if (!run_valid(&runs[i]))
            return false;
    out->configs = calloc(n ? n : 1, sizeof *out->configs);
    out->config_of = calloc(n ? n : 1, sizeof *out->config_of);
    size_t *first = malloc(sizeof *first * (n ? n : 1)); /* first run of each config */
    if (!out->configs || !out->config_of || !first) {
        free(first);
        mesh_configs_free(out);
        return false;
    }
    out->nruns = n;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < out->nconfigs && !same_config(&runs[i], &runs[first[k]], work_tol))
            k++;
        if (k == out->nconfigs)
            first[out->nconfigs++] = i;
        out->config_of[i] = k;
    }
    free(first);
    for (size_t k = 0; k < out->nconfigs; k++)
        summarise(runs, out, k);
    return true;
}

void mesh_configs_free(mesh_configs *c)
{
    free(c->configs);
    free(c->config_of);
    memset(c, 0, sizeof *c);
}
static bool on_grid(const mesh_config *c, double npa, double npb)
{
    return c->npa == npa && c->npb == npb;
}

/* The configuration of the grid whose work is within tol of work, closest first. */
static const mesh_config *closest_work(const mesh_configs *cs, double npa, double npb,
                                       double work)
{
    const mesh_config *best = NULL;
    for (size_t k = 0; k < cs->nconfigs; k++) {
        const mesh_config *c = &cs->configs[k];
        if (on_grid(c, npa, npb) && mesh_same_work(c->work_mb, work, cs->work_tol) &&
            (!best || fabs(c->work_mb - work) < fabs(best->work_mb - work)))
            best = c;
    }
    return best;
}

/* Time at work on the straight line through configurations a and b. */
static double along(const mesh_config *a, const mesh_config *b, double work)
{
    if (a->work_mb == b->work_mb)
        return (a->time_s + b->time_s) / 2;
    double slope = (b->time_s - a->time_s) / (b->work_mb - a->work_mb);
    return a->time_s + slope * (work - a->work_mb);
}

/* The configurations with a known work on the grid: the nearest below and
 * above work, the two smallest and the two largest distinct works. */
typedef struct {
    const mesh_config *below, *above, *min1, *min2, *max1, *max2;
    size_t count;
} work_neighbours;

static void keep_extremes(work_neighbours *nb, const mesh_config *c)
{
    if (!nb->min1 || c->work_mb < nb->min1->work_mb) {
        if (!nb->min1 || nb->min1->work_mb != c->work_mb)
            nb->min2 = nb->min1;
        nb->min1 = c;
    } else if (c->work_mb > nb->min1->work_mb && (!nb->min2 || c->work_mb < nb->min2->work_mb)) {
        nb->min2 = c;
    }
    if (!nb->max1 || c->work_mb > nb->max1->work_mb) {
        if (!nb->max1 || nb->max1->work_mb != c->work_mb)
            nb->max2 = nb->max1;
        nb->max1 = c;
    } else if (c->work_mb < nb->max1->work_mb && (!nb->max2 || c->work_mb > nb->max2->work_mb)) {
        nb->max2 = c;
    }
}

static work_neighbours find_neighbours(const mesh_configs *cs, double npa, double npb,
                                       double work)
{
    work_neighbours nb = {0};
    for (size_t k = 0; k < cs->nconfigs; k++) {
        const mesh_config *c = &cs->configs[k];
        if (!on_grid(c, npa, npb) || !isfinite(c->work_mb))
            continue;
        nb.count++;
        if (c->work_mb <= work && (!nb.below || c->work_mb > nb.below->work_mb))
            nb.below = c;
        if (c->work_mb >= work && (!nb.above || c->work_mb < nb.above->work_mb))
            nb.above = c;
        keep_extremes(&nb, c);
    }
    return nb;
}

/* Interpolate (or extrapolate, or scale) the time at work. */
static mesh_match interpolate(const mesh_configs *cs, double npa, double npb, double work,
                              double *time)
{
    work_neighbours nb = find_neighbours(cs, npa, npb, work);
    if (nb.count == 0 || !(work > 0))
        return MESH_NONE;
    if (nb.below && nb.above) {
        *time = along(nb.below, nb.above, work);
        return MESH_INTERPOLATED;
    }
    const mesh_config *near = nb.below ? nb.max1 : nb.min1;
    const mesh_config *next = nb.below ? nb.max2 : nb.min2;
    if (next) {
        *time = along(near, next, work);
        if (*time > 0)
            return MESH_EXTRAPOLATED;
    }
    /* One work level only, or a line that would give a non-positive time:
     * multigrid work is proportional to the mesh, so scale. */
    *time = near->time_s * work / near->work_mb;
    return MESH_SCALED;
}

mesh_match mesh_lookup_time(const mesh_configs *cs, double npa, double npb,
                            double pa, double pb, double work_mb, double mb_per_point,
                            bool allow_interpolation, mesh_lookup *out)
{
    memset(out, 0, sizeof *out);
    out->match = MESH_NONE;
    out->time_s = NAN;
    out->work_mb = NAN;
    for (size_t k = 0; k < cs->nconfigs; k++) {
        const mesh_config *c = &cs->configs[k];
        if (on_grid(c, npa, npb) && mesh_same_size(c->pa, pa) && mesh_same_size(c->pb, pb)) {
            out->config = c;
            out->match = MESH_EXACT;
            out->time_s = c->time_s;
            out->work_mb = isfinite(c->work_mb) ? c->work_mb : work_mb;
            return out->match;
        }
    }
    double work = isfinite(work_mb) ? work_mb : mb_per_point * pa * pb;
    if (!isfinite(work))
        return MESH_NONE;
    const mesh_config *c = closest_work(cs, npa, npb, work);
    if (c) {
        out->config = c;
        out->match = MESH_SAME_WORK;
        out->time_s = c->time_s;
        out->work_mb = c->work_mb;
        return out->match;
    }
    if (!allow_interpolation)
        return MESH_NONE;
    out->match = interpolate(cs, npa, npb, work, &out->time_s);
    out->work_mb = out->match == MESH_NONE ? NAN : work;
    return out->match;
}

double mesh_mb_per_point(const mesh_configs *cs)
{
    size_t n = 0;
    double *buf = malloc(sizeof(double) * 2 * (cs->nconfigs ? cs->nconfigs : 1));
    if (!buf)
        return NAN;
    for (size_t k = 0; k < cs->nconfigs; k++) {
        const mesh_config *c = &cs->configs[k];
        if (isfinite(c->work_mb) && isfinite(c->pa) && isfinite(c->pb)) {
            buf[n] = c->work_mb;
            buf[cs->nconfigs + n] = c->pa * c->pb;
            n++;
        }
    }
    double v = costing_mb_per_point(buf, buf + cs->nconfigs, n);
    free(buf);
    return v;
}
