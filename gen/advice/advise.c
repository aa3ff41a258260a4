/*
 * advise.c — see advise.h.
 */
#include "gen/advice/advise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/advice/runnable.h"
#include "gen/base/words.h"
#include "gen/fit/experiment_run.h"
#include "gen/fit/meshrows.h"
#include "gen/fit/multicluster_pi.h"
#include "gen/fit/pooled_width.h"
#include "gen/ingest/namelist.h"
#include "gen/ingest/pair_link.h"
#include "models/multicluster.h"

bool advise_same_machine(const char *a, const char *b)
{
    /* The fabric is the last part: "wrg2-ethernet" is machine wrg2,
     * "sim-a-fe" machine sim-a (not "sim", which sim-b-gige shares). */
    const char *da = strrchr(a, '-'), *db = strrchr(b, '-');
    return da && db && da - a == db - b && strncmp(a, b, (size_t)(da - a)) == 0;
}

static bool ethernet_class(const char *interconnect)
{
    return !interconnect || !*interconnect || words_text_contains(interconnect, "ethernet") ||
           words_text_contains(interconnect, "gige") || words_text_contains(interconnect, "gbe");
}

bool advise_pair_can_run(const cluster_info *a, const cluster_info *b)
{
    return ethernet_class(a->interconnect) && ethernet_class(b->interconnect);
}

static bool campaign_chosen(const advise_request *r, const campaign *c)
{
    return !r->campaign || strcmp(r->campaign, c->name) == 0;
}

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool listed(const char *cluster, const char *const *clusters, size_t n)
{
    for (size_t i = 0; cluster && i < n; i++)
        if (strcmp(cluster, clusters[i]) == 0)
            return true;
    return false;
}

/* The code the free clusters ran, when there is exactly one. */
static bool choose_code(advise_ctx *ctx, const char *const *clusters, size_t n, char *err,
                        size_t errlen)
{
    const archive *a = ctx->req.arch;
    const char *found = NULL;
    bool any = false;
    ctx->code = ctx->req.code;
    if (ctx->code)
        return true;
    for (size_t k = 0; k < a->ncampaigns; k++) {
        const table *runs = &a->campaigns[k].runs;
        for (size_t r = 0; campaign_chosen(&ctx->req, &a->campaigns[k]) && r < runs->nrows; r++) {
            const char *code = table_text_named(runs, r, "code");
            if (!listed(table_text_named(runs, r, "cluster"), clusters, n))
                continue;
            if (any && !same_text(found, code)) {
                snprintf(err, errlen, "the free clusters ran several codes (%s, %s): choose one "
                         "with --code", found ? found : "(none)", code ? code : "(none)");
                return false;
            }
            found = code;
            any = true;
        }
    }
    ctx->code = found;
    return true;
}

/* Every measured run of the code in the chosen campaigns (rows whose grid
 * does not add up are skipped: `perfcast check` reports them). */
static bool gather_runs(advise_ctx *ctx)
{
    const archive *a = ctx->req.arch;
    size_t total = 0;
    for (size_t k = 0; k < a->ncampaigns; k++)
        total += a->campaigns[k].runs.nrows;
    ctx->runs = malloc(sizeof *ctx->runs * (total ? total : 1));
    if (!ctx->runs)
        return false;
    char *time_col[] = {"time_s"};
    for (size_t k = 0; k < a->ncampaigns; k++) {
        const table *runs = &a->campaigns[k].runs;
        for (size_t r = 0; campaign_chosen(&ctx->req, &a->campaigns[k]) && r < runs->nrows; r++) {
            char err[200];
            labelled_run l;
            if (same_text(table_text_named(runs, r, "code"), ctx->code) &&
                meshrows_label(a, &a->campaigns[k], &r, 1, time_col, 1, &l, err, sizeof err) == 1)
                ctx->runs[ctx->nruns++] = l;
        }
    }
    return true;
}

