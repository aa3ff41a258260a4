/*
 * model_multicluster.c — adapter for the multi-cluster estimate
 * (models/multicluster.h, seed 000 section V.B): T = max(TA, TB), each side
 * by the strip model fitted on its own cluster's training runs, and the
 * boundary processes' time with the time mgbench's boundary messages spend
 * on the link between the clusters (option link: measured by ping-pong or
 * nominal; link=none is the paper's model).
 *
 * A target row describes the split job (archive/README.md, rj-strip):
 *   cluster        side A's cluster;  tag_cluster_b  side B's cluster
 *   na x nb        the whole mesh: na rows of length nb (the message length)
 *   np_a, np_b     processes on each side
 *   rows_a, rows_b mesh rows given to each side (optional: without them the
 *                  rows are split equally between the sides, as in seed 000
 *                  Tables I and II, and a warning says so)
 *   cycles         the V-cycles the job ran (for the link term)
 * Each side's processes hold rows_x/np_x rows of length nb (an np_x x 1
 * strip on its cluster). The note also gives the balanced split: the rows
 * per process that minimise max(TA, TB) within each cluster's memory, and
 * the model's own 95% interval from its parts, with where each part's
 * width came from (gen/fit/multicluster_pi.h; the pool it reads is
 * experiment_input.pooled_width, none without it).
 *
 * Options (experiments.csv `options`, key=value;...):
 *   cluster_b=NAME side B's cluster when runs.csv has no tag_cluster_b
 *   np0=4,8        parallel process counts to fit on (default: all >= 2)
 *   work_tol=0.02  relative tolerance when runs are matched by work_mb
 *   tcomp=interpolate|exact   as for the strip model
 *   quantum=1      rows per process in the balanced split are multiples of it
 *   link=measured|model|none  T = max(TA, TB, max(BA, BB) + T_link)
 *                  (models/multicluster.h) unless none (the
 *                  paper's T = max(TA, TB)). measured: the link's latency
 *                  and bandwidth from the campaign's ping-pong rows between
 *                  the two clusters (mgbench --pingpong, kind=pingpong;
 *                  campaign_measured_link averages them). model: the
 *                  nominal values of clusters.csv (link_bw_gbs and
 *                  link_lat_us, else sim_uplink_*; archive_link_path).
 *                  Absent, the rule fixed before any campaign was measured
 *                  with it: measured when the campaign has a ping-pong row
 *                  for the pair, else model. When what the chosen source
 *                  needs (or the target's cycles) is missing, a warning
 *                  says the link was left out
 *   contention=roofline|none  node contention of each side's Tcomp, as for
 *                  the strip model (models/contention.h), at the side's
 *                  processes per node (the row's ppn, else np over its
 *                  nodes, else the side's np on a one-node cluster).
 *                  Absent: the roofline where the side's cluster gives
 *                  mbw_core_gbs and mbw_read_gbs, none elsewhere (the
 *                  papers' and the simulated clusters give neither, so
 *                  their numbers do not move); the fit prints one line per
 *                  side saying which
 *   backtests_from=CAMPAIGN   a campaign whose strip experiments lend their
 *                  backtests to the calibrated interval when this
 *                  experiment's runs allow none (gen/fit/calibration.h); the
 *                  fit fails when the archive has no such campaign
 */
#include "gen/fit/model_adapters.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/fit/multicluster_pi.h"
#include "gen/fit/rjopts.h"
#include "gen/fit/rjreport.h"
#include "gen/fit/stripfits.h"
#include "gen/ingest/pair_link.h"
#include "models/costing.h"
#include "models/multicluster.h"

/* Where T_link's latency and bandwidth come from (option link). */
typedef enum { MC_LINK_AUTO = 0, MC_LINK_MEASURED, MC_LINK_MODEL, MC_LINK_NONE } mc_link_source;

