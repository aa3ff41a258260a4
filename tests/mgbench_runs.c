/*
 * mgbench_runs.c — appending runs to runs.csv: the row format, the header
 * check, and many writers at once (forked processes, and mgbench runs)
 * without torn or lost rows.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mgbench/runs_csv.h"
#include "tests/mgbench_testlib.h"

static mgb_run_row sample_row(void)
{
    mgb_run_row r = {.cluster = "ci-2core", .np = 4, .npa = 2, .npb = 2, .na = 1024, .nb = 512,
                     .nodes = 1, .ppn = 4, .work_mb = 12.5, .time_s = 0.25, .time_comm_s = 0.01,
                     .time_setup_s = 0.002, .cycles = 7, .rel_residual = 4.1e-9, .seq_of_np = -1,
                     .rep = 2, .date = "2024-05-01", .note = NULL};
    return r;
}

/* Number of CSV fields of one line (quotes respected). */
static int count_fields(const char *line, size_t len)
{
    int fields = 1, quoted = 0;
    for (size_t k = 0; k < len; k++) {
        if (line[k] == '"')
            quoted = !quoted;
        else if (line[k] == ',' && !quoted)
            fields++;
    }
    return fields;
}

static void test_format(void)
{
    char buf[1024];
    mgb_run_row r = sample_row();
    int n = mgb_runs_format(&r, MGB_COLUMNS_ENGINE, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "ci-2core,mgbench,4,2,2,1024,512,1,4,12.5,0.25,0.01,0.002,7,"
                                "4.100e-09,,2,2024-05-01,,openmpi\n");
    CU_ASSERT_EQUAL(n, (int)strlen(buf));
    CU_ASSERT(mgb_runs_format(&r, MGB_COLUMNS_LEGACY, buf, sizeof buf) > 0); /* the pre-engine layout */
    CU_ASSERT_STRING_EQUAL(buf, "ci-2core,mgbench,4,2,2,1024,512,1,4,12.5,0.25,0.01,0.002,7,"
                                "4.100e-09,,2,2024-05-01,\n");
    r.engine = "smpi";
    mgb_runs_format(&r, MGB_COLUMNS_ENGINE, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, ",2024-05-01,,smpi\n"));
    r.engine = NULL;
    r.seq_of_np = 16;
    r.note = "sequential per-process mesh of 16x1 (1024x512), \"quoted\"";
    mgb_runs_format(&r, MGB_COLUMNS_ENGINE, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, ",16,2,2024-05-01,\"sequential per-process mesh of 16x1 "
                                       "(1024x512), \"\"quoted\"\"\",openmpi\n"));
    CU_ASSERT_EQUAL(count_fields(buf, strlen(buf) - 1), count_fields(mgb_runs_header(),
                                                                     strlen(mgb_runs_header())));
    CU_ASSERT_EQUAL(mgb_runs_format(&r, MGB_COLUMNS_ENGINE, buf, 40), -1); /* does not fit */
}

static void test_create_and_append(void)
{
    char dir[256], path[512], err[512];
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/campaign/runs.csv", dir); /* folder made on demand */
    mgb_run_row r = sample_row();
    CU_ASSERT(mgb_runs_append(path, &r, err, sizeof err) == 0);
    r.rep = 3;
    CU_ASSERT(mgb_runs_append(path, &r, err, sizeof err) == 0);
    char *text = mgbt_read_file(path, NULL);
    CU_ASSERT_FATAL(text != NULL);
    char want[2048], row2[512], row3[512];
    r.rep = 2;
    mgb_runs_format(&r, MGB_COLUMNS_ENGINE, row2, sizeof row2);
    r.rep = 3;
    mgb_runs_format(&r, MGB_COLUMNS_ENGINE, row3, sizeof row3);
    snprintf(want, sizeof want, "%s\n%s%s", mgb_runs_header(), row2, row3);
    CU_ASSERT_STRING_EQUAL(text, want);
    free(text);
    mgbt_remove_dir(dir);
}

/* runs.csv as a link (to a file outside the campaign): never appended through. */
static void test_refuses_link(void)
{
    char dir[256], path[512], target[512], err[512];
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(target, sizeof target, "%s/outside.csv", dir);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    FILE *f = fopen(target, "w");
    CU_ASSERT_FATAL(f != NULL);
    fputs(mgb_runs_header(), f);
    fputc('\n', f);
    fclose(f);
    CU_ASSERT_FATAL(symlink(target, path) == 0);
    mgb_run_row r = sample_row();
    CU_ASSERT(mgb_runs_append(path, &r, err, sizeof err) == -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "symbolic link"));
    char *text = mgbt_read_file(target, NULL);
    CU_ASSERT(text && strchr(text, '\n') == text + strlen(text) - 1); /* the header only */
    free(text);
    mgbt_remove_dir(dir);
}

