/*
 * kernels.c — row operations of the V-cycle on split rows (see grid.h).
 *
 * Each loop runs over contiguous entries of one parity half and reads the
 * other half through separate restrict pointers, so the compiler vectorises
 * it without run-time alias checks.
 */
#include "mgbench/kernels.h"

/* The hot loops are compiled for AVX-512, AVX2 and baseline x86-64, and the
 * dynamic loader picks the best one the CPU has (GCC function
 * multi-versioning): one portable binary, vector speed where available.
 * Contraction into FMA is off in ISO C mode, so every version computes the
 * same bits. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && __GNUC__ >= 12
#define VECTOR_CLONES \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define VECTOR_CLONES
#endif

/* out[k] = (b[k] + up[k] + dn[k] + nbr[k] + nbr[k+1]) / 4 */
VECTOR_CLONES
static void relax_half(double *restrict out, const double *restrict b,
                       const double *restrict up, const double *restrict dn,
                       const double *restrict nbr, long k0, long k1)
{
    for (long k = k0; k <= k1; k++)
        out[k] = 0.25 * (b[k] + up[k] + dn[k] + nbr[k] + nbr[k + 1]);
}

void mgb_smooth_row(const mgb_level *lv, long i, int colour)
{
    const mgb_half *h = &lv->half[mgb_half_of_colour(lv, i, colour)];
    double *row = mgb_row(lv, lv->u, i);
    relax_half(row + h->out, mgb_row(lv, lv->b, i) + h->out,
               mgb_row(lv, lv->u, i + 1) + h->out,
               mgb_row(lv, lv->u, i - 1) + h->out, row + h->nbr, h->k0, h->k1);
}

VECTOR_CLONES
static void fill_half(double *restrict out, const double *restrict b,
                      double scale, long k0, long k1)
{
    for (long k = k0; k <= k1; k++)
        out[k] = scale * b[k];
}

void mgb_zero_guess_row(const mgb_level *lv, long i)
{
    const mgb_half *red = &lv->half[mgb_half_of_colour(lv, i, 0)];
    const mgb_half *black = &lv->half[mgb_half_of_colour(lv, i, 1)];
    double *row = mgb_row(lv, lv->u, i);
    const double *b = mgb_row(lv, lv->b, i);
    fill_half(row + red->out, b + red->out, 0.25, red->k0, red->k1);
    fill_half(row + black->out, b + black->out, 0.0, black->k0, black->k1);
}

void mgb_zero_row(const mgb_level *lv, long i)
{
    double *row = mgb_row(lv, lv->u, i);
    const double *b = mgb_row(lv, lv->b, i);
    for (int q = 0; q < 2; q++)
        fill_half(row + lv->half[q].out, b + lv->half[q].out, 0.0,
                  lv->half[q].k0, lv->half[q].k1);
}

VECTOR_CLONES
static void resid_half(double *restrict r, const double *restrict u,
                       const double *restrict b, const double *restrict up,
                       const double *restrict dn, const double *restrict nbr,
                       long k0, long k1)
{
    for (long k = k0; k <= k1; k++)
        r[k] = b[k] - 4.0 * u[k] + up[k] + dn[k] + nbr[k] + nbr[k + 1];
}

void mgb_residual_row(const mgb_level *lv, long i, double *out)
{
    const double *row = mgb_row(lv, lv->u, i);
    const double *b = mgb_row(lv, lv->b, i);
    const double *up = mgb_row(lv, lv->u, i + 1);
    const double *dn = mgb_row(lv, lv->u, i - 1);
    for (int q = 0; q < 2; q++) {
        const mgb_half *h = &lv->half[q];
        resid_half(out + h->out, row + h->out, b + h->out, up + h->out,
                   dn + h->out, row + h->nbr, h->k0, h->k1);
    }
}

void mgb_residual_colour_row(const mgb_level *lv, long i, int colour, double *out)
{
    const mgb_half *h = &lv->half[mgb_half_of_colour(lv, i, colour)];
    const double *row = mgb_row(lv, lv->u, i);
    resid_half(out + h->out, row + h->out, mgb_row(lv, lv->b, i) + h->out,
               mgb_row(lv, lv->u, i + 1) + h->out, mgb_row(lv, lv->u, i - 1) + h->out,
               row + h->nbr, h->k0, h->k1);
}

/* Eight independent partial sums: vectorisable without reassociation, and
 * the same summation order for the same row whatever the machine. */
VECTOR_CLONES
static double sum_squares(const double *x, long n)
{
    double acc[8] = {0};
    long k = 0;
    for (; k + 8 <= n; k += 8)
        for (int l = 0; l < 8; l++)
            acc[l] += x[k + l] * x[k + l];
    double s = 0;
    for (; k < n; k++)
        s += x[k] * x[k];
    for (int l = 0; l < 8; l++)
        s += acc[l];
    return s;
}

