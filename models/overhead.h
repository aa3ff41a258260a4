/*
 * overhead.h — the parallel-overhead law shared by the strip model (seed 000)
 * and the block model (seed 001):
 *
 *     overhead(np, work) = alpha(np) + gamma * work
 *     alpha(np) = c + d*L (+ e*L^2 for the block model),  L = log2(np)
 *     gamma     = gamma(largest np measured)
 *
 * Fitting follows the papers' steps: one least-squares line over work per
 * measured np (alpha(np0), gamma(np0)); then alpha as a polynomial in
 * log2 np through the (log2 np0, alpha(np0)) points, by least squares when
 * there are more points than coefficients (exact through them otherwise).
 *
 * Ownership: overhead_fit fills an overhead_law whose `lines` array the
 * caller releases with overhead_law_free. No I/O.
 */
#ifndef PERFCAST_OVERHEAD_H
#define PERFCAST_OVERHEAD_H

#include <stdbool.h>
#include <stddef.h>

/* One measured overhead: `overhead` seconds at np processes with `work` MB
 * per process (already averaged over repetitions). */
typedef struct {
    double np;
    double work;
    double overhead;
} overhead_point;

/* The least-squares line of one np: overhead = alpha + gamma*work. */
typedef struct {
    double np;
    double alpha;
    double gamma;
    size_t npoints;
    double work_min, work_max;
    double max_residual;   /* largest |residual| of the line, seconds */
} overhead_line;

typedef struct {
    overhead_line *lines;  /* one per np that had two or more distinct works, ascending np */
    size_t nlines;
    int degree;            /* degree of alpha in log2 np actually fitted (1 or 2) */
    bool degree_reduced;   /* asked for 2 but only two np were usable: fitted 1 */
    double coef[3];        /* c, d, e (e = 0 when degree is 1) */
    double gamma;          /* gamma of the largest np */
    double np_max;         /* that largest np */
    size_t nskipped;       /* np values dropped for having fewer than two distinct works */
    double skipped_np[8];  /* the first of them, for the warning */
} overhead_law;

typedef enum {
    OVERHEAD_OK = 0,
    OVERHEAD_NOMEM,
    OVERHEAD_BAD_INPUT,      /* a point with a non-finite value or np < 1 */
    OVERHEAD_TOO_FEW_WORKS,  /* no np has two distinct works: no line at all */
    OVERHEAD_TOO_FEW_NP      /* fewer than two np have a line: alpha(np) is undetermined */
} overhead_status;

/* One line of text for a status ("no np has two distinct work levels ..."). */
const char *overhead_status_text(overhead_status s);

/* Fit the law to n points; degree is 1 (strip) or 2 (block). On failure
 * the law is left empty (safe to free). */
overhead_status overhead_fit(const overhead_point *pts, size_t n, int degree,
                             overhead_law *out);

/* alpha(np) from the fitted polynomial. */
double overhead_alpha(const overhead_law *law, double np);

/* alpha(np) + gamma*work. */
double overhead_eval(const overhead_law *law, double np, double work);

/* Whether work lies outside the range of works the lines were fitted on,
 * by more than the relative tolerance tol (the models' work_tol: runs
 * standing for the same per-process mesh differ in work_mb by a fraction of
 * a percent, which is no extrapolation). */
bool overhead_work_outside(const overhead_law *law, double work, double tol);

/* The measured line of exactly np processes, or NULL when np had none. */
const overhead_line *overhead_line_of(const overhead_law *law, double np);

void overhead_law_free(overhead_law *law);

#endif
