/*
 * test_completion.c — the man page (gen/cli/perfcast.1) and the bash
 * completion (gen/cli/perfcast.bash) cover every command and every option
 * (issue 21 item 10): each option that a command's --help lists is offered
 * by the completion and named in the man page, so a new option without
 * them fails here; and the completion completes compare, build's options,
 * import's --delimiter/--decimal-comma/--allow-truncated, campaign and
 * cluster names (also after plan's "CA," and in advise's --free C:N). Run
 * from the source tree, with the perfcast under test first on PATH.
 */
#include "tests/testutil.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const commands[] = {"list",   "check", "build", "fit",   "predict",
                                       "advise", "plan",  "compare", "import"};
static char dir[256];

/* COMPREPLY for the words (a bash array body) with the cursor on word
 * cword, one line, malloc'ed; NULL on failure. */
static char *complete(const char *words, int cword)
{
    char *out = NULL;
    int rc = testutil_run_commandf(&out,
                                   "bash -c 'PATH=%s/bin:$PATH; . gen/cli/perfcast.bash; "
                                   "COMP_WORDS=(%s); COMP_CWORD=%d; _perfcast; "
                                   "echo \"${COMPREPLY[*]}\"' 2>&1",
                                   dir, words, cword);
    if (rc != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* The options a command's --help lists ("--name"), one a line (malloc'ed). */
static char *help_options(const char *cmd)
{
    char *out = NULL;
    testutil_run_commandf(&out,
                          "%s/bin/perfcast %s --help | grep -oE '^ +--[a-z0-9-]+' | tr -d ' ' "
                          "| sort -u",
                          dir, cmd);
    return out;
}

/* Every option of every command's --help is offered after "--". */
static void test_completion_covers_help(void)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char *opts = help_options(commands[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(opts);
        CU_ASSERT_PTR_NOT_NULL(strstr(opts, "--help"));
        char words[64];
        snprintf(words, sizeof words, "perfcast %s --", commands[i]);
        char *offered = complete(words, 2);
        CU_ASSERT_PTR_NOT_NULL_FATAL(offered);
        char padded[4096];
        snprintf(padded, sizeof padded, " %.*s ", (int)strcspn(offered, "\n"), offered);
        for (char *opt = strtok(opts, "\n"); opt; opt = strtok(NULL, "\n")) {
            char want[128];
            snprintf(want, sizeof want, " %s ", opt);
            if (!strstr(padded, want))
                fprintf(stderr, "\ncompletion of %s lacks %s\n", commands[i], opt);
            CU_ASSERT_PTR_NOT_NULL(strstr(padded, want));
        }
        free(offered);
        free(opts);
    }
}

/* Every command has its entry in the man page, and every option of its
 * --help is named there (in the groff source: \-\- and fonts taken out). */
static void test_man_covers_help(void)
{
    char *man = testutil_read_file("gen/cli/perfcast.1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(man);
    /* Plain text: "\-" -> "-", font escapes \fB \fI \fR \fP dropped. */
    char *w = man;
    for (const char *r = man; *r;) {
        if (r[0] == '\\' && r[1] == '-') {
            *w++ = '-';
            r += 2;
        } else if (r[0] == '\\' && r[1] == 'f' && r[2]) {
            r += 3;
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char entry[64];
        snprintf(entry, sizeof entry, ".BR %s ", commands[i]);
        if (!strstr(man, entry))
            fprintf(stderr, "\nman page has no entry for %s\n", commands[i]);
        CU_ASSERT_PTR_NOT_NULL(strstr(man, entry));
        char *opts = help_options(commands[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(opts);
        for (char *opt = strtok(opts, "\n"); opt; opt = strtok(NULL, "\n")) {
            if (strcmp(opt, "--help") == 0)
                continue; /* one entry under OPTIONS for every command */
            if (!strstr(man, opt))
                fprintf(stderr, "\nman page lacks %s %s\n", commands[i], opt);
            CU_ASSERT_PTR_NOT_NULL(strstr(man, opt));
        }
        free(opts);
    }
    free(man);
    /* It renders without a warning. */
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "LANG=C MANWIDTH=80 man --warnings -l "
                                                "gen/cli/perfcast.1 2>&1 >/dev/null"),
                    0);
    CU_ASSERT_TRUE(out && *out == '\0');
    if (out && *out)
        fprintf(stderr, "\n%s\n", out);
    free(out);
}

/* Commands, formats, names from the embedded archive. */
static void test_completes_names(void)
{
    static const struct {
        const char *words;
        int cword;
        const char *want;
    } cases[] = {
        {"perfcast com", 1, "compare"},
        {"perfcast compare scopred-e", 2, "scopred-ep"},
        {"perfcast compare scopred-ep table2", 3, "table2a table2b"},
        {"perfcast compare --format c", 3, "csv"},
        {"perfcast build --up", 2, "--up-to-date"},
        {"perfcast build --base", 2, "--base-url"},
        {"perfcast import --dec", 2, "--decimal-comma"},
        {"perfcast import --all", 2, "--allow-truncated"},
        {"perfcast import --delim", 2, "--delimiter"},
        {"perfcast import --time", 2, "--time-unit"},
        {"perfcast import --time-unit m", 3, "ms min"},
        {"perfcast import extrap --cluster dev-", 4, "dev-16core"},
        {"perfcast plan --cluster ci-", 3, "ci-2core"},
        {"perfcast plan --cluster ci-2core,sim-a", 3, "ci-2core,sim-a-fe"},
        {"perfcast plan --campaign mgbench-s", 3, "mgbench-strip"},
        {"perfcast plan --format p", 3, "pbs"},
        {"perfcast plan --launcher m", 3, "mpirun"},
        {"perfcast advise --free wrg2-my", 3, "wrg2-myrinet:"},
        {"perfcast advise --free wrg2-myrinet:8,wrg3-my", 3, "wrg2-myrinet:8,wrg3-myrinet:"},
        {"perfcast predict --archive archive scopred-e", 4, "scopred-ep"},
        {"perfcast build --verify --out", 3, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = complete(cases[i].words, cases[i].cword);
        bool ok = out && strncmp(out, cases[i].want, strlen(cases[i].want)) == 0;
        if (!ok)
            fprintf(stderr, "\n%s: '%s'\n", cases[i].words, out ? out : "(failed)");
        CU_ASSERT_TRUE(ok);
        free(out);
    }
}

int main(void)
{
    static const testutil_test tests[] = {
        {"completion offers every option of every --help", test_completion_covers_help},
        {"man page names every command and option", test_man_covers_help},
        {"commands, formats, campaign and cluster names", test_completes_names},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"completion", tests}, {NULL, NULL}};
    char bin[PATH_MAX], *out = NULL;
    if (!testutil_temp_dir(dir, sizeof dir) || !realpath(testutil_perfcast(), bin) ||
        testutil_run_commandf(&out, "mkdir -p %s/bin && ln -s %s %s/bin/perfcast", dir, bin,
                              dir) != 0)
        return 1;
    free(out);
    int status = testutil_run_suites(suites);
    testutil_remove_dir(dir);
    return status;
}
