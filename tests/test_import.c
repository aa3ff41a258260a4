/*
 * test_import.c — `perfcast import` end to end: every format on small files
 * written from its documentation (tests/fixtures/import/doc) and on real
 * public samples (tests/fixtures/import/real, sources in the README there);
 * each imported campaign must pass `perfcast check` and `perfcast predict`
 * must fit every experiment import wrote. The runs written are read back
 * with the CSV reader (libcsv) and compared with values taken by hand from
 * the input files. Bad inputs must fail with FILE:LINE:COL and write nothing.
 */
#include "tests/testutil.h"
#include "tests/testutil_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/base/csvread.h"

#define FIX "tests/fixtures/import"

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

/* runs.csv of campaign, parsed by the CSV reader. */
static bool load_runs(const char *campaign, csv_doc *doc)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/a/%s/runs.csv", tmp, campaign);
    return testutil_csv_load(path, doc);
}

/* Import file as format into campaign (extra: more options) and load its
 * runs.csv into doc; said: text the import must print, or NULL. */
static void import_and_load(const char *format, const char *file, const char *campaign,
                            const char *extra, const char *said, csv_doc *doc)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_import(&out, tmp, format, file, campaign, extra), 0);
    if (said)
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, said));
    free(out);
    CU_ASSERT_TRUE_FATAL(load_runs(campaign, doc));
}

static void assert_checks_and_predicts(const char *campaign)
{
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "check --archive %s/a", tmp);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "; 0 problems"));
    free(out);
    char path[1024];
    snprintf(path, sizeof path, "%s/a/%s/experiments.csv", tmp, campaign);
    csv_doc doc;
    diag_list d;
    diag_init(&d);
    CU_ASSERT_TRUE_FATAL(csv_read_file(path, path, &doc, &d));
    CU_ASSERT_TRUE(doc.nrows >= 2);
    for (size_t r = 1; r < doc.nrows; r++) {
        const char *name = doc.rows[r].fields[0].text;
        rc = testutil_perfcast_run(&out, "predict --archive %s/a --format csv %s %s", tmp,
                                   campaign, name);
        if (rc != 0)
            fprintf(stderr, "\n%s/%s: %s\n", campaign, name, out ? out : "");
        CU_ASSERT_EQUAL(rc, 0);
        /* A header and at least one predicted configuration. */
        CU_ASSERT_PTR_NOT_NULL(out && strchr(out, '\n') && strchr(strchr(out, '\n') + 1, '\n'));
        free(out);
    }
    csv_doc_free(&doc);
    diag_free(&d);
}

static void test_extrap_doc(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_import(&out, tmp, "extrap", FIX "/doc/extrap_two_params.txt",
                                          "e2", "--cluster c1"),
                          0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "imported 10 new runs"));
    free(out);
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("e2", &doc));
    CU_ASSERT_EQUAL(doc.nrows, 11); /* 5 points x 2 repetitions */
    /* Point ( 4 100 ), repetition 2: solve 5.3, halo 0.21, visits 8. */
    testutil_assert_cell(&doc, 3, "np", "4");
    testutil_assert_cell(&doc, 3, "n", "100");
    testutil_assert_cell(&doc, 3, "rep", "2");
    testutil_assert_cell(&doc, 3, "time_solve_s", "5.3");
    testutil_assert_cell(&doc, 3, "time_halo_s", "0.21");
    testutil_assert_cell(&doc, 3, "metric_visits_halo", "8");
    testutil_assert_cell(&doc, 9, "time_halo_s", "0.52");
    testutil_assert_cell(&doc, 9, "cluster", "c1");
    csv_doc_free(&doc);
    assert_checks_and_predicts("e2");
}

