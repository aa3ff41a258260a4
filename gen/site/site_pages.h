/*
 * site_pages.h — how the page writers (gen/site_*.c) produce files: every
 * page is Markdown first (written as .md), then HTML through cmark inside
 * the page template (.html); every table and chart has its CSV beside it;
 * every chart is an SVG and a PNG drawn from that CSV's data.
 *
 * Layout of a site:
 *   index.md/.html                     campaigns, clusters, accuracy, advice
 *   campaigns/<slug>/index.md/.html    README, experiments, charts, CSVs
 *   clusters/<slug>/index.md/.html     cost table and cost-vs-time chart, the
 *                                      papers' published predictions costed
 *   clusters/<slug>/report.pdf         that cluster's printable report
 *   advice/index, scenario-1, scenario-2
 *   alerts.md/.html, alerts.csv, alerts.xml (Atom)
 *   estimates.md/.html, estimates.csv  every predicted job by cluster ("my job")
 *   report.pdf                         the printable report's front (gen/site/site_pdf.h)
 *   style.css
 *
 * Errors: a failure of the output (disk, memory) is sticky in site_out and
 * ends the build; a chart that cannot be drawn is reported on its page.
 */
#ifndef PERFCAST_SITE_PAGES_H
#define PERFCAST_SITE_PAGES_H

#include <stdbool.h>
#include <stdint.h>
#include "gen/site/site_data.h"
#include "gen/site/site_out.h"
#include "render/buf.h"
#include "render/chart.h"
#include "render/markdown.h"
#include "render/template.h"

typedef struct {
    site_out *out;
    const template *tpl;
    const site_data *data;
    const char *base_url;     /* the site's absolute URL for the feed; NULL: relative links */
    const char *previous_dir; /* the previous site (still in place while building), or NULL */
    rbuf html, page;      /* scratch for site_page */
    uint64_t page_seed;   /* hash of the page template and the perfcast program; 0:
                             pages are always rendered (see site_page) */
    uint64_t program_key; /* the perfcast program (site_program_key), mixed into
                             every chart's key: a new perfcast draws again */
    size_t pages;         /* pages written (each as .md and .html) */
    size_t pages_rendered; /* pages whose HTML this build rendered (the others were kept) */
    size_t charts;        /* charts on the site */
    size_t charts_drawn;  /* charts drawn by this build (the others were kept) */
} site_ctx;

/* Write path.md (the Markdown md) and path.html; path has no extension
 * ("campaigns/x/index"). The HTML is keyed by a hash of all it is made
 * from (page_seed, md, the template variables the template uses): when
 * the previous site has it from the same key, intact, it is kept and the
 * Markdown is not rendered again. */
bool site_page(site_ctx *c, const char *path, const char *title, const rbuf *md);

/* site_page with path.md recorded as made from md_key (0: by its bytes
 * only), the marker site_page_folder_reuse finds a folder by. */
bool site_page_keyed(site_ctx *c, const char *path, const char *title, const rbuf *md,
                     uint64_t md_key);

/* A page that is the whole of its folder (a campaign's index with its
 * tables and charts), kept without being made again when its inputs did
 * not change. The writer hashes inputs, everything the folder is made
 * from that the build knows before making it (for a campaign: the key of
 * its fits, site_data.h), and site_page_folder_key mixes in what every
 * page is made from: page_seed (the template and the program), the page's
 * path and the template variables the template uses (title, the dates).
 * 0 (never kept) when inputs or page_seed is 0. */
uint64_t site_page_folder_key(const site_ctx *c, const char *path, const char *title,
                              uint64_t inputs);

/* Keep the previous build's folder dir ("campaigns/x/") whole when its
 * page path.md was made with site_page_keyed under key and every file of
 * the folder is intact (site_out_reuse_folder): true then, counted as one
 * page and its charts (its .svg files), and the writer makes nothing.
 * False when anything differs: the writer makes the folder as usual and
 * writes path with site_page_keyed(..., key). */
bool site_page_folder_reuse(site_ctx *c, const char *dir, const char *path, uint64_t key);

/* Write any other file (CSV, XML, CSS). */
bool site_file(site_ctx *c, const char *path, const rbuf *content);

/* Draws a chart into out; false with a reason in err. */
typedef bool (*site_draw_fn)(const void *ctx, chart_files *out, char *err, size_t errlen);

/* Make path.svg and path.png (path without extension). key is a hash of
 * everything the drawing depends on (its CSV, titles, kind); when the
 * previous site has both files from the same key they are kept and draw is
 * not called. Returns false with the reason in err when drawing fails. */
bool site_chart(site_ctx *c, const char *path, uint64_t key, site_draw_fn draw,
                const void *draw_ctx, char *err, size_t errlen);

/* The key of a chart: everything its drawing depends on, which is its
 * kind, title and axis labels (axes: the labels joined, any way) and the
 * CSV it is drawn from; site_chart adds the program that draws it. */
uint64_t site_chart_key(const char *kind, const char *title, const char *axes, const rbuf *csv);

/* Markdown that shows a chart: the SVG as an image with alt text, then
 * links to the PNG, the SVG and the CSV (names relative to the page). An
 * alt text of 145 bytes or more is cut to its first clauses and the whole
 * description follows the image as a paragraph. */
void site_md_chart(rbuf *md, const char *name, const char *alt, const char *csv_name);

