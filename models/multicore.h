/*
 * multicore.h — the multicore regression of seed 003 (Delgado et al.,
 * "Performance prediction of weather forecasting software on multicore
 * systems", section II.E, equations (1)-(3)).
 *
 * The execution time is a product of one first-order factor per parameter:
 *
 *     T = prod_i (a_i0 + a_i1 * z_i)
 *
 * with z_i taken from the paper's list (multicore_factor below): memory
 * read/write bandwidth per process, 1/nodes, 1/processes-per-node,
 * 1/total processes, network bandwidth per process, 1/platform contribution.
 *
 * Scale ambiguity. Multiplying one factor by k and dividing another by k
 * leaves T unchanged, so the a_ij are not identifiable as written. We fix
 * it by normalising every factor to 1 at the training mean zref_i of its z:
 *
 *     T = scale * prod_i (1 + c_i * (z_i / zref_i - 1))
 *       = scale * prod_i (a_i0 + a_i1 * z_i),  a_i0 = 1 - c_i, a_i1 = c_i / zref_i
 *
 * so a_i0 + a_i1 * zref_i = 1 and `scale` is the time predicted when every
 * z sits at its training mean. c_i = 0: the factor has no effect; c_i = 1:
 * T is proportional to z_i. Unlike fixing a_i0 = 1, this keeps a purely
 * proportional factor (a_i0 = 0) at a finite parameter value.
 *
 * Fitting. Nonlinear least squares (GSL multifit_nlinear, Levenberg-
 * Marquardt in a trust region) on relative residuals (pred - y)/y by
 * default, which is what the paper's error (3) measures and what a
 * multiplicative noise makes homoscedastic; absolute residuals on request.
 * The first start comes from the log-linear fit log y = b0 + sum p_i log z_i
 * (a power law linearised at zref gives c_i = p_i); further starts are
 * deterministic perturbations of it; the start with the smallest cost wins.
 *
 * Identifiability. Before fitting, a factor whose z is constant in the
 * training runs is dropped (its effect is absorbed in `scale`), and so is a
 * factor whose z is an affine function of an earlier kept factor's z (on a
 * single node, procs, cores and mbw_read all vary as 1/ppn): such a pair
 * carries the information of one variable. Dropped factors have c = 0 and
 * are reported, never fitted into garbage. After the fit, a Jacobian of
 * deficient rank (more parameters than the distinct configurations can
 * separate) clears `identifiable`: predictions stand, standard errors and
 * intervals do not. A start counts as converged when GSL's step or gradient
 * test passes (1e-12), or a looser one (1e-8) where it stopped without
 * progress.
 *
 * Intervals (beyond the paper): approximate 95% intervals by the delta
 * method: Cov(theta) = sigma^2 (J'J)^-1 with J the Jacobian of the
 * residuals at the solution, Var(pred) = g' Cov g with g the gradient of the
 * prediction, Student t with n - p degrees of freedom. The prediction
 * interval adds the variance of one new run: (sigma*pred)^2 for relative
 * residuals, sigma^2 for absolute ones. They are linearisations, not exact.
 *
 * How gen/ puts all this into a report (coefficient and stat names, the
 * Table II summary per data set and platform) is described at the top of
 * gen/fit/model_multicore.c.
 *
 * Ownership: multicore_fit_run fills a multicore_fit that the caller
 * releases with multicore_fit_free (also after a failed run). No function
 * here does I/O; messages are written into caller buffers.
 */
#ifndef PERFCAST_MULTICORE_H
#define PERFCAST_MULTICORE_H

#include <stdbool.h>
#include <stddef.h>

/* The parameters of the paper's equation (2). Nn = nodes, Nc = processes
 * per node (the paper's "cores-per-node": cores in use on a node). */
typedef enum {
    MULTICORE_MBW_READ,  /* "mbw_read":  z = MBW_rd / Nc (GB/s per process) */
    MULTICORE_MBW_WRITE, /* "mbw_write": z = MBW_wr / Nc */
    MULTICORE_NODES,     /* "nodes":     z = 1 / Nn */
    MULTICORE_CORES,     /* "cores":     z = 1 / Nc */
    MULTICORE_PROCS,     /* "procs":     z = 1 / (Nc * Nn) */
    MULTICORE_NET_BW,    /* "net_bw":    z = NBW / Nc */
    MULTICORE_PLATFORM,  /* "platform":  z = 1 / pc */
    MULTICORE_NFACTORS
} multicore_factor;

/* The combination section II.E found best for multicore runs ("MBW_RD,
 * MBW_WR, number-of-nodes, total processors, network bandwidth, and
 * cores-per-node"); used when an experiment names no factors. */
#define MULTICORE_DEFAULT_FORMULA "mbw_read * mbw_write * nodes * procs * net_bw * cores"

/* Where a run's z values come from: Nn and Nc from the run, the rest from
 * its cluster (node bandwidths, the platform contribution). NAN = unknown. */
typedef struct {
    double nodes;                 /* Nn */
    double procs_per_node;        /* Nc */
    double mbw_read_gbs;          /* memory read bandwidth of one node */
    double mbw_write_gbs;         /* memory write bandwidth of one node */
    double net_bw_gbs;            /* network bandwidth of one node */
    double platform_contribution; /* benchmark score of the platform */
} multicore_config;

typedef enum {
    MULTICORE_OK = 0,
    MULTICORE_EINVAL,  /* bad input: sizes, a z or y not finite and > 0, bad option */
    MULTICORE_ETOOFEW, /* fewer training runs than parameters */
    MULTICORE_ENOFIT,  /* no start reached a finite fit */
    MULTICORE_ENOMEM
} multicore_status;

