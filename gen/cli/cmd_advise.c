/*
 * cmd_advise.c — `perfcast advise`: which of the free resources to use for
 * a problem (seed 000 Scenario 1: fastest or cheapest) or how large a
 * problem they can hold and at what cost (Scenario 2), from the models
 * fitted on the archive (gen/advice/advise.h), printed as text, CSV or JSON
 * (gen/advice/advise_out.h).
 */
#include "gen/cli/commands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/advice/advise.h"
#include "gen/advice/advise_out.h"
#include "gen/cli/cli.h"
#include "gen/fit/backtest_cache.h"
#include "gen/fit/experiment_run.h"
#include "gen/fit/rjopts.h"
#include "gen/ingest/namelist.h"

static const char usage[] =
    "usage: perfcast advise --free C:N[,C:N...] (--size NAxNB | --maximize-size) [options]\n"
    "\n"
    "Weighs every way to run a problem on the free resources: each cluster alone\n"
    "and the job split by rows across each pair of clusters (T = max(TA, TB),\n"
    "plus the link between the clusters when clusters.csv gives both links and\n"
    "the runs their cycles; rows balanced between the sides within their\n"
    "memory, compared with the equal split; two fabrics of one\n"
    "machine, <machine>-<fabric>, are not paired). For each option: the predicted\n"
    "time, its source (the strip or multi-cluster model fitted on the archive's\n"
    "runs of the code, else a prediction a paper printed for exactly that\n"
    "configuration, else none), the memory per process, core-hours = np*T/3600\n"
    "and the cost at the cluster's rate, with the time's 95% interval (a cluster\n"
    "alone: the archive's pooled strip backtests at its distance beyond the\n"
    "cluster's runs; a split: the multi-cluster model's interval from its parts)\n"
    "and where its width came from. Options ranked fastest first and\n"
    "cheapest first; infeasible ones (memory per process above the cluster's\n"
    "memory per core, over the deadline or the budget) listed with the reason.\n"
    "A model time of zero or less is no prediction: the model does not hold\n"
    "there, and the option is listed under \"No prediction\" with why, unranked.\n"
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
    "  --quantum Q           rows per process of a split are multiples of Q, a whole\n"
    "                        number of rows (default 1)\n"
    "  --archive DIR         the archive folder (default: archive)\n"
    "  --format F            text (default), csv or json\n"
    "  --help                this text\n"
    "For runs of mgbench, only options mgbench can run are ranked: a strip whose\n"
    "rows divide by its processes, a split with whole, even rows per process (at\n"
    "least 2, multiples of the quantum) on each side and a coarsest grid small\n"
    "enough for mgbench's direct solve; the splits left out are counted, one line\n"
    "each kind, and options that cannot run are listed as infeasible with the\n"
    "reason.\n"
    "Exit status: 0 ok, 1 input problems (unknown cluster, campaign or code;\n"
    "ambiguous code), 2 usage.\n";

#define MAX_FREE 16

typedef struct {
    const char *free, *size, *deadline, *budget, *code, *campaign, *bytes, *quantum;
    const char *archive, *format;
    bool maximize, help;
} advise_args;

static int usage_error(const char *what, const char *arg)
{
    return cli_usage_error("advise", what, arg);
}

