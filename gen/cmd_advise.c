/*
 * cmd_advise.c — `perfcast advise`: which of the free resources to use for
 * a problem (seed 000 Scenario 1: fastest or cheapest) or how large a
 * problem they can hold and at what cost (Scenario 2), from the models
 * fitted on the archive (gen/advise.h). Output as text, CSV or JSON.
 */
#include "gen/commands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/advise.h"
#include "gen/rjopts.h"
#include "gen/textout.h"

static const char usage[] =
    "usage: perfcast advise --free C:N[,C:N...] (--size NAxNB | --maximize-size) [options]\n"
    "\n"
    "Weighs every way to run a problem on the free resources: each cluster alone\n"
    "and the job split by rows across each pair of clusters (T = max(TA, TB),\n"
    "rows balanced between the sides within their memory; two fabrics of one\n"
    "machine, <machine>-<fabric>, are not paired). For each option: the predicted\n"
    "time, its source (the strip or multi-cluster model fitted on the archive's\n"
    "runs of the code, else a prediction a paper printed for exactly that\n"
    "configuration, else none), the memory per process, core-hours = np*T/3600\n"
    "and the cost at the cluster's rate. Options ranked fastest first and\n"
    "cheapest first; infeasible ones (memory per process above the cluster's\n"
    "memory per core, over the deadline or the budget) listed with the reason.\n"
    "\n"
    "  --free C:N,...        free processes per cluster (clusters of clusters.csv)\n"
    "  --size NAxNB          the problem: NA rows of NB points (Scenario 1)\n"
    "  --maximize-size       Scenario 2: per option, the largest N = 2^k such that\n"
    "                        N x N fits its memory, and its time and cost there\n"
    "  --deadline S          options predicted slower than S seconds are infeasible\n"
    "  --budget U            options costing more than U are infeasible\n"
    "  --code NAME           the code (needed when the clusters ran several)\n"
    "  --campaign NAME       use only this campaign's runs (default: all)\n"
    "  --bytes-per-point B   memory per mesh point (default: from the runs' work_mb,\n"
    "                        else from the memory per process printed by a paper)\n"
    "  --quantum Q           rows per process of a split are multiples of Q (default 1)\n"
    "  --archive DIR         the archive folder (default: archive)\n"
    "  --format F            text (default), csv or json\n"
    "  --help                this text\n"
    "Exit status: 0 ok, 1 input problems (unknown cluster, ambiguous code), 2 usage.\n";

#define MAX_FREE 16

typedef struct {
    const char *free, *size, *deadline, *budget, *code, *campaign, *bytes, *quantum;
    const char *archive, *format;
    bool maximize, help;
} advise_args;

static const char **slot(advise_args *a, const char *name)
{
    static const char *const names[] = {"free", "size", "deadline", "budget", "code", "campaign",
                                        "bytes-per-point", "quantum", "archive", "format"};
    const char **slots[] = {&a->free, &a->size, &a->deadline, &a->budget, &a->code, &a->campaign,
                            &a->bytes, &a->quantum, &a->archive, &a->format};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return slots[i];
    return NULL;
}

static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "perfcast advise: %s%s%s\n%s", what, arg ? " " : "", arg ? arg : "", usage);
    return 2;
}

static int parse_args(int argc, char **argv, advise_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            a->help = true;
        } else if (strcmp(arg, "--maximize-size") == 0) {
            a->maximize = true;
        } else {
            const char **s = strncmp(arg, "--", 2) == 0 ? slot(a, arg + 2) : NULL;
            if (!s)
                return usage_error("unknown option or argument", arg);
            if (i + 1 >= argc)
                return usage_error("missing value after", arg);
            *s = argv[++i];
        }
    }
    return 0;
}

/* A number option (NAN when absent); false when it is not a number > 0. */
static bool positive(const char *text, double *out)
{
    size_t n;
    char err[200];
    *out = NAN;
    return !text || rjopts_number_list(text, out, 1, &n, err, sizeof err);
}

typedef struct {
    advise_option *items;
    size_t n;
    double *size;          /* Scenario 2: N of each option */
} option_list;

