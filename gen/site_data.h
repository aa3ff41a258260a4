/*
 * site_data.h — everything the site shows, computed once before any page
 * is written: the archive, every experiment's result, the cost of every
 * prediction on its cluster, and the alerts (measured runs outside their
 * prediction interval). The page writers (gen/site_pages.h) only read it.
 *
 * Ownership: site_data_load fills a site_data that site_data_free
 * releases; every pointer inside belongs to it (strings of the archive
 * are borrowed from its archive).
 */
#ifndef PERFCAST_SITE_DATA_H
#define PERFCAST_SITE_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/archive.h"
#include "gen/compare.h"
#include "gen/diag.h"
#include "gen/experiment.h"
#include "gen/site_scenarios.h"
#include "gen/verdict.h"
#include "models/costing.h"
#include "render/buf.h"
#include "render/ticks.h"

typedef struct {
    const experiment_info *info;
    experiment_result res;  /* experiment_run's result, ok or not */
    char *anchor;           /* id of its heading on the campaign page */
    size_t *shown;          /* identifying columns that tell its configurations
                               apart (cluster and np always), in table order */
    size_t nshown;
    bool *varies;           /* per shown column: does its value differ between rows */
    int x_col;              /* the x of "time vs processors": np when it varies,
                               else the first varying numeric column; -1 none */
    axis_scale x_scale;     /* SCALE_LOG2 for process counts */
    verdict verdict;        /* how far its predictions can be trusted */
    compare_result compare; /* every model that applies on its split (no term search) */
} site_experiment;

typedef struct {
    const campaign *camp;   /* NULL when the campaign was skipped */
    const char *name;
    char *slug;             /* folder name on the site */
    char last_date[11];     /* newest run date, "" when none */
    size_t nmeasured;       /* measured runs */
    site_experiment *exps;
    size_t nexps;
    char **problems;        /* "runs.csv:3:4: message", relative to the campaign */
    size_t nproblems;
    verdict verdict;        /* worst of its verified experiments' (gen/verdict.h) */
    compare_result compare; /* its experiments' comparisons pooled, with the best model */
} site_campaign;

typedef struct {
    const cluster_info *info;
    char *slug;
} site_cluster;

/* A prediction on one cluster with what it costs there. */
typedef struct {
    size_t camp, exp, target; /* which prediction */
    size_t cluster;           /* index into clusters */
    double np, time_s;
    double core_hours;        /* np * time / 3600 */
    double cost;              /* core_hours * rate; NAN when the rate is unknown */
    char *config;             /* its configuration without the cluster */
    char *job;                /* key of "the same job": campaign and every
                                 identifying value except the cluster */
    char *problem;            /* the job without its processes: campaign and every
                                 identifying value except cluster and process counts */
    char *problem_label;      /* "campaign: N=8000" for people */
    size_t same_first;        /* the options of the same job are */
    size_t same_count;        /* by_job[same_first .. same_first + same_count) */
} site_option;

/* A measured run outside the 95% prediction interval of its target. */
typedef struct {
    size_t camp, exp, target;
    size_t row;               /* row of the campaign's runs.csv table */
    double measured;
} site_alert;

/* A run whose paper printed a prediction for it (published_prediction_s),
 * costed (models/costing.h) for its measured and its predicted time. A
 * multi-cluster run (tag_layout "multicluster") has np_a processes on
 * cluster and np_b on cluster_b; its cost is the sum of the two sides. */
typedef struct {
    size_t camp, row;         /* which run: campaign and row of its runs.csv */
    size_t cluster;           /* the cluster (the A side of a multi-cluster run) */
    int cluster_b;            /* the B side, -1 for a run on one cluster */
    double measured;          /* time_s, NAN when not measured */
    double predicted;         /* published_prediction_s */
    double error_pct;         /* 100*(predicted-measured)/measured, NAN unmeasured */
    costing_result at_measured, at_predicted; /* core-hours and cost of each time */
    char *config;             /* its identifying columns, as the cost tables show them */
} site_published;

typedef struct {
    archive arch;
    diag_list diags;
    char **problems;          /* archive-level problems (clusters.csv, ...) */
    size_t nproblems;
    site_campaign *camps;     /* loaded and skipped campaigns, by name */
    size_t ncamps;
    site_cluster *clusters;   /* clusters.csv order */
    size_t nclusters;
    site_option *options;
    size_t noptions;
    size_t *by_job;           /* option indices sorted by job, then cluster */
    site_alert *alerts;
    size_t nalerts;
    site_published *published; /* campaigns by name, then runs.csv order */
    size_t npublished;
    site_scenarios scenarios; /* advice.csv, evaluated */
    char last_date[11];       /* newest run date of the archive, "" when none */
    char build_date[11];      /* SOURCE_DATE_EPOCH as a date, "" when unset */
} site_data;

/* How an experiment is run: experiment_run (gen/experiment.h) unless a
 * caller (a test) supplies its own. Must always fill res. */
typedef bool (*site_fit_fn)(void *ctx, const archive *a, const campaign *c,
                            const experiment_info *e, experiment_result *res);

/* Load the archive and run every experiment with fit (NULL = experiment_run).
 * Returns false with a reason in err only when nothing can be shown (no
 * archive, out of memory); problems with single campaigns are kept in the
 * data and shown. site_data_free must be called in every case. */
bool site_data_load(site_data *d, const char *archive_dir, long long source_date_epoch,
                    site_fit_fn fit, void *fit_ctx, char *err, size_t errlen);

void site_data_free(site_data *d);

/* The summed response of a row of the experiment's campaign, NAN when a
 * component is missing. */
double site_response(const site_experiment *e, size_t row);

/* The identifying columns of c->runs to show for rows[0..n): cluster and
 * the process count (campaign_procs) always (when some row has them), and
 * every other identifying column whose value differs between the rows;
 * varies says which differ. Both arrays are the caller's to free (also
 * when false: out of memory). */
bool site_shown_columns(const campaign *c, const size_t *rows, size_t n, size_t **shown,
                        bool **varies, size_t *nshown);

/* "name=value, ..." of the columns cols of row (the cluster as its bare
 * name, and only with_cluster; leaving out the column skip, -1 = none;
 * missing cells left out). */
void site_columns_label(const table *t, const size_t *cols, size_t ncols, size_t row,
                        bool with_cluster, int skip, rbuf *out);

/* Fill d->published from every loaded campaign's runs (gen/site_published.c).
 * False only when out of memory. */
bool site_published_load(site_data *d);

/* "name=value, ..." of the experiment's shown columns for a row,
 * leaving out the cluster and/or the column skip (-1 = none). */
void site_config_label(const site_experiment *e, size_t row, bool with_cluster, int skip,
                       rbuf *out);

/* The series of a row on a chart against x: the shown columns that vary,
 * without x itself and, when x counts processes, without the other
 * process counts (P, Q of an np follow from it); "all runs" when none. */
void site_series_label(const site_experiment *e, size_t row, rbuf *out);

/* One cell's value as text ("8000", "wrg3-myrinet"); "" when missing. */
void site_cell_text(const table *t, size_t row, size_t col, rbuf *out);

/* Whether a column of c counts processes (its process count, campaign_procs,
 * or npa, npb, nodes, ppn, P, Q, and np_a, np_b: the processes on each side
 * of a multi-cluster job): such an x axis is drawn in powers of two. */
bool site_is_process_count(const campaign *c, const char *column);

/* The index of the site cluster called name, or -1. */
int site_cluster_index(const site_data *d, const char *name);

#endif
