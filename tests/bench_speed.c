/*
 * bench_speed.c — `make bench`: issue 14's speed table, every row measured
 * in this run beside its peer or floor, as a ratio with the absolute
 * numbers. Peers are used when installed (Hugo, gnuplot, Python's csv
 * module); a missing one prints "not installed". Each timing is the median
 * of $BENCH_REPEAT runs (default 3), perfcast and its peer alternating, so a busy machine
 * slows both alike; expect noise all the same on a shared machine.
 *
 * Rows: pages (1,000 synthetic campaigns, tests/fixtures/site), a page
 * without charts (estimated: build time less the charts' drawing time),
 * charts (200, SVG + PNG, drawn in this process, against gnuplot drawing
 * the same points), PNG size, the rebuild with nothing changed and after
 * one new run, `fit` of
 * 100,000 rows, the term search at 2,000, 10,000 and 100,000 rows against
 * the same formula given, and over three parameters at 10,000 rows (issue
 * 22: tests/fixtures/bench/make_big_campaign3.sh), and `check` of a 1,000,000-row runs.csv with its
 * peak memory (tests/fixtures/bench/make_big_campaign.sh), with both its
 * experiments and with the given formula alone (no term search), and
 * `import csv` of that runs.csv into a new campaign against Python's csv
 * module reading and writing it. mgbench has its own benchmark
 * (mgbench/bench/run), run after this one.
 *
 * While iterating: $BENCH_ONLY picks rows by part (a comma-separated list
 * of charts, pages, fit, search, check, import; pages measures the charts too, it
 * needs their time) and $BENCH_CAMPAIGNS the pages' scale (default 1000).
 *
 * Exits non-zero only when a perfcast command fails.
 */
#include "render/chart.h"
#include "render/plot.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

enum { MAX_REPEAT = 9, CHARTS = 200, CHART_POINTS = 12 };

/* Settings, read once in main: runs per timing ($BENCH_REPEAT, 1 to 9,
 * default 3), the parts to run ($BENCH_ONLY, NULL = all) and the number
 * of synthetic campaigns ($BENCH_CAMPAIGNS). */
static int repeat_count = 3;
static const char *only_parts;
static long campaigns = 1000;

static char work[256];
static bool failed;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    return v[n / 2];
}

/* Wall time of one shell command in ms, NAN when it fails (perfcast
 * failures are remembered: the bench exits 1). */
static double timed(const char *cmd, bool is_perfcast)
{
    char *out = NULL;
    double t0 = now_ms();
    int rc = testutil_run_command(cmd, &out);
    double ms = now_ms() - t0;
    if (rc != 0) {
        fprintf(stderr, "failed (%d): %s\n%.2000s\n", rc, cmd, out ? out : "");
        failed |= is_perfcast;
        ms = NAN;
    }
    free(out);
    return ms;
}

/* Medians of repeat_count alternating runs of a (perfcast) and b (a peer or
 * NULL); prep (may be NULL) runs before each a, untimed. */
static void alternate(const char *prep, const char *a, const char *b, double *ma, double *mb)
{
    double ta[MAX_REPEAT], tb[MAX_REPEAT];
    for (int i = 0; i < repeat_count; i++) {
        if (prep)
            timed(prep, false);
        ta[i] = timed(a, true);
        tb[i] = b ? timed(b, false) : NAN;
    }
    *ma = median(ta, repeat_count);
    *mb = b ? median(tb, repeat_count) : NAN;
}

static bool installed(const char *tool)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null", tool);
    return testutil_run_command(cmd, NULL) == 0;
}

