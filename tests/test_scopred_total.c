/*
 * test_scopred_total.c — ScoPred's option total=reconcile (issue 22, "sum
 * of parts"): the parts of a summed response are reconciled with a direct
 * fit of the total (models/reconcile.h). Checked end to end on a campaign
 * written here, against two other experiments of the same campaign that
 * perfcast fits without reconciling — the parts summed (the paper's rule)
 * and the total column fitted alone — combined by the arithmetic written
 * out below, not by models/reconcile.
 */
#include "tests/testutil.h"
#include "tests/testutil_csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[256];

/* a falls as 10/np, b grows as 0.5 + 0.05 np, two runs of each np with
 * +-1% and +-2% of deterministic noise; total = a + b. The total's formula
 * 1/np misses b's growth, so the direct fit and the sum of the parts
 * disagree at np = 32 and 64. */
static void write_campaign(void)
{
    char runs[4096];
    size_t used = (size_t)snprintf(runs, sizeof runs, "cluster,code,np,a,b,total\n");
    const double nps[] = {1, 2, 4, 8, 16, 32, 64};
    for (size_t i = 0; i < 7; i++)
        for (int rep = 0; rep < 2; rep++) {
            double s = rep ? 1 : -1, np = nps[i];
            double a = 10 / np * (1 + 0.01 * s * (double)(i % 3)),
                   b = (0.5 + 0.05 * np) * (1 - 0.02 * s * (double)(i % 2));
            used += (size_t)snprintf(runs + used, sizeof runs - used, "c,x,%g,%.12g,%.12g,%.12g\n",
                                     np, a, b, a + b);
        }
    const char *experiments =
        "name,model,response,formula,train,target,options\n"
        "sum,scopred,a+b,1/np,np <= 16,np >= 32,formula_a=1/np;formula_b=np\n"
        "rec,scopred,a+b,1/np,np <= 16,np >= 32,formula_a=1/np;formula_b=np;total=reconcile\n"
        "direct,scopred,total,1/np,np <= 16,np >= 32,\n";
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, "cluster\nc\n", "t", experiments, runs));
}

/* `perfcast predict --format csv t NAME` into doc. */
static void predict(const char *name, csv_doc *doc)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.csv", dir, name);
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "%s predict --archive %s --format csv t %s > %s",
                                   testutil_perfcast(), dir, name, path);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(out);
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, doc));
}

static double cell(const csv_doc *doc, size_t r, const char *name)
{
    const char *v = testutil_csv_cell(doc, r, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    return strtod(v, NULL);
}

static void test_reconciled_with_direct_fit(void)
{
    write_campaign();
    csv_doc sum, rec, direct;
    predict("sum", &sum);
    predict("rec", &rec);
    predict("direct", &direct);
    for (size_t r = 0; r < 2; r++) {
        /* The two estimates of the total and their 95% PI half-widths. */
        double pa = cell(&sum, r, "estimate_a"), pb = cell(&sum, r, "estimate_b");
        double ha = cell(&sum, r, "pi_high_a") - pa, hb = cell(&sum, r, "pi_high_b") - pb;
        double s = pa + pb, hs = ha + hb;
        double t = cell(&direct, r, "estimate"), ht = cell(&direct, r, "pi_high") - t;
        CU_ASSERT(fabs(s - t) > 0.01 * s); /* the case is one where they disagree */
        double w = ht * ht / (ht * ht + hs * hs), c = w * s + (1 - w) * t;
        CU_ASSERT_DOUBLE_EQUAL(cell(&rec, r, "estimate"), c, 1e-9 * c);
        /* The bound on the combined half-width, whatever the correlation. */
        CU_ASSERT_DOUBLE_EQUAL(cell(&rec, r, "pi_high") - c, w * hs + (1 - w) * ht, 1e-9 * c);
        /* The parts add up to it, each moved by its share ha^2 : hb^2. */
        double ra = cell(&rec, r, "estimate_a"), rb = cell(&rec, r, "estimate_b");
        CU_ASSERT_DOUBLE_EQUAL(ra + rb, c, 1e-9 * c);
        CU_ASSERT_DOUBLE_EQUAL(ra - pa, (c - s) * ha * ha / (ha * ha + hb * hb), 1e-9 * c);
        /* Each part keeps its own half-width. */
        CU_ASSERT_DOUBLE_EQUAL(cell(&rec, r, "pi_high_a") - ra, ha, 1e-9 * c);
        const char *note = testutil_csv_cell(&rec, r, "note");
        CU_ASSERT_PTR_NOT_NULL(note && strstr(note, "total reconciled: sum of parts"));
    }
    csv_doc_free(&sum);
    csv_doc_free(&rec);
    csv_doc_free(&direct);
    testutil_remove_dir(dir);
}

/* A value other than sum or reconcile is refused at the options cell. */
static void test_bad_value(void)
{
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(
        dir, "cluster\nc\n", "t",
        "name,model,response,formula,train,target,options\n"
        "bad,scopred,a+b,1/np,np <= 2,np >= 4,total=both\n",
        "cluster,code,np,a,b\nc,x,1,1,1\nc,x,2,0.6,1\nc,x,4,0.4,1\n"));
    char *out = NULL;
    CU_ASSERT_NOT_EQUAL(testutil_perfcast_run(&out, "check --archive %s", dir), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "total=both: must be sum or reconcile"));
    free(out);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"parts reconciled with a direct fit of the total", test_reconciled_with_direct_fit},
        {"a value other than sum or reconcile", test_bad_value},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"scopred total=reconcile", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
