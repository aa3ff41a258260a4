/*
 * site_columns.h — which of a campaign's columns the site shows for a set
 * of runs, and their cells as text: the labels every page and the cost
 * tables use for a configuration ("cluster, np=16, N=8000").
 *
 * Ownership: site_shown_columns returns two arrays the caller frees (also
 * when it returns false: out of memory); the other functions append to
 * the caller's rbuf.
 */
#ifndef PERFCAST_SITE_COLUMNS_H
#define PERFCAST_SITE_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/ingest/archive.h"
#include "models/table.h"
#include "render/buf.h"

/* Whether the cell of column c at row is empty. */
bool site_cell_missing(const table_column *c, size_t row);

/* One cell's value as text ("8000", "wrg3-myrinet"); "" when missing. */
void site_cell_text(const table *t, size_t row, size_t col, rbuf *out);

/* Whether a column of c counts processes (its process count, campaign_procs,
 * or npa, npb, nodes, ppn, P, Q, and np_a, np_b: the processes on each side
 * of a multi-cluster job): such an x axis is drawn in powers of two. */
bool site_is_process_count(const campaign *c, const char *column);

/* The identifying columns of c->runs to show for rows[0..n): cluster and
 * the process count (campaign_procs) always (when some row has them), and
 * every other identifying column whose value differs between the rows;
 * varies says which differ. Both arrays are the caller's to free (also
 * when false: out of memory). */
bool site_shown_columns(const campaign *c, const size_t *rows, size_t n, size_t **shown,
                        bool **varies, size_t *nshown);

/* "name=value, ..." of the columns cols of row (the cluster as its bare
 * name, and only with_cluster; leaving out the column skip, -1 = none;
 * missing cells left out). */
void site_columns_label(const table *t, const size_t *cols, size_t ncols, size_t row,
                        bool with_cluster, int skip, rbuf *out);


/* What site_columns_words puts in. */
enum {
    SITE_WORDS_CLUSTER = 1,   /* "on dev-16core" at the end */
    SITE_WORDS_PROCESSES = 2, /* the grid, the process count, per node, nodes */
};

/* The same configuration in words, as a person names a job, for pages
 * (CSV files keep site_columns_label's name=value): "4×4 grid, 4096²
 * mesh, 16 processes, 16 per node, 32.2 MB per process on dev-16core".
 * npa × npb is a grid (npa alone a strip, npa × 1), P × Q a process grid,
 * na × nb the mesh (na alone its rows, nb alone the row length), the
 * process count (campaign_procs) "processes", ppn "per node", seq_of_np
 * "the per-process mesh of N processes", work_mb "MB per process" to 3
 * significant digits, tag_NAME "NAME value"; any other
 * column stays "name=value" with numbers to 4 significant digits. Columns
 * cols of row, skip (-1 none) and missing cells left out; what else goes
 * in is parts (SITE_WORDS_*). Nothing is appended when nothing is left. */
void site_columns_words(const campaign *c, const size_t *cols, size_t ncols, size_t row,
                        int skip, unsigned parts, rbuf *out);

#endif
