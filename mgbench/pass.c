/*
 * pass.c — staged and fused (wavefront) drivers of a pass (see pass.h).
 */
#include "mgbench/pass.h"

#include "mgbench/kernels.h"

int mgb_pass_add(mgb_pass *p, mgb_stage s)
{
    if (p->n >= MGB_MAX_STAGES)
        return -1;
    p->stage[p->n++] = s;
    return 0;
}

static int is_restrict(mgb_stage s)
{
    return s == MGB_ST_RESTRICT || s == MGB_ST_RESTRICT_RED;
}

static int is_norm(mgb_stage s)
{
    return s == MGB_ST_NORM || s == MGB_ST_NORM_RED;
}

static int reads_ghosts(mgb_stage s)
{
    return s == MGB_ST_RED || s == MGB_ST_BLACK || is_restrict(s) || is_norm(s);
}

static int writes_u(mgb_stage s)
{
    return !is_restrict(s) && !is_norm(s);
}

/* Applies stage s to active row i; returns the NORM contribution. */
static double apply(mgb_stage s, mgb_pass_target t, long i)
{
    mgb_level *lv = t.lv;
    switch (s) {
    case MGB_ST_ZERO:
        mgb_zero_row(lv, i);
        break;
    case MGB_ST_ZERO_RED:
        mgb_zero_guess_row(lv, i);
        break;
    case MGB_ST_RED:
        mgb_smooth_row(lv, i, 0);
        break;
    case MGB_ST_BLACK:
        mgb_smooth_row(lv, i, 1);
        break;
    case MGB_ST_CORRECT:
        mgb_correct_row(lv, t.coarse, i);
        break;
    case MGB_ST_RESTRICT:
        mgb_residual_row(lv, i, mgb_resid_row(lv, i));
        break;
    case MGB_ST_RESTRICT_RED:
        mgb_residual_colour_row(lv, i, 0, mgb_resid_row(lv, i));
        break;
    case MGB_ST_NORM: {
        double *r = lv->scratch + lv->cols;
        mgb_residual_row(lv, i, r);
        return mgb_sum_squares_row(lv, r);
    }
    case MGB_ST_NORM_RED: {
        const mgb_half *h = &lv->half[mgb_half_of_colour(lv, i, 0)];
        double *r = lv->scratch + lv->cols;
        mgb_residual_colour_row(lv, i, 0, r);
        return mgb_sum_squares_half(r, h);
    }
    }
    return 0;
}

static int is_active(const mgb_level *lv, long i)
{
    return i >= lv->r0 && i <= lv->r1;
}

static void restrict_if_active(mgb_pass_target t, long I)
{
    if (I >= 1 && is_active(t.coarse, I))
        mgb_restrict_row(t.lv, t.coarse, I);
}

/* ---- staged driver ---- */

static double run_staged(const mgb_driver *d, const mgb_pass *p, mgb_pass_target t)
{
    mgb_level *lv = t.lv;
    double sum = 0;
    for (int k = 0; k < p->n; k++) {
        mgb_stage s = p->stage[k];
        if (reads_ghosts(s) && !*t.ghosts_current) {
            mgb_exchange_halo(d->comm, lv, lv->u, 0);
            *t.ghosts_current = 1;
        }
        for (long i = lv->r0; i <= lv->r1; i++)
            sum += apply(s, t, i);
        if (is_restrict(s)) {
            mgb_exchange_halo(d->comm, lv, lv->r, d->corners);
            for (long I = t.coarse->r0; I <= t.coarse->r1; I++)
                mgb_restrict_row(lv, t.coarse, I);
        }
        if (writes_u(s))
            *t.ghosts_current = 0;
    }
    return sum;
}

/* ---- fused driver ---- */

/* After the RESTRICT stage computed residual row i: trade the edge residual
 * row with the neighbour (row ma goes up, ghost row 0 comes from below),
 * then restrict every coarse row whose three fine rows are now known. */
static void after_residual(const mgb_driver *d, mgb_pass_target t, long i)
{
    mgb_level *lv = t.lv;
    int send = (i == lv->ma), recv = (i == 1);
    if (send || recv)
        mgb_pass_residual_up(d->comm, lv, send, recv);
    if (d->upward) {
        if (i % 2 == 0)
            restrict_if_active(t, i / 2);      /* rows i-2, i-1, i */
    } else {
        if (i % 2 == 0 && i + 2 <= lv->ma)
            restrict_if_active(t, i / 2 + 1);  /* rows i, i+1, i+2 */
        if (i == 1)
            restrict_if_active(t, 1);          /* rows 0 (ghost), 1, 2 */
    }
}

static double run_fused(const mgb_driver *d, const mgb_pass *p, mgb_pass_target t)
{
    mgb_level *lv = t.lv;
    long m = lv->ma;
    int start_side = d->upward ? MGB_BELOW : MGB_ABOVE;
    int end_side = d->upward ? MGB_ABOVE : MGB_BELOW;
    int current_at_start = *t.ghosts_current;
    double sum = 0;
    for (long step = 0; step < m + p->n - 1; step++) {
        for (int k = 0; k < p->n; k++) {
            long pos = step - k;
            if (pos < 0 || pos >= m)
                continue;
            long i = d->upward ? 1 + pos : m - pos;
            mgb_stage s = p->stage[k];
            /* Edge rows need the neighbour's edge row as it is after stage
             * k-1: both sides reach that point together (see pass.h). */
            if (reads_ghosts(s) && !(k == 0 && current_at_start)) {
                int sides = (pos == 0 ? start_side : 0) | (pos == m - 1 ? end_side : 0);
                if (sides)
                    mgb_exchange_rows(d->comm, lv, lv->u, sides);
            }
            if (is_active(lv, i))
                sum += apply(s, t, i);
            if (is_restrict(s))
                after_residual(d, t, i);
        }
    }
    *t.ghosts_current = !writes_u(p->stage[p->n - 1]) && reads_ghosts(p->stage[p->n - 1]);
    return sum;
}

double mgb_pass_run(const mgb_driver *d, const mgb_pass *p, mgb_pass_target t)
{
    if (p->n == 0)
        return 0;
    return d->fused ? run_fused(d, p, t) : run_staged(d, p, t);
}
