/*
 * runs_csv.h — appends one run to an archive campaign's runs.csv.
 *
 * The file is created with the header when absent. Appending takes an
 * exclusive fcntl lock on the file, checks that its header is mgbench's,
 * and writes the whole row with one write(2) on an O_APPEND descriptor, so
 * any number of runs may append at once without torn or lost rows.
 *
 * The last column, `engine`, says what ran the solve: `openmpi` (a real MPI
 * run) or `smpi` (simulated by SimGrid SMPI). A runs.csv written before the
 * column existed (the same header without `engine`) still takes real runs:
 * their rows are written without the cell, which readers default to
 * `openmpi`; a simulated row is refused there, since it would read as real.
 *
 * A split run (mgbench --split) adds four columns after `engine`: np_a,
 * np_b, rows_a, rows_b (the processes and mesh rows of each side, as the
 * multi-cluster model reads them). A file created by a split run has them;
 * any row appended there writes them (empty for an ordinary run), and a
 * split row is refused in a file without them.
 *
 * A ping-pong row (mgbench --pingpong, kind "pingpong") adds five more
 * after those: kind, cluster_b, bytes, link_lat_us, link_bw_gbs (the pair's
 * clusters are cluster and cluster_b, the fitted latency in microseconds
 * and bandwidth in GB/s, the largest message in bytes; archive/README.md).
 * Its solve columns (npa.. rel_residual, seq_of_np, time_s) are empty. A
 * file created by a ping-pong row has all the columns; any row appended
 * there writes them (empty kind: a solve), and a ping-pong row is refused
 * in a file without them.
 */
#ifndef MGBENCH_RUNS_CSV_H
#define MGBENCH_RUNS_CSV_H

#include <stddef.h>

/* One row in the archive schema (archive/README.md). Text fields may be
 * NULL (empty cell); numbers below zero mean "empty" where noted. */
typedef struct {
    const char *cluster;   /* required */
    long np, npa, npb;
    long na, nb;           /* mesh intervals */
    long nodes, ppn;
    double work_mb;        /* grid storage per process, MiB */
    double time_s;         /* solve wall time, max over processes */
    double time_comm_s;    /* time in communication, max over processes */
    double time_setup_s;
    long cycles;           /* V-cycles run */
    double rel_residual;   /* final ||b - Au|| / ||b|| */
    long seq_of_np;        /* sequential run of a per-process mesh: the np it
                              stands for; < 0 for an ordinary run */
    long rep;
    const char *date;      /* YYYY-MM-DD */
    const char *note;
    const char *engine;    /* "openmpi" or "smpi"; NULL = "openmpi" */
    long np_a, np_b;       /* split run: processes of each side; np_a <= 0 = no split */
    long rows_a, rows_b;   /* split run: mesh rows of each side */
    const char *kind;      /* "pingpong", or NULL for a solve */
    const char *cluster_b; /* ping-pong: the far side's cluster */
    double bytes;          /* ping-pong: the largest message */
    double link_lat_us;    /* ping-pong: fitted latency, us */
    double link_bw_gbs;    /* ping-pong: fitted bandwidth, GB/s (1e9 bytes/s) */
} mgb_run_row;

/* The columns of a runs.csv: before `engine`, with it, with the split's,
 * with the ping-pong's too. */
typedef enum {
    MGB_COLUMNS_LEGACY = 0,
    MGB_COLUMNS_ENGINE = 1,
    MGB_COLUMNS_SPLIT = 2,
    MGB_COLUMNS_LINK = 3
} mgb_columns;

/* The header line mgbench writes for ordinary rows (no newline). */
const char *mgb_runs_header(void);

/* The header line of a file created by a split run (no newline). */
const char *mgb_runs_split_header(void);

/* The header line of a file created by a ping-pong row (no newline). */
const char *mgb_runs_link_header(void);

/* Formats the row (with its newline) into buf for a file with the given
 * columns; returns the length, or -1 when it does not fit. */
int mgb_runs_format(const mgb_run_row *row, mgb_columns columns, char *buf, size_t len);

/* Appends the row to path, creating the file (with header) and its folder
 * when needed. Returns 0, or -1 with the reason in err. */
int mgb_runs_append(const char *path, const mgb_run_row *row, char *err, size_t errlen);

#endif
