/*
 * model_block.c — adapter for the block model (not yet implemented: it says so
 * instead of producing output).
 */
#include "gen/model_adapters.h"

#include <stdio.h>

bool model_block_run(const experiment_input *in, report *out, char *err, size_t errlen)
{
    (void)in;
    (void)out;
    snprintf(err, errlen, "the block model is not yet available");
    return false;
}
