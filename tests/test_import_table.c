/*
 * test_import_table.c — `perfcast import jube|csv` (gen/import/import_table.c)
 * on real tool output (tests/fixtures/import/table: JUBE 2.7.1 result
 * tables and pandas 1.5.3 to_csv files, see the README there) and on small
 * tables written here: time units in headers converted to seconds,
 * results kept out of the configuration, a pandas index left out, JUBE's
 * pretty style with its title line, ';' separators and decimal commas, the
 * process count chosen by name only, and refusals at FILE:LINE:COL that
 * say what the file looked like, with nothing written.
 */
#include "tests/testutil.h"
#include "tests/testutil_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/base/csvread.h"

#define FIX "tests/fixtures/import/table"

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

/* Write text to tmp/name; the path in path. */
static void write_input(char *path, size_t len, const char *name, const char *text)
{
    snprintf(path, len, "%s/%s", tmp, name);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, text));
}

/* runs.csv of campaign, or NULL when there is none (caller frees). */
static char *runs_text(const char *campaign)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/a/%s/runs.csv", tmp, campaign);
    return testutil_read_file(path);
}

static bool load_runs(const char *campaign, csv_doc *doc)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/a/%s/runs.csv", tmp, campaign);
    return testutil_csv_load(path, doc);
}

/* The import succeeds and `perfcast check` accepts the archive. */
static void import_ok(const char *format, const char *file, const char *campaign,
                      const char *extra)
{
    char *out = NULL;
    int rc = testutil_import(&out, tmp, format, file, campaign, extra);
    if (rc != 0)
        fprintf(stderr, "\n%s %s: %s\n", format, file, out ? out : "");
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(out);
    rc = testutil_perfcast_run(&out, "check --archive %s/a", tmp);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
}

/* The import fails with exit status status saying want, and writes no
 * campaign. */
static void import_fails(int status, const char *format, const char *file, const char *campaign,
                         const char *extra, const char *want)
{
    char *out = NULL;
    int rc = testutil_import(&out, tmp, format, file, campaign, extra);
    if (rc != status || !out || !strstr(out, want))
        fprintf(stderr, "\nwant: %s\ngot (%d):  %s\n", want, rc, out ? out : "");
    CU_ASSERT_EQUAL(rc, status);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, want));
    free(out);
    char path[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/a/%s", tmp, campaign);
    CU_ASSERT_NOT_EQUAL(stat(path, &st), 0);
}

/* Refused as input (exit 1). */
static void import_refused(const char *format, const char *file, const char *campaign,
                           const char *extra, const char *want)
{
    import_fails(1, format, file, campaign, extra, want);
}

/* Real JUBE 2.7.1 tables, csv and pretty (with its title line
 * "result_pretty:"): time[ms] 1600.0 is 1.6 s (it was taken as 1600 s),
 * solve_time_avg[ms] 110.5 is 0.1105 s, rate[MB/s] a measured figure, and
 * both styles give the same runs. */
static void test_jube_units(void)
{
    import_ok("jube", FIX "/jube_units.csv", "ju", "--cluster c1");
    import_ok("jube", FIX "/jube_units_pretty.txt", "jup", "--cluster c1");
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("ju", &doc));
    CU_ASSERT_EQUAL(doc.nrows, 4);
    testutil_assert_cell(&doc, 0, "np", "1");
    testutil_assert_cell(&doc, 0, "time_s", "1.6");
    testutil_assert_cell(&doc, 1, "time_s", "0.8305");
    testutil_assert_cell(&doc, 2, "time_s", "0.43725");
    testutil_assert_cell(&doc, 2, "time_solve_avg_s", "0.1105");
    testutil_assert_cell(&doc, 2, "metric_rate_MB_s", "2500.5");
    testutil_assert_cell(&doc, 2, "size", "4000"); /* a parameter: configuration */
    CU_ASSERT_FALSE(testutil_csv_has_column(&doc, "time_ms"));
    csv_doc_free(&doc);
    char *a = runs_text("ju"), *b = runs_text("jup");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);
    char path[1024];
    snprintf(path, sizeof path, "%s/a/ju/README.md", tmp);
    char *readme = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(readme && strstr(readme, "`time_s` is the column 'time[ms]' of the "
                                                    "source, converted from ms to seconds."));
    free(readme);
}

