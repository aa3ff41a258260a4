/*
 * test_check.c — `perfcast check` tells the fit-time truth: whatever `fit`
 * or `build` would reject (a number compared with a text, text in
 * arithmetic, an unknown column, literals that overflow, hostile nesting, a
 * selection that is empty, a fit that fails, a bad advice scenario) is
 * reported by `check` with exit 1 at FILE:LINE:COL of the cell at fault, and
 * `build` on the same archive never crashes. Each case is a small archive
 * written into a temporary folder.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char header[] = "name,model,response,formula,train,target,title,options\n";

/* An archive with campaign c1 (cluster k1; np 1, 2, 4 measured, 8 to
 * predict; na = 100; a text column tag_size) and the given experiments.csv
 * body and advice.csv (NULL: none). Returns the archive folder in dir. */
static bool write_archive(char *dir, size_t len, const char *experiments, const char *advice)
{
    char path[4200];
    if (!testutil_temp_dir(dir, len))
        return false;
    bool ok = true;
    snprintf(path, sizeof path, "%s/clusters.csv", dir);
    ok = ok && testutil_write_file(path, "cluster,nodes,cores_per_node,rate_per_core_hour\n"
                                         "k1,4,2,1\n");
    snprintf(path, sizeof path, "%s/c1/runs.csv", dir);
    ok = ok && testutil_write_file(path, "cluster,np,na,tag_size,time_s\n"
                                         "k1,1,100,small,10\nk1,2,100,small,5.2\n"
                                         "k1,4,100,small,2.8\nk1,8,100,small,\n");
    snprintf(path, sizeof path, "%s/c1/README.md", dir);
    ok = ok && testutil_write_file(path, "# c1\n");
    snprintf(path, sizeof path, "%s/c1/experiments.csv", dir);
    size_t n = strlen(header) + strlen(experiments) + 1;
    char *text = malloc(n);
    ok = ok && text;
    if (text) {
        snprintf(text, n, "%s%s", header, experiments);
        ok = ok && testutil_write_file(path, text);
        free(text);
    }
    snprintf(path, sizeof path, "%s/advice.csv", dir);
    if (advice)
        ok = ok && testutil_write_file(path, advice);
    return ok;
}

/* The test archive dir and the site built beside it, dir-site. */
static void remove_archive_and_site(const char *dir)
{
    char site[4200];
    snprintf(site, sizeof site, "%s-site", dir);
    testutil_remove_dir(site);
    testutil_remove_dir(dir);
}

/* `check` exits 1 and prints want (relative to the archive folder); `build`
 * exits 0 or 1, never crashing. */
static void expect_problem(const char *experiments, const char *advice, const char *want)
{
    char dir[4096];
    CU_ASSERT_TRUE_FATAL(write_archive(dir, sizeof dir, experiments, advice));
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "check --archive %s", dir);
    CU_ASSERT_EQUAL(rc, 1);
    char full[4600];
    snprintf(full, sizeof full, "%s/%s", dir, want);
    bool found = out && strstr(out, full);
    if (!found)
        fprintf(stderr, "\ncheck: want '%s', got:\n%.2000s\n", want, out ? out : "(nothing)");
    CU_ASSERT_TRUE(found);
    free(out);
    out = NULL;
    /* The site goes beside the archive: build refuses an --out inside it. */
    rc = testutil_perfcast_run(&out, "build --quiet --archive %s --out %s-site", dir, dir);
    if (rc != 0 && rc != 1)
        fprintf(stderr, "\nbuild exited %d:\n%.2000s\n", rc, out ? out : "");
    CU_ASSERT_TRUE(rc == 0 || rc == 1);
    CU_ASSERT_PTR_NULL(out ? strstr(out, "overlap") : NULL);
    free(out);
    remove_archive_and_site(dir);
}

/* The archive is fine: `check` exits 0. */
static void expect_clean(const char *experiments)
{
    char dir[4096];
    CU_ASSERT_TRUE_FATAL(write_archive(dir, sizeof dir, experiments, NULL));
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "check --archive %s", dir);
    if (rc != 0)
        fprintf(stderr, "\ncheck exited %d:\n%.2000s\n", rc, out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    testutil_remove_dir(dir);
}

