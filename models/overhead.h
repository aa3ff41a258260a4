/*
 * overhead.h — the parallel-overhead law shared by the strip model (seed 000)
 * and the block model (seed 001):
 *
 *     overhead(np, work) = alpha(np) + gamma * work
 *     alpha(np) = c + d*L (+ e*L^2 for the block model),  L = log2(np)
 *     gamma     = gamma(largest np measured)
 *
 * Fitting follows the papers' steps: one least-squares line over work per
 * measured np (alpha(np0), gamma(np0)); then alpha as a polynomial in
 * log2 np through the (log2 np0, alpha(np0)) points, by least squares when
 * there are more points than coefficients (exact through them otherwise).
 *
 * Laws beyond log2 np (issue 23): a job that leaves its node, or fills a
 * new level of the network, pays a latency that no curve in log2 np
 * follows. overhead_fit_steps adds one step regressor to alpha:
 *
 *   log2      alpha = c + d*L (+ e*L^2)             the papers' law
 *   node      alpha = ... + s*[the job spans more than one node]
 *             (its messages leave shared memory for the network)
 *   topology  alpha = ... + s*level(np)   (models/topology.h: the torus
 *             dimensions or fat-tree levels the job's hosts occupy, each
 *             adding hops to the farthest exchange; equal steps, since
 *             per-level steps would need training runs at every level the
 *             targets reach)
 *
 * The caller says where each np sits (overhead_place: its nodes and its
 * topology level, from the runs' processes per node); the law keeps a copy
 * for predictions. s is least squares with c, d (e) over the lines. It can
 * only be estimated when the lines' steps differ and there are at least
 * as many lines as coefficients; otherwise the law is fitted
 * without it (s = 0) and step_state says why: a target whose step exceeds
 * every line's (overhead_step_beyond) is an extrapolation the law cannot
 * see.
 *
 * `auto` chooses by leave-one-level-out error, a rule fixed before any
 * scored data was looked at: each candidate law (log2, node, topology, in
 * that order of simplicity) is refitted once per line with that line left
 * out and predicts the left-out alpha(np0); its score is the root mean
 * square of those errors. In that order, a law replaces the one chosen so
 * far only when its score is below OVERHEAD_AUTO_MARGIN times that one's
 * (a new coefficient must earn its keep on a handful of lines; a tie keeps
 * the simpler). A fold whose lines do not cross the step fits log2, so a
 * step law is only preferred where leaving a line out still leaves the
 * step estimable (in practice four or more lines). With fewer than three lines no
 * fold has two lines left: auto keeps log2 and says so.
 *
 * Ownership: overhead_fit fills an overhead_law whose `lines` and `places`
 * arrays the caller releases with overhead_law_free. No I/O.
 */
#ifndef PERFCAST_OVERHEAD_H
#define PERFCAST_OVERHEAD_H

#include <stdbool.h>
#include <stddef.h>

/* One measured overhead: `overhead` seconds at np processes with `work` MB
 * per process (already averaged over repetitions). */
typedef struct {
    double np;
    double work;
    double overhead;
} overhead_point;

/* The least-squares line of one np: overhead = alpha + gamma*work. */
typedef struct {
    double np;
    double alpha;
    double gamma;
    size_t npoints;
    double work_min, work_max;
    double max_residual;   /* largest |residual| of the line, seconds */
} overhead_line;

typedef enum {
    OVERHEAD_LAW_LOG2 = 0,  /* the papers' law */
    OVERHEAD_LAW_NODE,
    OVERHEAD_LAW_TOPOLOGY,
    OVERHEAD_LAW_AUTO       /* asked for only: a fitted law is never auto */
} overhead_law_kind;

/* A leave-one-level-out score must be below this fraction of a simpler
 * law's for auto to take the law with the step. */
#define OVERHEAD_AUTO_MARGIN 0.9

/* "log2", "node", "topology", "auto". */
const char *overhead_law_name(overhead_law_kind k);

/* The kind named by text (as overhead_law_name writes it); false otherwise. */
bool overhead_law_parse(const char *text, overhead_law_kind *k);

/* Where the runs of np processes sit: nodes spanned and topology level
 * (models/topology.h); NAN when unknown. */
typedef struct {
    double np;
    double nodes;
    double level;
} overhead_place;

/* Why a step law has (or has not) a step. */
typedef enum {
    OVERHEAD_STEP_NONE = 0,   /* log2 law: no step asked for */
    OVERHEAD_STEP_FITTED,     /* s estimated */
    OVERHEAD_STEP_NOT_CROSSED,/* every line has the same step: no training run crosses it */
    OVERHEAD_STEP_UNKNOWN,    /* a line's nodes or level is unknown */
    OVERHEAD_STEP_TOO_FEW_NP, /* fewer lines than coefficients with the step */
    OVERHEAD_STEP_CONFOUNDED  /* on these lines the step is a curve in log2 np */
} overhead_step_state;

