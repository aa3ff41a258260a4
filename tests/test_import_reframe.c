/*
 * test_import_reframe.c — `perfcast import reframe` on real ReFrame output
 * (tests/fixtures/import/reframe, produced by ReFrame 4.10.1 and 3.12.0:
 * see the README there) and on small hostile files written here: test
 * parameters become their own columns, ReFrame 3.10+ labels give cluster
 * and environment, units are converted to seconds, the JSON run report
 * reads like the perflog, and a bad time, date or unit is refused at
 * FILE:LINE:COL with nothing written.
 */
#include "tests/testutil.h"
#include "tests/testutil_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/base/csvread.h"

#define FIX "tests/fixtures/import/reframe"

static char tmp[512];

static int setup(void)
{
    return testutil_temp_dir(tmp, sizeof tmp) ? 0 : 1;
}

static int teardown(void)
{
    testutil_remove_dir(tmp);
    return 0;
}

/* Import file into campaign (must succeed) and load its runs.csv. */
static void import_and_load(const char *file, const char *campaign, csv_doc *doc)
{
    char *out = NULL, path[1024];
    int rc = testutil_import(&out, tmp, "reframe", file, campaign, NULL);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(out);
    snprintf(path, sizeof path, "%s/a/%s/runs.csv", tmp, campaign);
    diag_list d;
    diag_init(&d);
    CU_ASSERT_TRUE_FATAL(csv_read_file(path, path, doc, &d) && d.count == 0);
    diag_free(&d);
}




static void assert_checks(void)
{
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "check --archive %s/a", tmp);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
}

/* The four runs of the real test: sizes 100 and 200 on 1 and 2 tasks, in
 * the order given (by size, then tasks). elapsed_ms (ms) is converted to
 * seconds; the rate stays as written. */
static void assert_sleep_scaling(const csv_doc *doc, const char *const times[4])
{
    static const char *const sizes[] = {"100", "100", "200", "200"}, *nps[] = {"1", "2", "1", "2"};
    CU_ASSERT_EQUAL_FATAL(doc->nrows, 5);
    for (size_t r = 0; r < 4; r++) {
        testutil_assert_cell(doc, r, "size", sizes[r]);
        testutil_assert_cell(doc, r, "np", nps[r]);
        testutil_assert_cell(doc, r, "code", "sleep_scaling");
        testutil_assert_cell(doc, r, "cluster", "generic-default");
        testutil_assert_cell(doc, r, "tag_environ", "builtin");
        testutil_assert_cell(doc, r, "time_elapsed_s", times[r]);
        testutil_assert_cell(doc, r, "date", "2026-11-26");
    }
    /* tasks is the process count, not a second column beside np. */
    CU_ASSERT_FALSE(testutil_csv_has_column(doc, "tasks"));
    CU_ASSERT_FALSE(testutil_csv_has_column(doc, "tag_tasks"));
}

/* ReFrame 4.10's perflog: the parameters ride in `name` ("sleep_scaling
 * %size=100 %tasks=1"); short_name carries a hash per variant and must not
 * become code (it would split every run into its own configuration). */
static void test_rf410_perflog(void)
{
    csv_doc doc;
    import_and_load(FIX "/rf410_perflog.log", "p410", &doc);
    static const char *const times[] = {"0.059250047", "0.039510157", "0.112005118",
                                        "0.068663128"};
    assert_sleep_scaling(&doc, times);
    testutil_assert_cell(&doc, 0, "time_elapsed_ms_s", "0.059250047"); /* 59.250047 ms */
    testutil_assert_cell(&doc, 3, "metric_rate", "2912.7714659314674");
    testutil_assert_cell(&doc, 3, "note", "job 14266, pass");
    CU_ASSERT_FALSE(
        testutil_csv_has_column(&doc, "time_elapsed_ms")); /* never ms under a seconds name */
    csv_doc_free(&doc);
    assert_checks();
}

/* The same session's JSON report (ReFrame 4 layout: perfvalues) gives the
 * same runs as its perflog. */
static void test_rf410_report(void)
{
    csv_doc doc;
    import_and_load(FIX "/rf410_report.json", "j410", &doc);
    static const char *const times[] = {"0.059250047", "0.039510157", "0.112005118",
                                        "0.068663128"};
    assert_sleep_scaling(&doc, times);
    testutil_assert_cell(&doc, 1, "time_elapsed_ms_s", "0.039510157");
    testutil_assert_cell(&doc, 0, "metric_rate", "1687.7623742644457");
    csv_doc_free(&doc);
    assert_checks();
}

/* ReFrame 3.12's default perflog: label "NAME %p=v @SYS:PART+ENV", no
 * num_tasks field (np from the tasks parameter). The four files ReFrame
 * wrote (one per variant) are concatenated, in size order. */
