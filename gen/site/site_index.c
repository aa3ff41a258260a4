/*
 * site_index.c — the front page: campaigns, clusters, each model's
 * accuracy on held-out runs, the advice pages, alerts and the date of
 * the newest data.
 */
#include "gen/site/site_pages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/markdown.h"

static void link_to(rbuf *cell, const char *text, const char *fmt, const char *slug)
{
    rbuf url;
    rbuf_init(&url);
    rbuf_printf(&url, fmt, slug);
    md_link(cell, text, rbuf_str(&url));
    rbuf_free(&url);
}

static size_t fitted(const site_campaign *sc)
{
    size_t n = 0;
    for (size_t i = 0; i < sc->nexps; i++)
        n += sc->exps[i].res.ok;
    return n;
}

/* The campaign's verdict (gen/fit/verdict.h), never a bare "ok". */
static void campaign_status(const site_campaign *sc, rbuf *out)
{
    if (!sc->camp)
        rbuf_printf(out, "left out: %zu problem%s", sc->nproblems, sc->nproblems == 1 ? "" : "s");
    else
        rbuf_puts(out, verdict_name(sc->verdict.level));
    if (sc->camp && fitted(sc) < sc->nexps)
        rbuf_printf(out, " (%zu of %zu experiments not fitted)", sc->nexps - fitted(sc),
                    sc->nexps);
}

/* The model with the lowest median held-out |error| (gen/fit/compare.h). */
static const char *best_model(const site_campaign *sc)
{
    if (!sc->camp || sc->compare.best < 0)
        return "\xE2\x80\x94";
    return sc->compare.rows[sc->compare.best].label;
}

static bool campaigns(site_ctx *c, rbuf *md)
{
    const site_data *d = c->data;
    md_heading(md, 2, "Campaigns");
    md_text(md, "Verdict: reliable, uncertain, unreliable or not verified, from the held-out "
                "error, the calibrated interval's coverage and the warning signs listed as "
                "reasons (the worst of the campaign's verified experiments). Best model: the "
                "lowest median held-out |error| among the models that predicted every "
                "held-out run (the perfcast compare command also tries the ScoPred term search).");
    md_end_paragraph(md);
    static const char *const head[] = {"campaign", "experiments", "fitted", "runs",
                                       "newest run", "verdict", "why", "best model"};
    md_table t;
    md_table_begin(&t, md, 8, head, "lrrrllll");
    rbuf csv, cell;
    rbuf_init(&csv), rbuf_init(&cell);
    rbuf_puts(&csv, "campaign,experiments,fitted,runs,measured_runs,newest_run,status,"
                    "verdict_reasons,best_model\n");
    for (size_t i = 0; i < d->ncamps; i++) {
        const site_campaign *sc = &d->camps[i];
        rbuf_clear(&cell);
        link_to(&cell, sc->name, "campaigns/%s/index.md", sc->slug);
        md_table_markdown(&t, rbuf_str(&cell));
        size_t runs = sc->camp ? sc->camp->runs.nrows : 0;
        site_md_cell_count(&t, sc->nexps);
        site_md_cell_count(&t, fitted(sc));
        site_md_cell_count(&t, runs);
        md_table_text(&t, sc->last_date[0] ? sc->last_date : "\xE2\x80\x94");
        rbuf_clear(&cell);
        campaign_status(sc, &cell);
        md_table_text(&t, rbuf_str(&cell));
        const char *why = sc->camp && sc->verdict.reasons ? sc->verdict.reasons : "";
        md_table_text(&t, why);
        md_table_text(&t, best_model(sc));
        site_csv_text(&csv, sc->name);
        rbuf_printf(&csv, ",%zu,%zu,%zu,%zu,%s,", sc->nexps, fitted(sc), runs, sc->nmeasured,
                    sc->last_date);
        site_csv_text(&csv, rbuf_str(&cell));
        rbuf_putc(&csv, ',');
        site_csv_text(&csv, why);
        rbuf_putc(&csv, ',');
        site_csv_text(&csv, sc->camp && sc->compare.best >= 0 ? best_model(sc) : "");
        rbuf_putc(&csv, '\n');
    }
    md_table_end(&t);
    site_md_data_link(md, "campaigns.csv");
    bool ok = site_file(c, "campaigns.csv", &csv);
    rbuf_free(&csv), rbuf_free(&cell);
    return ok;
}

static size_t predictions_on(const site_data *d, size_t cluster)
{
    size_t n = 0;
    for (size_t i = 0; i < d->noptions; i++)
        n += d->options[i].cluster == cluster;
    return n;
}

