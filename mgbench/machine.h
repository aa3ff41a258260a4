/*
 * machine.h — where the processes run, and how fast memory streams there.
 */
#ifndef MGBENCH_MACHINE_H
#define MGBENCH_MACHINE_H

#include <mpi.h>

typedef struct {
    int nodes;            /* distinct shared-memory nodes */
    int ppn;              /* most processes on one node */
    int cores;            /* online cores of the most loaded node */
    int oversubscribed;   /* some node runs more processes than it has cores */
} mgb_placement;

/* Collective over comm. host_cores: the cores of this process's host (the
 * simulated host's under SMPI, see engine.h). Under SMPI a "node" is a
 * simulated host: MPI_COMM_TYPE_SHARED groups the ranks of one host. */
void mgb_placement_detect(MPI_Comm comm, int host_cores, mgb_placement *p);

/* STREAM triad a[i] = b[i] + s*c[i] over n doubles per process, all
 * processes at once after a barrier; returns the aggregate bandwidth in GB/s
 * counted as STREAM does (24 bytes per element), best of `reps`, or -1 when
 * a process is out of memory. Collective over comm. */
double mgb_stream_triad(MPI_Comm comm, long n, int reps);

#endif
