/*
 * cmd_plan.c — `perfcast plan`: the exact list of small runs a model needs
 * for a target (models/runplan.h), as a table, as CSV in the archive's
 * runs.csv columns, as mpirun command lines for mgbench, or as a Slurm
 * batch script. The archive is only looked up: a --cluster's cores and
 * network, a --campaign's measured runs; a name it lacks is warned about,
 * never refused (plan lists the first runs of a new cluster or campaign).
 *
 * A portal may build the command line from what a user typed, so every
 * value is checked before anything is written (plan_batch_text_ok: no
 * control character, valid UTF-8, a bounded length; numbers within the
 * limits of plan_batch.h), names are never cut, and the output is built in
 * memory and refused whole when it would pass PLAN_BATCH_MAX_OUTPUT.
 */
#include "gen/cli/commands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/advice/plan_batch.h"
#include "gen/base/suggest.h"
#include "gen/base/textout.h"
#include "gen/cli/cli.h"
#include "gen/fit/rjopts.h"
#include "gen/ingest/archive.h"
#include "gen/ingest/namelist.h"
#include "gen/ingest/run_layout.h"
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
    "No run is listed twice (a multicluster plan on one cluster lists a run both\n"
    "sides need once); a run larger than the target says why in its note; a\n"
    "target on one process is no plan (it is the sequential run itself).\n"
    "\n"
    "Target:\n"
    "  --model M           strip, block or multicluster\n"
    "  --target NAxNB      the mesh to predict (multicluster: total rows x row length)\n"
    "  --np N              strip: processes of the target\n"
    "  --grid AxB          block: the target's process grid\n"
    "  --np NA,NB          multicluster: processes on cluster A and on cluster B\n"
    "  --rows RA,RB        multicluster: mesh rows given to each side\n"
    "                      (default: half of NA each, as in seed 000)\n"
    "  --cluster C         the cluster the runs are for (multicluster: CA,CB); one\n"
    "                      clusters.csv lacks is warned about (did you mean)\n"
    "Runs:\n"
    "  --np0 4,8           strip/multicluster: parallel process counts, each at\n"
    "                      least 2 (default 4,8)\n"
    "  --nps 4,8,16        block: strip process counts above 2 (default 4,8,16)\n"
    "                      Without them, a strip or block plan for a --cluster that\n"
    "                      clusters.csv describes also runs one node full (np0 =\n"
    "                      cores_per_node) and two nodes (2 x cores_per_node), when\n"
    "                      below the target, so the training sees a node's\n"
    "                      memory contention and the node boundary; on a torus or fat\n"
    "                      tree (sim_topology) one run per network level it fills\n"
    "                      first; the note says why\n"
    "  --levels 1,4        work levels l: per-process rows divided by l\n"
    "                      (default 1,4 for strip, 1,2,4 for block)\n"
    "  --reps N            repetitions of every run (default 3, at most 1000)\n"
    "Output:\n"
    "  --format F          table (default), csv (runs.csv columns, time_s empty;\n"
    "                      multicluster: a kind=pingpong row for the link),\n"
    "                      mpirun (mgbench command lines for this machine), slurm\n"
    "                      (an sbatch script) or pbs (a PBS/Torque qsub script)\n"
    "  --code NAME         code column of csv output (default mgbench)\n"
    "  --campaign NAME     mpirun/slurm/pbs: append the runs to ARCHIVE/NAME/runs.csv;\n"
    "                      its measured runs also time the batch script (below); a\n"
    "                      new one is warned about (did you mean), then started\n"
    "  --archive DIR       archive folder (default archive): clusters.csv gives\n"
    "                      cores_per_node of --cluster; runs asking more processes\n"
    "                      than its nodes x cores are marked oversubscribed\n"
    "  --mgbench PATH      the mgbench program (default mgbench)\n"
    "  --extra ARGS        more mgbench options for every run (e.g. \"--levels 6\")\n"
    "  --side A|B          multicluster slurm/pbs: the side whose script to print\n"
    "mpirun:\n"
    "  --cores N           cores of this machine (default: the online processors,\n"
    "                      at most 100000);\n"
    "                      runs above it get --oversubscribe and a warning\n"
    "Batch scripts (slurm, pbs):\n"
    "  --ppn N             processes per node, as the target will run (default: the\n"
    "                      cluster's cores_per_node; at most 100000); each run gets\n"
    "                      ceil(np/N) nodes\n"
    "  --time HH:MM:SS     time limit, at most 8760:00:00 (one year; default:\n"
    "                      predicted from the --campaign's measured runs x --margin\n"
    "                      + 5 min, capped at one year, else 01:00:00)\n"
    "  --margin X          safety factor of the predicted time (default 1.5, at\n"
    "                      most 100)\n"
    "  --bytes-per-point B memory per mesh point for --mem-per-cpu (default 24,\n"
    "                      mgbench's footprint: work_mb x 1.25 + 64 MB per CPU; at\n"
    "                      most 10000; the memory per CPU at most 16 TiB)\n"
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
    "Values: every value is refused (usage, exit 2) when it holds a control\n"
    "character (a byte below 0x20, or 0x7f), is not valid UTF-8 or is longer than\n"
    "4096 bytes; none is ever cut. Values the shell reads are quoted as one word\n"
    "(--extra and --modules as words split at blanks). Whole numbers in lists\n"
    "(--np, --nps, --levels, ...) are at most 1000000000. An output (script,\n"
    "table or CSV) above 4 MiB is refused whole (exit 1).\n"
    "Exit status: 0 ok, 1 a target that cannot be planned, 2 usage.\n";

