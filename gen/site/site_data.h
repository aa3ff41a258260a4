/*
 * site_data.h — everything the site shows, computed once before any page
 * is written: the archive, every experiment's result, the cost of every
 * prediction on its cluster, and the alerts (configurations measured outside
 * their prediction interval, with their acknowledgements). The page writers
 * (gen/site/site_pages.h) only read it.
 *
 * Ownership: site_data_load fills a site_data that site_data_free
 * releases; every pointer inside belongs to it (strings of the archive
 * are borrowed from its archive).
 */
#ifndef PERFCAST_SITE_DATA_H
#define PERFCAST_SITE_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/advice/advice_scenarios.h"
#include "gen/base/diag.h"
#include "gen/fit/compare.h"
#include "gen/fit/verdict.h"
#include "gen/ingest/acknowledgements.h"
#include "gen/ingest/archive.h"
#include "gen/ingest/experiment.h"
#include "gen/site/site_columns.h"
#include "gen/site/site_fitcache.h"
#include "gen/site/site_published.h"
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
    bool read_back;         /* res and compare were read back from the previous
                               build's cache of fits (site_fitcache.h), not fitted */
} site_experiment;

typedef struct {
    const campaign *camp;   /* NULL when the campaign was skipped */
    const char *name;
    char *slug;             /* folder name on the site */
    char last_date[11];     /* newest run date, "" when none */
    size_t nmeasured;       /* measured runs */
    site_experiment *exps;
    size_t nexps;
    size_t *job_cols;       /* identifying columns that differ between its runs
                               (cluster and np always), in table order: the one
                               naming of its jobs in cost tables, whichever
                               experiment predicts them */
    size_t njob_cols;
    char **problems;        /* "runs.csv:3:4: message", relative to the campaign */
    size_t nproblems;
    verdict verdict;        /* worst of its verified experiments' (gen/fit/verdict.h) */
    compare_result compare; /* its experiments' comparisons pooled, with the best model */
    uint64_t inputs_key;    /* site_fitcache_key: everything its fits and so its page are
                               made from; 0 when unknown (skipped, no fit cache) */
} site_campaign;

typedef struct {
    const cluster_info *info;
    char *slug;
    char last_date[11];     /* newest date of the runs on it (their cluster or
                               cluster_b), "" when none */
} site_cluster;

/* A prediction on one cluster with what it costs there. */
typedef struct {
    size_t camp, exp, target; /* which prediction */
    size_t cluster;           /* index into clusters */
    double np, time_s;
    double cal_low, cal_high; /* the calibrated 95% PI of time_s; NAN when absent */
    double ppn, cores;        /* processes per node and the node's cores, NAN when
                                 unknown (gen/ingest/run_layout.h) */
    bool oversubscribed;      /* ppn > cores: the time is that of a crowded node */
    double gain_stop_at;      /* where the runs this job extends stopped gaining
                                 (report_prediction's); 0 = they did not */
    const char *gain_stop_column; /* the runs' column of that value (the archive's
                                     text), NULL when gain_stop_at is 0 */
    double core_hours;        /* np * time / 3600 */
    double cost;              /* core_hours * rate; NAN when the rate is unknown */
    char *config;             /* its configuration without the cluster */
    char *job;                /* key of "the same job": campaign and every
                                 identifying value except the cluster */
    char *problem;            /* the job without its processes: campaign and every
                                 identifying value except cluster and process counts */
    char *problem_label;      /* "campaign: 4096² mesh" for people (site_columns_words) */
    char *job_label;          /* "campaign: 4×4 grid, 4096² mesh, 16 processes" */
    size_t same_first;        /* the options of the same job are */
    size_t same_count;        /* by_job[same_first .. same_first + same_count) */
} site_option;

/* The cost of option o's job if it took t seconds on the same processes
 * (cost is proportional to time there): its cost interval from its time
 * interval. NAN when the rate is unknown. */
double site_option_cost_at(const site_option *o, double t);

/* A configuration whose measured value (the mean of its measured runs, as
 * on its campaign page) lies outside the 95% prediction interval of an
 * experiment's prediction: the calibrated interval when the experiment
 * has one (gen/fit/calibration.h), else the model's own. */
