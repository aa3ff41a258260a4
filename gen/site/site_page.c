/*
 * site_page.c — the plumbing every page writer shares (see site_pages.h).
 */
#include "gen/base/hash.h"
#include "gen/site/site_pages.h"

#include "gen/base/growth.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/calibrate.h"
#include "render/escape.h"
#include "render/html.h"
#include "render/markdown.h"
#include "render/numtext.h"

static void path_with(rbuf *b, const char *path, const char *ext)
{
    rbuf_clear(b);
    rbuf_puts(b, path);
    rbuf_puts(b, ext);
}

bool site_file(site_ctx *c, const char *path, const rbuf *content)
{
    if (content->oom)
        return false;
    return site_out_write(c->out, path, rbuf_str(content), content->len);
}

/* The template variables of page path, the values site_page_vars_init
 * points at, and which of them the page's key covers. */
enum { VAR_CONTENT, VAR_TITLE, NVARS = 6 };

typedef struct {
    rbuf root, source;
    template_var vars[NVARS];
} page_vars;

/* Values every page can use. A value that changes with any new run (the
 * newest date) would rewrite every page each night: page.html leaves it
 * to the front page. "content" (first) is the rendered Markdown, set by
 * render_page: keys cover the Markdown instead. Free with
 * page_vars_free. */
static void page_vars_init(page_vars *v, const site_data *d, const char *path, const char *title)
{
    rbuf_init(&v->root);
    rbuf_init(&v->source);
    for (const char *s = path; *s; s++)
        if (*s == '/')
            rbuf_puts(&v->root, "../");
    const char *base = strrchr(path, '/');
    path_with(&v->source, base ? base + 1 : path, ".md");
    const template_var vars[NVARS] = {
        {"content", ""},
        {"title", title},
        {"root", rbuf_str(&v->root)},
        {"source", rbuf_str(&v->source)},
        {"data_date", d->last_date[0] ? d->last_date : "an unknown date"},
        {"build_date", d->build_date[0] ? d->build_date : d->last_date},
    };
    memcpy(v->vars, vars, sizeof vars);
}

static void page_vars_free(page_vars *v)
{
    rbuf_free(&v->root);
    rbuf_free(&v->source);
}

/* h mixed with the value of each template variable the template uses
 * but "content" (a custom template might show the data date; the
 * default one does not, so a new run leaves other pages' keys alone). */
static uint64_t vars_key(const site_ctx *c, const page_vars *v, uint64_t h)
{
    for (size_t i = VAR_TITLE; i < NVARS; i++)
        if (template_uses(c->tpl, v->vars[i].name)) {
            h = hash_bytes(v->vars[i].name, strlen(v->vars[i].name) + 1, h);
            const char *value = v->vars[i].value ? v->vars[i].value : "";
            h = hash_bytes(value, strlen(value) + 1, h);
        }
    return h ? h : 1;
}

/* Render md into the template as c->page; false with a message on stderr. */
static bool render_page(site_ctx *c, const rbuf *md, page_vars *v)
{
    rbuf_clear(&c->html);
    rbuf_clear(&c->page);
    if (!html_from_markdown(rbuf_str(md), md->len, &c->html))
        return false;
    v->vars[VAR_CONTENT].value = rbuf_str(&c->html);
    char err[256];
    if (!template_render(c->tpl, v->vars, NVARS, &c->page, err, sizeof err)) {
        fprintf(stderr, "perfcast build: %s\n", err);
        return false;
    }
    c->pages_rendered++;
    return true;
}

