/*
 * pair_link.h — the link between two clusters that a split job's messages
 * cross, decided in one place: the multi-cluster model's adapter
 * (gen/fit/model_multicluster.c, option link) and `perfcast advise`
 * (gen/advice/advise.c) both take it from here, so they cannot disagree.
 *
 * The rule (fixed before any campaign was measured with it, README.md
 * "Deviations from the papers"): measured by ping-pong (mgbench
 * --pingpong, rows kind = pingpong, campaign_measured_link) in the first of
 * the given campaigns that has rows for the pair, else the nominal path of
 * clusters.csv (archive_link_path: latency the sum of both clusters'
 * links, bandwidth the smaller). A rule may ask for one source only.
 *
 * Whether the link's two directions share its bandwidth
 * (models/multicluster.h, multicluster_link.shared) is decided here too,
 * by a rule fixed before it was measured: they do when the campaign
 * holding the ping-pong rows (without them, the job's campaign, when one
 * is given) ran wholly under SimGrid SMPI (runs.csv engine = smpi on every
 * row), whose platforms mgbench/smpi_platform writes with uplinks that
 * SimGrid shares between both directions; a real network is taken to be
 * full duplex.
 *
 * Both sources are reported when known, whichever is chosen: the
 * multi-cluster model's interval measures the link's model error by how
 * far the two disagree (models/multicluster.h, multicluster_interval).
 *
 * Ownership: nothing is allocated; campaign and cluster pointers are
 * borrowed. No I/O.
 */
#ifndef PERFCAST_PAIR_LINK_H
#define PERFCAST_PAIR_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/ingest/archive.h"

typedef enum {
    PAIR_LINK_AUTO = 0,  /* measured where a ping-pong row exists, else nominal */
    PAIR_LINK_MEASURED,  /* measured only */
    PAIR_LINK_NOMINAL,   /* clusters.csv only */
} pair_link_rule;

typedef enum {
    PAIR_LINK_CHOSEN_MEASURED = 0, /* bw/latency are the ping-pong's */
    PAIR_LINK_CHOSEN_NOMINAL,      /* bw/latency are clusters.csv's */
    PAIR_LINK_NO_PINGPONG,         /* rule MEASURED, and no campaign has a ping-pong row */
    PAIR_LINK_NO_NOMINAL,          /* nothing measured (or rule NOMINAL) and clusters.csv
                                      lacks a link column of either cluster */
} pair_link_status;

typedef struct {
    pair_link_status status;
    double bw_bytes_s, latency_s; /* the chosen link; NAN when none */
    bool has_measured;            /* a ping-pong row was found (whatever the rule) */
    measured_link measured;       /*   its link */
    const campaign *measured_in;  /*   and the campaign holding it */
    bool has_nominal;             /* clusters.csv gives both clusters' links */
    double nominal_bw_bytes_s, nominal_latency_s;
    bool shared;                  /* both directions share the bandwidth (the rule above) */
} pair_link;

/* The link between clusters a and b (either may be NULL: unknown to
 * clusters.csv) for a job of camps[0..ncamps) (searched in order for
 * ping-pong rows), by rule. Fills out completely; returns whether a link
 * was chosen (status CHOSEN_*). */
bool archive_pair_link(const campaign *camps, size_t ncamps, const cluster_info *a,
                       const cluster_info *b, const char *a_name, const char *b_name,
                       pair_link_rule rule, pair_link *out);

/* The ping-pong repetitions' noise for one message of `bytes`: the sample
 * standard deviation of log(lat_i + bytes / bw_i) over the rows of l's
 * measuring campaign between a and b; *n gets their number. NAN when l
 * measured nothing or from fewer than two rows. */
double pair_link_spread_log(const pair_link *l, const char *a, const char *b, double bytes,
                            size_t *n);

/* Why no link was chosen, in words (static text); "" when one was. */
const char *pair_link_missing_text(pair_link_status status);

#endif
