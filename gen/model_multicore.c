/*
 * model_multicore.c — adapter for the multicore model (not yet implemented: it says so
 * instead of producing output).
 */
#include "gen/model_adapters.h"

#include <stdio.h>

bool model_multicore_run(const experiment_input *in, report *out, char *err, size_t errlen)
{
    (void)in;
    (void)out;
    snprintf(err, errlen, "the multicore model is not yet available");
    return false;
}
