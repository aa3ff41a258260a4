/*
 * main.c — mgbench: times multigrid solves on a strip or block partition and
 * appends the runs to an archive campaign (see mgbench/README.md).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mgbench/engine.h"
#include "mgbench/machine.h"
#include "mgbench/options.h"
#include "mgbench/pingpong.h"
#include "mgbench/runs_csv.h"
#include "mgbench/solver.h"

enum { EXIT_USAGE = 2, EXIT_NO_CONVERGENCE = 3, EXIT_IO = 4 };

/* Everything one solve measured (maxima over processes). */
typedef struct {
    int cycles;
    double rel;          /* final relative residual */
    double factor;       /* mean reduction per cycle */
    double time_s, comm_s;
    double max_error, max_u;
} solve_result;

typedef struct {
    mgb_options opt;
    mgb_placement place;
    mgb_engine_info engine;
    char hosts[264];     /* first..last host of the ranks (simulated under SMPI) */
    int rank, nprocs;
    double setup_s;
    char note[1800];
    char date[16];
} run_context;

static void say(const run_context *ctx, const char *fmt, const char *a)
{
    if (ctx->rank == 0)
        fprintf(stderr, fmt, a);
}

static double max_over(MPI_Comm comm, double x)
{
    double m;
    MPI_Allreduce(&x, &m, 1, MPI_DOUBLE, MPI_MAX, comm);
    return m;
}

static int converged(const mgb_options *o, int cycles, double rel)
{
    if (o->cycles)
        return cycles >= o->cycles;
    return rel <= o->tol || cycles >= o->max_cycles || !isfinite(rel);
}

static solve_result solve_once(mgb_solver *s, const run_context *ctx)
{
    solve_result r = {0, 1.0, 0, 0, 0, 0, 0};
    mgb_solver_reset(s);
    MPI_Barrier(s->comm.cart);
    double t0 = MPI_Wtime();
    while (!converged(&ctx->opt, r.cycles, r.rel)) {
        double prev = r.rel;
        r.rel = mgb_solver_cycle(s);
        r.cycles++;
        if (ctx->opt.verbose && ctx->rank == 0)
            printf("  cycle %d: rel_residual=%.3e ratio=%.4f\n", r.cycles, r.rel, r.rel / prev);
    }
    double t = MPI_Wtime() - t0;
    r.time_s = max_over(s->comm.cart, t);
    r.comm_s = max_over(s->comm.cart, s->comm.seconds);
    r.factor = r.cycles ? pow(r.rel, 1.0 / r.cycles) : 0;
    mgb_solver_stats(s, &r.max_error, &r.max_u);
    return r;
}

static void describe(const mgb_solver *s, const run_context *ctx)
{
    const mgb_config *c = &s->cfg;
    const mgb_options *o = &ctx->opt;
    if (ctx->rank != 0)
        return;
    printf("mgbench: mesh %ldx%ld (%ld x %ld unknowns, problem %s)", c->na, c->nb,
           c->na - 1, c->nb - 1, mgb_problem_name(c->problem));
    if (o->seq_a)
        printf(", sequential per-process mesh of the %dx%d partition of %ldx%ld", o->seq_a,
               o->seq_b, c->na * o->seq_a, c->nb * o->seq_b);
    else
        printf(", %s partition %dx%d", c->npb == 1 && !o->block ? "strip" : "block", c->npa,
               c->npb);
    if (c->split_np)
        printf(", split: %d processes own %ld rows (%ld each), %d own %ld (%ld each)",
               c->split_np, c->split_rows, c->split_rows / c->split_np, c->npa - c->split_np,
               c->na - c->split_rows, (c->na - c->split_rows) / (c->npa - c->split_np));
    if (ctx->engine.simulated)
        printf("\n  SIMULATED by SimGrid SMPI: platform %s, hosts %s; times are simulated "
               "seconds, not this machine's", ctx->engine.platform, ctx->hosts);
    printf("\n  %d processes on %d node(s), %d per node, %d cores%s; %d levels, V(%d,%d), "
           "%s kernel; setup %.4f s\n", ctx->nprocs, ctx->place.nodes, ctx->place.ppn,
           ctx->place.cores, ctx->place.oversubscribed ? " (oversubscribed)" : "",
           s->nlevels, c->pre, c->post, s->drv.fused ? "fused" : "staged", ctx->setup_s);
}

