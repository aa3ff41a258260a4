/*
 * grid.h — one multigrid level of one process: geometry and storage.
 *
 * The global mesh of a level has na x nb intervals: nodes (gi, gj) with
 * 0 <= gi <= na, 0 <= gj <= nb; rows gi = 0, na and columns gj = 0, nb are
 * the Dirichlet boundary, the others are unknowns. A process at coordinates
 * (pa, pb) of an npa x npb process grid owns ma = na/npa consecutive node
 * rows starting at ia = pa*ma, and mb = nb/npb node columns starting at
 * ib = pb*mb (the first process of each direction owns the boundary row or
 * column 0; the last one sees the boundary row na or column nb as a ghost).
 * Halving ma and mb gives the next coarser level of the same process, so the
 * partition of the coarsest grid fixes every finer one (code m1, seed 001).
 *
 * Storage: every array has (ma + 2) x (mb + 2) entries, the owned block plus
 * one ghost row/column on each side (local row i <-> global ia + i - 1).
 * Inside a row the even local columns come first, then the odd ones ("split
 * row"): the points of one red-black colour of a row are contiguous, which
 * lets the compiler vectorise every kernel with plain loops.
 */
#ifndef MGBENCH_GRID_H
#define MGBENCH_GRID_H

#include <stddef.h>

/* The entries of one parity half of a row that a kernel updates: positions
 * out + k0 .. out + k1 of the row; nbr + k and nbr + k + 1 are the left and
 * right neighbours of position out + k (they lie in the other half). */
typedef struct {
    long out, nbr;
    long k0, k1;   /* k1 < k0 when the half has no active entry */
} mgb_half;

typedef struct {
    long na, nb;        /* global mesh intervals at this level */
    long ma, mb;        /* owned node rows and columns */
    long ia, ib;        /* global index of local row 1 and column 1 */
    long rows, cols;    /* ma + 2, mb + 2: the allocated shape */
    long even_len;      /* entries of the even-column half of a row */
    long r0, r1;        /* active (unknown) local rows: r0 .. r1 */
    long c0, c1;        /* active local columns */
    mgb_half half[2];   /* active entries of the even (0) / odd (1) half */
    double *u;          /* solution (finest) or correction (coarser) */
    double *b;          /* right-hand side times h^2 */
    double *r;          /* residual storage: `rrows` rows */
    long rrows;         /* `rows` (full array, staged kernel) or 7 (ring) */
    double *scratch;    /* two rows of work space */
} mgb_level;

/* Sets the geometry of a level (no allocation). Returns 0, or -1 when the
 * level is impossible (npa or npb does not divide na or nb). */
int mgb_level_shape(mgb_level *lv, long na, long nb, int npa, int npb,
                    int pa, int pb);

/* The same with the process's rows given: ma node rows from global row ia
 * (an uneven strip, mgbench --split), columns as for mgb_level_shape.
 * Returns 0, or -1 when the rows leave the mesh or npb does not divide nb. */
int mgb_level_shape_rows(mgb_level *lv, long na, long nb, long ma, long ia, int npb, int pb);

/* Allocates u, b (zeroed), the residual storage (a full array when
 * full_residual, else a ring of 6 rows, so that a slot always holds rows of
 * the same parity, plus one ghost row) and the scratch rows. Returns 0, or -1 when out of memory (lv then holds no memory). */
int mgb_level_alloc(mgb_level *lv, int full_residual);

/* Releases what mgb_level_alloc allocated; safe on a zeroed level. */
void mgb_level_free(mgb_level *lv);

/* Bytes of grid storage the level holds (u, b, residual, scratch). */
size_t mgb_level_bytes(const mgb_level *lv);

/* Position of local column j inside a split row. */
static inline long mgb_pos(const mgb_level *lv, long j)
{
    return (j & 1) ? lv->even_len + (j >> 1) : (j >> 1);
}

/* Pointer to local row i of a (rows x cols) array of the level. */
static inline double *mgb_row(const mgb_level *lv, double *a, long i)
{
    return a + (size_t)i * (size_t)lv->cols;
}

/* Which half (0 even, 1 odd columns) of local row i holds colour c
 * (colour 0 = red: gi + gj even). */
static inline int mgb_half_of_colour(const mgb_level *lv, long i, int c)
{
    return (int)((c + lv->ia + lv->ib + i) & 1);
}

/* Residual row i of the level's residual storage (full array or ring). */
double *mgb_resid_row(const mgb_level *lv, long i);

#endif
