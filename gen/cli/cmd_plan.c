/*
 * cmd_plan.c — `perfcast plan`: the exact list of small runs a model needs
 * for a target (models/runplan.h), as a table, as CSV in the archive's
 * runs.csv columns, as mpirun command lines for mgbench, or as a Slurm
 * batch script. Pure computation from the command line: no archive is read.
 */
#include "gen/cli/commands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/advice/plan_batch.h"
#include "gen/base/textout.h"
#include "gen/cli/cli.h"
#include "gen/fit/rjopts.h"
#include "gen/ingest/archive.h"
#include "models/runplan.h"

static const char usage[] =
    "usage: perfcast plan --model strip|block|multicluster --target NAxNB [options]\n"
    "\n"
    "Lists exactly the small runs the model needs to predict the target, and no\n"
    "more: for strip (seed 000, steps 1-2) the sequential runs at the target's\n"
    "per-process mesh and at 1/l of it, and np0 x 1 strips with the same\n"
    "per-process meshes; for block (seed 001, steps 1-2) the (2,2) run and the\n"
    "(np,1) and (1,np) strips at np = 2 and each --nps, for each work level l;\n"
    "for multicluster the strip runs of each side at its own rows per process.\n"
    "Meshes follow mgbench and archive/README.md: an na x nb mesh on an npa x npb\n"
    "grid gives each process na/npa rows of nb/npb points; a strip is np x 1.\n"
    "\n"
    "Target:\n"
    "  --model M           strip, block or multicluster\n"
    "  --target NAxNB      the mesh to predict (multicluster: total rows x row length)\n"
    "  --np N              strip: processes of the target\n"
    "  --grid AxB          block: the target's process grid\n"
    "  --np NA,NB          multicluster: processes on cluster A and on cluster B\n"
    "  --rows RA,RB        multicluster: mesh rows given to each side\n"
    "                      (default: half of NA each, as in seed 000)\n"
    "  --cluster C         the cluster the runs are for (multicluster: CA,CB)\n"
    "Runs:\n"
    "  --np0 4,8           strip/multicluster: parallel process counts (default 4,8)\n"
    "  --nps 4,8,16        block: strip process counts above 2 (default 4,8,16)\n"
    "  --levels 1,4        work levels l: per-process rows divided by l\n"
    "                      (default 1,4 for strip, 1,2,4 for block)\n"
    "  --reps N            repetitions of every run (default 3)\n"
    "Output:\n"
    "  --format F          table (default), csv (runs.csv columns, time_s empty),\n"
    "                      mpirun (mgbench command lines for this machine), slurm\n"
    "                      (an sbatch script) or pbs (a PBS/Torque qsub script)\n"
    "  --code NAME         code column of csv output (default mgbench)\n"
    "  --campaign NAME     mpirun/slurm/pbs: append the runs to ARCHIVE/NAME/runs.csv;\n"
    "                      its measured runs also time the batch script (below)\n"
    "  --archive DIR       archive folder (default archive): clusters.csv gives\n"
    "                      cores_per_node of --cluster\n"
    "  --mgbench PATH      the mgbench program (default mgbench)\n"
    "  --extra ARGS        more mgbench options for every run (e.g. \"--levels 6\")\n"
    "  --side A|B          multicluster slurm/pbs: the side whose script to print\n"
    "mpirun:\n"
    "  --cores N           cores of this machine (default: the online processors);\n"
    "                      runs above it get --oversubscribe and a warning\n"
    "Batch scripts (slurm, pbs):\n"
    "  --ppn N             processes per node, as the target will run (default: the\n"
    "                      cluster's cores_per_node); each run gets ceil(np/N) nodes\n"
    "  --time HH:MM:SS     time limit (default: predicted from the --campaign's\n"
    "                      measured runs x --margin + 5 min, else 01:00:00)\n"
    "  --margin X          safety factor of the predicted time (default 1.5)\n"
    "  --bytes-per-point B memory per mesh point for --mem-per-cpu (default 24,\n"
    "                      mgbench's footprint: work_mb x 1.25 + 64 MB per CPU)\n"
    "  --launcher L        srun (default) or mpirun\n"
    "  --mpi TYPE          srun --mpi=TYPE (default pmix, for Open MPI; none to omit)\n"
    "  --partition P       the partition (queue)\n"
    "  --account A         the account (default: a commented-out placeholder)\n"
    "  --modules \"M ...\"   modules to load (default: a commented-out placeholder)\n"
    "  --output FILE       the job's output file (default perfcast-plan-%j.out)\n"
    "  --job-name NAME     the job's name (default perfcast-plan)\n"
    "Every run of a batch script is attempted even if one fails; the script exits 1\n"
    "when any failed.\n"
    "  --help              this text\n"
    "Exit status: 0 ok, 1 a target that cannot be planned, 2 usage.\n";

