/*
 * site_alerts.c — the regression detector: every configuration whose
 * measured value (the mean of its runs, as on its campaign page) lies
 * outside the 95% prediction interval of an experiment's prediction — the
 * calibrated interval when the experiment has one, else the model's own —
 * as a page, a CSV and an Atom feed (alerts.xml) a CI or a feed reader can
 * watch. One alert per experiment and configuration (its runs outside the
 * interval are counted, not listed), the largest |error| first, the error
 * being the campaign page's, 100 (predicted - measured mean) / measured
 * mean; alerts on oversubscribed runs (gen/ingest/run_layout.h) come
 * after the unexplained ones, labelled, so the page leads with what needs
 * attention. Alerts acknowledgements.csv covers are listed apart, with who
 * acknowledged them, why and until when, and are neither in the CSV, nor
 * in the feed, nor counted: the page's count, alerts.csv's rows, the feed's
 * entries and the build log count the same open alerts.
 *
 * Feed dates come from the data (the newest date of the configuration's
 * measured runs, else the newest date of the archive, else
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
#include "render/numtext.h"

/* One alert with what the page shows of it. */
typedef struct {
    const site_alert *a;
    const site_campaign *sc;
    const site_experiment *e;
    size_t index;       /* in site_data's alerts: the archive's order */
    uint64_t id;
    bool is_new;        /* not in the previous build's alerts.csv */
} config_alert;

static const char *const interval_names[] = {"model's 95% PI", "calibrated 95% PI"};

static const char *interval_name(const site_alert *a)
{
    return interval_names[a->calibrated];
}

/* The configuration as the CSV and the alert's id key it: name=value. */
static void config_label(const config_alert *g, rbuf *out)
{
    site_config_label(g->e, g->a->row, true, -1, out);
}

/* The configuration for people, on the page and in the feed. */
static void config_words(const config_alert *g, rbuf *out)
{
    site_config_words(g->e, g->a->row, out);
}

static double error_pct(const config_alert *g)
{
    return g->e->res.input.targets[g->a->target].error_pct;
}

static config_alert make_alert(const site_data *d, size_t index)
{
    const site_alert *a = &d->alerts[index];
    config_alert g = {a, &d->camps[a->camp], NULL, index, 0, false};
    g.e = &g.sc->exps[a->exp];
    rbuf key;
    rbuf_init(&key);
    /* The experiment is part of the key: two experiments predicting the
     * same configuration raise two alerts. */
    rbuf_printf(&key, "%s\x1f%s\x1f", g.sc->name, g.e->info->name);
    config_label(&g, &key);
    g.id = hash_bytes(rbuf_str(&key), key.len, 0);
    rbuf_free(&key);
    return g;
}

static double severity(const config_alert *g)
{
    double e = fabs(error_pct(g));
    return isfinite(e) ? e : -1;
}

/* Acknowledged last, oversubscribed after the unexplained, then the
 * largest error first, then the archive's order. */
static int by_attention(const void *pa, const void *pb)
{
    const config_alert *a = pa, *b = pb;
    bool ack_a = a->a->ack != NULL, ack_b = b->a->ack != NULL;
    if (ack_a != ack_b)
        return ack_a ? 1 : -1;
    if (a->a->oversubscribed != b->a->oversubscribed)
        return a->a->oversubscribed ? 1 : -1;
    double sa = severity(a), sb = severity(b);
    if (sa != sb)
        return sa > sb ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Whether the previous site's alerts.csv lists id (its first column). */
static bool previously_listed(const char *previous_csv, uint64_t id)
{
    char key[40];
    snprintf(key, sizeof key, "\n%016" PRIx64 ",", id);
    return previous_csv && strstr(previous_csv, key) != NULL;
}

size_t site_alert_configurations(const site_data *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nalerts; i++)
        n += d->alerts[i].ack == NULL;
    return n;
}

/* Every alert in the order of attention (malloc'ed); the first
 * site_alert_configurations(d) are the open ones. */
static config_alert *order_alerts(const site_ctx *c)
{
    const site_data *d = c->data;
    config_alert *all = malloc((d->nalerts ? d->nalerts : 1) * sizeof *all);
    if (!all)
        return NULL;
    for (size_t i = 0; i < d->nalerts; i++)
        all[i] = make_alert(d, i);
    qsort(all, d->nalerts, sizeof *all, by_attention);
    char *previous = NULL;
    if (c->previous_dir) {
        char *path = fileio_join(c->previous_dir, "alerts.csv");
        previous = path ? fileio_read_file(path, NULL) : NULL;
        free(path);
    }
    /* Without a previous site (a first build) no alert is called new. */
    for (size_t i = 0; previous && i < d->nalerts; i++)
        all[i].is_new = !all[i].a->ack && !previously_listed(previous, all[i].id);
    free(previous);
    return all;
}

