/*
 * node_contention.c — see node_contention.h.
 */
#include "gen/fit/node_contention.h"

#include <math.h>
#include <stdio.h>

#include "gen/fit/rjreport.h"

static bool known(double v)
{
    return isfinite(v) && v > 0;
}

/* Why the law cannot be had: the missing column(s). */
static const char *missing_columns(const cluster_info *ci)
{
    if (!ci)
        return "the cluster is not in clusters.csv";
    if (!known(ci->mbw_core_gbs) && !known(ci->mbw_read_gbs))
        return "clusters.csv gives neither mbw_core_gbs (one core's memory bandwidth) nor "
               "mbw_read_gbs (the node's)";
    if (!known(ci->mbw_core_gbs))
        return "clusters.csv gives no mbw_core_gbs (one core's memory bandwidth)";
    return "clusters.csv gives no mbw_read_gbs (the node's memory read bandwidth)";
}

node_contention node_contention_of(const archive *a, const char *cluster,
                                   rjopts_contention_mode mode)
{
    node_contention nc = {contention_none(), "", false};
    if (mode == RJOPTS_CONTENTION_NONE) {
        snprintf(nc.line, sizeof nc.line, "contention law off (contention=none): Tcomp is the "
                 "sequential run's at every process count, as in the paper");
        return nc;
    }
    const cluster_info *ci = a && cluster ? archive_cluster(a, cluster) : NULL;
    nc.law = contention_roofline(ci ? ci->mbw_core_gbs : NAN, ci ? ci->mbw_read_gbs : NAN);
    if (!nc.law.on) {
        nc.warning = mode == RJOPTS_CONTENTION_ROOFLINE;
        snprintf(nc.line, sizeof nc.line, "contention law off for cluster %s: %s; Tcomp is the "
                 "sequential run's at every process count", cluster ? cluster : "?",
                 missing_columns(ci));
        return nc;
    }
    snprintf(nc.line, sizeof nc.line, "contention law (roofline) for cluster %s: Tcomp x "
             "max(1, ppn x %g GB/s per core / %g GB/s per node), so more than %.3g processes "
             "on one node slow each other", cluster, nc.law.core_gbs, nc.law.node_gbs,
             contention_saturation(&nc.law));
    return nc;
}

bool node_contention_report(report *r, const char *prefix, const node_contention *nc)
{
    if (nc->warning)
        return rjreport_warn(r, "%s%s", prefix, nc->line);
    return rjreport_diagnose(r, "%s%s", prefix, nc->line);
}