static void cmdf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void cmdf(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* Whether $BENCH_ONLY names part (all parts when it is not set). */
static bool wanted(const char *part)
{
    if (!only_parts)
        return true;
    size_t n = strlen(part);
    for (const char *p = only_parts; (p = strstr(p, part)) != NULL; p += n)
        if ((p == only_parts || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
            return true;
    return false;
}

static void header(void)
{
    printf("| work | perfcast | peer / floor | ratio |\n| --- | --- | --- | --- |\n");
}

/* One table row; ratio = ours / theirs (NAN: not measured). */
static void row(const char *work_text, const char *ours, const char *theirs, double ratio,
                const char *ratio_note)
{
    char r[64] = "—";
    if (isfinite(ratio))
        snprintf(r, sizeof r, "%.2f×", ratio);
    printf("| %s | %s | %s | %s%s%s |\n", work_text, ours, theirs, r, ratio_note[0] ? " " : "",
           ratio_note);
    fflush(stdout);
}

static size_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

/* ------------------------------------------------------------------ */
/* Pages                                                               */

typedef struct {
    size_t pages, charts, drawn, written;
    double cpu_ms; /* user + system time of the build */
} build_summary;

/* CPU time (user + system) of the waited-for children so far, in ms. */
static double children_cpu_ms(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_CHILDREN, &u) != 0)
        return NAN;
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

/* The machine's load average over the last minute (with the builds'
 * own threads: above 2 on two cores, other work competed), NAN when
 * unknown. */
static double load_average(void)
{
    double load = NAN;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf", &load) != 1)
        load = NAN;
    if (f)
        fclose(f);
    return load;
}

/* A build into out; its wall time in ms, NAN when it fails. */
static double build(const char *archive, const char *out, const char *extra, build_summary *s)
{
    char cmd[2048], *text = NULL;
    cmdf(cmd, sizeof cmd, "%s build --archive %s --out %s %s", testutil_perfcast(), archive, out,
         extra);
    double c0 = children_cpu_ms(), t0 = now_ms();
    int rc = testutil_run_command(cmd, &text);
    double ms = now_ms() - t0;
    const char *line = text ? strstr(text, ": ") : NULL;
    memset(s, 0, sizeof *s);
    s->cpu_ms = children_cpu_ms() - c0;
    if (rc != 0 || !line ||
        sscanf(line, ": %zu pages, %zu charts (%zu drawn), %zu files written", &s->pages,
               &s->charts, &s->drawn, &s->written) != 4) {
        fprintf(stderr, "build failed (%d): %s\n%s\n", rc, cmd, text ? text : "");
        failed = true;
        ms = NAN;
    }
    free(text);
    return ms;
}

/* Night i with something new, as .ci/nightly runs it: a new release
 * work/night-I made from the last release (the last cold build,
 * work/cold2-LAST) by build --previous, which links the files it keeps;
 * its wall time in ms, NAN on failure. Like the cold builds, each night
 * writes a new folder, removed only after every timing
 * (remove_cold_folders), as the nightly prunes old releases only after
 * publishing the new one. */
static double nightly_build(const char *archive, int i, build_summary *s)
{
    char out[512], extra[600];
    snprintf(out, sizeof out, "%s/night-%d", work, i);
    snprintf(extra, sizeof extra, "--previous %s/cold2-%d", work, repeat_count - 1);
    return build(archive, out, extra, s);
}

/* Cold builds write into new folders (work/NAME-I), removed only after
 * every timing: deleting a site just before building the next one makes
 * ext4 skip the freshly freed inodes one by one when it allocates new
 * ones (recently_deleted in find_inode_bit, most of the time in `perf`),
 * which no real cold build into a new folder pays. */
static void remove_cold_folders(const char *name, int n)
{
    char cmd[1024];
    for (int i = 0; i < n; i++) {
        cmdf(cmd, sizeof cmd, "rm -rf %s/%s-%d", work, name, i);
        testutil_run_command(cmd, NULL);
    }
}

/* The site of $BENCH_CAMPAIGNS synthetic campaigns in work/synthetic and,
 * when Hugo is installed, Hugo's site of as many pages in work/hugo. */
static bool make_page_sites(const char *synthetic, const char *hugo, bool *have_hugo)
{
    char cmd[2048];
    cmdf(cmd, sizeof cmd, "tests/fixtures/site/make_synthetic.sh %ld %s", campaigns, synthetic);
    if (testutil_run_command(cmd, NULL) != 0) {
        fprintf(stderr, "cannot generate %s\n", synthetic);
        failed = true;
        return false;
    }
    *have_hugo = installed("hugo");
    cmdf(cmd, sizeof cmd, "tests/fixtures/bench/make_hugo_site.sh %ld %s", campaigns, hugo);
    *have_hugo = *have_hugo && testutil_run_command(cmd, NULL) == 0;
    return true;
}

/* Cold builds of $BENCH_CAMPAIGNS campaigns against Hugo on as many pages,
 * with two threads and one; the page without charts (chart_ms: one chart
 * drawn in this process); the rebuild with nothing changed and after one
 * new run. */
static void bench_pages(double chart_ms)
{
    char synthetic[512], hugo[512], site[512], cmd[2048];
    snprintf(synthetic, sizeof synthetic, "%s/synthetic", work);
    snprintf(hugo, sizeof hugo, "%s/hugo", work);
    bool have_hugo;
    if (!make_page_sites(synthetic, hugo, &have_hugo))
        return;
    double cold[MAX_REPEAT], peer[MAX_REPEAT], cold1[MAX_REPEAT], cpu[MAX_REPEAT];
    build_summary s = {0}, s1;
    for (int i = 0; i < repeat_count; i++) {
        snprintf(site, sizeof site, "%s/cold2-%d", work, i);
        cold[i] = build(synthetic, site, "", &s);
        cpu[i] = s.cpu_ms;
        cmdf(cmd, sizeof cmd, "hugo --quiet --source %s --destination %s/hugo-%d", hugo, work, i);
        peer[i] = have_hugo ? timed(cmd, false) : NAN;
        snprintf(site, sizeof site, "%s/cold1-%d", work, i);
        cold1[i] = build(synthetic, site, "--jobs 1", &s1);
    }
    double load = load_average(); /* over the last minute: these builds' */
    double c = median(cold, repeat_count), c1 = median(cold1, repeat_count);
    double h = median(peer, repeat_count) / (double)campaigns;
    char what[200], ours[300], theirs[256];
    double per_page = s.pages ? c / (double)s.pages : NAN;
    double target = 3.0 * (double)s.pages + 2.0 * (double)s.charts;
    snprintf(what, sizeof what, "%ld campaign pages (charts included), cold", campaigns);
    snprintf(ours, sizeof ours, "%.2f ms/page (%zu pages, %zu charts, %.0f ms; target 3 ms/page + "
             "2 ms/chart = %.0f ms)", per_page, s.pages, s.charts, c, target);
    snprintf(theirs, sizeof theirs, have_hugo ? "Hugo: %.2f ms/page (no charts)" : "Hugo: not installed",
             h);
    row(what, ours, theirs, per_page / h, "");
    /* CPU time over wall time: how many cores the two threads kept busy;
     * the load average: how much else wanted the cores. */
    double busy = median(cpu, repeat_count) / c;
    snprintf(ours, sizeof ours, "2 threads %.0f ms (%.2f cores busy), 1 thread %.0f ms; load "
             "average %.1f", c, busy, c1, load);
    row("the same, second thread's gain", ours, "1 thread", c / c1, "(0.50× = twice as fast)");

    /* A page without charts: the one-thread build less its charts at the
     * in-process chart time. */
    double bare = s1.pages ? (c1 - (double)s1.drawn * chart_ms) / (double)s1.pages : NAN;
    snprintf(ours, sizeof ours, "%.2f ms (estimated: 1-thread build less %zu charts x %.2f ms)",
             bare, s1.drawn, chart_ms);
    row("a page without charts", ours, theirs, bare / h, "");

    /* Nights as .ci/nightly runs them. Nothing new: `build --up-to-date`
     * on the last release (the last two-thread cold build) finds it
     * current, and nothing else is done. */
    snprintf(site, sizeof site, "%s/cold2-%d", work, repeat_count - 1);
    cmdf(cmd, sizeof cmd, "%s build --archive %s --out %s --up-to-date --quiet", testutil_perfcast(),
         synthetic, site);
    double again[MAX_REPEAT];
    for (int i = 0; i < repeat_count; i++)
        again[i] = timed(cmd, true);
    double r = median(again, repeat_count);
    snprintf(ours, sizeof ours, "%.0f ms (nothing fitted, drawn or written)", r);
    snprintf(theirs, sizeof theirs, "cold build %.0f ms", c);
    row("nightly rebuild, nothing changed", ours, theirs, r / c, "of cold (target ≤ 5%)");

    /* One new run tonight: it touches the middle campaign. Each repeat
     * adds one more run to it (the night is still seeded from the last
     * cold build above: one campaign changed), and alternates with a cold
     * build of the same archive, so that both see the same load. */
    double night[MAX_REPEAT], cold_now[MAX_REPEAT], night_cpu[MAX_REPEAT], cold_cpu[MAX_REPEAT];
    build_summary after, fresh;
    for (int i = 0; i < repeat_count; i++) {
        cmdf(cmd, sizeof cmd,
             "echo 'syn-b,toy,64,1000,3.5%d,3,2024-12-31' >> %s/synthetic-%04ld/runs.csv", i,
             synthetic, (campaigns + 1) / 2);
        testutil_run_command(cmd, NULL);
        night[i] = nightly_build(synthetic, i, &after);
        night_cpu[i] = after.cpu_ms;
        snprintf(site, sizeof site, "%s/coldn-%d", work, i);
        cold_now[i] = build(synthetic, site, "", &fresh);
        cold_cpu[i] = fresh.cpu_ms;
    }
    load = load_average();
    /* What the nightly does after publishing: removing an old release
     * (here the first night's). */
    cmdf(cmd, sizeof cmd, "rm -rf %s/night-0", work);
    double prune = timed(cmd, false);
    /* CPU time too: on a loaded machine the night, mostly one thread (the
     * report), waits for a core longer than the two-thread cold build. */
    double one = median(night, repeat_count), cn = median(cold_now, repeat_count);
    snprintf(ours, sizeof ours, "%.0f ms (CPU %.0f ms), %zu charts drawn, %zu files written; "
             "after publishing, an old release pruned in %.0f ms; load average %.1f", one,
             median(night_cpu, repeat_count), after.drawn, after.written, prune, load);
    snprintf(theirs, sizeof theirs, "cold build %.0f ms (CPU %.0f ms; each beside a night)", cn,
             median(cold_cpu, repeat_count));
    row("rebuild after one new run (a new release from the last, `build --previous`)", ours,
        theirs, one / cn, "of cold (target ≤ 10%)");
    remove_cold_folders("coldn", repeat_count);
    remove_cold_folders("cold2", repeat_count);
    remove_cold_folders("cold1", repeat_count);
    remove_cold_folders("hugo", repeat_count);
    remove_cold_folders("night", repeat_count);
}

/* ------------------------------------------------------------------ */
/* Charts                                                              */

/* Chart k's points: predicted against measured for three clusters. */
static void chart_points(int k, chart_pvm_point *p)
{
    static const char *const groups[] = {"cluster-a", "cluster-b", "cluster-c"};
    for (int i = 0; i < CHART_POINTS; i++) {
        double m = pow(2, (double)i) * (1 + 0.01 * (double)(k % 17));
        p[i] = (chart_pvm_point){groups[i % 3], m, m * (1 + 0.05 * sin((double)(k * 13 + i)))};
    }
}

/* gnuplot drawing the same charts, SVG and PNG (pngcairo, about the same
 * size: ours grow with their legend, a three-entry one makes them ~380 px). */
enum { GNUPLOT_HEIGHT = 380 };
static bool write_gnuplot_script(const char *path, const char *outdir)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "set logscale xy\nset grid\nset key top left\nset xlabel 'measured (s)'\n"
               "set ylabel 'predicted (s)'\n");
    chart_pvm_point p[CHART_POINTS];
    for (int k = 0; k < CHARTS; k++) {
        chart_points(k, p);
        for (int fmt = 0; fmt < 2; fmt++) {
            fprintf(f, "set terminal %s size %d,%d\nset output '%s/g%03d.%s'\n",
                    fmt ? "pngcairo" : "svg", PLOT_WIDTH, GNUPLOT_HEIGHT, outdir, k,
                    fmt ? "png" : "svg");
            fprintf(f, "set title 'chart %d'\nplot x title 'y = x' with lines, "
                       "'-' title 'cluster-a' with points, '-' title 'cluster-b' with points, "
                       "'-' title 'cluster-c' with points\n", k);
            for (int g = 0; g < 3; g++) {
                for (int i = g; i < CHART_POINTS; i += 3)
                    fprintf(f, "%g %g\n", p[i].measured, p[i].predicted);
                fprintf(f, "e\n");
            }
        }
    }
    return fclose(f) == 0;
}

