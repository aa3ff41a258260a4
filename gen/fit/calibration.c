/*
 * calibration.c — backtests by scale and bootstrap refits around a model
 * adapter (see calibration.h; the numerics are models/calibrate.h).
 */
#include "gen/fit/calibration.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/config_index.h"
#include "gen/fit/error_pool.h"
#include "gen/ingest/run_layout.h"
#include "models/calibrate.h"

/* One training configuration: its rows and mean measured response. */
typedef struct {
    size_t *rows;
    size_t nrows;
    double mean;
} train_config;

typedef struct {
    const experiment_input *in;
    model_adapter_fn adapter;
    const calibration_lender *lender; /* NULL: none */
    backtest_cache *cache;  /* lent backtests shared across experiments, NULL: none */
    train_config *cfgs;
    size_t ncfgs;
    size_t *cols;       /* scale columns of the runs table */
    size_t ncols;
    calibrate_score *scores;
    size_t nscores;
    size_t nfolds;      /* refits that produced scores */
    size_t nheld;       /* held-out configurations over those refits */
    char fold_cols[256]; /* "np, N": the parameters whose levels were held out */
    char borrowed[256];  /* experiments whose backtests were borrowed, "" none */
    bool *usable;        /* per configuration: may a refit train on it or hold it out
                            (not a target of the experiment calibrated); NULL = all */
    bool *scored;        /* per configuration: a refit has scored it already */
    bool from_lender;     /* the backtests were lent by c->lender */
    char regime[320];     /* a change of regime found at the top, "" none */
    double unit;          /* the roughness unit of its usable training runs
                             (training_unit, models/calibrate.h) */
    double unit_floor;    /* that unit's floor (the shipped prior's for the
                             family, else CALIBRATE_SMOOTH_ROUGHNESS) */
    /* per pool bin (error_pool_target): the archive pool's and the
       shipped prior's scores in what the experiment shrinks toward */
    size_t npool[CALIBRATE_POOL_BINS + 1], nprior[CALIBRATE_POOL_BINS + 1];
} calib_ctx;

static void ctx_free(calib_ctx *c)
{
    for (size_t i = 0; i < c->ncfgs; i++)
        free(c->cfgs[i].rows);
    free(c->cfgs);
    free(c->cols);
    free(c->scores);
    free(c->usable);
    free(c->scored);
}

static double cell(const calib_ctx *c, size_t row, size_t col)
{
    return table_number(&c->in->camp->runs, row, col);
}

/* ------------------------------------------------------------------ */
/* Training configurations and scale columns                           */

/* The measured response of a run (components summed). */
static double row_value(const calib_ctx *c, size_t row)
{
    const experiment_input *in = c->in;
    return experiment_row_response(&in->camp->runs, row, in->responses, in->nresponses);
}

static bool group_configs(calib_ctx *c)
{
    const experiment_input *in = c->in;
    size_t *group_of;
    if (!config_groups(&in->camp->runs, in->train_rows, in->ntrain, &group_of, &c->ncfgs))
        return false;
    c->cfgs = calloc(c->ncfgs ? c->ncfgs : 1, sizeof *c->cfgs);
    bool ok = c->cfgs != NULL;
    for (size_t i = 0; ok && i < in->ntrain; i++)
        c->cfgs[group_of[i]].nrows++;
    for (size_t k = 0; ok && k < c->ncfgs; k++) {
        ok = (c->cfgs[k].rows = malloc(c->cfgs[k].nrows * sizeof *c->cfgs[k].rows)) != NULL;
        c->cfgs[k].nrows = 0; /* refilled below */
    }
    for (size_t i = 0; ok && i < in->ntrain; i++) {
        train_config *t = &c->cfgs[group_of[i]];
        t->rows[t->nrows++] = in->train_rows[i];
        t->mean += row_value(c, in->train_rows[i]);
    }
    for (size_t k = 0; ok && k < c->ncfgs; k++)
        c->cfgs[k].mean /= (double)c->cfgs[k].nrows;
    free(group_of);
    if (!c->cfgs)
        c->ncfgs = 0;
    return ok;
}

/* A numeric identifying column, positive in every training run, whose value
 * differs between training configurations or between training and a target. */
static bool is_scale_column(const calib_ctx *c, size_t col)
{
    const table *runs = &c->in->camp->runs;
    if (runs->cols[col].kind != COL_NUMBER || !config_column_identifies(&runs->cols[col]))
        return false;
    double first = cell(c, c->cfgs[0].rows[0], col);
    bool differs = false;
    for (size_t k = 0; k < c->ncfgs; k++) {
        double v = cell(c, c->cfgs[k].rows[0], col);
        if (!(v > 0))
            return false;
        differs |= v != first;
    }
    for (size_t i = 0; i < c->in->ntargets && !differs; i++) {
        double v = cell(c, c->in->targets[i].rows[0], col);
        differs = v > 0 && v != first;
    }
    return differs;
}

static bool choose_scale_columns(calib_ctx *c)
{
    const table *runs = &c->in->camp->runs;
    c->cols = malloc((runs->ncols ? runs->ncols : 1) * sizeof *c->cols);
    if (!c->cols)
        return false;
    for (size_t col = 0; col < runs->ncols; col++)
        if (is_scale_column(c, col))
            c->cols[c->ncols++] = col;
    return true;
}

/* The range [lo[i], hi[i]] of every scale column over the configurations
 * with use[k] (NULL = all); lo and hi have ncols entries. */
static void trained_ranges(const calib_ctx *c, const bool *use, double *lo, double *hi)
{
    for (size_t i = 0; i < c->ncols; i++)
        lo[i] = INFINITY, hi[i] = -INFINITY;
    for (size_t k = 0; k < c->ncfgs; k++) {
        if (use && !use[k])
            continue;
        for (size_t i = 0; i < c->ncols; i++) {
            double v = cell(c, c->cfgs[k].rows[0], c->cols[i]);
            lo[i] = fmin(lo[i], v), hi[i] = fmax(hi[i], v);
        }
    }
}

/* Doublings of row beyond the ranges lo/hi (trained_ranges), the largest
 * over the scale columns; with text, each column beyond it as
 * "np 16 = 2x max trained 8" joined by "; ". */
static double row_distance(const calib_ctx *c, size_t row, const double *lo, const double *hi,
                           char *text, size_t len)
{
    double d = 0;
    size_t used = 0;
    if (text && len)
        text[0] = '\0';
    for (size_t i = 0; i < c->ncols; i++) {
        double v = cell(c, row, c->cols[i]);
        double di = calibrate_distance(v, lo[i], hi[i]);
        if (!(di > 0))
            continue;
        d = fmax(d, di);
        if (text && used < len) {
            bool above = v > hi[i];
            double edge = above ? hi[i] : lo[i];
            used += (size_t)snprintf(text + used, len - used, "%s%s %.15g = %.3gx %s trained %.15g",
                                     used ? "; " : "", c->in->camp->runs.cols[c->cols[i]].name, v,
                                     v / edge, above ? "max" : "min", edge);
        }
    }
    return d;
}

