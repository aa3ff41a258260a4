/*
 * mgbench_campaign.c — the campaign runner (mgbench/campaign): the run
 * lists of the strip and block models, plans read from CSV, a real (tiny)
 * campaign appended to an archive that `perfcast check` accepts, and its
 * errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/mgbench_testlib.h"

static int campaign(const char *args, char **out)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "mgbench/campaign %s --mgbench %s", args, mgbt_mgbench());
    return mgbt_run(cmd, out);
}

/* The line of run n ("[n/m] ..."), or NULL. */
static const char *run_line(const char *out, int n, int m)
{
    char tag[32];
    snprintf(tag, sizeof tag, "[%d/%d] ", n, m);
    return strstr(out, tag);
}

/* True when the line of run n of m contains `text`. */
static int line_has(const char *out, int n, int m, const char *text)
{
    const char *line = run_line(out, n, m);
    if (!line)
        return 0;
    const char *end = strchr(line, '\n');
    const char *hit = strstr(line, text);
    return hit && (!end || hit < end);
}

static void test_strip_run_list(void)
{
    char *out = NULL;
    CU_ASSERT_FATAL(campaign("strip --dry-run", &out) == 0);
    /* per-process 64 x 2048 and 16 x 2048; np0 = 4, 8; target 16 */
    CU_ASSERT(line_has(out, 1, 7, "-n 1 ") && line_has(out, 1, 7, "--na 1024 --nb 2048") &&
              line_has(out, 1, 7, "--seq-of 16x1"));
    CU_ASSERT(line_has(out, 2, 7, "-n 4 ") && line_has(out, 2, 7, "--na 256 --nb 2048"));
    CU_ASSERT(line_has(out, 3, 7, "-n 8 ") && line_has(out, 3, 7, "--na 512 --nb 2048"));
    CU_ASSERT(line_has(out, 4, 7, "--na 256 --nb 2048") && line_has(out, 4, 7, "--seq-of 16x1"));
    CU_ASSERT(line_has(out, 5, 7, "-n 4 ") && line_has(out, 5, 7, "--na 64 --nb 2048"));
    CU_ASSERT(line_has(out, 6, 7, "-n 8 ") && line_has(out, 6, 7, "--na 128 --nb 2048"));
    CU_ASSERT(line_has(out, 7, 7, "-n 16 ") && line_has(out, 7, 7, "--na 1024 --nb 2048"));
    CU_ASSERT(line_has(out, 7, 7, "--cycles 10 --reps 2"));
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    CU_ASSERT(line_has(out, 7, 7, "--oversubscribe") == (cores < 16));
    CU_ASSERT(line_has(out, 7, 7, "oversubscribed") == (cores < 16));
    CU_ASSERT_PTR_NULL(run_line(out, 8, 7));
    free(out);
}

static void test_block_run_list(void)
{
    char *out = NULL;
    CU_ASSERT_FATAL(campaign("block --dry-run --targets 4x4,8x2", &out) == 0);
    /* (2,2) + 3 work levels x 4 np x 2 orientations + 2 targets */
    int m = 1 + 3 * 4 * 2 + 2;
    CU_ASSERT(line_has(out, 1, m, "-n 4 ") && line_has(out, 1, m, "--na 512 --nb 512") &&
              line_has(out, 1, m, "--grid 2x2"));
    CU_ASSERT(line_has(out, 2, m, "-n 2 ") && line_has(out, 2, m, "--na 512 --nb 256") &&
              !line_has(out, 2, m, "--grid"));
    CU_ASSERT(line_has(out, 3, m, "--na 256 --nb 512") && line_has(out, 3, m, "--grid 1x2"));
    CU_ASSERT(line_has(out, 8, m, "-n 16 ") && line_has(out, 8, m, "--na 4096 --nb 256"));
    CU_ASSERT(line_has(out, 9, m, "--na 256 --nb 4096") && line_has(out, 9, m, "--grid 1x16"));
    /* work level l = 4: (16,1) on 16*256/4 = 1024 rows */
    CU_ASSERT(line_has(out, 24, m, "-n 16 ") && line_has(out, 24, m, "--na 1024 --nb 256"));
    CU_ASSERT(line_has(out, 26, m, "--na 1024 --nb 1024") && line_has(out, 26, m, "--grid 4x4"));
    CU_ASSERT(line_has(out, 27, m, "--na 2048 --nb 512") && line_has(out, 27, m, "--grid 8x2"));
    CU_ASSERT_PTR_NULL(run_line(out, m + 1, m));
    /* One kernel for the whole campaign: its 2-D grids need the staged
     * one, so the strips run staged too (auto gave them the fused one). */
    for (int k = 1; k <= m; k++)
        CU_ASSERT(line_has(out, k, m, "--kernel staged"));
    free(out);
}

