/*
 * site_advice.c — the advice pages of seed 000's two scenarios.
 *
 * Scenario 1 (the fastest way to solve a given problem with the resources
 * free now, and what it costs) is answered from the predictions on the
 * site: per problem, every cluster and process count that has a
 * prediction, ranked by time, with its cost. Scenario 2 (the largest
 * resolution the combined memory of two clusters allows, and its extra
 * cost) needs `perfcast advise`; until that exists the page shows the
 * memory each cluster offers and says what is missing.
 */
#include "gen/site_pages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static bool overview(site_ctx *c)
{
    rbuf md;
    rbuf_init(&md);
    breadcrumb(&md, NULL);
    md_heading(&md, 1, "Advice");
    md_text(&md, "Romanazzi and Jimack (seed 000) show what predictions are for with two "
                 "scenarios of a Grid user who can reserve processors on two clusters:");
    md_end_paragraph(&md);
    md_bullet(&md);
    md_link(&md, "Scenario 1", "scenario-1.md");
    md_text(&md, ": a problem of a given size must be solved; which of the available resources, "
                 "alone or together, give the answer soonest, and at what cost?");
    md_end_item(&md);
    md_bullet(&md);
    md_link(&md, "Scenario 2", "scenario-2.md");
    md_text(&md, ": two resources are free at once; how much more resolution does using both "
                 "together buy, and how much more does it cost?");
    md_end_item(&md);
    md_end_list(&md);
    bool ok = site_page(c, "advice/index", "Advice", &md);
    rbuf_free(&md);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Scenario 1                                                          */

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
    rbuf_printf(&text, ", %g processes", o->np);
    md_text(cell, rbuf_str(&text));
    rbuf_free(&url), rbuf_free(&text);
}

static void cost_text(const site_data *d, const site_option *o, rbuf *cell)
{
    site_fmt(cell, o->cost);
    if (isfinite(o->cost)) {
        const char *cur = d->clusters[o->cluster].info->currency;
        rbuf_printf(cell, " %s", cur ? cur : "units");
    }
}

/* One row per problem: its fastest option and its cheapest. */
static void problem_row(const site_data *d, const ranked *r, size_t n, md_table *t, rbuf *csv)
{
    const site_option *fast = &d->options[r[0].option], *cheap = NULL;
    for (size_t i = 0; i < n; i++) {
        const site_option *o = &d->options[r[i].option];
        if (isfinite(o->cost) && (!cheap || o->cost < cheap->cost))
            cheap = o;
    }
    rbuf cell;
    rbuf_init(&cell);
    md_table_text(t, fast->problem_label);
    option_cell(d, fast, &cell), md_table_markdown(t, rbuf_str(&cell));
    rbuf_clear(&cell), site_fmt(&cell, fast->time_s), md_table_text(t, rbuf_str(&cell));
    rbuf_clear(&cell), cost_text(d, fast, &cell), md_table_text(t, rbuf_str(&cell));
    rbuf_clear(&cell);
    if (cheap)
        option_cell(d, cheap, &cell), md_table_markdown(t, rbuf_str(&cell));
    else
        md_table_text(t, "\xE2\x80\x94 (no rates known)");
    rbuf_clear(&cell), site_fmt(&cell, cheap ? cheap->time_s : NAN), md_table_text(t, rbuf_str(&cell));
    rbuf_clear(&cell);
    if (cheap)
        cost_text(d, cheap, &cell);
    else
        site_fmt(&cell, NAN);
    md_table_text(t, rbuf_str(&cell));
    rbuf_clear(&cell), rbuf_printf(&cell, "%zu", n), md_table_text(t, rbuf_str(&cell));
    for (size_t i = 0; i < n; i++) {
        const site_option *o = &d->options[r[i].option];
        const char *cur = d->clusters[o->cluster].info->currency;
        site_csv_text(csv, o->problem_label);
        rbuf_putc(csv, ',');
        site_csv_text(csv, d->clusters[o->cluster].info->name);
        double v[] = {o->np, o->time_s, o->core_hours, o->cost};
        for (size_t k = 0; k < 4; k++)
            rbuf_putc(csv, ','), site_csv_num(csv, v[k]);
        rbuf_putc(csv, ',');
        site_csv_text(csv, cur ? cur : "units");
        rbuf_printf(csv, ",%d,%d\n", o == fast, o == cheap);
    }
    rbuf_free(&cell);
}

