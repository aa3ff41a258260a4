/*
 * test_site_fitcache.c — fits cached by their inputs (gen/site/site_fitcache.h,
 * issue 22 item 9), through `perfcast build` on a synthetic archive of
 * three campaigns (tests/fixtures/site/make_synthetic.sh): a rebuild after
 * one new run refits that campaign only and gives the very bytes of a build
 * that refits everything with the same pool (checked with diff -r and cmp,
 * not with perfcast); a damaged cache is ignored, never trusted; the pool's
 * refresh rule. Refits are counted from the build's "fits:" line, never
 * timed.
 */
#include <CUnit/CUnit.h>

#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[256];

typedef struct {
    size_t fitted, reused;
    char pool[16]; /* "reused" or "filled" */
    bool ok;
} fits_line;

/* Build the archive A into site (a folder under dir) and read its "fits:" line. */
static fits_line build(const char *site, const char *extra)
{
    char *out = NULL;
    fits_line f = {0};
    int rc = testutil_perfcast_run(&out, "build --archive %s/A --out %s/%s %s", dir, dir, site,
                                   extra);
    const char *line = out ? strstr(out, "\nfits: ") : NULL;
    f.ok = rc == 0 && line &&
           sscanf(line, "\nfits: %zu experiments fitted, %zu read back from the cache; pooled "
                        "error model %15s", &f.fitted, &f.reused, f.pool) == 3;
    if (!f.ok)
        fprintf(stderr, "build %s failed (%d): %s\n", site, rc, out ? out : "");
    free(out);
    return f;
}

/* Run a shell command under dir; its exit status. */
static int sh(const char *fmt, const char *a, const char *b)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && ", dir);
    size_t n = strlen(cmd);
    snprintf(cmd + n, sizeof cmd - n, fmt, a, b);
    return testutil_run_command(cmd, NULL);
}

/* A seeded release, as .ci/nightly makes one: hard links to from. */
static void seed(const char *from, const char *to)
{
    CU_ASSERT_EQUAL_FATAL(sh("rm -rf %2$s && cp -al %1$s %2$s", from, to), 0);
}

/* The release's cache with every record's key changed (its bytes, and
 * so its hash, untouched): a build from it refits everything but reads
 * the previous pool, i.e. a cold build with the same pool. Replaced, not
 * edited in place: the file is a hard link shared with other releases. */
static void forget_fits(const char *site)
{
    CU_ASSERT_EQUAL_FATAL(sh("sed -E 's/^(fit [^ ]+ [0-9a-f]+ )[0-9a-f]{16}/\\10000000000000bad/' "
                             "%1$s/.perfcast-fits > %1$s/fits.tmp && mv %1$s/fits.tmp "
                             "%1$s/.perfcast-fits%2$s", site, ""),
                          0);
}

/* A run at np 64 (a predicted configuration) appended to campaign
 * number k (0001..0003). */
static void new_run(const char *k, const char *time)
{
    CU_ASSERT_EQUAL_FATAL(sh("echo 'syn-b,toy,64,1000,%2$s,3,2024-03-01' >> A/synthetic-%1$s/runs.csv",
                             k, time),
                          0);
}

/* A run at np 8, which the experiments train on: it changes the
 * campaign's backtests, hence what a refilled pool holds. */
static void new_training_run(const char *k, const char *time)
{
    CU_ASSERT_EQUAL_FATAL(sh("echo 'syn-b,toy,8,1000,%2$s,3,2024-03-01' >> A/synthetic-%1$s/runs.csv",
                             k, time),
                          0);
}

/* The key of campaign k's records in a release's cache (awk, not perfcast). */
static char *key_of(const char *site, const char *k)
{
    char *out = NULL;
    testutil_run_commandf(&out, "grep -a '^fit synthetic-%s ' %s/%s/.perfcast-fits | awk '{print $4}'",
                          k, dir, site);
    return out;
}

