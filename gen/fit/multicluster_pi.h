/*
 * multicluster_pi.h — the multi-cluster model's own 95% interval for one
 * prediction, its parts' half-widths found as models/multicluster.h's
 * opening comment says, for the model's adapter
 * (gen/fit/model_multicluster.c) and `perfcast advise`'s splits
 * (gen/advice/advise.c), which must give the same interval:
 *   sides   width(ctx, "strip", d) at each side's distance d beyond its
 *           strip model's training runs (multicluster_side_distance): the
 *           pooled strip backtests (gen/fit/pooled_width.h);
 *   link    sqrt(noise^2 + form^2): noise = t(0.975, n-1) sd sqrt(1 + 1/n)
 *           of the n ping-pong rows' log line times for mgbench's largest
 *           halo row (pair_link_spread_log; 0 with fewer than two rows, and
 *           said so); form = log(T_link / T_link with s = 1) on a shared
 *           link (multicluster_link.shared: the two directions' overlap,
 *           none to whole), else |log(T_link measured / T_link nominal)|,
 *           both links from pair_link.
 * Without a pool width for a side, or (when the prediction has a link
 * time on a full-duplex link) without both the measured and the nominal
 * link, there is no interval and `words` says why.
 *
 * Ownership: nothing is allocated; everything is borrowed. No I/O.
 */
#ifndef PERFCAST_MULTICLUSTER_PI_H
#define PERFCAST_MULTICLUSTER_PI_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/ingest/experiment.h"
#include "gen/ingest/pair_link.h"
#include "models/multicluster.h"

typedef struct {
    const multicluster_side *sides; /* the two sides the prediction used */
    const char *cluster[2];         /* their clusters' names (for the ping-pong rows) */
    double n_msg;                   /* the row length */
    const multicluster_prediction *p;
    const multicluster_link *link;  /* the link p was predicted with, NULL: none */
    const pair_link *pl;            /* both sources of the link; NULL with link NULL */
    experiment_pooled_width_fn width; /* the pooled error; NULL: none */
    const void *width_ctx;
} multicluster_pi_input;

/* The own interval of in->p into *low, *high (NAN, NAN and false when
 * there is none), and in words where each part's width came from, or why
 * there is none ("own 95% interval 0.8-1.9 s: TA x/÷1.6 (strip pool of 41
 * backtests, 1 doubling beyond), ..."). */
bool multicluster_pi(const multicluster_pi_input *in, double *low, double *high, char *words,
                     size_t len);

/* The parts of p in words, the same in the model's note and in advise's
 * source: "T = max(TA 1.2 s, TB 0.9 s, max(BA 0.8 s, BB 0.7 s) + T_link
 * 0.41 s)" (BX the boundary process without the link,
 * multicluster_prediction.boundary_s), "T = max(TA 1.2 s, TB 0.9 s)"
 * without a link time. */
void multicluster_parts_text(const multicluster_prediction *p, char *buf, size_t len);

#endif
