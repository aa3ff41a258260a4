/*
 * test_site_safety.c — what `perfcast build` may and may not do to the
 * output folder and how it reports failure (issue 10, items 1, 11-13):
 *   - everything perfcast did not write (.git/, .ssh/, docs/, a file
 *     beside the pages or inside a campaign folder, a link, an empty
 *     folder) survives rebuilds byte for byte, mode and inode, also when
 *     campaigns are removed; checked with find and sha256sum, not with the
 *     writer's own code;
 *   - a folder holding only hidden entries is built into and keeps them;
 *     a folder with other files and no manifest is refused; a page whose
 *     place is taken by a user's file stops the build before any change;
 *   - a page or chart changed in place at the same size is found by
 *     site_verify and rewritten by the next build;
 *   - perfcast's own hidden file (the cache of fits) comes with the
 *     commit, never under a page's name, and fails no build;
 *   - a build killed while moving files into place leaves a manifest that
 *     claims every file it may have placed, and the next build finishes;
 *   - exit status 1 (not 2, which is usage) for a bad clusters.csv, a
 *     read-only output folder and an unwritable stdout;
 *   - an --out that is, holds or lies inside the archive is refused;
 *   - one bad experiment: its campaign is still published with the other
 *     experiment fitted and the error shown; --strict exits 1.
 */
#include "gen/base/fileio.h"
#include "gen/site/site_out.h"
#include "gen/site/site_verify.h"
#include "tests/testutil.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char work[256];

static const char fixture[] = "tests/fixtures/site/basic";

/* The entries paths (relative to dir, every one below them) as find and
 * sha256sum see them: type, mode, size, inode and link target of each,
 * the hash of each file. Caller frees. */
static char *tree_state(const char *dir, const char *paths)
{
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "cd '%s' && find %s -printf '%%p %%y %%m %%s %%i %%l\\n' "
                                         "| sort && find %s -type f -exec sha256sum {} + | sort",
                                   dir, paths, paths);
    CU_ASSERT_EQUAL(rc, 0);
    return out;
}

static const char user_paths[] =
    ".git .ssh .nojekyll docs notes.txt latest campaigns/alpha/mine.txt";

/* Files and folders a user adds to a built site. */
static void add_user_files(const char *site)
{
    int rc = testutil_run_commandf(
        NULL,
        "cd '%s' && mkdir -p .git/objects/ab .git/refs/heads .ssh docs/sub docs/empty && "
        "printf 'ref: refs/heads/gh-pages\\n' > .git/HEAD && "
        "printf 'x\\000\\001\\002binary' > .git/objects/ab/cdef0123 && "
        "chmod 444 .git/objects/ab/cdef0123 && printf 'abc\\n' > .git/refs/heads/gh-pages && "
        "printf 'secret key\\n' > .ssh/id_ed25519 && chmod 600 .ssh/id_ed25519 && "
        "chmod 700 .ssh && : > .nojekyll && printf '# Guide\\n\\nPlain words.\\n' > docs/guide.md "
        "&& printf '\\377\\376 bytes' > docs/sub/data.bin && printf 'my notes\\n' > notes.txt "
        "&& ln -s index.html latest && printf 'about alpha\\n' > campaigns/alpha/mine.txt",
        site);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
}

