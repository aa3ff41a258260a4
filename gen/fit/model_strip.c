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
 *                  mbw_read_gbs, or none (the paper's model). Absent:
 *                  where the cluster gives both columns, both — each
 *                  estimate is the geometric mean of the law's and the
 *                  paper's, and the model's own interval runs from one to
 *                  the other, so the calibrated interval contains both
 *                  (real 16-core nodes, tests/fixtures/heldout-real1 and
 *                  heldout-real1c, lay between the two: the roofline
 *                  over-counts the crowding, the paper leaves it out, and
 *                  the runs cannot tell which is nearer, issue 22 item 3),
 *                  but the law alone for an oversubscribed target
 *                  (run_oversubscribed, gen/ingest/run_layout.h: it
 *                  time-shares cores, which the paper's model leaves out
 *                  for certain); none elsewhere.
 *                  The fit prints one line saying which
 *   overhead=log2|node|topology|auto
 *                  the overhead law (models/overhead.h): the paper's
 *                  alpha = c + d log2 np, a step when the job leaves its
 *                  node, or one per network level; absent: auto, the law
 *                  with the least leave-one-level-out error (log2 unless a
 *                  step law beats it by 10%)
 */
#include "gen/fit/model_adapters.h"
#include "gen/ingest/run_layout.h"

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
    bool ok = stripfits_settings(&o, s, err, errlen) &&
              rjopts_overhead(&o, &s->law, err, errlen) &&
              rjopts_exact(&o, "tcomp", exact, err, errlen) &&
              rjopts_contention(&o, &s->contention, err, errlen);
    s->arch = arch;
    rjopts_free(&o);
    return ok;
}

bool model_strip_check_options(const char *options, char *err, size_t errlen)
{
    stripfit_settings s;
    bool exact;
    return read_settings(options, NULL, &s, &exact, err, errlen);
}

/* The note of a prediction: how it was made, and what the contention law
 * did to Tcomp when it is on; with paper (the paper's estimate, averaged
 * with the law's), the two estimates and their average. */
static void note_of(const strip_prediction *p, const strip_prediction *paper, const meshrow *t,
                    const contention_law *law, char *buf, size_t len)
{
    char ref[200], crowd[300] = "", both[300] = "";
    rjreport_reference(ref, sizeof ref, p->tcomp_match, t->pa, t->pb, p->tcomp_reps,
                       p->tcomp_spread_pct);
    if (law->on) {
        int n = snprintf(crowd, sizeof crowd, "; ");
        contention_text(crowd + n, sizeof crowd - (size_t)n, law, t->ppn);
    }
    if (paper)
        snprintf(both, sizeof both, "; without the law (the paper's model) %.4g s: the estimate "
                 "is the geometric mean of the two and its interval spans both", paper->time_s);
    char head[100] = "point estimate only (the strip model gives no interval)";
    if (paper)
        snprintf(head, sizeof head, "with the contention law %.4g s", p->time_s);
    snprintf(buf, len, "%s: Tcomp %.4g s [%s] + alpha(%g) %.4g s + gamma*work %.4g s (work %.4g "
             "MB per process)%s%s",
             head, p->tcomp_s, ref, t->np, p->alpha_s, p->tcomm_s - p->alpha_s, p->work_mb, crowd,
             both);
}

/* The paper's prediction for st from g0 (no law), where it is wanted and
 * both it and the law's are positive times: then the estimate is their
 * geometric mean and the prediction's own interval spans them. */
static bool paper_prediction(const stripfit *g0, const strip_target *st, double ppn,
                             const strip_prediction *law, strip_prediction *paper)
{
    return g0 && g0->ok && strip_predict_contended(&g0->model, st, ppn, paper) &&
           paper->time_s > 0 && law->time_s > 0;
}

