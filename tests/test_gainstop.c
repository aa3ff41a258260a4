/*
 * test_gainstop.c — where the runs stopped gaining (models/gainstop.h,
 * gen/fit/gain_stop.h): the rule worked by hand on small series, then end
 * to end: `perfcast predict` names the stop and marks the target beyond
 * it, its JSON carries it, the verdict weighs it (also when read back from
 * the cache of fits), and runs that never stopped gaining, whose
 * response is no time, or whose experiment declares weak scaling
 * (scaling=weak), get no word.
 */
#include "models/gainstop.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Halving up to np 4, then flat within 10%: the stop is np 4 (index 2),
 * the first level no larger one beats by 10%. By hand: 24.5/26 = 0.942,
 * 25/26 = 0.962; np 32 = 8 x 4. */
static void test_stop_by_hand(void)
{
    const double x[] = {1, 2, 4, 8, 16, 32}, y[] = {100, 50, 26, 25, 24.5, 25};
    gainstop_result r;
    CU_ASSERT_EQUAL_FATAL(gainstop_find(x, y, 6, &r), GAINSTOP_OK);
    CU_ASSERT_TRUE_FATAL(r.found);
    CU_ASSERT_EQUAL(r.level, 2);
    CU_ASSERT_EQUAL(r.x_stop, 4);
    CU_ASSERT_EQUAL(r.x_last, 32);
    CU_ASSERT_DOUBLE_EQUAL(r.best_ratio, 24.5 / 26, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.last_ratio, 25.0 / 26, 1e-12);
}

/* The edges of each condition, one at a time. */
static void test_stop_edges(void)
{
    gainstop_result r;
    /* a larger level 10% faster or more is a gain: 85 < 0.9 x 100 and
     * 85 < 0.9 x 95 */
    const double x[] = {1, 2, 4, 8}, gain[] = {200, 100, 95, 85};
    CU_ASSERT_EQUAL_FATAL(gainstop_find(x, gain, 4, &r), GAINSTOP_OK);
    CU_ASSERT_FALSE(r.found);
    /* 91 > 90: no gain from np 2 on; np 8 >= 2 x 2 */
    const double flat[] = {200, 100, 95, 91};
    CU_ASSERT_EQUAL_FATAL(gainstop_find(x, flat, 4, &r), GAINSTOP_OK);
    CU_ASSERT_TRUE(r.found && r.level == 1);
    /* the larger levels must reach twice the stop: np 2's reach 4 = 2 x 2 */
    const double x3[] = {1, 2, 3, 4}, rise[] = {200, 100, 100, 100};
    CU_ASSERT_EQUAL_FATAL(gainstop_find(x3, rise, 4, &r), GAINSTOP_OK);
    CU_ASSERT_TRUE(r.found && r.level == 1 && r.x_stop == 2);
    const double x5[] = {1, 2, 3, 5}, late[] = {200, 150, 100, 100};
    CU_ASSERT_EQUAL_FATAL(gainstop_find(x5, late, 4, &r), GAINSTOP_OK);
    CU_ASSERT_FALSE(r.found); /* np 3's only larger level, 5, is under 2 x 3 */
    /* a time that never fell by a fifth (weak scaling): no stop; 81 > 0.8 x 100;
     * 79 fell by more */
    const double weak[] = {100, 90, 81, 85};
    CU_ASSERT_EQUAL_FATAL(gainstop_find(x, weak, 4, &r), GAINSTOP_OK);
    CU_ASSERT_FALSE(r.found);
    const double fell[] = {100, 90, 79, 85};
    CU_ASSERT_EQUAL_FATAL(gainstop_find(x, fell, 4, &r), GAINSTOP_OK);
    CU_ASSERT_TRUE(r.found && r.level == 2 && r.x_stop == 4);
    CU_ASSERT_DOUBLE_EQUAL(r.last_ratio, 85.0 / 79, 1e-12);
    /* a top level that rose after a stop is still beyond it */
    const double up[] = {100, 40, 40, 100};
    CU_ASSERT_EQUAL_FATAL(gainstop_find(x, up, 4, &r), GAINSTOP_OK);
    CU_ASSERT_TRUE(r.found && r.level == 1);
    CU_ASSERT_DOUBLE_EQUAL(r.best_ratio, 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r.last_ratio, 2.5, 1e-12);
}