static void test_sacct_doc(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(
        testutil_import(&out, tmp, "sacct", FIX "/doc/sacct_parsable2.txt", "s", "--cluster c1"),
        0);
    free(out);
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("s", &doc));
    CU_ASSERT_EQUAL(doc.nrows, 6); /* 6 jobs, the FAILED one left out */
    const char *np[] = {"4", "8", "16", "32", "64"};
    const char *t[] = {"125", "70", "38", "23", "15"}; /* each srun step's own Elapsed */
    for (size_t r = 0; r < 5; r++) {
        testutil_assert_cell(&doc, r, "np", np[r]); /* from the numbered step, not batch */
        testutil_assert_cell(&doc, r, "time_s", t[r]);
    }
    testutil_assert_cell(&doc, 3, "note", "job 1005.0");
    testutil_assert_cell(&doc, 2, "nodes", "2");
    testutil_assert_cell(&doc, 0, "date", "2024-03-01");
    csv_doc_free(&doc);
    assert_checks_and_predicts("s");
    /* -p output (a '|' at each line's end) and a days field "0-00:30". */
    CU_ASSERT_EQUAL_FATAL(
        testutil_import(&out, tmp, "sacct", FIX "/doc/sacct_parsable.txt", "s2", "--cluster c1"),
        0);
    free(out);
    CU_ASSERT_TRUE_FATAL(load_runs("s2", &doc));
    testutil_assert_cell(&doc, 0, "time_s", "60");
    testutil_assert_cell(&doc, 1, "time_s", "30");
    testutil_assert_cell(&doc, 1, "np", "4");
    csv_doc_free(&doc);
    assert_checks_and_predicts("s2");
}

/* ReFrame 3 logs have no header: one line per variable, two per job here. */
static void test_reframe3_doc(void)
{
    csv_doc doc;
    import_and_load("reframe", FIX "/doc/reframe3.log", "r3", "", "imported 4 new runs", &doc);
    CU_ASSERT_EQUAL(doc.nrows, 5);
    testutil_assert_cell(&doc, 2, "np", "8");
    testutil_assert_cell(&doc, 2, "time_s", "11.3");          /* elapsed, in s: the only time */
    testutil_assert_cell(&doc, 2, "metric_bandwidth", "3650.2");
    testutil_assert_cell(&doc, 2, "cluster", "daint-mc");
    testutil_assert_cell(&doc, 2, "tag_environ", "PrgEnv-gnu");
    testutil_assert_cell(&doc, 2, "code", "mg_scaling");
    testutil_assert_cell(&doc, 2, "note", "job 2003");
    csv_doc_free(&doc);
    assert_checks_and_predicts("r3");
}

static void test_jube_and_csv_doc(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(
        testutil_import(&out, tmp, "jube", FIX "/doc/jube_result.csv", "j", "--cluster c1"), 0);
    free(out);
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("j", &doc));
    testutil_assert_cell(&doc, 4, "np", "64");        /* tasks */
    testutil_assert_cell(&doc, 4, "time_s", "18.1");  /* time_in_sec */
    testutil_assert_cell(&doc, 4, "nodes", "8");
    testutil_assert_cell(&doc, 4, "tag_compiler", "gcc"); /* text: a tag */
    csv_doc_free(&doc);
    assert_checks_and_predicts("j");

    CU_ASSERT_EQUAL_FATAL(
        testutil_import(&out, tmp, "jube", FIX "/doc/jube_pretty.txt", "jp", "--cluster c1"), 0);
    free(out);
    CU_ASSERT_TRUE_FATAL(load_runs("jp", &doc));
    CU_ASSERT_EQUAL(doc.nrows, 5); /* the rule line is not a run */
    testutil_assert_cell(&doc, 1, "time_s", "71.9");
    csv_doc_free(&doc);
    assert_checks_and_predicts("jp");

    CU_ASSERT_EQUAL_FATAL(testutil_import(&out, tmp, "csv", FIX "/doc/any.csv", "any",
                                          "--map procs=np,runtime=time_s"),
                          0);
    free(out);
    CU_ASSERT_TRUE_FATAL(load_runs("any", &doc));
    testutil_assert_cell(&doc, 0, "np", "2");
    testutil_assert_cell(&doc, 0, "time_s", "40.1");
    testutil_assert_cell(&doc, 0, "tag_comment", "first, warm");
    testutil_assert_cell(&doc, 0, "input", "64");
    testutil_assert_cell(&doc, 0, "cluster", "imported");
    csv_doc_free(&doc);
    assert_checks_and_predicts("any");
}

