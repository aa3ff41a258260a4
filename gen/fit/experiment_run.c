/*
 * experiment_run.c — an experiment from selection to calibrated report:
 * experiment_prepare (gen/ingest/experiment.h), the model's adapter
 * (gen/fit/model_adapters.h), the errors, a word beside any time estimate
 * of zero or less and where the runs stopped gaining (gen/fit/gain_stop.h),
 * and the calibrated intervals (gen/fit/calibration.h) with the lender of
 * backtests the model names. Kept apart from experiment.c so that the
 * selection code, which the calibration's refits call, does not depend on
 * them.
 */
#include "gen/fit/experiment_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/fit/calibration.h"
#include "gen/fit/gain_stop.h"
#include "gen/fit/model_adapters.h"
#include "gen/fit/pooled_width.h"

static const struct {
    const char *model;
    model_adapter_fn run;
    model_lender_fn lender; /* NULL: no other campaign lends backtests */
} adapters[] = {
    {"scopred", model_scopred_run, NULL},
    {"strip", model_strip_run, NULL},
    {"block", model_block_run, NULL},
    {"multicluster", model_multicluster_run, model_multicluster_lender},
    {"multicore", model_multicore_run, NULL},
};

static size_t adapter_index(const char *model)
{
    size_t i = 0, n = sizeof adapters / sizeof adapters[0];
    while (model && i < n && strcmp(adapters[i].model, model) != 0)
        i++;
    return model ? i : n;
}

model_adapter_fn experiment_adapter(const char *model)
{
    size_t i = adapter_index(model);
    return i < sizeof adapters / sizeof adapters[0] ? adapters[i].run : NULL;
}

/* The campaign and adapter that lend e backtests, as its model reads its
 * options; false when none does (or the archive has no such campaign: the
 * fit has said so). */
static bool lender_of(const archive *a, const experiment_info *e, calibration_lender *out)
{
    size_t i = adapter_index(e->model);
    model_lender named;
    if (!a || i >= sizeof adapters / sizeof adapters[0] || !adapters[i].lender ||
        !adapters[i].lender(e->options, &named))
        return false;
    /* named's model and why are static text; the campaign is the archive's. */
    *out = (calibration_lender){archive_campaign(a, named.campaign), named.model,
                                experiment_adapter(named.model), named.why};
    return out->camp && out->adapter;
}

const campaign *experiment_lender_campaign(const archive *a, const experiment_info *e)
{
    calibration_lender lender;
    return lender_of(a, e, &lender) ? lender.camp : NULL;
}

bool experiment_time_holds(double time_s)
{
    return isfinite(time_s) && time_s > 0;
}

const char EXPERIMENT_NONPOSITIVE_TIME[] =
    "a time of zero or less: the model does not hold at this target";

/* A time of zero or less is no prediction: say so beside each such
 * estimate and once among the warnings (a response that is no time,
 * experiment_response_is_time, may be negative). False when out of
 * memory. */
static bool flag_nonpositive_times(experiment_result *res)
{
    if (!experiment_response_is_time(&res->input))
        return true;
    size_t n = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < res->rep.npreds; i++) {
        report_prediction *p = &res->rep.preds[i];
        if (!isfinite(p->estimate) || experiment_time_holds(p->estimate))
            continue;
        n++;
        ok = report_append_note(p, EXPERIMENT_NONPOSITIVE_TIME);
    }
    char line[200];
    snprintf(line, sizeof line,
             "%zu estimate%s of zero or less: no time is, so the model does not hold there "
             "(and no calibrated interval is given)", n, n == 1 ? " is" : "s are");
    return ok && (n == 0 || report_add_warning(&res->rep, line));
}

/* The model on a prepared res, and the errors of its predictions. */
static bool run_adapter(experiment_result *res, bool estimates_only)
{
    experiment_input *in = &res->input;
    in->estimates_only = estimates_only;
    model_adapter_fn adapter = experiment_adapter(in->exp->model);
    if (!adapter) {
        /* `check` names the known models when the archive loads
         * (gen/ingest/experiment_check.c); this guards the library callers. */
        res->ok = false;
        res->where = (experiment_where){"model", 0};
        snprintf(res->error, sizeof res->error, "unknown model '%s'", in->exp->model);
        return false;
    }
    if (!adapter(in, &res->rep, res->error, sizeof res->error)) {
        res->ok = false;
        if (!res->error[0])
            snprintf(res->error, sizeof res->error, "the %s fit failed", in->exp->model);
        return false;
    }
    experiment_compute_errors(res);
    if (!estimates_only && !(flag_nonpositive_times(res) && gain_stop_note(res))) {
        res->ok = false;
        snprintf(res->error, sizeof res->error, "out of memory");
        return false;
    }
    return true;
}

bool experiment_fit(const archive *a, const campaign *c, const experiment_info *e,
                    bool estimates_only, experiment_result *res)
{
    return experiment_prepare(a, c, e, res) && run_adapter(res, estimates_only);
}

/* ------------------------------------------------------------------ */
/* The fit with the calibrated intervals                               */

