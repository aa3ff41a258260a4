/*
 * mgbench_pingpong.c — mgbench --pingpong (mgbench/pingpong.h): the
 * message sizes, the least-squares latency and bandwidth on timings made
 * by hand, the ping-pong row's columns in runs.csv, the options' refusals,
 * a real two-rank run under mpirun, and a run under SimGrid SMPI on a
 * two-host platform whose link is set here, the measured values compared
 * with the platform's through SimGrid's documented factors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mgbench/pingpong.h"
#include "mgbench/runs_csv.h"
#include "tests/mgbench_testlib.h"

static void check_rel(double got, double want, double tol)
{
    double rel = fabs(got - want) / fabs(want);
    if (!(rel <= tol))
        fprintf(stderr, "got %.15g want %.15g\n", got, want);
    CU_ASSERT(rel <= tol);
}

/* Rows of 2048 doubles halve to 4 at level 9: ten sizes, 8 (2048 + 2)
 * down to 8 (4 + 2) bytes. */
static void test_sizes(void)
{
    double b[MGB_PINGPONG_MAX_SIZES];
    CU_ASSERT_EQUAL(mgb_pingpong_sizes(2048, b, MGB_PINGPONG_MAX_SIZES), 10);
    CU_ASSERT_EQUAL(b[0], 16400);
    CU_ASSERT_EQUAL(b[1], 8208);
    CU_ASSERT_EQUAL(b[9], 48);
    CU_ASSERT_EQUAL(mgb_pingpong_sizes(2048, b, 3), 3);
    CU_ASSERT_EQUAL(mgb_pingpong_sizes(2, b, MGB_PINGPONG_MAX_SIZES), 1); /* the finest only */
    CU_ASSERT_EQUAL(b[0], 32);
}

/* Three points by hand: bytes 0, 1000, 2000 at 1.1, 2.0, 3.1 us. Means
 * 1000 bytes and 6.2/3 us; Sxy = (-1000)(1.1 - 6.2/3) + 1000 (3.1 - 6.2/3)
 * = 2000 us.byte, Sxx = 2e6: slope 1e-3 us per byte (1 GB/s), intercept
 * 6.2/3 - 1 = 3.2/3 us. */
static void test_fit_by_hand(void)
{
    const double bytes[] = {0, 1000, 2000}, t[] = {1.1e-6, 2.0e-6, 3.1e-6};
    mgb_pingpong_link l;
    int clamped = -1;
    CU_ASSERT_EQUAL_FATAL(mgb_pingpong_fit(bytes, t, 3, &l, &clamped), 0);
    check_rel(l.latency_s, 3.2e-6 / 3, 1e-12);
    check_rel(l.bw_bytes_s, 1e9, 1e-12);
    CU_ASSERT_EQUAL(l.max_bytes, 2000);
    CU_ASSERT_EQUAL(l.nsizes, 3);
    CU_ASSERT_EQUAL(clamped, 0);

    /* A line through (1000, 1 us) and (2000, 3 us) crosses zero at -1 us:
     * the latency is clamped to 0 and said so; the slope stays 2 ns/byte. */
    const double b2[] = {1000, 2000}, t2[] = {1e-6, 3e-6};
    CU_ASSERT_EQUAL(mgb_pingpong_fit(b2, t2, 2, &l, &clamped), 0);
    CU_ASSERT_EQUAL(l.latency_s, 0);
    CU_ASSERT_EQUAL(clamped, 1);
    check_rel(l.bw_bytes_s, 5e8, 1e-12);

    /* No line: one point, one size twice, a time falling with the size. */
    const double same[] = {100, 100}, fall[] = {3e-6, 1e-6};
    CU_ASSERT_EQUAL(mgb_pingpong_fit(bytes, t, 1, &l, NULL), -1);
    CU_ASSERT_EQUAL(mgb_pingpong_fit(same, t, 2, &l, NULL), -1);
    CU_ASSERT_EQUAL(mgb_pingpong_fit(b2, fall, 2, &l, NULL), -1);
}

static mgb_run_row pingpong_row(void)
{
    return (mgb_run_row){.cluster = "A", .np = 4, .nodes = 2, .ppn = 2, .rep = 1,
                         .date = "2026-11-26", .engine = "smpi", .kind = "pingpong",
                         .cluster_b = "B", .bytes = 16400, .link_lat_us = 208.25,
                         .link_bw_gbs = 0.0068};
}

