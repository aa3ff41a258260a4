/*
 * mgbench_smpi.c — mgbench under SimGrid SMPI (make mgbench-smpi): one
 * small simulated strip solve and one block solve on 8 ranks of the
 * simulated cluster sim-b-gige (archive/clusters.csv, platform written by
 * mgbench/smpi_platform), recorded by mgbench/campaign --engine smpi; the
 * rows must say they are simulated (engine smpi, the platform named, the
 * simulated hosts' placement, not this machine's) and refuse a real
 * cluster's name. Without smpirun or the SMPI build the test FAILS, saying
 * how to get them: a simulated run must not pass by being skipped.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/mgbench_testlib.h"

/* The SMPI build ($MGBENCH_SMPI, else build/smpi/mgbench) as an absolute
 * path (the refusal test runs smpirun in a temporary folder). */
static const char *smpi_mgbench(void)
{
    static char path[1024];
    const char *env = getenv("MGBENCH_SMPI");
    const char *rel = env && *env ? env : "build/smpi/mgbench";
    if (!realpath(rel, path))
        snprintf(path, sizeof path, "%s", rel);
    return path;
}

/* False (with a failure saying why) when the simulator is not there. */
static int have_smpi(void)
{
    char cmd[1100];
    if (mgbt_run("command -v smpirun", NULL) != 0) {
        fprintf(stderr, "\nmgbench_smpi: smpirun not found: install libsimgrid-dev (make deps)\n");
        CU_FAIL("smpirun not found: install libsimgrid-dev (make deps)");
        return 0;
    }
    snprintf(cmd, sizeof cmd, "test -x %s", smpi_mgbench());
    if (mgbt_run(cmd, NULL) != 0) {
        fprintf(stderr, "\nmgbench_smpi: no %s: build it with make mgbench-smpi\n", smpi_mgbench());
        CU_FAIL("the SMPI build of mgbench is missing: make mgbench-smpi");
        return 0;
    }
    return 1;
}

/* Cell `col` (0-based) of a CSV line without quoted commas before it. */
static void cell(const char *line, int col, char *out, size_t len)
{
    for (int k = 0; k < col && line; k++) {
        line = line[0] == '"' ? strstr(line + 1, "\",") : line;
        line = line ? strchr(line, ',') : NULL;
        line = line ? line + 1 : NULL;
    }
    size_t n = line ? strcspn(line, ",\n") : 0;
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), line ? line : "");
}

static void check_row(const char *line, const char *grid_npa, const char *grid_npb)
{
    /* cluster,code,np,npa,npb,na,nb,nodes,ppn,work_mb,time_s,time_comm_s,... */
    char c[64];
    cell(line, 0, c, sizeof c);
    CU_ASSERT_STRING_EQUAL(c, "sim-b-gige");
    cell(line, 2, c, sizeof c);
    CU_ASSERT_STRING_EQUAL(c, "8");
    cell(line, 3, c, sizeof c);
    CU_ASSERT_STRING_EQUAL(c, grid_npa);
    cell(line, 4, c, sizeof c);
    CU_ASSERT_STRING_EQUAL(c, grid_npb);
    /* 8 ranks on simulated hosts of 4 cores: 2 nodes, 4 per node (this
     * machine has 2 cores and one node: its placement would say 1 x 8). */
    cell(line, 7, c, sizeof c);
    CU_ASSERT_STRING_EQUAL(c, "2");
    cell(line, 8, c, sizeof c);
    CU_ASSERT_STRING_EQUAL(c, "4");
    cell(line, 10, c, sizeof c);
    double t = atof(c);
    cell(line, 11, c, sizeof c);
    double comm = atof(c);
    /* Simulated seconds: positive, at least the communication inside them,
     * and far below a minute for 3 cycles of a 256 x 256 mesh. */
    CU_ASSERT(t > 0 && t < 60);
    CU_ASSERT(comm >= 0 && comm <= t);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "simulated (SimGrid SMPI) on platform platform-sim-b-gige"));
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    CU_ASSERT(len > 5 && strncmp(line + len - 5, ",smpi", 5) == 0);
}

/* A temporary folder holding the platform and host file of sim-b-gige;
 * false when the simulator is missing (the test has failed then). */
static int simulated_cluster(char *dir, size_t len)
{
    if (!have_smpi())
        return 0;
    char cmd[1400];
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, len) == 0);
    snprintf(cmd, sizeof cmd, "mgbench/smpi_platform --out %s sim-b-gige >/dev/null", dir);
    CU_ASSERT_FATAL(mgbt_run(cmd, NULL) == 0);
    return 1;
}

/* Runs a shell command (printf-style) inside the simulated cluster's
 * folder, where $R is the repository root; same contract as mgbt_run. */
static int run_there(const char *dir, char **out, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int run_there(const char *dir, char **out, const char *fmt, ...)
{
    char root[1024], cmd[8192];
    if (!getcwd(root, sizeof root))
        return -1;
    int n = snprintf(cmd, sizeof cmd, "R='%s' && cd '%s' && ", root, dir);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd + n, sizeof cmd - (size_t)n, fmt, ap);
    va_end(ap);
    return mgbt_run(cmd, out);
}