/* Memory per point from the runs' work_mb, else from printed memory. */
static void memory_per_point(advise_ctx *ctx)
{
    ctx->mb_per_point = ctx->req.mb_per_point;
    if (isfinite(ctx->mb_per_point)) {
        snprintf(ctx->mb_source, sizeof ctx->mb_source, "given with --bytes-per-point");
        return;
    }
    double wp = 0, pp = 0;
    for (size_t i = 0; i < ctx->nruns; i++) {
        const mesh_run *r = &ctx->runs[i].run;
        double points = r->pa * r->pb;
        if (isfinite(r->work_mb) && isfinite(points)) {
            wp += r->work_mb * points;
            pp += points * points;
        }
    }
    if (pp > 0) {
        ctx->mb_per_point = wp / pp;
        snprintf(ctx->mb_source, sizeof ctx->mb_source, "from work_mb of the measured runs");
        return;
    }
    const archive *a = ctx->req.arch;
    for (size_t k = 0; k < a->ncampaigns; k++) {
        const table *runs = &a->campaigns[k].runs;
        for (size_t r = 0; campaign_chosen(&ctx->req, &a->campaigns[k]) && r < runs->nrows; r++) {
            double gb = table_number_named(runs, r, "published_mem_per_proc_gb");
            double points = table_number_named(runs, r, "na") *
                            table_number_named(runs, r, "nb") /
                            table_number_named(runs, r, campaign_procs(&a->campaigns[k]));
            if (same_text(table_text_named(runs, r, "code"), ctx->code) &&
                isfinite(gb * points) &&
                isnan(table_number_named(runs, r, "np_a"))) {
                wp += gb * 1024 * points;
                pp += points * points;
            }
        }
    }
    ctx->mb_per_point = pp > 0 ? wp / pp : NAN;
    snprintf(ctx->mb_source, sizeof ctx->mb_source, "%s",
             pp > 0 ? "from the memory per process printed by the papers (published_mem_per_proc_gb)"
                    : "unknown: no run gives work_mb or a printed memory per process");
}

/* The V-cycles every run of the code ran (the `cycles` column), NAN when
 * no run gives them or they differ: the link's time is per cycle. */
static double runs_cycles(const advise_ctx *ctx)
{
    const archive *a = ctx->req.arch;
    double cycles = NAN;
    for (size_t k = 0; k < a->ncampaigns; k++) {
        const table *runs = &a->campaigns[k].runs;
        for (size_t r = 0; campaign_chosen(&ctx->req, &a->campaigns[k]) && r < runs->nrows; r++) {
            double c = table_number_named(runs, r, "cycles");
            if (!same_text(table_text_named(runs, r, "code"), ctx->code) || isnan(c))
                continue;
            if (!isnan(cycles) && c != cycles)
                return NAN;
            cycles = c;
        }
    }
    return cycles;
}

const char *advise_unknown_name(const advise_request *req)
{
    const campaign *only = req->campaign ? archive_campaign(req->arch, req->campaign) : NULL;
    if (req->campaign && !only)
        return "campaign";
    if (!req->code)
        return NULL;
    size_t n;
    const char **codes = namelist_codes(req->arch, only, &n);
    bool known = !codes; /* out of memory: advise_open fails on its own */
    for (size_t i = 0; i < n; i++)
        known = known || strcmp(codes[i], req->code) == 0;
    free(codes);
    return known ? NULL : "code";
}

bool advise_open(const advise_request *req, const char *const *clusters, size_t nclusters,
                 advise_ctx *ctx, char *err, size_t errlen)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->req = *req;
    const char *unknown = advise_unknown_name(req);
    if (unknown) {
        bool camp = strcmp(unknown, "campaign") == 0;
        snprintf(err, errlen, "no %s '%.100s' in the archive%s%.100s%s", unknown,
                 camp ? req->campaign : req->code, !camp && req->campaign ? " (campaign " : "",
                 !camp && req->campaign ? req->campaign : "", !camp && req->campaign ? ")" : "");
        return false;
    }
    if (!choose_code(ctx, clusters, nclusters, err, errlen))
        return false;
    if (!gather_runs(ctx)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    memory_per_point(ctx);
    ctx->cycles = runs_cycles(ctx);
    /* Each cluster's node contention law, as the strip model's default
     * (roofline where clusters.csv gives both bandwidths, none elsewhere). */
    stripfit_settings s = {.work_tol = 0.02, .contention = RJOPTS_CONTENTION_AUTO,
                           .arch = req->arch};
    stripfits_init(&ctx->fits, &s, ctx->runs, ctx->nruns);
    return true;
}

