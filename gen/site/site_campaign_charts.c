/*
 * site_campaign_charts.c — the three charts of an experiment on its
 * campaign page: predicted vs measured and the errors (from the
 * predictions CSV), and time vs processors (runs grouped into
 * configurations with their spread, predictions with their intervals,
 * from its own CSV).
 */
#include "gen/site/site_campaign_charts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/site/site_curve.h"
#include "gen/site/site_panels.h"
#include "render/markdown.h"
#include "render/plot.h"

/* ------------------------------------------------------------------ */
/* Charts                                                              */

typedef struct {
    const char *title, *unit;
    chart_pvm_point *p;
    size_t n;
} pvm_job;

static bool draw_pvm(const void *ctx, chart_files *out, char *err, size_t errlen)
{
    const pvm_job *j = ctx;
    return chart_pred_vs_measured(j->title, j->unit, j->p, j->n, out, err, errlen);
}

typedef struct {
    const char *title, *x_label;
    axis_scale x_scale;
    chart_residual *r;
    size_t n;
} residual_job;

static bool draw_residuals(const void *ctx, chart_files *out, char *err, size_t errlen)
{
    const residual_job *j = ctx;
    return chart_residuals(j->title, j->x_label, j->x_scale, j->r, j->n, out, err, errlen);
}

static bool draw_scaling(const void *ctx, chart_files *out, char *err, size_t errlen)
{
    return chart_scaling(ctx, out, err, errlen);
}

/* Emit one chart and the Markdown that shows it (or says why not). */
static bool chart(page_state *s, const char *suffix, const char *kind, const char *title,
                  const char *axes, const char *alt, const char *csv_name, const rbuf *csv,
                  site_draw_fn draw, const void *job)
{
    rbuf path, name;
    rbuf_init(&path);
    rbuf_init(&name);
    rbuf_printf(&name, "%s-%s", rbuf_str(&s->base), suffix);
    rbuf_printf(&path, "%s%s", s->dir, rbuf_str(&name));
    site_chart_on_page(s->c, &s->md, rbuf_str(&path), site_chart_key(kind, title, axes, csv), draw,
                       job, rbuf_str(&name), alt, csv_name);
    rbuf_free(&path);
    rbuf_free(&name);
    return !site_out_failed(s->c->out);
}

static size_t measured_predictions(const site_experiment *e)
{
    size_t n = 0;
    for (size_t i = 0; i < e->res.rep.npreds; i++) {
        const report_prediction *p = &e->res.rep.preds[i];
        n += p->config < e->res.input.ntargets && e->res.input.targets[p->config].nmeasured > 0 &&
             isfinite(p->estimate);
    }
    return n;
}

