/*
 * import_experiments.c — see import_experiments.h.
 */
#include "gen/import/import_experiments.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/config_index.h"
#include "gen/base/hash.h"
#include "gen/import/import_lines.h"

enum { MAX_LEVELS = 64 };

/* One group of runs: the same value in every grouping column. */
typedef struct {
    uint64_t hash;             /* of its key cells */
    char **key;                /* the grouping cells (copies) */
    double levels[MAX_LEVELS]; /* distinct process counts that measured the response */
    size_t nlevels;
    double largest;
} run_group;

/* The groups of the rows that measured one response column. */
typedef struct {
    size_t column;
    run_group groups[IMPORT_MAX_GROUPS];
    size_t ngroups;
    bool too_many;
} response_groups;

struct import_groups {
    char **header;       /* copies of runs.csv's column names */
    size_t ncols;
    long procs;          /* the process count's column, -1 none */
    size_t *cols;        /* grouping columns */
    size_t ngroup_cols;
    response_groups *per; /* one per response found in the header */
    size_t nper;
};

static const char *const keys[8] = {"name",  "model",  "response", "formula",
                                    "train", "target", "title",    "options"};

/* ------------------------------------------------------------------ */
/* Gathering                                                           */

static long header_index(char *const *header, size_t ncols, const char *name)
{
    for (size_t c = 0; c < ncols; c++)
        if (strcmp(header[c], name) == 0)
            return (long)c;
    return -1;
}

import_groups *import_groups_new(char *const *header, size_t ncols, const char *procs,
                                 char *const *responses, size_t nresponses)
{
    import_groups *g = calloc(1, sizeof *g);
    bool ok = g && (g->header = calloc(ncols ? ncols : 1, sizeof *g->header)) &&
              (g->cols = malloc((ncols ? ncols : 1) * sizeof *g->cols)) &&
              (g->per = calloc(nresponses ? nresponses : 1, sizeof *g->per));
    for (size_t c = 0; ok && c < ncols; c++, g->ncols++)
        ok = (g->header[c] = strdup(header[c])) != NULL;
    if (!ok) {
        import_groups_free(g);
        return NULL;
    }
    g->procs = header_index(header, ncols, procs);
    for (size_t c = 0; c < ncols; c++)
        if ((long)c != g->procs && config_is_identifying(header[c]) &&
            strncmp(header[c], "tag_", 4) != 0)
            g->cols[g->ngroup_cols++] = c;
    for (size_t i = 0; i < nresponses; i++) {
        long rc = header_index(header, ncols, responses[i]);
        if (rc >= 0)
            g->per[g->nper++].column = (size_t)rc;
    }
    return g;
}

void import_groups_free(import_groups *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->nper; i++)
        for (size_t k = 0; k < g->per[i].ngroups; k++) {
            for (size_t c = 0; c < g->ngroup_cols; c++)
                free(g->per[i].groups[k].key[c]);
            free(g->per[i].groups[k].key);
        }
    for (size_t c = 0; c < g->ncols; c++)
        free(g->header[c]);
    free(g->header);
    free(g->cols);
    free(g->per);
    free(g);
}

static uint64_t key_hash(const import_groups *g, const char *const *cells)
{
    uint64_t h = 0;
    for (size_t k = 0; k < g->ngroup_cols; k++) {
        const char *v = cells[g->cols[k]];
        h = hash_bytes(v, strlen(v) + 1, h);
    }
    return h;
}