/* Every option: each cluster alone, each pair of different machines. */
static bool enumerate(advise_ctx *ctx, const cluster_info *const *cl, const double *np, size_t n,
                      bool maximize, double na, double nb, option_list *out)
{
    size_t cap = n + n * (n - 1) / 2;
    out->items = calloc(cap ? cap : 1, sizeof *out->items);
    out->size = calloc(cap ? cap : 1, sizeof *out->size);
    if (!out->items || !out->size)
        return false;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j < n; j++) {
            if (j > i && advise_same_machine(cl[i]->name, cl[j]->name))
                continue;
            const cluster_info *pair[2] = {cl[i], cl[j]};
            double nps[2] = {np[i], np[j]};
            int sides = j == i ? 1 : 2;
            advise_option *o = &out->items[out->n];
            if (maximize)
                out->size[out->n] = advise_largest(ctx, sides, pair, nps, o);
            else
                advise_evaluate(ctx, sides, pair, nps, na, nb, o);
            out->n++;
        }
    return true;
}

/* Deadline and budget turn options infeasible. */
static void apply_limits(option_list *l, double deadline, double budget)
{
    for (size_t i = 0; i < l->n; i++) {
        advise_option *o = &l->items[i];
        if (!o->feasible)
            continue;
        if (isfinite(deadline) && isfinite(o->time_s) && o->time_s > deadline) {
            o->feasible = false;
            snprintf(o->reason, sizeof o->reason, "predicted %.4g s, over the deadline of %g s",
                     o->time_s, deadline);
        } else if (isfinite(budget) && isfinite(o->cost.cost) && o->cost.cost > budget) {
            o->feasible = false;
            snprintf(o->reason, sizeof o->reason, "costs %.4g %s, over the budget of %g",
                     o->cost.cost, o->cost.currency, budget);
        }
    }
}

/* Indices of the feasible options with a known key, ascending by key
 * (time when by_cost is false, else cost); returns their count. */
static size_t ranking(const option_list *l, bool by_cost, size_t *order)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++) {
        const advise_option *o = &l->items[i];
        double key = by_cost ? o->cost.cost : o->time_s;
        if (!o->feasible || !isfinite(key))
            continue;
        size_t k = n++;
        for (; k > 0; k--) {
            const advise_option *p = &l->items[order[k - 1]];
            if ((by_cost ? p->cost.cost : p->time_s) <= key)
                break;
            order[k] = order[k - 1];
        }
        order[k] = i;
    }
    return n;
}

/* 1-based rank of option i in order, 0 when absent. */
static size_t rank_of(const size_t *order, size_t n, size_t i)
{
    for (size_t k = 0; k < n; k++)
        if (order[k] == i)
            return k + 1;
    return 0;
}

/* "a / b" of two sides' values, or one value. */
static void per_side(FILE *out, const advise_option *o, const double *v, const char *fmt,
                     const char *sep)
{
    for (int i = 0; i < o->nsides; i++) {
        if (i)
            fputs(sep, out);
        if (isfinite(v[i]))
            fprintf(out, fmt, v[i]);
        else
            fputs("?", out);
    }
}

static void text_option(FILE *out, const option_list *l, size_t i, size_t rank, double cheapest)
{
    const advise_option *o = &l->items[i];
    if (rank)
        fprintf(out, "  %zu. ", rank);
    else
        fputs("  ", out);
    fprintf(out, "%s: %gx%g", o->name, o->na, o->nb);
    if (isfinite(o->time_s))
        fprintf(out, ", %.5g s", o->time_s);
    else
        fputs(", time unknown", out);
    if (isfinite(o->cost.core_hours))
        fprintf(out, ", %.4g core-hours", o->cost.core_hours);
    if (isfinite(o->cost.cost)) {
        fprintf(out, ", cost %.4g %s", o->cost.cost, o->cost.currency);
        if (cheapest > 0 && o->cost.cost > cheapest * (1 + 1e-12))
            fprintf(out, " (%.3gx the cheapest)", o->cost.cost / cheapest);
    }
    fputs("; rows per process ", out);
    per_side(out, o, o->rows, "%.6g", " / ");
    fputs(", memory per process ", out);
    per_side(out, o, o->mem_mb, "%.0f MB", " / ");
    fprintf(out, "\n      %s\n", o->source);
    if (o->cost.fit == COSTING_MEMORY_UNKNOWN)
        fprintf(out, "      feasibility unknown: %s\n", o->cost.reason);
}

