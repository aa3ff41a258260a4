/*
 * test_setup_deps.c — .ci/deps (make deps) when another apt or dpkg holds
 * the package lock (issue 21 item 10): it waits for the lock and then
 * installs, and gives up after PERFCAST_APT_LOCK_TIMEOUT seconds with a
 * clear message, instead of failing at once. Run with fake apt-get,
 * pkg-config (every library "missing") and sudo first on PATH: nothing is
 * ever installed.
 */
#include "tests/testutil.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[256], root[PATH_MAX];

/* The fake tools: apt-get logs its arguments and reports the lock held as
 * long as the count in DIR/locked is above 0 (counting down); pkg-config
 * finds nothing; sudo runs its command as is (never the real apt-get). */
static bool fake_tools(void)
{
    char path[512], script[1024];
    snprintf(path, sizeof path, "%s/bin/apt-get", dir);
    snprintf(script, sizeof script,
             "#!/bin/sh\necho \"$*\" >> %s/apt.log\n"
             "n=$(cat %s/locked 2>/dev/null || echo 0)\n"
             "if [ \"$n\" -gt 0 ]; then echo $((n - 1)) > %s/locked\n"
             "  echo 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process "
             "4242 (apt-get)' >&2; exit 100; fi\nexit 0\n",
             dir, dir, dir);
    bool ok = testutil_write_file(path, script);
    snprintf(path, sizeof path, "%s/bin/pkg-config", dir);
    ok = ok && testutil_write_file(path, "#!/bin/sh\nexit 1\n");
    snprintf(path, sizeof path, "%s/bin/sudo", dir);
    ok = ok && testutil_write_file(path, "#!/bin/sh\n[ \"$1\" = -n ] && shift\nexec \"$@\"\n");
    char *out = NULL;
    ok = ok && testutil_run_commandf(&out, "chmod +x %s/bin/*", dir) == 0;
    free(out);
    return ok;
}

/* .ci/deps with the lock held for `held` tries and the given timeout;
 * *log gets the fake apt-get's calls (malloc'ed). */
static int deps(int held, int timeout, char **out, char **log)
{
    char path[512];
    snprintf(path, sizeof path, "%s/locked", dir);
    char count[16];
    snprintf(count, sizeof count, "%d\n", held);
    testutil_write_file(path, count);
    snprintf(path, sizeof path, "%s/apt.log", dir);
    remove(path);
    int rc = testutil_run_commandf(out, "PATH=%s/bin:$PATH PERFCAST_APT_LOCK_TIMEOUT=%d "
                                        "timeout 120 %s/.ci/deps 2>&1",
                                   dir, timeout, root);
    *log = testutil_read_file(path);
    return rc;
}

/* The lock held for two tries: waited for, then update and install. */
static void test_waits_for_lock(void)
{
    char *out = NULL, *log = NULL;
    int rc = deps(2, 60, &out, &log);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "waiting for the package lock"));
    CU_ASSERT_PTR_NOT_NULL(log && strstr(log, "-o DPkg::Lock::Timeout=60 update"));
    CU_ASSERT_PTR_NOT_NULL(log && strstr(log, "install -y --no-install-recommends "));
    CU_ASSERT_PTR_NOT_NULL(log && strstr(log, "libgsl-dev"));  /* what it always installed */
    CU_ASSERT_PTR_NOT_NULL(log && strstr(log, "libcunit1-dev"));
    free(out);
    free(log);
}

/* Held for good: after the timeout, exit 1 and a message saying why. */
static void test_gives_up_clearly(void)
{
    char *out = NULL, *log = NULL;
    CU_ASSERT_EQUAL(deps(1000, 1, &out, &log), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "still holds the package lock after 1 s"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "PERFCAST_APT_LOCK_TIMEOUT"));
    CU_ASSERT_PTR_NULL(log && strstr(log, "install"));
    free(out);
    free(log);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"waits for the apt lock, then installs", test_waits_for_lock},
        {"gives up after the timeout, clearly", test_gives_up_clearly},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"setup-deps", tests}, {NULL, NULL}};
    if (!testutil_temp_dir(dir, sizeof dir) || !realpath(".", root) || !fake_tools())
        return 1;
    int status = testutil_run_suites(suites);
    testutil_remove_dir(dir);
    return status;
}
