/*
 * test_site.c — the site writer in process, on tests/fixtures/site/basic
 * with an oracle in place of the models (so what the pages must show is
 * known): every page, chart and CSV is there and checks out
 * (gen/site/site_verify.h), archive strings stay inert even in a permissive
 * Markdown viewer, failed fits and left-out campaigns say why, alerts
 * match the oracle, builds are byte-identical, a rebuild writes nothing,
 * a change rewrites only what it touches, and a failed build leaves the
 * previous site as it was. Then, with the real multicore model on an
 * archive written here, the Table II error summary section (seed 003);
 * the papers' published predictions on the cluster pages with hand-derived
 * costs, and their seed 000 Table II costs in the embedded archive.
 */
#include "gen/base/csvread.h"
#include "gen/base/fileio.h"
#include "gen/ingest/experiment.h"
#include "gen/site/site.h"
#include "gen/site/site_data.h"
#include "gen/site/site_out.h"
#include "gen/site/site_verify.h"
#include "render/plot.h"
#include "tests/testutil.h"

#include <cmark-gfm.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char work[256];       /* temporary folder of this run */
static char archive_dir[512];

/* The oracle: the estimate of target i is its measured mean when i is
 * even and 1.2 times it when i is odd, with a +-5% prediction interval, so
 * every measured run of an odd target is outside its interval. */
static bool oracle(void *ctx, const archive *a, const campaign *c, const experiment_info *e,
                   experiment_result *res)
{
    (void)ctx;
    if (!experiment_prepare(a, c, e, res))
        return false;
    report *r = &res->rep;
    report_set_text(&r->model, "oracle");
    report_set_text(&r->equation, "t = 1.5 + 2*(N/np)");
    report_add_coef(r, "(Intercept)", 1.5, 0.1, 15, 0.001, false);
    report_add_coef(r, "N/np", 2, 0.05, 40, 1e-6, false);
    report_add_stat(r, "r2", 0.99, NULL);
    report_add_stat(r, "n", (double)res->input.ntrain, "training runs");
    report_add_diagnostic(r, "residual normality: fine <b>really</b>");
    for (size_t i = 0; i < res->input.ntargets; i++) {
        double m = res->input.targets[i].measured;
        double est = isnan(m) ? 1.0 : (i % 2 ? 1.2 * m : m);
        report_prediction p = {.config = i, .estimate = est, .ci_low = est * 0.99,
                               .ci_high = est * 1.01, .pi_low = est * 0.95,
                               .pi_high = est * 1.05, .extrapolation = isnan(m)};
        report_add_prediction(r, &p);
    }
    experiment_compute_errors(res);
    res->ok = true;
    return true;
}

static bool load(site_data *d)
{
    char err[512];
    bool ok = site_data_load(d, archive_dir, 1700000000, oracle, NULL, err, sizeof err);
    if (!ok)
        fprintf(stderr, "\nload: %s\n", err);
    return ok;
}

static bool write_site(const site_data *d, const char *out, long fail_after, site_stats *st,
                       char *err, size_t errlen)
{
    site_options opt = {.out_dir = out, .templates_dir = "templates", .source_date_epoch = 1700000000,
                        .jobs = 2, .fail_after = fail_after};
    return site_write(d, &opt, st, err, errlen);
}

static void path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", work, name);
}

static char *read_in(const char *dir, const char *file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", work, dir, file);
    return fileio_read_file(path, NULL);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *s = hay; s && (s = strstr(s, needle)) != NULL; s += strlen(needle))
        n++;
    return n;
}

/* ------------------------------------------------------------------ */
/* Snapshots of a tree: path, inode, mtime, bytes                      */

typedef struct {
    char *path;
    ino_t inode;
    struct timespec mtime;
    char *bytes;
    size_t len;
} snap_file;

typedef struct {
    snap_file *f;
    size_t n;
} snapshot;

static void snap_dir(snapshot *s, const char *root, const char *rel)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s%s%s", root, rel[0] ? "/" : "", rel);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char sub[1024], full[2048];
        snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", de->d_name);
        snprintf(full, sizeof full, "%s/%s", root, sub);
        struct stat st;
        if (lstat(full, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            snap_dir(s, root, sub);
            continue;
        }
        s->f = realloc(s->f, (s->n + 1) * sizeof *s->f);
        snap_file *f = &s->f[s->n++];
        f->path = strdup(sub);
        f->inode = st.st_ino;
        f->mtime = st.st_mtim;
        f->bytes = fileio_read_file(full, &f->len);
    }
    closedir(d);
}

static int compare_snap(const void *a, const void *b)
{
    return strcmp(((const snap_file *)a)->path, ((const snap_file *)b)->path);
}

static snapshot snap(const char *root)
{
    snapshot s = {0};
    snap_dir(&s, root, "");
    qsort(s.f, s.n, sizeof *s.f, compare_snap);
    return s;
}

static void snap_free(snapshot *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->f[i].path), free(s->f[i].bytes);
    free(s->f);
}

static const snap_file *snap_find(const snapshot *s, const char *path)
{
    snap_file key = {.path = (char *)path};
    return bsearch(&key, s->f, s->n, sizeof *s->f, compare_snap);
}

static bool same_bytes(const snap_file *a, const snap_file *b)
{
    return a->len == b->len && a->bytes && b->bytes && memcmp(a->bytes, b->bytes, a->len) == 0;
}

