/*
 * config_index.h — the configurations of a runs table: rows with the same
 * value (or both missing) in every identifying column
 * (config_column_identifies, as config_same_configuration compares them).
 * Configurations are kept in an open-addressing table keyed by a hash of a
 * row's identifying cells, and a hit is confirmed cell by cell,
 * so rows go to their configurations in one pass, in time linear in the
 * rows: comparing every row with every configuration seen so far was
 * quadratic (100,000 rows of 8,000 configurations took 40 s). The hash
 * agrees with the comparison: every missing value alike, 0 and -0 alike,
 * text by content.
 *
 * Configurations are numbered 0.. in order of first appearance.
 *
 * Ownership: config_index_init fills an index the caller releases with
 * config_index_free (also after a failed init); it borrows runs, which
 * must outlive it unchanged. config_groups fills *group_of (n entries),
 * which the caller frees.
 */
#ifndef PERFCAST_CONFIG_INDEX_H
#define PERFCAST_CONFIG_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "models/table.h"

/* True for the columns that identify a configuration: everything except
 * responses (time_*, metric_*), published_* columns and the measurement columns rep,
 * date, note, cycles, iterations, rel_residual, error_max. */
bool config_is_identifying(const char *column);

/* config_is_identifying for a column of a campaign's runs: also false
 * for a column flagged as a result (an experiment's response, see
 * campaign_mark_results), whatever its name. */
bool config_column_identifies(const table_column *col);

/* Whether rows a and b of runs are one configuration: the same value (or
 * both missing) in every identifying column. */
bool config_same_configuration(const table *runs, size_t a, size_t b);
/* Returned by config_index_add (out of memory) and config_index_find (no
 * such configuration). */
#define CONFIG_NONE ((size_t)-1)

/* Lines along one column: rows a and b are on the same line of column skip
 * when they agree in every identifying column but skip (CONFIG_NONE: every
 * one, config_same_configuration). config_line_hash hashes the same cells
 * (equal for rows on one line; different hashes, different lines), so
 * sorting by it brings a line's configurations together
 * (gen/fit/calibration.c measures how rough the runs are along them). */
bool config_same_line(const table *runs, size_t a, size_t b, size_t skip);
uint64_t config_line_hash(const table *runs, size_t row, size_t skip);

/* One configuration's place on the lines along a column: its line
 * (config_line_hash), its level there (the column's value, or what the
 * caller orders by) and the caller's index of it. Sorted with
 * config_line_point_compare (line, then level with a missing one last,
 * then index), a line's configurations stand together, ascending
 * (gen/fit/calibration.c's roughness, gen/fit/trend_line.h). */
typedef struct {
    uint64_t line;
    double x;
    size_t item;
} config_line_point;

int config_line_point_compare(const void *a, const void *b);

typedef struct {
    const table *runs;
    size_t *cols;       /* the identifying columns */
    size_t ncols;
    size_t *slot;       /* configuration + 1, 0 = empty; cap is a power of two */
    size_t cap;
    size_t *first_row;  /* each configuration's first row */
    uint64_t *hash;     /* each configuration's hash */
    size_t count;       /* configurations */
    size_t room;        /* entries in first_row and hash */
} config_index;

/* An empty index over runs, sized for about expected configurations (it
 * grows past them). False when out of memory. */
bool config_index_init(config_index *ix, const table *runs, size_t expected);

/* The configuration of row, a new one (*added true, when added is not
 * NULL) when no earlier row had it. CONFIG_NONE when out of memory. */
size_t config_index_add(config_index *ix, size_t row, bool *added);

/* The configuration of row among those added, or CONFIG_NONE. */
size_t config_index_find(const config_index *ix, size_t row);

void config_index_free(config_index *ix);

/* group_of[i] = the configuration of rows[i], numbered 0.. in order of
 * first appearance; *ngroups their count. False only when out of memory. */
bool config_groups(const table *runs, const size_t *rows, size_t n, size_t **group_of,
                   size_t *ngroups);

#endif
