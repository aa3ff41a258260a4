/*
 * acknowledgements.h — the archive's optional acknowledgements.csv: alerts
 * a person has looked at and explained, so that the site lists them apart
 * ("Acknowledged") and keeps them out of the feed and the alert count.
 *
 *   acknowledgements.csv: campaign,experiment,configuration,who,why,until
 *     campaign, experiment  a loaded campaign and one of its experiments
 *     configuration  `*` (every configuration the experiment predicts) or
 *                    identifying values as a person writes them,
 *                    `column=value` separated by spaces or commas
 *                    (`cluster=ci-2core np=16`): the configurations whose
 *                    runs have all those values; numeric columns compare
 *                    as numbers (`np=16` matches 16 and 16.0)
 *     who, why       who acknowledged it and why (required)
 *     until          YYYY-MM-DD: runs dated up to and including that day are
 *                    covered; a configuration with a run dated later is
 *                    alerted again (runs without a date are covered). The
 *                    day is compared with the runs' dates, never with the
 *                    clock, so a build does not change from one day to the
 *                    next.
 *
 * Every problem is recorded at its FILE:LINE:COL and the row is left out:
 * an unknown campaign or experiment, a column that is not one of the
 * campaign's identifying columns, a value that is not a number in a
 * numeric column, a configuration that matches no run of the campaign,
 * a bad date, an empty who or why. A missing file is no acknowledgement.
 *
 * Ownership: acknowledgements_load fills a list that acknowledgements_free
 * releases, in every case; acknowledgements_find returns a pointer into the
 * list (or NULL).
 */
#ifndef PERFCAST_ACKNOWLEDGEMENTS_H
#define PERFCAST_ACKNOWLEDGEMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/base/diag.h"
#include "gen/ingest/archive.h"

/* One `column=value` of a configuration. */
typedef struct {
    char *column;
    char *value;   /* as written */
    double number; /* value as a number when the column is numeric */
} ack_condition;

typedef struct {
    char *campaign, *experiment;
    char *configuration;  /* as written ("*" or "np=16 na=4096") */
    ack_condition *conds; /* none: every configuration */
    size_t nconds;
    char *who, *why;
    char until[11];       /* YYYY-MM-DD */
    long line;            /* in acknowledgements.csv */
} acknowledgement;

typedef struct {
    acknowledgement *items; /* file order */
    size_t n;
} acknowledgements;

/* Read DIR/acknowledgements.csv of archive a, when present. Problems go to
 * diags (those rows are left out). False only when out of memory. */
bool acknowledgements_load(const archive *a, acknowledgements *out, diag_list *diags);

void acknowledgements_free(acknowledgements *k);

/* Whether row of campaign c's runs has every value of k's configuration. */
bool acknowledgement_matches(const acknowledgement *k, const campaign *c, size_t row);

/* The first acknowledgement of experiment (of campaign c) that matches row
 * and covers newest_date (the newest date of the configuration's runs, ""
 * when none is dated); NULL when none does. */
const acknowledgement *acknowledgements_find(const acknowledgements *k, const campaign *c,
                                             const char *experiment, size_t row,
                                             const char *newest_date);

#endif
