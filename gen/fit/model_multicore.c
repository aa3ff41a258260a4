/*
 * model_multicore.c — adapter for the multicore regression (models/multicore.h,
 * seed 003). It turns runs into the factors' z values, fits, predicts every
 * target and adds the paper's Table II error summary to the report.
 *
 * Inputs. The experiment's formula names the factors ("procs * nodes *
 * cores * mbw_read"); an empty one means MULTICORE_DEFAULT_FORMULA. Per
 * run: Nn from the `nodes` column and Nc from `ppn`; when one of them is
 * empty it is np divided by the other. Bandwidths and the
 * platform contribution come from the run's cluster in clusters.csv.
 * Options (experiments.csv `options`): starts=N (default 8), max_iter=N
 * iterations per start (default 1000), residuals=relative|absolute
 * (default relative).
 *
 * Report conventions (for `perfcast fit` and the site):
 *   coefs      "scale" (seconds: the time with every z at its training mean),
 *              then "<factor>.a0" and "<factor>.a1" per factor of the formula,
 *              factor = a0 + a1*z with a0 + a1*zref = 1; a dropped factor's
 *              pair is aliased. Standard errors by the delta method.
 *   stats      n, df_resid, sigma (seconds), sigma_rel (fraction of the
 *              measured time; the fit criterion with relative residuals),
 *              converged (1/0), starts, starts_converged, starts_at_best,
 *              iterations, factors_kept;
 *              the Table II summary over targets with a measurement, error =
 *              100*|actual - predicted|/actual (the paper's equation (3)):
 *                err_mean, err_min, err_max, err_n            all targets
 *                err_mean:<dataset>:<platform>  (and err_min:, err_max:, err_n:)
 *              per data set (the `dataset` column; else `code` and the mesh,
 *              "mgbench 1024x1024", or whichever of them exists; else "all")
 *              and platform (the cluster), in the order the groups first
 *              appear among the targets. The platform is the text after the
 *              last ':' (cluster names have none); the data set is between the
 *              first and the last ':'. The stat's text repeats both in words.
 *   preds      one per target; ci/pi are approximate (delta method) 95%
 *              intervals; extrapolation is set when a z leaves the training
 *              range or a dropped factor changes; notes say which.
 *   warnings   dropped factors, non-convergence, rank deficiency, non-positive
 *              predictions.
 *   diagnostics  the fit's convergence line and one Table II line per group.
 */
#include "gen/base/suggest.h"
#include "gen/fit/model_adapters.h"
#include "gen/fit/rjopts.h"
#include "gen/fit/scaling_option.h"
#include "gen/ingest/run_layout.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "models/multicore.h"

typedef struct {
    multicore_factor factors[MULTICORE_NFACTORS];
    size_t m;
    multicore_options options;
} multicore_spec;

static bool failf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool failf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

/* The model's keys, and scaling: every model's (checked apart). */
static const char *const keys[] = {"starts", "max_iter", "residuals", "scaling"};
#define NKEYS (sizeof keys / sizeof *keys)

/* Key s[0..klen) not given before (*seen: a bit per key of the model),
 * else false: the later value would silently win. */
static bool first_time(const char *s, size_t klen, unsigned *seen, char *err, size_t errlen)
{
    for (unsigned k = 0; k + 1 < NKEYS; k++) {
        if (klen != strlen(keys[k]) || strncmp(s, keys[k], klen) != 0)
            continue;
        if (*seen & (1u << k))
            return failf(err, errlen, "option '%s' given twice", keys[k]);
        *seen |= 1u << k;
    }
    return true;
}

/* An unknown key s[0..klen): the known ones, and the nearest. */
static bool unknown_key(const char *s, size_t klen, char *err, size_t errlen)
{
    char typed[64], near[100];
    snprintf(typed, sizeof typed, "%.*s", (int)klen, s);
    return failf(err, errlen, "unknown multicore option '%.*s' (known: starts, max_iter, "
                 "residuals, scaling)%s", (int)klen, s,
                 suggest_clause(typed, keys, NKEYS, near, sizeof near));
}

