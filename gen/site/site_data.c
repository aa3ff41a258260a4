/*
 * site_data.c — loads the archive, runs the experiments and derives the
 * costs and alerts the pages show (see site_data.h).
 */
#include "gen/site/site_data.h"
#include "gen/site/site_published.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen/base/config_index.h"
#include "gen/base/growth.h"
#include "gen/base/parallel.h"
#include "gen/base/slug.h"
#include "gen/fit/experiment_run.h"
#include "gen/fit/fit_record.h"
#include "gen/site/site_inputs.h"
#include "gen/ingest/experiment_names.h"
#include "gen/ingest/run_layout.h"
#include "models/costing.h"

/* ------------------------------------------------------------------ */
/* Cells and labels                                                    */

double site_response(const site_experiment *e, size_t row)
{
    const experiment_input *in = &e->res.input;
    if (in->nresponses == 0) /* no response column: nothing is measured */
        return NAN;
    return experiment_row_response(&in->camp->runs, row, in->responses, in->nresponses);
}

void site_config_label(const site_experiment *e, size_t row, bool with_cluster, int skip,
                       rbuf *out)
{
    site_columns_label(&e->res.input.camp->runs, e->shown, e->nshown, row, with_cluster, skip,
                       out);
}

void site_config_words(const site_experiment *e, size_t row, rbuf *out)
{
    size_t before = out->len;
    site_columns_words(e->res.input.camp, e->shown, e->nshown, row, -1,
                       SITE_WORDS_CLUSTER | SITE_WORDS_PROCESSES, out);
    if (out->len == before)
        rbuf_puts(out, "all runs");
}

void site_series_label(const site_experiment *e, size_t row, rbuf *out)
{
    const table *t = &e->res.input.camp->runs;
    const campaign *camp = e->res.input.camp;
    bool x_counts = e->x_col >= 0 && site_is_process_count(camp, t->cols[e->x_col].name);
    size_t cols[64], n = 0;
    for (size_t i = 0; i < e->nshown && n < 64; i++) {
        size_t c = e->shown[i];
        const char *name = t->cols[c].name;
        if (!e->varies[i] || (int)c == e->x_col || (x_counts && site_is_process_count(camp, name)))
            continue;
        cols[n++] = c;
    }
    size_t before = out->len;
    site_columns_words(camp, cols, n, row, -1, SITE_WORDS_CLUSTER | SITE_WORDS_PROCESSES, out);
    if (out->len == before)
        rbuf_puts(out, "all runs");
}

int site_cluster_index(const site_data *d, const char *name)
{
    for (size_t i = 0; name && i < d->nclusters; i++)
        if (strcmp(d->clusters[i].info->name, name) == 0)
            return (int)i;
    return -1;
}

/* ------------------------------------------------------------------ */
/* Which columns an experiment shows                                   */

/* Rows the experiment touches: its training runs and every target row. */
static size_t experiment_rows(const experiment_input *in, size_t **rows)
{
    size_t n = in->ntrain;
    for (size_t i = 0; i < in->ntargets; i++)
        n += in->targets[i].nrows;
    *rows = malloc((n ? n : 1) * sizeof **rows);
    if (!*rows)
        return 0;
    size_t k = 0;
    for (size_t i = 0; i < in->ntrain; i++)
        (*rows)[k++] = in->train_rows[i];
    for (size_t i = 0; i < in->ntargets; i++)
        for (size_t j = 0; j < in->targets[i].nrows; j++)
            (*rows)[k++] = in->targets[i].rows[j];
    return k;
}

/* The experiment's shown columns (site_shown_columns over the rows it
 * touches) and its x: the process count when it varies, else the first
 * varying numeric column. */
static bool choose_columns(site_experiment *e)
{
    const experiment_input *in = &e->res.input;
    const table *t = &in->camp->runs;
    size_t *rows;
    size_t n = experiment_rows(in, &rows);
    bool ok = rows && site_shown_columns(in->camp, rows, n, &e->shown, &e->varies, &e->nshown);
    free(rows);
    if (!ok)
        return false;
    int first_varying_number = -1, np_col = -1;
    bool np_varies = false;
    for (size_t i = 0; i < e->nshown; i++) {
        const table_column *col = &t->cols[e->shown[i]];
        if (strcmp(col->name, campaign_procs(in->camp)) == 0)
            np_col = (int)e->shown[i], np_varies = e->varies[i];
        else if (e->varies[i] && col->kind == COL_NUMBER && first_varying_number < 0)
            first_varying_number = (int)e->shown[i];
    }
    e->x_col = np_varies || first_varying_number < 0 ? np_col : first_varying_number;
    e->x_scale = SCALE_LOG10;
    if (e->x_col >= 0 && site_is_process_count(in->camp, t->cols[e->x_col].name))
        e->x_scale = SCALE_LOG2;
    return true;
}

