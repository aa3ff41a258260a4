/*
 * test_meshrun.c — repetitions grouped into configurations and the
 * reference-time lookup (exact mesh, same work, interpolation,
 * extrapolation, scaling), worked by hand.
 */
#include "models/meshrun.h"
#include "tests/testutil.h"

#include <math.h>

/* Sequential runs: 100x10 at 1 MB (2 s, twice: 1.9 and 2.1), 100x20 at
 * 2 MB (3 s), 100x40 at 4 MB (7 s); a 2x1 run; one run known by work only. */
static const mesh_run RUNS[] = {
    {1, 1, 100, 10, 1, 1.9}, {1, 1, 100, 10, 1, 2.1}, {1, 1, 100, 20, 2, 3},
    {1, 1, 100, 40, 4, 7},   {2, 1, 50, 10, 1, 5},    {1, 1, NAN, NAN, 8.04, 20},
    {1, 1, NAN, NAN, 7.96, 22},
};

static void test_grouping(void)
{
    mesh_configs cs;
    CU_ASSERT_TRUE_FATAL(mesh_configs_build(RUNS, 7, 0.01, &cs));
    CU_ASSERT_EQUAL(cs.nconfigs, 5);
    CU_ASSERT_EQUAL(cs.configs[0].reps, 2);
    CU_ASSERT_DOUBLE_EQUAL(cs.configs[0].time_s, 2, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(cs.configs[0].spread_pct, 10, 1e-12); /* (2.1-1.9)/2 */
    /* By work within 1%: 8.04 and 7.96 are one configuration, mean work 8. */
    CU_ASSERT_EQUAL(cs.configs[4].reps, 2);
    CU_ASSERT_DOUBLE_EQUAL(cs.configs[4].work_mb, 8, 1e-12);
    CU_ASSERT_EQUAL(cs.config_of[6], 4);
    /* Memory per point over the configurations with a mesh: works 1, 2, 4,
     * 1 MB on 1000, 2000, 4000, 500 points; sum(w p) / sum(p^2). */
    double wp = 1 * 1000 + 2 * 2000 + 4 * 4000 + 1 * 500;
    double pp = 1000.0 * 1000 + 2000.0 * 2000 + 4000.0 * 4000 + 500.0 * 500;
    CU_ASSERT_DOUBLE_EQUAL(mesh_mb_per_point(&cs), wp / pp, 1e-18);
    mesh_configs_free(&cs);
    mesh_run bad = {1, 1, 1, 1, 1, 0};
    CU_ASSERT_FALSE(mesh_configs_build(&bad, 1, 0.01, &cs));
}

static void test_lookup(void)
{
    mesh_configs cs;
    mesh_lookup l;
    CU_ASSERT_TRUE_FATAL(mesh_configs_build(RUNS, 5, 0.01, &cs));
    CU_ASSERT_EQUAL(mesh_lookup_time(&cs, 1, 1, 100, 20, NAN, NAN, true, &l), MESH_EXACT);
    CU_ASSERT_DOUBLE_EQUAL(l.time_s, 3, 0);
    CU_ASSERT_DOUBLE_EQUAL(l.work_mb, 2, 0);
    /* 200x10 has the work of 100x20 (2 MB): same work, different mesh. */
    CU_ASSERT_EQUAL(mesh_lookup_time(&cs, 1, 1, 200, 10, 2, NAN, true, &l), MESH_SAME_WORK);
    CU_ASSERT_DOUBLE_EQUAL(l.time_s, 3, 0);
    /* 3 MB: halfway between 2 MB (3 s) and 4 MB (7 s): 5 s. */
    CU_ASSERT_EQUAL(mesh_lookup_time(&cs, 1, 1, 100, 30, 3, NAN, true, &l), MESH_INTERPOLATED);
    CU_ASSERT_DOUBLE_EQUAL(l.time_s, 5, 1e-12);
    CU_ASSERT_EQUAL(mesh_lookup_time(&cs, 1, 1, 100, 30, 3, NAN, false, &l), MESH_NONE);
    /* Work from the memory per point when not given: 0.001 MB x 3000 points = 3 MB. */
    CU_ASSERT_EQUAL(mesh_lookup_time(&cs, 1, 1, 100, 30, NAN, 0.001, true, &l), MESH_INTERPOLATED);
    CU_ASSERT_DOUBLE_EQUAL(l.time_s, 5, 1e-12);
    /* 6 MB: beyond 4 MB, on the line through 2 and 4 MB: 3 + 2*(6-2) = 11 s. */
    CU_ASSERT_EQUAL(mesh_lookup_time(&cs, 1, 1, 100, 60, 6, NAN, true, &l), MESH_EXTRAPOLATED);
    CU_ASSERT_DOUBLE_EQUAL(l.time_s, 11, 1e-12);
    /* 0.1 MB: the line through 1 and 2 MB gives 2 - 0.9 = 1.1 s. */
    CU_ASSERT_EQUAL(mesh_lookup_time(&cs, 1, 1, 100, 1, 0.1, NAN, true, &l), MESH_EXTRAPOLATED);
    CU_ASSERT_DOUBLE_EQUAL(l.time_s, 1.1, 1e-12);
    /* Far below, the line would go negative: scaled from the nearest run. */
    mesh_run steep[] = {{1, 1, 1, 10, 10, 1}, {1, 1, 1, 20, 20, 11}};
    mesh_configs st;
    CU_ASSERT_TRUE_FATAL(mesh_configs_build(steep, 2, 0.01, &st));
    CU_ASSERT_EQUAL(mesh_lookup_time(&st, 1, 1, 1, 5, 5, NAN, true, &l), MESH_SCALED);
    CU_ASSERT_DOUBLE_EQUAL(l.time_s, 0.5, 1e-12);
    mesh_configs_free(&st);
    /* The 2x1 grid has one configuration: scaled in proportion to work. */
    CU_ASSERT_EQUAL(mesh_lookup_time(&cs, 2, 1, 50, 20, 2, NAN, true, &l), MESH_SCALED);
    CU_ASSERT_DOUBLE_EQUAL(l.time_s, 10, 1e-12);
    /* No configuration on a grid, or no work to go by. */
    CU_ASSERT_EQUAL(mesh_lookup_time(&cs, 4, 1, 50, 20, 2, NAN, true, &l), MESH_NONE);
    CU_ASSERT_EQUAL(mesh_lookup_time(&cs, 1, 1, 100, 30, NAN, NAN, true, &l), MESH_NONE);
    CU_ASSERT_TRUE(isnan(l.time_s));
    mesh_configs_free(&cs);
}

/* A split's two sides in words: one kind once, two kinds each named. */
static void test_pair_text(void)
{
    char buf[160];
    mesh_match_pair_text(MESH_EXTRAPOLATED, MESH_EXTRAPOLATED, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "extrapolated in work on both sides");
    mesh_match_pair_text(MESH_EXACT, MESH_INTERPOLATED, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "exact per-process mesh on A, interpolated in work on B");
}

int main(void)
{
    static const testutil_test tests[] = {
        {"repetitions grouped", test_grouping},
        {"reference-time lookup", test_lookup},
        {"a split's two matches in words", test_pair_text},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"meshrun", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
