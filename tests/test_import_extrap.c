/*
 * test_import_extrap.c — `perfcast import extrap` (gen/import/import_extrap.c
 * and import_extrap_json.c) for issue 21: every parameter its own column,
 * the process count only by name or --map, NUL bytes refused at their
 * position, sources that would share a column refused, and Extra-P's JSON
 * and JSON Lines inputs (Extra-P's own test data in
 * tests/fixtures/import/extrap, see the README there). Hostile inputs are
 * written here, byte by byte, into a temporary folder.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/base/csvread.h"

#define FIX "tests/fixtures/import/extrap"

static char tmp[512];

/* Write len bytes to tmp/name; the path in path. */
static void write_bytes(const char *name, const void *bytes, size_t len, char *path,
                        size_t path_len)
{
    snprintf(path, path_len, "%s/%s", tmp, name);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(bytes, 1, len, f), len);
    fclose(f);
}

static void write_text(const char *name, const char *text, char *path, size_t path_len)
{
    write_bytes(name, text, strlen(text), path, path_len);
}

/* Import that must succeed; runs.csv of the campaign read into doc. */
static void import_ok(const char *file, const char *campaign, const char *extra, csv_doc *doc)
{
    char *out = NULL;
    int rc = testutil_import(&out, tmp, "extrap", file, campaign, extra);
    if (rc != 0)
        fprintf(stderr, "\n%s: %s\n", file, out ? out : "");
    free(out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/a/%s/runs.csv", tmp, campaign);
    diag_list d;
    diag_init(&d);
    CU_ASSERT_TRUE_FATAL(csv_read_file(path, path, doc, &d) && d.count == 0);
    diag_free(&d);
}

/* Import that must fail with expected (a substring) in its output and
 * leave no campaign. */
static void import_refused(const char *file, const char *extra, const char *expected)
{
    char *out = NULL;
    int rc = testutil_import(&out, tmp, "extrap", file, "refused", extra);
    if (!out || !strstr(out, expected))
        fprintf(stderr, "\nwant: %s\ngot:  %s\n", expected, out ? out : "");
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, expected));
    free(out);
    char path[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/a/refused", tmp);
    CU_ASSERT_NOT_EQUAL(stat(path, &st), 0);
}

static long column_of(const csv_doc *doc, const char *name)
{
    for (size_t c = 0; c < doc->rows[0].nfields; c++)
        if (strcmp(doc->rows[0].fields[c].text, name) == 0)
            return (long)c;
    return -1;
}

/* The data row (0 = first under the header) whose cells match every
 * "column=value" of keys (NULL-terminated); -1 when none or several. */
static long find_row(const csv_doc *doc, const char *const *keys)
{
    long found = -1;
    for (size_t r = 1; r < doc->nrows; r++) {
        bool match = true;
        for (size_t k = 0; match && keys[k]; k++) {
            const char *eq = strchr(keys[k], '=');
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(eq - keys[k]), keys[k]);
            long c = column_of(doc, name);
            match = c >= 0 && (size_t)c < doc->rows[r].nfields &&
                    strcmp(doc->rows[r].fields[c].text, eq + 1) == 0;
        }
        if (match && found >= 0)
            return -1;
        if (match)
            found = (long)r - 1;
    }
    return found;
}

/* The cell in column name of the one row matching keys must be want. */
static void assert_cell(const csv_doc *doc, const char *const *keys, const char *name,
                        const char *want)
{
    long r = find_row(doc, keys), c = column_of(doc, name);
    const char *got = r >= 0 && c >= 0 && (size_t)c < doc->rows[r + 1].nfields
                          ? doc->rows[r + 1].fields[c].text
                          : NULL;
    if (!got || strcmp(got, want) != 0)
        fprintf(stderr, "\n%s = %s, want %s (row %ld)\n", name, got ? got : "(none)", want, r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, want);
}

