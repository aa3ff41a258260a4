/*
 * site_history.c — configurations measured on several dates: their runs by
 * date, the changes models/changepoint finds between consecutive dates, and
 * how the campaign and alerts pages show them (site_history.h).
 */
#include "gen/site/site_history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/config_index.h"
#include "gen/base/dates.h"
#include "gen/site/site_columns.h"
#include "render/markdown.h"
#include "render/plot.h"

/* ------------------------------------------------------------------ */
/* The history of a campaign                                           */

/* A measured run with its configuration, sorted by configuration, date,
 * row: each configuration's runs by date. */
typedef struct {
    size_t group, row;
    const char *date;
} dated_run;

static int compare_dated(const void *a, const void *b)
{
    const dated_run *p = a, *q = b;
    if (p->group != q->group)
        return p->group < q->group ? -1 : 1;
    int c = strcmp(p->date, q->date);
    if (c)
        return c;
    return p->row < q->row ? -1 : p->row > q->row;
}

static size_t count_dates(const dated_run *r, size_t n)
{
    size_t dates = 0;
    for (size_t i = 0; i < n; i++)
        dates += i == 0 || strcmp(r[i].date, r[i - 1].date) != 0;
    return dates;
}

/* The measured, dated rows of c, each with its configuration, sorted. */
static dated_run *dated_runs(const campaign *c, int date_col, int time_col, size_t *n)
{
    const table *t = &c->runs;
    size_t *rows = malloc((t->nrows ? t->nrows : 1) * sizeof *rows), *group_of = NULL, ngroups;
    dated_run *out = NULL;
    *n = 0;
    if (!rows)
        return NULL;
    for (size_t r = 0; r < t->nrows; r++) {
        double v = t->cols[time_col].num[r];
        if (t->cols[date_col].text[r] && isfinite(v) && v > 0)
            rows[(*n)++] = r;
    }
    if (config_groups(t, rows, *n, &group_of, &ngroups) &&
        (out = malloc((*n ? *n : 1) * sizeof *out))) {
        for (size_t i = 0; i < *n; i++)
            out[i] = (dated_run){group_of[i], rows[i], t->cols[date_col].text[rows[i]]};
        qsort(out, *n, sizeof *out, compare_dated);
    }
    free(rows), free(group_of);
    return out;
}

/* Fill k from the runs r[0..n) of one configuration on ndates dates. */
static bool config_make(site_history_config *k, const dated_run *r, size_t n, size_t ndates,
                        const table *t, int time_col)
{
    k->rows = malloc(n * sizeof *k->rows);
    k->times = malloc(n * sizeof *k->times);
    k->date_start = malloc((ndates + 1) * sizeof *k->date_start);
    k->steps = calloc(ndates - 1, sizeof *k->steps);
    changepoint_date *dates = malloc(ndates * sizeof *dates);
    bool ok = k->rows && k->times && k->date_start && k->steps && dates;
    if (ok) {
        k->nrows = n, k->ndates = 0;
        for (size_t i = 0; i < n; i++) {
            if (i == 0 || strcmp(r[i].date, r[i - 1].date) != 0)
                k->date_start[k->ndates++] = i;
            k->rows[i] = r[i].row;
            k->times[i] = t->cols[time_col].num[r[i].row];
        }
        k->date_start[ndates] = n;
        for (size_t d = 0; d < ndates; d++)
            dates[d] = (changepoint_date){k->times + k->date_start[d],
                                          k->date_start[d + 1] - k->date_start[d]};
        k->status = changepoint_detect(dates, ndates, k->steps);
        for (size_t d = 0; d + 1 < ndates; d++)
            k->nchanged += k->steps[d].changed;
    }
    free(dates);
    return ok;
}