/* Same files with the same bytes; with untouched, also the same inode and mtime. */
static bool same_tree(const snapshot *a, const snapshot *b, bool untouched)
{
    if (a->n != b->n) {
        fprintf(stderr, "\n%zu files against %zu\n", a->n, b->n);
        return false;
    }
    for (size_t i = 0; i < a->n; i++) {
        const snap_file *x = &a->f[i], *y = &b->f[i];
        bool ok = strcmp(x->path, y->path) == 0 && same_bytes(x, y) &&
                  (!untouched || (x->inode == y->inode && x->mtime.tv_sec == y->mtime.tv_sec &&
                                  x->mtime.tv_nsec == y->mtime.tv_nsec));
        if (!ok) {
            fprintf(stderr, "\ndiffers: %s / %s\n", x->path, y->path);
            return false;
        }
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

static void test_pages_charts_and_links(void)
{
    site_data d;
    CU_ASSERT_TRUE_FATAL(load(&d));
    char out[512], err[512];
    path_in(out, sizeof out, "site1");
    site_stats st;
    CU_ASSERT_TRUE_FATAL(write_site(&d, out, -1, &st, err, sizeof err));
    /* index, alerts, estimates, advice x3, 3 campaigns, 3 clusters */
    CU_ASSERT_EQUAL(st.pages, 12);
    CU_ASSERT_EQUAL(st.campaigns, 3);
    CU_ASSERT_EQUAL(st.skipped_campaigns, 1);
    CU_ASSERT_EQUAL(st.failed_experiments, 1);
    site_report r;
    bool clean = site_verify(out, &r);
    for (size_t i = 0; i < r.nproblems; i++)
        fprintf(stderr, "\n%s", r.problems[i]);
    CU_ASSERT_TRUE(clean);
    CU_ASSERT_EQUAL(r.pages, 12);
    CU_ASSERT_TRUE(r.links > 100);
    /* alpha: three charts; the two clusters with runs: a cost chart each */
    CU_ASSERT_EQUAL(r.charts, 5);
    CU_ASSERT_EQUAL(r.images, 2 * 5); /* each SVG shown on the .md and the .html page */
    site_report_free(&r);
    static const char *const files[] = {
        "index.md", "index.html", "style.css", "alerts.xml", "alerts.csv", "campaigns.csv",
        "clusters.csv", "accuracy.csv", "advice/index.html", "advice/scenario-1.html",
        "advice/scenario-2.html", "advice/predicted-options.csv",
        "campaigns/alpha/index.md", "campaigns/alpha/scale-predictions.csv",
        "campaigns/alpha/scale-coefficients.csv", "campaigns/alpha/scale-fit.csv",
        "campaigns/alpha/scale-scaling.csv", "campaigns/alpha/scale-scaling.svg",
        "campaigns/alpha/scale-scaling.png", "campaigns/alpha/scale-predicted-vs-measured.svg",
        "campaigns/alpha/scale-predicted-vs-measured.png", "campaigns/alpha/scale-residuals.svg",
        "campaigns/alpha/scale-residuals.png", "campaigns/alpha/runs.csv",
        "campaigns/beta/index.html", "campaigns/broken/index.html", "clusters/ant/cost.csv",
        "clusters/ant/cost-time.svg", "clusters/bee/index.html", ".perfcast-manifest"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", out, files[i]);
        if (stat(path, &sb) != 0)
            fprintf(stderr, "\nmissing %s\n", files[i]);
        CU_ASSERT_EQUAL(stat(path, &sb), 0);
    }
    site_data_free(&d);
}

/* What the oracle predicts: 16 targets of alpha (np 16..128, two N, two
 * clusters); the measured ones with odd index have both runs outside, so
 * their mean too: one alert per such configuration. */
static size_t expected_alerts(const site_data *d)
{
    size_t n = 0;
    for (size_t c = 0; c < d->ncamps; c++)
        for (size_t e = 0; e < d->camps[c].nexps; e++) {
            const experiment_input *in = &d->camps[c].exps[e].res.input;
            if (!d->camps[c].exps[e].res.ok)
                continue;
            for (size_t t = 1; t < in->ntargets; t += 2)
                n += in->targets[t].nmeasured > 0;
        }
    return n;
}

static void test_alerts_and_feed(void)
{
    site_data d;
    CU_ASSERT_TRUE_FATAL(load(&d));
    size_t want = expected_alerts(&d);
    /* Per cluster and N the targets are np = 16, 32, 64, 128 in that order;
     * the odd ones are 32 (measured twice) and 128 (to predict): 4
     * configurations of 2 runs (one alert each, not one per run). */
    CU_ASSERT_EQUAL(want, 4);
    CU_ASSERT_EQUAL(d.nalerts, want);
    const size_t configs = 4;
    char *csv = read_in("site1", "alerts.csv"), *xml = read_in("site1", "alerts.xml");
    CU_ASSERT_EQUAL(count(csv, "\n"), configs + 1);
    CU_ASSERT_EQUAL(count(csv, ",2,2,"), configs); /* 2 of 2 runs outside each */
    CU_ASSERT_EQUAL(count(xml, "<entry>"), configs);
    /* each entry its runs' own date, the feed its newest entry's */
    CU_ASSERT_EQUAL(count(xml, "<updated>2024-03-"), configs + 1);
    /* the oracle has no calibrated interval: the model's is used, and said */
    CU_ASSERT_EQUAL(count(xml, "outside the model&#39;s 95% PI"), configs);
    CU_ASSERT_EQUAL(count(csv, ",model's 95% PI,"), configs);
    CU_ASSERT_EQUAL(count(xml, "2 of 2 runs outside it"), configs); /* in the summary */
    /* every id once */
    const char *s = xml;
    size_t ids = 0;
    while ((s = strstr(s, "<id>urn:perfcast:alert:")) != NULL) {
        char id[64];
        sscanf(s, "<id>%63[^<]", id);
        CU_ASSERT_EQUAL(count(xml, id), 1);
        ids++;
        s++;
    }
    CU_ASSERT_EQUAL(ids, configs);
    /* Most severe first: |error| does not grow down the feed. */
    double last = INFINITY;
    for (s = strstr(xml, "<summary>"); s && (s = strstr(s, ", error ")) != NULL; s++) {
        double e = fabs(strtod(s + 8, NULL));
        CU_ASSERT_TRUE(e <= last);
        last = e;
    }
    CU_ASSERT_TRUE(isfinite(last));
    /* Relative links without a base URL. */
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<link rel=\"self\" type=\"application/atom+xml\" "
                                       "href=\"alerts.xml\" />"));
    CU_ASSERT_PTR_NULL(strstr(xml, "xml:base"));
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    free(csv);
    free(xml);
    site_data_free(&d);
}

/* The campaign summary, from the oracle's construction: per cluster and N
 * the measured targets are np = 16 (error 0), 32 (+20%, outside its +-5%
 * PI) and 64 (0): 12 held-out configurations, median |error| 0 (8 zeros
 * and 4 twenties: the 6th and 7th smallest are 0), max 20%, no calibrated
 * interval, 8 of 12 inside the model's PI. One experiment: no table of
 * contents. The page opens with the summary; the README is folded. */
static void test_campaign_summary(void)
{
    char *alpha = read_in("site1", "campaigns/alpha/index.md");
    CU_ASSERT_PTR_NOT_NULL_FATAL(alpha);
    CU_ASSERT_PTR_NOT_NULL(strstr(alpha, "\n## Summary\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(alpha, "\n| [scale](#experiment-scale) | scopred | uncertain | "
                                         "12 | 0 | 20 | \xE2\x80\x94 (no intervals) | 8 of 12 |\n"));
    /* The predictions table, key columns first: np = 32 at ant measured
     * 36.75 s (the mean of its runs), estimated 1.2 times that, 44.1 s,
     * PI +-5% 41.895 to 46.305 s: +20% and outside the model's PI; no
     * calibrated interval to be inside of. */
    CU_ASSERT_PTR_NOT_NULL(strstr(alpha, "\n| 32 processes, N=1000 on ant | 44.1 s | \xE2\x80\x94 | 36.75 s | "
                                         "+20.0 | \xE2\x80\x94 | 41.89 s \xE2\x80\x93 46.31 s | "
                                         "**outside** | "));
    /* np = 128 was not measured and the oracle flags it as an extrapolation
     * (training range): the flag is its note 1, under the table. */
    CU_ASSERT_PTR_NOT_NULL(strstr(alpha, "\n| 128 processes, N=1000 on ant | 1 s | "));
    CU_ASSERT_PTR_NOT_NULL(strstr(alpha, " | 0 | 1 |\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(alpha, "\n1. The model flags this prediction as an "
                                         "extrapolation"));
    CU_ASSERT_PTR_NULL(strstr(alpha, "## Contents"));
    /* Its opening lines: the oracle gives no calibrated interval and no
     * distance, so the headline is the first target, np = 16 and N = 1000:
     * estimate = measured = (68.175 + 66.825) / 2 = 67.5 s, PI +-5%:
     * 64.125 s (1 min 4 s) to 70.875 s (1 min 11 s). */
    const char *head = strstr(alpha, "- **Headline prediction:** scale, 16 processes, N=1000 on ant: ");
    CU_ASSERT_PTR_NOT_NULL(head);
    CU_ASSERT_PTR_NOT_NULL(head ? strstr(head, "model's 95% PI 1 min 4 s \xE2\x80\x93 "
                                               "1 min 11 s; measured 1 min 8 s.\n") : NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(alpha, "- **Verdict:** "));
    CU_ASSERT_PTR_NOT_NULL(strstr(alpha, "- **Best model on the held-out runs:** "));
    /* The summary comes before the README and the experiment. */
    const char *sum = strstr(alpha, "## Summary"), *desc = strstr(alpha, "## Description");
    CU_ASSERT_TRUE(sum && desc && sum < desc);
    CU_ASSERT_PTR_NOT_NULL(desc ? strstr(desc, "## Description\n\n<details>\n<summary>The "
                                               "campaign&#39;s README.md</summary>\n\n> ")
                                : NULL);
    free(alpha);
    /* In the HTML, the summary is the first section, the README closed. */
    char *html = read_in("site1", "campaigns/alpha/index.html");
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    const char *h2 = strstr(html, "<h2");
    CU_ASSERT_TRUE(h2 && strncmp(h2, "<h2 id=\"summary\">", 17) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "<details>\n<summary>The campaign&#39;s README.md</summary>"));
    CU_ASSERT_EQUAL(count(html, "<details open"), 0);
    free(html);
}

