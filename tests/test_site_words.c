/*
 * test_site_words.c — a configuration in words (site_columns_words,
 * gen/site/site_columns.h) for each kind of campaign row, the expected
 * text written by hand from the rule in the header.
 */
#include "gen/site/site_columns.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <string.h>

static const char *CLUSTERS =
    "cluster,description,nodes,cores_per_node,mem_per_core_gb,interconnect,rate_per_core_hour\n"
    "dev,one node,1,16,1,,1\n";

/* Rows: a block run, a strip run, a sequential run, an NPB-like run with
 * P = np and a class, a Linpack-like grid, a run on two nodes, a label
 * with an odd number; the sequential run stands for a 32-process strip's
 * per-process mesh (seq_of_np). */
static const char *RUNS =
    "cluster,code,np,npa,npb,na,nb,ppn,nodes,work_mb,P,Q,N,tag_class,alpha,seq_of_np,time_s\n"
    "dev,c,16,4,4,4096,4096,16,,32.2197,,,,,,,1\n"
    "dev,c,8,8,,2048,,,,6.14442,,,,,,,1\n"
    "dev,c,1,1,,,,1,,192.78,,,,,,32,1\n"
    "dev,c,12,,,,,,,,12,,1073741824,B,,,1\n"
    "dev,c,16,,,,,,,,4,4,6000,,,,1\n"
    "dev,c,32,,,,8192,16,2,,,,,,0.123456,,1\n";

static const char *const WANT[] = {
    "4\xC3\x97" "4 grid, 4096\xC2\xB2 mesh, 16 processes, 32.2 MB per process on dev",
    "8\xC3\x97" "1 strip, 2048 rows, 8 processes, 6.14 MB per process on dev",
    "1 process, the per-process mesh of 32 processes, 193 MB per process on dev",
    "12 processes, N=1073741824, class B on dev",
    "4\xC3\x97" "4 process grid, 16 processes, N=6000 on dev",
    "rows of 8192, 32 processes, 16 per node, 2 nodes, alpha=0.1235 on dev",
};

static void test_words(void)
{
    char dir[256];
    CU_ASSERT_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_FATAL(testutil_write_archive(dir, CLUSTERS, "c1", NULL, RUNS));
    archive a;
    diag_list diags;
    diag_init(&diags);
    CU_ASSERT_TRUE(archive_load(dir, &a, &diags));
    diag_print(&diags, stderr);
    const campaign *c = archive_campaign(&a, "c1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    size_t cols[32], n = 0;
    for (size_t k = 0; k < c->runs.ncols && n < 32; k++)
        if (strcmp(c->runs.cols[k].name, "time_s") != 0 && strcmp(c->runs.cols[k].name, "code") != 0)
            cols[n++] = k;
    for (size_t r = 0; r < sizeof WANT / sizeof WANT[0]; r++) {
        rbuf out;
        rbuf_init(&out);
        site_columns_words(c, cols, n, r, -1, SITE_WORDS_CLUSTER | SITE_WORDS_PROCESSES, &out);
        if (strcmp(rbuf_str(&out), WANT[r]) != 0)
            fprintf(stderr, "\nrow %zu: got \"%s\"\n        want \"%s\"\n", r, rbuf_str(&out),
                    WANT[r]);
        CU_ASSERT_STRING_EQUAL(rbuf_str(&out), WANT[r]);
        rbuf_free(&out);
    }
    /* Without processes and cluster: the problem alone. */
    rbuf out;
    rbuf_init(&out);
    site_columns_words(c, cols, n, 0, -1, 0, &out);
    CU_ASSERT_STRING_EQUAL(rbuf_str(&out), "4096\xC2\xB2 mesh, 32.2 MB per process");
    rbuf_free(&out);
    archive_free(&a);
    diag_free(&diags);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"configurations in words", test_words},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"site words", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