static int parse_args(int argc, char **argv, advise_args *a)
{
    memset(a, 0, sizeof *a);
    const cli_option options[] = {
        {"free", &a->free, NULL},         {"size", &a->size, NULL},
        {"deadline", &a->deadline, NULL}, {"budget", &a->budget, NULL},
        {"code", &a->code, NULL},         {"campaign", &a->campaign, NULL},
        {"bytes-per-point", &a->bytes, NULL}, {"quantum", &a->quantum, NULL},
        {"archive", &a->archive, NULL},   {"format", &a->format, NULL},
        {"maximize-size", NULL, &a->maximize}, {NULL, NULL, NULL},
    };
    const char *why;
    const char *bad = cli_parse_options(argc, argv, options, &a->help, &why);
    if (bad)
        return usage_error(why, bad);
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

/* --quantum (1 when absent): rows per process of a split are whole
 * multiples of it, so it is a whole number of rows itself; a fraction
 * would make no split a multiple of it and every one fall back to 1. */
static bool quantum_of(const char *text, double *q)
{
    *q = 1;
    return !text || (positive(text, q) && *q == floor(*q) && *q >= 1 && *q <= 1e9);
}

/* Deadline and budget turn options infeasible. */
static void apply_limits(advise_list *l, double deadline, double budget)
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

/* Look the free clusters up; 1 with a message when one is unknown. */
static int resolve_free(const archive *a, const rjopts_resource *res, size_t n,
                        const cluster_info **cl, double *np, const char **names)
{
    for (size_t i = 0; i < n; i++) {
        cl[i] = archive_cluster(a, res[i].name);
        if (!cl[i]) {
            size_t n;
            const char **known = namelist_clusters(a, &n);
            cli_print_unknown("cluster", res[i].name, known, n, "clusters.csv");
            free(known);
            return 1;
        }
        np[i] = (double)res[i].np;
        names[i] = cl[i]->name;
    }
    return 0;
}

/* The campaign or code the request names that the archive lacks, with
 * the nearest known name; false when it names none such. */
static bool print_unknown_name(const advise_request *req, const char *dir)
{
    const char *what = advise_unknown_name(req);
    if (!what)
        return false;
    bool camp = strcmp(what, "campaign") == 0;
    const campaign *only = req->campaign ? archive_campaign(req->arch, req->campaign) : NULL;
    size_t n;
    const char **known = camp ? namelist_campaigns(req->arch, &n)
                              : namelist_codes(req->arch, only, &n);
    char where[300];
    if (camp || !only)
        snprintf(where, sizeof where, "%s", dir);
    else
        snprintf(where, sizeof where, "the runs of campaign %s", only->name);
    cli_print_unknown(what, camp ? req->campaign : req->code, known, n, where);
    free(known);
    return true;
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
    /* The archive's pooled backtests and the shipped prior they shrink
     * toward, for each option's interval, as fit, compare and a build load
     * them (gen/fit/error_pool.h, gen/fit/pooled_width.h). */
    backtest_cache *cache = rc == 0 ? backtest_cache_new() : NULL;
    char why[ERROR_PRIOR_ERROR_LEN] = "out of memory";
    if (rc == 0 && (!cache || !backtest_cache_load_prior(cache, why, sizeof why) ||
                    !experiment_fill_pool(&arch, NULL, cache))) {
        fprintf(stderr, "perfcast advise: %s\n", why);
        rc = 1;
    }
    advise_request req = {&arch, a->campaign, a->code, bytes / 1048576, quantum,
                          backtest_cache_pool(cache)};
    if (rc == 0 && !advise_open(&req, names, nres, &ctx, err, sizeof err)) {
        if (!print_unknown_name(&req, a->archive ? a->archive : "archive"))
            fprintf(stderr, "perfcast advise: %s\n", err);
        rc = 1;
    }
    if (rc != 0) {
        backtest_cache_free(cache);
        archive_free(&arch);
        return rc;
    }
    advise_list l = {0};
    size_t *fast = NULL, *cheap = NULL;
    bool ok = advise_enumerate(&ctx, cl, np, nres, a->maximize, (double)na, (double)nb, &l) &&
              (fast = calloc(l.n + 1, sizeof *fast)) && (cheap = calloc(l.n + 1, sizeof *cheap));
    if (ok) {
        apply_limits(&l, deadline, budget);
        size_t nfast = advise_rank(&l, false, a->maximize, fast);
        size_t ncheap = advise_rank(&l, true, a->maximize, cheap);
        const char *f = a->format ? a->format : "text";
        if (strcmp(f, "csv") == 0)
            advise_print_csv(stdout, &l, fast, nfast, cheap, ncheap);
        else if (strcmp(f, "json") == 0)
            advise_print_json(stdout, &ctx, &l, a->maximize, fast, nfast, cheap, ncheap);
        else
            advise_print_text(stdout, &ctx, &l, a->maximize, fast, nfast, cheap, ncheap);
    } else {
        fprintf(stderr, "perfcast advise: out of memory\n");
    }
    free(fast);
    free(cheap);
    advise_list_free(&l);
    advise_close(&ctx);
    backtest_cache_free(cache);
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
        !positive(a.bytes, &bytes))
        return usage_error("--deadline, --budget and --bytes-per-point take a number > 0", NULL);
    if (!quantum_of(a.quantum, &quantum))
        return usage_error("--quantum takes a whole number of rows from 1 to 1000000000, not",
                           a.quantum);
    return advise(&a, res, nres, na, nb, deadline, budget, bytes, quantum);
}
