/*
 * test_run_layout.c — processes per node and oversubscription of a run
 * (gen/ingest/run_layout.h), on a small archive written here: one row per
 * way the rule can decide, each worked out by hand.
 */
#include "gen/ingest/run_layout.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>

static const char *CLUSTERS =
    "cluster,description,nodes,cores_per_node,mem_per_core_gb,interconnect,rate_per_core_hour\n"
    "small,two cores,1,2,1,,1\n"
    "big,four nodes of eight,4,8,1,,1\n";

/* Rows, by hand (processes per node; cores; oversubscribed):
 *   2: ppn 4 on small            -> 4; 2; yes
 *   3: np 16 over nodes 4 on big -> 4; 8; no
 *   4: np 2, no ppn/nodes, small (one node) -> 2; 2; no (not more)
 *   5: np 3, no ppn/nodes, small  -> 3; 2; yes
 *   6: np 16, no ppn/nodes, big (four nodes): unknown -> no
 *   7: np 2 on small, its note says "Oversubscribed" -> 2; 2; yes (the note) */
static const char *RUNS =
    "cluster,code,np,nodes,ppn,time_s,note\n"
    "small,c,4,,4,1,\n"
    "big,c,16,4,,1,\n"
    "small,c,2,,,1,\n"
    "small,c,3,,,1,\n"
    "big,c,16,,,1,\n"
    "small,c,2,,,1,Oversubscribed by a co-runner\n";

static void test_rule(void)
{
    char dir[256];
    CU_ASSERT_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_FATAL(testutil_write_archive(dir, CLUSTERS, "c1", NULL, RUNS));
    archive a;
    diag_list diags;
    diag_init(&diags);
    CU_ASSERT_TRUE(archive_load(dir, &a, &diags));
    const campaign *c = archive_campaign(&a, "c1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL_FATAL(c->runs.nrows, 6);

    const double ppn[] = {4, 4, 2, 3, NAN, 2};
    const double cores[] = {2, 8, 2, 2, 8, 2};
    const bool over[] = {true, false, false, true, false, true};
    for (size_t r = 0; r < 6; r++) {
        double p, k;
        CU_ASSERT_EQUAL(run_oversubscribed(&a, c, r, &p, &k), over[r]);
        CU_ASSERT_TRUE(isnan(ppn[r]) ? isnan(p) : p == ppn[r]);
        CU_ASSERT_TRUE(isnan(cores[r]) ? isnan(k) : k == cores[r]);
        CU_ASSERT_TRUE(isnan(ppn[r]) ? isnan(run_processes_per_node(&a, c, r))
                                     : run_processes_per_node(&a, c, r) == ppn[r]);
    }
    /* Without the archive a one-node cluster is not known, nor any cores. */
    CU_ASSERT_TRUE(isnan(run_processes_per_node(NULL, c, 3)));
    CU_ASSERT_FALSE(run_oversubscribed(NULL, c, 0, NULL, NULL));
    archive_free(&a);
    diag_free(&diags);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"processes per node and oversubscription", test_rule},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"run_layout", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