void advise_close(advise_ctx *ctx)
{
    stripfits_free(&ctx->fits);
    free(ctx->runs);
    memset(ctx, 0, sizeof *ctx);
}

/* Does row r of t describe this option's configuration? For a split,
 * *first is the option's side that the row's cluster (side A) names. */
static bool describes(const campaign *c, size_t r, const advise_option *o, int *first)
{
    const table *t = &c->runs;
    if (table_number_named(t, r, "na") != o->na || table_number_named(t, r, "nb") != o->nb)
        return false;
    const char *ca = table_text_named(t, r, "cluster");
    const char *cb = table_text_named(t, r, "tag_cluster_b");
    double npa = table_number_named(t, r, "np_a"), npb = table_number_named(t, r, "np_b");
    if (o->nsides == 1)
        return isnan(npa) && same_text(ca, o->cluster[0]->name) &&
               table_number_named(t, r, campaign_procs(c)) == o->np[0];
    for (int s = 0; s < 2; s++)
        if (same_text(ca, o->cluster[s]->name) && same_text(cb, o->cluster[1 - s]->name) &&
            npa == o->np[s] && npb == o->np[1 - s]) {
            *first = s;
            return true;
        }
    return false;
}

/* A published prediction for exactly this configuration, if a paper
 * printed one: time, rows per process (split) and the source text. */
static bool published(const advise_ctx *ctx, advise_option *o)
{
    const archive *a = ctx->req.arch;
    for (size_t k = 0; k < a->ncampaigns; k++) {
        const campaign *c = &a->campaigns[k];
        const table *t = &c->runs;
        for (size_t r = 0; campaign_chosen(&ctx->req, c) && r < t->nrows; r++) {
            double p = table_number_named(t, r, "published_prediction_s");
            int first = 0;
            if (!isfinite(p) || !same_text(table_text_named(t, r, "code"), ctx->code) ||
                !describes(c, r, o, &first))
                continue;
            double ra = table_number_named(t, r, "rows_a");
            double rb = table_number_named(t, r, "rows_b");
            if (o->nsides == 2 && ra > 0 && rb > 0) {
                o->rows[first] = ra / o->np[first];
                o->rows[1 - first] = rb / o->np[1 - first];
            }
            o->time_s = p;
            o->time_from = ADVISE_TIME_PUBLISHED;
            snprintf(o->interval, sizeof o->interval, "no interval: a paper's printed "
                     "prediction");
            o->published_in = c;
            o->published_row = r;
            snprintf(o->no_model, sizeof o->no_model, "%.290s", o->source);
            snprintf(o->source, sizeof o->source,
                     "published prediction (campaign %.60s, runs.csv line %ld)", c->name,
                     t->line ? t->line[r] : 0L);
            return true;
        }
    }
    return false;
}

/* The most rows per process a cluster's memory holds (INFINITY: unknown). */
static double rows_capacity(const advise_ctx *ctx, const cluster_info *c, double nb)
{
    if (!isfinite(c->mem_per_core_gb) || !(ctx->mb_per_point > 0))
        return INFINITY;
    return floor(c->mem_per_core_gb * 1024 * (1 + 1e-9) / (ctx->mb_per_point * nb));
}

/* The pooled strip width for the intervals (experiment_pooled_width_fn;
 * ctx the advise_ctx): the pool's backtests outside the campaign asked
 * for, every campaign's when none was. At the smooth roughness unit
 * (gen/fit/pooled_width.h): advise's strip laws come from a cluster's runs,
 * not an experiment's training selection, so calibration's rule for the
 * unit has no lines to measure here; a strip campaign recorded as
 * mgbench/campaign records it (one work level per process, np rising)
 * has none either, and gets that unit when calibrated. */
