/*
 * test_nightly.c — the nightly regeneration recipe (.ci/nightly, run by
 * `make nightly`): pull, check, build, publish atomically. Run on a scratch
 * copy of the embedded archive: the published path is a symbolic link to a
 * complete release; a pull that imports new runs shows up in the next
 * release; a broken archive stops the night and leaves the published site
 * as it was; old releases are pruned to --keep. A night with nothing new
 * reads, fits, draws and writes nothing (the new release is the old one's
 * files, hard-linked); one new run redraws only the charts it feeds.
 * --publish naming anything but a symbolic link is refused before anything
 * is built; the script finds the repository's perfcast without PATH.
 */
#include "tests/testutil.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256], bin[PATH_MAX], root[PATH_MAX];

static int nightly(char **out, const char *args)
{
    return testutil_run_commandf(out, "cd %s && PERFCAST=%s %s/.ci/nightly %s 2>&1", dir, bin,
                                 root, args);
}

/* Where public points now (malloc'ed), or NULL. */
static char *published(void)
{
    char path[512], target[PATH_MAX];
    snprintf(path, sizeof path, "%s/public", dir);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0)
        return NULL;
    target[n] = '\0';
    return strdup(target);
}

static bool published_has(const char *file)
{
    char path[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/public/%s", dir, file);
    return stat(path, &st) == 0;
}

static void test_publish_and_prune(void)
{
    char *out = NULL, readme[512];
    snprintf(readme, sizeof readme, "%s/archive/README.md", dir);
    for (int night = 0; night < 3; night++) {
        /* Something new each night (a night with nothing new publishes
         * nothing: test_incremental_nights). */
        FILE *f = fopen(readme, "a");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        fprintf(f, "\nNight %d.\n", night);
        fclose(f);
        int rc = nightly(&out, "--keep 1");
        if (rc != 0)
            fprintf(stderr, "\n%s\n", out ? out : "");
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        free(out);
    }
    CU_ASSERT_TRUE(published_has("index.html"));
    CU_ASSERT_TRUE(published_has("campaigns"));
    char *link = published();
    CU_ASSERT_PTR_NOT_NULL_FATAL(link);
    CU_ASSERT_EQUAL(strncmp(link, "public.releases/", 16), 0);
    /* The current release and one more. */
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "ls %s/public.releases | wc -l", dir), 0);
    CU_ASSERT_EQUAL(out ? atoi(out) : -1, 2);
    free(out);
    free(link);
}

/* The files of release b whose inode is not the one they have in release
 * a (new or rewritten), one path a line (malloc'ed); NULL on failure. */
static char *changed_files(const char *a, const char *b)
{
    char *out = NULL;
    int rc = testutil_run_commandf(
        &out,
        "cd %s && (cd %s && find . -type f -printf '%%P %%i\\n' | LC_ALL=C sort) > inodes-a.txt && "
        "(cd %s && find . -type f -printf '%%P %%i\\n' | LC_ALL=C sort) > inodes-b.txt && "
        "LC_ALL=C comm -13 inodes-a.txt inodes-b.txt | cut -d' ' -f1",
        dir, a, b);
    if (rc != 0) {
        free(out);
        return NULL;
    }
    return out ? out : strdup("");
}

/* Append line to scopred-ep's runs.csv; returns the file as it was
 * (malloc'ed), NULL when it cannot be read. */
static char *append_to_runs(const char *line)
{
    char path[512];
    snprintf(path, sizeof path, "%s/archive/scopred-ep/runs.csv", dir);
    char *runs = testutil_read_file(path);
    char *more = runs ? malloc(strlen(runs) + strlen(line) + 2) : NULL;
    if (more) {
        sprintf(more, "%s%s\n", runs, line);
        testutil_write_file(path, more);
    }
    free(more);
    return runs;
}

/* A checksum of every file of a release, in path order (malloc'ed). */
static char *release_sum(const char *release)
{
    char *out = NULL;
    testutil_run_commandf(&out, "cd %s/%s && find . -type f | LC_ALL=C sort | xargs cat | md5sum",
                          dir, release);
    return out;
}

