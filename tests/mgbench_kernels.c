/*
 * mgbench_kernels.c — mgbench's serial building blocks: the row kernels on
 * split rows against a plain natural-order implementation, the exactness of
 * the grid transfers on linear/bilinear functions, the banded Cholesky
 * coarsest solver, the level hierarchy and the command line.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mgbench/band.h"
#include "mgbench/config.h"
#include "mgbench/grid.h"
#include "mgbench/kernels.h"
#include "mgbench/options.h"
#include "tests/mgbench_testlib.h"

/* Deterministic pseudo-random numbers in [-1, 1). */
static double next_random(unsigned long *state)
{
    *state = *state * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*state >> 11) / (double)(1UL << 52) - 1.0;
}

/* Natural-order copy of a level array: nat[i * cols + j]. */
static void to_natural(const mgb_level *lv, const double *a, double *nat)
{
    for (long i = 0; i < lv->rows; i++)
        for (long j = 0; j < lv->cols; j++)
            nat[i * lv->cols + j] = mgb_row(lv, (double *)a, i)[mgb_pos(lv, j)];
}

static void fill_random(const mgb_level *lv, double *a, unsigned long *state)
{
    for (long k = 0; k < lv->rows * lv->cols; k++)
        a[k] = next_random(state);
}

/* The geometries the kernels must handle: a whole mesh, and blocks of a
 * partition with odd and even global offsets, at the boundary or inside. */
typedef struct {
    long na, nb;
    int npa, npb, pa, pb;
} geometry;

static const geometry GEOMETRIES[] = {
    {16, 12, 1, 1, 0, 0}, {18, 15, 3, 3, 1, 1}, {18, 15, 3, 3, 2, 2},
    {18, 15, 3, 3, 0, 1}, {12, 21, 2, 3, 1, 0}, {10, 10, 5, 2, 3, 1},
};
enum { NGEOM = sizeof GEOMETRIES / sizeof GEOMETRIES[0] };

static void make_level(mgb_level *lv, const geometry *g)
{
    CU_ASSERT_FATAL(mgb_level_shape(lv, g->na, g->nb, g->npa, g->npb, g->pa, g->pb) == 0);
    CU_ASSERT_FATAL(mgb_level_alloc(lv, 1) == 0);
}

static int colour_of(const mgb_level *lv, long i, long j)
{
    return (int)((lv->ia + i - 1 + lv->ib + j - 1) % 2);
}

static void test_smooth_matches_natural_order(void)
{
    unsigned long state = 7;
    for (int g = 0; g < NGEOM; g++) {
        mgb_level lv;
        make_level(&lv, &GEOMETRIES[g]);
        long cols = lv.cols, n = lv.rows * cols;
        double *u = malloc((size_t)n * sizeof *u), *b = malloc((size_t)n * sizeof *b);
        fill_random(&lv, lv.u, &state);
        fill_random(&lv, lv.b, &state);
        to_natural(&lv, lv.u, u);
        to_natural(&lv, lv.b, b);
        for (int colour = 0; colour < 2; colour++)
            for (long i = lv.r0; i <= lv.r1; i++) {
                mgb_smooth_row(&lv, i, colour);
                for (long j = lv.c0; j <= lv.c1; j++)
                    if (colour_of(&lv, i, j) == colour)
                        u[i * cols + j] = 0.25 * (b[i * cols + j] + u[(i + 1) * cols + j] +
                                                  u[(i - 1) * cols + j] + u[i * cols + j - 1] +
                                                  u[i * cols + j + 1]);
            }
        double *got = malloc((size_t)n * sizeof *got);
        to_natural(&lv, lv.u, got);
        CU_ASSERT(memcmp(got, u, (size_t)n * sizeof *u) == 0); /* bit-identical, ghosts untouched */
        free(got);
        free(u);
        free(b);
        mgb_level_free(&lv);
    }
}