static void test_plan_file(void)
{
    char dir[256], path[512], args[1024], *out = NULL;
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/plan.csv", dir);
    CU_ASSERT_FATAL(mgbt_write_file(path, "cluster,np,npa,npb,na,nb,seq_of_np,time_s,note\n"
                                          "ci-2core,8,8,1,512,2048,,,\"target, large\"\n"
                                          "ci-2core,1,1,1,64,2048,16,,per-process mesh\n"
                                          "ci-2core,4,2,2,512,512,,,\n") == 0);
    snprintf(args, sizeof args, "plan %s --dry-run", path);
    CU_ASSERT_FATAL(campaign(args, &out) == 0);
    CU_ASSERT(line_has(out, 1, 3, "-n 8 ") && line_has(out, 1, 3, "--na 512 --nb 2048"));
    CU_ASSERT(line_has(out, 2, 3, "-n 1 ") && line_has(out, 2, 3, "--na 1024 --nb 2048") &&
              line_has(out, 2, 3, "--seq-of 16x1"));
    CU_ASSERT(line_has(out, 3, 3, "--grid 2x2"));
    free(out);
    /* perfcast plan writes a row per repetition: one configuration, run
     * once with as many solves (unless --reps says otherwise). */
    CU_ASSERT_FATAL(mgbt_write_file(path, "np,na,nb,rep\n4,512,512,1\n4,512,512,2\n"
                                          "4,512,512,3\n2,512,512,1\n") == 0);
    CU_ASSERT_FATAL(campaign(args, &out) == 0);
    CU_ASSERT(out && strstr(out, "2 configurations, 5 solves"));
    CU_ASSERT(line_has(out, 1, 2, "-n 4 ") && line_has(out, 1, 2, "--reps 3"));
    CU_ASSERT(line_has(out, 2, 2, "-n 2 ") && line_has(out, 2, 2, "--reps 2"));
    CU_ASSERT_PTR_NULL(run_line(out, 3, 2));
    free(out);
    snprintf(args, sizeof args, "plan %s --dry-run --reps 1", path);
    CU_ASSERT_FATAL(campaign(args, &out) == 0);
    CU_ASSERT(line_has(out, 1, 2, "--reps 1") && line_has(out, 2, 2, "--reps 1"));
    free(out);
    snprintf(args, sizeof args, "plan %s --dry-run", path);
    CU_ASSERT_FATAL(mgbt_write_file(path, "np,npa,npb,na,nb\n4,3,1,512,512\n") == 0);
    CU_ASSERT_EQUAL(campaign(args, &out), 2);
    CU_ASSERT(out && strstr(out, "plan.csv:2: npa*npb must equal np"));
    free(out);
    /* np_a, rows_a: an uneven strip (mgbench --split); empty cells: even. */
    CU_ASSERT_FATAL(
        mgbt_write_file(path, "np,na,nb,np_a,rows_a\n3,192,128,1,32\n3,192,128,,\n") == 0);
    CU_ASSERT_FATAL(campaign(args, &out) == 0);
    CU_ASSERT(line_has(out, 1, 2, "-n 3 ") && line_has(out, 1, 2, "--split 1:32"));
    CU_ASSERT(line_has(out, 2, 2, "-n 3 ") && !line_has(out, 2, 2, "--split"));
    free(out);
    CU_ASSERT_FATAL(
        mgbt_write_file(path, "np,npa,npb,na,nb,np_a,rows_a\n4,2,2,128,128,1,32\n") == 0);
    CU_ASSERT_EQUAL(campaign(args, &out), 2);
    CU_ASSERT(out && strstr(out, "plan.csv:2: np_a, rows_a split a strip"));
    free(out);
    /* perfcast plan's ping-pong row (kind = pingpong) is no solve: skipped,
     * and said so; the solve beside it runs. */
    CU_ASSERT_FATAL(mgbt_write_file(path, "np,npa,npb,na,nb,kind,cluster_b\n"
                                          "4,4,1,512,512,,\n24,24,1,48,1024,pingpong,Y\n") == 0);
    CU_ASSERT_FATAL(campaign(args, &out) == 0);
    CU_ASSERT(out && strstr(out, "1 configurations, 2 solves")); /* --reps 2 by default */
    CU_ASSERT(out && strstr(out, "plan.csv:3: a ping-pong of the link"));
    CU_ASSERT(line_has(out, 1, 1, "-n 4 "));
    CU_ASSERT_PTR_NULL(run_line(out, 2, 2));
    free(out);
    mgbt_remove_dir(dir);
}