bool site_page_keyed(site_ctx *c, const char *path, const char *title, const rbuf *md,
                     uint64_t md_key)
{
    rbuf name;
    rbuf_init(&name);
    path_with(&name, path, ".md");
    bool ok = !md->oom && (md_key ? site_out_write_keyed(c->out, rbuf_str(&name), md_key,
                                                         rbuf_str(md), md->len)
                                  : site_out_write(c->out, rbuf_str(&name), rbuf_str(md),
                                                   md->len));
    page_vars v;
    page_vars_init(&v, c->data, path, title);
    path_with(&name, path, ".html");
    /* The HTML's key: the seed, the Markdown and the variables. */
    uint64_t key = c->page_seed ? vars_key(c, &v, hash_bytes(rbuf_str(md), md->len, c->page_seed))
                                : 0;
    if (ok && key && site_out_can_reuse(c->out, rbuf_str(&name), key))
        ok = site_out_reuse(c->out, rbuf_str(&name), key);
    else
        ok = ok && render_page(c, md, &v) &&
             (key ? site_out_write_keyed(c->out, rbuf_str(&name), key, rbuf_str(&c->page),
                                         c->page.len)
                  : site_out_write(c->out, rbuf_str(&name), rbuf_str(&c->page), c->page.len));
    c->pages += ok;
    rbuf_free(&name);
    page_vars_free(&v);
    return ok;
}

bool site_page(site_ctx *c, const char *path, const char *title, const rbuf *md)
{
    return site_page_keyed(c, path, title, md, 0);
}

uint64_t site_page_folder_key(const site_ctx *c, const char *path, const char *title,
                              uint64_t inputs)
{
    static const char version[] = "page-folder-v1";
    if (!c->page_seed || !inputs)
        return 0;
    page_vars v;
    page_vars_init(&v, c->data, path, title);
    uint64_t h = hash_bytes(version, sizeof version, c->page_seed);
    h = hash_bytes(&inputs, sizeof inputs, h);
    h = hash_bytes(path, strlen(path) + 1, h);
    h = vars_key(c, &v, h);
    page_vars_free(&v);
    return h;
}

bool site_page_folder_reuse(site_ctx *c, const char *dir, const char *path, uint64_t key)
{
    rbuf marker;
    rbuf_init(&marker);
    path_with(&marker, path, ".md");
    size_t charts = 0;
    bool kept = key && !marker.oom &&
                site_out_reuse_folder(c->out, dir, rbuf_str(&marker), key, ".svg", &charts);
    rbuf_free(&marker);
    c->pages += kept;
    c->charts += charts;
    return kept;
}

uint64_t site_chart_key(const char *kind, const char *title, const char *axes, const rbuf *csv)
{
    /* Bump the version when the drawing code changes, so old charts are redrawn. */
    static const char version[] = "chart-v2"; /* v2: LZ77 PNGs */
    uint64_t h = hash_bytes(version, sizeof version, 0);
    h = hash_bytes(kind, strlen(kind), h);
    h = hash_bytes(title, strlen(title), h);
    h = hash_bytes(axes, strlen(axes), h);
    return hash_bytes(rbuf_str(csv), csv->len, h);
}

bool site_chart(site_ctx *c, const char *path, uint64_t key, site_draw_fn draw,
                const void *draw_ctx, char *err, size_t errlen)
{
    rbuf svg, png;
    rbuf_init(&svg);
    rbuf_init(&png);
    path_with(&svg, path, ".svg");
    path_with(&png, path, ".png");
    /* The drawing code is part of what a chart is made from: a chart drawn
     * by another perfcast is drawn again (0: the program is unreadable,
     * the chart is keyed on its data alone). */
    if (c->program_key)
        key = hash_bytes(&c->program_key, sizeof c->program_key, key);
    bool ok;
    if (site_out_can_reuse(c->out, rbuf_str(&svg), key) &&
        site_out_can_reuse(c->out, rbuf_str(&png), key)) {
        ok = site_out_reuse(c->out, rbuf_str(&svg), key) &&
             site_out_reuse(c->out, rbuf_str(&png), key);
        if (!ok && !site_out_failed(c->out))
            snprintf(err, errlen, "the previous chart could not be kept");
    } else {
        chart_files files;
        chart_files_init(&files);
        ok = draw(draw_ctx, &files, err, errlen) &&
             site_out_write_keyed(c->out, rbuf_str(&svg), key, files.svg.data, files.svg.len) &&
             site_out_write_keyed(c->out, rbuf_str(&png), key, files.png.data, files.png.len);
        chart_files_free(&files);
        c->charts_drawn += ok;
    }
    if (!ok && site_out_failed(c->out))
        snprintf(err, errlen, "%s", site_out_error(c->out));
    c->charts += ok;
    rbuf_free(&svg);
    rbuf_free(&png);
    return ok;
}