typedef struct {
    const char *model, *target, *np, *grid, *rows, *cluster, *np0, *nps, *levels, *reps;
    const char *format, *code, *campaign, *archive, *mgbench, *extra, *side, *time, *partition;
    const char *ppn, *cores, *bytes, *margin, *account, *modules, *output, *launcher, *mpi;
    const char *job_name;
    bool help;
} plan_args;

/* One line, "perfcast: <fmt with arg>; see perfcast plan --help". */
static int usage_error(const char *fmt, const char *arg)
{
    char what[512];
    snprintf(what, sizeof what, fmt, arg);
    return cli_usage_error("plan", what, NULL);
}

static int parse_args(int argc, char **argv, plan_args *a)
{
    memset(a, 0, sizeof *a);
    const cli_option options[] = {
        {"model", &a->model, NULL},       {"target", &a->target, NULL},
        {"np", &a->np, NULL},             {"grid", &a->grid, NULL},
        {"rows", &a->rows, NULL},         {"cluster", &a->cluster, NULL},
        {"np0", &a->np0, NULL},           {"nps", &a->nps, NULL},
        {"levels", &a->levels, NULL},     {"reps", &a->reps, NULL},
        {"format", &a->format, NULL},     {"code", &a->code, NULL},
        {"campaign", &a->campaign, NULL}, {"archive", &a->archive, NULL},
        {"mgbench", &a->mgbench, NULL},   {"extra", &a->extra, NULL},
        {"side", &a->side, NULL},         {"time", &a->time, NULL},
        {"partition", &a->partition, NULL}, {"ppn", &a->ppn, NULL},
        {"cores", &a->cores, NULL},       {"bytes-per-point", &a->bytes, NULL},
        {"margin", &a->margin, NULL},     {"account", &a->account, NULL},
        {"modules", &a->modules, NULL},   {"output", &a->output, NULL},
        {"launcher", &a->launcher, NULL}, {"mpi", &a->mpi, NULL},
        {"job-name", &a->job_name, NULL}, {NULL, NULL, NULL},
    };
    bool missing;
    const char *bad = cli_parse_options(argc, argv, options, &a->help, &missing);
    if (bad)
        return usage_error(missing        ? "missing value after %s"
                           : bad[0] == '-' ? "unknown option %s"
                                           : "unexpected argument %s",
                           bad);
    return 0;
}

/* Whole numbers from "4,8,16" into out (at most max). */
static bool long_list(const char *text, long *out, size_t max, size_t *n, char *err, size_t len)
{
    double v[32];
    if (!rjopts_number_list(text, v, max < 32 ? max : 32, n, err, len))
        return false;
    for (size_t i = 0; i < *n; i++) {
        if (v[i] != (double)(long)v[i]) {
            snprintf(err, len, "expected whole numbers, got '%s'", text);
            return false;
        }
        out[i] = (long)v[i];
    }
    return true;
}

/* Build the plan the arguments ask for; 0, 1 (cannot plan) or 2 (usage). */
static int build_plan(const plan_args *a, runplan *p)
{
    char err[300] = "";
    long na, nb, nps[32], levels[32], pair[2] = {0, 0}, rows[2];
    size_t nnps = 0, nlevels = 0, npair = 0;
    double reps = 3;
    const char *list = strcmp(a->model, "block") == 0 ? a->nps : a->np0;
    if (!rjopts_size(a->target, &na, &nb, err, sizeof err) ||
        (list && !long_list(list, nps, 32, &nnps, err, sizeof err)) ||
        (a->levels && !long_list(a->levels, levels, 32, &nlevels, err, sizeof err)) ||
        (a->reps && (!rjopts_number_list(a->reps, &reps, 1, &npair, err, sizeof err) ||
                     reps != (double)(long)reps)))
        return usage_error("%s", err[0] ? err : "--reps: expected a whole number");
    runplan_options o = {nnps ? nps : NULL, nnps, nlevels ? levels : NULL, nlevels, (long)reps};
    bool ok;
    if (strcmp(a->model, "strip") == 0) {
        if (!a->np || !long_list(a->np, pair, 1, &npair, err, sizeof err))
            return usage_error("%s", "strip needs --np N");
        ok = runplan_strip(na, nb, pair[0], &o, p, err, sizeof err);
    } else if (strcmp(a->model, "block") == 0) {
        if (!a->grid || !rjopts_size(a->grid, &pair[0], &pair[1], err, sizeof err))
            return usage_error("%s", "block needs --grid AxB");
        ok = runplan_block(na, nb, pair[0], pair[1], &o, p, err, sizeof err);
    } else if (strcmp(a->model, "multicluster") == 0) {
        if (!a->np || !long_list(a->np, pair, 2, &npair, err, sizeof err) || npair != 2)
            return usage_error("%s", "multicluster needs --np NA,NB");
        size_t nrows = 2;
        rows[0] = rows[1] = na / 2;
        if (a->rows && (!long_list(a->rows, rows, 2, &nrows, err, sizeof err) || nrows != 2))
            return usage_error("%s", "--rows: expected RA,RB");
        if (rows[0] % pair[0] || rows[1] % pair[1] || rows[0] + rows[1] != na) {
            fprintf(stderr, "perfcast plan: the rows %ld,%ld must add up to %ld and divide by "
                            "the processes %ld,%ld\n", rows[0], rows[1], na, pair[0], pair[1]);
            return 1;
        }
        long per[2] = {rows[0] / pair[0], rows[1] / pair[1]};
        ok = runplan_multicluster(nb, pair, per, &o, p, err, sizeof err);
    } else {
        return usage_error("unknown model '%s' (expected strip, block or multicluster)", a->model);
    }
    if (!ok)
        fprintf(stderr, "perfcast plan: %s\n", err);
    return ok ? 0 : 1;
}