/* An entry's day: its newest run's, else the archive's newest, else the
 * build's (Atom requires one). */
static const char *feed_day(const site_data *d, const char *date)
{
    return date && strlen(date) == 10 ? date
           : d->last_date[0]          ? d->last_date
           : d->build_date[0]         ? d->build_date
                                      : "1970-01-01";
}

static void feed_date(const site_data *d, const char *date, rbuf *out)
{
    rbuf_printf(out, "%sT00:00:00Z", feed_day(d, date));
}

/* How many significant digits in seconds the measured value and the end
 * of the interval it lies beyond need to read apart: 0 when the page's
 * durations already differ (a measured 1.07533 s beyond an upper end of
 * 1.074816 s read "1.075 s" and "0.6394 s – 1.075 s"). */
static int digits_apart(const site_alert *a)
{
    double end = a->measured > a->high ? a->high : a->low;
    rbuf x, y;
    rbuf_init(&x), rbuf_init(&y);
    site_fmt_duration(&x, a->measured), site_fmt_duration(&y, end);
    int sig = 0;
    for (int k = 5; k <= 12 && a->measured != end && strcmp(rbuf_str(&x), rbuf_str(&y)) == 0;
         k++) {
        rbuf_clear(&x), rbuf_clear(&y);
        numtext_value(&x, a->measured, k), numtext_value(&y, end, k);
        sig = k;
    }
    rbuf_free(&x), rbuf_free(&y);
    return sig;
}

/* v as a page's duration, or in seconds to sig digits (digits_apart). */
static void duration_apart(rbuf *out, double v, int sig)
{
    if (!sig || !isfinite(v)) {
        site_fmt_duration(out, v);
        return;
    }
    numtext_value(out, v, sig);
    rbuf_puts(out, " s");
}

/* The interval, its ends as the pages write them unless the measured
 * value reads as one of them (then both ends to digits_apart's digits). */
static void interval_text(const site_alert *a, rbuf *out, bool *clipped)
{
    int sig = digits_apart(a);
    if (!sig || !(a->low >= 0)) {
        site_fmt_interval(out, a->low, a->high, clipped);
        return;
    }
    duration_apart(out, a->low, sig);
    rbuf_puts(out, " \xE2\x80\x93 ");
    duration_apart(out, a->high, sig);
}

/* The measured mean, to as many digits as the interval's ends. */
static void measured_text(const site_alert *a, rbuf *out)
{
    duration_apart(out, a->measured, digits_apart(a));
}

static void runs_outside(const site_alert *a, rbuf *out)
{
    rbuf_printf(out, "%zu of %zu", a->runs_outside, a->runs_measured);
}

static const char *known_condition(const site_alert *a)
{
    return a->oversubscribed ? "oversubscribed" : "";
}

static const char *newest_or_dash(const site_alert *a)
{
    return a->newest[0] ? a->newest : "\xE2\x80\x94";
}

/* ------------------------------------------------------------------ */
/* Page and CSV                                                        */

static const char csv_header[] =
    "id,campaign,experiment,configuration,newest_date,runs_outside,runs_measured,"
    "measured_mean,estimate,pi_low,pi_high,interval,known_condition,error_pct,new\n";

static void csv_row(const config_alert *g, rbuf *csv)
{
    const site_alert *a = g->a;
    rbuf label;
    rbuf_init(&label);
    config_label(g, &label);
    rbuf_printf(csv, "%016" PRIx64 ",", g->id);
    const char *texts[] = {g->sc->name, g->e->info->name, rbuf_str(&label), a->newest};
    for (size_t i = 0; i < 4; i++)
        site_csv_text(csv, texts[i]), rbuf_putc(csv, ',');
    rbuf_printf(csv, "%zu,%zu", a->runs_outside, a->runs_measured);
    double nums[] = {a->measured, a->estimate, a->low, a->high};
    for (size_t i = 0; i < 4; i++)
        rbuf_putc(csv, ','), site_csv_num(csv, nums[i]);
    rbuf_putc(csv, ','), site_csv_text(csv, interval_name(a));
    rbuf_putc(csv, ','), site_csv_text(csv, known_condition(a));
    rbuf_putc(csv, ','), site_csv_num(csv, error_pct(g));
    rbuf_puts(csv, g->is_new ? ",1\n" : ",0\n");
    rbuf_free(&label);
}