/* ------------------------------------------------------------------ */
/* Backtest refits                                                     */

/* No backtest may train on, or score, a configuration the calibrated
 * experiment predicts (issue 22: borrowed backtests scored the
 * borrower's own targets). Marks c's configurations that are one of the
 * targets of `of` (an experiment of the same campaign) unusable; a
 * lender of another campaign has none of them. */
static bool exclude_targets(calib_ctx *c, const experiment_input *of)
{
    free(c->usable);
    c->usable = NULL;
    if (of->camp != c->in->camp || of->ntargets == 0 || c->ncfgs == 0)
        return true;
    config_index ix;
    bool ok = config_index_init(&ix, &c->in->camp->runs, of->ntargets) &&
              (c->usable = malloc(c->ncfgs * sizeof *c->usable)) != NULL;
    for (size_t i = 0; ok && i < of->ntargets; i++)
        ok = of->targets[i].nrows == 0 ||
             config_index_add(&ix, of->targets[i].rows[0], NULL) != CONFIG_NONE;
    bool any = false;
    for (size_t k = 0; ok && k < c->ncfgs; k++) {
        c->usable[k] = config_index_find(&ix, c->cfgs[k].rows[0]) == CONFIG_NONE;
        any |= !c->usable[k];
    }
    config_index_free(&ix);
    if (ok && !any) {
        free(c->usable);
        c->usable = NULL;
    }
    return ok;
}

static bool usable(const calib_ctx *c, size_t k)
{
    return !c->usable || c->usable[k];
}

/* Append to dev[*n] the second differences (calibrate_second_difference)
 * of the usable configurations along scale column col: each with one
 * neighbour below and one above on its line (config_line_point: its line,
 * its log level there, its index in c->cfgs). pts has room for ncfgs. */
static void line_deviations(const calib_ctx *c, size_t col, config_line_point *pts,
                            double *dev, size_t *n)
{
    const table *runs = &c->in->camp->runs;
    size_t m = 0;
    for (size_t k = 0; k < c->ncfgs; k++)
        if (usable(c, k) && c->cfgs[k].mean > 0)
            pts[m++] = (config_line_point){config_line_hash(runs, c->cfgs[k].rows[0], col),
                                           log(cell(c, c->cfgs[k].rows[0], col)), k};
    qsort(pts, m, sizeof *pts, config_line_point_compare);
    for (size_t j = 1; j + 1 < m; j++) {
        const config_line_point *p = &pts[j - 1];
        if (p[0].line != p[2].line ||
            !config_same_line(runs, c->cfgs[p[0].item].rows[0], c->cfgs[p[2].item].rows[0], col) ||
            !config_same_line(runs, c->cfgs[p[0].item].rows[0], c->cfgs[p[1].item].rows[0], col))
            continue;
        double x[3], y[3];
        for (int i = 0; i < 3; i++)
            x[i] = p[i].x, y[i] = log(c->cfgs[p[i].item].mean);
        dev[(*n)++] = calibrate_second_difference(x, y);
    }
}

/* The floor of c's roughness unit: the one the shipped prior learnt for
 * its model family (gen/fit/error_prior.h), else CALIBRATE_SMOOTH_ROUGHNESS
 * (also without a cache, where no prior is in use). */
static double unit_floor(const calib_ctx *c)
{
    const error_pool *pool = c->cache ? backtest_cache_pool(c->cache) : NULL;
    return error_prior_floor(pool ? error_pool_prior(pool) : NULL, c->in->exp->model);
}

/* How rough c's usable training runs are, as the unit of its errors
 * (models/calibrate.h, calibrate_roughness_unit_with): the second
 * differences along every scale column. False only when out of memory. */
static bool training_unit(calib_ctx *c)
{
    config_line_point *pts = malloc((c->ncfgs ? c->ncfgs : 1) * sizeof *pts);
    size_t room = c->ncfgs * c->ncols;
    double *dev = malloc((room ? room : 1) * sizeof *dev);
    size_t n = 0;
    bool ok = pts && dev;
    for (size_t i = 0; ok && i < c->ncols; i++)
        line_deviations(c, c->cols[i], pts, dev, &n);
    c->unit_floor = unit_floor(c);
    c->unit = calibrate_roughness_unit_with(ok ? calibrate_roughness(dev, n) : NAN, c->unit_floor);
    free(pts);
    free(dev);
    return ok;
}

static bool add_score(calib_ctx *c, calibrate_score s)
{
    calibrate_score *more = realloc(c->scores, (c->nscores + 1) * sizeof *more);
    if (!more)
        return false;
    c->scores = more;
    c->scores[c->nscores++] = s;
    return true;
}

/* Refit without the configurations held[k], predict them, keep the scores
 * (of depth: the levels of the parameter held out, models/calibrate.h).
 * A refit the model refuses (too few levels left) is skipped. */
static bool run_fold(calib_ctx *c, const bool *held, size_t depth)
{
    size_t nheld = 0;
    for (size_t k = 0; k < c->ncfgs; k++)
        nheld += held[k];
    experiment_input sub = *c->in;
    sub.estimates_only = true;
    bool *kept = malloc(c->ncfgs * sizeof *kept);
    sub.train_rows = malloc(c->in->ntrain * sizeof *sub.train_rows);
    sub.targets = calloc(nheld, sizeof *sub.targets);
    size_t *which = malloc(nheld * sizeof *which);
    bool ok = kept && sub.train_rows && sub.targets && which;
    sub.ntrain = sub.ntargets = 0;
    for (size_t k = 0; ok && k < c->ncfgs; k++) {
        kept[k] = !held[k] && usable(c, k);
        if (held[k]) {
            which[sub.ntargets] = k;
            /* A held-out configuration has no training history. */
            sub.targets[sub.ntargets++] = (target_config){
                .rows = c->cfgs[k].rows, .nrows = c->cfgs[k].nrows, .measured = c->cfgs[k].mean,
                .nmeasured = c->cfgs[k].nrows, .error_pct = NAN, .nhistory = 0,
                .history_mean = NAN};
        } else if (kept[k]) {
            memcpy(sub.train_rows + sub.ntrain, c->cfgs[k].rows,
                   c->cfgs[k].nrows * sizeof *sub.train_rows);
            sub.ntrain += c->cfgs[k].nrows;
        }
    }
    double *lo = malloc((c->ncols ? c->ncols : 1) * sizeof *lo);
    double *hi = malloc((c->ncols ? c->ncols : 1) * sizeof *hi);
    ok = ok && lo && hi;
    if (ok)
        trained_ranges(c, kept, lo, hi);
    report rep;
    report_init(&rep);
    char err[256];
    size_t before = c->nscores;
    if (ok && c->adapter(&sub, &rep, err, sizeof err)) {
        for (size_t i = 0; ok && i < rep.npreds; i++) {
            const report_prediction *p = &rep.preds[i];
            if (p->config >= sub.ntargets)
                continue;
            /* Each configuration is scored once: by the first refit that
             * held it out (the top level before the top two). */
            if (c->scored[which[p->config]])
                continue;
            c->scored[which[p->config]] = true;
            const train_config *t = &c->cfgs[which[p->config]];
            calibrate_score s = {p->estimate, t->mean,
                                 row_distance(c, t->rows[0], lo, hi, NULL, 0), c->nfolds,
                                 t->rows[0], c->unit, depth};
            ok = add_score(c, s);
        }
    }
    if (c->nscores > before)
        c->nfolds++, c->nheld += nheld;
    report_free(&rep);
    free(lo);
    free(hi);
    free(kept);
    free(sub.train_rows);
    free(sub.targets);
    free(which);
    return ok;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Distinct values of column col over the usable configurations, ascending
 * (none when no configuration is usable). */
static size_t levels_of(const calib_ctx *c, size_t col, double *levels)
{
    size_t n = 0;
    for (size_t k = 0; k < c->ncfgs; k++)
        if (usable(c, k))
            levels[n++] = cell(c, c->cfgs[k].rows[0], col);
    qsort(levels, n, sizeof *levels, compare_doubles);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || levels[i] != levels[m - 1])
            levels[m++] = levels[i];
    return m;
}