typedef enum {
    MULTICORE_RELATIVE, /* minimise sum ((pred - y) / y)^2 (default) */
    MULTICORE_ABSOLUTE  /* minimise sum (pred - y)^2 */
} multicore_residuals;

typedef struct {
    size_t starts;        /* starting points tried, >= 1 (default 8) */
    size_t max_iter;      /* iterations per start (default 1000) */
    multicore_residuals residuals;
} multicore_options;

/* Most factors one fit takes (the paper has seven). */
#define MULTICORE_MAX_FACTORS 16

/* The training data: n runs, m factors (1..MULTICORE_MAX_FACTORS);
 * z[j*m + i] is factor i of run j. */
typedef struct {
    size_t n, m;
    const double *z;
    const double *y;
} multicore_data;

typedef enum {
    MULTICORE_KEPT,      /* fitted */
    MULTICORE_CONSTANT,  /* z constant in the training runs: dropped */
    MULTICORE_DUPLICATE  /* z affine in an earlier kept factor's z: dropped */
} multicore_factor_status;

typedef struct {
    multicore_factor_status status;
    size_t duplicate_of;   /* DUPLICATE: index of the kept factor it follows */
    double dup_slope, dup_offset; /* DUPLICATE: z = slope * z[duplicate_of] + offset */
    double zref;           /* training mean of z: the factor is 1 there */
    double zmin, zmax;     /* training range of z */
    double c;              /* normalised slope (0 when dropped) */
    double a0, a1;         /* the paper's coefficients (1 and 0 when dropped) */
    double se_a0, se_a1;   /* delta-method standard errors; NAN when unavailable */
} multicore_factor_fit;

typedef struct {
    size_t m;                      /* factors asked for */
    multicore_factor_fit *factors; /* m, in the order asked for */
    size_t nkept;
    double scale, se_scale;        /* predicted y with every z at zref */
    size_t n, df;                  /* runs, n - (1 + nkept) */
    multicore_residuals residuals;
    double cost;                   /* sum of squared residuals (criterion's unit) */
    double sigma;                  /* sqrt(cost/df): a fraction of y for relative
                                      residuals; NAN when df == 0 */
    double sigma_abs;              /* sqrt(sum (y - pred)^2 / df) in y's unit; NAN when df == 0 */
    double *cov;                   /* (1+nkept)^2 covariance of (scale, c of kept
                                      factors in order); NULL when df == 0 or
                                      !identifiable */
    bool identifiable;             /* Jacobian of full rank at the solution */
    bool converged;                /* the winning start met the tolerances */
    size_t starts, starts_converged;
    size_t starts_at_best;         /* converged starts whose residual norm is within 1e-6
                                      (relative) of the best, or within 1e-10 of the
                                      norm of the weighted data */
    size_t iterations;             /* of the winning start */
} multicore_fit;

typedef enum {
    MULTICORE_INSIDE = 0,
    MULTICORE_OUTSIDE_RANGE,  /* a kept factor's z outside its training range */
    MULTICORE_DROPPED_CHANGED /* a dropped factor's z breaks what made it droppable */
} multicore_extrapolation;

typedef struct {
    double estimate;
    double se;                /* delta-method standard error of the estimate; NAN if unavailable */
    double ci_low, ci_high;   /* approximate 95% interval of the mean; NAN if unavailable */
    double pi_low, pi_high;   /* approximate 95% interval of a new run; NAN if unavailable */
    multicore_extrapolation extrapolation;
    size_t extrapolation_factor; /* the first factor responsible, when extrapolating */
} multicore_prediction;

typedef struct {
    size_t n;
    double mean, min, max;    /* NAN when n == 0 */
} multicore_error_summary;

/* The factor's name in formulas ("mbw_read", ...). */
const char *multicore_factor_name(multicore_factor f);

/* How the factor's z is computed, for people ("1/(Nc*Nn)"). */
const char *multicore_factor_definition(multicore_factor f);

/* Parse a formula "procs * nodes * cores * mbw_read" into at most max
 * factors (names separated by '*', blanks ignored). Returns false with a
 * message in err on an unknown or repeated name or an empty formula. */
bool multicore_parse_formula(const char *text, multicore_factor *out, size_t max,
                             size_t *n, char *err, size_t errlen);

/* z of factor f for one run. Returns false and points *missing at the name
 * of the configuration value that is absent or not > 0 ("nodes",
 * "mbw_read_gbs", ...). */
bool multicore_factor_z(multicore_factor f, const multicore_config *c, double *z,
                        const char **missing);

/* Defaults: 8 starts, 1000 iterations, relative residuals. */
void multicore_options_default(multicore_options *o);

/* Fit the product law to d. fit is always initialised (free it in every
 * case). On MULTICORE_EINVAL / ETOOFEW / ENOFIT a reason is written to err. */
multicore_status multicore_fit_run(const multicore_data *d, const multicore_options *o,
                                   multicore_fit *fit, char *err, size_t errlen);

void multicore_fit_free(multicore_fit *fit);

/* Predict at z0 (fit->m values). MULTICORE_EINVAL when a z0 is not finite
 * and > 0. Intervals are NAN when the fit has no covariance. */
multicore_status multicore_predict(const multicore_fit *fit, const double *z0,
                                   multicore_prediction *out);

/* The paper's equation (3): 100 * |actual - predicted| / actual.
 * NAN when actual is not finite and > 0 or predicted is not finite. */
double multicore_error_pct(double actual, double predicted);

/* Mean, min and max of the finite values among err[0..n) (Table II). */
void multicore_summarise_errors(const double *err, size_t n, multicore_error_summary *out);

#endif
