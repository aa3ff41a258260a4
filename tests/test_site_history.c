/*
 * test_site_history.c — the History section (gen/site/site_history.c) read
 * back without perfcast's code: gawk reads history.csv, xmllint the chart.
 *
 *  - a small archive with a step planted by hand: one configuration doubles
 *    between two dates, one repeats its runs, one steps 30% inside a wide
 *    noise, one has a single date; the medians, days, steps and the one
 *    change are the hand-derived values (the detector's own numbers are
 *    tests/test_changepoint.c's); the alerts page says "changed on" once;
 *    two builds are byte-identical;
 *  - the embedded archive: every campaign's history.csv holds exactly the
 *    runs of the configurations that tests/history_runs.awk finds measured
 *    on two or more dates in its runs.csv, and no history.csv where none is.
 */
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char work[256];

static bool write(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", work, rel);
    return testutil_write_file(path, text);
}

/* np 2: x, 1.1x, 1.21x, then doubled (medians 1.1 -> 2.2, z = 7.1);
 * np 4: the same three times on both dates (no step);
 * np 16: medians 1.0 -> 1.3 with runs over 0.7 - 1.9 (z = 0.68);
 * np 8: one date only, so no history;
 * np 32: doubled, but one run a date: no noise to judge it by. */
static const char RUNS[] =
    "cluster,np,time_s,rep,date,note\n"
    "ant,2,1,1,2026-01-01,\n"
    "ant,2,1.1,2,2026-01-01,\n"
    "ant,2,1.21,3,2026-01-01,\n"
    "ant,2,2,1,2026-01-08,after the upgrade\n"
    "ant,2,2.2,2,2026-01-08,\n"
    "ant,2,2.42,3,2026-01-08,\n"
    "ant,4,1,1,2026-01-01,\n"
    "ant,4,1.1,2,2026-01-01,\n"
    "ant,4,1.21,3,2026-01-01,\n"
    "ant,4,1.21,1,2026-01-08,\n"
    "ant,4,1,2,2026-01-08,\n"
    "ant,4,1.1,3,2026-01-08,\n"
    "ant,8,0.5,1,2026-01-01,\n"
    "ant,8,0.6,2,2026-01-01,\n"
    "ant,16,1,1,2026-01-01,\n"
    "ant,16,1.5,2,2026-01-01,\n"
    "ant,16,0.7,3,2026-01-01,\n"
    "ant,16,1.3,1,2026-01-08,\n"
    "ant,16,0.9,2,2026-01-08,\n"
    "ant,16,1.9,3,2026-01-08,\n"
    "ant,32,1,1,2026-01-01,\n"
    "ant,32,2,1,2026-01-08,\n";

static bool write_archive(void)
{
    return write("arch/clusters.csv",
                 "cluster,description,nodes,cores_per_node,mem_per_core_gb,interconnect,"
                 "rate_per_core_hour,currency\nant,first,16,4,2,Ethernet,0.5,GBP\n") &&
           write("arch/drift/README.md", "# drift\n\nA job measured on two dates.\n") &&
           write("arch/drift/experiments.csv",
                 "name,model,response,formula,train,target,title,options\n") &&
           write("arch/drift/runs.csv", RUNS);
}

static bool build(const char *archive, const char *out)
{
    char *output = NULL;
    int rc = testutil_perfcast_run(&output, "build --archive '%s' --out '%s' --quiet", archive,
                                   out);
    if (rc != 0)
        fprintf(stderr, "\nperfcast build: %s\n", output ? output : "");
    free(output);
    return rc == 0;
}

/* gawk over history.csv: per date of each configuration, "np date day
 * runs median changed step" (step "-" on a first date). */
static char *history_summary(const char *csv)
{
    char *out = NULL;
    int rc = testutil_run_commandf(
        &out,
        TESTUTIL_GAWK_CSV
        "'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }"
        " { printf \"%%s %%s %%s %%s %%.6g %%s %%s\\n\", $c[\"np\"], $c[\"date\"], $c[\"day\"],"
        " $c[\"date_runs\"], $c[\"date_median_s\"], $c[\"changed\"],"
        " $c[\"step_pct\"] == \"\" ? \"-\" : sprintf(\"%%.6g\", $c[\"step_pct\"]) }' '%s' | uniq",
        csv);
    if (rc != 0) {
        free(out);
        return NULL;
    }
    return out;
}

