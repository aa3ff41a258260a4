/*
 * test_trendbound.c — a searched law held to its runs' trend
 * (models/trendbound.h, gen/fit/trend_line.h, option trend=bound of
 * gen/fit/model_scopred.c): the bound worked by hand on small lines, the
 * line of a target found among runs that differ in other columns, and end
 * to end: with trend=bound, each estimate is the trend=free one held within
 * the slopes of the runs' last two steps, computed here from the test's own
 * numbers (not perfcast's reading of them); the default is bound, and the
 * given formulas are never.
 */
#include "gen/fit/trend_line.h"
#include "models/table.h"
#include "models/trendbound.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LN2 0.6931471805599453

/* Times halving with every doubling: each step's slope is -ln 2. */
static void test_bound_halving(void)
{
    const double x[] = {1, 2, 4, 8}, y[] = {8, 4, 2, 1};
    trendbound_result r;
    /* a law falling to 0.1 at 16: ln(0.1) per doubling, below -ln 2 */
    CU_ASSERT_EQUAL_FATAL(trendbound_apply(x, y, 4, 16, 0.1, &r), TRENDBOUND_OK);
    CU_ASSERT_TRUE(r.bounded);
    CU_ASSERT_DOUBLE_EQUAL(r.slope_law, log(0.1), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.slope_low, -LN2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.slope_high, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.doublings, 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.estimate, 0.5, 1e-12);
    /* 0.6 is within [-ln 2, 0]: kept as it is */
    CU_ASSERT_EQUAL_FATAL(trendbound_apply(x, y, 4, 16, 0.6, &r), TRENDBOUND_OK);
    CU_ASSERT_FALSE(r.bounded);
    CU_ASSERT_EQUAL(r.estimate, 0.6);
    /* a rise where the runs only fell: flat at the top level's time */
    CU_ASSERT_EQUAL_FATAL(trendbound_apply(x, y, 4, 16, 2.0, &r), TRENDBOUND_OK);
    CU_ASSERT_TRUE(r.bounded);
    CU_ASSERT_DOUBLE_EQUAL(r.estimate, 1.0, 1e-12);
    /* two doublings out (32 from 8): 1 * exp(-ln 2 * 2) */
    CU_ASSERT_EQUAL_FATAL(trendbound_apply(x, y, 4, 32, 0.01, &r), TRENDBOUND_OK);
    CU_ASSERT_DOUBLE_EQUAL(r.doublings, 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.estimate, 0.25, 1e-12);
}

/* Uneven steps: slopes per doubling of x, and only the last two steps
 * count (the fall from 100 to 10 is older). */
static void test_bound_recent_steps(void)
{
    const double x[] = {10, 20, 30}, y[] = {5, 4, 4};
    trendbound_result r;
    /* slopes ln(4/5) / 1 and 0 / log2(1.5): bounds [ln 0.8, 0]; at 60 one
     * doubling out, a law at 1 (ln(1/4)) is held to 4 * 0.8 */
    CU_ASSERT_EQUAL_FATAL(trendbound_apply(x, y, 3, 60, 1.0, &r), TRENDBOUND_OK);
    CU_ASSERT_DOUBLE_EQUAL(r.slope_low, log(0.8), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.estimate, 3.2, 1e-12);
    const double x4[] = {1, 2, 4, 8}, y4[] = {100, 10, 9, 9};
    /* last two steps ln(0.9) and 0: a law at 1 at 16 is held to 9 * 0.9 */
    CU_ASSERT_EQUAL_FATAL(trendbound_apply(x4, y4, 4, 16, 1.0, &r), TRENDBOUND_OK);
    CU_ASSERT_DOUBLE_EQUAL(r.estimate, 8.1, 1e-12);
    /* a rise: slopes ln(1.5) and ln(2) / log2(1.5) bound the top */
    const double xr[] = {1, 2, 3}, yr[] = {1, 1.5, 3};
    double high = log(2.0) / log2(1.5);
    CU_ASSERT_EQUAL_FATAL(trendbound_apply(xr, yr, 3, 12, 1000, &r), TRENDBOUND_OK);
    CU_ASSERT_DOUBLE_EQUAL(r.slope_high, high, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.estimate, 3 * exp(high * 2), 1e-9);
}

