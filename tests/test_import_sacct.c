/*
 * test_import_sacct.c — the Slurm sacct reader (gen/import/import_sacct.c):
 * one run per COMPLETED srun step with the step's own figures, the job as a
 * whole only without steps; Elapsed, counts and Start read strictly as
 * Slurm writes them; hostile files (NUL bytes, control bytes, missing or
 * doubled columns, split jobs, heterogeneous IDs, huge cells) refused at
 * FILE:LINE:COL or left out with a note, never a crash. Small inputs are
 * written here and read in-process; real `sacct` output recorded for these
 * tests (tests/fixtures/import/sacct, see its README) is imported end to end.
 */
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/import/import.h"

#define FIX "tests/fixtures/import/sacct"
#define HEAD "JobID|JobName|State|Elapsed|NNodes|NTasks|Start\n"

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

/* Write len bytes of data (NULs allowed) to tmp/name; the path in path. */
static void write_input(const char *name, const char *data, size_t len, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", tmp, name);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* Read text (as a file) with --map from=np when from is not NULL; rows in
 * *rows (caller frees), problems in *diags (caller frees). */
static bool read_text(const char *text, const char *map_from, import_rows *rows,
                      diag_list *diags)
{
    char path[1024];
    write_input("in.txt", text, strlen(text), path, sizeof path);
    import_map map = {map_from, "np"};
    import_request req = {.format = "sacct", .maps = &map, .nmaps = map_from ? 1 : 0};
    import_rows_init(rows);
    diag_init(diags);
    return import_read_sacct(&req, path, rows, diags);
}

static void assert_row(const import_rows *rows, size_t r, const char *column, const char *want)
{
    const char *got = r < rows->nrows ? import_rows_get(rows, r, column) : NULL;
    if (!got || strcmp(got, want) != 0)
        fprintf(stderr, "\nrow %zu %s: got '%s', want '%s'\n", r, column, got ? got : "(none)",
                want);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, want);
}

/* Reading text is refused with one problem at line:col whose message has
 * fragment in it; no row is kept. */
static void assert_refused_bytes(const char *data, size_t len, long line, long col,
                                 const char *fragment)
{
    char path[1024];
    write_input("bad.txt", data, len, path, sizeof path);
    import_request req = {.format = "sacct"};
    import_rows rows;
    diag_list d;
    import_rows_init(&rows);
    diag_init(&d);
    CU_ASSERT_FALSE(import_read_sacct(&req, path, &rows, &d));
    bool found = d.count == 1 && d.items[0].line == line && d.items[0].column == col &&
                 strstr(d.items[0].message, fragment) && strcmp(d.items[0].file, path) == 0;
    if (!found)
        fprintf(stderr, "\nwant %ld:%ld: ...%s...\ngot  %zu problems, %ld:%ld: %s\n", line, col,
                fragment, d.count, d.count ? d.items[0].line : 0L,
                d.count ? d.items[0].column : 0L, d.count ? d.items[0].message : "");
    CU_ASSERT_TRUE(found);
    import_rows_free(&rows);
    diag_free(&d);
}

static void assert_refused(const char *text, long line, long col, const char *fragment)
{
    assert_refused_bytes(text, strlen(text), line, col, fragment);
}

/* The job `perfcast plan --format slurm` writes: srun steps of 1, 1, 2
 * and 2 tasks. Each is a run with its own NTasks, NNodes and Elapsed; the
 * allocation, batch, extern and interactive lines are not runs; the two
 * steps of each np are repetitions 1 and 2 of one configuration. */