typedef struct {
    const char *model, *target, *np, *grid, *rows, *cluster, *np0, *nps, *levels, *reps;
    const char *format, *code, *campaign, *archive, *mgbench, *extra, *side, *time, *partition;
    const char *ppn, *cores, *bytes, *margin, *account, *modules, *output, *launcher, *mpi;
    const char *job_name;
    bool help;
} plan_args;

/* Room for an error that quotes a whole value (values are at most
 * PLAN_BATCH_MAX_TEXT bytes): messages are never cut inside a value. */
enum { ERR_LEN = PLAN_BATCH_MAX_TEXT + 512 };

/* One line, "perfcast: <fmt with arg>; see perfcast plan --help". */
static int usage_error(const char *fmt, const char *arg)
{
    char what[ERR_LEN];
    snprintf(what, sizeof what, fmt, arg);
    return cli_usage_error("plan", what, NULL);
}

/* Every value given must be plan_batch_text_ok: checked once, here, before
 * any value is looked at, shown in a message or written. */
static int check_values(const cli_option *options)
{
    for (const cli_option *o = options; o->name; o++) {
        char what[64], err[ERR_LEN];
        snprintf(what, sizeof what, "--%s", o->name);
        if (*o->value && !plan_batch_text_ok(*o->value, what, err, sizeof err))
            return usage_error("%s", err);
    }
    return 0;
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
    const char *why;
    const char *bad = cli_parse_options(argc, argv, options, &a->help, &why);
    if (bad) {
        char err[ERR_LEN];
        if (!plan_batch_text_ok(bad, "an argument", err, sizeof err))
            return usage_error("%s", err);
        return cli_usage_error("plan", why, bad);
    }
    return check_values(options);
}

/* The largest whole number a list option takes: far above any machine, and
 * small enough that every product of two stays inside a long. */
#define MAX_WHOLE 1e9

/* Whether item (len bytes, not NUL-terminated) is written as a decimal
 * number: digits with an optional sign, point and exponent; no hex, inf,
 * nan or blanks, which strtod would take. */
static bool decimal_text(const char *item, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!strchr("0123456789+-.eE", item[i]))
            return false;
    return len > 0;
}

/* What one whole-number option takes, for its messages: its name, the
 * form of its value ("N", "NA,NB", "AxB"), the separators of its items
 * (a size's x in either case, as everywhere else), how many it takes (min
 * to max) and the least value. */
typedef struct {
    const char *name, *form, *sep;
    size_t min, max;
    long lo;
    bool distinct; /* each value once: a list of runs, where a repeat is the same run */
} whole_spec;

/* The items of text as whole numbers from spec->lo to MAX_WHOLE into out
 * (room for spec->max); false with err saying which item is at fault and
 * why (not a whole number, out of range, too few or too many), naming the
 * form and the range the option takes. */
static bool whole_items(const whole_spec *spec, const char *text, long *out, size_t *n,
                        char *err, size_t len)
{
    char range[160];
    snprintf(range, sizeof range, "expected %s, %s from %ld to %.0f", spec->form,
             spec->max == 1 ? "a whole number" : "whole numbers", spec->lo, MAX_WHOLE);
    *n = 0;
    for (const char *p = text;; p++) {
        size_t k = strcspn(p, spec->sep), at = strspn(p, " \t");
        size_t used = at < k ? k - at : 0;
        while (used > 0 && (p[at + used - 1] == ' ' || p[at + used - 1] == '\t'))
            used--; /* blanks around an item are no part of it */
        char item[64] = "", *end = item;
        bool decimal = decimal_text(p + at, used);
        if (decimal && used < sizeof item)
            memcpy(item, p + at, used);
        /* 64 digits or more: a number, far out of range */
        double v = decimal && used >= sizeof item ? INFINITY : item[0] ? strtod(item, &end) : NAN;
        if (*n == spec->max) {
            snprintf(err, len, "%s: %s, got '%s'", spec->name, range, text);
            return false;
        }
        if (*end || isnan(v) || (isfinite(v) && v != floor(v))) {
            snprintf(err, len, "%s: '%.*s' is not a whole number (%s)", spec->name, (int)k, p,
                     range);
            return false;
        }
        if (v < (double)spec->lo || v > MAX_WHOLE) {
            snprintf(err, len, "%s: %.*s is out of range (%s)", spec->name, (int)k, p, range);
            return false;
        }
        for (size_t i = 0; spec->distinct && i < *n; i++)
            if (out[i] == (long)v) {
                snprintf(err, len, "%s: %ld is listed twice (each once; --reps repeats the runs)",
                         spec->name, out[i]);
                return false;
            }
        out[(*n)++] = (long)v;
        p += k;
        if (!*p)
            break;
    }
    if (*n < spec->min) {
        snprintf(err, len, "%s: %s, got '%s'", spec->name, range, text);
        return false;
    }
    return true;
}