/* ------------------------------------------------------------------ */
/* Campaigns                                                           */

/* date becomes s when s is a newer date (YYYY-MM-DD) than it. */
static void keep_newer(char date[11], const char *s)
{
    if (s && strlen(s) == 10 && strcmp(s, date) > 0)
        memcpy(date, s, 11);
}

/* The campaign's newest run date and measured runs, and each run's date
 * made its clusters' (column cluster, and cluster_b of a split) newest. */
static void newest_date(site_data *d, const table *t, char date[11], size_t *measured)
{
    int dc = table_find(t, "date"), tc = table_find(t, "time_s");
    int cc = table_find(t, "cluster"), cbc = table_find(t, "cluster_b");
    for (size_t r = 0; r < t->nrows; r++) {
        const char *s = dc >= 0 ? table_text(t, r, (size_t)dc) : NULL;
        keep_newer(date, s);
        int a = cc >= 0 ? site_cluster_index(d, table_text(t, r, (size_t)cc)) : -1;
        int b = cbc >= 0 ? site_cluster_index(d, table_text(t, r, (size_t)cbc)) : -1;
        if (a >= 0)
            keep_newer(d->clusters[a].last_date, s);
        if (b >= 0)
            keep_newer(d->clusters[b].last_date, s);
        if (tc >= 0 && !isnan(table_number(t, r, (size_t)tc)))
            (*measured)++;
    }
}

static char *make_slug(const char *name)
{
    rbuf b;
    rbuf_init(&b);
    slug_append(name, &b);
    return rbuf_take(&b);
}

/* The id of the experiment's heading (experiment_name_anchor): a name with
 * spaces or punctuation ("FFT (comm), 3-D") still gives a valid id, unique
 * in the campaign (experiments.csv is checked for clashes). */
static char *make_anchor(const char *name)
{
    rbuf b;
    rbuf_init(&b);
    experiment_name_anchor(name, &b);
    return rbuf_take(&b);
}

/* The campaign's verdict and pooled comparison from its experiments'. */
static bool judge_campaign(site_campaign *sc)
{
    verdict *per = malloc((sc->nexps ? sc->nexps : 1) * sizeof *per);
    const char **names = malloc((sc->nexps ? sc->nexps : 1) * sizeof *names);
    compare_result *cmp = malloc((sc->nexps ? sc->nexps : 1) * sizeof *cmp);
    bool ok = per && names && cmp;
    for (size_t i = 0; ok && i < sc->nexps; i++) {
        per[i] = sc->exps[i].verdict;
        names[i] = sc->exps[i].info->name;
        cmp[i] = sc->exps[i].compare;
    }
    ok = ok && verdict_campaign(per, names, sc->nexps, &sc->verdict) &&
         compare_campaign_pool(cmp, sc->nexps, &sc->compare);
    free(per);
    free(names);
    free(cmp);
    return ok;
}

/* An experiment perfcast check found a problem in is not run: its result
 * is a failure that shows the problem (and selects no rows). */
static void refuse_experiment(const archive *a, const campaign *c, const experiment_info *e,
                              experiment_result *res)
{
    memset(res, 0, sizeof *res);
    report_init(&res->rep);
    res->input = (experiment_input){.arch = a, .camp = c, .exp = e};
    snprintf(res->error, sizeof res->error, "%s", e->problem);
}

/* Read the record old (len bytes) of e's results back into e: true when
 * it read back whole; else e holds nothing and is to be fitted. */
static bool read_back(const site_data *d, const campaign *c, const char *old, size_t len,
                      site_experiment *e)
{
    experiment_prepare(&d->arch, c, e->info, &e->res); /* its failure is recorded too */
    if (fit_record_read(old, len, &e->res, &e->compare))
        return true;
    experiment_result_free(&e->res);
    compare_result_free(&e->compare);
    return false;
}

