/*
 * model_scopred.c — adapter for the ScoPred model (models/scopred.h).
 *
 * For each response column: the formula (options `formula_<response>`, else
 * the experiment's formula, else one found by the term search over the
 * numeric parameters), its terms evaluated over the training runs (every
 * repetition is a row), a least-squares fit, the regression diagnostics,
 * and a prediction per target configuration.
 *
 * A searched formula is fitted on the search's scale (relative by default:
 * each run weighted by 1/mean^2 of its configuration, models/termsearch.h)
 * and, when the search lists several laws (AVERAGED LAWS), each is fitted
 * the same way and the prediction is their weighted mean; the interval's
 * half-width squared is the weighted mean of the laws' squared half-widths
 * plus z^2 times the weighted variance of their estimates (z = 1.96 at
 * 95%), so the interval widens where the laws disagree at the target.
 * Beyond the runs along one parameter that estimate is then held within
 * the trend of the runs' last two steps (option trend, models/trendbound.h;
 * gen/fit/trend_line.h indexes the runs' lines once per fit), its
 * intervals moved with it.
 *
 * Components (`time_setup_s+time_evolve_s+...`) are fitted separately and
 * their estimates summed, as in the paper's Table 11. The total's interval
 * half-widths are the sums of the components' half-widths — the paper's own
 * rule (its Table 11 totals are exactly these sums) and a conservative one:
 * the standard deviation of a sum never exceeds the sum of the standard
 * deviations, whatever the correlation between the component fits. When a
 * component has no interval, the total has none, and the note says why.
 * With option total=reconcile (issue 22, "sum of parts") the total is also
 * fitted directly — the sum of the responses of every run, with the
 * experiment's formula or one the term search finds — and the two totals
 * are combined and the parts reconciled with the result
 * (models/reconcile.h: inverse-variance weights from the 95% PI
 * half-widths; each part keeps its own half-width, moved with its
 * estimate). The paper's tables use the default, total=sum.
 *
 * Options (key=value;key=value):
 *   formula_<response>=F   formula for one component (a response of the
 *                          experiment); every key at most once
 *   params=N,P             parameters the term search may use, each a numeric
 *                          column that identifies a configuration (default:
 *                          every such column that varies)
 *   max_terms=K            most terms the term search may choose, a whole
 *                          number from 1 to TERMSEARCH_MAX_TERMS (10; default 3)
 *   alpha=A                significance level of a term the search adds, before
 *                          its Bonferroni correction (default 0.05)
 *   min_gain=G             relative fall of the cross-validation error a term
 *                          must bring (default 0.05)
 *   exponents=E,E,...      candidate exponents of the search (multiples of 1/4
 *                          from -3 to 3; default all of them)
 *   selection=loo|forward  how the restricted family (few configurations) is
 *                          scored: leave-one-configuration-out (default) or
 *                          forward extrapolation folds
 *   scale=relative|absolute  the scale the term search fits and scores on:
 *                          relative errors, runs weighted by 1/mean^2 of
 *                          their configuration (default; absolute when a
 *                          mean is not positive), or seconds. The searched
 *                          formula is fitted with the same weights, and its
 *                          prediction interval is then relative to the
 *                          estimate (ols_predict_weighted). A given formula
 *                          is always plain least squares.
 *   total=sum|reconcile    with several responses: the total is the sum of
 *                          the parts (default, the paper's), or the parts
 *                          are reconciled with a direct fit of the total
 *   trend=bound|free       a searched formula's estimate beyond the runs
 *                          held within the trend of the runs' last steps
 *                          (default; models/trendbound.h; its intervals move
 *                          with it), or as the laws give it. The default
 *                          since held-back rounds 7 and 8 chose it by a rule
 *                          written before they were scored (README, "Trend
 *                          bound"). Given formulas are never held.
 */
#include "gen/base/config_index.h"
#include "gen/base/suggest.h"
#include "gen/fit/model_adapters.h"
#include "gen/fit/rjopts.h"
#include "gen/fit/scaling_option.h"
#include "gen/fit/trend_line.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/ols.h"
#include "models/reconcile.h"
#include "models/regdiag.h"
#include "models/scopred.h"
#include "models/termsearch.h"
#include "models/trendbound.h"

#define LEVEL 0.95

/* Another law of a searched formula's average (models/termsearch.h,
 * AVERAGED LAWS), fitted like the chosen one and predicted beside it. */
typedef struct {
    scopred_formula f;
    ols_model m;
    double weight;
} other_law;

/* One response: its formula and its fit. */
typedef struct {
    const char *response;
    char *formula_text;   /* as fitted (given or found) */
    char *origin;         /* "formula" or "options formula_x": for errors */
    bool searched;        /* found by the term search */
    termsearch_result search;
    scopred_formula f;
    ols_model m;
    double *x;            /* ntrain x nterms */
    double *y;            /* ntrain; freed after the fit */
    bool fitted;
    other_law *others;    /* the search's other laws (search.nlaws - 1) */
    size_t nothers;
    bool total;           /* the sum of the responses, fitted directly (total=reconcile) */
    bool trend_bound;     /* option trend=bound: held to the runs' trend */
    trend_index trends;   /* the training runs' lines when held to them (else zeroed:
                             empty, trends.runs NULL) */
} component;

static bool fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

static void component_free(component *c)
{
    free(c->formula_text);
    free(c->origin);
    termsearch_free(&c->search);
    scopred_formula_free(&c->f);
    ols_free(&c->m);
    free(c->x);
    free(c->y);
    trend_index_free(&c->trends);
    for (size_t i = 0; i < c->nothers; i++) {
        scopred_formula_free(&c->others[i].f);
        ols_free(&c->others[i].m);
    }
    free(c->others);
}

/* ------------------------------------------------------------------ */
/* Options                                                             */

/* The next "key=value" item of options at or after s, NULL when none is
 * left: *item_len its length, *key_len its key's (blanks after it left
 * out; the whole item when it has no '='). */
static const char *next_item(const char *s, size_t *key_len, size_t *item_len)
{
    s += strspn(s, " \t;");
    if (!*s)
        return NULL;
    *item_len = strcspn(s, ";");
    *key_len = strcspn(s, "=;");
    while (*key_len > 0 && (s[*key_len - 1] == ' ' || s[*key_len - 1] == '\t'))
        (*key_len)--;
    return s;
}

