/*
 * site_campaign.c — one page per campaign: its summary first (verdict,
 * best model, headline prediction, one row per experiment), its README,
 * then per experiment the predictions table (key columns first), the
 * fitted equation, coefficients, goodness of fit and diagnostics, a
 * multicore experiment's error summary (gen/site/site_campaign_errors.c),
 * the model comparison and three charts, each table and chart with its
 * CSV. What most readers skip is folded in a closed <details>
 * (render/markdown.h md_fold_begin): the README, the method texts, the fit
 * details, the charts and the models that do not apply. An experiment
 * whose fit failed shows the error and the page goes on; a campaign left
 * out for problems shows them.
 */
#include "gen/site/site_pages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/run_engine.h"
#include "gen/base/slug.h"
#include "gen/site/site_campaign_charts.h"
#include "gen/site/site_campaign_compare.h"
#include "gen/site/site_campaign_errors.h"
#include "gen/site/site_campaign_state.h"
#include "gen/site/site_campaign_summary.h"
#include "gen/site/site_history.h"
#include "render/markdown.h"
#include "render/numtext.h"

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

/* "[text](#anchor)" as a list item. */
static void contents_item(page_state *s, const char *text, const char *anchor)
{
    rbuf_clear(&s->tmp);
    rbuf_printf(&s->tmp, "#%s", anchor);
    md_bullet(&s->md);
    md_link(&s->md, text, rbuf_str(&s->tmp));
    md_end_item(&s->md);
}

/* A table of contents, on pages with more than one experiment. */
static void contents(page_state *s)
{
    const site_campaign *sc = s->sc;
    if (sc->nexps < 2)
        return;
    md_heading(&s->md, 2, "Contents");
    contents_item(s, "Summary", "summary");
    contents_item(s, "Description", "description");
    if (sc->nproblems)
        contents_item(s, "Problems", "problems");
    for (size_t i = 0; i < sc->nexps; i++) {
        rbuf text;
        rbuf_init(&text);
        rbuf_printf(&text, "Experiment %s", sc->exps[i].info->name);
        contents_item(s, rbuf_str(&text), sc->exps[i].anchor);
        rbuf_free(&text);
    }
    md_end_list(&s->md);
}

/* The reader's first questions answered before any detail: the verdict,
 * the best model, the headline prediction (site_campaign_summary.c) and
 * one row per experiment. */
static bool summary(page_state *s)
{
    if (s->sc->nexps == 0)
        return true;
    md_heading(&s->md, 2, "Summary");
    campaign_summary_lead(s);
    return campaign_summary_table(s);
}

/* The page's head: what was run, the summary, then the contents and the
 * README, folded (it can be long; the summary is what most readers want). */
static bool page_header(page_state *s)
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
        return true;
    rbuf_clear(&s->tmp);
    rbuf_printf(&s->tmp, "%zu runs, %zu measured; %zu experiments; newest run: %s. Clusters: ",
                sc->camp->runs.nrows, sc->nmeasured, sc->nexps,
                sc->last_date[0] ? sc->last_date : "no dates");
    md_text(&s->md, rbuf_str(&s->tmp));
    cluster_links(s);
    md_text(&s->md, ". Engine: ");
    run_engine_counts engines = run_engine_count(&sc->camp->runs);
    char engine_text[256];
    md_text(&s->md, run_engine_describe(&engines, engine_text, sizeof engine_text));
    md_text(&s->md, ". Source data: ");
    md_link(&s->md, "runs.csv", "runs.csv");
    md_text(&s->md, ", ");
    md_link(&s->md, "experiments.csv", "experiments.csv");
    md_text(&s->md, ".");
    md_end_paragraph(&s->md);
    md_text(&s->md, site_conventions);
    md_end_paragraph(&s->md);
    bool ok = summary(s);
    contents(s);
    md_heading(&s->md, 2, "Description");
    if (sc->camp->readme) {
        md_fold_begin(&s->md, "The campaign's README.md");
        md_quote_markdown(&s->md, sc->camp->readme);
        md_fold_end(&s->md);
    } else {
        md_text(&s->md, "(no README.md)"), md_end_paragraph(&s->md);
    }
    return ok;
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

/* The models' texts (equations, diagnostics, notes) with any number in
 * e-notation written for people (render/numtext.h); the result lives in
 * s->human until the next call. */
static const char *human_numbers(page_state *s, const char *text)
{
    rbuf_clear(&s->human);
    numtext_humanize(&s->human, text ? text : "");
    return rbuf_str(&s->human);
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
    const char *name = campaign_file_name(s, "coefficients.csv");
    site_md_data_link(&s->md, name);
    bool ok = campaign_write_csv(s, name, &csv);
    rbuf_free(&csv);
    return ok;
}