static void test_each_step_a_run(void)
{
    import_rows rows;
    diag_list d;
    CU_ASSERT_TRUE_FATAL(read_text(HEAD
        "7|perfcast-plan|COMPLETED|00:00:40|2||2024-03-01T10:00:00\n"
        "7.batch|batch|COMPLETED|00:00:40|1|1|2024-03-01T10:00:00\n"
        "7.extern|extern|COMPLETED|00:00:40|2|2|2024-03-01T10:00:00\n"
        "7.interactive|interactive|COMPLETED|00:00:40|1|1|2024-03-01T10:00:00\n"
        "7.0|mgbench|COMPLETED|00:00:12|1|1|2024-03-01T10:00:01\n"
        "7.1|mgbench|COMPLETED|00:00:11|1|1|2024-03-01T10:00:13\n"
        "7.2|mgbench|COMPLETED|00:00:07|2|2|2024-03-01T23:59:59\n"
        "7.3|mgbench|COMPLETED|00:00:06|1|2|2024-03-02T00:00:06\n",
        NULL, &rows, &d));
    CU_ASSERT_EQUAL_FATAL(rows.nrows, 4);
    static const char *const np[] = {"1", "1", "2", "2"}, *const t[] = {"12", "11", "7", "6"},
                             *const nodes[] = {"1", "1", "2", "1"}, *const rep[] = {"1", "2", "1", "1"},
                             *const note[] = {"job 7.0", "job 7.1", "job 7.2", "job 7.3"},
                             *const date[] = {"2024-03-01", "2024-03-01", "2024-03-01",
                                              "2024-03-02"};
    for (size_t r = 0; r < 4; r++) {
        assert_row(&rows, r, "np", np[r]);
        assert_row(&rows, r, "time_s", t[r]);
        assert_row(&rows, r, "nodes", nodes[r]);
        assert_row(&rows, r, "rep", rep[r]); /* 7.3 ran on 1 node, 7.2 on 2: not repetitions */
        assert_row(&rows, r, "note", note[r]);
        assert_row(&rows, r, "date", date[r]);
        assert_row(&rows, r, "code", "mgbench");
    }
    CU_ASSERT_EQUAL(d.count, 0);
    import_rows_free(&rows);
    diag_free(&d);
    /* Same nodes: the second step of each np is repetition 2. */
    CU_ASSERT_TRUE_FATAL(read_text(HEAD
        "8|p|COMPLETED|00:00:40|1||2024-03-01T10:00:00\n"
        "8.0|mg|COMPLETED|00:00:12|1|1|2024-03-01T10:00:01\n"
        "8.1|mg|COMPLETED|00:00:07|1|2|2024-03-01T10:00:13\n"
        "8.2|mg|COMPLETED|00:00:11|1|1|2024-03-01T10:00:20\n"
        "8.3|mg|COMPLETED|00:00:06|1|2|2024-03-01T10:00:31\n",
        NULL, &rows, &d));
    CU_ASSERT_EQUAL_FATAL(rows.nrows, 4);
    static const char *const rep2[] = {"1", "1", "2", "2"};
    for (size_t r = 0; r < 4; r++)
        assert_row(&rows, r, "rep", rep2[r]);
    import_rows_free(&rows);
    diag_free(&d);
}

/* States are judged per step; the allocation is a run only without srun
 * steps, and only when it names a process count (not the batch step's 1). */
static void test_states_and_jobs_without_steps(void)
{
    import_rows rows;
    diag_list d;
    CU_ASSERT_TRUE_FATAL(read_text(HEAD
        "1|a|TIMEOUT|00:10:00|1||2024-03-01T10:00:00\n"
        "1.0|x|COMPLETED|00:03:00|1|4|2024-03-01T10:00:00\n"
        "1.1|x|CANCELLED by 0|00:07:00|1|4|2024-03-01T10:03:00\n"
        "2|b|COMPLETED|01:00|1|8|2024-03-01T11:00:00\n"
        "2.batch|batch|COMPLETED|01:00|1|1|2024-03-01T11:00:00\n"
        "3|c|COMPLETED|02:00|1||2024-03-01T12:00:00\n"
        "3.batch|batch|COMPLETED|02:00|1|1|2024-03-01T12:00:00\n"
        "4|d|COMPLETED|02:00|1||2024-03-01T12:00:00\n"
        "4.0|x|FAILED|00:01|1|2|2024-03-01T12:00:00\n"
        "5|e|COMPLETEDX|02:00|1|2|2024-03-01T12:00:00\n"
        "6.0|x|COMPLETED|00:00:00|1|2|2024-03-01T12:00:00\n",
        NULL, &rows, &d));
    CU_ASSERT_EQUAL_FATAL(rows.nrows, 2);
    assert_row(&rows, 0, "np", "4");
    assert_row(&rows, 0, "time_s", "180");
    assert_row(&rows, 1, "np", "8");
    assert_row(&rows, 1, "time_s", "60");
    assert_row(&rows, 1, "note", "job 2");
    CU_ASSERT_PTR_NULL(import_rows_get(&rows, 1, "rep"));
    /* Counted for the README: 1.1, 4.0 and 5; job 3; step 6.0's zero time. */
    const char *notes = rows.nnotes > 2 ? rows.notes[0] : "";
    CU_ASSERT_PTR_NOT_NULL(strstr(notes, "3 steps or jobs not COMPLETED"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rows.notes[1], "1 step or job of zero elapsed time"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rows.notes[2], "1 job without srun steps"));
    import_rows_free(&rows);
    diag_free(&d);
    /* --map AllocCPUS=np: the count comes from the column named. */
    CU_ASSERT_TRUE_FATAL(read_text("JobID|State|Elapsed|NTasks|AllocCPUS\n"
                                   "9|COMPLETED|00:01:00||16\n9.batch|COMPLETED|00:01:00|1|16\n",
                                   "AllocCPUS", &rows, &d));
    CU_ASSERT_EQUAL_FATAL(rows.nrows, 1);
    assert_row(&rows, 0, "np", "16");
    import_rows_free(&rows);
    diag_free(&d);
}

