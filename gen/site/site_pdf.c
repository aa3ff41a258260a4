/*
 * site_pdf.c — the printable report (see site_pdf.h) and its place on the
 * site (report.pdf, site_write_report).
 *
 * Every cell is text made by the site's own formatters (site_fmt_*,
 * gen/site/site_option_text.h, gen/site/site_advice_pi.h), so the PDF says
 * what the pages say; pdfdoc lays it out.
 */
#include "gen/site/site_pdf.h"
#include "gen/site/site_advice_pi.h"
#include "gen/site/site_cost_figure.h"
#include "gen/site/site_notes.h"
#include "gen/site/site_option_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/site/site_pages.h"
#include "render/chart.h"
#include "render/pdfdoc.h"
#include "render/plot.h"

/* The cells of a table being filled, row by row; each owned here. */
typedef struct {
    char **cells;
    size_t n, cap;
    bool oom;
} cell_list;

static void add_cell(cell_list *l, const char *text)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **grown = realloc(l->cells, cap * sizeof *grown);
        if (!grown) {
            l->oom = true;
            return;
        }
        l->cells = grown, l->cap = cap;
    }
    char *copy = strdup(text);
    l->oom |= copy == NULL;
    if (copy)
        l->cells[l->n++] = copy;
}

/* Add the text in b as a cell and clear b for the next one. */
static void add_buf(cell_list *l, rbuf *b)
{
    add_cell(l, rbuf_str(b));
    l->oom |= b->oom;
    rbuf_clear(b);
}

static void cell_list_free(cell_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->cells[i]);
    free(l->cells);
}

/* Draw the table whose cells l holds (ncols per row), then empty l. */
static void put_table(pdfdoc *doc, cell_list *l, size_t ncols, const char *const *head,
                      const char *align)
{
    if (!l->oom) {
        pdfdoc_table_spec t = {ncols, l->n / ncols, head, align, (const char *const *)l->cells};
        pdfdoc_table(doc, &t);
    }
    for (size_t i = 0; i < l->n; i++)
        free(l->cells[i]);
    l->n = 0;
}

static const char *currency_of(const cluster_info *ci)
{
    return ci->currency ? ci->currency : "units";
}

static size_t options_on(const site_data *d, size_t cluster)
{
    size_t n = 0;
    for (size_t i = 0; i < d->noptions; i++)
        n += d->options[i].cluster == cluster;
    return n;
}

/* ------------------------------------------------------------------ */
/* Title page                                                          */

static void summary(const site_data *d, pdfdoc *doc, rbuf *text)
{
    size_t exps = 0, camps = 0;
    for (size_t i = 0; i < d->ncamps; i++) {
        camps += d->camps[i].camp != NULL;
        exps += d->camps[i].nexps;
    }
    rbuf_clear(text);
    /* Not the archive's path: the same archive gives the same bytes from
     * wherever it is read. */
    rbuf_printf(text, "The archive holds %zu campaign%s, %zu experiment%s, %zu cluster%s; %zu "
                "predicted job%s costed; newest run %s.", camps, camps == 1 ? "" : "s", exps, exps == 1 ? "" : "s", d->nclusters,
                d->nclusters == 1 ? "" : "s", d->noptions, d->noptions == 1 ? "" : "s",
                d->last_date[0] ? d->last_date : "unknown");
    pdfdoc_paragraph(doc, rbuf_str(text));
    pdfdoc_paragraph(doc,
                     "Each time is the model's prediction with its calibrated 95% prediction "
                     "interval: how far such predictions missed when they were tested on "
                     "measured runs. Core-hours = processes \xC3\x97 time / 3600; cost = "
                     "core-hours \xC3\x97 the cluster's rate, with the same interval. The "
                     "verdict (reliable, uncertain, unreliable, not verified) is that of the "
                     "experiment behind the prediction; the site's campaign pages give its "
                     "reasons. Made by perfcast from the archive alone: the same archive "
                     "gives the same report.");
}

static void cluster_table(const site_data *d, int only, pdfdoc *doc)
{
    static const char *const head[] = {"cluster", "nodes", "cores per node", "rate per core-hour",
                                       "interconnect", "predicted jobs"};
    cell_list cells = {0};
    rbuf b;
    rbuf_init(&b);
    for (size_t k = 0; k < d->nclusters; k++) {
        if (only >= 0 && (size_t)only != k)
            continue;
        const cluster_info *ci = d->clusters[k].info;
        add_cell(&cells, ci->name);
        site_fmt(&b, ci->nodes), add_buf(&cells, &b);
        site_fmt(&b, ci->cores_per_node), add_buf(&cells, &b);
        site_fmt_money(&b, ci->rate_per_core_hour, currency_of(ci)), add_buf(&cells, &b);
        add_cell(&cells, ci->interconnect ? ci->interconnect : "\xE2\x80\x94");
        rbuf_printf(&b, "%zu", options_on(d, k)), add_buf(&cells, &b);
    }
    put_table(doc, &cells, 6, head, "lrrrlr");
    cell_list_free(&cells);
    rbuf_free(&b);
}

