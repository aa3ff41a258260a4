/*
 * block.c — see block.h.
 */
#include "models/block.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Neighbour exchanges per V(2,2) cycle on each level but the coarsest, as
 * counted from mgbench's staged driver (pass.c run_staged, solver.c
 * vcycle): 4 halos before the pre-smoothing half-sweeps after the first
 * and the residual stage, 1 of the residual before the restriction, 4
 * before the post-smoothing half-sweeps, and the norm's (level 0) or the
 * coarse correction's halo (the coarser levels); the coarsest is gathered,
 * not exchanged. The strip's count in models/multicluster.h is the same. */
enum { EXCHANGES_PER_LEVEL = 10 };

/* Of those, the exchanges with corners (comm.c mgb_exchange_halo): the
 * residual's before the restriction and the coarse correction's. On a grid
 * with neighbours both ways they wait for the columns, then for the rows:
 * two latencies in a row, where the other exchanges wait for both at once. */
enum { CORNER_EXCHANGES = 2 };

const char *block_status_text(block_status s, overhead_status law_status)
{
    switch (s) {
    case BLOCK_OK: return "ok";
    case BLOCK_NOMEM: return "out of memory";
    case BLOCK_BAD_INPUT:
        return "a training run has a non-positive time or process grid, or the target "
               "grid or mesh is not positive";
    case BLOCK_NO_22: return "no run on the (2,2) process grid: T(2,2) cannot be measured";
    case BLOCK_NO_STRIPS_A:
        return "no (np,1) strip run with np > 2 has a (2,1) run at the same per-process "
               "mesh, so Ta cannot be measured";
    case BLOCK_NO_STRIPS_B:
        return "no (1,np) strip run with np > 2 has a (1,2) run at the same per-process "
               "mesh, so Tb cannot be measured";
    case BLOCK_OVERHEAD_A:
    case BLOCK_OVERHEAD_B: return overhead_status_text(law_status);
    }
    return "unknown error";
}

/* Direction a uses (np,1) grids and messages of length pb; b the transpose. */
typedef struct {
    bool along_a;
} direction;

static double dir_np(direction d, const mesh_config *c)
{
    if (d.along_a)
        return c->npb == 1 ? c->npa : 0;
    return c->npa == 1 ? c->npb : 0;
}

static double dir_msg(direction d, double pa, double pb)
{
    return d.along_a ? pb : pa;
}

static bool np_wanted(const block_options *opt, double np)
{
    if (np <= 2)
        return false;
    if (!opt->nps)
        return true;
    for (size_t i = 0; i < opt->nnps; i++)
        if (opt->nps[i] == np)
            return true;
    return false;
}

/* Tcomp1 x (factor(ppn) - 1) of a configuration of per-process mesh
 * pa x pb: the time its processes lose to one another on the node's bus;
 * 0 below saturation. *measured is false when the law would slow it but
 * no sequential run gives Tcomp1 (0 is returned then). */
static double contention_excess(const block_model *m, double ppn, double pa, double pb,
                                double work_mb, bool *measured)
{
    double f = contention_factor(&m->contention, ppn);
    mesh_lookup one;
    *measured = true;
    if (f == 1)
        return 0;
    if (mesh_lookup_time(&m->configs, 1, 1, pa, pb, work_mb, m->mb_per_point, true, &one) ==
        MESH_NONE) {
        *measured = false;
        return 0;
    }
    return one.time_s * (f - 1);
}

/* A route time that is unknown (NAN: the configuration's ppn) is not
 * taken off; block_predict_network says so (network_unknown). */
static double route_or_zero(double route_s)
{
    return isfinite(route_s) ? route_s : 0;
}

/* Configuration k's time without its contention excess and route time. */
static double uncrowded_time(block_model *m, size_t k)
{
    const mesh_config *c = &m->configs.configs[k];
    bool measured;
    double excess = contention_excess(m, m->config_ppn[k], c->pa, c->pb, c->work_mb, &measured);
    m->contention_unmeasured += !measured;
    return c->time_s - excess - route_or_zero(m->config_route_s[k]);
}

/* The time an npa x npb grid of pa x pb meshes at ppn processes per node
 * spends in route latency (NETWORK TERM in block.h): per cycle and level
 * but the coarsest, each exchange waits for its slowest neighbour route,
 * each message's latency times SMPI's factor for its size (a-messages are
 * rows of pb / 2^l doubles, b-messages columns of pa / 2^l); the corner
 * exchanges wait for the two directions in a row. NAN when the ppn or the
 * cycles are unknown. */
