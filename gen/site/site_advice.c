/*
 * site_advice.c — the advice pages of seed 000's two scenarios.
 *
 * Each scenario of the archive's advice.csv (gen/advice/advice_scenarios.h) gets a
 * section: the free resources and the problem, every option (each cluster
 * alone, each split across two clusters) ranked fastest first and cheapest
 * first with its predicted time and cost, their calibrated 95% intervals
 * and a verdict (gen/site/site_advice_pi.h), where that time comes from
 * (long reasons as footnotes, each said once on the page), memory per
 * process, the options that do not fit or have no prediction with the
 * reason, a cost-vs-time chart and the CSV of it all.
 * Scenario 1 also lists, for every problem the experiments predict, the
 * fastest and the cheapest of the predicted configurations.
 */
#include "gen/site/site_pages.h"
#include "gen/site/site_advice_pi.h"
#include "gen/site/site_notes.h"
#include "gen/site/site_option_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/advice/advise_out.h"
#include "gen/base/slug.h"
#include "render/markdown.h"

static void breadcrumb(rbuf *md, const char *here)
{
    md_link(md, "perfcast", "../index.md");
    md_text(md, " › ");
    if (here) {
        md_link(md, "advice", "index.md");
        md_text(md, " › ");
        md_text(md, here);
    } else {
        md_text(md, "advice");
    }
    md_end_paragraph(md);
}

static size_t count_scenarios(const site_data *d, int which)
{
    size_t n = 0;
    for (size_t i = 0; i < d->scenarios.n; i++)
        n += d->scenarios.items[i].scenario == which;
    return n;
}

static bool overview(site_ctx *c)
{
    const site_data *d = c->data;
    rbuf md, line;
    rbuf_init(&md), rbuf_init(&line);
    breadcrumb(&md, NULL);
    md_heading(&md, 1, "Advice");
    md_text(&md, "Romanazzi and Jimack (seed 000) show what predictions are for with two "
                 "scenarios of a Grid user who can reserve processors on two clusters. The "
                 "answers below come from the same machinery as ");
    md_code(&md, "perfcast advise", false);
    md_text(&md, ", for the scenarios listed in the archive's advice.csv.");
    md_end_paragraph(&md);
    md_bullet(&md);
    md_link(&md, "Scenario 1: the fastest option", "scenario-1.md");
    rbuf_printf(&line, ": a problem of a given size must be solved; which of the free "
                "resources, alone or together, give the answer soonest, and at what cost? "
                "(%zu scenario%s)", count_scenarios(d, 1), count_scenarios(d, 1) == 1 ? "" : "s");
    md_text(&md, rbuf_str(&line));
    md_end_item(&md);
    md_bullet(&md);
    md_link(&md, "Scenario 2: more resolution", "scenario-2.md");
    rbuf_clear(&line);
    rbuf_printf(&line, ": two resources are free at once; how much larger a mesh does using "
                "both together allow, and how much more does it cost? (%zu scenario%s)",
                count_scenarios(d, 2), count_scenarios(d, 2) == 1 ? "" : "s");
    md_text(&md, rbuf_str(&line));
    md_end_item(&md);
    md_end_list(&md);
    bool ok = site_page(c, "advice/index", "Advice", &md);
    rbuf_free(&md), rbuf_free(&line);
    return ok;
}

/* ------------------------------------------------------------------ */
/* One scenario                                                        */

static void mesh_text(const advice_scenario *s, size_t i, rbuf *out)
{
    const advise_option *o = &s->options[i];
    if (s->scenario == 2 && s->mesh[i] <= 0)
        rbuf_puts(out, "\xE2\x80\x94");
    else
        rbuf_printf(out, "%.0f \xC3\x97 %.0f", o->na, o->nb);
}

static void memory_text(const advise_option *o, rbuf *out)
{
    for (int k = 0; k < o->nsides; k++) {
        if (k)
            rbuf_puts(out, " / ");
        site_fmt(out, o->mem_mb[k]);
    }
}

