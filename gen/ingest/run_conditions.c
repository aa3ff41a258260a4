/*
 * run_conditions.c — see run_conditions.h.
 */
#include "gen/ingest/run_conditions.h"

#include <math.h>
#include <string.h>
#include <strings.h>

double run_processes_per_node(const archive *a, const campaign *c, size_t row)
{
    const table *t = &c->runs;
    double ppn = table_number_named(t, row, "ppn");
    double np = table_number_named(t, row, campaign_procs(c));
    double nodes = table_number_named(t, row, "nodes");
    const cluster_info *cl = archive_cluster(a, table_text_named(t, row, "cluster"));
    if (!isnan(ppn))
        return ppn;
    if (nodes >= 1)
        return np / nodes;
    return cl && cl->nodes == 1 ? np : NAN;
}

/* A note is free text: "oversubscribed: 4 processes on 2 cores",
 * "Oversubscribed". */
static bool note_says_oversubscribed(const char *note)
{
    static const char word[] = "oversubscribed";
    for (const char *p = note; p && *p; p++)
        if (strncasecmp(p, word, sizeof word - 1) == 0)
            return true;
    return false;
}

bool run_oversubscribed(const archive *a, const campaign *c, size_t row)
{
    if (note_says_oversubscribed(table_text_named(&c->runs, row, "note")))
        return true;
    const cluster_info *cl = archive_cluster(a, table_text_named(&c->runs, row, "cluster"));
    return cl && run_processes_per_node(a, c, row) > cl->cores_per_node;
}
