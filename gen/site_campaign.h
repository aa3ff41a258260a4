/*
 * site_campaign.h — what the parts of the campaign page writer share:
 * gen/site_campaign.c writes the page and its tables, gen/site_campaign_charts.c
 * its three charts per experiment, gen/site_campaign_errors.c the error
 * summary of a multicore experiment. Internal to those files.
 */
#ifndef PERFCAST_SITE_CAMPAIGN_H
#define PERFCAST_SITE_CAMPAIGN_H

#include <stdbool.h>
#include "gen/site_pages.h"
#include "render/buf.h"

/* Everything one experiment section needs. */
typedef struct {
    site_ctx *c;
    const site_data *d;
    const site_campaign *sc;
    const site_experiment *e;
    const char *dir;       /* "campaigns/<slug>/" */
    rbuf base;             /* "<experiment slug>" */
    rbuf md;               /* the page */
    rbuf tmp, name, human; /* scratch */
} page_state;

/* "<experiment slug>-<suffix>" in a buffer of s, valid until the next call. */
const char *campaign_file_name(page_state *s, const char *suffix);

/* Write csv as the file called name in the campaign's folder. */
bool campaign_write_csv(page_state *s, const char *name, const rbuf *csv);

/* The unit label of the experiment's response ("time (s)"). */
void campaign_response_label(const site_experiment *e, rbuf *out);

/* The cluster and the x value (np, ...) of a row; NULL / NAN when absent. */
const char *campaign_cluster_of(const site_experiment *e, size_t row);
double campaign_x_of(const site_experiment *e, size_t row);

/* The predicted-vs-measured and error charts, drawn from the predictions
 * CSV pred_csv; a note instead when no target is measured. */
bool campaign_pvm_and_residuals(page_state *s, const rbuf *pred_csv);

/* The time-vs-processors chart and its CSV. */
bool campaign_scaling(page_state *s);

/* Whether the experiment's page has an error summary section (its model
 * is multicore). */
bool campaign_has_error_summary(const site_experiment *e);

/* Whether the report stat called stat is shown in that section (a per
 * data set and platform "err_mean:<data set>:<platform>", err_min, err_max
 * or err_n of an experiment that has one), so that the goodness-of-fit
 * table leaves it out. */
bool campaign_in_error_summary(const site_experiment *e, const char *stat);

/* The "Error summary (Table II of Delgado et al.)" section and its CSV
 * when the experiment has one; nothing otherwise. False only when the
 * site's output failed or memory ran out. */
bool campaign_error_summary(page_state *s);

/* The verdict, best model and headline prediction that open the Summary
 * (gen/site_campaign_summary.c). */
void campaign_summary_lead(page_state *s);

/* "Verdict: uncertain — reasons." (gen/site_campaign_compare.c). */
void campaign_verdict(page_state *s);

/* The "Model comparison" table of the experiment and its CSV. False only
 * when the site's output failed or memory ran out. */
bool campaign_comparison(page_state *s);

#endif
