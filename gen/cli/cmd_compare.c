/*
 * cmd_compare.c — `perfcast compare CAMPAIGN [EXPERIMENT]`: every model that
 * applies, fitted on each experiment's training runs and scored on its
 * held-out runs (gen/fit/compare.h), then pooled over the campaign.
 */
#include "gen/cli/commands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/textout.h"
#include "gen/cli/cli.h"
#include "gen/cli/text_table.h"
#include "gen/fit/compare.h"
#include "gen/fit/experiment_run.h"
#include "gen/site/site_pages.h"
#include "gen/ingest/archive.h"

static const char compare_usage[] =
    "usage: perfcast compare [--archive DIR] [--format text|csv] CAMPAIGN [EXPERIMENT]\n"
    "\n"
    "Fits every model that applies to each experiment of the campaign (its own\n"
    "model, the ScoPred term search, strip, block, multicluster, multicore) on\n"
    "the experiment's training runs, predicts its held-out (measured) targets\n"
    "and prints, per experiment and pooled over the campaign (experiment \"*\"):\n"
    "targets, median and max |error| (%), how many measurements lie inside the\n"
    "calibrated 95% PI and its mean width (% of the estimate), its median width as\n"
    "a factor high/low and its interval score (log scale, alpha 0.05: log(high/low)\n"
    "plus 40 times the log distance of a miss; lower is sharper and truer), the same count for\n"
    "the model's own 95% PI, why a model does not apply, and the verdict of each\n"
    "model on the experiment's split (reliable, uncertain, unreliable, not\n"
    "verified; the site gives the reasons). The campaign's best model, among\n"
    "those predicting every target, has the lowest interval score (the sharpest\n"
    "interval that holds); models without an interval on every target come\n"
    "after, by median |error|. Every model's calibrated interval is shrunk toward\n"
    "the backtests of the same model in the archive's other campaigns (the pooled\n"
    "error model, filled from the whole archive as `perfcast build` fills it), so\n"
    "the own model's numbers are those of `perfcast fit` and the site.\n"
    "\n"
    "  --archive DIR   the archive folder (default: archive)\n"
    "  --format F      text (default) or csv\n"
    "  --help          this text\n"
    "Exit status: 0 ok, 1 input problem, 2 usage.\n";

static const char *const columns[] = {
    "experiment", "model", "own", "applies", "targets", "median_abs_error_pct",
    "max_abs_error_pct", "cal_with_interval", "cal_inside", "cal_mean_width_pct",
    "cal_median_width_ratio", "cal_interval_score",
    "own_pi_with_interval", "own_pi_inside", "best", "reason", "verdict",
};
enum { NCOLUMNS = sizeof columns / sizeof columns[0] };

/* One row as CSV (the columns above). */
static void print_row(FILE *out, const char *experiment, const compare_row *w, bool best)
{
    textout_csv_text(out, experiment);
    fputc(',', out);
    textout_csv_text(out, w->label);
    fprintf(out, ",%s,%s,%zu", w->own ? "true" : "false", w->applies ? "true" : "false",
            w->calibrated.ntargets);
    double v[] = {w->calibrated.median_abs_error_pct, w->calibrated.max_abs_error_pct};
    for (size_t i = 0; i < 2; i++)
        fputc(',', out), textout_csv_number(out, v[i]);
    fprintf(out, ",%zu,%zu,", w->calibrated.nwith_interval, w->calibrated.ninside);
    textout_csv_number(out, w->calibrated.mean_width_pct);
    fputc(',', out);
    textout_csv_number(out, w->calibrated.median_width_ratio);
    fputc(',', out);
    textout_csv_number(out, w->calibrated.mean_interval_score);
    fprintf(out, ",%zu,%zu,%s,", w->textbook.nwith_interval, w->textbook.ninside,
            best ? "true" : "false");
    textout_csv_text(out, w->reason);
    /* A model that does not apply, or a pooled row, has no verdict here. */
    fprintf(out, ",%s\n", w->applies && w->verdict.reasons ? verdict_name(w->verdict.level) : "");
}

/* The text form: one aligned table, a model's reason for not applying
 * as a numbered note under it. */
typedef struct {
    text_table table;
    rbuf notes;
    size_t nnotes;
} text_out;

static const char *const text_columns[] = {
    "experiment", "model", "targets", "median |error|", "max |error|", "inside calibrated PI",
    "width (high/low)", "interval score", "inside own PI", "best", "verdict", "note",
};
enum { NTEXT = sizeof text_columns / sizeof text_columns[0] };

static void text_number(text_out *o, rbuf *b, double v, const char *unit)
{
    rbuf_clear(b);
    site_fmt(b, v);
    if (isfinite(v) && unit)
        rbuf_puts(b, unit);
    text_table_cell(&o->table, rbuf_str(b));
}

static void text_count(text_out *o, rbuf *b, size_t inside, size_t with)
{
    rbuf_clear(b);
    site_inside_count(b, inside, with);
    text_table_cell(&o->table, rbuf_str(b));
}

