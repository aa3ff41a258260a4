/*
 * cmd_fit.c — `perfcast fit` and `perfcast predict`: run one experiment and
 * print its report (fit: coefficients and goodness of fit; predict: one row
 * per target configuration) as text, CSV or JSON. The printing knows
 * nothing of the model: every model fills the same report.
 */
#include "gen/commands.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen/archive.h"
#include "gen/cli.h"
#include "gen/experiment.h"
#include "gen/textout.h"

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
    "identifying columns as in runs.csv, then estimate_s, ci_low_s, ci_high_s,\n"
    "pi_low_s, pi_high_s (95% intervals, empty where the model has none),\n"
    "measured_s (mean of the measured runs), error_pct = 100*(estimate-measured)/measured,\n"
    "extrapolation (true/false), note (why an interval is absent, what was flagged),\n"
    "cal_pi_low_s, cal_pi_high_s (the calibrated 95% prediction interval: it also\n"
    "covers the model's error when extrapolating, from backtests on the training\n"
    "runs; the text format says how it was made), doublings_beyond_range and\n"
    "beyond_range (\"np 512 = 2x max trained 256\": each parameter outside the\n"
    "training range); for a response summed from components (time_a_s+time_b_s),\n"
    "estimate_<component>, ci_low_<component>, ci_high_<component>,\n"
    "pi_low_<component>, pi_high_<component> for each; then formula (as fitted)\n"
    "and interval_method (how the calibrated interval was made; in the text\n"
    "format both are printed once, after the rows).\n"
    "\n"
    "  --archive DIR   the archive folder (default: archive)\n"
    "  --format F      text (default), csv or json\n"
    "  --help          this text\n"
    "Exit status: 0 ok, 1 input problem or failed fit, 2 usage.\n";