/* ------------------------------------------------------------------ */
/* Advice                                                              */

static bool option_on(const advise_option *o, const char *cluster)
{
    return !cluster || (o->nsides == 1 && strcmp(o->cluster[0]->name, cluster) == 0);
}

/* The ranked options of s that run on cluster (NULL: all) as table cells,
 * time and cost with their intervals and verdicts, the long reasons into
 * notes. */
static void option_cells(const site_data *d, const advice_scenario *s, const char *cluster,
                         cell_list *cells, site_notes *notes)
{
    rbuf b;
    rbuf_init(&b);
    bool clipped = false;
    for (size_t r = 0; s->ok && r < s->nfast; r++) {
        const advise_option *o = &s->options[s->fast[r]];
        if (!option_on(o, cluster))
            continue;
        site_advice_pi pi;
        site_advice_pi_of(d, s->code, o, &pi);
        rbuf_printf(&b, "%zu", r + 1), add_buf(cells, &b);
        add_cell(cells, o->name);
        site_fmt_duration(&b, o->time_s), add_buf(cells, &b);
        site_fmt_interval(&b, pi.low, pi.high, &clipped), add_buf(cells, &b);
        site_fmt_money(&b, o->cost.cost, o->cost.currency ? o->cost.currency : "units");
        add_buf(cells, &b);
        site_advice_pi_cost(o, &pi, &b), add_buf(cells, &b);
        add_cell(cells, verdict_name(pi.verdict));
        site_advice_pi_source(o, &pi, notes, &b), add_buf(cells, &b);
    }
    rbuf_free(&b);
}

static void scenario_section(const site_data *d, const advice_scenario *s, const char *cluster,
                             pdfdoc *doc)
{
    static const char *const head[] = {"rank", "option", "time", "calibrated 95% PI", "cost",
                                       "cost, calibrated 95% PI", "verdict", "time from"};
    cell_list cells = {0};
    site_notes notes;
    site_notes_init(&notes);
    option_cells(d, s, cluster, &cells, &notes);
    rbuf b;
    rbuf_init(&b);
    if (cluster && cells.n == 0) { /* nothing of this cluster: the scenario is left out */
        cell_list_free(&cells);
        site_notes_free(&notes);
        rbuf_free(&b);
        return;
    }
    pdfdoc_heading(doc, 2, s->title && *s->title ? s->title : s->name);
    if (!cluster) {
        rbuf_printf(&b, "Free resources: %s.", s->free ? s->free : "");
        if (s->size && *s->size)
            rbuf_printf(&b, " Problem: %s.", s->size);
        pdfdoc_paragraph(doc, rbuf_str(&b));
        rbuf_clear(&b);
    }
    if (s->note && *s->note)
        pdfdoc_paragraph(doc, s->note);
    if (!s->ok) {
        rbuf_printf(&b, "No options: %s", s->error);
        pdfdoc_paragraph(doc, rbuf_str(&b));
    } else if (cells.n == 0) {
        pdfdoc_paragraph(doc, "No option has a predicted time.");
    } else {
        pdfdoc_paragraph(doc, s->scenario == 2 ? "Largest mesh first, then fastest:"
                                               : "Fastest first:");
        put_table(doc, &cells, 8, head, "rlrrrrll");
        for (size_t k = 0; k < notes.n; k++) { /* the notes, each once, under the table */
            site_notes_mark(&b, k + 1);
            rbuf_printf(&b, " %s", notes.text[k]);
            pdfdoc_paragraph(doc, rbuf_str(&b));
            rbuf_clear(&b);
        }
    }
    cells.oom |= notes.oom;
    cell_list_free(&cells);
    site_notes_free(&notes);
    rbuf_free(&b);
}

static void advice_section(const site_data *d, const char *cluster, pdfdoc *doc)
{
    if (d->scenarios.n == 0)
        return;
    pdfdoc_heading(doc, 1, "Advice");
    pdfdoc_paragraph(doc, cluster ? "The scenarios of the archive's advice.csv, with only "
                                    "the options that run on this cluster alone."
                                  : "The scenarios of the archive's advice.csv (as `perfcast "
                                    "advise` answers them): every option of the free "
                                    "resources, each cluster alone and pairs of clusters "
                                    "splitting the job.");
    for (size_t i = 0; i < d->scenarios.n; i++)
        scenario_section(d, &d->scenarios.items[i], cluster, doc);
}

/* ------------------------------------------------------------------ */
/* Clusters                                                            */

