/*
 * test_fuzz_replay.c — the fuzz harnesses of tests/fuzz/ (built by
 * tests/module.mk) replayed by their plain-loop driver: the seed corpus,
 * every committed regression input (tests/fuzz/regress/<harness>/), and
 * an input too large to commit, written here: a line over 16 MiB.
 * A crash or an assertion in a harness makes the driver exit non-zero.
 *
 * It also replays the deep-nesting expressions of issue 10 (30,000
 * parentheses, 100,000 '-' and '^', 10^6 '!', 10^6 '+' terms, and a
 * filter of 100,000 '!' through experiments.csv), which crashed before the
 * expression parser bounded its nesting. With PERFCAST_AFL_DIR set (afl++ installed), it
 * runs the short fuzz smoke: each harness for PERFCAST_FUZZ_SMOKE seconds.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char work[256];

static const char *fuzz_dir(void)
{
    const char *d = getenv("PERFCAST_FUZZ_DIR");
    return d && *d ? d : "build/plain/fuzz";
}

/* Run harness over the files and folders listed (shell words); 0 when
 * every input ran without a crash. */
static int replay(const char *harness, const char *inputs)
{
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "%s/fuzz_%s %s", fuzz_dir(), harness, inputs);
    if (rc != 0 || !out || !strstr(out, "inputs ran without a crash")) {
        const char *tail = out && strlen(out) > 2000 ? out + strlen(out) - 2000 : out;
        fprintf(stderr, "\nfuzz_%s %s: exit %d\n%s\n", harness, inputs, rc, tail ? tail : "");
        rc = rc ? rc : 1;
    }
    free(out);
    return rc;
}

static void test_corpus_and_regressions(void)
{
    CU_ASSERT_EQUAL(replay("csv", "tests/fuzz/corpus/csv tests/fuzz/regress/csv"), 0);
    CU_ASSERT_EQUAL(replay("expr", "tests/fuzz/corpus/expr tests/fuzz/regress/expr"), 0);
    CU_ASSERT_EQUAL(replay("import", "tests/fuzz/corpus/import tests/fuzz/regress/import"), 0);
}

/* Write work/name: prefix, then `fill` repeated n times, then suffix. */
static bool write_input(const char *name, const char *prefix, const char *fill, size_t n,
                        const char *suffix)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", work, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fputs(prefix, f) >= 0;
    size_t len = strlen(fill);
    for (size_t i = 0; ok && i < n; i++)
        ok = fwrite(fill, 1, len, f) == len;
    ok = ok && fputs(suffix, f) >= 0;
    return fclose(f) == 0 && ok;
}

static void test_generated_csv_inputs(void)
{
    /* One byte past the 16 MiB line limit (the NUL byte is committed:
     * tests/fuzz/regress/csv/nul-in-field.csv). */
    CU_ASSERT_TRUE_FATAL(write_input("long-line.csv", "cluster,np,time_s,note\nant,1,2,", "x",
                                     ((size_t)16 << 20) + 1, "\n"));
    char inputs[600];
    snprintf(inputs, sizeof inputs, "'%s/long-line.csv'", work);
    CU_ASSERT_EQUAL(replay("csv", inputs), 0);
}

static void test_deep_expressions(void)
{
    static const char experiments[] = "cluster,np,time_s\nant,1,2\n%%\n"
        "name,model,response,formula,train,target,title,options\n"
        "deep,scopred,time_s,np,";
    const size_t million = 1000000;
    CU_ASSERT_TRUE_FATAL(write_input("parens.txt", "", "(", 30000, "np"));
    CU_ASSERT_TRUE_FATAL(write_input("minus.txt", "", "-", 100000, "np"));
    CU_ASSERT_TRUE_FATAL(write_input("power.txt", "np", "^2", 100000, ""));
    CU_ASSERT_TRUE_FATAL(write_input("not.txt", "", "!", million, "np"));
    CU_ASSERT_TRUE_FATAL(write_input("sum.txt", "np", "+np", million, ""));
    CU_ASSERT_TRUE_FATAL(write_input("filter.csv", experiments, "!", 100000, "np,np > 1,,\n"));
    char inputs[2000];
    snprintf(inputs, sizeof inputs, "'%s/parens.txt' '%s/minus.txt' '%s/power.txt' "
             "'%s/not.txt' '%s/sum.txt'", work, work, work, work, work);
    CU_ASSERT_EQUAL(replay("expr", inputs), 0);
    snprintf(inputs, sizeof inputs, "'%s/filter.csv'", work);
    CU_ASSERT_EQUAL(replay("csv", inputs), 0);
}

static void test_afl_smoke(void)
{
    const char *afl = getenv("PERFCAST_AFL_DIR"), *seconds = getenv("PERFCAST_FUZZ_SMOKE");
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "tests/fuzz/run_afl '%s' %s csv expr", afl,
                                   seconds && *seconds ? seconds : "15");
    printf("\n%s", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "expr: "));
    free(out);
}

static bool env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

int main(void)
{
    testutil_test tests[6] = {
        {"corpus and regression inputs", test_corpus_and_regressions},
        {"16 MiB line and NUL byte", test_generated_csv_inputs},
    };
    size_t n = 2;
    tests[n++] = (testutil_test){"deep-nesting expressions", test_deep_expressions};
    if (env_set("PERFCAST_AFL_DIR"))
        tests[n++] = (testutil_test){"AFL++ smoke", test_afl_smoke};
    tests[n] = (testutil_test){NULL, NULL};
    const testutil_suite suites[] = {{"fuzz replay", tests}, {NULL, NULL}};
    if (!testutil_temp_dir(work, sizeof work))
        return 1;
    int rc = testutil_run_suites(suites);
    testutil_remove_dir(work);
    return rc;
}
