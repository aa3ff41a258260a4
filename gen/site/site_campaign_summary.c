/*
 * site_campaign_summary.c — the lines that open a campaign's Summary: the
 * reader's questions answered before any table (issue 13, point 3). What
 * was run is the page's first paragraph; here: the campaign's verdict,
 * the model that predicts its held-out runs best (the pooled model
 * comparison, gen/fit/compare.h), and one headline prediction with its
 * interval: the target furthest beyond its experiment's trained range
 * (the boldest claim the page makes), first in page order on ties.
 */
#include "gen/site/site_campaign_summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/calibrate.h"
#include "render/markdown.h"

static void verdict_line(page_state *s)
{
    const site_campaign *sc = s->sc;
    md_bullet(&s->md);
    md_strong(&s->md, "Verdict:");
    md_text(&s->md, " ");
    md_text(&s->md, verdict_name(sc->verdict.level));
    md_text(&s->md, sc->nexps > 1 ? " (the worst of its experiments; each says why below)."
                                  : " (the experiment below says why).");
    md_end_item(&s->md);
}

static void best_model_line(page_state *s)
{
    const compare_result *c = &s->sc->compare;
    md_bullet(&s->md);
    md_strong(&s->md, "Best model on the held-out runs:");
    if (c->best < 0 || (size_t)c->best >= c->nrows) {
        md_text(&s->md, " none: no model predicted every measured target.");
        md_end_item(&s->md);
        return;
    }
    const compare_row *r = &c->rows[c->best];
    rbuf_clear(&s->tmp);
    rbuf_printf(&s->tmp, " %s, median |error| ", r->label);
    site_fmt(&s->tmp, r->calibrated.median_abs_error_pct);
    rbuf_printf(&s->tmp, "%% over %zu measured targets; its calibrated 95%% PI covered ",
                r->calibrated.ntargets);
    site_inside_count(&s->tmp, r->calibrated.ninside, r->calibrated.nwith_interval);
    rbuf_puts(&s->tmp, ".");
    md_text(&s->md, rbuf_str(&s->tmp));
    md_end_item(&s->md);
}

/* The target furthest beyond its trained range; false when none. */
static bool headline(const site_campaign *sc, size_t *exp, size_t *pred)
{
    bool found = false;
    double far = -1;
    for (size_t i = 0; i < sc->nexps; i++) {
        const experiment_result *res = &sc->exps[i].res;
        for (size_t k = 0; res->ok && k < res->rep.npreds; k++) {
            const report_prediction *p = &res->rep.preds[k];
            double d = isfinite(p->distance) ? p->distance : 0;
            if (p->config < res->input.ntargets && isfinite(p->estimate) && d > far)
                far = d, *exp = i, *pred = k, found = true;
        }
    }
    return found;
}

static void value_text(const site_experiment *e, double v, rbuf *out)
{
    const char *r = e->info->response ? e->info->response : "time_s";
    if (strncmp(r, "time", 4) == 0)
        site_fmt_duration(out, v);
    else
        site_fmt(out, v);
}

static void headline_line(page_state *s)
{
    size_t i = 0, k = 0;
    if (!headline(s->sc, &i, &k))
        return;
    const site_experiment *e = &s->sc->exps[i];
    const report_prediction *p = &e->res.rep.preds[k];
    const target_config *tc = &e->res.input.targets[p->config];
    bool calibrated = isfinite(p->cal_low) && isfinite(p->cal_high), clipped = false;
    md_bullet(&s->md);
    md_strong(&s->md, "Headline prediction:");
    rbuf_clear(&s->tmp);
    rbuf_printf(&s->tmp, " %s, ", e->info->name);
    site_config_words(e, tc->rows[0], &s->tmp);
    rbuf_puts(&s->tmp, ": ");
    value_text(e, p->estimate, &s->tmp);
    rbuf_printf(&s->tmp, ", %s 95%% PI ", calibrated ? "calibrated" : "model's");
    site_fmt_interval(&s->tmp, calibrated ? p->cal_low : p->pi_low,
                      calibrated ? p->cal_high : p->pi_high, &clipped);
    rbuf_puts(&s->tmp, tc->nmeasured ? "; measured " : "; not measured yet");
    if (tc->nmeasured)
        value_text(e, tc->measured, &s->tmp);
    double lo = calibrated ? p->cal_low : p->pi_low, hi = calibrated ? p->cal_high : p->pi_high;
    bool miss = tc->nmeasured && isfinite(lo) && isfinite(hi) &&
                (tc->measured < lo || tc->measured > hi);
    rbuf_puts(&s->tmp, miss ? ": " : ".");
    md_text(&s->md, rbuf_str(&s->tmp));
    rbuf_clear(&s->tmp);
    if (miss) /* said in words, not only in bold: read aloud too */
        md_strong(&s->md, "a miss, outside its interval.");
    if (clipped)
        rbuf_printf(&s->tmp, " %s", site_clip_note);
    md_text(&s->md, rbuf_str(&s->tmp));
    md_end_item(&s->md);
}

