/*
 * test_import_safety.c — what `perfcast import` does to an archive when
 * things go wrong (issue 21): a refused import changes no byte of the
 * archive (every file and link listed with its checksum by sha256sum and
 * find, not by perfcast); symbolic links are never written through;
 * reserved campaign names are refused; rows are never added twice, not
 * even when one command names the same file twice or two imports run at
 * once; an import killed with SIGKILL at any moment leaves the old or the
 * new files, never a torn row; runs that differ in a second parameter get
 * default experiments of their own.
 */
#include "tests/testutil.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gen/base/csvread.h"

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

/* Every file and link under dir with its checksum (links by target), for
 * "nothing changed". Caller frees. */
static char *snapshot(const char *dir)
{
    char *out = NULL;
    testutil_run_commandf(&out,
                          "cd '%s' && find . -type f -print0 | LC_ALL=C sort -z | "
                          "xargs -0 -r sha256sum; find . -type l -printf '%%p -> %%l\\n' | "
                          "LC_ALL=C sort; find . -type d | LC_ALL=C sort",
                          dir);
    return out;
}

static void write_file(const char *path, const char *text)
{
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, text));
}

/* A fresh archive under tmp/NAME holding campaign base with two runs. */
static void make_archive(const char *name, char *arch, size_t len)
{
    snprintf(arch, len, "%s/%s", tmp, name);
    char src[1024], *out = NULL;
    snprintf(src, sizeof src, "%s/%s-seed.csv", tmp, name);
    write_file(src, "procs,runtime\n1,10\n2,5.2\n");
    int rc = testutil_perfcast_run(&out, "import csv %s --archive %s --campaign base "
                                         "--map procs=np,runtime=time_s --cluster c1",
                                   src, arch);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(out);
}

/* Run an import that must be refused (exit 1) and change nothing under
 * arch; said: text the refusal must contain. */
static void refused_unchanged(const char *arch, const char *said, const char *fmt, const char *a1,
                              const char *a2)
{
    char *before = snapshot(arch), *out = NULL;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, fmt, a1, a2);
    int rc = testutil_perfcast_run(&out, "%s", cmd);
    char *after = snapshot(arch);
    if (rc != 1 || !out || !strstr(out, said))
        fprintf(stderr, "\n%s: rc %d\n%s\n", cmd, rc, out ? out : "");
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, said));
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    CU_ASSERT_PTR_NOT_NULL_FATAL(after);
    if (strcmp(before, after) != 0)
        fprintf(stderr, "\nchanged by: %s\n--- before\n%s--- after\n%s", cmd, before, after);
    CU_ASSERT_STRING_EQUAL(before, after);
    free(before);
    free(after);
    free(out);
}

/* Rows of a runs.csv read by the CSV reader (-1 when it does not parse). */
static long count_rows(const char *path)
{
    csv_doc doc;
    diag_list d;
    diag_init(&d);
    long n = csv_read_file(path, path, &doc, &d) && d.count == 0 ? (long)doc.nrows - 1 : -1;
    if (n >= 0)
        csv_doc_free(&doc);
    diag_free(&d);
    return n;
}

/* ------------------------------------------------------------------ */

/* Cells that the archive reader refuses are refused before anything is
 * written: a date that is not one, a new cluster in clusters.csv with them. */
static void test_validated_before_written(void)
{
    char arch[600], src[1024];
    make_archive("v", arch, sizeof arch);
    snprintf(src, sizeof src, "%s/v-bad-date.csv", tmp);
    write_file(src, "procs,runtime,when\n4,3.1,2024-13-45\n");
    refused_unchanged(arch, "(in the file as this import would write it; nothing imported)",
                      "import csv %s --archive %s --campaign base --cluster newcluster "
                      "--map procs=np,runtime=time_s,when=date",
                      src, arch);
    /* A new campaign is not created either. */
    refused_unchanged(arch, "nothing imported",
                      "import csv %s --archive %s --campaign fresh --cluster newcluster "
                      "--map procs=np,runtime=time_s,when=date",
                      src, arch);
    struct stat st;
    char fresh[1024];
    snprintf(fresh, sizeof fresh, "%s/fresh", arch);
    CU_ASSERT_NOT_EQUAL(stat(fresh, &st), 0);
}

/* --map onto a column with rules of its own (rep, engine, nodes) and a
 * value that breaks them: refused at the cell, nothing written. */
