/*
 * compare.c — candidates of an experiment run on the same split and scored
 * (see compare.h).
 */
#include "gen/fit/compare.h"
#include "gen/fit/experiment_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const other_models[] = {"strip", "block", "multicluster", "multicore"};

void compare_result_free(compare_result *r)
{
    for (size_t i = 0; i < r->nrows; i++) {
        compare_row *w = &r->rows[i];
        free(w->label);
        free(w->reason);
        verdict_free(&w->verdict);
        free(w->estimate);
        free(w->measured);
        free(w->cal_low);
        free(w->cal_high);
        free(w->pi_low);
        free(w->pi_high);
    }
    free(r->rows);
    memset(r, 0, sizeof *r);
    r->best = -1;
}

static compare_row *add_row(compare_result *r, const char *label, bool own)
{
    compare_row *more = realloc(r->rows, (r->nrows + 1) * sizeof *more);
    if (!more)
        return NULL;
    r->rows = more;
    compare_row *w = &r->rows[r->nrows];
    memset(w, 0, sizeof *w);
    w->verdict.level = VERDICT_NOT_VERIFIED;
    if (!(w->label = strdup(label)))
        return NULL;
    w->own = own;
    r->nrows++;
    return w;
}

/* Room for n targets in every array of w. */
static bool row_arrays(compare_row *w, size_t n)
{
    double **arrays[] = {&w->estimate, &w->measured, &w->cal_low,
                         &w->cal_high, &w->pi_low,   &w->pi_high};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        double *p = realloc(*arrays[i], (n ? n : 1) * sizeof *p);
        if (!p)
            return false;
        *arrays[i] = p;
    }
    return true;
}

static bool row_score(compare_row *w)
{
    return calibrate_score_targets(w->estimate, w->measured, w->cal_low, w->cal_high, w->n,
                                   &w->calibrated) == CALIBRATE_OK &&
           calibrate_score_targets(w->estimate, w->measured, w->pi_low, w->pi_high, w->n,
                                   &w->textbook) == CALIBRATE_OK;
}

/* Fill w from a fitted result: one entry per measured target predicted. */
static bool row_from_result(compare_row *w, const experiment_result *res)
{
    if (!verdict_judge(res, &w->verdict))
        return false;
    if (!res->ok) {
        w->applies = false;
        return (w->reason = strdup(res->error[0] ? res->error : "the fit failed")) != NULL &&
               row_score(w);
    }
    w->applies = true;
    if (!row_arrays(w, res->rep.npreds))
        return false;
    for (size_t i = 0; i < res->rep.npreds; i++) {
        const report_prediction *p = &res->rep.preds[i];
        if (p->config >= res->input.ntargets || res->input.targets[p->config].nmeasured == 0)
            continue;
        w->estimate[w->n] = p->estimate;
        w->measured[w->n] = res->input.targets[p->config].measured;
        w->cal_low[w->n] = p->cal_low, w->cal_high[w->n] = p->cal_high;
        w->pi_low[w->n] = p->pi_low, w->pi_high[w->n] = p->pi_high;
        w->n++;
    }
    return row_score(w);
}

static bool run_own(const archive *a, const campaign *c, const experiment_info *e,
                    backtest_cache *cache, compare_row *w)
{
    experiment_result res;
    experiment_run_shared(a, c, e, cache, &res);
    bool ok = row_from_result(w, &res);
    experiment_result_free(&res);
    return ok;
}

/* Run e with model (and formula/options cleared when it is not e's own).
 * Its calibration shrinks toward model's pool in cache (compare.h). */
static bool run_candidate(const archive *a, const campaign *c, const experiment_info *e,
                          const char *model, backtest_cache *cache, compare_row *w)
{
    experiment_info alt = *e;
    alt.model = (char *)model;
    alt.formula = NULL;
    alt.options = NULL;
    return run_own(a, c, &alt, cache, w);
}

static const char *own_label(const experiment_info *e, char *buf, size_t len)
{
    if (strcmp(e->model, "scopred") == 0)
        snprintf(buf, len, "scopred (%s)", e->formula && e->formula[0] ? "formula" : "term search");
    else
        snprintf(buf, len, "%s", e->model);
    return buf;
}

/* Whether w has a calibrated interval on every target it predicted, so
 * that its mean interval score speaks for all of them. */