/* Returns perfcast's ms per chart (SVG + PNG). */
static double bench_charts(void)
{
    double ms[MAX_REPEAT], peer[MAX_REPEAT];
    size_t png_bytes = 0;
    char script[512], outdir[512], cmd[1200], err[200];
    snprintf(script, sizeof script, "%s/charts.gp", work);
    snprintf(outdir, sizeof outdir, "%s/gnuplot", work);
    cmdf(cmd, sizeof cmd, "mkdir -p %s", outdir);
    testutil_run_command(cmd, NULL);
    bool have_gnuplot = installed("gnuplot") && write_gnuplot_script(script, outdir);
    cmdf(cmd, sizeof cmd, "gnuplot %s", script);
    chart_pvm_point p[CHART_POINTS];
    for (int r = 0; r < repeat_count; r++) {
        double t0 = now_ms();
        png_bytes = 0;
        for (int k = 0; k < CHARTS; k++) {
            chart_files f;
            chart_files_init(&f);
            chart_points(k, p);
            char title[32];
            snprintf(title, sizeof title, "chart %d", k);
            if (!chart_pred_vs_measured(title, "s", p, CHART_POINTS, &f, err, sizeof err)) {
                fprintf(stderr, "chart failed: %s\n", err);
                failed = true;
            }
            png_bytes += f.png.len;
            chart_files_free(&f);
        }
        ms[r] = (now_ms() - t0) / CHARTS;
        peer[r] = have_gnuplot ? timed(cmd, false) / CHARTS : NAN;
    }
    double ours_ms = median(ms, repeat_count), theirs_ms = median(peer, repeat_count);
    char ours[200], theirs[200];
    snprintf(ours, sizeof ours, "%.2f ms/chart", ours_ms);
    snprintf(theirs, sizeof theirs, have_gnuplot ? "gnuplot: %.2f ms/chart" : "gnuplot: not installed",
             theirs_ms);
    row("200 charts, SVG + PNG (same points)", ours, theirs, ours_ms / theirs_ms, "");
    size_t gp_bytes = 0;
    for (int k = 0; have_gnuplot && k < CHARTS; k++) {
        char path[600];
        snprintf(path, sizeof path, "%s/g%03d.png", outdir, k);
        gp_bytes += file_size(path);
    }
    snprintf(ours, sizeof ours, "%.1f KB", (double)png_bytes / CHARTS / 1024);
    snprintf(theirs, sizeof theirs, have_gnuplot ? "gnuplot pngcairo: %.1f KB" : "gnuplot: not installed",
             (double)gp_bytes / CHARTS / 1024);
    row("PNG size, same chart", ours, theirs,
        gp_bytes ? (double)png_bytes / (double)gp_bytes : NAN, "");
    return ours_ms;
}

