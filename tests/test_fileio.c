/*
 * test_fileio.c — what perfcast agrees to read: only regular files, of
 * bounded size, inside the archive. A FIFO, /dev/zero, a sparse file
 * larger than the limit, a symbolic link to /etc/passwd or a '..' path are
 * refused with a clear reason, and through `perfcast check` and `build`
 * the campaign is reported (exit 1) and nothing outside the archive is
 * published. Every test that could hang runs under alarm(): a regression
 * kills this program (no CUnit summary, so run_all counts a failure)
 * instead of blocking make check.
 */
#include "gen/base/fileio.h"
#include "tests/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char work[256];

static const char fixture[] = "tests/fixtures/site/basic";

static char *path_in(const char *name)
{
    return fileio_join(work, name);
}

static fileio_status read_status(const char *root, const char *name, size_t max_bytes)
{
    char *path = path_in(name), *text = NULL;
    size_t len = 0;
    fileio_status status = fileio_read_inside(root, path, max_bytes, &text, &len);
    if (status != FILEIO_OK)
        CU_ASSERT_PTR_NULL(text);
    free(text);
    free(path);
    return status;
}

static void test_regular_file(void)
{
    char *path = path_in("in/plain.txt");
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, "hello\n"));
    char *text = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL(fileio_read_inside(work, path, 100, &text, &len), FILEIO_OK);
    CU_ASSERT_EQUAL(len, 6);
    CU_ASSERT_STRING_EQUAL(text, "hello\n");
    free(text);
    /* Exactly at the limit is fine, one byte over is not. */
    CU_ASSERT_EQUAL(read_status(work, "in/plain.txt", 6), FILEIO_OK);
    CU_ASSERT_EQUAL(read_status(work, "in/plain.txt", 5), FILEIO_TOO_LARGE);
    CU_ASSERT_EQUAL(read_status(work, "in/none.txt", 100), FILEIO_MISSING);
    CU_ASSERT_PTR_NULL(fileio_read_file(work, NULL)); /* a folder */
    CU_ASSERT_EQUAL(errno, EINVAL);
    free(path);
}

static void test_fifo_returns_at_once(void)
{
    char *path = path_in("in/fifo");
    CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
    alarm(20);
    CU_ASSERT_EQUAL(read_status(NULL, "in/fifo", FILEIO_MAX_BYTES), FILEIO_NOT_REGULAR);
    CU_ASSERT_PTR_NULL(fileio_read_file(path, NULL));
    alarm(0);
    free(path);
}

static void test_device_and_huge_file(void)
{
    alarm(20);
    char *text = NULL;
    CU_ASSERT_EQUAL(fileio_read_inside(NULL, "/dev/zero", FILEIO_MAX_BYTES, &text, NULL),
                    FILEIO_NOT_REGULAR);
    CU_ASSERT_PTR_NULL(fileio_read_file("/dev/zero", NULL));
    alarm(0);
    /* A sparse file past the limit is refused without reading it. */
    char *path = path_in("in/huge.csv");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL(ftruncate(fd, (off_t)FILEIO_MAX_BYTES + 1), 0);
    close(fd);
    CU_ASSERT_PTR_NULL(fileio_read_file(path, NULL));
    CU_ASSERT_EQUAL(errno, EFBIG);
    unlink(path);
    free(path);
}

static void test_links_stay_inside(void)
{
    char *root = path_in("in");
    char *outside = path_in("outside.txt");
    CU_ASSERT_TRUE_FATAL(testutil_write_file(outside, "secret\n"));
    char *link_out = path_in("in/passwd.md"), *link_rel = path_in("in/rel.md");
    char *link_in = path_in("in/sub/same.txt");
    CU_ASSERT_TRUE_FATAL(testutil_write_file(link_in, "x"));
    unlink(link_in);
    CU_ASSERT_EQUAL(symlink("/etc/passwd", link_out), 0);
    CU_ASSERT_EQUAL(symlink("../outside.txt", link_rel), 0);
    CU_ASSERT_EQUAL(symlink("../plain.txt", link_in), 0);
    CU_ASSERT_EQUAL(read_status(root, "in/passwd.md", FILEIO_MAX_BYTES), FILEIO_OUTSIDE);
    CU_ASSERT_EQUAL(read_status(root, "in/rel.md", FILEIO_MAX_BYTES), FILEIO_OUTSIDE);
    CU_ASSERT_EQUAL(read_status(root, "in/../outside.txt", FILEIO_MAX_BYTES), FILEIO_OUTSIDE);
    CU_ASSERT_EQUAL(read_status(root, "in/sub/same.txt", FILEIO_MAX_BYTES), FILEIO_OK);
    CU_ASSERT_FALSE(fileio_is_inside(root, link_out));
    CU_ASSERT_TRUE(fileio_is_inside(root, link_in));
    /* A folder whose name starts like the root's is not inside it. */
    char *sibling = path_in("in2/file.txt");
    CU_ASSERT_TRUE_FATAL(testutil_write_file(sibling, "y"));
    CU_ASSERT_FALSE(fileio_is_inside(root, sibling));
    CU_ASSERT_PTR_NOT_NULL(strstr(fileio_status_text(FILEIO_OUTSIDE, 0), "symbolic link"));
    free(sibling);
    free(root);
    free(outside);
    free(link_out);
    free(link_rel);
    free(link_in);
}