/* Elapsed as Slurm writes it: [DD-][HH:]MM:SS[.fff], decimal digits only. */
static void test_elapsed_accepted(void)
{
    static const struct {
        const char *elapsed;
        double seconds;
    } cases[] = {
        {"01:00", 60},       {"0-00:30", 30},          {"12:34:56", 45296},
        {"1-00:00:00", 86400}, {"2-03:04:05", 183845}, {"00:00:01.500", 1.5},
        {"00:59:59", 3599},  {"36:00:00", 129600},     {"3660-23:59:59", 316310399},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, HEAD "1|a|COMPLETED|%s|1|2|2024-03-01T10:00:00\n",
                 cases[i].elapsed);
        import_rows rows;
        diag_list d;
        CU_ASSERT_TRUE(read_text(text, NULL, &rows, &d));
        const char *got = rows.nrows == 1 ? import_rows_get(&rows, 0, "time_s") : NULL;
        if (!got || strtod(got, NULL) != cases[i].seconds)
            fprintf(stderr, "\n%s: got %s\n", cases[i].elapsed, got ? got : "(none)");
        CU_ASSERT_TRUE(got && strtod(got, NULL) == cases[i].seconds);
        import_rows_free(&rows);
        diag_free(&d);
    }
}

/* Anything else is refused at the character that is wrong (the cell starts
 * at column 15 of line 2): strtod read 0x10:00 as 960 s, 1e3:00 as 60,000
 * s, and 1e308:00 as inf, which crashed the number printer. */
static void test_elapsed_refused(void)
{
    static const struct {
        const char *elapsed;
        long col;
        const char *why;
    } cases[] = {
        {"0x10:00", 16, "'x' where ':'"},   {"1e3:00", 16, "'e' where ':'"},
        {"1e308:00", 16, "'e' where ':'"},      {"-1:00", 15, "'-' where a digit"},
        {"00:1x:00", 19, "'x' where a digit"},  {"00:60", 18, "seconds 60 is not below 60"},
        {"60:00", 15, "minutes 60"},            {"1-24:00:00", 17, "hours 24"},
        {"1-5:00:00", 18, "':' where a digit"}, {"00:00:01.", 24, "ends where a digit"},
        {"00:00:01.1234567890", 33, "more than 9 digits"},
        {"9999999999:00", 24, "more than 9 digits"},
        {"3661-00:00:00", 15, "days 3661"},     {"87841:00:00", 15, "hours 87841"},
        {"00:01:00:00", 23, "':' where the end"}, {"01", 17, "ends where ':'"},
        {"inf:00", 15, "'i' where a digit"},    {"00:00:1\xc3\xa9", 22, "'\xc3\xa9' where a digit"},
        {"00: 01", 18, "' ' where a digit"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "JobID|a|State|Elapsed|NTasks\n1|a|COMPLETED|%s|2\n",
                 cases[i].elapsed);
        assert_refused(text, 2, cases[i].col, cases[i].why);
    }
    assert_refused("JobID|State|ElapsedRaw|NTasks\n1|COMPLETED|1e3|2\n", 2, 14, "'e'");
    assert_refused("JobID|State|ElapsedRaw|NTasks\n1|COMPLETED|0x10|2\n", 2, 14, "'x'");
}