/* Where each training run is among them; false when out of memory (the
 * refits then evaluate their formulas themselves). */
static bool designs_init(experiment_designs *d, const experiment_input *in)
{
    memset(d, 0, sizeof *d);
    d->position = calloc(in->camp->runs.nrows + 1, sizeof *d->position);
    for (size_t i = 0; d->position && i < in->ntrain; i++)
        d->position[in->train_rows[i]] = i + 1;
    return d->position != NULL;
}

static void designs_free(experiment_designs *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->items[i].response);
        free(d->items[i].formula);
        free(d->items[i].x);
    }
    free(d->items);
    free(d->position);
    memset(d, 0, sizeof *d);
}

/* Add every usable experiment of campaign c to cache's pool. */
static bool pool_add_campaign(const archive *a, const campaign *c, backtest_cache *cache)
{
    bool ok = true;
    for (size_t j = 0; ok && j < c->nexperiments; j++) {
        const experiment_info *e = &c->experiments[j];
        ok = e->problem || calibration_pool_add(a, c, e, experiment_adapter(e->model), cache);
    }
    return ok;
}

/* The build's pooled error model (gen/fit/error_pool.h), filled once,
 * from every experiment of the archive in its order (but skip's), before
 * any calibrated interval: the same pool for each. */
bool experiment_fill_pool(const archive *a, const campaign *skip, backtest_cache *cache)
{
    if (!cache || backtest_cache_pool_filled(cache, skip))
        return true;
    const campaign *missing = backtest_cache_pool_without(cache);
    if (missing) { /* filled for another campaign's experiments: add what they left out */
        bool ok = pool_add_campaign(a, missing, cache);
        if (ok)
            backtest_cache_set_pool_filled(cache, NULL);
        return ok;
    }
    bool ok = true;
    for (size_t i = 0; ok && i < a->ncampaigns; i++)
        if (&a->campaigns[i] != skip)
            ok = pool_add_campaign(a, &a->campaigns[i], cache);
    if (ok)
        backtest_cache_set_pool_filled(cache, skip);
    return ok;
}

/* What the adapter's pooled_width reads: the build's pool, the campaign
 * whose own backtests it leaves out, and the roughness unit of the
 * experiment's training runs (the pool holds errors per unit), measured
 * at the first call: only a model built from another's predictions asks,
 * so the other experiments do not pay for it. */
typedef struct {
    backtest_cache *cache;
    const campaign *camp;
    const experiment_input *in;
    double *unit; /* NAN until measured */
} pool_view;

static double view_pooled_width(const void *ctx, const char *family, double distance,
                                size_t *npool, size_t *nprior)
{
    const pool_view *v = ctx;
    if (isnan(*v->unit))
        *v->unit = calibration_training_unit(v->in);
    return pooled_half_width(backtest_cache_pool(v->cache), family, v->camp, distance, *v->unit,
                             npool, nprior);
}

/* experiment_fit and the calibration with designs to share (NULL: none).
 * The pool is filled before the adapter runs, so a model built from
 * another's predictions can widen its own interval with that model's
 * pooled error (experiment_input.pooled_width). */
static bool fit_and_calibrate(const archive *a, const campaign *c, const experiment_info *e,
                              experiment_designs *designs, backtest_cache *cache,
                              experiment_result *res)
{
    if (!experiment_prepare(a, c, e, res))
        return false;
    res->input.designs = designs && designs_init(designs, &res->input) ? designs : NULL;
    double unit = NAN;
    pool_view view = {cache, c, &res->input, &unit};
    /* Filled whole unless the caller filled it for c alone (`fit`, `compare`):
     * a build's lazy first fill must not depend on which campaign came first. */
    bool pooled = backtest_cache_pool_filled(cache, c) || experiment_fill_pool(a, NULL, cache);
    res->input.pooled_width = pooled && cache ? view_pooled_width : NULL;
    res->input.pooled_ctx = &view;
    bool fitted = run_adapter(res, false);
    res->input.pooled_width = NULL; /* the view lives only while the adapter runs */
    res->input.pooled_ctx = NULL;
    if (!fitted)
        return false;
    calibration_lender lender;
    bool lends = lender_of(a, e, &lender);
    if (!pooled ||
        !calibration_apply(res, experiment_adapter(e->model), lends ? &lender : NULL, cache)) {
        res->ok = false;
        snprintf(res->error, sizeof res->error, "out of memory while calibrating the intervals");
        return false;
    }
    return true;
}

bool experiment_run(const archive *a, const campaign *c, const experiment_info *e,
                    experiment_result *res)
{
    return experiment_run_shared(a, c, e, NULL, res);
}

bool experiment_run_shared(const archive *a, const campaign *c, const experiment_info *e,
                           backtest_cache *cache, experiment_result *res)
{
    experiment_designs designs;
    memset(&designs, 0, sizeof designs);
    bool ok = fit_and_calibrate(a, c, e, &designs, cache, res);
    res->input.designs = NULL; /* they live only while the experiment runs */
    designs_free(&designs);
    return ok;
}