/* The cells every alert table begins with: where, what, how far off. */
static void common_cells(const config_alert *g, md_table *t, bool *clipped)
{
    rbuf cell, url;
    rbuf_init(&cell), rbuf_init(&url);
    rbuf_printf(&url, "campaigns/%s/index.md#%s", g->sc->slug, g->e->anchor);
    md_link(&cell, g->sc->name, rbuf_str(&url));
    md_text(&cell, " / ");
    md_text(&cell, g->e->info->name);
    md_table_markdown(t, rbuf_str(&cell));
    rbuf_clear(&cell);
    config_words(g, &cell);
    md_table_text(t, rbuf_str(&cell));
    site_md_cell_pct(t, error_pct(g));
    rbuf_clear(&cell);
    measured_text(g->a, &cell);
    md_table_text(t, rbuf_str(&cell));
    site_md_cell_duration(t, g->a->estimate);
    rbuf_clear(&cell);
    interval_text(g->a, &cell, clipped);
    md_table_text(t, rbuf_str(&cell));
    md_table_text(t, interval_name(g->a));
    rbuf_clear(&cell);
    runs_outside(g->a, &cell);
    md_table_text(t, rbuf_str(&cell));
    md_table_text(t, newest_or_dash(g->a));
    rbuf_free(&cell), rbuf_free(&url);
}

static void open_row(const config_alert *g, md_table *t, bool *clipped)
{
    common_cells(g, t, clipped);
    md_table_text(t, known_condition(g->a));
    md_table_text(t, g->is_new ? "new" : "");
}

static void acknowledged_row(const config_alert *g, md_table *t, bool *clipped)
{
    common_cells(g, t, clipped);
    md_table_text(t, g->a->ack->who);
    md_table_text(t, g->a->ack->why);
    md_table_text(t, g->a->ack->until);
}

#define COMMON_HEAD "experiment", "configuration", "error (%)", "measured", "predicted", \
                    "95% PI", "interval", "runs outside", "newest run"
#define COMMON_ALIGN "llrrrrlrl"

static void intro(rbuf *md)
{
    md_link(md, "perfcast", "index.md");
    md_text(md, " › alerts");
    md_end_paragraph(md);
    md_heading(md, 1, "Alerts");
    md_text(md, "A configuration whose measured value (the mean of its runs, as on its campaign "
                "page) lies outside the 95% prediction interval of a prediction shows either a "
                "performance regression (or improvement) of the code or the cluster, or that "
                "the model no longer fits. The interval is the calibrated one (from the "
                "model's own errors when extrapolating, as on the campaign pages) where the "
                "experiment has it, else the model's; the column interval says which. Each "
                "such configuration is listed once per experiment that predicts it, here and "
                "in the ");
    md_link(md, "Atom feed", "alerts.xml");
    md_text(md, ": first those nothing explains, the largest error first, then those with "
                "oversubscribed runs (more processes on a node than it has cores, or a note "
                "saying so), a known condition. Alerts that acknowledgements.csv covers are "
                "listed apart at the end and not counted. ");
    md_text(md, site_conventions);
    md_end_paragraph(md);
}

static void count_line(const config_alert *all, size_t nopen, size_t nack, rbuf *md)
{
    size_t known = 0, fresh = 0;
    for (size_t i = 0; i < nopen; i++)
        known += all[i].a->oversubscribed, fresh += all[i].is_new;
    rbuf line;
    rbuf_init(&line);
    rbuf_printf(&line, "%zu open alert%s: %zu unexplained, %zu on oversubscribed runs (listed "
                       "after them); %zu acknowledged.",
                nopen, nopen == 1 ? "" : "s", nopen - known, known, nack);
    if (fresh)
        rbuf_printf(&line, " %zu of the %zu open alerts %s new since the previous build.", fresh,
                    nopen, fresh == 1 ? "is" : "are");
    md_text(md, rbuf_str(&line));
    md_end_paragraph(md);
    rbuf_free(&line);
}

static void open_table(const config_alert *all, size_t nopen, rbuf *md, rbuf *csv,
                       bool *clipped)
{
    static const char *const head[] = {COMMON_HEAD, "known condition", "new"};
    md_table t;
    md_table_begin(&t, md, 11, head, COMMON_ALIGN "ll");
    for (size_t i = 0; i < nopen; i++) {
        open_row(&all[i], &t, clipped);
        csv_row(&all[i], csv);
    }
    md_table_end(&t);
}