/* Is some target below the trained range of col? */
static bool target_below(const calib_ctx *c, size_t col, double lowest)
{
    for (size_t i = 0; i < c->in->ntargets; i++)
        if (cell(c, c->in->targets[i].rows[0], col) < lowest)
            return true;
    return false;
}

/* Has a fold with exactly this held set already been run? */
static bool seen_fold(bool *const *done, size_t ndone, const bool *held, size_t n)
{
    for (size_t i = 0; i < ndone; i++)
        if (memcmp(done[i], held, n * sizeof *held) == 0)
            return true;
    return false;
}

/* Add name to the list of held-out parameters unless it ends the list
 * already (a column's folds run one after another). */
static void note_fold_column(calib_ctx *c, const char *name)
{
    size_t used = strlen(c->fold_cols), n = strlen(name);
    bool last = used >= n && strcmp(c->fold_cols + used - n, name) == 0 &&
                (used == n || c->fold_cols[used - n - 1] == ' ');
    if (!last && used < sizeof c->fold_cols)
        snprintf(c->fold_cols + used, sizeof c->fold_cols - used, "%s%s", used ? ", " : "",
                 name);
}

/* Hold out the configurations at the top (or bottom) `depth` levels of col. */
static bool *held_set(const calib_ctx *c, size_t col, double threshold, bool upward)
{
    bool *held = malloc(c->ncfgs * sizeof *held);
    if (!held)
        return NULL;
    for (size_t k = 0; k < c->ncfgs; k++) {
        double v = cell(c, c->cfgs[k].rows[0], col);
        held[k] = usable(c, k) && (upward ? v >= threshold : v <= threshold);
    }
    return held;
}

#define FOLD_DEPTHS 2 /* hold out the top level, then the top two */

static double repetition_sd_log(const calib_ctx *c);

/* Median of log(predicted / measured) over scores [from, to); NAN none. */
static double median_log_error(const calib_ctx *c, size_t from, size_t to)
{
    size_t n = 0;
    double *e = malloc((to > from ? to - from : 1) * sizeof *e);
    for (size_t i = from; e && i < to; i++)
        if (c->scores[i].predicted > 0 && c->scores[i].measured > 0)
            e[n++] = log(c->scores[i].predicted / c->scores[i].measured);
    double m = NAN;
    if (n) {
        qsort(e, n, sizeof *e, compare_doubles);
        m = n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
    }
    free(e);
    return m;
}

/* Say so when the upward folds of column col (e[0]: without its top level,
 * e[1]: without the top two) show a change of regime at the top level
 * (models/calibrate.h); the first column that shows one is named. */
static void note_regime(calib_ctx *c, size_t col, const double *levels, size_t m,
                        const double *e)
{
    if (c->regime[0] || !calibrate_regime_change(e[0], e[1], repetition_sd_log(c)))
        return;
    const char *name = c->in->camp->runs.cols[col].name;
    double top = round(100 * (exp(e[0]) - 1)), below = round(100 * (exp(e[1]) - 1));
    below = below == 0 ? 0 : below; /* never "-0%" */
    snprintf(c->regime, sizeof c->regime,
             "the runs change at %s = %g beyond the model's law (a change of regime, or a law "
             "the model lacks): fitted on the runs below it, the model misses it by %+.0f%% "
             "where one level lower it missed by %+.0f%%; extrapolation beyond %s = %g is not "
             "supported by the runs",
             name, levels[m - 1], top, below, name, levels[m - 1]);
}

/* Backtests score in c->unit: the context is made by prepare_backtests,
 * or by calibration_apply's own sequence, which ends the same way. */
