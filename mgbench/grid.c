/*
 * grid.c — geometry and storage of one multigrid level of one process.
 */
#include "mgbench/grid.h"

#include <stdlib.h>
#include <string.h>

enum { RING_ROWS = 7 }; /* residual rows i % 6, plus the ghost row 0 */

/* The k range of the entries of parity q among local columns c0..c1. */
static void half_range(mgb_half *h, long c0, long c1, int q)
{
    long j0 = ((c0 & 1) == q) ? c0 : c0 + 1;
    long j1 = ((c1 & 1) == q) ? c1 : c1 - 1;
    h->k0 = j0 >> 1;
    h->k1 = (j1 >= j0) ? (j1 >> 1) : h->k0 - 1;
}

int mgb_level_shape(mgb_level *lv, long na, long nb, int npa, int npb,
                    int pa, int pb)
{
    if (npa < 1 || na % npa != 0)
        return -1;
    return mgb_level_shape_rows(lv, na, nb, na / npa, pa * (na / npa), npb, pb);
}

int mgb_level_shape_rows(mgb_level *lv, long na, long nb, long ma, long ia, int npb, int pb)
{
    if (npb < 1 || nb % npb != 0 || ma < 1 || ia < 0 || ia + ma > na)
        return -1;
    memset(lv, 0, sizeof *lv);
    lv->na = na;
    lv->nb = nb;
    lv->ma = ma;
    lv->mb = nb / npb;
    lv->ia = ia;
    lv->ib = pb * lv->mb;
    lv->rows = lv->ma + 2;
    lv->cols = lv->mb + 2;
    lv->even_len = (lv->cols + 1) / 2;
    /* Global row 0 (column 0) is boundary: it is local row 1 of the first
     * process. The last owned row is global na - 1 at most: always active. */
    lv->r0 = (lv->ia == 0) ? 2 : 1;
    lv->r1 = lv->ma;
    lv->c0 = (lv->ib == 0) ? 2 : 1;
    lv->c1 = lv->mb;
    half_range(&lv->half[0], lv->c0, lv->c1, 0);
    half_range(&lv->half[1], lv->c0, lv->c1, 1);
    /* Even column j = 2k: neighbours j-1, j+1 are odd entries k-1 and k. */
    lv->half[0].out = 0;
    lv->half[0].nbr = lv->even_len - 1;
    /* Odd column j = 2k+1: neighbours j-1, j+1 are even entries k and k+1. */
    lv->half[1].out = lv->even_len;
    lv->half[1].nbr = 0;
    return 0;
}

/* Zeroed array of n doubles, its pages touched now (malloc + memset rather
 * than calloc) so that page faults happen during set-up, not in the first
 * timed solve. */
static double *alloc_zeroed(size_t n)
{
    double *p = malloc(n * sizeof(double));
    if (p)
        memset(p, 0, n * sizeof(double));
    return p;
}

int mgb_level_alloc(mgb_level *lv, int full_residual)
{
    size_t cells = (size_t)lv->rows * (size_t)lv->cols;
    lv->rrows = full_residual ? lv->rows : RING_ROWS;
    lv->u = alloc_zeroed(cells);
    lv->b = alloc_zeroed(cells);
    lv->r = alloc_zeroed((size_t)lv->rrows * (size_t)lv->cols);
    lv->scratch = alloc_zeroed(2 * (size_t)lv->cols);
    if (!lv->u || !lv->b || !lv->r || !lv->scratch) {
        mgb_level_free(lv);
        return -1;
    }
    return 0;
}

void mgb_level_free(mgb_level *lv)
{
    free(lv->u);
    free(lv->b);
    free(lv->r);
    free(lv->scratch);
    lv->u = lv->b = lv->r = lv->scratch = NULL;
}

size_t mgb_level_bytes(const mgb_level *lv)
{
    size_t cells = (size_t)lv->rows * (size_t)lv->cols;
    size_t rrows = (size_t)lv->rrows * (size_t)lv->cols;
    return (2 * cells + rrows + 2 * (size_t)lv->cols) * sizeof(double);
}

double *mgb_resid_row(const mgb_level *lv, long i)
{
    if (lv->rrows == lv->rows)
        return mgb_row(lv, lv->r, i);
    return mgb_row(lv, lv->r, i == 0 ? RING_ROWS - 1 : i % 6);
}
