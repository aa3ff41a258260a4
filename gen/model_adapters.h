/*
 * model_adapters.h — one adapter per model, each in gen/model_<name>.c.
 * An adapter turns an experiment_input (see gen/experiment.h) into the
 * model library's own inputs, fits, predicts and fills the report.
 */
#ifndef PERFCAST_MODEL_ADAPTERS_H
#define PERFCAST_MODEL_ADAPTERS_H

#include "gen/experiment.h"
#include "models/multicore.h"

bool model_scopred_run(const experiment_input *in, report *out, char *err, size_t errlen);
bool model_strip_run(const experiment_input *in, report *out, char *err, size_t errlen);
bool model_block_run(const experiment_input *in, report *out, char *err, size_t errlen);
bool model_multicluster_run(const experiment_input *in, report *out, char *err, size_t errlen);
bool model_multicore_run(const experiment_input *in, report *out, char *err, size_t errlen);

/* Option checks the adapters run first, also used by `perfcast check`
 * (through model_check_options). Each returns false with a message. */
bool model_scopred_check_options(const table *runs, const char *options, char *err, size_t errlen);
bool model_multicore_parse_options(const char *options, multicore_options *out, char *err,
                                   size_t errlen);

/* The options of experiment e are valid for its model (keys known, values
 * well formed where the model checks them without data). */
bool model_check_options(const campaign *c, const experiment_info *e, char *err, size_t errlen);

#endif
