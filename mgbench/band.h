/*
 * band.h — direct solver for the coarsest grid: banded Cholesky of the
 * scaled 5-point Laplacian (4 on the diagonal, -1 for each neighbour) on the
 * interior nodes of an na x nb mesh with Dirichlet boundary.
 *
 * Unknowns are numbered along the shorter direction first, which makes the
 * half-bandwidth min(na, nb) - 1. Serial and deterministic: every process
 * factors and solves the same global coarsest problem and gets the same bits.
 */
#ifndef MGBENCH_BAND_H
#define MGBENCH_BAND_H

typedef struct {
    long na, nb;      /* mesh intervals */
    long n, w;        /* unknowns and half-bandwidth */
    int b_fast;       /* 1: the b index runs fastest (nb <= na) */
    double *l;        /* n x (w + 1): l[i*(w+1) + d] = L(i, i-d) */
} mgb_band;

/* Floating-point operations (about n w^2) that factoring an na x nb mesh
 * costs; callers refuse meshes whose cost is unreasonable. */
double mgb_band_cost(long na, long nb);

/* Builds and factors the operator of an na x nb mesh (na, nb >= 2).
 * Returns 0, or -1 when out of memory (f then holds nothing). */
int mgb_band_factor(mgb_band *f, long na, long nb);

/* Solves A x = rhs in place (x has f->n entries). */
void mgb_band_solve(const mgb_band *f, double *x);

/* Index of interior node (gi, gj) in the unknown vector, or -1 when the node
 * is on the boundary or outside the mesh. */
long mgb_band_index(const mgb_band *f, long gi, long gj);

/* Releases the factor; safe on a zeroed struct. */
void mgb_band_free(mgb_band *f);

#endif
