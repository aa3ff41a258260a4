/*
 * test_error_pool.c — the pooled error model (gen/fit/error_pool.h,
 * models/calibrate.h calibrate_shrink): the shrinkage worked by hand, the
 * pool's rules (each held-out configuration once, the experiment's own
 * campaign left out), and end to end on a two-campaign archive whose
 * widths are derived by hand: a planted sibling whose backtests hold out
 * the calibrated experiment's target must not reach its pool, the words
 * saying where the width came from, and byte-identical pages; and a pool
 * filled without one campaign (`fit`, `compare`) serves that campaign's
 * experiments what the whole pool serves them.
 */
#include "gen/fit/backtest_cache.h"
#include "gen/fit/error_pool.h"
#include "gen/fit/experiment_run.h"
#include "models/calibrate.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* t(0.975) from printed tables (Abramowitz & Stegun 26.7). */
#define T975_DF3 3.182446305
#define T975_DF11 2.200985160

static void test_shrink_by_hand(void)
{
    /* own: 3 scores, s = 0.2; pool: 20 scores, s = 0.1, worth k = 8:
     * s^2 = (3 * 0.04 + 8 * 0.01) / 11 = 0.2 / 11, t on 11. */
    calibrate_model own = {.nscores = 3, .nfolds = 2, .scale = 0.2, .t = NAN};
    calibrate_model pool = {.nscores = 20, .scale = 0.1, .max_abs_log_error = 0.5};
    calibrate_model m;
    CU_ASSERT_EQUAL_FATAL(calibrate_shrink(&own, &pool, 8, 0.95, &m), CALIBRATE_OK);
    CU_ASSERT_DOUBLE_EQUAL(m.scale, sqrt(0.2 / 11), 1e-15);
    CU_ASSERT_EQUAL(m.nscores, 11);
    CU_ASSERT_EQUAL(m.nfolds, 2);
    CU_ASSERT_DOUBLE_EQUAL(m.t, T975_DF11, 1e-8);
    CU_ASSERT_DOUBLE_EQUAL(m.max_abs_log_error, 0.5, 0);
    /* A pool of 2 is worth 2, not 8; no own score: s = s_pool, t on 2... */
    pool.nscores = 2;
    calibrate_model none = {0};
    CU_ASSERT_EQUAL_FATAL(calibrate_shrink(&none, &pool, 8, 0.95, &m), CALIBRATE_OK);
    CU_ASSERT_DOUBLE_EQUAL(m.scale, 0.1, 1e-15);
    CU_ASSERT_EQUAL(m.nscores, 2);
    CU_ASSERT_DOUBLE_EQUAL(m.t, 4.302652730, 1e-8);
    /* ...and an empty pool leaves own as it was. */
    pool.nscores = 0;
    CU_ASSERT_EQUAL(calibrate_shrink(&own, &pool, 8, 0.95, &m), CALIBRATE_NO_SCORES);
    CU_ASSERT_DOUBLE_EQUAL(m.scale, 0.2, 0);
    CU_ASSERT_EQUAL(calibrate_shrink(&own, &pool, 0, 0.95, &m), CALIBRATE_BAD_INPUT);

    CU_ASSERT_EQUAL(calibrate_distance_bin(0), 0);
    CU_ASSERT_EQUAL(calibrate_distance_bin(1), 0);
    CU_ASSERT_EQUAL(calibrate_distance_bin(1.5), 1);
    CU_ASSERT_EQUAL(calibrate_distance_bin(2), 1);
    CU_ASSERT_EQUAL(calibrate_distance_bin(2.01), 2);
    CU_ASSERT_EQUAL(calibrate_distance_bin(NAN), 0);
}

