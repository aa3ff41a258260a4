/*
 * test_cli_conventions.c — the command line behaves as Unix tools do:
 * --version, `perfcast list`, "did you mean" for mistyped names, one-line
 * usage errors, the man page and bash completion installed by
 * `make install DESTDIR=...` and working from there.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

static void test_version(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "--version"), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strncmp(out, "perfcast 1.", 11) == 0 ? out : NULL);
    CU_ASSERT_EQUAL(count_lines(out), 1);
    free(out);
}

static void test_list(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "list --archive archive"), 0);
    /* Every campaign folder of the embedded archive and a cluster. */
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "scopred-ep "));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "mgbench-strip "));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "\n  wrg3-myrinet\n"));
    free(out);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "list scopred-ep"), 0);
    /* One line per row of scopred-ep/experiments.csv: 7 experiments. */
    CU_ASSERT_EQUAL(count_lines(out), 7);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "table2a\tscopred\ttime_s\t"));
    free(out);
}

static void test_did_you_mean(void)
{
    static const struct {
        const char *args, *want;
        int rc;
    } cases[] = {
        {"predict scopred-epp table2a", "no usable campaign 'scopred-epp' in archive; did you mean 'scopred-ep'?", 1},
        {"fit scopred-ep tabel2a", "no experiment 'tabel2a' in scopred-ep; did you mean 'table2a'?", 1},
        {"list scoprde-ft", "did you mean 'scopred-ft'?", 1},
        {"compare scopred-pe", "no usable campaign 'scopred-pe' in archive; did you mean 'scopred-ep'?", 1},
        {"compare scopred-ep tabel2a", "no experiment 'tabel2a' in scopred-ep; did you mean 'table2a'?", 1},
        {"advise --free wrg3-myrinett:4 --size 1024x1024",
         "no cluster 'wrg3-myrinett' in clusters.csv; did you mean 'wrg3-myrinet'?", 1},
        {"prdict", "unknown command 'prdict' (did you mean 'predict'?)", 2},
        {"predict --formt csv scopred-ep table2a",
         "perfcast: unknown option --formt (did you mean --format?); see perfcast predict --help", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL;
        int rc = testutil_perfcast_run(&out, "%s", cases[i].args);
        if (!out || !strstr(out, cases[i].want))
            fprintf(stderr, "\n%s: %s\n", cases[i].args, out ? out : "");
        CU_ASSERT_EQUAL(rc, cases[i].rc);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, cases[i].want));
        free(out);
    }
    /* Nothing close: no suggestion. */
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "predict zzzzzz table2a"), 1);
    CU_ASSERT_PTR_NULL(out ? strstr(out, "did you mean") : NULL);
    free(out);
    /* A campaign that is there but left out (no README.md) is not
     * suggested back to itself. */
    char dir[256], readme[320];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_TRUE_FATAL(testutil_write_archive(dir, "cluster\nc\n", "camp",
                                                "name,model,train,target\ne,scopred,np < 4,np == 4\n",
                                                "cluster,np,time_s\nc,1,4\nc,2,2\nc,4,1\n"));
    snprintf(readme, sizeof readme, "%s/camp/README.md", dir);
    CU_ASSERT_EQUAL(remove(readme), 0);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "predict --archive %s camp e", dir), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "'camp' is there but was left out: see the problems "
                                              "above"));
    CU_ASSERT_PTR_NULL(out ? strstr(out, "did you mean") : NULL);
    free(out);
    testutil_remove_dir(dir);
}

/* A perfcast copied away from its tree (and not installed) finds no
 * shipped error prior and says so, since its intervals then differ; in
 * its tree, or told PERFCAST_ERROR_PRIOR=none, it says nothing. */
