/*
 * advice_scenarios.h — the advice pages' scenarios (seed 000), read from the
 * archive's optional advice.csv and answered with `perfcast advise`'s
 * machinery (gen/advice/advise.h):
 *
 *   advice.csv: scenario,name,title,free,size,campaign,code,note
 *     scenario  1 (fastest and cheapest way to solve `size` on the free
 *               resources) or 2 (largest power-of-two mesh the free
 *               resources' memory holds, and its cost)
 *     name      letters, digits, '-' and '_': the file name of its CSV
 *     free      the free resources, "cluster:processes,cluster:processes"
 *     size      "NAxNB" (scenario 1; empty for scenario 2)
 *     campaign, code  restrict the runs used (empty: all / the only one)
 *     title, note     free text
 *
 * For each scenario every option is evaluated: each free cluster alone and
 * each pair of clusters of different machines splitting the job, with
 * the 95% interval advise gives it from the pooled backtests given (the
 * site's build pool, so that its pages print what `perfcast advise`
 * prints; NULL: no interval, as `perfcast check` needs none).
 *
 * Ownership: advice_scenarios_load fills a list that advice_scenarios_free
 * releases; options point into the archive, which must outlive it.
 */
#ifndef PERFCAST_ADVICE_SCENARIOS_H
#define PERFCAST_ADVICE_SCENARIOS_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/advice/advise.h"
#include "gen/base/diag.h"
#include "gen/ingest/archive.h"

typedef struct {
    int scenario;            /* 1 or 2 */
    char *name, *title, *free, *size, *note;
    bool ok;                 /* false: error says why there are no options */
    char error[300];
    const char *error_cell;  /* the column of advice.csv the error is about */
    long line, column;       /* where in advice.csv the error points */
    char *code;              /* the code advise chose (may be NULL) */
    double mb_per_point;     /* memory per mesh point, MB (NAN = unknown) */
    char *mb_source;         /* where it came from */
    advise_option *options;
    double *mesh;            /* scenario 2: each option's N; else the size's rows */
    size_t noptions;
    size_t *fast, nfast;     /* feasible options with a time, fastest first
                                (scenario 2: largest mesh first, then fastest) */
    size_t *cheap, ncheap;   /* ... cheapest first */
} advice_scenario;

typedef struct {
    advice_scenario *items;
    size_t n;
} advice_scenarios;

/* Read DIR/advice.csv (absent: no scenarios) and evaluate every scenario,
 * the intervals from pool (advise_request.pool: filled, borrowed; NULL:
 * none). Problems of the file go to diags; a scenario that cannot be
 * evaluated (unknown cluster, ambiguous code) keeps its error. False only
 * when out of memory. */
bool advice_scenarios_load(const archive *a, const error_pool *pool, advice_scenarios *out,
                           diag_list *diags);

void advice_scenarios_free(advice_scenarios *s);

#endif