/* ------------------------------------------------------------------ */
/* Fitting, term search, check                                         */

/* A campaign of rows runs over configs configurations in work/name, made
 * by tests/fixtures/bench/<script>. */
static bool make_campaign_by(const char *script, const char *name, long rows, long configs,
                             char *dir, size_t len)
{
    char cmd[1024];
    snprintf(dir, len, "%s/%s", work, name);
    cmdf(cmd, sizeof cmd, "tests/fixtures/bench/%s %ld %ld %s", script, rows, configs, dir);
    if (testutil_run_command(cmd, NULL) == 0)
        return true;
    fprintf(stderr, "cannot generate %s\n", dir);
    failed = true;
    return false;
}

/* The two-parameter campaign (N x P grid). */
static bool make_campaign(const char *name, long rows, long configs, char *dir, size_t len)
{
    return make_campaign_by("make_big_campaign.sh", name, rows, configs, dir, len);
}

/* A python3 command that reads csv with its csv module. */
static void python_reads(char *cmd, size_t len, const char *csv)
{
    cmdf(cmd, len, "python3 -c 'import csv,sys; sum(1 for _ in csv.reader(open(sys.argv[1])))' %s",
         csv);
}

/* Reading is `check` of a copy of the campaign without experiments: the
 * same runs.csv read and checked, nothing fitted (check runs every
 * experiment, the term search too). */
