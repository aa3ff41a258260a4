/*
 * model_strip.c — adapter for the strip model (not yet implemented: it says so
 * instead of producing output).
 */
#include "gen/model_adapters.h"

#include <stdio.h>

bool model_strip_run(const experiment_input *in, report *out, char *err, size_t errlen)
{
    (void)in;
    (void)out;
    snprintf(err, errlen, "the strip model is not yet available");
    return false;
}