/* Every stat but those the error summary shows. */
static bool statistics(page_state *s)
{
    const report *r = &s->e->res.rep;
    size_t shown = 0;
    for (size_t i = 0; i < r->nstats; i++)
        shown += !campaign_in_error_summary(s->e, r->stats[i].name);
    if (shown == 0)
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
        if (campaign_in_error_summary(s->e, st->name))
            continue;
        md_table_text(&t, stat_title(st->name));
        rbuf_clear(&s->tmp);
        site_fmt(&s->tmp, st->value);
        md_table_text(&t, rbuf_str(&s->tmp));
        md_table_text(&t, human_numbers(s, st->text));
        site_csv_text(&csv, st->name);
        rbuf_putc(&csv, ',');
        site_csv_num(&csv, st->value);
        rbuf_putc(&csv, ',');
        site_csv_text(&csv, st->text ? st->text : "");
        rbuf_putc(&csv, '\n');
    }
    md_table_end(&t);
    const char *name = campaign_file_name(s, "fit.csv");
    site_md_data_link(&s->md, name);
    bool ok = campaign_write_csv(s, name, &csv);
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
        md_text(&s->md, human_numbers(s, lines[i]));
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
    md_code(&s->md, human_numbers(s, eq), false);
    md_end_paragraph(&s->md);
}

/* ------------------------------------------------------------------ */
/* Predictions table                                                   */

/* Whether the measured mean lies in the interval [lo, hi], for people; a
 * miss in bold and in words. */
static void interval_verdict(md_table *t, double lo, double hi, const target_config *tc)
{
    if (!isfinite(lo) || !isfinite(hi) || !tc->nmeasured || !isfinite(tc->measured)) {
        md_table_text(t, "\xE2\x80\x94");
        return;
    }
    rbuf cell;
    rbuf_init(&cell);
    if (tc->measured >= lo && tc->measured <= hi)
        md_text(&cell, "inside");
    else
        md_strong(&cell, "outside");
    md_table_markdown(t, rbuf_str(&cell));
    rbuf_free(&cell);
}

/* The number of note (1-based) among notes, added when new: identical notes
 * share a number. */
static size_t note_number(const char **notes, size_t *nnotes, const char *note)
{
    for (size_t i = 0; i < *nnotes; i++)
        if (strcmp(notes[i], note) == 0)
            return i + 1;
    notes[(*nnotes)++] = note;
    return *nnotes;
}

static void prediction_csv_header(page_state *s, rbuf *csv)
{
    const table *t = &s->sc->camp->runs;
    for (size_t i = 0; i < s->e->nshown; i++) {
        site_csv_text(csv, t->cols[s->e->shown[i]].name);
        rbuf_putc(csv, ',');
    }
    rbuf_puts(csv, "estimate,ci_low,ci_high,pi_low,pi_high,measured,n_measured,error_pct,"
                   "extrapolation,note,cal_pi_low,cal_pi_high,doublings_beyond_range,"
                   "beyond_range\n");
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
    double cal[] = {p->cal_low, p->cal_high, p->distance};
    for (size_t i = 0; i < sizeof cal / sizeof cal[0]; i++)
        rbuf_putc(csv, ','), site_csv_num(csv, cal[i]);
    rbuf_putc(csv, ',');
    site_csv_text(csv, p->beyond ? p->beyond : "");
    rbuf_putc(csv, '\n');
}

/* Which interval is which, and how the calibrated one was made: folded,
 * the table's labels say enough to read it. */
static void interval_legend(page_state *s)
{
    const report *r = &s->e->res.rep;
    md_fold_begin(&s->md, "How the intervals are made");
    md_text(&s->md, "The model's 95% CI and model's 95% PI are the model's own (for ScoPred the "
                    "textbook Student-t intervals of the paper); they assume the model is right. "
                    "The calibrated 95% PI also covers the model's error when extrapolating, "
                    "measured on the training runs themselves: ");
    md_text(&s->md, r->interval_method ? human_numbers(s, r->interval_method) : "none was made.");
    md_text(&s->md, " A note \"beyond the trained range\" names every parameter outside the "
                    "range of the training runs.");
    md_end_paragraph(&s->md);
    md_fold_end(&s->md);
}

/* The note of a prediction the model flags as an extrapolation. */
static const char extrapolation_note[] =
    "The model flags this prediction as an extrapolation (leverage, training range of its "
    "inputs).";