typedef struct {
    stripfit_settings fit;
    bool exact;
    mc_link_source link;
    double quantum;
    char cluster_b[128];   /* "" = from tag_cluster_b */
    char backtests_from[128]; /* campaign lending its strip backtests, "" none
                                 (gen/fit/calibration.h) */
} mc_settings;

/* One split target as read from its row. */
typedef struct {
    const char *cluster[2];
    const char *code;
    double np[2];
    double total_rows, row_len;
    double rows[2];        /* rows per process */
    bool equal_split;      /* rows_a/rows_b were absent */
    double cycles;         /* NAN when the row has none */
    double ppn[2];         /* processes per node on each side, NAN unknown */
    long line;
} mc_target;

static bool read_link(const char *v, mc_link_source *out, char *err, size_t errlen)
{
    static const char *const words[] = {"measured", "model", "none"};
    *out = MC_LINK_AUTO;
    for (int k = 0; v && k < 3; k++)
        if (strcmp(v, words[k]) == 0)
            *out = (mc_link_source)(MC_LINK_MEASURED + k);
    if (v && *out == MC_LINK_AUTO) {
        snprintf(err, errlen, "option link=%s: expected measured, model or none", v);
        return false;
    }
    return true;
}

static bool read_settings(const char *text, mc_settings *s, char *err, size_t errlen)
{
    rjopts o;
    memset(s, 0, sizeof *s);
    if (!rjopts_parse(text, rjopts_keys("multicluster"), &o, err, errlen))
        return false;
    const char *b = rjopts_get(&o, "cluster_b");
    snprintf(s->cluster_b, sizeof s->cluster_b, "%s", b ? b : "");
    const char *lender = rjopts_get(&o, "backtests_from");
    snprintf(s->backtests_from, sizeof s->backtests_from, "%s", lender ? lender : "");
    bool ok = stripfits_settings(&o, &s->fit, err, errlen) &&
              rjopts_exact(&o, "tcomp", &s->exact, err, errlen) &&
              rjopts_contention(&o, &s->fit.contention, err, errlen) &&
              read_link(rjopts_get(&o, "link"), &s->link, err, errlen) &&
              rjopts_number(&o, "quantum", 1, 1, &s->quantum, err, errlen);
    rjopts_free(&o);
    return ok;
}

bool model_multicluster_check_options(const char *options, char *err, size_t errlen)
{
    mc_settings s;
    return read_settings(options, &s, err, errlen);
}

bool model_multicluster_lender(const char *options, model_lender *out)
{
    mc_settings s;
    char err[256];
    if (!read_settings(options, &s, err, sizeof err) || !s.backtests_from[0])
        return false;
    snprintf(out->campaign, sizeof out->campaign, "%s", s.backtests_from);
    out->model = "strip";
    out->why = "the strip models this multi-cluster model is built from, option backtests_from";
    return true;
}

static bool read_target(const table *runs, size_t row, const mc_settings *s, mc_target *t,
                        char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->line = runs->line ? runs->line[row] : 0;
    t->cluster[0] = table_text_named(runs, row, "cluster");
    t->cluster[1] = s->cluster_b[0] ? s->cluster_b : table_text_named(runs, row, "tag_cluster_b");
    t->code = table_text_named(runs, row, "code");
    t->np[0] = table_number_named(runs, row, "np_a");
    t->np[1] = table_number_named(runs, row, "np_b");
    t->total_rows = table_number_named(runs, row, "na");
    t->row_len = table_number_named(runs, row, "nb");
    t->cycles = table_number_named(runs, row, "cycles");
    double given[2] = {table_number_named(runs, row, "rows_a"),
                       table_number_named(runs, row, "rows_b")};
    if (!t->cluster[0] || !t->cluster[1] || !(t->np[0] >= 1) || !(t->np[1] >= 1) ||
        !(t->total_rows >= 1) || !(t->row_len >= 1)) {
        snprintf(err, errlen, "runs.csv line %ld: a multi-cluster target needs cluster, "
                 "tag_cluster_b (or option cluster_b), np_a, np_b, na and nb", t->line);
        return false;
    }
    t->equal_split = !(given[0] > 0 && given[1] > 0);
    for (int i = 0; i < 2; i++)
        t->rows[i] = t->equal_split ? t->total_rows / 2 / t->np[i] : given[i] / t->np[i];
    return true;
}

