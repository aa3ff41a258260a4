/*
 * site_pdf.c — the printable report (see site_pdf.h) and its place on the
 * site (report.pdf, site_write_report; clusters/<slug>/report.pdf,
 * site_write_cluster_report).
 *
 * Every cell is text made by the site's own formatters (site_fmt_*,
 * gen/site/site_option_text.h, gen/site/site_advice_pi.h), so the PDF says
 * what the pages say; pdfdoc lays it out. Each part of a report goes
 * through report_out, which either draws it or hashes it: a cluster's
 * report is keyed by the same code that draws it, so the key cannot miss
 * what the PDF shows.
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

#include "gen/base/hash.h"
#include "gen/site/site_pages.h"
#include "render/chart.h"
#include "render/pdfdoc.h"
#include "render/plot.h"

/* Where the report goes: drawn into doc, or, with doc NULL, only hashed
 * into key (a cluster's report: its key is computed from exactly what it
 * shows, without drawing anything, so that a kept report is not drawn). */
typedef struct {
    pdfdoc *doc;
    uint64_t key;
    bool alone; /* a cluster's report of its own: nothing archive-wide */
} report_out;

/* Mix a tagged text into the key: the tag says where the text is shown. */
static void hash_text(report_out *o, char tag, const char *text)
{
    o->key = hash_bytes(&tag, 1, o->key);
    o->key = hash_bytes(text ? text : "", text ? strlen(text) + 1 : 1, o->key);
}

static void put_heading(report_out *o, int level, const char *text)
{
    if (o->doc)
        pdfdoc_heading(o->doc, level, text);
    else
        hash_text(o, (char)('0' + level), text);
}

static void put_paragraph(report_out *o, const char *text)
{
    if (o->doc)
        pdfdoc_paragraph(o->doc, text);
    else
        hash_text(o, 'p', text);
}

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

/* Draw (or hash) the table whose cells l holds (ncols per row), then
 * empty l. */
static void put_table(report_out *o, cell_list *l, size_t ncols, const char *const *head,
                      const char *align)
{
    if (!l->oom && o->doc) {
        pdfdoc_table_spec t = {ncols, l->n / ncols, head, align, (const char *const *)l->cells};
        pdfdoc_table(o->doc, &t);
    } else if (!l->oom) {
        hash_text(o, 't', align);
        for (size_t i = 0; i < ncols; i++)
            hash_text(o, 'h', head[i]);
        for (size_t i = 0; i < l->n; i++)
            hash_text(o, 'c', l->cells[i]);
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

static void summary(const site_data *d, report_out *doc, rbuf *text)
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
    put_paragraph(doc, rbuf_str(text));
    put_paragraph(doc,
                  "Each time is the model's prediction with its calibrated 95% prediction "
                  "interval: how far such predictions missed when they were tested on "
                  "measured runs. Core-hours = processes \xC3\x97 time / 3600; cost = "
                  "core-hours \xC3\x97 the cluster's rate, with the same interval. The "
                  "verdict (reliable, uncertain, unreliable, not verified) is that of the "
                  "experiment behind the prediction; the site's campaign pages give its "
                  "reasons. Made by perfcast from the archive alone: the same archive "
                  "gives the same report.");
}

static void cluster_table(const site_data *d, int only, report_out *doc)
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

enum { OPTION_COLS = 8 }; /* rank, option, time, its PI, cost, its PI, verdict, source */

/* The ranked options of s that run on cluster (NULL: all) as table cells,
 * time and cost with their intervals and verdicts, the long reasons into
 * notes; own_rank: ranked among these options only, else among all. */
static void option_cells(const site_data *d, const advice_scenario *s, const char *cluster,
                         bool own_rank, cell_list *cells, site_notes *notes)
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
        /* A cluster's own report ranks its options among themselves: a
         * run elsewhere must not renumber them. */
        rbuf_printf(&b, "%zu", own_rank ? cells->n / OPTION_COLS + 1 : r + 1), add_buf(cells, &b);
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
                             report_out *doc)
{
    static const char *const head[] = {"rank", "option", "time", "calibrated 95% PI", "cost",
                                       "cost, calibrated 95% PI", "verdict", "time from"};
    cell_list cells = {0};
    site_notes notes;
    site_notes_init(&notes);
    option_cells(d, s, cluster, doc->alone, &cells, &notes);
    rbuf b;
    rbuf_init(&b);
    if (cluster && cells.n == 0) { /* nothing of this cluster: the scenario is left out */
        cell_list_free(&cells);
        site_notes_free(&notes);
        rbuf_free(&b);
        return;
    }
    put_heading(doc, 2, s->title && *s->title ? s->title : s->name);
    if (!cluster) {
        rbuf_printf(&b, "Free resources: %s.", s->free ? s->free : "");
        if (s->size && *s->size)
            rbuf_printf(&b, " Problem: %s.", s->size);
        put_paragraph(doc, rbuf_str(&b));
        rbuf_clear(&b);
    }
    if (s->note && *s->note)
        put_paragraph(doc, s->note);
    if (!s->ok) {
        rbuf_printf(&b, "No options: %s", s->error);
        put_paragraph(doc, rbuf_str(&b));
    } else if (cells.n == 0) {
        put_paragraph(doc, "No option has a predicted time.");
    } else {
        put_paragraph(doc, s->scenario == 2 ? "Largest mesh first, then fastest:"
                                               : "Fastest first:");
        put_table(doc, &cells, OPTION_COLS, head, "rlrrrrll");
        for (size_t k = 0; k < notes.n; k++) { /* the notes, each once, under the table */
            site_notes_mark(&b, k + 1);
            rbuf_printf(&b, " %s", notes.text[k]);
            put_paragraph(doc, rbuf_str(&b));
            rbuf_clear(&b);
        }
    }
    cells.oom |= notes.oom;
    cell_list_free(&cells);
    site_notes_free(&notes);
    rbuf_free(&b);
}