/* --base-url makes the feed's links absolute; an alert missing from the
 * previous build's alerts.csv is marked new, and only then. */
static void test_alerts_base_url_and_new(void)
{
    site_data d;
    CU_ASSERT_TRUE_FATAL(load(&d));
    char out[512], err[512], path[600];
    path_in(out, sizeof out, "site-feed");
    site_options opt = {.out_dir = out, .templates_dir = "templates",
                        .source_date_epoch = 1700000000, .jobs = 2, .fail_after = -1,
                        .base_url = "https://example.org/perf"};
    site_stats st;
    CU_ASSERT_TRUE_FATAL(site_write(&d, &opt, &st, err, sizeof err));
    char *xml = read_in("site-feed", "alerts.xml");
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<feed xmlns=\"http://www.w3.org/2005/Atom\" "
                                       "xml:base=\"https://example.org/perf\">"));
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "rel=\"self\" type=\"application/atom+xml\" "
                                       "href=\"https://example.org/perf/alerts.xml\""));
    CU_ASSERT_EQUAL(count(xml, "<link href=\"https://example.org/perf/campaigns/"), 4);
    free(xml);
    /* A first build calls nothing new. */
    char *md = read_in("site-feed", "alerts.md");
    /* (no known condition: the oracle's clusters are not oversubscribed) */
    CU_ASSERT_EQUAL(count(md, " | 2024-03-06 |  | new |\n"), 0);
    CU_ASSERT_EQUAL(count(md, " | 2024-03-06 |  |  |\n"), 4);
    free(md);
    /* Drop the first alert from the previous build's CSV: it is new now. */
    char *csv = read_in("site-feed", "alerts.csv");
    char *first = strchr(csv, '\n') + 1, *second = strchr(first, '\n') + 1;
    memmove(first, second, strlen(second) + 1);
    snprintf(path, sizeof path, "%s/alerts.csv", out);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, csv));
    free(csv);
    CU_ASSERT_TRUE_FATAL(site_write(&d, &opt, &st, err, sizeof err));
    md = read_in("site-feed", "alerts.md");
    CU_ASSERT_EQUAL(count(md, " | 2024-03-06 |  | new |\n"), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(md, "1 of the 4 open alerts is new since the previous build."));
    free(md);
    site_data_free(&d);
}

/* Every .html, .svg and .xml has no script element and no event handler,
 * and every .md stays inert even in a viewer that renders raw HTML. */
static void check_inert(const snapshot *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const snap_file *f = &s->f[i];
        size_t n = strlen(f->path);
        const char *text = f->bytes ? f->bytes : "";
        if (n > 3 && (!strcmp(f->path + n - 4, ".svg") || !strcmp(f->path + n - 4, ".xml") ||
                      (n > 5 && !strcmp(f->path + n - 5, ".html")))) {
            CU_ASSERT_EQUAL(count(text, "<script"), 0);
            CU_ASSERT_EQUAL(count(text, "<img src=x"), 0);
            CU_ASSERT_EQUAL(count(text, "href=\"javascript:"), 0);
        } else if (n > 3 && !strcmp(f->path + n - 3, ".md")) {
            char *html = cmark_markdown_to_html(text, f->len, CMARK_OPT_UNSAFE);
            bool inert = count(html, "<script") == 0 && count(html, "<img src=\"x\"") == 0 &&
                         count(html, "href=\"javascript:") == 0 && count(html, "<b>") == 0;
            if (!inert)
                fprintf(stderr, "\n%s is not inert in a permissive viewer\n", f->path);
            CU_ASSERT_TRUE(inert);
            free(html);
        }
    }
}