/* The value of key in "k=v;k=v" as a new string, blanks around it left
 * out as the other models' options do (rjopts_parse: "trend = free" was
 * refused as " free"); NULL when absent or out of memory (*nomem tells
 * which). */
static char *option(const char *options, const char *key, bool *nomem)
{
    size_t klen = strlen(key), name_len, len;
    for (const char *s = options ? options : ""; (s = next_item(s, &name_len, &len)); s += len) {
        const char *eq = memchr(s, '=', len);
        if (eq && name_len == klen && strncmp(s, key, klen) == 0) {
            const char *v = eq + 1, *end = s + len;
            v += strspn(v, " \t");
            while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
                end--;
            char *text = strndup(v, (size_t)(end - v));
            *nomem = text == NULL;
            return text;
        }
    }
    return NULL;
}

/* The keys scopred reads, but formula_<response> and scaling (every
 * model's, gen/fit/scaling_option.h). */
static const char *const scopred_keys[] = {"params",    "max_terms", "alpha",
                                           "min_gain",  "exponents", "selection",
                                           "scale",     "total",     "trend"};
#define NKEYS (sizeof scopred_keys / sizeof *scopred_keys)

static bool key_listed(const char *key, size_t len)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strlen(scopred_keys[i]) == len && strncmp(key, scopred_keys[i], len) == 0)
            return true;
    return false;
}

/* The next name of a comma-separated list (params=N,P) at or after p, its
 * length in *len; NULL when none is left. */
static const char *next_name(const char *p, size_t *len)
{
    while (*(p += strspn(p, " \t,"))) {
        size_t n = strcspn(p, ",");
        *len = n;
        while (*len > 0 && (p[*len - 1] == ' ' || p[*len - 1] == '\t'))
            (*len)--;
        if (*len > 0)
            return p;
        p += n;
    }
    return NULL;
}

/* A column the term search can take as a parameter: a number that
 * identifies a configuration (not a response or a measurement). */
static bool parameter_column(const table_column *col)
{
    return col->kind == COL_NUMBER && config_column_identifies(col);
}

/* A number in (0, 1) from option key, or 0 when absent. */
static bool fraction_option(const char *options, const char *key, double *out, char *err,
                            size_t errlen)
{
    bool nomem = false;
    char *text = option(options, key, &nomem), *end = NULL;
    *out = text ? strtod(text, &end) : 0;
    bool ok = !nomem && (!text || (end > text && end[strspn(end, " \t")] == '\0' &&
                                   *out > 0 && *out < 1));
    if (!ok)
        fail(err, errlen, "options: %s=%s: %s", key, text ? text : "",
             nomem ? "out of memory" : "must be a number between 0 and 1 (exclusive)");
    free(text);
    return ok;
}

/* The term search's settings from the options (see the top of this file). */
static bool search_options(const char *options, termsearch_options *opt, char *err,
                           size_t errlen)
{
    bool nomem = false;
    memset(opt, 0, sizeof *opt);
    char *max_text = option(options, "max_terms", &nomem);
    char *exponents = option(options, "exponents", &nomem);
    char *selection = option(options, "selection", &nomem);
    char *scale = option(options, "scale", &nomem);
    char why[160];
    long max_terms = 0;
    bool ok = !nomem || fail(err, errlen, "out of memory");
    /* 0, the term search's default, is left to it: not a count to type. */
    if (ok && max_text)
        ok = rjopts_whole("max_terms", max_text, 1, TERMSEARCH_MAX_TERMS, &max_terms, err, errlen);
    opt->max_terms = (size_t)max_terms;
    if (ok && exponents && !termsearch_parse_exponents(exponents, opt, why, sizeof why))
        ok = fail(err, errlen, "options: exponents=%s: %s", exponents, why);
    if (ok && selection && strcmp(selection, "forward") == 0)
        opt->selection = TERMSEARCH_SELECT_FORWARD;
    else if (ok && selection && strcmp(selection, "loo") != 0)
        ok = fail(err, errlen, "options: selection=%s: must be loo or forward", selection);
    if (ok && scale && strcmp(scale, "absolute") == 0)
        opt->scale = TERMSEARCH_ABSOLUTE;
    else if (ok && scale && strcmp(scale, "relative") != 0)
        ok = fail(err, errlen, "options: scale=%s: must be relative or absolute", scale);
    free(scale);
    free(max_text);
    free(exponents);
    free(selection);
    return ok && fraction_option(options, "alpha", &opt->alpha, err, errlen) &&
           fraction_option(options, "min_gain", &opt->min_gain, err, errlen);
}

/* Option key with one of two values: first (also when absent) or second,
 * which sets *second_chosen. */
static bool choice_option(const char *options, const char *key, const char *first,
                          const char *second, bool *second_chosen, char *err, size_t errlen)
{
    bool nomem = false;
    char *text = option(options, key, &nomem);
    *second_chosen = text && strcmp(text, second) == 0;
    bool ok = !nomem && (!text || *second_chosen || strcmp(text, first) == 0);
    if (nomem)
        fail(err, errlen, "options: %s: out of memory", key);
    else if (!ok)
        fail(err, errlen, "options: %s=%s: must be %s or %s", key, text, first, second);
    free(text);
    return ok;
}

/* Option total: sum (absent) or reconcile. */
static bool total_option(const char *options, bool *reconcile, char *err, size_t errlen)
{
    return choice_option(options, "total", "sum", "reconcile", reconcile, err, errlen);
}

/* Option trend: bound (absent: models/trendbound.h) or free. */
static bool trend_option(const char *options, bool *bound, char *err, size_t errlen)
{
    bool free_laws = false;
    bool ok = choice_option(options, "trend", "bound", "free", &free_laws, err, errlen);
    *bound = !free_laws;
    return ok;
}

/* Is name[0..len) one of e's responses (the response cell, '+'-joined)? */
static bool is_response(const experiment_info *e, const char *name, size_t len)
{
    size_t n;
    for (const char *s = e->response ? e->response : EXPERIMENT_DEFAULT_RESPONSE;
         (s = experiment_response_next(s, &n)); s += n)
        if (n == len && strncmp(s, name, len) == 0)
            return true;
    return false;
}

/* One key of e's options: known, or false with why; a misspelt one gets
 * the nearest known key. */