static void report(const mgb_solver *s, const run_context *ctx, int rep, const solve_result *r,
                   double work_mb)
{
    if (ctx->rank != 0)
        return;
    double unknowns = (double)(s->cfg.na - 1) * (double)(s->cfg.nb - 1);
    printf("rep %d: cycles=%d rel_residual=%.3e factor=%.4f time_s=%.4f time_comm_s=%.4f "
           "time_setup_s=%.4f per_cycle_s=%.4f unknowns_per_s=%.3e max_error=%.3e max_u=%.6f "
           "work_mb=%.3f\n", rep, r->cycles, r->rel, r->factor, r->time_s, r->comm_s,
           ctx->setup_s, r->cycles ? r->time_s / r->cycles : 0, unknowns / r->time_s,
           r->max_error, r->max_u, work_mb);
    fflush(stdout);
}

static int append_row(const mgb_solver *s, const run_context *ctx, int rep,
                      const solve_result *r, double work_mb)
{
    const mgb_options *o = &ctx->opt;
    if (ctx->rank != 0 || !o->campaign)
        return 0;
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/%s/runs.csv", o->archive, o->campaign);
    mgb_run_row row = {
        .cluster = o->cluster, .np = ctx->nprocs, .npa = s->cfg.npa, .npb = s->cfg.npb,
        .na = s->cfg.na, .nb = s->cfg.nb, .nodes = ctx->place.nodes, .ppn = ctx->place.ppn,
        .work_mb = work_mb, .time_s = r->time_s, .time_comm_s = r->comm_s,
        .time_setup_s = ctx->setup_s, .cycles = r->cycles, .rel_residual = r->rel,
        .seq_of_np = o->seq_a ? (long)o->seq_a * o->seq_b : -1, .rep = rep,
        .date = ctx->date, .note = ctx->note[0] ? ctx->note : NULL,
        .engine = ctx->engine.engine,
    };
    if (s->cfg.split_np) {
        row.np_a = s->cfg.split_np;
        row.np_b = s->cfg.npa - s->cfg.split_np;
        row.rows_a = s->cfg.split_rows;
        row.rows_b = s->cfg.na - s->cfg.split_rows;
    }
    if (mgb_runs_append(path, &row, err, sizeof err) != 0) {
        fprintf(stderr, "mgbench: error: %s\n", err);
        return -1;
    }
    return 0;
}

/* The note column: the user's note, the sequential target, oversubscription,
 * and under SMPI the simulated platform and hosts. */
static void make_note(run_context *ctx)
{
    const mgb_options *o = &ctx->opt;
    char parts[4][440] = {"", "", "", ""};
    if (ctx->engine.simulated)
        snprintf(parts[3], sizeof parts[3], "simulated (SimGrid SMPI) on platform %s, hosts %s",
                 ctx->engine.platform, ctx->hosts);
    if (o->note)
        snprintf(parts[0], sizeof parts[0], "%s", o->note);
    if (o->seq_a)
        snprintf(parts[1], sizeof parts[1], "sequential per-process mesh of %dx%d (%ldx%ld)",
                 o->seq_a, o->seq_b, o->cfg.na * o->seq_a, o->cfg.nb * o->seq_b);
    if (ctx->place.oversubscribed && !(o->note && strstr(o->note, "oversubscribed")))
        snprintf(parts[2], sizeof parts[2], "oversubscribed (%d processes on %d cores)",
                 ctx->place.ppn, ctx->place.cores);
    ctx->note[0] = '\0';
    for (int k = 0; k < 4; k++) {
        if (!parts[k][0])
            continue;
        size_t at = strlen(ctx->note);
        snprintf(ctx->note + at, sizeof ctx->note - at, "%s%s", at ? "; " : "", parts[k]);
    }
}