static void print_text(FILE *out, const advise_ctx *ctx, const option_list *l, bool maximize,
                       const size_t *fast, size_t nfast, const size_t *cheap, size_t ncheap)
{
    double cheapest = INFINITY;
    for (size_t k = 0; k < ncheap; k++)
        cheapest = fmin(cheapest, l->items[cheap[k]].cost.cost);
    if (maximize)
        fputs("Scenario 2: the largest power-of-two N x N mesh each option's memory holds\n", out);
    else
        fprintf(out, "Scenario 1: a %gx%g mesh (%g rows of %g points)\n", l->items[0].na,
                l->items[0].nb, l->items[0].na, l->items[0].nb);
    fprintf(out, "code %s; memory per mesh point %.4g bytes (%s)\n",
            ctx->code ? ctx->code : "(none)", ctx->mb_per_point * 1048576, ctx->mb_source);
    fputs(maximize ? "\nLargest mesh first, then fastest:\n" : "\nFastest first:\n", out);
    for (size_t k = 0; k < nfast; k++)
        text_option(out, l, fast[k], k + 1, cheapest);
    if (nfast == 0)
        fputs("  (no feasible option has a predicted time)\n", out);
    fputs(maximize ? "\nLargest mesh first, then cheapest:\n" : "\nCheapest first:\n", out);
    for (size_t k = 0; k < ncheap; k++)
        text_option(out, l, cheap[k], k + 1, cheapest);
    if (ncheap == 0)
        fputs("  (no feasible option has a known cost)\n", out);
    bool header = false;
    for (size_t i = 0; i < l->n; i++)
        if (!l->items[i].feasible) {
            fputs(header ? "" : "\nNot feasible:\n", out);
            header = true;
            fprintf(out, "  %s: %s\n", l->items[i].name, l->items[i].reason);
        }
    header = false;
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].feasible && !isfinite(l->items[i].time_s)) {
            fputs(header ? "" : "\nNo prediction:\n", out);
            header = true;
            text_option(out, l, i, 0, cheapest);
        }
}

/* "a;b" of the sides' values into a CSV cell. */
static void csv_sides(FILE *out, const advise_option *o, const double *v)
{
    for (int i = 0; i < o->nsides; i++) {
        if (i)
            fputc(';', out);
        if (isfinite(v[i]))
            fprintf(out, "%.10g", v[i]);
    }
}

static void print_csv(FILE *out, const option_list *l, const size_t *fast, size_t nfast,
                      const size_t *cheap, size_t ncheap)
{
    fputs("option,clusters,np,rows_per_process,mem_mb_per_process,na,nb,time_s,core_hours,cost,"
          "currency,feasible,reason,source,rank_fastest,rank_cheapest\n", out);
    for (size_t i = 0; i < l->n; i++) {
        const advise_option *o = &l->items[i];
        char clusters[300] = "";
        for (int s = 0; s < o->nsides; s++)
            snprintf(clusters + strlen(clusters), sizeof clusters - strlen(clusters), "%s%s",
                     s ? ";" : "", o->cluster[s]->name);
        textout_csv_text(out, o->name);
        fputc(',', out);
        textout_csv_text(out, clusters);
        fputc(',', out);
        csv_sides(out, o, o->np);
        fputc(',', out);
        csv_sides(out, o, o->rows);
        fputc(',', out);
        csv_sides(out, o, o->mem_mb);
        fprintf(out, ",%.10g,%.10g,", o->na, o->nb);
        textout_csv_number(out, o->time_s);
        fputc(',', out);
        textout_csv_number(out, o->cost.core_hours);
        fputc(',', out);
        textout_csv_number(out, o->cost.cost);
        fputc(',', out);
        textout_csv_text(out, o->cost.currency);
        fprintf(out, ",%s,", o->feasible ? "yes" : "no");
        textout_csv_text(out, o->reason[0] ? o->reason : NULL);
        fputc(',', out);
        textout_csv_text(out, o->source);
        size_t rf = rank_of(fast, nfast, i), rc = rank_of(cheap, ncheap, i);
        fputc(',', out);
        if (rf)
            fprintf(out, "%zu", rf);
        fputc(',', out);
        if (rc)
            fprintf(out, "%zu", rc);
        fputc('\n', out);
    }
}