static bool check_key(const experiment_info *e, const char *key, size_t len, char *err,
                      size_t errlen)
{
    if (key_listed(key, len) || scaling_option_is_key(key, len) ||
        (len > 8 && strncmp(key, "formula_", 8) == 0 && is_response(e, key + 8, len - 8)))
        return true;
    if (len > 8 && strncmp(key, "formula_", 8) == 0)
        return fail(err, errlen,
                    "options: unknown key '%.*s': '%.*s' is not a response of the experiment, "
                    "which predicts %s",
                    (int)len, key, (int)(len - 8), key + 8,
                    e->response ? e->response : EXPERIMENT_DEFAULT_RESPONSE);
    char typed[64], keys[200] = "", near[100];
    snprintf(typed, sizeof typed, "%.*s", (int)len, key);
    for (size_t i = 0, used = 0; i < NKEYS && used < sizeof keys; i++)
        used += (size_t)snprintf(keys + used, sizeof keys - used, "%s, ", scopred_keys[i]);
    return fail(err, errlen,
                "options: unknown key '%.*s' (scopred knows formula_<response column>, %sscaling)"
                "%s",
                (int)len, key, keys, suggest_clause(typed, scopred_keys, NKEYS, near, sizeof near));
}

/* Key key[0..len) is given again after the item at `after`? (The options
 * are read by their first item: a second would be ignored silently.) */
static bool given_again(const char *after, const char *key, size_t len)
{
    size_t name_len, item_len;
    for (const char *s = after; (s = next_item(s, &name_len, &item_len)); s += item_len)
        if (name_len == len && strncmp(s, key, len) == 0)
            return true;
    return false;
}

/* One name of params: a numeric parameter of the runs, or false naming
 * the nearest one. Else the term search would leave it out without a word
 * and, with none left, fit the constant model. */
static bool check_param(const table *runs, const char *name, size_t len, char *err,
                        size_t errlen)
{
    char typed[128];
    snprintf(typed, sizeof typed, "%.*s", (int)len, name);
    int c = len < sizeof typed ? table_find(runs, typed) : -1;
    if (c >= 0 && parameter_column(&runs->cols[c]))
        return true;
    if (c >= 0 && runs->cols[c].kind != COL_NUMBER)
        return fail(err, errlen, "options: '%s' in params is not a numeric column (the term "
                    "search takes numeric parameters)", typed);
    if (c >= 0)
        return fail(err, errlen, "options: '%s' in params is a response or measurement column, "
                    "not a parameter that identifies a configuration", typed);
    const char **names = malloc((runs->ncols + 1) * sizeof *names);
    size_t n = 0;
    for (size_t j = 0; names && j < runs->ncols; j++)
        if (parameter_column(&runs->cols[j]))
            names[n++] = runs->cols[j].name;
    char near[160] = "";
    if (names)
        suggest_clause(typed, names, n, near, sizeof near);
    fail(err, errlen, "options: unknown column '%s' in params%s", typed, near);
    free(names);
    return false;
}

/* Option params: one or more parameters, each a column check_param takes. */
static bool check_params(const table *runs, const char *options, char *err, size_t errlen)
{
    bool nomem = false, ok = true;
    char *params = option(options, "params", &nomem);
    size_t len, named = 0;
    for (const char *p = params; ok && p && (p = next_name(p, &len)); p += len, named++)
        ok = check_param(runs, p, len, err, errlen);
    if (nomem)
        ok = fail(err, errlen, "out of memory");
    else if (ok && params && named == 0)
        ok = fail(err, errlen, "options: params names no column (expected numeric columns "
                  "separated by commas, e.g. params=N,np)");
    free(params);
    return ok;
}

/* Every key of e's options must be one we know, given once, its value
 * well formed. */
bool model_scopred_check_options(const table *runs, const experiment_info *e, char *err,
                                 size_t errlen)
{
    const char *options = e->options;
    size_t name_len, len;
    for (const char *s = options ? options : ""; (s = next_item(s, &name_len, &len)); s += len) {
        if (!check_key(e, s, name_len, err, errlen))
            return false;
        if (given_again(s + len, s, name_len))
            return fail(err, errlen, "options: %.*s is given twice", (int)name_len, s);
    }
    termsearch_options opt;
    bool reconcile, bound;
    return check_params(runs, options, err, errlen) &&
           search_options(options, &opt, err, errlen) &&
           total_option(options, &reconcile, err, errlen) &&
           trend_option(options, &bound, err, errlen);
}

/* ------------------------------------------------------------------ */
/* Design and fit                                                      */

static bool known_column(void *ctx, const char *name, bool *numeric)
{
    const table *t = ctx;
    int c = table_find(t, name);
    if (c < 0)
        return false;
    *numeric = t->cols[c].kind == COL_NUMBER;
    return true;
}

/* Fail with error e of c's formula (on runs.csv line run_line when > 0),
 * pointing at the formula's cell of experiments.csv, or at the options cell
 * for a formula_<response> option (e's column is then given in the text). */
static bool formula_failure(const experiment_input *in, const component *c,
                            const expr_error *e, long run_line, char *err, size_t errlen)
{
    char row[64] = "";
    if (run_line > 0)
        snprintf(row, sizeof row, " (runs.csv line %ld)", run_line);
    if (strcmp(c->origin, "formula") == 0) {
        experiment_point_at(in, "formula", e->column);
        return fail(err, errlen, "%s in the formula%s", e->message, row);
    }
    experiment_point_at(in, "options", 0);
    return fail(err, errlen, "%s:%d: %s%s", c->origin, e->column, e->message, row);
}

/* The formula of the mean alone: no term ("1" would be an aliased term). */
static bool constant_formula(scopred_formula *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    return (f->text = strdup("1")) != NULL || fail(err, errlen, "out of memory");
}

/* Parse c->formula_text and check its names against runs.csv. */
static bool parse_formula(const experiment_input *in, component *c, char *err, size_t errlen)
{
    if (c->searched && c->search.kind == TERMSEARCH_CONSTANT)
        return constant_formula(&c->f, err, errlen);
    expr_error e = {0};
    if (!scopred_formula_parse(c->formula_text, &c->f, &e) ||
        !scopred_formula_check_names(&c->f, known_column, (void *)&in->camp->runs, &e))
        return formula_failure(in, c, &e, 0, err, errlen);
    return true;
}

/* The term values of a calibration refit, copied from those its
 * experiment's fit kept (experiment_designs) for the same formula; false
 * when some run has none there (then they are evaluated). */
