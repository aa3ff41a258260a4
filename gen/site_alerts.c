/*
 * site_alerts.c — the regression detector: every measured run outside the
 * 95% prediction interval of its target, as a page, a CSV and an Atom
 * feed (alerts.xml) a CI or a feed reader can watch. Feed dates come from
 * the data (the run's date, else the newest date of the archive, else
 * SOURCE_DATE_EPOCH), never from the clock, and entry ids are hashes of
 * what the alert is about, so the same alert keeps its id night after night.
 */
#include "gen/site_pages.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/escape.h"
#include "render/markdown.h"

typedef struct {
    const site_campaign *sc;
    const site_experiment *e;
    const report_prediction *p;
    const char *date;   /* the run's date, NULL when unknown */
    double rep;         /* the run's repetition number, NAN when unknown */
    double deviation;   /* 100 (measured - estimate) / estimate */
} alert_view;

static const report_prediction *prediction_for(const site_experiment *e, size_t target)
{
    for (size_t i = 0; i < e->res.rep.npreds; i++)
        if (e->res.rep.preds[i].config == target)
            return &e->res.rep.preds[i];
    return NULL;
}

static alert_view view(const site_data *d, const site_alert *a)
{
    alert_view v = {&d->camps[a->camp], NULL, NULL, NULL, NAN, NAN};
    v.e = &v.sc->exps[a->exp];
    v.p = prediction_for(v.e, a->target);
    const table *t = &v.sc->camp->runs;
    int dc = table_find(t, "date"), rc = table_find(t, "rep");
    v.date = dc >= 0 ? table_text(t, a->row, (size_t)dc) : NULL;
    v.rep = rc >= 0 ? table_number(t, a->row, (size_t)rc) : NAN;
    if (v.p && v.p->estimate != 0)
        v.deviation = 100.0 * (a->measured - v.p->estimate) / v.p->estimate;
    return v;
}

static void config_of(const alert_view *v, const site_alert *a, rbuf *out)
{
    site_config_label(v->e, a->row, true, -1, out);
}

static void feed_date(const site_data *d, const char *date, rbuf *out)
{
    const char *day = date && strlen(date) == 10 ? date
                      : d->last_date[0]          ? d->last_date
                      : d->build_date[0]         ? d->build_date
                                                 : "1970-01-01";
    rbuf_printf(out, "%sT00:00:00Z", day);
}

/* ------------------------------------------------------------------ */
/* Page and CSV                                                        */

static void table_row(const site_data *d, const site_alert *a, md_table *t, rbuf *csv)
{
    alert_view v = view(d, a);
    rbuf cell, url;
    rbuf_init(&cell), rbuf_init(&url);
    rbuf_printf(&url, "campaigns/%s/index.md#%s", v.sc->slug, v.e->anchor);
    md_link(&cell, v.sc->name, rbuf_str(&url));
    md_text(&cell, " / ");
    md_text(&cell, v.e->info->name);
    md_table_markdown(t, rbuf_str(&cell));
    rbuf_clear(&cell);
    config_of(&v, a, &cell);
    md_table_text(t, rbuf_str(&cell));
    site_csv_text(csv, v.sc->name);
    rbuf_putc(csv, ',');
    site_csv_text(csv, v.e->info->name);
    rbuf_putc(csv, ',');
    site_csv_text(csv, rbuf_str(&cell));
    md_table_text(t, v.date ? v.date : "\xE2\x80\x94");
    rbuf_putc(csv, ',');
    site_csv_text(csv, v.date ? v.date : "");
    double nums[] = {a->measured, v.p ? v.p->estimate : NAN};
    for (size_t i = 0; i < 2; i++) {
        site_md_cell_number(t, nums[i]);
        rbuf_putc(csv, ','), site_csv_num(csv, nums[i]);
    }
    rbuf_clear(&cell);
    site_fmt(&cell, v.p ? v.p->pi_low : NAN);
    rbuf_puts(&cell, " \xE2\x80\x93 ");
    site_fmt(&cell, v.p ? v.p->pi_high : NAN);
    md_table_text(t, rbuf_str(&cell));
    site_md_cell_pct(t, v.deviation);
    double more[] = {v.p ? v.p->pi_low : NAN, v.p ? v.p->pi_high : NAN, v.deviation, v.rep};
    for (size_t i = 0; i < 4; i++)
        rbuf_putc(csv, ','), site_csv_num(csv, more[i]);
    rbuf_putc(csv, '\n');
    rbuf_free(&cell), rbuf_free(&url);
}