static void test_mapped_columns_checked(void)
{
    char arch[600], src[1024];
    make_archive("m", arch, sizeof arch);
    snprintf(src, sizeof src, "%s/m.csv", tmp);
    write_file(src, "procs,runtime,x\n4,3.1,abc\n");
    static const char *const targets[] = {"rep", "engine", "nodes", "date"};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        char fmt[512];
        snprintf(fmt, sizeof fmt, "import csv %%s --archive %%s --campaign base --cluster c9 "
                                  "--map procs=np,runtime=time_s,x=%s", targets[i]);
        refused_unchanged(arch, "runs.csv:4:", fmt, src, arch);
    }
}

/* A file cut inside its last number (no line end) is refused at its end;
 * --allow-truncated takes it as it is. */
static void test_truncated_refused(void)
{
    char arch[600], src[1024], *out = NULL;
    make_archive("t", arch, sizeof arch);
    snprintf(src, sizeof src, "%s/t.csv", tmp);
    write_file(src, "procs,runtime\n4,3.1\n8,1.94292e+0");
    refused_unchanged(arch, "t.csv:3:13: the file ends inside its last line",
                      "import csv %s --archive %s --campaign base --cluster c1 "
                      "--map procs=np,runtime=time_s",
                      src, arch);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "import csv %s --archive %s --campaign base "
                                                "--cluster c1 --map procs=np,runtime=time_s "
                                                "--allow-truncated",
                                          src, arch), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "imported 2 new runs"));
    free(out);
}

/* A 100 KB region name: the default experiment names it whole (it was cut
 * at 255 bytes, and the campaign did not load), and check accepts it. */
static void test_long_names_whole(void)
{
    char arch[600], src[1024], *out = NULL;
    snprintf(arch, sizeof arch, "%s/long", tmp);
    snprintf(src, sizeof src, "%s/long.txt", tmp);
    size_t n = 100000;
    char *text = malloc(n + 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    int head = snprintf(text, 200, "PARAMETER p\nPOINTS 2 4 8\nREGION ");
    memset(text + head, 'r', n);
    /* Two regions, so each time is time_<region>_s. */
    snprintf(text + head + n, 200, "\nMETRIC time\nDATA 4\nDATA 2\nDATA 1\n"
                                   "REGION short\nMETRIC time\nDATA 8\nDATA 4\nDATA 2\n");
    write_file(src, text);
    free(text);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "import extrap %s --archive %s --campaign c",
                                          src, arch), 0);
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "check --archive %s", arch), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "; 0 problems"));
    free(out);
    char path[1200];
    snprintf(path, sizeof path, "%s/c/experiments.csv", arch);
    char *exps = testutil_read_file(path);
    size_t run = 0, longest = 0;
    for (const char *p = exps; p && *p; p++) {
        run = *p == 'r' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    CU_ASSERT_EQUAL(longest, n);
    free(exps);
}

/* Names that would leave the archive or write into its .git. */
static void test_reserved_names(void)
{
    char arch[600], src[1024];
    make_archive("n", arch, sizeof arch);
    snprintf(src, sizeof src, "%s/n.csv", tmp);
    write_file(src, "procs,runtime\n4,3.1\n");
    static const char *const names[] = {".git", "..", ".", "a/b", ".perfcast-import-x"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char fmt[512];
        snprintf(fmt, sizeof fmt, "import csv %%s --archive %%s --campaign '%s' "
                                  "--map procs=np,runtime=time_s", names[i]);
        refused_unchanged(arch, "not a usable campaign name", fmt, src, arch);
    }
}

/* A link in place of a file the import would replace: refused, the file it
 * points to (outside the archive) unchanged. */
static void test_links_refused(void)
{
    static const char *const targets[] = {"base/runs.csv", "base/README.md",
                                           "base/experiments.csv", "clusters.csv"};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        char name[32], arch[600], src[1024], outside[1024], link[1200];
        snprintf(name, sizeof name, "l%zu", i);
        make_archive(name, arch, sizeof arch);
        snprintf(outside, sizeof outside, "%s/outside-%zu.txt", tmp, i);
        snprintf(link, sizeof link, "%s/%s", arch, targets[i]);
        /* The link leads to a copy of the real file, so only the link is wrong. */
        char *text = testutil_read_file(link);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        write_file(outside, text);
        free(text);
        CU_ASSERT_EQUAL_FATAL(unlink(link), 0);
        CU_ASSERT_EQUAL_FATAL(symlink(outside, link), 0);
        char *before = testutil_read_file(outside);
        snprintf(src, sizeof src, "%s/%s.csv", tmp, name);
        write_file(src, "procs,runtime\n4,3.1\n");
        refused_unchanged(arch, "is a symbolic link",
                          "import csv %s --archive %s --campaign base --cluster c2 "
                          "--map procs=np,runtime=time_s",
                          src, arch);
        char *after = testutil_read_file(outside);
        CU_ASSERT_STRING_EQUAL(before, after);
        free(before);
        free(after);
    }
    /* The campaign folder itself a link out of the archive. */
    char arch[600], src[1024], elsewhere[1024], link[1200];
    make_archive("ld", arch, sizeof arch);
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", tmp);
    CU_ASSERT_EQUAL_FATAL(mkdir(elsewhere, 0777), 0);
    snprintf(link, sizeof link, "%s/linked", arch);
    CU_ASSERT_EQUAL_FATAL(symlink(elsewhere, link), 0);
    snprintf(src, sizeof src, "%s/ld.csv", tmp);
    write_file(src, "procs,runtime\n4,3.1\n");
    refused_unchanged(arch, "is a symbolic link",
                      "import csv %s --archive %s --campaign linked --map procs=np,runtime=time_s",
                      src, arch);
    char *inside = snapshot(elsewhere);
    CU_ASSERT_PTR_NOT_NULL(inside && strcmp(inside, ".\n") == 0);
    free(inside);
}