static bool copy_kept_design(const experiment_input *in, component *c)
{
    size_t k = c->f.nterms;
    for (size_t i = 0; i < in->ntrain; i++) {
        const double *kept = experiment_design_row(in->designs, c->response, c->f.text,
                                                   in->train_rows[i]);
        if (!kept)
            return false;
        memcpy(c->x + i * k, kept, k * sizeof *kept);
    }
    return true;
}

/* Term values over the training runs and the response. */
/* c's response in row: its column col, or for the total the sum of the
 * experiment's responses (NAN when one is missing). */
static double response_value(const experiment_input *in, const component *c, size_t row, int col)
{
    if (c->total)
        return experiment_row_response(&in->camp->runs, row, in->responses, in->nresponses);
    return table_number(&in->camp->runs, row, (size_t)col);
}

static bool build_design(const experiment_input *in, component *c, char *err, size_t errlen)
{
    const table *runs = &in->camp->runs;
    size_t n = in->ntrain, k = c->f.nterms;
    c->x = malloc((n * k + 1) * sizeof *c->x);
    c->y = malloc((n + 1) * sizeof *c->y);
    if (!c->x || !c->y)
        return fail(err, errlen, "out of memory");
    expr_error e = {0};
    size_t bad = 0;
    bool kept = in->estimates_only && in->designs && copy_kept_design(in, c);
    if (!kept && !scopred_design(&c->f, runs, in->train_rows, n, c->x, &e, &bad))
        return formula_failure(in, c, &e, runs->line[in->train_rows[bad]], err, errlen);
    int col = table_find(runs, c->response);
    if (!c->total && (col < 0 || runs->cols[col].kind != COL_NUMBER))
        return fail(err, errlen, "response '%s' is not a numeric column of runs.csv",
                    c->response);
    for (size_t i = 0; i < n; i++)
        c->y[i] = response_value(in, c, in->train_rows[i], col);
    return true;
}

/* ------------------------------------------------------------------ */
/* Term search                                                         */

/* Is name one of the comma-separated names in list? */
static bool listed(const char *list, const char *name)
{
    size_t len, want = strlen(name);
    for (const char *p = list; (p = next_name(p, &len)); p += len)
        if (len == want && strncmp(p, name, len) == 0)
            return true;
    return false;
}

/* Is column c of the runs a candidate parameter of the term search: listed
 * in params when given; else numeric, identifying, and not a copy of an
 * earlier such column over the training runs (np and P in EP)? */
static bool search_column(const experiment_input *in, size_t c, const char *params)
{
    const table *runs = &in->camp->runs;
    const table_column *col = &runs->cols[c];
    if (!parameter_column(col))
        return false;
    if (params)
        return listed(params, col->name);
    for (size_t d = 0; d < c; d++) {
        if (!parameter_column(&runs->cols[d]))
            continue;
        bool same = true;
        for (size_t i = 0; same && i < in->ntrain; i++)
            same = runs->cols[d].num[in->train_rows[i]] == col->num[in->train_rows[i]];
        if (same)
            return false;
    }
    return true;
}

/* The targets' values of the search's m parameters names[] (row-major),
 * those with every value present: where a time law must stay positive
 * (termsearch_options.positive_at). Their count in *n; NULL when out of
 * memory. */
static double *target_points(const experiment_input *in, const char **names, size_t m,
                             size_t *n)
{
    const table *runs = &in->camp->runs;
    double *points = malloc((in->ntargets * m + 1) * sizeof *points);
    *n = 0;
    for (size_t t = 0; points && t < in->ntargets; t++) {
        if (in->targets[t].nrows == 0)
            continue;
        bool present = true;
        for (size_t j = 0; j < m; j++) {
            double v = table_number(runs, in->targets[t].rows[0],
                                    (size_t)table_find(runs, names[j]));
            points[*n * m + j] = v;
            present &= isfinite(v);
        }
        *n += present;
    }
    return points;
}

/* Find a formula for c with the term search; fills c->formula_text. */
static bool search_formula(const experiment_input *in, component *c, char *err, size_t errlen)
{
    const table *runs = &in->camp->runs;
    bool nomem = false;
    termsearch_options opt;
    if (!search_options(in->exp->options, &opt, err, errlen))
        return false;
    if (in->estimates_only)
        opt.nested_folds = 1; /* the nested error is report text, not an estimate */
    char *params = option(in->exp->options, "params", &nomem);
    const char **names = malloc((runs->ncols + 1) * sizeof *names);
    int col = table_find(runs, c->response);
    size_t m = 0;
    for (size_t j = 0; names && !nomem && j < runs->ncols; j++)
        if (search_column(in, j, params))
            names[m++] = runs->cols[j].name;
    /* The parameters' values only: a column a run, not every column. */
    double *values = malloc((in->ntrain * m + 1) * sizeof *values);
    double *y = malloc((in->ntrain + 1) * sizeof *y);
    bool ok = !nomem && names && values && y && (c->total || col >= 0);
    for (size_t i = 0; ok && i < in->ntrain; i++) {
        for (size_t j = 0; j < m; j++)
            values[i * m + j] = table_number(runs, in->train_rows[i],
                                             (size_t)table_find(runs, names[j]));
        y[i] = response_value(in, c, in->train_rows[i], col);
    }
    double *points = ok ? target_points(in, names, m, &opt.npositive_at) : NULL;
    opt.positive_at = points;
    ok = ok && points && termsearch_run(names, values, in->ntrain, m, y, &opt, &c->search);
    free(params);
    free(names);
    free(values);
    free(y);
    free(points);
    if (!ok)
        return fail(err, errlen, "out of memory (or response '%s' missing)", c->response);
    if (!c->search.formula)
        return fail(err, errlen, "no formula given and no term search possible for %s: %s",
                    c->response, c->search.failure);
    c->searched = true;
    return (c->formula_text = strdup(c->search.formula)) != NULL ||
           fail(err, errlen, "out of memory");
}

/* Choose the formula of one response: options, the experiment's, or a search. */
static bool choose_formula(const experiment_input *in, component *c, char *err, size_t errlen)
{
    char key[160];
    bool nomem = false;
    snprintf(key, sizeof key, "formula_%s", c->response);
    c->formula_text = c->total ? NULL : option(in->exp->options, key, &nomem);
    if (c->formula_text) {
        char origin[200];
        snprintf(origin, sizeof origin, "options %s", key);
        c->origin = strdup(origin);
    } else {
        const char *f = in->exp->formula;
        c->origin = strdup("formula");
        if (f && strspn(f, " \t") < strlen(f))
            c->formula_text = strdup(f);
        else if (!nomem && c->origin)
            return search_formula(in, c, err, errlen);
    }
    if (nomem || !c->origin || !c->formula_text)
        return fail(err, errlen, "out of memory");
    return true;
}

