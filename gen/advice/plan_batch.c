/*
 * plan_batch.c — see plan_batch.h.
 */
#include "gen/advice/plan_batch.h"

#include <math.h>
#include <string.h>

#include "gen/base/csvread.h"

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

/* s as shell words: split at blanks, each quoted by shell_word, so a value
 * meant as several options ("--levels 6", "gcc openmpi") stays options and
 * never becomes shell syntax (`;`, `$(...)`, redirections). */
static void shell_words(FILE *out, const char *s)
{
    const char *blanks = " \t";
    bool first = true;
    for (s += strspn(s, blanks); *s; s += strspn(s, blanks)) {
        size_t n = strcspn(s, blanks);
        char word[PLAN_BATCH_MAX_TEXT + 1];
        snprintf(word, sizeof word, "%.*s", (int)n, s); /* n <= MAX_TEXT: checked */
        if (!first)
            fputc(' ', out);
        shell_word(out, word);
        first = false;
        s += n;
    }
}

bool plan_batch_text_ok(const char *s, const char *what, char *err, size_t len)
{
    size_t n = strlen(s);
    if (n > PLAN_BATCH_MAX_TEXT) {
        snprintf(err, len, "%s: %zu bytes, more than the %d a value may have", what, n,
                 PLAN_BATCH_MAX_TEXT);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            snprintf(err, len,
                     "%s: byte %zu is a control character (0x%02x): refused, a value must "
                     "stay on its line of the script",
                     what, i + 1, c);
            return false;
        }
    }
    size_t bad = csv_utf8_invalid_at(s, n);
    if (bad < n) {
        snprintf(err, len, "%s: byte %zu is not valid UTF-8", what, bad + 1);
        return false;
    }
    return true;
}

/* Digits of s[0..n) as a number, or -1 when n is 0, too long or not digits. */
static long digits(const char *s, size_t n)
{
    if (n == 0 || n > 6 || strspn(s, "0123456789") < n)
        return -1;
    long v = 0;
    for (size_t i = 0; i < n; i++)
        v = v * 10 + (s[i] - '0');
    return v;
}

bool plan_batch_time_ok(const char *t)
{
    const char *c1 = strchr(t, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2)
        return false;
    long h = digits(t, (size_t)(c1 - t)), m = digits(c1 + 1, (size_t)(c2 - c1 - 1)),
         sec = digits(c2 + 1, strlen(c2 + 1));
    return h >= 0 && c2 - c1 == 3 && m >= 0 && m < 60 && strlen(c2 + 1) == 2 && sec >= 0 &&
           sec < 60 && h * 3600 + m * 60 + sec <= PLAN_BATCH_MAX_HOURS * 3600L;
}