/* The temporary name the old writer used, planted as a link: never
 * followed (the writer stages in a folder of its own, O_EXCL|O_NOFOLLOW). */
static void test_planted_temp_link(void)
{
    char arch[600], src[1024], victim[1024], planted[1200];
    make_archive("p", arch, sizeof arch);
    snprintf(victim, sizeof victim, "%s/victim.txt", tmp);
    write_file(victim, "precious\n");
    snprintf(planted, sizeof planted, "%s/base/runs.csv.import-tmp", arch);
    CU_ASSERT_EQUAL_FATAL(symlink(victim, planted), 0);
    snprintf(src, sizeof src, "%s/p.csv", tmp);
    write_file(src, "procs,runtime,size\n4,3.1,8\n");
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "import csv %s --archive %s --campaign base "
                                         "--map procs=np,runtime=time_s --cluster c1",
                                   src, arch);
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    char *text = testutil_read_file(victim);
    CU_ASSERT_STRING_EQUAL(text, "precious\n");
    free(text);
    struct stat st;
    char runs[1200];
    snprintf(runs, sizeof runs, "%s/base/runs.csv", arch);
    CU_ASSERT_TRUE(lstat(runs, &st) == 0 && S_ISREG(st.st_mode));
}

/* One command naming a file twice, and a file with a row twice: each row once. */
static void test_no_duplicates(void)
{
    char arch[600], src[1024], runs[1200];
    make_archive("d", arch, sizeof arch);
    snprintf(src, sizeof src, "%s/d.csv", tmp);
    write_file(src, "procs,runtime\n4,3.1\n8,1.7\n8,1.7\n");
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "import csv %s %s --archive %s --campaign base "
                                         "--map procs=np,runtime=time_s --cluster c1",
                                   src, src, arch);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "imported 2 new runs"));
    free(out);
    snprintf(runs, sizeof runs, "%s/base/runs.csv", arch);
    CU_ASSERT_EQUAL(count_rows(runs), 4);
}

/* A CSV of n rows (np 1..n, times 1000/np), its name in path. */
static void write_big(const char *path, long n, double offset)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("procs,runtime\n", f);
    for (long i = 1; i <= n; i++)
        fprintf(f, "%ld,%.6f\n", i, 1000.0 / (double)i + offset);
    fclose(f);
}

/* Start perfcast with args in the background; its pid. */
static pid_t spawn_import(const char *src, const char *arch, const char *campaign)
{
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execl(testutil_perfcast(), "perfcast", "import", "csv", src, "--archive", arch,
              "--campaign", campaign, "--cluster", "c1", "--map", "procs=np,runtime=time_s",
              (char *)NULL);
        _exit(127);
    }
    return pid;
}

static int wait_status(pid_t pid)
{
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Two imports at once: the same file gives its rows once, two files give
 * both; the campaign checks clean every time. */
static void test_concurrent_imports(void)
{
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/c-a.csv", tmp);
    snprintf(b, sizeof b, "%s/c-b.csv", tmp);
    write_big(a, 3000, 0);
    write_big(b, 3000, 0.5);
    for (int round = 0; round < 4; round++) {
        char arch[600], runs[1200], *out = NULL;
        snprintf(arch, sizeof arch, "%s/conc%d", tmp, round);
        const char *second = round % 2 ? b : a;
        pid_t p1 = spawn_import(a, arch, "c"), p2 = spawn_import(second, arch, "c");
        CU_ASSERT_EQUAL(wait_status(p1), 0);
        CU_ASSERT_EQUAL(wait_status(p2), 0);
        snprintf(runs, sizeof runs, "%s/c/runs.csv", arch);
        CU_ASSERT_EQUAL(count_rows(runs), round % 2 ? 6000 : 3000);
        CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "check --archive %s", arch), 0);
        free(out);
    }
}