static bool run_backtests(calib_ctx *c)
{
    free(c->scored);
    if (!(c->scored = calloc(c->ncfgs ? c->ncfgs : 1, sizeof *c->scored)))
        return false;
    size_t cap = c->ncols * FOLD_DEPTHS * 2;
    bool **done = calloc(cap ? cap : 1, sizeof *done);
    double *levels = malloc(c->ncfgs * sizeof *levels);
    size_t ndone = 0;
    bool ok = done && levels;
    for (size_t i = 0; ok && i < c->ncols; i++) {
        size_t col = c->cols[i], m = levels_of(c, col, levels);
        for (int dir = 0; ok && m > 0 && dir < 2; dir++) {
            bool upward = dir == 0;
            double fold_error[FOLD_DEPTHS] = {NAN, NAN};
            if (!upward && !target_below(c, col, levels[0]))
                continue;
            /* A refit keeps two levels at least: from one it cannot learn
             * how the time changes with the parameter at all. */
            for (size_t depth = 1; ok && depth <= FOLD_DEPTHS && depth + 2 <= m; depth++) {
                double threshold = upward ? levels[m - depth] : levels[depth - 1];
                bool *held = held_set(c, col, threshold, upward);
                if (!(ok = held != NULL))
                    break;
                if (seen_fold(done, ndone, held, c->ncfgs)) {
                    free(held);
                    continue;
                }
                done[ndone++] = held;
                size_t before = c->nfolds, first = c->nscores;
                ok = run_fold(c, held, depth);
                if (c->nfolds > before)
                    note_fold_column(c, c->in->camp->runs.cols[col].name);
                fold_error[depth - 1] = median_log_error(c, first, c->nscores);
            }
            if (upward)
                note_regime(c, col, levels, m, fold_error);
        }
    }
    for (size_t i = 0; i < ndone; i++)
        free(done[i]);
    free(done);
    free(levels);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Bootstrap over repetitions                                          */

/* Pooled standard deviation of log responses within configurations. */
static double repetition_sd_log(const calib_ctx *c)
{
    double ss = 0;
    size_t df = 0;
    for (size_t k = 0; k < c->ncfgs; k++) {
        const train_config *t = &c->cfgs[k];
        if (t->nrows < 2 || !(t->mean > 0))
            continue;
        double mean_log = 0;
        for (size_t j = 0; j < t->nrows; j++)
            mean_log += log(row_value(c, t->rows[j])) / (double)t->nrows;
        for (size_t j = 0; j < t->nrows; j++) {
            double dev = log(row_value(c, t->rows[j])) - mean_log;
            ss += dev * dev;
        }
        df += t->nrows - 1;
    }
    return df && isfinite(ss) ? sqrt(ss / (double)df) : 0;
}

/* A spread (log sd, log error scale) for people: below 1e-9 it is the
 * rounding noise of an exact fit ("s = 4.44e-16"), written 0. */
static double shown_spread(double v)
{
    return fabs(v) < 1e-9 ? 0.0 : v;
}

/* est[b * npreds + i]: prediction i of the report, refitted on resample b. */
static bool bootstrap_estimates(calib_ctx *c, const report *rep, double *est)
{
    calibrate_rng g;
    calibrate_rng_seed(&g, CALIBRATION_BOOTSTRAP_SEED);
    experiment_input sub = *c->in;
    sub.estimates_only = true;
    sub.train_rows = malloc((c->in->ntrain ? c->in->ntrain : 1) * sizeof *sub.train_rows);
    if (!sub.train_rows)
        return false;
    bool ok = true;
    for (size_t b = 0; ok && b < CALIBRATION_BOOTSTRAP_RESAMPLES; b++) {
        sub.ntrain = 0;
        for (size_t k = 0; k < c->ncfgs; k++)
            for (size_t j = 0; j < c->cfgs[k].nrows; j++)
                sub.train_rows[sub.ntrain++] =
                    c->cfgs[k].rows[calibrate_rng_below(&g, c->cfgs[k].nrows)];
        report r;
        report_init(&r);
        char err[256];
        for (size_t i = 0; i < rep->npreds; i++)
            est[b * rep->npreds + i] = NAN;
        if (c->adapter(&sub, &r, err, sizeof err))
            for (size_t i = 0; i < rep->npreds && i < r.npreds; i++)
                if (r.preds[i].config == rep->preds[i].config)
                    est[b * rep->npreds + i] = r.preds[i].estimate;
        report_free(&r);
    }
    free(sub.train_rows);
    return ok;
}

static bool has_repetitions(const calib_ctx *c)
{
    for (size_t k = 0; k < c->ncfgs; k++)
        if (c->cfgs[k].nrows > 1)
            return true;
    return false;
}

/* The bootstrap half-width of every prediction, h[i] (NAN where none);
 * false only when out of memory. */
static bool bootstrap_half_widths(calib_ctx *c, const report *rep, double *h)
{
    const size_t B = CALIBRATION_BOOTSTRAP_RESAMPLES;
    double *est = malloc((rep->npreds ? rep->npreds : 1) * B * sizeof *est);
    double *column = malloc(B * sizeof *column);
    bool ok = est && column && bootstrap_estimates(c, rep, est);
    double sd = repetition_sd_log(c);
    for (size_t i = 0; ok && i < rep->npreds; i++) {
        for (size_t b = 0; b < B; b++)
            column[b] = est[b * rep->npreds + i];
        calibrate_status st =
            calibrate_bootstrap(column, B, rep->preds[i].estimate, sd, CALIBRATE_LEVEL, &h[i]);
        ok = st != CALIBRATE_NOMEM;
    }
    free(est);
    free(column);
    return ok;
}

/* Bootstrap intervals; returns false only when out of memory. */
static bool apply_bootstrap(calib_ctx *c, report *rep)
{
    double *h = malloc((rep->npreds ? rep->npreds : 1) * sizeof *h);
    bool ok = h && bootstrap_half_widths(c, rep, h);
    size_t done = 0;
    for (size_t i = 0; ok && i < rep->npreds; i++) {
        report_prediction *p = &rep->preds[i];
        if (h[i] > 0 && calibrate_interval(p->estimate, h[i], p->pi_low, p->pi_high,
                                           &p->cal_low, &p->cal_high) == CALIBRATE_OK)
            done++;
    }
    free(h);
    char text[512];
    snprintf(text, sizeof text,
             "bootstrap over repetitions (%zu resamples of every training configuration's runs, "
             "fixed seed) plus the repetition spread of a new run (log sd %.3g): no refit on "
             "fewer levels was possible, so this covers measurement noise, not model misfit, "
             "widened to contain the model's own prediction interval where it has one; "
             "%zu of %zu predictions have it.",
             (size_t)CALIBRATION_BOOTSTRAP_RESAMPLES, shown_spread(repetition_sd_log(c)), done,
             rep->npreds);
    return ok && report_set_text(&rep->interval_method, text);
}

/* ------------------------------------------------------------------ */

/* The median |error| of the backtest refits: the model's honest
 * out-of-sample error (nested for a searched formula: each refit reran the
 * search). */
static bool add_backtest_stat(const calib_ctx *c, report *rep)
{
    double *err = malloc((c->nscores ? c->nscores : 1) * sizeof *err);
    double *meas = malloc((c->nscores ? c->nscores : 1) * sizeof *meas);
    double *none = malloc((c->nscores ? c->nscores : 1) * sizeof *none);
    bool ok = err && meas && none;
    for (size_t i = 0; ok && i < c->nscores; i++)
        err[i] = c->scores[i].predicted, meas[i] = c->scores[i].measured, none[i] = NAN;
    calibrate_scores sc;
    ok = ok && calibrate_score_targets(err, meas, none, none, c->nscores, &sc) == CALIBRATE_OK;
    char text[256];
    snprintf(text, sizeof text,
             "median |error| %% of %zu backtest predictions (training configurations held out "
             "by scale and predicted by a refit without them%s)",
             sc.ntargets, c->borrowed[0] ? ", borrowed from sibling experiments" : "");
    ok = ok && report_add_stat(rep, "backtest_median_abs_error_pct", sc.median_abs_error_pct, text);
    free(err), free(meas), free(none);
    return ok;
}

/* What c's model family shrinks toward (gen/fit/error_pool.h,
 * error_pool_target): the archive's other campaigns and the shipped prior,
 * per distance bin, and over all of them at [CALIBRATE_POOL_BINS]; every
 * one empty without a cache. A bin where the archive's pool has no score
 * but has some at other distances is left empty, so that target_model
 * takes the whole pool: the archive's own evidence before the prior.
 * Fills c->npool and c->nprior. False only when out of memory. */
static bool pooled_models(calib_ctx *c, calibrate_model *pooled)
{
    error_pool *pool =
        backtest_cache_pool_filled(c->cache, c->in->camp) ? backtest_cache_pool(c->cache) : NULL;
    for (size_t b = 0; b <= CALIBRATE_POOL_BINS; b++)
        if (error_pool_target(pool, c->in->exp->model, c->in->camp, b, CALIBRATE_LEVEL,
                              &pooled[b], &c->npool[b], &c->nprior[b]) == CALIBRATE_NOMEM)
            return false;
    for (size_t b = 0; b < CALIBRATE_POOL_BINS; b++)
        if (c->npool[b] == 0 && c->npool[CALIBRATE_POOL_BINS] > 0)
            pooled[b].nscores = 0;
    return true;
}

#define NO_POOL (CALIBRATE_POOL_BINS + 1)

/* The model for a target at distance d: own (nscores 0: none) shrunk
 * toward the pool's bin of d, or toward the whole pool when that bin is
 * empty; *bin is the bin used (CALIBRATE_POOL_BINS: all), NO_POOL when the
 * pool is empty (then own, unshrunk). Shrunk, own counts with the robust
 * scale of its nearest refits (models/calibrate.h, NEAREST REFITS): with
 * two or three backtests, one wild refit would otherwise set the width
 * whatever the pool says, and the refits one level deep extrapolate as
 * the targets do. */
static calibrate_model target_model(const calibrate_model *own, const calibrate_model *pooled,
                                    double d, size_t *bin)
{
    size_t b = calibrate_distance_bin(d);
    if (pooled[b].nscores == 0)
        b = CALIBRATE_POOL_BINS;
    calibrate_model m, robust = *own;
    robust.scale = own->nearest_scale;
    *bin = calibrate_shrink(&robust, &pooled[b], CALIBRATE_POOL_WEIGHT, CALIBRATE_LEVEL, &m) ==
                   CALIBRATE_OK
               ? b
               : NO_POOL;
    return *bin == NO_POOL ? *own : m;
}

/* Where a width of pool bin b came from: "x/÷1.8: 3 own backtests shrunk
 * toward 41 strip backtests elsewhere and the shipped prior (512
 * backtests of perfcast's data) (1-2 doublings)", "borrowed" for
 * backtests other experiments lent, h its log half-width. */
static void bin_words(const calib_ctx *c, const calibrate_model *own, size_t b, double h,
                      char *text, size_t len)
{
    const char *where = b < CALIBRATE_POOL_BINS ? calibrate_bin_words(b)
                                                : "all distances: none at the target's";
    char mine[128] = "no own backtest;", nearest[64] = "";
    /* Name the nearest refits where they set the scale apart from the rest. */
    if (own->nnearest && own->nnearest < own->nscores)
        snprintf(nearest, sizeof nearest, " (the scale of the %zu nearest)", own->nnearest);
    if (own->nscores)
        snprintf(mine, sizeof mine, "%zu %s backtest%s%s shrunk toward", own->nscores,
                 c->borrowed[0] ? "borrowed" : "own", own->nscores == 1 ? "" : "s", nearest);
    char prior[96] = "";
    if (c->nprior[b])
        snprintf(prior, sizeof prior, "%sthe shipped prior (%zu backtests of perfcast's data)",
                 c->npool[b] ? " and " : "", c->nprior[b]);
    char elsewhere[96] = "";
    if (c->npool[b] || !c->nprior[b])
        snprintf(elsewhere, sizeof elsewhere, "%zu %s backtests elsewhere", c->npool[b],
                 c->in->exp->model);
    snprintf(text, len, "\xC3\x97/\xC3\xB7%.3g: %s %s%s (%s)", exp(h), mine, elsewhere, prior,
             where);
}

/* Where the widths came from, per bin of the pool that some prediction
 * used (bin_words), the factor the widest of them; "" none. */
static void pool_words(const calib_ctx *c, const calibrate_model *own, const double *widest,
                       char *text, size_t len)
{
    size_t used = 0;
    text[0] = '\0';
    for (size_t b = 0; b <= CALIBRATE_POOL_BINS && used + 2 < len; b++) {
        if (!(widest[b] > 0))
            continue;
        if (used)
            used += (size_t)snprintf(text + used, len - used, "; ");
        bin_words(c, own, b, widest[b], text + used, len - used);
        used += strlen(text + used);
    }
}

/* Intervals from own (the experiment's own or borrowed backtests;
 * nscores 0: none) shrunk toward the pool, with floor[i] (NAN: none) the
 * least half-width of prediction i; each pooled prediction says where its
 * width came from (cal_source). Fills *done and the widest half-width per
 * pool bin; false only when out of memory. */
static bool apply_models(const calib_ctx *c, report *rep, const calibrate_model *own,
                         const calibrate_model *pooled, const double *floor, size_t *done,
                         double *widest)
{
    *done = 0;
    for (size_t b = 0; b <= CALIBRATE_POOL_BINS; b++)
        widest[b] = NAN;
    size_t bin;
    calibrate_model inside = target_model(own, pooled, 0, &bin);
    rep->cal_inside_log_half_width = calibrate_half_width(&inside, 0) * c->unit;
    bool ok = true;
    for (size_t i = 0; ok && i < rep->npreds; i++) {
        report_prediction *p = &rep->preds[i];
        calibrate_model m = target_model(own, pooled, p->distance, &bin);
        if (bin == NO_POOL && own->nscores == 0)
            continue;
        double h = calibrate_half_width(&m, p->distance) * c->unit;
        if (floor && isfinite(floor[i]))
            h = fmax(h, floor[i]);
        if (calibrate_interval(p->estimate, h, p->pi_low, p->pi_high, &p->cal_low,
                               &p->cal_high) != CALIBRATE_OK)
            continue;
        ++*done;
        if (bin == NO_POOL)
            continue;
        char words[200];
        bin_words(c, own, bin, h, words, sizeof words);
        ok = report_set_text(&p->cal_source, words);
        if (!(h <= widest[bin]))
            widest[bin] = h;
    }
    return ok;
}

/* "u = 0.12 (sqrt(r^2 + 0.1^2), ...)": c's roughness unit for the method texts. */
static void unit_words(const calib_ctx *c, char *text, size_t len)
{
    snprintf(text, len,
             "u = %.3g (sqrt(r^2 + %g^2), r the robust spread of the training runs' log times "
             "about the line through their neighbours)",
             c->unit, c->unit_floor);
}

static bool apply_backtest(calib_ctx *c, report *rep, const calibrate_model *m,
                           const calibrate_model *pooled)
{
    size_t done;
    double widest[CALIBRATE_POOL_BINS + 1];
    if (!apply_models(c, rep, m, pooled, NULL, &done, widest))
        return false;
    char text[2200], from[448] = "", pooled_text[600], unit[200];
    unit_words(c, unit, sizeof unit);
    pool_words(c, m, widest, pooled_text, sizeof pooled_text);
    if (c->borrowed[0] && c->from_lender)
        snprintf(from, sizeof from, " of the %s experiments %s (%s; its own training "
                 "runs have too few levels for a refit)", c->lender->model, c->borrowed,
                 c->lender->why);
    else if (c->borrowed[0])
        snprintf(from, sizeof from, " of the campaign's experiments %s (same model and "
                 "formula; this one's training runs have too few levels for a refit)",
                 c->borrowed);
    int n = snprintf(text, sizeof text,
             "backtest by scale%s: %zu refits without the largest trained levels of %s "
             "(%zu held-out configurations); log error per doubling beyond the trained range "
             "s = %.3g per unit of roughness %s, Student t = %.3g (%zu scores); "
             "interval = estimate times/divided by exp(t * s * u * max(doublings beyond range, "
             "%.2g)), widened to contain the model's own prediction interval; %zu of %zu "
             "predictions have it.",
             from, c->nfolds, c->fold_cols, c->nheld, shown_spread(m->scale), unit, m->t, m->nscores, (double)CALIBRATE_MIN_DISTANCE, done, rep->npreds);
    if (pooled_text[0] && n > 0 && (size_t)n < sizeof text)
        snprintf(text + n, sizeof text - (size_t)n,
                 " s and t shrunk toward the backtests of the archive's other campaigns "
                 "and perfcast's shipped prior, robust scales (median |log error per "
                 "doubling per unit of roughness| / 0.6745) (s^2 = (n_own s_own^2 + k s_pool^2) / (n_own + k), "
                 "k = min(%g, pool), t on n_own + k): %s.",
                 CALIBRATE_POOL_WEIGHT, pooled_text);
    return report_set_text(&rep->interval_method, text);
}

/* No backtest of its own or its campaign's, but a pool: the pool's
 * intervals, never narrower than the bootstrap's noise where the runs
 * repeat. False only when out of memory. */
static bool apply_pool_only(calib_ctx *c, report *rep, const calibrate_model *pooled)
{
    double *floor = NULL;
    if (has_repetitions(c)) {
        floor = malloc((rep->npreds ? rep->npreds : 1) * sizeof *floor);
        if (!floor || !bootstrap_half_widths(c, rep, floor)) {
            free(floor);
            return false;
        }
    }
    calibrate_model none;
    memset(&none, 0, sizeof none);
    size_t done;
    double widest[CALIBRATE_POOL_BINS + 1];
    bool ok = apply_models(c, rep, &none, pooled, floor, &done, widest);
    free(floor);
    if (!ok)
        return false;
    char text[1400], pooled_text[600], unit[200];
    pool_words(c, &none, widest, pooled_text, sizeof pooled_text);
    unit_words(c, unit, sizeof unit);
    snprintf(text, sizeof text,
             "pooled error model: no refit on fewer levels was possible here or in the "
             "campaign's experiments like it, so s and t are those of the %s backtests of the "
             "archive's other campaigns and perfcast's shipped prior (t on k = min(%g, pool) "
             "scores), per unit of roughness %s: %s; interval = "
             "estimate times/divided by exp(t * s * u * max(doublings beyond range, %.2g)), %s"
             "widened to contain the model's own prediction interval; %zu of %zu predictions "
             "have it.",
             c->in->exp->model, CALIBRATE_POOL_WEIGHT, unit, pooled_text,
             (double)CALIBRATE_MIN_DISTANCE,
             has_repetitions(c) ? "at least the bootstrap over repetitions (the noise floor), "
                                : "",
             done, rep->npreds);
    return report_set_text(&rep->interval_method, text);
}

/* The machine's dimensions of a run (issue 23): its processes per node,
 * its nodes (gen/ingest/run_layout.h) and, where its cluster describes a
 * network (sim_topology), the network level its nodes occupy
 * (models/topology.h); NAN when they cannot be told. */
enum { MACHINE_DIMS = 3 };

static void run_machine(const calib_ctx *c, size_t row, double dims[MACHINE_DIMS])
{
    const campaign *camp = c->in->camp;
    topology topo;
    dims[0] = run_processes_per_node(c->in->arch, camp, row);
    dims[1] = run_nodes(c->in->arch, camp, row);
    dims[2] = run_topology(c->in->arch, camp, row, &topo) ? topology_level(&topo, dims[1]) : NAN;
}

/* Whether the runs table has a scale column called name (its distance is
 * counted with the others already). */
static bool is_scale_named(const calib_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->ncols; i++)
        if (strcmp(c->in->camp->runs.cols[c->cols[i]].name, name) == 0)
            return true;
    return false;
}