/* An import replaces runs.csv (rename) while mgbench waits for the lock on
 * the old file: the row must land in the new file, not in the replaced one. */
static void test_follows_replaced_file(void)
{
    char dir[256], path[512], fresh[512], err[512];
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    snprintf(fresh, sizeof fresh, "%s/fresh.csv", dir);
    mgb_run_row r = sample_row();
    CU_ASSERT_FATAL(mgb_runs_append(path, &r, err, sizeof err) == 0);
    /* Read before locking: closing any descriptor of a file drops this
     * process's record locks on it (POSIX), so no read may follow. */
    char *old = mgbt_read_file(path, NULL);
    int fd = open(path, O_RDWR);
    struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    CU_ASSERT_FATAL(fd >= 0 && fcntl(fd, F_SETLKW, &lk) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        mgb_run_row child = sample_row();
        child.rep = 9;
        _exit(mgb_runs_append(path, &child, err, sizeof err) == 0 ? 0 : 1);
    }
    usleep(200000); /* the child now waits for the lock on the old file */
    FILE *f = fopen(fresh, "w");
    CU_ASSERT_FATAL(old && f);
    fputs(old, f);
    fclose(f);
    CU_ASSERT_FATAL(rename(fresh, path) == 0);
    close(fd); /* releases the lock on the old, replaced file */
    int st = 0;
    waitpid(pid, &st, 0);
    CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char *now = mgbt_read_file(path, NULL);
    CU_ASSERT(now && old && strlen(now) > strlen(old)); /* the child's row is in the new file */
    free(old);
    free(now);
    mgbt_remove_dir(dir);
}

static void test_refuses_foreign_header(void)
{
    char dir[256], path[512], err[512] = "";
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    const char *foreign = "cluster,code,np,time_s\nci-2core,x,1,2.0\n";
    CU_ASSERT_FATAL(mgbt_write_file(path, foreign) == 0);
    mgb_run_row r = sample_row();
    CU_ASSERT(mgb_runs_append(path, &r, err, sizeof err) == -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "header is not mgbench's"));
    char *text = mgbt_read_file(path, NULL);
    CU_ASSERT(text && strcmp(text, foreign) == 0); /* untouched */
    free(text);
    r.cluster = NULL;
    CU_ASSERT(mgb_runs_append(path, &r, err, sizeof err) == -1);
    mgbt_remove_dir(dir);
}

static void test_repairs_missing_newline(void)
{
    char dir[256], path[512], err[512];
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    /* an edited file without its final newline */
    CU_ASSERT_FATAL(mgbt_write_file(path, mgb_runs_header()) == 0);
    mgb_run_row r = sample_row();
    CU_ASSERT(mgb_runs_append(path, &r, err, sizeof err) == 0);
    char *text = mgbt_read_file(path, NULL), row[512];
    mgb_runs_format(&r, MGB_COLUMNS_ENGINE, row, sizeof row);
    CU_ASSERT(text && strncmp(text + strlen(mgb_runs_header()), "\n", 1) == 0);
    CU_ASSERT(text && strcmp(text + strlen(mgb_runs_header()) + 1, row) == 0);
    free(text);
    mgbt_remove_dir(dir);
}

/* A runs.csv from before the engine column: real rows are appended in its
 * layout (no engine cell, read as openmpi); a simulated row is refused. */
static void test_legacy_header(void)
{
    static const char legacy[] =
        "cluster,code,np,npa,npb,na,nb,nodes,ppn,work_mb,time_s,time_comm_s,time_setup_s,"
        "cycles,rel_residual,seq_of_np,rep,date,note\n";
    char dir[256], path[512], err[512] = "";
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    CU_ASSERT_FATAL(mgbt_write_file(path, legacy) == 0);
    mgb_run_row r = sample_row();
    CU_ASSERT(mgb_runs_append(path, &r, err, sizeof err) == 0);
    r.engine = "smpi";
    CU_ASSERT(mgb_runs_append(path, &r, err, sizeof err) == -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "no engine column"));
    char *text = mgbt_read_file(path, NULL);
    char want[1024];
    snprintf(want, sizeof want, "%sci-2core,mgbench,4,2,2,1024,512,1,4,12.5,0.25,0.01,0.002,7,"
                                "4.100e-09,,2,2024-05-01,\n", legacy);
    CU_ASSERT(text && strcmp(text, want) == 0);
    free(text);
    mgbt_remove_dir(dir);
}

