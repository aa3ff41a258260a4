/*
 * namelist.c — see namelist.h.
 */
#include "gen/ingest/namelist.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

const char **namelist_campaigns(const archive *a, size_t *n)
{
    *n = 0;
    const char **names = malloc((a->ncampaigns + a->nskipped + 1) * sizeof *names);
    if (!names)
        return NULL;
    for (size_t i = 0; i < a->ncampaigns; i++)
        names[(*n)++] = a->campaigns[i].name;
    for (size_t i = 0; i < a->nskipped; i++)
        names[(*n)++] = a->skipped[i];
    return names;
}

const char **namelist_experiments(const campaign *c, size_t *n)
{
    *n = 0;
    const char **names = malloc((c->nexperiments + 1) * sizeof *names);
    if (!names)
        return NULL;
    for (size_t i = 0; i < c->nexperiments; i++)
        names[(*n)++] = c->experiments[i].name;
    return names;
}

const char **namelist_clusters(const archive *a, size_t *n)
{
    *n = 0;
    const char **names = malloc((a->nclusters + 1) * sizeof *names);
    if (!names)
        return NULL;
    for (size_t i = 0; i < a->nclusters; i++)
        names[(*n)++] = a->clusters[i].name;
    return names;
}

static bool among(const char *name, const char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

const char **namelist_codes(const archive *a, const campaign *only, size_t *n)
{
    *n = 0;
    size_t rows = 0;
    for (size_t k = 0; k < a->ncampaigns; k++)
        rows += a->campaigns[k].runs.nrows;
    const char **names = malloc((rows + 1) * sizeof *names);
    if (!names)
        return NULL;
    for (size_t k = 0; k < a->ncampaigns; k++) {
        const table *runs = &a->campaigns[k].runs;
        for (size_t r = 0; (!only || only == &a->campaigns[k]) && r < runs->nrows; r++) {
            const char *code = table_text_named(runs, r, "code");
            if (code && *code && !among(code, names, *n))
                names[(*n)++] = code;
        }
    }
    return names;
}
