/*
 * site_advice_pi.h — the uncertainty of an advice option's time: a
 * calibrated 95% interval and a verdict, from what the archive knows about
 * predictions made the same way.
 *
 *   - A time from the strip model on one cluster (or the multi-cluster
 *     model on two) takes the interval `perfcast advise` gives the option
 *     (advise_option.time_low, time_high and interval; gen/advice/advise.h:
 *     the pooled strip width at the option's distance beyond its cluster's
 *     training runs, or the multi-cluster model's own interval from its
 *     parts, gen/fit/multicluster_pi.h), so that the page and the command
 *     print one interval for one configuration. Its verdict is that of the
 *     experiments that predict with that model on that cluster (for a
 *     split: a multi-cluster experiment on either cluster, else the worse
 *     of the two sides' strip experiments), taken at their prediction with
 *     the most processes, since advice asks about large jobs; never
 *     "reliable" when the option has more processes than that prediction
 *     had: the model was not tested that far. Without such an experiment,
 *     "not verified".
 *   - A time a paper printed takes the interval that the paper's other
 *     printed predictions of the same campaign give (models/ratio_interval.h,
 *     the option's own row left out); its verdict is "not verified", since
 *     no model of perfcast's checks it.
 *   - Otherwise none: NAN bounds, "not verified", and the reason.
 *
 * Ownership: fills the caller's struct; nothing is allocated.
 */
#ifndef PERFCAST_SITE_ADVICE_PI_H
#define PERFCAST_SITE_ADVICE_PI_H

#include "gen/advice/advise.h"
#include "gen/fit/verdict.h"
#include "gen/site/site_data.h"
#include "gen/site/site_notes.h"

typedef struct {
    double low, high;      /* calibrated 95% PI of the option's time, NAN when none */
    verdict_level verdict;
    char basis[1600];      /* where the interval and the verdict came from, and the
                              width's source where the archive's pool shaped it */
} site_advice_pi;

/* The interval and verdict of option o of a scenario whose code is `code`
 * (advice_scenario.code; NULL: runs without a code). */
void site_advice_pi_of(const site_data *d, const char *code, const advise_option *o,
                       site_advice_pi *out);

/* The option's cost interval, in proportion to its time interval (the
 * same processes for longer cost more): "0.12 units – 0.31 units"; "—"
 * when the time, the cost or the interval is unknown. */
void site_advice_pi_cost(const advise_option *o, const site_advice_pi *pi, rbuf *out);

/* Where the option's time and interval came from, for its table cell: its
 * source, then "; no model [k]" and "; interval [j]", the notes (why no
 * model applied; where the interval and verdict came from) added to notes
 * so that the page says each once. */
void site_advice_pi_source(const advise_option *o, const site_advice_pi *pi, site_notes *notes,
                           rbuf *cell);

#endif