/* Was c's formula searched, and fitted, on the relative scale? */
static bool relative(const component *c)
{
    return c->searched && c->search.relative;
}

/* Fit y ~ 1 + the k columns of x over the training runs into m. A
 * searched formula is fitted on the scale it was chosen on: with the
 * search's weights (1/mean^2 of each run's configuration), or the small
 * times' relative errors would again count for nothing. A refit read for
 * its estimates needs no leverages (ols.h). */
static ols_status fit_terms(const experiment_input *in, const component *c, const double *x,
                            size_t k, ols_model *m)
{
    if (relative(c))
        return ols_fit_weighted(x, c->y, c->search.run_weight, in->ntrain, k, m);
    return in->estimates_only ? ols_fit_without_leverages(x, c->y, in->ntrain, k, m)
                              : ols_fit(x, c->y, in->ntrain, k, m);
}

/* Fit the search's other laws (laws[1..]) like the chosen formula. */
static bool fit_others(const experiment_input *in, component *c, char *err, size_t errlen)
{
    size_t n = c->searched && c->search.nlaws > 1 ? c->search.nlaws - 1 : 0;
    if (n == 0)
        return true;
    if (!(c->others = calloc(n, sizeof *c->others)))
        return fail(err, errlen, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const termsearch_law *law = &c->search.laws[i + 1];
        other_law *o = &c->others[i];
        expr_error e = {0};
        size_t bad = 0;
        o->weight = law->weight;
        c->nothers++;
        if (law->nterms == 0 ? !constant_formula(&o->f, err, errlen)
                             : !scopred_formula_parse(law->formula, &o->f, &e))
            return e.message[0] ? fail(err, errlen, "%s: %s", law->formula, e.message) : false;
        double *x = malloc((in->ntrain * o->f.nterms + 1) * sizeof *x);
        bool allocated = x != NULL;
        bool ok = allocated && scopred_design(&o->f, &in->camp->runs, in->train_rows,
                                              in->ntrain, x, &e, &bad);
        ols_status st = ok ? fit_terms(in, c, x, o->f.nterms, &o->m) : OLS_OK;
        free(x);
        if (!ok)
            return fail(err, errlen, "%s: %s", law->formula,
                        allocated ? e.message : "out of memory");
        if (st != OLS_OK)
            return fail(err, errlen, "%s: %s: %s", c->response, law->formula,
                        ols_status_text(st));
    }
    return true;
}

static bool fit_component(const experiment_input *in, component *c, char *err, size_t errlen)
{
    if (!choose_formula(in, c, err, errlen) || !parse_formula(in, c, err, errlen) ||
        !build_design(in, c, err, errlen))
        return false;
    ols_status st = fit_terms(in, c, c->x, c->f.nterms, &c->m);
    bool others = st == OLS_OK && fit_others(in, c, err, errlen);
    /* A searched law held to its runs' trend indexes their lines now,
     * while the responses are at hand. */
    bool indexed = st != OLS_OK || !c->trend_bound || !relative(c) ||
                   trend_index_build(&in->camp->runs, in->train_rows, c->y, in->ntrain,
                                     &c->trends);
    free(c->y); /* the fit keeps what it needs (residuals): one double a run less */
    c->y = NULL;
    if (!indexed)
        return fail(err, errlen, "out of memory");
    if (st != OLS_OK)
        return fail(err, errlen, "%s: %s", c->response, ols_status_text(st));
    c->fitted = others;
    return others;
}

/* ------------------------------------------------------------------ */
/* Report: fit                                                         */

/* Diagnostics of one component, prefixed by its name when there are several. */
static bool add_diagnostics(const experiment_input *in, const component *c, const char *prefix,
                            report *out)
{
    regdiag_result d;
    /* The lines after the checks: their auxiliary regression is the peak. */
    bool diagnosed = regdiag_run(&c->m, c->x, c->f.nterms, &d);
    long *lines = diagnosed ? malloc((in->ntrain + 1) * sizeof *lines) : NULL;
    bool ok = lines != NULL;
    for (size_t i = 0; ok && i < in->ntrain; i++)
        lines[i] = in->camp->runs.line[in->train_rows[i]];
    char line[640], full[800];
    for (int k = 0; ok && k < 4; k++) {
        switch (k) {
        case 0: regdiag_significance_verdict(&c->m, line, sizeof line); break;
        case 1: regdiag_normality_verdict(&d, line, sizeof line); break;
        case 2: regdiag_variance_verdict(&d, line, sizeof line); break;
        default: regdiag_influence_verdict(&d, lines, "runs.csv line", line, sizeof line); break;
        }
        snprintf(full, sizeof full, "%s%s", prefix, line);
        ok = report_add_diagnostic(out, full);
    }
    regdiag_free(&d);
    free(lines);
    return ok;
}

/* "3 laws averaged: np^(-1) (0.61), ...": the search's average. */
static bool add_laws_note(const component *c, const char *prefix, report *out)
{
    const termsearch_result *r = &c->search;
    char line[2400], laws[1800] = "";
    for (size_t i = 0; i < r->nlaws; i++) {
        size_t used = strlen(laws);
        snprintf(laws + used, sizeof laws - used, "%s%s (%.2f)", i ? ", " : "",
                 r->laws[i].formula, r->laws[i].weight);
    }
    snprintf(line, sizeof line,
             "%s%zu laws averaged: %s (weights exp(-g/2 ln(e/e_min)) from their "
             "leave-one-configuration-out errors e%s over g = %zu configurations); the "
             "estimate is their weighted mean and its intervals widen with their spread at "
             "the target; the equation and statistics are those of the first",
             prefix, r->nlaws, laws,
             r->kind == TERMSEARCH_SEARCHED ? "" : ", penalised as the restricted family's",
             r->nconfigs);
    return report_add_warning(out, line);
}

