/*
 * site_cluster.c — one page per cluster: what it is, and the cost of every
 * prediction made for it (the job in words, its time and cost with their
 * calibrated 95% intervals, the experiment's verdict, core-hours, the other
 * clusters that run the same job), with a cost-vs-time chart of the
 * options; and the runs for which a paper printed a prediction, with that
 * prediction's interval from the paper's record and what the measured and
 * the predicted time cost.
 */
#include "gen/site/site_pages.h"
#include "gen/site/site_cost_figure.h"
#include "gen/site/site_option_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/html.h"
#include "render/markdown.h"

static const char *currency_of(const cluster_info *ci)
{
    return ci->currency ? ci->currency : "units";
}

static void money_cell(md_table *t, double v, const char *currency)
{
    rbuf cell;
    rbuf_init(&cell);
    site_fmt_money(&cell, v, currency);
    md_table_text(t, rbuf_str(&cell));
    rbuf_free(&cell);
}

static void fact_row(md_table *t, rbuf *csv, const char *name, const char *text, double v)
{
    rbuf cell;
    rbuf_init(&cell);
    if (text)
        rbuf_puts(&cell, text);
    else
        site_fmt(&cell, v);
    md_table_text(t, name);
    md_table_text(t, rbuf_str(&cell));
    site_csv_text(csv, name);
    rbuf_putc(csv, ',');
    if (text)
        site_csv_text(csv, text);
    else
        site_csv_num(csv, v);
    rbuf_putc(csv, '\n');
    rbuf_free(&cell);
}

/* What clusters.csv says about the cluster, as a two-column table. */
static bool facts(site_ctx *c, const site_cluster *k, const char *dir, rbuf *md)
{
    const cluster_info *ci = k->info;
    if (ci->description) {
        md_text(md, ci->description);
        md_end_paragraph(md);
    }
    static const char *const head[] = {"property", "value"};
    md_table t;
    md_table_begin(&t, md, 2, head, "lr");
    rbuf csv, path;
    rbuf_init(&csv), rbuf_init(&path);
    rbuf_puts(&csv, "property,value\n");
    fact_row(&t, &csv, "nodes", NULL, ci->nodes);
    fact_row(&t, &csv, "cores per node", NULL, ci->cores_per_node);
    fact_row(&t, &csv, "memory per core (GB)", NULL, ci->mem_per_core_gb);
    fact_row(&t, &csv, "interconnect", ci->interconnect, NAN); /* "—" on the page, empty in the CSV */
    fact_row(&t, &csv, "rate per core-hour", NULL, ci->rate_per_core_hour);
    fact_row(&t, &csv, "currency", currency_of(ci), NAN);
    md_table_end(&t);
    site_md_data_link(md, "cluster.csv");
    rbuf_printf(&path, "%scluster.csv", dir);
    bool ok = site_file(c, rbuf_str(&path), &csv);
    rbuf_free(&csv), rbuf_free(&path);
    return ok;
}

/* Links to the other clusters on which the same job is predicted; their
 * time, interval and cost are on their own pages (every time with its
 * interval, never a bare one here). "—" when none. */
static void elsewhere(const site_data *d, const site_option *o, rbuf *cell)
{
    bool any = false;
    for (size_t k = 0; k < o->same_count; k++) {
        const site_option *p = &d->options[d->by_job[o->same_first + k]];
        if (p->cluster == o->cluster || strcmp(p->job, o->job) != 0)
            continue;
        rbuf url;
        rbuf_init(&url);
        rbuf_printf(&url, "../%s/index.md", d->clusters[p->cluster].slug);
        if (any)
            md_text(cell, ", ");
        md_link(cell, d->clusters[p->cluster].info->name, rbuf_str(&url));
        rbuf_free(&url);
        any = true;
    }
    if (!any)
        rbuf_puts(cell, "\xE2\x80\x94");
}

static void cost_csv_row(const site_data *d, const site_option *o, rbuf *csv)
{
    const site_campaign *sc = &d->camps[o->camp];
    site_csv_text(csv, sc->name);
    rbuf_putc(csv, ',');
    site_csv_text(csv, sc->exps[o->exp].info->name);
    rbuf_putc(csv, ',');
    site_csv_text(csv, o->config);
    rbuf_putc(csv, ',');
    site_csv_text(csv, o->problem_label);
    double v[] = {o->np, o->time_s, o->core_hours, o->cost, o->cal_low, o->cal_high,
                  site_option_cost_at(o, o->cal_low), site_option_cost_at(o, o->cal_high)};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        rbuf_putc(csv, ','), site_csv_num(csv, v[i]);
    rbuf_putc(csv, ',');
    site_csv_text(csv, verdict_name(sc->exps[o->exp].verdict.level));
    site_option_csv_flags(o, csv);
}

