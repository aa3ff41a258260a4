/*
 * site_history.h — runtime history: every configuration of a campaign
 * measured on two or more dates (the `date` column), its runs by date,
 * each date's median time and the steps models/changepoint.h flags as
 * changes. Shown as a section "History" at the end of the campaign page
 * (a chart of time against date, the changes, history.csv with one row per
 * run) and as a section of the alerts page, each change "changed on DATE".
 *
 * Which runs: rows with a date and a measured time_s; a configuration is
 * what config_index.h says it is (every identifying column), so the
 * repetitions of one configuration on several dates are one history.
 * Campaigns without such a configuration show nothing.
 *
 * Ownership: site_history_compute fills a site_history the caller releases
 * with site_history_free (also after a failed compute); it borrows the
 * campaign, which must outlive it. The section writers append to the
 * caller's rbuf. Errors: false means out of memory or a failed site
 * output; the alerts section marks its rbuf out of memory instead.
 */
#ifndef PERFCAST_SITE_HISTORY_H
#define PERFCAST_SITE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/site/site_pages.h"
#include "models/changepoint.h"

/* One configuration measured on two or more dates. */
typedef struct {
    char *label;              /* "ci-2core, np=4, na=512" (site_columns_label): the CSV's */
    char *words;              /* "4×1 strip, 512 rows, 4 processes on ci-2core": pages' */
    size_t *rows;             /* its measured rows: by date, then in runs.csv order */
    size_t nrows;
    size_t *date_start;       /* ndates + 1: date d's rows are rows[date_start[d] ..
                                 date_start[d + 1]) */
    size_t ndates;
    double *times;            /* time_s of rows[i] */
    changepoint_step *steps;  /* ndates - 1: steps[d - 1] compares date d with d - 1 */
    changepoint_status status;
    size_t nchanged;          /* steps flagged as changes */
} site_history_config;

typedef struct {
    const campaign *camp;
    int date_col;             /* columns of camp->runs */
    size_t *shown;            /* identifying columns shown (site_shown_columns) */
    bool *varies;
    size_t nshown;
    site_history_config *configs; /* in order of first appearance in runs.csv */
    size_t nconfigs;
    size_t nchanged;          /* changes over all configurations */
} site_history;

/* The history of campaign c (NULL: a skipped campaign, no history).
 * False only when out of memory. */
bool site_history_compute(const campaign *c, site_history *out);

void site_history_free(site_history *h);

/* The date text of date d of configuration k. */
const char *site_history_date(const site_history *h, const site_history_config *k, size_t d);

/* The campaign page's section (heading "History", anchor #history):
 * nothing when the campaign has no history. Writes history.csv and the
 * chart(s) into the campaign's folder. */
bool site_history_section(site_ctx *c, const site_campaign *sc, rbuf *md);

/* The alerts page's section: every change of every campaign, "changed on
 * DATE", the configuration, the medians before and after and the step. */
void site_history_alerts_section(const site_data *d, rbuf *md);

#endif
