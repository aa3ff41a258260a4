/*
 * runplan.c — see runplan.h.
 */
#include "models/runplan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const long STRIP_NPS[] = {4, 8};
static const long STRIP_LEVELS[] = {1, 4};
static const long BLOCK_NPS[] = {4, 8, 16};
static const long BLOCK_LEVELS[] = {1, 2, 4};

const char *runplan_role_text(runplan_role r)
{
    switch (r) {
    case RUNPLAN_TCOMP: return "sequential Tcomp";
    case RUNPLAN_STRIP_OVERHEAD: return "strip overhead";
    case RUNPLAN_BLOCK_REFERENCE: return "(2,2) reference";
    case RUNPLAN_BLOCK_BASE: return "strip base (np = 2)";
    case RUNPLAN_BLOCK_STRIP: return "strip overhead";
    }
    return "?";
}

const char *runplan_why_text(runplan_why w)
{
    switch (w) {
    case RUNPLAN_WHY_MODEL: return "the model's step";
    case RUNPLAN_WHY_FILLS_NODE: return "fills one node: its memory-bandwidth contention";
    case RUNPLAN_WHY_CROSSES_NODE: return "spans two nodes: the node boundary";
    case RUNPLAN_WHY_NETWORK_LEVEL:
        return "fills a new network level (torus dimension or fat-tree level): its step";
    }
    return "?";
}

void runplan_free(runplan *p)
{
    free(p->runs);
    memset(p, 0, sizeof *p);
}

/* The same run: everything mgbench is told, and how often. */
static bool same_run(const runplan_run *a, const runplan_run *b)
{
    return a->role == b->role && a->np == b->np && a->npa == b->npa && a->npb == b->npb &&
           a->na == b->na && a->nb == b->nb && a->level == b->level && a->reps == b->reps &&
           a->seq_of_np == b->seq_of_np;
}

size_t runplan_share_sides(runplan *p)
{
    size_t kept = 0, dropped = 0;
    for (size_t i = 0; i < p->nruns; i++) {
        runplan_run *r = &p->runs[i];
        runplan_run *twin = NULL;
        for (size_t k = 0; r->side == 1 && !twin && k < kept; k++)
            if (p->runs[k].side == 0 && same_run(&p->runs[k], r))
                twin = &p->runs[k];
        if (twin) {
            twin->shared = true;
            dropped++;
        } else {
            p->runs[kept++] = *r;
        }
    }
    p->nruns = kept;
    return dropped;
}

bool runplan_on_side(const runplan_run *r, int side)
{
    return side < 0 || r->side == side || r->shared;
}

bool runplan_above_target(const runplan *p, const runplan_run *r)
{
    long target = p->target_np[r->side ? 1 : 0];
    return target > 0 && r->np > target;
}

long runplan_max_np(const runplan *p)
{
    long m = 0;
    for (size_t i = 0; i < p->nruns; i++)
        m = p->runs[i].np > m ? p->runs[i].np : m;
    return m;
}

/* Append a run; false when out of memory. */
static bool add(runplan *p, runplan_run r)
{
    runplan_run *bigger = realloc(p->runs, sizeof *bigger * (p->nruns + 1));
    if (!bigger)
        return false;
    p->runs = bigger;
    p->runs[p->nruns++] = r;
    return true;
}

/* The most process counts a list may hold (defaults and node runs). */
enum { MAX_NPS = 64 };

/* The default process counts and, when the node is known, the node-filling,
 * node-crossing and network-level ones below the target's `below`
 * processes, ascending, each once, into buf (MAX_NPS). */
static size_t node_defaults(const long *dnps, size_t ndnps, const runplan_options *in, long below,
                            long *buf)
{
    size_t n = 0;
    for (size_t i = 0; i < ndnps && n < MAX_NPS; i++)
        buf[n++] = dnps[i];
    long extra[2 + MAX_NPS] = {in->node_cores, in->nodes >= 2 ? 2 * in->node_cores : 0};
    size_t nextra = 2;
    for (size_t i = 0; i < in->nlevel_nodes && nextra < 2 + MAX_NPS; i++)
        extra[nextra++] = in->node_cores * in->level_nodes[i];
    for (size_t k = 0; k < nextra; k++) {
        bool have = false;
        for (size_t i = 0; i < n; i++)
            have |= buf[i] == extra[k];
        if (!have && extra[k] > 2 && extra[k] < below && n < MAX_NPS)
            buf[n++] = extra[k];
    }
    for (size_t i = 1; i < n; i++) /* insertion sort: a handful of numbers */
        for (size_t j = i; j > 0 && buf[j - 1] > buf[j]; j--) {
            long t = buf[j];
            buf[j] = buf[j - 1], buf[j - 1] = t;
        }
    return n;
}