/* The header forms people write, one table each: the column each becomes
 * and the value 'in' is there. Names that merely end like a unit stay. */
static void test_header_units(void)
{
    static const struct {
        const char *header, *in, *column, *value;
    } cases[] = {
        {"time (ms)", "1600", "time_s", "1.6"},
        {"Runtime(ms)", "1600", "time_s", "1.6"},
        {"time_ms", "250", "time_s", "0.25"},
        {"solve_time_avg[ms]", "110.5", "time_solve_avg_s", "0.1105"},
        {"t [\xc2\xb5s]", "1500", "time_s", "0.0015"},
        {"elapsed us", "2000000", "time_s", "2"},
        {"kernel_ns", "2500000", "time_kernel_s", "0.0025"},
        {"walltime (min)", "2.5", "time_s", "150"},
        {"duration [h]", "0.5", "time_s", "1800"},
        {"time (s)", "12.5", "time_s", "12.5"},
        {"runtime", "12.5", "time_s", "12.5"},
        {"comm_time", "0.5", "time_comm_s", "0.5"},
        /* Spellings once taken as seconds unconverted (time_usec_s = 1000). */
        {"time_usec", "1000", "time_s", "0.001"},
        {"time_nsec", "1000", "time_s", "0.000001"},
        {"time_millis", "1000", "time_s", "1"},
        {"TIME_MS", "1000", "time_s", "1"},
        {"Runtime_MS", "1000", "time_s", "1"},
        {"time-ms", "1000", "time_s", "1"},
        {"time.ms", "1000", "time_s", "1"},
        {"time_ms_avg", "1000", "time_avg_s", "1"},
        {"time_ms_total", "1000", "time_total_s", "1"},
        {"time [msec]", "1000", "time_s", "1"},
        {"time [S]", "1000", "time_s", "1000"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256], path[1024], campaign[32];
        snprintf(text, sizeof text, "np,\"%s\"\n2,%s\n4,%s\n", cases[i].header, cases[i].in,
                 cases[i].in);
        snprintf(campaign, sizeof campaign, "u%zu", i);
        write_input(path, sizeof path, "units.csv", text);
        import_ok("csv", path, campaign, "");
        csv_doc doc;
        CU_ASSERT_TRUE_FATAL(load_runs(campaign, &doc));
        testutil_assert_cell(&doc, 1, cases[i].column, cases[i].value);
        csv_doc_free(&doc);
    }
    /* Not units: a parameter n_min, a block_s, a time_limit setting, and
     * not times: a minimum timestep, an instant in ms (units.h's rule). */
    char path[1024];
    write_input(path, sizeof path, "notunits.csv",
                "np,n_min,block_s,time_limit,timestep_min,start_time_ms,time\n"
                "2,3,4,600,0.5,1700,10\n4,3,4,600,0.5,1700,5\n");
    import_ok("csv", path, "nu", "");
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("nu", &doc));
    testutil_assert_cell(&doc, 0, "n_min", "3");
    testutil_assert_cell(&doc, 0, "block_s", "4");
    testutil_assert_cell(&doc, 0, "time_limit", "600");
    testutil_assert_cell(&doc, 0, "timestep_min", "0.5");
    testutil_assert_cell(&doc, 0, "start_time_ms", "1700");
    testutil_assert_cell(&doc, 0, "time_s", "10");
    csv_doc_free(&doc);
}

/* --time-unit: a time column the source names without a unit is in that
 * unit (1500 ms is 1.5 s, by hand); a column whose header names its unit
 * (setup_time_s, "comm (us)") and one named seconds by rule (time_in_sec)
 * keep theirs; the README says which was converted and why; an unknown
 * unit is a usage error (exit 2) and writes nothing. */
