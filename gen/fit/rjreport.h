/*
 * rjreport.h — what the strip, block and multi-cluster adapters put in a
 * report (models/report.h), written once:
 *
 *   coefficients  "<prefix>alpha(4)", "<prefix>gamma(4)", ... per measured np,
 *                 then "<prefix>c", "<prefix>d" (and "<prefix>e" for the
 *                 block model's quadratic), "<prefix>gamma" = gamma(largest np);
 *                 none has a standard error (NAN: the papers fit exact or
 *                 nearly exact lines and give none);
 *   stats         "<prefix>runs", "<prefix>configurations",
 *                 "<prefix>rep_spread_max_pct" (largest (max-min)/mean of the
 *                 repetitions of a configuration used), "<prefix>mb_per_point";
 *   warnings      np left out for lacking two work levels, alpha reduced to
 *                 a line, runs left out and why;
 *   predictions   the estimate, every interval NAN, and a note that says
 *                 the model gives a point estimate only and how it was made.
 *
 * All functions return false only when out of memory.
 */
#ifndef PERFCAST_RJREPORT_H
#define PERFCAST_RJREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include "models/meshrun.h"
#include "models/overhead.h"
#include "models/report.h"

/* A formatted warning. */
bool rjreport_warn(report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A formatted diagnostic. */
bool rjreport_diagnose(report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The coefficients of a fitted law, and its warnings (skipped np, reduced
 * degree) and diagnostic (largest residual of the lines). */
bool rjreport_law(report *r, const char *prefix, const overhead_law *law);

/* The configuration statistics of a fit. */
bool rjreport_configs(report *r, const char *prefix, const mesh_configs *cs,
                      double max_spread_pct, double mb_per_point);

/* The law as signed terms, "0.5 + 0.1*log2(np) - 0.002*log2(np)^2 +
 * 0.003*work_mb"; with leading_plus a first " + " or " - " too (to follow
 * another term). Returns the length written (as snprintf). */
int rjreport_law_text(char *buf, size_t len, const overhead_law *law, bool leading_plus);

/* A prediction with no interval; note is copied. */
bool rjreport_predict(report *r, size_t config, double estimate, bool extrapolation,
                      const char *note);

/* "exact per-process mesh 512x65536, 3 runs, spread 1.2%" or "interpolated
 * in work" — how a reference time (Tcomp, T(2,2)) was found. */
void rjreport_reference(char *buf, size_t len, mesh_match match, double pa, double pb,
                        size_t reps, double spread_pct);

#endif