/* Columns are counted by hand: "e1,scopred,time_s,na/np," is 24 characters,
 * so the train cell starts at column 25 (26 inside quotes). */
static void test_types_and_names(void)
{
    expect_clean("e1,scopred,time_s,na/np,np <= 4,np == 8,,\n");
    /* The '==' is 4 characters into "np == ""eight""". */
    expect_problem("e1,scopred,time_s,na/np,\"np == \"\"eight\"\"\",np == 8,,\n", NULL,
                   "c1/experiments.csv:2:29: cannot compare a number with a text in the train filter");
    /* The second tag_size is 23 characters and two doubled quotes into the cell. */
    expect_problem("e1,scopred,time_s,na/np,\"tag_size == \"\"small\"\" && tag_size * 2 > 1\",,,\n",
                   NULL, "c1/experiments.csv:2:51: expected a number, found the text column "
                         "'tag_size' in the train filter");
    /* "np <= 4," is 8 more: the target starts at 33. */
    expect_problem("e1,scopred,time_s,na/np,np <= 4,cluster*np > 1,,\n", NULL,
                   "c1/experiments.csv:2:33: expected a number, found the text column 'cluster'");
    expect_problem("e1,scopred,time_s,na/np,np <= 4 && nosuch > 1,np == 8,,\n", NULL,
                   "c1/experiments.csv:2:36: unknown column 'nosuch' in the train filter");
    expect_problem("e1,scopred,time_s,na/np,tag_size,np == 8,,\n", NULL,
                   "c1/experiments.csv:2:25: the train filter gives a text, expected a number");
    expect_problem("e1,scopred,time_s,na/np * 1e999,np <= 4,np == 8,,\n", NULL,
                   "c1/experiments.csv:2:27: number 1e999 is too large");
    expect_problem("e1,scopred,time_s,na/np,np < 1e348,np == 8,,\n", NULL,
                   "c1/experiments.csv:2:30: number 1e348 is too large");
    /* Blanks before a quoted cell: the position still counts from the
     * quote (2 blanks and the quote, then "np <= 4 && " is 11). */
    expect_problem("e1,scopred,time_s,na/np,  \"np <= 4 && nosuch > 1\",np == 8,,\n", NULL,
                   "c1/experiments.csv:2:39: unknown column 'nosuch' in the train filter");
    /* has() takes a column of either kind, and only a column: "has(" is 4. */
    expect_clean("e1,scopred,time_s,na/np,has(tag_size) && has(np),np == 8,,\n");
    expect_problem("e1,scopred,time_s,na/np,has(np + 1),np == 8,,\n", NULL,
                   "c1/experiments.csv:2:29: has() takes a column name in the train filter");
}

/* A cell made of a prefix repeated n times and a tail, in a row of
 * experiments.csv where it takes the place of cell `column` (3 = formula,
 * 4 = train, 5 = target). */