/* SIGKILL at moments spread over an import that adds 200,000 rows to a
 * campaign of 2: afterwards runs.csv holds 2 or 200,002 rows, parses, and
 * the archive checks clean; no staging folder is left to a later import. */
static void test_killed_imports(void)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/k.csv", tmp);
    write_big(src, 200000, 0.25);
    static const long delays_us[] = {0,      5000,   30000,  100000, 200000,  300000,
                                     400000, 500000, 600000, 800000, 1200000, 2000000};
    size_t old = 0, new = 0;
    for (size_t i = 0; i < sizeof delays_us / sizeof delays_us[0]; i++) {
        char name[32], arch[600], runs[1200], *out = NULL;
        snprintf(name, sizeof name, "kill%zu", i);
        make_archive(name, arch, sizeof arch);
        pid_t pid = spawn_import(src, arch, "base");
        usleep((useconds_t)delays_us[i]);
        kill(pid, SIGKILL);
        wait_status(pid);
        snprintf(runs, sizeof runs, "%s/base/runs.csv", arch);
        long n = count_rows(runs);
        CU_ASSERT(n == 2 || n == 200002);
        old += n == 2, new += n == 200002;
        int rc = testutil_perfcast_run(&out, "check --archive %s", arch);
        if (rc != 0)
            fprintf(stderr, "\nafter kill %zu: %s\n", i, out ? out : "");
        CU_ASSERT_EQUAL(rc, 0);
        free(out);
        /* The next import cleans up what the killed one staged. */
        char again[1024];
        snprintf(again, sizeof again, "%s/k2.csv", tmp);
        write_file(again, "procs,runtime\n3,3.3\n");
        rc = testutil_perfcast_run(&out, "import csv %s --archive %s --campaign base "
                                         "--map procs=np,runtime=time_s --cluster c1",
                                   again, arch);
        CU_ASSERT_EQUAL(rc, 0);
        free(out);
        testutil_run_commandf(&out, "ls -a '%s' | grep -c perfcast-import || true", arch);
        CU_ASSERT_PTR_NOT_NULL(out && strncmp(out, "0", 1) == 0);
        free(out);
    }
    printf("\n  killed imports: %zu left the old runs, %zu the new\n", old, new);
}

/* Two sizes are two configurations: each gets its own default experiment,
 * and its prediction at the largest np comes from its own runs only (the
 * sizes follow different laws: 100/np and 200/np + 1). */
static void test_sizes_kept_apart(void)
{
    char arch[600], src[1024], *out = NULL;
    snprintf(arch, sizeof arch, "%s/sizes", tmp);
    snprintf(src, sizeof src, "%s/sizes.csv", tmp);
    write_file(src, "procs,size,runtime\n1,100,100\n2,100,50\n4,100,25\n8,100,12.5\n"
                    "1,200,201\n2,200,101\n4,200,51\n8,200,26\n");
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "import csv %s --archive %s --campaign s "
                                                      "--map procs=np,runtime=time_s --cluster c1",
                                                src, arch), 0);
    free(out);
    static const struct {
        const char *experiment;
        double want;
    } cases[] = {{"scaling-1", 12.5}, {"scaling-2", 26}};
    for (size_t i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "predict --archive %s --format json s %s",
                                              arch, cases[i].experiment), 0);
        double est = out ? testutil_json_number(out, "estimate") : 0;
        /* a + b/np through three exact points: the fourth exactly. */
        CU_ASSERT_DOUBLE_EQUAL(est, cases[i].want, 1e-6 * cases[i].want);
        free(out);
    }
}

int main(void)
{
    static const testutil_test tests[] = {
        {"refused before anything is written", test_validated_before_written},
        {"reserved campaign names", test_reserved_names},
        {"mapped columns checked before writing", test_mapped_columns_checked},
        {"a file cut in its last line", test_truncated_refused},
        {"long names written whole", test_long_names_whole},
        {"links in place of archive files", test_links_refused},
        {"a planted temporary link is not followed", test_planted_temp_link},
        {"no row twice in one command", test_no_duplicates},
        {"concurrent imports", test_concurrent_imports},
        {"killed imports leave old or new", test_killed_imports},
        {"sizes kept apart in default experiments", test_sizes_kept_apart},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"import safety", tests}, {NULL, NULL}};
    if (setup() != 0)
        return 1;
    int status = testutil_run_suites(suites);
    teardown();
    return status;
}