typedef struct {
    overhead_line *lines;  /* one per np that had two or more distinct works, ascending np */
    size_t nlines;
    int degree;            /* degree of alpha in log2 np actually fitted (1 or 2) */
    bool degree_reduced;   /* asked for 2 but only two np were usable: fitted 1 */
    double coef[3];        /* c, d, e (e = 0 when degree is 1) */
    double gamma;          /* gamma of the largest np */
    double np_max;         /* that largest np */
    size_t nskipped;       /* np values dropped for having fewer than two distinct works */
    double skipped_np[8];  /* the first of them, for the warning */
    overhead_law_kind kind;          /* the law fitted (log2 when a step could not be) */
    overhead_law_kind asked;         /* the law asked for (auto included) */
    overhead_step_state step_state;  /* for node and topology */
    double step;                     /* s, seconds per step (0 unless fitted) */
    double step_np;                  /* smallest line np past the first step; NAN if none */
    double step_trained;             /* largest step among the lines (0 for log2) */
    double loo_rms[3];               /* auto: the score of each law, NAN = not tried */
    overhead_place *places;          /* copy of the caller's places, ascending np */
    size_t nplaces;
} overhead_law;

typedef enum {
    OVERHEAD_OK = 0,
    OVERHEAD_NOMEM,
    OVERHEAD_BAD_INPUT,      /* a point with a non-finite value or np < 1 */
    OVERHEAD_TOO_FEW_WORKS,  /* no np has two distinct works: no line at all */
    OVERHEAD_TOO_FEW_NP      /* fewer than two np have a line: alpha(np) is undetermined */
} overhead_status;

/* One line of text for a status ("no np has two distinct work levels ..."). */
const char *overhead_status_text(overhead_status s);

/* Fit the law to n points; degree is 1 (strip) or 2 (block). On failure
 * the law is left empty (safe to free). */
overhead_status overhead_fit(const overhead_point *pts, size_t n, int degree,
                             overhead_law *out);

/* overhead_fit with a law: kind (auto allowed) and where each np sits
 * (places may be NULL for log2). A step law whose step cannot be had is
 * fitted as log2 with step_state saying why. */
overhead_status overhead_fit_steps(const overhead_point *pts, size_t n, int degree,
                                   overhead_law_kind kind, const overhead_place *places,
                                   size_t nplaces, overhead_law *out);

/* The step regressor of np under the fitted law: 0 for log2; for node
 * [nodes > 1]; for topology the level. An np without a place takes the
 * place of the largest placed np below it (0 when none). */
double overhead_step_of(const overhead_law *law, double np);

/* Whether np's step is beyond every line's: the law never saw it. */
bool overhead_step_beyond(const overhead_law *law, double np);

/* One sentence on the law and what it found, e.g. "the overhead changes
 * at 16 processes: the job leaves one node, +0.12 s". */
void overhead_law_words(const overhead_law *law, char *buf, size_t len);

/* gamma for a target of np processes. The papers' gamma is the largest
 * np's; under a step law (asked node, topology or auto, with places) it is
 * the gamma of the largest line at np's own network level (topology level,
 * models/topology.h), when a line sits there: gamma is the cost of a
 * megabyte of halo over the job's slowest exchange, and that exchange's
 * route is set by the level (on TORUS 4,2,2 at 4 processes per node the
 * lines give gamma 2.2e-4 s/MB at 8 processes, level 1, and 1.4e-3 at 36,
 * level 3: a 16-process target, level 1, crosses no link the 8-process run
 * did not). Otherwise the largest np's, as in the papers. */
double overhead_gamma_of(const overhead_law *law, double np);

/* alpha(np) from the fitted polynomial (plus s times the step of np). */
double overhead_alpha(const overhead_law *law, double np);

/* alpha(np) + gamma*work. */
double overhead_eval(const overhead_law *law, double np, double work);

/* Whether work lies outside the range of works the lines were fitted on,
 * by more than the relative tolerance tol (the models' work_tol: runs
 * standing for the same per-process mesh differ in work_mb by a fraction of
 * a percent, which is no extrapolation). */
bool overhead_work_outside(const overhead_law *law, double work, double tol);

/* The measured line of exactly np processes, or NULL when np had none. */
const overhead_line *overhead_line_of(const overhead_law *law, double np);

void overhead_law_free(overhead_law *law);

#endif
