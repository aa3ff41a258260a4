/*
 * test_readme.c — every command example of README.md runs as written.
 *
 * Each line of a ```sh block of README.md that starts with `perfcast ` is
 * run, in order, in a scratch copy of the embedded archive (archive/,
 * templates/ and the import fixtures copied to a temporary folder, so the
 * examples that write — import, build — touch nothing of the checkout), with
 * the perfcast under test; every one must exit 0 and print something.
 * Lines starting with `make` are the build itself and are not run here
 * (`make check` is what runs this test); `.ci/…` lines (the nightly
 * recipe) are run the same way, with PERFCAST naming the binary.
 */
#include "tests/testutil.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_readme_examples(void)
{
    char *readme = testutil_read_file("README.md");
    CU_ASSERT_PTR_NOT_NULL_FATAL(readme);
    char dir[256], bin[PATH_MAX], root[PATH_MAX];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(testutil_perfcast(), bin));
    CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(".", root));
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(&out, "mkdir -p %s/tests/fixtures && cp -r archive "
                                                      "templates %s/ && cp -r tests/fixtures/import "
                                                      "%s/tests/fixtures/", dir, dir, dir), 0);
    free(out);
    size_t run = 0;
    bool in_sh = false;
    for (char *line = strtok(readme, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "```", 3) == 0) {
            in_sh = !in_sh && strcmp(line, "```sh") == 0;
            continue;
        }
        if (!in_sh)
            continue;
        bool is_perfcast = strncmp(line, "perfcast ", 9) == 0;
        bool is_script = strncmp(line, ".ci/", 4) == 0;
        if (!is_perfcast && !is_script)
            continue;
        int rc = is_perfcast
                     ? testutil_run_commandf(&out, "cd %s && PATH=%s:$PATH %s %s 2>&1", dir,
                                             root, bin, line + 9)
                     : testutil_run_commandf(&out, "cd %s && PERFCAST=%s %s/%s 2>&1", dir, bin,
                                             root, line);
        if (rc != 0 || !out || !*out)
            fprintf(stderr, "\nREADME example failed (exit %d): %s\n%s\n", rc, line,
                    out ? out : "");
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_TRUE(out && *out);
        free(out);
        run++;
    }
    CU_ASSERT_TRUE(run >= 10); /* the examples are there, and were found */
    testutil_remove_dir(dir);
    free(readme);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"every README example runs", test_readme_examples},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"readme", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
