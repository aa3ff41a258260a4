/*
 * site_option_text.c — a predicted job in words (site_option_text.h).
 */
#include "gen/site/site_option_text.h"

#include <math.h>

#include "gen/site/site_pages.h"
#include "render/numtext.h"

void site_option_job(const site_option *o, rbuf *out)
{
    rbuf_puts(out, o->job_label);
}

void site_option_job_flagged(const site_option *o, rbuf *out)
{
    site_option_job(o, out);
    site_option_crowding(o, out);
    site_option_gain_stop(o, out);
}

void site_option_csv_flags(const site_option *o, rbuf *csv)
{
    rbuf_puts(csv, o->oversubscribed ? ",1," : ",0,");
    if (o->gain_stop_at > 0)
        site_csv_num(csv, o->gain_stop_at);
    rbuf_putc(csv, '\n');
}

void site_option_gain_stop(const site_option *o, rbuf *out)
{
    if (!(o->gain_stop_at > 0) || !o->gain_stop_column)
        return;
    rbuf_printf(out, " (beyond where its runs stopped gaining, %s = ", o->gain_stop_column);
    rbuf_number(out, o->gain_stop_at);
    rbuf_putc(out, ')');
}

void site_option_crowding(const site_option *o, rbuf *out)
{
    if (!o->oversubscribed)
        return;
    if (!(o->ppn > o->cores)) { /* only the runs' note says so */
        rbuf_puts(out, " (oversubscribed, as its runs' note says)");
        return;
    }
    rbuf_puts(out, " (oversubscribed: ");
    rbuf_number(out, o->ppn);
    rbuf_puts(out, " processes per node on ");
    rbuf_number(out, o->cores);
    rbuf_puts(out, " cores)");
}

void site_option_cost_interval(const site_option *o, const char *currency, rbuf *out)
{
    double lo = site_option_cost_at(o, o->cal_low), hi = site_option_cost_at(o, o->cal_high);
    if (!isfinite(lo) || !isfinite(hi)) {
        rbuf_puts(out, "\xE2\x80\x94");
        return;
    }
    site_fmt_money(out, fmax(0, lo), currency);
    rbuf_puts(out, " \xE2\x80\x93 ");
    site_fmt_money(out, hi, currency);
}