bool plan_batch_check(const plan_batch *b, char *err, size_t len)
{
    const struct {
        const char *what, *value;
    } texts[] = {
        {"--model", b->model},         {"--target", b->target},       {"--mgbench", b->mgbench},
        {"--launcher", b->launcher},   {"--mpi", b->mpi},             {"--time", b->time},
        {"the time note", b->time_note}, {"--partition", b->partition}, {"--account", b->account},
        {"--modules", b->modules},     {"--output", b->output},       {"--job-name", b->job_name},
        {"--cluster", b->cluster[0]},  {"--cluster", b->cluster[1]},  {"--campaign", b->campaign},
        {"--archive", b->archive},     {"--extra", b->extra},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (texts[i].value && !plan_batch_text_ok(texts[i].value, texts[i].what, err, len))
            return false;
    if (b->ppn < 0 || b->ppn > PLAN_BATCH_MAX_PPN || b->cores < 0 ||
        b->cores > PLAN_BATCH_MAX_PPN) {
        snprintf(err, len, "--ppn and --cores: at most %d", PLAN_BATCH_MAX_PPN);
        return false;
    }
    if (b->time && !plan_batch_time_ok(b->time)) {
        snprintf(err, len, "--time: expected HH:MM:SS of at most %d:00:00 (one year)",
                 PLAN_BATCH_MAX_HOURS);
        return false;
    }
    if (!isnan(b->mem_per_cpu_mb) &&
        !(b->mem_per_cpu_mb > 0 && b->mem_per_cpu_mb <= PLAN_BATCH_MAX_MEM_MB)) {
        snprintf(err, len, "memory per CPU %g MB: more than the %.0f MB (16 TiB) a script may ask",
                 b->mem_per_cpu_mb, PLAN_BATCH_MAX_MEM_MB);
        return false;
    }
    return true;
}

static bool in_side(const plan_batch *b, const runplan_run *r)
{
    return runplan_on_side(r, b->side);
}

/* mgbench's arguments for one planned run (after the program name). */
static void mgbench_args(const plan_batch *b, const runplan_run *r, FILE *out)
{
    if (r->role == RUNPLAN_TCOMP && r->seq_of_np)
        fprintf(out, " --seq-of %ldx1 --na %ld --nb %ld", r->seq_of_np, r->na * r->seq_of_np,
                r->nb);
    else if (r->role == RUNPLAN_TCOMP || r->role == RUNPLAN_STRIP_OVERHEAD)
        fprintf(out, " --partition strip --na %ld --nb %ld", r->na, r->nb);
    else
        fprintf(out, " --partition block --grid %ldx%ld --na %ld --nb %ld", r->npa, r->npb, r->na,
                r->nb);
    /* One untimed solve first, as mgbench/campaign does on real runs: the
     * first solve after set-up pays for fresh pages and cold caches. */
    fprintf(out, " --reps %ld --warmup 1", r->reps);
    if (b->campaign) {
        fputs(" --campaign ", out);
        shell_word(out, b->campaign);
        fputs(" --archive ", out);
        shell_word(out, b->archive ? b->archive : "archive");
    }
    const char *cluster = b->cluster[r->side ? 1 : 0];
    if (cluster && *cluster) {
        fputs(" --cluster ", out);
        shell_word(out, cluster);
    }
    if (b->extra && b->extra[strspn(b->extra, " \t")]) {
        fputc(' ', out);
        shell_words(out, b->extra);
    }
}

bool plan_batch_mpirun(const plan_batch *b, const runplan *p, FILE *out, FILE *warn,
                       size_t *oversubscribed, char *err, size_t len)
{
    if (!plan_batch_check(b, err, len))
        return false;
    size_t over = 0;
    for (size_t i = 0; i < p->nruns; i++) {
        const runplan_run *r = &p->runs[i];
        if (!in_side(b, r))
            continue;
        bool oversubscribed = b->cores > 0 && r->np > b->cores;
        fprintf(out, "# %s, level %ld%s\n", runplan_role_text(r->role), r->level,
                oversubscribed ? "; oversubscribed: more processes than cores, its times do "
                                 "not stand for a real machine"
                               : "");
        if (oversubscribed) {
            over++;
            fprintf(warn, "perfcast plan: warning: run %zu needs %ld processes but there are %ld "
                          "cores: it is oversubscribed (--oversubscribe), and its times will "
                          "say more about time-sharing than about the model\n",
                    i + 1, r->np, b->cores);
        }
        fprintf(out, "mpirun -n %ld%s ", r->np, oversubscribed ? " --oversubscribe" : "");
        shell_word(out, b->mgbench ? b->mgbench : "mgbench");
        mgbench_args(b, r, out);
        fputc('\n', out);
    }
    if (oversubscribed)
        *oversubscribed = over;
    return true;
}

static long max_np(const plan_batch *b, const runplan *p)
{
    long m = 1;
    for (size_t i = 0; i < p->nruns; i++)
        if (in_side(b, &p->runs[i]) && p->runs[i].np > m)
            m = p->runs[i].np;
    return m;
}

/* Processes per node: the target's placement, or everything on one node. */
static long ppn_of(const plan_batch *b, const runplan *p)
{
    return b->ppn > 0 ? b->ppn : max_np(b, p);
}

static long nodes_for(long np, long ppn)
{
    return (np + ppn - 1) / ppn;
}

long plan_batch_nodes(const plan_batch *b, const runplan *p)
{
    return nodes_for(max_np(b, p), ppn_of(b, p));
}

/* The launch of one run inside the allocation. */
static void launch(const plan_batch *b, const runplan *p, const runplan_run *r, FILE *out)
{
    long ppn = ppn_of(b, p);
    long per_node = r->np < ppn ? r->np : ppn;
    fputs("run_step ", out);
    if (b->launcher && strcmp(b->launcher, "mpirun") == 0) {
        fprintf(out, "mpirun -n %ld --map-by ppr:%ld:node", r->np, per_node);
    } else {
        fputs("srun", out);
        if (b->mpi && strcmp(b->mpi, "none") != 0) {
            fputs(" --mpi=", out);
            shell_word(out, b->mpi);
        }
        fprintf(out, " --nodes=%ld --ntasks=%ld --ntasks-per-node=%ld", nodes_for(r->np, ppn),
                r->np, per_node);
    }
    fputs(" \"$MGBENCH\"", out);
    mgbench_args(b, r, out);
    fputc('\n', out);
}

/* Directive lines common to both schedulers, by their own spelling. */
static void comment_header(const plan_batch *b, const runplan *p, FILE *out)
{
    fprintf(out, "#\n# Small runs for the %s model, target %s (perfcast plan).\n"
                 "# Placement: %ld processes per node, as the target runs%s; a run of np\n"
                 "# processes gets ceil(np/%ld) whole nodes.\n",
            b->model, b->target, ppn_of(b, p),
            b->ppn > 0 ? "" : " (no --ppn and no cores_per_node for the cluster: one node)",
            ppn_of(b, p));
    if (!isnan(b->mem_per_cpu_mb))
        fputs("# Memory per CPU: the largest run's work_mb x 1.25 + 64 MB.\n", out);
    if (b->time_note)
        fprintf(out, "# Time limit: %s.\n", b->time_note);
    fputs("# mgbench appends to runs.csv under a POSIX lock (fcntl). On NFS or Lustre\n"
          "# that lock may not hold: then give each run its own --campaign folder and\n"
          "# merge them with `perfcast import csv DIR/*/runs.csv --campaign NAME`.\n", out);
}

/* The body both schedulers share: modules, the runner that counts
 * failures, every run, the summary. */
static void script_body(const plan_batch *b, const runplan *p, FILE *out)
{
    fputs("\n# Every run is attempted even if one fails: errexit stays off.\nset -uo pipefail\n", out);
    if (b->modules && b->modules[strspn(b->modules, " \t")]) {
        fputs("module load ", out);
        shell_words(out, b->modules);
        fputc('\n', out);
    } else {
        fputs("# module load openmpi      # placeholder: the modules mgbench was built with\n",
              out);
    }
    fputs("MGBENCH=${MGBENCH:-", out);
    shell_word(out, b->mgbench ? b->mgbench : "mgbench");
    fputs("}\nfailed=0\nruns=0\n"
          "run_step() {\n"
          "    runs=$((runs + 1))\n"
          "    echo \"== run $runs: $*\" >&2\n"
          "    \"$@\" || { echo \"perfcast plan: run $runs failed (exit $?): $*\" >&2; "
          "failed=$((failed + 1)); }\n"
          "}\n", out);
    for (size_t i = 0; i < p->nruns; i++) {
        const runplan_run *r = &p->runs[i];
        if (!in_side(b, r))
            continue;
        fprintf(out, "# %s, level %ld\n", runplan_role_text(r->role), r->level);
        launch(b, p, r, out);
    }
    fputs("echo \"perfcast plan: $failed of $runs runs failed\" >&2\n"
          "[ \"$failed\" -eq 0 ]\n", out);
}

/* A scheduler directive: the scheduler reads these lines itself, not the
 * shell, so a value is written as is unless it holds blanks or quotes. */
static void directive(FILE *out, const char *prefix, const char *name, const char *value)
{
    fprintf(out, "%s%s", prefix, name);
    if (strpbrk(value, " \t\"'\\"))
        shell_word(out, value);
    else
        fputs(value, out);
    fputc('\n', out);
}

bool plan_batch_slurm(const plan_batch *b, const runplan *p, FILE *out, char *err, size_t len)
{
    if (!plan_batch_check(b, err, len))
        return false;
    long ppn = ppn_of(b, p);
    fputs("#!/bin/bash\n", out);
    directive(out, "#SBATCH ", "--job-name=", b->job_name ? b->job_name : "perfcast-plan");
    fprintf(out, "#SBATCH --nodes=%ld\n#SBATCH --ntasks-per-node=%ld\n#SBATCH --exclusive\n",
            nodes_for(max_np(b, p), ppn), ppn);
    if (!isnan(b->mem_per_cpu_mb))
        fprintf(out, "#SBATCH --mem-per-cpu=%.0fM\n", ceil(b->mem_per_cpu_mb));
    directive(out, "#SBATCH ", "--time=", b->time ? b->time : "01:00:00");
    directive(out, "#SBATCH ", "--output=", b->output ? b->output : "perfcast-plan-%j.out");
    if (b->partition)
        directive(out, "#SBATCH ", "--partition=", b->partition);
    if (b->account)
        directive(out, "#SBATCH ", "--account=", b->account);
    else
        fputs("##SBATCH --account=PROJECT   # placeholder: remove one '#' and name your project\n",
              out);
    comment_header(b, p, out);
    script_body(b, p, out);
    return true;
}

bool plan_batch_pbs(const plan_batch *b, const runplan *p, FILE *out, char *err, size_t len)
{
    if (!plan_batch_check(b, err, len))
        return false;
    long ppn = ppn_of(b, p);
    fputs("#!/bin/bash\n", out);
    directive(out, "#PBS ", "-N ", b->job_name ? b->job_name : "perfcast-plan");
    fprintf(out, "#PBS -l nodes=%ld:ppn=%ld\n", nodes_for(max_np(b, p), ppn), ppn);
    if (!isnan(b->mem_per_cpu_mb))
        fprintf(out, "#PBS -l pmem=%.0fmb\n", ceil(b->mem_per_cpu_mb));
    directive(out, "#PBS ", "-l walltime=", b->time ? b->time : "01:00:00");
    fputs("#PBS -j oe\n", out);
    directive(out, "#PBS ", "-o ", b->output ? b->output : "perfcast-plan.out");
    if (b->partition)
        directive(out, "#PBS ", "-q ", b->partition);
    if (b->account)
        directive(out, "#PBS ", "-A ", b->account);
    else
        fputs("##PBS -A PROJECT   # placeholder: remove one '#' and name your project\n", out);
    comment_header(b, p, out);
    fputs("cd \"${PBS_O_WORKDIR:-.}\"\n", out);
    plan_batch tmp = *b;
    tmp.launcher = "mpirun"; /* PBS has no srun */
    script_body(&tmp, p, out);
    return true;
}

double plan_batch_max_work_mb(const runplan *p, int side, double bytes_per_point)
{
    double most = 0;
    for (size_t i = 0; i < p->nruns; i++) {
        const runplan_run *r = &p->runs[i];
        if (!runplan_on_side(r, side))
            continue;
        double points = (double)(r->na / r->npa) * (double)(r->nb / r->npb);
        most = fmax(most, points * bytes_per_point / 1048576.0);
    }
    return most;
}

/* ------------------------------------------------------------------ */
/* time limit from measured runs                                       */

typedef struct {
    int np, npa, npb, na, nb, time;
} run_columns;

static double cell(const table *t, size_t row, int col)
{
    return col < 0 ? NAN : table_number(t, row, (size_t)col);
}

static double per_process_points(const table *t, size_t row, const run_columns *c)
{
    double npa = cell(t, row, c->npa), npb = cell(t, row, c->npb);
    return (cell(t, row, c->na) / (isnan(npa) ? cell(t, row, c->np) : npa)) *
           (cell(t, row, c->nb) / (isnan(npb) ? 1 : npb));
}

/* Seconds one planned run takes, from the measured rows; NAN when none. */
static double run_seconds(const runplan_run *r, const table *t, const run_columns *c)
{
    double sum = 0, nearest = NAN, nearest_gap = INFINITY;
    size_t same = 0;
    double points = (double)(r->na / r->npa) * (double)(r->nb / r->npb);
    for (size_t row = 0; row < t->nrows; row++) {
        double time = cell(t, row, c->time), pp = per_process_points(t, row, c);
        if (isnan(time) || !(pp > 0))
            continue;
        if (cell(t, row, c->np) == r->np && cell(t, row, c->na) == r->na &&
            cell(t, row, c->nb) == r->nb && (c->npa < 0 || cell(t, row, c->npa) == r->npa) &&
            (c->npb < 0 || cell(t, row, c->npb) == r->npb)) {
            sum += time;
            same++;
        }
        double gap = fabs(log(pp / points));
        if (gap < nearest_gap) {
            nearest_gap = gap;
            nearest = time * points / pp;
        }
    }
    return same ? sum / (double)same : nearest;
}

bool plan_batch_time_limit(const runplan *p, int side, const table *runs, const char *procs,
                           double margin, char *out, size_t len, char *note, size_t note_len)
{
    run_columns c = {table_find(runs, procs),  table_find(runs, "npa"), table_find(runs, "npb"),
                     table_find(runs, "na"),  table_find(runs, "nb"),  table_find(runs, "time_s")};
    if (c.np < 0 || c.na < 0 || c.nb < 0 || c.time < 0 ||
        !(margin > 0 && margin <= PLAN_BATCH_MAX_MARGIN))
        return false;
    double total = 0;
    for (size_t i = 0; i < p->nruns; i++) {
        const runplan_run *r = &p->runs[i];
        if (!runplan_on_side(r, side))
            continue;
        double s = run_seconds(r, runs, &c);
        if (isnan(s))
            return false;
        total += s * (double)r->reps;
    }
    if (!(total >= 0))
        return false;
    /* Compared as a double first: a prediction beyond a year (or beyond a
     * long) is capped, never wrapped into a negative time. */
    double predicted = ceil(total * margin / 60.0) + 5;
    bool capped = !(predicted <= PLAN_BATCH_MAX_HOURS * 60.0);
    long minutes = capped ? PLAN_BATCH_MAX_HOURS * 60L : (long)predicted;
    snprintf(out, len, "%02ld:%02ld:00", minutes / 60, minutes % 60);
    snprintf(note, note_len,
             "%.0f s predicted from the campaign's measured runs (same configuration, else the "
             "nearest per-process work scaled by work), x%g, + 5 min%s",
             total, margin, capped ? "; capped at one year, the longest limit perfcast writes" : "");
    return true;
}
