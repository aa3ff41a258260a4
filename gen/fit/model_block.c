/*
 * model_block.c — adapter for the block model (models/block.h, seed 001).
 *
 * A target row needs npa, npb, na and nb. Its fit uses the training runs of
 * its cluster and code: the (2,2) run at its per-process mesh, (np,1)
 * strips with messages of its per-process nb and (1,np) strips with its
 * per-process na. Targets with the same cluster, code and per-process
 * mesh share one fit, of every direction one of them needs, so the report
 * gives each law, statistic and equation once. A strip target ((np,1) or
 * (1,np)) is predicted on its own base T(2,1) or T(1,2) (models/block.h,
 * STRIP TARGETS): calibration's backtests hold strips out and predict
 * them, and should score the strip law, not T(2,2) - T(2,1).
 *
 * Options (experiments.csv `options`, key=value;...):
 *   nps=4,8,16     strip process counts (> 2) to fit on (default: every one
 *                  among the training runs)
 *   work_tol=0.02  relative tolerance when runs are matched by work_mb
 *   t22=interpolate|exact
 *                  without a (2,2) run at the target's per-process mesh:
 *                  interpolate T(2,2) in work and warn (default), or fail
 *   contention=roofline|none
 *                  node contention of Tcomp (models/contention.h, block.h):
 *                  as the strip model's option (gen/fit/model_strip.c)
 *   overhead=log2|node|topology|auto
 *                  each direction's overhead law (models/overhead.h;
 *                  default auto: the paper's quadratic in log2 np unless a
 *                  step law beats it out of sample); a step needs a
 *                  fourth strip process count beside the quadratic's three.
 *                  A target's strip of npa (npb) processes is placed as the
 *                  target runs: npa over its processes per node.
 *   between=interpolate|law
 *                  an np between two measured process counts (or between
 *                  2 and the smallest): joined linearly in log2 np from
 *                  the two measured lines at the target's work (default;
 *                  models/block.h BETWEEN MEASURED PROCESS COUNTS), or the
 *                  paper's law with gamma(largest np)
 *   network=routes|none
 *                  the route term (models/block.h NETWORK TERM; a deviation
 *                  from the paper): every run's neighbour exchanges pay
 *                  their routes' latencies times SMPI's latency factor; the
 *                  training runs' route time is taken off before the
 *                  differences, the target's added. Default routes where the
 *                  cluster describes a simulated torus or fat tree
 *                  (clusters.csv `sim_topology`, `sim_link_lat_us`; elsewhere
 *                  every route costs the same and the term cancels); none is
 *                  the paper's model. Cycles: the target row's `cycles`.
 *   jobnp=strips|none
 *                  the job's process count term (models/block.h JOB'S
 *                  PROCESS COUNT): the strips' growth from max(npa, npb) to
 *                  npa x npb processes. Default: on where the route term is
 *                  (a simulated topology), off elsewhere; none with
 *                  network=none is the paper's model.
 */
#include "gen/fit/model_adapters.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/fit/meshrows.h"
#include "gen/fit/node_contention.h"
#include "gen/fit/rjopts.h"
#include "gen/fit/rjreport.h"
#include "gen/ingest/run_layout.h"
#include "models/block.h"

typedef struct {
    double nps[32];
    size_t nnps;
    double work_tol;
    bool exact_t22;
    rjopts_contention_mode contention;
    const archive *arch;
    overhead_law_kind law;
    bool network;              /* network=routes (default); none: the paper's model */
    bool job_np;               /* jobnp=strips|none as asked; see job_np_asked */
    bool between_law;          /* between=law (the paper's) rather than interpolate */
    bool job_np_asked;         /* absent: on where the network term is */
    const labelled_run *runs;  /* the training runs */
    size_t nruns;
    labelled_run *strips;      /* the targets' strips placed (two per target), owned */
    size_t nstrips;
} block_settings;