double mgb_sum_squares_half(const double *row, const mgb_half *h)
{
    return h->k1 >= h->k0 ? sum_squares(row + h->out + h->k0, h->k1 - h->k0 + 1) : 0.0;
}

double mgb_sum_squares_row(const mgb_level *lv, const double *row)
{
    return mgb_sum_squares_half(row, &lv->half[0]) + mgb_sum_squares_half(row, &lv->half[1]);
}

VECTOR_CLONES
static void vertical_121(double *restrict v, const double *restrict lo,
                         const double *restrict mid, const double *restrict hi,
                         long n)
{
    for (long p = 0; p < n; p++)
        v[p] = lo[p] + 2.0 * mid[p] + hi[p];
}

/* Coarse entries m0..m1 of one coarse half: out[m] = (e[2m+s] + 2 o[2m+s]
 * + e[2m+s+1]) / 4, where e/o are the fine even/odd halves and s = -1 for
 * the even coarse half, 0 for the odd one (see mgb_restrict_row). */
VECTOR_CLONES
static void horizontal_121(double *restrict out, const double *restrict e,
                           const double *restrict o, long m0, long m1, long s)
{
    for (long m = m0; m <= m1; m++)
        out[m] = 0.25 * (e[2 * m + s] + 2.0 * o[2 * m + s] + e[2 * m + s + 1]);
}

void mgb_restrict_row(const mgb_level *fine, const mgb_level *coarse, long I)
{
    double *v = fine->scratch;
    vertical_121(v, mgb_resid_row(fine, 2 * I - 2), mgb_resid_row(fine, 2 * I - 1),
                 mgb_resid_row(fine, 2 * I), fine->cols);
    const double *e = v, *o = v + fine->even_len;
    double *cb = mgb_row(coarse, coarse->b, I);
    /* Coarse column J sits on fine column 2J-1 (odd: o[J-1]) between the
     * even fine columns 2J-2 (e[J-1]) and 2J (e[J]). Even J = 2m uses
     * e[2m-1], o[2m-1], e[2m]; odd J = 2m+1 uses e[2m], o[2m], e[2m+1]. */
    const mgb_half *ce = &coarse->half[0], *co = &coarse->half[1];
    if (ce->k1 >= ce->k0)
        horizontal_121(cb + ce->out, e, o, ce->k0, ce->k1, -1);
    if (co->k1 >= co->k0)
        horizontal_121(cb + co->out, e, o, co->k0, co->k1, 0);
}

/* Fine split row s from the coarse split row (ec, oc) of one coarse row:
 * fine odd column 2J-1 takes v(J), fine even column 2J takes the mean of
 * v(J) and v(J+1). With n = coarse owned columns, both fine halves have
 * n + 1 entries. */
VECTOR_CLONES
static void interpolate_row(double *restrict se, double *restrict so,
                            const double *restrict ec, const double *restrict oc,
                            long n)
{
    long pairs = (n + 1) / 2;
    for (long m = 0; m < pairs; m++) {
        se[2 * m] = 0.5 * (ec[m] + oc[m]);
        se[2 * m + 1] = 0.5 * (oc[m] + ec[m + 1]);
        so[2 * m] = oc[m];
        so[2 * m + 1] = ec[m + 1];
    }
    if ((n + 1) % 2) {
        se[n] = 0.5 * (ec[pairs] + oc[pairs]);
        so[n] = oc[pairs];
    }
}

VECTOR_CLONES
static void add_half(double *restrict u, const double *restrict s, long k0, long k1)
{
    for (long k = k0; k <= k1; k++)
        u[k] += s[k];
}

void mgb_correct_row(const mgb_level *fine, const mgb_level *coarse, long i)
{
    const double *vc;
    if (i & 1) {
        vc = mgb_row(coarse, coarse->u, (i + 1) / 2);
    } else {
        double *mean = coarse->scratch;
        const double *lo = mgb_row(coarse, coarse->u, i / 2);
        const double *hi = mgb_row(coarse, coarse->u, i / 2 + 1);
        for (long p = 0; p < coarse->cols; p++)
            mean[p] = 0.5 * (lo[p] + hi[p]);
        vc = mean;
    }
    double *s = fine->scratch;
    interpolate_row(s, s + fine->even_len, vc, vc + coarse->even_len, coarse->mb);
    double *row = mgb_row(fine, fine->u, i);
    for (int q = 0; q < 2; q++) {
        const mgb_half *h = &fine->half[q];
        add_half(row + h->out, s + h->out, h->k0, h->k1);
    }
}
