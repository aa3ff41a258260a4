/*
 * runplan.h — the exact list of small runs a model needs before it can
 * predict a target (seed 000 steps 1-2 for strip, seed 001 steps 1-2 for
 * block), so that a campaign measures nothing more and nothing less.
 *
 * Mesh conventions (the same as the models, mgbench and archive/README.md):
 * a run solves an na x nb mesh on an npa x npb process grid, each process
 * holding na/npa rows of nb/npb points. A strip target na x nb on np
 * processes is the grid np x 1: each process holds na/np rows of length nb
 * (nb is the halo message length). A block target uses npa x npb.
 *
 * Ownership: the runplan_* builders fill a runplan released by
 * runplan_free. No I/O; errors come back as one line in err.
 */
#ifndef PERFCAST_RUNPLAN_H
#define PERFCAST_RUNPLAN_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    RUNPLAN_TCOMP,            /* strip step 1: sequential run, Tcomp at a per-process mesh */
    RUNPLAN_STRIP_OVERHEAD,   /* strip step 2: parallel run at np0 */
    RUNPLAN_BLOCK_REFERENCE,  /* block step 1: the (2,2) run */
    RUNPLAN_BLOCK_BASE,       /* block step 2: (2,1) or (1,2), subtracted from the strips */
    RUNPLAN_BLOCK_STRIP       /* block step 2: (np,1) or (1,np), np > 2 */
} runplan_role;

/* Why a run is in the plan, beyond its role in the model's steps. */
typedef enum {
    RUNPLAN_WHY_MODEL = 0,     /* the model's own steps (the papers' defaults) */
    RUNPLAN_WHY_FILLS_NODE,    /* np0 = the cores of one node: memory-bandwidth
                                  contention of a full node is in the training data */
    RUNPLAN_WHY_CROSSES_NODE,  /* np0 = the cores of two nodes: the job leaves one
                                  node, so the node boundary is in the training data */
    RUNPLAN_WHY_NETWORK_LEVEL, /* np0 = the cores of the fewest nodes that fill a new
                                  network level (torus dimension, fat-tree level;
                                  models/topology.h): the topology-step overhead law
                                  can only estimate a step some training run crosses */
} runplan_why;

typedef struct {
    runplan_role role;
    runplan_why why;
    int side;          /* multicluster: 0 = cluster A, 1 = cluster B; else 0 */
    long np, npa, npb; /* processes and grid */
    long na, nb;       /* global mesh of the run */
    long level;        /* work level l: per-process mesh divided by l */
    long reps;         /* repetitions to run */
    long seq_of_np;    /* sequential run at a target's per-process mesh: that target's
                          np (mgbench column seq_of_np); 0 otherwise */
    bool shared;       /* multicluster on one cluster: a side-A run side B needs too,
                          listed once (runplan_share_sides) */
} runplan_run;

typedef struct {
    runplan_run *runs;
    size_t nruns;
    long target_np[2]; /* the target's processes (multicluster: on each side), which a
                          run may pass: runplan_above_target */
} runplan;

/* Which runs, and how often. Lists are borrowed. */
typedef struct {
    const long *nps;      /* strip: np0 (default 4, 8); block: np > 2 (default 4, 8, 16) */
    size_t nnps;
    const long *levels;   /* work levels l (strip default 1, 4; block default 1, 2, 4) */
    size_t nlevels;
    long reps;            /* repetitions per run (>= 1) */
    long node_cores;      /* cores of one node of the cluster the runs are for, 0 =
                             unknown; with the default process counts (nps NULL) the
                             strip and block plans add np0 = node_cores (fills a node)
                             and, when nodes >= 2, 2 node_cores (crosses into a second
                             node), each only below the target's processes */
    long nodes;           /* nodes of that cluster, 0 = unknown */
    const long *level_nodes; /* the fewest nodes of each network level above 1 the
                             cluster describes (topology_nodes_for_level), ascending;
                             with the default process counts each adds np0 =
                             node_cores x those nodes, below the target's processes */
    size_t nlevel_nodes;
} runplan_options;

/* Role as a short phrase ("sequential Tcomp", "(2,2) reference", ...). */
const char *runplan_role_text(runplan_role r);

/* Why as a phrase for a plan's reader ("the model's step", "fills one
 * node: its memory-bandwidth contention", ...). */
const char *runplan_why_text(runplan_why w);

/* Strip model runs for an na x nb target on np processes (grid np x 1);
 * np >= 2: a target on one process is itself the sequential run the
 * model starts from, which nothing smaller predicts. */
bool runplan_strip(long na, long nb, long np, const runplan_options *opt, runplan *out,
                   char *err, size_t errlen);

/* Block model runs for an na x nb target on an npa x npb grid of 2 or
 * more processes (as strip: one process is a sequential run). */
bool runplan_block(long na, long nb, long npa, long npb, const runplan_options *opt,
                   runplan *out, char *err, size_t errlen);

/* Multi-cluster runs: the strip runs of each side for rows of length n_msg,
 * side i having np[i] processes of rows[i] rows each (grids np x 1). */
bool runplan_multicluster(long n_msg, const long np[2], const long rows[2],
                          const runplan_options *opt, runplan *out, char *err, size_t errlen);

/* Both sides of a multicluster plan run on one cluster, whose strip
 * runs serve both sides' models: each side-B run that repeats a side-A
 * run (same grid, mesh, level, repetitions and seq_of_np) is dropped and
 * the side-A run marked shared. Returns how many were dropped. */
size_t runplan_share_sides(runplan *p);

/* Whether a script for side (0 A, 1 B, -1 every run) runs r: its own
 * side's runs, and a shared run on both (each side's script stands
 * alone). */
bool runplan_on_side(const runplan_run *r, int side);

/* Whether run r has more processes than the target of its side: the
 * model's steps ask their process counts (the papers' np0 = 4, 8; block's
 * 4, 8, 16) whatever the target, so a small target's plan holds runs
 * larger than itself. */
bool runplan_above_target(const runplan *p, const runplan_run *r);

/* The largest np of any run (for a batch script's task count). */
long runplan_max_np(const runplan *p);

void runplan_free(runplan *p);

#endif
