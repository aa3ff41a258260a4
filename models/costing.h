/*
 * costing.h — memory, feasibility and charging of a job (seed 000,
 * Scenarios 1 and 2): memory per process from the memory a code needs per
 * mesh point, whether that fits a cluster's memory per core, and the
 * core-hours and cost of a predicted run, for one cluster or a job split
 * across two.
 *
 * Units: memory in MB, with 1 GB = 1024 MB (clusters.csv gives GB per core,
 * runs give work_mb); time in seconds; rates per core-hour in the
 * cluster's currency.
 *
 * The site calls costing_evaluate with a prediction and the clusters it ran
 * on; `perfcast advise` uses the same function. Nothing here allocates or
 * does I/O; strings are borrowed from the caller.
 */
#ifndef PERFCAST_COSTING_H
#define PERFCAST_COSTING_H

#include <stdbool.h>
#include <stddef.h>

/* What costing needs to know about a cluster (a row of clusters.csv). */
typedef struct {
    const char *name;
    double mem_per_core_gb;     /* NAN = unknown */
    double rate_per_core_hour;  /* NAN = unknown */
    const char *currency;       /* NULL = "units" */
} costing_cluster;

/* One side of a job: np processes on a cluster, each needing mem_mb. */
typedef struct {
    const costing_cluster *cluster;
    double np;
    double mem_mb;              /* memory per process, NAN = unknown */
} costing_side;

typedef enum {
    COSTING_FITS,            /* every side fits its memory per core */
    COSTING_TOO_BIG,         /* some side needs more memory per process than a core has */
    COSTING_MEMORY_UNKNOWN   /* a side's need or its cluster's memory is unknown */
} costing_fit;

typedef struct {
    double core_hours;      /* sum over sides of np*T/3600 */
    double cost;            /* sum over sides of core-hours*rate; NAN when unknown */
    const char *currency;   /* the sides' common currency ("units" when none given) */
    costing_fit fit;        /* the worst side */
    char reason[200];       /* why infeasible, or why cost/fit is unknown; "" when all known */
} costing_result;

/* Core-hours, cost and memory feasibility of a run of time_s seconds over
 * nsides sides (1 or 2). cost is NAN, with the reason, when a rate is
 * unknown or the sides' currencies differ. Returns false on bad input
 * (nsides 0, np < 1, time not finite or negative); out then says why. */
bool costing_evaluate(const costing_side *sides, size_t nsides, double time_s,
                      costing_result *out);

/* Memory per mesh point (MB) from n runs: least squares through the origin
 * of work_mb[i] on points[i]. NAN when n is 0 or every point count is 0. */
double costing_mb_per_point(const double *work_mb, const double *points, size_t n);

/* Whether mem_mb fits in mem_per_core_gb (1e-9 relative slack for values
 * printed as round numbers). False when either is unknown. */
bool costing_fits(double mem_mb, double mem_per_core_gb);

/* Scenario 2: the largest N = 2^k (k <= 30) such that an N x N mesh, its
 * N rows shared over the sides in whole rows per process, needs no more
 * memory per process than each side's cluster has. Rows go to each side in
 * proportion to what it can hold. Returns 0 when even N = 2 does not fit
 * or memory is unknown. rows_per_process gets each side's rows for that N
 * (nsides values, may be NULL). */
double costing_largest_pow2(const costing_side *sides, size_t nsides, double mb_per_point,
                            double *rows_per_process);

#endif
