/*
 * verdict.c — the rules of verdict.h applied to an experiment's result.
 */
#include "gen/fit/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/config_index.h"
#include "gen/ingest/run_layout.h"
#include "render/buf.h"

/* Thresholds of verdict.h, in one place. */
#define RELIABLE_MEDIAN_PCT 10.0
#define RELIABLE_MAX_PCT 25.0
#define UNRELIABLE_MEDIAN_PCT 20.0
#define UNRELIABLE_MAX_PCT 50.0
#define GOOD_COVERAGE 0.90
#define MIN_HELD_OUT 3
#define MIN_POINTS_PER_COEF 2.0
#define FAR_DOUBLINGS 2.0
#define NOISY_SPREAD_PCT 10.0
/* A reliable estimate must be usable for planning (issue 22, item 7): its
 * calibrated interval may span at most x/÷2 (median over the targets), a
 * factor 4 from low to high; a wider one may hold and still say little. */
#define WIDE_FACTOR 2.0

const char *verdict_name(verdict_level level)
{
    static const char *const names[] = {"reliable", "uncertain", "unreliable", "not verified"};
    return names[level];
}

void verdict_free(verdict *v)
{
    free(v->reasons);
    v->reasons = NULL;
}

/* What the checks found. */
typedef struct {
    size_t held, with_cal, inside_cal;
    double median_err, max_err;
    double max_distance, median_factor;
    size_t configs, coefs, oversubscribed;
    double max_spread_pct;
    bool bootstrap_only, no_interval;
    size_t held_to_trend, npreds; /* estimates held to the runs' trend, of all */
} evidence;

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static bool held_out_evidence(const experiment_result *res, evidence *ev)
{
    const report *r = &res->rep;
    double *err = malloc((r->npreds ? r->npreds : 1) * sizeof *err);
    double *factor = malloc((r->npreds ? r->npreds : 1) * sizeof *factor);
    if (!err || !factor) {
        free(err), free(factor);
        return false;
    }
    size_t nfactor = 0;
    for (size_t i = 0; i < r->npreds; i++) {
        const report_prediction *p = &r->preds[i];
        if (isfinite(p->distance))
            ev->max_distance = fmax(ev->max_distance, p->distance);
        if (isfinite(p->cal_low) && p->cal_low > 0 && isfinite(p->cal_high))
            factor[nfactor++] = sqrt(p->cal_high / p->cal_low);
        else
            ev->no_interval = true;
        if (p->config >= res->input.ntargets)
            continue;
        const target_config *t = &res->input.targets[p->config];
        if (t->nmeasured == 0 || !isfinite(t->error_pct))
            continue;
        err[ev->held++] = fabs(t->error_pct);
        ev->max_err = fmax(ev->max_err, fabs(t->error_pct));
        if (isfinite(p->cal_low) && isfinite(p->cal_high)) {
            ev->with_cal++;
            ev->inside_cal += t->measured >= p->cal_low && t->measured <= p->cal_high;
        }
    }
    ev->median_err = ev->held ? median(err, ev->held) : NAN;
    ev->median_factor = nfactor ? median(factor, nfactor) : NAN;
    free(err), free(factor);
    return true;
}

/* More processes per node than the cluster has cores (gen/ingest/run_layout.h). */
static bool oversubscribed(const experiment_input *in, size_t row)
{
    return run_oversubscribed(in->arch, in->camp, row, NULL, NULL);
}

/* The multi-cluster model's own interval is made of pooled backtest
 * widths for its sides and the link's measured-against-nominal error
 * (gen/fit/multicluster_pi.h): a bootstrap widened to contain it covers
 * misfit too, so "covers noise, not misfit" would be false. */
static bool own_interval_covers_misfit(const experiment_result *res)
{
    const experiment_info *exp = res->input.exp;
    if (!exp || !exp->model || strcmp(exp->model, "multicluster") != 0 || res->rep.npreds == 0)
        return false;
    for (size_t i = 0; i < res->rep.npreds; i++)
        if (isnan(res->rep.preds[i].pi_low) || isnan(res->rep.preds[i].pi_high))
            return false;
    return true;
}

/* Training configurations, their largest repetition spread, and the runs
 * (training and target) that oversubscribe their nodes. False only when
 * out of memory. */