static bool scenario1(site_ctx *c)
{
    const site_data *d = c->data;
    rbuf md, csv;
    rbuf_init(&md), rbuf_init(&csv);
    breadcrumb(&md, "Scenario 1");
    md_heading(&md, 1, "Scenario 1: the fastest option");
    md_text(&md, "A problem of a given size must be solved, and some processors are free on "
                 "each cluster. For every problem the archive has predictions for, this table "
                 "gives the option (cluster and number of processes) predicted to finish first "
                 "and the one predicted to cost least, with the predicted time in seconds and "
                 "the cost in the cluster's currency (processes \xC3\x97 time / 3600 \xC3\x97 "
                 "rate per core-hour). Splitting one job over two clusters (seed 000's "
                 "multi-cluster estimate) appears here once the multicluster model and ");
    md_code(&md, "perfcast advise", false);
    md_text(&md, " are available.");
    md_end_paragraph(&md);
    rbuf_puts(&csv, "problem,cluster,np,time_s,core_hours,cost,currency,fastest,cheapest\n");
    ranked *r = malloc((d->noptions + 1) * sizeof *r);
    bool ok = r != NULL;
    for (size_t i = 0; ok && i < d->noptions; i++)
        r[i] = (ranked){d->options[i].problem, d->options[i].time_s, i};
    if (ok && d->noptions == 0) {
        md_text(&md, "No experiment has predictions yet.");
        md_end_paragraph(&md);
    } else if (ok) {
        qsort(r, d->noptions, sizeof *r, compare_ranked);
        static const char *const head[] = {"problem", "fastest option", "time (s)", "cost",
                                           "cheapest option", "time (s)", "cost", "options"};
        md_table t;
        md_table_begin(&t, &md, 8, head, "llrrlrrr");
        for (size_t first = 0, i = 1; i <= d->noptions; i++)
            if (i == d->noptions || strcmp(r[i].problem, r[first].problem) != 0) {
                problem_row(d, r + first, i - first, &t, &csv);
                first = i;
            }
        md_table_end(&t);
    }
    site_md_data_link(&md, "scenario-1.csv");
    ok = ok && site_file(c, "advice/scenario-1.csv", &csv) &&
         site_page(c, "advice/scenario-1", "Scenario 1: the fastest option", &md);
    free(r);
    rbuf_free(&md), rbuf_free(&csv);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Scenario 2                                                          */

static bool scenario2(site_ctx *c)
{
    const site_data *d = c->data;
    rbuf md, csv, cell;
    rbuf_init(&md), rbuf_init(&csv), rbuf_init(&cell);
    breadcrumb(&md, "Scenario 2");
    md_heading(&md, 1, "Scenario 2: more resolution, at what cost");
    md_text(&md, "Two resources are free at once. Using both together gives the memory of "
                 "both, hence a finer mesh, at a price: seed 000 finds the largest N \xC3\x97 N "
                 "mesh whose rows fit the memory per core of each cluster and predicts its time "
                 "and cost against the largest mesh one cluster alone can hold.");
    md_end_paragraph(&md);
    md_strong(&md, "Not yet available:");
    md_text(&md, " the largest-mesh search and the split of rows between two clusters come "
                 "with ");
    md_code(&md, "perfcast advise", false);
    md_text(&md, " and the multicluster model, which this build does not have yet. The memory "
                 "the scenario works from is below.");
    md_end_paragraph(&md);
    static const char *const head[] = {"cluster", "nodes", "cores per node",
                                       "memory per core (GB)", "total memory (GB)"};
    md_table t;
    md_table_begin(&t, &md, 5, head, "lrrrr");
    rbuf_puts(&csv, "cluster,nodes,cores_per_node,mem_per_core_gb,total_mem_gb\n");
    for (size_t i = 0; i < d->nclusters; i++) {
        const cluster_info *ci = d->clusters[i].info;
        double total = ci->nodes * ci->cores_per_node * ci->mem_per_core_gb;
        rbuf_clear(&cell);
        rbuf url;
        rbuf_init(&url);
        rbuf_printf(&url, "../clusters/%s/index.md", d->clusters[i].slug);
        md_link(&cell, ci->name, rbuf_str(&url));
        rbuf_free(&url);
        md_table_markdown(&t, rbuf_str(&cell));
        double v[] = {ci->nodes, ci->cores_per_node, ci->mem_per_core_gb, total};
        site_csv_text(&csv, ci->name);
        for (size_t k = 0; k < 4; k++) {
            rbuf_clear(&cell), site_fmt(&cell, v[k]), md_table_text(&t, rbuf_str(&cell));
            rbuf_putc(&csv, ','), site_csv_num(&csv, v[k]);
        }
        rbuf_putc(&csv, '\n');
    }
    md_table_end(&t);
    site_md_data_link(&md, "scenario-2.csv");
    bool ok = site_file(c, "advice/scenario-2.csv", &csv) &&
              site_page(c, "advice/scenario-2", "Scenario 2: more resolution", &md);
    rbuf_free(&md), rbuf_free(&csv), rbuf_free(&cell);
    return ok;
}

bool site_write_advice(site_ctx *c)
{
    return overview(c) && scenario1(c) && scenario2(c);
}
