/*
 * ols.h — ordinary least squares with an intercept, as R's lm() does it.
 *
 * The design is an n x k matrix of term values (the intercept column is
 * added here, first). The fit is a Householder QR of the column-scaled
 * design with R's "limited pivoting" (LINPACK dqrdc2, tol 1e-7): columns
 * are taken in order, and a column whose remaining norm falls below
 * tol times its own norm is moved to the end and left out. So when two
 * terms are aliased (a duplicate term, N*log(P) and N*P at a fixed P) the
 * later one is dropped, exactly as R reports "not defined because of
 * singularities"; with fewer runs than coefficients, the trailing terms are.
 *
 * Every statistic that cannot exist is NAN with a reason (ols_absence),
 * never a NaN produced by arithmetic: zero residual degrees of freedom,
 * an exact fit (no residual variance), a constant response, or an
 * intercept-only model.
 *
 * Ownership: ols_fit fills an ols_model the caller releases with
 * ols_free (also after a failed fit). No I/O, no global state.
 */
#ifndef PERFCAST_OLS_H
#define PERFCAST_OLS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    OLS_OK = 0,
    OLS_ERR_NOMEM,      /* out of memory */
    OLS_ERR_NO_RUNS,    /* n == 0 */
    OLS_ERR_NOT_FINITE, /* a design value or a response is NaN or infinite */
    OLS_ERR_TOO_LARGE   /* a design value or a response exceeds OLS_MAX_MAGNITUDE */
} ols_status;

/* Largest |value| a fit accepts: sums of squares of larger values overflow
 * a double (about 1.8e308) and the fit would print NaN coefficients. */
#define OLS_MAX_MAGNITUDE 1e150

/* Why a statistic is absent (NAN). */
typedef enum {
    OLS_PRESENT = 0,
    OLS_NO_RESIDUAL_DF,    /* as many estimable coefficients as runs */
    OLS_EXACT_FIT,         /* residuals are zero to rounding: no variance */
    OLS_CONSTANT_RESPONSE, /* every training response is the same */
    OLS_INTERCEPT_ONLY     /* no term is estimable: nothing to test */
} ols_absence;

/* The tolerance on the remaining column norm below which a column is
 * aliased (R's lm default). */
#define OLS_TOLERANCE 1e-7

typedef struct {
    size_t n;          /* runs fitted */
    size_t ngroups;    /* rows of the fit: n, or the groups of ols_fit_grouped */
    size_t ncoef;      /* 1 + k: index 0 is the intercept, i+1 is term i */
    size_t rank;       /* estimable coefficients */
    size_t df_resid;   /* n - rank */

    double *coef;      /* ncoef; NAN when aliased */
    double *std_error; /* ncoef; NAN when aliased or sigma is absent */
    double *t, *p;     /* ncoef; NAN when aliased or test_absent */
    bool *aliased;     /* ncoef */

    double rss, mss;   /* residual and model sums of squares */
    double r2, adj_r2; /* NAN: see r2_absent, adj_r2_absent */
    double f, f_p;     /* F statistic on f_df1 and df_resid degrees of freedom */
    size_t f_df1;      /* rank - 1 */
    double sigma;      /* residual standard error sqrt(rss/df_resid) */
    ols_absence r2_absent, adj_r2_absent, f_absent, sigma_absent;
    ols_absence test_absent; /* t, p and every interval */

    double *fitted, *residuals, *hat; /* ngroups each: hat = leverage of one run
                                         of the row; a group's residual is its
                                         mean's */
    double max_hat;    /* the largest training leverage */

    /* The factorisation, used by ols_predict; read it through the API. */
    size_t *order;     /* ncoef: coefficient at each pivoted position */
    double *scale;     /* ncoef: the norm each column was divided by */
    double *rinv;      /* rank x rank: inverse of R11 (upper, row-major) */
    double *alias;     /* rank x (ncoef-rank): R11^-1 R12, each left-out
                          column in terms of the estimable ones */
    double *count, *within; /* ngroups each for ols_fit_grouped, else NULL;
                               weighted fits: count and within times the
                               weight (per run for ols_fit_weighted) */
    double *weight;    /* ngroups: each run's weight in a weighted fit, else NULL */
} ols_model;

