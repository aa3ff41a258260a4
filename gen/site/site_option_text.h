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

/* " (beyond where its runs stopped gaining, np = 768)" when the runs the
 * job extends stopped gaining (gen/fit/gain_stop.h); nothing otherwise. */
void site_option_gain_stop(const site_option *o, rbuf *out);

/* The job's name, then site_option_crowding and site_option_gain_stop. */
void site_option_job_flagged(const site_option *o, rbuf *out);

/* The columns every CSV of jobs ends with: oversubscribed (1 or 0) and
 * gain_stop_at (where the runs the job extends stopped gaining, empty
 * when they did not), as site_option_csv_flags writes them. */
#define SITE_OPTION_CSV_FLAGS "oversubscribed,gain_stop_at"

/* ",1" or ",0", then "," and gain_stop_at (nothing when 0), and the
 * newline that ends the row. */
void site_option_csv_flags(const site_option *o, rbuf *csv);

/* The cost interval that the calibrated time interval gives
 * (site_option_cost_at), "0.12 units – 0.31 units"; "—" when the rate or
 * the interval is unknown. A lower end below zero is shown as zero. */
void site_option_cost_interval(const site_option *o, const char *currency, rbuf *out);

#endif
