/*
 * block.h — the block model of Romanazzi & Jimack (seed 001, section 4):
 *
 *     T(npa, npb) ~ T(2,2) + max(Ta, Tb)
 *     Ta = T(npa,1) - T(2,1) = alpha_a(npa) + gamma_a * work
 *     Tb = T(1,npb) - T(1,2) = alpha_b(npb) + gamma_b * work
 *     alpha(np) = c + d*L + e*L^2,  L = log2 np;  gamma = gamma(largest np)
 *
 * for a target Na x Nb on an npa x npb grid, per-process mesh
 * pa x pb = (Na/npa) x (Nb/npb). The paper's steps:
 *  1. T(2,2) on a 2pa x 2pb mesh (the same per-process mesh);
 *  2. strips (np,1), np = 2,4,8,16, on (np*pa/l) x pb meshes, l = 1,2,4
 *     (per-process (pa/l) x pb, messages of length pb), and likewise
 *     (1,np) on pa x (np*pb/l); differences T(np,1) - T(2,1) at the same
 *     per-process mesh;
 *  3. per np a least-squares line over work;
 *  4. alpha quadratic in log2 np: exact through three np (4, 8, 16), least
 *     squares through more, linear when only two np are available
 *     (degree_reduced);
 *  5-6. Ta, Tb at the target's npa, npb; T = T(2,2) + max(Ta, Tb).
 *     Where the target's np along a direction was measured (a line of
 *     step 3 exists for it), that np's own line alpha(np) + gamma(np)*work
 *     gives the overhead: the quadratic and gamma(largest np) are for the
 *     np that were not measured (issue 12: a (4,2) target got the law's
 *     4.04 s where its own strips measured 0.22 s).
 *
 * BETWEEN MEASURED PROCESS COUNTS (a deviation from the paper; option
 * between_law restores it): an np that was not measured but lies between
 * two that were — or between 2, where Ta = 0 by definition, and the
 * smallest line — takes its overhead from those two, each line at the
 * target's work, joined linearly in log2 np (block.c, measured_overhead:
 * the interpolation the job's process count term uses too). The
 * paper's law holds gamma(largest np) for every np, so a 3-process side
 * paid the 16-process strips' cost per megabyte: on a real 16-core node
 * (tests/fixtures/heldout-real1, scored once before this rule) the 4x3
 * and 3x4 grids came out +53% to +80%, their Tb(3) and Ta(3) 0.38 s where
 * the 4-process lines gave 0.09 and 0.05 s. Beyond the largest line the
 * law is kept: there is nothing to join.
 *
 * Degenerate targets: npa = 2 gives Ta = T(2,1) - T(2,1) = 0 by the
 * definition, exactly. npa = 1 gives Ta = T(1,1) - T(2,1) (no a-messages,
 * so usually negative): measured where a (1,1) run and a (2,1) run of the
 * target's per-process mesh exist, else taken as 0 and flagged
 * (BLOCK_TERM_ASSUMED_ZERO: an assumption, not a fitted law). Such a
 * direction needs no strips; npa = npb = 1 is a sequential run, which this
 * model does not describe (sequential_target). When Ta = Tb the two
 * directions tie.
 *
 * STRIP TARGETS (a degenerate grid; not the paper's, which predicts
 * grids). A strip (npa >= 2, npb = 1) is its own direction's definition:
 * Ta = T(npa,1) - T(2,1), so T(npa,1) = T(2,1) + Ta(npa), exactly, and
 * that is its estimate (strip_base): its own base T(2,1) at the target's
 * per-process mesh (looked up, interpolated or scaled in work as T(2,2)
 * is) in place of T(2,2), no b-term (BLOCK_TERM_STRIP_SIDE: the base has
 * one process along b too); (1, npb) likewise on T(1,2). T(2,2) + Ta, the
 * grid's composition, was off by T(2,2) - T(2,1), the cost of the
 * b-messages at two processes, which no grid target (npb >= 2) carries;
 * and calibration's backtests of a block experiment predict held-out
 * strips (its training runs are (2,2) and strips), so that offset, +10% to
 * +60% of a strip's time on the design campaigns, was scored as the
 * model's error per doubling and widened every block interval (issue 23,
 * README "Intervals you can trust"). Without any (2,1) run the strip falls
 * back to T(2,2).
 *
 * Work of a point is the memory of the (np,1) run; the target's work is
 * that of its (2,2) run (same per-process mesh).
 *
 * Node contention (a deviation from the paper; block_fit_contended,
 * models/contention.h): every time the model uses holds its processes'
 * Tcomp, slowed when they crowd one node's memory bus. Under a law each
 * configuration's excess Tcomp1 x (factor(ppn) - 1) is taken off before
 * the differences of steps 1-4 (Tcomp1: the sequential run of its
 * per-process mesh, interpolated in work as the strip model's Tcomp),
 * and the target's own excess is added at step 6. The factor is exactly
 * 1 below the node's saturation. A time the law would slow with no
 * sequential run to give Tcomp1 is left uncorrected and counted
 * (contention_unmeasured). block_fit and block_predict are the paper's.
 *
 * NETWORK TERM (a deviation from the paper, issue 23; options.network,
 * models/topology.h's routes). mgbench lays an npa x npb grid out row by
 * row (MPI_Cart_create without reordering) and the launcher fills each
 * node with ppn consecutive ranks, so a target's a-neighbours sit npb
 * ranks apart: on a torus or fat tree farther apart than any neighbours of
 * the (np,1), (1,np) and (2,2) training runs. Every halo exchange waits
 * for its slowest message (MPI_Waitall), and SMPI charges a message its
 * route's latency times a factor of its size (SimGrid 3.32's default
 * smpi/lat-factor, about 2 for halo rows; topology_smpi_latency_factor).
 * The route time of a grid:
 *
 *     R = cycles x sum over levels l < L-1 of
 *         8 max(ea, eb) + 2 (ea + eb)   (a grid with neighbours both ways)
 *         10 max(ea, eb)                (a strip)
 *     ea = la x f(8 pb / 2^l bytes),  eb = lb x f(8 pa / 2^l bytes)
 *
 * la, lb the slowest a- and b-neighbour routes at the grid's ppn, L
 * mgbench's levels (block_levels), 10 exchanges a level (models/multi-
 * cluster.h's count), of which the residual's and the coarse correction's
 * have corners: columns first, then rows (mgbench/comm.c), two waits in a
 * row. Every configuration's R is taken off its time before steps 1-4 (as
 * the contention excess), and the target's own R is added at step 6: the
 * paper's differences then hold no route, and each run pays its own. The
 * training runs are taken to run the cycles of the target the fit is for.
 * A T(2,2) interpolated or scaled in work loses the route time the same
 * lookup gives on the configurations' route times. A route time that
 * cannot be had (a ppn or the cycles unknown) is neither taken off nor
 * added: a target's own unknown, T(2,2) gets its route time back
 * (network_unknown says so). On a flat cluster every route costs the same,
 * so R cancels there.
 *
 * JOB'S PROCESS COUNT (a deviation from the paper, issue 23;
 * options.job_np). T(2,2) + max(Ta, Tb) holds what grows with the job's
 * process count only up to max(npa, npb): under SMPI every rank's compute
 * is timed on the one simulating host (the computing part of the strips
 * at 512 x 512 per process grows from 0.034 s at np = 2 to 0.07 s at
 * np = 16 on sim-f-torus2d, as the ranks' memory outgrows the host's
 * cache), and the collectives of every cycle (mgbench's MPI_Allreduce and
 * the coarsest level's MPI_Allgather) span the job. The strips measure
 * that growth at their own np, so the term adds
 *
 *     job np = mean over directions of S_d(npa npb) - S_d(max(npa, npb))
 *
 * S_d the direction's measured lines (step 3, route time taken off) at the
 * target's work: 0 at np = 2, linear in log2 np between measured np, and
 * the largest measured np's beyond it (the growth is not extrapolated: it
 * saturates once the job outgrows the cache, and the quadratic law
 * extrapolated it wildly on the design campaigns); a direction without
 * strips is left out. np beyond the largest strip is flagged as
 * extrapolation. Both terms were fixed on the seen torus and fat-tree
 * campaigns (README.md, "Deviations from the papers") before any other was
 * recorded; neither has a fitted constant.
 *
 * Left out: MPI's per-message overheads, links shared by a node's
 * messages, the bandwidth of the halo messages (microseconds here).
 *
 * Ownership: block_fit fills a block_model released by block_model_free.
 * No I/O.
 */