static double route_time(const block_network *net, double npa, double npb, double pa,
                         double pb, double ppn)
{
    double la, lb;
    if (!(net->cycles > 0) ||
        !topology_grid_directions(&net->topo, &net->lat, npa, npb, ppn, &la, &lb))
        return NAN;
    bool two_phases = npa > 1 && npb > 1;
    int levels = block_levels(npa, npb, pa, pb);
    double per_cycle = 0, scale = 1;
    for (int l = 0; l + 1 < levels; l++, scale *= 2) {
        double ea = la * topology_smpi_latency_factor(8 * pb / scale);
        double eb = lb * topology_smpi_latency_factor(8 * pa / scale);
        per_cycle += two_phases ? CORNER_EXCHANGES * (ea + eb) +
                                      (EXCHANGES_PER_LEVEL - CORNER_EXCHANGES) * fmax(ea, eb)
                                : EXCHANGES_PER_LEVEL * fmax(ea, eb);
    }
    return net->cycles * per_cycle;
}

/* Each configuration's route time, to be taken off before the differences:
 * all 0 without a network, NAN where its ppn is unknown. False when out of
 * memory. */
static bool config_routes(block_model *m, const block_network *net)
{
    size_t n = m->configs.nconfigs;
    m->config_route_s = calloc(n ? n : 1, sizeof *m->config_route_s);
    if (!m->config_route_s)
        return false;
    m->has_network = net != NULL;
    if (!net)
        return true;
    m->network = *net;
    for (size_t k = 0; k < n; k++) {
        const mesh_config *c = &m->configs.configs[k];
        m->config_route_s[k] = route_time(net, c->npa, c->npb, c->pa, c->pb, m->config_ppn[k]);
    }
    return true;
}

/* The (2,1) or (1,2) configuration at c's per-process mesh (or work). */
static const mesh_config *base_of(const mesh_configs *cs, direction d, const mesh_config *c)
{
    mesh_lookup base;
    mesh_lookup_time(cs, d.along_a ? 2 : 1, d.along_a ? 1 : 2, c->pa, c->pb, c->work_mb, NAN,
                     false, &base);
    return base.config;
}

static bool any_strip_with_msg(const mesh_configs *cs, const block_options *opt, direction d,
                               double msg)
{
    for (size_t k = 0; k < cs->nconfigs; k++) {
        const mesh_config *c = &cs->configs[k];
        if (np_wanted(opt, dir_np(d, c)) && mesh_same_size(dir_msg(d, c->pa, c->pb), msg))
            return true;
    }
    return false;
}

/* Differences T(np,1) - T(2,1) of one direction (step 2). pair records the
 * two configurations of each point. */
static size_t direction_points(block_model *m, const block_options *opt, direction d,
                               double msg, block_direction *bd, overhead_point *pts,
                               size_t *pair)
{
    const mesh_configs *cs = &m->configs;
    bool by_msg = any_strip_with_msg(cs, opt, d, msg);
    bd->msg_len_fallback = !by_msg;
    size_t n = 0;
    for (size_t k = 0; k < cs->nconfigs; k++) {
        const mesh_config *c = &cs->configs[k];
        double np = dir_np(d, c);
        if (!np_wanted(opt, np))
            continue;
        if (by_msg && !mesh_same_size(dir_msg(d, c->pa, c->pb), msg)) {
            bd->nother_msg++;
            continue;
        }
        const mesh_config *base = base_of(cs, d, c);
        double work = isfinite(c->work_mb) ? c->work_mb : base ? base->work_mb : NAN;
        if (!base || !isfinite(work)) {
            bd->nunmatched++;
            continue;
        }
        size_t kb = (size_t)(base - cs->configs);
        pts[n] = (overhead_point){np, work, uncrowded_time(m, k) - uncrowded_time(m, kb)};
        pair[2 * n] = k;
        pair[2 * n + 1] = kb;
        n++;
    }
    bd->npoints = n;
    return n;
}

static void mark_used(block_model *m, const block_direction *bd, const overhead_point *pts,
                      const size_t *pair, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t l = 0; l < bd->law.nlines; l++)
            if (bd->law.lines[l].np == pts[i].np)
                for (int j = 0; j < 2; j++) {
                    mesh_config *c = &m->configs.configs[pair[2 * i + j]];
                    c->used = true;
                    m->max_spread_pct = fmax(m->max_spread_pct, c->spread_pct);
                }
}