static bool page(site_ctx *c)
{
    const site_data *d = c->data;
    rbuf md, csv;
    rbuf_init(&md), rbuf_init(&csv);
    md_link(&md, "perfcast", "index.md");
    md_text(&md, " › alerts");
    md_end_paragraph(&md);
    md_heading(&md, 1, "Alerts");
    md_text(&md, "A measured run outside the 95% prediction interval of its configuration is "
                 "either a performance regression (or improvement) of the code or the cluster, "
                 "or a sign that the model no longer fits: each one is listed here and in the ");
    md_link(&md, "Atom feed", "alerts.xml");
    md_text(&md, ". Models without prediction intervals raise no alerts.");
    md_end_paragraph(&md);
    rbuf_puts(&csv, "campaign,experiment,configuration,date,measured,estimate,pi_low,pi_high,"
                    "deviation_pct,rep\n");
    if (d->nalerts == 0) {
        md_text(&md, "No measured run lies outside its prediction interval.");
        md_end_paragraph(&md);
    } else {
        static const char *const head[] = {"experiment", "configuration", "run date",
                                           "measured", "estimate", "95% PI", "deviation (%)"};
        md_table t;
        md_table_begin(&t, &md, 7, head, "lllrrrr");
        for (size_t i = 0; i < d->nalerts; i++)
            table_row(d, &d->alerts[i], &t, &csv);
        md_table_end(&t);
    }
    site_md_data_link(&md, "alerts.csv");
    bool ok = site_file(c, "alerts.csv", &csv) && site_page(c, "alerts", "Alerts", &md);
    rbuf_free(&md), rbuf_free(&csv);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Atom                                                                */

static void entry(const site_data *d, const site_alert *a, rbuf *x)
{
    alert_view v = view(d, a);
    rbuf text, config;
    rbuf_init(&text), rbuf_init(&config);
    config_of(&v, a, &config);
    rbuf_printf(&text, "%s\x1f%s\x1f%s\x1f%s\x1f%.17g\x1f%.17g", v.sc->name, v.e->info->name,
                rbuf_str(&config), v.date ? v.date : "", v.rep, a->measured);
    uint64_t id = site_hash(rbuf_str(&text), text.len, 0);
    rbuf_clear(&text);
    rbuf_printf(&text, "%s / %s: %s measured ", v.sc->name, v.e->info->name, rbuf_str(&config));
    site_fmt(&text, a->measured);
    rbuf_puts(&text, ", 95% PI ");
    site_fmt(&text, v.p ? v.p->pi_low : NAN);
    rbuf_puts(&text, " \xE2\x80\x93 ");
    site_fmt(&text, v.p ? v.p->pi_high : NAN);
    rbuf_puts(&text, " (");
    site_fmt_pct(&text, v.deviation);
    rbuf_puts(&text, "% from the estimate)");
    rbuf_puts(x, "<entry>\n<title>");
    esc_html(x, rbuf_str(&text));
    rbuf_printf(x, "</title>\n<id>urn:perfcast:alert:%016" PRIx64 "</id>\n<updated>", id);
    feed_date(d, v.date, x);
    rbuf_puts(x, "</updated>\n<link href=\"campaigns/");
    esc_html(x, v.sc->slug);
    rbuf_puts(x, "/index.html#");
    esc_html(x, v.e->anchor);
    rbuf_puts(x, "\" />\n<summary>");
    esc_html(x, rbuf_str(&text));
    rbuf_puts(x, "</summary>\n</entry>\n");
    rbuf_free(&text), rbuf_free(&config);
}

static bool feed(site_ctx *c)
{
    const site_data *d = c->data;
    rbuf x;
    rbuf_init(&x);
    rbuf_puts(&x, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                  "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
                  "<title>perfcast alerts: measured runs outside their prediction interval</title>\n"
                  "<id>urn:perfcast:alerts</id>\n<updated>");
    feed_date(d, NULL, &x);
    rbuf_puts(&x, "</updated>\n<author><name>perfcast</name></author>\n"
                  "<link rel=\"alternate\" type=\"text/html\" href=\"alerts.html\" />\n"
                  "<link rel=\"self\" type=\"application/atom+xml\" href=\"alerts.xml\" />\n");
    for (size_t i = 0; i < d->nalerts; i++)
        entry(d, &d->alerts[i], &x);
    rbuf_puts(&x, "</feed>\n");
    bool ok = site_file(c, "alerts.xml", &x);
    rbuf_free(&x);
    return ok;
}

bool site_write_alerts(site_ctx *c)
{
    return page(c) && feed(c);
}
