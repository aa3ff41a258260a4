/*
 * run_layout.c — processes per node of a run and oversubscription (see
 * run_layout.h for the rule).
 */
#include "gen/ingest/run_layout.h"

#include <math.h>

#include "gen/base/words.h"

static const cluster_info *cluster_of(const archive *a, const campaign *c, size_t row)
{
    const char *name = table_text_named(&c->runs, row, "cluster");
    return a && name ? archive_cluster(a, name) : NULL;
}

double run_processes_per_node(const archive *a, const campaign *c, size_t row)
{
    double ppn = table_number_named(&c->runs, row, "ppn");
    if (ppn > 0)
        return ppn;
    double np = table_number_named(&c->runs, row, campaign_procs(c));
    double nodes = table_number_named(&c->runs, row, "nodes");
    if (np > 0 && nodes > 0)
        return np / nodes;
    const cluster_info *ci = cluster_of(a, c, row);
    if (np > 0 && ci && ci->nodes == 1)
        return np;
    return NAN;
}

/* A note is free text: "oversubscribed: 4 processes on 2 cores",
 * "Oversubscribed". */
static bool note_says_oversubscribed(const char *note)
{
    return words_text_contains(note, "oversubscribed");
}

bool run_oversubscribed(const archive *a, const campaign *c, size_t row, double *ppn,
                        double *cores)
{
    const cluster_info *ci = cluster_of(a, c, row);
    double p = run_processes_per_node(a, c, row);
    double k = ci ? ci->cores_per_node : NAN;
    if (ppn)
        *ppn = p;
    if (cores)
        *cores = k;
    return p > k /* false when either is NAN */ ||
           note_says_oversubscribed(table_text_named(&c->runs, row, "note"));
}

double run_nodes(const archive *a, const campaign *c, size_t row)
{
    double ppn = run_processes_per_node(a, c, row);
    double np = table_number_named(&c->runs, row, campaign_procs(c));
    return ppn > 0 && np > 0 ? np / ppn : NAN;
}

bool run_topology(const archive *a, const campaign *c, size_t row, topology *out)
{
    return cluster_topology(a, cluster_of(a, c, row), out);
}

/* The row of clusters.csv that ci was read from; -1 when none. */
static long cluster_row(const archive *a, const cluster_info *ci)
{
    for (size_t r = 0; a && ci && r < a->cluster_table.nrows; r++)
        if (a->cluster_table.line[r] == ci->line)
            return (long)r;
    return -1;
}

bool cluster_topology(const archive *a, const cluster_info *ci, topology *out)
{
    long r = cluster_row(a, ci);
    char err[200];
    if (r >= 0)
        return topology_parse(table_text_named(&a->cluster_table, (size_t)r, "sim_topology"),
                              table_text_named(&a->cluster_table, (size_t)r,
                                               "sim_topo_parameters"),
                              out, err, sizeof err) &&
               topology_described(out);
    topology_parse(NULL, NULL, out, err, sizeof err);
    return false;
}

bool cluster_latency(const archive *a, const cluster_info *ci, topology_latency *out)
{
    long r = cluster_row(a, ci);
    double us = 1e-6;
    out->link_s = r >= 0 ? us * table_number_named(&a->cluster_table, (size_t)r,
                                                   "sim_link_lat_us") : NAN;
    out->backbone_s = r >= 0 ? us * table_number_named(&a->cluster_table, (size_t)r,
                                                       "sim_backbone_lat_us") : NAN;
    return out->link_s >= 0;
}
