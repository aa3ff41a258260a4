/*
 * solver.c — hierarchy set-up, V-cycle and coarsest solve (see solver.h).
 */
#include "mgbench/solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mgbench/kernels.h"

/* ---- set-up ---- */

static int build_passes(mgb_solver *s)
{
    const mgb_config *c = &s->cfg;
    int rc = 0;
    for (int l = 0; l < s->nlevels; l++) {
        mgb_pass *pre = &s->pre[l], *post = &s->post[l];
        if (l == s->nlevels - 1) { /* coarsest: direct solve; finest alone: norm */
            if (l == 0)
                rc |= mgb_pass_add(post, MGB_ST_NORM);
            continue;
        }
        if (c->pre > 0) {
            rc |= mgb_pass_add(pre, l == 0 ? MGB_ST_RED : MGB_ST_ZERO_RED);
            rc |= mgb_pass_add(pre, MGB_ST_BLACK);
            for (int k = 1; k < c->pre; k++) {
                rc |= mgb_pass_add(pre, MGB_ST_RED);
                rc |= mgb_pass_add(pre, MGB_ST_BLACK);
            }
        } else if (l > 0) {
            rc |= mgb_pass_add(pre, MGB_ST_ZERO);
        }
        /* After a black half-sweep only the red residuals are non-zero. */
        rc |= mgb_pass_add(pre, c->pre > 0 ? MGB_ST_RESTRICT_RED : MGB_ST_RESTRICT);
        rc |= mgb_pass_add(post, MGB_ST_CORRECT);
        for (int k = 0; k < c->post; k++) {
            rc |= mgb_pass_add(post, MGB_ST_RED);
            rc |= mgb_pass_add(post, MGB_ST_BLACK);
        }
        if (l == 0)
            rc |= mgb_pass_add(post, c->post > 0 ? MGB_ST_NORM_RED : MGB_ST_NORM);
    }
    return rc;
}

static int alloc_levels(mgb_solver *s)
{
    const mgb_config *c = &s->cfg;
    int fused = mgb_config_fused(c);
    s->lv = calloc((size_t)s->nlevels, sizeof *s->lv);
    s->current = calloc((size_t)s->nlevels, sizeof *s->current);
    s->pre = calloc((size_t)s->nlevels, sizeof *s->pre);
    s->post = calloc((size_t)s->nlevels, sizeof *s->post);
    if (!s->lv || !s->current || !s->pre || !s->post)
        return -1;
    for (int l = 0; l < s->nlevels; l++) {
        mgb_level *lv = &s->lv[l];
        long rows, first;
        mgb_config_rows(c, s->comm.pa, l, &rows, &first);
        mgb_level_shape_rows(lv, c->na >> l, c->nb >> l, rows, first, c->npb, s->comm.pb);
        if (mgb_level_alloc(lv, !fused) != 0)
            return -1;
        s->current[l] = 1; /* all zero, ghosts included */
    }
    return 0;
}

/* Fills the finest right-hand side h^2 f and returns ||b||^2 of this process. */
static double fill_rhs(mgb_solver *s)
{
    const mgb_config *c = &s->cfg;
    mgb_level *lv = &s->lv[0];
    double h = mgb_problem_h(c->na, c->nb), sum = 0;
    for (long i = lv->r0; i <= lv->r1; i++) {
        double *b = mgb_row(lv, lv->b, i);
        for (long j = lv->c0; j <= lv->c1; j++)
            b[mgb_pos(lv, j)] = h * h * mgb_problem_f(c->problem, c->na, c->nb,
                                                      lv->ia + i - 1, lv->ib + j - 1);
        sum += mgb_sum_squares_row(lv, b);
    }
    return sum;
}

/* Where rank r's owned block lies at a level: `rows` rows from global row
 * *row0, the level's mb columns from *col0. */
static void rank_block(const mgb_solver *s, int r, int level, long *rows, long *row0,
                       long *col0)
{
    mgb_config_rows(&s->cfg, s->coords[2 * r], level, rows, row0);
    *col0 = s->coords[2 * r + 1] * s->lv[level].mb;
}

/* Every rank's block size at a level (doubles) and its place in rank
 * order; returns the total. */
static size_t block_layout(const mgb_solver *s, int level, int *counts, int *displs)
{
    size_t total = 0;
    for (int r = 0; r < s->comm.size; r++) {
        long rows, row0, col0;
        rank_block(s, r, level, &rows, &row0, &col0);
        counts[r] = (int)(rows * s->lv[level].mb);
        displs[r] = (int)total;
        total += (size_t)counts[r];
    }
    return total;
}

