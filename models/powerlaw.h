/*
 * powerlaw.h — the power law with free exponents, T = c + a * p1^k1 * ...
 * * pq^kq over a term search's usable parameters, as one candidate law of
 * the term search (models/termsearch.h, FREE POWER LAW).
 *
 * The quarter-step alphabet cannot say np^(-0.52); a strong-scaling time
 * often falls by such an exponent. Method, in two least-squares steps:
 *
 *  1. the exponents k1..kq: ordinary least squares of ln(mean) on ln(p1),
 *     ..., ln(pq) over the configurations, each weighing its run count
 *     (a fit on the log scale, where a time's errors are relative: a
 *     pure power law a * p^k is a straight line there); each rounded to a
 *     multiple of 1/POWERLAW_STEPS, so the formula text is the law that was scored;
 *  2. c and a: the weighted least squares of the search at those
 *     exponents (each run weighing its configuration's weight, 1/mean^2
 *     on the relative scale: termdata.h), the fit the caller repeats on
 *     the formula text (its formulas always have an intercept: c near 0
 *     is the pure power law a * p^k).
 *
 * The exponents are fitted, so a leave-one-configuration-out error at
 * fixed exponents would flatter the law. powerlaw_loo_error refits both
 * steps without each configuration in turn (up to POWERLAW_EXACT_LOO_MAX
 * configurations; above, where one fitted exponent among so many
 * configurations flatters little, the exponents of the full fit are kept
 * and the hat matrix gives the error of step 2, as for every other
 * candidate: the cost stays O(configurations)).
 *
 * Not a candidate (false, or INFINITY for the error): a configuration mean
 * not positive (no logarithm), fewer configurations than parameters + 1,
 * no usable parameter or more than
 * TERMDATA_MAX_FACTORS, an exponent beyond +-POWERLAW_MAX_EXPONENT (the
 * alphabet's range) or every exponent rounded to 0 (the constant), a
 * coefficient not estimable.
 *
 * Ownership: a powerlaw is a plain value; nothing to release. No I/O, no
 * global state.
 */
#ifndef PERFCAST_POWERLAW_H
#define PERFCAST_POWERLAW_H

#include <stdbool.h>
#include <stddef.h>

#include "models/termdata.h"

/* Exponents are rounded to multiples of 1/POWERLAW_STEPS (finer than any
 * scaling data of a few process counts resolve; the text "-0.52" reads
 * back as the same double) and bounded by +-POWERLAW_MAX_EXPONENT. */
#define POWERLAW_STEPS 100
#define POWERLAW_MAX_EXPONENT 3.0
/* Up to this many configurations the LOO error refits the exponents (a
 * cost choice, fixed before any scoring: scaling data of tens of process
 * counts get the exact refits; at 200 configurations they would cost a
 * third of the search, make bench's 2,000-row case). */
#define POWERLAW_EXACT_LOO_MAX 64

typedef struct {
    size_t nparams;                         /* q, 1..TERMDATA_MAX_FACTORS */
    size_t param[TERMDATA_MAX_FACTORS];     /* their indexes in the termdata */
    double exponent[TERMDATA_MAX_FACTORS];  /* k_j, multiples of 1/POWERLAW_STEPS */
    double intercept, scale;                /* c and a */
} powerlaw;

/* Fit the law on the configurations c of d with keep[c] (NULL: all), over
 * d's usable parameters. False when it is not a candidate (see above) or
 * out of memory (*nomem set). */
bool powerlaw_fit(const termdata *d, const bool *keep, powerlaw *out, bool *nomem);

/* Add the squared errors of the law's predictions for the runs of the
 * configurations c of d (or of a termdata sharing the tables of the one
 * it was fitted on: termdata_subset) with held[c] to *sse, each weighing its
 * configuration's weight (within-configuration spread included), and
 * their count to *runs. False when a prediction is not finite. */
bool powerlaw_add_errors(const termdata *d, const powerlaw *pl, const bool *held, double *sse,
                         size_t *runs);

/* c + a * p1^k1 * ... at point (one value per parameter of d, in d's
 * order); NAN when not finite. */
double powerlaw_value(const powerlaw *pl, const double *point);

/* The leave-one-configuration-out mean squared error of the whole fit per
 * run, on d's weights (the term search's loo error: sum over the left-out
 * runs of weight * squared residual, divided by the runs). INFINITY when
 * the law is not a candidate in some fold; *nomem set when out of memory. */
double powerlaw_loo_error(const termdata *d, bool *nomem);

/* Append " + " (unless buf is empty) and the law's term in perfcast's
 * expression syntax: np^(-0.52)*s^1.5 (exponents without trailing zeros). */
void powerlaw_append(char *buf, size_t len, const char *const *names, const powerlaw *pl);

#endif