/* Labels from the identifying columns the history's rows show. */
static bool label_configs(site_history *h)
{
    size_t n = 0;
    for (size_t i = 0; i < h->nconfigs; i++)
        n += h->configs[i].nrows;
    size_t *rows = malloc((n ? n : 1) * sizeof *rows);
    if (!rows)
        return false;
    n = 0;
    for (size_t i = 0; i < h->nconfigs; i++)
        for (size_t j = 0; j < h->configs[i].nrows; j++)
            rows[n++] = h->configs[i].rows[j];
    bool ok = site_shown_columns(h->camp, rows, n, &h->shown, &h->varies, &h->nshown);
    free(rows);
    for (size_t i = 0; ok && i < h->nconfigs; i++) {
        rbuf b;
        rbuf_init(&b);
        site_columns_label(&h->camp->runs, h->shown, h->nshown, h->configs[i].rows[0], true, -1,
                           &b);
        ok = !b.oom && (h->configs[i].label = rbuf_take(&b)) != NULL;
        rbuf_init(&b);
        site_columns_words(h->camp, h->shown, h->nshown, h->configs[i].rows[0], -1,
                           SITE_WORDS_CLUSTER | SITE_WORDS_PROCESSES, &b);
        ok = ok && !b.oom && (h->configs[i].words = rbuf_take(&b)) != NULL;
    }
    return ok;
}

bool site_history_compute(const campaign *c, site_history *out)
{
    memset(out, 0, sizeof *out);
    out->camp = c;
    out->date_col = -1;
    int time_col = c ? table_find(&c->runs, "time_s") : -1;
    int date_col = c ? table_find(&c->runs, "date") : -1;
    if (time_col < 0 || date_col < 0 || c->runs.cols[time_col].kind != COL_NUMBER ||
        c->runs.cols[date_col].kind != COL_TEXT)
        return true;
    out->date_col = date_col;
    size_t n;
    dated_run *r = dated_runs(c, date_col, time_col, &n);
    if (!r)
        return false;
    out->configs = calloc(n ? n : 1, sizeof *out->configs);
    bool ok = out->configs != NULL;
    for (size_t i = 0, end; ok && i < n; i = end) {
        for (end = i; end < n && r[end].group == r[i].group; end++)
            ;
        size_t ndates = count_dates(r + i, end - i);
        if (ndates < 2)
            continue;
        site_history_config *k = &out->configs[out->nconfigs++];
        ok = config_make(k, r + i, end - i, ndates, &c->runs, time_col);
        out->nchanged += k->nchanged;
    }
    free(r);
    return ok && label_configs(out);
}

void site_history_free(site_history *h)
{
    for (size_t i = 0; i < h->nconfigs; i++) {
        site_history_config *k = &h->configs[i];
        free(k->label), free(k->words), free(k->rows), free(k->date_start), free(k->times);
        free(k->steps);
    }
    free(h->configs), free(h->shown), free(h->varies);
    memset(h, 0, sizeof *h);
}

const char *site_history_date(const site_history *h, const site_history_config *k, size_t d)
{
    return h->camp->runs.cols[h->date_col].text[k->rows[k->date_start[d]]];
}

/* The step into date d (d >= 1), or NULL for the first date. */
static const changepoint_step *step_into(const site_history_config *k, size_t d)
{
    return d ? &k->steps[d - 1] : NULL;
}

/* The earliest date of the history: the chart's day 0. */
static const char *first_date(const site_history *h)
{
    const char *first = NULL;
    for (size_t i = 0; i < h->nconfigs; i++) {
        const char *s = site_history_date(h, &h->configs[i], 0);
        if (!first || strcmp(s, first) < 0)
            first = s;
    }
    return first;
}

static double days_since(const char *origin, const char *date)
{
    long a, b;
    return dates_day_number(origin, &a) && dates_day_number(date, &b) ? (double)(b - a) : NAN;
}

/* ------------------------------------------------------------------ */
/* history.csv: one row per run                                        */