/* Key columns first: the job, its time and cost with their calibrated
 * intervals and the verdict; then where they come from. */
static void cost_table_row(site_ctx *c, const site_option *o, md_table *t, bool *clipped)
{
    const site_data *d = c->data;
    const site_campaign *sc = &d->camps[o->camp];
    const site_experiment *e = &sc->exps[o->exp];
    const char *currency = currency_of(d->clusters[o->cluster].info);
    rbuf cell, url;
    rbuf_init(&cell), rbuf_init(&url);
    site_option_job_flagged(o, &cell), md_table_text(t, rbuf_str(&cell));
    site_md_cell_duration(t, o->time_s);
    rbuf_clear(&cell), site_fmt_interval(&cell, o->cal_low, o->cal_high, clipped);
    md_table_text(t, rbuf_str(&cell));
    money_cell(t, o->cost, currency);
    rbuf_clear(&cell), site_option_cost_interval(o, currency, &cell);
    md_table_text(t, rbuf_str(&cell));
    md_table_text(t, verdict_name(e->verdict.level));
    site_md_cell_number(t, o->core_hours);
    rbuf_clear(&cell);
    rbuf_printf(&url, "../../campaigns/%s/index.md#%s", sc->slug, e->anchor);
    md_link(&cell, sc->name, rbuf_str(&url));
    md_text(&cell, " / ");
    md_text(&cell, e->info->name);
    md_table_markdown(t, rbuf_str(&cell));
    rbuf_clear(&cell), elsewhere(d, o, &cell), md_table_markdown(t, rbuf_str(&cell));
    rbuf_free(&cell), rbuf_free(&url);
}

/* The cost-vs-time chart (gen/site/site_cost_figure.h), drawn from cost.csv. */
static bool cost_chart(site_ctx *c, const site_cluster *k, const char *dir, const rbuf *csv,
                       rbuf *md)
{
    const site_data *d = c->data;
    site_cost_figure f;
    rbuf alt, path;
    rbuf_init(&alt), rbuf_init(&path);
    bool ok = site_cost_figure_make(d, (size_t)(k - d->clusters), &f);
    if (ok) {
        rbuf_printf(&alt, "%s against predicted time of the %zu options on cluster %s, "
                    "log-log; the options of one problem are joined by a line",
                    f.job.cost_label, f.job.n, k->info->name);
        rbuf_printf(&path, "%scost-time", dir);
        uint64_t key = site_chart_key("cost", f.job.title, f.job.cost_label, csv);
        ok = site_chart_on_page(c, md, rbuf_str(&path), key, site_draw_cost, &f.job,
                                "cost-time", rbuf_str(&alt), "cost.csv");
    }
    site_cost_figure_free(&f);
    rbuf_free(&alt), rbuf_free(&path);
    return ok;
}

/* Whether a published run ran (at least partly) on the cluster idx. */
static bool published_here(const site_published *p, size_t idx)
{
    return p->cluster == idx || (p->cluster_b >= 0 && (size_t)p->cluster_b == idx);
}

static size_t published_count(const site_data *d, size_t idx)
{
    size_t n = 0;
    for (size_t i = 0; i < d->npublished; i++)
        n += published_here(&d->published[i], idx);
    return n;
}