static bool add_search_note(const component *c, const char *prefix, report *out)
{
    if (!c->searched)
        return true;
    const termsearch_result *r = &c->search;
    char line[2400], nested[240] = "", loo[280] = "";
    /* On the relative scale the errors are fractions of the time. */
    double unit = r->relative ? 100 : 1;
    const char *pct = r->relative ? "%" : "";
    if (r->nested_folds > 0)
        snprintf(nested, sizeof nested,
                 "; the whole search, repeated without each of %zu folds of configurations, "
                 "predicts them with RMSE %.4g%s (nested cross-validation: the honest error)",
                 r->nested_folds, unit * r->nested_rmse, pct);
    bool forward = r->kind == TERMSEARCH_RESTRICTED && r->selection == TERMSEARCH_SELECT_FORWARD;
    if (isfinite(r->base_loo_rmse))
        snprintf(loo, sizeof loo, "; %sleave-one-configuration-out RMSE %.4g%s (%s), intercept "
                 "alone %.4g%s", r->relative ? "fitted and scored on the relative scale: " : "",
                 unit * r->loo_rmse, pct,
                 forward ? "not the selection criterion: forward folds chose the law"
                         : "the selection criterion, optimistic", unit * r->base_loo_rmse, pct);
    if (r->kind == TERMSEARCH_CONSTANT)
        snprintf(line, sizeof line,
                 "%sno formula given and the term search found no term (%s): the constant "
                 "model, the mean of the training runs, is the last resort; %zu candidate "
                 "terms over %zu configurations%s%s", prefix, r->why, r->ncandidates,
                 r->nconfigs, loo, nested);
    else
        snprintf(line, sizeof line,
                 "%sno formula given: the term search chose '%s' from %zu candidate terms over "
                 "%zu configurations, %s%s%s%s%s%s",
                 prefix, c->formula_text, r->ncandidates, r->nconfigs, termsearch_confidence(r),
                 r->why[0] ? " (" : "", r->why, r->why[0] ? ")" : "", loo, nested);
    if (!report_add_warning(out, line) || (r->nlaws > 1 && !add_laws_note(c, prefix, out)))
        return false;
    if (r->kind == TERMSEARCH_CONSTANT)
        return true;
    char post[512];
    snprintf(post, sizeof post,
             "%spost-selection: the terms were chosen because they fit, so the standard errors, "
             "p-values and textbook intervals of the searched formula, which treat it as given, "
             "overstate its significance and precision; use the calibrated interval",
             prefix);
    return report_add_warning(out, post);
}

/* Several components: overall formula and equation list them; the overall
 * statistics do not exist (each component has its own). */
static bool add_total_fit(const component *cs, size_t nc, size_t ntrain, report *out)
{
    char formula[4096] = "", equation[8192] = "";
    for (size_t i = 0; i < nc; i++) {
        size_t fl = strlen(formula), el = strlen(equation);
        snprintf(formula + fl, sizeof formula - fl, "%s%s: %s", i ? "; " : "", cs[i].response,
                 cs[i].formula_text);
        el += (size_t)snprintf(equation + el, sizeof equation - el, "%s%s = ", i ? "; " : "",
                               cs[i].response);
        if (el < sizeof equation)
            scopred_equation(&cs[i].f, &cs[i].m, equation + el, sizeof equation - el);
    }
    static const char *const names[] = {"r2", "adj_r2", "f", "f_p", "sigma"};
    char why[160];
    snprintf(why, sizeof why, "the total is the sum of %zu component fits: see each component's",
             nc);
    bool ok = report_set_text(&out->formula, formula) &&
              report_set_text(&out->equation, equation);
    for (size_t i = 0; ok && i < 5; i++)
        ok = report_add_stat(out, names[i], NAN, why);
    return ok && report_add_stat(out, "n", (double)ntrain, "training runs") &&
           report_add_stat(out, "df_resid", NAN, why);
}