static void cost_rows(const site_data *d, size_t k, cell_list *cells, bool *clipped)
{
    const char *currency = currency_of(d->clusters[k].info);
    rbuf b;
    rbuf_init(&b);
    for (size_t i = 0; i < d->noptions; i++) {
        const site_option *o = &d->options[i];
        if (o->cluster != k)
            continue;
        const site_experiment *e = &d->camps[o->camp].exps[o->exp];
        site_option_job_flagged(o, &b), add_buf(cells, &b);
        add_cell(cells, e->info->name);
        site_fmt_duration(&b, o->time_s), add_buf(cells, &b);
        site_fmt_interval(&b, o->cal_low, o->cal_high, clipped), add_buf(cells, &b);
        site_fmt_money(&b, o->cost, currency), add_buf(cells, &b);
        site_option_cost_interval(o, currency, &b), add_buf(cells, &b);
        add_cell(cells, verdict_name(e->verdict.level));
    }
    rbuf_free(&b);
}

static bool draw_cost_figure(const void *ctx, cairo_t *cr, double *width, double *height,
                             char *err, size_t errlen)
{
    chart_files f;
    chart_files_init(&f);
    f.cr = cr;
    bool ok = site_draw_cost(ctx, &f, err, errlen);
    *width = PLOT_WIDTH;
    *height = f.height;
    chart_files_free(&f);
    return ok;
}

static bool cluster_section(const site_data *d, size_t k, pdfdoc *doc)
{
    static const char *const head[] = {"job", "experiment", "time", "calibrated 95% PI", "cost",
                                       "cost, calibrated 95% PI", "verdict"};
    const cluster_info *ci = d->clusters[k].info;
    rbuf b;
    rbuf_init(&b);
    rbuf_printf(&b, "Cluster %s", ci->name);
    pdfdoc_heading(doc, 1, rbuf_str(&b));
    if (ci->description)
        pdfdoc_paragraph(doc, ci->description);
    bool ok = true;
    if (options_on(d, k) == 0) {
        pdfdoc_paragraph(doc, "No experiment predicts a run on this cluster yet.");
    } else {
        cell_list cells = {0};
        bool clipped = false;
        cost_rows(d, k, &cells, &clipped);
        ok = !cells.oom;
        put_table(doc, &cells, 7, head, "llrrrrl");
        cell_list_free(&cells);
        if (clipped)
            pdfdoc_paragraph(doc, site_clip_note);
        site_cost_figure f;
        char err[256] = "";
        ok = site_cost_figure_make(d, k, &f) && ok;
        if (ok && !pdfdoc_figure(doc, draw_cost_figure, &f.job, err, sizeof err)) {
            rbuf_clear(&b);
            rbuf_printf(&b, "The chart could not be drawn: %s", err);
            pdfdoc_paragraph(doc, rbuf_str(&b));
        }
        site_cost_figure_free(&f);
    }
    rbuf_free(&b);
    return ok;
}

/* ------------------------------------------------------------------ */
/* The report                                                          */

static void unknown_cluster(const site_data *d, const char *cluster, char *err, size_t errlen)
{
    rbuf b;
    rbuf_init(&b);
    rbuf_printf(&b, "unknown cluster %s; the archive's clusters are:", cluster);
    for (size_t k = 0; k < d->nclusters; k++)
        rbuf_printf(&b, "%s %s", k ? "," : "", d->clusters[k].info->name);
    if (d->nclusters == 0)
        rbuf_puts(&b, " none");
    snprintf(err, errlen, "%s", rbuf_str(&b));
    rbuf_free(&b);
}

bool site_pdf_report(const site_data *d, const char *cluster, rbuf *out, size_t *pages,
                     char *err, size_t errlen)
{
    int only = cluster ? site_cluster_index(d, cluster) : -1;
    if (cluster && only < 0) {
        unknown_cluster(d, cluster, err, errlen);
        return false;
    }
    rbuf title;
    rbuf_init(&title);
    rbuf_puts(&title, "perfcast report: predicted time and cost");
    if (cluster)
        rbuf_printf(&title, " on %s", cluster);
    pdfdoc *doc = pdfdoc_begin(out, rbuf_str(&title),
                               d->last_date[0] ? d->last_date : d->build_date, err, errlen);
    if (!doc) {
        rbuf_free(&title);
        return false;
    }
    pdfdoc_title(doc, rbuf_str(&title));
    summary(d, doc, &title);
    cluster_table(d, only, doc);
    advice_section(d, cluster, doc);
    bool ok = true;
    for (size_t k = 0; k < d->nclusters && ok; k++)
        if (only >= 0 ? (size_t)only == k : options_on(d, k) > 0)
            ok = cluster_section(d, k, doc);
    rbuf_free(&title);
    if (!pdfdoc_end(doc, pages, err, errlen))
        return false;
    if (!ok)
        snprintf(err, errlen, "out of memory");
    return ok;
}

bool site_write_report(site_ctx *c)
{
    rbuf pdf;
    rbuf_init(&pdf);
    char err[512];
    bool ok = site_pdf_report(c->data, NULL, &pdf, NULL, err, sizeof err) &&
              site_file(c, "report.pdf", &pdf);
    rbuf_free(&pdf);
    return ok;
}