static void test_residual_matches_natural_order(void)
{
    unsigned long state = 11;
    for (int g = 0; g < NGEOM; g++) {
        mgb_level lv;
        make_level(&lv, &GEOMETRIES[g]);
        long cols = lv.cols, n = lv.rows * cols;
        double *u = malloc((size_t)n * sizeof *u), *b = malloc((size_t)n * sizeof *b);
        double *r = calloc((size_t)cols, sizeof *r), *rc = calloc((size_t)cols, sizeof *rc);
        fill_random(&lv, lv.u, &state);
        fill_random(&lv, lv.b, &state);
        to_natural(&lv, lv.u, u);
        to_natural(&lv, lv.b, b);
        for (long i = lv.r0; i <= lv.r1; i++) {
            mgb_residual_row(&lv, i, r);
            memset(rc, 0, (size_t)cols * sizeof *rc);
            mgb_residual_colour_row(&lv, i, 0, rc);
            double sum = 0;
            for (long j = lv.c0; j <= lv.c1; j++) {
                double want = b[i * cols + j] - 4.0 * u[i * cols + j] + u[(i + 1) * cols + j] +
                              u[(i - 1) * cols + j] + u[i * cols + j - 1] + u[i * cols + j + 1];
                long p = mgb_pos(&lv, j);
                CU_ASSERT_EQUAL(r[p], want);
                CU_ASSERT_EQUAL(rc[p], colour_of(&lv, i, j) == 0 ? want : 0.0);
                sum += want * want;
            }
            CU_ASSERT(fabs(mgb_sum_squares_row(&lv, r) - sum) <= 1e-13 * (1 + sum));
        }
        free(u);
        free(b);
        free(r);
        free(rc);
        mgb_level_free(&lv);
    }
}

/* Full weighting reproduces a linear function at the coarse points; the
 * coarse right-hand side carries the factor 4 of the coarse h^2. */
static void test_restriction_exact_on_linear(void)
{
    const geometry fine_geoms[] = {{16, 12, 1, 1, 0, 0}, {24, 16, 3, 2, 1, 1}, {24, 16, 3, 2, 2, 0}};
    for (int g = 0; g < 3; g++) {
        const geometry *fg = &fine_geoms[g];
        mgb_level f, c;
        make_level(&f, fg);
        CU_ASSERT_FATAL(mgb_level_shape(&c, fg->na / 2, fg->nb / 2, fg->npa, fg->npb, fg->pa, fg->pb) == 0);
        CU_ASSERT_FATAL(mgb_level_alloc(&c, 1) == 0);
        for (long i = 0; i < f.rows; i++)
            for (long j = 0; j < f.cols; j++)
                mgb_resid_row(&f, i)[mgb_pos(&f, j)] = 3.0 + 2.0 * (f.ia + i - 1) - 0.5 * (f.ib + j - 1);
        for (long I = c.r0; I <= c.r1; I++) {
            mgb_restrict_row(&f, &c, I);
            for (long J = c.c0; J <= c.c1; J++) {
                double gi = 2.0 * (c.ia + I - 1), gj = 2.0 * (c.ib + J - 1);
                double want = 4.0 * (3.0 + 2.0 * gi - 0.5 * gj);
                CU_ASSERT(fabs(mgb_row(&c, c.b, I)[mgb_pos(&c, J)] - want) <= 1e-12 * fabs(want));
            }
        }
        mgb_level_free(&f);
        mgb_level_free(&c);
    }
}

/* Bilinear interpolation reproduces a bilinear function at the fine points. */
static void test_prolongation_exact_on_bilinear(void)
{
    const geometry fine_geoms[] = {{16, 12, 1, 1, 0, 0}, {24, 16, 3, 2, 1, 1}, {24, 16, 3, 2, 0, 1}};
    for (int g = 0; g < 3; g++) {
        const geometry *fg = &fine_geoms[g];
        mgb_level f, c;
        make_level(&f, fg);
        CU_ASSERT_FATAL(mgb_level_shape(&c, fg->na / 2, fg->nb / 2, fg->npa, fg->npb, fg->pa, fg->pb) == 0);
        CU_ASSERT_FATAL(mgb_level_alloc(&c, 1) == 0);
        for (long i = 0; i < c.rows; i++)
            for (long j = 0; j < c.cols; j++) {
                double x = (double)(c.ia + i - 1), y = (double)(c.ib + j - 1);
                mgb_row(&c, c.u, i)[mgb_pos(&c, j)] = 1.0 + x + 2.0 * y + 0.5 * x * y;
            }
        for (long i = f.r0; i <= f.r1; i++) {
            mgb_correct_row(&f, &c, i);
            for (long j = f.c0; j <= f.c1; j++) {
                double x = (f.ia + i - 1) / 2.0, y = (f.ib + j - 1) / 2.0;
                double want = 1.0 + x + 2.0 * y + 0.5 * x * y;
                CU_ASSERT(fabs(mgb_row(&f, f.u, i)[mgb_pos(&f, j)] - want) <= 1e-12 * fabs(want));
            }
        }
        mgb_level_free(&f);
        mgb_level_free(&c);
    }
}