static bool report_fits(const experiment_input *in, const component *cs, size_t nc,
                        report *out)
{
    if (!report_set_text(&out->model, "scopred"))
        return false;
    if (nc > 1 && !add_total_fit(cs, nc, in->ntrain, out))
        return false;
    /* The directly fitted total (total=reconcile) follows the parts. */
    for (size_t i = 0; i < nc + (nc > 1 && cs[nc].total); i++) {
        char prefix[160] = "";
        if (nc > 1)
            snprintf(prefix, sizeof prefix, "%s: ", cs[i].total ? "total, fitted directly"
                                                                  : cs[i].response);
        if (!scopred_report_fit(&cs[i].f, &cs[i].m, nc > 1 ? prefix : NULL, out) ||
            !add_search_note(&cs[i], prefix, out) ||
            !add_diagnostics(in, &cs[i], prefix, out))
            return false;
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Report: predictions                                                 */

/* Append to a note, "; "-separated. */
static void note_add(char *note, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void note_add(char *note, size_t len, const char *fmt, ...)
{
    size_t used = strlen(note);
    if (used && used + 2 < len) {
        strcpy(note + used, "; ");
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + used, len - used, fmt, ap);
    va_end(ap);
}

/* Predict at a target with one law: its estimate, and on the relative
 * scale a new run's spread relative to that estimate. False when its
 * formula cannot be evaluated there (e says why). */
static bool predict_law(const experiment_input *in, const component *c,
                        const scopred_formula *f, const ols_model *m, size_t row,
                        ols_prediction *p, expr_error *e)
{
    double *x0 = malloc((f->nterms + 1) * sizeof *x0);
    table_row_ctx rc = {.t = &in->camp->runs, .row = row};
    bool ok = x0 && scopred_formula_eval(f, expr_lookup_table_row, &rc, x0, e);
    if (ok) {
        ols_predict(m, x0, LEVEL, p);
        /* A time of zero or less has no relative spread: no PI then. */
        if (relative(c))
            ols_predict_weighted(m, x0, p->estimate > 0 ? 1 / (p->estimate * p->estimate) : NAN,
                                 LEVEL, p);
    } else if (!x0) {
        snprintf(e->message, sizeof e->message, "out of memory");
    }
    free(x0);
    return ok;
}

/* The weighted average of the laws' predictions (the chosen law's in p):
 * estimate sum w_i e_i; each interval's half-width squared is the
 * weighted mean of the laws' squared half-widths plus z^2 times the
 * weighted variance of their estimates (z the normal quantile of LEVEL),
 * so where the laws disagree at the target the interval widens. A law
 * without an interval (an exact fit) adds its estimate's spread only.
 * False (p unchanged) when another law cannot be evaluated there. */
static bool average_laws(const experiment_input *in, const component *c, size_t row,
                         ols_prediction *p, char *note, size_t len)
{
    size_t n = c->nothers + 1;
    ols_prediction ps[TERMSEARCH_MAX_LAWS];
    double w[TERMSEARCH_MAX_LAWS], mean = 0, spread = 0, pi2 = 0, ci2 = 0;
    ps[0] = *p;
    w[0] = c->search.laws[0].weight;
    for (size_t i = 1; i < n; i++) {
        expr_error e = {0};
        w[i] = c->others[i - 1].weight;
        if (!predict_law(in, c, &c->others[i - 1].f, &c->others[i - 1].m, row, &ps[i], &e)) {
            note_add(note, len, "the law %s is not averaged here: %s",
                     c->search.laws[i].formula, e.message);
            return false;
        }
    }
    for (size_t i = 0; i < n; i++)
        mean += w[i] * ps[i].estimate;
    for (size_t i = 0; i < n; i++) {
        double d = ps[i].estimate - mean;
        double pi = ps[i].interval_absent ? 0 : ps[i].pi_high - ps[i].estimate;
        double ci = ps[i].interval_absent ? 0 : ps[i].ci_high - ps[i].estimate;
        spread += w[i] * d * d;
        pi2 += w[i] * pi * pi;
        ci2 += w[i] * ci * ci;
        p->extrapolation |= ps[i].extrapolation;
    }
    double z = gsl_cdf_ugaussian_Pinv(1 - (1 - LEVEL) / 2);
    double pi = sqrt(pi2 + z * z * spread), ci = sqrt(ci2 + z * z * spread);
    p->estimate = mean;
    if (!p->interval_absent) {
        p->ci_low = mean - ci;
        p->ci_high = mean + ci;
        p->pi_low = mean - pi;
        p->pi_high = mean + pi;
    }
    return true;
}

/* A searched law's estimate beyond its runs held within their trend
 * (models/trendbound.h; gen/fit/trend_line.h finds the runs it continues):
 * where it leaves it, the estimate moves to the bound and its intervals,
 * relative on this scale, move with it by the same factor. Given formulas
 * (the papers') are never bounded. True when the estimate was held. */
static bool bound_by_trend(const experiment_input *in, const component *c, size_t row,
                           ols_prediction *p, char *note, size_t len)
{
    trend_line line;
    trendbound_result r;
    bool held = false;
    if (!c->trends.runs || !(p->estimate > 0))
        return false;
    if (!trend_line_find(&c->trends, row, &line)) {
        note_add(note, len, "not held to the runs' trend: out of memory");
    } else if (line.n > 0 &&
               trendbound_apply(line.x, line.y, line.n, line.x_target, p->estimate, &r) ==
                   TRENDBOUND_OK &&
               r.bounded) {
        double factor = r.estimate / p->estimate;
        note_add(note, len,
                 "held to the runs' trend: the law's %.4g changes by %+.3g (log) per doubling of "
                 "%s beyond %.6g, outside the runs' last %d steps [%+.3g, %+.3g]; estimate %.4g",
                 p->estimate, r.slope_law, in->camp->runs.cols[line.column].name,
                 line.x[line.n - 1], TRENDBOUND_RECENT, r.slope_low, r.slope_high, r.estimate);
        p->estimate = r.estimate;
        if (!p->interval_absent) {
            p->ci_low *= factor, p->ci_high *= factor;
            p->pi_low *= factor, p->pi_high *= factor;
        }
        held = true;
    }
    trend_line_free(&line);
    return held;
}

/* Predict one component at a target; false (with the reason in note) when
 * the formula cannot be evaluated there. *held is set when the estimate was
 * held to the runs' trend (left alone otherwise). */
static bool predict_component(const experiment_input *in, const component *c, size_t row,
                              ols_prediction *p, bool *held, char *note, size_t len)
{
    expr_error e = {0};
    bool ok = predict_law(in, c, &c->f, &c->m, row, p, &e);
    if (!ok)
        note_add(note, len, "no estimate: %s:%d: %s", c->origin, e.column, e.message);
    if (ok && c->nothers > 0)
        average_laws(in, c, row, p, note, len);
    if (ok && bound_by_trend(in, c, row, p, note, len))
        *held = true;
    if (ok) {
        char why[512];
        scopred_prediction_note(&c->f, p, why, sizeof why);
        if (why[0])
            note_add(note, len, "%s%s%s", in->nresponses > 1 ? c->response : "",
                     in->nresponses > 1 ? ": " : "", why);
    }
    return ok;
}

/* ScoPred (Section 4.4): where the configuration has historical runs, their
 * mean is a better estimate than the model's. */
static void note_history(const target_config *t, char *note, size_t len)
{
    if (t->nhistory)
        note_add(note, len,
                 "%zu training run%s at this configuration, mean %.4g: ScoPred prefers the "
                 "historical mean to the model where one exists", t->nhistory,
                 t->nhistory > 1 ? "s" : "", t->history_mean);
}

/* Total of the components at one target: estimates add, half-widths add. */
static void sum_components(const component *cs, size_t nc, const ols_prediction *ps,
                           report_prediction *p, char *note, size_t len)
{
    double ci = 0, pi = 0;
    const component *missing = NULL;
    char parts[1024] = "";
    p->estimate = 0;
    for (size_t i = 0; i < nc; i++) {
        p->estimate += ps[i].estimate;
        p->extrapolation |= ps[i].extrapolation;
        if (ps[i].interval_absent && !missing)
            missing = &cs[i];
        ci += ps[i].ci_high - ps[i].estimate;
        pi += ps[i].pi_high - ps[i].estimate;
        size_t used = strlen(parts);
        snprintf(parts + used, sizeof parts - used, "%s%s %.4g", i ? " + " : "",
                 cs[i].response, ps[i].estimate);
    }
    note_add(note, len, "sum of components: %s", parts);
    if (missing) {
        note_add(note, len, "no interval for the total: %s has none", missing->response);
        return;
    }
    note_add(note, len, "total intervals: sums of the component half-widths (conservative)");
    p->ci_low = p->estimate - ci;
    p->ci_high = p->estimate + ci;
    p->pi_low = p->estimate - pi;
    p->pi_high = p->estimate + pi;
}

/* The parts reconciled with the directly fitted total (ps[nc]): the
 * combined total into p, each part's estimate and interval moved in ps. */
static void reconcile_components(const component *cs, size_t nc, ols_prediction *ps,
                                 report_prediction *p, char *note, size_t len)
{
    double est[RECONCILE_MAX_PARTS], pi[RECONCILE_MAX_PARTS], out[RECONCILE_MAX_PARTS];
    double ci_sum = 0;
    bool intervals = !ps[nc].interval_absent;
    for (size_t i = 0; i < nc && i < RECONCILE_MAX_PARTS; i++) {
        est[i] = ps[i].estimate;
        pi[i] = ps[i].pi_high - ps[i].estimate;
        ci_sum += ps[i].ci_high - ps[i].estimate;
        intervals &= !ps[i].interval_absent;
    }
    reconcile_result r;
    reconcile_status st = intervals ? reconcile_sum(est, pi, nc, ps[nc].estimate,
                                                    ps[nc].pi_high - ps[nc].estimate, out, &r)
                                    : RECONCILE_BAD_INPUT;
    if (st != RECONCILE_OK) {
        note_add(note, len, "not reconciled with the directly fitted total %.4g: %s",
                 ps[nc].estimate, intervals ? reconcile_status_text(st)
                                            : "a part or the total has no interval");
        sum_components(cs, nc, ps, p, note, len);
        return;
    }
    double w = r.weight_sum, ci = w * ci_sum + (1 - w) * (ps[nc].ci_high - ps[nc].estimate);
    note_add(note, len,
             "total reconciled: sum of parts %.4g and direct fit %.4g weighted %.2f : %.2f by "
             "their 95%% PI half-widths (%.3g, %.3g), combined %.4g%s", r.sum_parts,
             ps[nc].estimate, w, 1 - w, r.sum_sd, ps[nc].pi_high - ps[nc].estimate, r.total,
             r.nclipped ? "; a part held at zero" : "");
    for (size_t i = 0; i < nc; i++) {
        double shift = out[i] - ps[i].estimate;
        ps[i].estimate += shift, ps[i].ci_low += shift, ps[i].ci_high += shift;
        ps[i].pi_low += shift, ps[i].pi_high += shift;
        p->extrapolation |= ps[i].extrapolation;
    }
    p->extrapolation |= ps[nc].extrapolation;
    p->estimate = r.total;
    p->ci_low = r.total - ci, p->ci_high = r.total + ci;
    p->pi_low = r.total - r.total_sd, p->pi_high = r.total + r.total_sd;
}

static bool predict_target(const experiment_input *in, const component *cs, size_t ti,
                           ols_prediction *ps, report *out)
{
    const target_config *t = &in->targets[ti];
    char note[4096] = "";
    report_prediction p = {.config = ti, .estimate = NAN, .ci_low = NAN, .ci_high = NAN,
                           .pi_low = NAN, .pi_high = NAN};
    bool all = true;
    for (size_t i = 0; i < in->nresponses; i++)
        all &= predict_component(in, &cs[i], t->rows[0], &ps[i], &p.held_to_trend, note,
                                 sizeof note);
    if (all && in->nresponses == 1) {
        p.estimate = ps[0].estimate;
        p.extrapolation = ps[0].extrapolation;
        p.ci_low = ps[0].ci_low;
        p.ci_high = ps[0].ci_high;
        p.pi_low = ps[0].pi_low;
        p.pi_high = ps[0].pi_high;
    } else if (all && cs[in->nresponses].total &&
               predict_component(in, &cs[in->nresponses], t->rows[0], &ps[in->nresponses],
                                 &p.held_to_trend, note, sizeof note)) {
        reconcile_components(cs, in->nresponses, ps, &p, note, sizeof note);
    } else if (all) {
        sum_components(cs, in->nresponses, ps, &p, note, sizeof note);
    }
    if (p.extrapolation && all)
        note_add(note, sizeof note,
                 "extrapolation: the target's leverage exceeds every training run's");
    note_history(t, note, sizeof note);
    p.note = note[0] ? note : NULL;
    bool ok = report_add_prediction(out, &p);
    for (size_t i = 0; ok && all && in->nresponses > 1 && i < in->nresponses; i++) {
        report_part part = {ti, (char *)cs[i].response, ps[i].estimate, ps[i].ci_low,
                            ps[i].ci_high, ps[i].pi_low, ps[i].pi_high};
        ok = report_add_part(out, &part);
    }
    return ok;
}

/* ------------------------------------------------------------------ */

bool model_scopred_run(const experiment_input *in, report *out, char *err, size_t errlen)
{
    if (!model_scopred_check_options(&in->camp->runs, in->exp, err, errlen)) {
        experiment_point_at(in, "options", 0);
        return false;
    }
    component *cs = calloc(in->nresponses + 1, sizeof *cs);
    ols_prediction *ps = calloc(in->nresponses + 1, sizeof *ps);
    bool ok = cs && ps;
    if (!ok)
        fail(err, errlen, "out of memory");
    bool reconcile = false, bound = false;
    ok = ok && total_option(in->exp->options, &reconcile, err, errlen) &&
         trend_option(in->exp->options, &bound, err, errlen);
    for (size_t i = 0; ok && i < in->nresponses; i++) {
        cs[i].response = in->responses[i];
        cs[i].trend_bound = bound;
        ok = fit_component(in, &cs[i], err, errlen);
    }
    if (ok && reconcile && in->nresponses > 1 && in->nresponses <= RECONCILE_MAX_PARTS) {
        cs[in->nresponses] = (component){.response = "total", .total = true,
                                         .trend_bound = bound};
        ok = fit_component(in, &cs[in->nresponses], err, errlen);
    }
    /* A refit for the calibration reads the estimates alone: the fit's
     * statistics and diagnostics (a second regression over every run) are
     * left out. */
    if (ok && !in->estimates_only && !(ok = report_fits(in, cs, in->nresponses, out)))
        fail(err, errlen, "out of memory");
    for (size_t t = 0; ok && t < in->ntargets; t++)
        if (!(ok = predict_target(in, cs, t, ps, out)))
            fail(err, errlen, "out of memory");
    /* The fit's term values go to the calibration's refits (the design
     * now belongs to in->designs; keeping it is only a saving). */
    for (size_t i = 0; ok && in->designs && !in->estimates_only && i < in->nresponses; i++) {
        experiment_design_keep(in->designs, cs[i].response, cs[i].f.text, cs[i].f.nterms,
                               cs[i].x);
        cs[i].x = NULL;
    }
    for (size_t i = 0; cs && i <= in->nresponses; i++)
        component_free(&cs[i]);
    free(cs);
    free(ps);
    return ok;
}