/* Fit one direction's law when the target needs it. */
static block_status fit_direction(block_model *m, const block_options *opt, direction d,
                                  double msg, block_direction *bd, overhead_status *ls)
{
    if (!bd->needed)
        return BLOCK_OK;
    size_t cap = m->configs.nconfigs ? m->configs.nconfigs : 1;
    overhead_point *pts = malloc(sizeof *pts * cap);
    size_t *pair = malloc(sizeof *pair * 2 * cap);
    block_status s = BLOCK_NOMEM;
    if (pts && pair) {
        size_t n = direction_points(m, opt, d, msg, bd, pts, pair);
        if (n == 0) {
            s = d.along_a ? BLOCK_NO_STRIPS_A : BLOCK_NO_STRIPS_B;
        } else if ((*ls = overhead_fit_steps(pts, n, 2, opt->law, opt->places, opt->nplaces,
                                             &bd->law)) != OVERHEAD_OK) {
            s = *ls == OVERHEAD_NOMEM ? BLOCK_NOMEM
                : d.along_a ? BLOCK_OVERHEAD_A : BLOCK_OVERHEAD_B;
        } else {
            s = BLOCK_OK;
            mark_used(m, bd, pts, pair, n);
        }
    }
    free(pts);
    free(pair);
    return s;
}

/* The job's process count term reads both directions' lines: fit the one
 * the target does not need too, where its strips allow (a direction
 * without strips is left out of the term, not an error). */
static block_status fit_growth_directions(block_model *m, const block_options *opt,
                                          const block_target *t)
{
    for (int k = 0; k < 2; k++) {
        direction d = {k == 0};
        block_direction *bd = d.along_a ? &m->a : &m->b;
        if (bd->needed)
            continue;
        overhead_status ls;
        bd->needed = true;
        block_status s = fit_direction(m, opt, d, d.along_a ? t->pb : t->pa, bd, &ls);
        if (s == BLOCK_NOMEM)
            return s;
        if (s != BLOCK_OK) {
            overhead_law_free(&bd->law);
            *bd = (block_direction){0};
        }
    }
    return BLOCK_OK;
}

/* Step 1's (2,2) run at the target's mesh enters the prediction: flag it. */
static void mark_reference(block_model *m, const block_target *t)
{
    mesh_lookup ref;
    if (mesh_lookup_time(&m->configs, 2, 2, t->pa, t->pb, t->work_mb, NAN, false, &ref) !=
        MESH_NONE) {
        mesh_config *c = &m->configs.configs[ref.config - m->configs.configs];
        c->used = true;
        m->max_spread_pct = fmax(m->max_spread_pct, c->spread_pct);
    }
}

static bool has_grid(const mesh_configs *cs, double npa, double npb)
{
    for (size_t k = 0; k < cs->nconfigs; k++)
        if (cs->configs[k].npa == npa && cs->configs[k].npb == npb)
            return true;
    return false;
}

static bool target_valid(const block_target *t)
{
    return t->npa >= 1 && t->npb >= 1 && t->pa > 0 && t->pb > 0 && isfinite(t->npa) &&
           isfinite(t->npb) && isfinite(t->pa) && isfinite(t->pb);
}

block_status block_fit(const mesh_run *runs, size_t n, const block_options *opt,
                       const block_target *t, block_model *out, overhead_status *law_status)
{
    contention_law none = contention_none();
    return block_fit_contended(runs, NULL, n, opt, &none, t, out, law_status);
}

