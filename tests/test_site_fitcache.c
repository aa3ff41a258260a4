/*
 * test_site_fitcache.c — fits cached by their inputs (gen/site/site_fitcache.h,
 * issue 22 item 9), through `perfcast build` on a synthetic archive of
 * three campaigns (tests/fixtures/site/make_synthetic.sh): a rebuild after
 * one new run refits that campaign only and gives the very bytes of a build
 * that refits everything with the same pool (checked with diff -r and cmp,
 * not with perfcast); a damaged cache is ignored, never trusted; the pool's
 * refresh rule. Refits are counted from the build's "fits:" line, never
 * timed.
 *
 * Campaign pages kept by key (site_page_folder_reuse, gen/site/site_pages.h):
 * after one new run the other campaigns' folders are the previous files
 * themselves (hard links shared with the previous release, by find) under
 * the keys the previous manifest gave them (awk), and the whole release is
 * the bytes of a build that makes every page (diff -r); a changed template
 * or cluster row makes every campaign page again; a kept folder with one
 * file changed in place is made again whole.
 */
#include <CUnit/CUnit.h>

#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A release with no page at all and the cache of from with every record
 * forgotten (forget_fits): a build into it makes every page and refits
 * every experiment, with the pool of from. */
static void pages_from_nothing(const char *from, const char *to)
{
    CU_ASSERT_EQUAL_FATAL(sh("rm -rf %2$s && mkdir %2$s && cp %1$s/.perfcast-fits %2$s/", from, to),
                          0);
    forget_fits(to);
}

/* The key the manifest of site records for campaign k's page (awk). */
static char *page_key_of(const char *site, const char *k)
{
    char *out = NULL;
    testutil_run_commandf(&out, "awk '$4 == \"campaigns/synthetic-%s/index.md\" {print $2}' "
                                "%s/%s/.perfcast-manifest", k, dir, site);
    return out;
}

/* Whether campaign k's page has the same key in the manifests of a and b. */
static bool same_page_key(const char *a, const char *b, const char *k)
{
    char *ka = page_key_of(a, k), *kb = page_key_of(b, k);
    bool same = ka && kb && strlen(ka) == 17 && strcmp(ka, kb) == 0;
    CU_ASSERT_TRUE(ka && strlen(ka) == 17 && strcmp(ka, "0000000000000000\n") != 0);
    free(ka);
    free(kb);
    return same;
}

/* How many files of campaign k's folder in site have a single link: were
 * written by its build rather than kept from the release it was seeded
 * from (find). */
static int new_files(const char *site, const char *k)
{
    char *out = NULL;
    testutil_run_commandf(&out, "find %s/%s/campaigns/synthetic-%s -type f -links 1 | wc -l", dir,
                          site, k);
    int n = out ? atoi(out) : -1;
    free(out);
    return n;
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

/* The cache comes with the release it was made for (a --previous build
 * leaves the previous release's own cache as it was: same inode, same
 * bytes), and a cache whose place a folder takes fails nothing: the site
 * is built, a warning says the cache was not written, the folder stays. */
static void test_cache_with_release(void)
{
    setup();
    CU_ASSERT_TRUE_FATAL(build("s1", "").ok);
    char *before = NULL;
    testutil_run_commandf(&before, "cd %s && ls -i s1/.perfcast-fits && sha256sum s1/.perfcast-fits",
                          dir);
    new_run("0002", "3.71");
    char prev[400];
    snprintf(prev, sizeof prev, "--previous %s/s1", dir);
    fits_line f = build("s2", prev);
    CU_ASSERT_TRUE_FATAL(f.ok);
    CU_ASSERT_EQUAL(f.fitted, 1);
    char *after = NULL;
    testutil_run_commandf(&after, "cd %s && ls -i s1/.perfcast-fits && sha256sum s1/.perfcast-fits",
                          dir);
    CU_ASSERT_TRUE(before && after && strcmp(before, after) == 0);
    free(before);
    free(after);
    /* s2's cache is its own file, and the next release reads it. */
    CU_ASSERT_EQUAL(sh("test $(stat -c %%h %s/.perfcast-fits) = 1%s", "s2", ""), 0);
    new_run("0002", "3.72");
    snprintf(prev, sizeof prev, "--previous %s/s2", dir);
    f = build("s3", prev);
    CU_ASSERT_TRUE(f.ok && f.fitted == 1 && f.reused == 2);

    /* In place, the cache's place taken by a folder. */
    CU_ASSERT_EQUAL_FATAL(sh("rm %1$s/.perfcast-fits && mkdir %1$s/.perfcast-fits%2$s", "s3", ""), 0);
    new_run("0002", "3.73");
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "build --archive %s/A --out %s/s3", dir, dir);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "warning: the cache of fits"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "3 experiments fitted, 0 read back")); /* none to read */
    free(out);
    CU_ASSERT_EQUAL(sh("test -d %s/.perfcast-fits%s", "s3", ""), 0);
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
    /* The pool is an input of every campaign page too: 0003's files did
     * not change, its page is made again all the same. */
    CU_ASSERT_FALSE(same_page_key("s3", "s4", "0003"));

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