/* Extra-P's mpi_data.csv (real MPI collective timings, microseconds): the
 * process count is `Ranks`, the response the median; every other number is
 * a measured figure (metric_*), every text a label (tag_*), so no column of
 * statistics splits the configurations. Hand-derived check: IntelMPI
 * Allreduce medians 30.9298, 42.23915, 60.6374, 87.6021 at log2(np) = 5..8
 * give the least-squares line 55.3521125 + 18.841515 (log2(np) - 6.5),
 * 102.4559 at np = 512 (measured 130.57975). */
static void test_real_csv_sample(void)
{
    static const char map[] =
        "--map Ranks=np,median=metric_median_us,mean=metric_mean_us,sd=metric_sd_us,"
        "min=metric_min_us,max=metric_max_us,iqr=metric_iqr_us,N=metric_samples,"
        "ci_sd_left=metric_ci_sd_left,ci_sd_right=metric_ci_sd_right,"
        "ci_median_left=metric_ci_median_left,ci_median_right=metric_ci_median_right,"
        "ci_iqr_left=metric_ci_iqr_left,ci_iqr_right=metric_ci_iqr_right,"
        "smallest_left=tag_smallest_left,largest_left=tag_largest_left,"
        "smallest_right=tag_smallest_right,largest_right=tag_largest_right,"
        "smallest_interval=tag_smallest_interval,largest_interval=tag_largest_interval "
        "--response metric_median_us";
    char *out = NULL;
    csv_doc doc;
    import_and_load("csv", FIX "/real/extrap_mpi_data.csv", "mpi", map, NULL, &doc);
    CU_ASSERT_EQUAL(doc.nrows, 21);
    testutil_assert_cell(&doc, 4, "np", "512");
    testutil_assert_cell(&doc, 4, "tag_mpi", "IntelMPI");
    testutil_assert_cell(&doc, 4, "tag_variable", "MPI_Allreduce");
    testutil_assert_cell(&doc, 4, "metric_median_us", "130.57975");
    csv_doc_free(&doc);
    assert_checks_and_predicts("mpi");

    char path[1024];
    snprintf(path, sizeof path, "%s/a/mpi/experiments.csv", tmp);
    FILE *f = fopen(path, "a");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("intelmpi-allreduce,scopred,metric_median_us,log2(np),"
          "\"np < 512 && tag_mpi == \"\"IntelMPI\"\" && tag_variable == \"\"MPI_Allreduce\"\"\","
          "\"np == 512 && tag_mpi == \"\"IntelMPI\"\" && tag_variable == \"\"MPI_Allreduce\"\"\","
          "IntelMPI Allreduce,\n", f);
    fclose(f);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "predict --archive %s/a --format json mpi "
                                                "intelmpi-allreduce", tmp), 0);
    CU_ASSERT_DOUBLE_EQUAL(testutil_json_number(out, "estimate"), 55.3521125 + 18.841515 * 2.5,
                           1e-6);
    CU_ASSERT_DOUBLE_EQUAL(testutil_json_number(out, "measured"), 130.57975, 1e-9);
    free(out);
}

/* Real `sacct --parsable2` output of a one-node Slurm 22.05 (see the
 * fixtures README): job 2 FAILED and is left out; job 5's 4-task step ran
 * 00:03:10; job 6 (a `perfcast plan --format slurm` script) has steps of
 * 1 and 2 tasks: two runs, each with its step's own np and Elapsed. */