static void test_every_parameter_a_column(void)
{
    char path[1024];
    write_text("three.txt",
               "PARAMETER ranks\nPARAMETER problem-size\nPARAMETER threads\n"
               "POINTS ( 2 100 1 ) ( 2 200 1 ) ( 4 100 2 )\n"
               "REGION main\nMETRIC time\nDATA 8 8.5\nDATA 16 16.5\nDATA 4 4.5\n",
               path, sizeof path);
    csv_doc doc;
    import_ok(path, "three", "", &doc);
    CU_ASSERT_EQUAL(doc.nrows, 7); /* 3 points x 2 repetitions */
    CU_ASSERT(column_of(&doc, "np") >= 0);
    CU_ASSERT(column_of(&doc, "problem_size") >= 0);
    CU_ASSERT(column_of(&doc, "threads") >= 0);
    assert_cell(&doc, (const char *const[]){"np=2", "problem_size=200", "rep=2", NULL},
                "time_s", "16.5");
    assert_cell(&doc, (const char *const[]){"np=4", "rep=1", NULL}, "threads", "2");
    csv_doc_free(&doc);
}

static void test_process_count_by_name_only(void)
{
    char path[1024];
    write_text("lone_n.txt",
               "PARAMETER n\nPOINTS 100 200 400\nMETRIC time\nDATA 1\nDATA 2\nDATA 4\n", path,
               sizeof path);
    /* A lone problem size is not a process count: refused at its name. */
    import_refused(path, "", "lone_n.txt:1:11: the only parameter, 'n', is not named like a "
                             "process count");
    import_refused(path, "", "give --map n=np");
    /* Said with --map, it is. */
    csv_doc doc;
    import_ok(path, "mapped", "--map n=np", &doc);
    assert_cell(&doc, (const char *const[]){"np=400", NULL}, "time_s", "4");
    csv_doc_free(&doc);

    write_text("two_counts.txt",
               "PARAMETER p\nPARAMETER ranks\nPOINTS ( 2 2 ) ( 4 4 )\nMETRIC time\n"
               "DATA 1\nDATA 2\n",
               path, sizeof path);
    import_refused(path, "", "two_counts.txt:2:11: parameters 'p' and 'ranks' both name a "
                             "process count");
    write_text("none.txt",
               "PARAMETER x\nPARAMETER y\nPOINTS ( 2 2 ) ( 4 4 )\nMETRIC time\nDATA 1\nDATA 2\n",
               path, sizeof path);
    import_refused(path, "", "none.txt:1:11: no parameter is named like a process count");
}

/* --scaling: written into the default experiment's options, where
 * `perfcast check` reads it back (0 problems); any other value is a usage
 * error (exit 2) that writes nothing. */
static void test_scaling_option(void)
{
    char path[1024], exps[1024], *out = NULL;
    write_text("weak.txt", "PARAMETER p\nPOINTS 2 4 8 16\nMETRIC time\nDATA 1\nDATA 1.1\n"
                           "DATA 1.2\nDATA 1.2\n", path, sizeof path);
    csv_doc doc;
    import_ok(path, "weak", "--scaling weak", &doc);
    csv_doc_free(&doc);
    snprintf(exps, sizeof exps, "%s/a/weak/experiments.csv", tmp);
    char *text = testutil_read_file(exps);
    CU_ASSERT_PTR_NOT_NULL(text && strstr(text, ",scaling=weak\n"));
    free(text);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "check --archive %s/a", tmp), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "0 problems"));
    free(out);
    CU_ASSERT_EQUAL(testutil_import(&out, tmp, "extrap", path, "refused", "--scaling wek"), 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "--scaling wants strong or weak, got wek"));
    free(out);
    struct stat st;
    snprintf(path, sizeof path, "%s/a/refused", tmp);
    CU_ASSERT_NOT_EQUAL(stat(path, &st), 0);
}