/* One option "key=value" (len characters at s). */
static bool parse_option(const char *s, size_t len, multicore_options *o, unsigned *seen,
                         char *err, size_t errlen)
{
    const char *eq = memchr(s, '=', len);
    if (!eq)
        return failf(err, errlen, "option '%.*s': expected key=value", (int)len, s);
    size_t klen = (size_t)(eq - s), vlen = len - klen - 1;
    if (!first_time(s, klen, seen, err, errlen))
        return false;
    char value[32];
    snprintf(value, sizeof value, "%.*s", (int)(vlen < sizeof value ? vlen : sizeof value - 1), eq + 1);
    long v;
    if (klen == 6 && strncmp(s, "starts", 6) == 0) {
        if (!rjopts_whole("starts", value, 1, 1000, &v, err, errlen))
            return false;
        o->starts = (size_t)v;
    } else if (klen == 8 && strncmp(s, "max_iter", 8) == 0) {
        if (!rjopts_whole("max_iter", value, 1, 100000, &v, err, errlen))
            return false;
        o->max_iter = (size_t)v;
    } else if (klen == 9 && strncmp(s, "residuals", 9) == 0) {
        if (strcmp(value, "relative") == 0)
            o->residuals = MULTICORE_RELATIVE;
        else if (strcmp(value, "absolute") == 0)
            o->residuals = MULTICORE_ABSOLUTE;
        else
            return failf(err, errlen, "option residuals=%s: expected relative or absolute", value);
    } else if (!scaling_option_is_key(s, klen)) { /* every model's, checked apart */
        return unknown_key(s, klen, err, errlen);
    }
    return true;
}

/* "key=value;key=value" with blanks around items ignored. */
bool model_multicore_parse_options(const char *text, multicore_options *o, char *err, size_t errlen)
{
    multicore_options_default(o);
    unsigned seen = 0;
    for (const char *s = text ? text : ""; *s;) {
        s += strspn(s, " \t;");
        size_t len = strcspn(s, ";");
        while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            len--;
        if (len > 0 && !parse_option(s, len, o, &seen, err, errlen))
            return false;
        s += strcspn(s, ";");
    }
    return true;
}

/* Nn and Nc of a run, each possibly derived from np and the other. */
static bool run_layout(const campaign *c, size_t row, double *nodes, double *ppn,
                       char *err, size_t errlen)
{
    const table *runs = &c->runs;
    long line = runs->line[row];
    double np = table_number_named(runs, row, campaign_procs(c));
    *nodes = table_number_named(runs, row, "nodes");
    *ppn = table_number_named(runs, row, "ppn");
    if (isnan(*nodes) && !isnan(*ppn))
        *nodes = np / *ppn;
    else if (isnan(*ppn) && !isnan(*nodes))
        *ppn = np / *nodes;
    if (isnan(*nodes) || isnan(*ppn))
        return failf(err, errlen, "runs.csv line %ld: the multicore model needs the nodes or the "
                     "ppn column (processes per node)", line);
    if (!(*nodes > 0 && *ppn > 0))
        return failf(err, errlen, "runs.csv line %ld: nodes and ppn must be > 0", line);
    if (!isnan(np) && fabs(*nodes * *ppn - np) > 1e-9 * np)
        return failf(err, errlen, "runs.csv line %ld: np = %g is not nodes * ppn = %g * %g",
                     line, np, *nodes, *ppn);
    return true;
}

/* The factors' z values of one run. */
static bool run_z(const experiment_input *in, const multicore_spec *spec, size_t row, double *z,
                  char *err, size_t errlen)
{
    const table *runs = &in->camp->runs;
    const char *name = table_text_named(runs, row, "cluster");
    const cluster_info *cl = name ? archive_cluster(in->arch, name) : NULL;
    if (!cl)
        return failf(err, errlen, "runs.csv line %ld: unknown cluster '%s'", runs->line[row],
                     name ? name : "");
    multicore_config cfg = {
        .mbw_read_gbs = cl->mbw_read_gbs, .mbw_write_gbs = cl->mbw_write_gbs,
        .net_bw_gbs = cl->net_bw_gbs, .platform_contribution = cl->platform_contribution,
    };
    if (!run_layout(in->camp, row, &cfg.nodes, &cfg.procs_per_node, err, errlen))
        return false;
    for (size_t i = 0; i < spec->m; i++) {
        const char *missing = NULL;
        if (multicore_factor_z(spec->factors[i], &cfg, &z[i], &missing))
            continue;
        bool from_run = strcmp(missing, "nodes") == 0 || strcmp(missing, "ppn") == 0;
        return failf(err, errlen, "runs.csv line %ld: factor %s needs %s > 0 %s %s",
                     runs->line[row], multicore_factor_name(spec->factors[i]), missing,
                     from_run ? "in the run" : "in clusters.csv for cluster",
                     from_run ? "" : cl->name);
    }
    return true;
}