static void test_pages_by_key(void)
{
    setup();
    CU_ASSERT_TRUE_FATAL(build("s1", "").ok);
    new_run("0002", "3.61");
    seed("s1", "s2");
    CU_ASSERT_TRUE_FATAL(build("s2", "").ok);
    /* The other campaigns' folders: the same keys, not one file rewritten. */
    CU_ASSERT_TRUE(same_page_key("s1", "s2", "0001"));
    CU_ASSERT_TRUE(same_page_key("s1", "s2", "0003"));
    CU_ASSERT_FALSE(same_page_key("s1", "s2", "0002"));
    CU_ASSERT_EQUAL(new_files("s2", "0001"), 0);
    CU_ASSERT_EQUAL(new_files("s2", "0003"), 0);
    CU_ASSERT_TRUE(new_files("s2", "0002") >= 2); /* its page, as .md and .html */
    /* Every byte as a build that makes every page with the same pool,
     * the manifest and the cache included. */
    pages_from_nothing("s1", "s3");
    CU_ASSERT_TRUE_FATAL(build("s3", "").ok);
    CU_ASSERT_EQUAL(sh("diff -r %s %s > /dev/null", "s2", "s3"), 0);
    /* and every page as a cold build into a new folder (which fills its
     * own pool, so its cache and the keys in its manifest differ). */
    CU_ASSERT_TRUE_FATAL(build("cold", "").ok);
    CU_ASSERT_EQUAL(sh("diff -r -x .perfcast-fits -x .perfcast-manifest %s %s > /dev/null", "s2",
                       "cold"),
                    0);

    /* A kept folder's file changed in place (a new file renamed over it,
     * as an editor saves): the folder is made again, to the right bytes. */
    seed("s2", "s4");
    CU_ASSERT_EQUAL_FATAL(sh("cd %1$s/campaigns/synthetic-0001 && printf x > t && mv t "
                             "scaling-predictions.csv%2$s", "s4", ""),
                          0);
    CU_ASSERT_TRUE_FATAL(build("s4", "").ok);
    CU_ASSERT_EQUAL(sh("diff -r %s %s > /dev/null", "s4", "s3"), 0);
    /* The same at the same size (one byte changed): found by its hash. */
    seed("s2", "s4b");
    CU_ASSERT_EQUAL_FATAL(sh("cd %1$s/campaigns/synthetic-0001 && cp scaling-predictions.csv t && "
                             "printf Z | dd of=t bs=1 seek=3 conv=notrunc 2>/dev/null && "
                             "! cmp -s t scaling-predictions.csv && mv t scaling-predictions.csv%2$s",
                             "s4b", ""),
                          0);
    CU_ASSERT_TRUE_FATAL(build("s4b", "").ok);
    CU_ASSERT_EQUAL(sh("diff -r %s %s > /dev/null", "s4b", "s3"), 0);

    /* A changed template makes every page again, with it. */
    char source[512] = "", *cwd = getcwd(NULL, 0); /* the tests run in the repository */
    snprintf(source, sizeof source, "%s/templates", cwd ? cwd : ".");
    free(cwd);
    CU_ASSERT_EQUAL_FATAL(sh("cp -r %1$s T && echo '<!-- night -->' >> T/page.html%2$s", source, ""),
                          0);
    seed("s2", "s5");
    char templates[300];
    snprintf(templates, sizeof templates, "--templates %s/T", dir);
    CU_ASSERT_TRUE_FATAL(build("s5", templates).ok);
    for (int k = 1; k <= 3; k++) {
        char name[8];
        snprintf(name, sizeof name, "%04d", k);
        CU_ASSERT_FALSE(same_page_key("s2", "s5", name));
    }
    CU_ASSERT_EQUAL(sh("test -z \"$(grep -L -- '<!-- night -->' %s/campaigns/*/index.html)\"%s",
                       "s5", ""),
                    0);
    pages_from_nothing("s2", "s6");
    CU_ASSERT_TRUE_FATAL(build("s6", templates).ok);
    CU_ASSERT_EQUAL(sh("diff -r %s %s > /dev/null", "s5", "s6"), 0);

    /* A cluster's row changed: every campaign's page shows the clusters. */
    CU_ASSERT_EQUAL_FATAL(sh("sed -i 's/synthetic cluster A/renamed cluster A/' "
                             "A/clusters.csv%s%s", "", ""),
                          0);
    seed("s2", "s7");
    CU_ASSERT_TRUE_FATAL(build("s7", "").ok);
    CU_ASSERT_FALSE(same_page_key("s2", "s7", "0001"));
    pages_from_nothing("s2", "s8");
    CU_ASSERT_TRUE_FATAL(build("s8", "").ok);
    CU_ASSERT_EQUAL(sh("diff -r %s %s > /dev/null", "s7", "s8"), 0);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"one new run refits its campaign, bytes as a full refit", test_one_new_run},
        {"a damaged cache entry or file is ignored", test_damaged_cache},
        {"the cache comes with its release; a taken place fails nothing",
         test_cache_with_release},
        {"the pool's refresh rule", test_pool_refresh},
        {"campaign pages kept by key, bytes as a full build", test_pages_by_key},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"fit cache", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