static int setup_coarsest(mgb_solver *s)
{
    const mgb_level *lv = &s->lv[s->nlevels - 1];
    int size = s->comm.size;
    s->coords = malloc(2 * (size_t)size * sizeof(int));
    s->counts = malloc(2 * (size_t)size * sizeof(int));
    s->mine = malloc((size_t)(lv->ma * lv->mb) * sizeof(double));
    if (!s->coords || !s->counts || !s->mine)
        return -1;
    s->displs = s->counts + size;
    for (int r = 0; r < size; r++)
        MPI_Cart_coords(s->comm.cart, r, 2, s->coords + 2 * r);
    size_t total = block_layout(s, s->nlevels - 1, s->counts, s->displs);
    s->gathered = malloc(total * sizeof(double));
    if (!s->gathered)
        return -1;
    if (mgb_band_factor(&s->band, lv->na, lv->nb) != 0)
        return -1;
    s->coarse_x = malloc((size_t)(s->band.n > 0 ? s->band.n : 1) * sizeof(double));
    return s->coarse_x ? 0 : -1;
}

/* 0 when every process succeeded (a collective verdict). */
static int all_ok(mgb_comm *c, int rc)
{
    int bad = rc != 0, any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, c->cart);
    return any ? -1 : 0;
}

int mgb_solver_setup(mgb_solver *s, const mgb_config *cfg, MPI_Comm world,
                     char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    if (mgb_config_levels(cfg, &s->nlevels, err, errlen) != 0)
        return -1;
    int size;
    MPI_Comm_size(world, &size);
    if (size != cfg->npa * cfg->npb) {
        snprintf(err, errlen, "the process grid %dx%d needs %d processes, but %d are running",
                 cfg->npa, cfg->npb, cfg->npa * cfg->npb, size);
        return -1;
    }
    long max_rows = mgb_config_max_rows(cfg);
    int rc = mgb_comm_create(&s->comm, world, cfg->npa, cfg->npb, max_rows + 2);
    s->has_comm = 1;
    s->drv.comm = &s->comm;
    s->drv.fused = mgb_config_fused(cfg);
    s->drv.upward = s->comm.pa % 2;
    s->drv.corners = cfg->npb > 1;
    if (rc == 0)
        rc = alloc_levels(s);
    if (rc == 0)
        rc = build_passes(s);
    if (rc == 0)
        rc = setup_coarsest(s);
    if (all_ok(&s->comm, rc) != 0) {
        snprintf(err, errlen, "out of memory (the grids of one process need about %.0f MB)",
                 2.0 * 3 * (double)((max_rows + 2) * (cfg->nb / cfg->npb + 2)) * 8 / 1e6);
        mgb_solver_free(s);
        return -1;
    }
    s->bnorm = sqrt(mgb_allreduce_sum(&s->comm, fill_rhs(s)));
    if (!(s->bnorm > 0)) {
        snprintf(err, errlen, "the right-hand side is zero on this mesh: nothing to solve");
        mgb_solver_free(s);
        return -1;
    }
    s->comm.seconds = 0;
    return 0;
}

/* ---- cycle ---- */

static void coarsest_solve(mgb_solver *s)
{
    int L = s->nlevels - 1;
    mgb_level *lv = &s->lv[L];
    long ma = lv->ma, mb = lv->mb;
    for (long i = 1; i <= ma; i++)
        for (long j = 1; j <= mb; j++)
            s->mine[(i - 1) * mb + (j - 1)] = mgb_row(lv, lv->b, i)[mgb_pos(lv, j)];
    /* Equal blocks keep MPI_Allgather: the recorded campaigns ran it. */
    mgb_allgather(&s->comm, s->mine, (int)(ma * mb), s->gathered,
                  s->cfg.split_np ? s->counts : NULL, s->displs);
    for (int r = 0; r < s->comm.size; r++) {
        const double *block = s->gathered + s->displs[r];
        long rows, gi0, gj0;
        rank_block(s, r, L, &rows, &gi0, &gj0);
        for (long i = 0; i < rows; i++)
            for (long j = 0; j < mb; j++) {
                long idx = mgb_band_index(&s->band, gi0 + i, gj0 + j);
                if (idx >= 0)
                    s->coarse_x[idx] = block[i * mb + j];
            }
    }
    mgb_band_solve(&s->band, s->coarse_x);
    for (long i = 0; i < lv->rows; i++) {
        double *u = mgb_row(lv, lv->u, i);
        for (long j = 0; j < lv->cols; j++) {
            long idx = mgb_band_index(&s->band, lv->ia + i - 1, lv->ib + j - 1);
            u[mgb_pos(lv, j)] = idx >= 0 ? s->coarse_x[idx] : 0.0;
        }
    }
    s->current[L] = 1;
}

static mgb_pass_target target(mgb_solver *s, int l)
{
    mgb_pass_target t = {&s->lv[l], l + 1 < s->nlevels ? &s->lv[l + 1] : NULL,
                         &s->current[l]};
    return t;
}

