/*
 * advice_scenarios.c — reads advice.csv and evaluates its scenarios with
 * gen/advice/advise.h (see advice_scenarios.h).
 */
#include "gen/advice/advice_scenarios.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/csvread.h"
#include "gen/fit/rjopts.h"
#include "gen/ingest/schema.h"

enum { MAX_FREE = 16 };

static const column_spec advice_columns[] = {
    {"scenario", RULE_COUNT, true, true, "1 (fastest for a size) or 2 (largest size)"},
    {"name", RULE_TEXT, true, true, "the scenario's name"},
    {"title", RULE_TEXT, false, false, "a human title"},
    {"free", RULE_TEXT, true, true, "free resources, cluster:processes,..."},
    {"size", RULE_TEXT, false, false, "the problem NAxNB (scenario 1)"},
    {"campaign", RULE_TEXT, false, false, "use only this campaign's runs"},
    {"code", RULE_TEXT, false, false, "the code, when the clusters ran several"},
    {"note", RULE_TEXT, false, false, "free text"},
    {NULL, RULE_TEXT, false, false, NULL},
};

static char *text_of(const table *t, size_t row, const char *column)
{
    const char *s = table_text_named(t, row, column);
    return s ? strdup(s) : NULL;
}

/* Record why scenario s has no options; cell is the column of advice.csv
 * at fault (its position is filled in by load_row). */
static void fail(advice_scenario *s, const char *cell, const char *what)
{
    s->ok = false;
    snprintf(s->error, sizeof s->error, "%s", what);
    s->error_cell = cell;
}

static bool evaluate(const archive *a, const error_pool *pool, advice_scenario *s,
                     const char *campaign, const char *code)
{
    rjopts_resource res[MAX_FREE];
    size_t n = 0;
    long na = 0, nb = 0;
    char err[300];
    if (!rjopts_resources(s->free, res, MAX_FREE, &n, err, sizeof err)) {
        fail(s, "free", err);
        return true;
    }
    if (s->scenario == 1 && (!s->size || !rjopts_size(s->size, &na, &nb, err, sizeof err))) {
        fail(s, "size", s->size ? err : "scenario 1 needs a size NAxNB");
        return true;
    }
    if (campaign && !archive_campaign(a, campaign)) {
        snprintf(err, sizeof err, "unknown campaign '%.200s' (no loaded campaign folder of that name)",
                 campaign);
        fail(s, "campaign", err);
        return true;
    }
    const cluster_info *cl[MAX_FREE];
    double np[MAX_FREE];
    const char *names[MAX_FREE];
    for (size_t i = 0; i < n; i++) {
        if (!(cl[i] = archive_cluster(a, res[i].name))) {
            snprintf(err, sizeof err, "unknown cluster '%.200s'", res[i].name);
            fail(s, "free", err);
            return true;
        }
        np[i] = (double)res[i].np;
        names[i] = cl[i]->name;
    }
    advise_request req = {a, campaign, code, NAN, 1, pool};
    advise_ctx ctx;
    if (!advise_open(&req, names, n, &ctx, err, sizeof err)) {
        fail(s, code ? "code" : campaign ? "campaign" : "free", err);
        return true;
    }
    advise_list l;
    bool ok = advise_enumerate(&ctx, cl, np, n, s->scenario == 2, (double)na, (double)nb, &l);
    s->options = l.items;
    s->mesh = l.size;
    s->noptions = l.n;
    s->code = ctx.code ? strdup(ctx.code) : NULL;
    s->mb_per_point = ctx.mb_per_point;
    s->mb_source = strdup(ctx.mb_source);
    advise_close(&ctx);
    s->fast = calloc(s->noptions + 1, sizeof *s->fast);
    s->cheap = calloc(s->noptions + 1, sizeof *s->cheap);
    if (!ok || !s->fast || !s->cheap || !s->mb_source)
        return false;
    s->nfast = advise_rank(&l, false, s->scenario == 2, s->fast);
    s->ncheap = advise_rank(&l, true, s->scenario == 2, s->cheap);
    return true;
}

static bool load_row(const archive *a, const error_pool *pool, const table *t, size_t r,
                     advice_scenario *s, diag_list *d, const char *file, const csv_doc *doc)
{
    double kind = table_number_named(t, r, "scenario");
    *s = (advice_scenario){.scenario = kind == 2 ? 2 : 1, .ok = true};
    if (kind != 1 && kind != 2)
        diag_add(d, file, t->line[r], 1, "scenario must be 1 or 2");
    s->name = text_of(t, r, "name");
    s->title = text_of(t, r, "title");
    s->free = text_of(t, r, "free");
    s->size = text_of(t, r, "size");
    s->note = text_of(t, r, "note");
    char *campaign = text_of(t, r, "campaign"), *code = text_of(t, r, "code");
    bool ok = s->name && s->free && evaluate(a, pool, s, campaign, code);
    s->line = t->line[r];
    s->column = schema_cell_column(doc, s->line, s->error_cell);
    free(campaign);
    free(code);
    return ok;
}

bool advice_scenarios_load(const archive *a, const error_pool *pool, advice_scenarios *out,
                           diag_list *diags)
{
    memset(out, 0, sizeof *out);
    char *path;
    csv_doc doc;
    table t;
    bool ok = true;
    if (!schema_load_optional(a->dir, "advice.csv", advice_columns, &path, &doc, &t, diags)) {
        ok = path != NULL;
    } else {
        out->items = calloc(t.nrows ? t.nrows : 1, sizeof *out->items);
        ok = out->items != NULL;
        for (size_t r = 0; ok && r < t.nrows; r++)
            ok = load_row(a, pool, &t, r, &out->items[out->n++], diags, path, &doc);
    }
    csv_doc_free(&doc);
    table_free(&t);
    free(path);
    return ok;
}

void advice_scenarios_free(advice_scenarios *s)
{
    for (size_t i = 0; i < s->n; i++) {
        advice_scenario *x = &s->items[i];
        free(x->name), free(x->title), free(x->free), free(x->size), free(x->note);
        free(x->code), free(x->mb_source);
        free(x->options), free(x->mesh), free(x->fast), free(x->cheap);
    }
    free(s->items);
    memset(s, 0, sizeof *s);
}