static bool training_evidence(const experiment_result *res, evidence *ev)
{
    const experiment_input *in = &res->input;
    const table *t = &in->camp->runs;
    size_t *group_of;
    if (!config_groups(t, in->train_rows, in->ntrain, &group_of, &ev->configs))
        return false;
    size_t ng = ev->configs ? ev->configs : 1;
    double *lo = malloc(ng * sizeof *lo), *hi = malloc(ng * sizeof *hi);
    double *sum = calloc(ng, sizeof *sum);
    size_t *n = calloc(ng, sizeof *n);
    bool ok = lo && hi && sum && n;
    for (size_t g = 0; ok && g < ev->configs; g++)
        lo[g] = INFINITY, hi[g] = -INFINITY;
    for (size_t i = 0; ok && i < in->ntrain; i++) {
        size_t g = group_of[i];
        double v = experiment_row_response(t, in->train_rows[i], in->responses, in->nresponses);
        lo[g] = fmin(lo[g], v), hi[g] = fmax(hi[g], v), sum[g] += v, n[g]++;
        ev->oversubscribed += oversubscribed(in, in->train_rows[i]);
    }
    for (size_t g = 0; ok && g < ev->configs; g++)
        if (n[g] > 1 && sum[g] > 0)
            ev->max_spread_pct = fmax(ev->max_spread_pct, 100 * (hi[g] - lo[g]) / (sum[g] / (double)n[g]));
    free(group_of), free(lo), free(hi), free(sum), free(n);
    for (size_t i = 0; i < in->ntargets; i++)
        for (size_t k = 0; k < in->targets[i].nrows; k++)
            ev->oversubscribed += oversubscribed(in, in->targets[i].rows[k]);
    for (size_t i = 0; i < res->rep.ncoefs; i++)
        ev->coefs += !res->rep.coefs[i].aliased;
    const char *m = res->rep.interval_method;
    ev->bootstrap_only = m && strncmp(m, "bootstrap", 9) == 0 && !own_interval_covers_misfit(res);
    return ok;
}

/* Raise the level to at least `to` and add the reason. */
static void weigh(verdict_level *level, verdict_level to, rbuf *reasons, const char *text)
{
    if (to > *level)
        *level = to;
    if (reasons->len)
        rbuf_puts(reasons, "; ");
    rbuf_puts(reasons, text);
}

/* v with sig significant digits as a page reads it, never in e-notation
 * (%g writes 1.42e-13 and 1.23e+03): below 0.001 it is the rounding noise
 * of an exact fit and written 0; from 10^sig up, whole. Into buf. */
static const char *plain(char *buf, size_t len, double v, int sig)
{
    if (fabs(v) < 1e-3)
        v = 0;
    if (fabs(v) >= pow(10, sig))
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.*g", sig, v);
    return buf;
}

static verdict_level error_level(const evidence *ev, rbuf *why)
{
    char med[32], max[32];
    verdict_level level = VERDICT_RELIABLE;
    char text[256];
    snprintf(text, sizeof text, "held-out median |error| %s%%, max %s%% over %zu target%s",
             plain(med, sizeof med, ev->median_err, 3), plain(max, sizeof max, ev->max_err, 3),
             ev->held, ev->held == 1 ? "" : "s");
    verdict_level by_error = VERDICT_RELIABLE;
    if (ev->median_err > UNRELIABLE_MEDIAN_PCT || ev->max_err > UNRELIABLE_MAX_PCT)
        by_error = VERDICT_UNRELIABLE;
    else if (ev->median_err > RELIABLE_MEDIAN_PCT || ev->max_err > RELIABLE_MAX_PCT)
        by_error = VERDICT_UNCERTAIN;
    weigh(&level, by_error, why, text);
    if (ev->with_cal) {
        double cov = (double)ev->inside_cal / (double)ev->with_cal;
        snprintf(text, sizeof text, "calibrated 95%% PI covered %zu of %zu", ev->inside_cal,
                 ev->with_cal);
        weigh(&level, cov < GOOD_COVERAGE ? VERDICT_UNCERTAIN : VERDICT_RELIABLE, why, text);
    }
    if (ev->held < MIN_HELD_OUT)
        weigh(&level, VERDICT_UNCERTAIN, why, "fewer than 3 held-out targets to check it on");
    return level;
}