static bool cost_section(site_ctx *c, const site_cluster *k, const char *dir, rbuf *md)
{
    const site_data *d = c->data;
    size_t idx = (size_t)(k - d->clusters), n = 0;
    md_heading(md, 2, "Cost of the predicted runs");
    for (size_t i = 0; i < d->noptions; i++)
        n += d->options[i].cluster == idx;
    if (n == 0) {
        md_text(md, published_count(d, idx)
                        ? "No experiment predicts a run on this cluster yet; the predictions "
                          "its papers printed are costed under \"Published predictions (from "
                          "the papers)\" below."
                        : "No experiment predicts a run on this cluster yet.");
        md_end_paragraph(md);
        return true;
    }
    rbuf csv, path;
    rbuf_init(&csv), rbuf_init(&path);
    md_text(md, "Each job with its predicted time and cost, their calibrated 95% prediction "
                "interval (how far such predictions have missed when tested) and the verdict of "
                "the experiment that predicts it. Core-hours = processes \xC3\x97 predicted time "
                "/ 3600; cost = core-hours \xC3\x97 the cluster's rate per core-hour. The last "
                "column links the other clusters on which the same job (same campaign and "
                "configuration) is predicted. The same rows, grouped with every cluster's: ");
    rbuf_printf(&path, "Cluster %s", k->info->name);
    rbuf_printf(&csv, "../../estimates.md#");
    html_heading_id(rbuf_str(&path), &csv);
    md_link(md, "my job, this cluster", rbuf_str(&csv));
    md_text(md, " (and in cost.csv).");
    md_end_paragraph(md);
    rbuf_clear(&path), rbuf_clear(&csv);
    const char *head[] = {"job", "predicted time", "calibrated 95% PI", "cost",
                          "cost, calibrated 95% PI", "verdict", "core-hours", "experiment",
                          "also predicted on"};
    md_table t;
    md_table_begin(&t, md, 9, head, "lrrrrlrll");
    bool clipped = false;
    rbuf_puts(&csv, "campaign,experiment,configuration,job,np,time_s,core_hours,cost,"
                    "cal_pi_low_s,cal_pi_high_s,cost_low,cost_high,verdict,"
                    SITE_OPTION_CSV_FLAGS "\n");
    for (size_t i = 0; i < d->noptions; i++)
        if (d->options[i].cluster == idx) {
            cost_table_row(c, &d->options[i], &t, &clipped);
            cost_csv_row(d, &d->options[i], &csv);
        }
    md_table_end(&t);
    if (clipped) {
        md_text(md, site_clip_note);
        md_end_paragraph(md);
    }
    site_md_data_link(md, "cost.csv");
    rbuf_printf(&path, "%scost.csv", dir);
    bool ok = site_file(c, rbuf_str(&path), &csv) && cost_chart(c, k, dir, &csv, md);
    rbuf_free(&csv), rbuf_free(&path);
    return ok;
}

static void published_csv_row(const site_data *d, const site_published *p, rbuf *csv)
{
    site_csv_text(csv, d->camps[p->camp].name);
    rbuf_putc(csv, ',');
    site_csv_text(csv, p->config);
    rbuf_putc(csv, ',');
    site_csv_text(csv, d->clusters[p->cluster].info->name);
    rbuf_putc(csv, ',');
    site_csv_text(csv, p->cluster_b >= 0 ? d->clusters[p->cluster_b].info->name : "");
    double v[] = {p->measured,
                  p->predicted,
                  p->error_pct,
                  p->at_measured.core_hours,
                  p->at_measured.cost,
                  p->at_predicted.core_hours,
                  p->at_predicted.cost};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        rbuf_putc(csv, ','), site_csv_num(csv, v[i]);
    rbuf_putc(csv, ',');
    site_csv_text(csv, p->at_predicted.currency);
    rbuf_putc(csv, ','), site_csv_num(csv, p->pi_low);
    rbuf_putc(csv, ','), site_csv_num(csv, p->pi_high);
    rbuf_putc(csv, '\n');
}

/* Key columns first: the run, its measured time, the paper's prediction
 * with its interval and whether the measurement lies in it, the costs. */
static void published_table_row(const site_data *d, const site_published *p, md_table *t,
                                bool *clipped)
{
    const site_campaign *sc = &d->camps[p->camp];
    const char *currency = p->at_predicted.currency ? p->at_predicted.currency
                                                       : currency_of(d->clusters[p->cluster].info);
    rbuf cell, url;
    rbuf_init(&cell), rbuf_init(&url);
    md_table_text(t, p->config);
    site_md_cell_duration(t, p->measured);
    site_md_cell_duration(t, p->predicted);
    site_fmt_interval(&cell, p->pi_low, p->pi_high, clipped);
    md_table_text(t, rbuf_str(&cell));
    site_md_cell_pct(t, p->error_pct);
    md_table_text(t, !isfinite(p->pi_low) || !isfinite(p->measured) ? "\xE2\x80\x94"
                     : p->measured >= p->pi_low && p->measured <= p->pi_high ? "yes"
                                                                             : "no");
    md_table_text(t, verdict_name(VERDICT_NOT_VERIFIED));
    money_cell(t, p->at_measured.cost, currency);
    money_cell(t, p->at_predicted.cost, currency);
    rbuf_clear(&cell);
    double per_s = p->at_predicted.cost / p->predicted;
    if (isfinite(per_s) && isfinite(p->pi_low) && isfinite(p->pi_high)) {
        site_fmt_money(&cell, per_s * p->pi_low, currency);
        rbuf_puts(&cell, " \xE2\x80\x93 ");
        site_fmt_money(&cell, per_s * p->pi_high, currency);
    } else {
        rbuf_puts(&cell, "\xE2\x80\x94");
    }
    md_table_text(t, rbuf_str(&cell));
    rbuf_clear(&cell);
    rbuf_printf(&url, "../../campaigns/%s/index.md", sc->slug);
    md_link(&cell, sc->name, rbuf_str(&url));
    md_table_markdown(t, rbuf_str(&cell));
    rbuf_free(&cell), rbuf_free(&url);
}