/* Processes per node of each side (mgbench's campaigns place both sides
 * alike): the row's ppn, else its processes over its nodes, else the
 * side's np where its cluster is one node; NAN when none is known. */
static void target_ppn(const archive *a, const table *runs, size_t row, mc_target *t)
{
    double ppn = table_number_named(runs, row, "ppn");
    double nodes = table_number_named(runs, row, "nodes");
    if (!(ppn > 0) && nodes > 0)
        ppn = (t->np[0] + t->np[1]) / nodes;
    for (int i = 0; i < 2; i++) {
        const cluster_info *c = a ? archive_cluster(a, t->cluster[i]) : NULL;
        t->ppn[i] = ppn > 0 ? ppn : c && c->nodes == 1 ? t->np[i] : NAN;
    }
}

/* The most rows per process a side's memory holds (INFINITY when unknown). */
static double max_rows(const archive *a, const char *cluster, const strip_model *m, double len)
{
    const cluster_info *c = archive_cluster(a, cluster);
    if (!c || !isfinite(c->mem_per_core_gb) || !(m->mb_per_point > 0))
        return INFINITY;
    return floor(c->mem_per_core_gb * 1024 * (1 + 1e-9) / (m->mb_per_point * len));
}

/* The link between the target's clusters by the rule option link picks
 * (gen/ingest/pair_link.h: measured from the campaign's ping-pong rows,
 * else the nominal values of clusters.csv), *source saying which
 * ("measured by ping-pong (runs.csv line 12, 3 rows)"); pl holds both
 * sources for the interval. NULL when link=none, or with *missing saying
 * what is missing. */
static const multicluster_link *target_link(const experiment_input *in, const mc_settings *s,
                                            const mc_target *t, multicluster_link *buf,
                                            pair_link *pl, char *source, size_t len,
                                            const char **missing)
{
    const archive *a = in->arch;
    static const pair_link_rule rules[] = {PAIR_LINK_AUTO, PAIR_LINK_MEASURED,
                                           PAIR_LINK_NOMINAL, PAIR_LINK_AUTO};
    *missing = NULL;
    source[0] = '\0';
    archive_pair_link(in->camp, 1, a ? archive_cluster(a, t->cluster[0]) : NULL,
                      a ? archive_cluster(a, t->cluster[1]) : NULL, t->cluster[0],
                      t->cluster[1], rules[s->link], pl);
    if (s->link == MC_LINK_NONE)
        return NULL;
    buf->cycles = t->cycles;
    buf->bw_bytes_s = pl->bw_bytes_s;
    buf->latency_s = pl->latency_s;
    buf->shared = pl->shared;
    if (pl->status == PAIR_LINK_CHOSEN_MEASURED)
        snprintf(source, len, "measured by ping-pong (runs.csv line %ld, %zu row%s)",
                 pl->measured.line, pl->measured.rows, pl->measured.rows == 1 ? "" : "s");
    else if (pl->status == PAIR_LINK_CHOSEN_NOMINAL)
        snprintf(source, len, "nominal, from clusters.csv");
    else
        *missing = pair_link_missing_text(pl->status);
    if (!*missing && !(t->cycles > 0))
        *missing = "the target row gives no cycles";
    return *missing ? NULL : buf;
}