static void test_nul_bytes(void)
{
    char path[1024];
    static const char in_value[] = "PARAMETER p\nPOINTS 2 4\nMETRIC time\nDATA 2\0" "999\nDATA 1\n";
    write_bytes("nul_value.txt", in_value, sizeof in_value - 1, path, sizeof path);
    import_refused(path, "", "nul_value.txt:4:7: a NUL byte");
    static const char line_start[] = "PARAMETER p\nPOINTS 2 4\n\0METRIC time\nDATA 2\nDATA 1\n";
    write_bytes("nul_line.txt", line_start, sizeof line_start - 1, path, sizeof path);
    import_refused(path, "", "nul_line.txt:3:1: a NUL byte");
    static const char in_json[] = "{\"parameters\": [\"p\"],\n \"measure\0ments\": {}}\n";
    write_bytes("nul.json", in_json, sizeof in_json - 1, path, sizeof path);
    import_refused(path, "", "nul.json:2:10: a NUL byte");
}

static void test_shared_columns_refused(void)
{
    char path[1024];
    write_text("clash.txt",
               "PARAMETER p\nPOINTS 2 4\nMETRIC time\nREGION a.b\nDATA 2\nDATA 1\n"
               "REGION a_b\nDATA 3\nDATA 2\n",
               path, sizeof path);
    import_refused(path, "", "clash.txt:8:1: region 'a.b', metric 'time' and region 'a_b', "
                             "metric 'time' would both be column time_a_b_s");
    write_text("twice.txt", "PARAMETER p\nPOINTS 2 4 2\nMETRIC time\nDATA 2\nDATA 1\nDATA 3\n",
               path, sizeof path);
    import_refused(path, "", "twice.txt:2:12: this point is listed twice (first at 2:8)");
    write_text("zero.txt", "PARAMETER p\nPOINTS 2 4\nMETRIC time\nDATA 2 1\nDATA 1 0\n", path,
               sizeof path);
    import_refused(path, "", "zero.txt:5:8: 0 is not a time (time_s must be > 0)");
}

/* Each DATA line is one point in POINTS order: a REGION/METRIC block with
 * fewer DATA lines than POINTS (a file cut short, a line lost) is refused
 * at the line that opened it, not imported in part; more are refused at
 * the first one too many. "METRIC time" then "REGION r" (no DATA between)
 * is one block. */
static void test_partial_blocks_refused(void)
{
    char path[1024];
    write_text("short.txt",
               "PARAMETER p\nPOINTS ( 2 ) ( 4 ) ( 8 )\nREGION r\nMETRIC time\nDATA 1 1.1\n"
               "REGION q\nMETRIC time\nDATA 1 1.1\nDATA 0.5 0.51\nDATA 0.3 0.3\n",
               path, sizeof path);
    import_refused(path, "", "short.txt:4:1: region 'r', metric 'time': 1 DATA line for 3 POINTS");
    write_text("cut.txt", "PARAMETER p\nPOINTS ( 2 ) ( 4 ) ( 8 )\nMETRIC time\nREGION r\n"
                          "DATA 1 1.1\n", path, sizeof path);
    import_refused(path, "", "cut.txt:4:1: region 'r', metric 'time': 1 DATA line for 3 POINTS");
    write_text("long.txt", "PARAMETER p\nPOINTS 2 4\nMETRIC time\nREGION r\nDATA 1\nDATA 2\n"
                           "DATA 3\n", path, sizeof path);
    import_refused(path, "", "long.txt:7:1: DATA line 3 of region 'r', metric 'time' (from line "
                             "4), but only 2 POINTS");
    csv_doc doc;
    write_text("whole.txt", "PARAMETER p\nPOINTS 2 4\nMETRIC time\nREGION r\nDATA 2\nDATA 1\n"
                            "REGION r\nDATA 2.2\nDATA 1.1\n", path, sizeof path);
    import_ok(path, "whole", "", &doc);
    CU_ASSERT_EQUAL(doc.nrows, 5); /* header + 2 points x 2 repetitions */
    csv_doc_free(&doc);
}

/* A metric named with a time unit, or given none under --time-unit, is
 * converted to seconds (1600 ms is 1.6, by hand), the campaign's README
 * says so; a unit on a
 * name that is not a time ("bytes_s", "speed [MB/s]") leaves the values
 * as written; a bracketed time unit makes any name a time ("latency
 * [us]"); an unknown unit on a time is refused where its data start. */
