/*
 * import_experiments.c — see import_experiments.h.
 */
#include "gen/import/import_experiments.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/config_index.h"
#include "gen/import/import_lines.h"

enum { MAX_LEVELS = 64 };

/* One group of runs: the same value in every grouping column. */
typedef struct {
    size_t row;                /* a row of the group, for its values */
    double levels[MAX_LEVELS]; /* distinct process counts that measured the response */
    size_t nlevels;
    double largest;
} run_group;

typedef struct {
    const csv_text *runs;
    long procs;          /* the process count's column */
    size_t *cols;        /* grouping columns */
    size_t ncols;
    run_group groups[IMPORT_MAX_GROUPS];
    size_t ngroups;
    bool too_many;
} grouping;

static const char *const keys[8] = {"name",  "model",  "response", "formula",
                                    "train", "target", "title",    "options"};

/* Every identifying column but the process count and tag_* labels. */
static bool choose_columns(grouping *g)
{
    const csv_text *t = g->runs;
    g->cols = malloc((t->ncols ? t->ncols : 1) * sizeof *g->cols);
    if (!g->cols)
        return false;
    for (size_t c = 0; c < t->ncols; c++)
        if ((long)c != g->procs && config_is_identifying(t->header[c]) &&
            strncmp(t->header[c], "tag_", 4) != 0)
            g->cols[g->ncols++] = c;
    return true;
}

static void add_level(run_group *grp, double np)
{
    for (size_t k = 0; k < grp->nlevels; k++)
        if (grp->levels[k] == np)
            return;
    if (grp->nlevels < MAX_LEVELS)
        grp->levels[grp->nlevels++] = np;
    if (np > grp->largest)
        grp->largest = np;
}

/* The groups of the rows that measured column resp. Keys go into a
 * csv_text of the grouping columns, whose row set finds them again. */
static bool group_rows(grouping *g, size_t resp)
{
    csv_text keys_seen = {0};
    keys_seen.ncols = g->ncols;
    bool ok = true;
    for (size_t r = 0; ok && r < g->runs->nrows && !g->too_many; r++) {
        char **row = g->runs->rows[r];
        double np;
        if (!row[resp][0] || !import_number(row[g->procs], &np))
            continue;
        char **key = csv_text_blank_row(g->ncols);
        for (size_t k = 0; key && k < g->ncols; k++)
            ok = csv_text_set_cell(key, k, row[g->cols[k]]) && ok;
        ok = ok && key;
        long found = ok ? csv_text_find_row(&keys_seen, key) : -1;
        if (ok && found < 0 && g->ngroups == IMPORT_MAX_GROUPS) {
            g->too_many = true;
            csv_text_free_row(key, g->ncols);
        } else if (ok && found < 0) {
            g->groups[g->ngroups] = (run_group){.row = r, .largest = np};
            found = (long)g->ngroups++;
            ok = csv_text_add_row(&keys_seen, key);
        } else {
            csv_text_free_row(key, g->ncols);
        }
        if (ok && !g->too_many)
            add_level(&g->groups[found], np);
    }
    keys_seen.header = NULL;
    csv_text_free(&keys_seen);
    return ok;
}

/* "col == value && ..." of group grp, for filters; " cluster=x, size=100"
 * for titles. A text value holding both quote characters cannot be written
 * (false). */
static bool group_filter(const grouping *g, const run_group *grp, rbuf *filter, rbuf *label)
{
    for (size_t k = 0; k < g->ncols; k++) {
        const char *name = g->runs->header[g->cols[k]];
        const char *v = g->runs->rows[grp->row][g->cols[k]];
        double num;
        rbuf_printf(label, "%s%s=%s", k ? ", " : "", name, v);
        if (k)
            rbuf_puts(filter, " && ");
        if (!v[0])
            rbuf_printf(filter, "!has(%s)", name);
        else if (import_number(v, &num))
            rbuf_printf(filter, "%s == %.17g", name, num);
        else if (!strchr(v, '"'))
            rbuf_printf(filter, "%s == \"%s\"", name, v);
        else if (!strchr(v, '\''))
            rbuf_printf(filter, "%s == '%s'", name, v);
        else
            return false;
    }
    return !filter->oom && !label->oom;
}

static bool has_name(const csv_text *e, long name_col, const char *name)
{
    for (size_t r = 0; r < e->nrows; r++)
        if (strcmp(e->rows[r][name_col], name) == 0)
            return true;
    return false;
}