/* A x computed with the stencil, then solved back. */
static void check_band(long na, long nb)
{
    mgb_band f;
    CU_ASSERT_FATAL(mgb_band_factor(&f, na, nb) == 0);
    CU_ASSERT_EQUAL(f.n, (na - 1) * (nb - 1));
    CU_ASSERT_EQUAL(f.w, (na < nb ? na : nb) - 1);
    unsigned long state = 3;
    double *x = malloc((size_t)f.n * sizeof *x), *rhs = malloc((size_t)f.n * sizeof *rhs);
    for (long k = 0; k < f.n; k++)
        x[k] = next_random(&state);
    for (long gi = 1; gi < na; gi++)
        for (long gj = 1; gj < nb; gj++) {
            long k = mgb_band_index(&f, gi, gj);
            double s = 4.0 * x[k];
            long nbrs[4][2] = {{gi - 1, gj}, {gi + 1, gj}, {gi, gj - 1}, {gi, gj + 1}};
            for (int e = 0; e < 4; e++) {
                long q = mgb_band_index(&f, nbrs[e][0], nbrs[e][1]);
                if (q >= 0)
                    s -= x[q];
            }
            rhs[k] = s;
        }
    mgb_band_solve(&f, rhs);
    double err = 0;
    for (long k = 0; k < f.n; k++)
        err = fmax(err, fabs(rhs[k] - x[k]));
    CU_ASSERT(err < 1e-12);
    CU_ASSERT_EQUAL(mgb_band_index(&f, 0, 1), -1);
    CU_ASSERT_EQUAL(mgb_band_index(&f, 1, nb), -1);
    free(x);
    free(rhs);
    mgb_band_free(&f);
}

static void test_band_cholesky_solves(void)
{
    check_band(7, 5);
    check_band(5, 9);
    check_band(2, 6);
    check_band(16, 16);
}

static mgb_config config(long na, long nb, int npa, int npb)
{
    mgb_config c = {.na = na, .nb = nb, .npa = npa, .npb = npb, .pre = 2, .post = 2,
                    .max_levels = 0, .kernel = MGB_KERNEL_AUTO, .problem = MGB_PROBLEM_SINE};
    return c;
}

static void test_level_hierarchy(void)
{
    char err[256];
    int levels;
    mgb_config c = config(4096, 4096, 1, 1);
    CU_ASSERT(mgb_config_levels(&c, &levels, err, sizeof err) == 0 && levels == 12); /* to 2x2 */
    c = config(1024, 1024, 4, 1); /* 256 rows per process: 256 -> 1 */
    CU_ASSERT(mgb_config_levels(&c, &levels, err, sizeof err) == 0 && levels == 9);
    c = config(192, 128, 6, 1); /* 32 rows per process */
    CU_ASSERT(mgb_config_levels(&c, &levels, err, sizeof err) == 0 && levels == 6);
    c.max_levels = 3;
    CU_ASSERT(mgb_config_levels(&c, &levels, err, sizeof err) == 0 && levels == 3);
    c = config(96, 64, 3, 2); /* 32x32 per process, 96x64 mesh */
    CU_ASSERT(mgb_config_levels(&c, &levels, err, sizeof err) == 0 && levels == 6);
    CU_ASSERT(mgb_config_fused(&c) == 0);
    c = config(96, 64, 3, 1);
    CU_ASSERT(mgb_config_fused(&c) == 1);
}

static void expect_refusal(mgb_config c, const char *fragment)
{
    char err[256] = "";
    int levels;
    CU_ASSERT(mgb_config_levels(&c, &levels, err, sizeof err) == -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, fragment));
}

static void test_configuration_errors(void)
{
    expect_refusal(config(1000, 1024, 3, 1), "na=1000 is not divisible by npa=3");
    expect_refusal(config(1024, 1000, 1, 3), "nb=1000 is not divisible by npb=3");
    expect_refusal(config(1, 16, 1, 1), "at least 2 intervals");
    expect_refusal(config(3002, 3002, 1, 1), "too large for its direct solve");
    mgb_config c = config(64, 64, 2, 2);
    c.kernel = MGB_KERNEL_FUSED;
    expect_refusal(c, "fused kernel needs a strip partition");
    c = config(64, 64, 1, 1);
    c.pre = c.post = 0;
    expect_refusal(c, "at least one smoothing sweep");
}

