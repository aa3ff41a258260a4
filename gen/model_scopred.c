/*
 * model_scopred.c — adapter for the scopred model (not yet implemented: it says so
 * instead of producing output).
 */
#include "gen/model_adapters.h"

#include <stdio.h>

bool model_scopred_run(const experiment_input *in, report *out, char *err, size_t errlen)
{
    (void)in;
    (void)out;
    snprintf(err, errlen, "the scopred model is not yet available");
    return false;
}
