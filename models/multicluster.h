/*
 * multicluster.h — one job split across two clusters (seed 000, section
 * V.B): an R x N mesh (R rows of length N) is partitioned by rows, side
 * A's npA processes each holding rowsA rows and side B's npB processes
 * rowsB rows (npA*rowsA + npB*rowsB = R), each side an npX x 1 strip grid.
 * Each side is predicted by the strip model fitted on its own cluster, for
 * its own per-process mesh rows x N, and
 *
 *     T = max(TA, TB)
 *
 * (inter-cluster communication is assumed hidden by the imbalance, as in
 * the paper). multicluster_balance finds the row split that minimises T,
 * which gives the faster cluster more rows.
 *
 * Ownership: nothing is allocated; the strip models are borrowed. No I/O.
 */
#ifndef PERFCAST_MULTICLUSTER_H
#define PERFCAST_MULTICLUSTER_H

#include <stdbool.h>
#include "models/strip.h"

typedef struct {
    const strip_model *model;   /* fitted on this side's cluster */
    double np;                  /* processes on this side */
} multicluster_side;

typedef struct {
    double time_s;              /* max(TA, TB) */
    double rows[2];             /* rows per process on A and B */
    double mem_mb[2];           /* memory per process (the work the prediction used) */
    strip_prediction side[2];   /* TA and TB with their parts */
    int dominant;               /* 0: A is slower, 1: B is slower, -1: they tie */
    bool uneven;                /* balance only: rows could not be whole multiples of
                                   the quantum on both sides; rows[] are averages */
} multicluster_prediction;

/* Predict the split with the given rows per process on each side, for
 * rows of length n_msg. False when a side cannot be predicted. */
bool multicluster_predict(const multicluster_side sides[2], double n_msg, const double rows[2],
                          multicluster_prediction *out);

/* The split where each side holds half of total_rows (seed 000, Tables I
 * and II: "split equally"): rows[i] = total_rows / 2 / np[i]. */
void multicluster_equal_rows(const multicluster_side sides[2], double total_rows, double rows[2]);

typedef struct {
    double quantum;       /* rows per process are multiples of this; 1 = whole rows */
    double max_rows[2];   /* most rows per process each side's memory holds; INFINITY = no limit */
} multicluster_balance_options;

/* The split of total_rows that minimises max(TA, TB) among rows per
 * process that are multiples of the quantum on side A (and on side B when
 * possible, else `uneven`), within max_rows. False when no split leaves
 * both sides at least one quantum of rows or a side cannot be predicted. */
bool multicluster_balance(const multicluster_side sides[2], double n_msg, double total_rows,
                          const multicluster_balance_options *opt,
                          multicluster_prediction *out);

#endif