/* The coefficient with its standard error, t and two-sided p. */
static bool add_coef(report *out, const char *term, double v, double se, size_t df)
{
    double t = v / se;
    double p = isfinite(t) && df > 0 ? 2 * gsl_cdf_tdist_Q(fabs(t), (double)df) : NAN;
    return report_add_coef(out, term, v, se, isfinite(t) ? t : NAN, p, false);
}

static bool add_coefficients(const multicore_spec *spec, const multicore_fit *fit, report *out)
{
    bool ok = add_coef(out, "scale", fit->scale, fit->se_scale, fit->df);
    for (size_t i = 0; ok && i < spec->m; i++) {
        const multicore_factor_fit *f = &fit->factors[i];
        char a0[48], a1[48];
        snprintf(a0, sizeof a0, "%s.a0", multicore_factor_name(spec->factors[i]));
        snprintf(a1, sizeof a1, "%s.a1", multicore_factor_name(spec->factors[i]));
        if (f->status != MULTICORE_KEPT)
            ok = report_add_coef(out, a0, NAN, NAN, NAN, NAN, true) &&
                 report_add_coef(out, a1, NAN, NAN, NAN, NAN, true);
        else
            ok = add_coef(out, a0, f->a0, f->se_a0, fit->df) &&
                 add_coef(out, a1, f->a1, f->se_a1, fit->df);
    }
    return ok;
}

/* "time_s = 41.2 * (0.05 + 1.82*procs) where procs = 1/(Nc*Nn)" and the formula. */
static bool add_equation(const experiment_input *in, const multicore_spec *spec,
                         const multicore_fit *fit, report *out)
{
    char eq[1024], where[512] = "", formula[256] = "";
    int len = snprintf(eq, sizeof eq, "%s = %.6g", in->exp->response ? in->exp->response : "time_s",
                       fit->scale);
    for (size_t i = 0; i < spec->m; i++) {
        const char *name = multicore_factor_name(spec->factors[i]);
        size_t fl = strlen(formula);
        snprintf(formula + fl, sizeof formula - fl, "%s%s", fl ? " * " : "", name);
        if (fit->factors[i].status != MULTICORE_KEPT)
            continue;
        if (len > 0 && (size_t)len < sizeof eq)
            len += snprintf(eq + len, sizeof eq - (size_t)len, " * (%.6g %c %.6g*%s)",
                            fit->factors[i].a0, fit->factors[i].a1 < 0 ? '-' : '+',
                            fabs(fit->factors[i].a1), name);
        size_t wl = strlen(where);
        snprintf(where + wl, sizeof where - wl, "%s%s = %s", wl ? ", " : " where ", name,
                 multicore_factor_definition(spec->factors[i]));
    }
    if (len > 0 && (size_t)len < sizeof eq)
        snprintf(eq + len, sizeof eq - (size_t)len, "%s", where);
    return report_set_text(&out->equation, eq) && report_set_text(&out->formula, formula);
}

static bool add_fit_stats(const multicore_fit *fit, report *out)
{
    return report_add_stat(out, "n", (double)fit->n, "training runs") &&
           report_add_stat(out, "df_resid", (double)fit->df, NULL) &&
           report_add_stat(out, "sigma", fit->sigma_abs, "residual standard error in the response's unit") &&
           report_add_stat(out, "sigma_rel", fit->residuals == MULTICORE_RELATIVE ? fit->sigma : NAN,
                           fit->residuals == MULTICORE_RELATIVE
                               ? "residual standard error of (predicted-actual)/actual (the fit criterion)"
                               : "not the criterion: residuals=absolute") &&
           report_add_stat(out, "converged", fit->converged ? 1 : 0, "1 when the best start met the tolerances") &&
           report_add_stat(out, "starts", (double)fit->starts, "Levenberg-Marquardt starting points") &&
           report_add_stat(out, "starts_converged", (double)fit->starts_converged, NULL) &&
           report_add_stat(out, "starts_at_best", (double)fit->starts_at_best,
                           "converged starts that reached the best cost") &&
           report_add_stat(out, "iterations", (double)fit->iterations, "of the best start") &&
           report_add_stat(out, "factors_kept", (double)fit->nkept, NULL);
}

