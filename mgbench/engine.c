/*
 * engine.c — real or simulated MPI engine (see engine.h).
 *
 * smpicc compiles against SimGrid's mpi.h, which includes smpi/smpi.h and so
 * defines SMPI_H: that selects the simulated branch at compile time.
 */
#include "mgbench/engine.h"

#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

#ifdef SMPI_H
#include <simgrid/host.h>
#include <simgrid/zone.h>

void mgb_engine_detect(mgb_engine_info *e)
{
    e->engine = "smpi";
    e->simulated = 1;
    snprintf(e->platform, sizeof e->platform, "%s", sg_zone_get_name(sg_zone_get_root()));
    snprintf(e->host, sizeof e->host, "%s", sg_host_self_get_name());
    e->host_cores = sg_host_core_count(sg_host_self());
}

int mgb_engine_has_zone(const char *name)
{
    return name && sg_zone_get_by_name(name) != NULL;
}
#else
void mgb_engine_detect(mgb_engine_info *e)
{
    e->engine = "openmpi";
    e->simulated = 0;
    e->platform[0] = '\0';
    int len = 0;
    char name[MPI_MAX_PROCESSOR_NAME];
    if (MPI_Get_processor_name(name, &len) != MPI_SUCCESS)
        len = 0;
    name[len < MPI_MAX_PROCESSOR_NAME ? len : MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    snprintf(e->host, sizeof e->host, "%.127s", name);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    e->host_cores = cores > 0 ? (int)cores : 1;
}

int mgb_engine_has_zone(const char *name)
{
    (void)name;
    return 1;
}
#endif