/* --reps: a whole number in 1..PLAN_BATCH_MAX_REPS (default 3). */
static bool reps_of(const char *text, long *reps)
{
    double v = 3;
    size_t n;
    char err[ERR_LEN];
    if (text && !rjopts_number_list(text, &v, 1, &n, err, sizeof err))
        return false;
    *reps = (long)fmin(v, PLAN_BATCH_MAX_REPS + 1);
    return v == floor(v) && v >= 1 && v <= PLAN_BATCH_MAX_REPS;
}

/* The fewest nodes of each network level above 1 of cluster ci, when
 * clusters.csv describes its network (models/topology.h), into
 * level_nodes (TOPOLOGY_MAX_DIMS), so the plan reaches each level. */
static void network_levels(const archive *arch, const cluster_info *ci, runplan_options *o,
                           long *level_nodes)
{
    topology t;
    if (!cluster_topology(arch, ci, &t))
        return;
    for (double level = 2; o->nlevel_nodes < TOPOLOGY_MAX_DIMS; level++) {
        double nodes = topology_nodes_for_level(&t, level);
        if (!(nodes <= ci->nodes))
            break;
        level_nodes[o->nlevel_nodes++] = (long)nodes;
    }
    o->level_nodes = level_nodes;
}

/* The cores and nodes of the cluster --cluster names (strip and block
 * only: a multi-cluster plan's sides differ), 0 when not known; and the
 * nodes of its network levels (level_nodes, TOPOLOGY_MAX_DIMS). */
static void node_of(const plan_args *a, const archive *arch, runplan_options *o,
                    long *level_nodes)
{
    const cluster_info *ci = a->cluster && !strchr(a->cluster, ',') && arch
                                 ? archive_cluster(arch, a->cluster)
                                 : NULL;
    if (!ci || strcmp(a->model, "multicluster") == 0)
        return;
    if (ci->cores_per_node >= 1 && ci->cores_per_node <= MAX_WHOLE)
        o->node_cores = (long)ci->cores_per_node;
    if (ci->nodes >= 1 && ci->nodes <= MAX_WHOLE)
        o->nodes = (long)ci->nodes;
    network_levels(arch, ci, o, level_nodes);
}

/* The whole-number options (whole_items). */
static const whole_spec TARGET = {"--target", "NAxNB", "xX", 2, 2, 1, false};
static const whole_spec STRIP_NP = {"--np", "N", ",", 1, 1, 1, false};
static const whole_spec GRID = {"--grid", "AxB", "xX", 2, 2, 1, false};
static const whole_spec SIDES_NP = {"--np", "NA,NB", ",", 2, 2, 1, false};
static const whole_spec ROWS = {"--rows", "RA,RB", ",", 2, 2, 1, false};
static const whole_spec NP0 = {"--np0", "a list like 4,8 (at most 32)", ",", 1, 32, 2, true};
static const whole_spec NPS = {"--nps", "a list like 4,8,16 (at most 32)", ",", 1, 32, 3, true};
static const whole_spec LEVELS = {"--levels", "a list like 1,4 (at most 32)", ",", 1, 32, 1, true};

/* Whether --cluster CA,CB names one cluster for both sides, whose strip
 * runs then serve both (runplan_share_sides). */
static bool one_cluster(const char *cluster)
{
    const char *comma = cluster ? strchr(cluster, ',') : NULL;
    size_t n = comma ? (size_t)(comma - cluster) : 0;
    return n > 0 && strlen(comma + 1) == n && strncmp(cluster, comma + 1, n) == 0;
}

/* The rows of each side (--rows, else half of na each) into rows; 0, 1
 * (they do not add up or divide) or 2 (usage). */
static int side_rows(const plan_args *a, long na, const long np[2], long rows[2])
{
    char err[ERR_LEN];
    size_t n;
    rows[0] = rows[1] = na / 2;
    if (a->rows && !whole_items(&ROWS, a->rows, rows, &n, err, sizeof err))
        return usage_error("%s", err);
    if (rows[0] % np[0] || rows[1] % np[1] || rows[0] + rows[1] != na) {
        fprintf(stderr, "perfcast plan: the rows %ld,%ld must add up to %ld and divide by "
                        "the processes %ld,%ld\n", rows[0], rows[1], na, np[0], np[1]);
        return 1;
    }
    return 0;
}