static int build(char **out, const char *archive, const char *site, const char *extra)
{
    return testutil_perfcast_run(out, "build --archive '%s' --out '%s' %s", archive, site, extra);
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Is a staging folder left in work (other than the user's look-alike)? */
static bool staging_left(void)
{
    return testutil_run_commandf(NULL, "ls -A '%s' | grep -v '^\\.site1\\.build-99999999$' | "
                                       "grep -q '\\.build-'", work) == 0;
}

/* work/archN, a copy of the fixture, built into work/siteN. */
static void fresh_site(int n, char archive[512], char site[512])
{
    snprintf(archive, 512, "%s/arch%d", work, n);
    snprintf(site, 512, "%s/site%d", work, n);
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(NULL, "cp -r %s '%s'", fixture, archive), 0);
    CU_ASSERT_EQUAL_FATAL(build(NULL, archive, site, "--quiet"), 0);
}

static void test_user_files_survive(void)
{
    char archive[512], site[512], path[700];
    fresh_site(1, archive, site);
    add_user_files(site);
    /* A user's folder beside the site named like a staging folder of a
     * build no longer running (but without its mark) is not removed. */
    snprintf(path, sizeof path, "%s/.site1.build-99999999/keep.txt", work);
    CU_ASSERT_TRUE(testutil_write_file(path, "mine\n"));
    char *before = tree_state(site, user_paths);
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    /* The same input again, with --verify: the user's files are no problem. */
    char *out = NULL;
    CU_ASSERT_EQUAL(build(&out, archive, site, "--verify"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "0 files written"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "; 0 problems"));
    free(out);
    char *after = tree_state(site, user_paths);
    CU_ASSERT_STRING_EQUAL(after, before);
    free(after);
    /* Changed input: beta leaves the archive, alpha gets a run. Pages are
     * rewritten and beta's removed; the user's files stay as they were,
     * and campaigns/alpha keeps mine.txt. */
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "rm -r '%s/beta' && echo "
                                                "'ant,toy,64,1000,19.5,3,2024-06-01,' >> "
                                                "'%s/alpha/runs.csv'", archive, archive), 0);
    CU_ASSERT_EQUAL(build(&out, archive, site, "--verify"), 0);
    CU_ASSERT_PTR_NULL(strstr(out, " 0 files written"));
    free(out);
    after = tree_state(site, user_paths);
    CU_ASSERT_STRING_EQUAL(after, before);
    free(after);
    snprintf(path, sizeof path, "%s/campaigns/beta", site);
    CU_ASSERT_FALSE(exists(path)); /* emptied by the build, so removed */
    snprintf(path, sizeof path, "%s/.site1.build-99999999/keep.txt", work);
    CU_ASSERT_TRUE(exists(path));
    snprintf(path, sizeof path, "%s/campaigns/alpha/index.html", site);
    CU_ASSERT_TRUE(exists(path));
    free(before);
}

static void test_hidden_only_folder(void)
{
    char site[512], path[700];
    snprintf(site, sizeof site, "%s/clone", work);
    /* A fresh clone of a pages branch: nothing but .git/. It is built into
     * and .git/ is kept, byte for byte. */
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(NULL, "mkdir -p '%s/.git/objects' '%s/.ssh' && "
                                                      "printf 'x' > '%s/.git/objects/aa' && "
                                                      "printf 'k' > '%s/.ssh/key'",
                                                site, site, site, site), 0);
    char *before = tree_state(site, ".git .ssh");
    CU_ASSERT_EQUAL(build(NULL, fixture, site, "--quiet"), 0);
    char *after = tree_state(site, ".git .ssh");
    CU_ASSERT_STRING_EQUAL(after ? after : "", before ? before : "-");
    snprintf(path, sizeof path, "%s/index.html", site);
    CU_ASSERT_TRUE(exists(path));
    free(before), free(after);
    /* A folder with a visible file and no manifest is not a site: refused,
     * exit 1, untouched. */
    snprintf(site, sizeof site, "%s/mine", work);
    snprintf(path, sizeof path, "%s/data.txt", site);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, "precious\n"));
    char *out = NULL;
    CU_ASSERT_EQUAL(build(&out, fixture, site, "--quiet"), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "not a perfcast site"));
    free(out);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "test \"$(ls -A '%s')\" = data.txt", site), 0);
}

static void test_place_taken(void)
{
    char archive[512], site[512], path[700];
    fresh_site(2, archive, site);
    /* The user wrote campaigns/gamma/index.html; then gamma joins the
     * archive: perfcast will not overwrite the user's page. */
    snprintf(path, sizeof path, "%s/campaigns/gamma/index.html", site);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, "<p>mine</p>\n"));
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(NULL, "cp -a '%s' '%s.before' && cp -r "
                                                      "'%s/alpha' '%s/gamma'",
                                                site, site, archive, archive), 0);
    char *out = NULL;
    CU_ASSERT_EQUAL(build(&out, archive, site, "--quiet"), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "campaigns/gamma/index.html exists and perfcast did not "
                                       "write it"));
    free(out);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "diff -r '%s' '%s.before'", site, site), 0);
    CU_ASSERT_FALSE(staging_left());
}

/* A user moved campaigns/beta out of the site and left a link in its
 * place: perfcast neither writes nor removes anything through it. */
