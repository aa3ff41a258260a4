/*
 * termsearch.h — find a ScoPred formula when the user gives none; it
 * always answers, and says how far to trust the answer.
 *
 * Candidate terms are products of per-parameter factors p^i * log2(p)^j
 * with i in {-3, -11/4, ..., -1/4, 0, 1/4, ..., 3} (negative exponents for
 * strong scaling, time falling with p; options may narrow the set) and j in
 * {0, 1, 2}. The error of a model is leave-one-configuration-out
 * cross-validation: runs with the same parameter values are left out
 * together, so repetitions do not vouch for each other and a term that
 * merely fits one configuration's mean gains nothing. The left-out
 * residuals come from the hat matrix ((I - H_GG)^-1 e_G, models/ols.h),
 * without refitting; errors are on the fit's scale (RELATIVE SCALE). The runs
 * are summarised once by configuration (models/termdata.h) and every
 * candidate is scored on the configurations, which gives the runs' own fit
 * and errors: the time grows with configurations times candidates, not
 * runs times candidates. A candidate after the chosen terms costs O(g k)
 * (ols_prefix_loo_sse: the chosen terms factored once, four candidates at
 * a time), and one that a move could not keep is not fitted at all when
 * its residual sum of squares, a lower bound of its LOO error, already
 * rules it out; the errors of the candidates that count are those of a
 * full fit, bit for bit.
 *
 * RELATIVE SCALE (the default, when every configuration's mean response is
 * positive): timing errors are relative (a run of 1000 s scatters by
 * seconds, one of 1 s by milliseconds), so every fit of the search is
 * weighted least squares with each run weighing 1/mean^2 of its
 * configuration (models/ols.h, ols_fit_grouped_weighted), and its errors
 * are relative: the LOO error is the mean squared relative leave-out
 * residual, the significance test the weighted fit's HC3, the nested error
 * relative too. Weighting is a row scaling of the same least squares, so
 * the incremental scoring carries over. Fitted in absolute seconds, a time
 * that falls as 1/p over three decades has its intercept set by the
 * small-p residuals (tens of seconds above targets of a few seconds);
 * weighted, every configuration counts by its relative error. The weights
 * are the configurations' means, not the runs' own values (a run slower
 * by chance would weigh less); the caller fits the chosen formula with
 * the same weights (termsearch_result.run_weight). With options scale =
 * TERMSEARCH_ABSOLUTE, or a response not positive everywhere, the search
 * is plain least squares in the response's units (as before: the hand-
 * derived absolute cases of test_termsearch.c). On the relative scale the
 * valley of a product's exponents runs diagonally (N^2.5*P^-0.75*Q^-0.75
 * is a local optimum of single-factor moves on Linpack's N^3/(P*Q)), so
 * the local search also steps two factors' exponents by a quarter at once.
 *
 * Three outcomes (termsearch_kind):
 *
 * SEARCHED — more than TERMSEARCH_FEW_CONFIGS configurations: terms are
 * added one at a time. For each new term, the two best single factors of
 * every parameter start a local search that multiplies in a factor of
 * another parameter, replaces a factor by another of the same parameter,
 * or drops one, or steps two of its factors' exponents by a quarter each
 * (RELATIVE SCALE), while that lowers the error; so N*P^(-1) and
 * N^3*P^(-1)*Q^(-1) are reachable without trying every product. A change
 * of shape must lower the error by 1%, so near ties go to the simpler
 * shape (whole powers before halves before quarters, fewer logs). A term
 * is added while it lowers the error by at least min_gain and its
 * coefficient is significant at alpha after a Bonferroni correction for
 * the candidates tried for it, with a heteroscedasticity-consistent (HC3)
 * standard error: searching hundreds of shapes, one of them would
 * otherwise fit the noise. Nor is a term added that would make the model
 * predict zero or less at a point of positive_at (see RESTRICTED): the
 * search stops there and says so.
 *
 * Once a term is added, the terms chosen before it are searched again,
 * each in turn with the others fixed, by the same moves from its own shape
 * (1% again), until a pass changes none: sequential replacement (Miller,
 * Subset Selection in Regression, 2nd ed. 2002, section 3.3). Forward
 * selection alone keeps its first terms for good: on T = N/P + P its
 * first term is N*log2(N)*P^(-1) (better alone than N/P), which the later
 * terms then patch with products of odd powers, five terms where two
 * generate the data. Replacement keeps the number of terms and never makes
 * a positive_at prediction zero or less. Nor can it change two terms at
 * once, and a sum a + b of two parameters' factors is often first taken
 * as one product (on T = N^2/p + sqrt(p) + M: p^0.5*M^0.25). So, as
 * Extra-P weighs additive against multiplicative combinations of its
 * single-parameter terms, a chosen product is then split into two terms a
 * factor apart when that passes a new term's tests (the LOO error falls by
 * min_gain, the new term is significant corrected for the splits tried, no
 * time turns negative), and replacement runs again.
 * tests/test_termsearch_recovery.c measures what this recovers.
 *
 * RESTRICTED — few configurations (3 to TERMSEARCH_FEW_CONFIGS), where no
 * Bonferroni-corrected test over hundreds of shapes can pass, or a full
 * search that found no significant term: one term from a restricted
 * family, c + a*t with t = p^i*log2(p)^j of one parameter or, with two or
 * more parameters, a product p^i*q^k (whole and half exponents, at most
 * one log) of two. Each is scored by its leave-one-configuration-out mean
 * squared error times exp(2k/g) (k coefficients, g configurations: the
 * AIC penalty per configuration, which grows as configurations get few);
 * the lowest wins, the constant model among them, simpler shapes first
 * and a later one must be 1% better. When every configuration's mean
 * response is positive (a time) and the caller gives the points it will
 * predict (options positive_at: the targets), a law that, fitted on every
 * configuration, predicts zero or less at one of them is not chosen: with
 * 3 to 5 configurations a steep term can fit a dip and extrapolate it below
 * zero, and no time is negative (the constant, the mean of positive
 * responses, always qualifies). Low confidence either way: "few points:
 * low confidence", or "low confidence: no term passed the full search"
 * (termsearch_confidence).
 *
 * With selection = TERMSEARCH_SELECT_FORWARD the restricted family is
 * scored by forward folds instead, with the same penalty: for each usable
 * parameter, fit on the configurations up to one of its values and predict
 * those at its next larger value, from the smallest training set that can
 * fit every member of the family (2 configurations, 3 with products of two
 * parameters) up to the largest; the error is the mean squared error of
 * the predicted runs over all folds. Leave-one-out judges a law by how it
 * predicts each configuration from all the others, so a steep term that
 * fits a dip at the largest configuration can win; forward folds judge it
 * by how it extrapolates, which is what a prediction beyond the training
 * range asks of it (see test_termsearch.c for a hand-derived case). Not
 * the default: on held-back data it removed the worst extrapolations but
 * raised the median error (tests/fixtures/public/README.md).
 *
 * CONSTANT — the last resort (no usable parameter, fewer than 3
 * configurations, or no term beats the mean): formula "1", the mean of
 * the training runs, and why says so.
 *
 * AVERAGED LAWS. Betting on one law makes intervals either wrong or blown
 * up when several explain the training data about equally well, so the
 * result also lists the laws to average (laws, nlaws). The candidates: for
 * SEARCHED, the model and each model without one of its terms (the
 * intercept alone after one term); for the restricted family (RESTRICTED,
 * or CONSTANT chosen there), its LAW_SLOTS = TERMSEARCH_MAX_LAWS + 1 best
 * laws, the constant among them, those that predict zero or less at a
 * positive_at point left out; in both, the free power law (FREE POWER
 * LAW). Each gets the Akaike-type weight
 * exp(-(g/2) ln(e / e_min)), normalised, where e is the law's criterion
 * (the leave-one-configuration-out mean squared error on the search's
 * scale; for the restricted family penalised by exp(2k/g), which makes the
 * weight exp(-AIC/2) with the LOO error in place of the fitted variance)
 * and g the configurations (the LOO leaves configurations out: they are
 * the sample). Kept: the chosen law first, then the others of weight
 * TERMSEARCH_LAW_MIN_WEIGHT (0.05) or more, heaviest first, at most
 * TERMSEARCH_MAX_LAWS (4) in all, renormalised; the chosen law alone when
 * it takes TERMSEARCH_ONE_LAW (0.95) or more. These were fixed before the
 * average was measured anywhere. The caller predicts with the weighted
 * mean and widens its interval by the laws' spread at the target
 * (gen/fit/model_scopred.c). nested_rmse is the chosen law's alone.
 *
 * FREE POWER LAW. The quarter steps cannot say np^(-0.52), and a strong-
 * scaling time often falls by such an exponent. So, on the relative scale
 * and with the default exponents (not with option exponents, which narrow
 * the candidates), one more candidate law is
 * c + a*p1^k1*...*pq^kq over every usable parameter (at most
 * TERMDATA_MAX_FACTORS), its exponents free (models/powerlaw.h: least
 * squares of ln(mean) on the ln(p) — a power law is a line on the log
 * scale, where a time's errors are relative — rounded to 0.01 and within
 * +-3; then c and a by the search's weighted least squares, the fit the
 * caller repeats on the formula text np^(-0.52)). Its criterion is the
 * leave-one-configuration-out error with the exponents refitted in every
 * fold (up to POWERLAW_EXACT_LOO_MAX configurations), so a fitted exponent
 * gains nothing from the configuration it predicts; in the restricted
 * family with selection = TERMSEARCH_SELECT_FORWARD, its forward-fold
 * error, the law (exponents too) refitted on each fold's smaller
 * configurations (it needs one more than its parameters). It competes through
 * the same selection and the same average as every other law: in the
 * restricted family with its penalty exp(2k/g), k = 2 + q (c, a and each
 * exponent); after a full search beside the searched model and its
 * sub-models, unpenalised like them. It becomes the chosen model when its
 * criterion beats the best by 1% (MOVE_GAIN: the searched or restricted
 * laws keep a near tie) and it predicts a positive time at every
 * positive_at point; else it is averaged in by its weight like the others.
 * No threshold of it was set after scoring any data.
 *
 * Selection is reported honestly: nested_rmse is the error of the whole
 * procedure, searched again within each of nested_folds folds of
 * configurations and scored on the configurations it did not see; the
 * loo_rmse of the chosen model is the selection criterion itself and
 * flatters it. The fitted formula's p-values are post-selection.
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

#include "models/termdata.h"

/* Default relative fall of the LOO error a term must bring to be added. */
#define TERMSEARCH_MIN_GAIN 0.05
/* Default significance of an added term, before the Bonferroni correction. */
#define TERMSEARCH_ALPHA 0.05
/* At most this many configurations: the restricted family. */
#define TERMSEARCH_FEW_CONFIGS 5
/* Default folds of configurations for the nested cross-validation; above
 * TERMSEARCH_MANY_CONFIGS configurations two (each a search on half of
 * them: the nested error then costs one more search, not four, and with
 * that many configurations the selection's optimism is small anyway). */
