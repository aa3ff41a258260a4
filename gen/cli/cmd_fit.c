/*
 * cmd_fit.c — `perfcast fit` and `perfcast predict`: run one experiment and
 * print its report (fit: coefficients and goodness of fit; predict: one row
 * per target configuration) as text, CSV or JSON. The printing knows
 * nothing of the model: every model fills the same report.
 */
#include "gen/cli/commands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/config_index.h"
#include "gen/base/run_engine.h"
#include "gen/base/textout.h"
#include "gen/cli/cli.h"
#include "gen/cli/text_table.h"
#include "gen/fit/experiment_run.h"
#include "gen/ingest/archive.h"
#include "gen/ingest/experiment.h"
#include "gen/site/site_pages.h"
#include "render/numtext.h"

static const char fit_usage[] =
    "usage: perfcast fit [--archive DIR] [--format text|json] CAMPAIGN EXPERIMENT\n"
    "\n"
    "Fits the experiment's model on its training runs and prints the fitted\n"
    "terms (coefficient, standard error, t, p, aliased), the goodness of fit\n"
    "(r2, adj_r2, f, f_p, sigma, n, df_resid where the model has them), the\n"
    "formula, diagnostics and warnings.\n"
    "\n"
    "  --archive DIR   the archive folder (default: archive)\n"
    "  --format F      text (default) or json\n"
    "  --help          this text\n"
    "Exit status: 0 ok, 1 input problem or failed fit, 2 usage.\n";

static const char predict_usage[] =
    "usage: perfcast predict [--archive DIR] [--format text|csv|json] CAMPAIGN EXPERIMENT\n"
    "\n"
    "Fits the experiment and predicts every target configuration: the target's\n"
    "identifying columns as in runs.csv, then estimate, ci_low, ci_high, pi_low,\n"
    "pi_high (textbook 95% intervals, empty where the model has none), measured\n"
    "(mean of the measured runs), n_measured, error_pct =\n"
    "100*(estimate-measured)/measured, extrapolation (csv 1/0, json true/false,\n"
    "text yes/no), note (why an interval is absent, what was flagged) — the\n"
    "columns of the site's predictions CSV; then cal_pi_low, cal_pi_high (the\n"
    "calibrated 95% prediction interval: it also covers the model's error when\n"
    "extrapolating, from backtests on the training runs), doublings_beyond_range\n"
    "and beyond_range (\"np 512 = 2x max trained 256\": each parameter outside\n"
    "the training range); for a response summed from components\n"
    "(time_a_s+time_b_s), estimate_<component>, ci_low_<component>,\n"
    "ci_high_<component>, pi_low_<component>, pi_high_<component> for each.\n"
    "The fit is shown with them: text and json give the formula, the fitted\n"
    "equation, how the textbook intervals are made (interval_method) and how the\n"
    "calibrated one is (calibration_method: its backtests, shrunk toward those of\n"
    "the same model in the archive's other campaigns where there are any) once;\n"
    "csv repeats them as the last columns of every row. Text and json also say\n"
    "when the training runs change at their top level beyond the model's law\n"
    "(regime_change: a step or knee the model would extrapolate through) and\n"
    "where the runs a target extends stopped gaining (gain_stop: none of the larger\n"
    "runs was 10% faster), as the verdict does. In text, a model's own interval of\n"
    "a time that reaches below zero is marked \xE2\x80\xA0 and explained under the\n"
    "table (its value is kept).\n"
    "\n"
    "  --archive DIR   the archive folder (default: archive)\n"
    "  --format F      text (default), csv or json\n"
    "  --help          this text\n"
    "Exit status: 0 ok, 1 input problem or failed fit, 2 usage.\n";

