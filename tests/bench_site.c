/*
 * bench_site.c — `make bench`: how long `perfcast build` takes for the
 * embedded archive and for a synthetic archive of 1,000 campaigns
 * (tests/fixtures/site/make_synthetic.sh), cold (empty output), rebuilt
 * unchanged, and after one new run. The aim: under 1 ms per page plus
 * 2 ms per chart (Hugo needs about 1 ms per page without charts).
 * Prints a table; exits non-zero only when a build fails. The output goes
 * to $TMPDIR (a disk other jobs may be using: expect some noise), and one
 * cold build also to /dev/shm, which shows the drawing time alone.
 */
#include "tests/testutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

typedef struct {
    size_t pages, charts, drawn, written, kept;
} summary;

/* Run a build; fills s from its summary line; returns the wall time (ms)
 * or a negative number when it failed. */
static double build(const char *archive, const char *out, const char *extra, summary *s)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s build --archive %s --out %s %s", testutil_perfcast(), archive,
             out, extra);
    char *text = NULL;
    double t0 = now_ms();
    int rc = testutil_run_command(cmd, &text);
    double ms = now_ms() - t0;
    const char *line = text ? strstr(text, ": ") : NULL;
    memset(s, 0, sizeof *s);
    if (rc != 0 || !line ||
        sscanf(line, ": %zu pages, %zu charts (%zu drawn), %zu files written, %zu kept", &s->pages,
               &s->charts, &s->drawn, &s->written, &s->kept) != 5) {
        fprintf(stderr, "build failed (%d): %s\n%s\n", rc, cmd, text ? text : "");
        ms = -1;
    }
    free(text);
    return ms;
}

static bool report(const char *what, double ms, const summary *s)
{
    if (ms < 0)
        return false;
    /* The aim counts the charts drawn; kept charts cost a link. */
    double aim = (double)s->pages * 1.0 + (double)s->drawn * 2.0;
    printf("%-34s %6zu %7zu %6zu %7zu %9.0f %9.0f  %s\n", what, s->pages, s->charts, s->drawn,
           s->written, ms, aim, ms <= aim ? "within" : "over");
    return true;
}

static void header(void)
{
    printf("%-34s %6s %7s %6s %7s %9s %9s\n", "build", "pages", "charts", "drawn", "written",
           "time ms", "aim ms");
}

int main(void)
{
    char work[256], cmd[1024], path[512];
    if (!testutil_temp_dir(work, sizeof work))
        return 2;
    bool ok = true;
    summary s;

    printf("perfcast build: aim = 1 ms per page + 2 ms per chart drawn (wall clock)\n\n");
    header();
    snprintf(path, sizeof path, "%s/embedded", work);
    ok &= report("embedded archive, cold", build("archive", path, "", &s), &s);
    ok &= report("embedded archive, rebuilt", build("archive", path, "", &s), &s);
    snprintf(path, sizeof path, "%s/embedded-1", work);
    ok &= report("embedded archive, cold, 1 thread", build("archive", path, "--jobs 1", &s), &s);

    char synthetic[512];
    snprintf(synthetic, sizeof synthetic, "%s/synthetic", work);
    snprintf(cmd, sizeof cmd, "tests/fixtures/site/make_synthetic.sh 1000 %s", synthetic);
    double t0 = now_ms();
    if (testutil_run_command(cmd, NULL) != 0) {
        fprintf(stderr, "cannot generate %s\n", synthetic);
        return 1;
    }
    double gen = now_ms() - t0;
    snprintf(path, sizeof path, "%s/synthetic-site", work);
    double cold = build(synthetic, path, "", &s);
    ok &= report("1000 campaigns, cold", cold, &s);
    summary cold_s = s;
    ok &= report("1000 campaigns, rebuilt", build(synthetic, path, "", &s), &s);
    /* One new run tonight: it touches one campaign. */
    snprintf(cmd, sizeof cmd, "echo 'syn-b,toy,64,1000,3.5,3,2024-12-31' >> %s/synthetic-0500/runs.csv",
             synthetic);
    testutil_run_command(cmd, NULL);
    ok &= report("1000 campaigns, one new run", build(synthetic, path, "", &s), &s);
    snprintf(path, sizeof path, "%s/synthetic-site-1", work);
    ok &= report("1000 campaigns, cold, 1 thread", build(synthetic, path, "--jobs 1", &s), &s);
    /* The same in memory (tmpfs), to tell drawing time from a busy disk. */
    char shm[256];
    snprintf(shm, sizeof shm, "/dev/shm/perfcast-bench-XXXXXX");
    if (access("/dev/shm", W_OK) == 0 && mkdtemp(shm)) {
        snprintf(path, sizeof path, "%s/site", shm);
        ok &= report("1000 campaigns, cold, in /dev/shm", build(synthetic, path, "", &s), &s);
        testutil_remove_dir(shm);
    }

    if (cold > 0 && cold_s.pages > 0)
        printf("\n1000 campaigns: %.2f ms per page including its charts (%zu charts on %zu "
               "pages); archive generated in %.0f ms (not counted)\n",
               cold / (double)cold_s.pages, cold_s.charts, cold_s.pages, gen);
    testutil_remove_dir(work);
    return ok ? 0 : 1;
}