static void test_links_not_followed(void)
{
    char archive[512], site[512], outside[512];
    snprintf(outside, sizeof outside, "%s/outside", work);
    fresh_site(6, archive, site);
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(NULL, "mv '%s/campaigns/beta' '%s' && ln -s '%s' "
                                                      "'%s/campaigns/beta'",
                                                site, outside, outside, site), 0);
    char *before = tree_state(outside, "."), *after = NULL;
    /* beta changes: its page would be written through the link. */
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "sed -i 's/^cannot_fit,/cannot_fit2,/' "
                                                "'%s/beta/experiments.csv'", archive), 0);
    char *out = NULL;
    CU_ASSERT_EQUAL(build(&out, archive, site, "--quiet"), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "campaigns/beta is not a folder"));
    free(out);
    /* beta leaves the archive: its files are not removed through the link. */
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "rm -r '%s/beta'", archive), 0);
    CU_ASSERT_EQUAL(build(NULL, archive, site, "--quiet"), 0);
    after = tree_state(outside, ".");
    CU_ASSERT_STRING_EQUAL(after ? after : "", before ? before : "-");
    free(before), free(after);
}

/* Overwrite len bytes at offset of a file, keeping its size. */
static void patch(const char *path, long offset, const char *bytes)
{
    FILE *f = fopen(path, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fseek(f, offset, SEEK_SET), 0);
    CU_ASSERT_EQUAL(fwrite(bytes, 1, strlen(bytes), f), strlen(bytes));
    fclose(f);
}

static bool has_problem(const site_report *r, const char *text)
{
    for (size_t i = 0; i < r->nproblems; i++)
        if (strstr(r->problems[i], text))
            return true;
    return false;
}

static void test_same_size_change(void)
{
    char site[512], fresh[512], page[700], chart[700];
    snprintf(site, sizeof site, "%s/site3", work);
    snprintf(fresh, sizeof fresh, "%s/site3-fresh", work);
    CU_ASSERT_EQUAL_FATAL(build(NULL, fixture, site, "--quiet"), 0);
    CU_ASSERT_EQUAL_FATAL(build(NULL, fixture, fresh, "--quiet"), 0);
    snprintf(page, sizeof page, "%s/campaigns/alpha/index.md", site);
    snprintf(chart, sizeof chart, "%s/campaigns/alpha/scale-scaling.png", site);
    struct stat before, after;
    CU_ASSERT_EQUAL_FATAL(stat(page, &before), 0);
    patch(page, 2, "XY");
    patch(chart, 200, "\x01\x02\x03");
    CU_ASSERT_EQUAL_FATAL(stat(page, &after), 0);
    CU_ASSERT_EQUAL(after.st_size, before.st_size);
    site_report r;
    CU_ASSERT_FALSE(site_verify(site, &r));
    CU_ASSERT_TRUE(has_problem(&r, "campaigns/alpha/index.md: changed since perfcast wrote it"));
    CU_ASSERT_TRUE(has_problem(&r, "scale-scaling.png: changed since perfcast wrote it"));
    site_report_free(&r);
    /* The next build puts back both: it compares content, not sizes. The
     * chart is drawn again; its SVG, still intact, stays where it is (the
     * same bytes), its PNG and the page are written. */
    char *out = NULL;
    CU_ASSERT_EQUAL(build(&out, fixture, site, "--verify"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "(1 drawn), 2 files written"));
    free(out);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "diff -r '%s' '%s'", site, fresh), 0);
}

/* ------------------------------------------------------------------ */
/* Killed while moving files into place (site_out directly)             */

static bool write_files(const char *dir, const char *const *files, long kill_after, char *err,
                        size_t errlen)
{
    site_out_options opt = {.fail_after = -1, .kill_after_moves = kill_after};
    site_out *o = site_out_begin(dir, &opt, err, errlen);
    if (!o)
        return false;
    for (size_t i = 0; files[i]; i += 2)
        site_out_write(o, files[i], files[i + 1], strlen(files[i + 1]));
    return site_out_commit(o, err, errlen);
}

static bool file_is(const char *dir, const char *name, const char *text)
{
    char *path = fileio_join(dir, name);
    char *got = path ? fileio_read_file(path, NULL) : NULL;
    bool same = got && strcmp(got, text) == 0;
    free(got);
    free(path);
    return same;
}