static void test_archive_strings_inert(void)
{
    char out[512];
    path_in(out, sizeof out, "site1");
    snapshot s = snap(out);
    CU_ASSERT_TRUE(s.n > 40);
    check_inert(&s);
    const snap_file *cluster = NULL;
    for (size_t i = 0; i < s.n; i++)
        if (!strncmp(s.f[i].path, "clusters/script-", 16) && strstr(s.f[i].path, "index.html"))
            cluster = &s.f[i];
    CU_ASSERT_PTR_NOT_NULL_FATAL(cluster);
    CU_ASSERT_PTR_NOT_NULL(strstr(cluster->bytes, "<h1 id=\"cluster-scriptalert1script\">Cluster "
                                                  "&lt;script&gt;alert(1)&lt;/script&gt;</h1>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(cluster->bytes, "&lt;img src=x onerror=alert(1)&gt;"));
    /* The README's raw HTML is shown as text. */
    const snap_file *beta = snap_find(&s, "campaigns/beta/index.html");
    CU_ASSERT_PTR_NOT_NULL_FATAL(beta);
    CU_ASSERT_PTR_NOT_NULL(strstr(beta->bytes, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    CU_ASSERT_PTR_NOT_NULL(strstr(beta->bytes, "<h2 id=\"experiment-cannot_fit\">"));
    snap_free(&s);
}

static void test_failures_are_shown(void)
{
    char *beta = read_in("site1", "campaigns/beta/index.md");
    char *broken = read_in("site1", "campaigns/broken/index.md");
    char *index = read_in("site1", "index.md");
    char *advice = read_in("site1", "advice/scenario-2.md");
    CU_ASSERT_PTR_NOT_NULL(strstr(beta, "This experiment could not be fitted:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(beta, "the train filter selects no measured run"));
    CU_ASSERT_PTR_NOT_NULL(strstr(broken, "runs.csv:2:1: unknown cluster"));
    CU_ASSERT_PTR_NOT_NULL(strstr(index, "left out: 1 problem"));
    CU_ASSERT_PTR_NOT_NULL(strstr(index, "1 of 1 experiments not fitted"));
    CU_ASSERT_PTR_NOT_NULL(strstr(advice, "unknown cluster 'nowhere'"));
    free(beta), free(broken), free(index), free(advice);
}

static void test_deterministic(void)
{
    site_data d;
    CU_ASSERT_TRUE_FATAL(load(&d));
    char out1[512], out2[512], err[512];
    path_in(out1, sizeof out1, "site1");
    path_in(out2, sizeof out2, "site2");
    site_stats st;
    CU_ASSERT_TRUE_FATAL(write_site(&d, out2, -1, &st, err, sizeof err));
    snapshot a = snap(out1), b = snap(out2);
    CU_ASSERT_TRUE(same_tree(&a, &b, false));
    snap_free(&a), snap_free(&b);
    site_data_free(&d);
}

static void test_rebuild_writes_nothing(void)
{
    site_data d;
    CU_ASSERT_TRUE_FATAL(load(&d));
    char out[512], err[512];
    path_in(out, sizeof out, "site1");
    snapshot before = snap(out);
    site_stats st;
    CU_ASSERT_TRUE_FATAL(write_site(&d, out, -1, &st, err, sizeof err));
    CU_ASSERT_EQUAL(st.files_written, 0);
    CU_ASSERT_EQUAL(st.charts_drawn, 0);
    CU_ASSERT_EQUAL(st.files_kept + 1, before.n); /* all but the manifest, compared apart */
    snapshot after = snap(out);
    CU_ASSERT_TRUE(same_tree(&before, &after, true));
    snap_free(&before), snap_free(&after);
    site_data_free(&d);
}

/* One new run in beta rewrites beta's page, the index and the lists that
 * show dates, and the report of the cluster it ran on (ant: dated by its
 * newest run); alpha's pages and charts and the cluster pages are kept as
 * they were. */
static void test_change_rewrites_what_it_touches(void)
{
    char out[512], err[512], runs[1024];
    path_in(out, sizeof out, "site1");
    snapshot before = snap(out);
    snprintf(runs, sizeof runs, "%s/beta/runs.csv", archive_dir);
    FILE *f = fopen(runs, "a");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("ant,8,100,1.9,2024-05-01\n", f);
    fclose(f);
    site_data d;
    CU_ASSERT_TRUE_FATAL(load(&d));
    site_stats st;
    CU_ASSERT_TRUE_FATAL(write_site(&d, out, -1, &st, err, sizeof err));
    CU_ASSERT_EQUAL(st.charts_drawn, 0);
    CU_ASSERT_TRUE(st.files_written > 0 && st.files_written < 25);
    snapshot after = snap(out);
    size_t rewritten = 0;
    for (size_t i = 0; i < after.n; i++) {
        const snap_file *a = &after.f[i], *b = snap_find(&before, a->path);
        bool kept = b && a->inode == b->inode;
        rewritten += !kept;
        if (!strcmp(a->path, "clusters/ant/report.pdf")) {
            CU_ASSERT_FALSE(kept);
        } else if (!strncmp(a->path, "campaigns/alpha/", 16) || !strncmp(a->path, "clusters/", 9)) {
            if (!kept)
                fprintf(stderr, "\nrewritten: %s\n", a->path);
            CU_ASSERT_TRUE(kept);
        }
    }
    CU_ASSERT_EQUAL(rewritten, st.files_written + 1); /* + the manifest */
    const snap_file *beta = snap_find(&after, "campaigns/beta/runs.csv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(beta);
    CU_ASSERT_PTR_NOT_NULL(strstr(beta->bytes, "2024-05-01"));
    snap_free(&before), snap_free(&after);
    site_data_free(&d);
}

static bool has_build_dir(const char *parent)
{
    DIR *d = opendir(parent);
    bool found = false;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL)
        found |= strstr(de->d_name, ".build-") != NULL;
    if (d)
        closedir(d);
    return found;
}

static void test_failed_build_keeps_old_site(void)
{
    site_data d;
    CU_ASSERT_TRUE_FATAL(load(&d));
    /* A change, so the failed build would have written something new. */
    d.camps[0].exps[0].res.rep.preds[0].estimate *= 2;
    char out[512], err[512];
    path_in(out, sizeof out, "site1");
    snapshot before = snap(out);
    site_stats st;
    for (long after = 0; after < 40; after += 13) {
        CU_ASSERT_FALSE(write_site(&d, out, after, &st, err, sizeof err));
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "fault injection"));
        snapshot now = snap(out);
        CU_ASSERT_TRUE(same_tree(&before, &now, true));
        snap_free(&now);
        CU_ASSERT_FALSE(has_build_dir(work));
    }
    snap_free(&before);
    site_data_free(&d);
}

static void test_output_folder_rules(void)
{
    site_data d;
    CU_ASSERT_TRUE_FATAL(load(&d));
    char dir[512], file[600], err[512];
    site_stats st;
    /* A folder that is not a site is never replaced. */
    path_in(dir, sizeof dir, "mine");
    snprintf(file, sizeof file, "%s/notes.txt", dir);
    CU_ASSERT_TRUE(testutil_write_file(file, "precious\n"));
    CU_ASSERT_FALSE(write_site(&d, dir, -1, &st, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a perfcast site"));
    char *kept = fileio_read_file(file, NULL);
    CU_ASSERT_STRING_EQUAL(kept ? kept : "", "precious\n");
    free(kept);
    /* site/ as committed (.gitignore and README.md) is, and keeps them. */
    path_in(dir, sizeof dir, "placeholder");
    snprintf(file, sizeof file, "%s/.gitignore", dir);
    CU_ASSERT_TRUE(testutil_write_file(file, "*\n!.gitignore\n!README.md\n"));
    snprintf(file, sizeof file, "%s/README.md", dir);
    CU_ASSERT_TRUE(testutil_write_file(file, "# site/\n"));
    CU_ASSERT_TRUE(write_site(&d, dir, -1, &st, err, sizeof err));
    CU_ASSERT_TRUE(write_site(&d, dir, -1, &st, err, sizeof err));
    snapshot s = snap(dir);
    CU_ASSERT_PTR_NOT_NULL(snap_find(&s, ".gitignore"));
    CU_ASSERT_PTR_NOT_NULL(snap_find(&s, "README.md"));
    CU_ASSERT_PTR_NOT_NULL(snap_find(&s, "index.html"));
    const snap_file *m = snap_find(&s, ".perfcast-manifest");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(count(m->bytes, "README.md"), 0);
    snap_free(&s);
    site_data_free(&d);
}

static void test_verify_catches_problems(void)
{
    char out[512], file[700];
    path_in(out, sizeof out, "site2");
    snprintf(file, sizeof file, "%s/index.html", out);
    char *html = fileio_read_file(file, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    /* A broken link, an unclosed element, a script: three problems. */
    char *p = strstr(html, "alerts.html");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    memcpy(p, "alertz.html", 11);
    size_t n = strlen(html);
    char *bad = malloc(n + 64);
    char *main_end = strstr(html, "</main>");
    CU_ASSERT_PTR_NOT_NULL_FATAL(main_end);
    size_t head = (size_t)(main_end - html);
    memcpy(bad, html, head);
    strcpy(bad + head, "<p><script></script><em></p>");
    strcat(bad, html + head);
    CU_ASSERT_TRUE(testutil_write_file(file, bad));
    snprintf(file, sizeof file, "%s/campaigns/alpha/scale-scaling.png", out);
    CU_ASSERT_TRUE(testutil_write_file(file, "\x89PNG but not really"));
    /* A report cut short: its header, no %%EOF. */
    snprintf(file, sizeof file, "%s/report.pdf", out);
    CU_ASSERT_TRUE(testutil_write_file(file, "%PDF-1.5\n1 0 obj << /Type /Catalog"));
    site_report r;
    CU_ASSERT_FALSE(site_verify(out, &r));
    bool link = false, xml = false, script = false, png = false, pdf = false;
    for (size_t i = 0; i < r.nproblems; i++) {
        link |= strstr(r.problems[i], "alertz.html") != NULL;
        xml |= strstr(r.problems[i], "mismatched end tag") != NULL;
        script |= strstr(r.problems[i], "<script>") != NULL;
        png |= strstr(r.problems[i], "scale-scaling.png: not a PNG") != NULL;
        pdf |= strstr(r.problems[i], "report.pdf: not a whole PDF") != NULL;
    }
    CU_ASSERT_TRUE(link && xml && script && png && pdf);
    site_report_free(&r);
    free(html);
    free(bad);
}

static void test_site_out_paths(void)
{
    char out[512], err[256];
    path_in(out, sizeof out, "paths");
    site_out *o = site_out_begin(out, NULL, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_FALSE(site_out_write(o, "../escape.txt", "x", 1));
    CU_ASSERT_PTR_NOT_NULL(strstr(site_out_error(o), "invalid site path"));
    site_out_abort(o);
    o = site_out_begin(out, NULL, err, sizeof err);
    CU_ASSERT_TRUE(site_out_write(o, "a/b.txt", "x", 1));
    CU_ASSERT_FALSE(site_out_write(o, "a//c.txt", "x", 1));
    site_out_abort(o);
    o = site_out_begin(out, NULL, err, sizeof err);
    CU_ASSERT_TRUE(site_out_write(o, "same.txt", "x", 1));
    CU_ASSERT_FALSE(site_out_write(o, "same.txt", "y", 1));
    CU_ASSERT_FALSE(site_out_commit(o, err, sizeof err)); /* written twice */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "written twice"));
    struct stat sb;
    CU_ASSERT_NOT_EQUAL(stat(out, &sb), 0);
}

/* ------------------------------------------------------------------ */
/* The multicore error summary (Table II of Delgado et al., seed 003)  */

/* Runs of a known product law with seed 003's factors (models/multicore.h)
 * z_procs = 1/(nodes*ppn) and z_platform = 1/pc, computed here by hand:
 *     T = 200 (0.2 + 0.8 z_procs) (0.5 + 0.5 z_platform),
 * each run times 1 + a fixed wiggle so that the errors are neither zero
 * nor all equal. Two data sets (the second with a ':', a '|', a ',' and
 * HTML in its name) on two platforms; one configuration measured twice and
 * one to predict. */
static const char *const mc_datasets[] = {"WRF 300x300x4", "d:1|<b>x</b>, y"};
static const struct { const char *name; double pc; } mc_platforms[] = {{"ant", 1.0}, {"bee", 1.6}};

static double mc_law(double nodes, double ppn, double pc)
{
    return 200 * (0.2 + 0.8 / (nodes * ppn)) * (0.5 + 0.5 / pc);
}

static void mc_append_run(char *buf, size_t len, const char *dataset, const char *cluster,
                          double nodes, double ppn, const char *time, int rep)
{
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s,\"%s\",%g,%g,%g,%s,%d\n", cluster, dataset, nodes * ppn,
             nodes, ppn, time, rep);
}

static void write_multicore_archive(const char *dir)
{
    static const double wiggle[] = {0.03, -0.02, 0.05, -0.04, 0.01, 0.0, -0.015};
    char path[1024], runs[8192] = "cluster,dataset,np,nodes,ppn,time_s,rep\n", time[64];
    size_t k = 0;
    for (size_t ds = 0; ds < 2; ds++)
        for (size_t p = 0; p < 2; p++)
            for (double nodes = 1; nodes <= 4; nodes *= 2)
                for (double ppn = 1; ppn <= 2; ppn++) {
                    double t = mc_law(nodes, ppn, mc_platforms[p].pc) * (1 + wiggle[k++ % 7]);
                    snprintf(time, sizeof time, "%.6f", t);
                    mc_append_run(runs, sizeof runs, mc_datasets[ds], mc_platforms[p].name, nodes,
                                  ppn, time, 1);
                }
    snprintf(time, sizeof time, "%.6f", mc_law(1, 1, 1.0) * 0.97);
    mc_append_run(runs, sizeof runs, mc_datasets[0], "ant", 1, 1, time, 2);
    mc_append_run(runs, sizeof runs, mc_datasets[0], "bee", 8, 2, "", 1);
    snprintf(path, sizeof path, "%s/clusters.csv", dir);
    CU_ASSERT_FATAL(testutil_write_file(path, "cluster,cores_per_node,platform_contribution\n"
                                              "ant,4,1.0\nbee,8,1.6\n"));
    snprintf(path, sizeof path, "%s/mc/runs.csv", dir);
    CU_ASSERT_FATAL(testutil_write_file(path, runs));
    snprintf(path, sizeof path, "%s/mc/experiments.csv", dir);
    CU_ASSERT_FATAL(testutil_write_file(path, "name,model,formula,train,target\n"
                                              "fit,multicore,procs * platform,,np >= 1\n"));
    snprintf(path, sizeof path, "%s/mc/README.md", dir);
    CU_ASSERT_FATAL(testutil_write_file(path, "Synthetic runs of a known law (test only).\n"));
}

/* One row of Table II: what the section shows, or what the test expects. */
typedef struct {
    char dataset[64], platform[16];
    double n, mean, min, max;
} mc_row;

static int csv_col(const csv_row *header, const char *name)
{
    for (size_t i = 0; i < header->nfields; i++)
        if (strcmp(header->fields[i].text, name) == 0)
            return (int)i;
    return -1;
}

/* Equation (3), 100 |measured - predicted| / measured, recomputed from the
 * predictions CSV and summarised per (data set, platform) in the order the
 * groups first appear. Returns the number of rows. */
static size_t expected_rows(const char *pred_csv, mc_row *rows, size_t cap)
{
    csv_doc doc;
    diag_list dl;
    diag_init(&dl);
    CU_ASSERT_TRUE_FATAL(csv_parse_buffer(pred_csv, strlen(pred_csv), "predictions", &doc, &dl));
    diag_free(&dl);
    int ds = csv_col(&doc.rows[0], "dataset"), cl = csv_col(&doc.rows[0], "cluster");
    int est = csv_col(&doc.rows[0], "estimate"), meas = csv_col(&doc.rows[0], "measured");
    CU_ASSERT_FATAL(ds >= 0 && cl >= 0 && est >= 0 && meas >= 0);
    size_t n = 0;
    for (size_t r = 1; r < doc.nrows; r++) {
        const csv_field *f = doc.rows[r].fields;
        if (!f[meas].text[0])
            continue;
        double m = strtod(f[meas].text, NULL), e = strtod(f[est].text, NULL);
        double err = 100 * fabs(m - e) / m;
        size_t g = 0;
        while (g < n && (strcmp(rows[g].dataset, f[ds].text) || strcmp(rows[g].platform, f[cl].text)))
            g++;
        if (g == n) {
            CU_ASSERT_FATAL(n < cap);
            rows[n] = (mc_row){.min = INFINITY, .max = -INFINITY};
            snprintf(rows[n].dataset, sizeof rows[n].dataset, "%s", f[ds].text);
            snprintf(rows[n].platform, sizeof rows[n].platform, "%s", f[cl].text);
            n++;
        }
        rows[g].n++;
        rows[g].mean += err; /* a sum until the end */
        rows[g].min = fmin(rows[g].min, err);
        rows[g].max = fmax(rows[g].max, err);
    }
    for (size_t g = 0; g < n; g++)
        rows[g].mean /= rows[g].n;
    csv_doc_free(&doc);
    return n;
}

/* The rows of the section's CSV. */
static size_t csv_rows(const char *csv, mc_row *rows, size_t cap)
{
    csv_doc doc;
    diag_list dl;
    diag_init(&dl);
    CU_ASSERT_TRUE_FATAL(csv_parse_buffer(csv, strlen(csv), "error summary", &doc, &dl));
    diag_free(&dl);
    static const char *const header[] = {"dataset", "platform", "configurations",
                                         "mean_error_pct", "min_error_pct", "max_error_pct"};
    CU_ASSERT_EQUAL_FATAL(doc.rows[0].nfields, 6);
    for (size_t i = 0; i < 6; i++)
        CU_ASSERT_STRING_EQUAL(doc.rows[0].fields[i].text, header[i]);
    size_t n = 0;
    for (size_t r = 1; r < doc.nrows && n < cap; r++, n++) {
        const csv_field *f = doc.rows[r].fields;
        CU_ASSERT_EQUAL_FATAL(doc.rows[r].nfields, 6);
        snprintf(rows[n].dataset, sizeof rows[n].dataset, "%s", f[0].text);
        snprintf(rows[n].platform, sizeof rows[n].platform, "%s", f[1].text);
        double *v[] = {&rows[n].n, &rows[n].mean, &rows[n].min, &rows[n].max};
        for (size_t i = 0; i < 4; i++)
            *v[i] = strtod(f[2 + i].text, NULL);
    }
    csv_doc_free(&doc);
    return n;
}

/* The text of the next body cell (<td>, or <th> for a row's key column)
 * from *s on, HTML entities decoded. */
static void html_cell(const char **s, char *out, size_t len)
{
    static const struct { const char *entity, *c; } entities[] = {
        {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}, {"&quot;", "\""}};
    const char *td = strstr(*s, "<td"), *th = strstr(*s, "<th");
    const char *p = td && (!th || td < th) ? td : th;
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    const char *close = p == td ? "</td>" : "</th>";
    p = strchr(p, '>') + 1;
    const char *end = strstr(p, close);
    size_t k = 0;
    while (p < end && k + 1 < len) {
        size_t e = 0;
        while (e < 4 && strncmp(p, entities[e].entity, strlen(entities[e].entity)) != 0)
            e++;
        if (e < 4) {
            out[k++] = entities[e].c[0];
            p += strlen(entities[e].entity);
        } else
            out[k++] = *p++;
    }
    out[k] = '\0';
    *s = end + 5;
}

/* The rows of the section's table on the HTML page. */
static size_t html_rows(const char *html, mc_row *rows, size_t cap)
{
    const char *s = strstr(html, "id=\"error-summary-table-ii-of-delgado-et-al\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    s = strstr(s, "<tbody>");
    const char *end = s ? strstr(s, "</tbody>") : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(end);
    size_t n = 0;
    while (n < cap && (s = strstr(s, "<tr>")) != NULL && s < end) {
        char cell[128];
        html_cell(&s, rows[n].dataset, sizeof rows[n].dataset);
        html_cell(&s, rows[n].platform, sizeof rows[n].platform);
        double *v[] = {&rows[n].n, &rows[n].mean, &rows[n].min, &rows[n].max};
        for (size_t i = 0; i < 4; i++) {
            html_cell(&s, cell, sizeof cell);
            *v[i] = strtod(cell, NULL);
        }
        n++;
    }
    return n;
}

static bool close_to(double a, double b, double abs_tol, double rel_tol)
{
    return fabs(a - b) <= abs_tol + rel_tol * fabs(b);
}

/* Same groups in the same order with the same numbers, the errors within
 * abs_tol (percentage points) plus rel_tol (relative). */
static void check_rows(const char *what, const mc_row *got, size_t ngot, const mc_row *want,
                       size_t nwant, double abs_tol, double rel_tol)
{
    CU_ASSERT_EQUAL_FATAL(ngot, nwant);
    for (size_t i = 0; i < nwant; i++) {
        const mc_row *g = &got[i], *w = &want[i];
        bool ok = strcmp(g->dataset, w->dataset) == 0 && strcmp(g->platform, w->platform) == 0 &&
                  g->n == w->n && close_to(g->mean, w->mean, abs_tol, rel_tol) &&
                  close_to(g->min, w->min, abs_tol, rel_tol) && close_to(g->max, w->max, abs_tol, rel_tol);
        if (!ok)
            fprintf(stderr, "\n%s row %zu: %s on %s: n %g mean %.10g min %.10g max %.10g; "
                    "want %s on %s: n %g mean %.10g min %.10g max %.10g\n", what, i, g->dataset,
                    g->platform, g->n, g->mean, g->min, g->max, w->dataset, w->platform, w->n,
                    w->mean, w->min, w->max);
        CU_ASSERT_TRUE(ok);
    }
}

static void test_multicore_error_summary(void)
{
    char dir[512], out[512], err[512];
    path_in(dir, sizeof dir, "mcarchive");
    path_in(out, sizeof out, "mcsite");
    write_multicore_archive(dir);
    site_data d;
    bool loaded = site_data_load(&d, dir, 1700000000, NULL, NULL, err, sizeof err);
    CU_ASSERT_TRUE_FATAL(loaded);
    CU_ASSERT_EQUAL_FATAL(d.ncamps, 1);
    CU_ASSERT_EQUAL_FATAL(d.camps[0].nexps, 1);
    CU_ASSERT_TRUE_FATAL(d.camps[0].exps[0].res.ok);
    site_stats st;
    CU_ASSERT_TRUE_FATAL(write_site(&d, out, -1, &st, err, sizeof err));
    site_report r;
    bool clean = site_verify(out, &r);
    for (size_t i = 0; i < r.nproblems; i++)
        fprintf(stderr, "\n%s", r.problems[i]);
    CU_ASSERT_TRUE(clean);
    site_report_free(&r);
    snapshot s = snap(out);
    check_inert(&s);
    const snap_file *md = snap_find(&s, "campaigns/mc/index.md");
    const snap_file *html = snap_find(&s, "campaigns/mc/index.html");
    const snap_file *sum = snap_find(&s, "campaigns/mc/fit-error-summary.csv");
    const snap_file *pred = snap_find(&s, "campaigns/mc/fit-predictions.csv");
    const snap_file *fit = snap_find(&s, "campaigns/mc/fit-fit.csv");
    CU_ASSERT_FATAL(md && html && sum && pred && fit);
    /* The section, its equation and its CSV linked under the table. */
    CU_ASSERT_EQUAL(count(md->bytes, "\n### Error summary (Table II of Delgado et al.)\n"), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(md->bytes, "100 \\|measured \xE2\x88\x92 predicted\\| / measured, "
                                             "the paper's equation (3)"));
    const char *table_end = strstr(md->bytes, "\n\nData: [fit-error-summary.csv](fit-error-summary.csv)");
    CU_ASSERT_TRUE(table_end && table_end > strstr(md->bytes, "### Error summary"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html->bytes, "<a href=\"fit-error-summary.csv\">"));
    /* The archive string is escaped, pipe and all. */
    CU_ASSERT_PTR_NOT_NULL(strstr(html->bytes, "<th scope=\"row\" data-label=\"configuration\">"
                                               "1 process, dataset=d:1|&lt;b&gt;x&lt;/b&gt;, y "
                                               "on ant</th>"));
    /* The per-group stats left the goodness-of-fit table; the overall ones stay. */
    static const char *const grouped[] = {"err_mean:", "err_min:", "err_max:", "err_n:"};
    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT_PTR_NULL(strstr(md->bytes, grouped[i]));
        CU_ASSERT_PTR_NULL(strstr(fit->bytes, grouped[i]));
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(fit->bytes, "\nerr_mean,"));
    /* Its rows and numbers: equation (3) recomputed from the predictions CSV. */
    mc_row want[8], got[8];
    size_t nwant = expected_rows(pred->bytes, want, 8);
    CU_ASSERT_EQUAL_FATAL(nwant, 4);
    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT_STRING_EQUAL(want[i].dataset, mc_datasets[i / 2]);
        CU_ASSERT_STRING_EQUAL(want[i].platform, mc_platforms[i % 2].name);
        CU_ASSERT_EQUAL(want[i].n, 6); /* the twice-measured one counts once, the unmeasured not */
        CU_ASSERT_TRUE(want[i].max > 0.5 && want[i].min < want[i].mean && want[i].mean < want[i].max);
    }
    /* The predictions CSV has 10 significant digits: its errors are good to
     * about 1e-8 points; the page shows 4 significant digits. */
    check_rows("CSV", got, csv_rows(sum->bytes, got, 8), want, nwant, 1e-6, 0);
    check_rows("HTML", got, html_rows(html->bytes, got, 8), want, nwant, 0, 6e-4);
    /* Not on the pages of other models. */
    char *alpha = read_in("site1", "campaigns/alpha/index.md");
    CU_ASSERT_PTR_NOT_NULL(alpha);
    CU_ASSERT_PTR_NULL(strstr(alpha ? alpha : "", "Error summary"));
    free(alpha);
    /* A rebuild writes nothing. */
    CU_ASSERT_TRUE(write_site(&d, out, -1, &st, err, sizeof err));
    CU_ASSERT_EQUAL(st.files_written, 0);
    snap_free(&s);
    site_data_free(&d);
}

/* ------------------------------------------------------------------ */
/* Published predictions on the cluster pages                          */

/* Two clusters with rates 1.5 and 2 in one currency; three runs with a
 * printed prediction (one split 8 + 4 over both clusters) and one
 * without, which the section leaves out. No experiment at all. */
static void write_published_archive(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/clusters.csv", dir);
    CU_ASSERT_FATAL(testutil_write_file(path, "cluster,rate_per_core_hour,currency\n"
                                              "east,1.5,cr\nwest,2,cr\n"));
    snprintf(path, sizeof path, "%s/pub/runs.csv", dir);
    CU_ASSERT_FATAL(testutil_write_file(
        path, "cluster,np,np_a,np_b,tag_cluster_b,tag_layout,tag_source,time_s,"
              "published_prediction_s\n"
              "east,8,,,,single,\"t<b>1</b>|x\",900,1000\n"
              "west,4,,,,single,t2,1800,1620\n"
              "east,12,8,4,west,multicluster,t3,3600,3000\n"
              "east,16,,,,single,t4,1200,\n"));
    snprintf(path, sizeof path, "%s/pub/experiments.csv", dir);
    CU_ASSERT_FATAL(testutil_write_file(path, "name,model,response,formula,train,target,title,options\n"));
    snprintf(path, sizeof path, "%s/pub/README.md", dir);
    CU_ASSERT_FATAL(testutil_write_file(path, "Published pairs only (test).\n"));
}

/* A row of published.csv, or what the test expects of one. */
typedef struct {
    const char *source; /* tag_source, which names the run */
    const char *cluster_b;
    double measured, predicted, error_pct, ch_measured, cost_measured, ch_predicted,
        cost_predicted;
} pub_row;

/* Hand-derived: core-hours = np*T/3600, cost = core-hours * rate
 * (east 1.5, west 2); the split run: 8 on east and 4 on west,
 * measured 3600 s: 8 + 4 = 12 core-hours, 8*1.5 + 4*2 = 20 cr;
 * predicted 3000 s: 6.667 + 3.333 = 10 core-hours, 10 + 6.667 = 16.67 cr. */
static const pub_row pub_east[] = {
    {"t<b>1</b>|x", "", 900, 1000, 100.0 / 9, 2, 3, 20.0 / 9, 10.0 / 3},
    {"t3", "west", 3600, 3000, -100.0 / 6, 12, 20, 10, 50.0 / 3}};
static const pub_row pub_west[] = {
    {"t2", "", 1800, 1620, -10, 2, 4, 1.8, 3.6},
    {"t3", "west", 3600, 3000, -100.0 / 6, 12, 20, 10, 50.0 / 3}};

static void check_published_csv(const char *csv, const pub_row *want, size_t nwant)
{
    csv_doc doc;
    diag_list dl;
    diag_init(&dl);
    CU_ASSERT_TRUE_FATAL(csv_parse_buffer(csv, strlen(csv), "published", &doc, &dl));
    diag_free(&dl);
    CU_ASSERT_EQUAL_FATAL(doc.nrows, nwant + 1);
    static const char *const num_cols[] = {"measured_s", "predicted_s", "error_pct",
                                           "core_hours_measured", "cost_measured",
                                           "core_hours_predicted", "cost_predicted"};
    int conf = csv_col(&doc.rows[0], "configuration"), cb = csv_col(&doc.rows[0], "cluster_b");
    int camp = csv_col(&doc.rows[0], "campaign"), cur = csv_col(&doc.rows[0], "currency");
    CU_ASSERT_FATAL(conf >= 0 && cb >= 0 && camp >= 0 && cur >= 0);
    for (size_t i = 0; i < nwant; i++) {
        const csv_field *f = doc.rows[i + 1].fields;
        char source[64];
        snprintf(source, sizeof source, "tag_source=%s", want[i].source);
        CU_ASSERT_PTR_NOT_NULL(strstr(f[conf].text, source));
        CU_ASSERT_STRING_EQUAL(f[cb].text, want[i].cluster_b);
        CU_ASSERT_STRING_EQUAL(f[camp].text, "pub");
        CU_ASSERT_STRING_EQUAL(f[cur].text, "cr");
        const double *v = &want[i].measured;
        for (size_t k = 0; k < 7; k++) {
            int c = csv_col(&doc.rows[0], num_cols[k]);
            CU_ASSERT_FATAL(c >= 0);
            double got = strtod(f[c].text, NULL);
            if (!close_to(got, v[k], 0, 1e-9))
                fprintf(stderr, "\n%s of %s: %.10g, want %.10g\n", num_cols[k], want[i].source,
                        got, v[k]);
            CU_ASSERT_TRUE(close_to(got, v[k], 0, 1e-9));
        }
    }
    csv_doc_free(&doc);
}

static void check_published_page(const snapshot *s, const char *cluster, const pub_row *want,
                                 size_t nwant)
{
    char path[256];
    snprintf(path, sizeof path, "clusters/%s/index.md", cluster);
    const snap_file *md = snap_find(s, path);
    snprintf(path, sizeof path, "clusters/%s/index.html", cluster);
    const snap_file *html = snap_find(s, path);
    snprintf(path, sizeof path, "clusters/%s/published.csv", cluster);
    const snap_file *csv = snap_find(s, path);
    CU_ASSERT_FATAL(md && html && csv);
    const char *head = strstr(md->bytes, "\n## Published predictions (from the papers)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(head);
    /* The cost section stays, and points here since no experiment predicts. */
    const char *cost = strstr(md->bytes, "\n## Cost of the predicted runs\n");
    CU_ASSERT_TRUE(cost && cost < head);
    CU_ASSERT_PTR_NOT_NULL(strstr(md->bytes, "No experiment predicts a run on this cluster yet; "
                                             "the predictions its papers printed are costed"));
    /* One table row per run, the CSV linked under the table. */
    CU_ASSERT_EQUAL(count(head, " | [pub](../../campaigns/pub/index.md) |\n"), nwant);
    const char *link = strstr(head, "\n\nData: [published.csv](published.csv)");
    CU_ASSERT_TRUE(link && strstr(link + 2, "\n|") == NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(html->bytes, "<a href=\"published.csv\">"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html->bytes, "<a href=\"../../campaigns/pub/index.html\">pub</a>"));
    /* The split run's page cells: times as durations (3600 s, 3000 s),
     * costs to two decimals with the currency, all hand-derived; no
     * interval, since the paper printed only two other predictions. */
    CU_ASSERT_PTR_NOT_NULL(strstr(head, "| 1 h 00 min | 50 min 0 s | \xE2\x80\x94 | -16.7 | "
                                        "\xE2\x80\x94 | not verified | 20.00 cr | 16.67 cr | "
                                        "\xE2\x80\x94 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(head, "east, np=12, np_a=8, np_b=4, tag_cluster_b=west, "
                                        "tag_layout=multicluster, tag_source=t3"));
    check_published_csv(csv->bytes, want, nwant);
}

static void test_published_predictions(void)
{
    char dir[512], out[512], err[512];
    path_in(dir, sizeof dir, "pubarchive");
    path_in(out, sizeof out, "pubsite");
    write_published_archive(dir);
    site_data d;
    CU_ASSERT_TRUE_FATAL(site_data_load(&d, dir, 1700000000, NULL, NULL, err, sizeof err));
    CU_ASSERT_EQUAL(d.npublished, 3);
    site_stats st;
    CU_ASSERT_TRUE_FATAL(write_site(&d, out, -1, &st, err, sizeof err));
    site_report r;
    bool clean = site_verify(out, &r);
    for (size_t i = 0; i < r.nproblems; i++)
        fprintf(stderr, "\n%s", r.problems[i]);
    CU_ASSERT_TRUE(clean);
    site_report_free(&r);
    snapshot s = snap(out);
    check_inert(&s);
    check_published_page(&s, "east", pub_east, 2);
    check_published_page(&s, "west", pub_west, 2);
    /* The archive string is escaped, pipe and all (the configuration is
     * the row's header cell). */
    const snap_file *east = snap_find(&s, "clusters/east/index.html");
    CU_ASSERT_PTR_NOT_NULL(strstr(east->bytes, "tag_source=t&lt;b&gt;1&lt;/b&gt;|x</th>"));
    CU_ASSERT_PTR_NULL(strstr(east->bytes, "<b>1</b>"));
    CU_ASSERT_TRUE(write_site(&d, out, -1, &st, err, sizeof err));
    CU_ASSERT_EQUAL(st.files_written, 0);
    snap_free(&s);
    site_data_free(&d);
}

/* The published run of rj-strip from seed 000 Table II with this layout,
 * problem size and cluster (NULL: none). */
static const site_published *table_ii_run(const site_data *d, const char *layout, double n,
                                          const char *cluster)
{
    for (size_t i = 0; i < d->npublished; i++) {
        const site_published *p = &d->published[i];
        const table *t = &d->camps[p->camp].camp->runs;
        const char *src = table_text_named(t, p->row, "tag_source");
        const char *lay = table_text_named(t, p->row, "tag_layout");
        if (strcmp(d->camps[p->camp].name, "rj-strip") == 0 && src && lay &&
            strcmp(src, "table_II") == 0 && strcmp(lay, layout) == 0 &&
            table_number_named(t, p->row, "na") == n &&
            strcmp(d->clusters[p->cluster].info->name, cluster) == 0)
            return p;
    }
    return NULL;
}

/* Seed 000 Table II (Scenario 2, A at 1 unit and B at 2 units per
 * core-hour): the 65536^2 job over 32 + 32 processes predicted 1686.0 s,
 * 32*1686/3600*(1 + 2) = 44.96 units; the 32768^2 job on 32 processes of
 * B over Myrinet predicted 259.5 s, 32*259.5/3600*2 = 4.613 units: the
 * combined run costs about 9.75 times as much. */
static void test_published_table_ii(void)
{
    site_data d;
    char err[512];
    CU_ASSERT_TRUE_FATAL(site_data_load(&d, "archive", 1700000000, oracle, NULL, err, sizeof err));
    const site_published *both = table_ii_run(&d, "multicluster", 65536, "wrg2-ethernet");
    const site_published *b = table_ii_run(&d, "single", 32768, "wrg3-myrinet");
    CU_ASSERT_FATAL(both && b);
    CU_ASSERT_STRING_EQUAL(d.clusters[both->cluster_b].info->name, "wrg3-ethernet");
    CU_ASSERT_DOUBLE_EQUAL(both->at_predicted.cost, 44.96, 0.005);
    CU_ASSERT_DOUBLE_EQUAL(b->at_predicted.cost, 4.613, 0.0005);
    CU_ASSERT_DOUBLE_EQUAL(both->at_predicted.cost / b->at_predicted.cost, 9.75, 0.01);
    CU_ASSERT_EQUAL(b->cluster_b, -1);
    site_data_free(&d);
}

static int setup(void)
{
    if (!testutil_temp_dir(work, sizeof work))
        return 1;
    snprintf(archive_dir, sizeof archive_dir, "%s/archive", work);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cp -r tests/fixtures/site/basic '%s'", archive_dir);
    return system(cmd) != 0;
}

int main(void)
{
    if (setup() != 0) {
        fprintf(stderr, "cannot set up %s\n", work);
        return 2;
    }
    static const testutil_test tests[] = {
        {"every page, chart and CSV, and every link resolves", test_pages_charts_and_links},
        {"alerts and the Atom feed follow the prediction intervals", test_alerts_and_feed},
        {"alerts: --base-url links and new since the previous build", test_alerts_base_url_and_new},
        {"campaign summary of measured accuracy", test_campaign_summary},
        {"archive strings stay inert (HTML, SVG, XML, any Markdown viewer)", test_archive_strings_inert},
        {"a failed fit and a left-out campaign say why", test_failures_are_shown},
        {"two builds are byte-identical", test_deterministic},
        {"a rebuild with the same input writes no file", test_rebuild_writes_nothing},
        {"a new run rewrites only what it touches", test_change_rewrites_what_it_touches},
        {"a failed build leaves the previous site", test_failed_build_keeps_old_site},
        {"output folders: never a foreign one, placeholders kept", test_output_folder_rules},
        {"the verifier catches broken links, bad XML, scripts, bad PNGs", test_verify_catches_problems},
        {"site paths stay inside the site", test_site_out_paths},
        {"a multicore experiment's Table II error summary follows equation (3)",
         test_multicore_error_summary},
        {"published predictions and their cost on both clusters' pages", test_published_predictions},
        {"seed 000 Table II costs of the published predictions", test_published_table_ii},
        {NULL, NULL}};
    static const testutil_suite suites[] = {{"site", tests}, {NULL, NULL}};
    int rc = testutil_run_suites(suites);
    plot_release_fonts();
    testutil_remove_dir(work);
    return rc;
}