#ifndef PERFCAST_BLOCK_H
#define PERFCAST_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include "models/contention.h"
#include "models/meshrun.h"
#include "models/overhead.h"
#include "models/topology.h"

/* The platform of the network term. */
typedef struct {
    topology topo;
    topology_latency lat;
    double cycles;          /* V-cycles of a run; the training runs are taken to run the
                               cycles of the target they are fitted for (a campaign plan
                               fixes one count) */
} block_network;

typedef struct {
    double work_tol;      /* relative tolerance for "same work" matching */
    const double *nps;    /* strip process counts (> 2) to use; NULL = every one given */
    size_t nnps;
    overhead_law_kind law;          /* each direction's overhead law (models/overhead.h);
                                       0 = log2, the paper's */
    const overhead_place *places;   /* where a strip of np processes sits; may be NULL */
    size_t nplaces;
    const block_network *network;   /* the route term's platform; NULL: none (the paper's) */
    bool job_np;                    /* the job's process count term (JOB'S PROCESS COUNT) */
    bool between_law;               /* an np between measured ones from the law, as the
                                       paper (BETWEEN MEASURED PROCESS COUNTS) */
} block_options;

/* The configuration to predict. */
typedef struct {
    double npa, npb;
    double pa, pb;        /* per-process mesh Na/npa x Nb/npb */
    double work_mb;       /* NAN = unknown: the (2,2) run's work is used */
} block_target;

