/*
 * model_strip.c — adapter for the strip model (models/strip.h, seed 000).
 *
 * Each target is predicted from the training runs of its own cluster and
 * code, preferring parallel runs whose message length (nb of an np x 1
 * strip) equals the target's; one fit is made per (cluster, code, message
 * length) and shared by the targets that need it (gen/fit/stripfits.h).
 *
 * Options (experiments.csv `options`, key=value;...):
 *   np0=4,8        parallel process counts to fit on (default: every np >= 2
 *                  among the training runs)
 *   work_tol=0.02  relative tolerance when runs are matched by work_mb
 *                  because their mesh is unknown or differs
 *   tcomp=interpolate|exact
 *                  what to do when no sequential run has the target's exact
 *                  per-process mesh: interpolate Tcomp in work and warn
 *                  (default), or fail, as the paper would
 *   contention=roofline|none
 *                  node contention of Tcomp (models/contention.h): the
 *                  roofline law from the cluster's mbw_core_gbs and
 *                  mbw_read_gbs, or none (the paper's model). Absent: the
 *                  roofline where the cluster gives both columns, none
 *                  elsewhere; the fit prints one line saying which
 *   overhead=log2|node|topology|auto
 *                  the overhead law (models/overhead.h): the paper's
 *                  alpha = c + d log2 np, a step when the job leaves its
 *                  node, or one per network level; absent: auto, the law
 *                  with the least leave-one-level-out error (log2 unless a
 *                  step law beats it by 10%)
 */
#include "gen/fit/model_adapters.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/fit/rjopts.h"
#include "gen/fit/rjreport.h"
#include "gen/fit/stripfits.h"

static bool read_settings(const char *text, const archive *arch, stripfit_settings *s,
                          bool *exact, char *err, size_t errlen)
{
    rjopts o;
    if (!rjopts_parse(text, rjopts_keys("strip"), &o, err, errlen))
        return false;
    bool ok = stripfits_settings(rjopts_get(&o, "np0"), rjopts_get(&o, "work_tol"), s, err,
                                 errlen) &&
              rjopts_overhead(&o, &s->law, err, errlen) &&
              rjopts_exact(&o, "tcomp", exact, err, errlen) &&
              rjopts_contention(&o, &s->contention, err, errlen);
    s->arch = arch;
    rjopts_free(&o);
    return ok;
}

/* The note of a prediction: how it was made, and what the contention law
 * did to Tcomp when it is on. */
static void note_of(const strip_prediction *p, const meshrow *t, const contention_law *law,
                    char *buf, size_t len)
{
    char ref[200], crowd[300] = "";
    rjreport_reference(ref, sizeof ref, p->tcomp_match, t->pa, t->pb, p->tcomp_reps,
                       p->tcomp_spread_pct);
    if (law->on) {
        int n = snprintf(crowd, sizeof crowd, "; ");
        contention_text(crowd + n, sizeof crowd - (size_t)n, law, t->ppn);
    }
    snprintf(buf, len,
             "point estimate only (the strip model gives no interval): Tcomp %.4g s [%s] + "
             "alpha(%g) %.4g s + gamma*work %.4g s (work %.4g MB per process)%s",
             p->tcomp_s, ref, t->np, p->alpha_s, p->tcomm_s - p->alpha_s, p->work_mb, crowd);
}

static bool predict_target(size_t k, const stripfit *g, const meshrow *t, bool exact,
                           report *out, char *err, size_t errlen)
{
    strip_target st = {t->np, t->pa, t->pb, t->work_mb};
    strip_prediction p;
    if (!strip_predict_contended(&g->model, &st, t->ppn, &p)) {
        snprintf(err, errlen, "runs.csv line %ld: no Tcomp for the per-process mesh %gx%g "
                 "(no sequential run, and no work_mb to interpolate with)", t->line, t->pa, t->pb);
        return false;
    }
    if (p.tcomp_match != MESH_EXACT && exact) {
        snprintf(err, errlen, "runs.csv line %ld: no sequential run with the per-process mesh "
                 "%gx%g (tcomp=exact)", t->line, t->pa, t->pb);
        return false;
    }
    char note[1000];
    note_of(&p, t, &g->model.contention, note, sizeof note);
    bool ok = rjreport_predict(out, k, p.time_s, p.extrapolation, note);
    if (ok) /* alpha and gamma are fitted across the network's levels */
        out->preds[out->npreds - 1].level_regimes = true;
    if (ok && p.tcomp_match != MESH_EXACT)
        ok = rjreport_warn(out, "runs.csv line %ld: Tcomp %s for the per-process mesh %gx%g; the "
                                "paper requires a sequential run of exactly that mesh",
                           t->line, mesh_match_text(p.tcomp_match), t->pa, t->pb);
    if (ok && p.tcomm_s < 0)
        ok = rjreport_warn(out, "runs.csv line %ld: the predicted overhead is negative (%.3g s)",
                           t->line, p.tcomm_s);
    if (!ok)
        snprintf(err, errlen, "out of memory");
    return ok;
}

