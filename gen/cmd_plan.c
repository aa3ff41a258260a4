/*
 * cmd_plan.c — `perfcast plan`: the exact list of small runs a model needs
 * for a target (models/runplan.h), as a table, as CSV in the archive's
 * runs.csv columns, as mpirun command lines for mgbench, or as a Slurm
 * batch script. Pure computation from the command line: no archive is read.
 */
#include "gen/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/cli.h"
#include "gen/rjopts.h"
#include "gen/textout.h"
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
    "                      mpirun (mgbench command lines) or slurm (a batch script)\n"
    "  --code NAME         code column of csv output (default mgbench)\n"
    "  --campaign NAME     mpirun/slurm: append the runs to ARCHIVE/NAME/runs.csv\n"
    "  --archive DIR       archive folder given to mgbench (default archive)\n"
    "  --mgbench PATH      the mgbench program (default mgbench)\n"
    "  --extra ARGS        more mgbench options for every run (e.g. \"--levels 6\")\n"
    "  --side A|B          multicluster slurm: the side whose script to print\n"
    "  --time HH:MM:SS     slurm: the job's time limit (default 01:00:00)\n"
    "  --partition P       slurm: the Slurm partition (default: none given)\n"
    "  --help              this text\n"
    "Exit status: 0 ok, 1 a target that cannot be planned, 2 usage.\n";

typedef struct {
    const char *model, *target, *np, *grid, *rows, *cluster, *np0, *nps, *levels, *reps;
    const char *format, *code, *campaign, *archive, *mgbench, *extra, *side, *time, *partition;
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
        {"partition", &a->partition, NULL}, {NULL, NULL, NULL},
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

/* s quoted for a POSIX shell when it holds anything but safe characters. */
static void shell_word(FILE *out, const char *s)
{
    if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,") ==
                  strlen(s)) {
        fputs(s, out);
        return;
    }
    fputc('\'', out);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", out);
        else
            fputc(*s, out);
    fputc('\'', out);
}

/* mgbench's arguments for one planned run (after the program name). */
static void mgbench_args(const plan_args *a, const runplan_run *r, FILE *out)
{
    if (r->role == RUNPLAN_TCOMP && r->seq_of_np)
        fprintf(out, " --seq-of %ldx1 --na %ld --nb %ld", r->seq_of_np, r->na * r->seq_of_np,
                r->nb);
    else if (r->role == RUNPLAN_TCOMP || r->role == RUNPLAN_STRIP_OVERHEAD)
        fprintf(out, " --partition strip --na %ld --nb %ld", r->na, r->nb);
    else
        fprintf(out, " --partition block --grid %ldx%ld --na %ld --nb %ld", r->npa, r->npb, r->na,
                r->nb);
    fprintf(out, " --reps %ld", r->reps);
    char cl[128];
    cluster_of(a, r->side, cl, sizeof cl);
    if (a->campaign) {
        fputs(" --campaign ", out);
        shell_word(out, a->campaign);
        fputs(" --archive ", out);
        shell_word(out, a->archive ? a->archive : "archive");
    }
    if (cl[0]) {
        fputs(" --cluster ", out);
        shell_word(out, cl);
    }
    if (a->extra)
        fprintf(out, " %s", a->extra);
}

/* One command line per planned run: mpirun -n NP (launcher "mpirun") or
 * srun --ntasks=NP (launcher "srun"). Only the runs of side (-1 = all). */
static void print_commands(const plan_args *a, const runplan *p, const char *launcher, int side,
                           FILE *out)
{
    for (size_t i = 0; i < p->nruns; i++) {
        const runplan_run *r = &p->runs[i];
        if (side >= 0 && r->side != side)
            continue;
        fprintf(out, "# %s, level %ld\n", runplan_role_text(r->role), r->level);
        if (strcmp(launcher, "srun") == 0)
            fprintf(out, "srun --ntasks=%ld \"$MGBENCH\"", r->np);
        else {
            fprintf(out, "mpirun -n %ld ", r->np);
            shell_word(out, a->mgbench ? a->mgbench : "mgbench");
        }
        mgbench_args(a, r, out);
        fputc('\n', out);
    }
}

static long max_np_of_side(const runplan *p, int side)
{
    long m = 0;
    for (size_t i = 0; i < p->nruns; i++)
        if ((side < 0 || p->runs[i].side == side) && p->runs[i].np > m)
            m = p->runs[i].np;
    return m;
}

static void print_slurm(const plan_args *a, const runplan *p, int side, FILE *out)
{
    fputs("#!/bin/bash\n", out);
    fputs("#SBATCH --job-name=perfcast-plan\n", out);
    fprintf(out, "#SBATCH --ntasks=%ld\n", max_np_of_side(p, side));
    fputs("#SBATCH --time=", out);
    shell_word(out, a->time ? a->time : "01:00:00");
    fputc('\n', out);
    if (a->partition) {
        fputs("#SBATCH --partition=", out);
        shell_word(out, a->partition);
        fputc('\n', out);
    }
    fprintf(out, "# Small runs for the %s model, target %s (perfcast plan). Each run takes\n"
                 "# the processes it needs out of the allocation.\n", a->model, a->target);
    fputs("set -euo pipefail\nMGBENCH=${MGBENCH:-", out);
    shell_word(out, a->mgbench ? a->mgbench : "mgbench");
    fputs("}\n", out);
    print_commands(a, p, "srun", side, out);
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
    static const char *const formats[] = {"table", "csv", "mpirun", "slurm", NULL};
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
    if (multi && strcmp(format, "slurm") == 0 && side < 0)
        return usage_error("%s", "a batch script runs on one cluster: give --side A or B");
    runplan p;
    rc = build_plan(&a, &p);
    if (rc != 0)
        return rc;
    if (strcmp(format, "table") == 0)
        print_table(&a, &p, stdout);
    else if (strcmp(format, "csv") == 0)
        print_csv(&a, &p, stdout);
    else if (strcmp(format, "mpirun") == 0)
        print_commands(&a, &p, "mpirun", side, stdout);
    else
        print_slurm(&a, &p, side, stdout);
    runplan_free(&p);
    return 0;
}