#define TERMSEARCH_NESTED_FOLDS 5
#define TERMSEARCH_MANY_CONFIGS 500

/* Most terms a caller may ask for (termsearch_options.max_terms; a larger
 * request is taken as this). Beyond a handful of terms a fitted law of
 * scaling runs is a fit of their noise, and every term must pass its own
 * Bonferroni-corrected test anyway; the bound keeps the search's buffers,
 * sized by it, small whatever a caller passes. */
#define TERMSEARCH_MAX_TERMS 10

/* The average of laws (AVERAGED LAWS): at most this many laws, each of at
 * least this weight, and one law alone when it takes this much. */
#define TERMSEARCH_MAX_LAWS 4
#define TERMSEARCH_LAW_MIN_WEIGHT 0.05
#define TERMSEARCH_ONE_LAW 0.95

/* One law of the average. */
typedef struct {
    char *formula;    /* its formula ("1": the constant) */
    size_t nterms;
    double weight;    /* its share of the prediction; the weights sum to 1 */
    double criterion; /* its score (LOO mean squared error, penalised for the
                         restricted family; NAN for a law alone) */
} termsearch_law;

/* How the restricted family is scored (zero: the default). */
typedef enum {
    TERMSEARCH_SELECT_LOO,     /* leave-one-configuration-out error */
    TERMSEARCH_SELECT_FORWARD  /* forward (extrapolation) folds */
} termsearch_selection;

