/*
 * test_pair_link.c — the link rule in one place (gen/ingest/pair_link.h):
 * measured by ping-pong in the first given campaign with rows for the
 * pair, else clusters.csv's nominal path; a rule that asks for one source;
 * both sources reported whatever is chosen. The expected numbers are
 * worked out by hand from the rows below, not by the code's formulas.
 */
#include "gen/ingest/pair_link.h"
#include "tests/testutil.h"
#include "tests/testutil_archive.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* X and Y have links (100 us each, 0.0125 and 0.02 GB/s); W has none. */
static const char CLUSTERS[] = "cluster,mem_per_core_gb,rate_per_core_hour,link_bw_gbs,link_lat_us\n"
                               "X,1,1,0.0125,100\nY,1,2,0.02,100\nW,1,1,,\n";

static const char HEADER[] = "cluster,code,np,time_s,rep,kind,cluster_b,bytes,link_lat_us,"
                             "link_bw_gbs\n";

static char dir[256];

/* Campaign "a" has a run and no ping-pong; "b" two ping-pong rows between
 * X and Y, one each way: 100 and 300 us, 0.01 and 0.04 GB/s. */
static void load(archive *a)
{
    char runs_a[256], runs_b[512];
    snprintf(runs_a, sizeof runs_a, "%sX,mg,1,1.5,1,,,,,\n", HEADER);
    snprintf(runs_b, sizeof runs_b, "%sX,mg,1,1.5,1,,,,,\n"
                                    "X,mgbench,2,,1,pingpong,Y,16400,100,0.01\n"
                                    "Y,mgbench,2,,2,pingpong,X,16400,300,0.04\n", HEADER);
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, CLUSTERS, "a", NULL, runs_a));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, CLUSTERS, "b", NULL, runs_b));
    testutil_load_archive(dir, a);
    CU_ASSERT_EQUAL_FATAL(a->ncampaigns, 2);
}

static bool near(double got, double want)
{
    return testutil_rel_diff(got, want) <= 1e-12;
}

/* Measured: mean latency 200 us; bandwidth the inverse of the mean cost
 * per byte, 2 / (1/0.01 + 1/0.04) GB/s = 16 MB/s. Nominal: 100 + 100 us,
 * the smaller bandwidth 12.5 MB/s. */
static void test_rule(void)
{
    archive a;
    load(&a);
    const cluster_info *x = archive_cluster(&a, "X"), *y = archive_cluster(&a, "Y");
    const campaign *ca = archive_campaign(&a, "a"), *cb = archive_campaign(&a, "b");
    CU_ASSERT_TRUE_FATAL(ca + 1 == cb); /* sorted by name: a then b */
    pair_link l;

    CU_ASSERT_TRUE(archive_pair_link(ca, 2, x, y, "X", "Y", PAIR_LINK_AUTO, &l));
    CU_ASSERT_EQUAL(l.status, PAIR_LINK_CHOSEN_MEASURED);
    CU_ASSERT_PTR_EQUAL(l.measured_in, cb);
    CU_ASSERT_EQUAL(l.measured.rows, 2);
    CU_ASSERT_TRUE(near(l.latency_s, 200e-6) && near(l.bw_bytes_s, 16e6));
    CU_ASSERT_TRUE(l.has_nominal && near(l.nominal_latency_s, 200e-6) &&
                   near(l.nominal_bw_bytes_s, 12.5e6));

    /* The pair in the other order finds the same rows. */
    CU_ASSERT_TRUE(archive_pair_link(ca, 2, y, x, "Y", "X", PAIR_LINK_AUTO, &l));
    CU_ASSERT_TRUE(near(l.bw_bytes_s, 16e6));

    /* Only campaign a: nothing measured, so the nominal path. */
    CU_ASSERT_TRUE(archive_pair_link(ca, 1, x, y, "X", "Y", PAIR_LINK_AUTO, &l));
    CU_ASSERT_EQUAL(l.status, PAIR_LINK_CHOSEN_NOMINAL);
    CU_ASSERT_FALSE(l.has_measured);
    CU_ASSERT_TRUE(near(l.latency_s, 200e-6) && near(l.bw_bytes_s, 12.5e6));

    /* A rule asking for one source. */
    CU_ASSERT_FALSE(archive_pair_link(ca, 1, x, y, "X", "Y", PAIR_LINK_MEASURED, &l));
    CU_ASSERT_EQUAL(l.status, PAIR_LINK_NO_PINGPONG);
    CU_ASSERT_TRUE(isnan(l.bw_bytes_s));
    CU_ASSERT_PTR_NOT_NULL(strstr(pair_link_missing_text(l.status), "no ping-pong row"));
    CU_ASSERT_TRUE(archive_pair_link(ca, 2, x, y, "X", "Y", PAIR_LINK_NOMINAL, &l));
    CU_ASSERT_EQUAL(l.status, PAIR_LINK_CHOSEN_NOMINAL);
    CU_ASSERT_TRUE(l.has_measured); /* reported even when not chosen */
    CU_ASSERT_TRUE(near(l.bw_bytes_s, 12.5e6));

    /* W has no link columns: no nominal path. */
    const cluster_info *w = archive_cluster(&a, "W");
    CU_ASSERT_FALSE(archive_pair_link(ca, 2, x, w, "X", "W", PAIR_LINK_AUTO, &l));
    CU_ASSERT_EQUAL(l.status, PAIR_LINK_NO_NOMINAL);
    CU_ASSERT_STRING_EQUAL(pair_link_missing_text(PAIR_LINK_CHOSEN_NOMINAL), "");
    archive_free(&a);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"measured, else nominal; rules; both sources", test_rule},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"pair link", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
