/*
 * pingpong.c — the link between two ranks, measured (see pingpong.h).
 */
#include "mgbench/pingpong.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int mgb_pingpong_sizes(long n_row, double *bytes, int max)
{
    int n = 0;
    for (long len = n_row; n < max && (n == 0 || len >= 4); len /= 2)
        bytes[n++] = 8.0 * (double)(len + 2);
    return n;
}

int mgb_pingpong_fit(const double *bytes, const double *seconds, int n, mgb_pingpong_link *out,
                     int *clamped)
{
    memset(out, 0, sizeof *out);
    if (clamped)
        *clamped = 0;
    if (n < 2)
        return -1;
    double mx = 0, my = 0;
    for (int i = 0; i < n; i++) {
        mx += bytes[i] / n;
        my += seconds[i] / n;
        out->max_bytes = fmax(out->max_bytes, bytes[i]);
    }
    double sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        sxx += (bytes[i] - mx) * (bytes[i] - mx);
        sxy += (bytes[i] - mx) * (seconds[i] - my);
    }
    double slope = sxx > 0 ? sxy / sxx : NAN;
    if (!(slope > 0) || !isfinite(slope) || !isfinite(my))
        return -1;
    double intercept = my - slope * mx;
    if (intercept < 0 && clamped)
        *clamped = 1;
    out->latency_s = fmax(intercept, 0);
    out->bw_bytes_s = 1 / slope;
    out->nsizes = n;
    return 0;
}

/* One size: the one-way time of MGB_PINGPONG_TRIPS round trips (on ping). */
static double time_size(MPI_Comm comm, int me, int ping, int pong, char *buf, int len)
{
    int peer = me == ping ? pong : ping;
    double t0 = 0;
    for (int trip = -1; trip < MGB_PINGPONG_TRIPS; trip++) { /* trip -1: the warm-up */
        if (trip == 0)
            t0 = MPI_Wtime();
        if (me == ping) {
            MPI_Send(buf, len, MPI_CHAR, peer, 0, comm);
            MPI_Recv(buf, len, MPI_CHAR, peer, 0, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, len, MPI_CHAR, peer, 0, comm, MPI_STATUS_IGNORE);
            MPI_Send(buf, len, MPI_CHAR, peer, 0, comm);
        }
    }
    return (MPI_Wtime() - t0) / (2.0 * MGB_PINGPONG_TRIPS);
}

int mgb_pingpong_measure(MPI_Comm comm, int ping, int pong, long n_row, mgb_pingpong_link *out)
{
    int me;
    MPI_Comm_rank(comm, &me);
    double bytes[MGB_PINGPONG_MAX_SIZES], seconds[MGB_PINGPONG_MAX_SIZES];
    int n = mgb_pingpong_sizes(n_row, bytes, MGB_PINGPONG_MAX_SIZES);
    char *buf = (me == ping || me == pong) ? calloc((size_t)bytes[0], 1) : NULL;
    int ok = buf || !(me == ping || me == pong), all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    int rc = all_ok ? 0 : -1;
    MPI_Barrier(comm);
    for (int i = 0; all_ok && i < n; i++)
        seconds[i] = buf ? time_size(comm, me, ping, pong, buf, (int)bytes[i]) : 0;
    free(buf);
    memset(out, 0, sizeof *out);
    if (all_ok && me == ping)
        rc = mgb_pingpong_fit(bytes, seconds, n, out, NULL);
    MPI_Bcast(&rc, 1, MPI_INT, ping, comm);
    MPI_Bcast(out, (int)sizeof *out, MPI_BYTE, ping, comm);
    return rc;
}