/* The model's runs for the target na x nb; 0, 1 (cannot plan) or 2. */
static int model_runs(const plan_args *a, long na, long nb, const runplan_options *o,
                      runplan *p)
{
    char err[ERR_LEN] = "";
    long pair[2] = {0, 0}, rows[2];
    size_t n;
    bool ok;
    int rc;
    if (strcmp(a->model, "strip") == 0) {
        if (!a->np)
            return usage_error("%s", "strip needs --np N");
        if (!whole_items(&STRIP_NP, a->np, pair, &n, err, sizeof err))
            return usage_error("%s", err);
        ok = runplan_strip(na, nb, pair[0], o, p, err, sizeof err);
    } else if (strcmp(a->model, "block") == 0) {
        if (!a->grid)
            return usage_error("%s", "block needs --grid AxB");
        if (!whole_items(&GRID, a->grid, pair, &n, err, sizeof err))
            return usage_error("%s", err);
        ok = runplan_block(na, nb, pair[0], pair[1], o, p, err, sizeof err);
    } else if (strcmp(a->model, "multicluster") == 0) {
        if (!a->np)
            return usage_error("%s", "multicluster needs --np NA,NB");
        if (!whole_items(&SIDES_NP, a->np, pair, &n, err, sizeof err))
            return usage_error("%s", err);
        if ((rc = side_rows(a, na, pair, rows)) != 0)
            return rc;
        long per[2] = {rows[0] / pair[0], rows[1] / pair[1]};
        ok = runplan_multicluster(nb, pair, per, o, p, err, sizeof err);
        if (ok && one_cluster(a->cluster))
            runplan_share_sides(p);
    } else {
        return usage_error("unknown model '%s' (expected strip, block or multicluster)", a->model);
    }
    if (!ok)
        fprintf(stderr, "perfcast plan: %s\n", err);
    return ok ? 0 : 1;
}

/* Build the plan the arguments ask for; 0, 1 (cannot plan) or 2 (usage). */
static int build_plan(const plan_args *a, const archive *arch, runplan *p)
{
    char err[ERR_LEN] = "";
    long target[2], nps[32], levels[32], reps;
    size_t n, nnps = 0, nlevels = 0;
    bool block = strcmp(a->model, "block") == 0;
    const char *list = block ? a->nps : a->np0;
    if (!whole_items(&TARGET, a->target, target, &n, err, sizeof err) ||
        (list && !whole_items(block ? &NPS : &NP0, list, nps, &nnps, err, sizeof err)) ||
        (a->levels && !whole_items(&LEVELS, a->levels, levels, &nlevels, err, sizeof err)))
        return usage_error("%s", err);
    if (!reps_of(a->reps, &reps))
        return usage_error("--reps: expected a whole number from 1 to %s", "1000");
    runplan_options o = {.nps = nnps ? nps : NULL, .nnps = nnps,
                         .levels = nlevels ? levels : NULL, .nlevels = nlevels, .reps = reps};
    long level_nodes[TOPOLOGY_MAX_DIMS];
    node_of(a, arch, &o, level_nodes);
    return model_runs(a, target[0], target[1], &o, p);
}

/* The cluster of each side, whole (never cut: a name may be any length
 * plan_batch_text_ok allows): --cluster C gives C to both, CA,CB one each;
 * "" when not given. Owned by the caller: plan_clusters_free. */
typedef struct {
    char *side[2];
} plan_clusters;

static bool plan_clusters_split(const char *text, plan_clusters *c)
{
    const char *t = text ? text : "";
    const char *comma = strchr(t, ',');
    c->side[0] = comma ? strndup(t, (size_t)(comma - t)) : strdup(t);
    c->side[1] = strdup(comma ? comma + 1 : t);
    return c->side[0] && c->side[1];
}

static void plan_clusters_free(plan_clusters *c)
{
    free(c->side[0]);
    free(c->side[1]);
}

/* "oversubscribed: 8 processes on 2 cores" when the run asks more
 * processes than its cluster (clusters.csv: nodes x cores per node) has
 * cores; "" when it fits or the cluster is not known. The same words as
 * the notes of the archive's oversubscribed runs. */
static const char *crowding(const archive *arch, const char *cluster, long np, char *buf,
                            size_t len)
{
    const cluster_info *ci = cluster && cluster[0] ? archive_cluster(arch, cluster) : NULL;
    double cores = ci ? ci->nodes * ci->cores_per_node : NAN;
    buf[0] = '\0';
    if ((double)np > cores)
        snprintf(buf, len, "oversubscribed: %ld processes on %g cores", np, cores);
    return buf;
}

/* What a reader should know of a run beyond its role: why it is there
 * when not for the model's own steps (it fills a node, it spans two),
 * why it is larger than the target, that it serves both sides, and
 * whether it oversubscribes its cluster; "" when nothing. */
static const char *run_note(const archive *arch, const char *cluster, const runplan *p,
                            const runplan_run *r, char *buf, size_t len)
{
    char crowd[96], above[200] = "";
    crowding(arch, cluster, r->np, crowd, sizeof crowd);
    if (runplan_above_target(p, r))
        snprintf(above, sizeof above, "more processes than the target's %ld: %s",
                 p->target_np[r->side ? 1 : 0],
                 r->role == RUNPLAN_BLOCK_REFERENCE
                     ? "the model's (2,2) reference, whatever the target"
                     : r->role == RUNPLAN_STRIP_OVERHEAD
                           ? "the model's step asks this np0 whatever the target (--np0 "
                             "chooses others)"
                           : "the model's step asks this strip whatever the target (--nps "
                             "chooses others)");
    const char *parts[] = {r->why != RUNPLAN_WHY_MODEL ? runplan_why_text(r->why) : "", above,
                           r->shared ? "side B's run too (one cluster for both sides)" : "",
                           crowd};
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && used < len; i++)
        if (parts[i][0])
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "; " : "", parts[i]);
    return buf;
}