static void test_real_sacct_sample(void)
{
    csv_doc doc;
    import_and_load("sacct", FIX "/real/sacct_perfcast_dev.txt", "sr", "",
                    "imported 6 new runs of 6", &doc);
    CU_ASSERT_EQUAL(doc.nrows, 7);
    testutil_assert_cell(&doc, 3, "cluster", "perfcast-dev");
    testutil_assert_cell(&doc, 3, "np", "4");
    testutil_assert_cell(&doc, 3, "time_s", "190");
    testutil_assert_cell(&doc, 3, "note", "job 5.0");
    testutil_assert_cell(&doc, 4, "np", "1");
    testutil_assert_cell(&doc, 4, "time_s", "3");
    testutil_assert_cell(&doc, 4, "code", "mgbench");
    testutil_assert_cell(&doc, 5, "np", "2");
    testutil_assert_cell(&doc, 5, "time_s", "13");
    testutil_assert_cell(&doc, 5, "note", "job 6.1");
    csv_doc_free(&doc);
    assert_checks_and_predicts("sr");
}

static void test_real_samples(void)
{
    char *out = NULL;
    /* Its lone parameter is called x: not taken for np without --map. */
    CU_ASSERT_EQUAL_FATAL(testutil_import(&out, tmp, "extrap",
                                          FIX "/real/extrap_strong_scaling.txt", "xr",
                                          "--map x=np"),
                          0);
    free(out);
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("xr", &doc));
    CU_ASSERT_EQUAL(doc.nrows, 31); /* 5 points x 6 repetitions */
    testutil_assert_cell(&doc, 29, "np", "60");
    testutil_assert_cell(&doc, 29, "time_s", "82.54252892405795"); /* digits as in the file */
    csv_doc_free(&doc);
    assert_checks_and_predicts("xr");

    CU_ASSERT_EQUAL_FATAL(
        testutil_import(&out, tmp, "reframe", FIX "/real/reframe_stream_test.log", "rr", ""), 0);
    free(out);
    CU_ASSERT_TRUE_FATAL(load_runs("rr", &doc));
    CU_ASSERT_EQUAL(doc.nrows, 5);
    testutil_assert_cell(&doc, 1, "cluster", "pseudo-cluster-compute");
    testutil_assert_cell(&doc, 1, "tag_environ", "clang");
    testutil_assert_cell(&doc, 1, "metric_copy_bw", "18405.7");
    testutil_assert_cell(&doc, 3, "metric_triad_bw", "8325.0");
    testutil_assert_cell(&doc, 3, "date", "2024-02-25");
    testutil_assert_cell(&doc, 3, "note", "job 70, pass");
    csv_doc_free(&doc);
    assert_checks_and_predicts("rr");

    /* JUBE's tutorial result table: number is the process count here, and
     * number_pat a measured figure. Points (1,1), (2,2) fit 3 - 2/np exactly,
     * so the held-out np = 4 is predicted at 2.5 (measured 4: -37.5%). */
    CU_ASSERT_EQUAL_FATAL(testutil_import(&out, tmp, "jube", FIX "/real/jube_tutorial_result.txt",
                                          "jt",
                                          "--map number=np,number_pat=metric_number_pat "
                                          "--response metric_number_pat"),
                          0);
    free(out);
    CU_ASSERT_TRUE_FATAL(load_runs("jt", &doc));
    CU_ASSERT_EQUAL(doc.nrows, 4);
    testutil_assert_cell(&doc, 2, "np", "4");
    testutil_assert_cell(&doc, 2, "metric_number_pat", "4");
    csv_doc_free(&doc);
    assert_checks_and_predicts("jt");
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "predict --archive %s/a --format json jt "
                                                "scaling-metric_number_pat", tmp), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\"estimate\": 2.5,"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\"error_pct\": -37.5,"));
    free(out);
    test_real_csv_sample();
    test_real_sacct_sample();
}

/* Importing again adds nothing; another file extends the campaign, and the
 * rows already there come back byte for byte under the wider header. */