static void acknowledged_section(const config_alert *ack, size_t n, rbuf *md, bool *clipped)
{
    md_heading(md, 2, "Acknowledged");
    if (n == 0) {
        md_text(md, "No alert is acknowledged (acknowledgements.csv in the archive).");
        md_end_paragraph(md);
        return;
    }
    md_text(md, "Alerts a person has explained in the archive's acknowledgements.csv: not in "
                "the feed, not counted. An acknowledgement covers runs dated up to its until "
                "date; a later run raises the alert again.");
    md_end_paragraph(md);
    static const char *const head[] = {COMMON_HEAD, "who", "why", "until"};
    md_table t;
    md_table_begin(&t, md, 12, head, COMMON_ALIGN "lll");
    for (size_t i = 0; i < n; i++)
        acknowledged_row(&ack[i], &t, clipped);
    md_table_end(&t);
}

static bool page(site_ctx *c, const config_alert *all, size_t nopen, size_t nall)
{
    rbuf md, csv;
    rbuf_init(&md), rbuf_init(&csv);
    intro(&md);
    rbuf_puts(&csv, csv_header);
    count_line(all, nopen, nall - nopen, &md);
    bool clipped = false;
    if (nopen == 0) {
        md_text(&md, "No configuration's measured value lies outside its prediction interval, "
                     "unless acknowledged.");
        md_end_paragraph(&md);
    } else {
        open_table(all, nopen, &md, &csv, &clipped);
    }
    acknowledged_section(all + nopen, nall - nopen, &md, &clipped);
    if (clipped) {
        md_text(&md, site_clip_note);
        md_end_paragraph(&md);
    }
    site_md_data_link(&md, "alerts.csv");
    site_history_alerts_section(c->data, &md);
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

/* What an entry says beyond its title: how far off, against which
 * interval, how many runs, when, and any known condition. */
static void entry_summary(const config_alert *g, rbuf *text)
{
    const site_alert *a = g->a;
    rbuf_puts(text, "Measured ");
    measured_text(a, text);
    rbuf_printf(text, " (mean of %zu run%s), predicted ", a->runs_measured,
                a->runs_measured == 1 ? "" : "s");
    site_fmt_duration(text, a->estimate);
    rbuf_puts(text, ", error ");
    site_fmt_pct(text, error_pct(g));
    rbuf_printf(text, "%%: outside the %s ", interval_name(a));
    bool clipped = false;
    interval_text(a, text, &clipped);
    if (clipped)
        rbuf_puts(text, " (its lower end below zero shown as 0)");
    rbuf_puts(text, "; ");
    runs_outside(a, text);
    rbuf_puts(text, " runs outside it");
    if (a->newest[0])
        rbuf_printf(text, "; newest run %s", a->newest);
    if (a->oversubscribed)
        rbuf_puts(text, "; known condition: oversubscribed runs");
    rbuf_putc(text, '.');
}

static void entry(const site_ctx *c, const config_alert *g, rbuf *x)
{
    const site_data *d = c->data;
    rbuf text, path;
    rbuf_init(&text), rbuf_init(&path);
    rbuf_printf(&text, "%s / %s: ", g->sc->name, g->e->info->name);
    config_words(g, &text);
    rbuf_puts(x, "<entry>\n<title>");
    esc_html(x, rbuf_str(&text));
    rbuf_printf(x, "</title>\n<id>urn:perfcast:alert:%016" PRIx64 "</id>\n<updated>", g->id);
    feed_date(d, g->a->newest, x);
    rbuf_puts(x, "</updated>\n<link ");
    rbuf_printf(&path, "campaigns/%s/index.html", g->sc->slug);
    feed_href(c, rbuf_str(&path), g->e->anchor, x);
    rbuf_puts(x, " />\n<summary>");
    rbuf_clear(&text);
    entry_summary(g, &text);
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
    /* The feed changes when its newest entry does, undated entries (the
     * archive's day) included: the feed was older than its own entries. */
    const char *newest = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *day = feed_day(d, groups[i].a->newest);
        if (!newest || strcmp(day, newest) > 0)
            newest = day;
    }
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
    config_alert *all = order_alerts(c);
    size_t nopen = site_alert_configurations(c->data);
    bool ok = all && page(c, all, nopen, c->data->nalerts) && feed(c, all, nopen);
    free(all);
    return ok;
}