/* Load the archive and run the named experiment; returns an exit status. */
static int run_named(const cli_args *args, const char *usage, archive *a, experiment_result *res)
{
    if (args->npositional != 2)
        return cli_usage_error(usage == fit_usage ? "fit" : "predict",
                               "expected CAMPAIGN and EXPERIMENT (perfcast list shows them)", NULL);
    diag_list diags;
    diag_init(&diags);
    archive_load(args->archive, a, &diags);
    diag_print(&diags, stderr);
    diag_free(&diags);
    const campaign *c = cli_find_campaign(a, args->positional[0], args->archive);
    if (!c)
        return 1;
    const experiment_info *e = cli_find_experiment(c, args->positional[1]);
    if (!e)
        return 1;
    cli_warn_missing_prior(usage == fit_usage ? "fit" : "predict");
    if (e->problem) { /* printed above with the archive's problems */
        fprintf(stderr, "perfcast: %s/%s has a problem and is not run\n", c->name, e->name);
        return 1;
    }
    /* A cache of its own, so that the interval shrinks toward the archive's
     * pooled backtests as the site's does (gen/fit/error_pool.h): the other
     * campaigns' (an experiment's pool never holds its own campaign's). */
    backtest_cache *cache = backtest_cache_new();
    char why[ERROR_PRIOR_ERROR_LEN] = "out of memory";
    if (!cache || !backtest_cache_load_prior(cache, why, sizeof why) ||
        !experiment_fill_pool(a, c, cache)) {
        fprintf(stderr, "perfcast: %s\n", why);
        backtest_cache_free(cache);
        return 1;
    }
    bool ran = experiment_run_shared(a, c, e, cache, res);
    backtest_cache_free(cache);
    if (!ran) {
        char text[1024];
        experiment_error_text(c, res, text, sizeof text);
        fprintf(stderr, "%s\n", text);
        return 1;
    }
    return 0;
}

static void print_fit_text(const experiment_result *res, FILE *out)
{
    const report *r = &res->rep;
    const experiment_info *e = res->input.exp;
    fprintf(out, "%s/%s (%s)%s%s\n", res->input.camp->name, e->name, e->model,
            e->title ? ": " : "", e->title ? e->title : "");
    if (r->formula)
        fprintf(out, "formula: %s\n", r->formula);
    if (r->equation)
        fprintf(out, "fitted:  %s\n", r->equation);
    /* Aligned, never in e-notation (render/numtext.h). */
    static const char *const head[] = {"term", "coefficient", "std_error", "t", "p"};
    static const bool right[] = {false, true, true, true, true};
    text_table t;
    text_table_init(&t, 5, right);
    for (size_t k = 0; k < 5; k++)
        text_table_cell(&t, head[k]);
    rbuf b;
    rbuf_init(&b);
    for (size_t i = 0; i < r->ncoefs; i++) {
        const report_coef *c = &r->coefs[i];
        text_table_cell(&t, c->term);
        const double values[] = {c->coefficient, c->std_error, c->t, c->p};
        for (size_t k = 0; k < 4; k++) {
            rbuf_clear(&b);
            if (c->aliased)
                rbuf_puts(&b, k == 0 ? "aliased" : "");
            else if (isfinite(values[k]))
                numtext_value(&b, values[k], k < 2 ? 6 : 4);
            else
                rbuf_puts(&b, "\xE2\x80\x94"); /* does not exist for this model */
            text_table_cell(&t, rbuf_str(&b));
        }
    }
    fputc('\n', out);
    text_table_print(&t, out);
    text_table_free(&t);
    fputc('\n', out);
    for (size_t i = 0; i < r->nstats; i++) {
        fprintf(out, "%-10s ", r->stats[i].name);
        textout_human_number(out, r->stats[i].value);
        fprintf(out, "%s%s\n", r->stats[i].text ? "  " : "", r->stats[i].text ? r->stats[i].text : "");
    }
    for (size_t i = 0; i < r->ndiagnostics; i++) {
        rbuf_clear(&b);
        numtext_humanize(&b, r->diagnostics[i]);
        fprintf(out, "diagnostic: %s\n", rbuf_str(&b));
    }
    for (size_t i = 0; i < r->nwarnings; i++) {
        rbuf_clear(&b);
        numtext_humanize(&b, r->warnings[i]);
        fprintf(out, "warning: %s\n", rbuf_str(&b));
    }
    if (r->regime)
        fprintf(out, "warning: %s\n", r->regime);
    if (r->gain_stop)
        fprintf(out, "warning: %s\n", r->gain_stop);
    rbuf_free(&b);
}

