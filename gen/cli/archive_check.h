/*
 * archive_check.h — what `perfcast check` verifies beyond loading, so that
 * whatever `fit` or `build` would reject, `check` reports first, at the
 * FILE:LINE:COL of the cell at fault:
 *
 *   - every experiment of every loaded campaign: its options against its
 *     model, then the experiment run exactly as `fit` and `build` run it
 *     (responses, train and target selections over every run, the fit);
 *     the fits are least-squares and short iterative fits over at most a
 *     few thousand runs, cheap next to loading the archive;
 *   - every scenario of advice.csv, evaluated as the advice pages are;
 *   - acknowledgements.csv (gen/ingest/acknowledgements.h).
 *
 * Loading (gen/ingest/archive.h) already checks every cell, filter and formula
 * against the runs' columns and their types.
 */
#ifndef PERFCAST_ARCHIVE_CHECK_H
#define PERFCAST_ARCHIVE_CHECK_H

#include "gen/base/diag.h"
#include "gen/ingest/archive.h"

void archive_check(const archive *a, diag_list *d);

#endif
