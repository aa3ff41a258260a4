/*
 * site_alerts.c — the regression detector: every configuration with a
 * measured run outside the 95% prediction interval of its target, as a
 * page, a CSV and an Atom feed (alerts.xml) a CI or a feed reader can
 * watch. One alert per configuration (its repetitions are counted, not
 * listed), ordered by severity: the largest |error| first, the error being
 * the campaign page's, 100 (predicted - measured mean) / measured mean.
 *
 * Feed dates come from the data (the newest date of the configuration's
 * runs outside the interval, else the newest date of the archive, else
 * SOURCE_DATE_EPOCH), never from the clock; entry ids are hashes of the
 * campaign, experiment and configuration, so an alert keeps its id night
 * after night, and the previous site's alerts.csv (its id column) tells
 * which alerts are new since the previous build. Feed links are relative,
 * or absolute under the site's base URL (perfcast build --base-url).
 */
#include "gen/base/hash.h"
#include "gen/site/site_pages.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/fileio.h"
#include "gen/site/site_history.h"
#include "render/escape.h"
#include "render/markdown.h"

/* One configuration's alert: alerts [first, first + count) of site_data. */
typedef struct {
    const site_campaign *sc;
    const site_experiment *e;
    const report_prediction *p;
    const target_config *tc;
    size_t first, count;
    const char *date;   /* the newest date of its runs outside, NULL when unknown */
    uint64_t id;
    bool is_new;        /* not in the previous build's alerts.csv */
} config_alert;

static const report_prediction *prediction_for(const site_experiment *e, size_t target)
{
    for (size_t i = 0; i < e->res.rep.npreds; i++)
        if (e->res.rep.preds[i].config == target)
            return &e->res.rep.preds[i];
    return NULL;
}

static bool same_config(const site_alert *a, const site_alert *b)
{
    return a->camp == b->camp && a->exp == b->exp && a->target == b->target;
}

static void config_label(const config_alert *g, const site_data *d, rbuf *out)
{
    site_config_label(g->e, d->alerts[g->first].row, true, -1, out);
}

static config_alert make_group(const site_data *d, size_t first, size_t count)
{
    const site_alert *a = &d->alerts[first];
    config_alert g = {&d->camps[a->camp], NULL, NULL, NULL, first, count, NULL, 0, false};
    g.e = &g.sc->exps[a->exp];
    g.p = prediction_for(g.e, a->target);
    g.tc = &g.e->res.input.targets[a->target];
    const table *t = &g.sc->camp->runs;
    int dc = table_find(t, "date");
    for (size_t i = first; dc >= 0 && i < first + count; i++) {
        const char *date = table_text(t, d->alerts[i].row, (size_t)dc);
        if (date && date[0] && (!g.date || strcmp(date, g.date) > 0))
            g.date = date;
    }
    rbuf key;
    rbuf_init(&key);
    rbuf_printf(&key, "%s\x1f%s\x1f", g.sc->name, g.e->info->name);
    config_label(&g, d, &key);
    g.id = hash_bytes(rbuf_str(&key), key.len, 0);
    rbuf_free(&key);
    return g;
}

static double severity(const config_alert *g)
{
    double e = fabs(g->tc->error_pct);
    return isfinite(e) ? e : -1;
}

static int by_severity(const void *pa, const void *pb)
{
    const config_alert *a = pa, *b = pb;
    double sa = severity(a), sb = severity(b);
    if (sa != sb)
        return sa > sb ? -1 : 1;
    return a->first < b->first ? -1 : a->first > b->first; /* stable: archive order */
}

/* Whether the previous site's alerts.csv lists id (its first column). */
static bool previously_listed(const char *previous_csv, uint64_t id)
{
    char key[40];
    snprintf(key, sizeof key, "\n%016" PRIx64 ",", id);
    return previous_csv && strstr(previous_csv, key) != NULL;
}

/* The end of the group of alerts that starts at first. */
static size_t group_end(const site_data *d, size_t first)
{
    size_t k = first + 1;
    while (k < d->nalerts && same_config(&d->alerts[first], &d->alerts[k]))
        k++;
    return k;
}

size_t site_alert_configurations(const site_data *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nalerts; i = group_end(d, i))
        n++;
    return n;
}

/* The alerts grouped by configuration, most severe first (malloc'ed). */
static config_alert *group_alerts(const site_ctx *c, size_t *n)
{
    const site_data *d = c->data;
    config_alert *groups = malloc((d->nalerts ? d->nalerts : 1) * sizeof *groups);
    *n = 0;
    if (!groups)
        return NULL;
    for (size_t i = 0, k; i < d->nalerts; i = k) {
        k = group_end(d, i);
        groups[(*n)++] = make_group(d, i, k - i);
    }
    qsort(groups, *n, sizeof *groups, by_severity);
    char *previous = NULL;
    if (c->previous_dir) {
        char *path = fileio_join(c->previous_dir, "alerts.csv");
        previous = path ? fileio_read_file(path, NULL) : NULL;
        free(path);
    }
    /* Without a previous site (a first build) no alert is called new. */
    for (size_t i = 0; previous && i < *n; i++)
        groups[i].is_new = !previously_listed(previous, groups[i].id);
    free(previous);
    return groups;
}