static void test_pool_rules(void)
{
    campaign a = {0}, b = {0};
    double ln2 = log(2.0);
    /* Campaign b: configuration 7 missed by a factor 2 one doubling out,
     * configuration 9 by a factor 4 three doublings out. */
    calibrate_score mine[] = {{2, 1, 1, 0, 7, 0, 1}, {4, 1, 3, 1, 9, 0, 2}};
    /* A second experiment of b holding out configuration 7 again. */
    calibrate_score again[] = {{8, 1, 1, 0, 7, 0, 1}};
    calibrate_score other[] = {{1, 1, 1, 0, 7, 0, 1}};
    error_pool *p = error_pool_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_TRUE(error_pool_add(p, "strip", &b, mine, 2));
    CU_ASSERT_TRUE(error_pool_add(p, "strip", &b, again, 1));
    CU_ASSERT_TRUE(error_pool_add(p, "block", &b, other, 1));
    calibrate_model m;
    /* For campaign a: b's two strip scores, z = ln2/1 and ln4/3. */
    CU_ASSERT_EQUAL_FATAL(error_pool_model(p, "strip", &a, CALIBRATE_POOL_BINS, 0.95, &m),
                          CALIBRATE_OK);
    CU_ASSERT_EQUAL(m.nscores, 2);
    double z2 = 2 * ln2 / 3;
    CU_ASSERT_DOUBLE_EQUAL(m.scale, sqrt((ln2 * ln2 + z2 * z2) / 2), 1e-14);
    CU_ASSERT_EQUAL_FATAL(error_pool_model(p, "strip", &a, 0, 0.95, &m), CALIBRATE_OK);
    CU_ASSERT_EQUAL(m.nscores, 1);
    CU_ASSERT_DOUBLE_EQUAL(m.scale, ln2, 1e-14);
    CU_ASSERT_EQUAL(error_pool_model(p, "strip", &a, 1, 0.95, &m), CALIBRATE_NO_SCORES);
    /* Campaign b's own pool leaves b out: nothing. */
    CU_ASSERT_EQUAL(error_pool_model(p, "strip", &b, CALIBRATE_POOL_BINS, 0.95, &m),
                    CALIBRATE_NO_SCORES);
    CU_ASSERT_EQUAL_FATAL(error_pool_model(p, "block", &a, CALIBRATE_POOL_BINS, 0.95, &m),
                          CALIBRATE_OK);
    CU_ASSERT_EQUAL(m.nscores, 1);
    CU_ASSERT_EQUAL(error_pool_model(NULL, "block", &a, 0, 0.95, &m), CALIBRATE_NO_SCORES);
    error_pool_free(p);
}

/* Two campaigns, t = 10/np, two repetitions each, one scopred formula.
 * Campaign y: np = 8 planted at 2.5 (twice the law). Its experiments z and
 * z2 (same training) backtest: without np 8, train 1, 2, 4 exactly, predict
 * 8 at 1.25: log error -ln 2, 1 doubling out; without 4 and 8, predict 4
 * exactly: 0. np 8 is held out by both z and z2 but pooled once: the pool
 * of the other campaigns for x is 2 scores in the bin up to 1 doubling,
 * s_pool^2 = ln2^2 / 2. Campaign x follows the law exactly. `few` trains
 * on np <= 4 and predicts np 8 (1 doubling out); its own backtest (without
 * 4) is exact, 1 score, s_own = 0. Errors count per unit of roughness
 * (models/calibrate.h): y's training runs (np 1, 2, 4, 8 at 10, 5, 2.5,
 * 2.5) lie on the line through their neighbours at np 2 and ln2/2 above
 * it at np 4; divided by sqrt(1 + 1/4 + 1/4), the median of the two is
 * ln2 / (4 sqrt 1.5), r_y = that / 0.6745, u_y = sqrt(r_y^2 + 0.1^2);
 * x's runs for few (np 1, 2, 4) lie on their line: u_x = 0.1. Shrunk:
 * k = min(8, 2) = 2, s^2 = (1 * 0 + 2 * (ln2 / u_y)^2 / 2) / 3 per unit,
 * t on 3, h = t * s * 1 * u_x. The planted
 * sibling `wide` (another formula, so not a lender) trains on np <= 16: its
 * backtests hold out np 8 and 16, few's target. Were they pooled for few,
 * the pool would count more than 2 and h would differ. */
static const char x_runs[] = "cluster,np,rep,time_s\n"
                             "c,1,1,10\nc,1,2,10\nc,2,1,5\nc,2,2,5\nc,4,1,2.5\nc,4,2,2.5\n"
                             "c,8,1,1.25\nc,8,2,1.25\nc,16,1,0.625\nc,16,2,0.625\n"
                             "c,32,1,0.3125\nc,32,2,0.3125\n";
static const char y_runs[] = "cluster,np,rep,time_s\n"
                             "c,1,1,10\nc,1,2,10\nc,2,1,5\nc,2,2,5\nc,4,1,2.5\nc,4,2,2.5\n"
                             "c,8,1,2.5\nc,8,2,2.5\nc,16,1,0.625\nc,16,2,0.625\n";

