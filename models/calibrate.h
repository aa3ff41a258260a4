/*
 * calibrate.h — calibrated 95% prediction intervals for any model, from
 * backtests by scale, and the scores that compare models on held-out runs.
 *
 * Why: a model's own interval (ScoPred's Student-t PI, multicore's delta
 * method) assumes the model is right. Extrapolating to more processes or a
 * larger problem, the error that matters is the model's misfit, which grows
 * with the distance beyond the training range; on the embedded archive the
 * textbook PI covered 73% of held-out runs. Calibration measures that error
 * on the training data itself and widens the interval to match.
 *
 * Method (backtest by scale, Student-t on distance-scaled log errors):
 *  1. The caller refits the model without the largest training
 *     configurations (per scale parameter: the top level, then the top two
 *     levels) and predicts the held-out ones. Each held-out configuration
 *     gives a score: e = log(predicted / measured) and d, its distance
 *     beyond the refit's training range in doublings (log2 of the ratio to
 *     the nearest trained value, largest over the parameters; 0 inside).
 *  2. The errors are put on a per-doubling scale: z = e / max(d, d0), with
 *     d0 = CALIBRATE_MIN_DISTANCE (an interpolation or a short step still
 *     carries the error of one such step), and s = sqrt(mean z^2) (zero
 *     mean: a signed bias that changes with scale is part of the error).
 *  3. A target at distance D gets the log half-width
 *         h = t(0.975, n) * s * max(D, d0)
 *     (the Student-t interval of a zero-mean normal whose variance is
 *     estimated from n values, n = the scores used). Folds holding out the
 *     same configurations run once. With few scores t is large and the
 *     interval honest about it (t(0.975, 1) = 12.7). Counting folds instead
 *     of scores (the scores of one refit share its fit) was tried: on the
 *     simulated campaigns of tests/test_calibrate.c it covered 97-100% with
 *     intervals 1.1-2.1 times as wide (in log) as with scores, 92-100%.
 *     Where the scale is shrunk toward a pool or prior (below), z is
 *     first divided by the experiment's roughness unit u and h multiplied
 *     by the target experiment's u (calibrate_roughness_unit).
 *  4. The calibrated interval is [est * e^-h, est * e^h], widened where
 *     needed to contain the model's own PI (the parametric interval covers
 *     repetition noise that a backtest with few configurations may miss).
 *  When no refit is possible (a model needing every level it was given),
 *  the caller bootstraps instead: resamples the repetitions of every
 *  training configuration (fixed seed), refits, and calibrate_bootstrap
 *  turns the spread of the log estimates, plus the repetition spread of a
 *  new run, into a half-width. That interval covers noise, not misfit, and
 *  the caller says so.
 *
 * Everything is deterministic: the generator is a fixed-seed xorshift64*
 * held by the caller (no global state).
 *
 * Ownership: no function allocates except calibrate_fit (none kept) and
 * calibrate_bootstrap (temporary, freed); results are plain values.
 * No I/O.
 */
#ifndef PERFCAST_CALIBRATE_H
#define PERFCAST_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CALIBRATE_LEVEL 0.95
/* The median of |z| for a zero-mean normal z is 0.6745 sigma (the normal's
 * 75% quantile), so median |z| / 0.6745 estimates sigma like the root mean
 * square does, but a few wild scores cannot move it (50% breakdown). */
#define CALIBRATE_MAD_NORMAL 0.6744897501960817
#define CALIBRATE_MIN_DISTANCE 0.5 /* doublings */

typedef enum {
    CALIBRATE_OK = 0,
    CALIBRATE_NOMEM,
    CALIBRATE_NO_SCORES,   /* no usable score (no refit succeeded, or all non-positive) */
    CALIBRATE_BAD_INPUT,   /* a non-positive or non-finite estimate or level */
} calibrate_status;

/* One held-out training configuration of a backtest refit. */
typedef struct {
    double predicted, measured; /* both > 0 to be used */
    double distance;            /* doublings beyond the refit's range, >= 0 */
    size_t fold;                /* which refit produced it */
    size_t config;              /* the caller's id of the held-out configuration
                                   (a pool scores each once); 0 when unused */
    double unit;                /* the roughness unit of the refitted experiment's
                                   runs (calibrate_roughness_unit); 0: 1, unscaled */
    size_t depth;               /* levels of its parameter the refit held out: 1 for
                                   the nearest refit (without only the top, or the
                                   bottom, level); 0 unknown */
} calibrate_score;

