/*
 * site_option_text.h — a predicted job (a site_option) in words, the same
 * on every page that lists one (the cluster pages, "my job", the advice
 * page): its name as a person would give it, its cost interval, and the
 * warning that its runs crowd a node.
 *
 * Ownership: the functions append to the caller's buffer; nothing else is
 * allocated.
 */
#ifndef PERFCAST_SITE_OPTION_TEXT_H
#define PERFCAST_SITE_OPTION_TEXT_H

#include "gen/site/site_data.h"
#include "render/buf.h"

/* "mgbench-block: 4×4 grid, 4096² mesh, 16 processes, 16 per node" (the
 * option's job_label). */
void site_option_job(const site_option *o, rbuf *out);

/* " (oversubscribed: 16 processes per node on 2 cores)" when the job puts
 * more processes on a node than it has cores; nothing otherwise. */
void site_option_crowding(const site_option *o, rbuf *out);

/* The job's name, then site_option_crowding. */
void site_option_job_flagged(const site_option *o, rbuf *out);

/* The cost interval that the calibrated time interval gives
 * (site_option_cost_at), "0.12 units – 0.31 units"; "—" when the rate or
 * the interval is unknown. A lower end below zero is shown as zero. */
void site_option_cost_interval(const site_option *o, const char *currency, rbuf *out);

#endif