/* Load the archive and run the named experiment; returns an exit status. */
static int run_named(const cli_args *args, const char *usage, archive *a, experiment_result *res)
{
    if (args->npositional != 2) {
        fprintf(stderr, "perfcast %s: expected CAMPAIGN and EXPERIMENT\n%s",
                usage == fit_usage ? "fit" : "predict", usage);
        return 2;
    }
    diag_list diags;
    diag_init(&diags);
    archive_load(args->archive, a, &diags);
    const campaign *c = archive_campaign(a, args->positional[0]);
    diag_print(&diags, stderr);
    diag_free(&diags);
    if (!c) {
        fprintf(stderr, "perfcast: no usable campaign '%s' in %s\n", args->positional[0], args->archive);
        return 1;
    }
    const experiment_info *e = campaign_experiment(c, args->positional[1]);
    if (!e) {
        fprintf(stderr, "perfcast: campaign '%s' has no experiment '%s'\n", c->name, args->positional[1]);
        return 1;
    }
    if (e->problem) { /* printed above with the archive's problems */
        fprintf(stderr, "perfcast: %s/%s has a problem and is not run\n", c->name, e->name);
        return 1;
    }
    if (!experiment_run(a, c, e, res)) {
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
    fprintf(out, "\n%-32s %14s %14s %10s %10s\n", "term", "coefficient", "std_error", "t", "p");
    for (size_t i = 0; i < r->ncoefs; i++) {
        const report_coef *c = &r->coefs[i];
        fprintf(out, "%-32s ", c->term);
        if (c->aliased) {
            fprintf(out, "%14s\n", "aliased");
            continue;
        }
        const double values[] = {c->coefficient, c->std_error, c->t, c->p};
        const int widths[] = {14, 14, 10, 10};
        for (size_t k = 0; k < 4; k++) {
            /* A value that does not exist for this model shows as a dash. */
            if (isfinite(values[k]))
                fprintf(out, "%*.*g ", widths[k], k < 2 ? 6 : 4, values[k]);
            else
                fprintf(out, "%*s ", widths[k] + 2, "—"); /* the dash is 3 bytes, 1 column */
        }
        fputc('\n', out);
    }
    fputc('\n', out);
    for (size_t i = 0; i < r->nstats; i++) {
        fprintf(out, "%-10s ", r->stats[i].name);
        textout_human_number(out, r->stats[i].value);
        fprintf(out, "%s%s\n", r->stats[i].text ? "  " : "", r->stats[i].text ? r->stats[i].text : "");
    }
    for (size_t i = 0; i < r->ndiagnostics; i++)
        fprintf(out, "diagnostic: %s\n", r->diagnostics[i]);
    for (size_t i = 0; i < r->nwarnings; i++)
        fprintf(out, "warning: %s\n", r->warnings[i]);
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

static const char *const value_columns[] = {
    "estimate_s", "ci_low_s", "ci_high_s", "pi_low_s", "pi_high_s", "measured_s", "error_pct",
    "cal_pi_low_s", "cal_pi_high_s", "doublings_beyond_range",
};
enum { NVALUES = sizeof value_columns / sizeof value_columns[0] };
enum { NBEFORE_NOTE = 7 }; /* the calibration's values come after the note */

static void prediction_values(const report_prediction *p, const target_config *t,
                              double v[NVALUES])
{
    v[0] = p->estimate;
    v[1] = p->ci_low;
    v[2] = p->ci_high;
    v[3] = p->pi_low;
    v[4] = p->pi_high;
    v[5] = t->measured;
    v[6] = t->error_pct;
    v[7] = p->cal_low;
    v[8] = p->cal_high;
    v[9] = p->distance;
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

static void put_cell(FILE *out, out_format f, const table_column *col, size_t row)
{
    if (col->kind == COL_TEXT) {
        if (f == OUT_JSON)
            textout_json_text(out, col->text[row]);
        else if (f == OUT_CSV)
            textout_csv_text(out, col->text[row]);
        else
            fputs(col->text[row] ? col->text[row] : "—", out);
    } else {
        put_value(out, f, col->num[row]);
    }
}

/* One value after sep, named in JSON. */
static void put_named(FILE *out, out_format f, const char *sep, const char *name, double v)
{
    fputs(sep, out);
    if (f == OUT_JSON)
        fprintf(out, "\"%s\": ", name);
    put_value(out, f, v);
}

/* Values v[from..to), each after sep, named in JSON. */
static void put_values(FILE *out, out_format f, const char *sep, const double *v, size_t from,
                       size_t to)
{
    for (size_t k = from; k < to; k++)
        put_named(out, f, sep, value_columns[k], v[k]);
}

/* One text after sep (NULL: empty cell, JSON null), named in JSON. */
static void put_text(FILE *out, out_format f, const char *sep, const char *name,
                     const char *text)
{
    fputs(sep, out);
    if (f == OUT_CSV)
        textout_csv_text(out, text);
    else if (f == OUT_TEXT)
        fputs(text ? text : "", out);
    else {
        fprintf(out, "\"%s\": ", name);
        textout_json_text(out, text);
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
            put_named(out, f, sep, name, v[k]);
        }
    }
}

static void print_header(const experiment_result *res, const char *sep, FILE *out)
{
    const table *runs = &res->input.camp->runs;
    bool first_col = true;
    for (size_t c = 0; c < runs->ncols; c++)
        if (experiment_is_identifying(runs->cols[c].name)) {
            fprintf(out, "%s%s", first_col ? "" : sep, runs->cols[c].name);
            first_col = false;
        }
    for (size_t k = 0; k < NVALUES; k++) {
        if (k == NBEFORE_NOTE)
            fprintf(out, "%sextrapolation%snote", sep, sep);
        fprintf(out, "%s%s", sep, value_columns[k]);
    }
    fprintf(out, "%sbeyond_range", sep);
    const experiment_input *in = &res->input;
    for (size_t r = 0; in->nresponses > 1 && r < in->nresponses; r++)
        for (size_t k = 0; k < NPART_COLUMNS; k++)
            fprintf(out, "%s%s%s", sep, part_columns[k], in->responses[r]);
    fprintf(out, "%sformula%sinterval_method\n", sep, sep);
}

static void print_predictions(const experiment_result *res, out_format f, FILE *out)
{
    const table *runs = &res->input.camp->runs;
    const char *sep = f == OUT_CSV ? "," : f == OUT_TEXT ? "\t" : ", ";
    if (f != OUT_JSON)
        print_header(res, sep, out);
    else
        fputs("[", out);
    for (size_t i = 0; i < res->rep.npreds; i++) {
        const report_prediction *p = &res->rep.preds[i];
        const target_config *t = &res->input.targets[p->config];
        size_t row = t->rows[0];
        bool first_col = true;
        fputs(f == OUT_JSON ? (i ? ",\n  {" : "\n  {") : "", out);
        for (size_t c = 0; c < runs->ncols; c++) {
            if (!experiment_is_identifying(runs->cols[c].name))
                continue;
            fputs(first_col ? "" : sep, out);
            if (f == OUT_JSON)
                fprintf(out, "\"%s\": ", runs->cols[c].name);
            put_cell(out, f, &runs->cols[c], row);
            first_col = false;
        }
        double v[NVALUES];
        prediction_values(p, t, v);
        put_values(out, f, sep, v, 0, NBEFORE_NOTE);
        fputs(sep, out);
        fprintf(out, f == OUT_JSON ? "\"extrapolation\": %s" : "%s", p->extrapolation ? "true" : "false");
        put_text(out, f, sep, "note", p->note);
        put_values(out, f, sep, v, NBEFORE_NOTE, NVALUES);
        put_text(out, f, sep, "beyond_range", p->beyond);
        put_parts(out, f, sep, res, p->config);
        put_text(out, f, sep, "formula", f == OUT_TEXT ? NULL : res->rep.formula);
        put_text(out, f, sep, "interval_method",
                 f == OUT_TEXT ? NULL : res->rep.interval_method);
        fputs(f == OUT_JSON ? "} " : "\n", out);
    }
    if (f == OUT_JSON)
        fputs("\n]\n", out);
    if (f == OUT_TEXT && res->rep.formula)
        fprintf(out, "formula: %s\n", res->rep.formula);
    if (f == OUT_TEXT && res->rep.interval_method)
        fprintf(out, "calibrated interval: %s\n", res->rep.interval_method);
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