/* perfcast's own hidden file beside the pages (the cache of fits):
 * staged, then put in place by the commit, with a new folder or in
 * place; refused under a page's or perfcast's other names; a build that
 * fails leaves the previous one; one whose place is a folder or a link
 * fails nothing and leaves it. */
static bool stage_and_commit(const char *out_dir, const char *previous, const char *text,
                             bool *placed)
{
    char err[512];
    site_out_options opt = {.fail_after = -1, .previous_dir = previous};
    site_out *o = site_out_begin(out_dir, &opt, err, sizeof err);
    if (!o)
        return false;
    site_out_write(o, "a.txt", text, strlen(text));
    /* In three parts (one empty): the file is their bytes in order. */
    fileio_part parts[] = {{text, 1}, {text + 1, 0}, {text + 1, strlen(text) - 1}};
    bool staged = site_out_stage_private(o, ".own", parts, 3, placed);
    return site_out_commit(o, err, sizeof err) && staged;
}

static void test_private_file(void)
{
    char dir[512], next[512], err[512];
    snprintf(dir, sizeof dir, "%s/private", work);
    snprintf(next, sizeof next, "%s/private-next", work);
    bool placed = true;
    CU_ASSERT_TRUE(stage_and_commit(dir, NULL, "one", &placed));
    CU_ASSERT_TRUE(placed); /* came with the new folder */
    CU_ASSERT_TRUE(file_is(dir, ".own", "one"));
    placed = false;
    CU_ASSERT_TRUE(stage_and_commit(dir, NULL, "two", &placed));
    CU_ASSERT_TRUE(placed); /* moved in after an in-place commit */
    CU_ASSERT_TRUE(file_is(dir, ".own", "two"));
    placed = false;
    CU_ASSERT_TRUE(stage_and_commit(next, dir, "three", &placed));
    CU_ASSERT_TRUE(placed && file_is(next, ".own", "three") && file_is(dir, ".own", "two"));

    site_out *o = site_out_begin(dir, NULL, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    static const char *const refused[] = {"own", ".a/b", ".perfcast-manifest",
                                          ".perfcast-staging", NULL};
    fileio_part x = {"x", 1}, four = {"four", 4};
    for (size_t i = 0; refused[i]; i++) {
        CU_ASSERT_FALSE(site_out_stage_private(o, refused[i], &x, 1, &placed));
        CU_ASSERT_FALSE(placed);
    }
    CU_ASSERT_TRUE(site_out_stage_private(o, ".own", &four, 1, &placed));
    CU_ASSERT_FALSE(site_out_stage_private(o, ".other", &x, 1, &placed)); /* one per build */
    site_out_abort(o);
    CU_ASSERT_TRUE(file_is(dir, ".own", "two")); /* a failed build leaves the previous */

    /* Its place taken by a folder: the site is committed, the folder kept. */
    char own[600];
    snprintf(own, sizeof own, "%s/.own", dir);
    CU_ASSERT_EQUAL_FATAL(unlink(own), 0);
    CU_ASSERT_EQUAL_FATAL(mkdir(own, 0755), 0);
    placed = true;
    CU_ASSERT_TRUE(stage_and_commit(dir, NULL, "five", &placed));
    CU_ASSERT_FALSE(placed);
    struct stat st;
    CU_ASSERT_TRUE(stat(own, &st) == 0 && S_ISDIR(st.st_mode));
    CU_ASSERT_TRUE(file_is(dir, "a.txt", "five"));
    /* ... or by a link: kept, not followed */
    CU_ASSERT_EQUAL_FATAL(rmdir(own), 0);
    CU_ASSERT_EQUAL_FATAL(symlink("a.txt", own), 0);
    placed = true;
    CU_ASSERT_TRUE(stage_and_commit(dir, NULL, "six", &placed));
    CU_ASSERT_FALSE(placed);
    CU_ASSERT_TRUE(lstat(own, &st) == 0 && S_ISLNK(st.st_mode));
    CU_ASSERT_TRUE(file_is(dir, "a.txt", "six"));
}

static void test_killed_while_moving(void)
{
    char dir[512], err[512];
    snprintf(dir, sizeof dir, "%s/moves", work);
    static const char *const v1[] = {"a.txt", "one", "d/b.txt", "bee", "old.txt", "old", NULL};
    static const char *const v2[] = {"a.txt", "ONE!", "d/b.txt", "BEE!", "new.txt", "new", NULL};
    CU_ASSERT_TRUE_FATAL(write_files(dir, v1, 0, err, sizeof err));
    char user[700];
    snprintf(user, sizeof user, "%s/d/user.txt", dir);
    CU_ASSERT_TRUE(testutil_write_file(user, "user's\n"));
    snprintf(user, sizeof user, "%s/.git/x", dir);
    CU_ASSERT_TRUE(testutil_write_file(user, "git\n"));
    pid_t pid = fork();
    CU_ASSERT_TRUE_FATAL(pid >= 0);
    if (pid == 0) {
        write_files(dir, v2, 1, err, sizeof err);
        _exit(0); /* not reached: killed after the first move */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CU_ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    /* The manifest claims both builds' files, nothing of the user's. */
    char *manifest = fileio_join(dir, ".perfcast-manifest");
    char *text = manifest ? fileio_read_file(manifest, NULL) : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, " new.txt\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, " old.txt\n"));
    CU_ASSERT_PTR_NULL(strstr(text, "user.txt"));
    free(text);
    free(manifest);
    /* The next build finishes the work. */
    CU_ASSERT_TRUE(write_files(dir, v2, 0, err, sizeof err));
    CU_ASSERT_TRUE(file_is(dir, "a.txt", "ONE!"));
    CU_ASSERT_TRUE(file_is(dir, "d/b.txt", "BEE!"));
    CU_ASSERT_TRUE(file_is(dir, "new.txt", "new"));
    CU_ASSERT_FALSE(file_is(dir, "old.txt", "old"));
    CU_ASSERT_TRUE(file_is(dir, "d/user.txt", "user's\n"));
    CU_ASSERT_TRUE(file_is(dir, ".git/x", "git\n"));
    CU_ASSERT_FALSE(staging_left());
}

/* ------------------------------------------------------------------ */
/* Exit status                                                         */

static void test_exit_status(void)
{
    char *out = NULL, site[512];
    snprintf(site, sizeof site, "%s/never", work);
    CU_ASSERT_EQUAL(build(&out, "tests/fixtures/site/bad_clusters", site, ""), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "clusters.csv"));
    CU_ASSERT_FALSE(exists(site));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(NULL, "build --archive %s --out '%s' > /dev/full",
                                          fixture, site), 1);
    CU_ASSERT_EQUAL(build(NULL, fixture, site, "--bogus"), 2);
    /* Another build holds the site (flock(1) on its lock file, .never.lock
     * beside it, stands for it): exit 1, with why, and the site is left to
     * it. */
    CU_ASSERT_EQUAL_FATAL(build(NULL, fixture, site, "--quiet"), 0);
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "flock '%s/.never.lock' %s build --archive %s "
                                                "--out '%s'",
                                          work, testutil_perfcast(), fixture, site), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "another perfcast build is writing"));
    free(out);
    CU_ASSERT_EQUAL(build(NULL, fixture, site, "--quiet"), 0);
    /* A build into a folder not made yet locked the parent folder, so
     * every build into a new folder of one parent (of /tmp) waited for
     * every other: with the parent locked (as such a build did), a build
     * into a new folder beside the site goes ahead. */
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "flock '%s' %s build --archive %s --out "
                                                "'%s/other' --quiet",
                                          work, testutil_perfcast(), fixture, work), 0);
    free(out);
}