/* Alt texts stay under this many bytes (so under 150 characters): a
 * screen reader reads them in one breath; the rest is on the page. */
enum { ALT_MAX = 145 };

/* The length of alt's first clauses that fit in ALT_MAX bytes: it ends
 * before ", ", "; ", ": " or " (" outside parentheses (a cut inside one
 * left "(training runs filled circles" open), else at a space; all of alt
 * when short. */
static size_t concise_length(const char *alt)
{
    size_t n = strlen(alt);
    if (n < ALT_MAX)
        return n;
    size_t clause = 0, word = 0;
    int depth = alt[0] == '(';
    for (size_t i = 1; i < ALT_MAX; i++) {
        if (depth == 0 && alt[i] == ' ' && strchr(",;:", alt[i - 1]))
            clause = i - 1;
        else if (depth == 0 && alt[i] == ' ' && alt[i + 1] == '(')
            clause = i;
        if (alt[i] == ' ')
            word = i;
        depth += (alt[i] == '(') - (alt[i] == ')' && depth > 0);
    }
    return clause ? clause : word ? word : ALT_MAX - 1;
}

void site_md_chart(rbuf *md, const char *name, const char *alt, const char *csv_name)
{
    rbuf url, short_alt;
    rbuf_init(&url);
    rbuf_init(&short_alt);
    size_t n = concise_length(alt);
    rbuf_put(&short_alt, alt, n);
    path_with(&url, name, ".svg");
    md_image(md, rbuf_str(&short_alt), rbuf_str(&url));
    md_end_paragraph(md);
    rbuf_free(&short_alt);
    if (alt[n]) { /* the whole description, for every reader */
        md_text(md, alt);
        md_text(md, ".");
        md_end_paragraph(md);
    }
    md_text(md, "Chart as ");
    path_with(&url, name, ".png");
    md_link(md, "PNG", rbuf_str(&url));
    md_text(md, " · ");
    path_with(&url, name, ".svg");
    md_link(md, "SVG", rbuf_str(&url));
    md_text(md, " · data: ");
    md_link(md, csv_name, csv_name);
    md_end_paragraph(md);
    rbuf_free(&url);
}

bool site_chart_on_page(site_ctx *c, rbuf *md, const char *path, uint64_t key,
                        site_draw_fn draw, const void *draw_ctx, const char *name,
                        const char *alt, const char *csv_name)
{
    char err[256] = "";
    if (site_chart(c, path, key, draw, draw_ctx, err, sizeof err)) {
        site_md_chart(md, name, alt, csv_name);
        return true;
    }
    md_text(md, "The chart could not be drawn: ");
    md_text(md, err);
    md_end_paragraph(md);
    return !site_out_failed(c->out);
}

bool site_draw_cost(const void *ctx, chart_files *out, char *err, size_t errlen)
{
    const site_cost_chart *j = ctx;
    return chart_cost_time(j->title, j->cost_label, j->p, j->n, out, err, errlen);
}

void site_md_data_link(rbuf *md, const char *csv_name)
{
    md_text(md, "Data: ");
    md_link(md, csv_name, csv_name);
    md_end_paragraph(md);
}

const char site_conventions[] =
    "Times are durations (\xE2\x80\x9C" "16 min 24 s\xE2\x80\x9D; the CSV files keep seconds). "
    "Every error on this page is 100 (predicted \xE2\x88\x92 measured) / measured: positive "
    "when the prediction is too high.";