static void test_bound_refuses(void)
{
    const double x[] = {1, 2, 4}, y[] = {3, 2, 1}, down[] = {4, 2, 1}, bad[] = {3, 0, 1};
    trendbound_result r = {.estimate = 42};
    CU_ASSERT_EQUAL(trendbound_apply(x, y, 2, 8, 1, &r), TRENDBOUND_FEW_LEVELS);
    CU_ASSERT_EQUAL(trendbound_apply(x, y, 3, 4, 1, &r), TRENDBOUND_BAD_INPUT);  /* not beyond */
    CU_ASSERT_EQUAL(trendbound_apply(down, y, 3, 8, 1, &r), TRENDBOUND_BAD_INPUT); /* not ascending */
    CU_ASSERT_EQUAL(trendbound_apply(x, bad, 3, 8, 1, &r), TRENDBOUND_BAD_INPUT); /* a zero time */
    CU_ASSERT_EQUAL(trendbound_apply(x, y, 3, 8, 0, &r), TRENDBOUND_BAD_INPUT);
    CU_ASSERT_EQUAL(trendbound_apply(x, y, 3, 8, NAN, &r), TRENDBOUND_BAD_INPUT);
    CU_ASSERT_EQUAL(r.estimate, 42); /* untouched on refusal */
    CU_ASSERT_STRING_EQUAL(trendbound_status_text(TRENDBOUND_FEW_LEVELS),
                           "fewer training levels than the trend needs");
}

/* ------------------------------------------------------------------ */
/* The line of a target                                                */

/* Runs: (cluster, np, size, time_s), the time the response. */
static void make_runs(table *t)
{
    static const struct {
        const char *cluster;
        double np, size, time;
    } rows[] = {
        {"a", 1, 10, 8}, {"a", 1, 10, 10}, {"a", 2, 10, 5}, {"a", 4, 10, 3},
        {"a", 1, 20, 30}, {"a", 2, 20, 20},
        {"b", 1, 10, 7}, {"b", 2, 10, 6}, {"b", 4, 10, 5}, {"b", 8, 10, 4},
        /* targets */
        {"a", 8, 10, NAN}, {"a", 4, 20, NAN}, {"a", 8, 40, NAN}, {"a", 2, 10, NAN},
        {"c", 8, 10, NAN},
    };
    table_init(t);
    CU_ASSERT_EQUAL_FATAL(table_add_column(t, "cluster", COL_TEXT), 0);
    CU_ASSERT_EQUAL_FATAL(table_add_column(t, "np", COL_NUMBER), 1);
    CU_ASSERT_EQUAL_FATAL(table_add_column(t, "size", COL_NUMBER), 2);
    CU_ASSERT_EQUAL_FATAL(table_add_column(t, "time_s", COL_NUMBER), 3);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        long r = table_add_row(t, (long)i + 2);
        CU_ASSERT_FATAL(r == (long)i);
        CU_ASSERT_TRUE_FATAL(table_set_text(t, i, 0, rows[i].cluster));
        CU_ASSERT_TRUE_FATAL(table_set_number(t, i, 1, rows[i].np));
        CU_ASSERT_TRUE_FATAL(table_set_number(t, i, 2, rows[i].size));
        CU_ASSERT_TRUE_FATAL(table_set_number(t, i, 3, rows[i].time));
    }
}

/* The line of target row `target` among the training rows train. */
static void find_line(const table *t, const size_t *train, size_t ntrain, size_t target,
                      trend_line *line)
{
    double y[16];
    trend_index ix;
    for (size_t i = 0; i < ntrain; i++)
        y[i] = t->cols[3].num[train[i]];
    CU_ASSERT_TRUE_FATAL(trend_index_build(t, train, y, ntrain, &ix));
    CU_ASSERT_TRUE_FATAL(trend_line_find(&ix, target, line));
    trend_index_free(&ix);
}

/* Target `target` among the training rows train has no line. */
static void expect_no_line(const table *t, const size_t *train, size_t ntrain, size_t target)
{
    trend_line line;
    find_line(t, train, ntrain, target, &line);
    CU_ASSERT_EQUAL(line.n, 0);
    CU_ASSERT_EQUAL(line.column, -1);
    trend_line_free(&line);
}

