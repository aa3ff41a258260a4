/*
 * contention.h — how much slower a process computes when others share its
 * node's memory bus: the roofline share law for Tcomp (issue 23, item 1).
 *
 *     Tcomp(ppn) = Tcomp(1) * max(1, ppn * b1 / B)
 *
 * b1 is what one core alone streams from memory (clusters.csv
 * `mbw_core_gbs`), B what the whole node streams (`mbw_read_gbs`, the
 * read bandwidth: the mesh models' kernels read several arrays per one
 * they write, so reads are what saturates first). ppn processes on one
 * node together ask ppn*b1; while that stays under B each gets its
 * one-core rate and Tcomp is unchanged, beyond it they share B and each
 * runs ppn*b1/B times slower. Below saturation the law is exactly 1, so
 * runs on few cores per node (the papers' clusters) are never touched.
 *
 * What is memory-bound: all of Tcomp. The strip and block models' Tcomp
 * is a sequential run of the mgbench multigrid solver on the per-process
 * mesh; its every phase (smoothing, residual, restriction, prolongation,
 * and the setup that fills the arrays) sweeps 5-point stencils over
 * arrays far larger than a core's cache, at about 0.2 flop per byte: a
 * core that streams 7.3 GB/s and computes several Gflop/s waits on
 * memory throughout. A code with a cache-resident or compute-bound part
 * would need a fraction here; none is fitted, so none is guessed.
 *
 * The law is off (factor 1) when it was not asked for, when either
 * bandwidth is unknown, or when the processes per node are unknown: it
 * never guesses a bandwidth.
 *
 * Ownership: nothing is allocated; text goes into caller buffers. No I/O.
 */
#ifndef PERFCAST_CONTENTION_H
#define PERFCAST_CONTENTION_H

#include <stdbool.h>
#include <stddef.h>
#include "models/meshrun.h"

typedef struct {
    bool on;          /* false: the factor is always 1 */
    double core_gbs;  /* b1: one core alone, GB/s */
    double node_gbs;  /* B: the whole node, GB/s */
} contention_law;

/* The law for a node with those bandwidths (NAN or <= 0 = unknown: the
 * law is then off). */
contention_law contention_roofline(double core_gbs, double node_gbs);

/* The law that does nothing. */
contention_law contention_none(void);

/* max(1, ppn * b1 / B); 1 when the law is off or ppn is unknown (NAN or
 * <= 0). */
double contention_factor(const contention_law *law, double ppn);

/* Tcomp at ppn processes per node from the one-process Tcomp. */
double contention_tcomp(const contention_law *law, double tcomp_one, double ppn);

/* The processes per node at which the bus saturates (B / b1); NAN when
 * the law is off. */
double contention_saturation(const contention_law *law);

/* The processes per node of each configuration of cs into out (room for
 * cs->nconfigs): the most among its runs, run_ppn[i] being that of the
 * i-th run given to mesh_configs_build (run_ppn NULL, NAN or <= 0:
 * unknown). The most crowded repetition is taken because a configuration
 * mixing layouts averages times the law cannot undo separately; NAN when
 * none of its runs knows. */
void contention_config_ppn(const mesh_configs *cs, const double *run_ppn, double *out);

/* What the law did at ppn, in words, into buf (always terminated):
 * "16 processes share one node: Tcomp x 1.69 from the node's bandwidth
 * (16 x 7.3 GB/s per core over 69.2 GB/s)", or "... Tcomp unchanged ...".
 * Returns what snprintf returns. */
int contention_text(char *buf, size_t len, const contention_law *law, double ppn);

#endif
