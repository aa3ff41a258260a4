/*
 * site_advice_pi.c — interval and verdict of an advice option's time
 * (site_advice_pi.h).
 */
#include "gen/site/site_advice_pi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/site/site_pages.h"
#include "gen/site/site_published.h"

/* The prediction a model-based option takes its verdict from (its
 * interval is advise's own, from_model). */
typedef struct {
    const site_option *opt; /* NULL: none found */
    double low, high;       /* its calibrated interval as ratios to its time: of two
                               predictions at the most processes, the wider one's
                               experiment is the one to answer for the option */
} borrowed;

static const site_experiment *experiment_of(const site_data *d, const site_option *o)
{
    return &d->camps[o->camp].exps[o->exp];
}

static const char *code_of(const site_data *d, const site_option *o)
{
    const site_experiment *e = experiment_of(d, o);
    size_t row = e->res.input.targets[o->target].rows[0];
    return table_text_named(&d->camps[o->camp].camp->runs, row, "code");
}

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Of the predictions of `model` for `code` on the cluster named `cluster`
 * with a calibrated interval, the one with the most processes (ties: the
 * wider interval). */
static borrowed borrow(const site_data *d, const char *model, const char *code,
                       const char *cluster)
{
    borrowed best = {NULL, NAN, NAN};
    for (size_t i = 0; i < d->noptions; i++) {
        const site_option *p = &d->options[i];
        if (strcmp(experiment_of(d, p)->info->model, model) != 0 ||
            strcmp(d->clusters[p->cluster].info->name, cluster) != 0 ||
            !same_text(code_of(d, p), code) || !(p->cal_low > 0) || !isfinite(p->cal_high))
            continue;
        double lo = p->cal_low / p->time_s, hi = p->cal_high / p->time_s;
        if (!best.opt || p->np > best.opt->np ||
            (p->np == best.opt->np && hi / lo > best.high / best.low))
            best = (borrowed){p, lo, hi};
    }
    return best;
}

/* The verdict of the experiments b[0..n) the option's time is tested by
 * (the worst of them), "reliable" never beyond the processes they were
 * tested at; appended to out->basis after "; verdict ". */
static void borrowed_verdict(const site_data *d, const advise_option *o, const borrowed *b, int n,
                             site_advice_pi *out)
{
    size_t used = strlen(out->basis);
    double np = 0, tested = b[0].opt->np;
    verdict_level v = experiment_of(d, b[0].opt)->verdict.level;
    for (int k = 0; k < n; k++) {
        const site_option *p = b[k].opt;
        verdict_level w = experiment_of(d, p)->verdict.level;
        v = w > v ? w : v;
        tested = fmin(tested, p->np);
        used += (size_t)snprintf(out->basis + used, sizeof out->basis - used,
                                 "%s%s / %s at %g processes", k ? " and " : "; verdict from ",
                                 d->camps[p->camp].name, experiment_of(d, p)->info->name, p->np);
        if (used >= sizeof out->basis)
            return;
    }
    for (int k = 0; k < o->nsides; k++)
        np = fmax(np, o->np[k]);
    out->verdict = v;
    if (np > tested) {
        snprintf(out->basis + used, sizeof out->basis - used,
                 ", beyond what it was tested at (%g processes per side)", np);
        if (out->verdict == VERDICT_RELIABLE)
            out->verdict = VERDICT_UNCERTAIN;
    }
}

/* The interval is advise's own (gen/advice/advise.h: the pooled strip
 * width, or the multi-cluster model's interval from its parts), so that
 * the page and `perfcast advise` print one interval; the verdict is the
 * experiments' that test the model on those clusters. */
static void from_model(const site_data *d, const advise_option *o, const char *code,
                       site_advice_pi *out)
{
    out->low = o->time_low, out->high = o->time_high;
    snprintf(out->basis, sizeof out->basis, "%s (as perfcast advise gives it)", o->interval);
    borrowed b[2] = {{NULL, NAN, NAN}, {NULL, NAN, NAN}};
    int n = 0;
    for (int k = 0; o->nsides == 2 && k < 2 && n == 0; k++)
        if ((b[0] = borrow(d, "multicluster", code, o->cluster[k]->name)).opt)
            n = 1;
    for (int k = 0; n == 0 && k < o->nsides; k++) {
        b[k] = borrow(d, "strip", code, o->cluster[k]->name);
        if (!b[k].opt) {
            size_t used = strlen(out->basis);
            snprintf(out->basis + used, sizeof out->basis - used,
                     "; not verified: no experiment tests the strip model%s on %s",
                     o->nsides == 2 ? " (nor the multi-cluster model)" : "",
                     o->cluster[k]->name);
            return;
        }
    }
    borrowed_verdict(d, o, b, n ? n : o->nsides, out);
}

static void from_paper(const advise_option *o, site_advice_pi *out)
{
    size_t n;
    if (site_published_interval(o->published_in, o->published_row, o->time_s, &out->low,
                                &out->high, &n))
        snprintf(out->basis, sizeof out->basis,
                 "from the paper's %zu other printed predictions in %s (measured / predicted "
                 "on a log scale); no model of perfcast's checks it",
                 n, o->published_in->name);
    else
        snprintf(out->basis, sizeof out->basis,
                 "%s has fewer than 3 other printed predictions with a measured time",
                 o->published_in->name);
}

void site_advice_pi_of(const site_data *d, const char *code, const advise_option *o,
                       site_advice_pi *out)
{
    *out = (site_advice_pi){NAN, NAN, VERDICT_NOT_VERIFIED, ""};
    if (o->time_from == ADVISE_TIME_PUBLISHED && o->published_in)
        from_paper(o, out);
    else if (o->time_from == ADVISE_TIME_MODEL)
        from_model(d, o, code, out);
    else
        snprintf(out->basis, sizeof out->basis, "no predicted time");
}

void site_advice_pi_cost(const advise_option *o, const site_advice_pi *pi, rbuf *out)
{
    double per_s = o->cost.cost / o->time_s;
    if (!isfinite(per_s) || !isfinite(pi->low) || !isfinite(pi->high)) {
        rbuf_puts(out, "\xE2\x80\x94");
        return;
    }
    const char *currency = o->cost.currency ? o->cost.currency : "units";
    site_fmt_money(out, per_s * pi->low, currency);
    rbuf_puts(out, " \xE2\x80\x93 ");
    site_fmt_money(out, per_s * pi->high, currency);
}

void site_advice_pi_source(const advise_option *o, const site_advice_pi *pi, site_notes *notes,
                           rbuf *cell)
{
    rbuf_puts(cell, o->source);
    rbuf text;
    rbuf_init(&text);
    if (o->no_model[0]) {
        rbuf_printf(&text, "No model: %s.", o->no_model);
        rbuf_puts(cell, "; no model ");
        site_notes_mark(cell, site_notes_add(notes, rbuf_str(&text)));
    }
    rbuf_clear(&text);
    rbuf_printf(&text, "Interval and verdict %s.", pi->basis);
    rbuf_puts(cell, "; interval ");
    site_notes_mark(cell, site_notes_add(notes, rbuf_str(&text)));
    rbuf_free(&text);
}
