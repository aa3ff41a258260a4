/*
 * advise.h — the options `perfcast advise` weighs (seed 000, Scenarios 1
 * and 2): a problem of na rows of nb points on each free cluster alone and
 * split across each pair of free clusters, with the predicted time, the
 * memory per process, feasibility, core-hours and cost.
 *
 * Where a time comes from, best first:
 *   1. the strip model fitted on the archive's measured runs of the code on
 *      that cluster (a split: the multi-cluster model, with the row split
 *      that balances the two sides within their memory, and the time of
 *      the link between the clusters when clusters.csv gives both
 *      clusters' links and the runs their V-cycles, models/multicluster.h;
 *      for runs of mgbench, the best split mgbench can run, the others
 *      counted by why they are left out, gen/advice/runnable.h);
 *      each side's Tcomp under its cluster's node contention law, the
 *      strip model's default (the roofline where clusters.csv gives
 *      mbw_core_gbs and mbw_read_gbs, none elsewhere) at the processes
 *      per node a batch system gives np processes: whole nodes, up to
 *      cores_per_node; a model time of zero or less is none (the model
 *      does not hold there, experiment_time_holds: for a split, either
 *      side's), and the reason says which part of the law went below zero;
 *   2. a prediction a paper printed for exactly that configuration
 *      (published_prediction_s of a run row), labelled as such;
 *   3. none: the option is listed with the reason.
 * Each model time gets its 95% interval (issue 23 item 5): a cluster
 * alone the strip model's pooled width at its distance beyond the
 * cluster's training runs (gen/fit/pooled_width.h, the width a strip
 * experiment without backtests of its own gets), a split the multi-cluster
 * model's own interval from its parts (gen/fit/multicluster_pi.h, as the
 * model's adapter gives it); the pool holds the strip backtests of the
 * archive's campaigns other than the one asked for (--campaign; every
 * campaign when none is). A published prediction, or a request without a
 * pool, has none, and `interval` says why.
 * Memory per process is the code's memory per mesh point times the
 * process's points; the memory per point comes from runs' work_mb, else
 * from a paper's printed memory per process (published_mem_per_proc_gb),
 * else from the caller.
 *
 * Ownership: advise_open fills an advise_ctx released by advise_close;
 * options point into it. advise_enumerate fills an advise_list whose two
 * arrays the caller owns (advise_list_free releases them).
 */
#ifndef PERFCAST_ADVISE_H
#define PERFCAST_ADVISE_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/fit/error_pool.h"
#include "gen/fit/stripfits.h"
#include "gen/advice/runnable.h"
#include "gen/ingest/archive.h"
#include "models/costing.h"

typedef struct {
    const archive *arch;
    const char *campaign;     /* NULL = every campaign */
    const char *code;         /* NULL = the only code the free clusters ran */
    double mb_per_point;      /* NAN = from the archive */
    double quantum;           /* rows per process multiple of this in balanced splits */
    const error_pool *pool;   /* the archive's pooled backtests (filled), for the
                                 intervals; NULL: no interval */
} advise_request;

typedef struct {
    advise_request req;
    const char *code;         /* the code chosen (may be NULL: runs without a code) */
    labelled_run *runs;       /* measured runs of that code */
    size_t nruns;
    stripfits fits;
    double mb_per_point;
    char mb_source[200];      /* where mb_per_point came from */
    double cycles;            /* the V-cycles all the runs of the code ran; NAN: none or several */
} advise_ctx;

/* Where an option's time comes from (items 1-3 above). */
typedef enum {
    ADVISE_TIME_NONE = 0,
    ADVISE_TIME_MODEL,      /* the strip or the multi-cluster model */
    ADVISE_TIME_PUBLISHED,  /* a paper's printed prediction */
} advise_time_from;

typedef struct {
    int nsides;                     /* 1 alone, 2 split */
    const cluster_info *cluster[2];
    costing_cluster costing[2];
    double np[2];
    double rows[2];                 /* rows per process (average when uneven) */
    double mem_mb[2];               /* memory per process, NAN when unknown */
    double na, nb;                  /* the problem */
    double time_s;                  /* NAN: no prediction */
    double time_low, time_high;     /* its 95% interval; NAN: none */
    char interval[1100];            /* where the interval's width came from, or why none */
    advise_time_from time_from;     /* where time_s came from (the list above) */
    char source[640];               /* how the time was obtained, or why there is none */
    char no_model[300];             /* ADVISE_TIME_PUBLISHED: why no model gave it ("" else) */
    const campaign *published_in;   /* ADVISE_TIME_PUBLISHED: the campaign and runs row */
    size_t published_row;           /*   whose published_prediction_s it is */
    costing_result cost;            /* core-hours and cost (cost NAN without a time) */
    bool feasible;
    char reason[300];               /* why not feasible; "" when feasible */
    double excluded[RUNNABLE_KINDS]; /* mgbench splits left out, counted by why
                                       (runnable_why; [RUNNABLE_YES] unused) */
    char name[300];                 /* "wrg2-ethernet:64 + wrg3-myrinet:32" */
} advise_option;

