/*
 * run_conditions.h — what is known about a run besides its time: whether it
 * was oversubscribed (more processes on a node than the node has cores),
 * the one condition that explains a slow run without any regression of
 * the code or the cluster. The verdict counts such runs; the alerts page
 * labels the alerts they raise.
 *
 * Pure: reads the archive, allocates nothing.
 */
#ifndef PERFCAST_RUN_CONDITIONS_H
#define PERFCAST_RUN_CONDITIONS_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/ingest/archive.h"

/* Processes per node of row of c's runs: its ppn, else its process count
 * over its nodes, else its process count on a cluster of one node; NAN
 * when the run does not say. */
double run_processes_per_node(const archive *a, const campaign *c, size_t row);

/* Whether the run is known to be oversubscribed: its `note` says
 * "oversubscribed" (any case), or its processes per node exceed its
 * cluster's cores_per_node (clusters.csv). */
bool run_oversubscribed(const archive *a, const campaign *c, size_t row);

#endif