/* The experiments of campaign i (one of the archive's), with every
 * result the previous build's cache holds for them read back
 * (parallel_for over the campaigns: each writes its own experiments
 * only). Memory that cannot be had is left NULL, for fit_experiments to
 * report. */
static void read_cached_fits(void *ctx, size_t i)
{
    const site_data *d = ctx;
    site_campaign *sc = &d->camps[i];
    const campaign *c = sc->camp;
    if (!(sc->exps = calloc(c->nexperiments ? c->nexperiments : 1, sizeof *sc->exps)))
        return;
    sc->nexps = c->nexperiments; /* each one's memory is the campaign's to free */
    uint64_t key = site_fitcache_key(d->fitcache, c);
    for (size_t j = 0; j < c->nexperiments; j++) {
        site_experiment *e = &sc->exps[j];
        e->info = &c->experiments[j];
        size_t len = 0;
        const char *old = e->info->problem ? NULL
                                           : site_fitcache_find(d->fitcache, c, j, key, &len);
        e->read_back = old && read_back(d, c, old, len, e);
    }
}

/* Experiment index of campaign c fitted and compared through the build's
 * fit cache: read back when the previous build kept it under key (already
 * done when e->read_back: read_cached_fits; the record must read back
 * whole, else it is refitted), run otherwise; kept for the next build
 * either way. False only when out of memory. */
static bool run_cached(site_data *d, const campaign *c, size_t index, uint64_t key,
                       backtest_cache *cache, site_experiment *e)
{
    size_t len = 0;
    const char *old = site_fitcache_find(d->fitcache, c, index, key, &len);
    if (old && !e->read_back)
        e->read_back = read_back(d, c, old, len, e);
    if (old && e->read_back)
        return site_fitcache_keep(d->fitcache, c, index, key, old, len, true);
    experiment_run_shared(&d->arch, c, e->info, cache, &e->res);
    if (!compare_experiment_run(&d->arch, c, e->info, &e->res, false, cache, &e->compare))
        return false;
    rbuf record;
    rbuf_init(&record);
    bool ok = fit_record_write(&e->res, &e->compare, &record) &&
              site_fitcache_keep(d->fitcache, c, index, key, record.data, record.len, false);
    rbuf_free(&record);
    return ok;
}

/* Fit and compare experiment index of c: refused when `check` found a
 * problem in it, with fit when a caller supplies one, through the fit
 * cache when the build has one. False only when out of memory. */
static bool run_experiment(site_data *d, const campaign *c, size_t index, uint64_t key,
                           site_fit_fn fit, void *fit_ctx, backtest_cache *cache,
                           site_experiment *e)
{
    if (!e->info->problem && !fit && d->fitcache)
        return run_cached(d, c, index, key, cache, e);
    if (e->info->problem)
        refuse_experiment(&d->arch, c, e->info, &e->res);
    else if (fit)
        fit(fit_ctx, &d->arch, c, e->info, &e->res);
    else
        experiment_run_shared(&d->arch, c, e->info, cache, &e->res);
    return compare_experiment_run(&d->arch, c, e->info, &e->res, false, cache, &e->compare);
}

/* Run the campaign's experiments; lent backtests are shared through
 * cache by every experiment of the build. */
static bool fit_experiments(site_data *d, site_campaign *sc, site_fit_fn fit, void *fit_ctx,
                            backtest_cache *cache)
{
    const campaign *c = sc->camp;
    if (!sc->exps) /* else made by read_cached_fits */
        sc->exps = calloc(c->nexperiments ? c->nexperiments : 1, sizeof *sc->exps);
    if (!sc->exps)
        return false;
    sc->nexps = c->nexperiments; /* zeroed until run: each is the campaign's to free */
    uint64_t key = d->fitcache ? site_fitcache_key(d->fitcache, c) : 0;
    sc->inputs_key = key;
    for (size_t i = 0; i < c->nexperiments; i++) {
        site_experiment *e = &sc->exps[i];
        e->info = &c->experiments[i];
        if (!run_experiment(d, c, i, key, fit, fit_ctx, cache, e))
            return false;
    }
    return true;
}

/* The columns that name the campaign's jobs (site_campaign.job_cols):
 * chosen over all its runs, not per experiment, since two experiments
 * that each hold one column constant (class A in one, class B in the
 * other) would otherwise name different jobs alike. */
