/*
 * test_multicluster.c — T = max(TA, TB) for a job split by rows across two
 * clusters (seed 000, section V.B), each side a strip model built from an
 * exact construction, and the balancing row split checked against a
 * brute-force search over the closed form.
 */
#include "models/multicluster.h"
#include "tests/testutil.h"

#include <math.h>
#include <string.h>

static const double MBPP = 32.0 / 1048576.0;
static const double N = 4096; /* row length (message length) */

/* One cluster: Tcomp = k*work + t0 (linear, so interpolation is exact),
 * Tcomm = c + d log2 np + g*work. */
typedef struct {
    double k, t0, c, d, g;
} cluster_law;

static const cluster_law FAST = {0.02, 0.05, 1.0, 0.5, 0.001};
static const cluster_law SLOW = {0.04, 0.05, 0.5, 0.25, 0.002};

static double work_of(double rows)
{
    return MBPP * N * rows;
}

static double side_time(const cluster_law *l, double np, double rows)
{
    double w = work_of(rows);
    return l->k * w + l->t0 + l->c + l->d * log2(np) + l->g * w;
}

/* Fit a strip model from the construction: sequential runs at a range of
 * rows, parallel 1 x 4 and 1 x 8 at the same per-process meshes. */
static void build(const cluster_law *l, strip_model *m)
{
    mesh_run runs[32];
    size_t n = 0;
    const double rows[] = {16, 64, 256, 1024};
    for (size_t i = 0; i < 4; i++) {
        double w = work_of(rows[i]);
        runs[n++] = (mesh_run){1, 1, rows[i], N, w, l->k * w + l->t0};
        for (double np0 = 4; np0 <= 8; np0 *= 2)
            runs[n++] = (mesh_run){np0, 1, rows[i], N, w, side_time(l, np0, rows[i])};
    }
    strip_options opt = {.work_tol = 0.01, .msg_len = N};
    CU_ASSERT_EQUAL_FATAL(strip_fit(runs, n, &opt, m, NULL), STRIP_OK);
}

static void check_rel(double got, double want, double tol)
{
    if (testutil_rel_diff(got, want) > tol)
        fprintf(stderr, "got %.15g want %.15g\n", got, want);
    CU_ASSERT_TRUE(testutil_rel_diff(got, want) <= tol);
}

static void test_predict_is_max_of_sides(void)
{
    strip_model a, b;
    build(&FAST, &a);
    build(&SLOW, &b);
    multicluster_side sides[2] = {{&a, 16, NAN}, {&b, 8, NAN}};
    double rows[2];
    multicluster_equal_rows(sides, 4096, rows);
    CU_ASSERT_DOUBLE_EQUAL(rows[0], 128, 0);
    CU_ASSERT_DOUBLE_EQUAL(rows[1], 256, 0);
    multicluster_prediction p;
    CU_ASSERT_TRUE_FATAL(multicluster_predict(sides, N, rows, NULL, &p));
    double ta = side_time(&FAST, 16, 128), tb = side_time(&SLOW, 8, 256);
    check_rel(p.side[0].time_s, ta, 1e-9);
    check_rel(p.side[1].time_s, tb, 1e-9);
    check_rel(p.time_s, fmax(ta, tb), 1e-9);
    CU_ASSERT_EQUAL(p.dominant, tb > ta ? 1 : 0);
    check_rel(p.mem_mb[0], work_of(128), 1e-12);
    check_rel(p.mem_mb[1], work_of(256), 1e-12);
    /* 128 and 256 rows are measured shapes? 256 is; 128 is interpolated. */
    CU_ASSERT_EQUAL(p.side[1].tcomp_match, MESH_EXACT);
    CU_ASSERT_EQUAL(p.side[0].tcomp_match, MESH_INTERPOLATED);
    strip_model_free(&a);
    strip_model_free(&b);
}

/* The balanced split equals the brute-force minimum of the closed form and
 * gives the faster cluster more rows. */