block_status block_fit_contended(const mesh_run *runs, const double *ppn, size_t n,
                                 const block_options *opt, const contention_law *law,
                                 const block_target *t, block_model *out,
                                 overhead_status *law_status)
{
    memset(out, 0, sizeof *out);
    overhead_status ls = OVERHEAD_OK;
    block_status s;
    if (!target_valid(t)) {
        s = BLOCK_BAD_INPUT;
    } else if (!mesh_configs_build(runs, n, opt->work_tol, &out->configs)) {
        bool valid = true;
        for (size_t i = 0; i < n; i++)
            valid = valid && runs[i].time_s > 0 && runs[i].npa >= 1 && runs[i].npb >= 1 &&
                    isfinite(runs[i].time_s);
        s = valid ? BLOCK_NOMEM : BLOCK_BAD_INPUT;
    } else if (!(out->config_ppn = malloc(sizeof *out->config_ppn *
                                          (out->configs.nconfigs ? out->configs.nconfigs : 1)))) {
        s = BLOCK_NOMEM;
    } else if (!has_grid(&out->configs, 2, 2)) {
        s = BLOCK_NO_22;
    } else {
        contention_config_ppn(&out->configs, ppn, out->config_ppn);
        out->contention = *law;
        out->mb_per_point = mesh_mb_per_point(&out->configs);
        out->work_tol = opt->work_tol;
        out->job_np = opt->job_np;
        out->between_law = opt->between_law;
        s = config_routes(out, opt->network) ? BLOCK_OK : BLOCK_NOMEM;
        out->a.needed = t->npa > 2;
        out->b.needed = t->npb > 2;
        if (s == BLOCK_OK)
            s = fit_direction(out, opt, (direction){true}, t->pb, &out->a, &ls);
        if (s == BLOCK_OK)
            s = fit_direction(out, opt, (direction){false}, t->pa, &out->b, &ls);
        if (s == BLOCK_OK && opt->job_np && t->npa * t->npb > fmax(t->npa, t->npb))
            s = fit_growth_directions(out, opt, t);
        mark_reference(out, t);
    }
    if (law_status)
        *law_status = ls;
    if (s != BLOCK_OK)
        block_model_free(out);
    return s;
}

void block_model_free(block_model *m)
{
    mesh_configs_free(&m->configs);
    overhead_law_free(&m->a.law);
    overhead_law_free(&m->b.law);
    free(m->config_ppn);
    free(m->config_route_s);
    memset(m, 0, sizeof *m);
}

/* np = 1 along direction d: T(1,1) - T(2,1) (or T(1,1) - T(1,2)) at the
 * target's per-process mesh when both were run, else 0 assumed. */
static double single_process_overhead(const block_model *m, direction d, const block_target *t,
                                      block_term *source)
{
    mesh_lookup one, two;
    if (mesh_lookup_time(&m->configs, 1, 1, t->pa, t->pb, t->work_mb, NAN, false, &one) ==
            MESH_EXACT &&
        mesh_lookup_time(&m->configs, d.along_a ? 2 : 1, d.along_a ? 1 : 2, t->pa, t->pb,
                         t->work_mb, NAN, false, &two) == MESH_EXACT) {
        *source = BLOCK_TERM_MEASURED_ONE;
        return one.time_s - two.time_s;
    }
    *source = BLOCK_TERM_ASSUMED_ZERO;
    return 0;
}

/* One direction's strip overhead at np processes from its measured lines
 * (step 3) at `work`: 0 at 2 processes (the definition), linear in log2 np
 * between measured np, the largest measured np's beyond it. NAN without
 * lines. */
static double measured_overhead(const overhead_law *law, double np, double work)
{
    if (law->nlines == 0)
        return NAN;
    double lo_np = 2, lo = 0;
    for (size_t i = 0; i < law->nlines; i++) {
        const overhead_line *l = &law->lines[i];
        double v = l->alpha + l->gamma * work;
        if (np <= l->np) {
            if (np <= lo_np)
                return lo;
            return lo + (v - lo) * (log2(np) - log2(lo_np)) / (log2(l->np) - log2(lo_np));
        }
        lo_np = l->np, lo = v;
    }
    return lo;
}

/* Ta or Tb (step 5) and where it came from. */
static double direction_overhead(const block_model *m, direction d, const block_target *t,
                                 double work, block_term *source, bool *extra)
{
    const block_direction *bd = d.along_a ? &m->a : &m->b;
    double np = d.along_a ? t->npa : t->npb;
    if (np <= 1)
        return single_process_overhead(m, d, t, source);
    if (np <= 2) {
        *source = BLOCK_TERM_DEFINITION;
        return 0;
    }
    const overhead_line *line = overhead_line_of(&bd->law, np);
    if (line) {
        *source = BLOCK_TERM_LINE;
        double tol = fmax(m->work_tol, 1e-9);
        *extra = *extra || work < line->work_min * (1 - tol) || work > line->work_max * (1 + tol);
        return line->alpha + line->gamma * work;
    }
    /* No line of its own, above 2: between two measured process counts
     * while a line lies above it (BETWEEN MEASURED PROCESS COUNTS). */
    size_t nlines = bd->law.nlines;
    if (!m->between_law && nlines > 0 && np < bd->law.lines[nlines - 1].np) {
        *source = BLOCK_TERM_BETWEEN;
        *extra = *extra || overhead_work_outside(&bd->law, work, m->work_tol);
        return measured_overhead(&bd->law, np, work);
    }
    *source = BLOCK_TERM_LAW;
    *extra = *extra || np > bd->law.np_max || overhead_work_outside(&bd->law, work, m->work_tol) ||
             overhead_step_beyond(&bd->law, np);
    return overhead_eval(&bd->law, np, work);
}