/* The numbers of a prediction's notes ("1, 3"): the model's note, its
 * extrapolation flag and the parameters beyond the trained range, each
 * text numbered once per table. */
static void notes_cell(page_state *s, md_table *tab, const report_prediction *p,
                       const char **note_texts, size_t *nnotes)
{
    const char *texts[] = {p->note, p->extrapolation ? extrapolation_note : NULL, p->beyond};
    rbuf_clear(&s->tmp);
    for (size_t i = 0; i < 3 && note_texts; i++)
        if (texts[i] && texts[i][0])
            rbuf_printf(&s->tmp, "%s%zu", s->tmp.len ? ", " : "",
                        note_number(note_texts, nnotes, texts[i]));
    md_table_text(tab, rbuf_str(&s->tmp));
}

/* The numbered notes under the predictions table. */
static void notes_list(page_state *s, const report_prediction *preds, size_t npreds,
                       const char **note_texts, size_t nnotes)
{
    if (!nnotes)
        return;
    md_text(&s->md, "Notes:");
    md_end_paragraph(&s->md);
    for (size_t i = 0; i < nnotes; i++) {
        bool beyond = false; /* a beyond-range text gets its heading words */
        for (size_t k = 0; k < npreds && !beyond; k++)
            beyond = preds[k].beyond == note_texts[i];
        md_numbered(&s->md, i + 1);
        md_text(&s->md, beyond ? "Beyond the trained range: " : "");
        md_text(&s->md, human_numbers(s, note_texts[i]));
        md_end_item(&s->md);
    }
    md_end_list(&s->md);
}

/* The predictions table: the key columns first (the configuration in
 * words, estimate, calibrated 95% PI, measured, error, whether the
 * measurement lies in the calibrated PI), then the model's own intervals
 * and the rest; long texts become numbered notes under the table. */
static bool predictions(page_state *s, rbuf *csv)
{
    const report *r = &s->e->res.rep;
    md_heading(&s->md, 3, "Predictions");
    if (r->npreds == 0) {
        md_text(&s->md, "This experiment has no target configurations.");
        md_end_paragraph(&s->md);
        return true;
    }
    static const char *const head[] = {
        "configuration", "estimate", "calibrated 95% PI", "measured", "error (%)",
        "measured vs calibrated 95% PI", "model's 95% PI", "measured vs model's 95% PI",
        "model's 95% CI", "runs", "notes"};
    interval_legend(s);
    const char **note_texts = calloc(3 * r->npreds + 1, sizeof *note_texts);
    size_t nnotes = 0;
    bool clipped = false;
    md_table tab;
    md_table_begin(&tab, &s->md, 11, head, "lrrrrlrlrrl");
    prediction_csv_header(s, csv);
    for (size_t i = 0; i < r->npreds; i++) {
        const report_prediction *p = &r->preds[i];
        if (p->config >= s->e->res.input.ntargets)
            continue;
        const target_config *tc = &s->e->res.input.targets[p->config];
        rbuf_clear(&s->tmp);
        site_config_words(s->e, tc->rows[0], &s->tmp);
        md_table_text(&tab, rbuf_str(&s->tmp));
        site_md_cell_duration(&tab, p->estimate);
        rbuf_clear(&s->tmp), site_fmt_interval(&s->tmp, p->cal_low, p->cal_high, &clipped);
        md_table_text(&tab, rbuf_str(&s->tmp));
        site_md_cell_duration(&tab, tc->nmeasured ? tc->measured : NAN);
        site_md_cell_pct(&tab, tc->error_pct);
        interval_verdict(&tab, p->cal_low, p->cal_high, tc);
        rbuf_clear(&s->tmp), site_fmt_interval(&s->tmp, p->pi_low, p->pi_high, &clipped);
        md_table_text(&tab, rbuf_str(&s->tmp));
        interval_verdict(&tab, p->pi_low, p->pi_high, tc);
        rbuf_clear(&s->tmp), site_fmt_interval(&s->tmp, p->ci_low, p->ci_high, &clipped);
        md_table_text(&tab, rbuf_str(&s->tmp));
        site_md_cell_count(&tab, tc->nmeasured);
        notes_cell(s, &tab, p, note_texts, &nnotes);
        prediction_csv_row(s, p, csv);
    }
    md_table_end(&tab);
    if (clipped) {
        md_text(&s->md, site_clip_note);
        md_end_paragraph(&s->md);
    }
    notes_list(s, r->preds, r->npreds, note_texts, nnotes);
    bool ok = note_texts != NULL;
    free(note_texts);
    const char *name = campaign_file_name(s, "predictions.csv");
    site_md_data_link(&s->md, name);
    ok = campaign_write_csv(s, name, csv) && ok;
    return ok;
}

