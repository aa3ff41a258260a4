/*
 * config_groups.h — which rows of a runs table are one configuration (the
 * same value in every identifying column, experiment_same_configuration),
 * in O(n log n): rows are hashed on their identifying cells, sorted by hash
 * and compared only within equal hashes.
 *
 * Ownership: config_groups fills *group_of (n entries, the caller frees).
 */
#ifndef PERFCAST_CONFIG_GROUPS_H
#define PERFCAST_CONFIG_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include "models/table.h"

/* group_of[i] = the configuration of rows[i], numbered 0.. in order of first
 * appearance; *ngroups their count. False only when out of memory. */
bool config_groups(const table *runs, const size_t *rows, size_t n, size_t **group_of,
                   size_t *ngroups);

#endif