/* The route time of T(2,2) (or of a strip's base, the grid base):
 * its configuration's (kref), or, where T(2,2) was
 * interpolated or scaled in work, the same lookup on the configurations'
 * route times (the lookups are linear in the times, so this takes off
 * exactly the route time the looked-up T(2,2) holds). 0 without a network;
 * NAN when unknown or out of memory. */
static double t22_route(const block_model *m, const block_target *t, const double base[2],
                        size_t kref)
{
    if (!m->has_network)
        return 0;
    if (kref != SIZE_MAX)
        return m->config_route_s[kref];
    mesh_configs routes = m->configs;
    size_t n = m->configs.nconfigs;
    routes.configs = malloc(sizeof *routes.configs * (n ? n : 1));
    if (!routes.configs)
        return NAN;
    for (size_t k = 0; k < n; k++) {
        routes.configs[k] = m->configs.configs[k];
        routes.configs[k].time_s = m->config_route_s[k];
    }
    mesh_lookup r;
    mesh_lookup_time(&routes, base[0], base[1], t->pa, t->pb, t->work_mb, m->mb_per_point, true,
                     &r);
    free(routes.configs);
    return r.time_s;
}

/* Whether t is a strip along a (along_b false: npa >= 2, npb = 1) or
 * along b: its own base T(2,1) or T(1,2) replaces T(2,2) (block.h,
 * STRIP TARGETS). */
static bool strip_along(const block_target *t, bool along_b)
{
    double along = along_b ? t->npb : t->npa, across = along_b ? t->npa : t->npb;
    return along >= 2 && across == 1;
}

/* The single-process side of a strip: its base has one process there too. */
static double strip_side(block_term *source)
{
    *source = BLOCK_TERM_STRIP_SIDE;
    return 0;
}

/* The reference time of step 1: T(2,2), or a strip's own base T(2,1)
 * (T(1,2)) where a run of it at the target's per-process mesh can be had;
 * base gets the reference's grid. False when none can be had. */
static bool reference_time(const block_model *m, const block_target *t, double base[2],
                           mesh_lookup *ref)
{
    base[0] = strip_along(t, true) ? 1 : 2;
    base[1] = strip_along(t, false) ? 1 : 2;
    if (base[0] * base[1] == 2 &&
        mesh_lookup_time(&m->configs, base[0], base[1], t->pa, t->pb, t->work_mb,
                         m->mb_per_point, true, ref) != MESH_NONE)
        return true;
    base[0] = base[1] = 2;
    return mesh_lookup_time(&m->configs, 2, 2, t->pa, t->pb, t->work_mb, m->mb_per_point, true,
                            ref) != MESH_NONE;
}

static block_dominant dominant_of(double ta, double tb, const block_target *t)
{
    if (t->npa <= 2 && t->npb <= 2)
        return BLOCK_DOMINANT_NONE;
    if (fabs(ta - tb) <= 1e-9 * fmax(fabs(ta), fabs(tb)))
        return BLOCK_DOMINANT_TIE;
    return ta > tb ? BLOCK_DOMINANT_A : BLOCK_DOMINANT_B;
}

bool block_predict(const block_model *m, const block_target *t, block_prediction *out)
{
    return block_predict_contended(m, t, NAN, out);
}

