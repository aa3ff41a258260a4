/*
 * scopred.c — formula terms, design matrix and report for ScoPred.
 *
 * The regression itself lives in ols.c; this file is the part the paper
 * adds: "coefficients are automatically added into the equation" — one per
 * top-level term of the user's formula, plus the intercept B0.
 */
#include "models/scopred.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scopred_formula_free(scopred_formula *f)
{
    for (size_t i = 0; i < f->nterms; i++) {
        expr_free(f->terms[i]);
        if (f->names)
            free(f->names[i]);
    }
    free(f->terms);
    free(f->names);
    free(f->first_copy);
    free(f->text);
    memset(f, 0, sizeof *f);
}

static bool out_of_memory(expr_error *err)
{
    if (err) {
        err->column = 0;
        snprintf(err->message, sizeof err->message, "out of memory");
    }
    return false;
}

/* Name every term and find repeats ("(N/P)*log(N) + (N/P)*log(N)"). */
static bool name_terms(scopred_formula *f)
{
    f->names = calloc(f->nterms, sizeof *f->names);
    f->first_copy = calloc(f->nterms, sizeof *f->first_copy);
    if (!f->names || !f->first_copy)
        return false;
    for (size_t i = 0; i < f->nterms; i++) {
        if (!(f->names[i] = expr_to_string(f->terms[i])))
            return false;
        f->first_copy[i] = i;
        for (size_t j = 0; j < i; j++)
            if (strcmp(f->names[i], f->names[j]) == 0) {
                f->first_copy[i] = j;
                break;
            }
    }
    return true;
}

bool scopred_formula_parse(const char *text, scopred_formula *f, expr_error *err)
{
    memset(f, 0, sizeof *f);
    expr *whole = expr_parse(text, err);
    if (!whole)
        return false;
    int n = expr_split_terms(whole, &f->terms);
    expr_free(whole);
    if (n < 0)
        return out_of_memory(err);
    f->nterms = (size_t)n;
    if (!(f->text = strdup(text)) || !name_terms(f))
        return out_of_memory(err);
    return true;
}

typedef struct {
    bool (*known)(void *ctx, const char *name, bool *numeric);
    void *ctx;
    expr_error *err;
} name_check;

static bool check_one_name(void *ctx, const char *name, int column)
{
    name_check *c = ctx;
    bool numeric = false;
    if (c->known(c->ctx, name, &numeric) && numeric)
        return true;
    c->err->column = column;
    if (numeric || !c->known(c->ctx, name, &numeric))
        snprintf(c->err->message, sizeof c->err->message, "unknown column '%.60s'", name);
    else
        snprintf(c->err->message, sizeof c->err->message,
                 "column '%.60s' holds text, a formula needs numbers", name);
    return false;
}

bool scopred_formula_check_names(const scopred_formula *f,
                                 bool (*known)(void *ctx, const char *name, bool *numeric),
                                 void *ctx, expr_error *err)
{
    name_check c = {known, ctx, err};
    for (size_t i = 0; i < f->nterms; i++)
        if (!expr_visit_names(f->terms[i], check_one_name, &c))
            return false;
    return true;
}

bool scopred_formula_eval(const scopred_formula *f, expr_lookup_fn lookup, void *ctx,
                          double *values, expr_error *err)
{
    for (size_t i = 0; i < f->nterms; i++)
        if (!expr_eval_number(f->terms[i], lookup, ctx, &values[i], err))
            return false;
    return true;
}

bool scopred_design(const scopred_formula *f, const table *t, const size_t *rows,
                    size_t nrows, double *x, expr_error *err, size_t *bad_row)
{
    /* A term at a time over the rows (expr_eval_rows, much faster than a
     * row at a time). The row reported is the one a row-by-row walk would
     * stop at: the first row where some term fails, and there its first
     * failing term; so each term is evaluated only up to the row where an
     * earlier one failed. */
    size_t bad = nrows;
    expr_error e;
    for (size_t j = 0; j < f->nterms; j++) {
        size_t done = expr_eval_rows(f->terms[j], t, rows, 0, bad, x + j, f->nterms, &e);
        if (done < bad) {
            bad = done;
            if (err)
                *err = e;
        }
    }
    if (bad < nrows)
        *bad_row = bad;
    return bad == nrows;
}

/* ------------------------------------------------------------------ */
/* Report                                                              */

/* The name of coefficient j: "(Intercept)" or the term's text. */
static const char *coef_name(const scopred_formula *f, size_t j)
{
    return j == 0 ? "(Intercept)" : f->names[j - 1];
}