/* Warnings for dropped factors and a doubtful fit; the convergence diagnostic. */
static bool add_fit_messages(const multicore_spec *spec, const multicore_fit *fit, report *out)
{
    char line[512];
    bool ok = true;
    for (size_t i = 0; ok && i < spec->m; i++) {
        const multicore_factor_fit *f = &fit->factors[i];
        const char *name = multicore_factor_name(spec->factors[i]);
        const char *def = multicore_factor_definition(spec->factors[i]);
        if (f->status == MULTICORE_CONSTANT)
            snprintf(line, sizeof line, "factor %s (%s) is %.6g in every training run: it cannot be "
                     "identified and is dropped", name, def, f->zref);
        else if (f->status == MULTICORE_DUPLICATE)
            snprintf(line, sizeof line, "factor %s (%s) varies exactly as %s (%s) in the training runs "
                     "(%s = %.6g*%s %c %.6g): the two cannot be told apart and %s is dropped", name,
                     def, multicore_factor_name(spec->factors[f->duplicate_of]),
                     multicore_factor_definition(spec->factors[f->duplicate_of]), name, f->dup_slope,
                     multicore_factor_name(spec->factors[f->duplicate_of]),
                     f->dup_offset < 0 ? '-' : '+', fabs(f->dup_offset), name);
        else
            continue;
        ok = report_add_warning(out, line);
    }
    if (ok && !fit->converged)
        ok = report_add_warning(out, "the Levenberg-Marquardt fit did not meet its tolerances: "
                                "treat the coefficients with care");
    if (ok && !fit->identifiable)
        ok = report_add_warning(out, "the Jacobian is rank-deficient at the fit: the runs do not "
                                "separate the kept factors, so there are no standard errors or intervals");
    snprintf(line, sizeof line, "nonlinear least squares on %s residuals (Levenberg-Marquardt): %zu starts, "
             "%zu converged, %zu at the best cost; the best %s after %zu iterations",
             fit->residuals == MULTICORE_RELATIVE ? "relative" : "absolute", fit->starts,
             fit->starts_converged, fit->starts_at_best, fit->converged ? "converged" : "stopped",
             fit->iterations);
    return ok && report_add_diagnostic(out, line);
}

/* Why the prediction is an extrapolation, or "". */
static void extrapolation_note(const multicore_spec *spec, const multicore_fit *fit,
                               const multicore_prediction *p, const double *z0, char *note, size_t len)
{
    size_t i = p->extrapolation_factor;
    const char *name = multicore_factor_name(spec->factors[i]);
    const multicore_factor_fit *f = &fit->factors[i];
    if (p->extrapolation == MULTICORE_OUTSIDE_RANGE)
        snprintf(note, len, "extrapolation: %s = %.6g is outside the training range [%.6g, %.6g]",
                 name, z0[i], f->zmin, f->zmax);
    else if (p->extrapolation == MULTICORE_DROPPED_CHANGED)
        snprintf(note, len, "extrapolation: %s = %.6g but the dropped factor was %s in training, "
                 "so its effect here is unknown", name, z0[i],
                 f->status == MULTICORE_CONSTANT ? "constant" : "tied to another");
    else
        note[0] = '\0';
}

/* Append text to a note with "; " between parts. */
static void note_append(char *note, size_t len, const char *text)
{
    size_t used = strlen(note);
    if (*text && used + 1 < len)
        snprintf(note + used, len - used, "%s%s", used ? "; " : "", text);
}