static void bench_fit(void)
{
    char dir[512], bare[512], path[600], fit[1200], check[1200], wc[1200], py[1400];
    char ours[200], theirs[300];
    if (!make_campaign("fit100k", 100000, 8000, dir, sizeof dir) ||
        !make_campaign("read100k", 100000, 8000, bare, sizeof bare))
        return;
    snprintf(path, sizeof path, "%s/big/experiments.csv", bare);
    if (!testutil_write_file(path, "name,model,response,formula,train,target,title,options\n"))
        return;
    cmdf(fit, sizeof fit, "%s fit --archive %s big given >/dev/null", testutil_perfcast(), dir);
    cmdf(check, sizeof check, "%s check --archive %s >/dev/null", testutil_perfcast(), bare);
    cmdf(wc, sizeof wc, "wc -l %s/big/runs.csv >/dev/null", dir);
    snprintf(path, sizeof path, "%s/big/runs.csv", dir);
    python_reads(py, sizeof py, path);
    bool have_python = installed("python3");
    double f, c, w, p = NAN;
    alternate(NULL, fit, check, &f, &c);
    alternate(NULL, wc, have_python ? py : NULL, &w, &p);
    snprintf(ours, sizeof ours, "%.3f s", f / 1000);
    snprintf(theirs, sizeof theirs,
             "reading the same CSV (`check`, no experiment): %.3f s; Python csv module %.3f s; "
             "wc -l %.3f s", c / 1000, p / 1000, w / 1000);
    row("`fit`, 100,000 rows, 5 terms (8,000 configurations)", ours, theirs, f / c,
        "of reading (target ≤ 3×)");
}

