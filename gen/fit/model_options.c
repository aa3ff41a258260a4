/*
 * model_options.c — one entry point to check an experiment's options
 * against its model, so `perfcast check` reports a misspelt key before any
 * fit runs. Each model keeps the knowledge of its keys in its own adapter.
 */
#include "gen/fit/model_adapters.h"

#include <string.h>

#include "gen/fit/scaling_option.h"

bool model_check_options(const campaign *c, const experiment_info *e, char *err, size_t errlen)
{
    bool weak;
    if (!scaling_option_weak(e->options, &weak, err, errlen))
        return false; /* the one option of every model, checked once here */
    if (strcmp(e->model, "scopred") == 0)
        return model_scopred_check_options(&c->runs, e, err, errlen);
    if (strcmp(e->model, "multicore") == 0) {
        multicore_options o;
        return model_multicore_parse_options(e->options, &o, err, errlen);
    }
    /* Keys and values, as each adapter reads them before it fits. */
    if (strcmp(e->model, "strip") == 0)
        return model_strip_check_options(e->options, err, errlen);
    if (strcmp(e->model, "block") == 0)
        return model_block_check_options(e->options, err, errlen);
    if (strcmp(e->model, "multicluster") == 0)
        return model_multicluster_check_options(e->options, err, errlen);
    return true; /* an unknown model is reported on its own */
}