static bool predict_target(size_t k, const stripfit *g, const stripfit *g0, const meshrow *t,
                           bool exact, report *out, bool *averaged, char *err, size_t errlen)
{
    strip_target st = {t->np, t->pa, t->pb, t->work_mb};
    strip_prediction p, paper;
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
    bool both = g->model.contention.on && paper_prediction(g0, &st, t->ppn, &p, &paper);
    char note[1300];
    note_of(&p, both ? &paper : NULL, t, &g->model.contention, note, sizeof note);
    double estimate = both ? sqrt(p.time_s * paper.time_s) : p.time_s;
    bool ok = rjreport_predict(out, k, estimate, p.extrapolation, note);
    if (ok && both) {
        report_prediction *r = &out->preds[out->npreds - 1];
        r->pi_low = fmin(p.time_s, paper.time_s);
        r->pi_high = fmax(p.time_s, paper.time_s);
        *averaged = true;
    }
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

/* Tell the fits where each target (rows, read) sits, so that a step law
 * knows the target's nodes and network level. False when out of memory. */
static bool place_targets(const experiment_input *in, const meshrow *rows, stripfits *fits)
{
    for (size_t k = 0; k < in->ntargets; k++) {
        size_t row = in->targets[k].rows[0];
        labelled_run placed = {.cluster = rows[k].cluster, .code = rows[k].code,
                               .line = rows[k].line, .row = row,
                               .place = meshrows_place(in->arch, in->camp, row)};
        if (!stripfits_add_target(fits, &placed))
            return false;
    }
    return true;
}

/* Read the targets' rows and place them in the fits. */
static bool read_targets(const experiment_input *in, stripfits *fits, meshrow *rows, char *err,
                         size_t errlen)
{
    for (size_t k = 0; k < in->ntargets; k++)
        if (!meshrows_read(in->arch, in->camp, in->targets[k].rows[0], &rows[k], err, errlen))
            return false;
    if (!place_targets(in, rows, fits)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    return true;
}

/* The paper's fit (no contention law) for each target whose own fit has
 * the law on and that does not oversubscribe its node, when the option
 * left the law to the default: the estimate is then the two fits'
 * average (predict_target). fit0_of[k] stays NULL where no such fit
 * is wanted. False when out of memory. */
static bool paper_fits(const experiment_input *in, const stripfit_settings *s,
                       const meshrow *rows, const stripfit *const *fit_of, stripfits *paper,
                       const stripfit **fit0_of)
{
    if (s->contention != RJOPTS_CONTENTION_AUTO)
        return true;
    if (!place_targets(in, rows, paper))
        return false;
    for (size_t k = 0; k < in->ntargets; k++) {
        /* An oversubscribed target time-shares its cores, which the
         * paper's model leaves out for certain: the law stays alone there. */
        const meshrow *t = &rows[k];
        if (!fit_of[k]->model.contention.on ||
            run_oversubscribed(in->arch, in->camp, in->targets[k].rows[0], NULL, NULL))
            continue;
        fit0_of[k] = stripfits_get(paper, t->cluster, t->code,
                                   strip_message_length(t->npa, t->npb, t->pa, t->pb));
        if (!fit0_of[k])
            return false;
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

/* Every target's prediction, and a line saying so when the law and the
 * paper's model were averaged. */
static bool predict_all(const experiment_input *in, const stripfit *const *fit_of,
                        const stripfit *const *fit0_of, const meshrow *rows, bool exact,
                        report *out, char *err, size_t errlen)
{
    bool averaged = false;
    for (size_t k = 0; k < in->ntargets; k++)
        if (!predict_target(k, fit_of[k], fit0_of[k], &rows[k], exact, out, &averaged, err,
                            errlen))
            return false;
    if (averaged &&
        !rjreport_diagnose(out, "contention: neither the roofline law nor the paper's model "
                                "(none) was right on real nodes, where the runs lay between "
                                "the two; each estimate is their geometric mean and its interval "
                                "spans both (contention=roofline or contention=none picks one)")) {
        snprintf(err, errlen, "out of memory");
        return false;
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
    if (!read_settings(in->exp->options, in->arch, &s, &exact, err, errlen)) {
        experiment_point_at(in, "options", 0);
        return false;
    }
    long nruns = meshrows_training(in, &runs, err, errlen);
    size_t cap = in->ntargets ? in->ntargets : 1;
    meshrow *rows = calloc(cap, sizeof *rows);
    const stripfit **fit_of = calloc(cap, sizeof *fit_of);
    const stripfit **fit0_of = calloc(cap, sizeof *fit0_of);
    stripfits fits, paper;
    stripfit_settings s0 = s;
    s0.contention = RJOPTS_CONTENTION_NONE;
    stripfits_init(&fits, &s, runs, nruns > 0 ? (size_t)nruns : 0);
    stripfits_init(&paper, &s0, runs, nruns > 0 ? (size_t)nruns : 0);
    bool ok = nruns >= 0 && rows && fit_of && fit0_of;
    if (nruns >= 0 && !ok)
        snprintf(err, errlen, "out of memory");
    ok = ok && fit_all(in, runs, (size_t)nruns, &fits, rows, fit_of, err, errlen);
    if (ok && !paper_fits(in, &s, rows, fit_of, &paper, fit0_of)) {
        snprintf(err, errlen, "out of memory");
        ok = false;
    }
    char eq[1500] = "";
    if (ok && !(report_set_text(&out->model, "strip") && stripfits_report(&fits, out, eq, sizeof eq) &&
                report_set_text(&out->equation, eq))) {
        snprintf(err, errlen, "out of memory");
        ok = false;
    }
    ok = ok && predict_all(in, fit_of, fit0_of, rows, exact, out, err, errlen);
    stripfits_free(&fits);
    stripfits_free(&paper);
    free(runs);
    free(rows);
    free(fit_of);
    free(fit0_of);
    return ok;
}