/* Time `fit` of the campaign's `search` experiment (term search, with
 * the calibration's backtest refits and the nested error, as `fit` runs
 * them) against `given` (the same terms written out): the campaign made by
 * script from rows runs over configs configurations, the row named what. */
static void time_search(const char *script, const char *name, long rows, long configs,
                        const char *what, const char *given_what, double target_s)
{
    char dir[512], search[1200], given[1200], ours[200], theirs[200];
    if (!make_campaign_by(script, name, rows, configs, dir, sizeof dir))
        return;
    cmdf(search, sizeof search, "%s fit --archive %s big search >/dev/null", testutil_perfcast(),
         dir);
    cmdf(given, sizeof given, "%s fit --archive %s big given >/dev/null", testutil_perfcast(), dir);
    double s, g;
    alternate(NULL, search, given, &s, &g);
    snprintf(ours, sizeof ours, "%.2f s (target ≤ %g s)", s / 1000, target_s);
    snprintf(theirs, sizeof theirs, "%s: %.2f s", given_what, g / 1000);
    row(what, ours, theirs, s / g, "");
}

static void bench_search(long rows, long configs, double target_s)
{
    char name[64], what[200];
    snprintf(name, sizeof name, "search%ld", rows);
    snprintf(what, sizeof what, "term search, %ld rows (%ld configurations)", rows, configs);
    time_search("make_big_campaign.sh", name, rows, configs, what, "same formula given",
                target_s);
}

/* Issue 22's case: the term search over three parameters (np, N, M),
 * five terms allowed, on rows runs spread over a grid of about cells
 * configurations (np <= 64 trained: 3,520 of 9,680 at 10,000 cells). */
static void bench_search3(long rows, long cells, double target_s)
{
    char name[64], what[200];
    snprintf(name, sizeof name, "search3-%ld", rows);
    snprintf(what, sizeof what,
             "term search, %ld rows × 3 parameters (%ld-cell grid), with its refits", rows, cells);
    time_search("make_big_campaign3.sh", name, rows, cells, what, "same 5 terms given", target_s);
}

/* Peak resident memory (KiB) of a command through GNU time, 0 if unknown. */
static long peak_kib(const char *cmd)
{
    char full[1400], *out = NULL;
    long kib = 0;
    cmdf(full, sizeof full, "/usr/bin/time -f 'peak %%M' %s", cmd);
    if (testutil_run_command(full, &out) == 0 && out) {
        const char *p = strstr(out, "peak ");
        kib = p ? atol(p + 5) : 0;
    }
    free(out);
    return kib;
}

/* A row for `check` of the campaign in dir, against Python reading its
 * runs.csv, with the peak memory. */
static void check_row(const char *dir, const char *what)
{
    char csv[600], check[1200], py[1400], ours[300], theirs[300];
    snprintf(csv, sizeof csv, "%s/big/runs.csv", dir);
    double mb = (double)file_size(csv) / 1e6;
    cmdf(check, sizeof check, "%s check --archive %s >/dev/null", testutil_perfcast(), dir);
    bool have_python = installed("python3");
    python_reads(py, sizeof py, csv);
    double c, p;
    alternate(NULL, check, have_python ? py : NULL, &c, &p);
    long peak = installed("/usr/bin/time") ? peak_kib(check) : 0;
    snprintf(ours, sizeof ours, "%.1f MB/s (%.1f MB in %.2f s), %.0f MiB peak = %.1f× the file",
             mb / (c / 1000), mb, c / 1000, (double)peak / 1024, (double)peak * 1024 / (mb * 1e6));
    snprintf(theirs, sizeof theirs, have_python ? "Python csv module: %.1f MB/s" : "Python: not installed",
             mb / (p / 1000));
    row(what, ours, theirs, c / p, "of Python's time");
}