static void test_rf312_default(void)
{
    csv_doc doc;
    import_and_load(FIX "/rf312_default.log", "p312", &doc);
    static const char *const times[] = {"0.06317537", "0.040289848", "0.107896112",
                                        "0.075723837"};
    assert_sleep_scaling(&doc, times);
    testutil_assert_cell(&doc, 0, "time_elapsed_ms_s", "0.06317537");
    csv_doc_free(&doc);
    assert_checks();
}

/* A site's 3.12 format: num_tasks= added and the completion time with its
 * zone (datefmt %FT%T%z: "2026-11-26T15:49:43+0100"). */
static void test_rf312_site(void)
{
    csv_doc doc;
    import_and_load(FIX "/rf312_site.log", "s312", &doc);
    static const char *const times[] = {"0.057352603", "0.035366029", "0.103837051",
                                        "0.056504546"};
    assert_sleep_scaling(&doc, times);
    csv_doc_free(&doc);
    assert_checks();
}

/* ReFrame 3.12's JSON report (perfvars, system "SYS:PART", environment,
 * check_vars.num_tasks; the date is the session's start). Its cases come
 * in completion order: 200/2, 200/1, 100/2, 100/1. */
static void test_rf312_report(void)
{
    csv_doc doc;
    import_and_load(FIX "/rf312_report.json", "j312", &doc);
    CU_ASSERT_EQUAL_FATAL(doc.nrows, 5);
    testutil_assert_cell(&doc, 0, "size", "200");
    testutil_assert_cell(&doc, 0, "np", "2");
    testutil_assert_cell(&doc, 0, "time_elapsed_s", "0.075723837");
    testutil_assert_cell(&doc, 3, "size", "100");
    testutil_assert_cell(&doc, 3, "np", "1");
    testutil_assert_cell(&doc, 3, "cluster", "generic-default");
    testutil_assert_cell(&doc, 3, "tag_environ", "builtin");
    testutil_assert_cell(&doc, 3, "date", "2026-11-26");
    testutil_assert_cell(&doc, 3, "note", "job 16104, success");
    csv_doc_free(&doc);
    assert_checks();
}

/* Write text to a file in tmp and return its path (static buffer). */
static const char *write_input(const char *name, const char *text)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/in/%s", tmp, name);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, text));
    return path;
}

#define HEAD4 "result|job_completion_time|name|num_tasks|system|partition|environ|t_value|t_unit\n"
#define LINE3 "2024-05-03T10:20:31+0200|reframe 3.12.0|k %size=1 @s:p+e|jobid=1|num_tasks=2|"

/* Units: 1600 ms is 1.6 s, 2 min is 120 s; one timed variable is time_s. */
static void test_units_converted(void)
{
    csv_doc doc;
    import_and_load(write_input("ms.log", HEAD4 "pass|2024-05-03T10:20:31+0200|k %n=8|2|s|p|e|"
                                              "1600|ms\n"
                                              "pass|2024-05-03T10:20:32+0200|k %n=8|4|s|p|e|"
                                              "2|min\n"),
                    "ms", &doc);
    testutil_assert_cell(&doc, 0, "time_s", "1.6");
    testutil_assert_cell(&doc, 1, "time_s", "120");
    testutil_assert_cell(&doc, 0, "date", "2024-05-03");
    testutil_assert_cell(&doc, 0, "n", "8");
    csv_doc_free(&doc);
    import_and_load(write_input("us3.log", LINE3 "t=250|ref=0 (l=null, u=null)|us\n"), "us3", &doc);
    testutil_assert_cell(&doc, 0, "time_s", "0.00025");
    csv_doc_free(&doc);
}

/* Text parameters become tag_ columns; a parameter named like a column
 * perfcast fills (code) is renamed param_code. */
static void test_parameter_columns(void)
{
    csv_doc doc;
    import_and_load(write_input("tags.log", HEAD4 "pass|2024-05-03T10:20:31|k %kernel=copy "
                                                "%code=3 %f.bs=16|2|s|p|e|1.5|s\n"),
                    "tags", &doc);
    testutil_assert_cell(&doc, 0, "tag_kernel", "copy");
    testutil_assert_cell(&doc, 0, "param_code", "3");
    testutil_assert_cell(&doc, 0, "f_bs", "16");
    testutil_assert_cell(&doc, 0, "code", "k");
    csv_doc_free(&doc);
}