static void test_line_of_target(void)
{
    table t;
    make_runs(&t);
    const size_t train[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    trend_line line;
    /* (a, 8, 10): along np, cluster a and size 10: np 1 (mean of 8 and
     * 10), 2, 4 */
    find_line(&t, train, 10, 10, &line);
    CU_ASSERT_EQUAL_FATAL(line.n, 3);
    CU_ASSERT_EQUAL(line.column, 1);
    CU_ASSERT_EQUAL(line.x_target, 8);
    CU_ASSERT_EQUAL(line.x[0], 1);
    CU_ASSERT_EQUAL(line.x[2], 4);
    CU_ASSERT_DOUBLE_EQUAL(line.y[0], 9, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(line.y[1], 5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(line.y[2], 3, 1e-12);
    trend_line_free(&line);
    /* (a, 4, 20): beyond the runs at size 20 along np (np 1, 2) and beyond
     * the run at np 4 along size (size 10): two trends, so no line */
    expect_no_line(&t, train, 10, 11);
    /* without the run (a, 4, 10) it is one line along np, of two levels */
    const size_t fewer[9] = {0, 1, 2, 4, 5, 6, 7, 8, 9};
    find_line(&t, fewer, 9, 11, &line);
    CU_ASSERT_EQUAL(line.n, 2);
    CU_ASSERT_EQUAL(line.column, 1);
    CU_ASSERT_DOUBLE_EQUAL(line.y[1], 20, 1e-12);
    trend_line_free(&line);
    /* (a, 8, 40): no run shares size 40 or np 8 with it */
    expect_no_line(&t, train, 10, 12);
    /* (a, 2, 10) was run: an interpolation, no line */
    expect_no_line(&t, train, 10, 13);
    /* (c, 8, 10): cluster c differs from a and b in a text column */
    expect_no_line(&t, train, 10, 14);
    table_free(&t);
}

/* A run on the line with its value missing: the target is not known to
 * be beyond it, so it has no line (and sorting the missing value is safe). */
static void test_line_missing_value(void)
{
    table t;
    table_init(&t);
    CU_ASSERT_EQUAL_FATAL(table_add_column(&t, "cluster", COL_TEXT), 0);
    CU_ASSERT_EQUAL_FATAL(table_add_column(&t, "np", COL_NUMBER), 1);
    CU_ASSERT_EQUAL_FATAL(table_add_column(&t, "size", COL_NUMBER), 2);
    CU_ASSERT_EQUAL_FATAL(table_add_column(&t, "time_s", COL_NUMBER), 3);
    static const double np[] = {1, NAN, 2, NAN, 4, 8};
    for (size_t i = 0; i < 6; i++) {
        CU_ASSERT_FATAL(table_add_row(&t, (long)i + 2) == (long)i);
        CU_ASSERT_TRUE_FATAL(table_set_text(&t, i, 0, "a"));
        CU_ASSERT_TRUE_FATAL(table_set_number(&t, i, 1, np[i]));
        CU_ASSERT_TRUE_FATAL(table_set_number(&t, i, 2, 10));
        CU_ASSERT_TRUE_FATAL(table_set_number(&t, i, 3, 8 / (i + 1.0)));
    }
    const size_t train[5] = {0, 1, 2, 3, 4};
    trend_line line;
    expect_no_line(&t, train, 5, 5);
    const size_t known[3] = {0, 2, 4};
    find_line(&t, known, 3, 5, &line);
    CU_ASSERT_EQUAL(line.n, 3);
    trend_line_free(&line);
    table_free(&t);
}

/* ------------------------------------------------------------------ */
/* End to end                                                          */

#define NLEVELS 5 /* np 1 .. 16 trained, np 32 the target */
static const double levels[NLEVELS] = {1, 2, 4, 8, 16};
/* Each response's mean time per trained level (two runs, 0.5% under and
 * over it), and its measured time at 32. */
static const struct {
    const char *response;
    double mean[NLEVELS], target;
} shapes[] = {
    {"time_a_s", {100, 99, 98, 97, 60}, 50},   /* a drop at the top */
    {"time_b_s", {100, 50, 25, 12.5, 14}, 16}, /* a knee */
    {"time_c_s", {1, 1.2, 1.5, 2.5, 6}, 9},    /* a rise that speeds up */
    {"time_e_s", {5, 5.2, 5.1, 5.3, 9}, 10},   /* a step at the top */
};
enum { NSHAPES = sizeof shapes / sizeof shapes[0] };

static char *runs_text(void)
{
    size_t cap = 8192, used = 0;
    char *text = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    used += (size_t)snprintf(text + used, cap - used, "cluster,np,rep");
    for (size_t s = 0; s < NSHAPES; s++)
        used += (size_t)snprintf(text + used, cap - used, ",%s", shapes[s].response);
    for (size_t l = 0; l <= NLEVELS; l++)
        for (int rep = 1; rep <= 2; rep++) {
            used += (size_t)snprintf(text + used, cap - used, "\nc,%g,%d",
                                     l < NLEVELS ? levels[l] : 32.0, rep);
            for (size_t s = 0; s < NSHAPES; s++) {
                double m = l < NLEVELS ? shapes[s].mean[l] : shapes[s].target;
                used += (size_t)snprintf(text + used, cap - used, ",%.17g",
                                         m * (rep == 1 ? 0.995 : 1.005));
            }
        }
    snprintf(text + used, cap - used, "\n");
    return text;
}

static char *experiments_text(void)
{
    size_t cap = 4096, used = 0;
    char *text = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    used += (size_t)snprintf(text + used, cap - used,
                             "name,model,response,formula,train,target,options\n");
    static const char *const modes[] = {"free", "bound", "default", "given"};
    for (size_t s = 0; s < NSHAPES; s++)
        for (size_t m = 0; m < 4; m++)
            used += (size_t)snprintf(
                text + used, cap - used, "%zu-%s,scopred,%s,%s,np < 32,np == 32,%s\n", s,
                modes[m], shapes[s].response, m == 3 ? "1/np" : "",
                m < 2 ? (m ? "trend=bound" : "trend=free") : m == 3 ? "trend=bound" : "");
    return text;
}

/* The estimate of experiment name at np = 32, and its note. */
static double estimate_of(const char *dir, const char *name, char *note, size_t len)
{
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "predict --archive %s --format json x %s", dir, name);
    CU_ASSERT_EQUAL(rc, 0);
    double e = testutil_json_number(out, "estimate");
    const char *n = out ? strstr(out, "\"note\": \"") : NULL;
    snprintf(note, len, "%s", n ? n + 9 : "");
    free(out);
    return e;
}

/* What trend=bound must give from the law's free estimate, by the rule
 * of models/trendbound.h written out again on the test's own means. */
static double held(size_t s, double free_estimate)
{
    const double *m = shapes[s].mean;
    double s1 = log(m[3] / m[2]), s2 = log(m[4] / m[3]); /* one doubling each */
    double low = fmin(0, fmin(s1, s2)), high = fmax(0, fmax(s1, s2));
    double law = log(free_estimate / m[4]); /* 16 -> 32: one doubling */
    return law < low ? m[4] * exp(low) : law > high ? m[4] * exp(high) : free_estimate;
}

static void test_end_to_end(void)
{
    char dir[256], note[1024];
    char *runs = runs_text(), *experiments = experiments_text();
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, "cluster\nc\n", "x", experiments, runs));
    size_t moved = 0;
    for (size_t s = 0; s < NSHAPES; s++) {
        char name[64];
        snprintf(name, sizeof name, "%zu-free", s);
        double free_estimate = estimate_of(dir, name, note, sizeof note);
        CU_ASSERT_PTR_NULL(strstr(note, "trend"));
        snprintf(name, sizeof name, "%zu-bound", s);
        double bound = estimate_of(dir, name, note, sizeof note);
        double want = held(s, free_estimate);
        CU_ASSERT_TRUE(isfinite(bound) && testutil_rel_diff(bound, want) < 1e-6);
        bool was_held = want != free_estimate;
        moved += was_held;
        CU_ASSERT_EQUAL(strstr(note, "held to the runs' trend") != NULL, was_held);
        /* the default is bound */
        snprintf(name, sizeof name, "%zu-default", s);
        CU_ASSERT_EQUAL(estimate_of(dir, name, note, sizeof note), bound);
        /* a given formula is never held */
        snprintf(name, sizeof name, "%zu-given", s);
        estimate_of(dir, name, note, sizeof note);
        CU_ASSERT_PTR_NULL(strstr(note, "trend"));
    }
    /* the shapes were drawn so that the laws leave the trend: three do */
    CU_ASSERT_EQUAL(moved, 3);
    free(runs);
    free(experiments);
    testutil_remove_dir(dir);
}