static mgb_config split_config(long na, int npa, int split_np, long split_rows)
{
    mgb_config c = config(na, 128, npa, 1);
    c.split_np = split_np;
    c.split_rows = split_rows;
    return c;
}

/* An uneven strip: 192 rows, process 0 owns 32, processes 1 and 2 own 80
 * each. Levels halve while both 32 >> l and 80 >> l are even and >= 2:
 * (32, 80), (16, 40), (8, 20), (4, 10), (2, 5): five levels, the last one
 * with 5 rows on B. Process 2 starts at row 32 + 80 = 112, at level 2 at
 * 112 / 4 = 28 with 20 rows. */
static void test_split_hierarchy(void)
{
    char err[256];
    int levels;
    long rows, first;
    mgb_config c = split_config(192, 3, 1, 32);
    CU_ASSERT(mgb_config_levels(&c, &levels, err, sizeof err) == 0 && levels == 5);
    mgb_config_rows(&c, 0, 0, &rows, &first);
    CU_ASSERT(rows == 32 && first == 0);
    mgb_config_rows(&c, 1, 0, &rows, &first);
    CU_ASSERT(rows == 80 && first == 32);
    mgb_config_rows(&c, 2, 2, &rows, &first);
    CU_ASSERT(rows == 20 && first == 28);
    mgb_config_rows(&c, 2, 4, &rows, &first);
    CU_ASSERT(rows == 5 && first == 7);
    CU_ASSERT(mgb_config_max_rows(&c) == 80);
    /* Side A larger: 3 x 48 = 144 rows, then 48 on the last process. */
    c = split_config(192, 4, 3, 144);
    CU_ASSERT(mgb_config_levels(&c, &levels, err, sizeof err) == 0 && levels == 5);
    mgb_config_rows(&c, 3, 0, &rows, &first);
    CU_ASSERT(rows == 48 && first == 144 && mgb_config_max_rows(&c) == 48);
    /* Without a split every process owns na/npa rows from pa * na/npa. */
    c = config(192, 128, 3, 1);
    mgb_config_rows(&c, 2, 1, &rows, &first);
    CU_ASSERT(rows == 32 && first == 64);
    /* The split limits the depth: 2 rows per process on A leave 2 levels. */
    c = split_config(194, 3, 1, 2);
    CU_ASSERT(mgb_config_levels(&c, &levels, err, sizeof err) == 0 && levels == 2);
}

static void test_split_errors(void)
{
    expect_refusal(split_config(192, 3, 2, 33), "33 rows are not divisible by 2 processes");
    expect_refusal(split_config(192, 3, 1, 33),
                   "the other 159 rows (na=192 minus 33) are not divisible by the other 2");
    expect_refusal(split_config(192, 3, 1, 34), "gives 34 and 79 rows per process: each must "
                   "be even and at least 2");
    expect_refusal(split_config(192, 3, 3, 96), "the first group needs 1 to 2 of the 3");
    expect_refusal(split_config(192, 3, 1, 192), "rows must be 1 to na-1=191");
    mgb_config c = split_config(192, 2, 1, 64);
    c.npb = 2;
    c.npa = 1;
    expect_refusal(c, "--split needs a strip partition");
}

static int parse(const char *line, mgb_options *o, char *err, size_t len)
{
    char buf[512], *argv[64];
    int argc = 0;
    snprintf(buf, sizeof buf, "mgbench %s", line);
    for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    return mgb_options_parse(argc, argv, o, err, len);
}

