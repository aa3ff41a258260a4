/*
 * test_site.c — the site writer in process, on tests/fixtures/site/basic
 * with an oracle in place of the models (so what the pages must show is
 * known): every page, chart and CSV is there and checks out
 * (gen/site_verify.h), archive strings stay inert even in a permissive
 * Markdown viewer, failed fits and left-out campaigns say why, alerts
 * match the oracle, builds are byte-identical, a rebuild writes nothing,
 * a change rewrites only what it touches, and a failed build leaves the
 * previous site as it was.
 */
#include "gen/experiment.h"
#include "gen/fileio.h"
#include "gen/site.h"
#include "gen/site_data.h"
#include "gen/site_out.h"
#include "gen/site_verify.h"
#include "render/plot.h"
#include "tests/testutil.h"

#include <cmark.h>
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
        report_prediction p = {i, est, est * 0.99, est * 1.01, est * 0.95, est * 1.05,
                               isnan(m), NULL};
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
    /* index, alerts, advice x3, 3 campaigns, 3 clusters */
    CU_ASSERT_EQUAL(st.pages, 11);
    CU_ASSERT_EQUAL(st.campaigns, 3);
    CU_ASSERT_EQUAL(st.skipped_campaigns, 1);
    CU_ASSERT_EQUAL(st.failed_experiments, 1);
    site_report r;
    bool clean = site_verify(out, &r);
    for (size_t i = 0; i < r.nproblems; i++)
        fprintf(stderr, "\n%s", r.problems[i]);
    CU_ASSERT_TRUE(clean);
    CU_ASSERT_EQUAL(r.pages, 11);
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
 * clusters); the measured ones with odd index have both runs outside. */
static size_t expected_alerts(const site_data *d)
{
    size_t n = 0;
    for (size_t c = 0; c < d->ncamps; c++)
        for (size_t e = 0; e < d->camps[c].nexps; e++) {
            const experiment_input *in = &d->camps[c].exps[e].res.input;
            if (!d->camps[c].exps[e].res.ok)
                continue;
            for (size_t t = 1; t < in->ntargets; t += 2)
                n += in->targets[t].nmeasured;
        }
    return n;
}

static void test_alerts_and_feed(void)
{
    site_data d;
    CU_ASSERT_TRUE_FATAL(load(&d));
    size_t want = expected_alerts(&d);
    /* Per cluster and N the targets are np = 16, 32, 64, 128 in that order;
     * the odd ones are 32 (measured twice) and 128 (to predict): 4 x 2. */
    CU_ASSERT_EQUAL(want, 8);
    CU_ASSERT_EQUAL(d.nalerts, want);
    char *csv = read_in("site1", "alerts.csv"), *xml = read_in("site1", "alerts.xml");
    CU_ASSERT_EQUAL(count(csv, "\n"), want + 1);
    CU_ASSERT_EQUAL(count(xml, "<entry>"), want);
    CU_ASSERT_EQUAL(count(xml, "<updated>2024-03-"), want); /* each run's own date */
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
    CU_ASSERT_EQUAL(ids, want);
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    free(csv);
    free(xml);
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
 * show dates; alpha's pages and charts are kept as they were. */
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
        if (!strncmp(a->path, "campaigns/alpha/", 16) || !strncmp(a->path, "clusters/", 9)) {
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
    site_report r;
    CU_ASSERT_FALSE(site_verify(out, &r));
    bool link = false, xml = false, script = false, png = false;
    for (size_t i = 0; i < r.nproblems; i++) {
        link |= strstr(r.problems[i], "alertz.html") != NULL;
        xml |= strstr(r.problems[i], "mismatched end tag") != NULL;
        script |= strstr(r.problems[i], "<script>") != NULL;
        png |= strstr(r.problems[i], "scale-scaling.png: not a PNG") != NULL;
    }
    CU_ASSERT_TRUE(link && xml && script && png);
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
    CU_ASSERT_TRUE(site_out_write(o, "same.txt", "y", 1));
    CU_ASSERT_FALSE(site_out_commit(o, err, sizeof err)); /* written twice */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "written twice"));
    struct stat sb;
    CU_ASSERT_NOT_EQUAL(stat(out, &sb), 0);
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
        {"archive strings stay inert (HTML, SVG, XML, any Markdown viewer)", test_archive_strings_inert},
        {"a failed fit and a left-out campaign say why", test_failures_are_shown},
        {"two builds are byte-identical", test_deterministic},
        {"a rebuild with the same input writes no file", test_rebuild_writes_nothing},
        {"a new run rewrites only what it touches", test_change_rewrites_what_it_touches},
        {"a failed build leaves the previous site", test_failed_build_keeps_old_site},
        {"output folders: never a foreign one, placeholders kept", test_output_folder_rules},
        {"the verifier catches broken links, bad XML, scripts, bad PNGs", test_verify_catches_problems},
        {"site paths stay inside the site", test_site_out_paths},
        {NULL, NULL}};
    static const testutil_suite suites[] = {{"site", tests}, {NULL, NULL}};
    int rc = testutil_run_suites(suites);
    plot_release_fonts();
    testutil_remove_dir(work);
    return rc;
}
