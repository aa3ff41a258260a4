/*
 * site_campaign_charts.c — the three charts of an experiment on its
 * campaign page: predicted vs measured and the errors (from the
 * predictions CSV), and time vs processors (runs grouped into
 * configurations with their spread, predictions with their intervals,
 * from its own CSV).
 */
#include "gen/site_campaign.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/markdown.h"

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
/* Scaling chart: runs grouped into configurations                     */

typedef struct {
    char *key;           /* the configuration: every shown column */
    char *series;        /* the shown columns but x */
    double x, sum, min, max;
    size_t count;
    bool held_out;
} run_group;

typedef struct {
    run_group *groups;
    size_t ngroups;
    chart_prediction *preds;
    char **pred_series;
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
    run_group g = {rbuf_take(&key), series_label(e, row), x, v, v, v, 1, held_out};
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
    sp->preds = calloc(e->res.rep.npreds + 1, sizeof *sp->preds);
    sp->pred_series = calloc(e->res.rep.npreds + 1, sizeof *sp->pred_series);
    if (!sp->groups || !sp->preds || !sp->pred_series)
        return false;
    for (size_t i = 0; i < in->ntrain; i++)
        if (!add_run(sp, e, in->train_rows[i], false))
            return false;
    for (size_t t = 0; t < in->ntargets; t++)
        for (size_t k = 0; k < in->targets[t].nrows; k++)
            if (!add_run(sp, e, in->targets[t].rows[k], true))
                return false;
    for (size_t i = 0; i < e->res.rep.npreds; i++) {
        const report_prediction *p = &e->res.rep.preds[i];
        if (p->config >= in->ntargets)
            continue;
        size_t row = in->targets[p->config].rows[0];
        char *series = series_label(e, row);
        if (!series)
            return false;
        sp->pred_series[sp->npreds] = series;
        sp->preds[sp->npreds++] = (chart_prediction){series, campaign_x_of(e, row), p->estimate,
                                                     p->pi_low, p->pi_high};
    }
    return true;
}

static void scaling_csv(const scaling_points *sp, rbuf *csv)
{
    rbuf_puts(csv, "series,role,x,mean,min,max,runs,estimate,pi_low,pi_high\n");
    for (size_t i = 0; i < sp->ngroups; i++) {
        const run_group *g = &sp->groups[i];
        site_csv_text(csv, g->series);
        rbuf_puts(csv, g->held_out ? ",held-out," : ",training,");
        double v[] = {g->x, g->sum / (double)g->count, g->min, g->max};
        for (size_t k = 0; k < 4; k++)
            site_csv_num(csv, v[k]), rbuf_putc(csv, ',');
        rbuf_printf(csv, "%zu,,,\n", g->count);
    }
    for (size_t i = 0; i < sp->npreds; i++) {
        const chart_prediction *p = &sp->preds[i];
        site_csv_text(csv, p->series);
        rbuf_puts(csv, ",predicted,");
        site_csv_num(csv, p->x);
        rbuf_puts(csv, ",,,,,");
        double v[] = {p->estimate, p->pi_low, p->pi_high};
        for (size_t k = 0; k < 3; k++)
            site_csv_num(csv, v[k]), rbuf_putc(csv, k < 2 ? ',' : '\n');
    }
}

bool campaign_scaling(page_state *s)
{
    const site_experiment *e = s->e;
    if (e->x_col < 0)
        return true;
    scaling_points sp = {0};
    chart_run *runs = NULL;
    rbuf csv, title, alt, xl, unit;
    rbuf_init(&csv), rbuf_init(&title), rbuf_init(&alt), rbuf_init(&xl), rbuf_init(&unit);
    bool ok = collect_scaling(&sp, e) && (runs = calloc(sp.ngroups + 1, sizeof *runs));
    if (ok && sp.ngroups + sp.npreds > 0) {
        for (size_t i = 0; i < sp.ngroups; i++) {
            const run_group *g = &sp.groups[i];
            runs[i] = (chart_run){g->series, g->x, g->sum / (double)g->count, g->min, g->max,
                                  g->held_out};
        }
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
                    "(training runs filled, held-out runs hollow), predicted curve and 95%% "
                    "prediction interval", rbuf_str(&unit), rbuf_str(&xl), e->info->name);
        chart_scaling_data data = {rbuf_str(&title), rbuf_str(&xl), rbuf_str(&unit), e->x_scale,
                                   runs, sp.ngroups, sp.preds, sp.npreds};
        const char *csv_name = campaign_file_name(s, "scaling.csv");
        rbuf name;
        rbuf_init(&name);
        rbuf_puts(&name, csv_name);
        rbuf axes;
        rbuf_init(&axes);
        rbuf_printf(&axes, "%s\x1f%s", rbuf_str(&xl), rbuf_str(&unit));
        ok = campaign_write_csv(s, rbuf_str(&name), &csv) &&
             chart(s, "scaling", "scaling", rbuf_str(&title), rbuf_str(&axes), rbuf_str(&alt),
                   rbuf_str(&name), &csv, draw_scaling, &data);
        rbuf_free(&name);
        rbuf_free(&axes);
    }
    free(runs);
    scaling_points_free(&sp);
    rbuf_free(&csv), rbuf_free(&title), rbuf_free(&alt), rbuf_free(&xl), rbuf_free(&unit);
    return ok;
}