static void print_json_strings(FILE *out, const char *key, char **items, size_t n)
{
    fprintf(out, ",\n  \"%s\": [", key);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", " : "", out);
        textout_json_text(out, items[i]);
    }
    fputc(']', out);
}

static void print_fit_json(const experiment_result *res, FILE *out)
{
    const report *r = &res->rep;
    textout_json_text_member(out, "{\n  ", "campaign", res->input.camp->name);
    textout_json_text_member(out, ",\n  ", "experiment", res->input.exp->name);
    textout_json_text_member(out, ",\n  ", "model", res->input.exp->model);
    textout_json_text_member(out, ",\n  ", "formula", r->formula);
    textout_json_text_member(out, ",\n  ", "equation", r->equation);
    fputs(",\n  \"terms\": [", out);
    for (size_t i = 0; i < r->ncoefs; i++) {
        const report_coef *c = &r->coefs[i];
        textout_json_text_member(out, i ? ",\n    {" : "\n    {", "term", c->term);
        textout_json_number_member(out, ", ", "coefficient", c->coefficient);
        textout_json_number_member(out, ", ", "std_error", c->std_error);
        textout_json_number_member(out, ", ", "t", c->t);
        textout_json_number_member(out, ", ", "p", c->p);
        fprintf(out, ", \"aliased\": %s}", c->aliased ? "true" : "false");
    }
    fputs(r->ncoefs ? "\n  ]" : "]", out);
    for (size_t i = 0; i < r->nstats; i++)
        textout_json_number_member(out, ",\n  ", r->stats[i].name, r->stats[i].value);
    print_json_strings(out, "diagnostics", r->diagnostics, r->ndiagnostics);
    print_json_strings(out, "warnings", r->warnings, r->nwarnings);
    textout_json_text_member(out, ",\n  ", "regime_change", r->regime);
    textout_json_text_member(out, ",\n  ", "gain_stop", r->gain_stop);
    fputs("\n}\n", out);
}

int cmd_fit(int argc, char **argv)
{
    static const char *const formats[] = {"text", "json", NULL};
    cli_args args;
    if (!cli_parse(argc, argv, formats, 2, fit_usage, &args))
        return 2;
    if (args.help) {
        fputs(fit_usage, stdout);
        return 0;
    }
    archive a = {0};
    experiment_result res = {0};
    int status = run_named(&args, fit_usage, &a, &res);
    if (status == 0) {
        if (strcmp(args.format, "json") == 0)
            print_fit_json(&res, stdout);
        else
            print_fit_text(&res, stdout);
    }
    experiment_result_free(&res);
    archive_free(&a);
    return status;
}

/* ------------------------------------------------------------------ */
/* predict                                                             */

typedef enum { OUT_TEXT, OUT_CSV, OUT_JSON } out_format;

/* The value columns, named as in the site's <experiment>-predictions.csv:
 * one vocabulary for both (no unit suffix: a response need not be seconds). */
static const char *const value_columns[] = {
    "estimate", "ci_low", "ci_high", "pi_low", "pi_high", "measured", "n_measured", "error_pct",
};
enum { NVALUES = sizeof value_columns / sizeof value_columns[0] };
/* The calibration's values, after note. */
static const char *const calibrated_columns[] = {
    "cal_pi_low", "cal_pi_high", "doublings_beyond_range",
};
enum { NCALIBRATED = sizeof calibrated_columns / sizeof calibrated_columns[0] };

static void prediction_values(const report_prediction *p, const target_config *t,
                              double v[NVALUES])
{
    v[0] = p->estimate;
    v[1] = p->ci_low;
    v[2] = p->ci_high;
    v[3] = p->pi_low;
    v[4] = p->pi_high;
    v[5] = t->measured;
    v[6] = (double)t->nmeasured;
    v[7] = t->error_pct;
}

static void calibrated_values(const report_prediction *p, double v[NCALIBRATED])
{
    v[0] = p->cal_low;
    v[1] = p->cal_high;
    v[2] = p->distance;
}