bool block_predict_contended(const block_model *m, const block_target *t, double ppn,
                             block_prediction *out)
{
    memset(out, 0, sizeof *out);
    mesh_lookup ref;
    double base[2];
    if (!target_valid(t) || !reference_time(m, t, base, &ref))
        return false;
    out->strip_base = base[0] * base[1] == 2;
    bool measured;
    size_t kref = ref.config ? (size_t)(ref.config - m->configs.configs) : 0;
    out->net_t22_route_s = route_or_zero(t22_route(m, t, base, ref.config ? kref : SIZE_MAX));
    out->t22_s = ref.time_s - contention_excess(m, ref.config ? m->config_ppn[kref] : NAN, t->pa,
                                                t->pb, ref.work_mb, &measured) -
                 out->net_t22_route_s;
    out->contention = contention_factor(&m->contention, ppn);
    out->contention_s = contention_excess(m, ppn, t->pa, t->pb, ref.work_mb, &measured);
    out->contention_unmeasured = !measured;
    out->t22_match = ref.match;
    out->work_mb = ref.work_mb;
    out->t22_reps = ref.config ? ref.config->reps : 0;
    out->t22_spread_pct = ref.config ? ref.config->spread_pct : NAN;
    out->ta_s = strip_along(t, true)
                    ? strip_side(&out->ta_source)
                    : direction_overhead(m, (direction){true}, t, out->work_mb, &out->ta_source,
                                         &out->extrapolation);
    out->tb_s = strip_along(t, false)
                    ? strip_side(&out->tb_source)
                    : direction_overhead(m, (direction){false}, t, out->work_mb, &out->tb_source,
                                         &out->extrapolation);
    out->dominant = dominant_of(out->ta_s, out->tb_s, t);
    out->sequential_target = t->npa == 1 && t->npb == 1;
    out->time_s = out->t22_s + fmax(out->ta_s, out->tb_s) + out->contention_s;
    return isfinite(out->time_s);
}

/* Whether x is a whole, even number of at least 2 (mgbench halves it). */
static bool halves(double x)
{
    return isfinite(x) && x >= 2 && x == floor(x) && fmod(x, 2) == 0;
}

int block_levels(double npa, double npb, double pa, double pb)
{
    int levels = 1;
    while (halves(pa) && halves(pb) && npa * pa >= 4 && npb * pb >= 4) {
        pa /= 2, pb /= 2;
        levels++;
    }
    return levels;
}

/* JOB'S PROCESS COUNT (block.h): the growth the strips show from
 * max(npa, npb) to the job's npa x npb processes, averaged over the
 * directions that have lines. */
static void job_np_term(const block_model *m, const block_target *t, block_prediction *out)
{
    double np = t->npa * t->npb, from = fmax(t->npa, t->npb), sum = 0;
    out->job_np_from = from;
    if (!m->job_np || np <= from)
        return;
    const block_direction *dirs[2] = {&m->a, &m->b};
    for (int k = 0; k < 2; k++) {
        const overhead_law *law = &dirs[k]->law;
        double g = measured_overhead(law, np, out->work_mb) -
                   measured_overhead(law, from, out->work_mb);
        if (!isfinite(g))
            continue;
        sum += g;
        out->job_np_directions++;
        out->job_np_held = fmax(out->job_np_held, law->lines[law->nlines - 1].np);
    }
    out->job_np_s = out->job_np_directions ? sum / (double)out->job_np_directions : 0;
    out->extrapolation = out->extrapolation || (out->job_np_directions && np > out->job_np_held);
}

/* Whether a configuration that entered the fit had no route time. */
static bool used_route_unknown(const block_model *m)
{
    for (size_t i = 0; i < m->configs.nconfigs; i++)
        if (m->configs.configs[i].used && !isfinite(m->config_route_s[i]))
            return true;
    return false;
}

bool block_predict_network(const block_model *m, const block_target *t, double ppn,
                           double cycles, block_prediction *out)
{
    if (!block_predict_contended(m, t, ppn, out))
        return false;
    job_np_term(m, t, out);
    out->time_s += out->job_np_s;
    if (!m->has_network)
        return isfinite(out->time_s);
    block_network net = m->network;
    if (isfinite(cycles))
        net.cycles = cycles;
    out->net_exchanges = net.cycles * EXCHANGES_PER_LEVEL *
                         (block_levels(t->npa, t->npb, t->pa, t->pb) - 1);
    out->net_target_lat_s = topology_grid_latency(&net.topo, &net.lat, t->npa, t->npb, ppn);
    double route = route_time(&net, t->npa, t->npb, t->pa, t->pb, ppn);
    out->network_unknown = !isfinite(route) || used_route_unknown(m);
    /* without the target's own route time, T(2,2) gets its own back: the
     * paper's composition, not one short of every route */
    out->network_s = isfinite(route) ? route : out->net_t22_route_s;
    out->time_s += out->network_s;
    return isfinite(out->time_s);
}