typedef struct {
    double estimate;
    double leverage;          /* x0'(X'X)^-1 x0 over the estimable columns */
    double se_mean;           /* standard error of the estimated mean; NAN if absent */
    double ci_low, ci_high;   /* confidence interval of the mean; NAN if absent */
    double pi_low, pi_high;   /* prediction interval of a new run; NAN if absent */
    ols_absence interval_absent;
    bool extrapolation;       /* leverage above the largest training leverage */
    bool not_estimable;       /* x0 breaks a relation the training data put on
                                 a left-out coefficient: that coefficient is
                                 ignored, so the estimate is not unique */
    size_t first_broken;      /* the first such coefficient (when not_estimable) */
} ols_prediction;

/* Fit y ~ 1 + x. x is row-major n x k (k may be 0), y has n values.
 * Returns OLS_OK or an error; either way m must be released with ols_free. */
ols_status ols_fit(const double *x, const double *y, size_t n, size_t k, ols_model *m);

/* ols_fit without the leverages: hat is NULL and max_hat 0, so the model
 * serves no ols_loo_residuals, ols_grouped_loo_sse nor ols_hc3_std_error,
 * and ols_predict flags every prediction as an extrapolation (its estimate
 * and intervals are ols_fit's). For an auxiliary regression that reads only
 * the coefficients, the fitted values and the statistics (a Breusch-Pagan
 * test over a million runs), or a refit read for its estimates: one double
 * per run and a pass over the runs less, the same numbers. */
ols_status ols_fit_without_leverages(const double *x, const double *y, size_t n, size_t k,
                                     ols_model *m);

/* The same fit from runs summarised by group (repetitions of one
 * configuration): row i of x stands for count[i] runs that share those
 * term values, mean[i] is their mean response and within[i] the sum of
 * their squared deviations from it. Coefficients, rank, aliasing, rss,
 * df_resid (runs - rank), sigma, r2, F, t and p equal ols_fit's on the
 * runs themselves, to rounding, in time linear in the groups: row i is
 * weighted by sqrt(count[i]), which leaves X'X and X'y as they are.
 * fitted, residuals and hat are per group (see ols_model). A count that is
 * not a whole number >= 1, or a negative within, is OLS_ERR_NOT_FINITE. */
ols_status ols_fit_grouped(const double *x, const double *mean, const double *count,
                           const double *within, size_t g, size_t k, ols_model *m);

/* Weighted least squares over groups: ols_fit_grouped with each run of
 * group i weighing weight[i] (> 0), i.e. minimising
 * sum_i weight[i] * (within[i] + count[i] * (mean[i] - fitted[i])^2). A
 * time's errors grow with it, so a term search weighs runs by 1/mean^2
 * (their relative errors); weighting is a scaling of the rows by
 * sqrt(count * weight), so the same QR serves. rss, sigma, r2, F, the
 * standard errors, the leverages and ols_grouped_loo_sse are those of the
 * weighted problem (sigma is the spread of sqrt(weight) * residual, the
 * leverage of a run is weight * hat); df_resid counts the runs. A weight
 * that is not positive and finite is OLS_ERR_NOT_FINITE. */
ols_status ols_fit_grouped_weighted(const double *x, const double *mean, const double *count,
                                    const double *weight, const double *within, size_t g,
                                    size_t k, ols_model *m);

/* The same for runs one by one: run i weighs weight[i] (> 0). */
ols_status ols_fit_weighted(const double *x, const double *y, const double *weight, size_t n,
                            size_t k, ols_model *m);