static void feed_date(const site_data *d, const char *date, rbuf *out)
{
    const char *day = date && strlen(date) == 10 ? date
                      : d->last_date[0]          ? d->last_date
                      : d->build_date[0]         ? d->build_date
                                                 : "1970-01-01";
    rbuf_printf(out, "%sT00:00:00Z", day);
}

static void pi_text(const report_prediction *p, rbuf *out, bool *clipped)
{
    site_fmt_interval(out, p ? p->pi_low : NAN, p ? p->pi_high : NAN, clipped);
}

static void runs_outside(const config_alert *g, rbuf *out)
{
    rbuf_printf(out, "%zu of %zu", g->count, g->tc->nmeasured);
}

/* ------------------------------------------------------------------ */
/* Page and CSV                                                        */

static void csv_row(const site_data *d, const config_alert *g, rbuf *csv)
{
    rbuf label;
    rbuf_init(&label);
    config_label(g, d, &label);
    rbuf_printf(csv, "%016" PRIx64 ",", g->id);
    const char *texts[] = {g->sc->name, g->e->info->name, rbuf_str(&label), g->date ? g->date : ""};
    for (size_t i = 0; i < 4; i++)
        site_csv_text(csv, texts[i]), rbuf_putc(csv, ',');
    rbuf_printf(csv, "%zu,%zu", g->count, g->tc->nmeasured);
    double nums[] = {g->tc->measured, g->p ? g->p->estimate : NAN, g->p ? g->p->pi_low : NAN,
                     g->p ? g->p->pi_high : NAN, g->tc->error_pct};
    for (size_t i = 0; i < 5; i++)
        rbuf_putc(csv, ','), site_csv_num(csv, nums[i]);
    rbuf_puts(csv, g->is_new ? ",1\n" : ",0\n");
    rbuf_free(&label);
}

static void table_row(const site_data *d, const config_alert *g, md_table *t, bool *clipped)
{
    rbuf cell, url;
    rbuf_init(&cell), rbuf_init(&url);
    rbuf_printf(&url, "campaigns/%s/index.md#%s", g->sc->slug, g->e->anchor);
    md_link(&cell, g->sc->name, rbuf_str(&url));
    md_text(&cell, " / ");
    md_text(&cell, g->e->info->name);
    md_table_markdown(t, rbuf_str(&cell));
    rbuf_clear(&cell);
    config_label(g, d, &cell);
    md_table_text(t, rbuf_str(&cell));
    site_md_cell_pct(t, g->tc->error_pct);
    site_md_cell_duration(t, g->tc->measured);
    site_md_cell_duration(t, g->p ? g->p->estimate : NAN);
    rbuf_clear(&cell);
    pi_text(g->p, &cell, clipped);
    md_table_text(t, rbuf_str(&cell));
    rbuf_clear(&cell);
    runs_outside(g, &cell);
    md_table_text(t, rbuf_str(&cell));
    md_table_text(t, g->date ? g->date : "\xE2\x80\x94");
    md_table_text(t, g->is_new ? "new" : "");
    rbuf_free(&cell), rbuf_free(&url);
}

