/*
 * site_campaign.c — one page per campaign: its README, then per
 * experiment the fitted equation, coefficients, goodness of fit,
 * diagnostics, the predictions table and three charts, each table and
 * chart with its CSV. An experiment whose fit failed shows the error and
 * the page goes on; a campaign left out for problems shows them.
 */
#include "gen/site_pages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/site_slug.h"
#include "render/markdown.h"

/* Everything one experiment section needs. */
typedef struct {
    site_ctx *c;
    const site_data *d;
    const site_campaign *sc;
    const site_experiment *e;
    const char *dir;       /* "campaigns/<slug>/" */
    rbuf base;             /* "<experiment slug>" */
    rbuf md;               /* the page */
    rbuf tmp, name;        /* scratch */
} page_state;

static const char *file_name(page_state *s, const char *suffix)
{
    rbuf_clear(&s->name);
    rbuf_printf(&s->name, "%s-%s", rbuf_str(&s->base), suffix);
    return rbuf_str(&s->name);
}

static bool write_csv(page_state *s, const char *name, const rbuf *csv)
{
    rbuf path;
    rbuf_init(&path);
    rbuf_printf(&path, "%s%s", s->dir, name);
    bool ok = site_file(s->c, rbuf_str(&path), csv);
    rbuf_free(&path);
    return ok;
}

/* The unit label of the experiment's response ("time (s)"). */
static void response_label(const site_experiment *e, rbuf *out)
{
    const char *r = e->info->response ? e->info->response : "time_s";
    if (strcmp(r, "time_s") == 0)
        rbuf_puts(out, "time (s)");
    else
        rbuf_printf(out, "%s (s)", r);
}

static const char *cluster_of(const site_experiment *e, size_t row)
{
    const table *t = &e->res.input.camp->runs;
    int c = table_find(t, "cluster");
    return c >= 0 ? table_text(t, row, (size_t)c) : NULL;
}

static double x_of(const site_experiment *e, size_t row)
{
    return e->x_col >= 0 ? table_number(&e->res.input.camp->runs, row, (size_t)e->x_col) : NAN;
}

/* ------------------------------------------------------------------ */
/* Header of the page and of each experiment                           */

static void cluster_links(page_state *s)
{
    const table *t = &s->sc->camp->runs;
    int cc = table_find(t, "cluster");
    bool first = true;
    for (size_t k = 0; k < s->d->nclusters; k++) {
        bool used = false;
        for (size_t r = 0; cc >= 0 && r < t->nrows && !used; r++) {
            const char *name = table_text(t, r, (size_t)cc);
            used = name && strcmp(name, s->d->clusters[k].info->name) == 0;
        }
        if (!used)
            continue;
        md_text(&s->md, first ? "" : ", ");
        first = false;
        rbuf_clear(&s->tmp);
        rbuf_printf(&s->tmp, "../../clusters/%s/index.md", s->d->clusters[k].slug);
        md_link(&s->md, s->d->clusters[k].info->name, rbuf_str(&s->tmp));
    }
}

static void page_header(page_state *s)
{
    const site_campaign *sc = s->sc;
    md_link(&s->md, "perfcast", "../../index.md");
    md_text(&s->md, " › campaign ");
    md_text(&s->md, sc->name);
    md_end_paragraph(&s->md);
    rbuf_clear(&s->tmp);
    rbuf_printf(&s->tmp, "Campaign %s", sc->name);
    md_heading(&s->md, 1, rbuf_str(&s->tmp));
    if (!sc->camp)
        return;
    rbuf_clear(&s->tmp);
    rbuf_printf(&s->tmp, "%zu runs, %zu measured; %zu experiments; newest run: %s. Clusters: ",
                sc->camp->runs.nrows, sc->nmeasured, sc->nexps,
                sc->last_date[0] ? sc->last_date : "no dates");
    md_text(&s->md, rbuf_str(&s->tmp));
    cluster_links(s);
    md_text(&s->md, ". Source data: ");
    md_link(&s->md, "runs.csv", "runs.csv");
    md_text(&s->md, ", ");
    md_link(&s->md, "experiments.csv", "experiments.csv");
    md_text(&s->md, ".");
    md_end_paragraph(&s->md);
    md_heading(&s->md, 2, "Description");
    if (sc->camp->readme)
        md_quote_markdown(&s->md, sc->camp->readme);
    else
        md_text(&s->md, "(no README.md)"), md_end_paragraph(&s->md);
}