static void test_strip_and_block_rows(void)
{
    char dir[256];
    if (!simulated_cluster(dir, sizeof dir))
        return;
    char *out = NULL;
    int rc = run_there(dir, &out,
                       "printf 'np,npa,npb,na,nb\\n8,8,1,256,256\\n8,4,2,256,256\\n' > plan.csv && "
                       "mkdir arch && $R/mgbench/campaign plan plan.csv --engine smpi "
                       "--platform sim-b-gige.xml --hostfile sim-b-gige.hosts --mgbench %s "
                       "--cluster sim-b-gige --campaign c --archive arch --reps 1 --cycles 3",
                       smpi_mgbench());
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "--cfg=smpi/host-speed:1Gf"));
    free(out);
    char path[512];
    snprintf(path, sizeof path, "%s/arch/c/runs.csv", dir);
    char *text = mgbt_read_file(path, NULL);
    CU_ASSERT_FATAL(text != NULL);
    CU_ASSERT(strncmp(text, "cluster,code,np,", 16) == 0 && strstr(text, ",note,engine\n"));
    char *strip = strchr(text, '\n');
    char *block = strip ? strchr(strip + 1, '\n') : NULL;
    CU_ASSERT_FATAL(strip && block);
    check_row(strip + 1, "8", "1");
    check_row(block + 1, "4", "2");
    free(text);
    mgbt_remove_dir(dir);
}

/* A simulated run that names a real cluster is refused: nothing appended. */
static void test_refuses_real_cluster(void)
{
    char dir[256];
    if (!simulated_cluster(dir, sizeof dir))
        return;
    char *out = NULL;
    CU_ASSERT(run_there(dir, &out,
                        "smpirun -platform sim-b-gige.xml -hostfile sim-b-gige.hosts -np 2 "
                        "--cfg=smpi/host-speed:1Gf %s --na 64 --nb 64 --cycles 1 --campaign c "
                        "--archive . --cluster ci-2core", smpi_mgbench()) != 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "is not a cluster (zone) of the simulated platform"));
    free(out);
    CU_ASSERT(run_there(dir, NULL, "test ! -e c/runs.csv") == 0);
    mgbt_remove_dir(dir);
}

/* Torus and fat-tree clusters (mgbench/smpi_platform's sim_topology): a
 * clusters.csv written here with a 2x2x2 torus of 8 nodes and a two-level
 * fat tree of 4 x 4 = 16 nodes; each platform names SimGrid's topology,
 * mgbench runs 8 ranks on each and on the two joined, and a torus whose
 * dimensions do not multiply to its nodes is refused before any file is
 * written. */
static const char *TOPO_CLUSTERS =
    "cluster,nodes,cores_per_node,sim_core_speed,sim_link_bw_gbs,sim_link_lat_us,"
    "sim_backbone_bw_gbs,sim_backbone_lat_us,sim_uplink_bw_gbs,sim_uplink_lat_us,"
    "sim_topology,sim_topo_parameters\n"
    "tor,8,2,1,1.25,50,10,1,1,10,TORUS,\"2,2,2\"\n"
    "fat,16,2,1,1.25,5,10,1,1,10,FAT_TREE,\"2;4,4;1,2;1,2\"\n"
    "badtor,9,2,1,1.25,50,10,1,1,10,TORUS,\"2,2,2\"\n";

static void test_torus_and_fat_tree(void)
{
    char dir[256], path[512];
    if (!have_smpi())
        return;
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/c.csv", dir);
    CU_ASSERT_FATAL(mgbt_write_file(path, TOPO_CLUSTERS) == 0);
    CU_ASSERT(run_there(dir, NULL, "$R/mgbench/smpi_platform --clusters c.csv tor >/dev/null && "
                                   "$R/mgbench/smpi_platform --clusters c.csv fat >/dev/null && "
                                   "$R/mgbench/smpi_platform --clusters c.csv tor fat >/dev/null") == 0);
    CU_ASSERT(run_there(dir, NULL, "grep -q 'topology=\"TORUS\" topo_parameters=\"2,2,2\"' tor.xml && "
                                   "grep -q 'topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,2\"' "
                                   "fat.xml") == 0);
    static const char *const platforms[] = {"tor", "fat", "tor+fat"};
    for (size_t i = 0; i < 3; i++) {
        char *out = NULL;
        int rc = run_there(dir, &out,
                           "smpirun -platform '%s.xml' -hostfile '%s.hosts' -np 8 "
                           "--cfg=smpi/host-speed:1Gf %s --na 64 --nb 64 --cycles 1 2>&1",
                           platforms[i], platforms[i], smpi_mgbench());
        if (rc != 0)
            fprintf(stderr, "\n%s: %s\n", platforms[i], out ? out : "");
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "rep 1: cycles=1"));
        free(out);
    }
    char *out = NULL;
    CU_ASSERT(run_there(dir, &out, "$R/mgbench/smpi_platform --clusters c.csv badtor 2>&1") == 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "a 2,2,2 torus has 8 nodes, the row 9"));
    free(out);
    CU_ASSERT(run_there(dir, NULL, "test ! -e badtor.xml && test ! -e badtor.hosts") == 0);
    mgbt_remove_dir(dir);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const mgbt_test tests[] = {
        {"strip_and_block_rows", test_strip_and_block_rows},
        {"refuses_real_cluster", test_refuses_real_cluster},
        {"torus_and_fat_tree", test_torus_and_fat_tree},
        {NULL, NULL}};
    static const mgbt_suite suites[] = {{"mgbench under SimGrid SMPI", tests}, {NULL, NULL}};
    return mgbt_main(argv[0], suites);
}