static double advise_pooled_width(const void *ctx, const char *family, double distance,
                                  size_t *npool, size_t *nprior)
{
    const advise_ctx *c = ctx;
    const campaign *asked = c->req.campaign ? archive_campaign(c->req.arch, c->req.campaign)
                                            : NULL;
    return pooled_half_width(c->req.pool, family, asked, distance, NAN, npool, nprior);
}

/* A single cluster's interval: the pooled strip width at the option's
 * distance beyond the cluster's training runs. */
static void single_interval(const advise_ctx *ctx, const strip_model *m, advise_option *o)
{
    double d = multicluster_side_distance(m, o->np[0], o->rows[0]);
    size_t npool = 0, nprior = 0;
    double h = advise_pooled_width(ctx, "strip", d, &npool, &nprior);
    if (!isfinite(h)) {
        snprintf(o->interval, sizeof o->interval, "no interval: %s",
                 ctx->req.pool ? "the archive has no pooled strip backtests"
                               : "no pooled backtests were given");
        return;
    }
    o->time_low = o->time_s * exp(-h);
    o->time_high = o->time_s * exp(h);
    char from[200];
    pooled_width_source_text("strip", npool, nprior, from, sizeof from);
    snprintf(o->interval, sizeof o->interval, "95%% interval \xC3\x97/\xC3\xB7%.3g: %s, %.2g "
             "doubling%s beyond %s's training runs", exp(h), from, isfinite(d) ? d : 0.0,
             isfinite(d) && d == 1 ? "" : "s", o->cluster[0]->name);
}

/* The strip model on one cluster; false (with the reason in o->source). */
/* Whether the options are runs of mgbench, whose rules on rows per
 * process advise then keeps (gen/advice/runnable.h). */
static bool runs_mgbench(const advise_ctx *ctx)
{
    return ctx->code && strcmp(ctx->code, "mgbench") == 0;
}

/* Processes per node of np processes on cluster c, placed as a batch
 * system fills whole nodes: up to its cores per node; NAN when unknown. */
static double placed_ppn(const cluster_info *c, double np)
{
    return c->cores_per_node > 0 ? fmin(np, c->cores_per_node) : NAN;
}

/* Whether a strip law's time for np processes of rows rows each on
 * cluster c is a prediction (experiment_time_holds); when not, why in
 * o->source: the time, and which part of the law went below zero (the
 * overhead law's gamma x work can outweigh Tcomp once the work is far
 * beyond the training runs'). who names the law ("the strip model"). */
static bool strip_time_holds(advise_option *o, const char *who, const cluster_info *c,
                             double np, double rows, const strip_prediction *p)
{
    if (experiment_time_holds(p->time_s))
        return true;
    char gives[40] = "no finite time", part[160] = "";
    if (isfinite(p->time_s))
        snprintf(gives, sizeof gives, "%.4g s", p->time_s);
    if (isfinite(p->tcomm_s) && p->tcomm_s < 0 && isfinite(p->tcomp_s))
        snprintf(part, sizeof part, " (its overhead law goes below zero there: %.3g s against "
                 "a Tcomp of %.3g s)", p->tcomm_s, p->tcomp_s);
    else if (isfinite(p->tcomp_s) && p->tcomp_s <= 0)
        snprintf(part, sizeof part, " (its Tcomp goes below zero there: %.3g s)", p->tcomp_s);
    snprintf(o->source, sizeof o->source, "%s gives %s on %.60s at %.6g rows per process on "
             "%.6g processes, %s%s", who, gives, c->name, rows, np,
             isfinite(p->time_s) ? EXPERIMENT_NONPOSITIVE_TIME
                                 : "no time: the model does not hold at this target", part);
    return false;
}

