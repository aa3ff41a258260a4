/*
 * rjopts.h — the small text formats of the Romanazzi-Jimack adapters and
 * commands: experiment options "key=value;key=value", number lists
 * "4,8,16", sizes "65536x65536" and resource lists "wrg2-ethernet:64,...";
 * and the whole-number rule every model's options share (rjopts_whole).
 *
 * Ownership: rjopts_parse fills an rjopts released by rjopts_free; the
 * getters return pointers into it. Errors come back as one line in err.
 */
#ifndef PERFCAST_RJOPTS_H
#define PERFCAST_RJOPTS_H

#include <stdbool.h>
#include <stddef.h>
#include "models/overhead.h"

typedef struct {
    char *key;
    char *value;
} rjopt;

typedef struct {
    rjopt *items;
    size_t n;
} rjopts;

/* The option keys a model accepts (NULL-terminated), or NULL for a model
 * other than strip, block and multicluster: the one list the adapters
 * check against, also usable by `perfcast check`. */
const char *const *rjopts_keys(const char *model);

/* Parse "key=value;key=value" (spaces around keys and values ignored; an
 * empty or NULL text is no options). Rejects a key that is not in allowed
 * (NULL-terminated), naming the keys that are, and repeated keys. */
bool rjopts_parse(const char *text, const char *const *allowed, rjopts *out, char *err,
                  size_t errlen);

void rjopts_free(rjopts *o);

/* The value of key, or NULL. */
const char *rjopts_get(const rjopts *o, const char *key);

/* The value of key as a finite number of at least lo (def when absent);
 * false with err "option KEY=TEXT: expected a number >= LO" otherwise. */
bool rjopts_number(const rjopts *o, const char *key, double def, double lo, double *out,
                   char *err, size_t errlen);

/* Option work_tol of the strip, block and multi-cluster models: the
 * relative tolerance when runs are matched by work (default 0.02, at
 * least 0). The one rule of its value for the three. */
bool rjopts_work_tol(const rjopts *o, double *out, char *err, size_t errlen);

/* Option key's value text as a whole number from lo to hi (decimal
 * digits, an optional sign, blanks around them): *out. False with err
 * "option KEY=TEXT: expected a whole number from LO to HI" on anything
 * else, a number out of range included (strtoul reads "-1" as the
 * largest unsigned long). The one rule of every model's counting options
 * (scopred's max_terms, multicore's starts and max_iter). */
bool rjopts_whole(const char *key, const char *text, long lo, long hi, long *out, char *err,
                  size_t errlen);

/* An option whose value is one of two words: *out is true for `yes`,
 * false for `no`, def when the option is absent; false with err on
 * another value. */
bool rjopts_either(const rjopts *o, const char *key, const char *no, const char *yes, bool def,
                   bool *out, char *err, size_t errlen);

/* An option whose value is "exact" or "interpolate" (absent: interpolate);
 * *exact says which; false with err on another value. */
bool rjopts_exact(const rjopts *o, const char *key, bool *exact, char *err, size_t errlen);

/* How the strip and block models treat node contention (option
 * `contention`, models/contention.h). NONE is the papers' model. AUTO,
 * what an absent option means, is the roofline law where the cluster's
 * clusters.csv row gives both bandwidths (mbw_core_gbs, mbw_read_gbs)
 * and none elsewhere; ROOFLINE asks for it and warns where it cannot be
 * had. The rule was fixed before any campaign was measured with it. The
 * strip adapter goes further under AUTO (gen/fit/model_strip.c): where the
 * law is on it averages the law's and the paper's estimates, which real
 * 16-core nodes showed to bracket the runs. */
typedef enum { RJOPTS_CONTENTION_NONE = 0, RJOPTS_CONTENTION_AUTO, RJOPTS_CONTENTION_ROOFLINE }
    rjopts_contention_mode;

/* The `contention` option: roofline or none (absent: AUTO); false with err
 * on another value. */
bool rjopts_contention(const rjopts *o, rjopts_contention_mode *mode, char *err, size_t errlen);
/* Option overhead=log2|node|topology|auto (absent: auto, which keeps the
 * papers' log2 law unless a step law beats it by leave-one-level-out
 * error; models/overhead.h); false with err on another value. */
bool rjopts_overhead(const rjopts *o, overhead_law_kind *law, char *err, size_t errlen);

/* Parse "4,8,16" into at most max positive numbers; false with err on
 * anything else (empty items, text, non-positive values). */
bool rjopts_number_list(const char *text, double *out, size_t max, size_t *n, char *err,
                        size_t errlen);

/* Parse "AxB" (whole numbers >= 1, 'x' or 'X'); false with err otherwise. */
bool rjopts_size(const char *text, long *a, long *b, char *err, size_t errlen);

/* One free resource of `perfcast advise --free`. */
typedef struct {
    char name[128];
    long np;
} rjopts_resource;

/* Parse "name:np,name:np" into at most max resources. */
bool rjopts_resources(const char *text, rjopts_resource *out, size_t max, size_t *n, char *err,
                      size_t errlen);

#endif
