/*
 * site_campaign_state.h — what the parts of the campaign page share: the
 * state of the experiment section being written and small helpers on it.
 * gen/site/site_campaign.c writes the page and its tables and calls the
 * parts, each with a header of its own: site_campaign_charts (three charts
 * per experiment), site_campaign_errors (a multicore experiment's error
 * summary), site_campaign_summary (the summary's lead) and
 * site_campaign_compare (verdict and model comparison). The parts use this
 * module and never the page, so the page's modules form no cycle
 * (tests/check_rooms). Internal to those files.
 *
 * Ownership: page_state's buffers belong to the page writer, which
 * initialises and frees them; campaign_file_name's result lives in
 * s->name until the next call.
 */
#ifndef PERFCAST_SITE_CAMPAIGN_STATE_H
#define PERFCAST_SITE_CAMPAIGN_STATE_H

#include <stdbool.h>
#include "gen/site/site_pages.h"
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

#endif
