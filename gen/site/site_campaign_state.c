/*
 * site_campaign_state.c — see site_campaign_state.h.
 */
#include "gen/site/site_campaign_state.h"
#include "gen/base/column_rules.h"

#include <math.h>
#include <string.h>

const char *campaign_file_name(page_state *s, const char *suffix)
{
    rbuf_clear(&s->name);
    rbuf_printf(&s->name, "%s-%s", rbuf_str(&s->base), suffix);
    return rbuf_str(&s->name);
}

bool campaign_write_csv(page_state *s, const char *name, const rbuf *csv)
{
    rbuf path;
    rbuf_init(&path);
    rbuf_printf(&path, "%s%s", s->dir, name);
    bool ok = site_file(s->c, rbuf_str(&path), csv);
    rbuf_free(&path);
    return ok;
}

void campaign_response_label(const site_experiment *e, rbuf *out)
{
    const char *r = e->info->response ? e->info->response : "time_s";
    if (strcmp(r, "time_s") == 0)
        rbuf_puts(out, "time (s)");
    else if (strchr(r, '+') && column_sum_is_time(r)) /* summed components: a chart axis
                                                         has no room for four names */
        rbuf_puts(out, "total time (s)");
    else if (column_is_time(r))
        rbuf_printf(out, "%s (s)", r);
    else
        rbuf_puts(out, r);
}

const char *campaign_cluster_of(const site_experiment *e, size_t row)
{
    return table_text_named(&e->res.input.camp->runs, row, "cluster");
}

double campaign_x_of(const site_experiment *e, size_t row)
{
    return e->x_col >= 0 ? table_number(&e->res.input.camp->runs, row, (size_t)e->x_col) : NAN;
}
