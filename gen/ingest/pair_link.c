/*
 * pair_link.c — see pair_link.h.
 */
#include "gen/ingest/pair_link.h"

#include <math.h>
#include <string.h>

#include "gen/base/run_engine.h"

/* Whether every row of c ran under SimGrid SMPI (pair_link.h's rule). */
static bool simulated(const campaign *c)
{
    run_engine_counts n = run_engine_count(&c->runs);
    return n.simulated > 0 && n.real == 0;
}

bool archive_pair_link(const campaign *camps, size_t ncamps, const cluster_info *a,
                       const cluster_info *b, const char *a_name, const char *b_name,
                       pair_link_rule rule, pair_link *out)
{
    memset(out, 0, sizeof *out);
    for (size_t k = 0; k < ncamps && !out->has_measured; k++)
        if (campaign_measured_link(&camps[k], a_name, b_name, &out->measured)) {
            out->has_measured = true;
            out->measured_in = &camps[k];
        }
    out->has_nominal = a && b &&
                       archive_link_path(a, b, &out->nominal_bw_bytes_s,
                                         &out->nominal_latency_s);
    bool use_measured = out->has_measured && rule != PAIR_LINK_NOMINAL;
    if (use_measured)
        out->status = PAIR_LINK_CHOSEN_MEASURED;
    else if (rule == PAIR_LINK_MEASURED)
        out->status = PAIR_LINK_NO_PINGPONG;
    else
        out->status = out->has_nominal ? PAIR_LINK_CHOSEN_NOMINAL : PAIR_LINK_NO_NOMINAL;
    out->bw_bytes_s = use_measured ? out->measured.bw_bytes_s
                      : out->status == PAIR_LINK_CHOSEN_NOMINAL ? out->nominal_bw_bytes_s
                                                                : NAN;
    out->latency_s = use_measured ? out->measured.latency_s
                     : out->status == PAIR_LINK_CHOSEN_NOMINAL ? out->nominal_latency_s
                                                               : NAN;
    out->shared = out->has_measured ? simulated(out->measured_in)
                                    : ncamps == 1 && simulated(&camps[0]);
    return out->status == PAIR_LINK_CHOSEN_MEASURED || out->status == PAIR_LINK_CHOSEN_NOMINAL;
}

/* log of a ping-pong row's line time for one message of `bytes`. */
static double row_log_time(const table *t, size_t r, double bytes)
{
    return log(table_number_named(t, r, "link_lat_us") * 1e-6 +
               bytes / (table_number_named(t, r, "link_bw_gbs") * 1e9));
}

double pair_link_spread_log(const pair_link *l, const char *a, const char *b, double bytes,
                            size_t *n)
{
    const table *t = l->has_measured ? &l->measured_in->runs : NULL;
    double sum = 0, dev2 = 0;
    *n = 0;
    /* Two passes: the rows differ in the fifth digit, which a sum of
     * squares would lose. */
    for (int pass = 0; pass < 2; pass++) {
        double mean = *n ? sum / (double)*n : 0;
        for (size_t r = 0; t && r < t->nrows; r++) {
            if (!runs_row_is_pingpong(t, r) || !runs_row_joins(t, r, a, b))
                continue;
            double v = row_log_time(t, r, bytes);
            if (pass == 0) {
                sum += v;
                ++*n;
            } else {
                dev2 += (v - mean) * (v - mean);
            }
        }
    }
    return *n < 2 ? NAN : sqrt(dev2 / (double)(*n - 1));
}

const char *pair_link_missing_text(pair_link_status status)
{
    switch (status) {
    case PAIR_LINK_NO_PINGPONG:
        return "option link=measured, but the campaign has no ping-pong row (kind=pingpong, "
               "mgbench --pingpong) between the two clusters";
    case PAIR_LINK_NO_NOMINAL:
        return "clusters.csv gives no link bandwidth and latency (link_bw_gbs and "
               "link_lat_us, or sim_uplink_bw_gbs and sim_uplink_lat_us) for both clusters";
    default:
        return "";
    }
}