/* The held estimates make the verdict uncertain on the campaign page, and
 * still after a build that reads the fits back from the last one's cache
 * (gen/fit/fit_record.h keeps the flag): the second build's page template
 * differs, so it renders every page again from fits it did not make. */
static void test_verdict_survives_cache(void)
{
    char dir[256], sites[256], *runs = runs_text(), *experiments = experiments_text();
    char *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(sites, sizeof sites));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, "cluster\nc\n", "x", experiments, runs));
    int copied = testutil_run_commandf(
        &out, "cp -r templates %s/tpl && sed -i 's|</head>|<!-- another look --></head>|' "
              "%s/tpl/page.html && grep -q 'another look' %s/tpl/page.html",
        sites, sites, sites);
    CU_ASSERT_EQUAL_FATAL(copied, 0);
    free(out);
    static const char *const builds[] = {
        "--out %s/s1 --templates templates",
        "--out %s/s2 --previous %s/s1 --templates %s/tpl",
    };
    for (size_t b = 0; b < 2; b++) {
        char args[900], page[300];
        snprintf(args, sizeof args, builds[b], sites, sites, sites);
        int rc = testutil_perfcast_run(&out, "build --archive %s %s", dir, args);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc != 0 && out)
            fprintf(stderr, "%s\n", out);
        /* the second build fits nothing: the verdict below is from the cache */
        CU_ASSERT_TRUE(b == 0 || (out && strstr(out, "0 experiments fitted")));
        free(out);
        snprintf(page, sizeof page, "%s/s%zu/campaigns/x/index.html", sites, b + 1);
        char *html = testutil_read_file(page);
        CU_ASSERT_PTR_NOT_NULL_FATAL(html);
        CU_ASSERT_PTR_NOT_NULL(strstr(html, "1 of 1 estimates held to the runs&#39; trend") ||
                               strstr(html, "1 of 1 estimates held to the runs' trend"));
        free(html);
    }
    free(runs);
    free(experiments);
    testutil_remove_dir(dir);
    testutil_remove_dir(sites);
}