/* An output folder that is the archive, inside it (even one not made
 * yet, or reached through a link) or around it is refused before anything
 * is written: a site inside the archive would be read back as a campaign,
 * an archive inside the site would be up for removal. */
static void test_out_overlaps_archive(void)
{
    char archive[512], *out = NULL;
    snprintf(archive, sizeof archive, "%s/overlap", work);
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(NULL, "cp -r %s '%s' && cp -a '%s' '%s.before' && "
                                                      "ln -s '%s' '%s/link'",
                                                fixture, archive, archive, archive, archive, work),
                          0);
    static const char *const outs[] = {"", "/site", "/new/deeper/site", "/.", "/alpha/.."};
    for (size_t i = 0; i < sizeof outs / sizeof *outs; i++) {
        char site[600];
        snprintf(site, sizeof site, "%s%s", archive, outs[i]);
        CU_ASSERT_EQUAL(build(&out, archive, site, "--quiet"), 1);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "overlap"));
        free(out);
        out = NULL;
    }
    char through_link[600];
    snprintf(through_link, sizeof through_link, "%s/link/site", work);
    CU_ASSERT_EQUAL(build(NULL, archive, through_link, "--quiet"), 1);
    CU_ASSERT_EQUAL(build(NULL, archive, work, "--quiet"), 1); /* the archive's parent */
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "diff -r '%s' '%s.before'", archive, archive), 0);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "rm '%s/link'", work), 0);
}

