/*
 * run_layout.h — how a run sits on its cluster's nodes: its processes per
 * node and whether that is more than a node has cores (oversubscribed),
 * the one condition that explains a slow run without any regression of
 * the code or the cluster. The one rule for it; the verdicts, the
 * multicore model's notes, the site's cost tables and the alerts page's
 * labels all ask here.
 *
 * Processes per node, first that applies: the run's `ppn` column; its
 * process count over its `nodes` column; its process count when the
 * cluster has one node (every process is on it). Otherwise unknown.
 *
 * Nodes a run spans: its process count over its processes per node. Its
 * network level (issue 23): models/topology.h's level of that many nodes
 * on its cluster's `sim_topology` / `sim_topo_parameters`.
 *
 * Ownership: nothing is allocated; the results are plain numbers.
 */
#ifndef PERFCAST_RUN_LAYOUT_H
#define PERFCAST_RUN_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/ingest/archive.h"
#include "models/topology.h"

/* Processes per node of runs row `row` of campaign c (a may be NULL: then
 * a one-node cluster is not known); NAN when it cannot be told. */
double run_processes_per_node(const archive *a, const campaign *c, size_t row);

/* Whether that run is known to be oversubscribed: it puts more processes
 * on a node than the node has cores, or its `note` says "oversubscribed"
 * (any case; a run recorded on a machine the archive describes loosely).
 * ppn and cores (either may be NULL) receive the two numbers, NAN when
 * unknown; an unknown side alone never makes a run oversubscribed. */
bool run_oversubscribed(const archive *a, const campaign *c, size_t row, double *ppn,
                        double *cores);

/* Nodes the run spans; NAN when its processes per node are unknown. */
double run_nodes(const archive *a, const campaign *c, size_t row);

/* The network of cluster ci (NULL: flat); false (and *out flat) when it
 * describes none or its description does not parse. */
bool cluster_topology(const archive *a, const cluster_info *ci, topology *out);

/* The link latencies SimGrid charges on cluster ci (clusters.csv
 * `sim_link_lat_us`, `sim_backbone_lat_us`, in seconds; NAN when absent);
 * false when the node link's is unknown (not a simulated cluster). */
bool cluster_latency(const archive *a, const cluster_info *ci, topology_latency *out);

/* The network of the run's cluster; false (and *out flat) when the
 * cluster is unknown, describes none, or its description does not parse
 * (mgbench/smpi_platform refuses such a cluster before any run). */
bool run_topology(const archive *a, const campaign *c, size_t row, topology *out);

#endif