/* A ping-pong row creates the file with the five link columns after the
 * split's; a solve appended there leaves them empty; a ping-pong row is
 * refused in a file without them. Each row has as many cells as the
 * header (counted by awk, not by the writer). */
static void test_row_columns(void)
{
    char dir[256], path[512], split[512], err[512] = "", cmd[1200];
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/c/runs.csv", dir);
    snprintf(split, sizeof split, "%s/s/runs.csv", dir);
    mgb_run_row p = pingpong_row();
    CU_ASSERT(mgb_runs_append(path, &p, err, sizeof err) == 0);
    mgb_run_row solve = {.cluster = "A", .np = 2, .npa = 2, .npb = 1, .na = 64, .nb = 64,
                         .nodes = 1, .ppn = 2, .work_mb = 1, .time_s = 0.5, .cycles = 3,
                         .rel_residual = 1e-9, .seq_of_np = -1, .rep = 1, .date = "2026-11-26"};
    CU_ASSERT(mgb_runs_append(path, &solve, err, sizeof err) == 0);
    char *text = mgbt_read_file(path, NULL), want[2048];
    snprintf(want, sizeof want,
             "%s\n"
             "A,mgbench,4,,,,,2,2,,,,,,,,1,2026-11-26,,smpi,,,,,pingpong,B,16400,208.25,0.0068\n"
             "A,mgbench,2,2,1,64,64,1,2,1,0.5,0,0,3,1.000e-09,,1,2026-11-26,,openmpi,,,,,,,,,\n",
             mgb_runs_link_header());
    CU_ASSERT(text && strcmp(text, want) == 0);
    if (text && strcmp(text, want) != 0)
        fprintf(stderr, "\n%s", text);
    free(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(mgb_runs_link_header(),
                                  ",rows_b,kind,cluster_b,bytes,link_lat_us,link_bw_gbs"));
    snprintf(cmd, sizeof cmd, "awk -F, 'NR == 1 { n = NF } NF != n { bad++ } "
                              "END { exit bad ? 1 : 0 }' %s", path);
    CU_ASSERT(mgbt_run(cmd, NULL) == 0);
    solve.np_a = 1, solve.np_b = 1, solve.rows_a = 32, solve.rows_b = 32;
    CU_ASSERT(mgb_runs_append(split, &solve, err, sizeof err) == 0);
    CU_ASSERT(mgb_runs_append(split, &p, err, sizeof err) == -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "has no kind,cluster_b,bytes,link_lat_us,link_bw_gbs "
                                       "columns, refusing to append a ping-pong row"));
    mgbt_remove_dir(dir);
}

static void test_option_refusals(void)
{
    static const struct {
        int np;
        const char *args, *message;
    } cases[] = {
        {1, "--pingpong", "--pingpong needs two ranks"},
        {2, "--pingpong --split 2:64 --na 128", "--pingpong needs two ranks"},
        {1, "--pingpong --seq-of 2x1", "it excludes --seq-of"},
        {2, "--cluster-b B", "--cluster-b names the far side of a --pingpong row only"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL;
        CU_ASSERT(mgbt_mgbench_run(cases[i].np, cases[i].args, &out) == 2);
        if (!out || !strstr(out, cases[i].message))
            fprintf(stderr, "\n%s: %s\n", cases[i].args, out ? out : "");
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, cases[i].message));
        free(out);
    }
}

/* A real run on 3 ranks with --split 2:64: ranks 1 and 2 trade messages;
 * the rows name both clusters and give a positive bandwidth. Rows of 65536
 * values, so the sizes reach 512 KB: with rows of 256 (up to 2 KB) shared
 * memory's per-byte cost drowned in the noise of a loaded 2-core machine
 * and the fit, rightly, found no bandwidth (3 runs in 12). */
