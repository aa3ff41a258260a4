/*
 * node_contention.h — the contention law (models/contention.h) of one
 * cluster under an experiment's `contention` option, and the one line
 * each fit prints about it: what the law is, or why it is off.
 *
 * The law needs two clusters.csv columns: mbw_core_gbs (one core alone)
 * and mbw_read_gbs (the whole node). Where either is empty the law is off
 * and the line names the missing column; that is a diagnostic under the
 * default (AUTO) and a warning when the experiment asked for roofline.
 * No bandwidth is ever guessed.
 *
 * Ownership: nothing is allocated; lines go into caller buffers.
 */
#ifndef PERFCAST_NODE_CONTENTION_H
#define PERFCAST_NODE_CONTENTION_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/fit/rjopts.h"
#include "gen/ingest/archive.h"
#include "models/contention.h"
#include "models/report.h"

typedef struct {
    contention_law law;
    char line[400];   /* "contention law (roofline) for cluster ...", or why it is off */
    bool warning;     /* the line is a warning (roofline asked, not available) */
} node_contention;

/* The law for `cluster` of archive a under mode (a unknown cluster has no
 * bandwidths: off). */
node_contention node_contention_of(const archive *a, const char *cluster,
                                   rjopts_contention_mode mode);

/* Add its line to r, prefixed, as a diagnostic or a warning. False only
 * when out of memory. */
bool node_contention_report(report *r, const char *prefix, const node_contention *nc);

#endif
