/*
 * site_cost_figure.c — a cluster's cost-vs-time chart as data
 * (site_cost_figure.h).
 */
#include "gen/site/site_cost_figure.h"

#include <math.h>
#include <stdlib.h>

bool site_cost_figure_make(const site_data *d, size_t k, site_cost_figure *f)
{
    const cluster_info *ci = d->clusters[k].info;
    bool have_rate = isfinite(ci->rate_per_core_hour);
    rbuf_init(&f->title), rbuf_init(&f->label);
    f->p = malloc((d->noptions + 1) * sizeof *f->p);
    f->job = (site_cost_chart){0};
    if (!f->p)
        return false;
    size_t n = 0;
    for (size_t i = 0; i < d->noptions; i++) {
        const site_option *o = &d->options[i];
        if (o->cluster == k)
            f->p[n++] = (chart_cost_point){o->problem_label, o->time_s,
                                           have_rate ? o->cost : o->core_hours};
    }
    rbuf_printf(&f->title, "Cost vs time on %s", ci->name);
    if (have_rate)
        rbuf_printf(&f->label, "cost (%s)", ci->currency ? ci->currency : "units");
    else
        rbuf_puts(&f->label, "core-hours (no rate known)");
    f->job = (site_cost_chart){rbuf_str(&f->title), rbuf_str(&f->label), f->p, n};
    return !f->title.oom && !f->label.oom;
}

void site_cost_figure_free(site_cost_figure *f)
{
    free(f->p);
    f->p = NULL;
    rbuf_free(&f->title), rbuf_free(&f->label);
}
