/*
 * options.c — command-line parsing for mgbench (see options.h).
 */
#include "mgbench/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mgbench/refuse.h"

void mgb_options_usage(FILE *out)
{
    fputs(
        "usage: mpirun -n NP mgbench [options]\n"
        "\n"
        "Solves -Lap u = f (5-point finite differences, u = 0 on the boundary) on a\n"
        "mesh of na x nb intervals, i.e. (na-1) x (nb-1) unknowns (so --na 4096 is the\n"
        "4095 x 4095 reference problem), by geometric multigrid V-cycles: red-black\n"
        "Gauss-Seidel smoothing, full-weighting restriction, bilinear interpolation,\n"
        "and a direct solve of the coarsest grid. Cells are square: the longer side\n"
        "of the domain has length 1. The initial guess is u = 0.\n"
        "\n"
        "Partition:\n"
        "  --partition strip|block  strip: np x 1, each process owns na/np consecutive\n"
        "                           rows (default); block: the process grid of --grid\n"
        "  --grid AxB               block process grid, A along na (rows) and B along nb;\n"
        "                           A*B must equal the number of processes\n"
        "  --split NPA:ROWS_A       uneven strip (e.g. a job split across two clusters):\n"
        "                           the first NPA processes own ROWS_A rows in all\n"
        "                           (ROWS_A/NPA each), the others the remaining na-ROWS_A\n"
        "                           (equally); both shares must be whole, even and >= 2.\n"
        "                           The rows record np_a, np_b, rows_a, rows_b\n"
        "  --seq-of AxB             sequential mode (1 process): solve the per-process\n"
        "                           mesh (na/A) x (nb/B) of the AxB partition of the\n"
        "                           na x nb mesh (the strip model's Tcomp); the row\n"
        "                           records seq_of_np = A*B\n"
        "Problem and method:\n"
        "  --na N, --nb N           mesh intervals along a (rows) and b (default 1024);\n"
        "                           na/A and nb/B should be divisible by a power of two\n"
        "  --problem sine|one       sine: manufactured u = sin(pi x/X) sin(pi y/Y), the\n"
        "                           error is reported (default); one: f = 1 (benchmark)\n"
        "  --pre N, --post N        smoothing sweeps before/after the coarse correction\n"
        "                           (default 2 and 2: V(2,2))\n"
        "  --levels N               at most N grid levels (default: as many as the\n"
        "                           partition allows; the same N makes every partition\n"
        "                           run the same hierarchy)\n"
        "  --kernel auto|fused|staged  fused: one wavefront through memory per pass\n"
        "                           (strips only); staged: one sweep per stage with a\n"
        "                           halo exchange before each (default auto: fused for\n"
        "                           strips, staged for blocks); results are identical\n"
        "Stopping:\n"
        "  --tol T                  stop when ||b-Au||/||b|| <= T (default 1e-8)\n"
        "  --max-cycles N           give up after N cycles (default 50; exit status 3)\n"
        "  --cycles N               run exactly N V-cycles, no tolerance test\n"
        "Measurement and output:\n"
        "  --reps N                 solve N times (each from u = 0), one row per solve\n"
        "  --warmup N               first solve N times untimed and unrecorded (default 0):\n"
        "                           on a real node the first solve after set-up pays for\n"
        "                           fresh pages and cold caches\n"
        "  --campaign NAME          append one row per solve to ARCHIVE/NAME/runs.csv\n"
        "  --archive DIR            archive folder (default: archive)\n"
        "  --cluster NAME           cluster column of the rows (required with --campaign;\n"
        "                           must be a row of ARCHIVE/clusters.csv)\n"
        "  --note TEXT              note column; \"oversubscribed\" is added by itself when\n"
        "                           a node runs more processes than it has cores\n"
        "  --date YYYY-MM-DD        date column (default: today)\n"
        "  --dump FILE              write the solution: a text line \"mgbench-dump NA NB\"\n"
        "                           then (na+1)*(nb+1) doubles, row by row\n"
        "  --stream                 also measure the STREAM triad bandwidth of all the\n"
        "                           processes at once\n"
        "  --pingpong               measure the link instead of solving: rank 0 and the\n"
        "                           last rank (with --split NPA:ROWS_A, ranks NPA-1 and\n"
        "                           NPA, the split's boundary pair) trade messages of\n"
        "                           the halo rows' sizes, 8 (nb/2^l + 2) bytes, 50 round\n"
        "                           trips each; latency and bandwidth are the least-\n"
        "                           squares line time = lat + bytes/bw; one row per rep\n"
        "                           with kind=pingpong, link_lat_us, link_bw_gbs\n"
        "  --cluster-b NAME         the far side's cluster of a --pingpong row (default:\n"
        "                           --cluster)\n"
        "  --verbose                print the residual after every cycle\n"
        "  --help                   this text\n"
        "\n"
        "Times: setup and solve are wall times (MPI_Wtime after a barrier, the maximum\n"
        "over processes); comm is the time inside halo exchanges and collectives (max\n"
        "over processes); work_mb is the grid storage one process allocated (MiB).\n",
        out);
}