typedef struct {
    size_t nscores;   /* scores used */
    size_t nfolds;    /* distinct folds (refits) among them */
    double scale;     /* s: root mean square log error per doubling */
    double robust_scale; /* median |z| / CALIBRATE_MAD_NORMAL: s where at
                            most half the scores are wild (calibrate_shrink) */
    double nearest_scale; /* the same over the scores of depth 1 only (the
                             refits that extrapolate one level, as a target
                             one level beyond its runs does: CALIBRATE
                             NEAREST REFITS below); robust_scale where no
                             score has depth 1 */
    size_t nnearest;      /* scores of depth 1 among nscores */
    double t;         /* Student t quantile (1 + level) / 2 with nscores df */
    double max_abs_log_error; /* largest |log(predicted/measured)| seen */
} calibrate_model;

/* Calibrate from n scores at level (0.95). */
calibrate_status calibrate_fit(const calibrate_score *scores, size_t n, double level,
                               calibrate_model *out);

/* The same with each score's z divided by its unit (calibrate_roughness_unit,
 * below): scale and robust_scale per unit of roughness. */
calibrate_status calibrate_fit_per_unit(const calibrate_score *scores, size_t n, double level,
                                        calibrate_model *out);

/* The log half-width for a target at distance doublings. */
double calibrate_half_width(const calibrate_model *m, double distance);

/* The calibrated interval around estimate (> 0) with log half-width h,
 * widened to contain [pi_low, pi_high] where those are finite (a pi_low
 * at or below zero is ignored: the interval stays positive).
 * CALIBRATE_BAD_INPUT (and NANs) when estimate <= 0 or h is not finite. */
calibrate_status calibrate_interval(double estimate, double h, double pi_low, double pi_high,
                                    double *low, double *high);

/* Shrinking toward a pool (issue 22, item 4). An experiment's own
 * backtests are few (with four trained levels, two or three refits), so
 * their s is itself uncertain: large errors blow the interval up, and with
 * none the interval fell back to repetition noise. The backtests of the
 * same model family in the archive's other campaigns tell how such
 * extrapolations have gone elsewhere; they are pooled per bin of distance
 * (calibrate_distance_bin) and the experiment's s is a precision-weighted
 * mean of its own and the pool's:
 *     s^2 = (n_own * s_own^2 + k * s_pool^2) / (n_own + k),
 *     k = min(CALIBRATE_POOL_WEIGHT, n_pool),
 * with Student's t on n_own + k scores. k is the pool's worth in
 * "equivalent backtests", fixed at 8 before any interval was measured with
 * it: the pool comes from other codes on other machines, so it may count
 * for no more than one well-sampled experiment's own backtests (two scale
 * parameters, two fold depths, two configurations per held-out level:
 * 8 scores); from nine own scores on, the experiment's own evidence
 * weighs more than the pool. With no own
 * score, s = s_pool and t has k degrees of freedom (t(0.975, 8) = 2.31,
 * where one own score gave 12.7). The bins, d <= 1, 1 < d <= 2 and d > 2
 * doublings (d the score's or the target's distance), were fixed with k:
 * how far an extrapolation goes changes how well a law holds beyond the
 * per-doubling scaling (a term that was negligible starts to count).
 * The pool may itself be shrunk toward a shipped prior first
 * (gen/fit/error_prior.h), and callers pass the experiment's own
 * nearest robust scale as own->scale (gen/fit/calibration.c): with two or
 * three scores, one wild refit would otherwise set the width.
 *
 * NEAREST REFITS (issue 22, 2026-11-27). A target is one level beyond
 * the runs; of an experiment's own refits, those without only the top (or
 * bottom) level of a parameter extrapolate the same way, those without two
 * levels extrapolate from fewer runs, which a target never does. So the
 * own scale that is shrunk is the robust scale of the depth-1 scores
 * (nearest_scale), and n_own still counts every own score (the evidence
 * on how the experiment's laws hold that the pool's weight is set
 * against). Designed on the public rounds 1-5 (tests/fixtures/public/
 * width_sim.sh): the mean interval score fell on all six groups of sets
 * and no group covered fewer targets; counting only the depth-1 scores in
 * n_own was worse on two of them, so it was not taken (README.md). */
