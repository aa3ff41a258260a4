/*
 * multicluster_pi.c — see multicluster_pi.h.
 */
#include "gen/fit/multicluster_pi.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/calibrate.h"

/* The bytes of mgbench's largest halo message: a row of n_msg values and
 * its two ghost columns (models/multicluster.h). */
static double largest_message_bytes(double n_msg)
{
    return 8 * (n_msg + 2);
}

/* The link term's half-width (the header's sqrt(noise^2 + form^2)); NAN
 * without both links. Says in words what it came from. */
static double link_width(const multicluster_pi_input *in, char *words, size_t len)
{
    const pair_link *pl = in->pl;
    if (!pl || !pl->has_measured || !pl->has_nominal) {
        snprintf(words, len, "no interval: T_link's model error is measured by how far the "
                 "ping-pong's link and clusters.csv's nominal one disagree, and %s",
                 pl && pl->has_measured ? "clusters.csv gives no nominal link"
                                        : "the campaign has no ping-pong row for the pair");
        return NAN;
    }
    multicluster_link m = {pl->measured.bw_bytes_s, pl->measured.latency_s, in->link->cycles};
    multicluster_link n = {pl->nominal_bw_bytes_s, pl->nominal_latency_s, in->link->cycles};
    double form = fabs(log(multicluster_link_time(&in->p->traffic, &m) /
                           multicluster_link_time(&in->p->traffic, &n)));
    size_t rows;
    double sd = pair_link_spread_log(pl, in->cluster[0], in->cluster[1],
                                     largest_message_bytes(in->n_msg), &rows);
    double noise = isfinite(sd) ? gsl_cdf_tdist_Pinv(1 - (1 - CALIBRATE_LEVEL) / 2,
                                                     (double)rows - 1) *
                                      sd * sqrt(1 + 1.0 / (double)rows)
                                : 0;
    char noise_text[64] = "unknown: one row";
    if (isfinite(sd))
        snprintf(noise_text, sizeof noise_text, "\xC2\xB1%.2g%% over %zu rows",
                 100 * (exp(noise) - 1), rows);
    double h = hypot(noise, form);
    snprintf(words, len, "T_link \xC3\x97/\xC3\xB7%.3g (the measured and the nominal link "
             "%.3gx apart; ping-pong noise %s)", exp(h), exp(form), noise_text);
    return h;
}

/* Side i's half-width from the pooled strip backtests; NAN (with why in
 * words) without them. */
static double side_width(const multicluster_pi_input *in, int i, char *words, size_t len)
{
    const multicluster_side *s = &in->sides[i];
    double d = multicluster_side_distance(s->model, s->np, in->p->rows[i]);
    size_t n = 0;
    double h = in->width ? in->width(in->width_ctx, "strip", d, &n) : NAN;
    if (isfinite(h))
        snprintf(words, len, "T%c \xC3\x97/\xC3\xB7%.3g (%zu pooled strip backtests of other "
                 "campaigns, %.2g doubling%s beyond %s's training runs)", 'A' + i, exp(h), n,
                 isfinite(d) ? d : 0.0, isfinite(d) && d == 1 ? "" : "s", in->cluster[i]);
    else
        snprintf(words, len, "no interval: the archive has no pooled strip backtests for side "
                 "%c's extrapolation", 'A' + i);
    return h;
}

bool multicluster_pi(const multicluster_pi_input *in, double *low, double *high, char *words,
                     size_t len)
{
    char part[3][300];
    multicluster_widths h = {{NAN, NAN}, 0};
    *low = *high = NAN;
    for (int i = 0; i < 2; i++) {
        h.side[i] = side_width(in, i, part[i], sizeof part[i]);
        if (!isfinite(h.side[i])) {
            snprintf(words, len, "%s", part[i]);
            return false;
        }
    }
    part[2][0] = '\0';
    if (in->link && in->p->link_s > 0) {
        h.link = link_width(in, part[2], sizeof part[2]);
        if (!isfinite(h.link)) {
            snprintf(words, len, "%s", part[2]);
            return false;
        }
    }
    if (!multicluster_interval(in->p, &h, low, high)) {
        snprintf(words, len, "no interval: a part of the prediction is not a positive time");
        return false;
    }
    snprintf(words, len, "own 95%% interval %.4g-%.4g s from its parts (T = max(TA, TB) + "
             "T_link, each part at its own bound): %s, %s%s%s", *low, *high, part[0], part[1],
             part[2][0] ? ", " : "", part[2]);
    return true;
}