static void write_two_campaigns(char *dir, size_t len)
{
    char path[512];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, len));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(
        dir, "cluster\nc\n", "x",
        "name,model,response,formula,train,target\n"
        "few,scopred,time_s,1/np,np <= 4,np == 8\n"
        "wide,scopred,time_s,np,np <= 16,np == 32\n",
        x_runs));
    const char *files[][2] = {
        {"y/runs.csv", y_runs},
        {"y/experiments.csv", "name,model,response,formula,train,target\n"
                              "z,scopred,time_s,1/np,np <= 8,np == 16\n"
                              "z2,scopred,time_s,1/np,np <= 8,np == 16\n"},
        {"y/README.md", "# y\n\nA second campaign of the pool test.\n"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
        CU_ASSERT_TRUE_FATAL(testutil_write_file(path, files[i][1]));
    }
}

/* Without the shipped prior (gen/fit/error_prior.h; test_error_prior.c
 * has it): the pool alone, as above. */
static void test_pool_end_to_end(void)
{
    char dir[256], *out = NULL;
    write_two_campaigns(dir, sizeof dir);
    setenv("PERFCAST_ERROR_PRIOR", "none", 1);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "predict --archive %s --format json x few",
                                                dir), 0);
    unsetenv("PERFCAST_ERROR_PRIOR");
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    double ln2 = log(2.0), r_y = ln2 / (4 * sqrt(1.5)) / 0.6744897501960817;
    double u_y = sqrt(r_y * r_y + 0.01), h = T975_DF3 * sqrt(ln2 * ln2 / 3) / u_y * 0.1;
    char words[160];
    snprintf(words, sizeof words,
             "\xC3\x97/\xC3\xB7%.3g: 1 own backtest shrunk toward 2 scopred backtests elsewhere "
             "(up to 1 doubling)", exp(h));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, words));
    if (!strstr(out, words))
        printf("\n  expected \"%s\" in:\n%s\n", words, out);
    double est = testutil_json_number(out, "estimate");
    double low = testutil_json_number(out, "cal_pi_low");
    double high = testutil_json_number(out, "cal_pi_high");
    CU_ASSERT_DOUBLE_EQUAL(est, 1.25, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(high / est, exp(h), 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(est / low, exp(h), 1e-9);
    free(out);
    testutil_remove_dir(dir);
}

/* The scores of campaign name in pool's text (error_pool_write's lines
 * start FAMILY TAB CAMPAIGN TAB). */
static size_t pool_lines_of(const error_pool *pool, const char *name)
{
    rbuf text;
    rbuf_init(&text);
    CU_ASSERT_TRUE_FATAL(error_pool_write(pool, &text));
    char key[64];
    snprintf(key, sizeof key, "scopred\t%s\t", name);
    size_t n = 0;
    const char *line = rbuf_str(&text);
    while (line && *line) {
        n += strncmp(line, key, strlen(key)) == 0;
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    rbuf_free(&text);
    return n;
}

/* The two pools give campaign camp's experiments the same model. */
static void check_same_target(backtest_cache *whole, backtest_cache *other, const campaign *camp)
{
    calibrate_model mw, mo;
    size_t nw = 0, no = 0, pw = 0, po = 0;
    CU_ASSERT_EQUAL(error_pool_target(backtest_cache_pool(whole), "scopred", camp,
                                      CALIBRATE_POOL_BINS, 0.95, &mw, &nw, &pw),
                    CALIBRATE_OK);
    CU_ASSERT_EQUAL(error_pool_target(backtest_cache_pool(other), "scopred", camp,
                                      CALIBRATE_POOL_BINS, 0.95, &mo, &no, &po),
                    CALIBRATE_OK);
    CU_ASSERT_TRUE(nw > 0);
    CU_ASSERT_EQUAL(no, nw);
    CU_ASSERT_EQUAL(mo.nscores, mw.nscores);
    CU_ASSERT_DOUBLE_EQUAL(mo.scale, mw.scale, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(mo.robust_scale, mw.robust_scale, 1e-12);
}

/* A pool filled without x (what `perfcast fit` and `compare` of x fill:
 * no refit of x's siblings for nothing) holds none of x's scores and
 * gives x's experiments the whole pool's model; asked for y, it takes x's
 * in, and then gives y the whole pool's model too. */
static void test_pool_without_own_campaign(void)
{
    char dir[256];
    write_two_campaigns(dir, sizeof dir);
    archive a;
    diag_list d;
    diag_init(&d);
    CU_ASSERT_TRUE_FATAL(archive_load(dir, &a, &d));
    const campaign *x = archive_campaign(&a, "x"), *y = archive_campaign(&a, "y");
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_PTR_NOT_NULL_FATAL(y);
    backtest_cache *whole = backtest_cache_new(), *for_x = backtest_cache_new();
    CU_ASSERT_TRUE_FATAL(whole && for_x);
    CU_ASSERT_TRUE(experiment_fill_pool(&a, NULL, whole));
    CU_ASSERT_TRUE(experiment_fill_pool(&a, x, for_x));
    CU_ASSERT_TRUE(backtest_cache_pool_filled(for_x, x));
    CU_ASSERT_FALSE(backtest_cache_pool_filled(for_x, y));
    CU_ASSERT_TRUE(pool_lines_of(backtest_cache_pool(whole), "x") > 0);
    CU_ASSERT_EQUAL(pool_lines_of(backtest_cache_pool(for_x), "x"), 0);
    CU_ASSERT_EQUAL(pool_lines_of(backtest_cache_pool(for_x), "y"),
                    pool_lines_of(backtest_cache_pool(whole), "y"));
    check_same_target(whole, for_x, x);
    /* Asked for y: x's scores come in. */
    CU_ASSERT_TRUE(experiment_fill_pool(&a, y, for_x));
    CU_ASSERT_TRUE(backtest_cache_pool_filled(for_x, y));
    CU_ASSERT_EQUAL(pool_lines_of(backtest_cache_pool(for_x), "x"),
                    pool_lines_of(backtest_cache_pool(whole), "x"));
    check_same_target(whole, for_x, y);
    backtest_cache_free(whole);
    backtest_cache_free(for_x);
    archive_free(&a);
    diag_free(&d);
    testutil_remove_dir(dir);
}

static void test_pool_deterministic(void)
{
    char dir[256], *out = NULL;
    write_two_campaigns(dir, sizeof dir);
    int rc = testutil_perfcast_run(&out, "build --archive %s --out %s-s1 --quiet", dir, dir);
    if (rc != 0)
        printf("\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(out);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "build --archive %s --out %s-s2 --quiet",
                                                dir, dir), 0);
    free(out);
    /* The page says where the width came from, and twice alike. */
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "grep -q 'scopred backtests elsewhere' "
                                                "%s-s1/campaigns/x/index.md", dir), 0);
    free(out);
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "diff -r %s-s1 %s-s2", dir, dir), 0);
    free(out);
    char site[300];
    for (int i = 1; i <= 2; i++) {
        snprintf(site, sizeof site, "%s-s%d", dir, i);
        testutil_remove_dir(site);
    }
    testutil_remove_dir(dir);
}

