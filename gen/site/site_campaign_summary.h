/*
 * site_campaign_summary.h — the verdict, best model and headline prediction that open a campaign page's summary
 * (part of the campaign page, gen/site/site_campaign.c).
 */
#ifndef PERFCAST_SITE_CAMPAIGN_SUMMARY_H
#define PERFCAST_SITE_CAMPAIGN_SUMMARY_H

#include <stdbool.h>
#include "gen/site/site_campaign_state.h"

/* The verdict, best model and headline prediction that open the Summary
 * (gen/site/site_campaign_summary.c). */
void campaign_summary_lead(page_state *s);

#endif
