/*
 * solver.h — geometric multigrid V-cycles on a partitioned mesh.
 *
 * Each level is smoothed by red-black Gauss-Seidel, the residual is
 * full-weighted to the next coarser level and the coarse correction comes
 * back by bilinear interpolation; the coarsest grid is gathered on every
 * process (MPI_Allgatherv when an uneven strip gives the processes unequal
 * blocks) and solved there directly (banded Cholesky, factored once).
 * The initial guess is u = 0.
 *
 * All functions taking a solver are collective over its processes.
 */
#ifndef MGBENCH_SOLVER_H
#define MGBENCH_SOLVER_H

#include <mpi.h>
#include <stddef.h>

#include "mgbench/band.h"
#include "mgbench/comm.h"
#include "mgbench/config.h"
#include "mgbench/grid.h"
#include "mgbench/pass.h"

typedef struct {
    mgb_config cfg;
    mgb_comm comm;
    int has_comm;         /* comm holds a communicator to free */
    mgb_driver drv;
    int nlevels;
    mgb_level *lv;        /* nlevels levels, finest first */
    int *current;         /* per level: ghosts of u are current */
    mgb_pass *pre, *post; /* per level */
    mgb_band band;        /* factor of the coarsest operator */
    int *coords;          /* 2 per rank: process-grid coordinates */
    int *counts, *displs; /* coarsest: each rank's block size and place in gathered */
    double *mine;         /* coarsest: this process's right-hand side */
    double *gathered;     /* coarsest: every process's right-hand side */
    double *coarse_x;     /* coarsest: global unknowns */
    double bnorm;         /* ||b||_2 of the finest level (scaled by h^2) */
} mgb_solver;

/* Builds the hierarchy over `world` (size npa*npb): allocates, fills the
 * right-hand side, factors the coarsest operator. Returns 0, or -1 with the
 * reason in err (on every process; nothing to free then). */
int mgb_solver_setup(mgb_solver *s, const mgb_config *cfg, MPI_Comm world,
                     char *err, size_t errlen);

/* Sets u = 0 (the initial guess) and forgets the communication time. */
void mgb_solver_reset(mgb_solver *s);

/* Runs one V-cycle; returns the relative residual ||b - Au|| / ||b|| after it. */
double mgb_solver_cycle(mgb_solver *s);

/* Grid storage this process allocated (all levels), in bytes. */
size_t mgb_solver_grid_bytes(const mgb_solver *s);

/* Largest |u - exact| (NAN when the problem has no exact solution) and
 * largest u over the unknowns of all processes. */
void mgb_solver_stats(mgb_solver *s, double *max_error, double *max_u);

/* Gathers the finest solution, nodes (0..na) x (0..nb) row by row, into a
 * malloc'ed array on rank 0 (*out; NULL elsewhere). Returns 0, or -1 when
 * out of memory. */
int mgb_solver_gather(mgb_solver *s, double **out);

/* Releases everything; safe after a failed setup. */
void mgb_solver_free(mgb_solver *s);

#endif
