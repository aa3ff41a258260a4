/*
 * site_published.c — see site_published.h.
 */
#include "gen/site/site_published.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/site/site_columns.h"
#include "models/ratio_interval.h"

static bool has_prediction(const table *t, size_t row)
{
    double p = table_number_named(t, row, "published_prediction_s");
    return isfinite(p) && p > 0;
}

/* The rows of t with a published prediction; NULL only when out of memory. */
static size_t *published_rows(const table *t, size_t *n)
{
    size_t *rows = malloc((t->nrows ? t->nrows : 1) * sizeof *rows);
    *n = 0;
    for (size_t r = 0; rows && r < t->nrows; r++)
        if (has_prediction(t, r))
            rows[(*n)++] = r;
    return rows;
}

static costing_cluster rates_of(const cluster_info *ci)
{
    return (costing_cluster){ci->name, ci->mem_per_core_gb, ci->rate_per_core_hour,
                             ci->currency};
}

/* What collecting needs: the archive, the campaigns and the list so far. */
typedef struct {
    const archive *a;
    const campaign *const *camps;
    site_published *runs;
    size_t n;
} collector;

/* The index of the cluster called name in a->clusters, or -1. */
static int cluster_index(const archive *a, const char *name)
{
    for (size_t i = 0; name && i < a->nclusters; i++)
        if (strcmp(a->clusters[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Core-hours and cost of both times: one side (np on the cluster), or two
 * for a multi-cluster run (np_a on the cluster, np_b on cluster_b). A time
 * or process count that is missing leaves NAN (costing_evaluate's result). */
static void cost_both(const collector *k, const table *t, site_published *p)
{
    costing_cluster a = rates_of(&k->a->clusters[p->cluster]), b = a;
    costing_side sides[2] = {{&a, table_number_named(t, p->row, campaign_procs(k->camps[p->camp])), NAN},
                             {&b, NAN, NAN}};
    size_t nsides = 1;
    if (p->cluster_b >= 0) {
        b = rates_of(&k->a->clusters[p->cluster_b]);
        sides[0].np = table_number_named(t, p->row, "np_a");
        sides[1].np = table_number_named(t, p->row, "np_b");
        nsides = 2;
    }
    costing_evaluate(sides, nsides, p->measured, &p->at_measured);
    costing_evaluate(sides, nsides, p->predicted, &p->at_predicted);
}

static bool add_run(collector *k, size_t camp, const size_t *shown, size_t nshown, size_t row)
{
    const table *t = &k->camps[camp]->runs;
    int cl = cluster_index(k->a, table_text_named(t, row, "cluster"));
    if (cl < 0)
        return true; /* the archive already reported the unknown cluster */
    const char *layout = table_text_named(t, row, "tag_layout");
    bool multi = layout && strcmp(layout, "multicluster") == 0;
    site_published p = {.camp = camp, .row = row, .cluster = (size_t)cl, .cluster_b = -1,
                        .measured = table_number_named(t, row, "time_s"),
                        .predicted = table_number_named(t, row, "published_prediction_s")};
    if (multi)
        p.cluster_b = cluster_index(k->a, table_text_named(t, row, "tag_cluster_b"));
    p.error_pct = 100 * (p.predicted - p.measured) / p.measured;
    size_t others;
    site_published_interval(k->camps[camp], row, p.predicted, &p.pi_low, &p.pi_high, &others);
    cost_both(k, t, &p);
    rbuf label;
    rbuf_init(&label);
    site_columns_label(t, shown, nshown, row, multi, -1, &label);
    bool oom = label.oom;
    p.config = rbuf_take(&label);
    if (!p.config && !oom)
        p.config = strdup("");
    site_published *more = p.config ? realloc(k->runs, (k->n + 1) * sizeof *more) : NULL;
    if (!more) {
        free(p.config);
        return false;
    }
    k->runs = more;
    k->runs[k->n++] = p;
    return true;
}

/* The campaign's published runs, labelled by the identifying columns that
 * tell them apart. */
static bool add_campaign(collector *k, size_t camp)
{
    const table *t = &k->camps[camp]->runs;
    size_t n, nshown = 0, *shown = NULL;
    bool *varies = NULL;
    size_t *rows = published_rows(t, &n);
    bool ok = rows && site_shown_columns(k->camps[camp], rows, n, &shown, &varies, &nshown);
    for (size_t i = 0; ok && i < n; i++)
        ok = add_run(k, camp, shown, nshown, rows[i]);
    free(rows), free(shown), free(varies);
    return ok;
}

bool site_published_collect(const archive *a, const campaign *const *camps, size_t ncamps,
                            site_published **out, size_t *n)
{
    collector k = {.a = a, .camps = camps};
    bool ok = true;
    for (size_t c = 0; ok && c < ncamps; c++)
        ok = !camps[c] || add_campaign(&k, c);
    *out = k.runs;
    *n = k.n;
    return ok;
}

void site_published_free(site_published *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(p[i].config);
    free(p);
}

bool site_published_interval(const campaign *c, size_t row, double predicted, double *low,
                             double *high, size_t *n)
{
    const table *t = &c->runs;
    double *m = malloc((t->nrows + 1) * sizeof *m), *p = malloc((t->nrows + 1) * sizeof *p);
    *n = 0;
    for (size_t r = 0; m && p && r < t->nrows; r++) {
        double pub = table_number_named(t, r, "published_prediction_s");
        double meas = table_number_named(t, r, "time_s");
        if (r == row || !(pub > 0) || !(meas > 0) || !isfinite(pub) || !isfinite(meas))
            continue;
        m[*n] = meas, p[*n] = pub, (*n)++;
    }
    ratio_interval_result ri;
    bool ok = m && p && ratio_interval(m, p, *n, &ri) == RATIO_INTERVAL_OK;
    *low = ok ? predicted * ri.low : NAN;
    *high = ok ? predicted * ri.high : NAN;
    free(m), free(p);
    return ok;
}