/* The scale the search fits and scores on (zero: the default). */
typedef enum {
    TERMSEARCH_RELATIVE, /* runs weighted by 1/mean^2 of their configuration
                            (when every mean is positive; else absolute) */
    TERMSEARCH_ABSOLUTE  /* plain least squares in the response's units */
} termsearch_scale;

typedef struct {
    size_t max_terms;   /* most terms in the formula; 0 = 3; at most
                           TERMSEARCH_MAX_TERMS */
    double min_gain;    /* relative fall of the LOO mean squared error needed
                           to add a term; 0 = TERMSEARCH_MIN_GAIN */
    double alpha;       /* significance level of an added term; 0 = TERMSEARCH_ALPHA */
    int quarters[2 * TERMDATA_MAX_QUARTERS + 1]; /* candidate exponents times 4 */
    size_t nquarters;   /* 0 = every quarter from -3 to 3 */
    size_t nested_folds;/* 0 = TERMSEARCH_NESTED_FOLDS (2 above
                           TERMSEARCH_MANY_CONFIGS); 1 = no nested error */
    termsearch_selection selection; /* criterion of the restricted family */
    const double *positive_at; /* npositive_at points (row-major, one value per
                                  parameter, in the search's order) where a
                                  positive response must stay positive: see
                                  RESTRICTED; NULL: none */
    size_t npositive_at;
    termsearch_scale scale; /* see RELATIVE SCALE */
} termsearch_options;