#define CALIBRATE_POOL_WEIGHT 8.0
#define CALIBRATE_POOL_BINS 3

/* The pool's bin of a distance in doublings: 0 (d <= 1, non-finite and
 * negative too), 1 (1 < d <= 2), 2 (d > 2). */
size_t calibrate_distance_bin(double distance);

/* "d <= 1 doubling", "1-2 doublings", "> 2 doublings" for bin (words for
 * the interval's source); "" beyond the bins. Static text. */
const char *calibrate_bin_words(size_t bin);

/* own (its nscores may be 0: no own score) shrunk toward pool (nscores >
 * 0) with weight k as above: out->scale and out->t as the formula says,
 * out->nscores = n_own + k (rounded down), out->nfolds = own's,
 * out->max_abs_log_error the larger. CALIBRATE_NO_SCORES (out = own) when
 * the pool is empty; CALIBRATE_BAD_INPUT when weight <= 0 or level is not
 * in (0, 1). */
calibrate_status calibrate_shrink(const calibrate_model *own, const calibrate_model *pool,
                                  double weight, double level, calibrate_model *out);

/* Distance of value beyond [lo, hi] in doublings: log2(value/hi) above,
 * log2(lo/value) below, 0 inside; NAN when a value is not positive. */
double calibrate_distance(double value, double lo, double hi);

/* Bootstrap half-width: the level quantile of |log(b / estimate)| over the
 * n bootstrap estimates b (non-positive ones ignored), combined in
 * quadrature with the new run's noise z * rep_sd_log (rep_sd_log: the
 * pooled standard deviation of log repetitions, 0 when unknown).
 * CALIBRATE_NO_SCORES when fewer than 2 usable estimates. */
calibrate_status calibrate_bootstrap(const double *boot, size_t n, double estimate,
                                     double rep_sd_log, double level, double *h);

/* A change of regime at the top of the training range: a step or a knee
 * (a new topology level, a protocol switch, a cache edge) that the model
 * would extrapolate through. e_top is the median log error
 * log(predicted / measured) of the refit without the largest trained
 * level, at that level; e_below the same for the refit without the two
 * largest levels, at the second largest; noise the pooled standard
 * deviation of log times between repetitions (0 when unknown). A change
 * when the model misses the top level by a quarter or more
 * (|e_top| >= log 1.25), three times as badly as it missed the level below
 * (|e_top| >= 3 |e_below|: the law held up to there), and beyond the noise
 * of a difference of two measured levels (|e_top| >= 3 sqrt(2) noise).
 * The three thresholds were fixed before any data set was scored with
 * them. Non-finite errors: no change. */
#define CALIBRATE_REGIME_MIN_LOG_ERROR 0.22314355131420976 /* log(1.25) */
#define CALIBRATE_REGIME_RATIO 3.0
bool calibrate_regime_change(double e_top, double e_below, double noise);

/* How rough the runs are: the error model's unit (issue 22, item 4).
 *
 * Why: a prior with one scale per model family gave a smooth code and one
 * whose single runs per process count jump between neighbouring counts
 * (the student sorts of tests/fixtures/public/heldout2) the same width:
 * too wide for the first, too narrow for the second. How far a law errs
 * beyond its training runs grows with how far those runs stray from any
 * smooth law, and that the runs show before any refit.
 *
 * Method. For each training configuration with a neighbour below and
 * above along one scale parameter (the other identifying values equal),
 * the deviation of its log time from the straight line, on log-log
 * scales, through its two neighbours:
 *     dev = y1 - (w0 y0 + w2 y2),  w2 = (x1 - x0) / (x2 - x0), w0 = 1 - w2,
 * x the log level, y the log of the configuration's mean time, divided by
 * sqrt(1 + w0^2 + w2^2) so that for independent noise of sd sigma on
 * every point it has sd sigma (calibrate_second_difference). The
 * roughness r is their robust scale, median |dev| / CALIBRATE_MAD_NORMAL
 * (calibrate_roughness): one step in the runs moves it little. The unit
 *     u = sqrt(r^2 + CALIBRATE_SMOOTH_ROUGHNESS^2)
 * (calibrate_roughness_unit; u = CALIBRATE_SMOOTH_ROUGHNESS when no
 * configuration has two neighbours) divides every backtest's error per
 * doubling (calibrate_fit_per_unit): the pool and the shipped prior hold errors
 * per doubling per unit of roughness, and a target's half-width is
 * calibrate_half_width times its experiment's own u. Smooth runs narrow
 * the interval the prior gives, rough ones widen it; an experiment's own
 * backtests are scaled down and back up by the same u, so where they
 * alone decide the width it is as before.
 * CALIBRATE_SMOOTH_ROUGHNESS = 0.1, fixed before any interval was
 * measured with it: a smooth law bends too (t = a/p + c around a/p = c
 * has, between doublings, y0 - 2 y1 + y2 = log(3) - 2 log(2) + log(1.5)
 * = 0.118, 0.096 once divided by sqrt(1.5)), so below about 0.1 a second
 * difference cannot tell noise from a law's shape, and a law's misfit
 * does not vanish with the noise. */
