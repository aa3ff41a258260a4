/*
 * model_multicluster.c — adapter for the multicluster model (not yet implemented: it says so
 * instead of producing output).
 */
#include "gen/model_adapters.h"

#include <stdio.h>

bool model_multicluster_run(const experiment_input *in, report *out, char *err, size_t errlen)
{
    (void)in;
    (void)out;
    snprintf(err, errlen, "the multicluster model is not yet available");
    return false;
}
