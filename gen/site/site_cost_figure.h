/*
 * site_cost_figure.h — a cluster's cost-vs-time chart, as data: every
 * predicted job on the cluster as a point (its predicted time, its cost,
 * or its core-hours when the cluster has no rate), with the chart's title
 * and axis label. The cluster page draws it to SVG and PNG, the printable
 * report to its PDF page, from the same points.
 *
 * Ownership: site_cost_figure_make fills a site_cost_figure that
 * site_cost_figure_free releases (also after a failed make); its job
 * points into it.
 */
#ifndef PERFCAST_SITE_COST_FIGURE_H
#define PERFCAST_SITE_COST_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/site/site_pages.h"

typedef struct {
    site_cost_chart job;   /* what site_draw_cost draws */
    rbuf title, label;
    chart_cost_point *p;
} site_cost_figure;

/* The figure of cluster k; false when out of memory. */
bool site_cost_figure_make(const site_data *d, size_t k, site_cost_figure *f);
void site_cost_figure_free(site_cost_figure *f);

#endif