/* As money, like the cost interval beside it (site_advice_pi). */
static void cost_text(const advise_option *o, rbuf *out)
{
    site_fmt_money(out, o->cost.cost, o->cost.currency ? o->cost.currency : "units");
}

/* The lowest cost of the ranked options (whatever their mesh). */
static double cheapest_cost(const advice_scenario *s)
{
    double best = NAN;
    for (size_t r = 0; r < s->nfast; r++) {
        double c = s->options[s->fast[r]].cost.cost;
        if (isfinite(c) && !(c >= best))
            best = c;
    }
    return best;
}

/* "wrg2-myrinet:64", with " (oversubscribed: 64 processes on 32 cores)"
 * when a side asks more processes than its cluster has cores. */
static void option_name(const advise_option *o, rbuf *out)
{
    rbuf_puts(out, o->name);
    for (int k = 0; k < o->nsides; k++) {
        double cores = o->cluster[k]->nodes * o->cluster[k]->cores_per_node;
        if (!(o->np[k] > cores))
            continue;
        rbuf_printf(out, " (oversubscribed: %g processes on the %g cores of %s)", o->np[k], cores,
                    o->cluster[k]->name);
    }
}

static void ranked_table(const site_data *d, const advice_scenario *s, site_notes *notes,
                         rbuf *md)
{
    static const char *const head[] = {"rank", "option", "mesh", "time", "calibrated 95% PI",
                                       "cost", "cost, calibrated 95% PI", "verdict",
                                       "\xC3\x97 cheapest", "memory per process (MB)",
                                       "time from"};
    md_table t;
    md_table_begin(&t, md, 11, head, "rllrrrrlrrl");
    rbuf cell;
    rbuf_init(&cell);
    bool clipped = false;
    double cheapest = cheapest_cost(s);
    for (size_t r = 0; r < s->nfast; r++) {
        const advise_option *o = &s->options[s->fast[r]];
        site_advice_pi pi;
        site_advice_pi_of(d, s->code, o, &pi);
        site_md_cell_count(&t, r + 1);
        rbuf_clear(&cell), option_name(o, &cell), md_table_text(&t, rbuf_str(&cell));
        rbuf_clear(&cell), mesh_text(s, s->fast[r], &cell), md_table_text(&t, rbuf_str(&cell));
        site_md_cell_duration(&t, o->time_s);
        rbuf_clear(&cell), site_fmt_interval(&cell, pi.low, pi.high, &clipped);
        md_table_text(&t, rbuf_str(&cell));
        rbuf_clear(&cell), cost_text(o, &cell), md_table_text(&t, rbuf_str(&cell));
        rbuf_clear(&cell), site_advice_pi_cost(o, &pi, &cell), md_table_text(&t, rbuf_str(&cell));
        md_table_text(&t, verdict_name(pi.verdict));
        site_md_cell_number(&t, o->cost.cost / cheapest);
        rbuf_clear(&cell), memory_text(o, &cell), md_table_text(&t, rbuf_str(&cell));
        rbuf_clear(&cell), site_advice_pi_source(o, &pi, notes, &cell);
        md_table_text(&t, rbuf_str(&cell));
    }
    md_table_end(&t);
    if (clipped) {
        md_text(md, site_clip_note);
        md_end_paragraph(md);
    }
    rbuf_free(&cell);
}

static void cheapest_list(const advice_scenario *s, rbuf *md)
{
    md_text(md, s->scenario == 2 ? "Largest mesh first, then cheapest: "
                                 : "Cheapest first: ");
    rbuf item;
    rbuf_init(&item);
    for (size_t r = 0; r < s->ncheap; r++) {
        const advise_option *o = &s->options[s->cheap[r]];
        rbuf_clear(&item);
        rbuf_printf(&item, "%s%zu. %s (", r ? "; " : "", r + 1, o->name);
        cost_text(o, &item);
        rbuf_puts(&item, ")");
        md_text(md, rbuf_str(&item));
    }
    md_text(md, ".");
    md_end_paragraph(md);
    rbuf_free(&item);
}

