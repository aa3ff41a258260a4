/*
 * site_estimates.c — the "my job" page: every predicted target
 * configuration, cluster by cluster, with its time, calibrated 95%
 * interval, cost with the same interval and the verdict of the experiment
 * that predicts it, so that a reader finds their job in two clicks (the
 * index, then their cluster's section) without any script. The same rows
 * in estimates.csv (seconds, the currency's units).
 *
 * A job is named as a person would: its campaign and what tells it apart
 * (the experiment's shown columns, "mgbench-block: na=2048, nb=4096"), then
 * its processes. A cost interval is the time interval's
 * (site_option_cost_at).
 */
#include "gen/site/site_pages.h"
#include "gen/site/site_option_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/html.h"
#include "render/markdown.h"

static const site_experiment *experiment_of(const site_data *d, const site_option *o)
{
    return &d->camps[o->camp].exps[o->exp];
}

static bool has_options(const site_data *d, size_t cluster)
{
    for (size_t i = 0; i < d->noptions; i++)
        if (d->options[i].cluster == cluster)
            return true;
    return false;
}

/* "Cluster NAME" heading text; its anchor for the contents. */
static void heading_text(const site_cluster *cl, rbuf *out)
{
    rbuf_printf(out, "Cluster %s", cl->info->name);
}

static void contents(const site_data *d, rbuf *md)
{
    rbuf text, url;
    rbuf_init(&text), rbuf_init(&url);
    for (size_t k = 0; k < d->nclusters; k++) {
        if (!has_options(d, k))
            continue;
        rbuf_clear(&text), rbuf_clear(&url);
        heading_text(&d->clusters[k], &text);
        rbuf_putc(&url, '#');
        html_heading_id(rbuf_str(&text), &url);
        md_bullet(md);
        md_link(md, d->clusters[k].info->name, rbuf_str(&url));
        md_end_item(md);
    }
    md_end_list(md);
    rbuf_free(&text), rbuf_free(&url);
}

/* "[experiment](campaigns/slug/index.md#anchor)": where the prediction and
 * its verdict's reasons are (one job may be predicted by several). */
static void source_link(const site_data *d, const site_option *o, rbuf *cell)
{
    const site_campaign *sc = &d->camps[o->camp];
    const site_experiment *e = experiment_of(d, o);
    rbuf url;
    rbuf_init(&url);
    rbuf_printf(&url, "campaigns/%s/index.md#%s", sc->slug, e->anchor);
    md_link(cell, e->info->name, rbuf_str(&url));
    rbuf_free(&url);
}

static void table_row(const site_data *d, const site_option *o, md_table *t, rbuf *cell,
                      bool *clipped)
{
    const char *currency = d->clusters[o->cluster].info->currency;
    rbuf_clear(cell), site_option_job_flagged(o, cell), md_table_text(t, rbuf_str(cell));
    rbuf_clear(cell), source_link(d, o, cell), md_table_markdown(t, rbuf_str(cell));
    site_md_cell_duration(t, o->time_s);
    rbuf_clear(cell), site_fmt_interval(cell, o->cal_low, o->cal_high, clipped);
    md_table_text(t, rbuf_str(cell));
    rbuf_clear(cell), site_fmt_money(cell, o->cost, currency ? currency : "units");
    md_table_text(t, rbuf_str(cell));
    rbuf_clear(cell), site_option_cost_interval(o, currency ? currency : "units", cell);
    md_table_text(t, rbuf_str(cell));
    md_table_text(t, verdict_name(experiment_of(d, o)->verdict.level));
}

static void csv_row(const site_data *d, const site_option *o, rbuf *csv, rbuf *cell)
{
    const site_campaign *sc = &d->camps[o->camp];
    const char *currency = d->clusters[o->cluster].info->currency;
    site_csv_text(csv, d->clusters[o->cluster].info->name), rbuf_putc(csv, ',');
    site_csv_text(csv, sc->name), rbuf_putc(csv, ',');
    site_csv_text(csv, experiment_of(d, o)->info->name), rbuf_putc(csv, ',');
    rbuf_clear(cell), site_option_job(o, cell);
    site_csv_text(csv, rbuf_str(cell)), rbuf_putc(csv, ',');
    double v[] = {o->np, o->time_s, o->cal_low, o->cal_high, o->cost,
                  site_option_cost_at(o, o->cal_low), site_option_cost_at(o, o->cal_high)};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        site_csv_num(csv, v[i]), rbuf_putc(csv, ',');
    /* No cost, no currency (a cluster without a rate said "units"). */
    site_csv_text(csv, !isfinite(o->cost) ? "" : currency ? currency : "units");
    rbuf_putc(csv, ',');
    site_csv_text(csv, verdict_name(experiment_of(d, o)->verdict.level));
    site_option_csv_flags(o, csv);
}

static void cluster_section(const site_data *d, size_t k, rbuf *md, rbuf *csv, bool *clipped)
{
    static const char *const head[] = {"job", "experiment", "time", "calibrated 95% PI", "cost",
                                       "cost, calibrated 95% PI", "verdict"};
    rbuf cell;
    rbuf_init(&cell);
    heading_text(&d->clusters[k], &cell);
    md_heading(md, 2, rbuf_str(&cell));
    md_table t;
    md_table_begin(&t, md, 7, head, "llrrrrl");
    for (size_t i = 0; i < d->noptions; i++) {
        const site_option *o = &d->options[i];
        if (o->cluster != k)
            continue;
        table_row(d, o, &t, &cell, clipped);
        csv_row(d, o, csv, &cell);
    }
    md_table_end(&t);
    rbuf_free(&cell);
}

bool site_write_estimates(site_ctx *c)
{
    const site_data *d = c->data;
    rbuf md, csv;
    rbuf_init(&md), rbuf_init(&csv);
    md_heading(&md, 1, "My job: time and cost");
    md_text(&md, "Every job an experiment predicts, cluster by cluster: the predicted time, "
                 "its calibrated 95% prediction interval (how far such predictions have missed "
                 "when tested), the cost on that cluster with the same interval, and the "
                 "verdict of the experiment that predicts it (reliable, uncertain, unreliable, "
                 "not verified; the campaign page gives the reasons). Find your cluster, then "
                 "the job closest to yours.");
    md_end_paragraph(&md);
    md_text(&md, site_conventions);
    md_end_paragraph(&md);
    contents(d, &md);
    rbuf_puts(&csv, "cluster,campaign,experiment,job,np,time_s,cal_pi_low_s,cal_pi_high_s,cost,"
                    "cost_low,cost_high,currency,verdict," SITE_OPTION_CSV_FLAGS "\n");
    bool clipped = false;
    for (size_t k = 0; k < d->nclusters; k++)
        if (has_options(d, k))
            cluster_section(d, k, &md, &csv, &clipped);
    if (clipped) {
        md_text(&md, site_clip_note);
        md_end_paragraph(&md);
    }
    site_md_data_link(&md, "estimates.csv");
    bool ok = !md.oom && !csv.oom && site_file(c, "estimates.csv", &csv) &&
              site_page(c, "estimates", "My job: time and cost", &md);
    rbuf_free(&md), rbuf_free(&csv);
    return ok;
}
