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
    if (c->na % c->npa != 0)
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

int mgb_config_levels(const mgb_config *cfg, int *nlevels, char *err, size_t errlen)
{
    if (check_basic(cfg, err, errlen) != 0)
        return -1;
    long na = cfg->na, nb = cfg->nb;
    long ma = na / cfg->npa, mb = nb / cfg->npb;
    int levels = 1;
    while (cfg->max_levels == 0 || levels < cfg->max_levels) {
        if (ma % 2 || mb % 2 || ma < 2 || mb < 2 || na < 4 || nb < 4)
            break;
        ma /= 2, mb /= 2, na /= 2, nb /= 2;
        levels++;
    }
    if (mgb_band_cost(na, nb) > MAX_COARSE_FLOPS) {
        snprintf(err, errlen,
                 "the coarsest grid is %ldx%ld intervals (each process owns %ldx%ld there): "
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