static void test_time_unit_option(void)
{
    char path[1024];
    write_input(path, sizeof path, "ms.csv",
                "np,time,setup_time_s,comm (us),phase\n2,1500,3,250,a\n4,800,2,500,a\n");
    import_ok("csv", path, "ms", "--time-unit ms");
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("ms", &doc));
    testutil_assert_cell(&doc, 0, "time_s", "1.5");
    testutil_assert_cell(&doc, 1, "time_s", "0.8");
    testutil_assert_cell(&doc, 0, "time_setup_s", "3");
    testutil_assert_cell(&doc, 1, "time_comm_s", "0.0005");
    csv_doc_free(&doc);
    CU_ASSERT_TRUE(testutil_import_readme_has(tmp, "ms",
                                              "`time_s` is the column 'time' of the source, "
                                              "converted from ms (--time-unit) to seconds."));
    write_input(path, sizeof path, "sec.csv", "np,time_in_sec\n2,3\n4,2\n");
    import_ok("csv", path, "sec", "--time-unit min");
    CU_ASSERT_TRUE_FATAL(load_runs("sec", &doc));
    testutil_assert_cell(&doc, 0, "time_s", "3");
    csv_doc_free(&doc);
    import_fails(2, "csv", path, "bad", "--time-unit furlong",
                 "--time-unit wants ns, us, ms, s, min or h, got furlong");
    /* An option the format does not read is refused (a usage error), never ignored. */
    import_fails(2, "reframe", path, "bad", "--time-unit ms",
                 "--time-unit applies to extrap, csv and jube");
    import_fails(2, "extrap", path, "bad", "--decimal-comma", "apply to csv and jube, not to extrap");
}

/* A time in a unit perfcast does not know is refused at its header cell,
 * never guessed; so is a header that would be a second time_s or np. */
static void test_unknown_unit_and_clashes(void)
{
    char path[1024];
    write_input(path, sizeof path, "furlongs.csv", "np,size,time (furlongs)\n2,1,3\n4,1,2\n");
    import_refused("csv", path, "fur", "",
                   "furlongs.csv:1:9: 'time (furlongs)': a time in a unit perfcast does not know");
    write_input(path, sizeof path, "furlongs.txt",
                "result:\n| tasks | solve_time[parsec] |\n|---|---|\n| 2 | 3 |\n");
    import_refused("jube", path, "fur", "", "furlongs.txt:2:11: 'solve_time[parsec]': a time");
    /* A unit-like word the rule does not know: refused, not seconds. */
    write_input(path, sizeof path, "ps.csv", "np,time_ps\n2,3\n4,2\n");
    import_refused("csv", path, "ps", "",
                   "ps.csv:1:4: 'time_ps': a time whose name carries 'ps', which reads as a unit "
                   "perfcast does not know");
    write_input(path, sizeof path, "twotimes.csv", "np,time,time_ms\n2,3,3000\n");
    import_refused("csv", path, "two", "",
                   "twotimes.csv:1:9: 'time_ms' and 'time' (column 2) would both be the column "
                   "time_s");
    write_input(path, sizeof path, "twonp.csv", "tasks,ranks,time\n2,2,3\n");
    import_refused("csv", path, "two", "", "twonp.csv:1:7: 'ranks' and 'tasks' (column 1)");
}

/* JUBE results are measured: `rate` (no unit) is metric_rate, so the two
 * iterations of each (tasks, size) are repetitions of one configuration;
 * the real pretty table (title line) and the ';'-separated csv table of the
 * same run import the same runs. */