#define CALIBRATE_SMOOTH_ROUGHNESS 0.1

/* dev above, for the points (x[i], y[i]), x[0] < x[1] < x[2]; NAN when
 * the x are not increasing or a value is not finite. */
double calibrate_second_difference(const double x[3], const double y[3]);

/* median |dev[i]| / CALIBRATE_MAD_NORMAL over the finite dev of
 * dev[0..n) (reordered in place); NAN when none is finite. */
double calibrate_roughness(double *dev, size_t n);

/* sqrt(r^2 + CALIBRATE_SMOOTH_ROUGHNESS^2); CALIBRATE_SMOOTH_ROUGHNESS
 * for a roughness that is not finite (unknown). */
double calibrate_roughness_unit(double roughness);

/* The same with another floor: sqrt(r^2 + floor^2), floor when r is not
 * finite. The shipped prior may carry a floor learnt from its backtests
 * for a family (gen/fit/error_prior.h, "floor" rows); without one the
 * floor is CALIBRATE_SMOOTH_ROUGHNESS. */
double calibrate_roughness_unit_with(double roughness, double floor);

/* Deterministic generator (xorshift64*) for the bootstrap. */
typedef struct {
    uint64_t state;
} calibrate_rng;

void calibrate_rng_seed(calibrate_rng *g, uint64_t seed);
/* Uniform in [0, n), n > 0. */
size_t calibrate_rng_below(calibrate_rng *g, size_t n);

/* How a model did on held-out targets (the compare table).
 *
 * Coverage alone rewards an interval for being wide; sharpness is scored
 * beside it. The width is high/low (a factor: 2 means "x/÷ 1.41"); the
 * interval score is Gneiting & Raftery's (2007, eq. 43) for a central 95%
 * interval, on log times so that it does not depend on the unit or the
 * size of the job:
 *     S = log(h/l) + (2/α)·max(0, log(l/y)) + (2/α)·max(0, log(y/h)),
 * α = 0.05, y the measurement: the log width, plus 40 times how far a miss
 * lies outside. Lower is better; 0 would be a point that is always right. */
#define CALIBRATE_SCORE_ALPHA 0.05

typedef struct {
    size_t ntargets;       /* targets with a measurement and an estimate */
    double median_abs_error_pct, max_abs_error_pct; /* NAN when ntargets == 0 */
    size_t nwith_interval; /* of those, with a finite interval */
    size_t ninside;        /* measured inside it */
    double coverage;       /* ninside / nwith_interval, NAN when none */
    double mean_width_pct; /* mean of 100*(high-low)/estimate, NAN when none */
    double median_width_ratio;  /* median of high/low over intervals with low > 0, NAN none */
    double mean_interval_score; /* mean S above over the same, NAN none */
} calibrate_scores;

/* Score n targets: estimate, measured, interval [low, high] (NAN = none).
 * Targets without a finite positive measurement or a finite estimate are
 * skipped. CALIBRATE_NOMEM only. */
calibrate_status calibrate_score_targets(const double *estimate, const double *measured,
                                         const double *low, const double *high, size_t n,
                                         calibrate_scores *out);

#endif