typedef struct {
    meshrow key;          /* the first target that needed this fit */
    double npa, npb;      /* the largest grid sides among its targets */
    double cycles;        /* the V-cycles of its first target (the training runs' too) */
    block_model model;
    node_contention contention; /* the law of its cluster, and its line */
    bool has_network;     /* the network term applies (network_why says why or why not) */
    bool job_np;          /* the job's process count term applies (job_np_why) */
    char job_np_why[300];
    block_network network;
    char network_why[300];
    char prefix[200];
} block_group;

static bool read_settings(const char *text, block_settings *s, char *err, size_t errlen)
{
    rjopts o;
    memset(s, 0, sizeof *s);
    if (!rjopts_parse(text, rjopts_keys("block"), &o, err, errlen))
        return false;
    const char *nps = rjopts_get(&o, "nps");
    bool ok = rjopts_work_tol(&o, &s->work_tol, err, errlen) &&
              (!nps || rjopts_number_list(nps, s->nps, 32, &s->nnps, err, errlen)) &&
              rjopts_exact(&o, "t22", &s->exact_t22, err, errlen) &&
              rjopts_contention(&o, &s->contention, err, errlen) &&
              rjopts_overhead(&o, &s->law, err, errlen) &&
              rjopts_either(&o, "network", "none", "routes", true, &s->network, err, errlen) &&
              rjopts_either(&o, "jobnp", "none", "strips", true, &s->job_np, err, errlen) &&
              rjopts_either(&o, "between", "interpolate", "law", false, &s->between_law, err,
                            errlen);
    s->job_np_asked = rjopts_get(&o, "jobnp") != NULL;
    rjopts_free(&o);
    return ok;
}

bool model_block_check_options(const char *options, char *err, size_t errlen)
{
    block_settings s;
    return read_settings(options, &s, err, errlen);
}

static block_target target_of(const meshrow *t)
{
    return (block_target){t->npa, t->npb, t->pa, t->pb, t->work_mb};
}

/* Do two targets share one fit? Those of one cluster, code and
 * per-process mesh do: their Ta and Tb laws come from the same strips
 * (a 4x4 and an 8x2 target must not print the Ta law twice). */
static bool same_fit(const meshrow *a, const meshrow *b)
{
    return meshrows_same_group(a->cluster, a->code, b->cluster, b->code) &&
           mesh_same_size(a->pa, b->pa) && mesh_same_size(a->pb, b->pb);
}

/* Whether the network term applies to the group's cluster, and why. */
static void network_of(const block_settings *s, block_group *g)
{
    const cluster_info *ci = archive_cluster(s->arch, g->key.cluster);
    bool routes = cluster_topology(s->arch, ci, &g->network.topo);
    bool latency = cluster_latency(s->arch, ci, &g->network.lat);
    g->has_network = s->network && routes && latency;
    snprintf(g->network_why, sizeof g->network_why, "network term %s for cluster %s: %s",
             g->has_network ? "on" : "off", g->key.cluster,
             !s->network ? "option network=none, the paper's model"
             : !routes ? "clusters.csv describes no torus or fat tree (sim_topology), so every "
                         "route between its nodes is taken to cost the same"
             : !latency ? "clusters.csv gives no sim_link_lat_us for its links"
             : "every run's neighbour exchanges pay their routes' latencies times SMPI's "
               "latency factor: the training runs' are taken off before the differences, the "
               "target's added (models/block.h)");
    g->job_np = s->job_np_asked ? s->job_np : g->has_network;
    snprintf(g->job_np_why, sizeof g->job_np_why, "job's process count term %s: %s",
             g->job_np ? "on" : "off",
             s->job_np_asked ? (s->job_np ? "option jobnp=strips" : "option jobnp=none")
             : g->has_network ? "on with the network term (a simulated topology): the strips' "
                                "time grows with the job's process count beyond max(npa, npb)"
                              : "off without the network term (option jobnp=strips turns it on)");
}

