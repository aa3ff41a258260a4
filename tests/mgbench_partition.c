/*
 * mgbench_partition.c — every partition computes the same solution as one
 * process: strips 1, 2, 4, 6 x 1, uneven strips (--split), blocks 2x2, 3x2
 * and 1x2 (oversubscribed on small machines), the staged and fused
 * kernels, and the sequential mode
 * against the per-process problem solved directly. Compared through
 * --dump files; red-black Gauss-Seidel of one colour is order-independent,
 * so the solutions must agree to the last bit (checked to 1e-14).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/mgbench_testlib.h"

/* The same hierarchy for every partition: 192x128 intervals, 5 levels. */
static const char *PROBLEM = "--na 192 --nb 128 --levels 5 --cycles 6";

static char tmp[256];

/* Runs mgbench and reads back its dump; returns the values (caller frees)
 * and their count in *n, or NULL. */
static double *solve(int np, const char *args, const char *name, long *n)
{
    char path[512], cmd[2048], *out = NULL;
    snprintf(path, sizeof path, "%s/%s.dump", tmp, name);
    snprintf(cmd, sizeof cmd, "%s --dump %s", args, path);
    int rc = mgbt_mgbench_run(np, cmd, &out);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    free(out);
    size_t len;
    char *text = mgbt_read_file(path, &len);
    if (!text)
        return NULL;
    char *nl = memchr(text, '\n', len);
    long na, nb;
    double *values = NULL;
    if (nl && sscanf(text, "mgbench-dump %ld %ld", &na, &nb) == 2) {
        size_t bytes = len - (size_t)(nl + 1 - text);
        *n = (long)(bytes / sizeof(double));
        if (*n == (na + 1) * (nb + 1) && (values = malloc(bytes)))
            memcpy(values, nl + 1, bytes);
    }
    free(text);
    return values;
}

static double max_diff(const double *a, const double *b, long n)
{
    double d = 0;
    for (long k = 0; k < n; k++)
        d = fmax(d, fabs(a[k] - b[k]));
    return d;
}

static void compare_with_one_process(int np, const char *partition, const char *name)
{
    char args[512];
    long n1 = 0, n = 0;
    snprintf(args, sizeof args, "%s", PROBLEM);
    double *one = solve(1, args, "one", &n1);
    snprintf(args, sizeof args, "%s %s", PROBLEM, partition);
    double *many = solve(np, args, name, &n);
    CU_ASSERT_FATAL(one != NULL && many != NULL);
    CU_ASSERT_EQUAL_FATAL(n, n1);
    double umax = 0;
    for (long k = 0; k < n; k++)
        umax = fmax(umax, fabs(one[k]));
    CU_ASSERT(umax > 0.9); /* the sine solution peaks at 1 */
    CU_ASSERT(max_diff(one, many, n) <= 1e-14 * umax);
    free(one);
    free(many);
}

static void test_strip_2(void) { compare_with_one_process(2, "", "s2"); }
static void test_strip_4(void) { compare_with_one_process(4, "--partition strip", "s4"); }
static void test_strip_6(void) { compare_with_one_process(6, "", "s6"); }
static void test_strip_4_staged(void) { compare_with_one_process(4, "--kernel staged", "s4s"); }
/* Uneven strips (--split NPA:ROWS_A): 192 rows as 32 + 80 + 80, as
 * 16 + 16 + 16 + 144 (both kernels), and as 128 + 32 + 32. */
static void test_split_1_32(void) { compare_with_one_process(3, "--split 1:32", "u1"); }
static void test_split_3_48(void) { compare_with_one_process(4, "--split 3:48", "u3"); }
static void test_split_3_48_staged(void)
{
    compare_with_one_process(4, "--split 3:48 --kernel staged", "u3s");
}
static void test_split_1_128(void) { compare_with_one_process(3, "--split 1:128", "u128"); }
static void test_block_2x2(void) { compare_with_one_process(4, "--partition block --grid 2x2", "b22"); }
static void test_block_3x2(void) { compare_with_one_process(6, "--partition block --grid 3x2", "b32"); }
static void test_block_1x2(void) { compare_with_one_process(2, "--partition block --grid 1x2", "b12"); }

/* To a tolerance, the default hierarchies of 1 process and of 4 strips
 * (which differ in depth) agree to the tolerance's accuracy, and both the
 * strip and block runs of the acceptance commands converge. */
static void test_converged_partitions_agree(void)
{
    long n1 = 0, n4 = 0, nb = 0;
    const char *p = "--na 256 --nb 256 --tol 1e-10";
    double *one = solve(1, p, "c1", &n1);
    double *four = solve(4, p, "c4", &n4);
    char blocks[256];
    snprintf(blocks, sizeof blocks, "%s --partition block --grid 2x2", p);
    double *b22 = solve(4, blocks, "cb", &nb);
    CU_ASSERT_FATAL(one && four && b22 && n1 == n4 && n1 == nb);
    CU_ASSERT(max_diff(one, four, n1) < 1e-9);
    CU_ASSERT(max_diff(one, b22, n1) < 1e-9);
    free(one);
    free(four);
    free(b22);
}

/* --seq-of 4x1 on 192x128 solves exactly the 48x128 problem. */
static void test_sequential_mode_is_per_process_mesh(void)
{
    long n1 = 0, n2 = 0;
    double *seq = solve(1, "--seq-of 4x1 --na 192 --nb 128 --cycles 4", "seq", &n1);
    double *direct = solve(1, "--na 48 --nb 128 --cycles 4", "direct", &n2);
    CU_ASSERT_FATAL(seq && direct);
    CU_ASSERT_EQUAL_FATAL(n1, 49L * 129L);
    CU_ASSERT_EQUAL_FATAL(n2, n1);
    CU_ASSERT(max_diff(seq, direct, n1) == 0.0);
    free(seq);
    free(direct);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (mgbt_temp_dir(tmp, sizeof tmp) != 0)
        return 2;
    static const mgbt_test same[] = {
        {"strip_2x1", test_strip_2},
        {"strip_4x1", test_strip_4},
        {"strip_6x1", test_strip_6},
        {"strip_4x1_staged_kernel", test_strip_4_staged},
        {"split_1_32_of_192", test_split_1_32},
        {"split_3_48_of_192", test_split_3_48},
        {"split_3_48_of_192_staged_kernel", test_split_3_48_staged},
        {"split_1_128_of_192", test_split_1_128},
        {"block_2x2", test_block_2x2},
        {"block_3x2", test_block_3x2},
        {"block_1x2", test_block_1x2},
        {"converged_partitions_agree", test_converged_partitions_agree},
        {"sequential_mode_is_per_process_mesh", test_sequential_mode_is_per_process_mesh},
        {NULL, NULL}};
    static const mgbt_suite suites[] = {{"mgbench partitions", same}, {NULL, NULL}};
    int rc = mgbt_main(argv[0], suites);
    mgbt_remove_dir(tmp);
    return rc;
}