/* The training runs' most processes per node, nodes and network level
 * (NAN when no run tells), once for all the targets machine_distance
 * measures. */
static void trained_machine(const calib_ctx *c, double most[MACHINE_DIMS])
{
    double dims[MACHINE_DIMS];
    for (int j = 0; j < MACHINE_DIMS; j++)
        most[j] = NAN;
    for (size_t k = 0; k < c->ncfgs; k++) {
        if (!usable(c, k))
            continue;
        run_machine(c, c->cfgs[k].rows[0], dims);
        for (int j = 0; j < MACHINE_DIMS; j++)
            most[j] = dims[j] >= 0 && !(dims[j] <= most[j]) ? dims[j] : most[j];
    }
}

/* How far a target's machine dimension j lies beyond the trained most, in
 * doublings: log2 of the ratio for counts; for the network level, one per
 * level no training run reached (a new torus dimension or fat-tree level
 * at least doubles the nodes the job spans). */
static double doublings_beyond(int j, double at, double most)
{
    return j == 2 ? at - most : log2(at / most);
}

/* Words for a level of row's cluster: "the first torus dimension". */
static void level_words(const calib_ctx *c, size_t row, double level, char *buf, size_t len)
{
    topology topo;
    run_topology(c->in->arch, c->in->camp, row, &topo);
    topology_level_text(&topo, level, buf, len);
}