static size_t count(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = text; p && (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

static void test_planted_step(void)
{
    char path[1024], site[300], again[300];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(work, sizeof work));
    CU_ASSERT_TRUE_FATAL(write_archive());
    snprintf(path, sizeof path, "%s/arch", work);
    snprintf(site, sizeof site, "%s/site", work);
    snprintf(again, sizeof again, "%s/again", work);
    CU_ASSERT_TRUE_FATAL(build(path, site));

    /* Medians by hand: the middle run of three; days: 2026-01-08 is 7
     * days after 2026-01-01; steps 100 (np 2), 0 (np 4), 30 (np 16). */
    snprintf(path, sizeof path, "%s/campaigns/drift/history.csv", site);
    char *summary = history_summary(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(summary);
    CU_ASSERT_STRING_EQUAL(summary, "2 2026-01-01 0 3 1.1 no -\n"
                                    "2 2026-01-08 7 3 2.2 yes 100\n"
                                    "4 2026-01-01 0 3 1.1 no -\n"
                                    "4 2026-01-08 7 3 1.1 no 0\n"
                                    "16 2026-01-01 0 3 1 no -\n"
                                    "16 2026-01-08 7 3 1.3 no 30\n"
                                    "32 2026-01-01 0 1 1 no -\n"
                                    "32 2026-01-08 7 1 2  100\n");
    free(summary);

    /* The page: the section, its chart (well-formed SVG with the step's
     * legend) and data; the alerts page: the one change. */
    snprintf(path, sizeof path, "%s/campaigns/drift/index.md", site);
    char *page = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "## History"));
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "4 configurations of this campaign were measured on two "
                                        "or more dates; 1 change found."));
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "1 of the configurations has no repetitions"));
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "](history.svg)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "[history.csv](history.csv)"));
    CU_ASSERT_EQUAL(count(page, "changed on 2026-01-08"), 1);
    free(page);
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "xmllint --noout '%s/campaigns/drift/history.svg'"
                                          " && xmllint --xpath 'count(//*[local-name()=\"text\"]"
                                          "[contains(., \"change: the step\")])' "
                                          "'%s/campaigns/drift/history.svg'", site, site),
                    0);
    CU_ASSERT_EQUAL(out ? atoi(out) : -1, 1);
    free(out);
    snprintf(path, sizeof path, "%s/campaigns/drift/history.png", site);
    char *png = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(png && memcmp(png, "\x89PNG", 4) == 0 ? png : NULL);
    free(png);

    snprintf(path, sizeof path, "%s/alerts.md", site);
    char *alerts = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(alerts);
    CU_ASSERT_EQUAL(count(alerts, "changed on "), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(alerts, "| 2 processes on ant | changed on 2026-01-08 | 1.1 s \xE2\x86\x92 "
                                          "2.2 s | +100.0 | 3, 3 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(alerts, "(campaigns/drift/index.md#history)"));
    free(alerts);

    /* Deterministic: a second build into a new folder is byte-identical. */
    snprintf(path, sizeof path, "%s/arch", work);
    CU_ASSERT_TRUE_FATAL(build(path, again));
    CU_ASSERT_EQUAL(testutil_run_commandf(&out, "diff -r '%s' '%s'", site, again), 0);
    free(out);
    testutil_remove_dir(work);
}

/* Without a second date nothing is shown: the same archive with np 8 only. */
static void test_single_date_no_section(void)
{
    char path[1024], site[300];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(work, sizeof work));
    CU_ASSERT_TRUE_FATAL(write_archive());
    CU_ASSERT_TRUE_FATAL(write("arch/drift/runs.csv", "cluster,np,time_s,rep,date\n"
                                                      "ant,8,0.5,1,2026-01-01\n"
                                                      "ant,8,0.6,2,2026-01-01\n"));
    snprintf(path, sizeof path, "%s/arch", work);
    snprintf(site, sizeof site, "%s/site", work);
    CU_ASSERT_TRUE_FATAL(build(path, site));
    snprintf(path, sizeof path, "%s/campaigns/drift/index.md", site);
    char *page = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    CU_ASSERT_PTR_NULL(strstr(page, "## History"));
    free(page);
    snprintf(path, sizeof path, "%s/campaigns/drift/history.csv", site);
    char *csv = testutil_read_file(path);
    CU_ASSERT_PTR_NULL(csv);
    free(csv);
    snprintf(path, sizeof path, "%s/alerts.md", site);
    char *alerts = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(alerts && strstr(alerts, "No configuration was measured on two or "
                                                    "more dates."));
    free(alerts);
    testutil_remove_dir(work);
}

/* The embedded archive: history.csv per campaign against awk on runs.csv. */
static void test_embedded_archive(void)
{
    char site[300];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(work, sizeof work));
    snprintf(site, sizeof site, "%s/site", work);
    CU_ASSERT_TRUE_FATAL(build("archive", site));
    char *out = NULL;
    int rc = testutil_run_commandf(
        &out,
        "set -e; with=0; for d in archive/*/; do c=$(basename \"$d\");"
        " [ -f \"$d/runs.csv\" ] || continue;"
        " gawk -v source=runs -f tests/history_runs.awk \"$d/runs.csv\" | sort > '%s/want';"
        " h='%s/campaigns/'\"$c\"/history.csv;"
        " if [ -f \"$h\" ]; then gawk -v source=history -f tests/history_runs.awk \"$h\" | sort;"
        " else echo 'configurations 0'; fi > '%s/got';"
        " cmp -s '%s/want' '%s/got' || { echo \"$c differs\"; exit 1; };"
        " if [ -f \"$h\" ]; then with=$((with + 1)); fi; done; echo \"$with\"",
        work, site, work, work, work);
    CU_ASSERT_EQUAL(rc, 0);
    /* At least the campaign re-measured for it (archive/mgbench-strip). */
    CU_ASSERT_TRUE(out && atoi(out) >= 1);
    if (rc != 0 || !out || atoi(out) < 1)
        fprintf(stderr, "\n%s\n", out ? out : "");
    free(out);
    testutil_remove_dir(work);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"a planted step, read back with gawk", test_planted_step},
        {"one date: no history", test_single_date_no_section},
        {"the embedded archive against awk on runs.csv", test_embedded_archive},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"site_history", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