static int dump_solution(mgb_solver *s, const run_context *ctx)
{
    double *grid;
    if (mgb_solver_gather(s, &grid) != 0) {
        say(ctx, "mgbench: error: %s\n", "out of memory gathering the solution for --dump");
        return -1;
    }
    int rc = 0;
    if (ctx->rank == 0) {
        FILE *f = fopen(ctx->opt.dump, "wb");
        size_t n = (size_t)((s->cfg.na + 1) * (s->cfg.nb + 1));
        if (!f || fprintf(f, "mgbench-dump %ld %ld\n", s->cfg.na, s->cfg.nb) < 0 ||
            fwrite(grid, sizeof *grid, n, f) != n)
            rc = -1;
        if (f && fclose(f) != 0)
            rc = -1;
        if (rc)
            fprintf(stderr, "mgbench: error: cannot write %s\n", ctx->opt.dump);
    }
    free(grid);
    return rc;
}

static void run_stream(const run_context *ctx)
{
    double gbs = mgb_stream_triad(MPI_COMM_WORLD, 1L << 25, 5);
    if (ctx->rank == 0) {
        if (gbs > 0)
            printf("stream: triad_gbs=%.2f processes=%d\n", gbs, ctx->nprocs);
        else
            printf("stream: not measured (out of memory)\n");
    }
}

