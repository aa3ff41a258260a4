/*
 * test_site_cli.c — `perfcast build` as CI runs it: usage, the embedded
 * archive builds and verifies, two builds are identical (diff -r) and the
 * second writes nothing, a build killed half-way leaves the previous site
 * whole and the next build cleans up after it, an unusable archive leaves
 * the site alone, and the whole build is valgrind-clean.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

static char work[256];

static const char fixture[] = "tests/fixtures/site/basic";

static void test_usage(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "build --help"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "--archive DIR"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(NULL, "build --bogus"), 2);
    CU_ASSERT_EQUAL(testutil_perfcast_run(NULL, "build --jobs 0"), 2);
    CU_ASSERT_EQUAL(testutil_perfcast_run(NULL, "build --out"), 2);
}

static void test_embedded_archive(void)
{
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "build --archive archive --out %s/embedded --verify",
                                   work);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "; 0 problems"));
    CU_ASSERT_PTR_NULL(strstr(out, "font")); /* DejaVu Sans is installed (make deps) */
    /* The log counts the alerts the page and alerts.csv list (one per
     * configuration; it counted the runs outside their interval). */
    const char *count = out ? strstr(out, " alerts; ") : NULL;
    while (count && count > out && count[-1] >= '0' && count[-1] <= '9')
        count--;
    char path[1024];
    snprintf(path, sizeof path, "%s/embedded/alerts.csv", work);
    char *csv = testutil_read_file(path);
    long rows = -1;
    for (const char *p = csv; p && *p; p++)
        rows += *p == '\n';
    CU_ASSERT_PTR_NOT_NULL(count);
    CU_ASSERT(count && rows > 0 && atol(count) == rows);
    free(csv);
    free(out);
    /* An archive without problems: the same inputs again do nothing, and
     * --up-to-date says so without writing; a folder never built is not. */
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "build --archive archive --out %s/embedded", work),
                    0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "inputs unchanged: nothing read, fitted or drawn"));
    free(out);
    CU_ASSERT_EQUAL(
        testutil_perfcast_run(&out, "build --archive archive --out %s/embedded --up-to-date", work),
        0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, ": up to date"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(NULL, "build --archive archive --out %s/never --up-to-date",
                                          work), 1);
    CU_ASSERT_NOT_EQUAL(testutil_run_commandf(NULL, "test -e '%s/never'", work), 0);
}

static void test_identical_builds(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(
        testutil_perfcast_run(NULL, "build --archive %s --out %s/a --quiet", fixture, work), 0);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "build --archive %s --out %s/a", fixture, work), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "(0 drawn), 0 files written"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(NULL, "build --archive %s --out %s/b --jobs 1 --quiet",
                                          fixture, work), 0);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "diff -r '%s/a' '%s/b'", work, work), 0);
}

/* A machine without the charts' font: the site is still built, with a
 * warning that says which font is missing and how to install it. */
static void test_missing_font_warned(void)
{
    char conf[512], *out = NULL;
    snprintf(conf, sizeof conf, "%s/fonts.conf", work);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(
        conf, "<?xml version=\"1.0\"?>\n<fontconfig><dir>/nonexistent-fonts</dir>"
              "<cachedir>/nonexistent-fonts/cache</cachedir></fontconfig>\n"));
    int rc = testutil_run_commandf(&out, "FONTCONFIG_FILE='%s' %s build --archive %s --out %s/f "
                                         "--quiet 2>&1", conf, testutil_perfcast(), fixture, work);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "warning: the charts' font DejaVu Sans is not "
                                              "installed (fontconfig finds no font at all)"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "apt-get install fonts-dejavu-core"));
    free(out);
    /* Nothing drawn, nothing to warn about. */
    rc = testutil_run_commandf(&out, "FONTCONFIG_FILE='%s' %s build --archive %s --out %s/f 2>&1",
                               conf, testutil_perfcast(), fixture, work);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "(0 drawn)"));
    CU_ASSERT_PTR_NULL(out && strstr(out, "font"));
    free(out);
}