static void test_jube_results_measured(void)
{
    import_ok("jube", FIX "/jube_reps_pretty.txt", "jrp", "--cluster c1");
    import_ok("jube", FIX "/jube_reps_semicolon.csv", "jrs", "--cluster c1");
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("jrp", &doc));
    CU_ASSERT_EQUAL(doc.nrows, 13);
    CU_ASSERT_FALSE(testutil_csv_has_column(&doc, "rate"));
    testutil_assert_cell(&doc, 1, "metric_rate", "2501.5");
    testutil_assert_cell(&doc, 1, "time_s", "1.601");
    testutil_assert_cell(&doc, 1, "size", "4000");
    csv_doc_free(&doc);
    char *a = runs_text("jrp"), *b = runs_text("jrs");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);
    /* A plain CSV: numbers named like results are measured, others configuration. */
    char path[1024];
    write_input(path, sizeof path, "results.csv",
                "np,size (MB),GFlops,bandwidth (GB/s),solve_mean,iters_cnt,n_max,tol,time\n"
                "2,64,1.5,10,0.2,7,9,0.001,4\n4,64,2.9,19,0.1,7,9,0.001,2\n");
    import_ok("csv", path, "res", "");
    CU_ASSERT_TRUE_FATAL(load_runs("res", &doc));
    testutil_assert_cell(&doc, 0, "metric_GFlops", "1.5");
    testutil_assert_cell(&doc, 0, "metric_bandwidth_GB_s", "10");
    testutil_assert_cell(&doc, 0, "metric_solve_mean", "0.2");
    testutil_assert_cell(&doc, 0, "metric_iters_cnt", "7");
    testutil_assert_cell(&doc, 0, "size_MB", "64"); /* a unit alone: still configuration */
    testutil_assert_cell(&doc, 0, "n_max", "9");
    testutil_assert_cell(&doc, 0, "tol", "0.001");
    csv_doc_free(&doc);
    /* In a JUBE table a unit and a _max are a pattern's: measured. */
    write_input(path, sizeof path, "pattern.txt",
                "result:\n| tasks | mem[MB] | iters_max | time[s] |\n|---|---|---|---|\n"
                "| 2 | 300 | 12 | 4 |\n| 4 | 160 | 13 | 2 |\n");
    import_ok("jube", path, "pat", "");
    CU_ASSERT_TRUE_FATAL(load_runs("pat", &doc));
    testutil_assert_cell(&doc, 1, "metric_mem_MB", "160");
    testutil_assert_cell(&doc, 1, "metric_iters_max", "13");
    testutil_assert_cell(&doc, 1, "time_s", "2");
    csv_doc_free(&doc);
}

/* JUBE's _min/_max/_avg statistics of a pattern are statistics, never a
 * unit: runtime_min 9 is time_min_s 9 (it was minutes: 540 s). In a CSV
 * too when a sibling _max/_avg says so; a lone walltime_min is minutes. */
static void test_min_statistic(void)
{
    char path[1024];
    write_input(path, sizeof path, "stats.csv",
                "tasks,runtime_avg,runtime_min,runtime_max\n2,10,9,11\n4,5,4,6\n");
    import_ok("jube", path, "jmin", "");
    import_ok("csv", path, "cmin", "");
    const char *const campaigns[] = {"jmin", "cmin"};
    for (size_t i = 0; i < 2; i++) {
        csv_doc doc;
        CU_ASSERT_TRUE_FATAL(load_runs(campaigns[i], &doc));
        testutil_assert_cell(&doc, 0, "time_min_s", "9");
        testutil_assert_cell(&doc, 0, "time_avg_s", "10");
        testutil_assert_cell(&doc, 0, "time_max_s", "11");
        CU_ASSERT_FALSE(testutil_csv_has_column(&doc, "time_s"));
        csv_doc_free(&doc);
    }
    write_input(path, sizeof path, "wall.csv", "np,walltime_min\n2,2\n4,1\n");
    import_ok("csv", path, "wmin", "");
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("wmin", &doc));
    testutil_assert_cell(&doc, 0, "time_s", "120");
    csv_doc_free(&doc);
}

/* pandas' to_csv with its index (an unnamed first column 0..5) and
 * without: the same runs, so the second import into one campaign adds
 * none; `Unnamed: 0` (the index read back and written again) likewise. */