bool campaign_pvm_and_residuals(page_state *s, const rbuf *pred_csv)
{
    const site_experiment *e = s->e;
    size_t n = measured_predictions(e);
    if (n == 0) {
        md_text(&s->md, "No target has a measurement yet, so there is no comparison of "
                        "predicted and measured values.");
        md_end_paragraph(&s->md);
        return true;
    }
    chart_pvm_point *p = malloc(n * sizeof *p);
    chart_residual *r = malloc(n * sizeof *r);
    if (!p || !r) {
        free(p), free(r);
        return false;
    }
    size_t k = 0;
    for (size_t i = 0; i < e->res.rep.npreds; i++) {
        const report_prediction *pr = &e->res.rep.preds[i];
        if (pr->config >= e->res.input.ntargets)
            continue;
        const target_config *tc = &e->res.input.targets[pr->config];
        if (tc->nmeasured == 0 || !isfinite(pr->estimate))
            continue;
        const char *cl = campaign_cluster_of(e, tc->rows[0]);
        p[k] = (chart_pvm_point){cl, tc->measured, pr->estimate};
        r[k++] = (chart_residual){cl, campaign_x_of(e, tc->rows[0]), tc->error_pct};
    }
    rbuf unit, title, alt, xl;
    rbuf_init(&unit), rbuf_init(&title), rbuf_init(&alt), rbuf_init(&xl);
    campaign_response_label(e, &unit);
    const char *csv_name = campaign_file_name(s, "predictions.csv");
    rbuf csv_copy;
    rbuf_init(&csv_copy);
    rbuf_puts(&csv_copy, csv_name);

    rbuf_printf(&title, "Predicted vs measured: %s", e->info->name);
    rbuf_printf(&alt, "Predicted against measured %s for experiment %s, %zu configurations, "
                "log-log, with the line y = x and a band of plus or minus 10%%, points coloured "
                "by cluster", rbuf_str(&unit), e->info->name, n);
    pvm_job pj = {rbuf_str(&title), rbuf_str(&unit), p, n};
    bool ok = chart(s, "predicted-vs-measured", "pvm", rbuf_str(&title), rbuf_str(&unit),
                    rbuf_str(&alt), rbuf_str(&csv_copy), pred_csv, draw_pvm, &pj);

    const table *t = &s->sc->camp->runs;
    rbuf_puts(&xl, e->x_col >= 0 ? t->cols[e->x_col].name : "configuration");
    const char *procs = campaign_procs(s->sc->camp);
    if (e->x_col >= 0 && strcmp(t->cols[e->x_col].name, procs) == 0)
        rbuf_clear(&xl), rbuf_printf(&xl, "processes (%s)", procs);
    rbuf_clear(&title), rbuf_clear(&alt);
    rbuf_printf(&title, "Prediction error: %s", e->info->name);
    rbuf_printf(&alt, "Signed prediction error in percent against %s for experiment %s, "
                "%zu configurations, with a band of plus or minus 10%%", rbuf_str(&xl),
                e->info->name, n);
    residual_job rj = {rbuf_str(&title), rbuf_str(&xl), e->x_scale, r, n};
    ok = ok && (e->x_col < 0 ||
                chart(s, "residuals", "residuals", rbuf_str(&title), rbuf_str(&xl), rbuf_str(&alt),
                      rbuf_str(&csv_copy), pred_csv, draw_residuals, &rj));
    free(p), free(r);
    rbuf_free(&unit), rbuf_free(&title), rbuf_free(&alt), rbuf_free(&xl), rbuf_free(&csv_copy);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Scaling chart: runs grouped into configurations, the fitted curve    */

typedef struct {
    char *key;           /* the configuration: every shown column */
    char *series;        /* the shown columns but x */
    size_t row;          /* its first row */
    double x, sum, min, max;
    size_t count;
    bool held_out;
} run_group;

typedef struct {
    run_group *groups;
    size_t ngroups;
    site_curve curve;
    chart_prediction *preds; /* the curve's points, series labels owned by pred_series */
    char **pred_series;
    bool *pred_target;       /* a target's prediction, else the fit at a training one */
    size_t *pred_row;
    size_t npreds;
} scaling_points;

static void scaling_points_free(scaling_points *sp)
{
    for (size_t i = 0; i < sp->ngroups; i++)
        free(sp->groups[i].key), free(sp->groups[i].series);
    for (size_t i = 0; i < sp->npreds; i++)
        free(sp->pred_series[i]);
    free(sp->groups);
    free(sp->preds);
    free(sp->pred_series);
    free(sp->pred_target);
    free(sp->pred_row);
    site_curve_free(&sp->curve);
}

static char *series_label(const site_experiment *e, size_t row)
{
    rbuf b;
    rbuf_init(&b);
    site_series_label(e, row, &b);
    return rbuf_take(&b);
}

/* Add the response of row to its configuration's group. */
static bool add_run(scaling_points *sp, const site_experiment *e, size_t row, bool held_out)
{
    double v = site_response(e, row), x = campaign_x_of(e, row);
    if (isnan(v) || isnan(x))
        return true;
    rbuf key;
    rbuf_init(&key);
    site_config_label(e, row, true, -1, &key);
    for (size_t i = 0; i < sp->ngroups; i++) {
        run_group *g = &sp->groups[i];
        if (g->held_out == held_out && strcmp(g->key, rbuf_str(&key)) == 0) {
            g->sum += v, g->count++;
            g->min = fmin(g->min, v), g->max = fmax(g->max, v);
            rbuf_free(&key);
            return true;
        }
    }
    run_group g = {rbuf_take(&key), series_label(e, row), row, x, v, v, v, 1, held_out};
    if (!g.key || !g.series) {
        free(g.key), free(g.series);
        return false;
    }
    sp->groups[sp->ngroups++] = g;
    return true;
}

static bool collect_scaling(scaling_points *sp, const site_experiment *e)
{
    const experiment_input *in = &e->res.input;
    size_t rows = in->ntrain;
    for (size_t i = 0; i < in->ntargets; i++)
        rows += in->targets[i].nrows;
    sp->groups = calloc(rows ? rows : 1, sizeof *sp->groups);
    if (!sp->groups || !site_curve_compute(e, &sp->curve))
        return false;
    sp->preds = calloc(sp->curve.n + 1, sizeof *sp->preds);
    sp->pred_series = calloc(sp->curve.n + 1, sizeof *sp->pred_series);
    sp->pred_target = calloc(sp->curve.n + 1, sizeof *sp->pred_target);
    sp->pred_row = calloc(sp->curve.n + 1, sizeof *sp->pred_row);
    if (!sp->preds || !sp->pred_series || !sp->pred_target || !sp->pred_row)
        return false;
    for (size_t i = 0; i < in->ntrain; i++)
        if (!add_run(sp, e, in->train_rows[i], false))
            return false;
    for (size_t t = 0; t < in->ntargets; t++)
        for (size_t k = 0; k < in->targets[t].nrows; k++)
            if (!add_run(sp, e, in->targets[t].rows[k], true))
                return false;
    for (size_t i = 0; i < sp->curve.n; i++) {
        const curve_point *c = &sp->curve.pts[i];
        double x = campaign_x_of(e, c->row);
        if (isnan(x))
            continue;
        char *series = series_label(e, c->row);
        if (!series)
            return false;
        sp->pred_series[sp->npreds] = series;
        sp->pred_target[sp->npreds] = c->target;
        sp->pred_row[sp->npreds] = c->row;
        sp->preds[sp->npreds++] = (chart_prediction){series, x, c->estimate, c->pi_low,
                                                     c->pi_high, c->cal_low, c->cal_high};
    }
    return true;
}

static void scaling_csv(const scaling_points *sp, rbuf *csv)
{
    rbuf_puts(csv, "series,role,x,mean,min,max,runs,estimate,pi_low,pi_high,cal_low,cal_high\n");
    for (size_t i = 0; i < sp->ngroups; i++) {
        const run_group *g = &sp->groups[i];
        site_csv_text(csv, g->series);
        rbuf_puts(csv, g->held_out ? ",held-out," : ",training,");
        double v[] = {g->x, g->sum / (double)g->count, g->min, g->max};
        for (size_t k = 0; k < 4; k++)
            site_csv_num(csv, v[k]), rbuf_putc(csv, ',');
        rbuf_printf(csv, "%zu,,,,,\n", g->count);
    }
    for (size_t i = 0; i < sp->npreds; i++) {
        const chart_prediction *p = &sp->preds[i];
        site_csv_text(csv, p->series);
        /* A target's point is its prediction; a training one the fit there. */
        rbuf_puts(csv, sp->pred_target[i] ? ",predicted," : ",fitted,");
        site_csv_num(csv, p->x);
        rbuf_puts(csv, ",,,,,");
        double v[] = {p->estimate, p->pi_low, p->pi_high, p->cal_low, p->cal_high};
        for (size_t j = 0; j < 5; j++)
            site_csv_num(csv, v[j]), rbuf_putc(csv, j < 4 ? ',' : '\n');
    }
}

/* At most this many series share a panel (a legend a reader takes in at
 * a glance, each series its own colour). */
enum { PANEL_MAX_SERIES = PLOT_PALETTE_SIZE };

/* The range every panel's axes cover: all runs and curve points. */
static void shared_axes(const scaling_points *sp, chart_scaling_data *d)
{
    d->cover = true;
    d->x_min = d->y_min = INFINITY;
    d->x_max = d->y_max = -INFINITY;
    for (size_t i = 0; i < sp->ngroups; i++) {
        const run_group *g = &sp->groups[i];
        d->x_min = fmin(d->x_min, g->x), d->x_max = fmax(d->x_max, g->x);
        d->y_min = fmin(d->y_min, g->min), d->y_max = fmax(d->y_max, g->max);
    }
    for (size_t i = 0; i < sp->npreds; i++) {
        const chart_prediction *p = &sp->preds[i];
        const double y[] = {p->estimate, p->pi_low, p->pi_high, p->cal_low, p->cal_high};
        d->x_min = fmin(d->x_min, p->x), d->x_max = fmax(d->x_max, p->x);
        for (size_t k = 0; k < 5; k++)
            if (isfinite(y[k]) && y[k] > 0)
                d->y_min = fmin(d->y_min, y[k]), d->y_max = fmax(d->y_max, y[k]);
    }
}

/* One panel's runs and curve points, copied out of the whole set. */
static void panel_items(const scaling_points *sp, const site_panels *pn, size_t panel,
                        chart_run *runs, size_t *nruns, chart_prediction *preds, size_t *npreds)
{
    *nruns = *npreds = 0;
    for (size_t i = 0; i < sp->ngroups; i++) {
        const run_group *g = &sp->groups[i];
        if (pn->of[i] == panel)
            runs[(*nruns)++] = (chart_run){g->series, g->x, g->sum / (double)g->count, g->min,
                                           g->max, g->held_out};
    }
    for (size_t i = 0; i < sp->npreds; i++)
        if (pn->of[sp->ngroups + i] == panel)
            preds[(*npreds)++] = sp->preds[i];
}

static bool split_panels(const scaling_points *sp, const site_experiment *e, site_panels *pn)
{
    size_t n = sp->ngroups + sp->npreds;
    size_t *rows = malloc((n ? n : 1) * sizeof *rows);
    char **series = malloc((n ? n : 1) * sizeof *series);
    bool ok = rows && series;
    for (size_t i = 0; ok && i < sp->ngroups; i++)
        rows[i] = sp->groups[i].row, series[i] = sp->groups[i].series;
    for (size_t i = 0; ok && i < sp->npreds; i++)
        rows[sp->ngroups + i] = sp->pred_row[i], series[sp->ngroups + i] = sp->pred_series[i];
    ok = ok && site_panels_split(e, rows, series, n, PANEL_MAX_SERIES, pn);
    free(rows), free(series);
    return ok;
}

/* Draw every panel: "<exp>-scaling" alone, "<exp>-scaling-1", ... */
static bool draw_panels(page_state *s, const scaling_points *sp, const site_panels *pn,
                        chart_scaling_data *data, const char *title, const char *alt,
                        const char *axes, const char *csv_name, const rbuf *csv)
{
    chart_run *runs = calloc(sp->ngroups + 1, sizeof *runs);
    chart_prediction *preds = calloc(sp->npreds + 1, sizeof *preds);
    rbuf t, a, suffix;
    rbuf_init(&t), rbuf_init(&a), rbuf_init(&suffix);
    bool ok = runs && preds;
    for (size_t k = 0; ok && k < pn->n; k++) {
        rbuf_clear(&t), rbuf_clear(&a), rbuf_clear(&suffix);
        rbuf_puts(&a, alt);
        rbuf_puts(&suffix, "scaling");
        if (pn->n == 1)
            rbuf_puts(&t, title);
        else { /* the panel's own title: the page says what the chart shows */
            rbuf_printf(&t, "%s: %s", s->e->info->name, pn->titles[k]);
            rbuf_printf(&a, "; panel %zu of %zu: %s", k + 1, pn->n, pn->titles[k]);
            rbuf_printf(&suffix, "-%zu", k + 1);
        }
        panel_items(sp, pn, k, runs, &data->nruns, preds, &data->npreds);
        data->title = rbuf_str(&t);
        data->runs = runs;
        data->preds = preds;
        ok = chart(s, rbuf_str(&suffix), "scaling", rbuf_str(&t), axes, rbuf_str(&a), csv_name,
                   csv, draw_scaling, data);
    }
    free(runs), free(preds);
    rbuf_free(&t), rbuf_free(&a), rbuf_free(&suffix);
    return ok;
}

bool campaign_scaling(page_state *s)
{
    const site_experiment *e = s->e;
    if (e->x_col < 0)
        return true;
    scaling_points sp = {0};
    site_panels pn = {0};
    rbuf csv, title, alt, xl, unit, name, axes;
    rbuf_init(&csv), rbuf_init(&title), rbuf_init(&alt), rbuf_init(&xl), rbuf_init(&unit);
    rbuf_init(&name), rbuf_init(&axes);
    bool ok = collect_scaling(&sp, e);
    if (ok && sp.ngroups + sp.npreds > 0) {
        scaling_csv(&sp, &csv);
        const char *x = s->sc->camp->runs.cols[e->x_col].name;
        bool procs = strcmp(x, campaign_procs(s->sc->camp)) == 0;
        if (procs)
            rbuf_printf(&xl, "processes (%s)", x);
        else
            rbuf_puts(&xl, x);
        campaign_response_label(e, &unit);
        bool time = strcmp(rbuf_str(&unit), "time (s)") == 0;
        rbuf_printf(&title, "%s vs %s: %s", time ? "Time" : "Response",
                    procs ? "processes" : x, e->info->name);
        rbuf_printf(&alt, "%s against %s for experiment %s: measured runs with their spread "
                    "(training runs filled circles, held-out runs hollow squares), the fitted "
                    "curve from the training configurations to the targets with its calibrated "
                    "95%% prediction interval", rbuf_str(&unit), rbuf_str(&xl), e->info->name);
        chart_scaling_data data = {NULL, rbuf_str(&xl), rbuf_str(&unit), e->x_scale, NULL, 0,
                                   NULL, 0, false, 0, 0, 0, 0};
        shared_axes(&sp, &data);
        rbuf_puts(&name, campaign_file_name(s, "scaling.csv"));
        rbuf_printf(&axes, "%s\x1f%s", rbuf_str(&xl), rbuf_str(&unit));
        ok = split_panels(&sp, e, &pn) && campaign_write_csv(s, rbuf_str(&name), &csv) &&
             draw_panels(s, &sp, &pn, &data, rbuf_str(&title), rbuf_str(&alt), rbuf_str(&axes),
                         rbuf_str(&name), &csv);
    }
    site_panels_free(&pn);
    scaling_points_free(&sp);
    rbuf_free(&csv), rbuf_free(&title), rbuf_free(&alt), rbuf_free(&xl), rbuf_free(&unit);
    rbuf_free(&name), rbuf_free(&axes);
    return ok;
}