/* Predict one target and add it to the report; *estimate receives the value. */
static bool predict_target(const experiment_input *in, const multicore_spec *spec,
                           const multicore_fit *fit, size_t t, report *out, double *estimate,
                           char *err, size_t errlen)
{
    const target_config *tc = &in->targets[t];
    size_t row = tc->rows[0];
    double z0[MULTICORE_NFACTORS];
    multicore_prediction p;
    if (!run_z(in, spec, row, z0, err, errlen))
        return false;
    if (multicore_predict(fit, z0, &p) != MULTICORE_OK)
        return failf(err, errlen, "runs.csv line %ld: cannot predict this configuration",
                     in->camp->runs.line[row]);
    char note[512], part[256];
    extrapolation_note(spec, fit, &p, z0, note, sizeof note);
    double ppn, cores;
    if (run_oversubscribed(in->arch, in->camp, row, &ppn, &cores)) {
        snprintf(part, sizeof part, "oversubscribed: %g processes per node on %g cores", ppn,
                 cores);
        note_append(note, sizeof note, part);
    }
    if (!fit->cov)
        note_append(note, sizeof note, fit->df == 0 ? "no interval: no residual degrees of freedom"
                                                    : "no interval: the factors are not identifiable");
    *estimate = p.estimate;
    report_prediction rp = {
        .config = t, .estimate = p.estimate, .ci_low = p.ci_low, .ci_high = p.ci_high,
        .pi_low = p.pi_low, .pi_high = p.pi_high,
        .extrapolation = p.extrapolation != MULTICORE_INSIDE, .note = note[0] ? note : NULL,
    };
    return report_add_prediction(out, &rp) || failf(err, errlen, "out of memory");
}

/* The data set a row belongs to (Table II's first column): the `dataset`
 * column; else the code and the mesh ("mgbench 1024x1024"), either alone
 * when the other is absent; else "all". Written into buf. */
static const char *row_dataset(const table *runs, size_t row, char *buf, size_t len)
{
    const char *ds = table_text_named(runs, row, "dataset"), *code = table_text_named(runs, row, "code");
    double na = table_number_named(runs, row, "na"), nb = table_number_named(runs, row, "nb");
    if (ds)
        snprintf(buf, len, "%s", ds);
    else if (!isnan(na) && !isnan(nb))
        snprintf(buf, len, "%s%s%.0fx%.0f", code ? code : "", code ? " " : "", na, nb);
    else
        snprintf(buf, len, "%s", code ? code : "all");
    return buf;
}

/* Add err_mean/min/max/n (with suffix) for the errors listed; the summary
 * goes to *s. */
static bool add_error_stats(report *out, const char *suffix, const char *words,
                            const double *errs, size_t n, multicore_error_summary *s)
{
    multicore_summarise_errors(errs, n, s);
    static const char *const kinds[] = {"err_mean", "err_min", "err_max", "err_n"};
    double values[] = {s->mean, s->min, s->max, (double)s->n};
    char name[256];
    for (size_t k = 0; k < 4; k++) {
        snprintf(name, sizeof name, "%s%s", kinds[k], suffix);
        if (!report_add_stat(out, name, values[k], words))
            return false;
    }
    return true;
}

/* Do targets a and b share data set and platform? */
static bool same_group(const table *runs, const target_config *a, const target_config *b)
{
    const char *pa = table_text_named(runs, a->rows[0], "cluster"), *pb = table_text_named(runs, b->rows[0], "cluster");
    char da[128], db[128];
    return pa && pb && strcmp(pa, pb) == 0 &&
           strcmp(row_dataset(runs, a->rows[0], da, sizeof da),
                  row_dataset(runs, b->rows[0], db, sizeof db)) == 0;
}

/* One Table II row: the errors of the targets from `first` on that share its
 * group (marked done), as stats and a diagnostic line. */
static bool add_group_summary(const experiment_input *in, const double *errs, size_t first,
                              bool *done, double *group, report *out)
{
    const table *runs = &in->camp->runs;
    const target_config *t0 = &in->targets[first];
    size_t k = 0;
    for (size_t u = first; u < in->ntargets; u++)
        if (!done[u] && same_group(runs, t0, &in->targets[u])) {
            done[u] = true;
            group[k++] = errs[u];
        }
    char dsbuf[128], suffix[200], words[300], line[600];
    const char *ds = row_dataset(runs, t0->rows[0], dsbuf, sizeof dsbuf);
    const char *pf = table_text_named(runs, t0->rows[0], "cluster");
    snprintf(suffix, sizeof suffix, ":%s:%s", ds, pf ? pf : "");
    snprintf(words, sizeof words, "data set %s on platform %s", ds, pf ? pf : "");
    multicore_error_summary s;
    if (!add_error_stats(out, suffix, words, group, k, &s))
        return false;
    if (s.n == 0)
        return true;
    snprintf(line, sizeof line, "Table II: %s: mean %.2f%%, min %.2f%%, max %.2f%% "
             "(100*|actual-predicted|/actual over %zu configurations)", words, s.mean, s.min, s.max, s.n);
    return report_add_diagnostic(out, line);
}