typedef enum {
    TERMSEARCH_SEARCHED,   /* the full search chose the terms */
    TERMSEARCH_RESTRICTED, /* one term of the restricted family: low confidence */
    TERMSEARCH_CONSTANT    /* the mean alone: formula "1" */
} termsearch_kind;

typedef struct {
    char *formula;        /* the chosen formula ("1" for CONSTANT); NULL only
                             with failure */
    size_t nterms;        /* 0 for CONSTANT */
    termsearch_kind kind;
    size_t nconfigs;      /* training configurations */
    double loo_rmse;      /* root mean squared LOO error of the chosen model:
                             the selection criterion (but for a RESTRICTED
                             law chosen by forward folds), optimistic */
    double base_loo_rmse; /* the same for the intercept alone */
    double nested_rmse;   /* the whole search's error on configurations it
                             did not see (NAN when not computed) */
    size_t nested_folds;  /* folds behind nested_rmse (0: not computed) */
    size_t ncandidates;   /* candidate terms considered */
    termsearch_selection selection; /* how a RESTRICTED law was scored */
    bool relative;        /* fitted and scored on the relative scale: the
                             RMSEs above are fractions of the time (0.05 =
                             5%), and the formula is to be fitted with
                             run_weight */
    double *run_weight;   /* n: each run's weight, 1/mean^2 of its
                             configuration, when relative; else NULL */
    termsearch_law laws[TERMSEARCH_MAX_LAWS]; /* AVERAGED LAWS: laws[0] is
                             the chosen formula; nlaws 1 when it alone */
    size_t nlaws;
    char why[512];        /* one line: why this outcome (names the real cause
                             when a term was refused) */
    const char *failure;  /* NULL unless nothing could be searched (no runs) */
} termsearch_result;

/* Parse comma-separated candidate exponents ("-1,-0.5,0.5,1,2") into opt.
 * Each must be a multiple of 1/4 from -3 to 3. False with a message naming
 * the bad value. */
bool termsearch_parse_exponents(const char *text, termsearch_options *opt, char *err,
                                size_t errlen);

/* Search terms over m parameters named names[m], with values params
 * (row-major n x m) and responses y[n]. Parameters with a value <= 0 or a
 * single value are not used. opt may be NULL for the defaults. Returns
 * false only when out of memory (out is then empty); with n == 0 it
 * returns true with out->failure set, else out->formula is set. */
bool termsearch_run(const char *const *names, const double *params, size_t n, size_t m,
                    const double *y, const termsearch_options *opt, termsearch_result *out);

/* How far to trust r: "searched", "few points: low confidence", "low
 * confidence: no term passed the full search" or "constant model: no term
 * helps". A static string. */
const char *termsearch_confidence(const termsearch_result *r);

void termsearch_free(termsearch_result *r);

#endif