static void filter_line(page_state *s, const char *what, const char *filter, size_t n,
                        const char *unit)
{
    md_bullet(&s->md);
    md_text(&s->md, what);
    md_text(&s->md, ": ");
    if (filter && filter[0])
        md_code(&s->md, filter, false);
    else
        md_text(&s->md, what[0] == 'T' && what[1] == 'r' ? "all measured runs" : "none");
    rbuf_clear(&s->tmp);
    rbuf_printf(&s->tmp, " (%zu %s%s)", n, unit, n == 1 ? "" : "s");
    md_text(&s->md, rbuf_str(&s->tmp));
    md_end_item(&s->md);
}

static void experiment_header(page_state *s)
{
    const site_experiment *e = s->e;
    rbuf_clear(&s->tmp);
    rbuf_printf(&s->tmp, "Experiment %s", e->info->name);
    md_heading(&s->md, 2, rbuf_str(&s->tmp));
    if (e->info->title) {
        md_strong(&s->md, e->info->title);
        md_end_paragraph(&s->md);
    }
    md_bullet(&s->md);
    md_text(&s->md, "Model: ");
    md_code(&s->md, e->info->model, false);
    md_text(&s->md, ", response: ");
    md_code(&s->md, e->info->response ? e->info->response : "time_s", false);
    md_end_item(&s->md);
    if (e->info->formula) {
        md_bullet(&s->md);
        md_text(&s->md, "Formula: ");
        md_code(&s->md, e->info->formula, false);
        md_end_item(&s->md);
    }
    filter_line(s, "Training runs", e->info->train, e->res.input.ntrain, "run");
    filter_line(s, "Targets", e->info->target, e->res.input.ntargets, "configuration");
    md_end_list(&s->md);
}

/* ------------------------------------------------------------------ */
/* Fit: equation, coefficients, statistics, diagnostics                */

static const char *stat_title(const char *name)
{
    static const struct { const char *name, *title; } titles[] = {
        {"r2", "R²"}, {"adj_r2", "adjusted R²"}, {"f", "F statistic"},
        {"f_p", "p-value of F"}, {"sigma", "residual standard error"},
        {"n", "observations"}, {"df_resid", "residual degrees of freedom"},
    };
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
        if (strcmp(titles[i].name, name) == 0)
            return titles[i].title;
    return name;
}

static bool coefficients(page_state *s)
{
    const report *r = &s->e->res.rep;
    if (r->ncoefs == 0)
        return true;
    md_heading(&s->md, 3, "Coefficients");
    static const char *const head[] = {"term", "coefficient", "std. error", "t", "p"};
    md_table t;
    md_table_begin(&t, &s->md, 5, head, "lrrrr");
    rbuf csv;
    rbuf_init(&csv);
    rbuf_puts(&csv, "term,coefficient,std_error,t,p,aliased\n");
    for (size_t i = 0; i < r->ncoefs; i++) {
        const report_coef *k = &r->coefs[i];
        rbuf_clear(&s->tmp);
        md_code(&s->tmp, k->term, true);
        if (k->aliased)
            md_text(&s->tmp, " (aliased)");
        md_table_markdown(&t, rbuf_str(&s->tmp));
        double v[4] = {k->coefficient, k->std_error, k->t, k->p};
        for (int j = 0; j < 4; j++) {
            rbuf_clear(&s->tmp);
            site_fmt(&s->tmp, v[j]);
            md_table_text(&t, rbuf_str(&s->tmp));
        }
        site_csv_text(&csv, k->term);
        for (int j = 0; j < 4; j++)
            rbuf_putc(&csv, ','), site_csv_num(&csv, v[j]);
        rbuf_printf(&csv, ",%d\n", k->aliased ? 1 : 0);
    }
    md_table_end(&t);
    const char *name = file_name(s, "coefficients.csv");
    site_md_data_link(&s->md, name);
    bool ok = write_csv(s, name, &csv);
    rbuf_free(&csv);
    return ok;
}