static bool same_key(const import_groups *g, const run_group *grp, const char *const *cells)
{
    for (size_t k = 0; k < g->ngroup_cols; k++)
        if (strcmp(grp->key[k], cells[g->cols[k]]) != 0)
            return false;
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

/* A new group keyed by cells; false when out of memory. */
static bool new_group(const import_groups *g, response_groups *rg, uint64_t h,
                      const char *const *cells)
{
    run_group *grp = &rg->groups[rg->ngroups];
    *grp = (run_group){.hash = h, .key = calloc(g->ngroup_cols ? g->ngroup_cols : 1,
                                                sizeof *grp->key)};
    bool ok = grp->key != NULL;
    for (size_t k = 0; ok && k < g->ngroup_cols; k++)
        ok = (grp->key[k] = strdup(cells[g->cols[k]])) != NULL;
    rg->ngroups++; /* freed with the others, also when incomplete */
    return ok;
}

bool import_groups_add(import_groups *g, const char *const *cells)
{
    double np;
    if (g->procs < 0 || !import_number(cells[g->procs], &np))
        return true;
    uint64_t h = key_hash(g, cells);
    for (size_t i = 0; i < g->nper; i++) {
        response_groups *rg = &g->per[i];
        if (!cells[rg->column][0] || rg->too_many)
            continue;
        size_t k = 0;
        while (k < rg->ngroups && !(rg->groups[k].hash == h && same_key(g, &rg->groups[k], cells)))
            k++;
        if (k == rg->ngroups && k == IMPORT_MAX_GROUPS) {
            rg->too_many = true;
            continue;
        }
        if (k == rg->ngroups && !new_group(g, rg, h, cells))
            return false;
        add_level(&rg->groups[k], np);
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* The experiments                                                     */

/* "col == value && ..." of group grp, for filters; "cluster=x, size=100"
 * for titles. A text value holding both quote characters cannot be written
 * (false). */
static bool group_filter(const import_groups *g, const run_group *grp, rbuf *filter,
                         rbuf *label)
{
    for (size_t k = 0; k < g->ngroup_cols; k++) {
        const char *name = g->header[g->cols[k]], *v = grp->key[k];
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
    if (req->scaling)
        rbuf_printf(&v[7], "scaling=%s", req->scaling);
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

/* One group's experiment, unless its name is there already. */
static bool add_group(const import_request *req, import_rows *rows, const import_groups *g,
                      const response_groups *rg, size_t i, const char *procs, csv_text *e,
                      long name_col)
{
    const char *resp = g->header[rg->column];
    rbuf filter, label, v[8];
    rbuf_init(&filter);
    rbuf_init(&label);
    for (size_t k = 0; k < 8; k++)
        rbuf_init(&v[k]);
    bool ok = true;
    if (!group_filter(g, &rg->groups[i], &filter, &label))
        ok = import_rows_note(rows, "`%s`: a configuration whose text holds both quote "
                              "characters got no default experiment.", resp);
    else
        experiment_values(req, resp, procs, &rg->groups[i], i, rg->ngroups,
                          rg->ngroups > 1 ? rbuf_str(&filter) : "",
                          rg->ngroups > 1 ? rbuf_str(&label) : "", v);
    bool oom = false;
    for (size_t k = 0; k < 8; k++)
        oom |= v[k].oom;
    if (ok && !oom && v[0].len && !has_name(e, name_col, rbuf_str(&v[0])))
        ok = add_experiment(e, v);
    rbuf_free(&filter);
    rbuf_free(&label);
    for (size_t k = 0; k < 8; k++)
        rbuf_free(&v[k]);
    return ok && !oom;
}

/* ------------------------------------------------------------------ */
/* The one-configuration default, once the runs have several           */

/* The cell of row r in column name, "" when there is no such column. */
static const char *cell_of(const csv_text *e, size_t r, const char *name)
{
    long c = csv_text_column(e, name);
    return c < 0 ? "" : e->rows[r][c];
}

/* "PROCS < X" / "PROCS == X" with the same X, or no train and "PROCS >= 1":
 * the split experiment_values writes for one configuration. */
static bool default_split(const char *train, const char *target, const char *procs)
{
    size_t n = strlen(procs);
    if (!train[0])
        return strncmp(target, procs, n) == 0 && strcmp(target + n, " >= 1") == 0;
    return strncmp(train, procs, n) == 0 && strncmp(train + n, " < ", 3) == 0 &&
           strncmp(target, procs, n) == 0 && strncmp(target + n, " == ", 4) == 0 &&
           strcmp(train + n + 3, target + n + 4) == 0;
}

/* Whether row r of e is, cell for cell, what an import writes as the one
 * default experiment of response resp (no configuration filter): then no
 * one has edited it, and it may be replaced. Any other cell filled, or
 * any of these changed, makes it the user's. */
static bool is_untouched_default(const csv_text *e, size_t r, const char *resp, const char *procs)
{
    char formula[128], title[256];
    snprintf(formula, sizeof formula, "1/%s", procs);
    snprintf(title, sizeof title, "%s against the process count (imported from ", resp);
    const char *f = cell_of(e, r, "formula"), *t = cell_of(e, r, "title");
    const char *o = cell_of(e, r, "options");
    size_t tn = strlen(title), tl = strlen(t);
    bool ok = strcmp(cell_of(e, r, "model"), "scopred") == 0 &&
              strcmp(cell_of(e, r, "response"), resp) == 0 &&
              (strcmp(f, formula) == 0 || strcmp(f, procs) == 0) &&
              default_split(cell_of(e, r, "train"), cell_of(e, r, "target"), procs) &&
              strncmp(t, title, tn) == 0 && tl > tn + 1 && t[tl - 1] == ')' &&
              strspn(t + tn, "abcdefghijklmnopqrstuvwxyz") == tl - tn - 1 &&
              (!o[0] || strcmp(o, "scaling=strong") == 0 || strcmp(o, "scaling=weak") == 0);
    for (size_t c = 0; ok && c < e->ncols; c++) {
        bool known_key = false;
        for (size_t k = 0; k < 8; k++)
            known_key |= strcmp(e->header[c], keys[k]) == 0;
        ok = known_key || !e->rows[r][c][0];
    }
    return ok;
}

static void remove_row(csv_text *e, size_t r)
{
    csv_text_free_row(e->rows[r], e->ncols);
    memmove(e->rows + r, e->rows + r + 1, (e->nrows - r - 1) * sizeof *e->rows);
    e->nrows--;
}

/* Runs of resp now form several configurations: the default an earlier
 * import wrote when they formed one ("scaling", no filter) would fit them
 * all as one. Removed when untouched (scaling-1, scaling-2, ... take its
 * place); an edited one is the user's: kept, with a warning. */
static bool retire_single_default(const char *resp, const char *procs, csv_text *e,
                                  long name_col, import_rows *rows, bool *changed,
                                  const char *exps_path, diag_list *diags)
{
    char name[256];
    snprintf(name, sizeof name, "%s%s", strcmp(resp, "time_s") == 0 ? "scaling" : "scaling-",
             strcmp(resp, "time_s") == 0 ? "" : resp);
    for (size_t r = 0; r < e->nrows; r++) {
        if (strcmp(e->rows[r][name_col], name) != 0)
            continue;
        if (is_untouched_default(e, r, resp, procs)) {
            remove_row(e, r);
            *changed = true;
            return import_rows_note(rows, "The default experiment `%s` fitted the runs of `%s` "
                                    "as one configuration; they now form several, so it was "
                                    "replaced by one experiment per configuration.", name, resp);
        }
        diag_add(diags, exps_path, (long)r + 2, 1,
                 "warning: experiment '%s' fits `%s` without a configuration filter, and the "
                 "runs now form several configurations: it was edited, so it is kept; give it "
                 "a filter (or remove it) so that no fit spans two configurations",
                 name, resp);
        return import_rows_note(rows, "The experiment `%s` fits `%s` over several "
                                "configurations; it was edited, so the import kept it.", name,
                                resp);
    }
    return true;
}

bool import_default_experiments(const import_request *req, import_rows *rows,
                                const import_groups *g, const char *procs,
                                csv_text *experiments, bool *changed, const char *exps_path,
                                diag_list *diags)
{
    bool ok = true;
    for (size_t i = 0; ok && !experiments->exists && i < 8; i++)
        ok = csv_text_add_column(experiments, keys[i]);
    long name_col = ok ? csv_text_column(experiments, "name") : -1;
    if (ok && name_col < 0) {
        diag_add(diags, "experiments.csv", 1, 1, "no 'name' column");
        return false;
    }
    for (size_t r = 0; ok && r < g->nper; r++) {
        const response_groups *rg = &g->per[r];
        if (rg->too_many) {
            ok = import_rows_note(rows, "`%s`: the runs form more than %d configurations "
                                  "besides the process count; no default experiment was "
                                  "added (write one per configuration you want predicted).",
                                  g->header[rg->column], IMPORT_MAX_GROUPS);
            continue;
        }
        if (rg->ngroups > 1)
            ok = retire_single_default(g->header[rg->column], procs, experiments, name_col,
                                       rows, changed, exps_path, diags);
        size_t before = experiments->nrows;
        for (size_t i = 0; ok && i < rg->ngroups; i++)
            ok = add_group(req, rows, g, rg, i, procs, experiments, name_col);
        *changed |= experiments->nrows > before;
    }
    if (!ok)
        diag_add(diags, "experiments.csv", 0, 0, "out of memory");
    return ok;
}