/* Every option of one question, in the order advise_enumerate makes them. */
typedef struct {
    advise_option *items;
    size_t n;
    double *size;          /* each option's mesh: Scenario 2 its N (0: none fits),
                              Scenario 1 the problem's rows na */
} advise_list;

/* What the request names that the archive does not have: "campaign" when
 * req->campaign is no loaded campaign, "code" when no run (of that
 * campaign, else of any) names req->code; NULL when both are known or not
 * given. Every option would otherwise have no prediction, for a reason
 * no option says. */
const char *advise_unknown_name(const advise_request *req);

/* Gather the runs, choose the code and the memory per point. False with
 * err when the campaign or the code is unknown (advise_unknown_name), the
 * code is ambiguous (several, none chosen) or out of memory.
 * clusters lists the free clusters' names (for choosing the code). */
bool advise_open(const advise_request *req, const char *const *clusters, size_t nclusters,
                 advise_ctx *ctx, char *err, size_t errlen);

void advise_close(advise_ctx *ctx);

/* Evaluate the problem na x nb on np processes of cluster c (nsides 1) or
 * split over two clusters (nsides 2). Fills o completely. */
void advise_evaluate(advise_ctx *ctx, int nsides, const cluster_info *const *c,
                     const double *np, double na, double nb, advise_option *o);

/* Scenario 2: the largest N = 2^k such that N x N fits the option's
 * memory, evaluated there. Returns N, 0 when memory is unknown or even
 * N = 2 does not fit (o then says why). */
double advise_largest(advise_ctx *ctx, int nsides, const cluster_info *const *c,
                      const double *np, advise_option *o);

/* Where the option's time came from in one line: its source, and for a
 * published prediction "; no model: <why>" after it (the CLI and the CSV
 * files print this; the site puts the why in a footnote). */
void advise_source_text(const advise_option *o, char *buf, size_t len);

/* The mgbench splits the option left out, one clause per kind ("12 splits
 * left out: rows per process odd or below 2 (...)"), joined by sep; ""
 * when none was. */
void advise_excluded_text(const advise_option *o, const char *sep, char *buf, size_t len);

/* Whether two clusters are fabrics of one machine (names "<machine>-<fabric>"
 * with the same machine, the fabric after the last '-', archive/README.md):
 * such a pair is not a split. */
bool advise_same_machine(const char *a, const char *b);

/* Whether a job split across clusters a and b can run: seed 000 (Sec. V.A)
 * runs cross-cluster jobs over Ethernet, so both clusters' interconnects
 * must be Ethernet-class ("Ethernet", "GigE", "GbE" in any case, e.g.
 * "Fast Ethernet", "1GigE"); a Myrinet or InfiniBand fabric cannot carry
 * messages to the other cluster. An unknown interconnect (empty cell) is
 * not ruled out. */
bool advise_pair_can_run(const cluster_info *a, const cluster_info *b);

/* Every option on the free clusters cl[0..n-1] (np[i] processes each):
 * each cluster alone and each pair of clusters of different machines that
 * advise_pair_can_run allows, in
 * the order (0), (0,1), (0,2) ..., (1), (1,2) ... . maximize: Scenario 2
 * (advise_largest; out->size holds each N); else the problem na x nb.
 * False when out of memory. Ownership: out's arrays are the caller's,
 * released with advise_list_free (also after a failure). */
bool advise_enumerate(advise_ctx *ctx, const cluster_info *const *cl, const double *np,
                      size_t n, bool maximize, double na, double nb, advise_list *out);

/* Releases the arrays advise_enumerate allocated and empties l. */
void advise_list_free(advise_list *l);

/* Ranks the feasible options whose key (time, or cost when by_cost) is
 * known: writes their indices into order (room for l->n entries), best
 * first, and returns how many. larger_first (Scenario 2) puts a larger
 * mesh (l->size) first, comparing keys only within one mesh; ties keep the
 * options' order. */
size_t advise_rank(const advise_list *l, bool by_cost, bool larger_first, size_t *order);

#endif
