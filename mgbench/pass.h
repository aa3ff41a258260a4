/*
 * pass.h — one sweep through the rows of a level, running a list of stages.
 *
 * A pass is a short list of row operations (stages), e.g. the pre-smoothing
 * pass "red, black, red, black, restrict". Two drivers run it:
 *
 *  - staged: each stage over all rows before the next, with a full halo
 *    exchange before every stage that reads ghosts (the textbook order);
 *  - fused (strip partitions): one wavefront through the rows, stage k
 *    running k rows behind stage k-1, so u and b stream from memory once per
 *    pass instead of once per stage. The two edge rows still need their
 *    neighbour's values at every stage: processes at even a-coordinates run
 *    top-down and odd ones bottom-up, so two neighbours always reach their
 *    shared edge at the same step and exchange it there, stage by stage.
 *
 * Red-black Gauss-Seidel updates of one colour are independent, so both
 * drivers compute bit-identical results; partition and driver change only
 * the order in which rows are visited.
 */
#ifndef MGBENCH_PASS_H
#define MGBENCH_PASS_H

#include "mgbench/comm.h"
#include "mgbench/grid.h"

typedef enum {
    MGB_ST_ZERO,      /* u = 0 (a coarse level without pre-smoothing) */
    MGB_ST_ZERO_RED,  /* red half-sweep from a zero guess */
    MGB_ST_RED,       /* red half-sweep */
    MGB_ST_BLACK,     /* black half-sweep */
    MGB_ST_CORRECT,   /* u += bilinear interpolation of the coarse u */
    MGB_ST_RESTRICT,  /* residual, full-weighted into the coarse b */
    MGB_ST_NORM,      /* residual, sum of squares */
    MGB_ST_RESTRICT_RED, /* the same two right after a black half-sweep: */
    MGB_ST_NORM_RED      /* only red residuals are computed (black ones are 0) */
} mgb_stage;

enum { MGB_MAX_STAGES = 64 };

typedef struct {
    mgb_stage stage[MGB_MAX_STAGES];
    int n;
} mgb_pass;

typedef struct {
    mgb_comm *comm;
    int fused;       /* wavefront driver (needs npb == 1) */
    int upward;      /* fused: rows 1..ma (1) or ma..1 (0) */
    int corners;     /* staged: residual halos need corner ghosts */
} mgb_driver;

/* Ghost rows/columns of u on a level are current (flag kept per level by
 * the caller, identical on every process). */
typedef struct {
    mgb_level *lv;
    mgb_level *coarse;   /* next coarser level (CORRECT, RESTRICT), or NULL */
    int *ghosts_current;
} mgb_pass_target;

/* Appends a stage; returns 0, or -1 when the pass is full. */
int mgb_pass_add(mgb_pass *p, mgb_stage s);

/* Runs the pass on a level. Returns this process's sum of squared residuals
 * from the NORM stage (0 when there is none). Collective over the process
 * grid: every process runs the same pass on the same level. */
double mgb_pass_run(const mgb_driver *d, const mgb_pass *p, mgb_pass_target t);

#endif