/* Read the targets' rows and tell the fits where each target sits, so
 * that a step law knows the target's nodes and network level. */
static bool read_targets(const experiment_input *in, stripfits *fits, meshrow *rows, char *err,
                         size_t errlen)
{
    for (size_t k = 0; k < in->ntargets; k++) {
        meshrow *t = &rows[k];
        size_t row = in->targets[k].rows[0];
        if (!meshrows_read(in->arch, in->camp, row, t, err, errlen))
            return false;
        labelled_run placed = {.cluster = t->cluster, .code = t->code, .line = t->line,
                               .row = row, .place = meshrows_place(in->arch, in->camp, row)};
        if (!stripfits_add_target(fits, &placed)) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
    }
    return true;
}

/* The fit each target needs (and, without targets, one per cluster and
 * code of the training runs, so `perfcast fit` still shows the law). */
static bool fit_all(const experiment_input *in, const labelled_run *runs, size_t nruns,
                    stripfits *fits, meshrow *rows, const stripfit **fit_of, char *err,
                    size_t errlen)
{
    if (!read_targets(in, fits, rows, err, errlen))
        return false;
    for (size_t k = 0; k < in->ntargets; k++) {
        const meshrow *t = &rows[k];
        fit_of[k] = stripfits_get(fits, t->cluster, t->code,
                                  strip_message_length(t->npa, t->npb, t->pa, t->pb));
        if (!fit_of[k] || !fit_of[k]->ok) {
            snprintf(err, errlen, "%s", fit_of[k] ? fit_of[k]->error : "out of memory");
            return false;
        }
    }
    for (size_t i = 0; in->ntargets == 0 && i < nruns; i++) {
        const stripfit *g = stripfits_get(fits, runs[i].cluster, runs[i].code, NAN);
        if (!g || !g->ok) {
            snprintf(err, errlen, "%s", g ? g->error : "out of memory");
            return false;
        }
    }
    return true;
}

bool model_strip_run(const experiment_input *in, report *out, char *err, size_t errlen)
{
    if (errlen)
        err[0] = '\0';
    stripfit_settings s;
    bool exact;
    labelled_run *runs = NULL;
    if (!read_settings(in->exp->options, in->arch, &s, &exact, err, errlen))
        return false;
    long nruns = meshrows_training(in, &runs, err, errlen);
    size_t cap = in->ntargets ? in->ntargets : 1;
    meshrow *rows = calloc(cap, sizeof *rows);
    const stripfit **fit_of = calloc(cap, sizeof *fit_of);
    stripfits fits;
    stripfits_init(&fits, &s, runs, nruns > 0 ? (size_t)nruns : 0);
    bool ok = nruns >= 0 && rows && fit_of;
    if (nruns >= 0 && !ok)
        snprintf(err, errlen, "out of memory");
    ok = ok && fit_all(in, runs, (size_t)nruns, &fits, rows, fit_of, err, errlen);
    char eq[1500] = "";
    if (ok && !(report_set_text(&out->model, "strip") && stripfits_report(&fits, out, eq, sizeof eq) &&
                report_set_text(&out->equation, eq))) {
        snprintf(err, errlen, "out of memory");
        ok = false;
    }
    for (size_t k = 0; ok && k < in->ntargets; k++)
        ok = predict_target(k, fit_of[k], &rows[k], exact, out, err, errlen);
    stripfits_free(&fits);
    free(runs);
    free(rows);
    free(fit_of);
    return ok;
}
