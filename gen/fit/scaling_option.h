/*
 * scaling_option.h — the one experiment option every model accepts,
 * scaling=strong|weak (default strong): what a larger process count does
 * to the problem.
 *
 * strong  the problem is fixed: runs that stop getting faster as the
 *         process count grows have stopped gaining, and targets beyond
 *         that point are named (gen/fit/gain_stop.h).
 * weak    the problem grows with the process count: a time that stays
 *         flat is the aim of such runs, not a stop, so none is named.
 *         perfcast cannot tell the two apart when the problem size is no
 *         column of the runs (an Extra-P file with p alone), hence the
 *         option.
 *
 * Each model's own option parser skips the key (scaling_option_is_key);
 * model_check_options (gen/fit/model_adapters.h) checks its value once
 * for all of them, so `perfcast check` names a misspelt one.
 */
#ifndef PERFCAST_SCALING_OPTION_H
#define PERFCAST_SCALING_OPTION_H

#include <stdbool.h>
#include <stddef.h>

/* Whether key[0..len) is this option's key. */
bool scaling_option_is_key(const char *key, size_t len);

/* Whether value[0..len) is one the option takes ("strong" or "weak"):
 * then *weak says which (unchanged otherwise). The one rule of its values,
 * for the options cell and `perfcast import --scaling`. */
bool scaling_option_value(const char *value, size_t len, bool *weak);

/* Whether options ("key=value;key=value", NULL or "" = none) say
 * scaling=weak: *weak. False with err when its value is neither strong
 * nor weak, or it is given twice. */
bool scaling_option_weak(const char *options, bool *weak, char *err, size_t errlen);

#endif