void site_fmt(rbuf *out, double v)
{
    if (!isfinite(v)) {
        rbuf_puts(out, "\xE2\x80\x94");
        return;
    }
    rbuf s;
    rbuf_init(&s);
    numtext_value(&s, v, 4);
    /* "-0" is zero */
    bool zero = strspn(rbuf_str(&s), "-0.") == s.len;
    rbuf_puts(out, zero ? "0" : rbuf_str(&s));
    rbuf_free(&s);
}

void site_fmt_duration(rbuf *out, double seconds)
{
    if (!isfinite(seconds)) {
        rbuf_puts(out, "\xE2\x80\x94");
        return;
    }
    if (seconds < 0) {
        rbuf_puts(out, "\xE2\x88\x92"); /* minus sign */
        seconds = -seconds;
    }
    if (seconds < 59.5) {
        site_fmt(out, seconds);
        rbuf_puts(out, " s");
        return;
    }
    /* Round once, to whole seconds or minutes, then split. */
    if (seconds < 3600 - 0.5) {
        long total = lround(seconds);
        rbuf_printf(out, "%ld min %ld s", total / 60, total % 60);
        return;
    }
    /* Beyond 100,000 hours (11 years) minutes say nothing, and past
     * LONG_MAX minutes lround is undefined (a 1e21 s time printed as a
     * negative count of hours): hours to 4 significant digits. */
    if (seconds >= 1e5 * 3600) {
        site_fmt(out, seconds / 3600);
        rbuf_puts(out, " h");
        return;
    }
    long minutes = lround(seconds / 60);
    rbuf_printf(out, "%ld h %02ld min", minutes / 60, minutes % 60);
}

void site_fmt_money(rbuf *out, double v, const char *currency)
{
    if (!isfinite(v)) {
        rbuf_puts(out, "\xE2\x80\x94");
        return;
    }
    double a = fabs(v);
    /* Two decimals, as money is written; a cost under a tenth keeps two
     * significant digits, still in fixed notation (0.01898 and its bounds
     * 0.01258 and 0.02865 were "0.02, 0.01 – 0.03": the bound 20% off). */
    int decimals = a == 0 || a >= 0.1 ? 2 : 1 - (int)floor(log10(a));
    char s[64];
    snprintf(s, sizeof s, "%.*f", decimals > 12 ? 12 : decimals, v);
    rbuf_puts(out, strspn(s, "-0.") == strlen(s) ? "0.00" : s);
    rbuf_printf(out, " %s", currency);
}

const char site_clip_note[] =
    "\xE2\x80\xA0 The interval reaches below zero; a time cannot be negative, so its lower "
    "end is shown as 0 (the CSV keeps the computed value).";

void site_fmt_interval(rbuf *out, double lo, double hi, bool *clipped)
{
    if (!isfinite(lo) || !isfinite(hi)) {
        rbuf_puts(out, "\xE2\x80\x94");
        return;
    }
    if (lo < 0) {
        rbuf_puts(out, "0\xE2\x80\xA0");
        *clipped = true;
    } else {
        site_fmt_duration(out, lo);
    }
    rbuf_puts(out, " \xE2\x80\x93 ");
    site_fmt_duration(out, hi);
}

void site_fmt_pct(rbuf *out, double v)
{
    if (!isfinite(v)) {
        rbuf_puts(out, "\xE2\x80\x94");
        return;
    }
    char s[64];
    snprintf(s, sizeof s, "%+.1f", v);
    rbuf_puts(out, strcmp(s, "-0.0") == 0 || strcmp(s, "+0.0") == 0 ? "0.0" : s);
}

static void cell_with(md_table *t, void (*fmt)(rbuf *, double), double v)
{
    rbuf cell;
    rbuf_init(&cell);
    fmt(&cell, v);
    md_table_text(t, rbuf_str(&cell));
    rbuf_free(&cell);
}