static void history_csv(const site_history *h, rbuf *csv)
{
    const table *t = &h->camp->runs;
    int rep_col = table_find(t, "rep");
    const char *origin = first_date(h);
    rbuf cell;
    rbuf_init(&cell);
    rbuf_puts(csv, "configuration,");
    for (size_t c = 0; c < h->nshown; c++)
        site_csv_text(csv, t->cols[h->shown[c]].name), rbuf_putc(csv, ',');
    rbuf_puts(csv, "date,day,rep,time_s,date_runs,date_median_s,changed,step_pct\n");
    for (size_t i = 0; i < h->nconfigs; i++) {
        const site_history_config *k = &h->configs[i];
        for (size_t d = 0; d < k->ndates; d++) {
            const changepoint_step *s = step_into(k, d);
            size_t from = k->date_start[d], to = k->date_start[d + 1];
            double median = changepoint_median(k->times + from, to - from);
            for (size_t j = from; j < to; j++) {
                size_t row = k->rows[j];
                site_csv_text(csv, k->label), rbuf_putc(csv, ',');
                for (size_t c = 0; c < h->nshown; c++) {
                    rbuf_clear(&cell);
                    site_cell_text(t, row, h->shown[c], &cell);
                    site_csv_text(csv, rbuf_str(&cell)), rbuf_putc(csv, ',');
                }
                site_csv_text(csv, site_history_date(h, k, d)), rbuf_putc(csv, ',');
                site_csv_num(csv, days_since(origin, site_history_date(h, k, d)));
                rbuf_putc(csv, ',');
                rbuf_clear(&cell);
                if (rep_col >= 0)
                    site_cell_text(t, row, (size_t)rep_col, &cell);
                rbuf_printf(csv, "%s,", rbuf_str(&cell));
                site_csv_num(csv, k->times[j]);
                rbuf_printf(csv, ",%zu,", to - from);
                site_csv_num(csv, median);
                /* Empty: no repetition noise to tell a change by. */
                rbuf_puts(csv, !s ? ",no," : k->status == CHANGEPOINT_NO_NOISE ? ",,"
                                   : s->changed ? ",yes," : ",no,");
                site_csv_num(csv, s ? 100 * s->rel_change : NAN);
                rbuf_putc(csv, '\n');
            }
        }
    }
    rbuf_free(&cell);
}

/* ------------------------------------------------------------------ */
/* The chart: one panel per PLOT_PALETTE_SIZE configurations            */

typedef struct {
    const char *title, *x_label;
    chart_history_run *runs;
    size_t nruns;
    chart_history_median *medians;
    size_t nmedians;
} history_job;

static bool draw_history(const void *ctx, chart_files *out, char *err, size_t errlen)
{
    const history_job *j = ctx;
    return chart_history(j->title, j->x_label, j->runs, j->nruns, j->medians, j->nmedians, out,
                         err, errlen);
}

/* The runs and medians of configurations [from, to) into j. */
static void panel_points(const site_history *h, size_t from, size_t to, const char *origin,
                         history_job *j)
{
    j->nruns = j->nmedians = 0;
    for (size_t i = from; i < to; i++) {
        const site_history_config *k = &h->configs[i];
        for (size_t d = 0; d < k->ndates; d++) {
            double day = days_since(origin, site_history_date(h, k, d));
            size_t a = k->date_start[d], b = k->date_start[d + 1];
            for (size_t r = a; r < b; r++)
                j->runs[j->nruns++] = (chart_history_run){k->words, day, k->times[r]};
            const changepoint_step *s = step_into(k, d);
            j->medians[j->nmedians++] = (chart_history_median){
                k->words, day, changepoint_median(k->times + a, b - a),
                s && s->changed ? s->median_before : NAN};
        }
    }
}