static bool model_single(advise_ctx *ctx, advise_option *o)
{
    const stripfit *f = stripfits_get(&ctx->fits, o->cluster[0]->name, ctx->code, o->nb);
    if (!f || !f->ok) {
        snprintf(o->source, sizeof o->source, "%s", f ? f->error : "out of memory");
        return false;
    }
    strip_target t = {o->np[0], o->rows[0], o->nb, NAN};
    strip_prediction p;
    if (!strip_predict_contended(&f->model, &t, placed_ppn(o->cluster[0], o->np[0]), &p)) {
        snprintf(o->source, sizeof o->source, "no Tcomp for %.15gx%.15g per process", o->rows[0],
                 o->nb);
        return false;
    }
    if (!strip_time_holds(o, "the strip model", o->cluster[0], o->np[0], o->rows[0], &p))
        return false;
    o->time_s = p.time_s;
    o->time_from = ADVISE_TIME_MODEL;
    snprintf(o->source, sizeof o->source, "strip model on %zu configurations; Tcomp %s%s",
             f->model.configs.nconfigs, mesh_match_text(p.tcomp_match),
             p.contention > 1 ? ", crowded on its nodes (contention law)" : "");
    single_interval(ctx, &f->model, o);
    return true;
}

/* Most rows-per-process counts of side A tried for a split mgbench can
 * run: beyond it the search would outlast the answer's use. */
enum { MAX_SPLIT_TRIES = 1000000 };

/* The split mgbench can run (gen/advice/runnable.h) with the least
 * predicted time, within each side's memory, trying every whole number of
 * rows per process on side A; the others are counted in o->excluded by
 * why. False when none can run. */
static bool best_runnable_split(const multicluster_side sides[2], advise_option *o,
                                const multicluster_balance_options *bo,
                                multicluster_prediction *best)
{
    double np[2] = {sides[0].np, sides[1].np};
    bool found = false;
    for (double ra = 1; np[0] * ra < o->na && ra <= bo->max_rows[0] && ra <= MAX_SPLIT_TRIES;
         ra++) {
        double rows[2] = {ra, (o->na - np[0] * ra) / np[1]};
        runnable_why why = runnable_split_why(np, rows, o->na, o->nb, bo->quantum);
        multicluster_prediction p;
        if (why != RUNNABLE_YES) {
            o->excluded[why]++;
            continue;
        }
        if (rows[1] > bo->max_rows[1] || !multicluster_predict(sides, o->nb, rows, bo->link, &p))
            continue;
        if (!found || p.time_s < best->time_s)
            *best = p;
        found = true;
    }
    return found;
}

/* The link between the option's two clusters for the runs' V-cycles, by
 * the rule the multi-cluster model takes by default (gen/ingest/pair_link.h):
 * measured by ping-pong where a chosen campaign has rows for the pair (the
 * first such campaign in the archive's order), else the nominal values of
 * clusters.csv; NULL when neither is known. *measured says which. */
static const multicluster_link *option_link(const advise_ctx *ctx, const advise_option *o,
                                            multicluster_link *buf, pair_link *pl)
{
    const archive *a = ctx->req.arch;
    const campaign *chosen = ctx->req.campaign ? archive_campaign(a, ctx->req.campaign)
                                               : a->campaigns;
    size_t nchosen = ctx->req.campaign ? (chosen != NULL) : a->ncampaigns;
    bool known = archive_pair_link(chosen, nchosen, o->cluster[0], o->cluster[1],
                                   o->cluster[0]->name, o->cluster[1]->name, PAIR_LINK_AUTO, pl);
    *buf = (multicluster_link){pl->bw_bytes_s, pl->latency_s, ctx->cycles, pl->shared};
    return known && multicluster_link_known(buf) ? buf : NULL;
}