static void test_missing_prior_warned(void)
{
    if (access("/usr/local/share/perfcast/error_prior.tsv", F_OK) == 0 ||
        access("/usr/share/perfcast/error_prior.tsv", F_OK) == 0)
        return; /* installed on this machine: a copy finds that one */
    char dir[256], *out = NULL;
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(NULL, "cp '%s' %s/perfcast", testutil_perfcast(),
                                                dir), 0);
    static const char warning[] = "warning: the shipped error prior (error_prior.tsv) is not";
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "env -u PERFCAST_ERROR_PRIOR %s/perfcast predict "
                                                "scopred-ep table2a 2>&1 >/dev/null", dir), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, warning));
    free(out);
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "PERFCAST_ERROR_PRIOR=none %s/perfcast predict "
                                                "scopred-ep table2a 2>&1 >/dev/null", dir), 0);
    CU_ASSERT_PTR_NULL(out ? strstr(out, warning) : NULL);
    free(out);
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "env -u PERFCAST_ERROR_PRIOR '%s' predict "
                                                "scopred-ep table2a 2>&1 >/dev/null",
                                          testutil_perfcast()), 0);
    CU_ASSERT_PTR_NULL(out ? strstr(out, warning) : NULL);
    free(out);
    testutil_remove_dir(dir);
}

/* A usage error is one line on stderr, naming the command's --help. */
static void test_one_line_usage_errors(void)
{
    static const char *const cases[] = {
        "check --bogus", "build --bogus", "fit --bogus", "predict --bogus", "advise --bogus",
        "plan --bogus", "import --bogus", "list --bogus",
        /* An option with a value given twice: the last silently won. */
        "build --out a --out b", "predict --format csv --format json scopred-ep table2a",
        "list --archive archive --archive x", "report --out a.pdf --out b.pdf",
        "advise --size 4096x4096 --free ci-2core:8 --free dev-16core:16",
        "plan --model strip --target 4096x4096 --np 16 --np 8",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL;
        int rc = testutil_perfcast_run(&out, "%s", cases[i]);
        char cmd[32], want[96];
        sscanf(cases[i], "%31s", cmd);
        snprintf(want, sizeof want, "; see perfcast %s --help\n", cmd);
        if (rc != 2 || count_lines(out) != 1 || !strstr(out, want))
            fprintf(stderr, "\n%s: rc %d\n%s", cases[i], rc, out ? out : "");
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT_EQUAL(count_lines(out), 1);
        CU_ASSERT_PTR_NOT_NULL(out && strstr(out, want));
        free(out);
    }
}

/* make install DESTDIR=...: the man page reads with man, the completion
 * completes commands, campaigns and experiments. */
static void test_install_man_and_completion(void)
{
    char dir[256];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    const char *san = getenv("PERFCAST_SAN");
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "make --no-print-directory install SAN=%s DESTDIR=%s "
                                         "PREFIX=/usr 2>&1",
                                   san && strcmp(san, "1") == 0 ? "1" : "0", dir);
    if (rc != 0)
        fprintf(stderr, "\n%s\n", out ? out : "");
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(out);
    rc = testutil_run_commandf(&out, "MANWIDTH=80 man %s/usr/share/man/man1/perfcast.1 2>&1 | cat",
                               dir);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "perfcast - predict parallel run times"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "EXIT STATUS"));
    free(out);
    /* The installed binary is the one under test. */
    rc = testutil_run_commandf(&out, "%s/usr/bin/perfcast --version", dir);
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    static const struct {
        const char *words;
        int cword;
        const char *want;
    } cases[] = {
        {"perfcast pre", 1, "predict"},
        {"perfcast predict scopred-e", 2, "scopred-ep"},
        {"perfcast predict scopred-ep table2", 3, "table2a table2b"},
        {"perfcast import ex", 2, "extrap"},
        {"perfcast plan --format sl", 3, "slurm"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rc = testutil_run_commandf(&out,
                                   "bash -c 'PATH=%s/usr/bin:$PATH; . %s/usr/share/bash-completion/"
                                   "completions/perfcast; COMP_WORDS=(%s); COMP_CWORD=%d; "
                                   "_perfcast; echo \"${COMPREPLY[*]}\"'",
                                   dir, dir, cases[i].words, cases[i].cword);
        if (!out || strncmp(out, cases[i].want, strlen(cases[i].want)) != 0)
            fprintf(stderr, "\n%s: '%s'\n", cases[i].words, out ? out : "");
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_PTR_NOT_NULL(out && strncmp(out, cases[i].want, strlen(cases[i].want)) == 0 ? out : NULL);
        free(out);
    }
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"--version", test_version},
        {"list and list CAMPAIGN", test_list},
        {"did you mean", test_did_you_mean},
        {"a copy away from its tree warns that it has no error prior", test_missing_prior_warned},
        {"one-line usage errors", test_one_line_usage_errors},
        {"make install: man page and bash completion", test_install_man_and_completion},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"cli-conventions", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