/* Options that do not fit, or that have no predicted time. */
static void unranked(const advice_scenario *s, rbuf *md)
{
    bool any = false;
    rbuf item;
    rbuf_init(&item);
    for (size_t i = 0; i < s->noptions; i++) {
        const advise_option *o = &s->options[i];
        bool fits = o->feasible;
        if (fits && isfinite(o->time_s))
            continue;
        if (!any)
            md_heading(md, 3, "Not ranked");
        any = true;
        rbuf_clear(&item);
        rbuf_printf(&item, "%s: %s", o->name, fits ? "no predicted time: " : "does not fit: ");
        rbuf_puts(&item, fits ? o->source : o->reason);
        md_bullet(md);
        md_text(md, rbuf_str(&item));
        md_end_item(md);
    }
    if (any)
        md_end_list(md);
    rbuf_free(&item);
}

static void options_csv(const site_data *d, const advice_scenario *s, rbuf *csv)
{
    rbuf_puts(csv, "option,sides,cluster_a,np_a,cluster_b,np_b,na,nb,time_s,core_hours,cost,"
                   "currency,mem_a_mb,mem_b_mb,feasible,rank_fastest,rank_cheapest,reason,source,"
                   "cal_pi_low_s,cal_pi_high_s,cost_low,cost_high,verdict,interval_from\n");
    for (size_t i = 0; i < s->noptions; i++) {
        const advise_option *o = &s->options[i];
        site_csv_text(csv, o->name);
        rbuf_printf(csv, ",%d,", o->nsides);
        for (int k = 0; k < 2; k++) {
            site_csv_text(csv, k < o->nsides ? o->cluster[k]->name : "");
            rbuf_putc(csv, ',');
            site_csv_num(csv, k < o->nsides ? o->np[k] : NAN);
            rbuf_putc(csv, ',');
        }
        double v[] = {o->na, o->nb, o->time_s, o->cost.core_hours, o->cost.cost};
        for (size_t k = 0; k < 5; k++)
            site_csv_num(csv, v[k]), rbuf_putc(csv, ',');
        site_csv_text(csv, isfinite(o->cost.cost) && o->cost.currency ? o->cost.currency : "");
        rbuf_putc(csv, ',');
        site_csv_num(csv, o->mem_mb[0]);
        rbuf_putc(csv, ',');
        site_csv_num(csv, o->nsides > 1 ? o->mem_mb[1] : NAN);
        rbuf_printf(csv, ",%d,%zu,%zu,", o->feasible ? 1 : 0,
                    advise_rank_of(s->fast, s->nfast, i), advise_rank_of(s->cheap, s->ncheap, i));
        site_csv_text(csv, o->reason);
        rbuf_putc(csv, ',');
        char source[sizeof o->source + sizeof o->no_model + 16];
        advise_source_text(o, source, sizeof source);
        site_csv_text(csv, source);
        site_advice_pi pi;
        site_advice_pi_of(d, s->code, o, &pi);
        double per_s = o->cost.cost / o->time_s;
        double w[] = {pi.low, pi.high, per_s * pi.low, per_s * pi.high};
        for (size_t k = 0; k < 4; k++)
            rbuf_putc(csv, ','), site_csv_num(csv, w[k]);
        rbuf_putc(csv, ',');
        site_csv_text(csv, isfinite(o->time_s) ? verdict_name(pi.verdict) : "");
        rbuf_putc(csv, ',');
        site_csv_text(csv, pi.basis);
        rbuf_putc(csv, '\n');
    }
}