static void test_options(void)
{
    mgb_options o;
    char err[256];
    CU_ASSERT_FATAL(parse("--na 512 --nb=256 --pre 1 --post 3 --tol 1e-6 --partition block "
                          "--grid 2x3 --kernel staged --problem one --reps 4 --verbose", &o, err,
                          sizeof err) == 0);
    CU_ASSERT(o.cfg.na == 512 && o.cfg.nb == 256 && o.cfg.pre == 1 && o.cfg.post == 3);
    CU_ASSERT(o.tol == 1e-6 && o.block && o.grid_a == 2 && o.grid_b == 3 && o.reps == 4);
    CU_ASSERT(o.cfg.kernel == MGB_KERNEL_STAGED && o.cfg.problem == MGB_PROBLEM_ONE && o.verbose);
    CU_ASSERT(mgb_options_resolve(&o, 6, err, sizeof err) == 0 && o.cfg.npa == 2 && o.cfg.npb == 3);
    CU_ASSERT(mgb_options_resolve(&o, 4, err, sizeof err) == -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "--grid 2x3 needs 6 processes, but 4 are running"));

    CU_ASSERT(parse("--partition strip", &o, err, sizeof err) == 0);
    CU_ASSERT(mgb_options_resolve(&o, 4, err, sizeof err) == 0 && o.cfg.npa == 4 && o.cfg.npb == 1);
    CU_ASSERT(parse("--partition block", &o, err, sizeof err) == 0);
    CU_ASSERT(mgb_options_resolve(&o, 4, err, sizeof err) == -1 && strstr(err, "needs --grid"));

    CU_ASSERT(parse("--na 256 --nb 128 --seq-of 4x1", &o, err, sizeof err) == 0);
    CU_ASSERT(mgb_options_resolve(&o, 1, err, sizeof err) == 0);
    CU_ASSERT(o.cfg.na == 64 && o.cfg.nb == 128 && o.cfg.kernel == MGB_KERNEL_FUSED);
    CU_ASSERT(parse("--seq-of 4x1", &o, err, sizeof err) == 0);
    CU_ASSERT(mgb_options_resolve(&o, 2, err, sizeof err) == -1 && strstr(err, "one process"));
    CU_ASSERT(parse("--na 100 --seq-of 8x1", &o, err, sizeof err) == 0);
    CU_ASSERT(mgb_options_resolve(&o, 1, err, sizeof err) == -1 && strstr(err, "divisible"));

    CU_ASSERT(parse("--na 192 --split 1:32", &o, err, sizeof err) == 0);
    CU_ASSERT(o.cfg.split_np == 1 && o.cfg.split_rows == 32);
    CU_ASSERT(mgb_options_resolve(&o, 3, err, sizeof err) == 0 && o.cfg.npa == 3);
    CU_ASSERT(parse("--split 1:32 --partition block --grid 3x1", &o, err, sizeof err) == 0);
    CU_ASSERT(mgb_options_resolve(&o, 3, err, sizeof err) == -1 && strstr(err, "excludes"));
    CU_ASSERT(parse("--split 1:32 --seq-of 3x1", &o, err, sizeof err) == 0);
    CU_ASSERT(mgb_options_resolve(&o, 1, err, sizeof err) == -1 && strstr(err, "excludes"));

    CU_ASSERT(parse("--campaign x", &o, err, sizeof err) == 0);
    CU_ASSERT(mgb_options_resolve(&o, 1, err, sizeof err) == -1 && strstr(err, "--cluster"));

    const char *bad[] = {"--grid 2y3", "--grid 0x2", "--na 1", "--na ten", "--tol 2",
                         "--partition diagonal", "--kernel magic", "--problem cosine",
                         "--date 2024/01/01", "--reps 0", "--bogus 1", "--na", "stray",
                         "--split 1x32", "--split 0:32", "--split 1:", "--split :32"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        err[0] = '\0';
        CU_ASSERT(parse(bad[k], &o, err, sizeof err) == -1);
        CU_ASSERT(err[0] != '\0');
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    static const mgbt_test kernels[] = {
        {"smooth_matches_natural_order", test_smooth_matches_natural_order},
        {"residual_matches_natural_order", test_residual_matches_natural_order},
        {"restriction_exact_on_linear", test_restriction_exact_on_linear},
        {"prolongation_exact_on_bilinear", test_prolongation_exact_on_bilinear},
        {"band_cholesky_solves", test_band_cholesky_solves},
        {NULL, NULL}};
    static const mgbt_test setup[] = {
        {"level_hierarchy", test_level_hierarchy},
        {"configuration_errors", test_configuration_errors},
        {"split_hierarchy", test_split_hierarchy},
        {"split_errors", test_split_errors},
        {"options", test_options},
        {NULL, NULL}};
    static const mgbt_suite suites[] = {{"mgbench kernels", kernels},
                                        {"mgbench configuration", setup},
                                        {NULL, NULL}};
    return mgbt_main(argv[0], suites);
}
