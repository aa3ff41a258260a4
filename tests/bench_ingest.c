/*
 * bench_ingest.c — `make bench`: archive ingest at centre scale (issue 14
 * item 3, issue 10 item 5).
 *
 *   - `perfcast check` of a generated 1,000,000-row runs.csv (about 48 MB,
 *     never committed): wall time, MB/s and peak memory, beside Python's
 *     csv module reading the same file (when python3 is installed) and the
 *     floor `wc -l`, alternating, median of 3. Targets: at least Python's
 *     speed; peak memory under 150 MiB and under 3x the file size.
 *   - `perfcast check` of a runs.csv whose header has 40,000 columns
 *     (quadratic before the hashed column lookup: 7 s).
 *
 * Prints the numbers and whether each target is met; exits non-zero only
 * when a check fails to run or the memory target is missed (speed on a
 * shared machine is noisy: it is reported, not enforced).
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { ROWS = 1000000, WIDE = 40000, REPEATS = 3 };

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* An archive in dir with one campaign c whose runs.csv has ROWS rows;
 * returns the size of runs.csv in bytes, or 0 on failure. */
static long make_archive(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/clusters.csv", dir);
    if (!testutil_write_file(path, "cluster,nodes,cores_per_node\nant,4,8\nbee,16,32\n"))
        return 0;
    snprintf(path, sizeof path, "%s/c/README.md", dir);
    if (!testutil_write_file(path, "# c\n"))
        return 0;
    snprintf(path, sizeof path, "%s/c/experiments.csv", dir);
    if (!testutil_write_file(path, "name,model,response,formula,train,target,title,options\n"))
        return 0;
    snprintf(path, sizeof path, "%s/c/runs.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fputs("cluster,code,np,N,time_s,rep,date,note\n", f);
    unsigned long x = 12345;
    for (long i = 0; i < ROWS; i++) {
        x = x * 6364136223846793005ul + 1442695040888963407ul;
        int np = 1 << (int)((x >> 33) % 7);
        double t = (double)((x >> 20) % 1000000) / 1000.0 / np + 0.001;
        fprintf(f, "%s,toy,%d,%ld,%.6g,%ld,2024-03-%02ld,run %ld\n", i % 2 ? "bee" : "ant", np,
                1000 * (1 + i % 50), t, i % 3 + 1, 1 + i % 28, i);
    }
    long size = ftell(f);
    return fclose(f) == 0 ? size : 0;
}

static double cpu_s(const struct rusage *ru)
{
    return (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) +
           (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e6;
}

/* CPU time (user + system) of command, which is steadier than wall time
 * on a shared machine (negative when it fails); its wall time in *wall
 * and the peak memory of the largest child so far in *peak_kb. */
static double timed(const char *command, double *wall, long *peak_kb)
{
    struct rusage before, after;
    getrusage(RUSAGE_CHILDREN, &before);
    double t0 = now_s();
    int rc = testutil_run_command(command, NULL);
    if (wall)
        *wall = now_s() - t0;
    getrusage(RUSAGE_CHILDREN, &after);
    if (peak_kb)
        *peak_kb = after.ru_maxrss;
    if (rc != 0) {
        fprintf(stderr, "failed (%d): %s\n", rc, command);
        return -1;
    }
    return cpu_s(&after) - cpu_s(&before);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return v[n / 2];
}

static bool bench_rows(const char *dir)
{
    long bytes = make_archive(dir);
    if (bytes <= 0)
        return false;
    double mb = (double)bytes / 1e6;
    char check[1024], python[1024], wc[1024];
    snprintf(check, sizeof check, "%s check --archive '%s' >/dev/null", testutil_perfcast(), dir);
    snprintf(python, sizeof python,
             "python3 -c 'import csv,sys\nfor r in csv.reader(open(sys.argv[1], newline=\"\")): pass' "
             "'%s/c/runs.csv'", dir);
    snprintf(wc, sizeof wc, "wc -l '%s/c/runs.csv' >/dev/null", dir);
    bool have_python = testutil_run_command("python3 -c 'import csv'", NULL) == 0;
    double t_check[REPEATS], t_python[REPEATS], t_wc[REPEATS], wall[REPEATS];
    long peak_kb = 0;
    for (int i = 0; i < REPEATS; i++) {
        /* perfcast first: the peak of the children so far is then its own. */
        if ((t_check[i] = timed(check, &wall[i], i == 0 ? &peak_kb : NULL)) < 0)
            return false;
        t_python[i] = have_python ? timed(python, NULL, NULL) : -1;
        t_wc[i] = timed(wc, NULL, NULL);
    }
    double c = median(t_check, REPEATS), p = median(t_python, REPEATS), w = median(t_wc, REPEATS);
    double peak_mib = (double)peak_kb / 1024, file_mib = (double)bytes / 1048576;
    printf("check of a %d-row runs.csv (%.1f MB), CPU seconds, median of %d:\n", ROWS, mb,
           REPEATS);
    printf("  perfcast check   %6.2f s  %6.1f MB/s   (wall %.2f s)\n", c, mb / c,
           median(wall, REPEATS));
    if (have_python)
        printf("  python3 csv      %6.2f s  %6.1f MB/s   perfcast/python speed %.2f  %s\n", p,
               mb / p, p / c, c <= p ? "(target met)" : "(target: >= 1, missed)");
    else
        printf("  python3 csv      not installed\n");
    printf("  wc -l (floor)    %6.2f s  %6.1f MB/s   perfcast/floor time %.1fx\n", w, mb / w, c / w);
    bool memory_ok = peak_mib < 150 && peak_mib < 3 * file_mib;
    printf("  peak memory      %6.1f MiB = %.2fx the file  %s\n", peak_mib, peak_mib / file_mib,
           memory_ok ? "(target < 150 MiB and < 3x: met)" : "(target < 150 MiB and < 3x: MISSED)");
    return memory_ok;
}

static bool bench_wide_header(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/c/runs.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs("cluster,np,time_s", f);
    for (int i = 0; i < WIDE; i++)
        fprintf(f, ",x%d", i);
    fputs("\nant,1,2", f);
    for (int i = 0; i < WIDE; i++)
        fputs(",1", f);
    fputs("\n", f);
    if (fclose(f) != 0)
        return false;
    char check[1024];
    snprintf(check, sizeof check, "%s check --archive '%s' >/dev/null", testutil_perfcast(), dir);
    double t = timed(check, NULL, NULL);
    if (t < 0)
        return false;
    printf("check of a %d-column header: %.3f s CPU (7 s before the hashed lookup)\n", WIDE, t);
    return true;
}

int main(void)
{
    char dir[256];
    if (!testutil_temp_dir(dir, sizeof dir))
        return 2;
    bool ok = bench_rows(dir) && bench_wide_header(dir);
    testutil_remove_dir(dir);
    return ok ? 0 : 1;
}