/* The advice page's interval footnote says where the width came from:
 * the words `perfcast advise` gives the same option (gen/fit/pooled_width.h,
 * "... pooled strip backtests of other campaigns shrunk toward the shipped
 * prior's ..."): the page read by xmllint, advise's CSV by gawk. */
static void test_advice_names_the_width(void)
{
    char dir[256], *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "build --archive archive --out %s/s --quiet",
                                                dir), 0);
    free(out);
    CU_ASSERT_EQUAL_FATAL(
        testutil_perfcast_run(&out, "advise --archive archive --campaign smpi-multi --code "
                                    "mgbench --size 65536x2048 --free sim-a-fe:64,sim-b-gige:32 "
                                    "--format csv | " TESTUTIL_GAWK_CSV "'NR == 1 { for (i = 1; "
                                    "i <= NF; i++) h[$i] = i; next } $1 == \"sim-b-gige:32\" "
                                    "{ v = $h[\"interval\"]; gsub(/^\"|\"$/, \"\", v); "
                                    "print v; exit }'"),
        0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    out[strcspn(out, "\n")] = '\0';
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "pooled strip backtests of other campaigns shrunk toward "
                                       "the shipped prior's"));
    char *page = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(&page, "xmllint --html --xpath 'string(//body)' "
                                                       "%s/s/advice/scenario-1.html 2>/dev/null",
                                                dir), 0);
    CU_ASSERT_PTR_NOT_NULL(page && strstr(page, out));
    if (!(page && strstr(page, out)))
        printf("\n  missing on the advice page: %s\n", out);
    free(page);
    free(out);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test numerics[] = {
        {"shrinkage and bins by hand", test_shrink_by_hand},
        {"the pool: once per configuration, other campaigns only", test_pool_rules},
        {NULL, NULL},
    };
    static const testutil_test archive_tests[] = {
        {"a planted sibling's backtests stay out; words and widths", test_pool_end_to_end},
        {"same archive, byte-identical pages", test_pool_deterministic},
        {"a pool without the fitted campaign serves it as the whole pool",
         test_pool_without_own_campaign},
        {"the advice footnote names where the width came from", test_advice_names_the_width},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {
        {"pooled error model, numerics", numerics},
        {"pooled error model, end to end", archive_tests},
        {NULL, NULL},
    };
    return testutil_run_suites(suites);
}
