/*
 * strip.h — the strip model of Romanazzi & Jimack (seed 000, section IV):
 *
 *     T(np) = Tcomp + Tcomm,   Tcomm = alpha(np) + gamma * work
 *     alpha(np) = c + d*log2(np),   gamma = gamma(largest np0)
 *
 * Tcomp is the time of a sequential run on exactly the per-process mesh of
 * the parallel run; work is that run's memory (MB). Steps 1-6 of the paper:
 *  1. sequential runs at the target's per-process mesh (and smaller ones);
 *  2. parallel runs at small np0 with the same per-process meshes; each is
 *     matched to the sequential run with the same mesh (else the same
 *     work) and Tcomm = T - Tcomp;
 *  3. per np0 a least-squares line Tcomm = alpha(np0) + gamma(np0)*work;
 *  4. alpha(np) = c + d*log2 np by least squares over the np0 (two or more);
 *  5-6. T = Tcomp(target mesh) + alpha(np) + gamma*work.
 * Repetitions are averaged per configuration first (models/meshrun.h).
 * Under a step law (strip_options.law node, topology or auto; issue 23)
 * step 6's gamma is that of the target's own network level where a line
 * sits on it (overhead_gamma_of): a deviation from the paper, whose gamma
 * is the largest np0's under overhead=log2.
 *
 * Node contention (a deviation from the paper; strip_fit_contended,
 * models/contention.h): the paper's Tcomp is one process alone on its
 * node, but a parallel run's processes share their node's memory bus.
 * With a law on, step 2 subtracts Tcomp x factor(ppn of the parallel run)
 * and step 6 adds Tcomp x factor(ppn of the target), so the overhead law
 * sees only communication and the target's crowding comes from the
 * node's bandwidth, not from log2 np. The factor is exactly 1 below the
 * node's saturation. strip_fit and strip_predict are the paper's model.
 *
 * Strip runs split one dimension: a grid 1 x np splits nb (rows of length
 * na, the halo message length) and np x 1 splits na (messages of length
 * nb). The paper fixes the message length to the target's: strip_fit uses
 * only parallel runs whose message length equals opt->msg_len when there
 * are any, and otherwise all of them (msg_len_fallback says so).
 *
 * Ownership: strip_fit fills a strip_model released by strip_model_free.
 * No I/O.
 */
#ifndef PERFCAST_STRIP_H
#define PERFCAST_STRIP_H

#include <stdbool.h>
#include <stddef.h>
#include "models/contention.h"
#include "models/meshrun.h"
#include "models/overhead.h"

typedef struct {
    double work_tol;      /* relative tolerance for "same work" matching; 0.01 is usual */
    const double *np0;    /* parallel process counts to use; NULL = every np >= 2 given */
    size_t nnp0;
    double msg_len;       /* preferred message length; NAN = use every strip run */
    overhead_law_kind law;          /* the overhead law (models/overhead.h); 0 = log2, the paper's */
    const overhead_place *places;   /* where each np sits, for node/topology/auto; may be NULL */
    size_t nplaces;
} strip_options;

typedef struct {
    mesh_configs configs;   /* every run given, averaged per configuration */
    overhead_law law;       /* alpha(np) = c + d log2 np (coef[0], coef[1]), gamma */
    double mb_per_point;    /* memory per mesh point from the runs (NAN if unknown) */
    size_t nsequential;     /* sequential configurations */
    size_t nmatched;        /* parallel configurations matched to a sequential one */
    size_t nunmatched;      /* parallel strip configurations left out: no sequential partner */
    size_t nno_work;        /* ... left out: matched, but neither run gives work_mb */
    size_t nother_msg;      /* parallel strip configurations left out: other message length */
    size_t nnot_strip;      /* configurations left out: block grids (npa, npb > 1) */
    bool msg_len_fallback;  /* no run had opt->msg_len: every message length was used */
    double max_spread_pct;  /* largest repetition spread among the configurations used */
    double work_tol;        /* the fit's opt->work_tol, for the extrapolation flag */
    contention_law contention; /* the law of the fit; off for strip_fit */
    double *config_ppn;     /* processes per node of each configuration (NAN unknown) */
    double train_ppn_max;   /* most processes per node among the parallel runs used; NAN unknown */
} strip_model;

typedef enum {
    STRIP_OK = 0,
    STRIP_NOMEM,
    STRIP_BAD_INPUT,      /* a run with a non-positive time or grid */
    STRIP_NO_SEQUENTIAL,  /* no sequential run */
    STRIP_NO_MATCH,       /* no parallel run matches a sequential run */
    STRIP_NO_WORK,        /* matches exist, but no run gives its memory (work_mb) */
    STRIP_OVERHEAD        /* the overhead law could not be fitted: see law_status */
} strip_status;

/* One line of text for a status; law_status details STRIP_OVERHEAD. */
const char *strip_status_text(strip_status s, overhead_status law_status);

/* Fit the model to n runs (sequential and parallel mixed). *law_status
 * (may be NULL) gets the overhead fit's own status. On failure the model
 * is empty (safe to free). */
strip_status strip_fit(const mesh_run *runs, size_t n, const strip_options *opt,
                       strip_model *out, overhead_status *law_status);

/* strip_fit under a contention law: ppn[i] is the processes per node of
 * runs[i] (ppn NULL: all unknown, and the law changes nothing). */
strip_status strip_fit_contended(const mesh_run *runs, const double *ppn, size_t n,
                                 const strip_options *opt, const contention_law *law,
                                 strip_model *out, overhead_status *law_status);

void strip_model_free(strip_model *m);

/* A configuration to predict: np processes, each with a pa x pb mesh. */
typedef struct {
    double np;
    double pa, pb;
    double work_mb;   /* NAN = unknown: the sequential run's work is used */
} strip_target;

typedef struct {
    double time_s;          /* Tcomp + Tcomm */
    double tcomp_s;         /* Tcomp at the target's ppn: tcomp_one_s x contention */
    double tcomp_one_s;     /* Tcomp of one process alone (the sequential run) */
    double contention;      /* the factor applied; 1 without a law */
    double tcomm_s;         /* alpha(np) + gamma*work; 0 for np = 1 */
    double alpha_s;
    double work_mb;         /* the work the prediction used */
    mesh_match tcomp_match; /* MESH_EXACT is the paper's method; others are warned about */
    size_t tcomp_reps;      /* repetitions behind Tcomp (0 when interpolated) */
    double tcomp_spread_pct;
    bool extrapolation;     /* np beyond the largest np0, or work beyond the lines' range
                               by more than work_tol, or a step of the overhead law beyond
                               the training lines' (overhead_step_beyond) */
} strip_prediction;

/* Predict a target. Returns false when Tcomp cannot be had at all (no
 * sequential run and no work to interpolate with). */
bool strip_predict(const strip_model *m, const strip_target *t, strip_prediction *out);

/* strip_predict for a target with ppn processes per node (NAN unknown),
 * under the model's contention law. */
bool strip_predict_contended(const strip_model *m, const strip_target *t, double ppn,
                             strip_prediction *out);

/* Tcomp alone, as strip_predict finds it (for balancing split jobs). */
bool strip_tcomp(const strip_model *m, double pa, double pb, double work_mb,
                 mesh_lookup *out);

/* Whether a parallel configuration is a strip (one dimension split). */
bool strip_is_strip(double npa, double npb);

/* The message length of a strip grid's per-process mesh: pa when nb is
 * split (npa == 1), pb when na is split. */
double strip_message_length(double npa, double npb, double pa, double pb);

#endif
