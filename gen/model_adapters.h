/*
 * model_adapters.h — one adapter per model, each in gen/model_<name>.c.
 * An adapter turns an experiment_input (see gen/experiment.h) into the
 * model library's own inputs, fits, predicts and fills the report.
 */
#ifndef PERFCAST_MODEL_ADAPTERS_H
#define PERFCAST_MODEL_ADAPTERS_H

#include "gen/experiment.h"

bool model_scopred_run(const experiment_input *in, report *out, char *err, size_t errlen);
bool model_strip_run(const experiment_input *in, report *out, char *err, size_t errlen);
bool model_block_run(const experiment_input *in, report *out, char *err, size_t errlen);
bool model_multicluster_run(const experiment_input *in, report *out, char *err, size_t errlen);
bool model_multicore_run(const experiment_input *in, report *out, char *err, size_t errlen);

#endif
