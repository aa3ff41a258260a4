/*
 * site_curve.c — the fitted curve over the training configurations and the
 * targets (see site_curve.h).
 */
#include "gen/site/site_curve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/config_index.h"
#include "gen/fit/experiment_run.h"
#include "models/calibrate.h"

/* The training runs grouped into configurations, as experiment.c groups
 * targets: rows sharing every identifying column. */
typedef struct {
    target_config *cfgs;
    size_t n;
    size_t *rows; /* the training rows, grouped; cfgs[k].rows point into it */
} train_configs;

static void train_configs_free(train_configs *t)
{
    free(t->cfgs);
    free(t->rows);
}

static bool group_training(const experiment_input *in, train_configs *t)
{
    size_t n = in->ntrain;
    t->n = 0;
    t->cfgs = calloc(n ? n : 1, sizeof *t->cfgs);
    t->rows = malloc((n ? n : 1) * sizeof *t->rows);
    size_t *owner = malloc((n ? n : 1) * sizeof *owner);
    if (!t->cfgs || !t->rows || !owner) {
        free(owner);
        return false;
    }
    /* Which configuration each row joins, then the rows laid out by it. */
    size_t *first = malloc((n ? n : 1) * sizeof *first);
    if (!first) {
        free(owner);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < t->n &&
               !config_same_configuration(&in->camp->runs, first[k], in->train_rows[i]))
            k++;
        if (k == t->n)
            first[t->n++] = in->train_rows[i];
        owner[i] = k;
        t->cfgs[k].nrows++;
    }
    size_t at = 0;
    for (size_t k = 0; k < t->n; k++) {
        t->cfgs[k].rows = t->rows + at;
        at += t->cfgs[k].nrows;
        t->cfgs[k].nrows = 0;
        t->cfgs[k].measured = t->cfgs[k].error_pct = t->cfgs[k].history_mean = NAN;
    }
    for (size_t i = 0; i < n; i++) {
        target_config *c = &t->cfgs[owner[i]];
        c->rows[c->nrows++] = in->train_rows[i];
    }
    free(first);
    free(owner);
    return true;
}

static void add_point(site_curve *c, size_t row, bool target, double estimate, double pi_low,
                      double pi_high, double cal_low, double cal_high)
{
    if (!isfinite(estimate))
        return;
    c->pts[c->n++] = (curve_point){row, target, estimate, pi_low, pi_high, cal_low, cal_high};
}

/* The model at the training configurations: one more adapter run. */
static bool training_points(const site_experiment *e, site_curve *c)
{
    model_adapter_fn adapter = experiment_adapter(e->info->model);
    train_configs t = {0};
    if (!adapter)
        return true;
    if (!group_training(&e->res.input, &t)) {
        train_configs_free(&t);
        return false;
    }
    experiment_input in = e->res.input;
    in.targets = t.cfgs;
    in.ntargets = t.n;
    in.where = NULL;
    report rep;
    report_init(&rep);
    char err[256];
    if (t.n > 0 && adapter(&in, &rep, err, sizeof err)) {
        double h = e->res.rep.cal_inside_log_half_width;
        for (size_t i = 0; i < rep.npreds; i++) {
            const report_prediction *p = &rep.preds[i];
            if (p->config >= t.n)
                continue;
            double lo = NAN, hi = NAN;
            if (h > 0)
                calibrate_interval(p->estimate, h, p->pi_low, p->pi_high, &lo, &hi);
            add_point(c, t.cfgs[p->config].rows[0], false, p->estimate, p->pi_low, p->pi_high,
                      lo, hi);
        }
    }
    report_free(&rep);
    train_configs_free(&t);
    return true;
}

bool site_curve_compute(const site_experiment *e, site_curve *out)
{
    out->n = 0;
    const experiment_input *in = &e->res.input;
    size_t cap = in->ntrain + e->res.rep.npreds;
    out->pts = malloc((cap ? cap : 1) * sizeof *out->pts);
    if (!out->pts)
        return false;
    if (!e->res.ok)
        return true;
    for (size_t i = 0; i < e->res.rep.npreds; i++) {
        const report_prediction *p = &e->res.rep.preds[i];
        if (p->config < in->ntargets && in->targets[p->config].nrows > 0)
            add_point(out, in->targets[p->config].rows[0], true, p->estimate, p->pi_low,
                      p->pi_high, p->cal_low, p->cal_high);
    }
    return training_points(e, out);
}

void site_curve_free(site_curve *c)
{
    free(c->pts);
    c->pts = NULL;
    c->n = 0;
}