static int parse_long(const char *s, long lo, long *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || end == s || *end || x < lo)
        return -1;
    *v = x;
    return 0;
}

static int parse_int(const char *s, long lo, int *v)
{
    long x;
    if (parse_long(s, lo, &x) != 0 || x > 1000000000L)
        return -1;
    *v = (int)x;
    return 0;
}

/* "A<sep>B" with positive A, B. */
static int parse_pair(const char *s, char sep, long *a, long *b)
{
    char buf[64];
    const char *x = strchr(s, sep);
    if (!x || (size_t)(x - s) >= sizeof buf)
        return -1;
    memcpy(buf, s, (size_t)(x - s));
    buf[x - s] = '\0';
    return parse_long(buf, 1, a) || parse_long(x + 1, 1, b) ? -1 : 0;
}

/* "AxB" with positive A, B. */
static int parse_grid(const char *s, int *a, int *b)
{
    long x, y;
    if (parse_pair(s, 'x', &x, &y) != 0 || x > 1000000000L || y > 1000000000L)
        return -1;
    *a = (int)x;
    *b = (int)y;
    return 0;
}

static void defaults(mgb_options *o)
{
    memset(o, 0, sizeof *o);
    o->cfg.na = o->cfg.nb = 1024;
    o->cfg.pre = o->cfg.post = 2;
    o->cfg.kernel = MGB_KERNEL_AUTO;
    o->cfg.problem = MGB_PROBLEM_SINE;
    o->tol = 1e-8;
    o->max_cycles = 50;
    o->reps = 1;
    o->archive = "archive";
}

/* Applies option `name` with value `v`. Returns 0, or -1 with err set. */
static int apply(mgb_options *o, const char *name, const char *v, char *err, size_t len)
{
    mgb_config *c = &o->cfg;
    int bad = 0;
    if (!strcmp(name, "partition")) {
        bad = strcmp(v, "strip") && strcmp(v, "block");
        o->block = !strcmp(v, "block");
    } else if (!strcmp(name, "grid")) {
        bad = parse_grid(v, &o->grid_a, &o->grid_b);
    } else if (!strcmp(name, "split")) {
        long np_a;
        bad = parse_pair(v, ':', &np_a, &c->split_rows) || np_a > 1000000000L;
        c->split_np = bad ? 0 : (int)np_a;
    } else if (!strcmp(name, "seq-of")) {
        bad = parse_grid(v, &o->seq_a, &o->seq_b);
    } else if (!strcmp(name, "na")) {
        bad = parse_long(v, 2, &c->na);
    } else if (!strcmp(name, "nb")) {
        bad = parse_long(v, 2, &c->nb);
    } else if (!strcmp(name, "problem")) {
        bad = !mgb_problem_parse(v, &c->problem);
    } else if (!strcmp(name, "pre")) {
        bad = parse_int(v, 0, &c->pre);
    } else if (!strcmp(name, "post")) {
        bad = parse_int(v, 0, &c->post);
    } else if (!strcmp(name, "levels")) {
        bad = parse_int(v, 1, &c->max_levels);
    } else if (!strcmp(name, "kernel")) {
        bad = strcmp(v, "auto") && strcmp(v, "fused") && strcmp(v, "staged");
        c->kernel = !strcmp(v, "fused") ? MGB_KERNEL_FUSED
                  : !strcmp(v, "staged") ? MGB_KERNEL_STAGED : MGB_KERNEL_AUTO;
    } else if (!strcmp(name, "tol")) {
        char *end;
        o->tol = strtod(v, &end);
        bad = end == v || *end || !(o->tol > 0 && o->tol < 1);
    } else if (!strcmp(name, "max-cycles")) {
        bad = parse_int(v, 1, &o->max_cycles);
    } else if (!strcmp(name, "cycles")) {
        bad = parse_int(v, 1, &o->cycles);
    } else if (!strcmp(name, "reps")) {
        bad = parse_int(v, 1, &o->reps);
    } else if (!strcmp(name, "warmup")) {
        bad = parse_int(v, 0, &o->warmup);
    } else if (!strcmp(name, "campaign")) {
        bad = !*v || strchr(v, '/') != NULL;
        o->campaign = v;
    } else if (!strcmp(name, "archive")) {
        o->archive = v;
    } else if (!strcmp(name, "cluster")) {
        bad = !*v;
        o->cluster = v;
    } else if (!strcmp(name, "cluster-b")) {
        bad = !*v;
        o->cluster_b = v;
    } else if (!strcmp(name, "note")) {
        o->note = v;
    } else if (!strcmp(name, "date")) {
        bad = strlen(v) != 10 || v[4] != '-' || v[7] != '-';
        o->date = v;
    } else if (!strcmp(name, "dump")) {
        o->dump = v;
    } else {
        return mgb_refuse(err, len, "unknown option --%s (see --help)", name);
    }
    return bad ? mgb_refuse(err, len, "bad value for --%s: '%s' (see --help)", name, v) : 0;
}