static void text_row(text_out *o, const char *experiment, const compare_row *w, bool best)
{
    rbuf b;
    rbuf_init(&b);
    text_table_cell(&o->table, experiment);
    rbuf_printf(&b, "%s%s", w->label, w->own ? " (own)" : "");
    text_table_cell(&o->table, rbuf_str(&b));
    rbuf_clear(&b), rbuf_printf(&b, "%zu", w->calibrated.ntargets);
    text_table_cell(&o->table, rbuf_str(&b));
    text_number(o, &b, w->calibrated.median_abs_error_pct, "%");
    text_number(o, &b, w->calibrated.max_abs_error_pct, "%");
    text_count(o, &b, w->calibrated.ninside, w->calibrated.nwith_interval);
    rbuf_clear(&b);
    if (isfinite(w->calibrated.median_width_ratio)) {
        rbuf_puts(&b, "\xC3\x97");
        site_fmt(&b, w->calibrated.median_width_ratio);
        if (w->calibrated.median_width_ratio > 100)
            rbuf_puts(&b, " (absurdly wide)");
    } else {
        rbuf_puts(&b, "\xE2\x80\x94");
    }
    text_table_cell(&o->table, rbuf_str(&b));
    text_number(o, &b, w->calibrated.mean_interval_score, NULL);
    text_count(o, &b, w->textbook.ninside, w->textbook.nwith_interval);
    text_table_cell(&o->table, best ? "yes" : "");
    text_table_cell(&o->table,
                    w->applies && w->verdict.reasons ? verdict_name(w->verdict.level) : "");
    rbuf_clear(&b);
    if (w->reason) {
        rbuf_printf(&b, "[%zu]", ++o->nnotes);
        rbuf_printf(&o->notes, "[%zu] %s: %s\n", o->nnotes, w->label, w->reason);
    }
    text_table_cell(&o->table, rbuf_str(&b));
    rbuf_free(&b);
}

/* Rows of r to stdout as CSV, or into the text table (text not NULL). */
static void print_result(text_out *text, const char *experiment, const compare_result *r)
{
    for (size_t i = 0; i < r->nrows; i++) {
        if (text)
            text_row(text, experiment, &r->rows[i], (int)i == r->best);
        else
            print_row(stdout, experiment, &r->rows[i], (int)i == r->best);
    }
}

/* Compare the experiments of c (only `only` when not NULL), as CSV or into
 * text (not NULL); exit status. One cache for them all: its pooled error
 * model, filled once from the archive's other campaigns (a build's pool
 * serves c's experiments nothing else), calibrates
 * every candidate (gen/fit/compare.h), so the own model's numbers are the
 * site's and `perfcast fit`'s. */
static int compare_campaign(const archive *a, const campaign *c, const char *only,
                            text_out *text)
{
    compare_result *per = calloc(c->nexperiments ? c->nexperiments : 1, sizeof *per);
    backtest_cache *cache = backtest_cache_new();
    char why[ERROR_PRIOR_ERROR_LEN] = "out of memory";
    if (!per || !cache || !backtest_cache_load_prior(cache, why, sizeof why) ||
        !experiment_fill_pool(a, c, cache)) {
        free(per);
        backtest_cache_free(cache);
        fprintf(stderr, "perfcast: %s\n", why);
        return 1;
    }
    size_t n = 0;
    bool ok = true;
    for (size_t i = 0; i < c->nexperiments; i++) {
        const experiment_info *e = &c->experiments[i];
        if (only && strcmp(e->name, only) != 0)
            continue;
        ok = compare_experiment_run(a, c, e, NULL, true, cache, &per[n]) && ok;
        print_result(text, e->name, &per[n]);
        n++;
    }
    compare_result pooled;
    ok = compare_campaign_pool(per, n, &pooled) && ok;
    if (!only)
        print_result(text, "*", &pooled);
    if (text && text_table_print(&text->table, stdout) && text->nnotes)
        printf("\n%s", rbuf_str(&text->notes));
    if (text && !only)
        fprintf(stdout, "\nbest model for %s: %s\n", c->name,
                pooled.best >= 0 ? pooled.rows[pooled.best].label
                                 : "none (no model predicted every held-out run)");
    for (size_t i = 0; i < n; i++)
        compare_result_free(&per[i]);
    compare_result_free(&pooled);
    free(per);
    backtest_cache_free(cache);
    if (!ok)
        fprintf(stderr, "perfcast: out of memory\n");
    return ok ? 0 : 1;
}

int cmd_compare(int argc, char **argv)
{
    static const char *const formats[] = {"text", "csv", NULL};
    cli_args args;
    if (!cli_parse(argc, argv, formats, 2, compare_usage, &args))
        return 2;
    if (args.help) {
        fputs(compare_usage, stdout);
        return 0;
    }
    if (args.npositional < 1) {
        fprintf(stderr, "perfcast compare: expected CAMPAIGN\n%s", compare_usage);
        return 2;
    }
    archive a;
    diag_list diags;
    diag_init(&diags);
    archive_load(args.archive, &a, &diags);
    diag_print(&diags, stderr);
    diag_free(&diags);
    const campaign *c = cli_find_campaign(&a, args.positional[0], args.archive);
    const char *only = args.npositional > 1 ? args.positional[1] : NULL;
    int status = 1;
    if (c && (!only || cli_find_experiment(c, only))) {
        cli_warn_missing_prior("compare");
        bool csv = strcmp(args.format, "csv") == 0;
        text_out text;
        bool right[NTEXT] = {false, false, true, true, true, true, true, true, true};
        text_table_init(&text.table, NTEXT, right);
        rbuf_init(&text.notes);
        text.nnotes = 0;
        if (csv) {
            for (size_t i = 0; i < NCOLUMNS; i++)
                fprintf(stdout, "%s%s", i ? "," : "", columns[i]);
            fputc('\n', stdout);
        } else {
            for (size_t i = 0; i < NTEXT; i++)
                text_table_cell(&text.table, text_columns[i]);
        }
        status = compare_campaign(&a, c, only, csv ? NULL : &text);
        text_table_free(&text.table);
        rbuf_free(&text.notes);
    }
    archive_free(&a);
    return status;
}