/* Why a parallel run with np processes is in the plan. */
static runplan_why why_of(const runplan_options *o, long np)
{
    if (o->node_cores > 0 && np == o->node_cores)
        return RUNPLAN_WHY_FILLS_NODE;
    if (o->node_cores > 0 && o->nodes >= 2 && np == 2 * o->node_cores)
        return RUNPLAN_WHY_CROSSES_NODE;
    for (size_t i = 0; o->node_cores > 0 && i < o->nlevel_nodes; i++)
        if (np == o->node_cores * o->level_nodes[i])
            return RUNPLAN_WHY_NETWORK_LEVEL;
    return RUNPLAN_WHY_MODEL;
}

/* The options with defaults filled in (the node runs into buf, MAX_NPS);
 * false (with err) when invalid. */
static bool resolve(const runplan_options *in, const long *dnps, size_t ndnps,
                    const long *dlevels, size_t ndlevels, long min_np, long below, long *buf,
                    runplan_options *out, char *err, size_t errlen)
{
    *out = *in;
    if (!out->nps || out->nnps == 0) {
        out->nps = buf;
        out->nnps = node_defaults(dnps, ndnps, in, below, buf);
    }
    if (!out->levels || out->nlevels == 0) {
        out->levels = dlevels;
        out->nlevels = ndlevels;
    }
    if (out->reps < 1) {
        snprintf(err, errlen, "repetitions must be at least 1");
        return false;
    }
    for (size_t i = 0; i < out->nnps; i++)
        if (out->nps[i] < min_np) {
            snprintf(err, errlen, "process count %ld in the list is below %ld", out->nps[i], min_np);
            return false;
        }
    for (size_t i = 0; i < out->nlevels; i++)
        if (out->levels[i] < 1) {
            snprintf(err, errlen, "work level %ld is below 1", out->levels[i]);
            return false;
        }
    return true;
}

/* rows / level when level divides rows exactly; else 0 with err. */
static long divide(long rows, long level, const char *what, char *err, size_t errlen)
{
    if (rows % level != 0) {
        snprintf(err, errlen, "%s %ld is not divisible by work level %ld", what, rows, level);
        return 0;
    }
    return rows / level;
}

/* The strip runs of one side, rows of length nb: Tcomp on (rows/l) x nb
 * and the np0 x 1 grids on (np0*rows/l) x nb. */
static bool strip_side(long rows, long nb, long np, int side, const runplan_options *o,
                       runplan *out, char *err, size_t errlen)
{
    for (size_t l = 0; l < o->nlevels; l++) {
        long r = divide(rows, o->levels[l], "rows per process", err, errlen);
        if (!r || !add(out, (runplan_run){RUNPLAN_TCOMP, RUNPLAN_WHY_MODEL, side, 1, 1, 1, r,
                                          nb, o->levels[l], o->reps,
                                          o->levels[l] == 1 ? np : 0, false}))
            return false;
    }
    for (size_t k = 0; k < o->nnps; k++)
        for (size_t l = 0; l < o->nlevels; l++) {
            long np0 = o->nps[k], r = rows / o->levels[l];
            if (!add(out, (runplan_run){RUNPLAN_STRIP_OVERHEAD, why_of(o, np0), side, np0, np0,
                                        1, np0 * r, nb, o->levels[l], o->reps, 0, false}))
                return false;
        }
    return true;
}

static bool fail_nomem(runplan *out, char *err, size_t errlen)
{
    if (!*err)
        snprintf(err, errlen, "out of memory");
    runplan_free(out);
    return false;
}

