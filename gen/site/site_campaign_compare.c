/*
 * site_campaign_compare.c — the verdict of an experiment and the model
 * comparison on its split (gen/fit/verdict.h, gen/fit/compare.h) as sections of
 * the campaign page, the comparison also as CSV.
 */
#include "gen/site/site_campaign_compare.h"

#include <math.h>
#include <stdio.h>

#include "render/markdown.h"

void campaign_verdict(page_state *s)
{
    const verdict *v = &s->e->verdict;
    md_strong(&s->md, "Verdict:");
    md_text(&s->md, " ");
    md_text(&s->md, verdict_name(v->level));
    if (v->reasons && v->reasons[0]) {
        md_text(&s->md, " \xE2\x80\x94 ");
        md_text(&s->md, v->reasons);
    }
    md_text(&s->md, ".");
    md_end_paragraph(&s->md);
}

static void csv_row(rbuf *csv, const compare_row *w, bool best)
{
    site_csv_text(csv, w->label);
    rbuf_printf(csv, ",%s,%s,%zu,", w->own ? "true" : "false", w->applies ? "true" : "false",
                w->calibrated.ntargets);
    double v[] = {w->calibrated.median_abs_error_pct, w->calibrated.max_abs_error_pct};
    for (size_t i = 0; i < 2; i++)
        site_csv_num(csv, v[i]), rbuf_putc(csv, ',');
    rbuf_printf(csv, "%zu,%zu,", w->calibrated.nwith_interval, w->calibrated.ninside);
    site_csv_num(csv, w->calibrated.mean_width_pct);
    rbuf_putc(csv, ',');
    site_csv_num(csv, w->calibrated.median_width_ratio);
    rbuf_putc(csv, ',');
    site_csv_num(csv, w->calibrated.mean_interval_score);
    rbuf_printf(csv, ",%zu,%zu,%s,", w->textbook.nwith_interval, w->textbook.ninside,
                best ? "true" : "false");
    site_csv_text(csv, w->reason ? w->reason : "");
    rbuf_putc(csv, '\n');
}

static void count_cell(md_table *t, rbuf *cell, size_t inside, size_t with)
{
    rbuf_clear(cell);
    if (with)
        rbuf_printf(cell, "%zu of %zu", inside, with);
    else
        rbuf_puts(cell, "\xE2\x80\x94");
    md_table_text(t, rbuf_str(cell));
}

/* One row of the comparison table: a model that applies. */
static void applying_row(md_table *t, rbuf *cell, const compare_row *w, bool best)
{
    rbuf_clear(cell);
    rbuf_printf(cell, "%s%s%s", w->label, w->own ? " (this experiment)" : "", best ? ", best" : "");
    md_table_text(t, rbuf_str(cell));
    site_md_cell_count(t, w->calibrated.ntargets);
    site_md_cell_number(t, w->calibrated.median_abs_error_pct);
    site_md_cell_number(t, w->calibrated.max_abs_error_pct);
    count_cell(t, cell, w->calibrated.ninside, w->calibrated.nwith_interval);
    site_md_cell_number(t, w->calibrated.median_width_ratio);
    site_md_cell_number(t, w->calibrated.mean_interval_score);
    count_cell(t, cell, w->textbook.ninside, w->textbook.nwith_interval);
}

/* The models that do not apply to this experiment and why, folded: a
 * list of reasons, not results. */
static void not_applying(page_state *s, const compare_result *r, size_t n)
{
    if (n == 0)
        return;
    rbuf_clear(&s->tmp);
    rbuf_printf(&s->tmp, "%zu model%s that do%s not apply here, and why", n, n == 1 ? "" : "s",
                n == 1 ? "es" : "");
    md_fold_begin(&s->md, rbuf_str(&s->tmp));
    static const char *const head[] = {"model", "why it does not apply"};
    md_table t;
    md_table_begin(&t, &s->md, 2, head, "ll");
    for (size_t i = 0; i < r->nrows; i++)
        if (!r->rows[i].applies) {
            md_table_text(&t, r->rows[i].label);
            md_table_text(&t, r->rows[i].reason ? r->rows[i].reason : "does not apply");
        }
    md_table_end(&t);
    md_fold_end(&s->md);
}

bool campaign_comparison(page_state *s)
{
    const compare_result *r = &s->e->compare;
    if (r->nrows == 0)
        return true;
    md_heading(&s->md, 3, "Model comparison");
    md_fold_begin(&s->md, "What the columns mean");
    md_text(&s->md, "Every model that applies, fitted on this experiment's training runs and "
                    "scored on its held-out runs: |error| in %, how many measurements lie inside "
                    "the calibrated 95% PI, its median width as a factor (high/low: 2 means "
                    "within about 1.4 times either way) and its interval score (on log times: "
                    "the log width plus 40 times how far a miss lies outside; lower is better, "
                    "so a wide interval that covers scores worse than a sharp one that is "
                    "right), and how many lie inside the model's 95% PI. Every model's "
                    "calibrated interval is shrunk toward the backtests of the same model in "
                    "the archive's other campaigns (the pooled error model), as this "
                    "experiment's own is, so the models are compared on intervals made the "
                    "same way. The ScoPred term "
                    "search is left out of the site build (it refits a search per backtest); "
                    "the perfcast compare command includes it.");
    md_end_paragraph(&s->md);
    md_fold_end(&s->md);
    static const char *const head[] = {"model", "targets", "median |error| (%)",
                                       "max |error| (%)", "inside calibrated 95% PI",
                                       "width (high/low)", "interval score",
                                       "inside model's 95% PI"};
    rbuf csv, cell;
    rbuf_init(&csv), rbuf_init(&cell);
    rbuf_puts(&csv, "model,own,applies,targets,median_abs_error_pct,max_abs_error_pct,"
                    "cal_with_interval,cal_inside,cal_mean_width_pct,cal_median_width_ratio,"
                    "cal_interval_score,own_pi_with_interval,"
                    "own_pi_inside,best,reason\n");
    size_t napply = 0;
    for (size_t i = 0; i < r->nrows; i++)
        napply += r->rows[i].applies;
    if (napply) {
        md_table t;
        md_table_begin(&t, &s->md, 8, head, "lrrrrrrr");
        for (size_t i = 0; i < r->nrows; i++)
            if (r->rows[i].applies)
                applying_row(&t, &cell, &r->rows[i], (int)i == r->best);
        md_table_end(&t);
    } else {
        md_text(&s->md, "No model applies to this experiment.");
        md_end_paragraph(&s->md);
    }
    not_applying(s, r, r->nrows - napply);
    for (size_t i = 0; i < r->nrows; i++)
        csv_row(&csv, &r->rows[i], (int)i == r->best);
    const char *name = campaign_file_name(s, "compare.csv");
    site_md_data_link(&s->md, name);
    bool ok = campaign_write_csv(s, name, &csv);
    rbuf_free(&csv), rbuf_free(&cell);
    return ok;
}
