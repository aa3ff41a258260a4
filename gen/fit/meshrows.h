/*
 * meshrows.h — reads the rows of a campaign's runs.csv that the strip,
 * block and multi-cluster adapters need, as the models' mesh_run values.
 *
 * Grid conventions (archive/README.md): np = 1 is a sequential run (grid
 * 1 x 1); a row without npa/npb is a strip np x 1 (each process holds
 * na/np rows of length nb); a row that gives npa and npb must have
 * npa*npb = np. The per-process mesh is (na/npa) x (nb/npb), unknown when
 * na or nb is missing.
 *
 * Ownership: meshrows_collect fills a caller-owned array; strings in a
 * meshrow are borrowed from the table.
 */
#ifndef PERFCAST_MESHROWS_H
#define PERFCAST_MESHROWS_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/ingest/experiment.h"
#include "models/meshrun.h"
#include "models/overhead.h"

/* One row, as the mesh models see it. */
typedef struct {
    const char *cluster;
    const char *code;      /* NULL when the campaign has no code column or the cell is empty */
    double np, npa, npb;
    double na, nb;         /* NAN when missing */
    double pa, pb;         /* per-process mesh, NAN when na/nb missing */
    double work_mb;        /* NAN when missing */
    double ppn;            /* processes per node (gen/ingest/run_layout.h); NAN unknown */
    long line;             /* line in runs.csv */
} meshrow;

/* Read row of c->runs (the process count from campaign_procs(c); a, which
 * may be NULL, tells a one-node cluster's processes per node); false
 * with err ("runs.csv line 12:
 * npa*npb = 8 but np = 4") when the grid is inconsistent. */
bool meshrows_read(const archive *a, const campaign *c, size_t row, meshrow *out, char *err, size_t errlen);

/* A training run with its group. */
typedef struct {
    const char *cluster;
    const char *code;
    mesh_run run;
    long line;
    double ppn;            /* processes per node (gen/ingest/run_layout.h); NAN unknown */
    size_t row;           /* its row of the campaign's runs table */
    overhead_place place; /* np, nodes, level (meshrows_place); NAN unless placed */
} labelled_run;

/* Where row of c sits on its cluster: its np, nodes and network level
 * (gen/ingest/run_layout.h); NAN parts when they cannot be told. */
overhead_place meshrows_place(const archive *a, const campaign *c, size_t row);

/* Where a job of np processes would sit, laid out as row is (its processes
 * per node, its cluster's network): a block target's strip of npa. */
overhead_place meshrows_place_np(const archive *a, const campaign *c, size_t row, double np);

/* Add the known places (nodes not NAN) of the runs of cluster and code
 * among runs[0..n) to out[0..count), one per np (the first wins). Returns
 * the new count; out needs room for count + n. */
size_t meshrows_places(const labelled_run *runs, size_t n, const char *cluster, const char *code,
                       overhead_place *out, size_t count);

/* Same cluster, and the same code (missing equals missing). */
bool meshrows_same_group(const char *cluster_a, const char *code_a, const char *cluster_b,
                         const char *code_b);

/* The given rows that have a time (experiment_row_response of the
 * responses), as labelled runs, into out (room for n). Returns the count,
 * or -1 with err when a row is invalid (a grid that does not multiply to
 * np, a time that is not > 0). */
long meshrows_label(const archive *a, const campaign *c, const size_t *rows, size_t n, char *const *responses,
                    size_t nresponses, labelled_run *out, char *err, size_t errlen);

/* The training runs of an experiment (in->train_rows), labelled and
 * placed. The
 * caller frees *out; -1 with err on a bad row or out of memory. */
long meshrows_training(const experiment_input *in, labelled_run **out, char *err, size_t errlen);

/* The runs of cluster and code, into out (room for n), and their
 * processes per node into ppn (room for n; may be NULL). Returns the
 * count. */
size_t meshrows_select(const labelled_run *runs, size_t n, const char *cluster, const char *code,
                       mesh_run *out, double *ppn);

#endif