/* A copy of the site fixture as archive `name` in work. */
static char *copy_fixture(const char *name)
{
    char *dir = path_in(name);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "cp -r '%s' '%s'", fixture, dir), 0);
    return dir;
}

static void replace_with_link(const char *dir, const char *file, const char *target)
{
    char *path = fileio_join(dir, file);
    unlink(path);
    CU_ASSERT_EQUAL(symlink(target, path), 0);
    free(path);
}

static void test_check_refuses_link_out_of_archive(void)
{
    char *dir = copy_fixture("leak");
    replace_with_link(dir, "alpha/README.md", "/etc/passwd");
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "check --archive '%s'", dir), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "alpha/README.md: cannot read: it leads outside"));
    free(out);
    /* build publishes the other campaigns, and nothing of /etc/passwd. */
    testutil_perfcast_run(NULL, "build --archive '%s' --out '%s/site' --quiet", dir, work);
    CU_ASSERT_NOT_EQUAL(testutil_run_commandf(NULL, "grep -rq 'root:' '%s/site'", work), 0);
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "test -f '%s/site/index.html'", work), 0);
    free(dir);
}

static void test_check_refuses_linked_campaign_folder(void)
{
    char *dir = copy_fixture("linkdir");
    char *outside = path_in("elsewhere");
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "cp -r '%s/alpha' '%s'", dir, outside), 0);
    char *link = fileio_join(dir, "gamma");
    CU_ASSERT_EQUAL(symlink(outside, link), 0);
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "check --archive '%s'", dir), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "gamma: the campaign folder is a link"));
    free(out);
    free(link);
    free(outside);
    free(dir);
}

static void test_check_special_runs_files(void)
{
    char *dir = copy_fixture("special");
    char *fifo = fileio_join(dir, "alpha/runs.csv");
    unlink(fifo);
    CU_ASSERT_EQUAL(mkfifo(fifo, 0600), 0);
    replace_with_link(dir, "beta/runs.csv", "/dev/zero");
    char *out = NULL;
    alarm(60);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "check --archive '%s'", dir), 1);
    alarm(0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "alpha/runs.csv: cannot read: not a regular file"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "beta/runs.csv: cannot read:"));
    free(out);
    free(fifo);
    free(dir);
}

static int setup(void)
{
    return testutil_temp_dir(work, sizeof work) ? 0 : 1;
}

static int teardown(void)
{
    testutil_remove_dir(work);
    return 0;
}

/* fileio_remove_tree removes a staging folder, two levels deep, and the
 * links in it, but never what a link points to: a file outside, and a
 * folder outside reached through a link to it. */
static void test_remove_tree_keeps_link_targets(void)
{
    char *stage = path_in("stage");
    char *deep = path_in("stage/a/b/page.html");
    char *kept = path_in("kept/keep.txt"), *kept_dir = path_in("kept");
    char *link_file = path_in("stage/a/to-file"), *link_dir = path_in("stage/to-dir");
    CU_ASSERT_TRUE_FATAL(testutil_write_file(deep, "<p>x</p>\n"));
    CU_ASSERT_TRUE_FATAL(testutil_write_file(kept, "keep\n"));
    CU_ASSERT_EQUAL(symlink(kept, link_file), 0);
    CU_ASSERT_EQUAL(symlink(kept_dir, link_dir), 0);
    CU_ASSERT_TRUE(fileio_remove_tree(stage));
    struct stat st;
    CU_ASSERT_EQUAL(lstat(stage, &st), -1);
    CU_ASSERT_EQUAL(stat(kept, &st), 0);
    CU_ASSERT_TRUE(fileio_remove_tree(stage)); /* already gone: nothing to do */
    free(stage);
    free(deep);
    free(kept);
    free(kept_dir);
    free(link_file);
    free(link_dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"regular file, size limit", test_regular_file},
        {"FIFO refused at once", test_fifo_returns_at_once},
        {"/dev/zero and a sparse huge file", test_device_and_huge_file},
        {"links stay inside the root", test_links_stay_inside},
        {"removing a staging tree keeps what links point to", test_remove_tree_keeps_link_targets},
        {"check: README linked to /etc/passwd", test_check_refuses_link_out_of_archive},
        {"check: campaign folder linked from outside", test_check_refuses_linked_campaign_folder},
        {"check: FIFO and /dev/zero runs.csv", test_check_special_runs_files},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"fileio", tests}, {NULL, NULL}};
    if (setup() != 0)
        return 1;
    int rc = testutil_run_suites(suites);
    teardown();
    return rc;
}