/* Cost against time of the ranked options, drawn from the scenario's CSV. */
static bool scenario_chart(site_ctx *c, const advice_scenario *s, const char *base,
                           const rbuf *csv, rbuf *md)
{
    chart_cost_point *p = calloc(s->nfast + 1, sizeof *p);
    if (!p)
        return false;
    size_t n = 0;
    const char *currency = "units";
    for (size_t r = 0; r < s->nfast; r++) {
        const advise_option *o = &s->options[s->fast[r]];
        if (isfinite(o->cost.cost)) {
            p[n++] = (chart_cost_point){o->name, o->time_s, o->cost.cost};
            currency = o->cost.currency ? o->cost.currency : currency;
        }
    }
    bool ok = true;
    if (n > 0) {
        rbuf title, label, alt, path, name;
        rbuf_init(&title), rbuf_init(&label), rbuf_init(&alt), rbuf_init(&path), rbuf_init(&name);
        rbuf_printf(&title, "Cost vs time: %s", s->name);
        rbuf_printf(&label, "cost (%s)", currency);
        rbuf_printf(&alt, "Predicted cost against predicted time of the %zu ranked options of "
                    "scenario %s, log-log", n, s->name);
        rbuf_printf(&name, "%s-cost-time", base);
        rbuf_printf(&path, "advice/%s", rbuf_str(&name));
        site_cost_chart job = {rbuf_str(&title), rbuf_str(&label), p, n};
        rbuf csv_name;
        rbuf_init(&csv_name);
        rbuf_printf(&csv_name, "%s.csv", base);
        uint64_t key = site_chart_key("advice", rbuf_str(&title), rbuf_str(&label), csv);
        ok = site_chart_on_page(c, md, rbuf_str(&path), key, site_draw_cost, &job,
                                rbuf_str(&name), rbuf_str(&alt), rbuf_str(&csv_name));
        rbuf_free(&title), rbuf_free(&label), rbuf_free(&alt), rbuf_free(&path);
        rbuf_free(&name), rbuf_free(&csv_name);
    }
    free(p);
    return ok;
}

static bool scenario_section(site_ctx *c, const advice_scenario *s, site_notes *notes, rbuf *md)
{
    rbuf base, line, csv, path;
    rbuf_init(&base), rbuf_init(&line), rbuf_init(&csv), rbuf_init(&path);
    slug_append(s->name, &base);
    md_heading(md, 2, s->title ? s->title : s->name);
    rbuf_printf(&line, "Free: %s", s->free);
    if (s->scenario == 1 && s->size)
        rbuf_printf(&line, "; problem %s", s->size);
    if (s->ok) {
        rbuf_printf(&line, "; code %s; memory per mesh point ", s->code ? s->code : "(none)");
        site_fmt(&line, s->mb_per_point * 1048576);
        rbuf_printf(&line, " bytes (%s)", s->mb_source);
    }
    rbuf_puts(&line, ".");
    md_text(md, rbuf_str(&line));
    if (s->note) {
        md_text(md, " ");
        md_text(md, s->note);
    }
    md_end_paragraph(md);
    bool ok = true;
    if (!s->ok) {
        md_strong(md, "No options:");
        md_text(md, " ");
        md_text(md, s->error);
        md_end_paragraph(md);
    } else {
        md_text(md, s->scenario == 2 ? "Largest mesh first, then fastest (N is the largest "
                                       "power of two whose N \xC3\x97 N mesh fits the option's "
                                       "memory):"
                                     : "Fastest first:");
        md_end_paragraph(md);
        ranked_table(c->data, s, notes, md);
        site_notes_write(notes, md);
        cheapest_list(s, md);
        unranked(s, md);
        options_csv(c->data, s, &csv);
        rbuf_printf(&path, "advice/%s.csv", rbuf_str(&base));
        rbuf_clear(&line);
        rbuf_printf(&line, "%s.csv", rbuf_str(&base));
        site_md_data_link(md, rbuf_str(&line));
        ok = site_file(c, rbuf_str(&path), &csv) && scenario_chart(c, s, rbuf_str(&base), &csv, md);
    }
    rbuf_free(&base), rbuf_free(&line), rbuf_free(&csv), rbuf_free(&path);
    return ok;
}

/* ------------------------------------------------------------------ */
/* The experiments' own options (scenario 1 page)                      */

typedef struct {
    const char *problem;
    double time_s;
    size_t option;
} ranked;

static int compare_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    int c = strcmp(x->problem, y->problem);
    if (c)
        return c;
    if (x->time_s != y->time_s)
        return x->time_s < y->time_s ? -1 : 1;
    return x->option < y->option ? -1 : x->option > y->option;
}