static bool history_charts(site_ctx *c, const site_history *h, const char *dir,
                           const char *campaign_name, const rbuf *csv, rbuf *md)
{
    size_t nruns = 0, ndates = 0;
    for (size_t i = 0; i < h->nconfigs; i++)
        nruns += h->configs[i].nrows, ndates += h->configs[i].ndates;
    history_job j = {0};
    j.runs = malloc(nruns * sizeof *j.runs);
    j.medians = malloc(ndates * sizeof *j.medians);
    const char *origin = first_date(h);
    size_t npanels = (h->nconfigs + PLOT_PALETTE_SIZE - 1) / PLOT_PALETTE_SIZE;
    rbuf title, xl, alt, name, path;
    rbuf_init(&title), rbuf_init(&xl), rbuf_init(&alt), rbuf_init(&name), rbuf_init(&path);
    rbuf_printf(&xl, "days since %s", origin);
    bool ok = j.runs && j.medians;
    for (size_t p = 0; ok && p < npanels; p++) {
        size_t from = p * PLOT_PALETTE_SIZE, to = from + PLOT_PALETTE_SIZE;
        to = to < h->nconfigs ? to : h->nconfigs;
        rbuf_clear(&title), rbuf_clear(&alt), rbuf_clear(&name), rbuf_clear(&path);
        rbuf_printf(&title, "Time by date: %s", campaign_name);
        rbuf_puts(&name, "history");
        if (npanels > 1)
            rbuf_printf(&title, " (%zu of %zu)", p + 1, npanels), rbuf_printf(&name, "-%zu", p + 1);
        rbuf_printf(&alt, "Run time against date (%s) for %zu configurations of campaign %s "
                    "measured on two or more dates: each run a hollow point, each date's median "
                    "a filled point joined by a line, each change beyond the repetition noise "
                    "a grey bar from the median before to the median after (%zu in all)", rbuf_str(&xl), to - from,
                    campaign_name, h->nchanged);
        rbuf_printf(&path, "%s%s", dir, rbuf_str(&name));
        panel_points(h, from, to, origin, &j);
        j.title = rbuf_str(&title), j.x_label = rbuf_str(&xl);
        ok = site_chart_on_page(c, md, rbuf_str(&path),
                                site_chart_key("history", j.title, j.x_label, csv), draw_history,
                                &j, rbuf_str(&name), rbuf_str(&alt), "history.csv");
    }
    free(j.runs), free(j.medians);
    rbuf_free(&title), rbuf_free(&xl), rbuf_free(&alt), rbuf_free(&name), rbuf_free(&path);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Sections                                                            */

static void method_text(rbuf *md)
{
    rbuf b;
    rbuf_init(&b);
    rbuf_printf(&b, "A date's level is the median of its runs. A step from one date to the next "
                "is a change when it exceeds %g standard errors of the repetition noise (the "
                "spread of log time within dates, pooled) and %g%%, so that neither noise nor "
                "a tiny but steady drift raises one.", CHANGEPOINT_K, 100 * CHANGEPOINT_MIN_REL);
    md_text(md, rbuf_str(&b));
    rbuf_free(&b);
}

/* Configurations whose dates have one run each: no noise, no verdict. */
static void no_noise_text(const site_history *h, rbuf *md)
{
    size_t n = 0;
    for (size_t i = 0; i < h->nconfigs; i++)
        n += h->configs[i].status == CHANGEPOINT_NO_NOISE;
    if (n == 0)
        return;
    rbuf b;
    rbuf_init(&b);
    rbuf_printf(&b, " %zu of the configurations %s no repetitions to measure the noise by "
                "(their changed column in history.csv is empty): a step there is shown, never "
                "called a change.", n, n == 1 ? "has" : "have");
    md_text(md, rbuf_str(&b));
    rbuf_free(&b);
}

/* "0.07377 s → 0.04372 s" */
static void before_after(const changepoint_step *s, rbuf *out)
{
    site_fmt_duration(out, s->median_before);
    rbuf_puts(out, " \xE2\x86\x92 ");
    site_fmt_duration(out, s->median_after);
}

enum { CHANGE_COLUMNS = 5 };
static const char *const change_head[CHANGE_COLUMNS] = {"configuration", "change",
                                                        "median before \xE2\x86\x92 after",
                                                        "step (%)", "runs before, after"};

/* The table cells of one change (the caller adds what comes before). */
static void change_cells(const site_history *h, const site_history_config *k, size_t d,
                         md_table *t)
{
    const changepoint_step *s = step_into(k, d);
    rbuf cell;
    rbuf_init(&cell);
    md_table_text(t, k->words);
    rbuf_printf(&cell, "changed on %s", site_history_date(h, k, d));
    md_table_text(t, rbuf_str(&cell));
    rbuf_clear(&cell);
    before_after(s, &cell);
    md_table_text(t, rbuf_str(&cell));
    site_md_cell_pct(t, 100 * s->rel_change);
    rbuf_clear(&cell);
    rbuf_printf(&cell, "%zu, %zu", k->date_start[d] - k->date_start[d - 1],
                k->date_start[d + 1] - k->date_start[d]);
    md_table_text(t, rbuf_str(&cell));
    rbuf_free(&cell);
}

static void changes_table(const site_history *h, rbuf *md)
{
    if (h->nchanged == 0) {
        md_text(md, "No step between dates is beyond the repetition noise.");
        md_end_paragraph(md);
        return;
    }
    md_table t;
    md_table_begin(&t, md, CHANGE_COLUMNS, change_head, "llrrr");
    for (size_t i = 0; i < h->nconfigs; i++)
        for (size_t d = 1; d < h->configs[i].ndates; d++)
            if (h->configs[i].steps[d - 1].changed)
                change_cells(h, &h->configs[i], d, &t);
    md_table_end(&t);
}

bool site_history_section(site_ctx *c, const site_campaign *sc, rbuf *md)
{
    site_history h;
    if (!site_history_compute(sc->camp, &h)) {
        site_history_free(&h);
        return false;
    }
    bool ok = true;
    if (h.nconfigs) {
        rbuf dir, csv, path, lead;
        rbuf_init(&dir), rbuf_init(&csv), rbuf_init(&path), rbuf_init(&lead);
        rbuf_printf(&dir, "campaigns/%s/", sc->slug);
        md_heading(md, 2, "History");
        rbuf_printf(&lead, "%zu configuration%s of this campaign %s measured on two or more "
                    "dates; %zu change%s found. ", h.nconfigs, h.nconfigs == 1 ? "" : "s",
                    h.nconfigs == 1 ? "was" : "were", h.nchanged, h.nchanged == 1 ? "" : "s");
        md_text(md, rbuf_str(&lead));
        method_text(md);
        no_noise_text(&h, md);
        md_end_paragraph(md);
        history_csv(&h, &csv);
        rbuf_printf(&path, "%shistory.csv", rbuf_str(&dir));
        ok = site_file(c, rbuf_str(&path), &csv) &&
             history_charts(c, &h, rbuf_str(&dir), sc->name, &csv, md);
        changes_table(&h, md);
        rbuf_free(&dir), rbuf_free(&csv), rbuf_free(&path), rbuf_free(&lead);
    }
    site_history_free(&h);
    return ok;
}

void site_history_alerts_section(const site_data *d, rbuf *md)
{
    md_heading(md, 2, "Changes between dates");
    md_text(md, "Configurations measured on two or more dates whose time changed from one "
                "date to the next (each campaign's History section has the runs). ");
    method_text(md);
    md_end_paragraph(md);
    md_table t;
    size_t changes = 0, histories = 0;
    rbuf url;
    rbuf_init(&url);
    for (size_t i = 0; i < d->ncamps; i++) {
        site_history h;
        if (!site_history_compute(d->camps[i].camp, &h)) {
            md->oom = true;
            site_history_free(&h);
            break;
        }
        histories += h.nconfigs;
        for (size_t k = 0; k < h.nconfigs; k++)
            for (size_t s = 1; s < h.configs[k].ndates; s++) {
                if (!h.configs[k].steps[s - 1].changed)
                    continue;
                if (changes++ == 0) {
                    const char *head[CHANGE_COLUMNS + 1] = {"campaign"};
                    memcpy(head + 1, change_head, sizeof change_head);
                    md_table_begin(&t, md, CHANGE_COLUMNS + 1, head, "lllrrr");
                }
                rbuf_clear(&url);
                rbuf_printf(&url, "campaigns/%s/index.md#history", d->camps[i].slug);
                rbuf link;
                rbuf_init(&link);
                md_link(&link, d->camps[i].name, rbuf_str(&url));
                md_table_markdown(&t, rbuf_str(&link));
                rbuf_free(&link);
                change_cells(&h, &h.configs[k], s, &t);
            }
        site_history_free(&h);
    }
    if (changes)
        md_table_end(&t);
    else {
        md_text(md, histories ? "No configuration changed beyond its repetition noise "
                                "between dates."
                              : "No configuration was measured on two or more dates.");
        md_end_paragraph(md);
    }
    rbuf_free(&url);
}
