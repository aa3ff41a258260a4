/*
 * test_rjopts.c — the option formats of the Romanazzi-Jimack adapters and
 * commands: key=value lists, number lists, sizes and free resources; the
 * whole numbers in a range every model's counting options take.
 */
#include "gen/fit/rjopts.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void test_key_values(void)
{
    rjopts o;
    char err[300];
    CU_ASSERT_TRUE_FATAL(rjopts_parse(" np0 = 4,8 ; work_tol=0.05;", rjopts_keys("strip"), &o, err,
                                      sizeof err));
    CU_ASSERT_EQUAL(o.n, 2);
    CU_ASSERT_STRING_EQUAL(rjopts_get(&o, "np0"), "4,8");
    double v;
    CU_ASSERT_TRUE(rjopts_number(&o, "work_tol", 1, 0, &v, err, sizeof err));
    CU_ASSERT_DOUBLE_EQUAL(v, 0.05, 0);
    CU_ASSERT_TRUE(rjopts_number(&o, "absent", 7, 0, &v, err, sizeof err));
    CU_ASSERT_DOUBLE_EQUAL(v, 7, 0);
    CU_ASSERT_FALSE(rjopts_number(&o, "np0", 1, 0, &v, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "np0=4,8: expected a number"));
    /* Below the bound: refused, *out left alone. */
    v = 3;
    CU_ASSERT_FALSE(rjopts_number(&o, "work_tol", 1, 0.1, &v, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "option work_tol=0.05: expected a number >= 0.1");
    CU_ASSERT_DOUBLE_EQUAL(v, 3, 0);
    bool exact = true;
    CU_ASSERT_TRUE(rjopts_exact(&o, "tcomp", &exact, err, sizeof err));
    CU_ASSERT_FALSE(exact);
    rjopts_free(&o);

    CU_ASSERT_TRUE(rjopts_parse(NULL, rjopts_keys("block"), &o, err, sizeof err));
    CU_ASSERT_EQUAL(o.n, 0);
    CU_ASSERT_FALSE(rjopts_parse("nps", rjopts_keys("block"), &o, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected key=value"));
    CU_ASSERT_FALSE(rjopts_parse("np0=4", rjopts_keys("block"), &o, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(err, "unknown option 'np0' (known: nps, work_tol, t22, contention, overhead, network, jobnp, "
               "between, scaling)"));
    CU_ASSERT_FALSE(rjopts_parse("t22=a;t22=b", rjopts_keys("block"), &o, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "given twice"));
    CU_ASSERT_TRUE(rjopts_parse("t22=exact", rjopts_keys("block"), &o, err, sizeof err));
    CU_ASSERT_TRUE(rjopts_exact(&o, "t22", &exact, err, sizeof err));
    CU_ASSERT_TRUE(exact);
    rjopts_free(&o);
    CU_ASSERT_TRUE(rjopts_parse("tcomp=sometimes", rjopts_keys("multicluster"), &o, err, sizeof err));
    CU_ASSERT_FALSE(rjopts_exact(&o, "tcomp", &exact, err, sizeof err));
    rjopts_free(&o);
    /* every model's own option (gen/fit/scaling_option.h) */
    CU_ASSERT_TRUE(rjopts_parse("scaling=weak", rjopts_keys("strip"), &o, err, sizeof err));
    rjopts_free(&o);
    CU_ASSERT_PTR_NULL(rjopts_keys("scopred"));
    CU_ASSERT_PTR_NULL(rjopts_keys(NULL));
}

static void test_lists_sizes_resources(void)
{
    double v[4];
    size_t n;
    char err[300];
    CU_ASSERT_TRUE(rjopts_number_list("4, 8,16", v, 4, &n, err, sizeof err));
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_DOUBLE_EQUAL(v[2], 16, 0);
    CU_ASSERT_FALSE(rjopts_number_list("4,,8", v, 4, &n, err, sizeof err));
    CU_ASSERT_FALSE(rjopts_number_list("4,-8", v, 4, &n, err, sizeof err));
    CU_ASSERT_FALSE(rjopts_number_list("1,2,3,4,5", v, 4, &n, err, sizeof err));
    CU_ASSERT_FALSE(rjopts_number_list("four", v, 4, &n, err, sizeof err));

    long a, b;
    CU_ASSERT_TRUE(rjopts_size("65536x131072", &a, &b, err, sizeof err));
    CU_ASSERT_EQUAL(a, 65536);
    CU_ASSERT_EQUAL(b, 131072);
    CU_ASSERT_TRUE(rjopts_size("8X16", &a, &b, err, sizeof err));
    CU_ASSERT_FALSE(rjopts_size("65536", &a, &b, err, sizeof err));
    CU_ASSERT_FALSE(rjopts_size("0x4", &a, &b, err, sizeof err));
    CU_ASSERT_FALSE(rjopts_size("2.5x4", &a, &b, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "like 65536x65536"));

    rjopts_resource r[3];
    CU_ASSERT_TRUE(rjopts_resources("wrg2-ethernet:64, wrg3-myrinet:32", r, 3, &n, err, sizeof err));
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_STRING_EQUAL(r[1].name, "wrg3-myrinet");
    CU_ASSERT_EQUAL(r[1].np, 32);
    CU_ASSERT_FALSE(rjopts_resources("wrg2", r, 3, &n, err, sizeof err));
    CU_ASSERT_FALSE(rjopts_resources(":4", r, 3, &n, err, sizeof err));
    CU_ASSERT_FALSE(rjopts_resources("a:0", r, 3, &n, err, sizeof err));
    CU_ASSERT_FALSE(rjopts_resources("a:1,b:1,c:1,d:1", r, 3, &n, err, sizeof err));
}

/* contention=roofline|none; absent means AUTO (roofline where the cluster
 * gives both bandwidths); anything else is refused, naming the value. */
/* Whole numbers in a range: what strtoul would turn into a huge count
 * ("-1", "99999999999999999999") or read a prefix of ("1.5", "4abc") is
 * refused, with the key, the text and the range. */
static void test_whole_numbers(void)
{
    static const struct {
        const char *text;
        bool ok;
        long want;
    } cases[] = {
        {"3", true, 3},   {" 10 ", true, 10}, {"+1", true, 1}, {"1", true, 1},
        {"0", false, 0},  {"11", false, 0},   {"-1", false, 0}, {"-1000", false, 0},
        {"1.5", false, 0}, {"abc", false, 0}, {"4abc", false, 0}, {"", false, 0},
        {" ", false, 0},  {"0x4", false, 0},  {"- 1", false, 0}, {"1e1", false, 0},
        {"99999999999999999999", false, 0},   {"-99999999999999999999", false, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char err[300] = "";
        long v = -7;
        bool ok = rjopts_whole("max_terms", cases[i].text, 1, 10, &v, err, sizeof err);
        CU_ASSERT_EQUAL(ok, cases[i].ok);
        if (ok != cases[i].ok)
            fprintf(stderr, "'%s': %s\n", cases[i].text, ok ? "accepted" : err);
        if (ok) {
            CU_ASSERT_EQUAL(v, cases[i].want);
        } else {
            char want[200];
            snprintf(want, sizeof want,
                     "option max_terms=%s: expected a whole number from 1 to 10", cases[i].text);
            CU_ASSERT_STRING_EQUAL(err, want);
            CU_ASSERT_EQUAL(v, -7);
        }
    }
}

/* A misspelt key: the known ones, and the nearest. */
static void test_unknown_key(void)
{
    rjopts o;
    char err[300];
    CU_ASSERT_FALSE(rjopts_parse("tcomps=exact", rjopts_keys("strip"), &o, err, sizeof err));
    CU_ASSERT_STRING_EQUAL(err, "unknown option 'tcomps' (known: np0, work_tol, tcomp, "
                                "contention, overhead, scaling); did you mean 'tcomp'?");
    CU_ASSERT_FALSE(rjopts_parse("colour=red", rjopts_keys("strip"), &o, err, sizeof err));
    CU_ASSERT_PTR_NULL(strstr(err, "did you mean"));
}

static void test_contention_option(void)
{
    rjopts o;
    char err[300];
    static const struct {
        const char *text;
        bool ok;
        rjopts_contention_mode mode;
    } cases[] = {
        {"np0=4,8", true, RJOPTS_CONTENTION_AUTO},
        {"contention = none", true, RJOPTS_CONTENTION_NONE},
        {"contention=roofline", true, RJOPTS_CONTENTION_ROOFLINE},
        {"contention=Roofline", false, RJOPTS_CONTENTION_AUTO},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rjopts_contention_mode mode = RJOPTS_CONTENTION_NONE;
        CU_ASSERT_TRUE_FATAL(rjopts_parse(cases[i].text, rjopts_keys("strip"), &o, err,
                                          sizeof err));
        CU_ASSERT_EQUAL(rjopts_contention(&o, &mode, err, sizeof err), cases[i].ok);
        CU_ASSERT_EQUAL(mode, cases[i].mode);
        rjopts_free(&o);
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "option contention=Roofline: expected roofline or none"));
    CU_ASSERT_TRUE_FATAL(rjopts_parse("contention=none", rjopts_keys("block"), &o, err, sizeof err));
    rjopts_free(&o);
    /* The multi-cluster model takes it too: each side's law. */
    CU_ASSERT_TRUE_FATAL(rjopts_parse("contention=none", rjopts_keys("multicluster"), &o, err,
                                      sizeof err));
    rjopts_free(&o);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"key=value options", test_key_values},
        {"contention=roofline|none", test_contention_option},
        {"lists, sizes, resources", test_lists_sizes_resources},
        {"whole numbers in a range", test_whole_numbers},
        {"a misspelt key: did you mean", test_unknown_key},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"rjopts", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