/* Whether a scenario has an option that runs on cluster alone. */
static bool advice_on(const site_data *d, const char *cluster)
{
    for (size_t i = 0; i < d->scenarios.n; i++) {
        const advice_scenario *s = &d->scenarios.items[i];
        for (size_t r = 0; s->ok && r < s->nfast; r++)
            if (option_on(&s->options[s->fast[r]], cluster))
                return true;
    }
    return false;
}

static void advice_section(const site_data *d, const char *cluster, report_out *doc)
{
    /* A cluster's own report leaves out an advice that has nothing of it. */
    if (d->scenarios.n == 0 || (doc->alone && !advice_on(d, cluster)))
        return;
    put_heading(doc, 1, "Advice");
    put_paragraph(doc, cluster ? "The scenarios of the archive's advice.csv, with only "
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
    f.size_only = !cr;
    bool ok = site_draw_cost(ctx, &f, err, errlen);
    *width = PLOT_WIDTH;
    *height = f.height;
    chart_files_free(&f);
    return ok;
}

/* Draw the cost chart, or say why it could not be drawn; hashed: its
 * input numbers. b is scratch. */
static void put_figure(report_out *o, const site_cost_chart *job, rbuf *b)
{
    char err[256] = "";
    if (!o->doc) {
        hash_text(o, 'f', job->title);
        hash_text(o, 'f', job->cost_label);
        for (size_t i = 0; i < job->n; i++) {
            hash_text(o, 'g', job->p[i].group);
            double xy[2] = {job->p[i].time_s, job->p[i].cost};
            o->key = hash_bytes(xy, sizeof xy, o->key);
        }
    } else if (!pdfdoc_figure(o->doc, draw_cost_figure, job, err, sizeof err)) {
        rbuf_clear(b);
        rbuf_printf(b, "The chart could not be drawn: %s", err);
        pdfdoc_paragraph(o->doc, rbuf_str(b));
    }
}

static bool cluster_section(const site_data *d, size_t k, report_out *doc)
{
    static const char *const head[] = {"job", "experiment", "time", "calibrated 95% PI", "cost",
                                       "cost, calibrated 95% PI", "verdict"};
    const cluster_info *ci = d->clusters[k].info;
    rbuf b;
    rbuf_init(&b);
    rbuf_printf(&b, "Cluster %s", ci->name);
    put_heading(doc, 1, rbuf_str(&b));
    if (ci->description)
        put_paragraph(doc, ci->description);
    bool ok = true;
    if (options_on(d, k) == 0) {
        put_paragraph(doc, "No experiment predicts a run on this cluster yet.");
    } else {
        cell_list cells = {0};
        bool clipped = false;
        cost_rows(d, k, &cells, &clipped);
        ok = !cells.oom;
        put_table(doc, &cells, 7, head, "llrrrrl");
        cell_list_free(&cells);
        if (clipped)
            put_paragraph(doc, site_clip_note);
        site_cost_figure f;
        ok = site_cost_figure_make(d, k, &f) && ok;
        if (ok)
            put_figure(doc, &f.job, &b);
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

/* What a report holds. */
typedef enum {
    REPORT_WHOLE,   /* `perfcast report`: the front, then every cluster's section (or one's) */
    REPORT_FRONT,   /* the site's report.pdf: the front and where each cluster's report is */
    REPORT_CLUSTER, /* a cluster's report on the site: that cluster alone, nothing archive-wide */
} report_kind;

/* Where each cluster's own report is on the site. */
static void report_list(const site_data *d, report_out *o)
{
    static const char *const head[] = {"cluster", "its report (cost table and chart)"};
    cell_list cells = {0};
    rbuf b;
    rbuf_init(&b);
    for (size_t k = 0; k < d->nclusters; k++) {
        add_cell(&cells, d->clusters[k].info->name);
        rbuf_printf(&b, "clusters/%s/report.pdf", d->clusters[k].slug), add_buf(&cells, &b);
    }
    if (cells.n)
        put_paragraph(o, "Each cluster's cost table and chart are in a report of its own, "
                         "beside this one on the site:");
    put_table(o, &cells, 2, head, "ll");
    cell_list_free(&cells);
    rbuf_free(&b);
}

/* The report's contents, drawn or hashed into o; only: one cluster (-1:
 * every one). False when out of memory. */
static bool report_body(const site_data *d, report_kind kind, int only, const char *title,
                        report_out *o)
{
    rbuf b;
    rbuf_init(&b);
    if (o->doc)
        pdfdoc_title(o->doc, title);
    else
        hash_text(o, 'T', title);
    if (kind != REPORT_CLUSTER)
        summary(d, o, &b);
    cluster_table(d, only, o);
    if (kind == REPORT_FRONT)
        report_list(d, o);
    advice_section(d, only >= 0 ? d->clusters[only].info->name : NULL, o);
    bool ok = !b.oom;
    for (size_t k = 0; k < d->nclusters && ok && kind != REPORT_FRONT; k++)
        if (only >= 0 ? (size_t)only == k : options_on(d, k) > 0)
            ok = cluster_section(d, k, o);
    rbuf_free(&b);
    return ok;
}

static void report_title(const site_data *d, int only, rbuf *title)
{
    rbuf_puts(title, "perfcast report: predicted time and cost");
    if (only >= 0)
        rbuf_printf(title, " on %s", d->clusters[only].info->name);
}

/* The PDF of a report dated date into out. */
static bool report_pdf(const site_data *d, report_kind kind, int only, const char *date,
                       rbuf *out, size_t *pages, char *err, size_t errlen)
{
    rbuf title;
    rbuf_init(&title);
    report_title(d, only, &title);
    report_out o = {.doc = pdfdoc_begin(out, rbuf_str(&title), date, err, errlen),
                    .alone = kind == REPORT_CLUSTER};
    bool ok = o.doc && report_body(d, kind, only, rbuf_str(&title), &o);
    rbuf_free(&title);
    if (!o.doc || !pdfdoc_end(o.doc, pages, err, errlen))
        return false;
    if (!ok)
        snprintf(err, errlen, "out of memory");
    return ok;
}

static const char *archive_date(const site_data *d)
{
    return d->last_date[0] ? d->last_date : d->build_date;
}

/* A cluster's report's date into date: the newest date of the runs on it
 * (site_cluster.last_date), else the build date; not the archive's, so
 * that a run on another cluster does not change it. */
static void cluster_date(const site_data *d, size_t k, char date[11])
{
    const char *newest = d->clusters[k].last_date;
    memcpy(date, newest[0] ? newest : d->build_date, 11);
}

bool site_pdf_report(const site_data *d, const char *cluster, rbuf *out, size_t *pages,
                     char *err, size_t errlen)
{
    int only = cluster ? site_cluster_index(d, cluster) : -1;
    if (cluster && only < 0) {
        unknown_cluster(d, cluster, err, errlen);
        return false;
    }
    return report_pdf(d, REPORT_WHOLE, only, archive_date(d), out, pages, err, errlen);
}

bool site_pdf_front(const site_data *d, rbuf *out, size_t *pages, char *err, size_t errlen)
{
    return report_pdf(d, REPORT_FRONT, -1, archive_date(d), out, pages, err, errlen);
}

bool site_pdf_cluster(const site_data *d, size_t k, uint64_t *key, rbuf *out, char *err,
                      size_t errlen)
{
    static const char version[] = "cluster-report-v1";
    char date[11];
    cluster_date(d, k, date);
    if (key) {
        rbuf title;
        rbuf_init(&title);
        report_title(d, (int)k, &title);
        report_out o = {.key = hash_bytes(version, sizeof version, 0), .alone = true};
        hash_text(&o, 'D', date);
        bool ok = report_body(d, REPORT_CLUSTER, (int)k, rbuf_str(&title), &o) && !title.oom;
        rbuf_free(&title);
        *key = ok ? o.key : 0;
    }
    return !out || report_pdf(d, REPORT_CLUSTER, (int)k, date, out, NULL, err, errlen);
}

static bool write_pdf(site_ctx *c, const char *path, uint64_t key, const rbuf *pdf, bool made,
                      const char *err)
{
    if (!made) {
        fprintf(stderr, "perfcast build: %s: %s\n", path, err);
        return false;
    }
    return key ? site_out_write_keyed(c->out, path, key, rbuf_str(pdf), pdf->len)
               : site_file(c, path, pdf);
}

bool site_write_report(site_ctx *c)
{
    rbuf pdf;
    rbuf_init(&pdf);
    char err[512] = "";
    bool made = site_pdf_front(c->data, &pdf, NULL, err, sizeof err);
    bool ok = write_pdf(c, "report.pdf", 0, &pdf, made, err);
    rbuf_free(&pdf);
    return ok;
}

bool site_write_cluster_report(site_ctx *c, size_t k)
{
    rbuf path, pdf;
    rbuf_init(&path), rbuf_init(&pdf);
    rbuf_printf(&path, "clusters/%s/report.pdf", c->data->clusters[k].slug);
    uint64_t key = 0;
    char err[512] = "out of memory";
    site_pdf_cluster(c->data, k, &key, NULL, err, sizeof err);
    /* The drawing code is part of what the report is made from (as for charts). */
    if (key && c->program_key)
        key = hash_bytes(&c->program_key, sizeof c->program_key, key);
    bool ok;
    if (key && !path.oom && site_out_can_reuse(c->out, rbuf_str(&path), key))
        ok = site_out_reuse(c->out, rbuf_str(&path), key);
    else
        ok = !path.oom && write_pdf(c, rbuf_str(&path), key, &pdf,
                                    site_pdf_cluster(c->data, k, NULL, &pdf, err, sizeof err),
                                    err);
    rbuf_free(&path), rbuf_free(&pdf);
    return ok;
}
