/*
 * termdata.h — the data a term search works on: runs summarised by
 * configuration, and the candidate factors p^i * log2(p)^j tabulated at
 * every distinct value of their parameter.
 *
 * A configuration is a set of runs with the same parameter values
 * (repetitions); it is kept as its run count, mean response and the sum of
 * squared deviations from that mean, which is all a least-squares fit of
 * terms of the parameters needs (models/ols.h, ols_fit_grouped). The value
 * of a product term at a configuration is a product of table look-ups, so
 * scoring a candidate costs O(configurations), whatever the runs.
 *
 * A subset (termdata_subset) keeps some configurations and shares the
 * parent's factor tables: the parent must outlive it.
 *
 * Ownership: termdata_build and termdata_subset fill a termdata the caller
 * releases with termdata_free. No I/O, no global state.
 */
#ifndef PERFCAST_TERMDATA_H
#define PERFCAST_TERMDATA_H

#include <stdbool.h>
#include <stddef.h>

#define TERMDATA_MAX_QUARTERS 12  /* exponents from -3 to 3 in steps of 1/4 */
#define TERMDATA_MAX_LOG_POWER 2
#define TERMDATA_MAX_FACTORS 4    /* parameters in one product term */

typedef struct {
    size_t param;
    int quarters;  /* exponent i = quarters / 4, |quarters| <= TERMDATA_MAX_QUARTERS */
    int log_power; /* j, 0..TERMDATA_MAX_LOG_POWER */
} term_factor;

typedef struct {
    term_factor f[TERMDATA_MAX_FACTORS];
    size_t nf;
} term_shape;

typedef struct {
    size_t n, m;          /* runs, parameters */
    size_t g;             /* configurations */
    double *count, *mean, *within; /* g each */
    double *weight;       /* g: the weight of each run of the configuration in
                             every fit: 1, or 1/mean^2 after
                             termdata_weigh_relative */
    size_t *config;       /* n: each run's configuration (NULL for a subset) */
    size_t *level;        /* g x m: each parameter's value as an index into
                             its distinct values */
    bool *usable;         /* m: every value positive and finite, and more
                             than one distinct value among these configurations */
    size_t *nlevels;      /* m: distinct values of each parameter (whole data) */
    double **value_at;    /* m: those values */
    double **factor_at;   /* m tables of every factor at every distinct value */
    bool owns_tables;     /* false for a subset */
} termdata;

/* Summarise n runs of m parameters (params row-major n x m) with responses
 * y. Returns false when out of memory (t is then safe to free). */
bool termdata_build(const double *params, size_t n, size_t m, const double *y, termdata *t);

/* Weigh every run by 1/mean^2 of its configuration, so that fits and
 * errors are relative (a time's errors grow with it). False, the weights
 * left at 1, when some configuration's mean is not positive (not a time). */
bool termdata_weigh_relative(termdata *t);

/* The configurations of all for which keep[c] is true (their weights too). False when out of
 * memory. */
bool termdata_subset(const termdata *all, const bool *keep, termdata *sub);

void termdata_free(termdata *t);

/* Values of shape s at every configuration into out (g values); false when
 * one is not finite or all are equal (the intercept already covers it). */
bool termdata_values(const termdata *t, const term_shape *s, double *out);

/* termdata_values of a shape with factor f multiplied in after its
 * others, from values, those of the shape without f (for which
 * termdata_values returned true): the same values bit for bit (the same
 * products in the same order) in one multiplication a configuration. */
bool termdata_values_times(const termdata *t, const double *values, const term_factor *f,
                           double *out);

/* Value of shape s at one point (point[p]: parameter p's value), computed
 * as the tables compute it; NAN when it is not finite. */
double term_shape_value(const term_shape *s, const double *point);

/* How unusual a factor is: whole powers, then halves, then quarters, each
 * with more log factors later; then the size of the exponent. */
int term_factor_complexity(const term_factor *f);

/* Factors ordered by parameter, then complexity (qsort comparator). */
int term_factor_compare(const void *a, const void *b);

/* Append " + " (unless buf is empty) and the text of one term in
 * perfcast's expression syntax (N*P^(-1)*log2(P)^2), factors in parameter
 * order. */
void term_shape_append(char *buf, size_t len, const char *const *names, const term_shape *s);

#endif
