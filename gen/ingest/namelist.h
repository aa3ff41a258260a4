/*
 * namelist.h — the names an archive knows (campaigns, experiments,
 * clusters) as plain arrays, for "did you mean" suggestions and listings.
 *
 * Ownership: each function returns a malloc'ed array the caller frees
 * (free(), not its elements: they are borrowed from the archive and live as
 * long as it does); NULL with *n = 0 when there is none or out of memory.
 */
#ifndef PERFCAST_NAMELIST_H
#define PERFCAST_NAMELIST_H

#include <stddef.h>

#include "gen/ingest/archive.h"

/* Campaigns that loaded, then those skipped because of problems. */
const char **namelist_campaigns(const archive *a, size_t *n);
const char **namelist_experiments(const campaign *c, size_t *n);
const char **namelist_clusters(const archive *a, size_t *n);

/* The codes the runs name (their `code` cells, each once, in the order
 * first met): of campaign only, or of every loaded campaign when only is
 * NULL. */
const char **namelist_codes(const archive *a, const campaign *only, size_t *n);

#endif