/* Lines of text containing both a and b. */
static size_t count_lines(const char *text, const char *a, const char *b)
{
    size_t n = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *copy = strndup(line, len);
        n += copy && strstr(copy, a) && strstr(copy, b);
        free(copy);
        line = end ? end + 1 : line + len;
    }
    return n;
}

/* The build's summary line in a night's output: charts drawn, files
 * written, pages rendered. */
static bool build_counts(const char *out, size_t *drawn, size_t *written, size_t *rendered)
{
    const char *p = out ? strstr(out, " charts (") : NULL;
    const char *r = p ? strstr(p, " alerts; ") : NULL;
    return p && r && sscanf(p, " charts (%zu drawn), %zu files written", drawn, written) == 2 &&
           sscanf(r, " alerts; %zu pages rendered", rendered) == 1;
}

/* Counts, not timings: a night with nothing new publishes nothing (the
 * release built from the same inputs stays: nothing read but to check it,
 * nothing fitted, drawn or written); one new run of class B on 16 nodes of
 * scopred-ep goes into a new release made of links to the last one's
 * files, and is fed only to its experiments table2b (target: class B,
 * np >= 12) and table4 (target: class B, np >= 8): their 2 x 3 charts are
 * redrawn, the campaign's 15 other charts and every other campaign's are
 * the very files (inodes) of the last release, and only pages whose
 * Markdown changed are rendered again. */
static void test_incremental_nights(void)
{
    char *out = NULL, *quiet = published();
    CU_ASSERT_PTR_NOT_NULL_FATAL(quiet);
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "ls %s/public.releases | wc -l", dir), 0);
    int releases = out ? atoi(out) : -1;
    free(out);
    CU_ASSERT_EQUAL_FATAL(nightly(&out, ""), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "nothing new"));
    CU_ASSERT_PTR_NULL(out && strstr(out, "nightly: build"));
    free(out);
    char *same = published();
    CU_ASSERT_PTR_NOT_NULL_FATAL(same);
    CU_ASSERT_STRING_EQUAL(same, quiet);
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "ls %s/public.releases | wc -l", dir), 0);
    CU_ASSERT_EQUAL(out ? atoi(out) : -1, releases);
    free(out);
    free(same);

    char *runs = append_to_runs("scopred-local16,npb-ep,16,16,1073741824,B,table1,17.40,,3,one more run");
    CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
    free(runs);
    char *sum_before = release_sum(quiet);
    CU_ASSERT_EQUAL_FATAL(nightly(&out, ""), 0);
    /* The files shared with the new release were replaced there, not
     * written into: the previous release has its bytes. */
    char *sum_after = release_sum(quiet);
    CU_ASSERT_PTR_NOT_NULL(sum_before);
    CU_ASSERT_TRUE(sum_before && sum_after && strcmp(sum_before, sum_after) == 0);
    free(sum_before);
    free(sum_after);
    size_t drawn = 99, written = 99, rendered = 99;
    CU_ASSERT_TRUE(build_counts(out, &drawn, &written, &rendered));
    CU_ASSERT_EQUAL(drawn, 6);
    /* Pages are rendered again only when their Markdown changed: the
     * campaign's and the front page; the other 23 are kept unrendered.
     * The alerts page is not among them: alerts follow the calibrated
     * interval, and table4's class-B np=16 (measured 17.38 s, calibrated
     * 95% PI 14.94-18.92 s) stays inside it with the new run (mean 17.39 s). */
    CU_ASSERT_EQUAL(rendered, 2);
    CU_ASSERT_PTR_NULL(out && strstr(out, "inputs unchanged"));
    /* Made from the published release (build --previous), not a copy. */
    char from[1024];
    snprintf(from, sizeof from, " from ./%s\n", quiet); /* dirname of public */
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, from));
    free(out);
    char *night = published();
    CU_ASSERT_PTR_NOT_NULL_FATAL(night);
    char *changed = changed_files(quiet, night);
    CU_ASSERT_PTR_NOT_NULL_FATAL(changed);
    /* Every file written has a new inode, and the manifest and the cache
     * of fits (gen/site/site_fitcache.h: the new run's campaign refitted);
     * no other. */
    CU_ASSERT_EQUAL(count_lines(changed, "", ""), written + 2);
    CU_ASSERT_EQUAL(count_lines(changed, ".perfcast-fits", ""), 1);
    CU_ASSERT_EQUAL(count_lines(changed, ".html", ""), rendered);
    CU_ASSERT_EQUAL(count_lines(changed, "campaigns/scopred-ep/index.html", ""), 1);
    CU_ASSERT_EQUAL(count_lines(changed, ".png", ""), 6);
    CU_ASSERT_EQUAL(count_lines(changed, ".svg", ""), 6);
    CU_ASSERT_EQUAL(count_lines(changed, "campaigns/scopred-ep/table2b-", ".png"), 3);
    CU_ASSERT_EQUAL(count_lines(changed, "campaigns/scopred-ep/table4-", ".svg"), 3);
    CU_ASSERT_EQUAL(count_lines(changed, "campaigns/", ""),
                    count_lines(changed, "campaigns/scopred-ep/", ""));
    free(changed);
    free(night);
    free(quiet);
}