static void test_metric_units(void)
{
    char path[1024];
    write_text("units.txt",
               "PARAMETER p\nPOINTS 2 4\nREGION a\nMETRIC time [ms]\nDATA 1600 1500\nDATA 800\n"
               "REGION b\nMETRIC runtime_us\nDATA 2500000\nDATA 1250000\n"
               "REGION c\nMETRIC bytes_s\nDATA 7\nDATA 9\nMETRIC speed [MB/s]\nDATA 3\nDATA 4\n",
               path, sizeof path);
    csv_doc doc;
    import_ok(path, "units", "", &doc);
    const char *const np2[] = {"np=2", "rep=1", NULL}, *const np4[] = {"np=4", "rep=1", NULL};
    assert_cell(&doc, np2, "time_a_s", "1.6");
    assert_cell(&doc, (const char *const[]){"np=2", "rep=2", NULL}, "time_a_s", "1.5");
    assert_cell(&doc, np4, "time_a_s", "0.8");
    assert_cell(&doc, np2, "time_b_s", "2.5");
    assert_cell(&doc, np4, "time_b_s", "1.25");
    assert_cell(&doc, np4, "metric_bytes_s_c", "9");
    assert_cell(&doc, np2, "metric_speed_MB_s_c", "3");
    csv_doc_free(&doc);
    CU_ASSERT_TRUE(testutil_import_readme_has(
        tmp, "units", "`time_a_s`: region 'a', metric 'time [ms]', converted to seconds."));
    CU_ASSERT_TRUE(testutil_import_readme_has(
        tmp, "units", "`metric_bytes_s_c`: region 'c', metric 'bytes_s'."));
    write_text("latency.txt", "PARAMETER p\nPOINTS 2 4\nMETRIC latency [us]\nDATA 1000\nDATA 2000\n",
               path, sizeof path);
    import_ok(path, "latency", "", &doc);
    assert_cell(&doc, (const char *const[]){"np=4", NULL}, "time_s", "0.002");
    csv_doc_free(&doc);
    /* The rule every importer follows (gen/base/units.h): a sub-second
     * last word makes any name a time, a name that says duration is one
     * without a unit, an instant or a longer word is not. */
    write_text("rule.txt",
               "PARAMETER p\nPOINTS 2 4\nREGION a\nMETRIC kernel_ns\nDATA 3000\nDATA 1500\n"
               "REGION b\nMETRIC comm_time\nDATA 4\nDATA 2\nMETRIC start_time\nDATA 100\n"
               "DATA 200\nMETRIC timestep_min\nDATA 5\nDATA 6\n",
               path, sizeof path);
    import_ok(path, "rule", "", &doc);
    assert_cell(&doc, np4, "time_a_s", "0.0000015"); /* 1500 ns */
    assert_cell(&doc, np4, "time_b_s", "2");
    assert_cell(&doc, np4, "metric_start_time_b", "200");
    assert_cell(&doc, np4, "metric_timestep_min_b", "6");
    csv_doc_free(&doc);
    /* --time-unit for a metric named without a unit; one that names its
     * own (time_s) keeps it. */
    write_text("plain.txt",
               "PARAMETER p\nPOINTS 2 4\nREGION a\nMETRIC time\nDATA 1600 1500\nDATA 800\n"
               "REGION b\nMETRIC time_s\nDATA 2\nDATA 1\n",
               path, sizeof path);
    import_ok(path, "plain", "--time-unit ms", &doc);
    assert_cell(&doc, np2, "time_a_s", "1.6");
    assert_cell(&doc, np4, "time_a_s", "0.8");
    assert_cell(&doc, np4, "time_b_s", "1");
    csv_doc_free(&doc);
    CU_ASSERT_TRUE(testutil_import_readme_has(tmp, "plain",
                                              "`time_a_s`: region 'a', metric 'time', converted "
                                              "from ms to seconds (--time-unit)."));
    write_text("furlongs.txt",
               "PARAMETER p\nPOINTS 2 4\nREGION a\nMETRIC time [furlongs]\nDATA 1\nDATA 2\n", path,
               sizeof path);
    import_refused(path, "", "furlongs.txt:5:1: metric 'time [furlongs]' is a time in a unit "
                             "perfcast does not know, 'furlongs'");
    /* Spellings of a known unit in any case are converted (they were
     * taken as seconds: time_s = 1000); an unknown unit word is refused. */
    write_text("usec.txt",
               "PARAMETER p\nPOINTS 2 4\nREGION a\nMETRIC time_usec\nDATA 1000\nDATA 500\n"
               "REGION b\nMETRIC Runtime_MS\nDATA 1000\nDATA 500\n",
               path, sizeof path);
    import_ok(path, "usec", "", &doc);
    assert_cell(&doc, np2, "time_a_s", "0.001");
    assert_cell(&doc, np2, "time_b_s", "1");
    csv_doc_free(&doc);
    write_text("days.txt", "PARAMETER p\nPOINTS 2 4\nMETRIC time_days\nDATA 1\nDATA 2\n", path,
               sizeof path);
    import_refused(path, "", "days.txt:4:1: metric 'time_days' is a time whose name carries "
                             "'days'");
}