static bool fit_group(const block_settings *s, block_group *g, char *err, size_t errlen)
{
    mesh_run *runs = malloc(sizeof *runs * (s->nruns ? s->nruns : 1));
    double *ppn = malloc(sizeof *ppn * (s->nruns ? s->nruns : 1));
    if (!runs || !ppn) {
        free(runs);
        free(ppn);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    size_t n = meshrows_select(s->runs, s->nruns, g->key.cluster, g->key.code, runs, ppn);
    if (n == 0) {
        free(runs);
        free(ppn);
        snprintf(err, errlen, "no training run of cluster %s%s%s", g->key.cluster,
                 g->key.code ? ", code " : "", g->key.code ? g->key.code : "");
        return false;
    }
    g->contention = node_contention_of(s->arch, g->key.cluster, s->contention);
    network_of(s, g);
    overhead_place *places = malloc(sizeof *places * (s->nruns + s->nstrips + 1));
    if (!places) {
        free(runs);
        free(ppn);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    size_t nplaces = meshrows_places(s->runs, s->nruns, g->key.cluster, g->key.code, places, 0);
    nplaces = meshrows_places(s->strips, s->nstrips, g->key.cluster, g->key.code, places, nplaces);
    block_network net = g->network;
    net.cycles = g->cycles;
    block_options opt = {s->work_tol, s->nnps ? s->nps : NULL, s->nnps, s->law, places, nplaces,
                         g->has_network ? &net : NULL, g->job_np, s->between_law};
    block_target t = target_of(&g->key);
    t.npa = g->npa; /* fit every direction one of the group's targets needs */
    t.npb = g->npb;
    overhead_status ls;
    block_status st = block_fit_contended(runs, ppn, n, &opt, &g->contention.law, &t, &g->model,
                                          &ls);
    free(runs);
    free(ppn);
    free(places);
    if (st != BLOCK_OK)
        snprintf(err, errlen, "block fit for runs.csv line %ld (cluster %s, grid %gx%g, "
                 "per-process mesh %gx%g): %s%s", g->key.line, g->key.cluster, g->key.npa,
                 g->key.npb, g->key.pa, g->key.pb,
                 st == BLOCK_OVERHEAD_A ? "Ta: " : st == BLOCK_OVERHEAD_B ? "Tb: " : "",
                 block_status_text(st, ls));
    return st == BLOCK_OK;
}

/* The group of target t, made when it is the first of its kind; the
 * group's grid grows to the largest sides of its targets. Fitted later. */
static block_group *group_for(block_group *groups, size_t *ngroups, const meshrow *t,
                              char *err, size_t errlen)
{
    if (!isfinite(t->pa) || !isfinite(t->pb) || t->npa * t->npb != t->np) {
        snprintf(err, errlen, "runs.csv line %ld: a block target needs npa, npb, na and nb",
                 t->line);
        return NULL;
    }
    block_group *g = NULL;
    for (size_t i = 0; !g && i < *ngroups; i++)
        if (same_fit(&groups[i].key, t))
            g = &groups[i];
    if (!g) {
        g = &groups[(*ngroups)++];
        memset(g, 0, sizeof *g);
        g->key = *t;
    }
    g->npa = fmax(g->npa, t->npa);
    g->npb = fmax(g->npb, t->npb);
    return g;
}

/* Warnings about the strips one direction left out. */
static bool direction_warnings(report *r, const char *prefix, const char *dir,
                               const block_direction *d)
{
    bool ok = true;
    if (d->nunmatched)
        ok = rjreport_warn(r, "%s%s: %zu strip configuration(s) left out: no np = 2 run at the "
                              "same per-process mesh", prefix, dir, d->nunmatched);
    if (ok && d->nother_msg)
        ok = rjreport_warn(r, "%s%s: %zu strip configuration(s) left out: other message length",
                           prefix, dir, d->nother_msg);
    if (ok && d->msg_len_fallback)
        ok = rjreport_warn(r, "%s%s: no strip has the target's message length; strips of every "
                              "length were used", prefix, dir);
    return ok;
}

static bool report_group(report *out, block_group *g, bool several, char *eq, size_t eqlen)
{
    char pa[260], pb[260];
    const block_model *m = &g->model;
    if (several)
        snprintf(g->prefix, sizeof g->prefix, "%s/%s/%gx%g: ", g->key.cluster,
                 g->key.code ? g->key.code : "-", g->key.pa, g->key.pb);
    snprintf(pa, sizeof pa, "%sa: ", g->prefix);
    snprintf(pb, sizeof pb, "%sb: ", g->prefix);
    bool ok = true;
    size_t used = strlen(eq);
    used += (size_t)snprintf(eq + used, eqlen - used, "%s%sT = T(2,2) + max(Ta, Tb)%s%s",
                             used ? "; " : "", g->prefix, g->job_np ? " + job np" : "",
                             g->has_network ? " + network" : "");
    for (int d = 0; d < 2 && used < eqlen; d++) {
        const block_direction *bd = d == 0 ? &m->a : &m->b;
        if (!bd->needed)
            continue;
        used += (size_t)snprintf(eq + used, eqlen - used, ", %s = ", d == 0 ? "Ta" : "Tb");
        if (used < eqlen)
            used += (size_t)rjreport_law_text(eq + used, eqlen - used, &bd->law, false);
    }
    if (m->a.needed)
        ok = rjreport_law(out, pa, &m->a.law) && direction_warnings(out, g->prefix, "Ta", &m->a);
    if (ok && m->b.needed)
        ok = rjreport_law(out, pb, &m->b.law) && direction_warnings(out, g->prefix, "Tb", &m->b);
    ok = ok && node_contention_report(out, g->prefix, &g->contention) &&
         rjreport_diagnose(out, "%s%s", g->prefix, g->network_why) &&
         rjreport_diagnose(out, "%s%s", g->prefix, g->job_np_why);
    if (ok && m->contention_unmeasured)
        ok = rjreport_warn(out, "%s%zu strip time(s) the contention law would slow were left "
                                "uncorrected: no sequential run of their per-process mesh gives "
                                "Tcomp", g->prefix, m->contention_unmeasured);
    return ok && rjreport_configs(out, g->prefix, &m->configs, m->max_spread_pct, m->mb_per_point);
}

static const char *dominant_text(block_dominant d)
{
    switch (d) {
    case BLOCK_DOMINANT_A: return "Ta dominates";
    case BLOCK_DOMINANT_B: return "Tb dominates";
    case BLOCK_DOMINANT_TIE: return "Ta and Tb tie";
    case BLOCK_DOMINANT_NONE: break;
    }
    return "neither direction has more than 2 processes: T = T(2,2)";
}

static const char *term_text(block_term t)
{
    switch (t) {
    case BLOCK_TERM_LAW: return "law";
    case BLOCK_TERM_LINE: return "its np's measured line";
    case BLOCK_TERM_BETWEEN: return "between the measured lines around its np";
    case BLOCK_TERM_DEFINITION: return "0 by definition at 2 processes";
    case BLOCK_TERM_MEASURED_ONE: return "measured T(1,1) - T(2,1)";
    case BLOCK_TERM_ASSUMED_ZERO: return "0 assumed";
    case BLOCK_TERM_STRIP_SIDE: return "0: the strip's base has 1 process along it too";
    }
    return "?";
}

/* Warnings about Ta or Tb: negative (as the strip model warns), or 0 only
 * assumed for a single process along the direction. */
static bool term_warnings(report *out, const meshrow *t, const char *name, double np,
                          double value, block_term source)
{
    bool ok = true;
    if (value < 0 && source != BLOCK_TERM_MEASURED_ONE)
        ok = rjreport_warn(out, "runs.csv line %ld: the predicted overhead %s(%g) is negative "
                                "(%.3g s, from the %s)", t->line, name, np, value,
                           term_text(source));
    if (ok && source == BLOCK_TERM_ASSUMED_ZERO)
        ok = rjreport_warn(out, "runs.csv line %ld: %s = 0 is assumed for 1 process along the "
                                "direction (no (1,1) and %s runs of the per-process mesh to "
                                "measure it)", t->line, name, name[1] == 'a' ? "(2,1)" : "(1,2)");
    return ok;
}

/* The job's process count and network terms of a prediction in words
 * (empty without them). */
static void network_text(char *buf, size_t len, const block_prediction *p, double np,
                         bool job_np, bool on)
{
    int n = 0;
    buf[0] = '\0';
    if (job_np && p->job_np_directions)
        n = snprintf(buf, len, " + job np %.4g s (the strips' growth from %g to %g processes%s)",
                     p->job_np_s, p->job_np_from, np,
                     np > p->job_np_held ? ", held beyond the largest strip" : "");
    if (on && !p->network_unknown && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " + network %.4g s (route time of %g exchanges, "
                 "slowest neighbour route %.3g us)", p->network_s, p->net_exchanges,
                 1e6 * p->net_target_lat_s);
}

/* "T(2,2)", or a strip target's own base "T(2,1)" or "T(1,2)". */
static const char *base_text(const block_prediction *p, const meshrow *t)
{
    return !p->strip_base ? "T(2,2)" : t->npb == 1 ? "T(2,1)" : "T(1,2)";
}

/* The whole mesh of that base run: 2pa x 2pb, a strip's 2pa x pb or
 * pa x 2pb. */
static void base_mesh(const block_prediction *p, const meshrow *t, double mesh[2])
{
    mesh[0] = (p->strip_base && t->npa == 1 ? 1 : 2) * t->pa;
    mesh[1] = (p->strip_base && t->npb == 1 ? 1 : 2) * t->pb;
}

static bool predict_target(const block_settings *s, size_t k, const block_group *g,
                           const meshrow *t, double cycles, report *out, char *err,
                           size_t errlen)
{
    block_target bt = target_of(t);
    block_prediction p;
    if (!block_predict_network(&g->model, &bt, t->ppn, cycles, &p)) {
        snprintf(err, errlen, "runs.csv line %ld: no T(2,2) for the per-process mesh %gx%g",
                 t->line, t->pa, t->pb);
        return false;
    }
    if (p.t22_match != MESH_EXACT && s->exact_t22) {
        double mesh[2];
        base_mesh(&p, t, mesh);
        snprintf(err, errlen, "runs.csv line %ld: no %s run on a %gx%g mesh (t22=exact)",
                 t->line, base_text(&p, t) + 1, mesh[0], mesh[1]);
        return false;
    }
    char ref[200], note[1600], crowd[400] = "", route[400];
    rjreport_reference(ref, sizeof ref, p.t22_match, t->pa, t->pb, p.t22_reps, p.t22_spread_pct);
    if (g->model.contention.on) {
        int n = snprintf(crowd, sizeof crowd, " + contention %.4g s (", p.contention_s);
        n += contention_text(crowd + n, sizeof crowd - (size_t)n, &g->model.contention, t->ppn);
        if ((size_t)n < sizeof crowd)
            snprintf(crowd + n, sizeof crowd - (size_t)n, ")");
    }
    network_text(route, sizeof route, &p, t->npa * t->npb, g->job_np, g->has_network);
    snprintf(note, sizeof note,
             "point estimate only (the block model gives no interval): %s %.4g s [%s] + "
             "max(Ta(%g) %.4g s [%s], Tb(%g) %.4g s [%s])%s%s: %s (work %.4g MB per process)",
             base_text(&p, t), p.t22_s, ref, t->npa, p.ta_s, term_text(p.ta_source), t->npb, p.tb_s,
             term_text(p.tb_source), crowd, route, dominant_text(p.dominant), p.work_mb);
    bool ok = rjreport_predict(out, k, p.time_s, p.extrapolation, note);
    double mesh[2];
    base_mesh(&p, t, mesh);
    if (ok && p.t22_match != MESH_EXACT)
        ok = rjreport_warn(out, "runs.csv line %ld: %s %s; the paper requires a %s run on "
                                "a %gx%g mesh", t->line, base_text(&p, t),
                           mesh_match_text(p.t22_match), base_text(&p, t) + 1, mesh[0], mesh[1]);
    ok = ok && term_warnings(out, t, "Ta", t->npa, p.ta_s, p.ta_source) &&
         term_warnings(out, t, "Tb", t->npb, p.tb_s, p.tb_source);
    if (ok && p.contention_unmeasured)
        ok = rjreport_warn(out, "runs.csv line %ld: %g processes per node would slow Tcomp, but "
                                "no sequential run of the per-process mesh %gx%g gives it: no "
                                "contention added", t->line, t->ppn, t->pa, t->pb);
    if (ok && g->has_network && p.network_unknown)
        ok = rjreport_warn(out, "runs.csv line %ld: route term incomplete: the processes per "
                                "node of the target or of a training run, or the target's "
                                "cycles, are unknown (an unknown route time is neither taken "
                                "off nor added)", t->line);
    if (ok && p.sequential_target)
        ok = rjreport_warn(out, "runs.csv line %ld: a 1x1 target is sequential; the block model "
                                "describes parallel runs, the estimate is T(2,2)", t->line);
    if (!ok)
        snprintf(err, errlen, "out of memory");
    return ok;
}

/* Where each target's strips of npa and npb processes sit, laid out as the
 * target runs, so that a step law knows the nodes of the strips it
 * predicts (the training runs place only the strips they measured). */
static bool place_strips(const experiment_input *in, const meshrow *rows, block_settings *s,
                         char *err, size_t errlen)
{
    s->strips = calloc(2 * in->ntargets, sizeof *s->strips);
    if (!s->strips) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    for (size_t k = 0; k < in->ntargets; k++)
        for (int side = 0; side < 2; side++) {
            size_t row = in->targets[k].rows[0];
            double np = side ? rows[k].npb : rows[k].npa;
            s->strips[s->nstrips++] = (labelled_run){
                .cluster = rows[k].cluster, .code = rows[k].code, .line = rows[k].line, .row = row,
                .place = meshrows_place_np(in->arch, in->camp, row, np)};
        }
    return true;
}

bool model_block_run(const experiment_input *in, report *out, char *err, size_t errlen)
{
    if (errlen)
        err[0] = '\0';
    block_settings s;
    labelled_run *runs = NULL;
    if (!read_settings(in->exp->options, &s, err, errlen)) {
        experiment_point_at(in, "options", 0);
        return false;
    }
    if (in->ntargets == 0) {
        snprintf(err, errlen, "the block model is fitted for a target grid and mesh: the "
                 "experiment needs a target filter");
        return false;
    }
    long nruns = meshrows_training(in, &runs, err, errlen);
    if (nruns < 0) {
        free(runs);
        return false;
    }
    s.runs = runs;
    s.nruns = (size_t)nruns;
    s.arch = in->arch;
    block_group *groups = calloc(in->ntargets, sizeof *groups);
    meshrow *rows = calloc(in->ntargets, sizeof *rows);
    size_t ngroups = 0, *group_of = calloc(in->ntargets, sizeof *group_of);
    bool ok = groups && rows && group_of && report_set_text(&out->model, "block");
    if (!ok)
        snprintf(err, errlen, "out of memory");
    for (size_t k = 0; ok && k < in->ntargets; k++) {
        ok = meshrows_read(in->arch, in->camp, in->targets[k].rows[0], &rows[k], err, errlen);
        block_group *g = ok ? group_for(groups, &ngroups, &rows[k], err, errlen) : NULL;
        ok = g != NULL;
        if (ok)
            group_of[k] = (size_t)(g - groups);
        if (ok && !(g->cycles > 0))
            g->cycles = table_number_named(&in->camp->runs, in->targets[k].rows[0], "cycles");
    }
    ok = ok && place_strips(in, rows, &s, err, errlen);
    for (size_t i = 0; ok && i < ngroups; i++)
        ok = fit_group(&s, &groups[i], err, errlen);
    char eq[1500] = "";
    for (size_t i = 0; ok && i < ngroups; i++)
        ok = report_group(out, &groups[i], ngroups > 1, eq, sizeof eq);
    ok = ok && report_set_text(&out->equation, eq);
    for (size_t k = 0; ok && k < in->ntargets; k++)
        ok = predict_target(&s, k, &groups[group_of[k]], &rows[k],
                            table_number_named(&in->camp->runs, in->targets[k].rows[0], "cycles"),
                            out, err, errlen);
    for (size_t i = 0; groups && i < ngroups; i++)
        block_model_free(&groups[i].model);
    free(groups);
    free(rows);
    free(group_of);
    free(runs);
    free(s.strips);
    if (!ok && !err[0])
        snprintf(err, errlen, "out of memory");
    return ok;
}