/* ols_predict for a weighted model, where a new run at x0 would weigh
 * weight0: its prediction interval is t * sigma * sqrt(1 / weight0 +
 * leverage) (a run of weight w has variance sigma^2 / w). With weights
 * 1/time^2, weight0 is 1/estimate^2: the interval's half-width is then
 * proportional to the estimate. extrapolation compares the target's
 * leverage as a run of weight0 (weight0 * x0'(X'WX)^-1 x0) with the
 * training runs' (weight * hat). A weight0 that is not positive and finite
 * leaves the prediction interval NAN (the estimate and the confidence
 * interval stay). */
void ols_predict_weighted(const ols_model *m, const double *x0, double weight0, double level,
                          ols_prediction *out);

/* The intercept and the first k columns of a grouped design factored
 * once, for fits that add one more column to them: a term search scores
 * hundreds of candidates after the same chosen terms, and the scaling and
 * the reflections of the columns they share are the same every time.
 * ols_fit_grouped_after then gives ols_fit_grouped's model bit for bit
 * (the same operations in the same order, test_ols_grouped.c). A prefix
 * whose own columns the QR would set aside, or with too few rows, is not
 * usable: the fits after it are then plain ols_fit_grouped.
 *
 * Ownership: ols_prefix_init fills a prefix the caller releases with
 * ols_prefix_free (also after a failure). */
typedef struct {
    size_t g, k;    /* rows; columns besides the intercept */
    bool usable;
    double *scale;  /* k + 1: the norm each column was divided by */
    double *v;      /* (k + 1) x g: each step's reflection vector */
    double *beta;   /* k + 1: its factor */
    double *r;      /* (k + 1) x (k + 1), column-major: R of these columns */
    double *qty;    /* g: the weighted means after the reflections */
    /* For ols_prefix_loo_sse: what every fit after the prefix shares. */
    double *x;      /* g x k: the prefix's term values (row-major) */
    double *root;   /* g: sqrt(count) */
    double *rinv;   /* (k + 1) x (k + 1): R's inverse, row-major */
    double *xs;     /* g x (k + 1): each row's scaled design values */
    double *hat;    /* g: each row's leverage from the prefix's columns */
    double *q;      /* (k + 1) x g: the weighted design's orthonormal basis Q */
    double *resid;  /* g: the weighted means' residual from the prefix's fit */
    double rss;     /* its sum of squares */
} ols_prefix;

/* Factor [1 x] (x row-major g x k, k may be 0) with the means and counts
 * of ols_fit_grouped. OLS_OK (see usable) or OLS_ERR_NOMEM. */
ols_status ols_prefix_init(ols_prefix *pre, const double *x, const double *mean,
                           const double *count, size_t g, size_t k);

/* ols_fit_grouped of x (row-major g x k) whose first k - 1 columns are the
 * prefix's x, with the same means and counts. */
ols_status ols_fit_grouped_after(const ols_prefix *pre, const double *x, const double *mean,
                                 const double *count, const double *within, size_t g, size_t k,
                                 ols_model *m);

/* ols_grouped_loo_sse of ols_fit_grouped_after's model for the prefix
 * plus one column, for each of ncols columns (cols[j]: g values) into
 * sse[j], without building those models: a term search scores tens of
 * thousands of candidates by this sum alone. Each sum is the same bit for
 * bit (the same operations in the same order; test_ols_grouped.c): R's
 * inverse, the leverages' sums and the scaled values of the prefix's
 * columns are kept in the prefix, so a column costs O(g k) instead of
 * O(g k^2) and no model is allocated; columns are taken four at a time,
 * interleaved, so their sums overlap; with a finite limit, four columns
 * whose residual sums of squares (a lower bound of the LOO sum, from Q and
 * the prefix's residual in O(g k) multiply-adds, with a margin of 1e-6 for
 * rounding) are all at or above limit are not fitted at all. sse[j] is
 * INFINITY when column j is
 * not finite or too large, when the model would not be of full rank (the
 * column aliased with the prefix) or a group cannot be left out. The sum
 * only grows, group by group, so a caller that needs only the sums below
 * limit (INFINITY: every sum) lets a column stop once its sum reaches
 * limit: sse[j] is then some value >= limit, not the sum. Returns
 * OLS_OK, OLS_ERR_NOMEM, OLS_ERR_NOT_FINITE for bad means, counts or
 * spreads, or OLS_ERR_NO_RUNS for a prefix that is not usable or has other
 * than g rows (then fit with ols_fit_grouped). */