/* How a model's intervals are made, in one line (predict shows it). */
static const char *interval_method(const char *model)
{
    if (strcmp(model, "scopred") == 0)
        return "95% Student-t intervals of the least-squares fit: CI from the target's "
               "leverage x0'(X'X)^-1 x0, PI adds the residual variance (a searched formula: "
               "weighted by 1/time^2 on the relative scale, the PI then relative to the "
               "estimate, widened by the spread of averaged laws, and moved with the "
               "estimate where it is held to the runs' trend; see the warnings and notes)";
    if (strcmp(model, "multicore") == 0)
        return "95% Student-t intervals by the delta method on the nonlinear least-squares "
               "covariance, PI adds the residual variance";
    if (strcmp(model, "multicluster") == 0)
        return "PI from its parts (models/multicluster.h): each side's strip extrapolation at "
               "the pooled strip backtests' width (shrunk toward the shipped prior), the link "
               "term at its model error (the two directions' overlap on a shared link, else "
               "the gap between the measured and the nominal link) and the ping-pong noise, "
               "each part at its own bound through T = max(TA, TB, max(BA, BB) + T_link); no "
               "CI; each note says where the widths came from";
    return "none: the model has no textbook interval (the calibrated one is its interval)";
}

static void put_value(FILE *out, out_format f, double v)
{
    if (f == OUT_CSV)
        textout_csv_number(out, v);
    else if (f == OUT_JSON)
        textout_json_number(out, v);
    else
        textout_human_number(out, v);
}

static void put_text(FILE *out, out_format f, const char *s)
{
    if (f == OUT_JSON)
        textout_json_text(out, s);
    else if (f == OUT_CSV)
        textout_csv_text(out, s);
    else
        fputs(s ? s : "", out);
}

static void put_cell(FILE *out, out_format f, const table_column *col, size_t row)
{
    if (col->kind == COL_TEXT)
        put_text(out, f, f == OUT_TEXT && !col->text[row] ? "—" : col->text[row]);
    else
        put_value(out, f, col->num[row]);
}

/* Separator, then in JSON the member's key. */
static void put_key(FILE *out, out_format f, const char *sep, const char *key)
{
    fputs(sep, out);
    if (f == OUT_JSON) {
        textout_json_text(out, key);
        fputs(": ", out);
    }
}

/* Per component of a summed response: estimate_<response> and its bounds. */
static const char *const part_columns[] = {"estimate_", "ci_low_", "ci_high_", "pi_low_",
                                           "pi_high_"};
enum { NPART_COLUMNS = sizeof part_columns / sizeof part_columns[0] };

static void put_parts(FILE *out, out_format f, const char *sep, const experiment_result *res,
                      size_t config)
{
    const experiment_input *in = &res->input;
    for (size_t r = 0; in->nresponses > 1 && r < in->nresponses; r++) {
        const report_part *p = report_find_part(&res->rep, config, in->responses[r]);
        double v[NPART_COLUMNS] = {NAN, NAN, NAN, NAN, NAN};
        if (p)
            v[0] = p->estimate, v[1] = p->ci_low, v[2] = p->ci_high, v[3] = p->pi_low,
            v[4] = p->pi_high;
        for (size_t k = 0; k < NPART_COLUMNS; k++) {
            char name[160];
            snprintf(name, sizeof name, "%s%s", part_columns[k], in->responses[r]);
            put_key(out, f, sep, name);
            put_value(out, f, v[k]);
        }
    }
}

/* The fit every row comes from: text lines above the table, CSV columns
 * after the values (the same on every row), JSON members around the list. */
