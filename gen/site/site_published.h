/*
 * site_published.h — the runs for which a paper printed a prediction
 * (published_prediction_s), with the cost of the measured and of the
 * predicted time on their cluster(s), for the cluster pages. Campaigns
 * such as rj-strip hold only such pairs and no experiment, so this is the
 * only cost their clusters' pages can show.
 *
 * Ownership: site_published_collect fills an array the caller releases
 * with site_published_free (also after a failed collect); it borrows the
 * campaigns and the archive, which must outlive it.
 */
#ifndef PERFCAST_SITE_PUBLISHED_H
#define PERFCAST_SITE_PUBLISHED_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/ingest/archive.h"
#include "models/costing.h"

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
    double pi_low, pi_high;   /* 95% interval of the prediction from the paper's
                                 other printed predictions (site_published_interval);
                                 NAN when there are too few */
    costing_result at_measured, at_predicted; /* core-hours and cost of each time */
    char *config;             /* its identifying columns, as the cost tables show them */
} site_published;

/* The published runs of camps[0..ncamps) (NULL entries are skipped
 * campaigns; camp in each result is the index into camps), campaigns in
 * that order, then runs.csv order; cluster indices are into a->clusters.
 * False only when out of memory. */
bool site_published_collect(const archive *a, const campaign *const *camps, size_t ncamps,
                            site_published **out, size_t *n);

void site_published_free(site_published *p, size_t n);

/* The 95% interval of a prediction `predicted` that campaign c's paper
 * printed for runs row `row`, from how the paper's other printed
 * predictions in c compared with their measured times
 * (models/ratio_interval.h; the row itself is left out, so its own
 * measurement never calibrates it). *n receives the number of other
 * predictions used. False, with NAN bounds, when fewer than 3 have a
 * measured time or out of memory. */
bool site_published_interval(const campaign *c, size_t row, double predicted, double *low,
                             double *high, size_t *n);

#endif
