/*
 * scopred.h — ScoPred (Lafreniere & Sodan): the user's complexity formula
 * becomes a linear model with one coefficient per top-level term plus an
 * intercept, fitted by least squares (models/ols.h) on every training run.
 *
 *   formula "N^3/(3*P*Q) + N*log(P)"  ->  T = b0 + b1*N^3/(3*P*Q) + b2*N*log(P)
 *
 * This module turns formula text into terms, evaluates them over rows into
 * a design matrix, and writes a fitted model into a report (coefficients
 * named by their term text, "(Intercept)" first; R², adjusted R², F and
 * its p-value, residual standard error, n, residual degrees of freedom,
 * each with the reason when it cannot exist; warnings for duplicate and
 * aliased terms).
 *
 * Ownership: scopred_formula_parse fills a formula the caller releases with
 * scopred_formula_free (also after a failed parse). Functions that write
 * into caller buffers say how large they must be. No I/O, no global state.
 */
#ifndef PERFCAST_SCOPRED_H
#define PERFCAST_SCOPRED_H

#include <stdbool.h>
#include <stddef.h>
#include "models/expr.h"
#include "models/ols.h"
#include "models/report.h"
#include "models/table.h"

typedef struct {
    char *text;          /* the formula as given */
    size_t nterms;
    expr **terms;        /* top-level additive terms, in formula order */
    char **names;        /* canonical text of each term (expr_to_string) */
    size_t *first_copy;  /* index of the first term with the same text:
                            i itself unless term i repeats an earlier one */
} scopred_formula;

/* Parse a formula and split it into terms. Returns false with a positioned
 * err on a syntax error (err->column is 1-based in text) or out of memory
 * (err->column 0). */
bool scopred_formula_parse(const char *text, scopred_formula *f, expr_error *err);

void scopred_formula_free(scopred_formula *f);

/* Check that every name in the formula is known: known(ctx, name) returns
 * whether it is a numeric column. Returns false with err at the first
 * unknown name ("unknown column 'X'") or a text column. */
bool scopred_formula_check_names(const scopred_formula *f,
                                 bool (*known)(void *ctx, const char *name, bool *numeric),
                                 void *ctx, expr_error *err);

/* Evaluate every term for one row into values[nterms]. Returns false with
 * err positioned in the formula text (division by zero, log of 0, a missing
 * value, a text column). */
bool scopred_formula_eval(const scopred_formula *f, expr_lookup_fn lookup, void *ctx,
                          double *values, expr_error *err);

/* Evaluate the terms over rows[nrows] of t into the row-major matrix
 * x[nrows * nterms]. On failure returns false, fills err and sets *bad_row
 * to the index (into rows) of the row that failed. */
bool scopred_design(const scopred_formula *f, const table *t, const size_t *rows,
                    size_t nrows, double *x, expr_error *err, size_t *bad_row);

/* Write the fitted model into r: formula, equation, coefficients (term
 * text, "(Intercept)" first; aliased ones flagged, NAN), the stats r2,
 * adj_r2, f, f_p, sigma, n, df_resid (NAN with the reason when absent) and
 * a warning per duplicate or aliased term. name_prefix, when not NULL,
 * is put before every coefficient and stat name ("time_setup_s: " for a
 * component). Returns false only when out of memory. */
bool scopred_report_fit(const scopred_formula *f, const ols_model *m,
                        const char *name_prefix, report *r);

/* The fitted equation "b0 + b1*(term) - b2*(term)" (estimable terms only,
 * six significant digits) into buf; truncated to len. */
void scopred_equation(const scopred_formula *f, const ols_model *m, char *buf, size_t len);

/* One line describing why a prediction has no intervals, or that it is not
 * estimable, into buf (at least 256 bytes advised). Empty when neither. */
void scopred_prediction_note(const scopred_formula *f, const ols_prediction *p,
                             char *buf, size_t len);

#endif
