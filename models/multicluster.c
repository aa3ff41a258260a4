/*
 * multicluster.c — see multicluster.h.
 */
#include "models/multicluster.h"

#include <math.h>
#include <string.h>

#include "models/calibrate.h"

/* mgbench's V(2,2) cycle: messages across the boundary per level but the
 * coarsest (multicluster.h: 4 + 1 pre, 4 post, 1 norm or coarse halo), of
 * which one (the residual row sent up) goes one way. */
enum { MESSAGES_PER_LEVEL = 10, ONE_WAY_PER_LEVEL = 1, COLLECTIVES_PER_CYCLE = 2 };
static const double BYTES_PER_VALUE = 8;

/* Whether x is a whole, even number of at least 2 (mgbench halves it). */
static bool halves(double x)
{
    return isfinite(x) && x >= 2 && x == floor(x) && fmod(x, 2) == 0;
}

int multicluster_levels(const double np[2], const double rows[2], double n_msg)
{
    /* mgbench/config.c, mgb_config_levels: halve while it still can. */
    double ra = rows[0], rb = rows[1], nb = n_msg, na = np[0] * rows[0] + np[1] * rows[1];
    int levels = 1;
    while (halves(ra) && halves(rb) && halves(nb) && na >= 4 && nb >= 4) {
        ra /= 2, rb /= 2, nb /= 2, na /= 2;
        levels++;
    }
    return levels;
}

void multicluster_traffic_of(const multicluster_side sides[2], double n_msg, const double rows[2],
                             multicluster_traffic *out)
{
    double np[2] = {sides[0].np, sides[1].np};
    int L = multicluster_levels(np, rows, n_msg);
    double bytes = 0, one_way = 0;
    for (int l = 0; l < L - 1; l++) {
        double row = BYTES_PER_VALUE * (floor(ldexp(n_msg, -l)) + 2);
        bytes += MESSAGES_PER_LEVEL * row;
        one_way += ONE_WAY_PER_LEVEL * row;
    }
    double coarse_cols = floor(ldexp(n_msg, 1 - L)), share = 0;
    for (int i = 0; i < 2; i++)
        share = fmax(share, sides[i].np * floor(ldexp(rows[i], 1 - L)) * coarse_cols);
    bytes += BYTES_PER_VALUE * (share + 1);
    *out = (multicluster_traffic){L, MESSAGES_PER_LEVEL * (L - 1.0) + COLLECTIVES_PER_CYCLE,
                                  bytes, one_way};
}

bool multicluster_link_known(const multicluster_link *link)
{
    return link && link->bw_bytes_s > 0 && isfinite(link->bw_bytes_s) &&
           link->latency_s >= 0 && isfinite(link->latency_s) && link->cycles > 0 &&
           isfinite(link->cycles);
}

double multicluster_link_time(const multicluster_traffic *traffic, const multicluster_link *link)
{
    /* A shared link carries each two-way message's bytes twice. */
    double carried = link->shared ? 2 * traffic->bytes - traffic->one_way_bytes : traffic->bytes;
    return link->cycles * (traffic->messages * link->latency_s + carried / link->bw_bytes_s);
}

/* The boundary process of a side without its exchanges across the link:
 * its strip time less the half of the overhead that its end exchanges
 * cost (multicluster.h). */
static double boundary_time(const strip_prediction *side)
{
    return side->time_s - side->tcomm_s / 2;
}

bool multicluster_predict(const multicluster_side sides[2], double n_msg, const double rows[2],
                          const multicluster_link *link, multicluster_prediction *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 2; i++) {
        strip_target t = {sides[i].np, rows[i], n_msg, NAN};
        if (!sides[i].model || !(rows[i] > 0) ||
            !strip_predict_contended(sides[i].model, &t, sides[i].ppn, &out->side[i]))
            return false;
        out->rows[i] = rows[i];
        out->mem_mb[i] = out->side[i].work_mb;
    }
    double ta = out->side[0].time_s, tb = out->side[1].time_s;
    out->time_s = fmax(ta, tb);
    if (multicluster_link_known(link)) {
        multicluster_traffic_of(sides, n_msg, rows, &out->traffic);
        out->link_s = multicluster_link_time(&out->traffic, link);
        for (int i = 0; i < 2; i++)
            out->boundary_s[i] = boundary_time(&out->side[i]);
        double paced = fmax(out->boundary_s[0], out->boundary_s[1]) + out->link_s;
        out->link_bound = paced > out->time_s;
        out->time_s = fmax(out->time_s, paced);
    }
    out->dominant = fabs(ta - tb) <= 1e-9 * fmax(ta, tb) ? -1 : ta > tb ? 0 : 1;
    return true;
}
void multicluster_equal_rows(const multicluster_side sides[2], double total_rows, double rows[2])
{
    for (int i = 0; i < 2; i++)
        rows[i] = total_rows / 2 / sides[i].np;
}

