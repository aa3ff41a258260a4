/*
 * test_site_previous.c — `perfcast build --out NEW --previous OLD`, the
 * nightly's release made from the published one (gen/site/site_out.h,
 * issue 22 item 9), on a synthetic archive of three campaigns
 * (tests/fixtures/site/make_synthetic.sh), checked with find, diff, cmp,
 * md5sum and awk, never with perfcast:
 *   - after one new run, NEW has every byte of a build into a `cp -al`
 *     copy of OLD (the way .ci/nightly made releases before), the manifest
 *     and the cache of fits included, with any thread count; and every
 *     page of a cold build; it is up to date for the next night;
 *   - the files NEW keeps are OLD's files themselves (hard links, by
 *     inode), as many as the build says it kept; the others are new;
 *   - OLD is never written: its files, bytes, inodes and times as before;
 *   - refused before anything is made: an existing --out, an OLD that is
 *     not a site, an --out inside OLD, OLD held by another build
 *     (flock(1)), --up-to-date with --previous; a build that fails or is
 *     killed half way leaves no NEW and OLD untouched;
 *   - across file systems (OLD on disk, NEW in /dev/shm when that is
 *     tmpfs): the kept files are copied, to the same bytes.
 */
#include <CUnit/CUnit.h>

#include "tests/testutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

/* Run a shell command under dir, printf-style; its exit status, its
 * output in *out when out is not NULL (malloc'ed). */
static int sh(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int sh(char **out, const char *fmt, ...)
{
    char cmd[4096];
    int n = snprintf(cmd, sizeof cmd, "cd %s && ", dir);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd + n, sizeof cmd - (size_t)n, fmt, ap);
    va_end(ap);
    return testutil_run_command(cmd, out);
}

/* perfcast build of the archive A into dir/site, from the repository
 * (where the tests run), with extra options: "--previous NAME" names
 * dir/NAME. Its exit status, its output in *out when out is not NULL. */
static int build(char **out, const char *site, const char *extra)
{
    char *text = NULL, options[1024];
    const char *previous = strstr(extra, "--previous ");
    if (previous)
        snprintf(options, sizeof options, "%.*s--previous %s/%s", (int)(previous - extra), extra,
                 dir, previous + strlen("--previous "));
    else
        snprintf(options, sizeof options, "%s", extra);
    int rc = testutil_perfcast_run(&text, "build --archive %s/A --out %s/%s %s", dir, dir, site,
                                   options);
    if (out)
        *out = text;
    else
        free(text);
    return rc;
}

/* The summary line's files written and kept. */
static bool files_counted(const char *out, size_t *written, size_t *kept)
{
    const char *p = out ? strstr(out, " files written, ") : NULL;
    while (p && p > out && p[-1] != ' ')
        p--;
    return p && sscanf(p, "%zu files written, %zu kept", written, kept) == 2;
}

/* Everything a release is on disk, for "never written": every file's
 * path, inode, size, mtime and content checksum (find and md5sum). */
static char *fingerprint(const char *site)
{
    char *out = NULL;
    sh(&out, "cd %s && find . -printf '%%P %%i %%s %%T@\\n' | LC_ALL=C sort && "
             "find . -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum", site);
    return out;
}

/* How many files of site share their inode with old's (find, awk), and
 * how many do not (.perfcast-manifest and .perfcast-fits left out: perfcast
 * writes them beside the pages, outside the summary's counts). */
static void shared_files(const char *old, const char *site, int *shared, int *own)
{
    char *out = NULL;
    sh(&out, "(cd %s && find . -type f -printf '%%i\\n') > inodes-old.txt && cd %s && "
             "find . -type f ! -name .perfcast-manifest ! -name .perfcast-fits -printf '%%i\\n' | "
             "awk 'NR == FNR {old[$1] = 1; next} {if ($1 in old) s++; else o++} "
             "END {print s + 0, o + 0}' ../inodes-old.txt -",
       old, site);
    *shared = *own = -1;
    if (!out || sscanf(out, "%d %d", shared, own) != 2)
        *shared = *own = -1;
    free(out);
}

/* Assert that site (a path under dir, or absolute) has every byte of a
 * build into seeded, a `cp -al` copy of previous made here. */
static void same_as_seeded_copy(const char *site, const char *previous, const char *seeded)
{
    CU_ASSERT_EQUAL_FATAL(sh(NULL, "cp -al %s %s", previous, seeded), 0);
    CU_ASSERT_EQUAL_FATAL(build(NULL, seeded, ""), 0);
    CU_ASSERT_EQUAL(sh(NULL, "diff -r %s %s", site, seeded), 0);
}