/* A read-only output folder: as root (who writes anywhere) the build runs
 * as nobody, for whom the root-owned site is read-only. */
static void test_read_only_output(void)
{
    bool root = geteuid() == 0;
    if (root && testutil_run_commandf(NULL, "command -v setpriv") != 0) {
        fprintf(stderr, "(setpriv missing: read-only output not tested as root) ");
        return;
    }
    char archive[512], parent[512], site[600];
    snprintf(archive, sizeof archive, "%s/arch4", work);
    snprintf(parent, sizeof parent, "%s/ro", work);
    snprintf(site, sizeof site, "%s/site", parent);
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(NULL, "cp -r %s '%s' && mkdir '%s'", fixture,
                                                archive, parent), 0);
    CU_ASSERT_EQUAL_FATAL(build(NULL, archive, site, "--quiet"), 0);
    /* A change, so the build has something to write. */
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "echo 'ant,toy,64,1000,19.5,3,2024-06-01,' >> "
                                                "'%s/alpha/runs.csv' && cp -a '%s' '%s.before'",
                                          archive, site, site), 0);
    /* Beside the site may be written (the staging folder), the site not. */
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, root ? "chmod 755 '%s' && chmod 777 '%s'"
                                                     : "chmod 555 '%s/site' && test '%s'",
                                          root ? work : parent, parent), 0);
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "%s%s build --archive '%s' --out '%s' --quiet",
                                   root ? "setpriv --reuid=65534 --regid=65534 --clear-groups "
                                        : "",
                                   testutil_perfcast(), archive, site);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "Permission denied"));
    if (rc != 1)
        fprintf(stderr, "\n%s\n", out ? out : "");
    free(out);
    testutil_run_commandf(NULL, "chmod 700 '%s'; chmod 755 '%s'", work, site);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "diff -r '%s' '%s.before'", site, site), 0);
}

/* ------------------------------------------------------------------ */
/* One bad experiment                                                  */

static void test_bad_experiment(void)
{
    char archive[512], site[512], page[700];
    snprintf(archive, sizeof archive, "%s/arch5", work);
    snprintf(site, sizeof site, "%s/site5", work);
    /* alpha gets a second experiment whose filter names no column. */
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(NULL, "cp -r %s '%s' && echo "
                                                      "'bad,scopred,time_s,N/np,nosuch <= 8,"
                                                      "np >= 16,Broken,' >> "
                                                      "'%s/alpha/experiments.csv'",
                                                fixture, archive, archive), 0);
    char *out = NULL;
    CU_ASSERT_EQUAL(build(&out, archive, site, "--verify"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "alpha/experiments.csv:3:25: unknown column 'nosuch'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "; 0 problems"));
    free(out);
    snprintf(page, sizeof page, "%s/campaigns/alpha/index.html", site);
    char *html = fileio_read_file(page, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    /* The good experiment is fitted, with its predictions and charts... */
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "Experiment scale"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "scale-scaling.png"));
    /* ...the bad one says why it was not run, positioned. */
    const char *bad = strstr(html, "Experiment bad");
    CU_ASSERT_PTR_NOT_NULL(bad);
    CU_ASSERT_PTR_NOT_NULL(bad && strstr(bad, "was not run"));
    CU_ASSERT_PTR_NOT_NULL(bad && strstr(bad, "experiments.csv:3:25: unknown column"));
    free(html);
    snprintf(page, sizeof page, "%s/campaigns/beta/index.html", site);
    CU_ASSERT_TRUE(exists(page));
    /* An archive with problems records no inputs key: every build runs. */
    snprintf(page, sizeof page, "%s/.perfcast-manifest", site);
    char *manifest = fileio_read_file(page, NULL);
    CU_ASSERT_PTR_NOT_NULL(manifest);
    CU_ASSERT_PTR_NULL(manifest ? strstr(manifest, "inputs ") : "");
    free(manifest);
    /* --strict: the site is built, the status says something failed. */
    CU_ASSERT_EQUAL(build(NULL, archive, site, "--strict --quiet"), 1);
}

