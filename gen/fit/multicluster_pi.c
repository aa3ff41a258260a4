/*
 * multicluster_pi.c — see multicluster_pi.h.
 */
#include "gen/fit/multicluster_pi.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen/fit/pooled_width.h"
#include "models/calibrate.h"

/* The bytes of mgbench's largest halo message: a row of n_msg values and
 * its two ghost columns (models/multicluster.h). */
static double largest_message_bytes(double n_msg)
{
    return 8 * (n_msg + 2);
}

/* T_link's model error (the header's form), with its words; NAN (and
 * why) when it cannot be had. */
static double link_form(const multicluster_pi_input *in, char *words, size_t len)
{
    const pair_link *pl = in->pl;
    if (in->link->shared) {
        multicluster_link alone = *in->link;
        alone.shared = false;
        double form = log(in->p->link_s / multicluster_link_time(&in->p->traffic, &alone));
        snprintf(words, len, "the two directions' overlap on the shared link, from none to "
                 "whole, %.3gx", exp(form));
        return form;
    }
    if (!pl || !pl->has_measured || !pl->has_nominal) {
        snprintf(words, len, "no interval: T_link's model error is measured by how far the "
                 "ping-pong's link and clusters.csv's nominal one disagree, and %s",
                 pl && pl->has_measured ? "clusters.csv gives no nominal link"
                                        : "the campaign has no ping-pong row for the pair");
        return NAN;
    }
    multicluster_link m = {pl->measured.bw_bytes_s, pl->measured.latency_s, in->link->cycles,
                           false};
    multicluster_link n = {pl->nominal_bw_bytes_s, pl->nominal_latency_s, in->link->cycles,
                           false};
    double form = fabs(log(multicluster_link_time(&in->p->traffic, &m) /
                           multicluster_link_time(&in->p->traffic, &n)));
    snprintf(words, len, "the measured and the nominal link %.3gx apart", exp(form));
    return form;
}

/* The link term's half-width (the header's sqrt(noise^2 + form^2)); NAN
 * when its form error is unknown. Says in words what it came from. */
static double link_width(const multicluster_pi_input *in, char *words, size_t len)
{
    char form_text[240];
    double form = link_form(in, form_text, sizeof form_text);
    if (!isfinite(form)) {
        snprintf(words, len, "%s", form_text);
        return NAN;
    }
    size_t rows = 0;
    double sd = in->pl ? pair_link_spread_log(in->pl, in->cluster[0], in->cluster[1],
                                              largest_message_bytes(in->n_msg), &rows)
                       : NAN;
    double noise = isfinite(sd) ? gsl_cdf_tdist_Pinv(1 - (1 - CALIBRATE_LEVEL) / 2,
                                                     (double)rows - 1) *
                                      sd * sqrt(1 + 1.0 / (double)rows)
                                : 0;
    char noise_text[64] = "unknown: fewer than two rows";
    if (isfinite(sd))
        snprintf(noise_text, sizeof noise_text, "\xC2\xB1%.2g%% over %zu rows",
                 100 * (exp(noise) - 1), rows);
    double h = hypot(noise, form);
    snprintf(words, len, "T_link \xC3\x97/\xC3\xB7%.3g (%s; ping-pong noise %s)", exp(h),
             form_text, noise_text);
    return h;
}

/* Side i's half-width from the pooled strip backtests; NAN (with why in
 * words) without them. */
static double side_width(const multicluster_pi_input *in, int i, char *words, size_t len)
{
    const multicluster_side *s = &in->sides[i];
    double d = multicluster_side_distance(s->model, s->np, in->p->rows[i]);
    size_t npool = 0, nprior = 0;
    double h = in->width ? in->width(in->width_ctx, "strip", d, &npool, &nprior) : NAN;
    char from[200];
    pooled_width_source_text("strip", npool, nprior, from, sizeof from);
    if (isfinite(h))
        snprintf(words, len, "T%c \xC3\x97/\xC3\xB7%.3g (%s, %.2g doubling%s beyond %s's "
                 "training runs)", 'A' + i, exp(h), from, isfinite(d) ? d : 0.0,
                 isfinite(d) && d == 1 ? "" : "s", in->cluster[i]);
    else
        snprintf(words, len, "no interval: the archive has no pooled strip backtests for side "
                 "%c's extrapolation", 'A' + i);
    return h;
}

bool multicluster_pi(const multicluster_pi_input *in, double *low, double *high, char *words,
                     size_t len)
{
    char part[3][400];
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
    snprintf(words, len, "own 95%% interval %.4g-%.4g s from its parts (T = max(TA, TB, "
             "max(BA, BB) + T_link), each part at its own bound): %s, %s%s%s", *low, *high,
             part[0], part[1], part[2][0] ? ", " : "", part[2]);
    return true;
}

void multicluster_parts_text(const multicluster_prediction *p, char *buf, size_t len)
{
    if (p->link_s > 0)
        snprintf(buf, len, "T = max(TA %.6g s, TB %.6g s, max(BA %.6g s, BB %.6g s) + T_link "
                 "%.6g s)", p->side[0].time_s, p->side[1].time_s, p->boundary_s[0],
                 p->boundary_s[1], p->link_s);
    else
        snprintf(buf, len, "T = max(TA %.6g s, TB %.6g s)", p->side[0].time_s,
                 p->side[1].time_s);
}