static void setup(void)
{
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "tests/fixtures/site/make_synthetic.sh 3 %s/A", dir);
    CU_ASSERT_EQUAL_FATAL(testutil_run_command(cmd, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(build(NULL, "s1", ""), 0);
    /* One new run at np 64 (a predicted configuration) in campaign 0002. */
    CU_ASSERT_EQUAL_FATAL(sh(NULL, "echo 'syn-b,toy,64,1000,3.61,3,2024-03-01' >> "
                                   "A/synthetic-0002/runs.csv"),
                          0);
}

static void test_as_a_seeded_copy(void)
{
    setup();
    char *before = fingerprint("s1"), *out = NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    CU_ASSERT_EQUAL_FATAL(build(&out, "s2", "--previous s1"), 0);
    char *after = fingerprint("s1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(after);
    CU_ASSERT_STRING_EQUAL(before, after); /* s1 never written */

    /* What it kept are s1's files, as many as it says; the rest is new:
     * the new run's campaign page (.md, .html) at least, never a whole
     * campaign of the two others. */
    size_t written = 0, kept = 0;
    CU_ASSERT_TRUE(files_counted(out, &written, &kept));
    int shared, own;
    shared_files("s1", "s2", &shared, &own);
    CU_ASSERT_EQUAL(shared, (int)kept);
    CU_ASSERT_EQUAL(own, (int)written);
    CU_ASSERT_TRUE(written >= 2 && kept > written);
    CU_ASSERT_EQUAL(sh(NULL, "test -z \"$(find s2/campaigns/synthetic-0001 "
                             "s2/campaigns/synthetic-0003 -type f -links 1)\""),
                    0);
    CU_ASSERT_NOT_EQUAL(sh(NULL, "cmp -s s1/campaigns/synthetic-0002/index.md "
                                 "s2/campaigns/synthetic-0002/index.md"),
                        0);
    free(out);

    /* The bytes of a build into a copy of links to s1 (the cache of fits
     * and the manifest included), with one thread or several, and every
     * page of a cold build (which fills its own pool: its cache and the
     * keys in its manifest differ). */
    same_as_seeded_copy("s2", "s1", "seeded");
    /* Its manifest records the inputs (worked out on a thread of its
     * own): the next night finds it up to date. */
    CU_ASSERT_EQUAL(build(NULL, "s2", "--up-to-date"), 0);
    CU_ASSERT_EQUAL_FATAL(build(NULL, "one", "--jobs 1 --previous s1"), 0);
    CU_ASSERT_EQUAL(sh(NULL, "diff -r s2 one"), 0);
    CU_ASSERT_EQUAL_FATAL(build(NULL, "cold", ""), 0);
    CU_ASSERT_EQUAL(sh(NULL, "diff -r -x .perfcast-fits -x .perfcast-manifest s2 cold"), 0);
    char *last = fingerprint("s1");
    CU_ASSERT_STRING_EQUAL(before, last);
    free(last);

    /* And the next night from it: the same again, s2 untouched. */
    CU_ASSERT_EQUAL_FATAL(sh(NULL, "echo 'syn-b,toy,64,1000,3.62,3,2024-03-02' >> "
                                   "A/synthetic-0003/runs.csv"),
                          0);
    char *s2_before = fingerprint("s2");
    CU_ASSERT_EQUAL_FATAL(build(NULL, "s3", "--previous s2 --verify"), 0);
    char *s2_after = fingerprint("s2");
    CU_ASSERT_TRUE(s2_before && s2_after && strcmp(s2_before, s2_after) == 0);
    same_as_seeded_copy("s3", "s2", "seeded3");
    free(s2_before);
    free(s2_after);
    free(before);
    free(after);
    testutil_remove_dir(dir);
}

/* A refused build: exit 1 with reason in its output, no NEW folder and no
 * staging folder left, s1 as it was. */
static void refused(const char *site, const char *extra, const char *reason)
{
    char *before = fingerprint("s1"), *out = NULL;
    int rc = build(&out, site, extra);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, reason));
    if (!(out && strstr(out, reason)))
        fprintf(stderr, "expected \"%s\" from build --out %s %s: %s\n", reason, site, extra,
                out ? out : "");
    char *after = fingerprint("s1");
    CU_ASSERT_TRUE(before && after && strcmp(before, after) == 0);
    CU_ASSERT_EQUAL(sh(NULL, "test -z \"$(find . -name '.*.build-*')\""), 0);
    free(out);
    free(before);
    free(after);
}

