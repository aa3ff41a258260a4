/*
 * regdiag.h — checks of the regression assumptions that ScoPred left as
 * future work ("automatic checking of whether the assumptions regarding
 * the error term hold"): normal residuals (Shapiro–Wilk), constant variance
 * (studentized Breusch–Pagan), and runs that sway the fit (Cook's distance),
 * plus the paper's own F test of significance. Each becomes a one-line
 * verdict for the report.
 *
 * Tests are at the 5% level. Normality and constant variance need at least
 * 3 residual degrees of freedom (with fewer, residuals are nearly
 * determined by the design and the tests have no power). Every check that
 * cannot be done says why (too few residual degrees of freedom, an exact
 * fit) instead of printing a number.
 *
 * Ownership: regdiag_run fills a regdiag_result the caller releases with
 * regdiag_free (also after a failure). No I/O, no global state.
 */
#ifndef PERFCAST_REGDIAG_H
#define PERFCAST_REGDIAG_H

#include <stdbool.h>
#include <stddef.h>
#include "models/ols.h"

#define REGDIAG_ALPHA 0.05

/* Shapiro–Wilk W and its p-value for a sample of 3 to 5000 values
 * (Royston 1995, algorithm AS R94, as R's shapiro.test). Returns false
 * when n is out of range, the values are all equal, or out of memory. */
bool regdiag_shapiro_wilk(const double *x, size_t n, double *w, double *p);

typedef struct {
    /* Normality of the residuals (Shapiro–Wilk). */
    const char *normality_skipped; /* NULL when checked; else why not */
    double sw_w, sw_p;

    /* Constant variance: n*R^2 of the squared residuals regressed on the
     * same terms (Koenker's studentized Breusch–Pagan), chi-square. */
    const char *variance_skipped;
    double bp, bp_p;
    size_t bp_df;

    /* Cook's distance of every run; a run is influential when D exceeds
     * the median of F(rank, n-rank), R's influence.measures() rule. */
    const char *influence_skipped;
    size_t n;
    double *cooks;       /* n values; NAN for a run with leverage 1 */
    bool *influential;   /* n flags (a run with leverage 1 counts) */
    size_t ninfluential;
    size_t worst;        /* the run with the largest D (or leverage 1) */
} regdiag_result;

/* Run every check on a fitted model; x is the row-major n x k term matrix
 * the model was fitted on. Returns false only when out of memory. */
bool regdiag_run(const ols_model *m, const double *x, size_t k, regdiag_result *out);

void regdiag_free(regdiag_result *r);

/* One-line verdicts, written into buf (256 bytes is enough).
 * For the influence verdict, runs are named "<label_word> <labels[i]>"
 * (e.g. "line 12") when labels is not NULL, else "run <i+1>". */
void regdiag_normality_verdict(const regdiag_result *r, char *buf, size_t len);
void regdiag_variance_verdict(const regdiag_result *r, char *buf, size_t len);
void regdiag_influence_verdict(const regdiag_result *r, const long *labels,
                               const char *label_word, char *buf, size_t len);
void regdiag_significance_verdict(const ols_model *m, char *buf, size_t len);

#endif