static char *hostile_row(int column, const char *unit, size_t n, const char *close, const char *tail)
{
    size_t len = strlen(unit) * n + strlen(close) * n + strlen(tail) + 200;
    char *row = malloc(len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(row);
    const char *cells[] = {"e1", "scopred", "time_s", "na/np", "np <= 4", "np == 8"};
    size_t at = 0;
    for (int i = 0; i < 6; i++) {
        if (i == column) {
            for (size_t k = 0; k < n; k++)
                at += (size_t)sprintf(row + at, "%s", unit);
            at += (size_t)sprintf(row + at, "%s", tail);
            for (size_t k = 0; k < n; k++)
                at += (size_t)sprintf(row + at, "%s", close);
        } else {
            at += (size_t)sprintf(row + at, "%s", cells[i]);
        }
        row[at++] = ',';
    }
    sprintf(row + at, ",\n");
    return row;
}

static void expect_deep(int column, const char *unit, size_t n, const char *close,
                        const char *tail, const char *want)
{
    char *row = hostile_row(column, unit, n, close, tail);
    expect_problem(row, NULL, want);
    free(row);
}

/* The report's inputs that crashed check or build; and at a small size, the
 * exact column (the cell starts at 19, 25 or 33; the 257th level is one too
 * many). Under SAN=1 the megabyte cells shrink tenfold: libcsv grows a
 * field's buffer by a fixed step, and ASan's realloc copies every time, so
 * reading them would take minutes (the CSV reader's matter, not this test's). */
static void test_hostile_nesting(void)
{
    const char *san = getenv("PERFCAST_SAN");
    size_t million = san && strcmp(san, "1") == 0 ? 100000 : 1000000;
    expect_deep(3, "(", 30000, ")", "np", "c1/experiments.csv:2:");
    expect_deep(5, "-", 100000, "", "np > 1", "c1/experiments.csv:2:");
    expect_deep(3, "2^", 100000, "", "2", "c1/experiments.csv:2:");
    expect_deep(4, "!", million, "", "np > 1", "c1/experiments.csv:2:");
    expect_deep(3, "np+", million, "", "np", "c1/experiments.csv:2:");
    expect_deep(4, "!", 100000, "", "np > 1", "c1/experiments.csv:2:");
    expect_deep(3, "(", 300, ")", "np", "c1/experiments.csv:2:275: nested too deeply");
    expect_deep(4, "!", 300, "", "np > 1", "c1/experiments.csv:2:281: nested too deeply");
    /* 256 '+' would make 257 levels: the last one, at 19 + 3*256 - 1. */
    expect_deep(3, "np+", 300, "", "np", "c1/experiments.csv:2:786: nested too deeply");
}

/* What only running the experiment finds, positioned at its cell. */
static void test_fit_time_failures(void)
{
    expect_problem("e1,scopred,time_s,na/np,np <= 4 && na > 1000,np == 8,,\n", NULL,
                   "c1/experiments.csv:2:25: experiment 'e1': the train filter selects no measured run");
    expect_problem("e1,scopred,time_s,na/np,np/(np-1) > 0,np == 8,,\n", NULL,
                   "c1/experiments.csv:2:27: experiment 'e1': division by zero in the train "
                   "filter (runs.csv line 2)");
    expect_problem("e1,scopred,time_s,na/(np-1),np <= 4,np == 8,,\n", NULL,
                   "c1/experiments.csv:2:21: experiment 'e1': division by zero in the formula "
                   "(runs.csv line 2)");
    expect_problem("e1,scopred,time_s,na/np,np <= 4,np == 8,,formula_time_s=na/nosuch\n", NULL,
                   "c1/experiments.csv:2:42: experiment 'e1': options formula_time_s:4: unknown "
                   "column 'nosuch'");
    expect_problem("e1,strip,time_s,,np <= 4,np == 8,,\n", NULL,
                   "c1/experiments.csv:2:1: experiment 'e1': strip fit for cluster k1");
}

/* An experiment (no formula: the term search) with the given options:
 * check, fit and predict each exit 1 naming want, a problem at the options
 * cell (column 37: "e1,scopred,time_s,,np <= 4,np == 8,," is 36). */
static void expect_bad_option(const char *options, const char *want)
{
    char row[400], full[4800];
    snprintf(row, sizeof row, "e1,scopred,time_s,,np <= 4,np == 8,,%s\n", options);
    snprintf(full, sizeof full, "c1/experiments.csv:2:37: %s", want);
    expect_problem(row, NULL, full);
    char dir[4096];
    CU_ASSERT_TRUE_FATAL(write_archive(dir, sizeof dir, row, NULL));
    snprintf(full, sizeof full, "%s/c1/experiments.csv:2:37: %s", dir, want);
    const char *commands[] = {"fit", "predict"};
    for (size_t i = 0; i < 2; i++) {
        char *out = NULL;
        CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "%s --archive %s c1 e1", commands[i], dir), 1);
        bool found = out && strstr(out, full);
        if (!found)
            fprintf(stderr, "\n%s: want '%s', got:\n%.2000s\n", commands[i], full,
                    out ? out : "(nothing)");
        CU_ASSERT_TRUE(found);
        free(out);
    }
    testutil_remove_dir(dir);
}

/* The values of scopred's options, refused where they are written;
 * max_terms=-1 crashed all three commands. */
