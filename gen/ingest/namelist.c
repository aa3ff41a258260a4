/*
 * namelist.c — see namelist.h.
 */
#include "gen/ingest/namelist.h"

#include <stdlib.h>

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