/* The eight values of one group's experiment, in the order of keys. */
static void experiment_values(const import_request *req, const char *resp, const char *procs,
                              const run_group *grp, size_t index, size_t ngroups,
                              const char *filter, const char *label, rbuf v[8])
{
    const char *and = filter[0] ? " && " : "";
    rbuf_puts(&v[0], strcmp(resp, "time_s") == 0 ? "scaling" : "scaling-");
    if (strcmp(resp, "time_s") != 0)
        rbuf_puts(&v[0], resp);
    if (ngroups > 1)
        rbuf_printf(&v[0], "-%zu", index + 1);
    rbuf_puts(&v[1], "scopred");
    rbuf_puts(&v[2], resp);
    rbuf_printf(&v[3], "%s%s", grp->nlevels >= 2 ? "1/" : "", procs);
    if (grp->nlevels >= 3) {
        rbuf_printf(&v[4], "%s%s%s < %.17g", filter, and, procs, grp->largest);
        rbuf_printf(&v[5], "%s%s%s == %.17g", filter, and, procs, grp->largest);
    } else {
        rbuf_puts(&v[4], filter);
        rbuf_printf(&v[5], "%s%s%s >= 1", filter, and, procs);
    }
    rbuf_printf(&v[6], "%s against the process count%s%s (imported from %s)", resp,
                label[0] ? " for " : "", label, req->format);
}

static bool add_experiment(csv_text *e, rbuf v[8])
{
    char **row = csv_text_blank_row(e->ncols);
    bool ok = row != NULL;
    for (size_t c = 0; ok && c < e->ncols; c++)
        for (size_t k = 0; ok && k < 8; k++)
            if (strcmp(e->header[c], keys[k]) == 0)
                ok = csv_text_set_cell(row, c, rbuf_str(&v[k]));
    if (!ok) {
        csv_text_free_row(row, e->ncols);
        return false;
    }
    return csv_text_add_row(e, row);
}

/* The experiments of response column resp, one per group. */
static bool add_for_response(const import_request *req, import_rows *rows, grouping *g,
                             const char *resp, const char *procs, csv_text *e, long name_col)
{
    long rc = csv_text_column(g->runs, resp);
    g->ngroups = 0;
    g->too_many = false;
    if (rc < 0 || !group_rows(g, (size_t)rc))
        return rc < 0;
    if (g->too_many)
        return import_rows_note(rows, "`%s`: the runs form more than %d configurations "
                                "besides the process count; no default experiment was added "
                                "(write one per configuration you want predicted).",
                                resp, IMPORT_MAX_GROUPS);
    bool ok = true;
    for (size_t i = 0; ok && i < g->ngroups; i++) {
        rbuf filter, label, v[8];
        rbuf_init(&filter);
        rbuf_init(&label);
        for (size_t k = 0; k < 8; k++)
            rbuf_init(&v[k]);
        if (!group_filter(g, &g->groups[i], &filter, &label))
            ok = import_rows_note(rows, "`%s`: a configuration whose text holds both quote "
                                  "characters got no default experiment.", resp);
        else
            experiment_values(req, resp, procs, &g->groups[i], i, g->ngroups,
                              g->ngroups > 1 ? rbuf_str(&filter) : "",
                              g->ngroups > 1 ? rbuf_str(&label) : "", v);
        bool oom = false;
        for (size_t k = 0; k < 8; k++)
            oom |= v[k].oom;
        if (ok && !oom && v[0].len && !has_name(e, name_col, rbuf_str(&v[0])))
            ok = add_experiment(e, v);
        ok = ok && !oom;
        rbuf_free(&filter);
        rbuf_free(&label);
        for (size_t k = 0; k < 8; k++)
            rbuf_free(&v[k]);
    }
    return ok;
}

bool import_default_experiments(const import_request *req, import_rows *rows,
                                const csv_text *runs, const char *procs,
                                csv_text *experiments, diag_list *diags)
{
    bool ok = true;
    for (size_t i = 0; ok && !experiments->exists && i < 8; i++)
        ok = csv_text_add_column(experiments, keys[i]);
    long name_col = ok ? csv_text_column(experiments, "name") : -1;
    if (ok && name_col < 0) {
        diag_add(diags, "experiments.csv", 1, 1, "no 'name' column");
        return false;
    }
    grouping g = {.runs = runs, .procs = csv_text_column(runs, procs)};
    ok = ok && g.procs >= 0 && choose_columns(&g);
    for (size_t i = 0; ok && i < rows->nresponses; i++)
        ok = add_for_response(req, rows, &g, rows->responses[i], procs, experiments, name_col);
    free(g.cols);
    return ok;
}