/* "; the link between the clusters: 0.4 s of 2.5 s; equal split: 2.6 s" */
static void split_text(const multicluster_side sides[2], const advise_option *o,
                       const multicluster_prediction *p, const multicluster_link *link,
                       bool measured, char *buf, size_t len)
{
    double rows[2];
    multicluster_equal_rows(sides, o->na, rows);
    multicluster_prediction eq;
    size_t used = 0;
    buf[0] = '\0';
    if (link)
        used = (size_t)snprintf(buf, len, "; the link between the clusters%s: %.3g s of %.4g s",
                                measured ? " (measured by ping-pong)" : "", p->link_s,
                                p->time_s);
    if (used < len && multicluster_predict(sides, o->nb, rows, link, &eq))
        snprintf(buf + used, len - used, "; equal split (%.6g / %.6g rows per process): %.4g s",
                 rows[0], rows[1], eq.time_s);
}

/* "; Tcomp x1.7 on A (contention law)" appended to text for each side the
 * contention law crowds; nothing when none is. */
static void crowded_text(const multicluster_prediction *p, char *text, size_t len)
{
    for (int i = 0; i < 2; i++) {
        size_t used = strlen(text);
        if (p->side[i].contention > 1 && used < len)
            snprintf(text + used, len - used, "; Tcomp \xC3\x97%.3g on side %c (contention law)",
                     p->side[i].contention, 'A' + i);
    }
}

/* Whether the split's time is a prediction: each side's strip law must
 * give one (T = max(TA, TB) can stay above zero while one side's law has
 * gone below it, and then the model does not hold either). False with why
 * in o->source. */
static bool split_time_holds(advise_option *o, const multicluster_prediction *p)
{
    static const char *const who[2] = {"side A's strip model", "side B's strip model"};
    for (int i = 0; i < 2; i++)
        if (!strip_time_holds(o, who[i], o->cluster[i], o->np[i], p->rows[i], &p->side[i]))
            return false;
    if (experiment_time_holds(p->time_s))
        return true;
    snprintf(o->source, sizeof o->source, "the multi-cluster model gives no time above zero for "
             "this split: the model does not hold at this target");
    return false;
}

/* The multi-cluster model with the balanced split (for mgbench, the best
 * split it can run); false with the reason, and *excluded set when the
 * option cannot be run at all. */
static bool model_split(advise_ctx *ctx, advise_option *o, bool *too_big, const char **excluded)
{
    multicluster_side sides[2];
    for (int i = 0; i < 2; i++) {
        const stripfit *f = stripfits_get(&ctx->fits, o->cluster[i]->name, ctx->code, o->nb);
        if (!f || !f->ok) {
            snprintf(o->source, sizeof o->source, "%s", f ? f->error : "out of memory");
            return false;
        }
        sides[i] = (multicluster_side){&f->model, o->np[i], placed_ppn(o->cluster[i], o->np[i])};
    }
    multicluster_link link_buf;
    pair_link pl;
    const multicluster_link *link = option_link(ctx, o, &link_buf, &pl);
    bool measured = pl.status == PAIR_LINK_CHOSEN_MEASURED;
    multicluster_balance_options bo = {
        ctx->req.quantum,
        {rows_capacity(ctx, o->cluster[0], o->nb), rows_capacity(ctx, o->cluster[1], o->nb)},
        link};
    multicluster_prediction p;
    if (!multicluster_balance(sides, o->nb, o->na, &bo, &p)) {
        *too_big = isfinite(bo.max_rows[0]) && isfinite(bo.max_rows[1]);
        snprintf(o->source, sizeof o->source, "no row split fits both sides%s",
                 *too_big ? "' memory" : "");
        return false;
    }
    bool mgbench = runs_mgbench(ctx);
    if (mgbench && !best_runnable_split(sides, o, &bo, &p)) {
        int used = snprintf(o->source, sizeof o->source, "mgbench cannot run any split of these "
                            "rows over these processes: ");
        advise_excluded_text(o, "; ", o->source + used, sizeof o->source - (size_t)used);
        *excluded = o->source;
        return false;
    }
    if (!split_time_holds(o, &p))
        return false;
    o->rows[0] = p.rows[0];
    o->rows[1] = p.rows[1];
    o->time_s = p.time_s;
    o->time_from = ADVISE_TIME_MODEL;
    multicluster_pi_input pin = {sides, {o->cluster[0]->name, o->cluster[1]->name}, o->nb, &p,
                                 link, &pl, ctx->req.pool ? advise_pooled_width : NULL, ctx};
    multicluster_pi(&pin, &o->time_low, &o->time_high, o->interval, sizeof o->interval);
    char more[256], parts[200], tcomp[160];
    split_text(sides, o, &p, link, measured, more, sizeof more);
    multicluster_parts_text(&p, parts, sizeof parts);
    mesh_match_pair_text(p.side[0].tcomp_match, p.side[1].tcomp_match, tcomp, sizeof tcomp);
    snprintf(o->source, sizeof o->source,
             "multi-cluster model, balanced split%s (%s)%s; Tcomp %s%s",
             mgbench ? " among the splits mgbench can run" : "", parts,
             p.uneven && !mgbench ? ", rows uneven across processes" : "", tcomp, more);
    crowded_text(&p, o->source, sizeof o->source);
    return true;
}