/* The runs on this cluster for which a paper printed a prediction, with
 * what each time costs; none, no section. */
static bool published_section(site_ctx *c, const site_cluster *k, const char *dir, rbuf *md)
{
    const site_data *d = c->data;
    size_t idx = (size_t)(k - d->clusters);
    if (published_count(d, idx) == 0)
        return true;
    md_heading(md, 2, "Published predictions (from the papers)");
    md_text(md, "Runs on this cluster for which a paper printed a predicted time next to the "
                "measured one. The 95% interval of each printed prediction comes from the "
                "paper's other printed predictions in the same campaign (measured / predicted "
                "on a log scale, the run itself left out); no model of perfcast's checks them, "
                "hence \"not verified\". Error = 100 \xC3\x97 (predicted \xE2\x88\x92 measured) / "
                "measured. Cost = processes \xC3\x97 time / 3600 \xC3\x97 the rate per "
                "core-hour, for the measured and for the predicted time; a run split over two "
                "clusters counts both sides, each at its cluster's rate, and is listed on both "
                "clusters' pages; core-hours are in published.csv.");
    md_end_paragraph(md);
    rbuf csv, path;
    rbuf_init(&csv), rbuf_init(&path);
    const char *head[] = {"configuration", "measured time", "paper's prediction",
                          "95% PI (paper's record)", "paper's error (%)", "measured inside",
                          "verdict", "measured cost", "predicted cost",
                          "cost, 95% PI (paper's record)", "campaign"};
    md_table t;
    md_table_begin(&t, md, 11, head, "lrrrrllrrrl");
    bool clipped = false;
    rbuf_puts(&csv, "campaign,configuration,cluster,cluster_b,measured_s,predicted_s,error_pct,"
                    "core_hours_measured,cost_measured,core_hours_predicted,cost_predicted,"
                    "currency,pi_low_s,pi_high_s\n");
    for (size_t i = 0; i < d->npublished; i++)
        if (published_here(&d->published[i], idx)) {
            published_table_row(d, &d->published[i], &t, &clipped);
            published_csv_row(d, &d->published[i], &csv);
        }
    md_table_end(&t);
    if (clipped) {
        md_text(md, site_clip_note);
        md_end_paragraph(md);
    }
    site_md_data_link(md, "published.csv");
    rbuf_printf(&path, "%spublished.csv", dir);
    bool ok = site_file(c, rbuf_str(&path), &csv);
    rbuf_free(&csv), rbuf_free(&path);
    return ok;
}

bool site_write_cluster(site_ctx *c, size_t cluster)
{
    const site_cluster *k = &c->data->clusters[cluster];
    rbuf md, dir, title;
    rbuf_init(&md), rbuf_init(&dir), rbuf_init(&title);
    rbuf_printf(&dir, "clusters/%s/", k->slug);
    rbuf_printf(&title, "Cluster %s", k->info->name);
    md_link(&md, "perfcast", "../../index.md");
    md_text(&md, " › cluster ");
    md_text(&md, k->info->name);
    md_end_paragraph(&md);
    md_heading(&md, 1, rbuf_str(&title));
    md_link(&md, "Printable report (PDF)", "report.pdf");
    md_text(&md, ": this cluster's cost table and chart, and the advice's options on it alone.");
    md_end_paragraph(&md);
    bool ok = facts(c, k, rbuf_str(&dir), &md) && cost_section(c, k, rbuf_str(&dir), &md) &&
              published_section(c, k, rbuf_str(&dir), &md);
    rbuf_puts(&dir, "index");
    ok = ok && site_page(c, rbuf_str(&dir), rbuf_str(&title), &md);
    rbuf_free(&md), rbuf_free(&dir), rbuf_free(&title);
    return ok;
}