ols_status ols_prefix_loo_sse(const ols_prefix *pre, const double *const *cols, size_t ncols,
                              const double *mean, const double *count, const double *within,
                              size_t g, double limit, double *sse);

/* The same three for the weighted fit (ols_fit_grouped_weighted): the
 * prefix factored with each run of group i weighing weight[i], the fit
 * after it, and the leave-one-group-out sums of the weighted problem
 * (sum of weight * squared leave-out residual). With every weight 1 they
 * give the unweighted results bit for bit. */
ols_status ols_prefix_init_weighted(ols_prefix *pre, const double *x, const double *mean,
                                    const double *count, const double *weight, size_t g,
                                    size_t k);
ols_status ols_fit_grouped_after_weighted(const ols_prefix *pre, const double *x,
                                          const double *mean, const double *count,
                                          const double *weight, const double *within, size_t g,
                                          size_t k, ols_model *m);
ols_status ols_prefix_loo_sse_weighted(const ols_prefix *pre, const double *const *cols,
                                       size_t ncols, const double *mean, const double *count,
                                       const double *weight, const double *within, size_t g,
                                       double limit, double *sse);

void ols_prefix_free(ols_prefix *pre);

/* Sum over every run of its squared leave-one-group-out residual, for a
 * model from ols_fit_grouped (each group left out whole) or ols_fit (each
 * run alone): what ols_loo_residuals gives with the groups as group, in
 * O(groups). INFINITY when some group cannot be left out. */
ols_status ols_grouped_loo_sse(const ols_model *m, double *sse);

void ols_free(ols_model *m);

/* Predict at the k term values x0 with intervals at level (0.95 for 95%). */
void ols_predict(const ols_model *m, const double *x0, double level, ols_prediction *out);

/* Leave-out residuals of every run: y_i minus the prediction of a fit
 * without it (e_i / (1 - h_i) from the hat matrix, no refitting). With
 * group (a group id per run, may be NULL), all runs of a group are left out
 * together: (I - H_GG)^-1 e_G, so repeated runs of one configuration do not
 * vouch for each other. A run whose group cannot be left out (the fit would
 * be undetermined without it) gets INFINITY. x is the row-major n x k term
 * matrix the model was fitted on; out has n values. Returns OLS_OK or
 * OLS_ERR_NOMEM. For a model from ols_fit only (see ols_grouped_loo_sse). */
ols_status ols_loo_residuals(const ols_model *m, const double *x, size_t k,
                             const size_t *group, double *out);

/* Heteroscedasticity-consistent standard error of coefficient j (HC3,
 * MacKinnon & White 1985): valid when the spread of the errors changes
 * with the terms, as run-time noise that grows with the time does. NAN
 * for an aliased coefficient, INFINITY when a run has leverage 1. x is the
 * term matrix the model was fitted on (one row per group for
 * ols_fit_grouped: a group's runs share a and h, so their squared
 * residuals enter as within + count * residual^2). Returns OLS_OK or
 * OLS_ERR_NOMEM. */
ols_status ols_hc3_std_error(const ols_model *m, const double *x, size_t k, size_t j,
                             double *se);

/* One line saying why a statistic is absent ("" for OLS_PRESENT). */
const char *ols_absence_text(ols_absence a);

/* One line for an ols_status. */
const char *ols_status_text(ols_status s);

#endif
