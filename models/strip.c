/*
 * strip.c — see strip.h.
 */
#include "models/strip.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *strip_status_text(strip_status s, overhead_status law_status)
{
    switch (s) {
    case STRIP_OK: return "ok";
    case STRIP_NOMEM: return "out of memory";
    case STRIP_BAD_INPUT: return "a training run has a non-positive time or process grid";
    case STRIP_NO_SEQUENTIAL:
        return "no sequential run (np = 1): Tcomp cannot be measured";
    case STRIP_NO_MATCH:
        return "no parallel strip run has a sequential run with the same per-process mesh "
               "or work, so no overhead Tcomm = T - Tcomp can be measured";
    case STRIP_NO_WORK:
        return "the runs give no work_mb (memory per process), which the overhead line "
               "Tcomm = alpha + gamma*work needs";
    case STRIP_OVERHEAD: return overhead_status_text(law_status);
    }
    return "unknown error";
}

bool strip_is_strip(double npa, double npb)
{
    return npa == 1 || npb == 1;
}

double strip_message_length(double npa, double npb, double pa, double pb)
{
    (void)npb;
    return npa == 1 ? pa : pb;
}

static bool is_sequential(const mesh_config *c)
{
    return c->npa == 1 && c->npb == 1;
}

static bool np_wanted(const strip_options *opt, double np)
{
    if (!opt->np0)
        return np >= 2;
    for (size_t i = 0; i < opt->nnp0; i++)
        if (opt->np0[i] == np)
            return true;
    return false;
}

/* A parallel strip configuration the fit may use (message length aside). */
static bool candidate(const strip_options *opt, const mesh_config *c)
{
    return !is_sequential(c) && strip_is_strip(c->npa, c->npb) &&
           np_wanted(opt, c->npa * c->npb);
}

static bool has_msg_len(const mesh_config *c, double msg_len)
{
    return mesh_same_size(strip_message_length(c->npa, c->npb, c->pa, c->pb), msg_len);
}

/* Does any candidate have the preferred message length? */
static bool any_with_msg_len(const strip_options *opt, const mesh_configs *cs)
{
    for (size_t k = 0; k < cs->nconfigs; k++)
        if (candidate(opt, &cs->configs[k]) && has_msg_len(&cs->configs[k], opt->msg_len))
            return true;
    return false;
}

/* Overhead points (step 2): each usable parallel configuration minus the
 * sequential one with its mesh. pair[2i], pair[2i+1] record the parallel
 * and sequential configuration of point i. */
static size_t overhead_points(strip_model *m, const strip_options *opt, bool by_msg_len,
                              overhead_point *pts, size_t *pair)
{
    mesh_configs *cs = &m->configs;
    size_t n = 0;
    for (size_t k = 0; k < cs->nconfigs; k++) {
        const mesh_config *c = &cs->configs[k];
        if (is_sequential(c)) {
            m->nsequential++;
        } else if (!strip_is_strip(c->npa, c->npb)) {
            m->nnot_strip++;
        } else if (!candidate(opt, c)) {
            continue;
        } else if (by_msg_len && !has_msg_len(c, opt->msg_len)) {
            m->nother_msg++;
        } else {
            mesh_lookup seq;
            mesh_lookup_time(cs, 1, 1, c->pa, c->pb, c->work_mb, NAN, false, &seq);
            double work = isfinite(seq.work_mb) ? seq.work_mb : c->work_mb;
            if (!seq.config || !isfinite(work)) {
                if (seq.config)
                    m->nno_work++;
                else
                    m->nunmatched++;
                continue;
            }
            double tcomp = contention_tcomp(&m->contention, seq.time_s, m->config_ppn[k]);
            pts[n] = (overhead_point){c->npa * c->npb, work, c->time_s - tcomp};
            pair[2 * n] = k;
            pair[2 * n + 1] = (size_t)(seq.config - cs->configs);
            n++;
        }
    }
    m->nmatched = n;
    return n;
}

/* Flag the configurations behind the points whose np got a line. */
static void mark_used(strip_model *m, const overhead_point *pts, const size_t *pair, size_t n)
{
    m->train_ppn_max = NAN;
    for (size_t i = 0; i < n; i++)
        for (size_t l = 0; l < m->law.nlines; l++)
            if (m->law.lines[l].np == pts[i].np) {
                for (int j = 0; j < 2; j++) {
                    mesh_config *c = &m->configs.configs[pair[2 * i + j]];
                    c->used = true;
                    m->max_spread_pct = fmax(m->max_spread_pct, c->spread_pct);
                }
                double ppn = m->config_ppn[pair[2 * i]];
                if (isnan(m->train_ppn_max) || ppn > m->train_ppn_max)
                    m->train_ppn_max = ppn;
            }
}

