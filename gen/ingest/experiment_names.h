/*
 * experiment_names.h — what an experiment's name may be, and the names the
 * site derives from it.
 *
 * A name is any text without control characters ("FFT (comm), 3-D",
 * "Table 5 <EP>"): pages show it as given (escaped), and only file names
 * and anchors are derived from it: files use its slug (gen/base/slug.h),
 * so "FFT (comm), 3-D" writes fft-comm-3-d-<hash>-predictions.csv, and
 * links use the GitHub-style id of its heading "Experiment FFT (comm),
 * 3-D" (render/html.h), experiment-fft-comm-3-d, so that #anchors work
 * in the .md and the .html alike. Two different names that give one slug
 * would overwrite each other's files, two that give one heading id would
 * send links to the wrong section ("FFT (comm)" and "FFT comm"): both are
 * problems of experiments.csv, reported at the later name's cell.
 *
 * Ownership: nothing is allocated but into the caller's rbuf.
 */
#ifndef PERFCAST_EXPERIMENT_NAMES_H
#define PERFCAST_EXPERIMENT_NAMES_H

#include <stddef.h>
#include "gen/base/diag.h"
#include "gen/ingest/experiment_info.h"
#include "render/buf.h"

/* NULL when name may name an experiment, else why not. */
const char *experiment_name_problem(const char *name);

/* The name's slug (file names), appended to out. */
void experiment_name_slug(const char *name, rbuf *out);

/* The id of its heading on the campaign page ("experiment-fft-comm-3-d"). */
void experiment_name_anchor(const char *name, rbuf *out);

/* Report to d (FILE:LINE:COL of the later name cell) every experiment of
 * exps[0..n) whose name differs from an earlier one's but gives the same
 * slug or the same anchor. Identical names are left to the duplicate-name
 * check. */
void experiment_names_check_clashes(const experiment_info *exps, size_t n, const char *file,
                                    diag_list *d);

#endif