/* Is x a whole multiple of q (to rounding)? */
static bool multiple_of(double x, double q)
{
    double k = round(x / q);
    return k >= 1 && fabs(x - k * q) <= 1e-9 * fmax(x, 1);
}

/* The best split found so far: among all, and among those whose rows on B
 * are whole multiples of the quantum too. */
typedef struct {
    multicluster_prediction even, any;
    bool have_even, have_any, failed;
} balance_search;

/* Try rows ra per process on A (B gets the rest). */
static void try_split(const multicluster_side sides[2], double n_msg, double total_rows,
                      const multicluster_balance_options *opt, double q, double ra,
                      balance_search *bs)
{
    double rows[2] = {ra, (total_rows - sides[0].np * ra) / sides[1].np};
    multicluster_prediction trial;
    if (ra < q || ra > opt->max_rows[0] || rows[1] < q || rows[1] > opt->max_rows[1])
        return;
    if (!multicluster_predict(sides, n_msg, rows, opt->link, &trial)) {
        bs->failed = true;
        return;
    }
    if (!bs->have_any || trial.time_s < bs->any.time_s) {
        bs->any = trial;
        bs->have_any = true;
    }
    if (multiple_of(rows[1], q) && (!bs->have_even || trial.time_s < bs->even.time_s)) {
        bs->even = trial;
        bs->have_even = true;
    }
}

/* Every multiple of q from lo to hi in steps of step. */
static void scan(const multicluster_side sides[2], double n_msg, double total_rows,
                 const multicluster_balance_options *opt, double q, double lo, double hi,
                 double step, balance_search *bs)
{
    for (double ra = lo; ra <= hi && !bs->failed; ra += step)
        try_split(sides, n_msg, total_rows, opt, q, ra, bs);
}

bool multicluster_balance(const multicluster_side sides[2], double n_msg, double total_rows,
                          const multicluster_balance_options *opt,
                          multicluster_prediction *out)
{
    double q = opt->quantum > 0 ? opt->quantum : 1;
    balance_search bs = {0};
    memset(out, 0, sizeof *out);
    if (!(sides[0].np >= 1) || !(sides[1].np >= 1) || !(total_rows > 0) || !isfinite(total_rows))
        return false;
    /* Every multiple of q when there are few; otherwise a coarse pass of
     * about 4096 points, then every multiple of q around the coarse best. */
    double most = floor(total_rows / sides[0].np / q) * q;
    double step = q * fmax(1, ceil(most / q / 4096));
    scan(sides, n_msg, total_rows, opt, q, q, most, step, &bs);
    if (step > q && bs.have_any) {
        double centre = bs.any.rows[0];
        scan(sides, n_msg, total_rows, opt, q, fmax(q, centre - step), centre + step, q, &bs);
    }
    if (bs.failed || !bs.have_any)
        return false;
    *out = bs.have_even ? bs.even : bs.any;
    out->uneven = !bs.have_even;
    return true;
}

double multicluster_side_distance(const strip_model *m, double np, double rows)
{
    double np_lo = INFINITY, np_hi = 0, rows_lo = INFINITY, rows_hi = 0;
    for (size_t i = 0; i < m->configs.nconfigs; i++) {
        const mesh_config *c = &m->configs.configs[i];
        if (!c->used || c->npa * c->npb < 2)
            continue;
        /* A strip splits one dimension: its rows per process are the
         * split one's share (strip_is_strip). */
        double per = c->npb == 1 ? c->pa : c->pb;
        np_lo = fmin(np_lo, c->npa * c->npb);
        np_hi = fmax(np_hi, c->npa * c->npb);
        rows_lo = fmin(rows_lo, per);
        rows_hi = fmax(rows_hi, per);
    }
    if (!(np_hi > 0))
        return NAN;
    double d = calibrate_distance(np, np_lo, np_hi);
    return isfinite(rows_hi) && rows_hi > 0 ? fmax(d, calibrate_distance(rows, rows_lo, rows_hi))
                                            : d;
}

static bool width_ok(double h)
{
    return isfinite(h) && h >= 0;
}

bool multicluster_interval(const multicluster_prediction *p, const multicluster_widths *h,
                           double *low, double *high)
{
    *low = *high = NAN;
    bool link = p->link_s > 0;
    if (!width_ok(h->side[0]) || !width_ok(h->side[1]) || (link && !width_ok(h->link)) ||
        !(p->side[0].time_s > 0) || !(p->side[1].time_s > 0) || !(p->link_s >= 0))
        return false;
    for (int sign = -1; sign <= 1; sign += 2) {
        double fa = exp(sign * h->side[0]), fb = exp(sign * h->side[1]);
        double t = fmax(p->side[0].time_s * fa, p->side[1].time_s * fb);
        if (link)
            t = fmax(t, fmax(p->boundary_s[0] * fa, p->boundary_s[1] * fb) +
                            p->link_s * exp(sign * h->link));
        *(sign < 0 ? low : high) = t;
    }
    return true;
}