static void test_extend_never_overwrites(void)
{
    char *out = NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/a/s/runs.csv", tmp);
    CU_ASSERT_EQUAL_FATAL(
        testutil_import(&out, tmp, "sacct", FIX "/doc/sacct_parsable2.txt", "s", "--cluster c1"),
        0);
    free(out);
    char *before = testutil_read_file(path);
    CU_ASSERT_EQUAL(
        testutil_import(&out, tmp, "sacct", FIX "/doc/sacct_parsable2.txt", "s", "--cluster c1"),
        0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "imported 0 new runs of 5"));
    free(out);
    char *again = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    CU_ASSERT_PTR_NOT_NULL_FATAL(again);
    CU_ASSERT_STRING_EQUAL(before, again);
    CU_ASSERT_EQUAL(
        testutil_import(&out, tmp, "jube", FIX "/doc/jube_result.csv", "s", "--cluster c1"), 0);
    free(out);
    char *after = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(after);
    /* Line by line: each old line is the start of the new one (only empty
     * cells for the new column tag_compiler were added). */
    char *save_a = NULL, *save_b = NULL;
    char *la = strtok_r(before, "\n", &save_a), *lb = strtok_r(after, "\n", &save_b);
    for (la = strtok_r(NULL, "\n", &save_a), lb = strtok_r(NULL, "\n", &save_b); la;
         la = strtok_r(NULL, "\n", &save_a), lb = strtok_r(NULL, "\n", &save_b)) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(lb);
        CU_ASSERT_EQUAL(strncmp(lb, la, strlen(la)), 0);
        CU_ASSERT_STRING_EQUAL(lb + strlen(la), ",");
    }
    size_t more = 0;
    for (; lb; lb = strtok_r(NULL, "\n", &save_b))
        more++;
    CU_ASSERT_EQUAL(more, 5); /* the five JUBE runs */
    free(before);
    free(again);
    free(after);
    assert_checks_and_predicts("s");
}

static void test_bad_inputs_positioned(void)
{
    static const struct {
        const char *format, *file, *expected;
    } cases[] = {
        {"extrap", "extrap_bad_number.txt", "extrap_bad_number.txt:5:10: '2.x' is not a number"},
        {"extrap", "extrap_too_many_data.txt",
         "extrap_too_many_data.txt:6:1: DATA line 3 of metric 'time' (from line 3), but only 2 "
         "POINTS"},
        {"extrap", "extrap_not_whole.txt",
         "extrap_not_whole.txt:2:8: the process count p is 2.5 here"},
        {"reframe", "reframe_bad_tasks.log",
         "reframe_bad_tasks.log:3:26: num_tasks 'four' is not a whole number >= 1"},
        {"reframe", "reframe3_no_tasks.log",
         "reframe3_no_tasks.log:1:93: no num_tasks=N field"},
        {"sacct", "sacct_bad_elapsed.txt",
         "sacct_bad_elapsed.txt:2:19: Elapsed '00:1x:00' is not [DD-][HH:]MM:SS"},
        {"csv", "csv_negative_time.csv",
         "csv_negative_time.csv:3:3: time_s '-1' is not a number of seconds > 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL, file[256];
        snprintf(file, sizeof file, FIX "/bad/%s", cases[i].file);
        bool csv = strcmp(cases[i].format, "csv") == 0;
        int rc = testutil_import(&out, tmp, cases[i].format, file, "bad",
                                 csv ? "--map procs=np,runtime=time_s" : "");
        if (!out || !strstr(out, cases[i].expected))
            fprintf(stderr, "\nwant: %s\ngot:  %s\n", cases[i].expected, out ? out : "");
        CU_ASSERT_EQUAL(rc, 1);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, cases[i].expected));
        free(out);
    }
    /* Nothing was written for the campaign. */
    char path[1024];
    snprintf(path, sizeof path, "%s/a/bad", tmp);
    struct stat st;
    CU_ASSERT_NOT_EQUAL(stat(path, &st), 0);
}

