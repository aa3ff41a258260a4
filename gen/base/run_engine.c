/*
 * run_engine.c — real or simulated runs (see run_engine.h).
 */
#include "gen/base/run_engine.h"

#include <stdio.h>
#include <string.h>

static const char ENGINE_REAL[] = "openmpi";
static const char ENGINE_SIMULATED[] = "smpi";

const char *run_engine_of(const table *runs, size_t row)
{
    if (table_find(runs, "engine") < 0)
        return ENGINE_REAL;
    const char *v = table_text_named(runs, row, "engine");
    return v && *v ? v : ENGINE_REAL;
}

const char *run_engine_check(const char *value)
{
    if (!value || !*value || strcmp(value, ENGINE_REAL) == 0 ||
        strcmp(value, ENGINE_SIMULATED) == 0)
        return NULL;
    return "unknown engine (expected openmpi for a real run or smpi for a SimGrid SMPI "
           "simulation)";
}

run_engine_counts run_engine_count(const table *runs)
{
    run_engine_counts n = {0, 0};
    for (size_t r = 0; r < runs->nrows; r++) {
        if (strcmp(run_engine_of(runs, r), ENGINE_SIMULATED) == 0)
            n.simulated++;
        else
            n.real++;
    }
    return n;
}

const char *run_engine_describe(const run_engine_counts *n, char *buf, size_t len)
{
    if (n->simulated == 0)
        snprintf(buf, len, "real (Open MPI)");
    else if (n->real == 0)
        snprintf(buf, len, "simulated (SimGrid SMPI): times are simulated seconds on a "
                 "simulated platform, not measurements of a real machine");
    else
        snprintf(buf, len, "mixed: %zu real (Open MPI), %zu simulated (SimGrid SMPI)", n->real,
                 n->simulated);
    return buf;
}

const char *run_engine_word(const run_engine_counts *n)
{
    if (n->simulated == 0)
        return ENGINE_REAL;
    return n->real == 0 ? ENGINE_SIMULATED : "mixed";
}