static void test_option_values(void)
{
    expect_clean("e1,scopred,time_s,,np <= 4,np == 8,,max_terms=2\n");
    expect_bad_option("max_terms=-1", "option max_terms=-1: expected a whole number from 1 to 10");
    expect_bad_option("max_terms=99999999999999999999",
                      "option max_terms=99999999999999999999: expected a whole number from 1 "
                      "to 10");
    expect_bad_option("max_terms=1.5", "option max_terms=1.5: expected a whole number from 1 to 10");
    /* params and formula_<response> naming what the fit would drop
     * without a word (params: then the constant model). */
    expect_clean("e1,scopred,time_s,,np <= 4,np == 8,,params=np\n");
    expect_bad_option("params=nosuch", "options: unknown column 'nosuch' in params");
    expect_bad_option("params=nq", "options: unknown column 'nq' in params; did you mean 'np'?");
    expect_bad_option("params=tag_size", "options: 'tag_size' in params is not a numeric column");
    expect_bad_option("formula_na=np", "options: unknown key 'formula_na': 'na' is not a "
                      "response of the experiment, which predicts time_s");
    /* The mesh models' values are checked as their keys are, at the cell
     * (they were named at the row by the fit, or not at all: block took a
     * negative work_tol). "e1,block,time_s,,np <= 4,np == 8,," is 34. */
    expect_problem("e1,block,time_s,,np <= 4,np == 8,,work_tol=-1\n", NULL,
                   "c1/experiments.csv:2:35: option work_tol=-1: expected a number >= 0");
    expect_problem("e1,strip,time_s,,np <= 4,np == 8,,tcomp=maybe\n", NULL,
                   "c1/experiments.csv:2:35: option tcomp=maybe: expected exact or interpolate");
}

/* `fit` names the same FILE:LINE:COL as `check`, and so does the campaign
 * page `build` writes (relative to the campaign folder). */
static void test_fit_positions(void)
{
    char dir[4096];
    CU_ASSERT_TRUE_FATAL(write_archive(dir, sizeof dir,
                                       "e1,scopred,time_s,na/(np-1),np <= 4,np == 8,,\n", NULL));
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "fit --archive %s c1 e1", dir), 1);
    char want[4600];
    snprintf(want, sizeof want, "%s/c1/experiments.csv:2:21: division by zero in the formula", dir);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, want) : NULL);
    free(out);
    out = NULL;
    testutil_perfcast_run(&out, "build --quiet --archive %s --out %s-site", dir, dir);
    free(out);
    char page[4200];
    snprintf(page, sizeof page, "%s-site/campaigns/c1/index.md", dir);
    char *md = testutil_read_file(page);
    CU_ASSERT_PTR_NOT_NULL(md ? strstr(md, " experiments.csv:2:21: division by zero") : NULL);
    free(md);
    remove_archive_and_site(dir);
}

/* advice.csv: scenarios the advice pages could not answer. */
static void test_advice(void)
{
    const char *ok = "e1,scopred,time_s,na/np,np <= 4,np == 8,,\n";
    expect_problem(ok, "scenario,name,title,free,size,campaign,code,note\n"
                       "1,s1,,k1:4,64x64,nosuch,,\n",
                   "advice.csv:2:18: scenario 's1': unknown campaign 'nosuch'");
    expect_problem(ok, "scenario,name,title,free,size,campaign,code,note\n"
                       "1,s2,,k9:4,64x64,,,\n",
                   "advice.csv:2:7: scenario 's2': unknown cluster 'k9'");
    expect_problem(ok, "scenario,name,title,free,size,campaign,code,note\n"
                       "1,s3,,k1:4,,,,\n",
                   "advice.csv:2:12: scenario 's3': scenario 1 needs a size NAxNB");
}

int main(void)
{
    static const testutil_test tests[] = {
        {"types and names of filters and formulas", test_types_and_names},
        {"hostile nesting: exit 1, positioned, build survives", test_hostile_nesting},
        {"fit-time failures found by check", test_fit_time_failures},
        {"fit prints the same position", test_fit_positions},
        {"option values: check, fit and predict refuse them at the cell", test_option_values},
        {"advice.csv scenarios", test_advice},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"check = fit-time truth", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