static bool statistics(page_state *s)
{
    const report *r = &s->e->res.rep;
    if (r->nstats == 0)
        return true;
    md_heading(&s->md, 3, "Goodness of fit");
    static const char *const head[] = {"statistic", "value", "note"};
    md_table t;
    md_table_begin(&t, &s->md, 3, head, "lrl");
    rbuf csv;
    rbuf_init(&csv);
    rbuf_puts(&csv, "statistic,value,note\n");
    for (size_t i = 0; i < r->nstats; i++) {
        const report_stat *st = &r->stats[i];
        md_table_text(&t, stat_title(st->name));
        rbuf_clear(&s->tmp);
        site_fmt(&s->tmp, st->value);
        md_table_text(&t, rbuf_str(&s->tmp));
        md_table_text(&t, st->text ? st->text : "");
        site_csv_text(&csv, st->name);
        rbuf_putc(&csv, ',');
        site_csv_num(&csv, st->value);
        rbuf_putc(&csv, ',');
        site_csv_text(&csv, st->text ? st->text : "");
        rbuf_putc(&csv, '\n');
    }
    md_table_end(&t);
    const char *name = file_name(s, "fit.csv");
    site_md_data_link(&s->md, name);
    bool ok = write_csv(s, name, &csv);
    rbuf_free(&csv);
    return ok;
}

static void bullet_list(page_state *s, const char *heading, char *const *lines, size_t n)
{
    if (n == 0)
        return;
    md_heading(&s->md, 3, heading);
    for (size_t i = 0; i < n; i++) {
        md_bullet(&s->md);
        md_text(&s->md, lines[i]);
        md_end_item(&s->md);
    }
    md_end_list(&s->md);
}

static void equation(page_state *s)
{
    const report *r = &s->e->res.rep;
    const char *eq = r->equation ? r->equation : r->formula;
    if (!eq)
        return;
    md_heading(&s->md, 3, "Fitted equation");
    md_code(&s->md, eq, false);
    md_end_paragraph(&s->md);
}

/* ------------------------------------------------------------------ */
/* Predictions table                                                   */

static void interval(rbuf *out, double lo, double hi)
{
    if (!isfinite(lo) || !isfinite(hi)) {
        rbuf_puts(out, "\xE2\x80\x94");
        return;
    }
    site_fmt(out, lo);
    rbuf_puts(out, " \xE2\x80\x93 ");
    site_fmt(out, hi);
}

static bool any_note(const report *r)
{
    for (size_t i = 0; i < r->npreds; i++)
        if (r->preds[i].note && r->preds[i].note[0])
            return true;
    return false;
}

static void prediction_csv_header(page_state *s, rbuf *csv)
{
    const table *t = &s->sc->camp->runs;
    for (size_t i = 0; i < s->e->nshown; i++) {
        site_csv_text(csv, t->cols[s->e->shown[i]].name);
        rbuf_putc(csv, ',');
    }
    rbuf_puts(csv, "estimate,ci_low,ci_high,pi_low,pi_high,measured,n_measured,error_pct,"
                   "extrapolation,note\n");
}

static void prediction_csv_row(page_state *s, const report_prediction *p, rbuf *csv)
{
    const target_config *tc = &s->e->res.input.targets[p->config];
    const table *t = &s->sc->camp->runs;
    for (size_t i = 0; i < s->e->nshown; i++) {
        rbuf_clear(&s->tmp);
        site_cell_text(t, tc->rows[0], s->e->shown[i], &s->tmp);
        if (t->cols[s->e->shown[i]].kind == COL_TEXT)
            site_csv_text(csv, rbuf_str(&s->tmp));
        else
            rbuf_puts(csv, rbuf_str(&s->tmp));
        rbuf_putc(csv, ',');
    }
    double v[] = {p->estimate, p->ci_low, p->ci_high, p->pi_low, p->pi_high, tc->measured};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        site_csv_num(csv, v[i]), rbuf_putc(csv, ',');
    rbuf_printf(csv, "%zu,", tc->nmeasured);
    site_csv_num(csv, tc->error_pct);
    rbuf_printf(csv, ",%d,", p->extrapolation ? 1 : 0);
    site_csv_text(csv, p->note ? p->note : "");
    rbuf_putc(csv, '\n');
}