/* Many regions and points: every cell lands in its own row and column
 * (the table is hashed; this checks the grouping, not the speed). */
static void test_many_regions(void)
{
    size_t cap = 1 << 20, k = 0;
    char *text = malloc(cap), path[1024];
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    k += (size_t)snprintf(text + k, cap - k, "PARAMETER p\nPOINTS");
    for (int p = 1; p <= 20; p++)
        k += (size_t)snprintf(text + k, cap - k, " %d", p);
    for (int r = 0; r < 150; r++) {
        k += (size_t)snprintf(text + k, cap - k, "\nREGION r%d\nMETRIC time", r);
        for (int p = 1; p <= 20; p++)
            k += (size_t)snprintf(text + k, cap - k, "\nDATA %d %d", r * 1000 + p,
                                  r * 1000 + p + 1);
    }
    snprintf(text + k, cap - k, "\n");
    write_text("many.txt", text, path, sizeof path);
    free(text);
    csv_doc doc;
    import_ok(path, "many", "", &doc);
    CU_ASSERT_EQUAL(doc.nrows, 41); /* 20 points x 2 repetitions */
    assert_cell(&doc, (const char *const[]){"np=17", "rep=2", NULL}, "time_r123_s", "123018");
    assert_cell(&doc, (const char *const[]){"np=3", "rep=1", NULL}, "time_r0_s", "3");
    csv_doc_free(&doc);
}

static void test_json_current(void)
{
    csv_doc doc;
    import_ok(FIX "/json_input2.json", "jnew", "--map x=np", &doc);
    CU_ASSERT_EQUAL(doc.nrows, 26); /* 5 points x 5 repetitions */
    assert_cell(&doc, (const char *const[]){"np=16", "y=30", "rep=3", NULL}, "time_sweep_s",
                "9.5");
    assert_cell(&doc, (const char *const[]){"np=64", "rep=1", NULL}, "metric_visits_sweep", "5");
    CU_ASSERT(column_of(&doc, "time_sweep2_s") >= 0);
    csv_doc_free(&doc);
    import_refused(FIX "/json_input2.json", "", "json_input2.json: no parameter is named like");
}

static void test_json_legacy(void)
{
    csv_doc doc;
    import_ok(FIX "/json_legacy_input_1.JSON", "jold", "--map x=np", &doc);
    CU_ASSERT_EQUAL(doc.nrows, 26); /* 5 coordinates x 5 measurements each */
    assert_cell(&doc, (const char *const[]){"np=16", "rep=5", NULL}, "time_s", "9.5");
    assert_cell(&doc, (const char *const[]){"np=64", "rep=1", NULL}, "time_s", "33.5");
    csv_doc_free(&doc);
}