static void option_cell(const site_data *d, const site_option *o, rbuf *cell)
{
    const site_cluster *k = &d->clusters[o->cluster];
    rbuf url, text;
    rbuf_init(&url), rbuf_init(&text);
    rbuf_printf(&url, "../clusters/%s/index.md", k->slug);
    md_link(cell, k->info->name, rbuf_str(&url));
    rbuf_puts(&text, ", ");
    rbuf_number(&text, o->np);
    rbuf_puts(&text, o->np == 1 ? " process" : " processes");
    site_option_crowding(o, &text);
    md_text(cell, rbuf_str(&text));
    rbuf_free(&url), rbuf_free(&text);
}

static const char *currency_of(const site_data *d, const site_option *o)
{
    const char *cur = d->clusters[o->cluster].info->currency;
    return cur ? cur : "units";
}

/* One row of the table: which choice, the configuration, its time and cost
 * with their calibrated intervals, the verdict. */
static void choice_row(const site_data *d, const site_option *o, const char *choice, size_t n,
                       md_table *t, bool *clipped)
{
    rbuf cell;
    rbuf_init(&cell);
    md_table_text(t, o->problem_label);
    md_table_text(t, choice);
    option_cell(d, o, &cell), md_table_markdown(t, rbuf_str(&cell));
    site_md_cell_duration(t, o->time_s);
    rbuf_clear(&cell), site_fmt_interval(&cell, o->cal_low, o->cal_high, clipped);
    md_table_text(t, rbuf_str(&cell));
    rbuf_clear(&cell), site_fmt_money(&cell, o->cost, currency_of(d, o));
    md_table_text(t, rbuf_str(&cell));
    rbuf_clear(&cell), site_option_cost_interval(o, currency_of(d, o), &cell);
    md_table_text(t, rbuf_str(&cell));
    md_table_text(t, verdict_name(d->camps[o->camp].exps[o->exp].verdict.level));
    site_md_cell_count(t, n);
    rbuf_free(&cell);
}

/* The rows of one problem: its fastest option and its cheapest (one row
 * when they are the same); every option of it in the CSV. */
static void problem_rows(const site_data *d, const ranked *r, size_t n, md_table *t, rbuf *csv,
                         bool *clipped)
{
    const site_option *fast = &d->options[r[0].option], *cheap = NULL;
    for (size_t i = 0; i < n; i++) {
        const site_option *o = &d->options[r[i].option];
        if (isfinite(o->cost) && (!cheap || o->cost < cheap->cost))
            cheap = o;
    }
    choice_row(d, fast, cheap == fast ? "fastest and cheapest"
                        : cheap      ? "fastest"
                                     : "fastest (no rates known)",
               n, t, clipped);
    if (cheap && cheap != fast)
        choice_row(d, cheap, "cheapest", n, t, clipped);
    for (size_t i = 0; i < n; i++) {
        const site_option *o = &d->options[r[i].option];
        site_csv_text(csv, o->problem_label);
        rbuf_putc(csv, ',');
        site_csv_text(csv, d->clusters[o->cluster].info->name);
        double v[] = {o->np, o->time_s, o->core_hours, o->cost};
        for (size_t k = 0; k < 4; k++)
            rbuf_putc(csv, ','), site_csv_num(csv, v[k]);
        rbuf_putc(csv, ',');
        site_csv_text(csv, currency_of(d, o));
        rbuf_printf(csv, ",%d,%d", o == fast, o == cheap);
        double w[] = {o->cal_low, o->cal_high, site_option_cost_at(o, o->cal_low),
                      site_option_cost_at(o, o->cal_high)};
        for (size_t k = 0; k < 4; k++)
            rbuf_putc(csv, ','), site_csv_num(csv, w[k]);
        rbuf_putc(csv, ',');
        site_csv_text(csv, verdict_name(d->camps[o->camp].exps[o->exp].verdict.level));
        site_option_csv_flags(o, csv);
    }
}