/* A real strip campaign, small: 7 configurations, one row each, in an
 * archive that perfcast check accepts. */
static void test_real_campaign(void)
{
    char dir[256], args[1024], path[512], *out = NULL;
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(args, sizeof args, "cp archive/clusters.csv %s/", dir);
    CU_ASSERT_FATAL(mgbt_run(args, NULL) == 0);
    snprintf(args, sizeof args, "strip --nb 64 --rows 8 --np0 2,4 --targets 8 --reps 1 "
             "--cycles 2 --cluster ci-2core --campaign strip-test --archive %s", dir);
    CU_ASSERT_FATAL(campaign(args, &out) == 0);
    CU_ASSERT(out && strstr(out, "[7/7] elapsed ") && strstr(out, "campaign: done in"));
    CU_ASSERT(out && strstr(out, "left ~"));
    free(out);
    snprintf(path, sizeof path, "%s/strip-test/runs.csv", dir);
    char *rows = mgbt_read_file(path, NULL);
    CU_ASSERT_FATAL(rows != NULL);
    int lines = 0;
    for (char *p = rows; (p = strchr(p, '\n')); p++)
        lines++;
    CU_ASSERT_EQUAL(lines, 1 + 7);
    CU_ASSERT_PTR_NOT_NULL(strstr(rows, "ci-2core,mgbench,1,1,1,8,64,"));   /* Tcomp, 8 rows */
    CU_ASSERT_PTR_NOT_NULL(strstr(rows, ",8,1,")); /* seq_of_np = 8, rep 1 */
    CU_ASSERT_PTR_NOT_NULL(strstr(rows, "sequential per-process mesh of 8x1 (64x64)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rows, "ci-2core,mgbench,8,8,1,64,64,"));  /* the target */
    free(rows);
    /* perfcast check wants the campaign's description and experiments too */
    snprintf(path, sizeof path, "%s/strip-test/README.md", dir);
    CU_ASSERT_FATAL(mgbt_write_file(path, "# strip test\n") == 0);
    snprintf(path, sizeof path, "%s/strip-test/experiments.csv", dir);
    CU_ASSERT_FATAL(
        mgbt_write_file(path, "name,model,response,formula,train,target,title,options\n") == 0);
    char perfcast[4200];
    snprintf(perfcast, sizeof perfcast, "%s", mgbt_mgbench());
    char *slash = strrchr(perfcast, '/');
    CU_ASSERT_FATAL(slash != NULL);
    snprintf(slash + 1, sizeof perfcast - (size_t)(slash + 1 - perfcast), "perfcast");
    char check[8192];
    CU_ASSERT_FATAL(snprintf(check, sizeof check, "%s check --archive %s", perfcast, dir) <
                    (int)sizeof check);
    CU_ASSERT_EQUAL(mgbt_run(check, &out), 0);
    CU_ASSERT(out && strstr(out, "(7 runs, 0 experiments); 0 problems"));
    if (out && !strstr(out, "0 problems"))
        fprintf(stderr, "\n%s\n", out);
    free(out);
    mgbt_remove_dir(dir);
}

/* --busy measures each sequential run again while a copy of it runs on
 * every other core: one more row per sequential run, with its note. */
static void test_busy_node(void)
{
    char dir[256], args[1024], path[512], *out = NULL;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(args, sizeof args, "strip --busy --nb 64 --rows 8 --np0 2 --targets 4 --reps 1 "
             "--cycles 2 --cluster ci-2core --campaign busy-test --archive %s", dir);
    int rc = campaign(args, &out);
    if (cores < 2) { /* nothing to load: refused, not faked */
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT(out && strstr(out, "--busy needs a node with more than one core"));
        free(out);
        mgbt_remove_dir(dir);
        return;
    }
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT(out && strstr(out, "busy node ("));
    free(out);
    snprintf(path, sizeof path, "%s/busy-test/runs.csv", dir);
    char *rows = mgbt_read_file(path, NULL);
    CU_ASSERT_FATAL(rows != NULL);
    char note[128];
    snprintf(note, sizeof note, "busy node: %ld copies on the other cores; sequential", cores - 1);
    int busy = 0, lines = 0;
    for (const char *p = rows; (p = strstr(p, note)); p++)
        busy++;
    for (char *p = rows; (p = strchr(p, '\n')); p++)
        lines++;
    CU_ASSERT_EQUAL(busy, 2);          /* one per work level */
    CU_ASSERT_EQUAL(lines, 1 + 5 + 2); /* header, the 5 runs, the 2 busy ones */
    free(rows);
    CU_ASSERT_EQUAL(campaign("strip --busy --dry-run --engine smpi --platform /dev/null "
                             "--hostfile /dev/null", &out), 2);
    CU_ASSERT(out && strstr(out, "--busy needs real runs"));
    free(out);
    mgbt_remove_dir(dir);
}

/* Real runs warm the node with one untimed solve before the recorded ones
 * (mgbench --warmup; the real campaign above still appends one row per
 * recorded solve); --warmup sets the count; simulated solves get none. */
static void test_warmup(void)
{
    char *out = NULL;
    CU_ASSERT_FATAL(campaign("strip --dry-run", &out) == 0);
    CU_ASSERT(line_has(out, 1, 7, "--reps 2 --warmup 1") && line_has(out, 7, 7, "--warmup 1"));
    free(out);
    CU_ASSERT_FATAL(campaign("strip --dry-run --warmup 3", &out) == 0);
    CU_ASSERT(line_has(out, 4, 7, "--warmup 3"));
    free(out);
    CU_ASSERT_FATAL(campaign("strip --dry-run --warmup 0", &out) == 0);
    CU_ASSERT(out && !strstr(out, "--warmup"));
    free(out);
    char dir[256], hosts[512], args[1200];
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(hosts, sizeof hosts, "%s/hosts", dir);
    CU_ASSERT_FATAL(mgbt_write_file(hosts, "h0:16\n") == 0);
    snprintf(args, sizeof args, "strip --dry-run --engine smpi --platform %s --hostfile %s", hosts,
             hosts);
    CU_ASSERT_FATAL(campaign(args, &out) == 0);
    CU_ASSERT(out && strstr(out, "--reps 2") && !strstr(out, "--warmup"));
    free(out);
    mgbt_remove_dir(dir);
    CU_ASSERT_EQUAL(campaign("strip --dry-run --warmup -1", &out), 2);
    CU_ASSERT(out && strstr(out, "--warmup wants a count from 0 to 9999"));
    free(out);
}

static void test_errors(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(campaign("strip", &out), 2);
    CU_ASSERT(out && strstr(out, "--cluster is required"));
    free(out);
    CU_ASSERT_EQUAL(campaign("strip --dry-run --rows 10", &out), 2);
    CU_ASSERT(out && strstr(out, "--rows must be divisible by 4"));
    free(out);
    CU_ASSERT_EQUAL(campaign("block --dry-run --targets 4by4", &out), 2);
    CU_ASSERT(out && strstr(out, "--targets wants grids"));
    free(out);
    CU_ASSERT_EQUAL(campaign("strip --bogus", &out), 2);
    CU_ASSERT(out && strstr(out, "unknown option --bogus"));
    free(out);
    CU_ASSERT_EQUAL(campaign("--help", &out), 0);
    CU_ASSERT(out && strstr(out, "--cluster") && strstr(out, "--dry-run"));
    free(out);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const mgbt_test tests[] = {
        {"strip_run_list", test_strip_run_list},
        {"block_run_list", test_block_run_list},
        {"plan_file", test_plan_file},
        {"real_campaign", test_real_campaign},
        {"busy_node", test_busy_node},
        {"warmup", test_warmup},
        {"errors", test_errors},
        {NULL, NULL}};
    static const mgbt_suite suites[] = {{"mgbench campaign runner", tests}, {NULL, NULL}};
    return mgbt_main(argv[0], suites);
}