bool runplan_strip(long na, long nb, long np, const runplan_options *opt, runplan *out,
                   char *err, size_t errlen)
{
    runplan_options o;
    memset(out, 0, sizeof *out);
    *err = '\0';
    if (na < 1 || nb < 1 || np < 1) {
        snprintf(err, errlen, "the target mesh and np must be positive");
        return false;
    }
    if (np < 2) {
        snprintf(err, errlen, "a target on one process is itself the sequential run the strip "
                              "model starts from (its step 1): measure it, nothing smaller "
                              "predicts it; plan a target on 2 or more processes");
        return false;
    }
    if (na % np != 0) {
        snprintf(err, errlen, "na = %ld is not divisible by np = %ld", na, np);
        return false;
    }
    out->target_np[0] = np;
    long buf[MAX_NPS];
    if (!resolve(opt, STRIP_NPS, 2, STRIP_LEVELS, 2, 2, np, buf, &o, err, errlen))
        return false;
    return strip_side(na / np, nb, np, 0, &o, out, err, errlen) || fail_nomem(out, err, errlen);
}

/* One direction's strips: (np,1) on (np*pa/l) x pb, or (1,np) transposed. */
static bool block_direction(bool along_a, long pa, long pb, const runplan_options *o,
                            runplan *out, char *err, size_t errlen)
{
    long split = along_a ? pa : pb;
    for (size_t k = 0; k <= o->nnps; k++) {
        long np = k == 0 ? 2 : o->nps[k - 1];
        for (size_t l = 0; l < o->nlevels; l++) {
            long r = divide(split, o->levels[l], along_a ? "pa" : "pb", err, errlen);
            runplan_run run = {k == 0 ? RUNPLAN_BLOCK_BASE : RUNPLAN_BLOCK_STRIP,
                               why_of(o, np), 0, np, along_a ? np : 1, along_a ? 1 : np,
                               along_a ? np * r : pa, along_a ? pb : np * r,
                               o->levels[l], o->reps, 0, false};
            if (!r || !add(out, run))
                return false;
        }
    }
    return true;
}

bool runplan_block(long na, long nb, long npa, long npb, const runplan_options *opt,
                   runplan *out, char *err, size_t errlen)
{
    runplan_options o;
    memset(out, 0, sizeof *out);
    *err = '\0';
    if (na < 1 || nb < 1 || npa < 1 || npb < 1) {
        snprintf(err, errlen, "the target mesh and grid must be positive");
        return false;
    }
    if (npa * npb < 2) {
        snprintf(err, errlen, "a target on one process is itself a sequential run, which the "
                              "block model does not predict: measure it; plan a grid of 2 or "
                              "more processes");
        return false;
    }
    if (na % npa != 0 || nb % npb != 0) {
        snprintf(err, errlen, "the mesh %ldx%ld does not divide into the grid %ldx%ld", na, nb,
                 npa, npb);
        return false;
    }
    long buf[MAX_NPS];
    if (!resolve(opt, BLOCK_NPS, 3, BLOCK_LEVELS, 3, 3, npa * npb, buf, &o, err, errlen))
        return false;
    out->target_np[0] = npa * npb;
    long pa = na / npa, pb = nb / npb;
    bool ok = add(out, (runplan_run){RUNPLAN_BLOCK_REFERENCE, RUNPLAN_WHY_MODEL, 0, 4, 2, 2,
                                     2 * pa, 2 * pb, 1, o.reps, 0, false});
    if (ok && npa > 2)
        ok = block_direction(true, pa, pb, &o, out, err, errlen);
    if (ok && npb > 2)
        ok = block_direction(false, pa, pb, &o, out, err, errlen);
    return ok || fail_nomem(out, err, errlen);
}

bool runplan_multicluster(long n_msg, const long np[2], const long rows[2],
                          const runplan_options *opt, runplan *out, char *err, size_t errlen)
{
    runplan_options o;
    memset(out, 0, sizeof *out);
    *err = '\0';
    if (n_msg < 1 || np[0] < 1 || np[1] < 1 || rows[0] < 1 || rows[1] < 1) {
        snprintf(err, errlen, "the row length, processes and rows per process must be positive");
        return false;
    }
    /* Two clusters, one list: no node runs (each side's node differs). */
    runplan_options one = *opt;
    one.node_cores = one.nodes = 0;
    one.nlevel_nodes = 0;
    long buf[MAX_NPS];
    if (!resolve(&one, STRIP_NPS, 2, STRIP_LEVELS, 2, 2, 0, buf, &o, err, errlen))
        return false;
    out->target_np[0] = np[0];
    out->target_np[1] = np[1];
    for (int side = 0; side < 2; side++)
        if (!strip_side(rows[side], n_msg, np[side], side, &o, out, err, errlen))
            return fail_nomem(out, err, errlen);
    return true;
}