static void test_json_lines(void)
{
    csv_doc doc;
    import_ok(FIX "/jsonl_extended2.jsonl", "jl", "--map x=np", &doc);
    CU_ASSERT_EQUAL(doc.nrows, 46); /* 9 points x 5 values */
    assert_cell(&doc, (const char *const[]){"np=3", "y=2", "rep=4", NULL}, "metric_metr_test",
                "11");
    csv_doc_free(&doc);
    /* Points given again in later blocks are more repetitions, as Extra-P reads them. */
    import_ok(FIX "/jsonl_matrix_3p.jsonl", "jl3", "--map z=np", &doc);
    CU_ASSERT_EQUAL(doc.nrows, 16); /* 13 points, (1 1 1) three times */
    assert_cell(&doc, (const char *const[]){"np=1", "x=1", "y=1", "rep=3", NULL},
                "metric_metr_root", "1");
    CU_ASSERT(column_of(&doc, "x") >= 0 && column_of(&doc, "y") >= 0);
    csv_doc_free(&doc);
}

static void test_json_errors_positioned(void)
{
    char path[1024];
    write_text("syntax.json",
               "{\"parameters\": [\"p\"],\n \"measurements\": {\"a\": {\"time\": "
               "[{\"point\": [2], \"values\": [1.0,]}]}}}\n",
               path, sizeof path);
    import_refused(path, "", "syntax.json:2:64: "); /* the "]" after "1.0," */
    write_text("cut.json", "{\"parameters\": [\"p\"],\n \"measurements\": {\"a\": ", path,
               sizeof path);
    import_refused(path, "", "cut.json:2:24: the JSON ends early");
    write_text("lines.jsonl",
               "{\"params\": {\"p\": 2}, \"metric\": \"time\", \"value\": 1}\n\n"
               "{\"params\": {\"q\": 4}, \"metric\": \"time\", \"value\": 1}\n",
               path, sizeof path);
    import_refused(path, "", "lines.jsonl:3:1: no parameter 'p' here");
    /* json-c (and Python) keep the last of two equal keys silently. */
    write_text("twice.jsonl",
               "{\"params\": {\"p\": 2}, \"metric\": \"time\", \"value\": 1}\n"
               "{\"params\": {\"p\": 2, \"p\": 4}, \"metric\": \"time\", \"value\": 1}\n",
               path, sizeof path);
    import_refused(path, "", "twice.jsonl:2:21: key \"p\" given twice in one object (first at "
                             "column 13)");
    write_text("negative.json",
               "{\"parameters\": [\"np\"], \"measurements\": {\"solve\": {\"time\": "
               "[{\"point\": [2], \"values\": [1.0, -3]}]}}}\n",
               path, sizeof path);
    import_refused(path, "", "negative.json: region 'solve', metric 'time', point (2): -3 is "
                             "not a time");
    write_text("list.json", "[1, 2]\n", path, sizeof path);
    import_refused(path, "", "list.json:1:1: expected an object");
}

int main(void)
{
    static const testutil_test tests[] = {
        {"every parameter is a column", test_every_parameter_a_column},
        {"--scaling goes into the default experiment's options", test_scaling_option},
        {"the process count by name or --map only", test_process_count_by_name_only},
        {"NUL bytes refused at their position", test_nul_bytes},
        {"shared columns, repeated points, zero times refused", test_shared_columns_refused},
        {"many regions: every cell in its row", test_many_regions},
        {"a block with fewer or more DATA lines than POINTS refused",
         test_partial_blocks_refused},
        {"a metric's time unit (or --time-unit) converts, an unknown one is refused",
         test_metric_units},
        {"JSON, current layout", test_json_current},
        {"JSON, legacy layout", test_json_legacy},
        {"JSON Lines", test_json_lines},
        {"JSON problems positioned", test_json_errors_positioned},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"import extrap", tests}, {NULL, NULL}};
    if (!testutil_temp_dir(tmp, sizeof tmp))
        return 1;
    int status = testutil_run_suites(suites);
    testutil_remove_dir(tmp);
    return status;
}