static bool runs_valid(const mesh_run *runs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(runs[i].time_s > 0) || !isfinite(runs[i].time_s) || !(runs[i].npa >= 1) ||
            !(runs[i].npb >= 1) || !isfinite(runs[i].npa) || !isfinite(runs[i].npb))
            return false;
    return true;
}

strip_status strip_fit(const mesh_run *runs, size_t n, const strip_options *opt,
                       strip_model *out, overhead_status *law_status)
{
    contention_law none = contention_none();
    return strip_fit_contended(runs, NULL, n, opt, &none, out, law_status);
}

strip_status strip_fit_contended(const mesh_run *runs, const double *ppn, size_t n,
                                 const strip_options *opt, const contention_law *law,
                                 strip_model *out, overhead_status *law_status)
{
    memset(out, 0, sizeof *out);
    if (law_status)
        *law_status = OVERHEAD_OK;
    if (!runs_valid(runs, n))
        return STRIP_BAD_INPUT;
    if (!mesh_configs_build(runs, n, opt->work_tol, &out->configs))
        return STRIP_NOMEM;
    out->config_ppn = malloc(sizeof *out->config_ppn *
                             (out->configs.nconfigs ? out->configs.nconfigs : 1));
    if (!out->config_ppn) {
        strip_model_free(out);
        return STRIP_NOMEM;
    }
    contention_config_ppn(&out->configs, ppn, out->config_ppn);
    out->contention = *law;
    out->work_tol = opt->work_tol;
    out->mb_per_point = mesh_mb_per_point(&out->configs);
    bool by_msg_len = isfinite(opt->msg_len) && any_with_msg_len(opt, &out->configs);
    out->msg_len_fallback = isfinite(opt->msg_len) && !by_msg_len;
    size_t cap = out->configs.nconfigs ? out->configs.nconfigs : 1;
    overhead_point *pts = malloc(sizeof *pts * cap);
    size_t *pair = malloc(sizeof *pair * 2 * cap);
    strip_status s = STRIP_NOMEM;
    if (pts && pair) {
        size_t npts = overhead_points(out, opt, by_msg_len, pts, pair);
        overhead_status ls = OVERHEAD_OK;
        if (out->nsequential == 0)
            s = STRIP_NO_SEQUENTIAL;
        else if (npts == 0)
            s = out->nno_work ? STRIP_NO_WORK : STRIP_NO_MATCH;
        else if ((ls = overhead_fit_steps(pts, npts, 1, opt->law, opt->places, opt->nplaces,
                                          &out->law)) != OVERHEAD_OK)
            s = ls == OVERHEAD_NOMEM ? STRIP_NOMEM : STRIP_OVERHEAD;
        else
            s = STRIP_OK;
        if (law_status)
            *law_status = ls;
        if (s == STRIP_OK)
            mark_used(out, pts, pair, npts);
    }
    free(pts);
    free(pair);
    if (s != STRIP_OK)
        strip_model_free(out);
    return s;
}

void strip_model_free(strip_model *m)
{
    mesh_configs_free(&m->configs);
    overhead_law_free(&m->law);
    free(m->config_ppn);
    memset(m, 0, sizeof *m);
}

bool strip_tcomp(const strip_model *m, double pa, double pb, double work_mb, mesh_lookup *out)
{
    return mesh_lookup_time(&m->configs, 1, 1, pa, pb, work_mb, m->mb_per_point, true, out) !=
           MESH_NONE;
}

bool strip_predict(const strip_model *m, const strip_target *t, strip_prediction *out)
{
    return strip_predict_contended(m, t, NAN, out);
}

bool strip_predict_contended(const strip_model *m, const strip_target *t, double ppn,
                             strip_prediction *out)
{
    memset(out, 0, sizeof *out);
    mesh_lookup tc;
    if (!(t->np >= 1) || !strip_tcomp(m, t->pa, t->pb, t->work_mb, &tc))
        return false;
    out->tcomp_one_s = tc.time_s;
    out->contention = contention_factor(&m->contention, ppn);
    out->tcomp_s = tc.time_s * out->contention;
    out->tcomp_match = tc.match;
    out->work_mb = tc.work_mb;
    out->tcomp_reps = tc.config ? tc.config->reps : 0;
    out->tcomp_spread_pct = tc.config ? tc.config->spread_pct : NAN;
    if (t->np > 1) {
        out->alpha_s = overhead_alpha(&m->law, t->np);
        out->tcomm_s = out->alpha_s + overhead_gamma_of(&m->law, t->np) * out->work_mb;
        out->extrapolation = t->np > m->law.np_max ||
                             overhead_work_outside(&m->law, out->work_mb, m->work_tol) ||
                             overhead_step_beyond(&m->law, t->np);
    }
    out->time_s = out->tcomp_s + out->tcomm_s;
    return isfinite(out->time_s);
}
