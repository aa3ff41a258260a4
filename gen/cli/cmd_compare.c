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
#include "gen/fit/compare.h"
#include "gen/fit/experiment_run.h"
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
    "verified; the site gives the reasons). The campaign's best model has the\n"
    "lowest median |error| among those predicting every target.\n"
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

static void put_number(FILE *out, bool csv, double v)
{
    if (csv)
        textout_csv_number(out, v);
    else
        textout_human_number(out, v);
}

static void print_row(FILE *out, bool csv, const char *experiment, const compare_row *w,
                      bool best)
{
    const char *sep = csv ? "," : "\t";
    if (csv) {
        textout_csv_text(out, experiment);
        fputs(sep, out);
        textout_csv_text(out, w->label);
    } else {
        fprintf(out, "%s%s%s", experiment, sep, w->label);
    }
    fprintf(out, "%s%s%s%s%s%zu", sep, w->own ? "true" : "false", sep,
            w->applies ? "true" : "false", sep, w->calibrated.ntargets);
    double v[] = {w->calibrated.median_abs_error_pct, w->calibrated.max_abs_error_pct};
    for (size_t i = 0; i < 2; i++)
        fputs(sep, out), put_number(out, csv, v[i]);
    fprintf(out, "%s%zu%s%zu%s", sep, w->calibrated.nwith_interval, sep, w->calibrated.ninside,
            sep);
    put_number(out, csv, w->calibrated.mean_width_pct);
    fputs(sep, out);
    put_number(out, csv, w->calibrated.median_width_ratio);
    fputs(sep, out);
    put_number(out, csv, w->calibrated.mean_interval_score);
    fprintf(out, "%s%zu%s%zu%s%s%s", sep, w->textbook.nwith_interval, sep, w->textbook.ninside,
            sep, best ? "true" : "false", sep);
    if (csv)
        textout_csv_text(out, w->reason);
    else
        fputs(w->reason ? w->reason : "", out);
    /* A model that does not apply, or a pooled row, has no verdict here. */
    fprintf(out, "%s%s\n", sep,
            w->applies && w->verdict.reasons ? verdict_name(w->verdict.level) : "");
}

static void print_result(FILE *out, bool csv, const char *experiment, const compare_result *r)
{
    for (size_t i = 0; i < r->nrows; i++)
        print_row(out, csv, experiment, &r->rows[i], (int)i == r->best);
}

/* Compare the experiments of c (only `only` when not NULL); exit status. */
static int compare_campaign(const archive *a, const campaign *c, const char *only, bool csv)
{
    compare_result *per = calloc(c->nexperiments ? c->nexperiments : 1, sizeof *per);
    if (!per) {
        fprintf(stderr, "perfcast: out of memory\n");
        return 1;
    }
    size_t n = 0;
    bool ok = true;
    for (size_t i = 0; i < c->nexperiments; i++) {
        const experiment_info *e = &c->experiments[i];
        if (only && strcmp(e->name, only) != 0)
            continue;
        ok = compare_experiment_run(a, c, e, NULL, true, &per[n]) && ok;
        print_result(stdout, csv, e->name, &per[n]);
        n++;
    }
    compare_result pooled;
    ok = compare_campaign_pool(per, n, &pooled) && ok;
    if (!only)
        print_result(stdout, csv, "*", &pooled);
    if (!csv && !only)
        fprintf(stdout, "best model for %s: %s\n", c->name,
                pooled.best >= 0 ? pooled.rows[pooled.best].label
                                 : "none (no model predicted every held-out run)");
    for (size_t i = 0; i < n; i++)
        compare_result_free(&per[i]);
    compare_result_free(&pooled);
    free(per);
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
    const campaign *c = archive_campaign(&a, args.positional[0]);
    const char *only = args.npositional > 1 ? args.positional[1] : NULL;
    int status = 1;
    if (!c)
        fprintf(stderr, "perfcast: no usable campaign '%s' in %s\n", args.positional[0],
                args.archive);
    else if (only && !campaign_experiment(c, only))
        fprintf(stderr, "perfcast: campaign '%s' has no experiment '%s'\n", c->name, only);
    else {
        bool csv = strcmp(args.format, "csv") == 0;
        for (size_t i = 0; i < NCOLUMNS; i++)
            fprintf(stdout, "%s%s", i ? (csv ? "," : "\t") : "", columns[i]);
        fputc('\n', stdout);
        status = compare_campaign(&a, c, only, csv);
    }
    archive_free(&a);
    return status;
}
