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
#include <string.h>

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
    rbuf_printf(&s->tmp, " %s at ", e->info->name);
    site_config_label(e, tc->rows[0], true, -1, &s->tmp);
    rbuf_puts(&s->tmp, ": ");
    value_text(e, p->estimate, &s->tmp);
    rbuf_printf(&s->tmp, ", %s 95%% PI ", calibrated ? "calibrated" : "the model's own");
    site_fmt_interval(&s->tmp, calibrated ? p->cal_low : p->pi_low,
                      calibrated ? p->cal_high : p->pi_high, &clipped);
    rbuf_puts(&s->tmp, tc->nmeasured ? "; measured " : "; not measured yet");
    if (tc->nmeasured)
        value_text(e, tc->measured, &s->tmp);
    rbuf_puts(&s->tmp, ".");
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