static bool scored_everywhere(const compare_row *w)
{
    return w->calibrated.nwith_interval == w->calibrated.ntargets &&
           isfinite(w->calibrated.mean_interval_score);
}

/* Whether a ranks before b (compare.h: interval score, then error). */
static bool better(const compare_row *a, const compare_row *b)
{
    bool sa = scored_everywhere(a), sb = scored_everywhere(b);
    if (sa != sb)
        return sa;
    if (sa && a->calibrated.mean_interval_score != b->calibrated.mean_interval_score)
        return a->calibrated.mean_interval_score < b->calibrated.mean_interval_score;
    return a->calibrated.median_abs_error_pct < b->calibrated.median_abs_error_pct;
}

static void choose_best(compare_result *r)
{
    r->best = -1;
    for (size_t i = 0; i < r->nrows; i++) {
        const compare_row *w = &r->rows[i];
        if (!w->applies || r->ntargets == 0 || w->calibrated.ntargets < r->ntargets)
            continue;
        if (r->best < 0 || better(w, &r->rows[r->best]))
            r->best = (int)i;
    }
}

bool compare_experiment_run(const archive *a, const campaign *c, const experiment_info *e,
                            const experiment_result *own, bool term_search,
                            backtest_cache *cache, compare_result *out)
{
    memset(out, 0, sizeof *out);
    out->best = -1;
    char label[64];
    compare_row *w = add_row(out, own_label(e, label, sizeof label), true);
    bool ok = w != NULL;
    if (ok && own)
        ok = row_from_result(w, own);
    else if (ok)
        ok = run_own(a, c, e, cache, w);
    bool own_is_search = strcmp(e->model, "scopred") == 0 && !(e->formula && e->formula[0]);
    if (ok && term_search && !own_is_search)
        ok = (w = add_row(out, "scopred (term search)", false)) &&
             run_candidate(a, c, e, "scopred", cache, w);
    for (size_t i = 0; ok && i < sizeof other_models / sizeof other_models[0]; i++)
        if (strcmp(other_models[i], e->model) != 0)
            ok = (w = add_row(out, other_models[i], false)) &&
                 run_candidate(a, c, e, other_models[i], cache, w);
    out->ntargets = out->nrows ? out->rows[0].n : 0;
    if (ok)
        choose_best(out);
    return ok;
}

static int find_label(const compare_result *r, const char *label)
{
    for (size_t i = 0; i < r->nrows; i++)
        if (strcmp(r->rows[i].label, label) == 0)
            return (int)i;
    return -1;
}

/* Append src's targets to dst. */
static bool append_targets(compare_row *dst, const compare_row *src)
{
    if (!row_arrays(dst, dst->n + src->n))
        return false;
    const double *from[] = {src->estimate, src->measured, src->cal_low,
                            src->cal_high, src->pi_low,   src->pi_high};
    double *to[] = {dst->estimate, dst->measured, dst->cal_low,
                    dst->cal_high, dst->pi_low,   dst->pi_high};
    for (size_t k = 0; k < sizeof to / sizeof to[0]; k++)
        memcpy(to[k] + dst->n, from[k], src->n * sizeof *to[k]);
    dst->n += src->n;
    return true;
}

bool compare_campaign_pool(const compare_result *per_exp, size_t n, compare_result *out)
{
    memset(out, 0, sizeof *out);
    out->best = -1;
    bool ok = true;
    for (size_t e = 0; ok && e < n; e++) {
        out->ntargets += per_exp[e].ntargets;
        for (size_t i = 0; ok && i < per_exp[e].nrows; i++) {
            const compare_row *src = &per_exp[e].rows[i];
            int k = find_label(out, src->label);
            compare_row *dst = k >= 0 ? &out->rows[k] : add_row(out, src->label, false);
            if (!(ok = dst != NULL))
                break;
            dst->own |= src->own;
            if (src->applies) {
                dst->applies = true;
                ok = append_targets(dst, src);
            }
        }
    }
    for (size_t i = 0; ok && i < out->nrows; i++) {
        compare_row *w = &out->rows[i];
        if (!w->applies)
            ok = (w->reason = strdup("applies to none of the experiments")) != NULL;
        ok = ok && row_score(w);
    }
    if (ok)
        choose_best(out);
    return ok;
}