static bool add_coefs(const scopred_formula *f, const ols_model *m, const char *prefix,
                      report *r)
{
    char name[512];
    for (size_t j = 0; j < m->ncoef; j++) {
        snprintf(name, sizeof name, "%s%s", prefix, coef_name(f, j));
        if (!report_add_coef(r, name, m->coef[j], m->std_error[j], m->t[j], m->p[j],
                             m->aliased[j]))
            return false;
    }
    return true;
}

static bool add_stat(report *r, const char *prefix, const char *name, double value,
                     ols_absence why, const char *text)
{
    char full[128];
    snprintf(full, sizeof full, "%s%s", prefix, name);
    return report_add_stat(r, full, why ? NAN : value, why ? ols_absence_text(why) : text);
}

static bool add_stats(const ols_model *m, const char *prefix, report *r)
{
    char fdf[96];
    snprintf(fdf, sizeof fdf, "on %zu and %zu degrees of freedom", m->f_df1, m->df_resid);
    return add_stat(r, prefix, "r2", m->r2, m->r2_absent, NULL) &&
           add_stat(r, prefix, "adj_r2", m->adj_r2, m->adj_r2_absent, NULL) &&
           add_stat(r, prefix, "f", m->f, m->f_absent, fdf) &&
           add_stat(r, prefix, "f_p", m->f_p, m->f_absent, NULL) &&
           add_stat(r, prefix, "sigma", m->sigma, m->sigma_absent, NULL) &&
           add_stat(r, prefix, "n", (double)m->n, OLS_PRESENT, "training runs") &&
           add_stat(r, prefix, "df_resid", (double)m->df_resid, OLS_PRESENT, NULL);
}

/* Is term i the second copy of a repeated term (the one to warn about)? */
static bool second_copy(const scopred_formula *f, size_t i)
{
    size_t first = f->first_copy[i];
    if (first == i)
        return false;
    for (size_t j = first + 1; j < i; j++)
        if (f->first_copy[j] == first)
            return false;
    return true;
}

/* One warning per distinct repeated term, one per other aliased term. */
static bool add_alias_warnings(const scopred_formula *f, const ols_model *m,
                               const char *prefix, report *r)
{
    char line[640];
    for (size_t i = 0; i < f->nterms; i++) {
        if (second_copy(f, i))
            snprintf(line, sizeof line,
                     "%sterm '%s' appears more than once in the formula: only its first "
                     "copy is estimated, the repeats are aliased", prefix, f->names[i]);
        else if (f->first_copy[i] == i && m->aliased[i + 1])
            snprintf(line, sizeof line,
                     "%sterm '%s' is not defined because of singularities: in the "
                     "training runs it is a linear combination of the estimated terms "
                     "(aliased), so it is left out", prefix, f->names[i]);
        else
            continue;
        if (!report_add_warning(r, line))
            return false;
    }
    if (m->n < m->ncoef) {
        snprintf(line, sizeof line,
                 "%sfewer training runs (%zu) than coefficients (%zu): the trailing terms "
                 "cannot be estimated", prefix, m->n, m->ncoef);
        if (!report_add_warning(r, line))
            return false;
    }
    return true;
}

void scopred_equation(const scopred_formula *f, const ols_model *m, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%.6g", m->coef[0]);
    for (size_t j = 1; j < m->ncoef && used < len; j++) {
        if (m->aliased[j])
            continue;
        double c = m->coef[j];
        const char *t = f->names[j - 1];
        bool bare = strpbrk(t, " +-*/^") == NULL;
        used += (size_t)snprintf(buf + used, len - used, " %c %.6g*%s%s%s",
                                 c < 0 ? '-' : '+', fabs(c), bare ? "" : "(", t,
                                 bare ? "" : ")");
    }
}

bool scopred_report_fit(const scopred_formula *f, const ols_model *m,
                        const char *name_prefix, report *r)
{
    const char *prefix = name_prefix ? name_prefix : "";
    if (!r->model && !report_set_text(&r->model, "scopred"))
        return false;
    if (!name_prefix && !report_set_text(&r->formula, f->text))
        return false;
    char eq[2048];
    scopred_equation(f, m, eq, sizeof eq);
    if (!name_prefix && !report_set_text(&r->equation, eq))
        return false;
    return add_coefs(f, m, prefix, r) && add_stats(m, prefix, r) &&
           add_alias_warnings(f, m, prefix, r);
}

void scopred_prediction_note(const scopred_formula *f, const ols_prediction *p,
                             char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (p->not_estimable)
        used = (size_t)snprintf(buf, len,
                                "term '%s' is aliased in the training runs and this target "
                                "breaks that relation: the term is left out, so the "
                                "estimate is not unique",
                                coef_name(f, p->first_broken));
    if (p->interval_absent && used < len)
        snprintf(buf + used, len - used, "%sno intervals: %s", used ? "; " : "",
                 ols_absence_text(p->interval_absent));
}