/* Table II: per data set and platform, mean/min/max of equation (3). */
static bool add_error_summary(const experiment_input *in, const double *estimates, report *out)
{
    size_t n = in->ntargets;
    double *errs = malloc((n ? n : 1) * sizeof *errs), *group = malloc((n ? n : 1) * sizeof *group);
    bool *done = calloc(n ? n : 1, sizeof *done);
    bool ok = errs && group && done;
    for (size_t t = 0; ok && t < n; t++)
        errs[t] = in->targets[t].nmeasured ? multicore_error_pct(in->targets[t].measured, estimates[t]) : NAN;
    multicore_error_summary all;
    ok = ok && add_error_stats(out, "", "all targets: 100*|actual-predicted|/actual", errs, n, &all);
    for (size_t t = 0; ok && t < n; t++)
        if (!done[t])
            ok = add_group_summary(in, errs, t, done, group, out);
    free(done);
    free(group);
    free(errs);
    return ok;
}

/* z and y of the training runs. */
static bool training_data(const experiment_input *in, const multicore_spec *spec, double *z,
                          double *y, char *err, size_t errlen)
{
    for (size_t j = 0; j < in->ntrain; j++) {
        size_t row = in->train_rows[j];
        y[j] = experiment_row_response(&in->camp->runs, row, in->responses, in->nresponses);
        if (!(y[j] > 0))
            return failf(err, errlen, "runs.csv line %ld: the response must be > 0 for the multicore "
                         "model", in->camp->runs.line[row]);
        if (!run_z(in, spec, row, &z[j * spec->m], err, errlen))
            return false;
    }
    return true;
}

/* Everything after a successful fit: coefficients, stats, predictions, Table II. */
static bool fill_report(const experiment_input *in, const multicore_spec *spec,
                        const multicore_fit *fit, report *out, char *err, size_t errlen)
{
    if (!(report_set_text(&out->model, "multicore") && add_equation(in, spec, fit, out) &&
          add_coefficients(spec, fit, out) && add_fit_stats(fit, out) &&
          add_fit_messages(spec, fit, out)))
        return failf(err, errlen, "out of memory");
    double *estimates = malloc((in->ntargets ? in->ntargets : 1) * sizeof *estimates);
    if (!estimates)
        return failf(err, errlen, "out of memory");
    bool ok = true, negative = false;
    for (size_t t = 0; ok && t < in->ntargets; t++) {
        ok = predict_target(in, spec, fit, t, out, &estimates[t], err, errlen);
        negative = negative || !(estimates[t] > 0);
    }
    if (ok && negative)
        ok = report_add_warning(out, "the fitted law gives a non-positive time for some targets "
                                "(a factor changes sign outside the training range)");
    if (ok && !add_error_summary(in, estimates, out))
        ok = failf(err, errlen, "out of memory");
    free(estimates);
    return ok;
}

bool model_multicore_run(const experiment_input *in, report *out, char *err, size_t errlen)
{
    multicore_spec spec;
    const char *formula = in->exp->formula;
    if (!formula || strspn(formula, " \t") == strlen(formula))
        formula = MULTICORE_DEFAULT_FORMULA;
    if (!multicore_parse_formula(formula, spec.factors, MULTICORE_NFACTORS, &spec.m, err, errlen)) {
        experiment_point_at(in, "formula", 0);
        return false;
    }
    if (!model_multicore_parse_options(in->exp->options, &spec.options, err, errlen)) {
        experiment_point_at(in, "options", 0);
        return false;
    }
    double *z = malloc((in->ntrain ? in->ntrain : 1) * spec.m * sizeof *z);
    double *y = malloc((in->ntrain ? in->ntrain : 1) * sizeof *y);
    multicore_fit fit;
    memset(&fit, 0, sizeof fit);
    bool ok = z && y ? training_data(in, &spec, z, y, err, errlen) : failf(err, errlen, "out of memory");
    if (ok) {
        multicore_data d = {in->ntrain, spec.m, z, y};
        multicore_status st = multicore_fit_run(&d, &spec.options, &fit, err, errlen);
        if (st == MULTICORE_ENOMEM)
            failf(err, errlen, "out of memory");
        ok = st == MULTICORE_OK;
    }
    ok = ok && fill_report(in, &spec, &fit, out, err, errlen);
    multicore_fit_free(&fit);
    free(y);
    free(z);
    return ok;
}