/* "network level 3 (the third torus dimension) > max trained 2" */
static size_t level_text(const calib_ctx *c, size_t row, double at, double most,
                         const char *sep, char *buf, size_t len)
{
    char words[80];
    level_words(c, row, at, words, sizeof words);
    int n = snprintf(buf, len, "%snetwork level %.15g (%s) > max trained %.15g",
                     sep, at, words, most);
    return n > 0 ? (size_t)n : 0;
}

/* The most nodes of a training run at network level `level` (NAN when no
 * training run sits at that level). */
static double trained_nodes_at_level(const calib_ctx *c, double level)
{
    double most = NAN, dims[MACHINE_DIMS];
    for (size_t k = 0; k < c->ncfgs; k++) {
        if (!usable(c, k))
            continue;
        run_machine(c, c->cfgs[k].rows[0], dims);
        if (dims[2] == level && !(dims[1] <= most))
            most = dims[1];
    }
    return most;
}

/* A target inside the trained network levels can still be beyond its own
 * level's training runs (issue 23, item 4): on TORUS 4,2,2 the runs at 8
 * and 20 processes (2 and 5 nodes) bracket a 16-process target (4 nodes),
 * yet 16 fills the first torus dimension, whose farthest ring exchange no
 * training run of 2 nodes had; the overhead law interpolates there across
 * a step. The nodes beyond the most nodes of a training run at the
 * target's own level count as log2 of their ratio; a level no training run
 * sits on counts one doubling, as a level beyond them all does
 * (doublings_beyond). Only for a model whose law is fitted across the
 * levels (report_prediction.level_regimes: the strip's); the block model
 * charges each target its own routes' latency, so it is left as it was.
 * Only a described network (torus, fat tree) has
 * levels; a flat cluster's level 1 is every multi-node job, where this
 * adds nothing to the nodes' own distance. */