static bool choose_job_columns(site_campaign *sc)
{
    size_t n = sc->camp->runs.nrows;
    size_t *rows = malloc((n ? n : 1) * sizeof *rows);
    bool *varies = NULL;
    for (size_t i = 0; rows && i < n; i++)
        rows[i] = i;
    bool ok = rows && site_shown_columns(sc->camp, rows, n, &sc->job_cols, &varies,
                                         &sc->njob_cols);
    free(rows);
    free(varies);
    return ok;
}

/* What the pages show of a fitted campaign's experiments, from their
 * results alone: anchors, columns, verdicts. */
static bool judge_experiments(site_campaign *sc)
{
    if (!choose_job_columns(sc))
        return false;
    for (size_t i = 0; i < sc->nexps; i++) {
        site_experiment *e = &sc->exps[i];
        if (!(e->anchor = make_anchor(e->info->name)) || !choose_columns(e) ||
            !verdict_judge(&e->res, &e->verdict))
            return false;
    }
    return judge_campaign(sc);
}

/* Campaigns judged on the build's threads (parallel_for: each writes its
 * own experiments only); judged[i] false when memory ran out. */
typedef struct {
    site_data *d;
    bool *judged;
} judge_job;

static void judge_item(void *ctx, size_t i)
{
    judge_job *j = ctx;
    site_campaign *sc = &j->d->camps[i];
    j->judged[i] = !sc->camp || judge_experiments(sc);
}

static bool judge_every_campaign(site_data *d, int jobs)
{
    judge_job j = {d, calloc(d->ncamps ? d->ncamps : 1, sizeof *j.judged)};
    if (!j.judged)
        return false;
    parallel_for(d->ncamps, jobs, judge_item, &j);
    bool ok = true;
    for (size_t i = 0; i < d->ncamps; i++)
        ok = ok && j.judged[i];
    free(j.judged);
    return ok;
}

/* "file:line:col: message" with the file relative to prefix. */
static char *problem_text(const diag *g, size_t prefix_len)
{
    rbuf b;
    rbuf_init(&b);
    rbuf_puts(&b, g->file + prefix_len);
    if (g->line > 0)
        rbuf_printf(&b, ":%ld:%ld", g->line, g->column > 0 ? g->column : 1);
    rbuf_printf(&b, ": %s", g->message);
    return rbuf_take(&b);
}

static bool add_string(char ***list, size_t *n, char *s)
{
    char **more = s ? realloc(*list, (*n + 1) * sizeof *more) : NULL;
    if (!more) {
        free(s);
        return false;
    }
    *list = more;
    (*list)[(*n)++] = s;
    return true;
}

static bool has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Problems recorded for files under prefix ("DIR/NAME/"). */
static bool collect_problems(const diag_list *diags, const char *prefix, char ***out, size_t *n)
{
    for (size_t i = 0; i < diags->count; i++)
        if (has_prefix(diags->items[i].file, prefix) &&
            !add_string(out, n, problem_text(&diags->items[i], strlen(prefix))))
            return false;
    return true;
}

static int compare_campaigns(const void *a, const void *b)
{
    return strcmp(((const site_campaign *)a)->name, ((const site_campaign *)b)->name);
}

static bool load_each_campaign(site_data *d, site_fit_fn fit, void *fit_ctx,
                               backtest_cache *cache, int jobs)
{
    const archive *a = &d->arch;
    size_t n = a->ncampaigns + a->nskipped;
    d->camps = calloc(n ? n : 1, sizeof *d->camps);
    if (!d->camps)
        return false;
    for (size_t i = 0; i < n; i++) {
        site_campaign *sc = &d->camps[d->ncamps++];
        bool loaded = i < a->ncampaigns;
        sc->camp = loaded ? &a->campaigns[i] : NULL;
        sc->name = loaded ? sc->camp->name : a->skipped[i - a->ncampaigns];
        if (!(sc->slug = make_slug(sc->name)))
            return false;
    }
    /* Reading records back depends on nothing another campaign does:
     * done first, on the build's threads; fitting (which lends backtests
     * between campaigns) and keeping stay in the archive's order. */
    if (d->fitcache && !fit)
        parallel_for(a->ncampaigns, jobs, read_cached_fits, d);
    for (size_t i = 0; i < n; i++) {
        site_campaign *sc = &d->camps[i];
        if (sc->camp) {
            newest_date(d, &sc->camp->runs, sc->last_date, &sc->nmeasured);
            if (strcmp(sc->last_date, d->last_date) > 0)
                memcpy(d->last_date, sc->last_date, 11);
            if (!fit_experiments(d, sc, fit, fit_ctx, cache))
                return false;
        }
        rbuf prefix;
        rbuf_init(&prefix);
        rbuf_printf(&prefix, "%s/%s/", a->dir, sc->name);
        bool ok = !prefix.oom && collect_problems(&d->diags, rbuf_str(&prefix), &sc->problems,
                                                  &sc->nproblems);
        rbuf_free(&prefix);
        if (!ok)
            return false;
    }
    if (!judge_every_campaign(d, jobs))
        return false;
    qsort(d->camps, d->ncamps, sizeof *d->camps, compare_campaigns);
    return true;
}

