/*
 * test_lockfile.c — a lock on a file of its own (gen/base/lockfile.h),
 * observed from outside: the file's presence with stat, and the locks
 * with flock(1), a program that shares nothing with the module. Within
 * one process two takes conflict as two processes' do (flock locks
 * belong to open files).
 */
#include "tests/testutil.h"

#include "gen/base/lockfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256], path[320];

static bool present(void)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Whether flock(1) could take the lock (exclusive with -x, else shared)
 * without waiting. */
static bool flock_can(bool exclusive)
{
    return testutil_run_commandf(NULL, "flock -n %s '%s' true", exclusive ? "-x" : "-s", path) == 0;
}

static void test_exclusive(void)
{
    lockfile a, b;
    CU_ASSERT_EQUAL_FATAL(lockfile_take(path, true, &a), LOCKFILE_HELD);
    CU_ASSERT_TRUE(present());
    CU_ASSERT_FALSE(flock_can(false));
    CU_ASSERT_EQUAL(lockfile_take(path, true, &b), LOCKFILE_BUSY);
    CU_ASSERT_EQUAL(b.fd, -1);
    CU_ASSERT_EQUAL(lockfile_take(path, false, &b), LOCKFILE_BUSY);
    lockfile_release(&a);
    CU_ASSERT_FALSE(present()); /* nothing left behind */
    CU_ASSERT_EQUAL(a.fd, -1);
    lockfile_release(&a); /* nothing held: nothing done */
}

static void test_shared(void)
{
    lockfile a, b, c;
    CU_ASSERT_EQUAL_FATAL(lockfile_take(path, false, &a), LOCKFILE_HELD);
    CU_ASSERT_EQUAL_FATAL(lockfile_take(path, false, &b), LOCKFILE_HELD);
    CU_ASSERT_TRUE(flock_can(false));
    CU_ASSERT_FALSE(flock_can(true));
    CU_ASSERT_EQUAL(lockfile_take(path, true, &c), LOCKFILE_BUSY);
    lockfile_release(&a);
    CU_ASSERT_TRUE(present()); /* b still holds it */
    CU_ASSERT_FALSE(flock_can(true));
    lockfile_release(&b);
    CU_ASSERT_FALSE(present()); /* the last one out removes it */
}

/* A holder killed before it let go leaves its file: the next takes it. */
static void test_left_by_a_dead_holder(void)
{
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, ""));
    lockfile a;
    CU_ASSERT_EQUAL(lockfile_take(path, true, &a), LOCKFILE_HELD);
    lockfile_release(&a);
    CU_ASSERT_FALSE(present());
}

/* Held by flock(1) in another process: busy until it lets go; a symbolic
 * link at the path is never followed (its target is not made). */
static void test_other_process_and_links(void)
{
    char ready[400], target[400];
    snprintf(ready, sizeof ready, "%s/ready", dir);
    snprintf(target, sizeof target, "%s/target", dir);
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(NULL, "flock -x '%s' sh -c 'touch %s; sleep 2' "
                                                      ">/dev/null 2>&1 &", path, ready), 0);
    for (int i = 0; i < 200 && access(ready, F_OK) != 0; i++)
        usleep(50000);
    lockfile a;
    CU_ASSERT_EQUAL(lockfile_take(path, true, &a), LOCKFILE_BUSY);
    for (int i = 0; i < 200 && !flock_can(true); i++) /* until it lets go */
        usleep(50000);
    CU_ASSERT_EQUAL(lockfile_take(path, true, &a), LOCKFILE_HELD);
    lockfile_release(&a);
    CU_ASSERT_EQUAL_FATAL(symlink(target, path), 0);
    CU_ASSERT_EQUAL(lockfile_take(path, true, &a), LOCKFILE_NONE);
    CU_ASSERT_EQUAL(access(target, F_OK), -1);
    CU_ASSERT_EQUAL(unlink(path), 0);
}

int main(void)
{
    if (!testutil_temp_dir(dir, sizeof dir))
        return 1;
    snprintf(path, sizeof path, "%s/.site.lock", dir);
    static const testutil_test tests[] = {
        {"exclusive: one holder, removed on release", test_exclusive},
        {"shared: many holders, the last removes it", test_shared},
        {"a file left by a killed holder is taken", test_left_by_a_dead_holder},
        {"another process's lock; links never followed", test_other_process_and_links},
        {NULL, NULL}};
    static const testutil_suite suites[] = {{"lockfile", tests}, {NULL, NULL}};
    int rc = testutil_run_suites(suites);
    testutil_remove_dir(dir);
    return rc;
}