static void print_fit_summary(const experiment_result *res, out_format f, FILE *out)
{
    const report *r = &res->rep;
    const experiment_info *e = res->input.exp;
    run_engine_counts engines = run_engine_count(&res->input.camp->runs);
    char text[256];
    if (f == OUT_TEXT) {
        fprintf(out, "%s/%s (%s)\n", res->input.camp->name, e->name, e->model);
        fprintf(out, "engine:    %s\n", run_engine_describe(&engines, text, sizeof text));
        fprintf(out, "formula:   %s\n", r->formula ? r->formula : "(the model's own)");
        if (r->equation)
            fprintf(out, "fitted:    %s\n", r->equation); /* a formula to copy: as computed */
        fprintf(out, "intervals: %s\n", interval_method(e->model));
        if (r->interval_method)
            fprintf(out, "calibrated interval: %s\n", r->interval_method);
        if (r->regime)
            fprintf(out, "warning:   %s\n", r->regime);
        if (r->gain_stop)
            fprintf(out, "warning:   %s\n", r->gain_stop);
        fputc('\n', out);
        return;
    }
    textout_json_text_member(out, "{\n  ", "campaign", res->input.camp->name);
    textout_json_text_member(out, ",\n  ", "experiment", e->name);
    textout_json_text_member(out, ",\n  ", "model", e->model);
    textout_json_text_member(out, ",\n  ", "engine", run_engine_word(&engines));
    textout_json_text_member(out, ",\n  ", "formula", r->formula);
    textout_json_text_member(out, ",\n  ", "equation", r->equation);
    textout_json_text_member(out, ",\n  ", "interval_method", interval_method(e->model));
    textout_json_text_member(out, ",\n  ", "calibration_method", r->interval_method);
    textout_json_text_member(out, ",\n  ", "regime_change", r->regime);
    textout_json_text_member(out, ",\n  ", "gain_stop", r->gain_stop);
    fputs(",\n  \"predictions\": [", out);
}

static void print_header(const experiment_result *res, out_format f, FILE *out)
{
    const table *runs = &res->input.camp->runs;
    const experiment_input *in = &res->input;
    const char *sep = f == OUT_CSV ? "," : "\t";
    bool first = true;
    for (size_t c = 0; c < runs->ncols; c++)
        if (config_column_identifies(&runs->cols[c])) {
            fprintf(out, "%s%s", first ? "" : sep, runs->cols[c].name);
            first = false;
        }
    for (size_t k = 0; k < NVALUES; k++)
        fprintf(out, "%s%s", sep, value_columns[k]);
    fprintf(out, "%sextrapolation%snote", sep, sep);
    for (size_t k = 0; k < NCALIBRATED; k++)
        fprintf(out, "%s%s", sep, calibrated_columns[k]);
    fprintf(out, "%sbeyond_range", sep);
    for (size_t r = 0; in->nresponses > 1 && r < in->nresponses; r++)
        for (size_t k = 0; k < NPART_COLUMNS; k++)
            fprintf(out, "%s%s%s", sep, part_columns[k], in->responses[r]);
    if (f == OUT_CSV)
        fputs(",formula,equation,interval_method,calibration_method", out);
    fputc('\n', out);
}

/* Columns from value names and values, each after sep. */
static void put_values(FILE *out, out_format f, const char *sep, const char *const *names,
                       const double *v, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        put_key(out, f, sep, names[k]);
        put_value(out, f, v[k]);
    }
}

static void print_row(const experiment_result *res, size_t i, out_format f, FILE *out)
{
    const table *runs = &res->input.camp->runs;
    const report_prediction *p = &res->rep.preds[i];
    const target_config *t = &res->input.targets[p->config];
    const char *sep = f == OUT_CSV ? "," : f == OUT_TEXT ? "\t" : ", ";
    const char *first = "";
    fputs(f == OUT_JSON ? (i ? ",\n    {" : "\n    {") : "", out);
    for (size_t c = 0; c < runs->ncols; c++) {
        if (!config_column_identifies(&runs->cols[c]))
            continue;
        put_key(out, f, first, runs->cols[c].name);
        put_cell(out, f, &runs->cols[c], t->rows[0]);
        first = sep;
    }
    double v[NVALUES], cal[NCALIBRATED];
    prediction_values(p, t, v);
    put_values(out, f, sep, value_columns, v, NVALUES);
    /* 1/0 in CSV (as the site's CSV), yes/no for people, a boolean in JSON. */
    put_key(out, f, sep, "extrapolation");
    fputs(f == OUT_JSON ? (p->extrapolation ? "true" : "false")
          : f == OUT_CSV ? (p->extrapolation ? "1" : "0")
                         : (p->extrapolation ? "yes" : "no"), out);
    put_key(out, f, sep, "note");
    put_text(out, f, p->note);
    calibrated_values(p, cal);
    put_values(out, f, sep, calibrated_columns, cal, NCALIBRATED);
    put_key(out, f, sep, "beyond_range");
    put_text(out, f, p->beyond);
    put_parts(out, f, sep, res, p->config);
    if (f == OUT_CSV) {
        const experiment_info *e = res->input.exp;
        put_key(out, f, sep, "formula");
        put_text(out, f, res->rep.formula);
        put_key(out, f, sep, "equation");
        put_text(out, f, res->rep.equation);
        put_key(out, f, sep, "interval_method");
        put_text(out, f, interval_method(e->model));
        put_key(out, f, sep, "calibration_method");
        put_text(out, f, res->rep.interval_method);
    }
    fputs(f == OUT_JSON ? "}" : "\n", out);
}