/* The multi-cluster model's training run that is no solve: the link
 * between the clusters, measured by mgbench --pingpong between the split's
 * boundary ranks (mgbench/README.md), which option link=measured (the
 * default once the campaign has its row) charges each boundary message.
 * Two rows per process: the smallest split mgbench accepts; the messages
 * depend on nb alone. The table says it in a sentence, the CSV in a row of
 * kind=pingpong (mgbench/campaign plan skips it, saying so). */
typedef struct {
    long np[2];       /* processes on A and B */
    long na, nb;      /* the ping-pong's mesh: two rows per process */
    const char *side[2];
    char command[300]; /* the mgbench command line */
} link_run;

static const char LINK_RUN_WHY[] =
    "the model charges each message across the link the latency and bandwidth this run "
    "measures (option link=measured), which include the per-message costs clusters.csv's "
    "nominal link leaves out";

/* The plan's ping-pong run; false when the plan has none (not the
 * multi-cluster model, or no target and two process counts). */
static bool plan_link_run(const plan_args *a, const plan_clusters *cl, link_run *r)
{
    long target[2];
    size_t n = 0;
    char err[ERR_LEN];
    if (strcmp(a->model, "multicluster") != 0 || !a->target || !a->np ||
        !whole_items(&TARGET, a->target, target, &n, err, sizeof err) ||
        !whole_items(&SIDES_NP, a->np, r->np, &n, err, sizeof err))
        return false;
    r->nb = target[1];
    r->na = 2 * (r->np[0] + r->np[1]);
    r->side[0] = cl->side[0][0] ? cl->side[0] : "A";
    r->side[1] = cl->side[1][0] ? cl->side[1] : "B";
    snprintf(r->command, sizeof r->command,
             "mgbench --pingpong --split %ld:%ld --na %ld --nb %ld --cluster %s --cluster-b %s "
             "on %ld ranks of the joined clusters, A's first",
             r->np[0], 2 * r->np[0], r->na, r->nb, r->side[0], r->side[1], r->np[0] + r->np[1]);
    return true;
}

static void print_link_run(const plan_args *a, const plan_clusters *cl, FILE *out)
{
    link_run r;
    if (plan_link_run(a, cl, &r))
        fprintf(out, "and the link between the clusters, measured once (a ping-pong, not a "
                     "solve: in --format csv a row of kind pingpong): %s (mgbench/smpi_pingpong "
                     "for a simulated pair); why: %s\n", r.command, LINK_RUN_WHY);
}

/* The ping-pong run as a CSV row of print_csv's columns. */
static void print_link_row(const plan_args *a, const plan_clusters *cl, FILE *out)
{
    link_run r;
    if (!plan_link_run(a, cl, &r))
        return;
    char note[700];
    snprintf(note, sizeof note, "link between the clusters, a ping-pong, not a solve: %s; why: %s",
             r.command, LINK_RUN_WHY);
    textout_csv_text(out, r.side[0]);
    fputc(',', out);
    textout_csv_text(out, a->code ? a->code : "mgbench");
    fprintf(out, ",%ld,%ld,1,%ld,%ld,,1,,", r.np[0] + r.np[1], r.np[0] + r.np[1], r.na, r.nb);
    textout_csv_text(out, note);
    fputs(",pingpong,", out);
    textout_csv_text(out, r.side[1]);
    fputc('\n', out);
}

static void print_table(const archive *arch, const plan_clusters *cl, const runplan *p,
                        FILE *out)
{
    fprintf(out, "%-3s %-19s %-14s %5s %7s %-15s %-13s %5s %4s %9s  %s\n", "#", "role",
            "cluster", "np", "grid", "mesh na x nb", "per process", "level", "reps", "seq_of_np",
            "note");
    long total = 0;
    size_t crowded = 0;
    for (size_t i = 0; i < p->nruns; i++) {
        const runplan_run *r = &p->runs[i];
        const char *c = cl->side[r->side ? 1 : 0];
        char grid[48], mesh[48], per[48], seq[24];
        snprintf(grid, sizeof grid, "%ldx%ld", r->npa, r->npb);
        snprintf(mesh, sizeof mesh, "%ldx%ld", r->na, r->nb);
        snprintf(per, sizeof per, "%ldx%ld", r->na / r->npa, r->nb / r->npb);
        snprintf(seq, sizeof seq, "%ld", r->seq_of_np);
        char note[600], crowd[96];
        run_note(arch, c, p, r, note, sizeof note);
        fprintf(out, "%-3zu %-19s %-14s %5ld %7s %-15s %-13s %5ld %4ld %9s  %s\n", i + 1,
                runplan_role_text(r->role), c[0] ? c : "-", r->np, grid, mesh, per, r->level,
                r->reps, r->seq_of_np ? seq : "-", note[0] ? note : "-");
        total += r->reps;
        crowded += crowding(arch, c, r->np, crowd, sizeof crowd)[0] != '\0';
    }
    fprintf(out, "%zu configurations, %ld runs in all; the largest needs %ld processes\n",
            p->nruns, total, runplan_max_np(p));
    if (crowded)
        fprintf(out, "%zu configuration%s put more processes on the cluster than it has cores "
                     "(clusters.csv: nodes x cores_per_node): their times will be those of an "
                     "oversubscribed machine, not of the cluster at that size\n",
                crowded, crowded == 1 ? "" : "s");
}