/* Options that take a value (apply() handles each). */
static int takes_value(const char *name)
{
    static const char *const names[] = {
        "partition", "grid", "split", "seq-of", "na", "nb", "problem", "pre", "post", "levels",
        "kernel", "tol", "max-cycles", "cycles", "reps", "warmup", "campaign", "archive", "cluster",
        "cluster-b", "note", "date", "dump"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!strcmp(name, names[k]))
            return 1;
    return 0;
}

static int is_flag(const char *name, mgb_options *o)
{
    if (!strcmp(name, "help"))
        return o->help = 1;
    if (!strcmp(name, "verbose"))
        return o->verbose = 1;
    if (!strcmp(name, "stream"))
        return o->stream = 1;
    if (!strcmp(name, "pingpong"))
        return o->pingpong = 1;
    return 0;
}

int mgb_options_parse(int argc, char **argv, mgb_options *o, char *err, size_t errlen)
{
    defaults(o);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0)
            return mgb_refuse(err, errlen, "unexpected argument '%s' (options start with --)",
                              arg);
        char name[64];
        const char *eq = strchr(arg + 2, '=');
        size_t nl = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
        if (nl >= sizeof name)
            return mgb_refuse(err, errlen, "unknown option %s (see --help)", arg);
        memcpy(name, arg + 2, nl);
        name[nl] = '\0';
        if (!eq && is_flag(name, o))
            continue;
        if (!takes_value(name))
            return mgb_refuse(err, errlen, "unknown option --%s (see --help)", name);
        const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!value)
            return mgb_refuse(err, errlen, "option --%s needs a value (see --help)", name);
        if (apply(o, name, value, err, errlen) != 0)
            return -1;
    }
    return 0;
}

static int resolve_seq(mgb_options *o, int nprocs, char *err, size_t len)
{
    mgb_config *c = &o->cfg;
    if (nprocs != 1)
        return mgb_refuse(err, len, "--seq-of runs on one process, but %d are running", nprocs);
    if (o->grid_a || o->block)
        return mgb_refuse(err, len, "--seq-of replaces --partition/--grid (it runs one process)");
    if (c->na % o->seq_a || c->nb % o->seq_b)
        return mgb_refuse(err, len, "--seq-of %dx%d: na=%ld and nb=%ld must be divisible by "
                          "%d and %d", o->seq_a, o->seq_b, c->na, c->nb, o->seq_a, o->seq_b);
    c->na /= o->seq_a;
    c->nb /= o->seq_b;
    c->npa = c->npb = 1;
    /* Same kernel as the partition it stands for. */
    if (c->kernel == MGB_KERNEL_AUTO)
        c->kernel = o->seq_b > 1 ? MGB_KERNEL_STAGED : MGB_KERNEL_FUSED;
    return 0;
}

int mgb_options_resolve(mgb_options *o, int nprocs, char *err, size_t len)
{
    mgb_config *c = &o->cfg;
    if (o->campaign && !o->cluster)
        return mgb_refuse(err, len, "--campaign needs --cluster (a cluster of %s/clusters.csv)",
                          o->archive);
    if (o->cycles && o->max_cycles != 50)
        return mgb_refuse(err, len, "--cycles and --max-cycles exclude each other");
    if (c->split_np && (o->seq_a || o->block))
        return mgb_refuse(err, len, "--split divides a strip: it excludes --partition block "
                          "and --seq-of");
    if (o->pingpong && (o->seq_a || o->block || o->dump || o->stream))
        return mgb_refuse(err, len, "--pingpong measures the link of a strip's pair of ranks: "
                          "it excludes --seq-of, --partition block, --dump and --stream");
    if (o->pingpong && (nprocs < 2 || (c->split_np && c->split_np >= nprocs)))
        return mgb_refuse(err, len, "--pingpong needs two ranks on either side of the pair "
                          "(%d running%s)", nprocs, c->split_np ? ", --split NPA below that" : "");
    if (o->cluster_b && !o->pingpong)
        return mgb_refuse(err, len, "--cluster-b names the far side of a --pingpong row only");
    if (o->seq_a)
        return resolve_seq(o, nprocs, err, len);
    if (!o->block) {
        if (o->grid_a && (o->grid_a != nprocs || o->grid_b != 1))
            return mgb_refuse(err, len, "--grid %dx%d does not describe a strip partition of %d "
                              "processes (use --partition block)", o->grid_a, o->grid_b, nprocs);
        c->npa = nprocs;
        c->npb = 1;
        return 0;
    }
    if (!o->grid_a)
        return mgb_refuse(err, len, "--partition block needs --grid AxB");
    if ((long)o->grid_a * o->grid_b != nprocs)
        return mgb_refuse(err, len, "--grid %dx%d needs %ld processes, but %d are running",
                          o->grid_a, o->grid_b, (long)o->grid_a * o->grid_b, nprocs);
    c->npa = o->grid_a;
    c->npb = o->grid_b;
    return 0;
}