/* " balanced split: A 540, B 968 rows per process, T = 980 s" or why not. */
static void balance_text(const archive *a, const mc_settings *s, const mc_target *t,
                         const multicluster_side sides[2], const multicluster_link *link,
                         char *buf, size_t len)
{
    multicluster_balance_options bo = {
        s->quantum,
        {max_rows(a, t->cluster[0], sides[0].model, t->row_len),
         max_rows(a, t->cluster[1], sides[1].model, t->row_len)},
        link};
    multicluster_prediction best;
    if (multicluster_balance(sides, t->row_len, t->total_rows, &bo, &best))
        snprintf(buf, len, "; balanced split (within memory%s): %g rows per process on %s, %g on "
                 "%s, T = %.4g s%s", link ? ", the link included" : "", best.rows[0],
                 t->cluster[0], best.rows[1], t->cluster[1], best.time_s,
                 best.uneven ? " (rows uneven across processes)" : "");
    else
        snprintf(buf, len, "; no balanced split fits both sides' memory");
}

/* "; the link between the clusters, measured by ping-pong (...): 0.41 s of
 * 2.5 s (...)" or "". */
static void link_text(const multicluster_prediction *p, const multicluster_link *link,
                      const char *source, char *buf, size_t len)
{
    if (!link) {
        buf[0] = '\0';
        return;
    }
    snprintf(buf, len, "; the link between the clusters, %s: %.4g s of %.4g s (%g messages and "
             "%.4g kB per V-cycle over %d levels, %g cycles, at %.4g MB/s and %.4g us, %s)%s",
             source, p->link_s, p->time_s, p->traffic.messages, p->traffic.bytes / 1e3,
             p->traffic.levels, link->cycles, link->bw_bytes_s / 1e6, link->latency_s * 1e6,
             link->shared ? "both directions sharing its bandwidth (SimGrid's link, runs.csv "
                            "engine smpi)"
                          : "full duplex",
             p->link_bound ? "; the boundary processes set T" : "; the link hides behind the "
                                                                "sides' own exchanges");
}

static bool predict_target(const experiment_input *in, const mc_settings *s, stripfits *fits,
                           size_t k, report *out, char *err, size_t errlen)
{
    mc_target t;
    if (!read_target(&in->camp->runs, in->targets[k].rows[0], s, &t, err, errlen))
        return false;
    target_ppn(in->arch, &in->camp->runs, in->targets[k].rows[0], &t);
    multicluster_side sides[2];
    for (int i = 0; i < 2; i++) {
        const stripfit *f = stripfits_get(fits, t.cluster[i], t.code, t.row_len);
        if (!f || !f->ok) {
            snprintf(err, errlen, "%s side: %s", i ? "B" : "A", f ? f->error : "out of memory");
            return false;
        }
        sides[i] = (multicluster_side){&f->model, t.np[i], t.ppn[i]};
    }
    multicluster_link link_buf;
    pair_link pl;
    const char *no_link;
    char source[160];
    const multicluster_link *link = target_link(in, s, &t, &link_buf, &pl, source,
                                                sizeof source, &no_link);
    multicluster_prediction p;
    if (!multicluster_predict(sides, t.row_len, t.rows, link, &p)) {
        snprintf(err, errlen, "runs.csv line %ld: a side has no Tcomp for its per-process mesh "
                 "(no sequential run and no work_mb to interpolate with)", t.line);
        return false;
    }
    bool interpolated = p.side[0].tcomp_match != MESH_EXACT || p.side[1].tcomp_match != MESH_EXACT;
    if (interpolated && s->exact) {
        snprintf(err, errlen, "runs.csv line %ld: a side has no sequential run with its exact "
                 "per-process mesh (tcomp=exact)", t.line);
        return false;
    }
    char bal[300], lt[600], parts[200], pi_words[1300], note[3000], tcomp[160];
    balance_text(in->arch, s, &t, sides, link, bal, sizeof bal);
    link_text(&p, link, source, lt, sizeof lt);
    multicluster_parts_text(&p, parts, sizeof parts);
    multicluster_pi_input pin = {sides, {t.cluster[0], t.cluster[1]}, t.row_len, &p, link, &pl,
                                 in->pooled_width, in->pooled_ctx};
    double pi[2];
    multicluster_pi(&pin, &pi[0], &pi[1], pi_words, sizeof pi_words);
    mesh_match_pair_text(p.side[0].tcomp_match, p.side[1].tcomp_match, tcomp, sizeof tcomp);
    snprintf(note, sizeof note,
             "%s; %s (A on %s, B on %s)%s; %s; %g and %g rows per process, "
             "memory per process %.4g MB and %.4g MB; Tcomp %s%s",
             pi_words, parts, t.cluster[0], t.cluster[1], lt,
             p.dominant < 0 ? "the sides tie" : p.dominant == 0 ? "A is slower" : "B is slower",
             t.rows[0], t.rows[1], p.mem_mb[0], p.mem_mb[1], tcomp, bal);
    bool extra = p.side[0].extrapolation || p.side[1].extrapolation;
    report_prediction pred = {.config = k, .estimate = p.time_s, .ci_low = NAN, .ci_high = NAN,
                              .pi_low = pi[0], .pi_high = pi[1], .extrapolation = extra,
                              .note = note};
    bool ok = report_add_prediction(out, &pred);
    if (ok && t.equal_split)
        ok = rjreport_warn(out, "runs.csv line %ld: no rows_a/rows_b; the rows were split equally "
                                "between the clusters, as in seed 000 Tables I-II", t.line);
    if (ok && link)
        ok = rjreport_diagnose(out, "runs.csv line %ld: the link between the clusters, %s: "
                                    "%.3g s of %.4g s", t.line, source, p.link_s, p.time_s);
    if (ok && no_link)
        ok = rjreport_warn(out, "runs.csv line %ld: the link between the clusters is left out "
                                "(T = max(TA, TB), as in the paper): %s", t.line, no_link);
    if (ok && interpolated)
        ok = rjreport_warn(out, "runs.csv line %ld: Tcomp of a side %s; the paper requires a "
                                "sequential run of each side's exact per-process mesh", t.line,
                           p.side[0].tcomp_match != MESH_EXACT
                               ? mesh_match_text(p.side[0].tcomp_match)
                               : mesh_match_text(p.side[1].tcomp_match));
    if (!ok)
        snprintf(err, errlen, "out of memory");
    return ok;
}