/* V-cycle from level l down; returns the NORM sum of the finest level. */
static double vcycle(mgb_solver *s, int l)
{
    if (l == s->nlevels - 1) {
        coarsest_solve(s);
        return l == 0 ? mgb_pass_run(&s->drv, &s->post[0], target(s, 0)) : 0.0;
    }
    mgb_pass_run(&s->drv, &s->pre[l], target(s, l));
    vcycle(s, l + 1);
    if (!s->current[l + 1]) {
        mgb_exchange_halo(&s->comm, &s->lv[l + 1], s->lv[l + 1].u, 1);
        s->current[l + 1] = 1;
    }
    return mgb_pass_run(&s->drv, &s->post[l], target(s, l));
}

double mgb_solver_cycle(mgb_solver *s)
{
    double local = vcycle(s, 0);
    return sqrt(mgb_allreduce_sum(&s->comm, local)) / s->bnorm;
}

void mgb_solver_reset(mgb_solver *s)
{
    mgb_level *lv = &s->lv[0];
    memset(lv->u, 0, (size_t)lv->rows * (size_t)lv->cols * sizeof(double));
    s->current[0] = 1;
    s->comm.seconds = 0;
}

size_t mgb_solver_grid_bytes(const mgb_solver *s)
{
    size_t bytes = 0;
    for (int l = 0; l < s->nlevels; l++)
        bytes += mgb_level_bytes(&s->lv[l]);
    return bytes;
}

void mgb_solver_stats(mgb_solver *s, double *max_error, double *max_u)
{
    const mgb_config *c = &s->cfg;
    const mgb_level *lv = &s->lv[0];
    double local[2] = {0, -INFINITY}, global[2];
    int exact_known = 1;
    for (long i = lv->r0; i <= lv->r1; i++)
        for (long j = lv->c0; j <= lv->c1; j++) {
            double u = mgb_row(lv, lv->u, i)[mgb_pos(lv, j)], ex;
            if (mgb_problem_exact(c->problem, c->na, c->nb, lv->ia + i - 1, lv->ib + j - 1, &ex))
                local[0] = fmax(local[0], fabs(u - ex));
            else
                exact_known = 0;
            local[1] = fmax(local[1], u);
        }
    MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, s->comm.cart);
    *max_error = exact_known ? global[0] : NAN;
    *max_u = global[1];
}

/* Copies every rank's finest block (gathered in rank order at displs) into
 * the node grid of the whole mesh. */
static void place_blocks(const mgb_solver *s, const double *all, const int *displs,
                         double *grid)
{
    long mb = s->lv[0].mb, nb = s->cfg.nb;
    for (int r = 0; r < s->comm.size; r++) {
        long rows, gi0, gj0;
        rank_block(s, r, 0, &rows, &gi0, &gj0);
        for (long i = 0; i < rows; i++)
            for (long j = 0; j < mb; j++)
                grid[(gi0 + i) * (nb + 1) + gj0 + j] = all[displs[r] + i * mb + j];
    }
}

int mgb_solver_gather(mgb_solver *s, double **out)
{
    const mgb_level *lv = &s->lv[0];
    long ma = lv->ma, mb = lv->mb, na = s->cfg.na, nb = s->cfg.nb;
    int root = s->comm.rank == 0, size = s->comm.size, rc = 0;
    int *layout = malloc(2 * (size_t)size * sizeof(int));
    double *mine = malloc((size_t)(ma * mb) * sizeof(double));
    double *all = root ? malloc((size_t)(na * nb) * sizeof(double)) : NULL;
    double *grid = root ? calloc((size_t)((na + 1) * (nb + 1)), sizeof(double)) : NULL;
    if (!layout || !mine || (root && (!all || !grid)))
        rc = -1;
    if (all_ok(&s->comm, rc) == 0) {
        block_layout(s, 0, layout, layout + size);
        for (long i = 0; i < ma; i++)
            for (long j = 0; j < mb; j++)
                mine[i * mb + j] = mgb_row(lv, lv->u, i + 1)[mgb_pos(lv, j + 1)];
        MPI_Gatherv(mine, (int)(ma * mb), MPI_DOUBLE, all, layout, layout + size, MPI_DOUBLE, 0,
                    s->comm.cart);
        if (root)
            place_blocks(s, all, layout + size, grid);
    } else {
        rc = -1;
    }
    free(layout);
    free(mine);
    free(all);
    if (rc != 0) {
        free(grid);
        grid = NULL;
    }
    *out = grid;
    return rc;
}

void mgb_solver_free(mgb_solver *s)
{
    for (int l = 0; s->lv && l < s->nlevels; l++)
        mgb_level_free(&s->lv[l]);
    free(s->lv);
    free(s->current);
    free(s->pre);
    free(s->post);
    mgb_band_free(&s->band);
    free(s->coords);
    free(s->counts);
    free(s->mine);
    free(s->gathered);
    free(s->coarse_x);
    if (s->has_comm)
        mgb_comm_free(&s->comm);
    memset(s, 0, sizeof *s);
}