/* ---- the text table: for people ------------------------------------ */

/* A value as people read it: a duration when the response is a time. */
static void human_value(rbuf *b, double v, bool time)
{
    if (time)
        site_fmt_duration(b, v);
    else
        site_fmt(b, v);
}

/* "lo – hi", named as useless for planning when it spans more than a
 * factor 100 (x/÷ 10 around its middle). */
static void human_range(rbuf *b, double lo, double hi, bool time)
{
    if (!isfinite(lo) || !isfinite(hi)) {
        rbuf_puts(b, "\xE2\x80\x94");
        return;
    }
    human_value(b, lo, time);
    rbuf_puts(b, " \xE2\x80\x93 ");
    human_value(b, hi, time);
    if (lo > 0 && hi / lo > 100)
        rbuf_printf(b, " (absurdly wide: \xC3\x97/\xC3\xB7 %.0f)", sqrt(hi / lo));
}

/* Under the table when some model's PI of a time reaches below zero (the
 * site says the same, site_clip_note; here the computed value stays). */
static const char below_zero_note[] =
    "\xE2\x80\xA0 The model's interval reaches below zero, which a time cannot: it "
    "is built in seconds around the estimate, as its textbook does. The calibrated "
    "interval is relative and stays above zero.";

static void text_cells_of_row(const experiment_result *res, const report_prediction *p,
                              text_table *t, rbuf *b, size_t *nnotes, bool *below_zero)
{
    const table *runs = &res->input.camp->runs;
    const target_config *tc = &res->input.targets[p->config];
    bool time = experiment_response_is_time(&res->input);
    for (size_t c = 0; c < runs->ncols; c++) {
        if (!config_column_identifies(&runs->cols[c]))
            continue;
        rbuf_clear(b);
        if (runs->cols[c].kind == COL_TEXT)
            rbuf_puts(b, runs->cols[c].text[tc->rows[0]] ? runs->cols[c].text[tc->rows[0]]
                                                         : "\xE2\x80\x94");
        else
            site_fmt(b, runs->cols[c].num[tc->rows[0]]);
        text_table_cell(t, rbuf_str(b));
    }
    rbuf_clear(b), human_value(b, p->estimate, time), text_table_cell(t, rbuf_str(b));
    rbuf_clear(b), human_range(b, p->cal_low, p->cal_high, time), text_table_cell(t, rbuf_str(b));
    rbuf_clear(b), human_range(b, p->pi_low, p->pi_high, time);
    if (time && p->pi_low < 0 && isfinite(p->pi_high)) {
        rbuf_puts(b, " \xE2\x80\xA0");
        *below_zero = true;
    }
    text_table_cell(t, rbuf_str(b));
    rbuf_clear(b), human_value(b, tc->measured, time), text_table_cell(t, rbuf_str(b));
    rbuf_clear(b), site_fmt_pct(b, tc->error_pct);
    if (isfinite(tc->error_pct))
        rbuf_putc(b, '%');
    text_table_cell(t, rbuf_str(b));
    rbuf_clear(b);
    if (p->distance > 0)
        rbuf_printf(b, "%.2g doubling%s", p->distance, p->distance == 1 ? "" : "s");
    text_table_cell(t, rbuf_str(b));
    rbuf_clear(b);
    if ((p->note && *p->note) || (p->beyond && *p->beyond))
        rbuf_printf(b, "[%zu]", ++*nnotes);
    text_table_cell(t, rbuf_str(b));
}

