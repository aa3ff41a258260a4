/*
 * site_campaign_charts.h — the predicted-vs-measured, error and scaling charts of an experiment
 * (part of the campaign page, gen/site/site_campaign.c).
 */
#ifndef PERFCAST_SITE_CAMPAIGN_CHARTS_H
#define PERFCAST_SITE_CAMPAIGN_CHARTS_H

#include <stdbool.h>
#include "gen/site/site_campaign_state.h"

/* The predicted-vs-measured and error charts, drawn from the predictions
 * CSV pred_csv; a note instead when no target is measured. */
bool campaign_pvm_and_residuals(page_state *s, const rbuf *pred_csv);

/* The time-vs-processors chart and its CSV. */
bool campaign_scaling(page_state *s);

#endif