void campaign_summary_lead(page_state *s)
{
    verdict_line(s);
    best_model_line(s);
    headline_line(s);
    md_end_list(&s->md);
}

/* The experiment's held-out targets scored as the model comparison
 * scores every model (models/calibrate.h): against the calibrated 95% PI
 * into cal, against the model's own 95% PI into own. */
static bool experiment_scores(const site_experiment *e, calibrate_scores *cal,
                              calibrate_scores *own)
{
    const report *r = &e->res.rep;
    size_t n = e->res.ok ? r->npreds : 0, k = 0;
    double *v = malloc((6 * n + 1) * sizeof *v);
    if (!v)
        return false;
    double *est = v, *meas = v + n, *clo = v + 2 * n, *chi = v + 3 * n, *plo = v + 4 * n,
           *phi = v + 5 * n;
    for (size_t i = 0; i < n; i++) {
        const report_prediction *p = &r->preds[i];
        if (p->config >= e->res.input.ntargets)
            continue;
        const target_config *tc = &e->res.input.targets[p->config];
        est[k] = p->estimate, meas[k] = tc->nmeasured ? tc->measured : NAN;
        clo[k] = p->cal_low, chi[k] = p->cal_high, plo[k] = p->pi_low, phi[k] = p->pi_high;
        k++;
    }
    bool ok = calibrate_score_targets(est, meas, clo, chi, k, cal) == CALIBRATE_OK &&
              calibrate_score_targets(est, meas, plo, phi, k, own) == CALIBRATE_OK;
    free(v);
    return ok;
}

static void inside_cell(md_table *t, rbuf *cell, const calibrate_scores *sc)
{
    rbuf_clear(cell);
    site_inside_count(cell, sc->ninside, sc->nwith_interval);
    md_table_text(t, rbuf_str(cell));
}

bool campaign_summary_table(page_state *s)
{
    const site_campaign *sc = s->sc;
    static const char *const head[] = {"experiment", "model", "verdict", "held-out configurations",
                                       "median |error| (%)", "max |error| (%)",
                                       "inside calibrated 95% PI", "inside model's 95% PI"};
    md_table t;
    md_table_begin(&t, &s->md, 8, head, "lllrrrrr");
    rbuf cell;
    rbuf_init(&cell);
    bool ok = true;
    for (size_t i = 0; ok && i < sc->nexps; i++) {
        const site_experiment *e = &sc->exps[i];
        calibrate_scores cal = {0}, own = {0};
        ok = experiment_scores(e, &cal, &own);
        rbuf_clear(&cell), rbuf_clear(&s->tmp);
        rbuf_printf(&s->tmp, "#%s", e->anchor);
        md_link(&cell, e->info->name, rbuf_str(&s->tmp));
        md_table_markdown(&t, rbuf_str(&cell));
        md_table_text(&t, e->res.ok ? e->info->model : "fit failed");
        md_table_text(&t, verdict_name(e->verdict.level));
        site_md_cell_count(&t, cal.ntargets);
        site_md_cell_number(&t, cal.ntargets ? cal.median_abs_error_pct : NAN);
        site_md_cell_number(&t, cal.ntargets ? cal.max_abs_error_pct : NAN);
        inside_cell(&t, &cell, &cal);
        inside_cell(&t, &cell, &own);
    }
    md_table_end(&t);
    rbuf_free(&cell);
    return ok;
}