/* Both experiments (the term search among them), then the given formula
 * alone: issue 21 asks the latter to be at most Python's time, in at most
 * 150 MiB. */
static void bench_check(void)
{
    char dir[512], cmd[1400];
    if (!make_campaign("check1m", 1000000, 8000, dir, sizeof dir))
        return;
    check_row(dir, "`check` of a 1,000,000-row runs.csv");
    cmdf(cmd, sizeof cmd, "head -2 %s/big/experiments.csv > %s/given.csv && "
         "mv %s/given.csv %s/big/experiments.csv", dir, dir, dir, dir);
    if (testutil_run_command(cmd, NULL) != 0) {
        fprintf(stderr, "cannot keep only the given experiment in %s\n", dir);
        failed = true;
        return;
    }
    check_row(dir, "`check` of the same, the given formula only (no term search; target ≤ 1× "
                   "Python, ≤ 150 MiB)");
}

/* `import csv` of the 1M-row runs.csv into a new campaign (each run
 * removes the previous archive first) against Python's csv module reading
 * and writing the same rows: issue 21 asks at most 1.5x, in at most
 * 150 MiB. */
static void bench_import(void)
{
    char dir[512], csv[600], arch[600], prep[1400], imp[1400], py[1600];
    char ours[300], theirs[300];
    if (!make_campaign("import1m", 1000000, 8000, dir, sizeof dir))
        return;
    snprintf(csv, sizeof csv, "%s/big/runs.csv", dir);
    snprintf(arch, sizeof arch, "%s/imported", work);
    cmdf(prep, sizeof prep, "rm -rf %s", arch);
    /* P counts processes too (np = P here): --map P=P keeps it a column. */
    cmdf(imp, sizeof imp, "%s import csv %s --archive %s --campaign big --map P=P >/dev/null",
         testutil_perfcast(), csv, arch);
    cmdf(py, sizeof py,
         "python3 -c 'import csv,sys; w=csv.writer(open(sys.argv[2], \"w\", newline=\"\")); "
         "[w.writerow(r) for r in csv.reader(open(sys.argv[1], newline=\"\"))]' %s %s/py.csv",
         csv, work);
    bool have_python = installed("python3");
    double mb = (double)file_size(csv) / 1e6, t, p;
    alternate(prep, imp, have_python ? py : NULL, &t, &p);
    timed(prep, false);
    long peak = installed("/usr/bin/time") ? peak_kib(imp) : 0;
    snprintf(ours, sizeof ours, "%.2f s for %.1f MB, %.0f MiB peak = %.1f× the file", t / 1000,
             mb, (double)peak / 1024, (double)peak * 1024 / (mb * 1e6));
    snprintf(theirs, sizeof theirs,
             have_python ? "Python csv module, read + write: %.2f s" : "Python: not installed",
             p / 1000);
    row("`import csv` of a 1,000,000-row file into a new campaign (target ≤ 1.5× Python, "
        "≤ 150 MiB)", ours, theirs, t / p, "of Python's time");
}

int main(void)
{
    const char *repeat = getenv("BENCH_REPEAT");
    if (repeat && atoi(repeat) >= 1 && atoi(repeat) <= MAX_REPEAT)
        repeat_count = atoi(repeat);
    if (!testutil_temp_dir(work, sizeof work))
        return 2;
    printf("perfcast speed against peers and floors, medians of %d alternating runs "
           "(wall clock; a shared machine makes them noisy)\n\n", repeat_count);
    const char *scale = getenv("BENCH_CAMPAIGNS");
    if (scale && atol(scale) >= 1 && atol(scale) <= 9999)
        campaigns = atol(scale);
    only_parts = getenv("BENCH_ONLY");
    header();
    double chart_ms = wanted("charts") || wanted("pages") ? bench_charts() : NAN;
    if (wanted("pages"))
        bench_pages(chart_ms);
    if (wanted("fit"))
        bench_fit();
    if (wanted("search")) {
        bench_search(2000, 200, 1);
        bench_search(10000, 800, 2);
        bench_search(100000, 8000, 10);
        bench_search3(10000, 10000, 3);
    }
    if (wanted("check"))
        bench_check();
    if (wanted("import"))
        bench_import();
    testutil_remove_dir(work);
    return failed ? 1 : 0;
}