typedef struct {
    size_t camp, exp, target;
    size_t row;               /* a row of the configuration in runs.csv */
    double measured;          /* mean of its measured runs */
    double estimate;
    double low, high;         /* the interval it lies outside */
    bool calibrated;          /* low, high: the calibrated PI (else the model's) */
    size_t runs_outside;      /* its measured runs outside [low, high] */
    size_t runs_measured;
    char newest[11];          /* newest date of its measured runs, "" when none */
    bool oversubscribed;      /* a run notes it, or puts more processes on a
                                 node than the cluster has cores */
    const acknowledgement *ack; /* the acknowledgement covering it; NULL: open */
} site_alert;

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
    size_t noptions, options_cap; /* options_cap: room in options (gen/base/growth.h) */
    size_t *by_job;           /* option indices sorted by job, then cluster */
    acknowledgements acks;    /* acknowledgements.csv */
    site_alert *alerts;       /* open and acknowledged, in prediction order */
    size_t nalerts;
    site_published *published; /* campaigns by name, then runs.csv order */
    size_t npublished;
    advice_scenarios scenarios; /* advice.csv, evaluated */
    char last_date[11];       /* newest run date of the archive, "" when none */
    char build_date[11];      /* SOURCE_DATE_EPOCH as a date, "" when unset */
    site_fitcache *fitcache;  /* the fits this build reused and made, for the next
                                 (gen/site/site_fitcache.h); NULL: fitted without */
} site_data;

/* How an experiment is run: experiment_run (gen/ingest/experiment.h) unless a
 * caller (a test) supplies its own. Must always fill res. */
typedef bool (*site_fit_fn)(void *ctx, const archive *a, const campaign *c,
                            const experiment_info *e, experiment_result *res);

/* Load the archive and run every experiment with fit (NULL = experiment_run).
 * Returns false with a reason in err only when nothing can be shown (no
 * archive, out of memory); problems with single campaigns are kept in the
 * data and shown. When the archive cannot be loaded, err refers to the
 * problems in d->diags ("the problem above"): the caller shows them first.
 * site_data_free must be called in every case. */
bool site_data_load(site_data *d, const char *archive_dir, long long source_date_epoch,
                    site_fit_fn fit, void *fit_ctx, char *err, size_t errlen);

/* site_data_load fitting through the cache of fits kept in previous_dir
 * (gen/site/site_fitcache.h): experiments whose inputs did not change are
 * read back, not refitted, and d->fitcache holds what the next build may
 * reuse (site_fitcache_save). previous_dir may be NULL or a folder that
 * does not exist yet (nothing is reused then). With refresh_pool the
 * pooled error model is filled again whatever the previous one. The
 * archive's campaigns are read on up to jobs threads (the data does not
 * depend on it: archive_load_jobs). */
bool site_data_load_reusing(site_data *d, const char *archive_dir, long long source_date_epoch,
                            const char *previous_dir, bool refresh_pool, int jobs, char *err,
                            size_t errlen);

void site_data_free(site_data *d);

/* The summed response of a row of the experiment's campaign, NAN when a
 * component is missing. */
double site_response(const site_experiment *e, size_t row);

/* "name=value, ..." of the experiment's shown columns for a row,
 * leaving out the cluster and/or the column skip (-1 = none). */
void site_config_label(const site_experiment *e, size_t row, bool with_cluster, int skip,
                       rbuf *out);

/* The row's configuration for people, cluster included
 * (site_columns_words over the experiment's shown columns): "4×4 grid,
 * 4096² mesh, 16 processes, 32.2 MB per process on dev-16core". Pages
 * use it; CSV files and keys keep site_config_label. */
void site_config_words(const site_experiment *e, size_t row, rbuf *out);

/* The series of a row on a chart against x: the shown columns that vary,
 * without x itself and, when x counts processes, without the other
 * process counts (P, Q of an np follow from it); "all runs" when none. */
void site_series_label(const site_experiment *e, size_t row, rbuf *out);

/* The index of the site cluster called name, or -1. */
int site_cluster_index(const site_data *d, const char *name);

#endif