/* Every reader under valgrind: no invalid access, no leak (exit 9 marks one). */
static void test_valgrind_clean(void)
{
    const char *san = getenv("PERFCAST_SAN");
    if (san && strcmp(san, "1") == 0) {
        fprintf(stderr, "(valgrind skipped under SAN=1) ");
        return;
    }
    static const char *const runs[] = {
        "extrap " FIX "/doc/extrap_two_params.txt", "reframe " FIX "/real/reframe_stream_test.log",
        "sacct " FIX "/doc/sacct_parsable2.txt", "jube " FIX "/doc/jube_pretty.txt",
        "csv " FIX "/doc/any.csv --map procs=np,runtime=time_s",
        "extrap " FIX "/bad/extrap_not_whole.txt", "sacct " FIX "/bad/sacct_bad_elapsed.txt",
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char *out = NULL;
        int rc = testutil_run_commandf(&out,
                                       "valgrind -q --error-exitcode=9 --leak-check=full "
                                       "--errors-for-leak-kinds=definite,indirect %s import %s "
                                       "--archive %s/vg --campaign v%zu",
                                       testutil_perfcast(), runs[i], tmp, i);
        if (rc != 0 && rc != 1)
            fprintf(stderr, "\n%s\n", out ? out : "");
        CU_ASSERT_TRUE(rc == 0 || rc == 1);
        free(out);
    }
}

/* runs.csv needs time_s only when an experiment predicts it: the ReFrame
 * campaign has none and checks clean; an experiment that predicts the
 * default time_s there fails with a message that says so. */
static void test_time_s_only_when_used(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/a/rr/runs.csv", tmp);
    char *runs = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
    CU_ASSERT_PTR_NULL(strstr(runs, "time_s"));
    free(runs);
    assert_checks_and_predicts("rr");
    snprintf(path, sizeof path, "%s/a/rr/experiments.csv", tmp);
    char *exps = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(exps);
    char *more = malloc(strlen(exps) + 64);
    sprintf(more, "%stimed,scopred,,np,,np >= 1,,\n", exps);
    testutil_write_file(path, more);
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "fit --archive %s/a rr timed", tmp), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "the response column 'time_s' is not in runs.csv"));
    free(out);
    testutil_write_file(path, exps);
    free(exps);
    free(more);
}

/* Experiment names of campaign's experiments.csv, one per line (caller frees). */
static char *experiments_text(const char *campaign)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/a/%s/experiments.csv", tmp, campaign);
    return testutil_read_file(path);
}

/* Import text (a CSV) into campaign with extra options; exit 0. */
static void import_text(const char *text, const char *campaign, const char *extra)
{
    char path[1024], *out = NULL;
    snprintf(path, sizeof path, "%s/two.csv", tmp);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, text));
    int rc = testutil_import(&out, tmp, "csv", path, campaign, extra);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
}

/* A later import adding a second configuration (input=128 beside 64, or a
 * second cluster) replaced the first import's unfiltered `scaling`, which
 * went on fitting both as one (27.5 s predicted for each, +450% / -45%);
 * an edited `scaling` is the user's: kept, with a warning. */
static void test_second_configuration(void)
{
    const char *a = "np,runtime,input\n2,40,64\n4,20,64\n8,10,64\n16,5,64\n";
    const char *b = "np,runtime,input\n2,400,128\n4,200,128\n8,100,128\n16,50,128\n";
    import_text(a, "two", "");
    import_text(b, "two", "");
    char *e = experiments_text("two");
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_PTR_NULL(strstr(e, "\nscaling,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "\nscaling-1,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "\nscaling-2,"));
    free(e);
    assert_checks_and_predicts("two");
    CU_ASSERT_TRUE(testutil_import_readme_has(tmp, "two", "it was replaced by one experiment "
                                                         "per configuration"));
    import_text(a, "clu", "--cluster fast");
    import_text(a, "clu", "--cluster slow");
    e = experiments_text("clu");
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_PTR_NULL(strstr(e, "\nscaling,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "\nscaling-2,"));
    free(e);
    /* Edited (its title changed): kept, and the import says so. */
    import_text(a, "ed", "");
    char path[1024];
    snprintf(path, sizeof path, "%s/a/ed/experiments.csv", tmp);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(
        path, "name,model,response,formula,train,target,title,options\n"
              "scaling,scopred,time_s,1/np,np < 16,np == 16,my own title,\n"));
    char csv[1024], *out = NULL;
    snprintf(csv, sizeof csv, "%s/two.csv", tmp);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(csv, b));
    CU_ASSERT_EQUAL(testutil_import(&out, tmp, "csv", csv, "ed", ""), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "experiments.csv:2:1: warning: experiment "
                                              "'scaling' fits `time_s` without a configuration "
                                              "filter"));
    free(out);
    e = experiments_text("ed");
    CU_ASSERT_PTR_NOT_NULL(e && strstr(e, "\nscaling,scopred,time_s,1/np,np < 16,np == 16,my own "
                                          "title,\n"));
    free(e);
}