static size_t regime_distance(const calib_ctx *c, size_t row, const double at[MACHINE_DIMS],
                              const double most[MACHINE_DIMS], double *d, const char *sep,
                              char *buf, size_t len)
{
    if (!(at[2] <= most[2]) || !(at[1] > 0))
        return 0; /* no level, or beyond every trained level: counted already */
    double top = trained_nodes_at_level(c, at[2]);
    if (at[1] <= top)
        return 0;
    *d = fmax(*d, isnan(top) ? 1.0 : log2(at[1] / top));
    char words[80];
    level_words(c, row, at[2], words, sizeof words);
    int n = isnan(top) ? snprintf(buf, len, "%snetwork level %.15g (%s): no training run there",
                                  sep, at[2], words)
                       : snprintf(buf, len, "%snodes %.15g = %.3gx max trained %.15g in %s",
                                  sep, at[1], at[1] / top, top, words);
    return n > 0 ? (size_t)n : 0;
}

/* A target that puts more processes on a node, uses more nodes, or fills a
 * network level than any training run (most, trained_machine) is an
 * extrapolation in that dimension even when no column of the runs says so
 * (the node's memory contention, the network beyond one node, the hops of
 * a new torus dimension): the doublings beyond, added to *d (the largest
 * counts) and to text. Dimensions with a column of their own (ppn, nodes)
 * are counted by row_distance already. */
static void machine_distance(const calib_ctx *c, const double most[MACHINE_DIMS], size_t row,
                             bool level_regimes, double *d, char *text, size_t len)
{
    static const char *const names[MACHINE_DIMS] = {"ppn", "nodes", "network_level"};
    static const char *const words[MACHINE_DIMS] = {"processes per node", "nodes",
                                                    "network level"};
    double at[MACHINE_DIMS];
    run_machine(c, row, at);
    size_t used = strlen(text);
    for (int j = 0; j < MACHINE_DIMS; j++) {
        if (is_scale_named(c, names[j]) || !(at[j] > most[j]))
            continue;
        *d = fmax(*d, doublings_beyond(j, at[j], most[j]));
        if (used >= len)
            continue;
        if (j == 2)
            used += level_text(c, row, at[j], most[j], used ? "; " : "", text + used, len - used);
        else
            used += (size_t)snprintf(text + used, len - used, "%s%s %.15g = %.3gx max trained %.15g",
                                     used ? "; " : "", words[j], at[j], at[j] / most[j], most[j]);
    }
    if (level_regimes && !is_scale_named(c, names[2]))
        regime_distance(c, row, at, most, d, used ? "; " : "", text + (used < len ? used : len),
                        used < len ? len - used : 0);
}

/* distance and beyond of every prediction. */
static bool fill_ranges(calib_ctx *c, report *rep)
{
    double *lo = malloc((c->ncols ? c->ncols : 1) * sizeof *lo);
    double *hi = malloc((c->ncols ? c->ncols : 1) * sizeof *hi);
    bool ok = lo && hi;
    double most[MACHINE_DIMS];
    if (ok)
        trained_ranges(c, NULL, lo, hi), trained_machine(c, most);
    for (size_t i = 0; ok && i < rep->npreds; i++) {
        report_prediction *p = &rep->preds[i];
        if (p->config >= c->in->ntargets)
            continue;
        char text[512];
        size_t row = c->in->targets[p->config].rows[0];
        p->distance = row_distance(c, row, lo, hi, text, sizeof text);
        machine_distance(c, most, row, p->level_regimes, &p->distance, text, sizeof text);
        ok = !text[0] || report_set_text(&p->beyond, text);
    }
    free(lo);
    free(hi);
    return ok;
}

static bool same_text(const char *a, const char *b)
{
    return (!a || !*a) ? (!b || !*b) : (b && strcmp(a, b) == 0);
}

/* Whether c holds the scores of l already, from an earlier lender: two
 * siblings trained on the same configurations make the same refits, and
 * scoring one refit's predictions twice would count one miss as two. */
static bool already_taken(const calib_ctx *c, const lent_backtests *l)
{
    for (size_t start = 0; l->nscores && start + l->nscores <= c->nscores; start++) {
        bool same = true;
        for (size_t i = 0; same && i < l->nscores; i++) {
            const calibrate_score *a = &c->scores[start + i], *b = &l->scores[i];
            same = a->predicted == b->predicted && a->measured == b->measured &&
                   a->distance == b->distance;
        }
        if (same)
            return true;
    }
    return false;
}

/* Add the lent backtests l into c, named name; their folds are numbered
 * after c's own. Backtests c holds already are not added again. */
static bool take_scores(calib_ctx *c, const lent_backtests *l, const char *name)
{
    if (already_taken(c, l))
        return true;
    for (size_t i = 0; i < l->nscores; i++) {
        calibrate_score sc = l->scores[i];
        sc.fold += c->nfolds;
        if (!add_score(c, sc))
            return false;
    }
    c->nfolds += l->nfolds;
    c->nheld += l->nheld;
    size_t used = strlen(c->borrowed);
    if (l->nscores && used < sizeof c->borrowed)
        snprintf(c->borrowed + used, sizeof c->borrowed - used, "%s%s", used ? ", " : "", name);
    if (l->nscores && !c->fold_cols[0])
        snprintf(c->fold_cols, sizeof c->fold_cols, "%s", l->fold_cols);
    return true;
}

/* Whether e is one of camp's experiments. Only those key the cache: they
 * live as long as the archive, while a copy made for one run (compare's
 * candidates, another model on e's split) has an address a later copy
 * may reuse, and its backtests serve no other experiment. */
static bool archive_experiment(const campaign *camp, const experiment_info *e)
{
    for (size_t i = 0; camp && i < camp->nexperiments; i++)
        if (&camp->experiments[i] == e)
            return true;
    return false;
}

/* The backtests of s (grouped, its scale columns chosen, the
 * configurations it may use marked) as experiment e's: from s->cache, or
 * run and kept there; without a cache (or for an e that is no experiment
 * of the archive) run into *own, whose scores the caller frees. NULL when
 * out of memory. */
static const lent_backtests *backtests_of(calib_ctx *s, const experiment_info *e,
                                          lent_backtests *own)
{
    backtest_cache *cache = archive_experiment(s->in->camp, e) ? s->cache : NULL;
    const lent_backtests *hit = backtest_cache_find(cache, e, s->adapter, s->usable, s->ncfgs);
    if (hit)
        return hit;
    if (!run_backtests(s))
        return NULL;
    *own = (lent_backtests){s->scores, s->nscores, s->nfolds, s->nheld, "", ""};
    memcpy(own->fold_cols, s->fold_cols, sizeof own->fold_cols);
    memcpy(own->regime, s->regime, sizeof own->regime);
    s->scores = NULL, s->nscores = 0;
    if (!cache)
        return own;
    if (!backtest_cache_add(cache, e, s->adapter, s->usable, s->ncfgs, own))
        return NULL;
    return backtest_cache_find(cache, e, s->adapter, s->usable, s->ncfgs);
}

/* What a context needs before its backtests run: its training
 * configurations, their scale columns, of's targets left out, and the
 * roughness unit of what is left (training_unit; the scores carry it). */
