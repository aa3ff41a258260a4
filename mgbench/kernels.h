/*
 * kernels.h — the row operations of the multigrid cycle, for one process.
 *
 * All equations are scaled by h^2: row i of b holds h^2 f, and the 5-point
 * operator is 4u - (sum of the four neighbours). Each function touches only
 * the active (unknown) entries of one local row; ghost rows and columns are
 * read, never written. No MPI here: the pass drivers (pass.h) decide when
 * ghosts are current. Every function is deterministic: the same inputs give
 * bit-identical outputs whatever the partition.
 */
#ifndef MGBENCH_KERNELS_H
#define MGBENCH_KERNELS_H

#include "mgbench/grid.h"

/* Gauss-Seidel update of the points of colour c (0 red, 1 black) of row i:
 * u = (b + sum of neighbours) / 4. */
void mgb_smooth_row(const mgb_level *lv, long i, int colour);

/* The red half-sweep of row i from a zero initial guess: red points get
 * b/4 and black points 0 (so u needs no clearing beforehand). */
void mgb_zero_guess_row(const mgb_level *lv, long i);

/* Sets the active points of row i to zero. */
void mgb_zero_row(const mgb_level *lv, long i);

/* Scaled residual b - A u of row i into `out` (a split row of the level's
 * shape); entries of inactive columns are left as they are. */
void mgb_residual_row(const mgb_level *lv, long i, double *out);

/* The residual of the points of one colour of row i only, into `out` (the
 * other colour's entries are left as they are). Right after a black
 * half-sweep the black residuals are zero up to round-off, so the red ones
 * are the whole residual: the passes use this to halve the residual work. */
void mgb_residual_colour_row(const mgb_level *lv, long i, int colour, double *out);

/* Sum of squares of the active entries of a split row, or of one half. */
double mgb_sum_squares_row(const mgb_level *lv, const double *row);
double mgb_sum_squares_half(const double *row, const mgb_half *h);

/* Full weighting of the fine residual rows 2I-2, 2I-1, 2I (read through
 * mgb_resid_row) into row I of the coarse right-hand side, scaled by 4 for
 * the coarse h^2. Uses the fine level's scratch. */
void mgb_restrict_row(const mgb_level *fine, const mgb_level *coarse, long I);

/* Adds the bilinear interpolation of the coarse correction (coarse u, its
 * ghosts included) to fine row i. Uses both levels' scratch. */
void mgb_correct_row(const mgb_level *fine, const mgb_level *coarse, long i);

#endif