static bool page(site_ctx *c, const config_alert *groups, size_t n)
{
    const site_data *d = c->data;
    rbuf md, csv;
    rbuf_init(&md), rbuf_init(&csv);
    md_link(&md, "perfcast", "index.md");
    md_text(&md, " › alerts");
    md_end_paragraph(&md);
    md_heading(&md, 1, "Alerts");
    md_text(&md, "A configuration whose measured runs fall outside the 95% prediction interval "
                 "of its prediction shows either a performance regression (or improvement) of "
                 "the code or the cluster, or that the model no longer fits. Each such "
                 "configuration is listed once, the largest error first, here and in the ");
    md_link(&md, "Atom feed", "alerts.xml");
    md_text(&md, ". Models without prediction intervals raise no alerts. ");
    md_text(&md, site_conventions);
    md_text(&md, " Measured is the mean of the configuration's runs, as on its campaign page.");
    md_end_paragraph(&md);
    rbuf_puts(&csv, "id,campaign,experiment,configuration,newest_date,runs_outside,runs_measured,"
                    "measured_mean,estimate,pi_low,pi_high,error_pct,new\n");
    size_t fresh = 0;
    for (size_t i = 0; i < n; i++)
        fresh += groups[i].is_new;
    if (n == 0) {
        md_text(&md, "No measured run lies outside its prediction interval.");
        md_end_paragraph(&md);
    } else {
        if (fresh) {
            rbuf line;
            rbuf_init(&line);
            rbuf_printf(&line, "%zu of the %zu alerts are new since the previous build.", fresh,
                        n);
            md_text(&md, rbuf_str(&line));
            md_end_paragraph(&md);
            rbuf_free(&line);
        }
        static const char *const head[] = {"experiment", "configuration", "error (%)",
                                           "measured", "predicted", "95% PI", "runs outside",
                                           "newest run", "new"};
        md_table t;
        bool clipped = false;
        md_table_begin(&t, &md, 9, head, "llrrrrrll");
        for (size_t i = 0; i < n; i++) {
            table_row(d, &groups[i], &t, &clipped);
            csv_row(d, &groups[i], &csv);
        }
        md_table_end(&t);
        if (clipped) {
            md_text(&md, site_clip_note);
            md_end_paragraph(&md);
        }
    }
    site_md_data_link(&md, "alerts.csv");
    site_history_alerts_section(d, &md);
    bool ok = site_file(c, "alerts.csv", &csv) && site_page(c, "alerts", "Alerts", &md);
    rbuf_free(&md), rbuf_free(&csv);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Atom                                                                */

/* href="..." of a site path: under base_url when one is given. */
static void feed_href(const site_ctx *c, const char *path, const char *fragment, rbuf *x)
{
    rbuf_puts(x, "href=\"");
    if (c->base_url) {
        esc_html(x, c->base_url);
        size_t n = strlen(c->base_url);
        if (n == 0 || c->base_url[n - 1] != '/')
            rbuf_putc(x, '/');
    }
    esc_html(x, path);
    if (fragment) {
        rbuf_putc(x, '#');
        esc_html(x, fragment);
    }
    rbuf_putc(x, '"');
}

static void entry(const site_ctx *c, const config_alert *g, rbuf *x)
{
    const site_data *d = c->data;
    rbuf text, path;
    rbuf_init(&text), rbuf_init(&path);
    rbuf_printf(&text, "%s / %s: ", g->sc->name, g->e->info->name);
    config_label(g, d, &text);
    rbuf_puts(&text, ": measured ");
    site_fmt_duration(&text, g->tc->measured);
    rbuf_puts(&text, ", predicted ");
    site_fmt_duration(&text, g->p ? g->p->estimate : NAN);
    rbuf_puts(&text, " (95% PI ");
    bool clipped = false;
    pi_text(g->p, &text, &clipped);
    if (clipped)
        rbuf_puts(&text, ", its lower end below zero shown as 0");
    rbuf_puts(&text, "), error ");
    site_fmt_pct(&text, g->tc->error_pct);
    rbuf_puts(&text, "%; ");
    runs_outside(g, &text);
    rbuf_puts(&text, " runs outside the interval");
    rbuf_puts(x, "<entry>\n<title>");
    esc_html(x, rbuf_str(&text));
    rbuf_printf(x, "</title>\n<id>urn:perfcast:alert:%016" PRIx64 "</id>\n<updated>", g->id);
    feed_date(d, g->date, x);
    rbuf_puts(x, "</updated>\n<link ");
    rbuf_printf(&path, "campaigns/%s/index.html", g->sc->slug);
    feed_href(c, rbuf_str(&path), g->e->anchor, x);
    rbuf_puts(x, " />\n<summary>");
    esc_html(x, rbuf_str(&text));
    rbuf_puts(x, "</summary>\n</entry>\n");
    rbuf_free(&text), rbuf_free(&path);
}

static bool feed(site_ctx *c, const config_alert *groups, size_t n)
{
    const site_data *d = c->data;
    rbuf x;
    rbuf_init(&x);
    rbuf_puts(&x, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                  "<feed xmlns=\"http://www.w3.org/2005/Atom\"");
    if (c->base_url) {
        rbuf_puts(&x, " xml:base=\"");
        esc_html(&x, c->base_url);
        rbuf_putc(&x, '"');
    }
    rbuf_puts(&x, ">\n<title>perfcast alerts: configurations measured outside their prediction "
                  "interval</title>\n<id>urn:perfcast:alerts</id>\n<updated>");
    /* The feed changes when its newest entry does. */
    const char *newest = NULL;
    for (size_t i = 0; i < n; i++)
        if (groups[i].date && (!newest || strcmp(groups[i].date, newest) > 0))
            newest = groups[i].date;
    feed_date(d, newest, &x);
    rbuf_puts(&x, "</updated>\n<author><name>perfcast</name></author>\n"
                  "<link rel=\"alternate\" type=\"text/html\" ");
    feed_href(c, "alerts.html", NULL, &x);
    rbuf_puts(&x, " />\n<link rel=\"self\" type=\"application/atom+xml\" ");
    feed_href(c, "alerts.xml", NULL, &x);
    rbuf_puts(&x, " />\n");
    for (size_t i = 0; i < n; i++)
        entry(c, &groups[i], &x);
    rbuf_puts(&x, "</feed>\n");
    bool ok = site_file(c, "alerts.xml", &x);
    rbuf_free(&x);
    return ok;
}

bool site_write_alerts(site_ctx *c)
{
    size_t n;
    config_alert *groups = group_alerts(c, &n);
    bool ok = groups && page(c, groups, n) && feed(c, groups, n);
    free(groups);
    return ok;
}