/* One row per repetition, in runs.csv columns, time_s empty to fill in;
 * for the multi-cluster model the columns kind and cluster_b too, which
 * its ping-pong run's row fills (print_link_row). Stops once out holds more than PLAN_BATCH_MAX_OUTPUT bytes: the caller
 * refuses such an output whole. */
static void print_csv(const plan_args *a, const archive *arch, const plan_clusters *cl,
                      const runplan *p, FILE *out)
{
    /* kind and cluster_b only where a ping-pong row follows (print_link_row). */
    const char *link_cols = strcmp(a->model, "multicluster") == 0 ? ",," : "";
    fprintf(out, "cluster,code,np,npa,npb,na,nb,seq_of_np,rep,time_s,note%s\n",
            link_cols[0] ? ",kind,cluster_b" : "");
    for (size_t i = 0; i < p->nruns && ftell(out) <= PLAN_BATCH_MAX_OUTPUT; i++) {
        const runplan_run *r = &p->runs[i];
        for (long rep = 1; rep <= r->reps; rep++) {
            textout_csv_text(out, cl->side[r->side ? 1 : 0]);
            fputc(',', out);
            textout_csv_text(out, a->code ? a->code : "mgbench");
            fprintf(out, ",%ld,%ld,%ld,%ld,%ld,", r->np, r->npa, r->npb, r->na, r->nb);
            if (r->seq_of_np)
                fprintf(out, "%ld", r->seq_of_np);
            char note[600];
            run_note(arch, cl->side[r->side ? 1 : 0], p, r, note, sizeof note);
            fprintf(out, ",%ld,,%s level %ld%s%s%s%s\n", rep, runplan_role_text(r->role),
                    r->level,
                    strcmp(a->model, "multicluster") != 0 ? "" : r->side ? " side B" : " side A",
                    note[0] ? "; " : "", note, link_cols);
        }
    }
}

/* A number option in (0, max]; whole when asked. True when not given. */
static bool option_number(const char *text, double max, bool whole, double *out)
{
    size_t n;
    char err[ERR_LEN];
    if (!text)
        return true;
    double v;
    if (!rjopts_number_list(text, &v, 1, &n, err, sizeof err) || !(v > 0 && v <= max) ||
        (whole && v != floor(v)))
        return false;
    *out = v;
    return true;
}

/* The numbers of a batch script from the options (defaults where not
 * given); 0 or 2 (usage, with the limits in the message). */
static int batch_numbers(const plan_args *a, double *ppn, double *cores, double *bytes,
                         double *margin)
{
    if (!option_number(a->ppn, PLAN_BATCH_MAX_PPN, true, ppn) ||
        !option_number(a->cores, PLAN_BATCH_MAX_PPN, true, cores))
        return usage_error("%s", "--ppn and --cores take a whole number from 1 to 100000");
    if (!option_number(a->bytes, PLAN_BATCH_MAX_BYTES_PER_POINT, false, bytes))
        return usage_error("%s", "--bytes-per-point takes a number > 0, at most 10000");
    if (!option_number(a->margin, PLAN_BATCH_MAX_MARGIN, false, margin))
        return usage_error("%s", "--margin takes a number > 0, at most 100");
    if (a->time && !plan_batch_time_ok(a->time))
        return usage_error("%s", "--time takes HH:MM:SS (minutes and seconds below 60), at "
                                 "most 8760:00:00 (one year)");
    if (a->launcher && strcmp(a->launcher, "srun") != 0 && strcmp(a->launcher, "mpirun") != 0)
        return usage_error("unknown launcher '%s' (expected srun or mpirun)", a->launcher);
    return 0;
}

/* Why the time limit is the default one hour: no campaign given, the
 * campaign has no runs yet (it is new), or none of its runs is measured. */
static void default_time_note(const char *name, const campaign *c, char *note, size_t len)
{
    if (!name)
        snprintf(note, len, "a default: no measured runs to predict it from (give --campaign "
                            "with measured runs, or --time)");
    else if (!c)
        snprintf(note, len, "a default: campaign %s has no runs yet to predict it from (these "
                            "runs start it; give --time)", name);
    else
        snprintf(note, len, "a default: campaign %s has no measured runs to predict it from "
                            "(give --time)", name);
}