void site_md_cell_number(md_table *t, double v)
{
    cell_with(t, site_fmt, v);
}

void site_md_cell_pct(md_table *t, double v)
{
    cell_with(t, site_fmt_pct, v);
}

void site_md_cell_duration(md_table *t, double seconds)
{
    cell_with(t, site_fmt_duration, seconds);
}

void site_md_cell_count(md_table *t, size_t n)
{
    char s[32];
    snprintf(s, sizeof s, "%zu", n);
    md_table_text(t, s);
}

void site_csv_num(rbuf *out, double v)
{
    if (isfinite(v))
        rbuf_number(out, v == 0 ? 0.0 : v);
}

void site_csv_text(rbuf *out, const char *s)
{
    esc_csv(out, s);
}

void site_accuracy_add(site_accuracy *a, const site_experiment *e)
{
    a->experiments++;
    if (!e->res.ok)
        return;
    a->fitted++;
    for (size_t i = 0; i < e->res.rep.npreds; i++) {
        const report_prediction *p = &e->res.rep.preds[i];
        if (p->config >= e->res.input.ntargets)
            continue;
        const target_config *tc = &e->res.input.targets[p->config];
        if (tc->nmeasured == 0 || !isfinite(tc->error_pct))
            continue;
        double err = fabs(tc->error_pct);
        if (!growth_reserve(&a->abs_err, &a->cap, a->held_out + 1, sizeof *a->abs_err)) {
            a->oom = true;
            return;
        }
        a->abs_err[a->held_out++] = err;
        a->max_abs = fmax(a->max_abs, err);
        if (isfinite(p->pi_low) && isfinite(p->pi_high)) {
            a->with_interval++;
            a->inside += tc->measured >= p->pi_low && tc->measured <= p->pi_high;
        }
        if (isfinite(p->cal_low) && isfinite(p->cal_high)) {
            if (!growth_reserve(&a->calibrated, &a->calibrated_cap, 4 * (a->with_calibrated + 1),
                                sizeof *a->calibrated)) {
                a->oom = true;
                return;
            }
            double *q = a->calibrated + 4 * a->with_calibrated++;
            q[0] = p->estimate, q[1] = tc->measured, q[2] = p->cal_low, q[3] = p->cal_high;
            a->inside_calibrated += tc->measured >= p->cal_low && tc->measured <= p->cal_high;
        }
    }
}

bool site_accuracy_sharpness(const site_accuracy *a, double *median_width, double *mean_score)
{
    size_t n = a->with_calibrated;
    *median_width = *mean_score = NAN;
    if (n == 0)
        return true;
    double *v = malloc(4 * n * sizeof *v);
    if (!v)
        return false;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < 4; k++)
            v[k * n + i] = a->calibrated[4 * i + k]; /* estimates, measured, lows, highs */
    calibrate_scores sc;
    bool ok = calibrate_score_targets(v, v + n, v + 2 * n, v + 3 * n, n, &sc) == CALIBRATE_OK;
    if (ok)
        *median_width = sc.median_width_ratio, *mean_score = sc.mean_interval_score;
    free(v);
    return ok;
}

static int by_value(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

double site_accuracy_median(site_accuracy *a)
{
    if (a->held_out == 0)
        return NAN;
    qsort(a->abs_err, a->held_out, sizeof *a->abs_err, by_value);
    size_t n = a->held_out;
    return n % 2 ? a->abs_err[n / 2] : (a->abs_err[n / 2 - 1] + a->abs_err[n / 2]) / 2;
}

void site_accuracy_free(site_accuracy *a)
{
    free(a->abs_err);
    free(a->calibrated);
    *a = (site_accuracy){0};
}

void site_inside_count(rbuf *out, size_t inside, size_t with)
{
    if (with)
        rbuf_printf(out, "%zu of %zu", inside, with);
    else
        rbuf_puts(out, "\xE2\x80\x94 (no intervals)");
}