/* Cluster of a side ("" when not given): --cluster C or CA,CB. */
static void cluster_of(const plan_args *a, int side, char *out, size_t len)
{
    const char *c = a->cluster ? a->cluster : "";
    const char *comma = strchr(c, ',');
    if (side == 0)
        snprintf(out, len, "%.*s", comma ? (int)(comma - c) : (int)strlen(c), c);
    else
        snprintf(out, len, "%s", comma ? comma + 1 : c);
}

static void print_table(const plan_args *a, const runplan *p, FILE *out)
{
    fprintf(out, "%-3s %-19s %-14s %5s %7s %-15s %-13s %5s %4s %9s\n", "#", "role", "cluster",
            "np", "grid", "mesh na x nb", "per process", "level", "reps", "seq_of_np");
    long total = 0;
    for (size_t i = 0; i < p->nruns; i++) {
        const runplan_run *r = &p->runs[i];
        char cl[128], grid[32], mesh[48], per[48], seq[24];
        cluster_of(a, r->side, cl, sizeof cl);
        snprintf(grid, sizeof grid, "%ldx%ld", r->npa, r->npb);
        snprintf(mesh, sizeof mesh, "%ldx%ld", r->na, r->nb);
        snprintf(per, sizeof per, "%ldx%ld", r->na / r->npa, r->nb / r->npb);
        snprintf(seq, sizeof seq, "%ld", r->seq_of_np);
        fprintf(out, "%-3zu %-19s %-14s %5ld %7s %-15s %-13s %5ld %4ld %9s\n", i + 1,
                runplan_role_text(r->role), cl[0] ? cl : "-", r->np, grid, mesh, per, r->level,
                r->reps, r->seq_of_np ? seq : "-");
        total += r->reps;
    }
    fprintf(out, "%zu configurations, %ld runs in all; the largest needs %ld processes\n",
            p->nruns, total, runplan_max_np(p));
}

/* One row per repetition, in runs.csv columns, time_s empty to fill in. */
static void print_csv(const plan_args *a, const runplan *p, FILE *out)
{
    fputs("cluster,code,np,npa,npb,na,nb,seq_of_np,rep,time_s,note\n", out);
    for (size_t i = 0; i < p->nruns; i++) {
        const runplan_run *r = &p->runs[i];
        char cl[128];
        cluster_of(a, r->side, cl, sizeof cl);
        for (long rep = 1; rep <= r->reps; rep++) {
            textout_csv_text(out, cl);
            fputc(',', out);
            textout_csv_text(out, a->code ? a->code : "mgbench");
            fprintf(out, ",%ld,%ld,%ld,%ld,%ld,", r->np, r->npa, r->npb, r->na, r->nb);
            if (r->seq_of_np)
                fprintf(out, "%ld", r->seq_of_np);
            fprintf(out, ",%ld,,%s level %ld%s\n", rep, runplan_role_text(r->role), r->level,
                    strcmp(a->model, "multicluster") != 0 ? "" : r->side ? " side B" : " side A");
        }
    }
}

/* The cluster's row of clusters.csv, when --cluster names one the archive has. */
static const cluster_info *cluster_row(const plan_args *a, const archive *arch, int side)
{
    char cl[128];
    cluster_of(a, side < 0 ? 0 : side, cl, sizeof cl);
    return cl[0] ? archive_cluster(arch, cl) : NULL;
}

/* A number option; false (usage) when given and not a number > 0. */
static bool option_number(const char *text, double *out)
{
    size_t n;
    char err[200];
    return !text || rjopts_number_list(text, out, 1, &n, err, sizeof err);
}