/* Counts are decimal digits; np never from a column that is not one. */
static void test_counts_refused(void)
{
    assert_refused(HEAD "1|a|COMPLETED|01:00|1|4.0|2024-03-01T10:00:00\n", 2, 24,
                   "NTasks '4.0' is not a whole number of processes");
    assert_refused(HEAD "1|a|COMPLETED|01:00|1|0|2024-03-01T10:00:00\n", 2, 23, "below 1");
    assert_refused(HEAD "1|a|COMPLETED|01:00|1|1e9|2024-03-01T10:00:00\n", 2, 24, "'e'");
    assert_refused(HEAD "1|a|COMPLETED|01:00|0x2|4|2024-03-01T10:00:00\n", 2, 22,
                   "NNodes '0x2' is not a whole number of nodes");
    assert_refused(HEAD "1|a|COMPLETED|01:00|1||2024-03-01T10:00:00\n"
                        "1.0|a|COMPLETED|01:00|1||2024-03-01T10:00:00\n",
                   3, 25, "step 1.0: no NTasks");
}

/* Start must be a real time; its day is written as the archive's date. */
static void test_start(void)
{
    static const struct {
        const char *start;
        long col;
        const char *why;
    } bad[] = {
        {"2023-02-29T10:00:00", 33, "day 29 is not below 29"},
        {"2024-13-01T10:00:00", 30, "month 13"},
        {"2024-03-01", 35, "ends where YYYY-MM-DDTHH:MM:SS"},
        {"2024-03-01T24:00:00", 36, "time field 24"},
        {"2024-03-01T10:00:00Z", 44, "'Z' where the end"},
        {"Tomorr 12:00", 25, "'T' where a digit"},
        {"1969-12-31T23:59:59", 25, "year 1969"},
        {"2024-0x-01T10:00:00", 31, "'x' where a digit"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, HEAD "1|a|COMPLETED|01:00|1|2|%s\n", bad[i].start);
        assert_refused(text, 2, bad[i].col, bad[i].why);
    }
    import_rows rows;
    diag_list d;
    CU_ASSERT_TRUE_FATAL(read_text(HEAD "1|a|COMPLETED|01:00|1|2|2024-02-29T10:00:00\n"
                                        "2|a|COMPLETED|01:00|1|2|Unknown\n", NULL, &rows, &d));
    assert_row(&rows, 0, "date", "2024-02-29");
    CU_ASSERT_PTR_NULL(import_rows_get(&rows, 1, "date"));
    import_rows_free(&rows);
    diag_free(&d);
}

/* Hostile files: refused where the problem is, never a crash. */
static void test_hostile_files(void)
{
    /* A NUL cut the line for import_lines: "00:10<NUL>999" read as 10 s. */
    static const char nul[] = HEAD "1|a|COMPLETED|00:10\0" "999|1|2|2024-03-01T10:00:00\n";
    assert_refused_bytes(nul, sizeof nul - 1, 2, 20, "control byte 0x00");
    assert_refused_bytes("\0JobID|NTasks\n", 14, 1, 1, "control byte 0x00");
    assert_refused(HEAD "1|a\rb|COMPLETED|01:00|1|2|2024-03-01T10:00:00\n", 2, 4,
                   "control byte 0x0D");
    assert_refused(HEAD "1|a|COMPLETED|01:00|1\n", 2, 22, "5 fields where the header has 7");
    assert_refused(HEAD "1|a|COMPLETED|01:00|1|2|2024-03-01T10:00:00|x\n", 2, 45,
                   "8 fields where the header has 7");
    assert_refused("JobID|NTasks|Elapsed|ntasks\n1|2|01:00|4\n", 1, 22, "a second NTasks column");
    assert_refused("JobID|Elapsed\n1|01:00\n", 1, 1, "no NTasks column");
    assert_refused("JobID|NTasks\n1|2\n", 1, 1, "no Elapsed (or ElapsedRaw) column");
    assert_refused(HEAD "abc|a|COMPLETED|01:00|1|2|2024-03-01T10:00:00\n", 2, 1,
                   "JobID 'abc' is not a Slurm job or step ID");
    assert_refused(HEAD "1.0.0|a|COMPLETED|01:00|1|2|2024-03-01T10:00:00\n", 2, 1, "JobID");
    assert_refused(HEAD "|a|COMPLETED|01:00|1|2|2024-03-01T10:00:00\n", 2, 1, "JobID ''");
    /* Job 1's steps after job 2's lines: its allocation would be a run
     * besides its steps. */
    assert_refused(HEAD "1|a|COMPLETED|01:00|1|2|2024-03-01T10:00:00\n"
                        "2|a|COMPLETED|01:00|1|2|2024-03-01T10:00:00\n"
                        "1.0|a|COMPLETED|01:00|1|2|2024-03-01T10:00:00\n",
                   4, 1, "job 1 again (its lines start at line 2 too)");
    /* A 1 MB JobName is a cell like any other; a 1 MB Elapsed is refused
     * with a short excerpt. */
    size_t big = 1 << 20;
    char *text = malloc(big + 256);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    int n = snprintf(text, 256, HEAD "1|");
    memset(text + n, 'x', big);
    snprintf(text + n + big, 200, "|COMPLETED|01:00|1|2|2024-03-01T10:00:00\n");
    import_rows rows;
    diag_list d;
    CU_ASSERT_TRUE(read_text(text, NULL, &rows, &d));
    CU_ASSERT_EQUAL(rows.nrows == 1 ? strlen(import_rows_get(&rows, 0, "code")) : 0, big);
    import_rows_free(&rows);
    diag_free(&d);
    n = snprintf(text, 256, HEAD "1|a|COMPLETED|");
    memset(text + n, '1', big);
    snprintf(text + n + big, 200, "|1|2|2024-03-01T10:00:00\n");
    assert_refused(text, 2, 15 + 9, "more than 9 digits");
    free(text);
}