/* With a fit cache (d->fitcache), its pool is settled before any key is
 * made: every key depends on it, and on the pool's shipped prior
 * (gen/fit/error_prior.h), loaded first. The advice scenarios take their
 * intervals from the same pool, as `perfcast advise` does
 * (gen/advice/advice_scenarios.h). False with err: the prior named or
 * found is damaged (err says where), or out of memory. */
static bool load_campaigns(site_data *d, site_fit_fn fit, void *fit_ctx, int jobs, char *err,
                           size_t errlen)
{
    snprintf(err, errlen, "out of memory"); /* unless the prior says what is wrong */
    backtest_cache *cache = backtest_cache_new();
    bool ok = cache && backtest_cache_load_prior(cache, err, errlen) &&
              (!d->fitcache || site_fitcache_pool(d->fitcache, cache)) &&
              load_each_campaign(d, fit, fit_ctx, cache, jobs) &&
              experiment_fill_pool(&d->arch, NULL, cache) &&
              advice_scenarios_load(&d->arch, backtest_cache_pool(cache), &d->scenarios,
                                    &d->diags);
    backtest_cache_free(cache);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Costs and alerts                                                    */

/* Campaign and every identifying value except the cluster (and, without
 * processes, the process counts), into b. */
static void job_key(const site_campaign *sc, size_t row, bool with_processes, rbuf *b)
{
    const table *t = &sc->camp->runs;
    rbuf_puts(b, sc->name);
    for (size_t c = 0; c < t->ncols; c++) {
        const char *name = t->cols[c].name;
        if (!config_column_identifies(&t->cols[c]) || strcmp(name, "cluster") == 0 ||
            (!with_processes && site_is_process_count(sc->camp, name)))
            continue;
        rbuf_puts(b, "\x1f");
        rbuf_puts(b, name);
        rbuf_putc(b, '=');
        site_cell_text(t, row, c, b);
    }
}

/* The option of prediction p, its numbers only (its texts come after,
 * label_option); none when there is nothing to cost. */
static bool add_option(site_data *d, size_t ci, size_t ei, const report_prediction *p)
{
    const site_campaign *sc = &d->camps[ci];
    const site_experiment *e = &sc->exps[ei];
    const target_config *tc = &e->res.input.targets[p->config];
    const table *t = &sc->camp->runs;
    size_t row = tc->rows[0];
    int cc = table_find(t, "cluster"), nc = table_find(t, campaign_procs(sc->camp));
    int k = cc >= 0 ? site_cluster_index(d, table_text(t, row, (size_t)cc)) : -1;
    double np = nc >= 0 ? table_number(t, row, (size_t)nc) : NAN;
    if (k < 0 || !(np >= 1) || !(p->estimate > 0) || !isfinite(p->estimate))
        return true; /* nothing to cost */
    if (!growth_reserve(&d->options, &d->options_cap, d->noptions + 1, sizeof *d->options))
        return false;
    site_option *o = &d->options[d->noptions];
    const cluster_info *info = d->clusters[k].info;
    costing_cluster rates = {info->name, info->mem_per_core_gb, info->rate_per_core_hour,
                             info->currency};
    costing_side side = {&rates, np, NAN};
    costing_result cost;
    if (!costing_evaluate(&side, 1, p->estimate, &cost))
        return true;
    *o = (site_option){.camp = ci, .exp = ei, .target = p->config, .cluster = (size_t)k,
                       .np = np, .time_s = p->estimate, .cal_low = p->cal_low,
                       .cal_high = p->cal_high, .core_hours = cost.core_hours,
                       .cost = cost.cost};
    o->oversubscribed = run_oversubscribed(&d->arch, sc->camp, row, &o->ppn, &o->cores);
    if (p->gain_stop_at > 0 && p->gain_stop_column < t->ncols) {
        o->gain_stop_at = p->gain_stop_at;
        o->gain_stop_column = t->cols[p->gain_stop_column].name;
    }
    d->noptions++;
    return true;
}

/* A copy of b's text (an empty one when b is empty), b emptied for the
 * next; NULL when memory ran out. */
static char *copy_text(rbuf *b)
{
    char *text = b->oom ? NULL : strdup(b->len ? rbuf_str(b) : "");
    rbuf_clear(b);
    return text;
}

/* The texts of option i (parallel_for: it writes option i only and reads
 * what no option writes); a text left NULL says memory ran out. */
static void label_option(void *ctx, size_t i)
{
    const site_data *d = ctx;
    site_option *o = &d->options[i];
    const site_campaign *sc = &d->camps[o->camp];
    const site_experiment *e = &sc->exps[o->exp];
    size_t row = e->res.input.targets[o->target].rows[0];
    /* One scratch buffer, each text copied out at its length: five
     * buffers of their own per option were 60,000 allocations of 256
     * bytes or more on a thousand campaigns. */
    rbuf b;
    rbuf_init(&b);
    site_columns_label(&sc->camp->runs, sc->job_cols, sc->njob_cols, row, false, -1, &b);
    o->config = copy_text(&b);
    rbuf_puts(&b, sc->name);
    rbuf_puts(&b, ": ");
    size_t before = b.len;
    site_columns_words(sc->camp, sc->job_cols, sc->njob_cols, row, -1, 0, &b);
    if (b.len == before)
        rbuf_puts(&b, "all configurations");
    o->problem_label = copy_text(&b);
    rbuf_puts(&b, sc->name);
    rbuf_puts(&b, ": ");
    site_columns_words(sc->camp, sc->job_cols, sc->njob_cols, row, -1, SITE_WORDS_PROCESSES, &b);
    o->job_label = copy_text(&b);
    job_key(sc, row, true, &b);
    o->job = copy_text(&b);
    job_key(sc, row, false, &b);
    o->problem = copy_text(&b);
    rbuf_free(&b);
}

/* Every option's texts, on up to jobs threads (they are ~12,000 strings
 * of a thousand campaigns' options: a tenth of a nightly rebuild on its
 * one thread). False when out of memory. */
static bool label_options(site_data *d, int jobs)
{
    parallel_for(d->noptions, jobs, label_option, d);
    for (size_t i = 0; i < d->noptions; i++) {
        const site_option *o = &d->options[i];
        if (!(o->config && o->job && o->problem && o->problem_label && o->job_label))
            return false;
    }
    return true;
}

double site_option_cost_at(const site_option *o, double t)
{
    return isfinite(o->cost) && o->time_s > 0 ? o->cost * t / o->time_s : NAN;
}

/* Which interval an alert is judged against: the calibrated one when the
 * experiment has it (it holds the model's real errors), else the model's. */
static bool alert_interval(const report_prediction *p, site_alert *a)
{
    a->calibrated = isfinite(p->cal_low) && isfinite(p->cal_high);
    a->low = a->calibrated ? p->cal_low : p->pi_low;
    a->high = a->calibrated ? p->cal_high : p->pi_high;
    return isfinite(a->low) && isfinite(a->high);
}

/* Its measured runs: how many lie outside, the newest date, whether one
 * is oversubscribed. */
static void alert_runs(const site_data *d, const site_experiment *e, const target_config *tc,
                       site_alert *a)
{
    const table *t = &e->res.input.camp->runs;
    for (size_t k = 0; k < tc->nrows; k++) {
        double v = site_response(e, tc->rows[k]);
        if (isnan(v))
            continue;
        a->runs_measured++;
        a->runs_outside += v < a->low || v > a->high;
        a->oversubscribed = a->oversubscribed ||
                            run_oversubscribed(&d->arch, e->res.input.camp, tc->rows[k], NULL, NULL);
        const char *date = table_text_named(t, tc->rows[k], "date");
        if (date && strlen(date) == 10 && strcmp(date, a->newest) > 0)
            memcpy(a->newest, date, 11);
    }
}

static bool add_alert(site_data *d, size_t ci, size_t ei, const report_prediction *p)
{
    const site_experiment *e = &d->camps[ci].exps[ei];
    const target_config *tc = &e->res.input.targets[p->config];
    site_alert a = {.camp = ci, .exp = ei, .target = p->config, .measured = tc->measured,
                    .estimate = p->estimate};
    if (tc->nmeasured == 0 || isnan(tc->measured) || tc->nrows == 0 || !alert_interval(p, &a) ||
        (a.measured >= a.low && a.measured <= a.high))
        return true;
    a.row = tc->rows[0];
    alert_runs(d, e, tc, &a);
    a.ack = acknowledgements_find(&d->acks, d->camps[ci].camp, e->info->name, a.row, a.newest);
    site_alert *more = realloc(d->alerts, (d->nalerts + 1) * sizeof *more);
    if (!more)
        return false;
    d->alerts = more;
    d->alerts[d->nalerts++] = a;
    return true;
}

/* qsort has no context argument: sort (job, cluster, index) records. */
typedef struct {
    const char *job;
    size_t cluster, index;
} job_ref;

static int compare_job_refs(const void *a, const void *b)
{
    const job_ref *x = a, *y = b;
    int c = strcmp(x->job, y->job);
    if (c)
        return c;
    if (x->cluster != y->cluster)
        return x->cluster < y->cluster ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Group the options of the same job, so a page finds them at once. */
static bool index_jobs(site_data *d)
{
    size_t n = d->noptions;
    job_ref *refs = malloc((n ? n : 1) * sizeof *refs);
    d->by_job = malloc((n ? n : 1) * sizeof *d->by_job);
    if (!refs || !d->by_job) {
        free(refs);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        refs[i] = (job_ref){d->options[i].job, d->options[i].cluster, i};
    qsort(refs, n, sizeof *refs, compare_job_refs);
    for (size_t first = 0, i = 0; i <= n; i++) {
        if (i < n && strcmp(refs[i].job, refs[first].job) == 0)
            continue;
        for (size_t k = first; k < i; k++) {
            d->options[refs[k].index].same_first = first;
            d->options[refs[k].index].same_count = i - first;
        }
        first = i;
    }
    for (size_t i = 0; i < n; i++)
        d->by_job[i] = refs[i].index;
    free(refs);
    return true;
}

static bool derive(site_data *d, int jobs)
{
    for (size_t ci = 0; ci < d->ncamps; ci++)
        for (size_t ei = 0; ei < d->camps[ci].nexps; ei++) {
            const site_experiment *e = &d->camps[ci].exps[ei];
            if (!e->res.ok)
                continue;
            for (size_t i = 0; i < e->res.rep.npreds; i++) {
                const report_prediction *p = &e->res.rep.preds[i];
                if (p->config >= e->res.input.ntargets)
                    continue;
                if (!add_option(d, ci, ei, p) || !add_alert(d, ci, ei, p))
                    return false;
            }
        }
    return label_options(d, jobs) && index_jobs(d);
}

/* ------------------------------------------------------------------ */
/* Load and free                                                       */

static bool load_clusters(site_data *d)
{
    d->clusters = calloc(d->arch.nclusters ? d->arch.nclusters : 1, sizeof *d->clusters);
    if (!d->clusters)
        return false;
    for (size_t i = 0; i < d->arch.nclusters; i++) {
        d->clusters[i].info = &d->arch.clusters[i];
        if (!(d->clusters[i].slug = make_slug(d->arch.clusters[i].name)))
            return false;
        d->nclusters++;
    }
    return true;
}

/* Problems that belong to no campaign (clusters.csv, the folder itself). */
static bool archive_problems(site_data *d)
{
    rbuf dir, camp;
    rbuf_init(&dir);
    rbuf_init(&camp);
    rbuf_printf(&dir, "%s/", d->arch.dir);
    bool ok = !dir.oom;
    for (size_t i = 0; ok && i < d->diags.count; i++) {
        const diag *g = &d->diags.items[i];
        bool in_campaign = false;
        for (size_t c = 0; c < d->ncamps && !in_campaign; c++) {
            rbuf_clear(&camp);
            rbuf_printf(&camp, "%s%s/", rbuf_str(&dir), d->camps[c].name);
            in_campaign = has_prefix(g->file, rbuf_str(&camp));
        }
        size_t skip = has_prefix(g->file, rbuf_str(&dir)) ? dir.len : 0;
        if (!in_campaign)
            ok = add_string(&d->problems, &d->nproblems, problem_text(g, skip));
    }
    rbuf_free(&dir);
    rbuf_free(&camp);
    return ok;
}

/* The runs with a published prediction, for the cluster pages. */
static bool load_published(site_data *d)
{
    const campaign **camps = malloc((d->ncamps ? d->ncamps : 1) * sizeof *camps);
    if (!camps)
        return false;
    for (size_t c = 0; c < d->ncamps; c++)
        camps[c] = d->camps[c].camp;
    bool ok = site_published_collect(&d->arch, camps, d->ncamps, &d->published, &d->npublished);
    free(camps);
    return ok;
}

static void date_of_epoch(long long epoch, char out[11])
{
    out[0] = '\0';
    if (epoch < 0)
        return;
    time_t t = (time_t)epoch;
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(out, 11, "%Y-%m-%d", &tm);
}

/* What site_data_load and site_data_load_reusing share; reuse: whether
 * to fit through a cache of previous_dir's. */
static bool load_data(site_data *d, const char *archive_dir, long long source_date_epoch,
                      site_fit_fn fit, void *fit_ctx, bool reuse, const char *previous_dir,
                      bool refresh_pool, int jobs, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    diag_init(&d->diags);
    date_of_epoch(source_date_epoch, d->build_date);
    if (!archive_load_jobs(archive_dir, &d->arch, &d->diags, jobs)) {
        /* The problems themselves are the caller's to show (with file,
         * line and column), before this: printed here too, each was said
         * twice. */
        if (d->diags.count == 1)
            snprintf(err, errlen, "cannot load the archive %s (the problem above)", archive_dir);
        else if (d->diags.count)
            snprintf(err, errlen, "cannot load the archive %s (the %zu problems above)",
                     archive_dir, d->diags.count);
        else
            snprintf(err, errlen, "cannot load the archive %s: unreadable", archive_dir);
        return false;
    }
    if (reuse && !(d->fitcache = site_fitcache_open(previous_dir, &d->arch, site_program_key(),
                                                     refresh_pool, jobs > 1))) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    if (!load_clusters(d)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    if (!load_campaigns(d, fit, fit_ctx, jobs, err, errlen))
        return false;
    if (!acknowledgements_load(&d->arch, &d->acks, &d->diags) || !archive_problems(d) ||
        !derive(d, jobs) || !load_published(d)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    return true;
}

bool site_data_load(site_data *d, const char *archive_dir, long long source_date_epoch,
                    site_fit_fn fit, void *fit_ctx, char *err, size_t errlen)
{
    return load_data(d, archive_dir, source_date_epoch, fit, fit_ctx, false, NULL, false, 1, err,
                     errlen);
}

bool site_data_load_reusing(site_data *d, const char *archive_dir, long long source_date_epoch,
                            const char *previous_dir, bool refresh_pool, int jobs, char *err,
                            size_t errlen)
{
    return load_data(d, archive_dir, source_date_epoch, NULL, NULL, true, previous_dir,
                     refresh_pool, jobs, err, errlen);
}

static void free_strings(char **s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

void site_data_free(site_data *d)
{
    for (size_t c = 0; c < d->ncamps; c++) {
        site_campaign *sc = &d->camps[c];
        for (size_t e = 0; e < sc->nexps; e++) {
            experiment_result_free(&sc->exps[e].res);
            free(sc->exps[e].anchor);
            free(sc->exps[e].shown);
            free(sc->exps[e].varies);
            verdict_free(&sc->exps[e].verdict);
            compare_result_free(&sc->exps[e].compare);
        }
        verdict_free(&sc->verdict);
        compare_result_free(&sc->compare);
        free(sc->exps);
        free(sc->job_cols);
        free(sc->slug);
        free_strings(sc->problems, sc->nproblems);
    }
    free(d->camps);
    for (size_t i = 0; i < d->nclusters; i++)
        free(d->clusters[i].slug);
    free(d->clusters);
    for (size_t i = 0; i < d->noptions; i++) {
        free(d->options[i].config);
        free(d->options[i].job);
        free(d->options[i].problem);
        free(d->options[i].problem_label);
        free(d->options[i].job_label);
    }
    free(d->options);
    free(d->by_job);
    free(d->alerts);
    acknowledgements_free(&d->acks);
    site_published_free(d->published, d->npublished);
    free_strings(d->problems, d->nproblems);
    advice_scenarios_free(&d->scenarios);
    site_fitcache_free(d->fitcache);
    archive_free(&d->arch);
    diag_free(&d->diags);
    memset(d, 0, sizeof *d);
}