/* A chart on its page: site_chart(c, path, key, draw, draw_ctx), then
 * site_md_chart(md, name, alt, csv_name), or a paragraph saying why the
 * chart could not be drawn. False only when the site's output failed. */
bool site_chart_on_page(site_ctx *c, rbuf *md, const char *path, uint64_t key,
                        site_draw_fn draw, const void *draw_ctx, const char *name,
                        const char *alt, const char *csv_name);

/* A cost-vs-time chart (render/chart.h) to draw: the advice and cluster
 * pages' draw_ctx for site_draw_cost. */
typedef struct {
    const char *title, *cost_label;
    const chart_cost_point *p;
    size_t n;
} site_cost_chart;

/* site_draw_fn of a site_cost_chart. */
bool site_draw_cost(const void *ctx, chart_files *out, char *err, size_t errlen);

/* "Data: [name.csv](name.csv)" under a table. */
void site_md_data_link(rbuf *md, const char *csv_name);

/* The units and the sign of errors, said once on each page that shows
 * predictions: "Times are durations ...; error = 100 (predicted −
 * measured) / measured ...". */
extern const char site_conventions[];

/* A number for people: 4 significant digits, never e-notation
 * (render/numtext.h), "—" when not finite. */
void site_fmt(rbuf *out, double v);
/* A signed percentage with one decimal ("+3.2"), "—" when not finite. */
void site_fmt_pct(rbuf *out, double v);
/* A time interval "lo – hi" as durations; a lower end below zero is shown
 * as "0†" and sets *clipped, after which the page shows site_clip_note.
 * "—" when either end is not finite. */
void site_fmt_interval(rbuf *out, double lo, double hi, bool *clipped);
extern const char site_clip_note[];

/* A cost for people, with its currency: "44.96 units", "0.00023 units"
 * (two decimals, or two significant digits under 0.1), "—" when not
 * finite. */
void site_fmt_money(rbuf *out, double v, const char *currency);
/* A duration for people: "0.4789 s" and "12.5 s" under a minute (4
 * significant digits), "16 min 24 s" under an hour, "2 h 05 min" above,
 * hours alone from 100,000 h ("123456 h", "2.778 × 10¹⁷ h": site_fmt);
 * "—" when not finite. Pages only: CSV files keep seconds. */
void site_fmt_duration(rbuf *out, double seconds);
/* Table cells: a number as site_fmt writes it, a percentage as
 * site_fmt_pct, a count, a duration as site_fmt_duration. */
void site_md_cell_number(md_table *t, double v);
void site_md_cell_pct(md_table *t, double v);
void site_md_cell_count(md_table *t, size_t n);
void site_md_cell_duration(md_table *t, double seconds);
/* A CSV number (10 significant digits) or an empty cell. */
void site_csv_num(rbuf *out, double v);
/* A CSV text cell (render/escape.h rules); then "," or "\n". */
void site_csv_text(rbuf *out, const char *s);

/* How well experiments predicted their held-out (measured target)
 * configurations: add experiments with site_accuracy_add to a zeroed one,
 * release it with site_accuracy_free (it keeps every |error| for the
 * median, and every calibrated interval for its sharpness). */
typedef struct {
    size_t experiments, fitted, held_out, with_interval, inside;
    size_t with_calibrated, inside_calibrated; /* the calibrated 95% PI */
    double max_abs;          /* of |error| (%), over held_out */
    double *abs_err;         /* the held_out |error| values (%) */
    size_t cap;
    double *calibrated;      /* with_calibrated x (estimate, measured, low, high) */
    size_t calibrated_cap;
    bool oom;
} site_accuracy;

void site_accuracy_add(site_accuracy *a, const site_experiment *e);
/* The median |error| (%) of the held-out configurations, NAN when none
 * (sorts a's values in place). */
double site_accuracy_median(site_accuracy *a);
/* Sharpness beside coverage (issue 22 item 7): the calibrated intervals'
 * median width (high/low) and mean interval score (models/calibrate.h,
 * calibrate_score_targets); NAN each when there are none. False when out
 * of memory. */
bool site_accuracy_sharpness(const site_accuracy *a, double *median_width, double *mean_score);
void site_accuracy_free(site_accuracy *a);
/* "11 of 16" (inside of with), or "— (no intervals)" when with is 0. */
void site_inside_count(rbuf *out, size_t inside, size_t with);

/* How many alerts are open (site_data.h's site_alert, not acknowledged):
 * the alerts page's count and rows, alerts.csv's rows, the feed's entries
 * and the build log's count. */
size_t site_alert_configurations(const site_data *d);

/* The pages (gen/site/site_campaign.c, site_cluster.c, site_index.c,
 * site_alerts.c, site_advice.c). */
bool site_write_campaign(site_ctx *c, size_t campaign);
bool site_write_cluster(site_ctx *c, size_t cluster);
bool site_write_index(site_ctx *c);
bool site_write_alerts(site_ctx *c);
bool site_write_advice(site_ctx *c);
bool site_write_estimates(site_ctx *c);
/* report.pdf, the front of the printable report, and cluster k's own
 * report clusters/<slug>/report.pdf, kept when what it shows did not
 * change (gen/site/site_pdf.h). */
bool site_write_report(site_ctx *c);
bool site_write_cluster_report(site_ctx *c, size_t cluster);

#endif
