/*
 * site_campaign_errors.h — a multicore experiment's error summary (Table II of Delgado et al.)
 * (part of the campaign page, gen/site/site_campaign.c).
 */
#ifndef PERFCAST_SITE_CAMPAIGN_ERRORS_H
#define PERFCAST_SITE_CAMPAIGN_ERRORS_H

#include <stdbool.h>
#include "gen/site/site_campaign_state.h"

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

#endif
