/*
 * archive.h — reads a benchmark archive folder into typed tables.
 *
 *   DIR/clusters.csv              one row per resource (cluster)
 *   DIR/<campaign>/runs.csv       one row per run; empty time_s = target
 *   DIR/<campaign>/experiments.csv one row per fitted experiment
 *   DIR/<campaign>/README.md      the campaign's own description
 *
 * archive/README.md documents every column. Problems are recorded in a
 * diag_list as FILE:LINE:COL: message; a campaign with any problem is kept
 * out of `campaigns` (listed in `skipped`) and the others load normally,
 * except a problem in a row of experiments.csv: that experiment gets its
 * `problem` (and is not to be run), the campaign loads with the others.
 *
 * Ownership: archive_load fills an archive the caller releases with
 * archive_free; every pointer inside belongs to the archive.
 */
#ifndef PERFCAST_ARCHIVE_H
#define PERFCAST_ARCHIVE_H

#include <stdbool.h>
#include "gen/base/diag.h"
#include "gen/ingest/experiment_info.h"
#include "models/table.h"

/* One row of clusters.csv. Numbers are NAN when the cell is empty. */
typedef struct {
    char *name;                /* `cluster`, required, unique */
    char *description;         /* may be NULL */
    double nodes;
    double cores_per_node;
    double mem_per_core_gb;
    char *interconnect;        /* may be NULL */
    double rate_per_core_hour; /* cost units per core-hour */
    char *currency;            /* may be NULL: "units" is shown then */
    double mbw_read_gbs;       /* memory read bandwidth of a node, GB/s */
    double mbw_write_gbs;
    double mbw_core_gbs;       /* memory bandwidth of one core streaming alone, GB/s */
    double net_bw_gbs;
    double platform_contribution;
    double link_bw_gbs;        /* the cluster's link to other clusters: link_bw_gbs, */
    double link_lat_us;        /*   link_lat_us, else a simulated cluster's sim_uplink_* */
    long line;                 /* line in clusters.csv */
} cluster_info;

/* The path of a message from cluster a to cluster b: it crosses both
 * clusters' links to other clusters, so its latency is their sum and its
 * bandwidth the smaller (bytes/s, seconds). False, with both NAN, when
 * either cluster's link bandwidth or latency is unknown. */
bool archive_link_path(const cluster_info *a, const cluster_info *b, double *bw_bytes_s,
                       double *latency_s);

/* One row of experiments.csv: experiment_info, in gen/ingest/experiment_info.h. */

typedef struct {
    char *name;        /* folder name */
    char *dir;         /* DIR/<name> */
    table runs;        /* all columns of runs.csv; see archive/README.md */
    experiment_info *experiments;
    size_t nexperiments;
    char *readme;      /* README.md text, NULL when absent */
    char *procs;       /* the process-count column (campaign.csv); NULL = np */
} campaign;

typedef struct {
    char *dir;
    cluster_info *clusters;
    size_t nclusters;
    table cluster_table;  /* clusters.csv as loaded, unknown columns included */
    campaign *campaigns;  /* sorted by name; only those without problems */
    size_t ncampaigns;
    char **skipped;       /* names of campaigns left out because of problems */
    size_t nskipped;
} archive;

/* Load DIR. Returns false only when nothing could be loaded at all
 * (DIR unreadable, clusters.csv unusable); problems are added to diags
 * either way. The archive must be freed with archive_free in every case. */
bool archive_load(const char *dir, archive *a, diag_list *diags);

/* archive_load with the campaigns read on up to jobs threads (each into
 * its own slot and list of problems, merged in the campaigns' order): the
 * archive, its problems and their order are the same whatever jobs is;
 * jobs < 2 reads them on the calling thread. */
bool archive_load_jobs(const char *dir, archive *a, diag_list *diags, int jobs);

void archive_free(archive *a);

/* Whether name is one of the files the archive's top folder holds for
 * itself (clusters.csv, advice.csv, acknowledgements.csv, README.md, in
 * any case: a case-blind file system makes Advice.csv the same file): a
 * campaign folder of that name hides the file and fails `perfcast check`,
 * so no campaign may take it. */
bool archive_is_reserved_name(const char *name);

/* Lookups; NULL when absent. */
const cluster_info *archive_cluster(const archive *a, const char *name);
const campaign *archive_campaign(const archive *a, const char *name);
const experiment_info *campaign_experiment(const campaign *c, const char *name);

/* A measured link between two clusters: the ping-pong rows of a campaign
 * (mgbench --pingpong; kind=pingpong, archive/README.md) between them, in
 * either order. Latency is the mean of the rows' link_lat_us, bandwidth
 * the inverse of the mean of their inverses (the mean cost per byte), so
 * the mean row's time = lat + bytes/bw is what they give. */
typedef struct {
    double bw_bytes_s;
    double latency_s;
    size_t rows;        /* ping-pong rows averaged */
    long line;          /* runs.csv line of the first */
} measured_link;

/* Whether row of a runs table is a ping-pong row (column kind = pingpong):
 * a measurement of a link, never a run any model fits or predicts. */
bool runs_row_is_pingpong(const table *runs, size_t row);

/* Whether row of a runs table joins clusters a and b (its cluster and
 * cluster_b, in either order). */
bool runs_row_joins(const table *runs, size_t row, const char *a, const char *b);

/* The measured link between clusters a and b in c's runs; false (out
 * zeroed) when c has no ping-pong row for the pair. */
bool campaign_measured_link(const campaign *c, const char *a, const char *b, measured_link *out);

/* The name of c's process-count column in c->runs: "np" unless the
 * campaign's campaign.csv names another (gen/ingest/campaign_settings.h). */
const char *campaign_procs(const campaign *c);

/* Flag as results (table_column.result) the columns of c->runs that an
 * experiment of c names as its response, whatever their names: they then
 * never tell one configuration from another. */
void campaign_mark_results(campaign *c);

#endif