static bool clusters(site_ctx *c, rbuf *md)
{
    const site_data *d = c->data;
    md_heading(md, 2, "Clusters");
    static const char *const head[] = {"cluster", "nodes", "cores per node", "interconnect",
                                       "rate per core-hour", "predicted runs"};
    md_table t;
    md_table_begin(&t, md, 6, head, "lrrlrr");
    rbuf csv, cell;
    rbuf_init(&csv), rbuf_init(&cell);
    rbuf_puts(&csv, "cluster,nodes,cores_per_node,interconnect,rate_per_core_hour,currency,"
                    "predicted_runs\n");
    for (size_t i = 0; i < d->nclusters; i++) {
        const cluster_info *ci = d->clusters[i].info;
        rbuf_clear(&cell);
        link_to(&cell, ci->name, "clusters/%s/index.md", d->clusters[i].slug);
        md_table_markdown(&t, rbuf_str(&cell));
        site_md_cell_number(&t, ci->nodes);
        site_md_cell_number(&t, ci->cores_per_node);
        md_table_text(&t, ci->interconnect ? ci->interconnect : "\xE2\x80\x94");
        rbuf_clear(&cell);
        site_fmt(&cell, ci->rate_per_core_hour);
        if (isfinite(ci->rate_per_core_hour))
            rbuf_printf(&cell, " %s", ci->currency ? ci->currency : "units");
        md_table_text(&t, rbuf_str(&cell));
        size_t n = predictions_on(d, i);
        site_md_cell_count(&t, n);
        site_csv_text(&csv, ci->name);
        double v[] = {ci->nodes, ci->cores_per_node};
        for (size_t k = 0; k < 2; k++)
            rbuf_putc(&csv, ','), site_csv_num(&csv, v[k]);
        rbuf_putc(&csv, ',');
        site_csv_text(&csv, ci->interconnect ? ci->interconnect : "");
        rbuf_putc(&csv, ',');
        site_csv_num(&csv, ci->rate_per_core_hour);
        rbuf_putc(&csv, ',');
        site_csv_text(&csv, ci->currency ? ci->currency : "");
        rbuf_printf(&csv, ",%zu\n", n);
    }
    md_table_end(&t);
    site_md_data_link(md, "clusters.csv");
    bool ok = site_file(c, "clusters.csv", &csv);
    rbuf_free(&csv), rbuf_free(&cell);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Accuracy per model                                                  */

static const char *const models[] = {"scopred", "strip", "block", "multicluster", "multicore"};
enum { NMODELS = sizeof models / sizeof models[0] };

static bool accuracy_section(site_ctx *c, rbuf *md)
{
    const site_data *d = c->data;
    site_accuracy acc[NMODELS] = {{0}};
    for (size_t i = 0; i < d->ncamps; i++)
        for (size_t k = 0; k < d->camps[i].nexps; k++)
            for (size_t m = 0; m < NMODELS; m++)
                if (strcmp(d->camps[i].exps[k].info->model, models[m]) == 0)
                    site_accuracy_add(&acc[m], &d->camps[i].exps[k]);
    md_heading(md, 2, "Accuracy on held-out runs");
    md_text(md, "Held-out runs are targets of an experiment that were measured but not used "
                "to fit it; the error is 100 (predicted \xE2\x88\x92 measured) / measured of "
                "the mean of their repetitions; the median and the largest |error| over the "
                "held-out configurations of each model. Beside the calibrated interval's "
                "coverage, its sharpness: the median width (high/low: 2 means within about "
                "1.4 times either way) and the mean interval score (on log times: the log "
                "width plus 40 times how far a miss lies outside; lower is better).");
    md_end_paragraph(md);
    static const char *const head[] = {"model", "experiments", "fitted", "held-out configurations",
                                       "median |error| (%)", "max |error| (%)",
                                       "inside model's 95% PI", "inside calibrated 95% PI",
                                       "calibrated width (high/low)", "interval score"};
    md_table t;
    md_table_begin(&t, md, 10, head, "lrrrrrrrrr");
    rbuf csv, cell;
    rbuf_init(&csv), rbuf_init(&cell);
    rbuf_puts(&csv, "model,experiments,fitted,held_out,median_abs_error_pct,max_abs_error_pct,"
                    "with_interval,inside_interval,with_calibrated,inside_calibrated,"
                    "median_calibrated_width,mean_interval_score\n");
    for (size_t m = 0; m < NMODELS; m++) {
        site_accuracy *a = &acc[m];
        double median = site_accuracy_median(a);
        double max = a->held_out ? a->max_abs : NAN;
        md_table_text(&t, models[m]);
        site_md_cell_count(&t, a->experiments);
        site_md_cell_count(&t, a->fitted);
        site_md_cell_count(&t, a->held_out);
        site_md_cell_number(&t, median);
        site_md_cell_number(&t, max);
        rbuf_clear(&cell);
        site_inside_count(&cell, a->inside, a->with_interval);
        md_table_text(&t, rbuf_str(&cell));
        rbuf_clear(&cell);
        site_inside_count(&cell, a->inside_calibrated, a->with_calibrated);
        md_table_text(&t, rbuf_str(&cell));
        double width, score;
        if (!site_accuracy_sharpness(a, &width, &score))
            a->oom = true;
        site_md_cell_number(&t, width);
        site_md_cell_number(&t, score);
        rbuf_printf(&csv, "%s,%zu,%zu,%zu,", models[m], a->experiments, a->fitted, a->held_out);
        site_csv_num(&csv, median);
        rbuf_putc(&csv, ',');
        site_csv_num(&csv, max);
        rbuf_printf(&csv, ",%zu,%zu,%zu,%zu,", a->with_interval, a->inside, a->with_calibrated,
                    a->inside_calibrated);
        site_csv_num(&csv, width);
        rbuf_putc(&csv, ',');
        site_csv_num(&csv, score);
        rbuf_putc(&csv, '\n');
    }
    md_table_end(&t);
    site_md_data_link(md, "accuracy.csv");
    bool ok = site_file(c, "accuracy.csv", &csv);
    for (size_t m = 0; m < NMODELS; m++) {
        ok = ok && !acc[m].oom;
        site_accuracy_free(&acc[m]);
    }
    rbuf_free(&csv), rbuf_free(&cell);
    return ok;
}

static void problems(const site_data *d, rbuf *md)
{
    if (d->nproblems == 0)
        return;
    md_heading(md, 2, "Archive problems");
    for (size_t i = 0; i < d->nproblems; i++) {
        md_bullet(md);
        md_text(md, d->problems[i]);
        md_end_item(md);
    }
    md_end_list(md);
}

bool site_write_index(site_ctx *c)
{
    const site_data *d = c->data;
    rbuf md, line;
    rbuf_init(&md), rbuf_init(&line);
    md_heading(&md, 1, "perfcast: performance predictions");
    rbuf_printf(&line, "Predictions of run time and cost from %zu campaigns of benchmark runs "
                "on %zu clusters. Newest data: %s. ", d->ncamps, d->nclusters,
                d->last_date[0] ? d->last_date : "no dated runs");
    md_text(&md, rbuf_str(&line));
    rbuf_clear(&line);
    size_t alerts = site_alert_configurations(d);
    rbuf_printf(&line, "%zu open alert%s (measured outside their 95%% prediction interval, not "
                       "acknowledged)",
                alerts, alerts == 1 ? "" : "s");
    md_link(&md, rbuf_str(&line), "alerts.md");
    md_text(&md, " (");
    md_link(&md, "Atom feed", "alerts.xml");
    md_text(&md, "). My job: ");
    md_link(&md, "time and cost of every predicted job, by cluster", "estimates.md");
    md_text(&md, " (");
    md_link(&md, "Printable report (PDF)", "report.pdf");
    md_text(&md, "). Advice: ");
    md_link(&md, "Scenario 1, the fastest option", "advice/scenario-1.md");
    md_text(&md, ", ");
    md_link(&md, "Scenario 2, more resolution", "advice/scenario-2.md");
    md_text(&md, ".");
    md_end_paragraph(&md);
    bool ok = campaigns(c, &md) && clusters(c, &md) && accuracy_section(c, &md);
    md_heading(&md, 2, "Advice");
    static const char *const advice[][2] = {
        {"Advice overview", "advice/index.md"},
        {"Scenario 1: the fastest way to solve a given size with the resources free now",
         "advice/scenario-1.md"},
        {"Scenario 2: the largest resolution the combined memory allows, and its extra cost",
         "advice/scenario-2.md"},
    };
    for (size_t i = 0; i < 3; i++) {
        md_bullet(&md);
        md_link(&md, advice[i][0], advice[i][1]);
        md_end_item(&md);
    }
    md_end_list(&md);
    problems(d, &md);
    ok = ok && site_page(c, "index", "perfcast", &md);
    rbuf_free(&md), rbuf_free(&line);
    return ok;
}