/* A misspelt value is an error naming the option, and `check` reports it. */
static void test_option_checked(void)
{
    char dir[256], *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(
        dir, "cluster\nc\n", "x",
        "name,model,response,formula,train,target,options\n"
        "e,scopred,time_s,,np < 8,np == 8,trend=bounded\n",
        "cluster,np,time_s\nc,1,8\nc,2,4\nc,4,2\nc,8,1\n"));
    int rc = testutil_perfcast_run(&out, "check --archive %s", dir);
    CU_ASSERT_NOT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "trend=bounded: must be bound or free"));
    free(out);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test bound_tests[] = {
        {"halving runs, by hand", test_bound_halving},
        {"the last two steps, uneven and rising", test_bound_recent_steps},
        {"refusals", test_bound_refuses},
        {NULL, NULL},
    };
    static const testutil_test line_tests[] = {
        {"the line a target continues", test_line_of_target},
        {"a missing value on the line", test_line_missing_value},
        {NULL, NULL},
    };
    static const testutil_test end_tests[] = {
        {"trend=bound against trend=free, by hand", test_end_to_end},
        {"the verdict says so, also from the cache of fits", test_verdict_survives_cache},
        {"a bad value is an error", test_option_checked},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {
        {"trendbound", bound_tests},
        {"trend_line", line_tests},
        {"option trend", end_tests},
        {NULL, NULL},
    };
    return testutil_run_suites(suites);
}