/* One direction's overhead law: a from (np,1) strips, b from (1,np). */
typedef struct {
    bool needed;            /* the target has more than 2 processes along it */
    overhead_law law;       /* fitted when needed */
    size_t npoints;         /* differences T(np,1) - T(2,1) that entered the fit */
    size_t nunmatched;      /* strips without a (2,1) partner at their mesh */
    size_t nother_msg;      /* strips left out: other message length */
    bool msg_len_fallback;  /* no strip had the target's message length: all were used */
} block_direction;

typedef struct {
    mesh_configs configs;
    block_direction a, b;
    double mb_per_point;
    double max_spread_pct;  /* largest repetition spread among configurations used */
    double work_tol;        /* the fit's opt->work_tol, for the extrapolation flag */
    contention_law contention; /* the law of the fit; off for block_fit */
    double *config_ppn;     /* processes per node of each configuration (NAN unknown) */
    size_t contention_unmeasured; /* overhead terms the law would slow, left uncorrected:
                                     no sequential run for their Tcomp1 */
    bool has_network;       /* the fit took each configuration's route time off */
    block_network network;  /* its platform */
    double *config_route_s; /* route time of each configuration: 0 without a network,
                               NAN where its ppn is unknown (then nothing is taken off) */
    bool job_np;            /* the job's process count term is on */
    bool between_law;       /* the fit's opt->between_law */
} block_model;

typedef enum {
    BLOCK_OK = 0,
    BLOCK_NOMEM,
    BLOCK_BAD_INPUT,   /* a run with a non-positive time or grid, or a bad target */
    BLOCK_NO_22,       /* no (2,2) run at all */
    BLOCK_NO_STRIPS_A, /* Ta needed but no (np,1) strip with a (2,1) partner */
    BLOCK_NO_STRIPS_B,
    BLOCK_OVERHEAD_A,  /* the a-direction law could not be fitted: see law_status */
    BLOCK_OVERHEAD_B
} block_status;

const char *block_status_text(block_status s, overhead_status law_status);

/* Fit the directions the target needs. On failure the model is empty. */
block_status block_fit(const mesh_run *runs, size_t n, const block_options *opt,
                       const block_target *t, block_model *out, overhead_status *law_status);

/* block_fit under a contention law: ppn[i] is the processes per node of
 * runs[i] (ppn NULL: all unknown, and the law changes nothing). */
