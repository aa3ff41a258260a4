/*
 * config.h — what to solve and how, and the level hierarchy it implies.
 * Serial and pure: every process derives the same hierarchy from the same
 * configuration, with no communication.
 */
#ifndef MGBENCH_CONFIG_H
#define MGBENCH_CONFIG_H

#include <stddef.h>

#include "mgbench/problem.h"

typedef enum { MGB_KERNEL_AUTO, MGB_KERNEL_FUSED, MGB_KERNEL_STAGED } mgb_kernel;

typedef struct {
    long na, nb;          /* finest mesh intervals (unknowns (na-1) x (nb-1)) */
    int npa, npb;         /* process grid: npa along a (rows), npb along b */
    int split_np;         /* uneven strip (--split): the first split_np processes */
    long split_rows;      /* own split_rows rows in all, the others the rest;
                             split_np = 0: every process owns na/npa rows */
    int pre, post;        /* smoothing sweeps before / after the coarse correction */
    int max_levels;       /* 0: as many levels as the partition allows */
    mgb_kernel kernel;
    mgb_problem problem;
} mgb_config;

/* Largest accepted sweep count per side. (The coarsest grid's direct
 * solve may cost at most 2e9 flops to factor: a second or two.) */
enum { MGB_MAX_SWEEPS = 20 };

/* Checks the configuration and counts its levels: level l+1 halves every
 * mesh dimension of level l, and exists while EVERY process's owned rows
 * and columns are even and at least 2 and the global mesh keeps at least 2
 * intervals each way (or until max_levels). Returns 0 and sets *nlevels, or
 * -1 with a message in err (e.g. "na=1000 is not divisible by npa=3"). A
 * split (split_np > 0) needs a strip (npb = 1), 0 < split_np < npa, and
 * split_rows/split_np and (na - split_rows)/(npa - split_np) whole, even and
 * at least 2. */
int mgb_config_levels(const mgb_config *cfg, int *nlevels, char *err, size_t errlen);

/* The node rows process row pa owns at `level` (0 = finest): *rows of
 * them, the first being global row *first. Every level halves both (the
 * configuration must have passed mgb_config_levels for that level). */
void mgb_config_rows(const mgb_config *cfg, int pa, int level, long *rows, long *first);

/* The most rows any process owns at the finest level. */
long mgb_config_max_rows(const mgb_config *cfg);

/* True when the configuration runs the fused (wavefront) driver. */
int mgb_config_fused(const mgb_config *cfg);

/* "fused" / "staged" / "auto". */
const char *mgb_kernel_name(mgb_kernel k);

#endif
