/*
 * meshrun.h — timed runs of a code on a partitioned 2-D mesh, averaged over
 * repetitions into configurations, and the reference-time lookup that the
 * strip, block and multi-cluster models share.
 *
 * A run solves an na x nb mesh on an npa x npb process grid; what matters to
 * the models is the per-process mesh pa x pb = (na/npa) x (nb/npb), the
 * memory per process (work_mb, the papers' "work") and the wall time.
 *
 * Repetitions: runs with the same grid and the same per-process mesh (or,
 * when the mesh is unknown, the same work within a tolerance) form one
 * configuration; its time is the mean and its spread the relative range.
 *
 * Ownership: mesh_configs_build fills a mesh_configs the caller releases
 * with mesh_configs_free. Lookups return pointers into it. No I/O.
 */
#ifndef PERFCAST_MESHRUN_H
#define PERFCAST_MESHRUN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    double npa, npb;    /* process grid; np = npa*npb (a sequential run is 1 x 1) */
    double pa, pb;      /* per-process mesh na/npa x nb/npb; NAN = unknown */
    double work_mb;     /* memory per process in MB; NAN = unknown */
    double time_s;      /* measured wall time, > 0 */
} mesh_run;

typedef struct {
    double npa, npb, pa, pb;
    double work_mb;     /* mean over repetitions that have it; NAN if none */
    double time_s;      /* mean over repetitions */
    double spread_pct;  /* 100*(max-min)/mean; 0 for a single run */
    size_t reps;
    bool used;          /* set by the models when the configuration entered a fit */
} mesh_config;

typedef struct {
    mesh_config *configs;
    size_t nconfigs;
    size_t *config_of;  /* per run given to mesh_configs_build: its configuration */
    size_t nruns;
    double work_tol;    /* relative tolerance for "same work" */
} mesh_configs;

/* Group runs into configurations. Returns false when out of memory or when
 * a run has a non-positive or non-finite time or grid (out is then empty). */
bool mesh_configs_build(const mesh_run *runs, size_t n, double work_tol, mesh_configs *out);

void mesh_configs_free(mesh_configs *c);

/* True when both sides are known and agree to 1e-9 relative (mesh sizes). */
bool mesh_same_size(double a, double b);

/* True when both works are known and agree within tol (relative). */
bool mesh_same_work(double a, double b, double tol);

/* How a reference time was obtained, best first. */
typedef enum {
    MESH_EXACT,         /* a configuration with the same grid and per-process mesh */
    MESH_SAME_WORK,     /* same grid, different mesh but the same work (within tol) */
    MESH_INTERPOLATED,  /* linear in work between the two nearest configurations */
    MESH_EXTRAPOLATED,  /* linear in work beyond the measured range */
    MESH_SCALED,        /* a single configuration scaled in proportion to work */
    MESH_NONE           /* nothing usable */
} mesh_match;

/* Text for a match kind: "exact", "same work", "interpolated in work", ... */
const char *mesh_match_text(mesh_match m);

/* The two sides' matches of a split job in words, into buf[0..len):
 * "extrapolated in work on both sides" when they agree, else
 * "exact per-process mesh on A, extrapolated in work on B" (one kind said
 * twice read "extrapolated in work and extrapolated in work"). */
void mesh_match_pair_text(mesh_match a, mesh_match b, char *buf, size_t len);

typedef struct {
    mesh_match match;
    double time_s;
    double work_mb;             /* the work the time refers to */
    const mesh_config *config;  /* for MESH_EXACT / MESH_SAME_WORK, else NULL */
} mesh_lookup;

/* The time on grid npa x npb for per-process mesh pa x pb with work_mb MB
 * (either may be NAN). Tries, in order, the exact mesh, the same work, and
 * when allow_interpolation, linear interpolation in work over the grid's
 * configurations (work from work_mb, else mb_per_point*pa*pb). Fills out and
 * returns out->match (MESH_NONE when nothing fits). */
mesh_match mesh_lookup_time(const mesh_configs *cs, double npa, double npb,
                            double pa, double pb, double work_mb, double mb_per_point,
                            bool allow_interpolation, mesh_lookup *out);

/* Memory per mesh point (MB) over the configurations that know both their
 * work and mesh: least squares through the origin of work on pa*pb, so the
 * largest runs (those that decide feasibility) weigh most. NAN if none. */
double mesh_mb_per_point(const mesh_configs *cs);

#endif
