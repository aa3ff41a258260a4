/*
 * test_nightly.c — the nightly regeneration recipe (.ci/nightly, run by
 * `make nightly`): pull, check, build, publish atomically. Run on a scratch
 * copy of the embedded archive: the published path is a symbolic link to a
 * complete release; a pull that imports new runs shows up in the next
 * release; a broken archive stops the night and leaves the published site
 * as it was; old releases are pruned to --keep.
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
    char *out = NULL;
    for (int night = 0; night < 3; night++) {
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

/* The pull step brings in new runs (an import); the next release has them. */
static void test_pull_imports(void)
{
    char *out = NULL;
    char args[3 * PATH_MAX];
    snprintf(args, sizeof args,
             "--pull '%s import extrap %s/tests/fixtures/import/real/extrap_strong_scaling.txt "
             "--campaign nightly-demo --cluster ci-2core'", bin, root);
    int rc = nightly(&out, args);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "grep -rl nightly-demo %s/public/index.html", dir), 0);
    free(out);
}

/* A broken archive: exit 1, the published link and its files unchanged. */
static void test_failure_keeps_site(void)
{
    char *before = published();
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    char path[512], *out = NULL;
    snprintf(path, sizeof path, "%s/archive/scopred-ep/runs.csv", dir);
    char *runs = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
    char *broken = malloc(strlen(runs) + 32);
    sprintf(broken, "%sscopred-local16,not-a-row\n", runs);
    testutil_write_file(path, broken);
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
    free(before);
    free(after);
    free(runs);
    free(broken);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"publish atomically, prune old releases", test_publish_and_prune},
        {"the pull step imports new runs", test_pull_imports},
        {"a failing night leaves the site", test_failure_keeps_site},
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
