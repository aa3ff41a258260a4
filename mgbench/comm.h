/*
 * comm.h — the process grid and the halo exchanges of mgbench.
 *
 * Processes form an npa x npb Cartesian grid (MPI_Cart_create, not
 * periodic); a strip partition is the grid np x 1. Every exchange uses
 * non-blocking MPI_Irecv/MPI_Isend followed by MPI_Waitall, and adds the
 * wall time it spent to `seconds` (the process's time in communication).
 */
#ifndef MGBENCH_COMM_H
#define MGBENCH_COMM_H

#include <mpi.h>

#include "mgbench/grid.h"

typedef struct {
    MPI_Comm cart;            /* the Cartesian communicator */
    int rank, size;
    int npa, npb;             /* process grid */
    int pa, pb;               /* this process's coordinates */
    int below, above;         /* neighbours along a (MPI_PROC_NULL at the boundary) */
    int left, right;          /* neighbours along b */
    double seconds;           /* time spent in communication calls */
    double *colbuf;           /* 4 packing buffers of `colbuf_len` entries */
    long colbuf_len;
} mgb_comm;

/* Sides of a row exchange. */
enum { MGB_BELOW = 1, MGB_ABOVE = 2 };

/* Builds the npa x npb grid over `world` (whose size must be npa*npb) with
 * column buffers for levels of up to max_rows rows. Returns 0, or -1 when
 * out of memory. Release with mgb_comm_free. */
int mgb_comm_create(mgb_comm *c, MPI_Comm world, int npa, int npb, long max_rows);

/* Frees the communicator and buffers. */
void mgb_comm_free(mgb_comm *c);

/* Sends edge rows 1 / ma of array a (a level-shaped array) to the neighbour
 * below / above and receives their edge rows into ghost rows 0 / ma+1, for
 * the sides selected (MGB_BELOW | MGB_ABOVE). */
void mgb_exchange_rows(mgb_comm *c, const mgb_level *lv, double *a, int sides);

/* Full halo exchange of a: ghost rows and ghost columns. With corners the
 * columns go first and the rows (whole, ghost columns included) second, so
 * the corner ghosts hold the diagonal neighbours' values. */
void mgb_exchange_halo(mgb_comm *c, const mgb_level *lv, double *a, int corners);

/* The residual message of the fused kernel: when `send`, residual row ma
 * goes to the neighbour above; when `recv`, the residual ghost row 0 comes
 * from the neighbour below. */
void mgb_pass_residual_up(mgb_comm *c, const mgb_level *lv, int send, int recv);

/* Sum of x over all processes (timed as communication). */
double mgb_allreduce_sum(mgb_comm *c, double x);

/* Every process's doubles, concatenated in rank order into `all` (timed as
 * communication): `count` of them from each process when counts is NULL
 * (MPI_Allgather), else counts[r] from rank r placed at all + displs[r]
 * (MPI_Allgatherv, for the unequal blocks of an uneven strip). */
void mgb_allgather(mgb_comm *c, const double *mine, int count, double *all, const int *counts,
                   const int *displs);

#endif
