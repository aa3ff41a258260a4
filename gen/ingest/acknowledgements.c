/*
 * acknowledgements.c — reads and checks acknowledgements.csv (see
 * acknowledgements.h).
 */
#include "gen/ingest/acknowledgements.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/config_index.h"
#include "gen/base/csvread.h"
#include "gen/ingest/schema.h"

static const column_spec ack_columns[] = {
    {"campaign", RULE_TEXT, true, true, "the campaign of the acknowledged alerts"},
    {"experiment", RULE_TEXT, true, true, "the experiment that predicts them"},
    {"configuration", RULE_TEXT, true, true, "* or column=value ... naming the configurations"},
    {"who", RULE_TEXT, true, true, "who acknowledged them"},
    {"why", RULE_TEXT, true, true, "why they are not a regression"},
    {"until", RULE_DATE, true, true, "the last run date the acknowledgement covers"},
    {NULL, RULE_TEXT, false, false, NULL},
};

/* Where a row's problem is reported: the file, the row's line, and the
 * document that knows its cells' columns. */
typedef struct {
    const char *file;
    const csv_doc *doc;
    long line;
    diag_list *diags;
} ack_where;

static long cell_at(const ack_where *w, const char *column)
{
    return schema_cell_column(w->doc, w->line, column);
}

static bool is_separator(char ch)
{
    return ch == ' ' || ch == '\t' || ch == ',';
}

/* Check one `column=value` of text[start, start + len) against campaign c
 * and keep it in cond. False (reported at its own column) when unusable. */
static bool parse_condition(const ack_where *w, const campaign *c, const char *text,
                            size_t start, size_t len, ack_condition *cond)
{
    long col = cell_at(w, "configuration") + (long)start;
    const char *eq = memchr(text + start, '=', len);
    if (!eq || eq == text + start || eq == text + start + len - 1) {
        diag_add(w->diags, w->file, w->line, col,
                 "expected column=value (or * for every configuration), found '%.*s'", (int)len,
                 text + start);
        return false;
    }
    cond->column = strndup(text + start, (size_t)(eq - text - start));
    cond->value = strndup(eq + 1, len - (size_t)(eq - text - start) - 1);
    if (!cond->column || !cond->value)
        return false;
    int k = table_find(&c->runs, cond->column);
    if (k < 0 || !config_column_identifies(&c->runs.cols[k])) {
        diag_add(w->diags, w->file, w->line, col,
                 "'%s' is not a column that identifies configurations in %s/runs.csv",
                 cond->column, c->name);
        return false;
    }
    cond->number = NAN;
    const char *why;
    if (c->runs.cols[k].kind == COL_NUMBER && !csv_parse_number(cond->value, &cond->number, &why)) {
        diag_add(w->diags, w->file, w->line, col + (long)(eq - text - start) + 1,
                 "column '%s' holds numbers, found '%s'", cond->column, cond->value);
        return false;
    }
    return true;
}

/* The configuration cell: "*" or column=value pairs. */
static bool parse_configuration(const ack_where *w, const campaign *c, acknowledgement *k)
{
    const char *s = k->configuration;
    if (strcmp(s, "*") == 0)
        return true;
    size_t n = strlen(s);
    k->conds = calloc(n / 2 + 1, sizeof *k->conds); /* a pair takes at least "x=y," */
    if (!k->conds)
        return false;
    for (size_t i = 0; i < n;) {
        while (i < n && is_separator(s[i]))
            i++;
        size_t start = i;
        while (i < n && !is_separator(s[i]))
            i++;
        if (i > start && !parse_condition(w, c, s, start, i - start, &k->conds[k->nconds++]))
            return false;
    }
    return true;
}

bool acknowledgement_matches(const acknowledgement *k, const campaign *c, size_t row)
{
    for (size_t i = 0; i < k->nconds; i++) {
        int col = table_find(&c->runs, k->conds[i].column);
        if (col < 0)
            return false;
        const table_column *tc = &c->runs.cols[col];
        if (tc->kind == COL_NUMBER ? tc->num[row] != k->conds[i].number
                                   : !tc->text[row] || strcmp(tc->text[row], k->conds[i].value))
            return false;
    }
    return true;
}

static bool matches_a_run(const acknowledgement *k, const campaign *c)
{
    for (size_t r = 0; r < c->runs.nrows; r++)
        if (acknowledgement_matches(k, c, r))
            return true;
    return false;
}