static void test_pandas_index(void)
{
    import_ok("csv", FIX "/pandas_index.csv", "pd", "");
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_import(&out, tmp, "csv", FIX "/pandas_noindex.csv", "pd", ""), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "imported 0 new runs of 6"));
    free(out);
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("pd", &doc));
    CU_ASSERT_EQUAL(doc.nrows, 7);
    CU_ASSERT_EQUAL(doc.rows[0].nfields, 5); /* cluster np size time_s metric_rate */
    testutil_assert_cell(&doc, 3, "time_s", "1.612");
    testutil_assert_cell(&doc, 3, "metric_rate", "2480.0"); /* as written */
    csv_doc_free(&doc);
    char path[1024];
    write_input(path, sizeof path, "unnamed.csv", "Unnamed: 0,np,time\n0,2,3\n1,4,2\n");
    import_ok("csv", path, "pdu", "");
    char *runs = runs_text("pdu");
    CU_ASSERT_PTR_NOT_NULL(runs && strstr(runs, "cluster,np,time_s\n"));
    free(runs);
    /* An unnamed column that is not an index is refused, not guessed. */
    write_input(path, sizeof path, "noname.csv", "np,,time\n2,a,3\n4,b,2\n");
    import_refused("csv", path, "nn", "", "noname.csv:1:4: '': a column without a name");
}

/* The import streams its rows (two passes over the file): a pandas index
 * out of order (a sorted frame) or with gaps (a filtered one) is still
 * left out, one with a number twice is not an index; cells keep their
 * places with blanks, quotes and ';' separators. */
static void test_streamed_index_and_places(void)
{
    char path[1024];
    write_input(path, sizeof path, "sorted.csv", ",np,time\n2,8,1\n0,2,3\n1,4,2\n");
    import_ok("csv", path, "ix_sorted", "");
    write_input(path, sizeof path, "filtered.csv", ",np,time\n0,2,3\n5,4,2\n9,8,1\n");
    import_ok("csv", path, "ix_filtered", "");
    char *a = runs_text("ix_sorted"), *b = runs_text("ix_filtered");
    CU_ASSERT_PTR_NOT_NULL(a && strstr(a, "cluster,np,time_s\n"));
    CU_ASSERT_PTR_NOT_NULL(b && strstr(b, "cluster,np,time_s\n"));
    free(a);
    free(b);
    write_input(path, sizeof path, "twice.csv", ",np,time\n0,2,3\n1,4,2\n1,8,1\n");
    import_refused("csv", path, "ix_twice", "", "twice.csv:1:1: '': a column without a name");
    write_input(path, sizeof path, "placed.csv", "np,time\n2, 3\n\"4\", -1\n");
    import_refused("csv", path, "at_blank", "",
                   "placed.csv:3:5: time_s '-1' is not a number of seconds > 0");
    write_input(path, sizeof path, "placed2.csv", "np;time\n2; 3\n\"4\";\" -1,5 \"\n");
    import_refused("csv", path, "at_semicolon", "",
                   "placed2.csv:3:7: time_s '-1,5' is not a number of seconds > 0");
}

/* ';' separators and decimal commas: pandas' sep=';', decimal=',' file is
 * detected and imports as its ','-separated twin; --delimiter and
 * --decimal-comma force them; a quoted cell keeps its ','. */
static void test_semicolon_decimal_comma(void)
{
    import_ok("csv", FIX "/pandas_semicolon_decimal_comma.csv", "sc", "");
    import_ok("csv", FIX "/pandas_noindex.csv", "sn", "");
    char *a = runs_text("sc"), *b = runs_text("sn");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);
    char path[1024];
    write_input(path, sizeof path, "semi.csv",
                "np;comment;time (ms)\n2;\"warm, first\";1600,5\n4;\"x;y\";800\n");
    import_ok("csv", path, "semi", "");
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("semi", &doc));
    testutil_assert_cell(&doc, 0, "time_s", "1.6005");
    testutil_assert_cell(&doc, 0, "tag_comment", "warm, first");
    testutil_assert_cell(&doc, 1, "tag_comment", "x;y");
    csv_doc_free(&doc);
    write_input(path, sizeof path, "tab.tsv", "np\truntime\n2\t\"1,5\"\n4\t0,75\n");
    import_ok("csv", path, "tab", "--delimiter tab --decimal-comma");
    CU_ASSERT_TRUE_FATAL(load_runs("tab", &doc));
    testutil_assert_cell(&doc, 0, "time_s", "1.5");
    testutil_assert_cell(&doc, 1, "time_s", "0.75");
    csv_doc_free(&doc);
    /* A thousands mark is not a decimal comma. */
    write_input(path, sizeof path, "thousands.csv", "np;time\n2;1.600,5\n");
    import_refused("csv", path, "th", "", "thousands.csv:2:3: time_s '1.600,5' is not a number");
}