/* The batch settings: options first, then what the archive knows (cores
 * per node of the cluster, measured runs of the campaign to time the plan).
 * 0, 1 (memory per CPU beyond the limit) or 2 (usage). */
static int batch_settings(const plan_args *a, const runplan *p, int side, const archive *arch,
                          const plan_clusters *cl, plan_batch *b, char *time_buf, char *note,
                          size_t note_len)
{
    double ppn = 0, cores = 0, bytes = 24, margin = 1.5;
    int rc = batch_numbers(a, &ppn, &cores, &bytes, &margin);
    if (rc != 0)
        return rc;
    const char *mine = cl->side[side < 0 ? 0 : side];
    const cluster_info *ci = mine[0] ? archive_cluster(arch, mine) : NULL;
    if (!a->ppn && ci && ci->cores_per_node >= 1 && ci->cores_per_node <= PLAN_BATCH_MAX_PPN)
        ppn = floor(ci->cores_per_node);
    if (!a->cores) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        cores = online > 0 && online <= PLAN_BATCH_MAX_PPN ? (double)online : 0;
    }
    *b = (plan_batch){
        .model = a->model, .target = a->target, .mgbench = a->mgbench,
        .launcher = a->launcher ? a->launcher : "srun", .mpi = a->mpi ? a->mpi : "pmix",
        .ppn = (long)ppn, .cores = (long)cores,
        .mem_per_cpu_mb = plan_batch_max_work_mb(p, side, bytes) * 1.25 + 64,
        .partition = a->partition, .account = a->account, .modules = a->modules,
        .output = a->output, .job_name = a->job_name, .side = side,
        .cluster = {cl->side[0], cl->side[1]},
        .campaign = a->campaign, .archive = a->archive, .extra = a->extra,
    };
    if (!(b->mem_per_cpu_mb <= PLAN_BATCH_MAX_MEM_MB)) {
        fprintf(stderr, "perfcast plan: the largest run needs %.0f MB per CPU, more than the "
                        "16 TiB a script may ask for: a smaller --target or --bytes-per-point\n",
                b->mem_per_cpu_mb);
        return 1;
    }
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
        default_time_note(a->campaign, c, note, note_len);
        b->time_note = note;
    }
    return 0;
}

/* A batch script that asks for more nodes than clusters.csv gives its
 * cluster would wait in the queue for ever: say so (the script is still
 * written: the count may be out of date, or --ppn may be meant). */
static void warn_nodes(const archive *arch, const plan_clusters *cl, int side,
                       const plan_batch *b, const runplan *p)
{
    const char *name = cl->side[side < 0 ? 0 : side];
    const cluster_info *ci = name[0] ? archive_cluster(arch, name) : NULL;
    long need = plan_batch_nodes(b, p);
    if (ci && ci->nodes >= 1 && (double)need > ci->nodes)
        fprintf(stderr, "perfcast plan: warning: the largest run asks for %ld nodes of %ld "
                        "processes, but clusters.csv gives %s %.0f node%s (more processes per "
                        "node with --ppn, or a smaller --target)\n",
                need, b->ppn, name, ci->nodes, ci->nodes == 1 ? "" : "s");
}

/* The script or mpirun lines of format into out; 0, 1 or 2. */
static int print_batch(const plan_args *a, const archive *arch, const plan_clusters *cl,
                       const runplan *p, const char *format, int side, FILE *out)
{
    plan_batch b;
    char time_buf[16], note[ERR_LEN], err[ERR_LEN]; /* the note may name the campaign */
    int rc = batch_settings(a, p, side, arch, cl, &b, time_buf, note, sizeof note);
    if (rc == 0 && strcmp(format, "mpirun") != 0)
        warn_nodes(arch, cl, side, &b, p);
    bool ok = true;
    if (rc == 0 && strcmp(format, "mpirun") == 0)
        ok = plan_batch_mpirun(&b, p, out, stderr, NULL, err, sizeof err);
    else if (rc == 0 && strcmp(format, "pbs") == 0)
        ok = plan_batch_pbs(&b, p, out, err, sizeof err);
    else if (rc == 0)
        ok = plan_batch_slurm(&b, p, out, err, sizeof err);
    if (!ok) /* every value was checked above; this is the writer's own guard */
        return usage_error("%s", err);
    return rc;
}

static bool known(const char *v, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(v, *list) == 0)
            return true;
    return false;
}

/* Write the output of format, built in memory, to stdout: whole, or not at
 * all when it passes PLAN_BATCH_MAX_OUTPUT (1). */