block_status block_fit_contended(const mesh_run *runs, const double *ppn, size_t n,
                                 const block_options *opt, const contention_law *law,
                                 const block_target *t, block_model *out,
                                 overhead_status *law_status);

void block_model_free(block_model *m);

typedef enum { BLOCK_DOMINANT_NONE, BLOCK_DOMINANT_A, BLOCK_DOMINANT_B, BLOCK_DOMINANT_TIE } block_dominant;

/* Where Ta or Tb came from. */
typedef enum {
    BLOCK_TERM_LAW,           /* alpha(np) quadratic + gamma(largest np) * work */
    BLOCK_TERM_LINE,          /* the measured line of the target's own np */
    BLOCK_TERM_BETWEEN,       /* between the measured lines around the target's np */
    BLOCK_TERM_DEFINITION,    /* np = 2: 0 by definition */
    BLOCK_TERM_MEASURED_ONE,  /* np = 1: T(1,1) - T(2,1) of the target's mesh, measured */
    BLOCK_TERM_ASSUMED_ZERO,  /* np = 1 without those runs: 0 assumed */
    BLOCK_TERM_STRIP_SIDE     /* the single process of a strip target: 0, its base
                                 T(2,1) or T(1,2) has one process there too */
} block_term;

typedef struct {
    double time_s;          /* T(2,2) + max(Ta, Tb) + contention_s */
    double t22_s;           /* T(2,2), its own contention excess taken off; a strip
                               target's own base T(2,1) or T(1,2) where strip_base */
    bool strip_base;        /* a strip target on its own base (STRIP TARGETS) */
    double contention;      /* the factor at the target's ppn; 1 without a law */
    double contention_s;    /* the target's excess Tcomp1 x (factor - 1), in time_s */
    bool contention_unmeasured; /* the law would slow the target but no sequential run
                                   gives its Tcomp1: contention_s is 0 */
    double ta_s, tb_s;      /* see block_term */
    block_term ta_source, tb_source;
    double work_mb;
    block_dominant dominant;
    mesh_match t22_match;   /* MESH_EXACT is the paper's method */
    size_t t22_reps;
    double t22_spread_pct;
    double network_s;       /* the target's route time, in time_s (0 without a network);
                               the training runs' own were taken off T(2,2), Ta and Tb */
    double net_exchanges;   /* neighbour exchanges of the target's run */
    double net_target_lat_s;  /* the slowest route between the target's neighbours */
    double net_t22_route_s;   /* the route time taken off T(2,2) (0 without a network) */
    bool network_unknown;   /* a network was given, but the target's ppn or cycles are
                               unknown (network_s is then T(2,2)'s route time, given
                               back), or a used training configuration's ppn (its
                               route time was not taken off) */
    double job_np_s;        /* the job's process count term, in time_s (0 when off) */
    double job_np_from;     /* the process count T(2,2) + max(Ta, Tb) holds: max(npa, npb) */
    double job_np_held;     /* the largest strip np measured, where the term stops growing */
    size_t job_np_directions; /* directions whose strips gave it (0: none, the term is 0) */
    bool sequential_target; /* npa = npb = 1: the time shown is T(2,2) */
    bool extrapolation;     /* np beyond the measured ones, or work outside the
                               lines' range by more than work_tol */
} block_prediction;

/* Predict the target the model was fitted for. False when no T(2,2) can
 * be had (no (2,2) run and no work to interpolate with). */
bool block_predict(const block_model *m, const block_target *t, block_prediction *out);

/* block_predict for a target with ppn processes per node (NAN unknown),
 * under the model's contention law. */
bool block_predict_contended(const block_model *m, const block_target *t, double ppn,
                             block_prediction *out);

/* block_predict_contended plus the terms the fit was given (options
 * network and job_np): the target's route time on the model's network,
 * at its own cycles (NAN: the fit's) and the job's process count term. */
bool block_predict_network(const block_model *m, const block_target *t, double ppn,
                           double cycles, block_prediction *out);

/* mgbench's multigrid levels for an npa x npb grid of pa x pb meshes
 * (mgbench/config.c): halved while every process's rows and columns are
 * even and >= 2 and the whole mesh has >= 4 intervals each way. */
int block_levels(double npa, double npb, double pa, double pb);

#endif