/* A split run (mgbench --split) creates a file with the columns np_a,
 * np_b, rows_a, rows_b after engine (the layout of the multi-cluster
 * campaign archive/smpi-multi, whose header is copied here); ordinary rows
 * appended there leave them empty; a split row is refused in a file
 * without them. */
static void test_split_columns(void)
{
    static const char multi_header[] =
        "cluster,code,np,npa,npb,na,nb,nodes,ppn,work_mb,time_s,time_comm_s,time_setup_s,"
        "cycles,rel_residual,seq_of_np,rep,date,note,engine,np_a,np_b,rows_a,rows_b";
    char dir[256], path[512], plain[512], err[512] = "";
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/split/runs.csv", dir);
    snprintf(plain, sizeof plain, "%s/plain/runs.csv", dir);
    CU_ASSERT_STRING_EQUAL(mgb_runs_split_header(), multi_header);
    mgb_run_row r = sample_row();
    r.npa = 4;
    r.npb = 1;
    r.np_a = 1;
    r.np_b = 3;
    r.rows_a = 256;
    r.rows_b = 768;
    CU_ASSERT(mgb_runs_append(path, &r, err, sizeof err) == 0);
    mgb_run_row ordinary = sample_row();
    CU_ASSERT(mgb_runs_append(path, &ordinary, err, sizeof err) == 0);
    char *text = mgbt_read_file(path, NULL), want[2048];
    snprintf(want, sizeof want, "%s\n"
             "ci-2core,mgbench,4,4,1,1024,512,1,4,12.5,0.25,0.01,0.002,7,4.100e-09,,2,"
             "2024-05-01,,openmpi,1,3,256,768\n"
             "ci-2core,mgbench,4,2,2,1024,512,1,4,12.5,0.25,0.01,0.002,7,4.100e-09,,2,"
             "2024-05-01,,openmpi,,,,\n", multi_header);
    CU_ASSERT(text && strcmp(text, want) == 0);
    free(text);
    CU_ASSERT(mgb_runs_append(plain, &ordinary, err, sizeof err) == 0);
    CU_ASSERT(mgb_runs_append(plain, &r, err, sizeof err) == -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "has no np_a,np_b,rows_a,rows_b columns"));
    char row[512];
    mgb_runs_format(&ordinary, MGB_COLUMNS_ENGINE, row, sizeof row);
    snprintf(want, sizeof want, "%s\n%s", mgb_runs_header(), row); /* the split row is not there */
    text = mgbt_read_file(plain, NULL);
    CU_ASSERT(text && strcmp(text, want) == 0);
    free(text);
    mgbt_remove_dir(dir);
}

enum { WRITERS = 8, ROWS_EACH = 150 };

/* WRITERS processes append ROWS_EACH rows each at the same time; every row
 * must arrive once, whole. Row (w, k) is np = w + 1, rep = k + 1, and a
 * long note makes each write large. */
