/*
 * fit_record.h — an experiment's fitted results as text, and back: what a
 * build needs from gen/fit for one experiment (its report: fit,
 * predictions, calibrated intervals, notes; whether it failed and where;
 * the errors of its targets; and the comparison of every model on its
 * split), so that a later build with the same inputs can reuse them
 * instead of refitting (gen/site/site_fitcache.h decides when it may).
 *
 * Method: one line per item, fields separated by tabs, a tag first
 * ("pred", "row", ...). Numbers are the 16 hex digits of their IEEE-754
 * bits, so every double round-trips bit for bit, NAN and infinities
 * included (and the cache holds no "nan" text to be mistaken for a page's
 * non-finite number); texts are
 * '=' then the text with '%', tab, CR and LF written as %XX, or '~' for a
 * NULL text. The text ends with "end"; anything after it, a missing
 * "end", an unknown tag, a field that does not parse, or a count that
 * does not match the prepared experiment makes the whole record invalid
 * (fit_record_read returns false): a damaged record is refitted, never
 * half trusted.
 *
 * Ownership: fit_record_write appends to the caller's buffer.
 * fit_record_read fills res->rep (freed and replaced), res->ok, error,
 * where and every target's error_pct of an experiment_prepare'd res, and
 * fills cmp (initialised first, released by the caller with
 * compare_result_free, also on failure).
 */
#ifndef PERFCAST_FIT_RECORD_H
#define PERFCAST_FIT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/fit/compare.h"
#include "gen/ingest/experiment.h"
#include "render/buf.h"

/* Append the record of res (as experiment_run left it) and cmp (as
 * compare_experiment_run filled it) to out. False when out of memory. */
bool fit_record_write(const experiment_result *res, const compare_result *cmp, rbuf *out);

/* Read a record of text[0..len) into res (prepared by experiment_prepare
 * from the same experiment: its targets are those the record was written
 * for) and cmp. False when the record is damaged, does not match res, or
 * memory runs out. */
bool fit_record_read(const char *text, size_t len, experiment_result *res, compare_result *cmp);

#endif