static void test_balance_matches_brute_force(void)
{
    strip_model a, b;
    build(&FAST, &a);
    build(&SLOW, &b);
    const double total = 8192, npa = 8, npb = 8;
    multicluster_side sides[2] = {{&a, npa, NAN}, {&b, npb, NAN}};
    multicluster_balance_options opt = {1, {INFINITY, INFINITY}, NULL};
    multicluster_prediction p;
    CU_ASSERT_TRUE_FATAL(multicluster_balance(sides, N, total, &opt, &p));
    double best = INFINITY, best_ra = 0;
    for (double ra = 1; npa * ra < total; ra++) {
        double rb = (total - npa * ra) / npb;
        double t = fmax(side_time(&FAST, npa, ra), side_time(&SLOW, npb, rb));
        if (t < best) {
            best = t;
            best_ra = ra;
        }
    }
    CU_ASSERT_DOUBLE_EQUAL(p.rows[0], best_ra, 0);
    check_rel(p.time_s, best, 1e-9);
    CU_ASSERT_TRUE(p.rows[0] > p.rows[1]);
    CU_ASSERT_FALSE(p.uneven);
    CU_ASSERT_DOUBLE_EQUAL(npa * p.rows[0] + npb * p.rows[1], total, 1e-9);
    /* Balanced: the two sides within one row's worth of time. */
    CU_ASSERT_TRUE(fabs(p.side[0].time_s - p.side[1].time_s) <
                   side_time(&SLOW, npb, p.rows[1] + 1) - side_time(&SLOW, npb, p.rows[1]) +
                       side_time(&FAST, npa, p.rows[0] + 1) - side_time(&FAST, npa, p.rows[0]));
    /* Better than the equal split. */
    double rows[2];
    multicluster_equal_rows(sides, total, rows);
    multicluster_prediction eq;
    CU_ASSERT_TRUE_FATAL(multicluster_predict(sides, N, rows, NULL, &eq));
    CU_ASSERT_TRUE(p.time_s < eq.time_s);
    strip_model_free(&a);
    strip_model_free(&b);
}

/* The coarse-then-fine search on a large mesh finds the same optimum. */
static void test_balance_large_search(void)
{
    strip_model a, b;
    build(&FAST, &a);
    build(&SLOW, &b);
    const double total = 1 << 20;
    multicluster_side sides[2] = {{&a, 2, NAN}, {&b, 2, NAN}};
    multicluster_balance_options opt = {1, {INFINITY, INFINITY}, NULL};
    multicluster_prediction p;
    CU_ASSERT_TRUE_FATAL(multicluster_balance(sides, N, total, &opt, &p));
    double best = INFINITY;
    for (double ra = 1; 2 * ra < total; ra++)
        best = fmin(best, fmax(side_time(&FAST, 2, ra), side_time(&SLOW, 2, (total - 2 * ra) / 2)));
    check_rel(p.time_s, best, 1e-9);
    strip_model_free(&a);
    strip_model_free(&b);
}

