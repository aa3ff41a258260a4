/*
 * termsearch.h — find a ScoPred formula when the user gives none.
 *
 * Candidate terms are products of per-parameter factors p^i * log2(p)^j
 * with i in {-3, -11/4, ..., -1/4, 0, 1/4, ..., 3} (negative exponents for
 * strong scaling, time falling with p) and j in {0, 1, 2}. Terms are added
 * one at a time. For each new term, the two best single factors of every
 * parameter start a local search that multiplies in a factor of another
 * parameter, replaces a factor by another of the same parameter, or drops
 * one, while that lowers the error; so N*P^(-1) and N^3*P^(-1)*Q^(-1) are
 * reachable without trying every product. A change of shape must lower the
 * error by 1%, so near ties go to the simpler shape (whole powers before
 * halves before quarters, fewer logs). A term is added while it lowers the error
 * by at least min_gain and its coefficient is significant at 5% after a
 * Bonferroni correction for the candidates tried for it, with a
 * heteroscedasticity-consistent (HC3) standard error: searching hundreds
 * of shapes, one of them would otherwise fit the noise.
 *
 * The error is leave-one-configuration-out cross-validation: runs with the
 * same parameter values are left out together, so repetitions do not vouch
 * for each other and a term that merely fits one configuration's mean
 * gains nothing. The left-out residuals come from the hat matrix
 * ((I - H_GG)^-1 e_G, models/ols.h), without refitting. Errors are
 * absolute, as the least-squares fit itself weighs them. The runs are
 * summarised once by configuration (count, mean, spread) and every
 * candidate is fitted on the configurations (ols_fit_grouped), which gives
 * the runs' own fit and errors: the time grows with configurations times
 * candidates, not runs times candidates.
 *
 * The result is formula text in perfcast's expression syntax, to be fitted
 * like any user formula (models/scopred.h).
 *
 * Ownership: termsearch_run fills a termsearch_result the caller releases
 * with termsearch_free. No I/O, no global state.
 */
#ifndef PERFCAST_TERMSEARCH_H
#define PERFCAST_TERMSEARCH_H

#include <stdbool.h>
#include <stddef.h>

/* Default relative fall of the LOO error a term must bring to be added. */
#define TERMSEARCH_MIN_GAIN 0.05

typedef struct {
    size_t max_terms; /* most terms in the formula; 0 = 3 */
    double min_gain;  /* relative fall of the LOO mean squared error needed
                         to add a term; 0 = TERMSEARCH_MIN_GAIN */
} termsearch_options;

typedef struct {
    char *formula;        /* the chosen formula; NULL when none was found */
    size_t nterms;
    double loo_rmse;      /* root mean squared LOO error of the chosen model */
    double base_loo_rmse; /* the same for the intercept alone */
    size_t ncandidates;   /* candidate terms considered */
    const char *failure;  /* NULL when a formula was found; else why not */
} termsearch_result;

/* Search terms over m parameters named names[m], with values params
 * (row-major n x m) and responses y[n]. Parameters with a value <= 0 or a
 * single value are not used. opt may be NULL for the defaults. Returns
 * false only when out of memory (out is then empty); a search that finds
 * nothing returns true with out->failure set. */
bool termsearch_run(const char *const *names, const double *params, size_t n, size_t m,
                    const double *y, const termsearch_options *opt, termsearch_result *out);

void termsearch_free(termsearch_result *r);

#endif