static bool stale_build_dir(void)
{
    DIR *d = opendir(work);
    bool found = false;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL)
        found |= strncmp(de->d_name, ".a.build-", 9) == 0;
    if (d)
        closedir(d);
    return found;
}

static void test_killed_build_keeps_site(void)
{
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "cp -a '%s/a' '%s/a.before'", work, work), 0);
    /* SIGKILL once 7 files are done: nothing gets to clean up. */
    int rc = testutil_perfcast_run(NULL, "build --archive %s --out %s/a --quiet", fixture, work);
    CU_ASSERT_EQUAL(rc, 0);
    rc = testutil_run_commandf(NULL, "sh -c 'PERFCAST_FAIL_AFTER=7 PERFCAST_FAIL_KILL=1 %s build "
                                     "--archive %s --out %s/a --quiet' 2>/dev/null",
                               testutil_perfcast(), fixture, work);
    CU_ASSERT_NOT_EQUAL(rc, 0);
    CU_ASSERT_TRUE(stale_build_dir());
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "diff -r '%s/a' '%s/a.before'", work, work), 0);
    /* An error half-way (not a kill) cleans up itself. */
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "PERFCAST_FAIL_AFTER=3 %s build --archive %s "
                                                "--out %s/a --quiet",
                                          testutil_perfcast(), fixture, work), 1);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "diff -r '%s/a' '%s/a.before'", work, work), 0);
    /* The next build removes what the killed one left. */
    CU_ASSERT_EQUAL(
        testutil_perfcast_run(NULL, "build --archive %s --out %s/a --quiet", fixture, work), 0);
    CU_ASSERT_FALSE(stale_build_dir());
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "diff -r '%s/a' '%s/a.before'", work, work), 0);
}

static void test_unusable_archive_keeps_site(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(
        testutil_perfcast_run(&out, "build --archive %s/no-archive --out %s/a", work, work), 1);
    /* The problem said once, with its file, then what it stopped. */
    static const char problem[] = "no-archive: not an archive folder";
    const char *said = out ? strstr(out, problem) : NULL;
    CU_ASSERT_PTR_NOT_NULL(said);
    CU_ASSERT_PTR_NULL(said ? strstr(said + sizeof problem - 1, "not an archive folder") : NULL);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "cannot load the archive"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "no-archive (the problem above)"));
    free(out);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "diff -r '%s/a' '%s/a.before'", work, work), 0);
    CU_ASSERT_EQUAL(testutil_perfcast_run(NULL, "build --archive %s --out %s/a --templates %s/none",
                                          fixture, work, work), 1);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "diff -r '%s/a' '%s/a.before'", work, work), 0);
}

static void test_valgrind_clean(void)
{
    const char *san = getenv("PERFCAST_SAN");
    if (san && strcmp(san, "1") == 0) {
        fprintf(stderr, "(valgrind skipped under SAN=1) ");
        return;
    }
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "valgrind -q --error-exitcode=9 --leak-check=full "
                                         "--errors-for-leak-kinds=definite,indirect %s build "
                                         "--archive %s --out %s/v --jobs 2 --verify --quiet",
                                   testutil_perfcast(), fixture, work);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
}

int main(void)
{
    if (!testutil_temp_dir(work, sizeof work))
        return 2;
    static const testutil_test tests[] = {
        {"usage", test_usage},
        {"the embedded archive builds and verifies", test_embedded_archive},
        {"two builds are identical, the second writes nothing", test_identical_builds},
        {"a missing chart font is warned about", test_missing_font_warned},
        {"a killed build leaves the previous site; the next cleans up", test_killed_build_keeps_site},
        {"an unusable archive or template leaves the site alone", test_unusable_archive_keeps_site},
        {"valgrind-clean build", test_valgrind_clean},
        {NULL, NULL}};
    static const testutil_suite suites[] = {{"perfcast build", tests}, {NULL, NULL}};
    int rc = testutil_run_suites(suites);
    testutil_remove_dir(work);
    return rc;
}