static void warning_signs(const evidence *ev, verdict_level *level, rbuf *why)
{
    char text[256], num[32];
    verdict_level to = *level == VERDICT_NOT_VERIFIED ? VERDICT_NOT_VERIFIED : VERDICT_UNCERTAIN;
    if (ev->coefs && (double)ev->configs < MIN_POINTS_PER_COEF * (double)ev->coefs) {
        snprintf(text, sizeof text, "%zu training configurations for %zu coefficients",
                 ev->configs, ev->coefs);
        weigh(level, to, why, text);
    }
    if (ev->max_distance > FAR_DOUBLINGS) {
        snprintf(text, sizeof text, "targets up to %s doublings beyond the training range",
                 plain(num, sizeof num, ev->max_distance, 2));
        weigh(level, to, why, text);
    }
    if (ev->oversubscribed) {
        snprintf(text, sizeof text, "%zu oversubscribed run%s (more processes per node than cores)",
                 ev->oversubscribed, ev->oversubscribed == 1 ? "" : "s");
        weigh(level, to, why, text);
    }
    if (ev->max_spread_pct > NOISY_SPREAD_PCT) {
        snprintf(text, sizeof text, "repetitions spread up to %s%%",
                 plain(num, sizeof num, ev->max_spread_pct, 3));
        weigh(level, to, why, text);
    }
    if (ev->median_factor > WIDE_FACTOR) {
        char most[32];
        snprintf(text, sizeof text,
                 "calibrated intervals span a factor %s either way (median; a reliable one "
                 "spans at most %s)",
                 plain(num, sizeof num, ev->median_factor, 3),
                 plain(most, sizeof most, WIDE_FACTOR, 3));
        weigh(level, to, why, text);
    }
    if (ev->held_to_trend) {
        snprintf(text, sizeof text,
                 "%zu of %zu estimates held to the runs' trend: there the fitted law leaves "
                 "the trend of the runs' last steps, so they rest on the runs, not on the law",
                 ev->held_to_trend, ev->npreds);
        weigh(level, to, why, text);
    }
    if (ev->bootstrap_only)
        weigh(level, to, why, "no backtest was possible: the interval covers noise, not misfit");
    if (ev->no_interval)
        weigh(level, to, why, "some predictions have no calibrated interval");
}

bool verdict_judge(const experiment_result *res, verdict *out)
{
    out->level = VERDICT_NOT_VERIFIED;
    out->reasons = NULL;
    rbuf why;
    rbuf_init(&why);
    if (!res->ok) {
        out->level = VERDICT_UNRELIABLE;
        rbuf_printf(&why, "the fit failed: %s", res->error);
    } else {
        evidence ev = {0};
        if (!held_out_evidence(res, &ev)) {
            rbuf_free(&why);
            return false;
        }
        if (!training_evidence(res, &ev)) {
            rbuf_free(&why);
            return false;
        }
        ev.npreds = res->rep.npreds;
        for (size_t i = 0; i < res->rep.npreds; i++)
            ev.held_to_trend += res->rep.preds[i].held_to_trend;
        if (ev.held)
            out->level = error_level(&ev, &why);
        else
            weigh(&out->level, VERDICT_NOT_VERIFIED, &why, "no held-out target was measured");
        warning_signs(&ev, &out->level, &why);
        verdict_level warned =
            out->level == VERDICT_NOT_VERIFIED ? VERDICT_NOT_VERIFIED : VERDICT_UNCERTAIN;
        if (res->rep.regime) /* calibration's backtests saw a step at the top */
            weigh(&out->level, warned, &why, res->rep.regime);
        if (res->rep.gain_stop) /* targets continue runs that stopped gaining */
            weigh(&out->level, warned, &why, res->rep.gain_stop);
    }
    if (why.oom) {
        rbuf_free(&why);
        return false;
    }
    out->reasons = rbuf_take(&why);
    return out->reasons != NULL;
}

bool verdict_campaign(const verdict *per, const char *const *names, size_t n, verdict *out)
{
    size_t count[VERDICT_NOT_VERIFIED + 1] = {0}, worst = n;
    for (size_t i = 0; i < n; i++) {
        count[per[i].level]++;
        if (per[i].level != VERDICT_NOT_VERIFIED &&
            (worst == n || per[i].level > per[worst].level))
            worst = i;
    }
    out->level = worst < n ? per[worst].level : VERDICT_NOT_VERIFIED;
    rbuf why;
    rbuf_init(&why);
    if (n == 0)
        rbuf_puts(&why, "no experiments");
    else if (worst == n)
        rbuf_puts(&why, "no experiment has a measured held-out target");
    else {
        rbuf_printf(&why, "of %zu experiment%s:", n, n == 1 ? "" : "s");
        const char *sep = " ";
        for (int l = VERDICT_RELIABLE; l <= VERDICT_NOT_VERIFIED; l++)
            if (count[l]) {
                rbuf_printf(&why, "%s%zu %s", sep, count[l], verdict_name((verdict_level)l));
                sep = ", ";
            }
        rbuf_printf(&why, "; %s %s: %s", per[worst].level == VERDICT_RELIABLE ? "for one," : "worst,",
                    names[worst], per[worst].reasons);
    }
    if (why.oom) {
        rbuf_free(&why);
        return false;
    }
    out->reasons = rbuf_take(&why);
    return out->reasons != NULL;
}
