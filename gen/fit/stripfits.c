/*
 * stripfits.c — see stripfits.h.
 */
#include "gen/fit/stripfits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/fit/rjopts.h"
#include "gen/fit/rjreport.h"

void stripfits_init(stripfits *f, const stripfit_settings *s, const labelled_run *runs,
                    size_t nruns)
{
    memset(f, 0, sizeof *f);
    f->settings = *s;
    f->runs = runs;
    f->nruns = nruns;
}

void stripfits_free(stripfits *f)
{
    for (size_t i = 0; i < f->nfits; i++) {
        strip_model_free(&f->fits[i]->model);
        free(f->fits[i]);
    }
    free(f->fits);
    free(f->targets);
    memset(f, 0, sizeof *f);
}

bool stripfits_settings(const rjopts *o, stripfit_settings *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    const char *np0 = rjopts_get(o, "np0");
    if (np0 && !rjopts_number_list(np0, s->np0, 32, &s->nnp0, err, errlen))
        return false;
    return rjopts_work_tol(o, &s->work_tol, err, errlen);
}

bool stripfits_add_target(stripfits *f, const labelled_run *target)
{
    labelled_run *more = realloc(f->targets, sizeof *more * (f->ntargets + 1));
    if (!more)
        return false;
    f->targets = more;
    f->targets[f->ntargets++] = *target;
    return true;
}

static void fit(const stripfits *f, stripfit *g)
{
    mesh_run *runs = malloc(sizeof *runs * (f->nruns ? f->nruns : 1));
    double *ppn = malloc(sizeof *ppn * (f->nruns ? f->nruns : 1));
    if (!runs || !ppn) {
        free(runs);
        free(ppn);
        snprintf(g->error, sizeof g->error, "out of memory");
        return;
    }
    size_t n = meshrows_select(f->runs, f->nruns, g->cluster, g->code, runs, ppn);
    if (n == 0) {
        free(runs);
        free(ppn);
        snprintf(g->error, sizeof g->error, "no training run of cluster %s%s%s", g->cluster,
                 g->code ? ", code " : "", g->code ? g->code : "");
        return;
    }
    const stripfit_settings *s = &f->settings;
    if (s->arch)
        g->contention = node_contention_of(s->arch, g->cluster, s->contention);
    else
        g->contention.law = contention_none();
    overhead_place *places = malloc(sizeof *places * (f->nruns + f->ntargets + 1));
    if (!places) {
        free(runs);
        free(ppn);
        snprintf(g->error, sizeof g->error, "out of memory");
        return;
    }
    size_t nplaces = meshrows_places(f->runs, f->nruns, g->cluster, g->code, places, 0);
    nplaces = meshrows_places(f->targets, f->ntargets, g->cluster, g->code, places, nplaces);
    strip_options opt = {s->work_tol, s->nnp0 ? s->np0 : NULL, s->nnp0, g->msg_len,
                         s->law, places, nplaces};
    overhead_status ls;
    strip_status st = strip_fit_contended(runs, ppn, n, &opt, &g->contention.law, &g->model, &ls);
    free(runs);
    free(ppn);
    free(places);
    g->ok = st == STRIP_OK;
    if (!g->ok)
        snprintf(g->error, sizeof g->error, "strip fit for cluster %s%s%s: %s", g->cluster,
                 g->code ? ", code " : "", g->code ? g->code : "", strip_status_text(st, ls));
}

static bool same_length(double a, double b)
{
    return mesh_same_size(a, b) || (isnan(a) && isnan(b));
}

const stripfit *stripfits_get(stripfits *f, const char *cluster, const char *code,
                              double msg_len)
{
    for (size_t i = 0; i < f->nfits; i++) {
        stripfit *g = f->fits[i];
        if (meshrows_same_group(g->cluster, g->code, cluster, code) &&
            same_length(g->msg_len, msg_len))
            return g;
    }
    stripfit **more = realloc(f->fits, sizeof *more * (f->nfits + 1));
    stripfit *g = more ? calloc(1, sizeof *g) : NULL;
    if (more)
        f->fits = more;
    if (!g)
        return NULL;
    f->fits[f->nfits++] = g;
    g->cluster = cluster;
    g->code = code;
    g->msg_len = msg_len;
    fit(f, g);
    return g;
}

/* Warnings about the runs a fit left out. */
static bool fit_warnings(report *r, const stripfit *g)
{
    const strip_model *m = &g->model;
    bool ok = true;
    if (m->nunmatched)
        ok = rjreport_warn(r, "%s%zu parallel configuration(s) left out: no sequential run with "
                              "the same per-process mesh or work", g->prefix, m->nunmatched);
    if (ok && m->nno_work)
        ok = rjreport_warn(r, "%s%zu parallel configuration(s) left out: no work_mb", g->prefix,
                           m->nno_work);
    if (ok && m->nother_msg)
        ok = rjreport_warn(r, "%s%zu parallel configuration(s) left out: message length differs "
                              "from the target's nb = %g", g->prefix, m->nother_msg, g->msg_len);
    if (ok && m->msg_len_fallback)
        ok = rjreport_warn(r, "%sno parallel run has the target's message length nb = %g; runs "
                              "of every message length were used (the paper fixes it)",
                           g->prefix, g->msg_len);
    if (ok && m->nnot_strip)
        ok = rjreport_warn(r, "%s%zu block configuration(s) (npa, npb > 1) ignored by the strip "
                              "model", g->prefix, m->nnot_strip);
    return ok;
}

/* What the law did to the parallel training runs' Tcomp, when it is on:
 * the most crowded of them, in words. */
static bool training_contention(report *r, const stripfit *g)
{
    if (!g->model.contention.on)
        return true;
    char text[300];
    contention_text(text, sizeof text, &g->model.contention, g->model.train_ppn_max);
    return rjreport_diagnose(r, "%sthe most crowded parallel training runs: %s", g->prefix, text);
}

bool stripfits_report(stripfits *f, report *r, char *eq, size_t eqlen)
{
    size_t nok = 0, used = strlen(eq);
    for (size_t i = 0; i < f->nfits; i++)
        nok += f->fits[i]->ok;
    bool ok = true;
    for (size_t i = 0; ok && i < f->nfits; i++) {
        stripfit *g = f->fits[i];
        if (!g->ok)
            continue;
        if (nok > 1)
            snprintf(g->prefix, sizeof g->prefix, "%s/%s/nb=%g: ", g->cluster,
                     g->code ? g->code : "-", g->msg_len);
        const overhead_law *law = &g->model.law;
        if (used < eqlen)
            used += (size_t)snprintf(eq + used, eqlen - used, "%s%sT = Tcomp(per-process mesh)",
                                     used ? "; " : "", g->prefix);
        if (used < eqlen)
            used += (size_t)rjreport_law_text(eq + used, eqlen - used, law, true);
        ok = rjreport_law(r, g->prefix, law) &&
             rjreport_configs(r, g->prefix, &g->model.configs, g->model.max_spread_pct,
                              g->model.mb_per_point) &&
             fit_warnings(r, g) &&
             (!f->settings.arch || node_contention_report(r, g->prefix, &g->contention)) &&
             training_contention(r, g);
    }
    return ok;
}