/* Each bad input is refused at its position and nothing is written. */
static void test_refused_positioned(void)
{
    static const struct {
        const char *name, *text, *expected;
    } cases[] = {
        {"neg.log", HEAD4 "pass|2024-05-03T10:20:31|k|2|s|p|e|-5|s\n",
         "neg.log:2:36: t '-5' s is not a time > 0"},
        {"zero.log", HEAD4 "pass|2024-05-03T10:20:31|k|2|s|p|e|0|ms\n",
         "zero.log:2:36: t '0' ms is not a time > 0"},
        {"date.log", HEAD4 "pass|2024-02-30T10:20:31|k|2|s|p|e|1|s\n",
         "date.log:2:6: job_completion_time '2024-02-30T10:20:31' is not a date"},
        {"garbage_date.log", HEAD4 "pass|last tuesday|k|2|s|p|e|1|s\n",
         "garbage_date.log:2:6: job_completion_time 'last tuesday' is not a date"},
        {"unit.log", HEAD4 "pass|2024-05-03T10:20:31|k|2|s|p|e|1|furlongs\n",
         "unit.log:2:36: t looks like a time but its unit 'furlongs' is not a time unit"},
        {"nounit3.log", LINE3 "elapsed=4|ref=0 (l=null, u=null)|\n",
         "nounit3.log:1:86: elapsed looks like a time but no unit is given"},
        {"neg3.log", LINE3 "elapsed=-5|ref=0 (l=null, u=null)|s\n",
         "neg3.log:1:86: elapsed '-5' s is not a time > 0"},
        {"date3.log",
         "2024-13-03T10:20:31|reframe 3.12.0|k @s:p+e|jobid=1|num_tasks=2|t=1|ref=0|s\n",
         "date3.log:1:1: the completion time '2024-13-03T10:20:31' is not a date"},
        {"neg.json",
         "{\"runs\": [{\"testcases\": [{\"display_name\": \"k %size=1\", \"num_tasks\": 2,\n"
         "  \"perfvalues\": {\"s:p:elapsed\": [-5, 0, null, null, \"s\", \"pass\"]}}]}]}\n",
         "neg.json:2:34: elapsed '-5' s is not a time > 0"},
        {"date.json",
         "{\"runs\": [{\"testcases\": [{\"display_name\": \"k\", \"num_tasks\": 2,\n"
         "  \"job_completion_time\": \"2024-00-03T10:20:31+02:00\",\n"
         "  \"perfvalues\": {\"s:p:t\": [1, 0, null, null, \"s\", \"pass\"]}}]}]}\n",
         "date.json:2:26: job_completion_time '2024-00-03T10:20:31+02:00' is not a date"},
        {"tasks.json",
         "{\"runs\": [{\"testcases\": [{\"display_name\": \"k\", \"num_tasks\": 0,\n"
         "  \"perfvalues\": {\"s:p:t\": [1, 0, null, null, \"s\", \"pass\"]}}]}]}\n",
         "tasks.json:1:61: num_tasks '0' is not a whole number >= 1"},
        /* A variable that is no time keeps its values as written: one unit
         * per column, or 10 MB/s and 0.02 GB/s would share metric_bw. */
        {"units.log",
         "result|job_completion_time|name|num_tasks|system|partition|environ|bw_value|bw_unit\n"
         "pass|2024-05-03T10:20:31|k|2|s|p|e|10|MB/s\npass|2024-05-03T10:20:32|k|4|s|p|e|0.02|"
         "GB/s\n",
         "units.log:3:36: bw in 'GB/s' here but in 'MB/s' at "},
        {"units3.log",
         LINE3 "bw=10|ref=0 (l=null, u=null)|MB/s\n"
         "2024-05-03T10:20:31+0200|reframe 3.12.0|k %size=1 @s:p+e|jobid=2|num_tasks=4|"
         "bw=0.02|ref=0 (l=null, u=null)|GB/s\n",
         "units3.log:2:81: bw in 'GB/s' here but in 'MB/s' at "},
        {"cut.json", "{\"runs\": [{\"testcases\": [\n  {\"display_name\": 1.5e\n",
         "cut.json:3:1: not a readable JSON run report"},
        {"other.json", "{\"name\": \"not a report\"}\n", "other.json:1:1: a JSON file without"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL;
        int rc = testutil_import(&out, tmp, "reframe", write_input(cases[i].name, cases[i].text),
                                 "bad", NULL);
        if (!out || !strstr(out, cases[i].expected))
            fprintf(stderr, "\nwant: %s\ngot:  %s\n", cases[i].expected, out ? out : "");
        CU_ASSERT_EQUAL(rc, 1);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, cases[i].expected));
        free(out);
    }
    char path[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/a/bad", tmp);
    CU_ASSERT_NOT_EQUAL(stat(path, &st), 0);
}

int main(void)
{
    static const testutil_test real[] = {
        {"ReFrame 4.10 perflog: parameters kept apart", test_rf410_perflog},
        {"ReFrame 4.10 JSON report", test_rf410_report},
        {"ReFrame 3.12 default perflog: @SYS:PART+ENV, np from tasks", test_rf312_default},
        {"ReFrame 3.12 site perflog: num_tasks, zoned date", test_rf312_site},
        {"ReFrame 3.12 JSON report", test_rf312_report},
        {NULL, NULL},
    };
    static const testutil_test written[] = {
        {"units converted to seconds", test_units_converted},
        {"parameter columns", test_parameter_columns},
        {"bad times, dates, units refused at FILE:LINE:COL", test_refused_positioned},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {
        {"import reframe: real outputs", real}, {"import reframe: written inputs", written},
        {NULL, NULL}};
    if (setup() != 0)
        return 1;
    int status = testutil_run_suites(suites);
    teardown();
    return status;
}
