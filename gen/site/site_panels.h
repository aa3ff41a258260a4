/*
 * site_panels.h — small multiples: the series of a chart against x split
 * into panels so that no panel needs more than a handful of legend
 * entries (the palette has 8 colours; a legend of 30 is unreadable).
 *
 * Method: when the items (run groups, curve points; each a runs row and a
 * series label) hold more than max_series distinct series, one of the
 * experiment's varying shown columns other than x (and other than process
 * counts when x counts processes, as site_series_label) becomes the panel
 * column: the cluster when it varies, else the column with the fewest
 * distinct panel keys (at least 2; ties go to the later column, usually
 * the derived one such as work_mb). A numeric cell's key is its value to
 * two significant digits, so levels measured with noise (work_mb 16.1573
 * and 16.1729) share a panel. A panel that still holds more than
 * max_series series is cut into parts in order of first appearance. The
 * panels come in order of first appearance of their key.
 *
 * Ownership: site_panels_split fills a site_panels that site_panels_free
 * releases (also after a failure).
 */
#ifndef PERFCAST_SITE_PANELS_H
#define PERFCAST_SITE_PANELS_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/site/site_data.h"

typedef struct {
    size_t *of;    /* the panel of each item */
    char **titles; /* per panel: "work_mb ≈ 32", "cluster = wrg3 (2 of 2)"; "" for one panel */
    size_t n;      /* panels, at least 1 */
} site_panels;

/* Split nitems items (rows[i], series[i]) of e. False only when out of memory. */
bool site_panels_split(const site_experiment *e, const size_t *rows, char *const *series,
                       size_t nitems, size_t max_series, site_panels *out);

void site_panels_free(site_panels *p);

#endif