static void test_stop_refuses(void)
{
    gainstop_result r;
    const double x[] = {1, 2, 4}, y[] = {4, 2, 2};
    CU_ASSERT_EQUAL(gainstop_find(x, y, 2, &r), GAINSTOP_FEW_LEVELS);
    const double unsorted[] = {1, 4, 2}, zero[] = {4, 0, 2}, nan[] = {4, NAN, 2};
    CU_ASSERT_EQUAL(gainstop_find(unsorted, y, 3, &r), GAINSTOP_BAD_INPUT);
    CU_ASSERT_EQUAL(gainstop_find(x, zero, 3, &r), GAINSTOP_BAD_INPUT);
    CU_ASSERT_EQUAL(gainstop_find(x, nan, 3, &r), GAINSTOP_BAD_INPUT);
    CU_ASSERT_EQUAL(gainstop_find(NULL, y, 3, &r), GAINSTOP_BAD_INPUT);
    CU_ASSERT_STRING_EQUAL(gainstop_status_text(GAINSTOP_FEW_LEVELS),
                           "fewer than 3 training levels");
}

/* An archive "x" whose experiment e trains on runs of time_s (or
 * response) below np 64 and predicts np 64. */
static void write_campaign(const char *dir, const char *response, const char *times)
{
    char experiments[300], runs[600];
    snprintf(experiments, sizeof experiments,
             "name,model,response,formula,train,target\n"
             "e,scopred,%s,,np < 64,np == 64\n",
             response);
    snprintf(runs, sizeof runs, "cluster,np,%s\n%s", response, times);
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, "cluster\nc\n", "x", experiments, runs));
}

/* Halving to np 4, flat from there to np 16 (16 = 4 x 4), then np 64. */
static const char plateau[] = "c,1,80\nc,1,81\nc,2,40\nc,2,41\nc,4,21\nc,4,20\n"
                              "c,8,20\nc,8,21\nc,16,20.5\nc,16,21\nc,64,30\n";
/* Halving all the way. */
static const char scaling[] = "c,1,80\nc,1,81\nc,2,40\nc,2,41\nc,4,20\nc,4,21\n"
                              "c,8,10\nc,8,11\nc,16,5\nc,16,5.5\nc,64,1.4\n";

static void test_predict_names_the_stop(void)
{
    char dir[256], *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    write_campaign(dir, "time_s", plateau);
    int rc = testutil_perfcast_run(&out, "predict --archive %s x e", dir);
    CU_ASSERT_EQUAL(rc, 0);
    /* means: np 4 20.5, np 16 20.75: 20.75/20.5 = 1.01; 16/4 = 4x */
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "the runs stopped gaining at np = 4: none of the "
                                             "larger runs, up to np = 16 (4x), was 10% faster"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "the largest 1.01x"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "1 of 1 target lies beyond it"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "beyond where the runs stopped gaining (np = 4)"));
    free(out);
    rc = testutil_perfcast_run(&out, "predict --archive %s --format json x e", dir);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\"gain_stop\": \"the runs stopped gaining at np = 4"));
    free(out);
    testutil_remove_dir(dir);
}

/* predict on runs of response says nothing of a stop. */
static void expect_no_word(const char *response, const char *runs)
{
    char dir[256], *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    write_campaign(dir, response, runs);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "predict --archive %s x e", dir), 0);
    CU_ASSERT_PTR_NULL(out ? strstr(out, "stopped gaining") : "no output");
    free(out);
    testutil_remove_dir(dir);
}

/* Two lines (sizes N 10 and 20) stop at different levels: the report
 * names the first target's and counts the other apart; each note names
 * its own. N 10: np 1-16, 80 40 20 20 20.5: stop at np 4 (np 2 is beaten
 * by np 4); N 20: np 1-32, 160 80 40 20 20.2 20.5: stop at np 8. */
static void test_two_lines(void)
{
    char dir[256], *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(
        dir, "cluster\nc\n", "x",
        "name,model,response,formula,train,target\ne,scopred,time_s,,np < 64,np == 64\n",
        "cluster,np,N,time_s\n"
        "c,1,10,80\nc,2,10,40\nc,4,10,20\nc,8,10,20\nc,16,10,20.5\nc,64,10,25\n"
        "c,1,20,160\nc,2,20,80\nc,4,20,40\nc,8,20,20\nc,16,20,20.2\nc,32,20,20.5\n"
        "c,64,20,22\n"));
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "predict --archive %s x e", dir), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "the runs stopped gaining at np = 4:"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "1 of 2 targets lies beyond it; 1 more lies beyond "
                                             "where their own runs stopped gaining"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "beyond where the runs stopped gaining (np = 4)"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "beyond where the runs stopped gaining (np = 8)"));
    free(out);
    testutil_remove_dir(dir);
}