static void test_concurrent_writers(void)
{
    char dir[256], path[512];
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    char note[1500];
    memset(note, 'n', sizeof note - 1);
    note[sizeof note - 1] = '\0';
    pid_t pids[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
        pids[w] = fork();
        CU_ASSERT_FATAL(pids[w] >= 0);
        if (pids[w] == 0) {
            char err[512];
            mgb_run_row r = sample_row();
            r.np = w + 1;
            r.note = note;
            for (int k = 0; k < ROWS_EACH; k++) {
                r.rep = k + 1;
                if (mgb_runs_append(path, &r, err, sizeof err) != 0)
                    _exit(1);
            }
            _exit(0);
        }
    }
    int all_ok = 1;
    for (int w = 0; w < WRITERS; w++) {
        int status;
        waitpid(pids[w], &status, 0);
        all_ok &= WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    CU_ASSERT(all_ok);
    size_t len;
    char *text = mgbt_read_file(path, &len);
    CU_ASSERT_FATAL(text != NULL);
    static int seen[WRITERS][ROWS_EACH];
    memset(seen, 0, sizeof seen);
    int lines = 0, bad = 0, header_lines = 0;
    int want_fields = count_fields(mgb_runs_header(), strlen(mgb_runs_header()));
    for (char *line = text; *line;) {
        char *end = strchr(line, '\n');
        if (!end) {
            bad++; /* a torn last row */
            break;
        }
        size_t ll = (size_t)(end - line);
        lines++;
        if (strncmp(line, mgb_runs_header(), ll) == 0) {
            header_lines++;
        } else {
            long np, rep;
            if (count_fields(line, ll) != want_fields ||
                sscanf(line, "ci-2core,mgbench,%ld,", &np) != 1 || np < 1 || np > WRITERS) {
                bad++;
            } else {
                /* rep is the 17th field */
                const char *p = line;
                for (int f = 0; f < 16; f++)
                    p = strchr(p, ',') + 1;
                rep = strtol(p, NULL, 10);
                if (rep < 1 || rep > ROWS_EACH || !strstr(line, note))
                    bad++;
                else
                    seen[np - 1][rep - 1]++;
            }
        }
        line = end + 1;
    }
    CU_ASSERT_EQUAL(header_lines, 1);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(lines, 1 + WRITERS * ROWS_EACH);
    int missing = 0;
    for (int w = 0; w < WRITERS; w++)
        for (int k = 0; k < ROWS_EACH; k++)
            missing += seen[w][k] != 1;
    CU_ASSERT_EQUAL(missing, 0);
    free(text);
    mgbt_remove_dir(dir);
}

/* Three mgbench jobs append to one campaign at once. Each launcher gets
 * a temporary folder of its own: mpiruns started together share Open MPI's
 * session folder under TMPDIR, and one can fail to set it up and never
 * start mgbench ("orte_session_dir failed", seen about once in 40 tries on
 * a loaded 2-core machine; 0 in 80 with separate folders): Open MPI's, not the
 * writers'. Every job must succeed (a bare `wait` hid a job that never
 * ran). */
static void test_concurrent_mgbench_runs(void)
{
    char dir[256], cmd[4096];
    CU_ASSERT_FATAL(mgbt_temp_dir(dir, sizeof dir) == 0);
    const char *common = "--na 64 --nb 64 --cycles 3 --reps 4 --cluster ci-2core --campaign c";
    snprintf(cmd, sizeof cmd,
             "pids=; for k in 1 2 3; do mkdir -p %s/tmp$k && "
             "{ TMPDIR=%s/tmp$k %s -n 1 %s %s --archive %s --note job$k & pids=\"$pids $!\"; }; "
             "done; rc=0; for p in $pids; do wait $p || rc=1; done; exit $rc",
             dir, dir, mgbt_mpirun(), mgbt_mgbench(), common, dir);
    char *out = NULL;
    int rc = mgbt_run(cmd, &out);
    CU_ASSERT(rc == 0);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    char path[512];
    snprintf(path, sizeof path, "%s/c/runs.csv", dir);
    char *text = mgbt_read_file(path, NULL);
    CU_ASSERT_FATAL(text != NULL);
    int lines = 0, per_job[3] = {0, 0, 0};
    for (char *p = text; (p = strchr(p, '\n')); p++)
        lines++;
    for (int k = 0; k < 3; k++) {
        char tag[32];
        snprintf(tag, sizeof tag, ",job%d,openmpi\n", k + 1);
        for (char *p = text; (p = strstr(p, tag)); p++)
            per_job[k]++;
    }
    CU_ASSERT_EQUAL(lines, 1 + 12);
    CU_ASSERT(per_job[0] == 4 && per_job[1] == 4 && per_job[2] == 4);
    free(text);
    free(out);
    mgbt_remove_dir(dir);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const mgbt_test rows[] = {
        {"format", test_format},
        {"create_and_append", test_create_and_append},
        {"refuses_foreign_header", test_refuses_foreign_header},
        {"refuses_link", test_refuses_link},
        {"follows_replaced_file", test_follows_replaced_file},
        {"repairs_missing_newline", test_repairs_missing_newline},
        {"legacy_header", test_legacy_header},
        {"split_columns", test_split_columns},
        {"concurrent_writers", test_concurrent_writers},
        {"concurrent_mgbench_runs", test_concurrent_mgbench_runs},
        {NULL, NULL}};
    static const mgbt_suite suites[] = {{"mgbench runs.csv", rows}, {NULL, NULL}};
    return mgbt_main(argv[0], suites);
}
