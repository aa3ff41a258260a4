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

/* The Summary's table, one row per experiment: its verdict, and on its
 * held-out targets the median and max |error|, how many measurements its
 * calibrated 95% PI and its model's 95% PI hold. False only when out of
 * memory. */
bool campaign_summary_table(page_state *s);

#endif