static void json_option(FILE *out, const option_list *l, size_t i, size_t rf, size_t rc)
{
    const advise_option *o = &l->items[i];
    fputs("    {\"name\": ", out);
    textout_json_text(out, o->name);
    fputs(", \"sides\": [", out);
    for (int s = 0; s < o->nsides; s++) {
        fputs(s ? ", {\"cluster\": " : "{\"cluster\": ", out);
        textout_json_text(out, o->cluster[s]->name);
        fputs(", \"np\": ", out);
        textout_json_number(out, o->np[s]);
        fputs(", \"rows_per_process\": ", out);
        textout_json_number(out, o->rows[s]);
        fputs(", \"mem_mb_per_process\": ", out);
        textout_json_number(out, o->mem_mb[s]);
        fputc('}', out);
    }
    fputs("], \"na\": ", out);
    textout_json_number(out, o->na);
    fputs(", \"nb\": ", out);
    textout_json_number(out, o->nb);
    fputs(", \"time_s\": ", out);
    textout_json_number(out, o->time_s);
    fputs(", \"source\": ", out);
    textout_json_text(out, o->source);
    fputs(", \"core_hours\": ", out);
    textout_json_number(out, o->cost.core_hours);
    fputs(", \"cost\": ", out);
    textout_json_number(out, o->cost.cost);
    fputs(", \"currency\": ", out);
    textout_json_text(out, o->cost.currency);
    fprintf(out, ", \"feasible\": %s, \"reason\": ", o->feasible ? "true" : "false");
    textout_json_text(out, o->reason[0] ? o->reason : NULL);
    fputs(", \"rank_fastest\": ", out);
    textout_json_number(out, rf ? (double)rf : NAN);
    fputs(", \"rank_cheapest\": ", out);
    textout_json_number(out, rc ? (double)rc : NAN);
    fprintf(out, "}%s\n", i + 1 < l->n ? "," : "");
}

static void print_json(FILE *out, const advise_ctx *ctx, const option_list *l, bool maximize,
                       const size_t *fast, size_t nfast, const size_t *cheap, size_t ncheap)
{
    fprintf(out, "{\n  \"scenario\": \"%s\",\n  \"code\": ", maximize ? "largest" : "fastest");
    textout_json_text(out, ctx->code);
    fputs(",\n  \"mb_per_point\": ", out);
    textout_json_number(out, ctx->mb_per_point);
    fputs(",\n  \"mb_per_point_source\": ", out);
    textout_json_text(out, ctx->mb_source);
    fputs(",\n  \"options\": [\n", out);
    for (size_t i = 0; i < l->n; i++)
        json_option(out, l, i, rank_of(fast, nfast, i), rank_of(cheap, ncheap, i));
    fputs("  ],\n  \"fastest\": [", out);
    for (size_t k = 0; k < nfast; k++) {
        fputs(k ? ", " : "", out);
        textout_json_text(out, l->items[fast[k]].name);
    }
    fputs("],\n  \"cheapest\": [", out);
    for (size_t k = 0; k < ncheap; k++) {
        fputs(k ? ", " : "", out);
        textout_json_text(out, l->items[cheap[k]].name);
    }
    fputs("]\n}\n", out);
}

/* Scenario 2 ranks the largest mesh first: put larger N before smaller
 * in both rankings (stable within the same N). */
static void larger_first(const option_list *l, size_t *order, size_t n)
{
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && l->size[order[k - 1]] < l->size[order[k]]; k--) {
            size_t t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
}

