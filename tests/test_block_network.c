/*
 * test_block_network.c — the block model's network term (models/block.h,
 * models/topology.h routes): route latencies and a grid's slowest
 * neighbour route worked out by hand on the simulated torus (4x4x2, hosts
 * numbered X fastest) and fat tree (2;4,8) of clusters.csv, mgbench's
 * levels, a prediction built from round numbers, and perfcast on the
 * torus campaign with and without the term, read back by gawk.
 */
#include "models/block.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double US = 1e-6;

static topology parsed(const char *kind, const char *params)
{
    topology t;
    char err[200];
    CU_ASSERT_TRUE(topology_parse(kind, params, &t, err, sizeof err));
    return t;
}

/* Torus 4x4x2, 10 us a hop: node n = x + 4y + 16z. */
static void test_torus_routes(void)
{
    topology t = parsed("TORUS", "4,4,2");
    topology_latency lat = {10 * US, 1 * US};
    CU_ASSERT_DOUBLE_EQUAL(topology_route_latency(&t, &lat, 0, 0), 10 * US, 1e-12); /* loopback */
    CU_ASSERT_DOUBLE_EQUAL(topology_route_latency(&t, &lat, 0, 1), 10 * US, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(topology_route_latency(&t, &lat, 0, 2), 20 * US, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(topology_route_latency(&t, &lat, 0, 3), 10 * US, 1e-12); /* round */
    /* 2 = (2,0,0) to 4 = (0,1,0): 2 hops in x, 1 in y */
    CU_ASSERT_DOUBLE_EQUAL(topology_route_latency(&t, &lat, 2, 4), 30 * US, 1e-12);
    /* 14 = (2,3,0) to 16 = (0,0,1): x 2, y 1 (3 to 0 round the ring), z 1 */
    CU_ASSERT_DOUBLE_EQUAL(topology_route_latency(&t, &lat, 14, 16), 40 * US, 1e-12);
    CU_ASSERT_TRUE(isnan(topology_route_latency(&t, &lat, -1, 0)));
}

/* Fat tree 2;4,8 with 5 us links; flat 30 us links and a 5 us backbone. */
static void test_fat_tree_and_flat_routes(void)
{
    topology ft = parsed("FAT_TREE", "2;4,8;1,2;1,2"), flat = parsed("", "");
    topology_latency lat = {5 * US, 1 * US};
    CU_ASSERT_DOUBLE_EQUAL(topology_route_latency(&ft, &lat, 3, 3), 0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(topology_route_latency(&ft, &lat, 0, 3), 10 * US, 1e-12); /* one leaf */
    CU_ASSERT_DOUBLE_EQUAL(topology_route_latency(&ft, &lat, 3, 4), 20 * US, 1e-12); /* via top */
    topology_latency gige = {30 * US, 5 * US};
    CU_ASSERT_DOUBLE_EQUAL(topology_route_latency(&flat, &gige, 0, 0), 65 * US, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(topology_route_latency(&flat, &gige, 0, 7), 65 * US, 1e-12);
}

/* Rank r on node r / 4; a-neighbours npb ranks apart, b-neighbours 1. */
static void test_grid_latency(void)
{
    topology t = parsed("TORUS", "4,4,2");
    topology_latency lat = {10 * US, 1 * US};
    /* 4x4: a-neighbours on the next node (1 hop), b within a node */
    CU_ASSERT_DOUBLE_EQUAL(topology_grid_latency(&t, &lat, 4, 4, 4), 10 * US, 1e-12);
    /* 8x4: 32 ranks on nodes 0-7, node 3 = (3,0,0) to 4 = (0,1,0): 2 hops */
    CU_ASSERT_DOUBLE_EQUAL(topology_grid_latency(&t, &lat, 8, 4, 4), 20 * US, 1e-12);
    /* 4x8: a-neighbours two nodes on, node 2 to 4 is 3 hops */
    CU_ASSERT_DOUBLE_EQUAL(topology_grid_latency(&t, &lat, 4, 8, 4), 30 * US, 1e-12);
    /* 16x8: node 14 to 16 is 4 hops */
    CU_ASSERT_DOUBLE_EQUAL(topology_grid_latency(&t, &lat, 16, 8, 4), 40 * US, 1e-12);
    /* strips 16x1 and 1x16 fill nodes 0-3 in a row: 1 hop */
    CU_ASSERT_DOUBLE_EQUAL(topology_grid_latency(&t, &lat, 16, 1, 4), 10 * US, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(topology_grid_latency(&t, &lat, 1, 16, 4), 10 * US, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(topology_grid_latency(&t, &lat, 1, 1, 4), 0, 0); /* no neighbour */
    CU_ASSERT_TRUE(isnan(topology_grid_latency(&t, &lat, 4, 4, NAN)));
    CU_ASSERT_TRUE(isnan(topology_grid_latency(&t, &lat, 2.5, 4, 4)));
}

/* mgbench halves while rows and columns stay even and >= 2. */
static void test_levels(void)
{
    CU_ASSERT_EQUAL(block_levels(2, 2, 512, 512), 10); /* 512 ... 2, 1 */
    CU_ASSERT_EQUAL(block_levels(4, 1, 256, 512), 9);  /* the rows stop it */
    CU_ASSERT_EQUAL(block_levels(2, 2, 64, 12), 3);    /* 12, 6, 3 */
    CU_ASSERT_EQUAL(block_levels(2, 2, 3, 64), 1);
}

typedef struct {
    mesh_run runs[32];
    double ppn[32];
    size_t n;
} run_set;

/* Two work levels (64x64 and 32x64 per process) so that every np has a
 * line; the overheads do not depend on work. */
static void add(run_set *s, double npa, double npb, double t, double ppn)
{
    for (int l = 1; l <= 2; l++) {
        double pa = npb == 1 || npa == 2 ? 64.0 / l : 64, pb = npb == 1 ? 64 : 64.0 / l;
        if (npa == 2 && npb == 2 && l == 2)
            continue;
        s->runs[s->n] = (mesh_run){npa, npb, pa, pb, 0.001 * pa * pb, t};
        s->ppn[s->n++] = ppn;
    }
}

/* SimGrid 3.32's default smpi/lat-factor, read off `smpirun --help-cfg`:
 * "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;
 * 1426:1.61075;732:1.9503;257:1.95341;0:2.01467". */
static void test_smpi_latency_factor(void)
{
    CU_ASSERT_DOUBLE_EQUAL(topology_smpi_latency_factor(0), 2.01467, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_smpi_latency_factor(256), 2.01467, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_smpi_latency_factor(257), 1.95341, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_smpi_latency_factor(2048), 1.61075, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_smpi_latency_factor(4096), 1.88101, 0);
    CU_ASSERT_DOUBLE_EQUAL(topology_smpi_latency_factor(1e6), 11.6436, 0);
    CU_ASSERT_TRUE(isnan(topology_smpi_latency_factor(-1)));
    CU_ASSERT_TRUE(isnan(topology_smpi_latency_factor(NAN)));
}

/* Each direction apart, on the torus of test_grid_latency (4 per node). */
static void test_grid_directions(void)
{
    topology t = parsed("TORUS", "4,4,2");
    topology_latency lat = {10 * US, 1 * US};
    double la = -1, lb = -1;
    CU_ASSERT_TRUE(topology_grid_directions(&t, &lat, 4, 8, 4, &la, &lb));
    CU_ASSERT_DOUBLE_EQUAL(la, 30 * US, 1e-12); /* node 2 to 4 */
    CU_ASSERT_DOUBLE_EQUAL(lb, 10 * US, 1e-12); /* a row spans nodes 2i, 2i+1 */
    CU_ASSERT_TRUE(topology_grid_directions(&t, &lat, 16, 1, 4, &la, &lb));
    CU_ASSERT_DOUBLE_EQUAL(la, 10 * US, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(lb, 0, 0);           /* no b-neighbour */
    CU_ASSERT_FALSE(topology_grid_directions(&t, &lat, 4, 4, NAN, &la, &lb));
}

/* T(2,2) 1 s; Ta(4) = 0.6 - 0.5, Tb(8) = 0.65 - 0.5: the paper gives 1.15 s
 * for 4x8. With the network term on the torus (10 us a hop, 10 cycles),
 * 64 x 64 per process: 7 levels, 6 exchanging, messages of 512, 256, ...,
 * 16 bytes: SMPI factors 1.95341 + 5 x 2.01467 = 12.02676.
 *   T(2,2) on one node: both directions the 10 us loopback, two phases:
 *     2 (10 + 10) + 8 x 10 = 120 us a level: 10 x 120 x 12.02676 us
 *     = 0.014432112 s taken off.
 *   Ta, Tb: (4,1) and (2,1) hold the same loopback route, (1,8) and
 *     (1,2) the same 10 us (one hop or the loopback): unchanged.
 *   4x8: a 30 us, b 10 us (test_grid_directions): 2 (30 + 10) + 8 x 30
 *     = 320 us a level: 10 x 320 x 12.02676 us = 0.038485632 s added.
 *   T = 1 - 0.014432112 + 0.15 + 0.038485632 = 1.17405352 s.
 * The job's process count term: lines a 0.1 (np 4), 0.2 (8); b 0.05, 0.15.
 *   4x8 (32 from 8): both held at np 8: 0.
 *   4x4 (16 from 4): (0.2 - 0.1 + 0.15 - 0.05) / 2 = 0.1, beyond the strips.
 *   3x2 (6 from 3), linear in log2 np from 0 at 2: a 0.1 + 0.1 (log2 6 - 2)
 *     - 0.1 (log2 3 - 1) = 0.1; b 0.05 + 0.1 (log2 6 - 2) - 0.05 (log2 3 - 1)
 *     = 0.079248125 (log2 6 - 2 = log2 3 - 1 = 0.5849625): mean 0.0896240625. */
static run_set training_runs(void)
{
    run_set s = {.n = 0};
    add(&s, 2, 2, 1.0, 4);
    add(&s, 2, 1, 0.5, 2);
    add(&s, 4, 1, 0.6, 4);
    add(&s, 8, 1, 0.7, 4);
    add(&s, 1, 2, 0.5, 2);
    add(&s, 1, 4, 0.55, 4);
    add(&s, 1, 8, 0.65, 4);
    return s;
}

/* Fit the runs for target t under opt, predict it at ppn and cycles. */
static block_prediction predicted(const run_set *s, const block_options *opt, block_target t,
                                  double ppn, double cycles)
{
    contention_law none = contention_none();
    block_model m;
    block_prediction p = {0};
    CU_ASSERT_EQUAL(block_fit_contended(s->runs, s->ppn, s->n, opt, &none, &t, &m, NULL),
                    BLOCK_OK);
    CU_ASSERT_TRUE(block_predict_network(&m, &t, ppn, cycles, &p));
    block_model_free(&m);
    return p;
}

static const block_target T48 = {4, 8, 64, 64, NAN};

static void test_prediction_routes(void)
{
    run_set s = training_runs();
    block_network net = {parsed("TORUS", "4,4,2"), {10 * US, 1 * US}, 10};
    block_options paper = {.work_tol = 0.01}, routes = {.work_tol = 0.01, .network = &net};
    block_prediction p = predicted(&s, &paper, T48, 4, NAN);
    CU_ASSERT_DOUBLE_EQUAL(p.time_s, 1.15, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(p.network_s, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(p.job_np_s, 0, 0);
    p = predicted(&s, &routes, T48, 4, NAN);
    CU_ASSERT_DOUBLE_EQUAL(p.net_exchanges, 600, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(p.net_target_lat_s, 30 * US, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(p.t22_s, 1 - 0.014432112, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(p.tb_s, 0.15, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(p.network_s, 0.038485632, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(p.time_s, 1.17405352, 1e-9);
    /* 20 cycles: the target's own route time doubles, the training runs'
     * stay at the fit's 10 */
    p = predicted(&s, &routes, T48, 4, 20);
    CU_ASSERT_DOUBLE_EQUAL(p.time_s, 1.17405352 + 0.038485632, 1e-9);
    /* a 32 x 64 mesh per process has no (2,2) run: T(2,2) is the 64 x 64
     * one scaled by work (half), and so is the route time taken off it:
     * 0.5 - 0.014432112 / 2 */
    p = predicted(&s, &routes, (block_target){4, 8, 32, 64, NAN}, 4, NAN);
    CU_ASSERT_EQUAL(p.t22_match, MESH_SCALED);
    CU_ASSERT_DOUBLE_EQUAL(p.t22_s, 0.5 - 0.007216056, 1e-9);
    /* the target's processes per node unknown: the paper's estimate, said so */
    p = predicted(&s, &routes, T48, NAN, NAN);
    CU_ASSERT_TRUE(p.network_unknown);
    CU_ASSERT_DOUBLE_EQUAL(p.network_s, 0.014432112, 1e-9); /* T(2,2)'s, given back */
    CU_ASSERT_DOUBLE_EQUAL(p.time_s, 1.15, 1e-9);
}

static void test_prediction_job_np(void)
{
    run_set s = training_runs();
    block_network net = {parsed("TORUS", "4,4,2"), {10 * US, 1 * US}, 10};
    block_options both = {.work_tol = 0.01, .network = &net, .job_np = true};
    block_options grow = {.work_tol = 0.01, .job_np = true};
    block_prediction p = predicted(&s, &both, T48, 4, NAN);
    CU_ASSERT_DOUBLE_EQUAL(p.job_np_s, 0, 1e-12);
    CU_ASSERT_EQUAL(p.job_np_directions, 2);
    CU_ASSERT_DOUBLE_EQUAL(p.time_s, 1.17405352, 1e-9);
    p = predicted(&s, &both, (block_target){4, 4, 64, 64, NAN}, 4, NAN);
    CU_ASSERT_DOUBLE_EQUAL(p.job_np_s, 0.1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(p.job_np_from, 4, 0);
    CU_ASSERT_TRUE(p.extrapolation);
    p = predicted(&s, &grow, (block_target){3, 2, 64, 64, NAN}, 4, NAN);
    CU_ASSERT_DOUBLE_EQUAL(p.job_np_s, 0.0896240625, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(p.network_s, 0, 0);
}

/* gawk's estimate of the target np/npa/npb in a predict CSV. */
static double estimate_of(const char *csv_path, const char *grid)
{
    char *out = NULL;
    int rc = testutil_run_commandf(&out, TESTUTIL_GAWK_CSV
                                   "'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } "
                                   "$c[\"npa\"] \"x\" $c[\"npb\"] == \"%s\" "
                                   "{ print $c[\"estimate\"] }' %s", grid, csv_path);
    double v = rc == 0 && out && *out ? strtod(out, NULL) : NAN;
    free(out);
    return v;
}

/* The torus campaign with the route term alone (jobnp=none) and without
 * either (network=none;jobnp=none): Ta and Tb keep their routes (every
 * strip's slowest is the 10 us loopback or one hop), so the estimates
 * differ by the target's route time less T(2,2)'s, hand-counted:
 * 10 cycles, 9 exchanging levels (512 rows per process) of messages of
 * 4096, 2048, 1024, 512, 256, ..., 16 bytes: SMPI factors 1.88101 +
 * 1.61075 + 1.9503 + 1.95341 + 5 x 2.01467 = 17.46882; a level of a
 * two-way grid waits 2 (la + lb) + 8 max(la, lb): T(2,2) on one node
 * 120 us, 4x4 (a one hop) 120 us, 8x4 (a 20 us) 220, 4x8 (30 us, b one
 * hop) 320, 16x8 (40 us) 420: differences 0, 100, 200, 300 us x 174.6882. */
static void test_torus_campaign(void)
{
    char dir[512], *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    int rc = testutil_run_commandf(
        &out, "mkdir -p %s/a && cp archive/clusters.csv %s/a/ && "
              "cp -r archive/smpi-torus-block %s/a/t && cd %s/a/t && "
              "sed '2s/^block-d,/paper,/; 2s/,$/,network=none;jobnp=none/' experiments.csv > x && "
              "sed '2s/^block-d,/routes,/; 2s/,$/,jobnp=none/' experiments.csv > y && "
              "tail -n 1 x >> experiments.csv && tail -n 1 y >> experiments.csv && rm x y", dir, dir, dir, dir);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(out);
    const char *names[] = {"routes", "paper"};
    for (int k = 0; k < 2; k++) {
        rc = testutil_perfcast_run(&out, "predict --archive %s/a --format csv t %s > %s/%s.csv",
                                   dir, names[k], dir, names[k]);
        CU_ASSERT_EQUAL(rc, 0);
        free(out);
    }
    const char *grids[] = {"4x4", "8x4", "4x8", "16x8"};
    const double added_us[] = {0, 100 * 174.6882, 200 * 174.6882, 300 * 174.6882};
    char with[600], without[600];
    snprintf(with, sizeof with, "%s/routes.csv", dir);
    snprintf(without, sizeof without, "%s/paper.csv", dir);
    for (int i = 0; i < 4; i++) {
        double diff = estimate_of(with, grids[i]) - estimate_of(without, grids[i]);
        CU_ASSERT_DOUBLE_EQUAL(diff, added_us[i] * US, 2e-6);
    }
    rc = testutil_perfcast_run(&out, "fit --archive %s/a t block-d", dir);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "network term on for cluster sim-d-torus") : NULL);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "job's process count term on: on with the "
                                             "network term") : NULL);
    free(out);
    rc = testutil_run_commandf(&out, "cd %s/a/t && sed -i 's/network=none/network=hops/' "
                                     "experiments.csv", dir);
    free(out);
    rc = testutil_perfcast_run(&out, "fit --archive %s/a t paper", dir);
    CU_ASSERT_NOT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "network=hops: expected routes or none") : NULL);
    free(out);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"torus routes", test_torus_routes},
        {"fat-tree and flat routes", test_fat_tree_and_flat_routes},
        {"a grid's slowest neighbour route", test_grid_latency},
        {"mgbench's levels", test_levels},
        {"SMPI's latency factor", test_smpi_latency_factor},
        {"each direction's slowest route", test_grid_directions},
        {"prediction with the route term", test_prediction_routes},
        {"prediction with the job's process count term", test_prediction_job_np},
        {"the torus campaign with and without the term", test_torus_campaign},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"block network", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
