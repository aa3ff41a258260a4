/*
 * model_adapters.h — one adapter per model, each in gen/model_<name>.c.
 * An adapter turns an experiment_input (see gen/ingest/experiment.h) into the
 * model library's own inputs, fits, predicts and fills the report.
 */
#ifndef PERFCAST_MODEL_ADAPTERS_H
#define PERFCAST_MODEL_ADAPTERS_H

#include "gen/ingest/experiment.h"
#include "models/multicore.h"

bool model_scopred_run(const experiment_input *in, report *out, char *err, size_t errlen);
bool model_strip_run(const experiment_input *in, report *out, char *err, size_t errlen);
bool model_block_run(const experiment_input *in, report *out, char *err, size_t errlen);
bool model_multicluster_run(const experiment_input *in, report *out, char *err, size_t errlen);
bool model_multicore_run(const experiment_input *in, report *out, char *err, size_t errlen);

/* Experiments of another campaign that may lend their backtests to an
 * experiment whose own runs allow none (gen/fit/calibration.h): the campaign
 * its options name, the model of the lending experiments there, and why
 * they may (for the interval's method text). */
typedef struct {
    char campaign[128];
    const char *model; /* static text */
    const char *why;   /* static text */
} model_lender;

/* A model's lender from an experiment's options: false when the options
 * name none (or do not parse: the fit reports that). */
typedef bool (*model_lender_fn)(const char *options, model_lender *out);

/* Multi-cluster: backtests_from=CAMPAIGN, whose strip experiments lend. */
bool model_multicluster_lender(const char *options, model_lender *out);

/* Option checks the adapters run first, also used by `perfcast check`
 * (through model_check_options). Each returns false with a message. */
bool model_scopred_check_options(const table *runs, const experiment_info *e, char *err,
                                 size_t errlen);
bool model_multicore_parse_options(const char *options, multicore_options *out, char *err,
                                   size_t errlen);
bool model_strip_check_options(const char *options, char *err, size_t errlen);
bool model_block_check_options(const char *options, char *err, size_t errlen);
bool model_multicluster_check_options(const char *options, char *err, size_t errlen);

/* The options of experiment e are valid for its model (keys known, values
 * well formed where the model checks them without data). */
bool model_check_options(const campaign *c, const experiment_info *e, char *err, size_t errlen);

#endif
