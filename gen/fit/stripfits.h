/*
 * stripfits.h — strip-model fits made on first use, one per (cluster, code,
 * message length) over a set of labelled runs, and shared by whoever needs
 * them: the strip and multi-cluster adapters and `perfcast advise`.
 *
 * Ownership: a stripfits owns its fits (released by stripfits_free); the
 * labelled runs and the strings in them are borrowed and must outlive it.
 */
#ifndef PERFCAST_STRIPFITS_H
#define PERFCAST_STRIPFITS_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/fit/meshrows.h"
#include "gen/fit/node_contention.h"
#include "models/report.h"
#include "models/strip.h"

/* Options shared by every fit (see gen/fit/model_strip.c for the keys). */
typedef struct {
    double np0[32];
    size_t nnp0;          /* 0 = every np >= 2 among the runs */
    double work_tol;
    /* Node contention (gen/fit/node_contention.h): the law of each fit's
     * cluster in arch under this mode. arch NULL: no law, and no line
     * about it (the paper's model). */
    rjopts_contention_mode contention;
    const archive *arch;
    overhead_law_kind law;  /* option overhead=; 0 = log2, the paper's */
} stripfit_settings;

typedef struct {
    const char *cluster;
    const char *code;
    double msg_len;       /* NAN = every message length */
    bool ok;
    strip_model model;    /* when ok */
    node_contention contention; /* the law the fit used, and its line */
    char error[400];      /* when not ok: "strip fit for cluster X, code Y: reason" */
    char prefix[200];     /* report prefix, set by stripfits_report */
} stripfit;

typedef struct {
    stripfit_settings settings;
    const labelled_run *runs;
    size_t nruns;
    stripfit **fits;      /* stable pointers */
    size_t nfits;
    labelled_run *targets;  /* places of the targets (stripfits_add_target), owned */
    size_t ntargets;
} stripfits;

void stripfits_init(stripfits *f, const stripfit_settings *s, const labelled_run *runs,
                    size_t nruns);

void stripfits_free(stripfits *f);

/* Tell the fits where a target sits (its place; run no time), so that a
 * step law knows the target's nodes and level: call before the target's
 * stripfits_get. False only when out of memory. */
bool stripfits_add_target(stripfits *f, const labelled_run *target);

/* The fit for cluster, code and message length (NAN = any), made now if
 * new. NULL only when out of memory; check ->ok. */
const stripfit *stripfits_get(stripfits *f, const char *cluster, const char *code,
                              double msg_len);

/* Read np0 and work_tol from experiment options already split by rjopts;
 * false with err on a bad value. The contention fields are left off
 * (NONE, no archive). */
bool stripfits_settings(const rjopts *o, stripfit_settings *s, char *err, size_t errlen);

/* Coefficients, stats, equation part, the contention line and warnings of
 * every successful fit,
 * each prefixed "cluster/code/nb=N: " when there are several. eq gets the
 * fitted equations joined by "; ". False only when out of memory. */
bool stripfits_report(stripfits *f, report *r, char *eq, size_t eqlen);

#endif