/* JUBE's pretty style handed to `csv`, and a pretty row short of a cell:
 * refusals that say what the file looked like. */
static void test_pretty_refusals(void)
{
    import_refused("csv", FIX "/jube_units_pretty.txt", "pc", "",
                   "jube_units_pretty.txt:1:1: looks like JUBE's pretty style");
    char path[1024];
    write_input(path, sizeof path, "short.txt",
                "result:\n| tasks | time[ms] |\n|-------|----------|\n|     1 |   1600.0 |\n"
                "|     2 |\n");
    import_refused("jube", path, "ps", "",
                   "short.txt:5:1: looks like JUBE's pretty style ('|' between cells); this line "
                   "has 1 cells where the header has 2");
    write_input(path, sizeof path, "cells.csv", "np,time\n2,3,4\n");
    import_refused("csv", path, "pc", "",
                   "cells.csv:2:5: read as CSV with ',' between cells; this line has 3 cells");
}

/* A JUBE table cut inside its last number ("4000.0" as "4") is refused. */
static void test_truncated(void)
{
    char path[1024];
    write_input(path, sizeof path, "cut.csv", "tasks,size,time[ms]\n1,4000,1600.0\n2,4");
    import_refused("jube", path, "cut", "", "cut.csv:3:4: the file ends inside its last line");
    write_input(path, sizeof path, "cut.txt",
                "result:\n| tasks | time[ms] |\n|---|---|\n| 1 | 1600.0 |\n| 2 | 83");
    import_refused("jube", path, "cut", "", "cut.txt:5:9: the file ends inside its last line");
}

/* The process count by name only: a lone parameter `n` is not np (say so),
 * `p` is, and --map n=np makes n the process count. */
static void test_procs_by_name(void)
{
    char path[1024];
    write_input(path, sizeof path, "n.csv", "n,time\n2,3\n4,2\n");
    import_refused("csv", path, "pn", "",
                   "n.csv:1:1: no process-count column (a header named p, np, procs");
    import_ok("csv", path, "pn", "--map n=np");
    write_input(path, sizeof path, "p.csv", "P,time\n2,3\n4,2\n");
    import_ok("csv", path, "pp", "");
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("pp", &doc));
    testutil_assert_cell(&doc, 1, "np", "4");
    csv_doc_free(&doc);
    CU_ASSERT_TRUE_FATAL(load_runs("pn", &doc));
    testutil_assert_cell(&doc, 1, "np", "4");
    csv_doc_free(&doc);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"JUBE time[ms] and solve_time_avg[ms] in seconds, csv = pretty", test_jube_units},
        {"units in headers, and names that only look like units", test_header_units},
        {"unknown time units and two headers into one column refused",
         test_unknown_unit_and_clashes},
        {"--time-unit for times given without a unit", test_time_unit_option},
        {"JUBE results and CSV results are measured columns", test_jube_results_measured},
        {"_min beside _max or in JUBE is a statistic", test_min_statistic},
        {"a pandas index is left out", test_pandas_index},
        {"a pandas index in any order, cells in their places", test_streamed_index_and_places},
        {"';' separators and decimal commas", test_semicolon_decimal_comma},
        {"pretty-style refusals say what was expected", test_pretty_refusals},
        {"a table cut inside its last number is refused", test_truncated},
        {"the process count by name or --map only", test_procs_by_name},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"import_table", tests}, {NULL, NULL}};
    if (setup() != 0)
        return 1;
    int status = testutil_run_suites(suites);
    teardown();
    return status;
}