static bool prepare_backtests(calib_ctx *c, const experiment_input *of)
{
    return group_configs(c) && choose_scale_columns(c) && exclude_targets(c, of) &&
           training_unit(c);
}

/* Move the backtests of experiment e (campaign camp, refitted with
 * adapter) into c, named name. e's configurations that are c's targets
 * are left out of them (exclude_targets); its backtests with the same
 * configurations left out are computed once a build (c->cache) and shared.
 * An experiment that cannot be prepared lends nothing. False only when out
 * of memory. */
static bool lend_backtests(calib_ctx *c, const campaign *camp, const experiment_info *e,
                           model_adapter_fn adapter, const char *name)
{
    experiment_result sib;
    if (!adapter || !experiment_prepare(c->in->arch, camp, e, &sib)) {
        experiment_result_free(&sib);
        return true;
    }
    calib_ctx s = {.in = &sib.input, .adapter = adapter, .cache = c->cache};
    lent_backtests own = {0};
    const lent_backtests *lent = NULL;
    bool ok = prepare_backtests(&s, c->in) && (lent = backtests_of(&s, e, &own)) != NULL &&
              take_scores(c, lent, name);
    free(own.scores);
    ctx_free(&s);
    experiment_result_free(&sib);
    return ok;
}

/* c's own backtests (the configurations it predicts left out), through
 * c->cache: the build's pool computed them already (calibration_pool_add). */
static bool own_backtests(calib_ctx *c)
{
    lent_backtests own = {0};
    const lent_backtests *l = backtests_of(c, c->in->exp, &own);
    bool ok = l != NULL;
    if (ok && l != &own) {
        ok = (c->scores = malloc((l->nscores ? l->nscores : 1) * sizeof *c->scores)) != NULL;
        if (ok && l->nscores)
            memcpy(c->scores, l->scores, l->nscores * sizeof *c->scores);
    } else if (ok) {
        c->scores = own.scores; /* taken back: no cache */
    }
    if (ok) {
        c->nscores = l->nscores, c->nfolds = l->nfolds, c->nheld = l->nheld;
        memcpy(c->fold_cols, l->fold_cols, sizeof c->fold_cols);
        memcpy(c->regime, l->regime, sizeof c->regime);
    }
    return ok;
}

/* When this experiment's own training runs allow no backtest (two levels
 * of the parameter it extrapolates in), the campaign's other experiments
 * with the same model and formula lend theirs: the same code on the same
 * machine, so the same kind of misfit. Their folds count apart. */
static bool borrow_from_siblings(calib_ctx *c)
{
    const campaign *camp = c->in->camp;
    const experiment_info *own = c->in->exp;
    bool ok = true;
    for (size_t i = 0; ok && camp && i < camp->nexperiments; i++) {
        const experiment_info *e = &camp->experiments[i];
        if (strcmp(e->name, own->name) == 0 || strcmp(e->model, own->model) != 0 ||
            !same_text(e->formula, own->formula) || !same_text(e->options, own->options))
            continue;
        ok = lend_backtests(c, camp, e, c->adapter, e->name);
    }
    return ok;
}

/* The lender's experiments of its model lend their backtests (for a
 * multi-cluster experiment, the strip experiments of its backtests_from
 * campaign: their errors when extrapolating in processes are the
 * components' errors). */
static bool borrow_from_lender(calib_ctx *c)
{
    const calibration_lender *l = c->lender;
    bool ok = true;
    for (size_t i = 0; ok && l && l->camp && l->adapter && i < l->camp->nexperiments; i++) {
        const experiment_info *e = &l->camp->experiments[i];
        if (strcmp(e->model, l->model) != 0)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%s/%s", l->camp->name, e->name);
        ok = lend_backtests(c, l->camp, e, l->adapter, name);
    }
    return ok;
}

static bool borrow_backtests(calib_ctx *c)
{
    bool ok = borrow_from_siblings(c);
    if (ok && c->nscores == 0) {
        ok = borrow_from_lender(c);
        c->from_lender = c->nscores > 0;
    }
    return ok;
}

bool calibration_pool_add(const archive *a, const campaign *camp, const experiment_info *e,
                          model_adapter_fn adapter, backtest_cache *cache)
{
    experiment_result res;
    if (!adapter || !experiment_prepare(a, camp, e, &res) || res.input.ntrain == 0 ||
        res.input.ntargets == 0) {
        experiment_result_free(&res);
        return true;
    }
    calib_ctx s = {.in = &res.input, .adapter = adapter, .cache = cache};
    lent_backtests own = {0};
    const lent_backtests *l = NULL;
    bool ok = prepare_backtests(&s, s.in) && (l = backtests_of(&s, e, &own)) != NULL &&
              error_pool_add(backtest_cache_pool(cache), e->model, camp, l->scores, l->nscores);
    free(own.scores);
    ctx_free(&s);
    experiment_result_free(&res);
    return ok;
}

double calibration_training_unit(const experiment_input *in)
{
    calib_ctx c = {.in = in};
    bool ok = in->ntrain > 0 && prepare_backtests(&c, in);
    double unit = ok ? c.unit : in->ntrain == 0 ? calibrate_roughness_unit(NAN) : NAN;
    ctx_free(&c);
    return unit;
}

bool calibration_apply(experiment_result *res, model_adapter_fn adapter,
                       const calibration_lender *lender, backtest_cache *cache)
{
    calib_ctx c = {.in = &res->input, .adapter = adapter, .lender = lender, .cache = cache};
    report *rep = &res->rep;
    bool ok = true;
    if (c.in->ntrain == 0 || rep->npreds == 0)
        return true;
    ok = group_configs(&c) && choose_scale_columns(&c) && fill_ranges(&c, rep) &&
         exclude_targets(&c, c.in) && training_unit(&c) && own_backtests(&c);
    if (ok && c.nscores == 0)
        ok = borrow_backtests(&c);
    calibrate_model m, pooled[CALIBRATE_POOL_BINS + 1];
    ok = ok && pooled_models(&c, pooled);
    calibrate_status st = ok ? calibrate_fit_per_unit(c.scores, c.nscores, CALIBRATE_LEVEL, &m)
                             : CALIBRATE_NOMEM;
    if (st == CALIBRATE_OK)
        ok = apply_backtest(&c, rep, &m, pooled) && add_backtest_stat(&c, rep);
    else if (st == CALIBRATE_NO_SCORES && pooled[CALIBRATE_POOL_BINS].nscores)
        ok = apply_pool_only(&c, rep, pooled);
    else if (st == CALIBRATE_NO_SCORES && has_repetitions(&c))
        ok = apply_bootstrap(&c, rep);
    else if (st == CALIBRATE_NO_SCORES)
        ok = report_set_text(&rep->interval_method,
                             "none: no refit on fewer levels was possible and every training "
                             "configuration was run once, so there is nothing to calibrate on");
    else
        ok = false;
    if (ok && c.regime[0])
        ok = report_set_text(&rep->regime, c.regime);
    ctx_free(&c);
    return ok;
}