/* The batch settings: options first, then what the archive knows (cores
 * per node of the cluster, measured runs of the campaign to time the plan). */
static int batch_settings(const plan_args *a, const runplan *p, int side, const archive *arch,
                          char clusters[2][128], plan_batch *b, char *time_buf, char *note,
                          size_t note_len)
{
    double ppn = 0, cores = 0, bytes = 24, margin = 1.5;
    if (!option_number(a->ppn, &ppn) || ppn != floor(ppn) || !option_number(a->cores, &cores) ||
        cores != floor(cores) || !option_number(a->bytes, &bytes) ||
        !option_number(a->margin, &margin))
        return usage_error("%s", "--ppn, --cores, --bytes-per-point and --margin take a number > 0");
    const cluster_info *ci = cluster_row(a, arch, side);
    if (!a->ppn && ci && isfinite(ci->cores_per_node))
        ppn = ci->cores_per_node;
    if (!a->cores) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        cores = online > 0 ? (double)online : 0;
    }
    cluster_of(a, 0, clusters[0], 128);
    cluster_of(a, 1, clusters[1], 128);
    *b = (plan_batch){
        .model = a->model, .target = a->target, .mgbench = a->mgbench,
        .launcher = a->launcher ? a->launcher : "srun", .mpi = a->mpi ? a->mpi : "pmix",
        .ppn = (long)ppn, .cores = (long)cores,
        .mem_per_cpu_mb = plan_batch_max_work_mb(p, side, bytes) * 1.25 + 64,
        .partition = a->partition, .account = a->account, .modules = a->modules,
        .output = a->output, .job_name = a->job_name, .side = side,
        .cluster = {clusters[0], clusters[1]},
        .campaign = a->campaign, .archive = a->archive, .extra = a->extra,
    };
    const campaign *c = a->campaign ? archive_campaign(arch, a->campaign) : NULL;
    if (a->time) {
        b->time = a->time;
        b->time_note = "given with --time";
    } else if (c && plan_batch_time_limit(p, side, &c->runs, campaign_procs(c), margin, time_buf,
                                          16, note, note_len)) {
        b->time = time_buf;
        b->time_note = note;
    } else {
        b->time = "01:00:00";
        b->time_note = "a default: no measured runs to predict it from (give --campaign with "
                       "measured runs, or --time)";
    }
    return 0;
}

static int print_batch(const plan_args *a, const runplan *p, const char *format, int side)
{
    diag_list diags;
    diag_init(&diags);
    archive arch = {0};
    if (a->cluster || a->campaign)
        archive_load(a->archive ? a->archive : "archive", &arch, &diags);
    diag_free(&diags); /* plan works without an archive: it only looks things up */
    plan_batch b;
    char time_buf[16], note[300], clusters[2][128];
    int rc = batch_settings(a, p, side, &arch, clusters, &b, time_buf, note, sizeof note);
    if (rc == 0 && strcmp(format, "mpirun") == 0)
        plan_batch_mpirun(&b, p, stdout, stderr);
    else if (rc == 0 && strcmp(format, "pbs") == 0)
        plan_batch_pbs(&b, p, stdout);
    else if (rc == 0)
        plan_batch_slurm(&b, p, stdout);
    archive_free(&arch);
    return rc;
}

static bool known(const char *v, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(v, *list) == 0)
            return true;
    return false;
}

int cmd_plan(int argc, char **argv)
{
    static const char *const formats[] = {"table", "csv", "mpirun", "slurm", "pbs", NULL};
    plan_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0)
        return rc;
    if (a.help) {
        fputs(usage, stdout);
        return 0;
    }
    if (!a.model || !a.target)
        return usage_error("%s", "--model and --target are required");
    const char *format = a.format ? a.format : "table";
    if (!known(format, formats))
        return usage_error("unknown format '%s'", format);
    bool multi = strcmp(a.model, "multicluster") == 0;
    int side = -1;
    if (a.side && (!multi || (strcmp(a.side, "A") != 0 && strcmp(a.side, "B") != 0)))
        return usage_error("%s", "--side A|B is for the multicluster model");
    if (a.side)
        side = a.side[0] == 'A' ? 0 : 1;
    if (multi && (strcmp(format, "slurm") == 0 || strcmp(format, "pbs") == 0) && side < 0)
        return usage_error("%s", "a batch script runs on one cluster: give --side A or B");
    runplan p;
    rc = build_plan(&a, &p);
    if (rc != 0)
        return rc;
    if (strcmp(format, "table") == 0)
        print_table(&a, &p, stdout);
    else if (strcmp(format, "csv") == 0)
        print_csv(&a, &p, stdout);
    else
        rc = print_batch(&a, &p, format, side);
    runplan_free(&p);
    return rc;
}