/* The pull step brings in new runs (an import); the next release has them. */
static void test_pull_imports(void)
{
    char *out = NULL;
    char args[3 * PATH_MAX];
    snprintf(args, sizeof args,
             "--pull '%s import extrap %s/tests/fixtures/import/real/extrap_strong_scaling.txt "
             "--map x=np --campaign nightly-demo --cluster ci-2core'", bin, root);
    int rc = nightly(&out, args);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "grep -rl nightly-demo %s/public/index.html", dir), 0);
    free(out);
}

/* A broken archive, a failing pull, a killed build: exit 1, the published
 * link and its files unchanged, nothing left behind. */
static void test_failure_keeps_site(void)
{
    char *before = published();
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    char path[512], *out = NULL;
    snprintf(path, sizeof path, "%s/archive/scopred-ep/runs.csv", dir);
    char *runs = append_to_runs("scopred-local16,not-a-row");
    CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
    CU_ASSERT_EQUAL(nightly(&out, ""), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "runs.csv:"));          /* FILE:LINE:COL */
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "the published site is unchanged"));
    free(out);
    char *after = published();
    CU_ASSERT_PTR_NOT_NULL_FATAL(after);
    CU_ASSERT_STRING_EQUAL(before, after);
    CU_ASSERT_TRUE(published_has("index.html"));
    /* A failing pull stops the night too. */
    testutil_write_file(path, runs);
    CU_ASSERT_EQUAL(nightly(&out, "--pull false"), 1);
    free(out);
    CU_ASSERT_EQUAL(nightly(&out, "--bogus"), 2);
    free(out);
    /* A build killed half way (SIGKILL: perfcast cannot clean up): the
     * night fails, and neither the release nor the staging folder perfcast
     * made it in is left in public.releases (ls -A, hidden ones too). */
    char *listed = NULL, *listed_after = NULL;
    testutil_run_commandf(&listed, "ls -A %s/public.releases", dir);
    free(append_to_runs("scopred-local16,npb-ep,16,16,1073741824,B,table1,17.41,,3,killed night"));
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "cd %s && PERFCAST_FAIL_AFTER=20 "
                                                "PERFCAST_FAIL_KILL=1 PERFCAST=%s %s/.ci/nightly 2>&1",
                                          dir, bin, root),
                    1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "the build failed"));
    free(out);
    testutil_run_commandf(&listed_after, "ls -A %s/public.releases", dir);
    CU_ASSERT_TRUE(listed && listed_after && strcmp(listed, listed_after) == 0);
    testutil_write_file(path, runs);
    char *still = published();
    CU_ASSERT_TRUE(still && strcmp(still, before) == 0);
    free(still);
    free(listed);
    free(listed_after);
    free(before);
    free(after);
    free(runs);
}

/* --publish naming a regular file or a folder: refused at once (exit 2),
 * before anything is checked or built, and no release is left behind. */