/* A row already there is not added twice when its cells are equal as
 * numbers (2.0, 2, 2e0; 0.50, 5e-1), within one file too: three files
 * of the same two runs gave six rows. */
static void test_numeric_duplicates(void)
{
    import_text("np,time\n2.0,1\n4,0.5\n", "dup", "");
    import_text("np,time\n2,1\n4,0.50\n", "dup", "");
    import_text("np,time\n2e0,1.0\n4,5e-1\n4,0.5\n", "dup", "");
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(load_runs("dup", &doc));
    CU_ASSERT_EQUAL(doc.nrows, 3); /* the header and two runs */
    csv_doc_free(&doc);
}

static void test_usage(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "import xml f --campaign c"), 2);
    CU_ASSERT_PTR_NOT_NULL(out &&
                           strstr(out, "perfcast: unknown format xml; see perfcast import --help"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "import csv f.csv"), 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "--campaign NAME is required"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "import csv f.csv --campaign c --map procs"), 2);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "import csv f.csv --campaign ../x"), 1);
    free(out);
    /* A campaign folder named like the archive's own file hid it: the
     * archive then failed `perfcast check`. */
    char path[1024];
    snprintf(path, sizeof path, "%s/reserved.csv", tmp);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, "np,time\n2,1\n4,0.5\n"));
    const char *const reserved[] = {"advice.csv", "acknowledgements.csv", "Clusters.csv"};
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(testutil_import(&out, tmp, "csv", path, reserved[i], ""), 1);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "not a usable campaign name"));
        free(out);
        char dir[1024];
        struct stat st;
        snprintf(dir, sizeof dir, "%s/a/%s", tmp, reserved[i]);
        CU_ASSERT_NOT_EQUAL(stat(dir, &st), 0);
    }
    /* A second value would silently win; a FROM mapped two ways contradicts. */
    CU_ASSERT_EQUAL(
        testutil_perfcast_run(&out, "import csv f.csv --campaign c --time-unit ms --time-unit s"),
        2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "given twice: --time-unit"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "import csv f.csv --campaign c --map procs=np "
                                                "--map procs=time_s"),
                    2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "--map procs=time_s contradicts --map procs=np"));
    free(out);
}

/* --response must name a result column of the imported runs: `input` (a
 * configuration) was made a result, merging the configurations ("imported
 * 0 new runs of 4" of a second file), and `nosuch` was ignored. Usage
 * errors (exit 2), nothing written. */
static void test_response_checked(void)
{
    char path[1024], *out = NULL;
    snprintf(path, sizeof path, "%s/resp.csv", tmp);
    CU_ASSERT_TRUE_FATAL(
        testutil_write_file(path, "np,runtime,input\n2,40,64\n4,20,64\n8,10,64\n"));
    CU_ASSERT_EQUAL(testutil_import(&out, tmp, "csv", path, "resp", "--response input"), 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "'input' is a configuration column"));
    free(out);
    CU_ASSERT_EQUAL(testutil_import(&out, tmp, "csv", path, "resp", "--response time"), 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "no result column 'time' in the imported runs "
                                              "(--response); did you mean 'time_s'?"));
    free(out);
    char dir[1024];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/a/resp", tmp);
    CU_ASSERT_NOT_EQUAL(stat(dir, &st), 0);
    CU_ASSERT_EQUAL(testutil_import(&out, tmp, "csv", path, "resp", "--response time_s"), 0);
    free(out);
}

