/*
 * site_campaign_errors.c — the error summary of a multicore experiment on
 * its campaign page, in the layout of Table II of Delgado et al. (seed
 * 003): one row per data set and platform with the number of measured
 * target configurations and the mean, smallest and largest error of
 * equation (3), then the table's CSV.
 *
 * The numbers are the adapter's report stats (gen/fit/model_multicore.c):
 * "err_mean:<data set>:<platform>" and its err_min, err_max and err_n
 * siblings, the platform after the last ':' and the data set between the
 * first and the last. The site reads them back rather than recomputing
 * them, so the page shows exactly what `perfcast fit` reports; the
 * goodness-of-fit table leaves them out so they are not shown twice.
 */
#include "gen/site/site_campaign_errors.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/markdown.h"

/* The four stats of one Table II row, in column order. */
static const char *const error_kinds[] = {"err_mean", "err_min", "err_max", "err_n"};
enum { ERR_MEAN, ERR_MIN, ERR_MAX, ERR_N, ERR_KINDS };

/* One row: its group "<data set>:<platform>" (borrowed from the stat's
 * name) and its values by kind, NAN where the report has none. */
typedef struct {
    const char *group;
    double v[ERR_KINDS];
} error_row;

/* The kind of a per-group error stat and its group in *group; -1 for any
 * other stat (the overall err_mean has no group and stays a fit stat). */
static int error_stat_kind(const char *name, const char **group)
{
    for (int k = 0; k < ERR_KINDS; k++) {
        size_t len = strlen(error_kinds[k]);
        if (strncmp(name, error_kinds[k], len) != 0 || name[len] != ':')
            continue;
        if (!strchr(name + len + 1, ':'))
            return -1;
        *group = name + len + 1;
        return k;
    }
    return -1;
}

bool campaign_has_error_summary(const site_experiment *e)
{
    return e->info->model && strcmp(e->info->model, "multicore") == 0;
}

bool campaign_in_error_summary(const site_experiment *e, const char *stat)
{
    const char *group;
    return campaign_has_error_summary(e) && error_stat_kind(stat, &group) >= 0;
}

/* The rows in the order their first stat appears (the adapter's order:
 * groups as they first appear among the targets). rows has room for one
 * row per stat. Returns how many. */
static size_t collect_rows(const report *r, error_row *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nstats; i++) {
        const char *group;
        int kind = error_stat_kind(r->stats[i].name, &group);
        if (kind < 0)
            continue;
        size_t k = 0;
        while (k < n && strcmp(rows[k].group, group) != 0)
            k++;
        if (k == n) {
            rows[n].group = group;
            for (int j = 0; j < ERR_KINDS; j++)
                rows[n].v[j] = NAN;
            n++;
        }
        rows[k].v[kind] = r->stats[i].value;
    }
    return n;
}

/* The data set of a group (before its last ':') into out; returns the
 * platform (after it, a tail of group). */
static const char *split_group(const char *group, rbuf *out)
{
    const char *last = strrchr(group, ':');
    rbuf_clear(out);
    rbuf_put(out, group, (size_t)(last - group));
    return last + 1;
}

static void count_cell(md_table *t, double n)
{
    if (isfinite(n) && n >= 0)
        site_md_cell_count(t, (size_t)n);
    else
        site_md_cell_number(t, NAN);
}

static void write_rows(page_state *s, const error_row *rows, size_t n, rbuf *csv)
{
    static const char *const head[] = {"data set", "platform", "configurations",
                                       "mean error (%)", "min error (%)", "max error (%)"};
    md_table t;
    md_table_begin(&t, &s->md, 6, head, "llrrrr");
    rbuf_puts(csv, "dataset,platform,configurations,mean_error_pct,min_error_pct,max_error_pct\n");
    for (size_t i = 0; i < n; i++) {
        const char *platform = split_group(rows[i].group, &s->tmp);
        const char *dataset = rbuf_str(&s->tmp);
        md_table_text(&t, dataset);
        md_table_text(&t, platform);
        count_cell(&t, rows[i].v[ERR_N]);
        site_md_cell_number(&t, rows[i].v[ERR_MEAN]);
        site_md_cell_number(&t, rows[i].v[ERR_MIN]);
        site_md_cell_number(&t, rows[i].v[ERR_MAX]);
        site_csv_text(csv, dataset);
        rbuf_putc(csv, ',');
        site_csv_text(csv, platform);
        static const int order[] = {ERR_N, ERR_MEAN, ERR_MIN, ERR_MAX};
        for (size_t k = 0; k < 4; k++)
            rbuf_putc(csv, ','), site_csv_num(csv, rows[i].v[order[k]]);
        rbuf_putc(csv, '\n');
    }
    md_table_end(&t);
}

bool campaign_error_summary(page_state *s)
{
    if (!campaign_has_error_summary(s->e))
        return true;
    const report *r = &s->e->res.rep;
    md_heading(&s->md, 3, "Error summary (Table II of Delgado et al.)");
    error_row *rows = malloc((r->nstats ? r->nstats : 1) * sizeof *rows);
    if (!rows)
        return false;
    size_t n = collect_rows(r, rows);
    if (n == 0) {
        md_text(&s->md, "There is no target configuration to summarise.");
        md_end_paragraph(&s->md);
        free(rows);
        return true;
    }
    md_text(&s->md, "Per data set and platform, over the target configurations with a "
                    "measurement: error = 100 |measured \xE2\x88\x92 predicted| / measured, "
                    "the paper's equation (3).");
    md_end_paragraph(&s->md);
    rbuf csv;
    rbuf_init(&csv);
    write_rows(s, rows, n, &csv);
    const char *name = campaign_file_name(s, "error-summary.csv");
    site_md_data_link(&s->md, name);
    bool ok = campaign_write_csv(s, name, &csv);
    rbuf_free(&csv);
    free(rows);
    return ok;
}