void advise_excluded_text(const advise_option *o, const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int why = RUNNABLE_YES + 1; why < RUNNABLE_KINDS && used < len; why++)
        if (o->excluded[why] > 0)
            used += (size_t)snprintf(buf + used, len - used, "%s%g split%s left out: %s",
                                     used ? sep : "", o->excluded[why],
                                     o->excluded[why] == 1 ? "" : "s",
                                     runnable_why_text((runnable_why)why));
}

void advise_source_text(const advise_option *o, char *buf, size_t len)
{
    if (o->no_model[0])
        snprintf(buf, len, "%s; no model: %s", o->source, o->no_model);
    else
        snprintf(buf, len, "%s", o->source);
}

static void name_option(advise_option *o)
{
    size_t used = 0;
    for (int i = 0; i < o->nsides; i++)
        used += (size_t)snprintf(o->name + used, sizeof o->name - used, "%s%s:%g",
                                 i ? " + " : "", o->cluster[i]->name, o->np[i]);
}

/* Memory, costing and the feasibility verdict once time and rows are
 * known; excluded (NULL: none) says why the option cannot run at all. */
static void assess(advise_ctx *ctx, advise_option *o, bool too_big, const char *excluded)
{
    costing_side sides[2];
    for (int i = 0; i < o->nsides; i++) {
        const cluster_info *c = o->cluster[i];
        o->costing[i] = (costing_cluster){c->name, c->mem_per_core_gb, c->rate_per_core_hour,
                                          c->currency};
        o->mem_mb[i] = ctx->mb_per_point * o->rows[i] * o->nb;
        sides[i] = (costing_side){&o->costing[i], o->np[i], o->mem_mb[i]};
    }
    costing_evaluate(sides, (size_t)o->nsides, isfinite(o->time_s) ? o->time_s : 0, &o->cost);
    if (!isfinite(o->time_s)) {
        o->cost.cost = o->cost.core_hours = NAN;
    }
    o->feasible = o->cost.fit != COSTING_TOO_BIG && !too_big && !excluded;
    if (!o->feasible)
        snprintf(o->reason, sizeof o->reason, "%s",
                 excluded                          ? excluded
                 : o->cost.fit == COSTING_TOO_BIG ? o->cost.reason
                                                   : "no row split fits both sides' memory");
}

/* Evaluate with the given starting rows per process (used when no model
 * chooses them). */
static void evaluate_rows(advise_ctx *ctx, int nsides, const cluster_info *const *c,
                          const double *np, double na, double nb, const double *rows,
                          advise_option *o)
{
    memset(o, 0, sizeof *o);
    o->nsides = nsides;
    o->na = na;
    o->nb = nb;
    o->time_s = o->time_low = o->time_high = NAN;
    for (int i = 0; i < nsides; i++) {
        o->cluster[i] = c[i];
        o->np[i] = np[i];
        o->rows[i] = rows[i];
    }
    name_option(o);
    bool too_big = false;
    const char *excluded = NULL;
    if (nsides == 1 && runs_mgbench(ctx) && !runnable_strip(np[0], na))
        excluded = "mgbench cannot run it: the rows are not divisible by the processes "
                   "(each owns na/np whole rows)";
    bool modelled = nsides == 1 ? model_single(ctx, o)
                                : model_split(ctx, o, &too_big, &excluded);
    if (!modelled && !too_big && !excluded)
        published(ctx, o);
    assess(ctx, o, too_big, excluded);
}