/* Look the free clusters up; 1 with a message when one is unknown. */
static int resolve_free(const archive *a, const rjopts_resource *res, size_t n,
                        const cluster_info **cl, double *np, const char **names)
{
    for (size_t i = 0; i < n; i++) {
        cl[i] = archive_cluster(a, res[i].name);
        if (!cl[i]) {
            fprintf(stderr, "perfcast advise: unknown cluster '%s' (not in %s/clusters.csv)\n",
                    res[i].name, a->dir ? a->dir : "the archive's");
            return 1;
        }
        np[i] = (double)res[i].np;
        names[i] = cl[i]->name;
    }
    return 0;
}

static int advise(const advise_args *a, const rjopts_resource *res, size_t nres, long na,
                  long nb, double deadline, double budget, double bytes, double quantum)
{
    archive arch;
    diag_list diags;
    diag_init(&diags);
    bool loaded = archive_load(a->archive ? a->archive : "archive", &arch, &diags);
    diag_print(&diags, stderr);
    diag_free(&diags);
    const cluster_info *cl[MAX_FREE];
    double np[MAX_FREE];
    const char *names[MAX_FREE];
    int rc = loaded ? resolve_free(&arch, res, nres, cl, np, names) : 1;
    advise_ctx ctx;
    char err[300];
    advise_request req = {&arch, a->campaign, a->code, bytes / 1048576, quantum};
    if (rc == 0 && !advise_open(&req, names, nres, &ctx, err, sizeof err)) {
        fprintf(stderr, "perfcast advise: %s\n", err);
        rc = 1;
    }
    if (rc != 0) {
        archive_free(&arch);
        return rc;
    }
    option_list l = {0};
    size_t *fast = NULL, *cheap = NULL;
    bool ok = enumerate(&ctx, cl, np, nres, a->maximize, (double)na, (double)nb, &l) &&
              (fast = calloc(l.n + 1, sizeof *fast)) && (cheap = calloc(l.n + 1, sizeof *cheap));
    if (ok) {
        apply_limits(&l, deadline, budget);
        size_t nfast = ranking(&l, false, fast), ncheap = ranking(&l, true, cheap);
        if (a->maximize) {
            larger_first(&l, fast, nfast);
            larger_first(&l, cheap, ncheap);
        }
        const char *f = a->format ? a->format : "text";
        if (strcmp(f, "csv") == 0)
            print_csv(stdout, &l, fast, nfast, cheap, ncheap);
        else if (strcmp(f, "json") == 0)
            print_json(stdout, &ctx, &l, a->maximize, fast, nfast, cheap, ncheap);
        else
            print_text(stdout, &ctx, &l, a->maximize, fast, nfast, cheap, ncheap);
    } else {
        fprintf(stderr, "perfcast advise: out of memory\n");
    }
    free(fast);
    free(cheap);
    free(l.items);
    free(l.size);
    advise_close(&ctx);
    archive_free(&arch);
    return ok ? 0 : 1;
}

int cmd_advise(int argc, char **argv)
{
    advise_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0)
        return rc;
    if (a.help) {
        fputs(usage, stdout);
        return 0;
    }
    char err[300];
    rjopts_resource res[MAX_FREE];
    size_t nres = 0;
    long na = 0, nb = 0;
    double deadline, budget, bytes, quantum;
    if (!a.free)
        return usage_error("--free is required", NULL);
    if (!rjopts_resources(a.free, res, MAX_FREE, &nres, err, sizeof err))
        return usage_error(err, NULL);
    if (a.maximize == (a.size != NULL))
        return usage_error("give either --size NAxNB or --maximize-size", NULL);
    if (a.size && !rjopts_size(a.size, &na, &nb, err, sizeof err))
        return usage_error(err, NULL);
    if (a.format && strcmp(a.format, "text") && strcmp(a.format, "csv") && strcmp(a.format, "json"))
        return usage_error("unknown format", a.format);
    if (!positive(a.deadline, &deadline) || !positive(a.budget, &budget) ||
        !positive(a.bytes, &bytes) || !positive(a.quantum, &quantum))
        return usage_error("--deadline, --budget, --bytes-per-point and --quantum take a "
                           "number > 0", NULL);
    return advise(&a, res, nres, na, nb, deadline, budget, bytes, isfinite(quantum) ? quantum : 1);
}
