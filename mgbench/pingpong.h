/*
 * pingpong.h — measures the link between two ranks (mgbench --pingpong):
 * the boundary pair of a job split across two clusters (A's last rank and
 * B's first) or, without a split, rank 0 and the last rank.
 *
 * Method: the pair trades messages of the sizes mgbench's halo rows have,
 * 8 (N/2^l + 2) bytes for every level l of the mesh row N while
 * N/2^l >= 4 (a row of doubles with its two ghost columns: the finest and
 * every coarser level's row), MGB_PINGPONG_TRIPS round trips per size after
 * one untimed warm-up trip; a size's one-way time is the round trips' time
 * over 2 x MGB_PINGPONG_TRIPS. Latency and bandwidth are the least-squares
 * line through (bytes, one-way time):
 *
 *     time = latency + bytes / bandwidth
 *
 * the cost law the multi-cluster model charges per message
 * (models/multicluster.h). What the line absorbs is what a message really
 * pays on that path: the MPI library's (or SimGrid's) per-message
 * overheads and its latency and bandwidth factors, not only the wires'.
 *
 * Ownership: nothing is allocated; the caller owns every array.
 */
#ifndef MGBENCH_PINGPONG_H
#define MGBENCH_PINGPONG_H

#include <mpi.h>

enum {
    MGB_PINGPONG_MAX_SIZES = 32, /* a row of 2^31 doubles has 30 levels >= 4 */
    MGB_PINGPONG_TRIPS = 50      /* timed round trips per size */
};

/* The measured link: the fitted line and what it was fitted on. */
typedef struct {
    double latency_s;     /* the line's intercept, s per message */
    double bw_bytes_s;    /* 1 / the line's slope, bytes/s */
    double max_bytes;     /* the largest message measured */
    int nsizes;
} mgb_pingpong_link;

/* The message sizes of rows of n_row values: 8 (n_row/2^l + 2) bytes for
 * l = 0, 1, ... while n_row/2^l >= 4 and l < max (at least the finest).
 * Returns how many were written to bytes. */
int mgb_pingpong_sizes(long n_row, double *bytes, int max);

/* The least-squares line time = latency + bytes/bandwidth through n points.
 * Returns 0, or -1 when it cannot be had: fewer than two distinct sizes, or
 * a slope not > 0 (time that does not grow with the size gives no
 * bandwidth) or a non-finite value. The latency may come out negative
 * when the points are noisy; it is clamped to 0 (*clamped set, may be
 * NULL) since no message costs less than nothing. */
int mgb_pingpong_fit(const double *bytes, const double *seconds, int n, mgb_pingpong_link *out,
                     int *clamped);

/* Collective over comm: ranks `ping` and `pong` trade the messages of
 * mgb_pingpong_sizes(n_row) and ping fits the line; every rank receives
 * the result. Returns 0, or -1 (out of memory, no line: *out zeroed). */
int mgb_pingpong_measure(MPI_Comm comm, int ping, int pong, long n_row, mgb_pingpong_link *out);

#endif