static bool predictions(page_state *s, rbuf *csv)
{
    const report *r = &s->e->res.rep;
    const table *t = &s->sc->camp->runs;
    md_heading(&s->md, 3, "Predictions");
    if (r->npreds == 0) {
        md_text(&s->md, "This experiment has no target configurations.");
        md_end_paragraph(&s->md);
        return true;
    }
    bool notes = any_note(r);
    size_t ncols = s->e->nshown + 7 + notes;
    const char **head = malloc(ncols * sizeof *head);
    char *align = malloc(ncols + 1);
    if (!head || !align) {
        free(head);
        free(align);
        return false;
    }
    rbuf unit;
    rbuf_init(&unit);
    response_label(s->e, &unit);
    size_t k = 0;
    for (size_t i = 0; i < s->e->nshown; i++) {
        align[k] = t->cols[s->e->shown[i]].kind == COL_NUMBER ? 'r' : 'l';
        head[k++] = t->cols[s->e->shown[i]].name;
    }
    static const char *const fixed[] = {"estimate", "95% CI", "95% PI", "measured", "runs",
                                        "error (%)", "extrapolation", "note"};
    for (size_t i = 0; i < 7 + (size_t)notes; i++) {
        align[k] = i < 6 ? 'r' : 'l';
        head[k++] = fixed[i];
    }
    align[k] = '\0';
    md_text(&s->md, "Estimates, intervals and measurements in ");
    md_text(&s->md, rbuf_str(&unit));
    md_text(&s->md, "; error = 100 (estimate \xE2\x88\x92 measured) / measured.");
    md_end_paragraph(&s->md);
    md_table tab;
    md_table_begin(&tab, &s->md, ncols, head, align);
    prediction_csv_header(s, csv);
    for (size_t i = 0; i < r->npreds; i++) {
        const report_prediction *p = &r->preds[i];
        if (p->config >= s->e->res.input.ntargets)
            continue;
        const target_config *tc = &s->e->res.input.targets[p->config];
        for (size_t c = 0; c < s->e->nshown; c++) {
            rbuf_clear(&s->tmp);
            site_cell_text(t, tc->rows[0], s->e->shown[c], &s->tmp);
            md_table_text(&tab, rbuf_str(&s->tmp));
        }
        rbuf_clear(&s->tmp), site_fmt(&s->tmp, p->estimate), md_table_text(&tab, rbuf_str(&s->tmp));
        rbuf_clear(&s->tmp), interval(&s->tmp, p->ci_low, p->ci_high), md_table_text(&tab, rbuf_str(&s->tmp));
        rbuf_clear(&s->tmp), interval(&s->tmp, p->pi_low, p->pi_high), md_table_text(&tab, rbuf_str(&s->tmp));
        rbuf_clear(&s->tmp), site_fmt(&s->tmp, tc->measured), md_table_text(&tab, rbuf_str(&s->tmp));
        rbuf_clear(&s->tmp), rbuf_printf(&s->tmp, "%zu", tc->nmeasured), md_table_text(&tab, rbuf_str(&s->tmp));
        rbuf_clear(&s->tmp), site_fmt_pct(&s->tmp, tc->error_pct), md_table_text(&tab, rbuf_str(&s->tmp));
        md_table_text(&tab, p->extrapolation ? "yes (outside the training range)" : "");
        if (notes)
            md_table_text(&tab, p->note ? p->note : "");
        prediction_csv_row(s, p, csv);
    }
    md_table_end(&tab);
    const char *name = file_name(s, "predictions.csv");
    site_md_data_link(&s->md, name);
    bool ok = write_csv(s, name, csv);
    free(head);
    free(align);
    rbuf_free(&unit);
    return ok;
}

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
                  const char *alt, const char *csv_name, const rbuf *csv, site_draw_fn draw,
                  const void *job)
{
    rbuf path, name;
    rbuf_init(&path);
    rbuf_init(&name);
    rbuf_printf(&name, "%s-%s", rbuf_str(&s->base), suffix);
    rbuf_printf(&path, "%s%s", s->dir, rbuf_str(&name));
    char err[256] = "";
    bool drawn = site_chart(s->c, rbuf_str(&path), site_chart_key(kind, title, csv), draw, job,
                            err, sizeof err);
    if (drawn) {
        site_md_chart(&s->md, rbuf_str(&name), alt, csv_name);
    } else {
        md_text(&s->md, "The chart could not be drawn: ");
        md_text(&s->md, err);
        md_end_paragraph(&s->md);
    }
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

static bool pvm_and_residuals(page_state *s, const rbuf *pred_csv)
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
        const char *cl = cluster_of(e, tc->rows[0]);
        p[k] = (chart_pvm_point){cl, tc->measured, pr->estimate};
        r[k++] = (chart_residual){cl, x_of(e, tc->rows[0]), tc->error_pct};
    }
    rbuf unit, title, alt, xl;
    rbuf_init(&unit), rbuf_init(&title), rbuf_init(&alt), rbuf_init(&xl);
    response_label(e, &unit);
    const char *csv_name = file_name(s, "predictions.csv");
    rbuf csv_copy;
    rbuf_init(&csv_copy);
    rbuf_puts(&csv_copy, csv_name);

    rbuf_printf(&title, "Predicted vs measured: %s", e->info->name);
    rbuf_printf(&alt, "Predicted against measured %s for experiment %s, %zu configurations, "
                "log-log, with the line y = x and a band of plus or minus 10%%, points coloured "
                "by cluster", rbuf_str(&unit), e->info->name, n);
    pvm_job pj = {rbuf_str(&title), rbuf_str(&unit), p, n};
    bool ok = chart(s, "predicted-vs-measured", "pvm", rbuf_str(&title), rbuf_str(&alt),
                    rbuf_str(&csv_copy), pred_csv, draw_pvm, &pj);

    const table *t = &s->sc->camp->runs;
    rbuf_puts(&xl, e->x_col >= 0 ? t->cols[e->x_col].name : "configuration");
    if (e->x_col >= 0 && strcmp(t->cols[e->x_col].name, "np") == 0)
        rbuf_clear(&xl), rbuf_puts(&xl, "processes (np)");
    rbuf_clear(&title), rbuf_clear(&alt);
    rbuf_printf(&title, "Prediction error: %s", e->info->name);
    rbuf_printf(&alt, "Signed prediction error in percent against %s for experiment %s, "
                "%zu configurations, with a band of plus or minus 10%%", rbuf_str(&xl),
                e->info->name, n);
    residual_job rj = {rbuf_str(&title), rbuf_str(&xl), e->x_scale, r, n};
    ok = ok && (e->x_col < 0 ||
                chart(s, "residuals", "residuals", rbuf_str(&title), rbuf_str(&alt),
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
    double v = site_response(e, row), x = x_of(e, row);
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
        sp->preds[sp->npreds++] = (chart_prediction){series, x_of(e, row), p->estimate,
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

static bool scaling(page_state *s)
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
        rbuf_puts(&xl, strcmp(x, "np") == 0 ? "processes (np)" : x);
        response_label(e, &unit);
        rbuf_printf(&title, "%s vs %s: %s", strcmp(rbuf_str(&unit), "time (s)") == 0 ? "Time" : "Response",
                    strcmp(x, "np") == 0 ? "processes" : x, e->info->name);
        rbuf_printf(&alt, "%s against %s for experiment %s: measured runs with their spread "
                    "(training runs filled, held-out runs hollow), predicted curve and 95%% "
                    "prediction interval", rbuf_str(&unit), rbuf_str(&xl), e->info->name);
        chart_scaling_data data = {rbuf_str(&title), rbuf_str(&xl), rbuf_str(&unit), e->x_scale,
                                   runs, sp.ngroups, sp.preds, sp.npreds};
        const char *csv_name = file_name(s, "scaling.csv");
        rbuf name;
        rbuf_init(&name);
        rbuf_puts(&name, csv_name);
        ok = write_csv(s, rbuf_str(&name), &csv) &&
             chart(s, "scaling", "scaling", rbuf_str(&title), rbuf_str(&alt), rbuf_str(&name),
                   &csv, draw_scaling, &data);
        rbuf_free(&name);
    }
    free(runs);
    scaling_points_free(&sp);
    rbuf_free(&csv), rbuf_free(&title), rbuf_free(&alt), rbuf_free(&xl), rbuf_free(&unit);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Sections and the page                                               */

static bool experiment_section(page_state *s)
{
    const site_experiment *e = s->e;
    rbuf_clear(&s->base);
    site_slug(e->info->name, &s->base);
    experiment_header(s);
    if (!e->res.ok) {
        md_strong(&s->md, "This experiment could not be fitted:");
        md_text(&s->md, " ");
        md_text(&s->md, e->res.error);
        md_end_paragraph(&s->md);
        return true;
    }
    equation(s);
    rbuf pred_csv;
    rbuf_init(&pred_csv);
    bool ok = coefficients(s) && statistics(s);
    bullet_list(s, "Diagnostics", s->e->res.rep.diagnostics, s->e->res.rep.ndiagnostics);
    bullet_list(s, "Warnings", s->e->res.rep.warnings, s->e->res.rep.nwarnings);
    ok = ok && predictions(s, &pred_csv);
    if (ok && e->res.rep.npreds + e->res.input.ntrain > 0) {
        md_heading(&s->md, 3, "Charts");
        ok = pvm_and_residuals(s, &pred_csv) && scaling(s);
    }
    rbuf_free(&pred_csv);
    return ok;
}

static void problems_section(page_state *s)
{
    md_heading(&s->md, 2, "Problems");
    md_text(&s->md, s->sc->camp ? "perfcast check reports:"
                                : "This campaign is left out of the site until these problems "
                                  "are fixed (perfcast check lists them too):");
    md_end_paragraph(&s->md);
    for (size_t i = 0; i < s->sc->nproblems; i++) {
        md_bullet(&s->md);
        md_text(&s->md, s->sc->problems[i]);
        md_end_item(&s->md);
    }
    md_end_list(&s->md);
}

/* runs.csv and experiments.csv as the site read them. */
static bool source_data(page_state *s)
{
    const table *t = &s->sc->camp->runs;
    rbuf csv;
    rbuf_init(&csv);
    for (size_t c = 0; c < t->ncols; c++) {
        site_csv_text(&csv, t->cols[c].name);
        rbuf_putc(&csv, c + 1 < t->ncols ? ',' : '\n');
    }
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            rbuf_clear(&s->tmp);
            site_cell_text(t, r, c, &s->tmp);
            if (t->cols[c].kind == COL_TEXT)
                site_csv_text(&csv, rbuf_str(&s->tmp));
            else
                rbuf_puts(&csv, rbuf_str(&s->tmp));
            rbuf_putc(&csv, c + 1 < t->ncols ? ',' : '\n');
        }
    bool ok = write_csv(s, "runs.csv", &csv);
    rbuf_clear(&csv);
    rbuf_puts(&csv, "name,model,response,formula,train,target,title,options\n");
    for (size_t i = 0; i < s->sc->camp->nexperiments; i++) {
        const experiment_info *e = &s->sc->camp->experiments[i];
        const char *cells[] = {e->name, e->model, e->response, e->formula,
                               e->train, e->target, e->title, e->options};
        for (size_t k = 0; k < 8; k++) {
            site_csv_text(&csv, cells[k] ? cells[k] : "");
            rbuf_putc(&csv, k < 7 ? ',' : '\n');
        }
    }
    ok = ok && write_csv(s, "experiments.csv", &csv);
    rbuf_free(&csv);
    return ok;
}

bool site_write_campaign(site_ctx *c, size_t campaign)
{
    const site_campaign *sc = &c->data->camps[campaign];
    rbuf dir;
    rbuf_init(&dir);
    rbuf_printf(&dir, "campaigns/%s/", sc->slug);
    page_state s = {.c = c, .d = c->data, .sc = sc, .dir = rbuf_str(&dir)};
    rbuf_init(&s.base), rbuf_init(&s.md), rbuf_init(&s.tmp), rbuf_init(&s.name);
    page_header(&s);
    bool ok = true;
    if (sc->nproblems)
        problems_section(&s);
    for (size_t i = 0; ok && i < sc->nexps; i++) {
        s.e = &sc->exps[i];
        ok = experiment_section(&s);
    }
    ok = ok && (!sc->camp || source_data(&s));
    rbuf path, title;
    rbuf_init(&path), rbuf_init(&title);
    rbuf_printf(&path, "%sindex", s.dir);
    rbuf_printf(&title, "Campaign %s", sc->name);
    ok = ok && site_page(c, rbuf_str(&path), rbuf_str(&title), &s.md);
    rbuf_free(&path), rbuf_free(&title), rbuf_free(&dir);
    rbuf_free(&s.base), rbuf_free(&s.md), rbuf_free(&s.tmp), rbuf_free(&s.name);
    return ok;
}
