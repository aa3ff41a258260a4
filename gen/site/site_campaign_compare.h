/*
 * site_campaign_compare.h — an experiment's verdict line and its model comparison table
 * (part of the campaign page, gen/site/site_campaign.c).
 */
#ifndef PERFCAST_SITE_CAMPAIGN_COMPARE_H
#define PERFCAST_SITE_CAMPAIGN_COMPARE_H

#include <stdbool.h>
#include "gen/site/site_campaign_state.h"

/* "Verdict: uncertain — reasons." (gen/site/site_campaign_compare.c). */
void campaign_verdict(page_state *s);

/* The "Model comparison" table of the experiment and its CSV. False only
 * when the site's output failed or memory ran out. */
bool campaign_comparison(page_state *s);

#endif