bool model_multicluster_run(const experiment_input *in, report *out, char *err, size_t errlen)
{
    if (errlen)
        err[0] = '\0';
    mc_settings s;
    labelled_run *runs = NULL;
    if (!read_settings(in->exp->options, &s, err, errlen)) {
        experiment_point_at(in, "options", 0);
        return false;
    }
    if (s.backtests_from[0] && in->arch && !archive_campaign(in->arch, s.backtests_from)) {
        experiment_point_at(in, "options", 0);
        snprintf(err, errlen, "option backtests_from: no campaign '%s' in the archive",
                 s.backtests_from);
        return false;
    }
    if (in->ntargets == 0) {
        snprintf(err, errlen, "the multi-cluster model predicts split jobs: the experiment needs "
                 "a target filter selecting them");
        return false;
    }
    s.fit.arch = in->arch; /* each side's contention law (stripfits.h) */
    long nruns = meshrows_training(in, &runs, err, errlen);
    stripfits fits;
    stripfits_init(&fits, &s.fit, runs, nruns > 0 ? (size_t)nruns : 0);
    bool ok = nruns >= 0 && report_set_text(&out->model, "multicluster");
    for (size_t k = 0; ok && k < in->ntargets; k++)
        ok = predict_target(in, &s, &fits, k, out, err, errlen);
    char eq[1500];
    snprintf(eq, sizeof eq, "%s",
             s.link != MC_LINK_NONE
                 ? "T = max(TA, TB, max(BA, BB) + T_link) (BX: side X's boundary process, "
                   "its strip time less half its overhead, trading its end exchanges across "
                   "the link between the clusters; T_link: mgbench's boundary messages)"
                 : "T = max(TA, TB)");
    ok = ok && stripfits_report(&fits, out, eq, sizeof eq) && report_set_text(&out->equation, eq);
    stripfits_free(&fits);
    free(runs);
    if (!ok && !err[0])
        snprintf(err, errlen, "out of memory");
    return ok;
}