static void test_real_run(void)
{
    char dir[256], args[600], path[512];
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(args, sizeof args, "--pingpong --split 2:64 --na 128 --nb 65536 --reps 2 "
                                "--archive %s --campaign c --cluster A --cluster-b B", dir);
    char *out = NULL;
    int rc = mgbt_mgbench_run(3, args, &out);
    if (rc != 0) /* say why: an mpirun failure is otherwise silent here */
        fprintf(stderr, "\nmgbench %s: exit %d\n%s\n", args, rc, out ? out : "");
    CU_ASSERT(rc == 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "ranks 1-2, 15 sizes up to 524304 bytes"));
    CU_ASSERT(mgbt_value(out, "pingpong rep 2:", "link_bw_gbs") > 0);
    free(out);
    snprintf(path, sizeof path, "awk -F, 'NR > 1 && $25 == \"pingpong\" && $1 == \"A\" && "
                                "$26 == \"B\" && $27 == 524304 && $29 > 0 { n++ } "
                                "END { exit n == 2 ? 0 : 1 }' %s/c/runs.csv", dir);
    CU_ASSERT(mgbt_run(path, NULL) == 0);
    mgbt_remove_dir(dir);
}

/* Under SMPI on two hosts joined by one link of 10 MB/s and 100 us. With
 * SimGrid's SMPI factors set to 1 (--cfg=smpi/lat-factor:0:1 and
 * bw-factor:0:1) the line must give the platform's link within 10%
 * (measured on SimGrid 3.32: 101.7 us and 9.52 MB/s). With its default
 * factors (SimGrid 3.32's network/model SMPI: latency x 1.61 to 11.64,
 * bandwidth x 0.338 to 1.087, by message size; `strings libsimgrid.so`
 * shows the tables) it must lie within those factors of the platform's. */
static void test_smpi_two_hosts(void)
{
    const char *smpi = getenv("MGBENCH_SMPI");
    char bin[1024], dir[256], cmd[2600];
    snprintf(bin, sizeof bin, "%s", smpi && *smpi ? smpi : "build/smpi/mgbench");
    char *abs = realpath(bin, NULL);
    if (!abs || mgbt_run("command -v smpirun", NULL) != 0) {
        CU_FAIL("smpirun or the SMPI build is missing: make mgbench-smpi");
        free(abs);
        return;
    }
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(cmd, sizeof cmd, "%s/p.xml", dir);
    CU_ASSERT(mgbt_write_file(cmd,
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"
        "<host id=\"h0\" speed=\"1Gf\"/><host id=\"h1\" speed=\"1Gf\"/>\n"
        "<link id=\"l\" bandwidth=\"10MBps\" latency=\"100us\"/>\n"
        "<route src=\"h0\" dst=\"h1\"><link_ctn id=\"l\"/></route>\n"
        "</zone></platform>\n") == 0);
    snprintf(cmd, sizeof cmd, "%s/h", dir);
    CU_ASSERT(mgbt_write_file(cmd, "h0\nh1\n") == 0);
    const char *cfgs[] = {"--cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1", ""};
    for (int k = 0; k < 2; k++) {
        char *out = NULL;
        snprintf(cmd, sizeof cmd, "cd %s && smpirun %s -platform p.xml -hostfile h -np 2 "
                                  "%s --pingpong --nb 2048 2>&1", dir, cfgs[k], abs);
        CU_ASSERT(mgbt_run(cmd, &out) == 0);
        double lat = mgbt_value(out, "pingpong rep 1:", "link_lat_us");
        double bw = mgbt_value(out, "pingpong rep 1:", "link_bw_gbs") * 1e3; /* MB/s */
        printf("\n  SMPI %s: latency %.4g us (platform 100), bandwidth %.4g MB/s (platform 10)",
               k ? "default factors" : "factors 1", lat, bw);
        if (k == 0) {
            check_rel(lat, 100, 0.10);
            check_rel(bw, 10, 0.10);
        } else {
            CU_ASSERT(lat >= 100 * 1.61 && lat <= 100 * 11.65);
            CU_ASSERT(bw >= 10 * 0.338 && bw <= 10 * 1.088);
        }
        free(out);
    }
    free(abs);
    mgbt_remove_dir(dir);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const mgbt_test tests[] = {
        {"message sizes", test_sizes},
        {"latency and bandwidth by hand", test_fit_by_hand},
        {"ping-pong row columns", test_row_columns},
        {"option refusals", test_option_refusals},
        {"a real two-rank ping-pong", test_real_run},
        {"SMPI on a two-host platform", test_smpi_two_hosts},
        {NULL, NULL},
    };
    static const mgbt_suite suites[] = {{"mgbench ping-pong", tests}, {NULL, NULL}};
    return mgbt_main(argv[0], suites);
}