static void test_refusals(void)
{
    setup();
    /* An existing --out: kept as it was. */
    CU_ASSERT_EQUAL_FATAL(sh(NULL, "mkdir taken && echo mine > taken/notes.txt"), 0);
    refused("taken", "--previous s1", "exists: a build from the previous site");
    CU_ASSERT_EQUAL(sh(NULL, "test \"$(ls -A taken)\" = notes.txt && grep -qx mine taken/notes.txt"),
                    0);
    /* Not a site; the new folder inside the previous one. */
    CU_ASSERT_EQUAL_FATAL(sh(NULL, "mkdir empty"), 0);
    refused("new1", "--previous empty", "is not a perfcast site");
    CU_ASSERT_EQUAL(sh(NULL, "test ! -e new1"), 0);
    refused("s1/inside", "--previous s1", "overlap");
    CU_ASSERT_EQUAL(sh(NULL, "test ! -e s1/inside"), 0);
    /* Another build holds the previous site (the exclusive lock on its
     * lock file, .s1.lock beside it). */
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "flock -x %1$s/.s1.lock %2$s build --archive "
                                                "%1$s/A --out %1$s/new2 --previous %1$s/s1",
                                          dir, testutil_perfcast()),
                    1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "another perfcast build is writing"));
    CU_ASSERT_EQUAL(sh(NULL, "test ! -e new2"), 0);
    free(out);
    /* --up-to-date asks about --out alone: a usage error. */
    CU_ASSERT_EQUAL(build(NULL, "new3", "--previous s1 --up-to-date"), 2);
    CU_ASSERT_EQUAL(sh(NULL, "test ! -e new3"), 0);
    testutil_remove_dir(dir);
}

static void test_failed_build(void)
{
    setup();
    char *before = fingerprint("s1");
    /* Stopped after 40 files (the kept ones count): no release, no
     * staging folder, s1 untouched. */
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "PERFCAST_FAIL_AFTER=40 %2$s build --archive "
                                                "%1$s/A --out %1$s/s2 --previous %1$s/s1",
                                          dir, testutil_perfcast()),
                    1);
    CU_ASSERT_EQUAL(sh(NULL, "test ! -e s2 && test -z \"$(find . -name '.*.build-*')\""), 0);
    /* Killed after 40: its staging folder stays (and is removed by the
     * next build), never a release. */
    CU_ASSERT_NOT_EQUAL(testutil_run_commandf(NULL, "sh -c 'PERFCAST_FAIL_AFTER=40 "
                                                    "PERFCAST_FAIL_KILL=1 %2$s build --archive "
                                                    "%1$s/A --out %1$s/s2 --previous %1$s/s1' "
                                                    "2>/dev/null",
                                              dir, testutil_perfcast()),
                        0);
    CU_ASSERT_EQUAL(sh(NULL, "test ! -e s2"), 0);
    char *after = fingerprint("s1");
    CU_ASSERT_TRUE(before && after && strcmp(before, after) == 0);
    CU_ASSERT_EQUAL_FATAL(build(NULL, "s2", "--previous s1"), 0);
    CU_ASSERT_EQUAL(sh(NULL, "test -z \"$(find . -name '.*.build-*')\""), 0);
    same_as_seeded_copy("s2", "s1", "seeded");
    free(before);
    free(after);
    testutil_remove_dir(dir);
}

static void test_across_file_systems(void)
{
    /* Only where /dev/shm is a tmpfs, and so another file system than
     * the test's folder (the hard links cannot be made there). */
    if (testutil_run_command("test \"$(stat -f -c %T /dev/shm)\" = tmpfs && test -w /dev/shm",
                             NULL) != 0) {
        fprintf(stderr, "test_site_previous: no tmpfs /dev/shm, copies across file systems "
                        "not tried\n");
        return;
    }
    setup();
    char shm[256];
    snprintf(shm, sizeof shm, "/dev/shm/perfcast-previous-%ld", (long)getpid());
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "build --archive %s/A --out %s --previous "
                                                      "%s/s1",
                                                dir, shm, dir),
                          0);
    size_t written = 0, kept = 0, linked_written = 1, linked = 0;
    CU_ASSERT_TRUE(files_counted(out, &written, &kept));
    free(out);
    /* The same files kept as where they are linked, and the same bytes. */
    CU_ASSERT_EQUAL_FATAL(build(&out, "s2", "--previous s1"), 0);
    CU_ASSERT_TRUE(files_counted(out, &linked_written, &linked));
    CU_ASSERT_TRUE(kept > written && kept == linked && written == linked_written);
    free(out);
    CU_ASSERT_EQUAL(sh(NULL, "diff -r %s s2", shm), 0);
    CU_ASSERT_EQUAL(sh(NULL, "test -z \"$(find %s -type f -links +1)\"", shm), 0);
    testutil_run_commandf(NULL, "rm -rf %s", shm);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"a release from the previous one: its links, its bytes", test_as_a_seeded_copy},
        {"refused before anything is made", test_refusals},
        {"a failed or killed build leaves no release", test_failed_build},
        {"kept files copied across file systems", test_across_file_systems},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"build --previous", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
