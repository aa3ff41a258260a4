/*
 * engine.h — which MPI engine runs mgbench: a real MPI library (Open MPI)
 * or SimGrid's SMPI simulator, and under SMPI which simulated platform.
 *
 * Built with smpicc, mgbench runs every rank inside one simulation: its
 * MPI_Wtime is the *simulated* clock, the hosts and cores are the simulated
 * platform's (not this machine's), and the rows it appends must say so
 * (runs.csv `engine` = smpi, the note names the platform). Built with mpicc
 * the engine is `openmpi` and the machine is the real one.
 *
 * No allocation: the strings point into the engine info or into SimGrid's
 * own (static for the run) names.
 */
#ifndef MGBENCH_ENGINE_H
#define MGBENCH_ENGINE_H

#include <stddef.h>

typedef struct {
    const char *engine;     /* "openmpi" or "smpi": runs.csv `engine` */
    int simulated;          /* 1 under SMPI */
    char platform[128];     /* SMPI: the platform's root zone id; "" on real MPI */
    char host[128];         /* the (simulated) host this process runs on */
    int host_cores;         /* cores of that host (simulated under SMPI) */
} mgb_engine_info;

/* Fills e for the calling process (local: no communication). */
void mgb_engine_detect(mgb_engine_info *e);

/* Under SMPI: 1 when the platform has a zone named `name` (every simulated
 * cluster of a platform written by mgbench/smpi_platform is a zone named
 * after its clusters.csv row). On real MPI: always 1 (the cluster name
 * cannot be checked there). */
int mgb_engine_has_zone(const char *name);

#endif