/* Heterogeneous jobs (123+0, steps 123+0.0 or 123.0+1) are left out with
 * a note: a step spans components whose tasks sacct lists apart. */
static void test_heterogeneous(void)
{
    import_rows rows;
    diag_list d;
    CU_ASSERT_TRUE_FATAL(read_text(HEAD
        "5+0|h|COMPLETED|01:00|1||2024-03-01T10:00:00\n"
        "5+0.batch|batch|COMPLETED|01:00|1|1|2024-03-01T10:00:00\n"
        "5+0.0|x|COMPLETED|01:00|1|2|2024-03-01T10:00:00\n"
        "5+1|h|COMPLETED|01:00|1||2024-03-01T10:00:00\n"
        "5+1.0|x|COMPLETED|01:00|1|4|2024-03-01T10:00:00\n"
        "6|g|COMPLETED|01:00|1||2024-03-01T10:00:00\n"
        "6.0+0|x|COMPLETED|01:00|1|2|2024-03-01T10:00:00\n"
        "6.0+1|x|COMPLETED|01:00|1|4|2024-03-01T10:00:00\n"
        "7_3|arr|COMPLETED|01:00|1||2024-03-01T10:00:00\n"
        "7_3.0|x|COMPLETED|02:00|1|8|2024-03-01T10:00:00\n",
        NULL, &rows, &d));
    CU_ASSERT_EQUAL_FATAL(rows.nrows, 1); /* only the array task 7_3's step */
    assert_row(&rows, 0, "np", "8");
    assert_row(&rows, 0, "note", "job 7_3.0");
    bool noted = false;
    for (size_t i = 0; i < rows.nnotes; i++)
        noted = noted || strstr(rows.notes[i], "2 heterogeneous jobs left out");
    CU_ASSERT_TRUE(noted);
    import_rows_free(&rows);
    diag_free(&d);
}

/* `sacct -n ... >> log` appends every job again: a line given twice
 * unchanged is one step (not repetition 2), even when another job's lines
 * came between; the same JobID with other values is refused, naming both
 * lines. */
static void test_repeated_lines(void)
{
    static const char job8[] =
        "8|a|COMPLETED|00:10|1||2024-01-01T00:00:00\n"
        "8.0|mg|COMPLETED|05:30|1|4|2024-01-01T00:00:00\n"
        "8.1|mg|COMPLETED|05:20|1|4|2024-01-01T00:00:00\n";
    static const char job9[] = "9.0|mg|COMPLETED|01:00|1|2|2024-01-01T00:00:00\n";
    char text[1024];
    snprintf(text, sizeof text, HEAD "%s%s%s%s", job8, job8, job9, job8);
    import_rows rows;
    diag_list d;
    CU_ASSERT_TRUE_FATAL(read_text(text, NULL, &rows, &d));
    CU_ASSERT_EQUAL_FATAL(rows.nrows, 3);
    assert_row(&rows, 0, "note", "job 8.0");
    assert_row(&rows, 0, "rep", "1");
    assert_row(&rows, 1, "note", "job 8.1");
    assert_row(&rows, 1, "rep", "2");
    assert_row(&rows, 2, "note", "job 9.0");
    bool noted = false;
    for (size_t i = 0; i < rows.nnotes; i++)
        noted = noted || strstr(rows.notes[i], "6 lines of");
    CU_ASSERT_TRUE(noted);
    import_rows_free(&rows);
    diag_free(&d);
    snprintf(text, sizeof text, HEAD "%s%s", job8,
             "8.1|mg|COMPLETED|05:21|1|4|2024-01-01T00:00:00\n");
    assert_refused(text, 5, 18, "JobID 8.1 again with other values (line 4 has Elapsed '05:20', "
                                "this line '05:21')");
}

