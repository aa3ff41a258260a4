/*
 * meshrows.c — see meshrows.h.
 */
#include "gen/fit/meshrows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/ingest/run_layout.h"

bool meshrows_read(const archive *a, const campaign *c, size_t row, meshrow *out, char *err, size_t errlen)
{
    const table *runs = &c->runs;
    const char *procs = campaign_procs(c);
    memset(out, 0, sizeof *out);
    out->line = runs->line ? runs->line[row] : 0;
    out->cluster = table_text_named(runs, row, "cluster");
    out->code = table_text_named(runs, row, "code");
    out->np = table_number_named(runs, row, procs);
    out->npa = table_number_named(runs, row, "npa");
    out->npb = table_number_named(runs, row, "npb");
    out->na = table_number_named(runs, row, "na");
    out->nb = table_number_named(runs, row, "nb");
    out->work_mb = table_number_named(runs, row, "work_mb");
    out->ppn = run_processes_per_node(a, c, row);
    if (!out->cluster || !(out->np >= 1)) {
        snprintf(err, errlen, "runs.csv line %ld: a run needs a cluster and %s >= 1", out->line,
                 procs);
        return false;
    }
    if (isnan(out->npa) && isnan(out->npb)) {
        out->npa = out->np; /* a strip np x 1 (1 x 1 when sequential) */
        out->npb = 1;
    } else if (isnan(out->npa) || isnan(out->npb) || out->npa * out->npb != out->np) {
        snprintf(err, errlen, "runs.csv line %ld: the grid npa x npb does not multiply to %s = %g",
                 out->line, procs, out->np);
        return false;
    }
    out->pa = out->na / out->npa;
    out->pb = out->nb / out->npb;
    return true;
}

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

bool meshrows_same_group(const char *cluster_a, const char *code_a, const char *cluster_b,
                         const char *code_b)
{
    return same_text(cluster_a, cluster_b) && same_text(code_a, code_b);
}

long meshrows_label(const archive *a, const campaign *c, const size_t *rows, size_t n, char *const *responses,
                    size_t nresponses, labelled_run *out, char *err, size_t errlen)
{
    long count = 0;
    for (size_t i = 0; i < n; i++) {
        double t = experiment_row_response(&c->runs, rows[i], responses, nresponses);
        meshrow r;
        if (isnan(t))
            continue;
        if (!meshrows_read(a, c, rows[i], &r, err, errlen))
            return -1;
        if (!(t > 0)) {
            snprintf(err, errlen, "runs.csv line %ld: the time must be > 0", r.line);
            return -1;
        }
        out[count++] = (labelled_run){r.cluster, r.code, {r.npa, r.npb, r.pa, r.pb, r.work_mb, t},
                                      r.line, r.ppn, rows[i], {r.np, NAN, NAN}};
    }
    return count;
}

long meshrows_training(const experiment_input *in, labelled_run **out, char *err, size_t errlen)
{
    *out = malloc(sizeof **out * (in->ntrain ? in->ntrain : 1));
    if (!*out) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    long n = meshrows_label(in->arch, in->camp, in->train_rows, in->ntrain, in->responses,
                            in->nresponses, *out, err, errlen);
    for (long i = 0; i < n; i++)
        (*out)[i].place = meshrows_place(in->arch, in->camp, (*out)[i].row);
    return n;
}

overhead_place meshrows_place_np(const archive *a, const campaign *c, size_t row, double np)
{
    double ppn = run_processes_per_node(a, c, row);
    double nodes = ppn > 0 && np > 0 ? np / ppn : NAN;
    topology t;
    run_topology(a, c, row, &t);
    return (overhead_place){np, nodes, topology_level(&t, nodes)};
}

overhead_place meshrows_place(const archive *a, const campaign *c, size_t row)
{
    return meshrows_place_np(a, c, row, table_number_named(&c->runs, row, campaign_procs(c)));
}

size_t meshrows_places(const labelled_run *runs, size_t n, const char *cluster, const char *code,
                       overhead_place *out, size_t count)
{
    for (size_t i = 0; i < n; i++) {
        const overhead_place *p = &runs[i].place;
        if (!meshrows_same_group(runs[i].cluster, runs[i].code, cluster, code) || isnan(p->nodes))
            continue;
        size_t k = 0;
        while (k < count && out[k].np != p->np)
            k++;
        if (k == count)
            out[count++] = *p;
    }
    return count;
}

size_t meshrows_select(const labelled_run *runs, size_t n, const char *cluster, const char *code,
                       mesh_run *out, double *ppn)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (meshrows_same_group(runs[i].cluster, runs[i].code, cluster, code)) {
            if (ppn)
                ppn[count] = runs[i].ppn;
            out[count++] = runs[i].run;
        }
    return count;
}
