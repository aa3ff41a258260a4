/*
 * runnable.h — which jobs mgbench can run, for advise to know before it
 * ranks an option. mgbench/config.c is where mgbench refuses the others
 * (check_basic, check_split, mgb_config_levels); these predicates state
 * the same rules for the program that plans, which does not link mgbench:
 *
 *   a strip of np processes on na rows: na divisible by np, so every
 *       process owns na/np whole rows;
 *   a split across two clusters (mgbench --split NPA:ROWS_A): npA
 *       processes own rowsA rows each and npB processes rowsB, with
 *       npA*rowsA + npB*rowsB = na, and rowsA, rowsB whole, even and at
 *       least 2 (the first coarsening halves every process's rows), and
 *       the coarsest grid small enough for mgbench's direct solve: the
 *       hierarchy halves every process's rows while they stay even
 *       (models/multicluster.h, multicluster_levels), and mgbench refuses
 *       a coarsest grid of na' x nb' intervals whose banded Cholesky costs
 *       more than 2e9 flops, (na'-1)(nb'-1)(w+1)^2 with w = min(na', nb')-1
 *       (mgbench/band.c, mgb_band_cost; config.c, MAX_COARSE_FLOPS).
 *
 * Besides mgbench's rules, advise keeps the model's: a split's rows per
 * process on both sides are whole multiples of the quantum (the rows the
 * model was asked to balance in).
 *
 * Pure: no I/O; the texts are static.
 */
#ifndef PERFCAST_RUNNABLE_H
#define PERFCAST_RUNNABLE_H

#include <stdbool.h>

/* Why a split cannot be run or advised, one kind each. */
typedef enum {
    RUNNABLE_YES = 0,
    RUNNABLE_NOT_WHOLE,      /* rows per process not whole, or not adding up to na */
    RUNNABLE_ODD,            /* rows per process odd or below 2 */
    RUNNABLE_OFF_QUANTUM,    /* rows per process not multiples of the quantum */
    RUNNABLE_COARSE_TOO_BIG, /* the coarsest grid is too large for the direct solve */
    RUNNABLE_KINDS
} runnable_why;

/* mgbench can run na rows as a strip over np processes. */
bool runnable_strip(double np, double na);

/* Whether mgbench can run (and the model advise) the split with rows[i]
 * rows on each of np[i] processes, rows of nb points, quantum the model's
 * quantum (not a whole number >= 1: 1); the first rule broken, else
 * RUNNABLE_YES. */
runnable_why runnable_split_why(const double np[2], const double rows[2], double na, double nb,
                                double quantum);

/* runnable_split_why(...) == RUNNABLE_YES. */
bool runnable_split(const double np[2], const double rows[2], double na, double nb,
                    double quantum);

/* One clause saying why splits of that kind are left out, e.g. "rows per
 * process odd or below 2 (mgbench halves every process's rows)". */
const char *runnable_why_text(runnable_why why);

#endif
