/*
 * band.c — banded Cholesky for the coarsest-grid Laplacian (see band.h).
 */
#include "mgbench/band.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double mgb_band_cost(long na, long nb)
{
    double ia = (double)(na - 1), ib = (double)(nb - 1);
    double w = ia < ib ? ia : ib;
    return ia * ib * (w + 1) * (w + 1);
}

/* Entry (i, j), j <= i, of the operator in the band numbering. */
static double entry(const mgb_band *f, long i, long j)
{
    if (i == j)
        return 4.0;
    if (i - j == f->w)
        return -1.0;
    if (i - j == 1 && i % f->w != 0)
        return -1.0;
    return 0.0;
}

int mgb_band_factor(mgb_band *f, long na, long nb)
{
    memset(f, 0, sizeof *f);
    f->na = na;
    f->nb = nb;
    f->b_fast = nb <= na;
    f->w = (f->b_fast ? nb : na) - 1;
    f->n = (na - 1) * (nb - 1);
    long w = f->w, s = w + 1;
    f->l = calloc((size_t)f->n * (size_t)s, sizeof(double));
    if (!f->l)
        return -1;
    for (long i = 0; i < f->n; i++) {
        long jlo = i - w > 0 ? i - w : 0;
        double *li = f->l + i * s;
        for (long j = jlo; j <= i; j++) {
            const double *lj = f->l + j * s;
            double sum = entry(f, i, j);
            /* sum_k L(i,k) L(j,k) over jlo <= k < j */
            for (long k = jlo; k < j; k++)
                sum -= li[i - k] * lj[j - k];
            if (j < i)
                li[i - j] = sum / lj[0];
            else
                li[0] = sqrt(sum);
        }
    }
    return 0;
}

void mgb_band_solve(const mgb_band *f, double *x)
{
    long w = f->w, s = w + 1;
    for (long i = 0; i < f->n; i++) { /* L y = x */
        const double *li = f->l + i * s;
        long jlo = i - w > 0 ? i - w : 0;
        double sum = x[i];
        for (long j = jlo; j < i; j++)
            sum -= li[i - j] * x[j];
        x[i] = sum / li[0];
    }
    for (long i = f->n - 1; i >= 0; i--) { /* L^T z = y */
        long jhi = i + w < f->n - 1 ? i + w : f->n - 1;
        double sum = x[i];
        for (long j = i + 1; j <= jhi; j++)
            sum -= f->l[j * s + (j - i)] * x[j];
        x[i] = sum / f->l[i * s];
    }
}

long mgb_band_index(const mgb_band *f, long gi, long gj)
{
    if (gi < 1 || gi >= f->na || gj < 1 || gj >= f->nb)
        return -1;
    if (f->b_fast)
        return (gi - 1) * (f->nb - 1) + (gj - 1);
    return (gj - 1) * (f->na - 1) + (gi - 1);
}

void mgb_band_free(mgb_band *f)
{
    free(f->l);
    f->l = NULL;
}