static void test_balance_constraints(void)
{
    strip_model a, b;
    build(&FAST, &a);
    build(&SLOW, &b);
    multicluster_side sides[2] = {{&a, 8, NAN}, {&b, 8, NAN}};
    multicluster_prediction p;
    /* Rows in multiples of 16. */
    multicluster_balance_options q16 = {16, {INFINITY, INFINITY}, NULL};
    CU_ASSERT_TRUE_FATAL(multicluster_balance(sides, N, 8192, &q16, &p));
    CU_ASSERT_DOUBLE_EQUAL(fmod(p.rows[0], 16), 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(fmod(p.rows[1], 16), 0, 0);
    /* Memory holds at most 400 rows per process on A. */
    multicluster_balance_options cap = {1, {400, INFINITY}, NULL};
    CU_ASSERT_TRUE_FATAL(multicluster_balance(sides, N, 8192, &cap, &p));
    CU_ASSERT_DOUBLE_EQUAL(p.rows[0], 400, 0);
    /* 8*ra + 8*rb = 8196 has no whole solution: uneven, said so. */
    multicluster_balance_options one = {1, {INFINITY, INFINITY}, NULL};
    CU_ASSERT_TRUE_FATAL(multicluster_balance(sides, N, 8196, &one, &p));
    CU_ASSERT_TRUE(p.uneven);
    /* Nothing fits: both capped too low. */
    multicluster_balance_options tiny = {1, {10, 10}, NULL};
    CU_ASSERT_FALSE(multicluster_balance(sides, N, 8192, &tiny, &p));
    /* A missing side model. */
    multicluster_side missing[2] = {{&a, 8, NAN}, {NULL, 8, NAN}};
    double rows[2] = {512, 512};
    CU_ASSERT_FALSE(multicluster_predict(missing, N, rows, NULL, &p));
    CU_ASSERT_FALSE(multicluster_balance(missing, N, 8192, &one, &p));
    strip_model_free(&a);
    strip_model_free(&b);
}

/* mgbench's messages across the link, counted by hand from its V(2,2)
 * cycle (mgbench/solver.c build_passes, vcycle; pass.c run_fused): on
 * every level but the coarsest, pre-smoothing 4 row exchanges (the first
 * red half-sweep's ghosts are current) + 1 residual row, post-smoothing 4,
 * and 1 more (the norm on level 0, the coarse u's halo on the others):
 * 10, each a row of n/2^l + 2 doubles; plus the allreduce (1 double) and
 * the coarse gather (the larger side's share of the coarsest grid). */
static void test_link_messages_by_hand(void)
{
    multicluster_side tiny[2] = {{NULL, 1, NAN}, {NULL, 1, NAN}};
    multicluster_traffic tr;
    /* 4 + 4 rows of 16: 4 -> 2 -> 1 rows, 16 -> 8 -> 4 columns, 8 -> 4 -> 2
     * mesh rows: 3 levels. Level 0: 10 x 18 doubles, level 1: 10 x 10;
     * coarsest: 1 row x 4 columns a side, 4 doubles, + 1 for the norm. */
    multicluster_traffic_of(tiny, 16, (double[2]){4, 4}, &tr);
    CU_ASSERT_EQUAL(tr.levels, 3);
    CU_ASSERT_DOUBLE_EQUAL(tr.messages, 22, 0);
    CU_ASSERT_DOUBLE_EQUAL(tr.bytes, 8 * (10 * 18 + 10 * 10 + 4 + 1), 0);
    /* 3 rows on A: odd, no coarsening; the gather moves a side's whole
     * share, 4 rows x 16 on B. */
    multicluster_traffic_of(tiny, 16, (double[2]){3, 4}, &tr);
    CU_ASSERT_EQUAL(tr.levels, 1);
    CU_ASSERT_DOUBLE_EQUAL(tr.messages, 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(tr.bytes, 8 * (4 * 16 + 1), 0);

    /* 8 + 8 processes of 512 rows of 4096 (the FAST and SLOW laws): 512
     * halves 9 times, 4096 -> 8 columns, the mesh 8192 -> 16 rows: 10
     * levels, 9 of them with 10 messages: 92. Rows l = 0..8: 4096 + 2048 +
     * ... + 16 = 8176 values, + 2 ghosts each: 8194; x 10 x 8 bytes =
     * 655520; gather 8 processes x 1 row x 8 = 64 doubles, + 1: 520 bytes.
     * At 12.5 MB/s and 200 us, 10 cycles, full duplex:
     * 10 (92 x 0.0002 + 656040 / 12.5e6) = 10 (0.0184 + 0.0524832) s.
     * The sides at 64 MB of work a process: A's Tcomp 0.02 x 64 + 0.05 =
     * 1.33 s and overhead 1 + 0.5 x 3 + 0.001 x 64 = 2.564 s, TA = 3.894 s;
     * B's 2.61 s and 0.5 + 0.25 x 3 + 0.002 x 64 = 1.378 s, TB = 3.988 s.
     * The boundary processes without the link: 3.894 - 1.282 = 2.612 s and
     * 3.988 - 0.689 = 3.299 s; B's plus the link, 4.007832 s, sets T. */
    strip_model a, b;
    build(&FAST, &a);
    build(&SLOW, &b);
    multicluster_side sides[2] = {{&a, 8, NAN}, {&b, 8, NAN}};
    multicluster_link link = {12.5e6, 200e-6, 10, false};
    multicluster_prediction p, paper;
    CU_ASSERT_TRUE_FATAL(multicluster_predict(sides, N, (double[2]){512, 512}, &link, &p));
    CU_ASSERT_EQUAL(p.traffic.levels, 10);
    CU_ASSERT_DOUBLE_EQUAL(p.traffic.messages, 92, 0);
    CU_ASSERT_DOUBLE_EQUAL(p.traffic.bytes, 656040, 0);
    check_rel(p.link_s, 0.708832, 1e-12);
    check_rel(p.boundary_s[0], 2.612, 1e-9);
    check_rel(p.boundary_s[1], 3.299, 1e-9);
    check_rel(p.time_s, 4.007832, 1e-9);
    CU_ASSERT_TRUE(p.link_bound);
    double sides_max = fmax(side_time(&FAST, 8, 512), side_time(&SLOW, 8, 512));
    check_rel(sides_max, 3.988, 1e-12);
    /* A shared link (SimGrid's): each row but the residual one (a row a
     * level, 8 x (4096 + 2048 + ... + 16 + 9 x 2) = 65552 bytes) shares
     * the bandwidth with its partner the other way: 2 x 656040 - 65552 =
     * 1246528 bytes' time, 10 (0.0184 + 1246528 / 12.5e6) = 1.1812224 s. */
    multicluster_link shared = {12.5e6, 200e-6, 10, true};
    CU_ASSERT_TRUE_FATAL(multicluster_predict(sides, N, (double[2]){512, 512}, &shared, &p));
    CU_ASSERT_DOUBLE_EQUAL(p.traffic.one_way_bytes, 65552, 0);
    check_rel(p.link_s, 1.1812224, 1e-12);
    check_rel(p.time_s, 3.299 + 1.1812224, 1e-9);
    /* A fast link hides behind the sides' own exchanges: max(TA, TB). */
    multicluster_link fast = {12.5e9, 2e-6, 10, false};
    CU_ASSERT_TRUE_FATAL(multicluster_predict(sides, N, (double[2]){512, 512}, &fast, &p));
    check_rel(p.time_s, sides_max, 1e-9);
    CU_ASSERT_FALSE(p.link_bound);
    /* No link, or one of unknown bandwidth: the paper's max(TA, TB). */
    CU_ASSERT_TRUE_FATAL(multicluster_predict(sides, N, (double[2]){512, 512}, NULL, &paper));
    check_rel(paper.time_s, sides_max, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(paper.link_s, 0, 0);
    multicluster_link unknown = {NAN, 200e-6, 10, false};
    CU_ASSERT_TRUE_FATAL(multicluster_predict(sides, N, (double[2]){512, 512}, &unknown, &p));
    CU_ASSERT_DOUBLE_EQUAL(p.time_s, paper.time_s, 0);
    strip_model_free(&a);
    strip_model_free(&b);
}

/* With a slow link the balanced split minimises T with the link
 * (models/multicluster.h): the least over every split of a brute-force
 * pass (each predicted alone).
 * By hand, without the link (rows multiples of 64, 1024 per pair of
 * processes): TA = 2.55 + 0.002625 ra, TB = 1.3 + 0.00525 rb, so 512 / 512
 * gives max(3.894, 3.988) = 3.988 s and 576 / 448 gives 4.062 s: equal.
 * With the link, 576 / 448 has 7 levels instead of 10 (448 = 7 x 64): 30
 * fewer messages a cycle (0.06 s in 10 cycles) but a coarsest grid of 9
 * rows x 64 a process to gather (+0.029 s), less than the 0.074 s it
 * loses on TA: the split stays equal, the slower side no larger (so it
 * stays with the boundary processes' time, the link's pace). */
static void test_balance_with_slow_link(void)
{
    strip_model a, b;
    build(&FAST, &a);
    build(&SLOW, &b);
    const double total = 8192, q = 64;
    multicluster_side sides[2] = {{&a, 8, NAN}, {&b, 8, NAN}};
    multicluster_link link = {12.5e6, 200e-6, 10, false};
    multicluster_balance_options opt = {q, {INFINITY, INFINITY}, &link};
    multicluster_balance_options paper_opt = {q, {INFINITY, INFINITY}, NULL};
    multicluster_prediction p, paper;
    CU_ASSERT_TRUE_FATAL(multicluster_balance(sides, N, total, &opt, &p));
    CU_ASSERT_TRUE_FATAL(multicluster_balance(sides, N, total, &paper_opt, &paper));
    double best = INFINITY, best_ra = 0;
    for (double ra = q; 8 * ra < total; ra += q) {
        multicluster_prediction t;
        CU_ASSERT_TRUE_FATAL(multicluster_predict(sides, N, (double[2]){ra, total / 8 - ra},
                                                  &link, &t));
        if (t.time_s < best) {
            best = t.time_s;
            best_ra = ra;
        }
    }
    CU_ASSERT_DOUBLE_EQUAL(p.rows[0], best_ra, 0);
    check_rel(p.time_s, best, 1e-12);
    CU_ASSERT_TRUE(p.link_s > 0);
    CU_ASSERT_DOUBLE_EQUAL(p.rows[0], 512, 0);      /* as the arithmetic above */
    CU_ASSERT_DOUBLE_EQUAL(paper.rows[0], 512, 0);
    CU_ASSERT_TRUE(p.time_s > paper.time_s);        /* the link costs time */
    printf("\n  slow link: %g / %g rows per process, T %.4g s (link %.3g s, %d levels); "
           "without the link %g / %g\n", p.rows[0], p.rows[1], p.time_s, p.link_s,
           p.traffic.levels, paper.rows[0], paper.rows[1]);
    strip_model_free(&a);
    strip_model_free(&b);
}

/* The own interval from the parts' half-widths, by hand: TA = 1 s, TB =
 * 2 s, their boundary processes 0.9 s and 1.8 s, T_link = 0.5 s, hA =
 * ln 3, hB = ln 1.25, hL = ln 2:
 *   low  = max(1/3, 2/1.25, max(0.9/3, 1.8/1.25) + 0.5/2)
 *        = max(1.6, 1.44 + 0.25) = 1.69
 *   high = max(1*3, 2*1.25, max(0.9*3, 1.8*1.25) + 0.5*2)
 *        = max(3, 2.7 + 1) = 3.7
 * (the faster side A sets the high bound: its wider error can make it the
 * slower one). Without a link time the link's width is not read. */
static void test_interval_by_hand(void)
{
    multicluster_prediction p;
    memset(&p, 0, sizeof p);
    p.side[0].time_s = 1;
    p.side[1].time_s = 2;
    p.boundary_s[0] = 0.9;
    p.boundary_s[1] = 1.8;
    p.link_s = 0.5;
    p.time_s = 2.3;
    multicluster_widths h = {{log(3), log(1.25)}, log(2)};
    double lo, hi;
    CU_ASSERT_TRUE(multicluster_interval(&p, &h, &lo, &hi));
    check_rel(lo, 1.69, 1e-14);
    check_rel(hi, 3.7, 1e-14);
    p.link_s = 0;
    h.link = NAN;
    CU_ASSERT_TRUE(multicluster_interval(&p, &h, &lo, &hi));
    check_rel(lo, 1.6, 1e-14);
    check_rel(hi, 3, 1e-14);
    p.link_s = 0.5; /* a link time with an unknown width: no interval */
    CU_ASSERT_FALSE(multicluster_interval(&p, &h, &lo, &hi));
    CU_ASSERT_TRUE(isnan(lo) && isnan(hi));
    h.link = 0;
    h.side[1] = -1;
    CU_ASSERT_FALSE(multicluster_interval(&p, &h, &lo, &hi));
}

/* A side's distance beyond its strip fit (parallel runs np 4 and 8 at 16
 * to 1024 rows per process), the larger of the two: np 32 at 64 rows is
 * log2(32/8) = 2 doublings, np 64 is 3; np 32 at 4096 rows is 2 either way;
 * np 8 at 8192 rows is log2(8192/1024) = 3; np 4 at 4 rows lies
 * log2(16/4) = 2 below; np 6 at 100 rows is inside: 0. */
static void test_side_distance_by_hand(void)
{
    strip_model m;
    build(&FAST, &m);
    check_rel(multicluster_side_distance(&m, 32, 64), 2, 1e-14);
    check_rel(multicluster_side_distance(&m, 64, 64), 3, 1e-14);
    check_rel(multicluster_side_distance(&m, 32, 4096), 2, 1e-14);
    check_rel(multicluster_side_distance(&m, 8, 8192), 3, 1e-14);
    check_rel(multicluster_side_distance(&m, 4, 4), 2, 1e-14);
    CU_ASSERT_EQUAL(multicluster_side_distance(&m, 6, 100), 0);
    strip_model_free(&m);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"T = max(TA, TB)", test_predict_is_max_of_sides},
        {"balance equals brute force", test_balance_matches_brute_force},
        {"balance on a large mesh", test_balance_large_search},
        {"balance constraints", test_balance_constraints},
        {"link messages by hand", test_link_messages_by_hand},
        {"balance with a slow link", test_balance_with_slow_link},
        {"own interval by hand", test_interval_by_hand},
        {"side distance by hand", test_side_distance_by_hand},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"multicluster", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
