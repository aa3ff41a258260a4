/*
 * config.c — configuration checks and the level hierarchy (see config.h).
 */
#include "mgbench/config.h"

#include <stdio.h>

#include "mgbench/band.h"
#include "mgbench/refuse.h"

/* The most flops the coarsest grid's banded Cholesky may cost. */
static const double MAX_COARSE_FLOPS = 2e9;

static int check_basic(const mgb_config *c, char *err, size_t len)
{
    if (c->na < 2 || c->nb < 2)
        return mgb_refuse(err, len, "the mesh needs at least 2 intervals each way "
                          "(na=%ld, nb=%ld)", c->na, c->nb);
    if (c->npa < 1 || c->npb < 1)
        return mgb_refuse(err, len, "the process grid %dx%d is empty", c->npa, c->npb);
    if (c->split_np == 0 && c->na % c->npa != 0)
        return mgb_refuse(err, len, "na=%ld is not divisible by npa=%d "
                          "(each process owns na/npa rows)", c->na, c->npa);
    if (c->nb % c->npb != 0)
        return mgb_refuse(err, len, "nb=%ld is not divisible by npb=%d "
                          "(each process owns nb/npb columns)", c->nb, c->npb);
    if (c->pre < 0 || c->post < 0 || c->pre > MGB_MAX_SWEEPS || c->post > MGB_MAX_SWEEPS)
        return mgb_refuse(err, len, "sweeps must be 0..%d (pre=%d, post=%d)", MGB_MAX_SWEEPS,
                          c->pre, c->post);
    if (c->pre + c->post < 1)
        return mgb_refuse(err, len, "a V-cycle needs at least one smoothing sweep "
                          "(pre=%d, post=%d)", c->pre, c->post);
    if (c->max_levels < 0)
        return mgb_refuse(err, len, "--levels must be at least 1 (got %d)", c->max_levels);
    if (c->kernel == MGB_KERNEL_FUSED && c->npb > 1)
        return mgb_refuse(err, len, "the fused kernel needs a strip partition "
                          "(npb=1, got npb=%d); use --kernel staged or auto", c->npb);
    return 0;
}

/* The finest rows per process of each side of a split: the first split_np
 * processes' and the others'. */
static void split_shares(const mgb_config *c, long *rows_a, long *rows_b)
{
    *rows_a = c->split_rows / c->split_np;
    *rows_b = (c->na - c->split_rows) / (c->npa - c->split_np);
}

/* A split's processes must own whole, even row counts of at least 2 (the
 * first halving needs that of every process). */
static int check_split(const mgb_config *c, char *err, size_t len)
{
    if (c->split_np == 0)
        return 0;
    if (c->npb != 1)
        return mgb_refuse(err, len, "--split needs a strip partition (npb=1, got %dx%d)",
                          c->npa, c->npb);
    if (c->split_np < 1 || c->split_np >= c->npa)
        return mgb_refuse(err, len, "--split %d:%ld: the first group needs 1 to %d of the %d "
                          "processes (the others own the rest)", c->split_np, c->split_rows,
                          c->npa - 1, c->npa);
    if (c->split_rows < 1 || c->split_rows >= c->na)
        return mgb_refuse(err, len, "--split %d:%ld: the first group's rows must be 1 to "
                          "na-1=%ld", c->split_np, c->split_rows, c->na - 1);
    long rest = c->na - c->split_rows, others = c->npa - c->split_np;
    if (c->split_rows % c->split_np)
        return mgb_refuse(err, len, "--split %d:%ld: %ld rows are not divisible by %d processes",
                          c->split_np, c->split_rows, c->split_rows, c->split_np);
    if (rest % others)
        return mgb_refuse(err, len, "--split %d:%ld: the other %ld rows (na=%ld minus %ld) are "
                          "not divisible by the other %ld processes", c->split_np, c->split_rows,
                          rest, c->na, c->split_rows, (long)others);
    long ra, rb;
    split_shares(c, &ra, &rb);
    if (ra % 2 || rb % 2 || ra < 2 || rb < 2)
        return mgb_refuse(err, len, "--split %d:%ld gives %ld and %ld rows per process: each "
                          "must be even and at least 2", c->split_np, c->split_rows, ra, rb);
    return 0;
}

void mgb_config_rows(const mgb_config *cfg, int pa, int level, long *rows, long *first)
{
    long ra = cfg->na / cfg->npa, rb = ra, r, f;
    if (cfg->split_np > 0)
        split_shares(cfg, &ra, &rb);
    if (pa < cfg->split_np || cfg->split_np == 0) {
        r = ra;
        f = (long)pa * ra;
    } else {
        r = rb;
        f = cfg->split_rows + (long)(pa - cfg->split_np) * rb;
    }
    *rows = r >> level;
    *first = f >> level;
}

long mgb_config_max_rows(const mgb_config *cfg)
{
    long ra = cfg->na / cfg->npa, rb = ra;
    if (cfg->split_np > 0)
        split_shares(cfg, &ra, &rb);
    return ra > rb ? ra : rb;
}

/* Whether every process's rows at a level can be halved once more:
 * process 0 owns side A's share, the last process side B's (or both the
 * equal share). */
static int rows_halve(const mgb_config *cfg, int level)
{
    int ends[2] = {0, cfg->npa - 1};
    for (int k = 0; k < 2; k++) {
        long rows, first;
        mgb_config_rows(cfg, ends[k], level, &rows, &first);
        if (rows % 2 || rows < 2)
            return 0;
    }
    return 1;
}

int mgb_config_levels(const mgb_config *cfg, int *nlevels, char *err, size_t errlen)
{
    if (check_basic(cfg, err, errlen) != 0 || check_split(cfg, err, errlen) != 0)
        return -1;
    long na = cfg->na, nb = cfg->nb;
    long mb = nb / cfg->npb;
    int levels = 1;
    while (cfg->max_levels == 0 || levels < cfg->max_levels) {
        if (!rows_halve(cfg, levels - 1) || mb % 2 || mb < 2 || na < 4 || nb < 4)
            break;
        mb /= 2, na /= 2, nb /= 2;
        levels++;
    }
    long ma = mgb_config_max_rows(cfg) >> (levels - 1);
    if (mgb_band_cost(na, nb) > MAX_COARSE_FLOPS) {
        snprintf(err, errlen,
                 "the coarsest grid is %ldx%ld intervals (a process owns up to %ldx%ld there): "
                 "too large for its direct solve; make na/npa and nb/npb divisible by a "
                 "larger power of two", na, nb, ma, mb);
        return -1;
    }
    *nlevels = levels;
    return 0;
}

int mgb_config_fused(const mgb_config *cfg)
{
    if (cfg->kernel == MGB_KERNEL_AUTO)
        return cfg->npb == 1;
    return cfg->kernel == MGB_KERNEL_FUSED;
}

const char *mgb_kernel_name(mgb_kernel k)
{
    return k == MGB_KERNEL_FUSED ? "fused" : k == MGB_KERNEL_STAGED ? "staged" : "auto";
}