/* Predictions in aligned columns for people; a row's note and how far it
 * lies beyond the training range go under the table as [n]. */
static void print_predictions_text(const experiment_result *res, FILE *out)
{
    const table *runs = &res->input.camp->runs;
    static const char *const tail[] = {"estimate", "calibrated 95% PI", "model's 95% PI",
                                       "measured", "error", "beyond range", "note"};
    size_t nid = 0;
    for (size_t c = 0; c < runs->ncols; c++)
        nid += config_column_identifies(&runs->cols[c]);
    size_t ncols = nid + sizeof tail / sizeof tail[0];
    bool right[64] = {false};
    for (size_t c = nid; c < ncols && c < 64; c++)
        right[c] = c + 1 < ncols;
    text_table t;
    text_table_init(&t, ncols, ncols <= 64 ? right : NULL);
    for (size_t c = 0; c < runs->ncols; c++)
        if (config_column_identifies(&runs->cols[c]))
            text_table_cell(&t, runs->cols[c].name);
    for (size_t k = 0; k < sizeof tail / sizeof tail[0]; k++)
        text_table_cell(&t, tail[k]);
    rbuf b;
    rbuf_init(&b);
    size_t nnotes = 0;
    bool below_zero = false;
    for (size_t i = 0; i < res->rep.npreds; i++)
        text_cells_of_row(res, &res->rep.preds[i], &t, &b, &nnotes, &below_zero);
    text_table_print(&t, out);
    text_table_free(&t);
    nnotes = 0;
    for (size_t i = 0; i < res->rep.npreds; i++) {
        const report_prediction *p = &res->rep.preds[i];
        bool note = p->note && *p->note, beyond = p->beyond && *p->beyond;
        if (!note && !beyond)
            continue;
        rbuf_clear(&b);
        numtext_humanize(&b, note ? p->note : "");
        if (note && beyond)
            rbuf_puts(&b, "; ");
        if (beyond) {
            rbuf_puts(&b, "beyond the training range: ");
            numtext_humanize(&b, p->beyond);
        }
        fprintf(out, "%s[%zu] %s\n", nnotes ? "" : "\n", nnotes + 1, rbuf_str(&b));
        nnotes++;
    }
    if (below_zero)
        fprintf(out, "\n%s\n", below_zero_note);
    rbuf_free(&b);
}

static void print_predictions(const experiment_result *res, out_format f, FILE *out)
{
    if (f != OUT_CSV)
        print_fit_summary(res, f, out);
    if (f == OUT_TEXT) {
        print_predictions_text(res, out);
        return;
    }
    if (f != OUT_JSON)
        print_header(res, f, out);
    for (size_t i = 0; i < res->rep.npreds; i++)
        print_row(res, i, f, out);
    if (f == OUT_JSON)
        fputs(res->rep.npreds ? "\n  ]\n}\n" : "]\n}\n", out);
}

int cmd_predict(int argc, char **argv)
{
    static const char *const formats[] = {"text", "csv", "json", NULL};
    cli_args args;
    if (!cli_parse(argc, argv, formats, 2, predict_usage, &args))
        return 2;
    if (args.help) {
        fputs(predict_usage, stdout);
        return 0;
    }
    archive a = {0};
    experiment_result res = {0};
    int status = run_named(&args, predict_usage, &a, &res);
    if (status == 0) {
        out_format f = strcmp(args.format, "csv") == 0 ? OUT_CSV
                     : strcmp(args.format, "json") == 0 ? OUT_JSON : OUT_TEXT;
        print_predictions(&res, f, stdout);
    }
    experiment_result_free(&res);
    archive_free(&a);
    return status;
}