static int print_plan(const plan_args *a, const archive *arch, const runplan *p,
                      const char *format, int side)
{
    plan_clusters cl;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    int rc = 1;
    if (!plan_clusters_split(a->cluster, &cl) || !out) {
        fprintf(stderr, "perfcast plan: out of memory\n");
    } else {
        rc = 0;
        if (strcmp(format, "table") == 0) {
            print_table(arch, &cl, p, out);
            print_link_run(a, &cl, out);
        }
        else if (strcmp(format, "csv") == 0) {
            print_csv(a, arch, &cl, p, out);
            print_link_row(a, &cl, out);
        }
        else
            rc = print_batch(a, arch, &cl, p, format, side, out);
    }
    if (out)
        fclose(out);
    if (rc == 0 && size > PLAN_BATCH_MAX_OUTPUT) {
        fprintf(stderr, "perfcast plan: the %s output would be more than 4 MiB (%zu configurations): "
                        "refused; ask for fewer --reps, --nps or --levels, or shorter values\n",
                format, p->nruns);
        rc = 1;
    }
    if (rc == 0)
        fwrite(text, 1, size, stdout);
    free(text);
    plan_clusters_free(&cl);
    return rc;
}

/* " (did you mean 'X'?)" for the name of names nearest typed, "" when
 * none is near or names is NULL (out of memory), into buf. */
static const char *near_text(const char *typed, const char **names, size_t n, char *buf,
                             size_t len)
{
    if (!names) {
        snprintf(buf, len, "%s", "");
        return buf;
    }
    return suggest_aside(typed, names, n, buf, len);
}

/* A --cluster clusters.csv does not describe is allowed (plan also plans
 * for a cluster not yet described), but a typo would silently drop what a
 * described cluster gives the plan: said on stderr, with the nearest name. */
static void warn_unknown_cluster(const plan_args *a, const archive *arch, const char *name)
{
    size_t n;
    const char **names = namelist_clusters(arch, &n);
    char near[ERR_LEN];
    bool node_runs = strcmp(a->model, "multicluster") != 0 &&
                     !(strcmp(a->model, "block") == 0 ? a->nps : a->np0);
    fprintf(stderr, "perfcast plan: warning: no cluster '%s' in %s/clusters.csv%s: %sno run is "
                    "checked against its cores (describe it in clusters.csv for %s)\n",
            name, a->archive ? a->archive : "archive",
            near_text(name, names, n, near, sizeof near),
            node_runs ? "the plan has no run that fills a node or spans two, and " : "",
            node_runs ? "them" : "that");
    free(names);
}

/* A --campaign the archive lacks is allowed (the runs start a new one),
 * but a typo would start a second campaign beside the one meant: said on
 * stderr, with the nearest name, for the formats that write to it. */
static void warn_unknown_campaign(const plan_args *a, const archive *arch)
{
    size_t n;
    const char **names = namelist_campaigns(arch, &n);
    const char *dir = a->archive ? a->archive : "archive";
    const char *near = names ? suggest_name(a->campaign, names, n) : NULL;
    char text[ERR_LEN];
    if (near && strcmp(near, a->campaign) == 0) /* there, but left out for its problems */
        fprintf(stderr, "perfcast plan: warning: campaign '%s' did not load (perfcast check "
                        "--archive %s says why): the runs append to %s/%s/runs.csv, but none "
                        "of its runs times the script\n", a->campaign, dir, dir, a->campaign);
    else
        fprintf(stderr, "perfcast plan: warning: no campaign '%s' in %s%s: the runs will start "
                        "it in %s/%s/runs.csv\n", a->campaign, dir,
                near_text(a->campaign, names, n, text, sizeof text), dir, a->campaign);
    free(names);
}

/* The warnings on --cluster and --campaign names the archive lacks (each
 * side's cluster once). */
static void warn_unknown_names(const plan_args *a, const archive *arch, bool loaded,
                               const char *format)
{
    const char *dir = a->archive ? a->archive : "archive";
    bool writes = strcmp(format, "table") != 0 && strcmp(format, "csv") != 0;
    if (!loaded) {
        fprintf(stderr, "perfcast plan: warning: the archive %s could not be read (perfcast "
                        "check --archive %s says why): --cluster and --campaign are taken as "
                        "names it does not have\n", dir, dir);
        return;
    }
    plan_clusters cl = {{NULL, NULL}};
    if (a->cluster && plan_clusters_split(a->cluster, &cl))
        for (int i = 0; i < 2; i++)
            if (cl.side[i][0] && !archive_cluster(arch, cl.side[i]) &&
                (i == 0 || strcmp(cl.side[0], cl.side[1]) != 0))
                warn_unknown_cluster(a, arch, cl.side[i]);
    plan_clusters_free(&cl);
    if (a->campaign && writes && !archive_campaign(arch, a->campaign))
        warn_unknown_campaign(a, arch);
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
    diag_list diags;
    diag_init(&diags);
    archive arch = {0};
    bool loaded = (a.cluster || a.campaign) &&
                  archive_load(a.archive ? a.archive : "archive", &arch, &diags);
    diag_free(&diags); /* plan works without an archive: it only looks things up */
    runplan p;
    rc = build_plan(&a, &arch, &p);
    if (rc == 0) {
        if (a.cluster || a.campaign)
            warn_unknown_names(&a, &arch, loaded, format);
        rc = print_plan(&a, &arch, &p, format, side);
        runplan_free(&p);
    }
    archive_free(&arch);
    return rc;
}