/* ctx->hosts: the host of the first and of the last rank ("a-0..a-7"). */
static void host_range(run_context *ctx)
{
    char last[sizeof ctx->engine.host];
    snprintf(last, sizeof last, "%s", ctx->engine.host);
    MPI_Bcast(last, (int)sizeof last, MPI_CHAR, ctx->nprocs - 1, MPI_COMM_WORLD);
    char first[sizeof ctx->engine.host];
    snprintf(first, sizeof first, "%s", ctx->engine.host);
    MPI_Bcast(first, (int)sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (strcmp(first, last) == 0)
        snprintf(ctx->hosts, sizeof ctx->hosts, "%s", first);
    else
        snprintf(ctx->hosts, sizeof ctx->hosts, "%s..%s", first, last);
}

/* Parses and checks the command line; returns -1 (usage error), 1 (help
 * printed) or 0. */
static int prepare(run_context *ctx, int argc, char **argv)
{
    char err[512];
    if (mgb_options_parse(argc, argv, &ctx->opt, err, sizeof err) != 0 ||
        (!ctx->opt.help && mgb_options_resolve(&ctx->opt, ctx->nprocs, err, sizeof err) != 0)) {
        say(ctx, "mgbench: error: %s\n", err);
        return -1;
    }
    if (ctx->opt.help) {
        if (ctx->rank == 0)
            mgb_options_usage(stdout);
        return 1;
    }
    if (ctx->opt.date) {
        snprintf(ctx->date, sizeof ctx->date, "%s", ctx->opt.date);
    } else {
        time_t now = time(NULL);
        strftime(ctx->date, sizeof ctx->date, "%Y-%m-%d", localtime(&now));
    }
    mgb_engine_detect(&ctx->engine);
    mgb_placement_detect(MPI_COMM_WORLD, ctx->engine.host_cores, &ctx->place);
    host_range(ctx);
    const char *named[2] = {ctx->opt.cluster, ctx->opt.cluster_b};
    for (int k = 0; k < 2; k++) {
        if (!ctx->engine.simulated || !ctx->opt.campaign || (k == 1 && !named[k]) ||
            mgb_engine_has_zone(named[k]))
            continue;
        if (ctx->rank == 0)
            fprintf(stderr, "mgbench: error: simulated run: --cluster%s %s is not a cluster "
                    "(zone) of the simulated platform %s; name the simulated cluster, never a "
                    "real one\n", k ? "-b" : "", named[k] ? named[k] : "(none)",
                    ctx->engine.platform);
        return -1;
    }
    make_note(ctx);
    return 0;
}

/* --pingpong: the boundary pair's link, one row per rep. */
static int run_pingpong(run_context *ctx)
{
    const mgb_options *o = &ctx->opt;
    int ping = o->cfg.split_np ? o->cfg.split_np - 1 : 0;
    int pong = o->cfg.split_np ? o->cfg.split_np : ctx->nprocs - 1;
    const char *far = o->cluster_b ? o->cluster_b : o->cluster;
    int status = 0;
    for (int rep = 1; rep <= o->reps && status == 0; rep++) {
        mgb_pingpong_link link;
        if (mgb_pingpong_measure(MPI_COMM_WORLD, ping, pong, o->cfg.nb, &link) != 0) {
            say(ctx, "mgbench: error: %s\n", "the ping-pong gave no latency and bandwidth "
                "(out of memory, or times that do not grow with the size; no row appended)");
            return EXIT_NO_CONVERGENCE;
        }
        if (ctx->rank == 0)
            printf("pingpong rep %d: ranks %d-%d, %d sizes up to %.0f bytes, %d round trips "
                   "each: link_lat_us=%.4g link_bw_gbs=%.4g\n", rep, ping, pong, link.nsizes,
                   link.max_bytes, MGB_PINGPONG_TRIPS, link.latency_s * 1e6,
                   link.bw_bytes_s / 1e9);
        char path[4096], err[512];
        mgb_run_row row = {
            .cluster = o->cluster, .np = ctx->nprocs, .nodes = ctx->place.nodes,
            .ppn = ctx->place.ppn, .rep = rep, .date = ctx->date,
            .note = ctx->note[0] ? ctx->note : NULL, .engine = ctx->engine.engine,
            .kind = "pingpong", .cluster_b = far, .bytes = link.max_bytes,
            .link_lat_us = link.latency_s * 1e6, .link_bw_gbs = link.bw_bytes_s / 1e9,
        };
        snprintf(path, sizeof path, "%s/%s/runs.csv", o->archive, o->campaign ? o->campaign : "");
        if (ctx->rank == 0 && o->campaign && mgb_runs_append(path, &row, err, sizeof err) != 0) {
            fprintf(stderr, "mgbench: error: %s\n", err);
            status = EXIT_IO;
        }
        MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    return status;
}

static int run(run_context *ctx)
{
    if (ctx->opt.pingpong)
        return run_pingpong(ctx);
    mgb_solver s;
    char err[512];
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (mgb_solver_setup(&s, &ctx->opt.cfg, MPI_COMM_WORLD, err, sizeof err) != 0) {
        say(ctx, "mgbench: error: %s\n", err);
        return EXIT_USAGE;
    }
    ctx->setup_s = max_over(MPI_COMM_WORLD, MPI_Wtime() - t0);
    double work_mb = max_over(MPI_COMM_WORLD, (double)mgb_solver_grid_bytes(&s) / 1048576.0);
    describe(&s, ctx);
    /* Untimed solves first: the first solve after set-up touches fresh
     * pages and cold caches (up to 1.4 times the others' time on a real
     * 16-core node, tests/fixtures/heldout-real1d). */
    for (int w = 0; w < ctx->opt.warmup; w++)
        solve_once(&s, ctx);
    if (ctx->opt.warmup > 0 && ctx->rank == 0)
        printf("warm-up: %d untimed solve%s\n", ctx->opt.warmup, ctx->opt.warmup > 1 ? "s" : "");
    int status = 0;
    for (int rep = 1; rep <= ctx->opt.reps && status == 0; rep++) {
        solve_result r = solve_once(&s, ctx);
        report(&s, ctx, rep, &r, work_mb);
        if (!ctx->opt.cycles && !(r.rel <= ctx->opt.tol)) {
            say(ctx, "mgbench: error: %s\n", "the solve did not reach --tol (no row appended)");
            status = EXIT_NO_CONVERGENCE;
        } else if (append_row(&s, ctx, rep, &r, work_mb) != 0) {
            status = EXIT_IO;
        }
        MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (status == 0 && ctx->opt.dump && dump_solution(&s, ctx) != 0)
        status = EXIT_IO;
    mgb_solver_free(&s);
    if (status == 0 && ctx->opt.stream)
        run_stream(ctx);
    return status;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    run_context ctx;
    memset(&ctx, 0, sizeof ctx);
    MPI_Comm_rank(MPI_COMM_WORLD, &ctx.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ctx.nprocs);
    int rc = prepare(&ctx, argc, argv);
    int status = rc < 0 ? EXIT_USAGE : rc > 0 ? 0 : run(&ctx);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