/* Real sacct output recorded for these tests (see the fixtures README):
 * job 4 is a plan-shaped job whose steps of 1, 1, 2 and 2 tasks slept 4,
 * 4, 2 and 2 s (sacct says 4, 4, 2, 3). Imported end to end, as --parsable2
 * and as -p with ElapsedRaw: the same six runs, and `check` accepts them. */
static void test_real_recorded(void)
{
    static const char *const files[] = {FIX "/real_plan_steps.txt", FIX "/real_plan_steps_p.txt"};
    for (size_t f = 0; f < 2; f++) {
        char *out = NULL;
        int rc = testutil_perfcast_run(&out, "import sacct %s --archive %s/a --campaign r%zu",
                                       files[f], tmp, f);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "imported 6 new runs of 6"));
        free(out);
        char path[1024];
        snprintf(path, sizeof path, "%s/a/r%zu/runs.csv", tmp, f);
        char *runs = testutil_read_file(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
        CU_ASSERT_PTR_NOT_NULL(strstr(runs, "cluster,np,time_s,nodes,code,rep,date,note\n"));
        CU_ASSERT_PTR_NOT_NULL(strstr(runs, "perfcast-dev,1,4,1,sleeper,1,2026-11-26,job 4.0\n"
                                            "perfcast-dev,1,4,1,sleeper,2,2026-11-26,job 4.1\n"
                                            "perfcast-dev,2,2,1,sleeper,1,2026-11-26,job 4.2\n"
                                            "perfcast-dev,2,3,1,sleeper,2,2026-11-26,job 4.3\n"));
        CU_ASSERT_PTR_NULL(strstr(runs, "job 4\n")); /* the allocation is not a run */
        CU_ASSERT_PTR_NULL(strstr(runs, "job 3.1")); /* FAILED */
        free(runs);
    }
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "check --archive %s/a", tmp), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "; 0 problems"));
    free(out);
}

/* A refused file writes nothing (1e308:00 used to crash after reading). */
static void test_refusal_writes_nothing(void)
{
    char path[1024], *out = NULL;
    const char *text = HEAD "1|a|COMPLETED|1e308:00|1|2|2024-03-01T10:00:00\n";
    write_input("inf.txt", text, strlen(text), path, sizeof path);
    int rc = testutil_perfcast_run(&out, "import sacct %s --archive %s/w --campaign w", path, tmp);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "inf.txt:2:16: Elapsed '1e308:00' is not"));
    free(out);
    snprintf(path, sizeof path, "%s/w/w", tmp);
    struct stat st;
    CU_ASSERT_NOT_EQUAL(stat(path, &st), 0);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"each COMPLETED srun step a run, repetitions numbered", test_each_step_a_run},
        {"states per step; jobs without steps", test_states_and_jobs_without_steps},
        {"Elapsed forms Slurm writes", test_elapsed_accepted},
        {"Elapsed refused at the wrong character", test_elapsed_refused},
        {"counts are decimal digits", test_counts_refused},
        {"Start validated, its day the date", test_start},
        {"hostile files refused, no crash", test_hostile_files},
        {"heterogeneous jobs left out with a note", test_heterogeneous},
        {"a line given again counts once; other values refused", test_repeated_lines},
        {"real recorded sacct output end to end", test_real_recorded},
        {"a refused file writes nothing", test_refusal_writes_nothing},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"import_sacct", tests}, {NULL, NULL}};
    if (setup() != 0)
        return 1;
    int status = testutil_run_suites(suites);
    teardown();
    return status;
}
