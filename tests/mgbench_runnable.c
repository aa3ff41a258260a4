/*
 * mgbench_runnable.c — advise's rules on which splits mgbench can run
 * (gen/advice/runnable.h) and the multi-cluster model's count of mgbench's
 * levels (models/multicluster.h, multicluster_levels) against mgbench
 * itself: for every split of a sweep, mgb_config_levels (mgbench/config.c,
 * the function that refuses a run) must accept exactly the splits
 * runnable_split_why calls runnable (with quantum 1), and for those give
 * the same number of levels. The sweep reaches every kind of refusal:
 * odd rows, rows below 2, and hierarchies too shallow for the coarsest
 * direct solve.
 */
#include <CUnit/Basic.h>
#include <stdio.h>

#include "gen/advice/runnable.h"
#include "mgbench/config.h"
#include "models/multicluster.h"
#include "tests/mgbench_testlib.h"

static mgb_config split_config(int np_a, int np_b, long rows_a, long rows_b, long nb)
{
    mgb_config c = {.na = np_a * rows_a + np_b * rows_b, .nb = nb, .npa = np_a + np_b,
                    .npb = 1, .pre = 2, .post = 2, .max_levels = 0,
                    .kernel = MGB_KERNEL_AUTO, .problem = MGB_PROBLEM_SINE,
                    .split_np = np_a, .split_rows = np_a * rows_a};
    return c;
}

static void test_rules_match_mgbench(void)
{
    static const long nbs[] = {16, 256, 2048, 4096};
    long agree = 0, disagree = 0, kinds[RUNNABLE_KINDS] = {0};
    for (size_t k = 0; k < sizeof nbs / sizeof nbs[0]; k++)
        for (int np_a = 1; np_a <= 4; np_a++)
            for (int np_b = 1; np_b <= 4; np_b++)
                for (long ra = 1; ra <= 72; ra++)
                    for (long rb = 1; rb <= 72; rb++) {
                        mgb_config c = split_config(np_a, np_b, ra, rb, nbs[k]);
                        char err[256];
                        int levels = 0;
                        bool mgbench_runs = mgb_config_levels(&c, &levels, err, sizeof err) == 0;
                        double np[2] = {np_a, np_b}, rows[2] = {(double)ra, (double)rb};
                        runnable_why why = runnable_split_why(np, rows, (double)c.na,
                                                              (double)nbs[k], 1);
                        kinds[why]++;
                        bool same = mgbench_runs == (why == RUNNABLE_YES) &&
                                    (!mgbench_runs ||
                                     multicluster_levels(np, rows, (double)nbs[k]) == levels);
                        if (same) {
                            agree++;
                        } else if (disagree++ < 5) {
                            printf("\n  %d:%ld + %d:%ld, nb %ld: mgbench %s (%d levels, %s), "
                                   "runnable_split_why %d, levels %d", np_a, ra, np_b, rb,
                                   nbs[k], mgbench_runs ? "runs" : "refuses", levels,
                                   mgbench_runs ? "" : err, (int)why,
                                   multicluster_levels(np, rows, (double)nbs[k]));
                        }
                    }
    CU_ASSERT_EQUAL(disagree, 0);
    CU_ASSERT(agree > 0);
    /* The sweep meets each of mgbench's kinds of refusal, and runs. */
    CU_ASSERT(kinds[RUNNABLE_YES] > 0);
    CU_ASSERT(kinds[RUNNABLE_ODD] > 0);
    CU_ASSERT(kinds[RUNNABLE_COARSE_TOO_BIG] > 0);
    printf("\n  %ld splits agree (runnable %ld, odd %ld, coarsest too large %ld)\n", agree,
           kinds[RUNNABLE_YES], kinds[RUNNABLE_ODD], kinds[RUNNABLE_COARSE_TOO_BIG]);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const mgbt_test tests[] = {
        {"advise's runnable splits are mgbench's", test_rules_match_mgbench},
        {NULL, NULL}};
    static const mgbt_suite suites[] = {{"mgbench runnable", tests}, {NULL, NULL}};
    return mgbt_main(argv[0], suites);
}