/* A --map FROM=TO whose FROM the files lack was accepted and ignored
 * (--map runtme=time_s left the time where it was): a usage error naming
 * the nearest name the reader would map, nothing written. A FROM that
 * matches (sacct's columns in any case) imports. */
static void test_map_from_checked(void)
{
    static const struct {
        const char *format, *name, *text, *maps, *near;
    } cases[] = {
        {"csv", "m.csv", "procs,runtime\n2,1.0\n4,0.5\n", "--map runtme=time_s", "runtime"},
        {"jube", "m.dat", "procs,runtime\n2,1.0\n4,0.5\n", "--map procs=np,runtme=time_s",
         "runtime"},
        {"sacct", "m.txt", "JobID|State|Elapsed|NTasks\n1.0|COMPLETED|00:10|2\n",
         "--map NTask=np", "NTasks"},
        {"reframe", "m.log",
         "result|job_completion_time|name|num_tasks|system|partition|environ|t_value|t_unit\n"
         "pass|2024-05-03T10:20:31|k|2|s|p|e|1|s\n",
         "--map t_valu=time_s", "t_value"},
        {"extrap", "m.txt2", "PARAMETER p\nPOINTS 2 4\nREGION r\nMETRIC time\nDATA 1\nDATA 2\n",
         "--map r:tme=time_s", "r:time"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[1024], *out = NULL, want[256];
        snprintf(path, sizeof path, "%s/%s", tmp, cases[i].name);
        CU_ASSERT_TRUE_FATAL(testutil_write_file(path, cases[i].text));
        snprintf(want, sizeof want, "(did you mean '%s'?)", cases[i].near);
        int rc = testutil_import(&out, tmp, cases[i].format, path, "maps", cases[i].maps);
        if (rc != 2 || !out || !strstr(out, want))
            fprintf(stderr, "\n%s: rc %d: %s\n", cases[i].format, rc, out ? out : "");
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, want));
        free(out);
    }
    char dir[1024], path[1024], *out = NULL;
    struct stat st;
    snprintf(dir, sizeof dir, "%s/a/maps", tmp);
    CU_ASSERT_NOT_EQUAL(stat(dir, &st), 0);
    snprintf(path, sizeof path, "%s/m.txt", tmp);
    CU_ASSERT_EQUAL(testutil_import(&out, tmp, "sacct", path, "maps", "--map ntasks=np"), 0);
    free(out);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"extrap: doc sample, two parameters, regions and metrics", test_extrap_doc},
        {"sacct: --parsable2 and -p, steps, states, days", test_sacct_doc},
        {"reframe 3: lines without a header", test_reframe3_doc},
        {"jube (csv and pretty) and csv with --map", test_jube_and_csv_doc},
        {"real samples: Extra-P and ReFrame", test_real_samples},
        {"extending a campaign never changes its rows", test_extend_never_overwrites},
        {"bad inputs: FILE:LINE:COL, nothing written", test_bad_inputs_positioned},
        {"time_s only where an experiment uses it", test_time_s_only_when_used},
        {"a second configuration replaces the unfiltered default",
         test_second_configuration},
        {"valgrind-clean", test_valgrind_clean},
        {"usage errors", test_usage},
        {"numerically equal rows are one row", test_numeric_duplicates},
        {"--response names a result column", test_response_checked},
        {"--map FROM the files lack is a usage error", test_map_from_checked},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"import", tests}, {NULL, NULL}};
    if (setup() != 0)
        return 1;
    int status = testutil_run_suites(suites);
    teardown();
    return status;
}