/* ------------------------------------------------------------------ */
/* Nothing changed, nothing done (issue 14, item 4)                     */

static char *first_line(const char *path)
{
    char *text = fileio_read_file(path, NULL);
    if (text)
        text[strcspn(text, "\n")] = '\0';
    return text;
}

static bool same_mtime(const struct stat *a, const struct stat *b)
{
    return a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static void test_nothing_changed(void)
{
    char archive[512], site[512], manifest[700];
    snprintf(archive, sizeof archive, "%s/arch7", work);
    snprintf(site, sizeof site, "%s/site7", work);
    snprintf(manifest, sizeof manifest, "%s/.perfcast-manifest", site);
    /* The fixture without its broken campaign: an archive with no problem. */
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(NULL, "cp -r %s '%s' && rm -r '%s/broken'",
                                                fixture, archive, archive), 0);
    CU_ASSERT_EQUAL_FATAL(build(NULL, archive, site, "--quiet"), 0);
    char *inputs = first_line(manifest);
    CU_ASSERT_PTR_NOT_NULL_FATAL(inputs);
    CU_ASSERT_EQUAL(strncmp(inputs, "inputs ", 7), 0);
    /* Rebuild: not even a staging folder is made beside the site (the
     * folder holding it keeps its mtime); the summary is the recorded one. */
    struct stat before, after;
    CU_ASSERT_EQUAL_FATAL(stat(work, &before), 0);
    char *out = NULL;
    CU_ASSERT_EQUAL(build(&out, archive, site, ""), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "11 pages, 5 charts (0 drawn), 0 files written"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "2 campaigns (0 left out), 2 experiments (1 not "
                                              "fitted)"));
    free(out);
    CU_ASSERT_EQUAL(stat(work, &after), 0);
    CU_ASSERT_TRUE(same_mtime(&before, &after));
    /* --strict still sees the failed fit it recorded. */
    CU_ASSERT_EQUAL(build(NULL, archive, site, "--strict --quiet"), 1);
    /* Any change to an input brings the whole build back. */
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "printf 'More words.\\n' >> '%s/alpha/README.md'",
                                          archive), 0);
    CU_ASSERT_EQUAL(build(&out, archive, site, ""), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "(0 drawn), 2 files written"));
    free(out);
    char *changed = first_line(manifest);
    CU_ASSERT_PTR_NOT_NULL(changed);
    CU_ASSERT_STRING_NOT_EQUAL(changed ? changed : "", inputs);
    free(changed);
    free(inputs);
}

int main(void)
{
    if (!testutil_temp_dir(work, sizeof work))
        return 2;
    static const testutil_test tests[] = {
        {"the user's files survive every build byte for byte", test_user_files_survive},
        {"hidden-only folder built into and kept; other folders refused", test_hidden_only_folder},
        {"a page whose place a user's file takes stops the build", test_place_taken},
        {"links in the site are not followed to write or remove", test_links_not_followed},
        {"a same-size change in place is found and repaired", test_same_size_change},
        {"perfcast's own hidden file comes with the commit, or fails nothing",
         test_private_file},
        {"killed while moving: nothing unclaimed, the next build finishes",
         test_killed_while_moving},
        {"exit 1 for a bad clusters.csv, an unwritable stdout, a site another build holds; 2 "
         "for usage", test_exit_status},
        {"exit 1 for a read-only output folder, the site untouched", test_read_only_output},
        {"an output folder overlapping the archive is refused", test_out_overlaps_archive},
        {"one bad experiment: the campaign is published, --strict exits 1", test_bad_experiment},
        {"nothing changed: nothing is fitted, drawn or written", test_nothing_changed},
        {NULL, NULL}};
    static const testutil_suite suites[] = {{"site safety", tests}, {NULL, NULL}};
    int rc = testutil_run_suites(suites);
    testutil_remove_dir(work);
    return rc;
}