/* Declared weak scaling (option scaling=weak): the plateau is the aim of
 * such runs, no stop is named; a misspelt value is a problem `check`
 * names, with its place. */
static void test_weak_scaling(void)
{
    char dir[256], *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    static const char header[] = "name,model,response,formula,train,target,options\n";
    char experiments[300], runs[600];
    snprintf(runs, sizeof runs, "cluster,np,time_s\n%s", plateau);
    snprintf(experiments, sizeof experiments, "%se,scopred,time_s,,np < 64,np == 64,scaling=weak\n",
             header);
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, "cluster\nc\n", "x", experiments, runs));
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "predict --archive %s x e", dir), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "x/e (scopred)")); /* predicted */
    CU_ASSERT_PTR_NULL(out ? strstr(out, "stopped gaining") : "no output");
    free(out);
    /* scaling=strong is the default's word: the stop is named again */
    snprintf(experiments, sizeof experiments,
             "%se,scopred,time_s,,np < 64,np == 64,scaling = strong\n", header);
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, "cluster\nc\n", "x", experiments, runs));
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "predict --archive %s x e", dir), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "the runs stopped gaining at np = 4"));
    free(out);
    snprintf(experiments, sizeof experiments, "%se,scopred,time_s,,np < 64,np == 64,scaling=wek\n",
             header);
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, "cluster\nc\n", "x", experiments, runs));
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "check --archive %s", dir), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "x/experiments.csv:2:"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "scaling=wek: expected strong"));
    free(out);
    testutil_remove_dir(dir);
}

static void test_no_word_without_a_stop(void)
{
    expect_no_word("time_s", scaling);
    /* the same plateau in a response that is not a time (a rate): no word */
    expect_no_word("gflops", plateau);
}

/* The verdict's reasons and the job on "my job" (page and CSV) carry it,
 * on a first build and on a second one that reads every fit from the
 * cache. */
static void test_verdict_from_cache(void)
{
    char dir[256], sites[256], *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(sites, sizeof sites));
    write_campaign(dir, "time_s", plateau);
    for (int b = 1; b <= 2; b++) {
        int rc = b == 1 ? testutil_perfcast_run(&out, "build --archive %s --out %s/s1", dir, sites)
                        : testutil_perfcast_run(&out, "build --archive %s --out %s/s2 --previous "
                                                      "%s/s1", dir, sites, sites);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_TRUE(b == 1 || (out && strstr(out, "0 experiments fitted")));
        free(out);
        char page[300];
        snprintf(page, sizeof page, "%s/s%d/campaigns/x/index.html", sites, b);
        char *html = testutil_read_file(page);
        CU_ASSERT_PTR_NOT_NULL_FATAL(html);
        CU_ASSERT_PTR_NOT_NULL(strstr(html, "the runs stopped gaining at np = 4"));
        free(html);
        /* "my job" marks the job, and its CSV gives the level */
        snprintf(page, sizeof page, "%s/s%d/estimates.html", sites, b);
        html = testutil_read_file(page);
        CU_ASSERT_PTR_NOT_NULL_FATAL(html);
        CU_ASSERT_PTR_NOT_NULL(strstr(html, "64 processes (beyond where its runs stopped "
                                            "gaining, np = 4)"));
        free(html);
        snprintf(page, sizeof page, "%s/s%d/estimates.csv", sites, b);
        char *csv = testutil_read_file(page);
        CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
        CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",verdict,oversubscribed,gain_stop_at\n"));
        /* 21.26 s predicted against 30 s measured: -29%, unreliable */
        CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",unreliable,0,4\n"));
        free(csv);
    }
    testutil_remove_dir(dir);
    testutil_remove_dir(sites);
}

int main(void)
{
    static const testutil_test rule_tests[] = {
        {"a plateau, by hand", test_stop_by_hand},
        {"each condition at its edge", test_stop_edges},
        {"refusals", test_stop_refuses},
        {NULL, NULL},
    };
    static const testutil_test end_tests[] = {
        {"predict names the stop", test_predict_names_the_stop},
        {"two lines that stop at different levels", test_two_lines},
        {"no word without a stop, or for a rate", test_no_word_without_a_stop},
        {"none for weak scaling; a misspelt scaling named", test_weak_scaling},
        {"the verdict says so, also from the cache of fits", test_verdict_from_cache},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {
        {"gainstop", rule_tests},
        {"gain_stop end to end", end_tests},
        {NULL, NULL},
    };
    return testutil_run_suites(suites);
}