/* ------------------------------------------------------------------ */
/* Sections and the page                                               */

static bool experiment_section(page_state *s)
{
    const site_experiment *e = s->e;
    rbuf_clear(&s->base);
    slug_append(e->info->name, &s->base);
    experiment_header(s);
    campaign_verdict(s);
    if (!e->res.ok) {
        if (e->info->problem) { /* already "experiments.csv:L:C: message" */
            md_strong(&s->md, "This experiment was not run (see Problems):");
            md_text(&s->md, " ");
        } else {
            long line, column;
            char where[64];
            experiment_error_position(&e->res, &line, &column);
            snprintf(where, sizeof where, " experiments.csv:%ld:%ld: ", line, column);
            md_strong(&s->md, "This experiment could not be fitted:");
            md_text(&s->md, where);
        }
        md_text(&s->md, e->res.error);
        md_end_paragraph(&s->md);
        return true;
    }
    rbuf pred_csv;
    rbuf_init(&pred_csv);
    bullet_list(s, "Warnings", s->e->res.rep.warnings, s->e->res.rep.nwarnings);
    bool ok = predictions(s, &pred_csv);
    /* What the predictions rest on, folded: most readers stop at them. */
    md_fold_begin(&s->md, "The fit: equation, coefficients, goodness of fit, diagnostics");
    equation(s);
    ok = ok && coefficients(s) && statistics(s);
    bullet_list(s, "Diagnostics", s->e->res.rep.diagnostics, s->e->res.rep.ndiagnostics);
    md_fold_end(&s->md);
    ok = ok && campaign_error_summary(s) && campaign_comparison(s);
    if (ok && e->res.rep.npreds + e->res.input.ntrain > 0) {
        /* Folded: three charts per experiment made the page three times
         * as tall as everything else on it (issue 24). */
        md_fold_begin(&s->md, "Charts: predicted vs measured, errors, scaling");
        ok = campaign_pvm_and_residuals(s, &pred_csv) && campaign_scaling(s);
        md_fold_end(&s->md);
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
    bool ok = campaign_write_csv(s, "runs.csv", &csv);
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
    ok = ok && campaign_write_csv(s, "experiments.csv", &csv);
    rbuf_free(&csv);
    return ok;
}

bool site_write_campaign(site_ctx *c, size_t campaign)
{
    const site_campaign *sc = &c->data->camps[campaign];
    rbuf dir, path, title;
    rbuf_init(&dir), rbuf_init(&path), rbuf_init(&title);
    rbuf_printf(&dir, "campaigns/%s/", sc->slug);
    rbuf_printf(&path, "%sindex", rbuf_str(&dir));
    rbuf_printf(&title, "Campaign %s", sc->name);
    /* What the page shows is its campaign's runs, fits and clusters, all
     * under its inputs key: when that did not change, neither did the
     * folder, and nothing of it is made again (most of a nightly
     * rebuild's pages). */
    uint64_t key = site_page_folder_key(c, rbuf_str(&path), rbuf_str(&title), sc->inputs_key);
    if (!dir.oom && !path.oom && !title.oom &&
        site_page_folder_reuse(c, rbuf_str(&dir), rbuf_str(&path), key)) {
        rbuf_free(&path), rbuf_free(&title), rbuf_free(&dir);
        return true;
    }
    page_state s = {.c = c, .d = c->data, .sc = sc, .dir = rbuf_str(&dir)};
    rbuf_init(&s.base), rbuf_init(&s.md), rbuf_init(&s.tmp), rbuf_init(&s.name);
    rbuf_init(&s.human);
    bool ok = page_header(&s);
    if (sc->nproblems)
        problems_section(&s);
    for (size_t i = 0; ok && i < sc->nexps; i++) {
        s.e = &sc->exps[i];
        ok = experiment_section(&s);
    }
    ok = ok && site_history_section(c, sc, &s.md);
    ok = ok && (!sc->camp || source_data(&s));
    ok = ok && site_page_keyed(c, rbuf_str(&path), rbuf_str(&title), &s.md, key);
    rbuf_free(&path), rbuf_free(&title), rbuf_free(&dir);
    rbuf_free(&s.base), rbuf_free(&s.md), rbuf_free(&s.tmp), rbuf_free(&s.name);
    rbuf_free(&s.human);
    return ok;
}
