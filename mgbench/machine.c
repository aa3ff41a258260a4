/*
 * machine.c — process placement and triad bandwidth (see machine.h).
 */
#include "mgbench/machine.h"

#include <stdlib.h>

void mgb_placement_detect(MPI_Comm comm, int host_cores, mgb_placement *p)
{
    MPI_Comm node;
    int local_rank, local_size;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local_rank);
    MPI_Comm_size(node, &local_size);
    MPI_Comm_free(&node);
    long cores = host_cores;
    int mine[3] = {local_rank == 0, local_size, local_size > cores};
    int sum[3], max[3];
    MPI_Allreduce(mine, sum, 3, MPI_INT, MPI_SUM, comm);
    MPI_Allreduce(mine, max, 3, MPI_INT, MPI_MAX, comm);
    p->nodes = sum[0];
    p->ppn = max[1];
    p->cores = (int)(cores > 0 ? cores : 1);
    p->oversubscribed = max[2];
}

static void triad(double *restrict a, const double *restrict b,
                  const double *restrict c, double s, long n)
{
    for (long i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
}

double mgb_stream_triad(MPI_Comm comm, long n, int reps)
{
    double *a = malloc((size_t)n * sizeof *a);
    double *b = malloc((size_t)n * sizeof *b);
    double *c = malloc((size_t)n * sizeof *c);
    int bad = !a || !b || !c, any, size;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, comm);
    MPI_Comm_size(comm, &size);
    double best = -1;
    if (!any) {
        for (long i = 0; i < n; i++)
            a[i] = 0, b[i] = 1, c[i] = 2;
        for (int r = 0; r < reps; r++) {
            MPI_Barrier(comm);
            double t = MPI_Wtime();
            triad(a, b, c, 3.0, n);
            t = MPI_Wtime() - t;
            double tmax;
            MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, comm);
            double gbs = 24.0 * (double)n * size / tmax / 1e9;
            if (gbs > best)
                best = gbs;
        }
        if (a[n / 2] != 7.0) /* the triad really ran: 1 + 3*2 */
            best = -1;
    }
    free(a);
    free(b);
    free(c);
    return best;
}