static void test_publish_not_a_link(void)
{
    char path[512], *out = NULL;
    snprintf(path, sizeof path, "%s/site-file", dir);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, "not a link\n"));
    snprintf(path, sizeof path, "%s/site-folder/index.html", dir);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, "<p>by hand</p>\n"));
    static const char *const targets[] = {"site-file", "site-folder"};
    for (size_t i = 0; i < 2; i++) {
        char args[64];
        snprintf(args, sizeof args, "--publish %s", targets[i]);
        CU_ASSERT_EQUAL(nightly(&out, args), 2);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "not the symbolic link the nightly switches"));
        CU_ASSERT_PTR_NULL(out && strstr(out, "nightly: build"));
        CU_ASSERT_PTR_NULL(out && strstr(out, "nightly: check"));
        free(out);
        /* Nothing built, nothing left behind. */
        snprintf(path, sizeof path, "%s/%s.releases", dir, targets[i]);
        struct stat st;
        CU_ASSERT_NOT_EQUAL(stat(path, &st), 0);
    }
    snprintf(path, sizeof path, "%s/site-file", dir);
    char *kept = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(kept && strcmp(kept, "not a link\n") == 0 ? kept : NULL);
    free(kept);
}

/* A copy of .ci/nightly in repo/.ci of the scratch folder (malloc'ed
 * path), with repo/build/plain/perfcast linked to the binary under test
 * when with_build. */
static char *nightly_copy(const char *repo, bool with_build)
{
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "cd %s && rm -rf %s && mkdir -p %s/.ci && cp %s/.ci/nightly "
                                         "%s/.ci/",
                                   dir, repo, repo, root, repo);
    free(out);
    if (rc != 0)
        return NULL;
    if (with_build) {
        rc = testutil_run_commandf(&out, "cd %s && mkdir -p %s/build/plain && ln -s %s "
                                         "%s/build/plain/perfcast",
                                   dir, repo, bin, repo);
        free(out);
        if (rc != 0)
            return NULL;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/.ci/nightly", dir, repo);
    return strdup(path);
}

/* Run as the README shows it (no PERFCAST, perfcast not on PATH): the
 * repository's build/plain/perfcast beside the script is found; without
 * one, the night stops naming perfcast, not blaming the archive. */
static void test_finds_perfcast_without_path(void)
{
    char *script = nightly_copy("repo", true), *out = NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(script);
    int rc = testutil_run_commandf(&out, "cd %s && env -u PERFCAST PATH=/usr/bin:/bin %s "
                                         "--archive archive --publish public 2>&1",
                                   dir, script);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NULL(out && strstr(out, "check found problems"));
    free(out);
    free(script);
    script = nightly_copy("bare", false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(script);
    rc = testutil_run_commandf(&out, "cd %s && env -u PERFCAST PATH=/usr/bin:/bin %s "
                                     "--archive archive --publish public 2>&1",
                               dir, script);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "cannot run perfcast"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "set PERFCAST="));
    CU_ASSERT_PTR_NULL(out && strstr(out, "check found problems"));
    CU_ASSERT_PTR_NULL(out && strstr(out, "nightly: check"));
    free(out);
    free(script);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"publish atomically, prune old releases", test_publish_and_prune},
        {"nothing new: nothing redone; one new run: only its charts", test_incremental_nights},
        {"the pull step imports new runs", test_pull_imports},
        {"a failing night leaves the site", test_failure_keeps_site},
        {"--publish not a link: refused before building", test_publish_not_a_link},
        {"perfcast found without PATH, or named when missing", test_finds_perfcast_without_path},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"nightly", tests}, {NULL, NULL}};
    char *out = NULL;
    if (!testutil_temp_dir(dir, sizeof dir) || !realpath(testutil_perfcast(), bin) ||
        !realpath(".", root) ||
        testutil_run_commandf(&out, "cp -r archive templates %s/", dir) != 0)
        return 1;
    free(out);
    int status = testutil_run_suites(suites);
    testutil_remove_dir(dir);
    return status;
}