static void setup(void)
{
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "tests/fixtures/site/make_synthetic.sh 3 %s/A", dir);
    CU_ASSERT_EQUAL_FATAL(testutil_run_command(cmd, NULL), 0);
}

static void test_one_new_run(void)
{
    setup();
    fits_line f = build("s1", "");
    CU_ASSERT_TRUE_FATAL(f.ok);
    CU_ASSERT_EQUAL(f.fitted, 3);
    CU_ASSERT_EQUAL(f.reused, 0);
    CU_ASSERT_STRING_EQUAL(f.pool, "filled");

    new_run("0002", "3.61");
    seed("s1", "s2");
    f = build("s2", "");
    CU_ASSERT_TRUE_FATAL(f.ok);
    CU_ASSERT_EQUAL(f.fitted, 1); /* the campaign of the new run only */
    CU_ASSERT_EQUAL(f.reused, 2);
    CU_ASSERT_STRING_EQUAL(f.pool, "reused");
    /* Which one: the other campaigns' records kept their keys. */
    const char *same[] = {"0001", "0003"};
    for (int i = 0; i < 2; i++) {
        char *before = key_of("s1", same[i]), *after = key_of("s2", same[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(before);
        CU_ASSERT_PTR_NOT_NULL_FATAL(after);
        CU_ASSERT_EQUAL(strlen(before), 17);
        CU_ASSERT_STRING_EQUAL(before, after);
        free(before);
        free(after);
    }
    char *before = key_of("s1", "0002"), *after = key_of("s2", "0002");
    CU_ASSERT_EQUAL(strlen(after), 17);
    CU_ASSERT_STRING_NOT_EQUAL(before, after);
    free(before);
    free(after);

    /* The same archive refitted whole with the same pool: the same bytes,
     * pages and the cache itself (every record read back exactly). */
    seed("s1", "s3");
    forget_fits("s3");
    f = build("s3", "");
    CU_ASSERT_TRUE_FATAL(f.ok);
    CU_ASSERT_EQUAL(f.fitted, 3);
    CU_ASSERT_STRING_EQUAL(f.pool, "reused");
    CU_ASSERT_EQUAL(sh("diff -r %s %s > /dev/null", "s2", "s3"), 0);
    CU_ASSERT_EQUAL(sh("cmp %s/.perfcast-fits %s/.perfcast-fits", "s2", "s3"), 0);
    /* The previous release was not touched through its links. */
    CU_ASSERT_NOT_EQUAL(sh("cmp -s %s/.perfcast-fits %s/.perfcast-fits", "s1", "s2"), 0);
    testutil_remove_dir(dir);
}

static void test_damaged_cache(void)
{
    setup();
    CU_ASSERT_TRUE_FATAL(build("s1", "").ok);
    new_run("0003", "3.62");
    /* One byte of campaign 0001's first prediction changed, its last
     * (awk, on a copy). */
    seed("s1", "s2");
    CU_ASSERT_EQUAL_FATAL(sh("awk 'BEGIN{c=0} /^fit /{n=$2} n==\"synthetic-0001\" && /^pred/ && !c "
                             "{e=substr($0,length($0)); $0=substr($0,1,length($0)-1) (e==\"0\" ? "
                             "\"1\" : \"0\"); c=1} {print}' %1$s/.perfcast-fits > %1$s/t && "
                             "mv %1$s/t %1$s/.perfcast-fits%2$s", "s2", ""),
                          0);
    CU_ASSERT_NOT_EQUAL(sh("cmp -s %s/.perfcast-fits %s/.perfcast-fits", "s1", "s2"), 0);
    fits_line f = build("s2", "");
    CU_ASSERT_TRUE_FATAL(f.ok);
    CU_ASSERT_EQUAL(f.fitted, 2); /* 0003 changed, 0001 damaged */
    CU_ASSERT_EQUAL(f.reused, 1);
    seed("s1", "s3");
    forget_fits("s3");
    CU_ASSERT_TRUE_FATAL(build("s3", "").ok);
    CU_ASSERT_EQUAL(sh("diff -r %s %s > /dev/null", "s2", "s3"), 0);

    /* A cache cut in half, and one that is not a cache at all: ignored. */
    new_run("0003", "3.63");
    seed("s2", "s4");
    CU_ASSERT_EQUAL_FATAL(sh("head -c $(( $(wc -c < %1$s/.perfcast-fits) / 2 )) %1$s/.perfcast-fits "
                             "> %1$s/t && mv %1$s/t %1$s/.perfcast-fits%2$s", "s4", ""),
                          0);
    f = build("s4", "");
    CU_ASSERT_TRUE(f.ok);
    CU_ASSERT_TRUE(f.fitted >= 2 && f.fitted + f.reused == 3);
    new_run("0003", "3.64");
    seed("s4", "s5");
    CU_ASSERT_EQUAL_FATAL(sh("rm %1$s/.perfcast-fits && head -c 5000 /dev/urandom > "
                             "%1$s/.perfcast-fits%2$s", "s5", ""),
                          0);
    f = build("s5", "");
    CU_ASSERT_TRUE(f.ok);
    CU_ASSERT_EQUAL(f.fitted, 3);
    CU_ASSERT_STRING_EQUAL(f.pool, "filled");
    testutil_remove_dir(dir);
}

static void test_pool_refresh(void)
{
    setup();
    CU_ASSERT_TRUE_FATAL(build("s1", "").ok);
    /* Asked to: filled again. The archive did not change, so neither did
     * the pool's bytes, nor any key: every record is still good. */
    seed("s1", "s2");
    fits_line f = build("s2", "--refresh-pool");
    CU_ASSERT_TRUE_FATAL(f.ok);
    CU_ASSERT_STRING_EQUAL(f.pool, "filled");
    CU_ASSERT_EQUAL(f.reused, 3);

    /* Training runs grown by 17 of the 180 runs the pool was filled at:
     * under 10%, the pool is kept as it was (only 0001 refitted); the
     * 18th makes 10%: filled again, with 0001's new backtests, so every
     * key changes and everything is refitted. */
    char times[16];
    for (int i = 0; i < 17; i++) {
        snprintf(times, sizeof times, "3.%02d", 50 + i);
        new_training_run("0001", times);
    }
    seed("s2", "s3");
    f = build("s3", "");
    CU_ASSERT_TRUE_FATAL(f.ok);
    CU_ASSERT_STRING_EQUAL(f.pool, "reused");
    CU_ASSERT_EQUAL(f.fitted, 1);
    new_training_run("0002", "3.99");
    seed("s3", "s4");
    f = build("s4", "");
    CU_ASSERT_TRUE_FATAL(f.ok);
    CU_ASSERT_STRING_EQUAL(f.pool, "filled");
    CU_ASSERT_EQUAL(f.fitted, 3);

    /* A new experiment: the pool's families and campaigns changed, so it
     * is filled again (here to the same bytes: the new experiment holds
     * out the configurations its sibling does, which the pool counts
     * once); only the campaign whose files changed is refitted. */
    CU_ASSERT_EQUAL_FATAL(sh("sed -n 2p A/synthetic-%1$s/experiments.csv | sed 's/^scaling,/again,/' "
                             ">> A/synthetic-%1$s/experiments.csv%2$s", "0002", ""),
                          0);
    seed("s4", "s5");
    f = build("s5", "");
    CU_ASSERT_TRUE_FATAL(f.ok);
    CU_ASSERT_STRING_EQUAL(f.pool, "filled");
    CU_ASSERT_EQUAL(f.fitted, 2);
    CU_ASSERT_EQUAL(f.reused, 2);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"one new run refits its campaign, bytes as a full refit", test_one_new_run},
        {"a damaged cache entry or file is ignored", test_damaged_cache},
        {"the pool's refresh rule", test_pool_refresh},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"fit cache", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