static char *cell_copy(const table *t, size_t row, const char *column)
{
    const char *s = table_text_named(t, row, column);
    return strdup(s ? s : "");
}

static void free_one(acknowledgement *k)
{
    for (size_t i = 0; i < k->nconds; i++)
        free(k->conds[i].column), free(k->conds[i].value);
    free(k->conds);
    free(k->campaign), free(k->experiment), free(k->configuration), free(k->who), free(k->why);
    memset(k, 0, sizeof *k);
}

/* Read row r into k and check it against the archive. *usable is false
 * (the problem reported) when the row names nothing the archive has.
 * False only when out of memory. */
static bool load_row(const archive *a, const table *t, size_t r, const ack_where *w,
                     acknowledgement *k, bool *usable)
{
    *usable = false;
    k->line = w->line;
    k->campaign = cell_copy(t, r, "campaign");
    k->experiment = cell_copy(t, r, "experiment");
    k->configuration = cell_copy(t, r, "configuration");
    k->who = cell_copy(t, r, "who");
    k->why = cell_copy(t, r, "why");
    const char *until = table_text_named(t, r, "until");
    snprintf(k->until, sizeof k->until, "%s", until ? until : "");
    if (!k->campaign || !k->experiment || !k->configuration || !k->who || !k->why)
        return false;
    const campaign *c = archive_campaign(a, k->campaign);
    for (size_t i = 0; !c && i < a->nskipped; i++)
        if (strcmp(a->skipped[i], k->campaign) == 0)
            return true; /* its own problems are reported; nothing to match against */
    if (!c) {
        diag_add(w->diags, w->file, w->line, cell_at(w, "campaign"),
                 "unknown campaign '%s' (no loaded campaign folder of that name)", k->campaign);
        return true;
    }
    if (!campaign_experiment(c, k->experiment)) {
        diag_add(w->diags, w->file, w->line, cell_at(w, "experiment"),
                 "campaign '%s' has no experiment '%s'", k->campaign, k->experiment);
        return true;
    }
    size_t before = w->diags->count;
    if (!parse_configuration(w, c, k))
        return w->diags->count > before; /* reported: the row is unusable */
    if (!matches_a_run(k, c)) {
        diag_add(w->diags, w->file, w->line, cell_at(w, "configuration"),
                 "configuration '%s' matches no run of campaign '%s'", k->configuration,
                 k->campaign);
        return true;
    }
    *usable = true;
    return true;
}

static bool load_rows(const archive *a, const table *t, const ack_where *at,
                      acknowledgements *out)
{
    out->items = calloc(t->nrows ? t->nrows : 1, sizeof *out->items);
    if (!out->items)
        return false;
    for (size_t r = 0; r < t->nrows; r++) {
        ack_where w = *at;
        w.line = t->line[r];
        acknowledgement *k = &out->items[out->n];
        bool usable;
        bool ok = load_row(a, t, r, &w, k, &usable);
        if (ok && usable)
            out->n++;
        else
            free_one(k);
        if (!ok)
            return false;
    }
    return true;
}

bool acknowledgements_load(const archive *a, acknowledgements *out, diag_list *diags)
{
    memset(out, 0, sizeof *out);
    char *path;
    csv_doc doc;
    table t;
    bool ok = true;
    if (schema_load_optional(a->dir, "acknowledgements.csv", ack_columns, &path, &doc, &t,
                             diags)) {
        ack_where w = {path, &doc, 0, diags};
        ok = load_rows(a, &t, &w, out);
    } else {
        ok = path != NULL;
    }
    csv_doc_free(&doc);
    table_free(&t);
    free(path);
    return ok;
}

void acknowledgements_free(acknowledgements *k)
{
    for (size_t i = 0; i < k->n; i++)
        free_one(&k->items[i]);
    free(k->items);
    memset(k, 0, sizeof *k);
}

const acknowledgement *acknowledgements_find(const acknowledgements *k, const campaign *c,
                                             const char *experiment, size_t row,
                                             const char *newest_date)
{
    for (size_t i = 0; i < k->n; i++) {
        const acknowledgement *x = &k->items[i];
        if (strcmp(x->campaign, c->name) == 0 && strcmp(x->experiment, experiment) == 0 &&
            strcmp(newest_date, x->until) <= 0 && acknowledgement_matches(x, c, row))
            return x;
    }
    return NULL;
}