static bool predicted_options(site_ctx *c, rbuf *md)
{
    const site_data *d = c->data;
    md_heading(md, 2, "The experiments' predicted configurations");
    md_text(md, "For every problem an experiment predicts (its configuration without cluster "
                "and processes), the configuration predicted to finish first and the one "
                "predicted to cost least (one row when they are the same), each with the "
                "calibrated 95% interval of its time and cost and the verdict of the experiment "
                "that predicts it: cost = processes \xC3\x97 time / 3600 \xC3\x97 the "
                "cluster's rate per core-hour.");
    md_end_paragraph(md);
    rbuf csv;
    rbuf_init(&csv);
    rbuf_puts(&csv, "problem,cluster,np,time_s,core_hours,cost,currency,fastest,cheapest,"
                    "cal_pi_low_s,cal_pi_high_s,cost_low,cost_high,verdict,"
                    SITE_OPTION_CSV_FLAGS "\n");
    ranked *r = malloc((d->noptions + 1) * sizeof *r);
    bool ok = r != NULL;
    if (ok && d->noptions == 0) {
        md_text(md, "No experiment has predictions yet.");
        md_end_paragraph(md);
    } else if (ok) {
        for (size_t i = 0; i < d->noptions; i++)
            r[i] = (ranked){d->options[i].problem, d->options[i].time_s, i};
        qsort(r, d->noptions, sizeof *r, compare_ranked);
        static const char *const head[] = {"problem", "choice", "configuration", "time",
                                           "calibrated 95% PI", "cost", "cost, calibrated 95% PI",
                                           "verdict", "options"};
        md_table t;
        md_table_begin(&t, md, 9, head, "lllrrrrlr");
        bool clipped = false;
        for (size_t first = 0, i = 1; i <= d->noptions; i++)
            if (i == d->noptions || strcmp(r[i].problem, r[first].problem) != 0) {
                problem_rows(d, r + first, i - first, &t, &csv, &clipped);
                first = i;
            }
        md_table_end(&t);
        if (clipped) {
            md_text(md, site_clip_note);
            md_end_paragraph(md);
        }
    }
    site_md_data_link(md, "predicted-options.csv");
    ok = ok && site_file(c, "advice/predicted-options.csv", &csv);
    free(r);
    rbuf_free(&csv);
    return ok;
}

/* ------------------------------------------------------------------ */
/* The two pages                                                       */

static bool scenario_page(site_ctx *c, int which)
{
    const site_data *d = c->data;
    rbuf md, path;
    rbuf_init(&md), rbuf_init(&path);
    const char *title = which == 1 ? "Scenario 1: the fastest option"
                                   : "Scenario 2: more resolution, at what cost";
    breadcrumb(&md, which == 1 ? "Scenario 1" : "Scenario 2");
    md_heading(&md, 1, title);
    md_text(&md, which == 1
                     ? "A problem of a given size must be solved and some processors are free "
                       "on each cluster: each cluster alone, and the job split by rows across "
                       "two clusters (T = max(TA, TB), seed 000), ranked by predicted time "
                       "and by cost."
                     : "Two resources are free at once: using both together gives the memory "
                       "of both, hence a finer mesh, at a price. Each option is evaluated at "
                       "the largest power-of-two mesh its memory holds.");
    md_end_paragraph(&md);
    bool ok = true;
    site_notes notes;
    site_notes_init(&notes);
    if (count_scenarios(d, which) == 0) {
        md_text(&md, "The archive's advice.csv lists no such scenario.");
        md_end_paragraph(&md);
    }
    for (size_t i = 0; ok && i < d->scenarios.n; i++)
        if (d->scenarios.items[i].scenario == which)
            ok = scenario_section(c, &d->scenarios.items[i], &notes, &md);
    ok = ok && !notes.oom;
    site_notes_free(&notes);
    if (which == 1)
        ok = ok && predicted_options(c, &md);
    rbuf_printf(&path, "advice/scenario-%d", which);
    ok = ok && site_page(c, rbuf_str(&path), title, &md);
    rbuf_free(&md), rbuf_free(&path);
    return ok;
}

bool site_write_advice(site_ctx *c)
{
    return overview(c) && scenario_page(c, 1) && scenario_page(c, 2);
}