void advise_evaluate(advise_ctx *ctx, int nsides, const cluster_info *const *c,
                     const double *np, double na, double nb, advise_option *o)
{
    /* Alone: na/np rows each; split: half the rows per side, as in seed 000
     * Tables I-II, until a model balances them. */
    double rows[2] = {nsides == 1 ? na / np[0] : na / 2 / np[0], nsides == 2 ? na / 2 / np[1] : 0};
    evaluate_rows(ctx, nsides, c, np, na, nb, rows, o);
}

double advise_largest(advise_ctx *ctx, int nsides, const cluster_info *const *c,
                      const double *np, advise_option *o)
{
    costing_cluster cc[2];
    costing_side sides[2];
    for (int i = 0; i < nsides; i++) {
        cc[i] = (costing_cluster){c[i]->name, c[i]->mem_per_core_gb, c[i]->rate_per_core_hour,
                                  c[i]->currency};
        sides[i] = (costing_side){&cc[i], np[i], NAN};
    }
    double rows[2] = {0, 0};
    double n = costing_largest_pow2(sides, (size_t)nsides, ctx->mb_per_point, rows);
    if (n == 0) {
        advise_evaluate(ctx, nsides, c, np, 2, 2, o);
        o->feasible = false;
        snprintf(o->reason, sizeof o->reason, "%s",
                 isfinite(ctx->mb_per_point) ? "even a 2 x 2 mesh does not fit, or a cluster's "
                                               "memory per core is unknown"
                                             : "the memory per mesh point is unknown");
        return 0;
    }
    /* Without a model the rows go to each side in proportion to its memory. */
    evaluate_rows(ctx, nsides, c, np, n, n, rows, o);
    return n;
}

bool advise_enumerate(advise_ctx *ctx, const cluster_info *const *cl, const double *np,
                      size_t n, bool maximize, double na, double nb, advise_list *out)
{
    size_t cap = n + n * (n - 1) / 2;
    *out = (advise_list){0};
    out->items = calloc(cap ? cap : 1, sizeof *out->items);
    out->size = calloc(cap ? cap : 1, sizeof *out->size);
    if (!out->items || !out->size)
        return false;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j < n; j++) {
            if (j > i && (advise_same_machine(cl[i]->name, cl[j]->name) ||
                          !advise_pair_can_run(cl[i], cl[j])))
                continue;
            const cluster_info *pair[2] = {cl[i], cl[j]};
            double nps[2] = {np[i], np[j]};
            int sides = j == i ? 1 : 2;
            advise_option *o = &out->items[out->n];
            if (maximize) {
                out->size[out->n] = advise_largest(ctx, sides, pair, nps, o);
            } else {
                advise_evaluate(ctx, sides, pair, nps, na, nb, o);
                out->size[out->n] = na;
            }
            out->n++;
        }
    return true;
}

void advise_list_free(advise_list *l)
{
    free(l->items);
    free(l->size);
    *l = (advise_list){0};
}

/* Insertion keeps equal options in their order, which the pages and the
 * CLI's output rely on to be reproducible. */
size_t advise_rank(const advise_list *l, bool by_cost, bool larger_first, size_t *order)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++) {
        const advise_option *o = &l->items[i];
        double key = by_cost ? o->cost.cost : o->time_s;
        if (!o->feasible || !isfinite(key))
            continue;
        size_t k = n++;
        for (; k > 0; k--) {
            const advise_option *p = &l->items[order[k - 1]];
            double pm = l->size[order[k - 1]], m = l->size[i];
            bool before = larger_first && pm != m ? pm > m
                                                  : (by_cost ? p->cost.cost : p->time_s) <= key;
            if (before)
                break;
            order[k] = order[k - 1];
        }
        order[k] = i;
    }
    return n;
}
