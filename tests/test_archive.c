/*
 * test_archive.c — archive ingest: every bad input of tests/fixtures/bad is
 * reported once, at the right file, line and column; good input in all its
 * accepted forms loads into the right typed values.
 */
#include "gen/cli/archive_check.h"
#include "gen/ingest/archive.h"
#include "gen/ingest/experiment_check.h"
#include "tests/testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BAD_ARCHIVE "tests/fixtures/bad"

/* Does a problem match an expected line "FILE:LINE:COL: text" of case dir? */
static bool matches(const diag *g, const char *dir, const char *expected)
{
    char file[256], want_file[1024];
    long line = 0, column = 0;
    int used = 0;
    if (sscanf(expected, "%255[^:]:%ld:%ld: %n", file, &line, &column, &used) < 3) {
        line = column = 0;
        if (sscanf(expected, "%255[^:]: %n", file, &used) < 1)
            return false;
    }
    snprintf(want_file, sizeof want_file, "%s/%s/%s", BAD_ARCHIVE, dir, file);
    return strcmp(g->file, want_file) == 0 && g->line == line && g->column == column &&
           strstr(g->message, expected + used) != NULL;
}

static void check_case(const diag_list *d, const char *dir, size_t *expected_total)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/expected", BAD_ARCHIVE, dir);
    char *text = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        size_t hits = 0;
        for (size_t i = 0; i < d->count; i++)
            hits += matches(&d->items[i], dir, line);
        if (hits != 1)
            fprintf(stderr, "\n%s: expected once, found %zu times: %s\n", dir, hits, line);
        CU_ASSERT_EQUAL(hits, 1);
        (*expected_total)++;
    }
    free(text);
}

static void test_bad_inputs(void)
{
    archive a;
    diag_list d;
    diag_init(&d);
    CU_ASSERT_TRUE(archive_load(BAD_ARCHIVE, &a, &d));
    archive_check(&a, &d); /* as perfcast check does */
    DIR *h = opendir(BAD_ARCHIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    size_t cases = 0, expected = 0;
    struct dirent *ent;
    while ((ent = readdir(h)) != NULL) {
        if (strchr(ent->d_name, '.'))
            continue; /* ".", "..", clusters.csv, README.md: not a case */
        check_case(&d, ent->d_name, &expected);
        cases++;
    }
    closedir(h);
    CU_ASSERT_TRUE(cases >= 14);
    /* One message per problem: nothing reported beyond what is expected. */
    CU_ASSERT_EQUAL(d.count, expected);
    /* Every case is skipped but bad_experiments and bad_options: problems in
     * rows of experiments.csv mark those experiments, not the campaign, and
     * an unknown option key does not stop the campaign from loading (its fit
     * fails with the message). */
    CU_ASSERT_EQUAL_FATAL(a.ncampaigns, 2);
    CU_ASSERT_STRING_EQUAL(a.campaigns[0].name, "bad_experiments");
    CU_ASSERT_STRING_EQUAL(a.campaigns[1].name, "bad_options");
    CU_ASSERT_EQUAL(a.nskipped, cases - 2);
    /* Each bad experiment carries its first problem, positioned. */
    const campaign *c = &a.campaigns[0];
    CU_ASSERT_EQUAL_FATAL(c->nexperiments, 6);
    for (size_t i = 0; i < c->nexperiments; i++)
        CU_ASSERT_PTR_NOT_NULL(c->experiments[i].problem);
    const char *want = "experiments.csv:4:22: unknown column 'nosuch' in the formula";
    CU_ASSERT_EQUAL(strncmp(c->experiments[2].problem, want, strlen(want)), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(c->experiments[5].problem, "experiments.csv:7:1: duplicate"));
    CU_ASSERT_PTR_NULL(a.campaigns[1].experiments[0].problem);
    archive_free(&a);
    diag_free(&d);
}

/* A small archive exercising every accepted form of input. */
static void write_good_archive(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/clusters.csv", dir);
    testutil_write_file(path,
        "\xEF\xBB\xBF" "cluster,description,cores_per_node,mem_per_core_gb,rate_per_core_hour,extra\r\n"
        "wrg3-myrinet,\"Myrinet, 2 GB/core\",2,1e0,2,7\r\n"
        "\r\n"
        "wrg2-ethernet,,2,,1,\r\n");
    snprintf(path, sizeof path, "%s/c1/runs.csv", dir);
    testutil_write_file(path,
        "cluster,np,time_s,N,tag_class,note,time_setup_s\n"
        "wrg3-myrinet,1, 12.5 ,65536,A,\"a note, with comma\",0\n"
        "\n"
        "wrg2-ethernet,2,1e-3,1.5e4,B,,0.25\n"
        "wrg2-ethernet,4,,1024,B,to predict,\n");
    snprintf(path, sizeof path, "%s/c1/experiments.csv", dir);
    testutil_write_file(path,
        "name,model,response,formula,train,target,title,options\n"
        "e1,scopred,time_s,N/np + N,\"np <= 2 && tag_class == \"\"B\"\"\",np == 4,Title,k=v; j=2\n");
    snprintf(path, sizeof path, "%s/c1/README.md", dir);
    testutil_write_file(path, "# c1\n");
}

static void test_good_archive(void)
{
    char dir[256];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    write_good_archive(dir);
    archive a;
    diag_list d;
    diag_init(&d);
    CU_ASSERT_TRUE_FATAL(archive_load(dir, &a, &d));
    diag_print(&d, stderr);
    CU_ASSERT_EQUAL(d.count, 0);
    CU_ASSERT_EQUAL_FATAL(a.nclusters, 2);
    CU_ASSERT_STRING_EQUAL(a.clusters[0].name, "wrg3-myrinet");
    CU_ASSERT_STRING_EQUAL(a.clusters[0].description, "Myrinet, 2 GB/core");
    CU_ASSERT_DOUBLE_EQUAL(a.clusters[0].mem_per_core_gb, 1, 0);
    CU_ASSERT_TRUE(isnan(a.clusters[1].mem_per_core_gb)); /* empty = unknown, not 0 */
    CU_ASSERT_PTR_NULL(a.clusters[1].description);
    CU_ASSERT_EQUAL(a.clusters[1].line, 4);
    CU_ASSERT_TRUE(table_find(&a.cluster_table, "extra") >= 0);
    CU_ASSERT_EQUAL_FATAL(a.ncampaigns, 1);
    const campaign *c = &a.campaigns[0];
    const table *t = &c->runs;
    CU_ASSERT_EQUAL_FATAL(t->nrows, 3);
    CU_ASSERT_DOUBLE_EQUAL(table_number(t, 0, (size_t)table_find(t, "time_s")), 12.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(table_number(t, 1, (size_t)table_find(t, "time_s")), 1e-3, 0);
    CU_ASSERT_TRUE(isnan(table_number(t, 2, (size_t)table_find(t, "time_s"))));
    CU_ASSERT_DOUBLE_EQUAL(table_number(t, 0, (size_t)table_find(t, "N")), 65536, 0);
    CU_ASSERT_DOUBLE_EQUAL(table_number(t, 1, (size_t)table_find(t, "N")), 15000, 0);
    CU_ASSERT_EQUAL(t->cols[table_find(t, "tag_class")].kind, COL_TEXT);
    CU_ASSERT_STRING_EQUAL(table_text(t, 0, (size_t)table_find(t, "note")), "a note, with comma");
    CU_ASSERT_PTR_NULL(table_text(t, 1, (size_t)table_find(t, "note")));
    CU_ASSERT_EQUAL(t->line[1], 4); /* the blank line counts */
    CU_ASSERT_EQUAL_FATAL(c->nexperiments, 1);
    CU_ASSERT_STRING_EQUAL(c->experiments[0].train, "np <= 2 && tag_class == \"B\"");
    CU_ASSERT_STRING_EQUAL(c->experiments[0].options, "k=v; j=2");
    CU_ASSERT_STRING_EQUAL(c->readme, "# c1\n");
    archive_free(&a);
    diag_free(&d);
    testutil_remove_dir(dir);
}

/* A 1 MB cell: fine as text, one short message in a numeric column. */
static void test_huge_field(void)
{
    char dir[256], path[512];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    write_good_archive(dir);
    size_t n = 1 << 20;
    char *runs = malloc(2 * n + 256);
    CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
    strcpy(runs, "cluster,np,time_s,N,note\nwrg3-myrinet,1,1,2,\"");
    size_t len = strlen(runs);
    memset(runs + len, 'x', n);
    strcpy(runs + len + n, "\"\nwrg3-myrinet,1,1,");
    len = strlen(runs);
    memset(runs + len, '7', n);
    runs[len + 3] = 'z';
    strcpy(runs + len + n, ",ok\n");
    snprintf(path, sizeof path, "%s/c1/runs.csv", dir);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, runs));
    free(runs);
    snprintf(path, sizeof path, "%s/c1/experiments.csv", dir);
    testutil_write_file(path, "name,model\n");
    archive a;
    diag_list d;
    diag_init(&d);
    archive_load(dir, &a, &d);
    CU_ASSERT_EQUAL_FATAL(d.count, 1);
    CU_ASSERT_EQUAL(d.items[0].line, 3);
    CU_ASSERT_EQUAL(d.items[0].column, 18);
    CU_ASSERT_TRUE(strlen(d.items[0].message) < 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.items[0].message, "expected a number in column 'N'"));
    archive_free(&a);
    diag_free(&d);
    testutil_remove_dir(dir);
}

/* A broken campaign is skipped; the healthy one beside it still loads. */
static void test_bad_campaign_does_not_stop_others(void)
{
    char dir[256], path[512];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    write_good_archive(dir);
    snprintf(path, sizeof path, "%s/c0/runs.csv", dir);
    testutil_write_file(path, "cluster,np,time_s\nnowhere,1,1\n");
    snprintf(path, sizeof path, "%s/c0/experiments.csv", dir);
    testutil_write_file(path, "name,model\n");
    snprintf(path, sizeof path, "%s/c0/README.md", dir);
    testutil_write_file(path, "x\n");
    archive a;
    diag_list d;
    diag_init(&d);
    CU_ASSERT_TRUE(archive_load(dir, &a, &d));
    CU_ASSERT_EQUAL(d.count, 1);
    CU_ASSERT_EQUAL_FATAL(a.ncampaigns, 1);
    CU_ASSERT_STRING_EQUAL(a.campaigns[0].name, "c1");
    CU_ASSERT_EQUAL_FATAL(a.nskipped, 1);
    CU_ASSERT_STRING_EQUAL(a.skipped[0], "c0");
    archive_free(&a);
    diag_free(&d);
    testutil_remove_dir(dir);
}

/* The simulated-cluster columns of clusters.csv (issue 12) are numbers
 * > 0: a speed of -1 is a problem at its cell; the repository's own rows
 * with them load. */
static void test_simulated_cluster_columns(void)
{
    char dir[256], path[512];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/clusters.csv", dir);
    testutil_write_file(path, "cluster,sim_core_speed,sim_link_bw_gbs\nsim-x,-1,0.0125\n");
    archive a;
    diag_list d;
    diag_init(&d);
    archive_load(dir, &a, &d);
    CU_ASSERT_EQUAL_FATAL(d.count, 1);
    CU_ASSERT_EQUAL(d.items[0].line, 2);
    CU_ASSERT_EQUAL(d.items[0].column, 7);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.items[0].message, "sim_core_speed"));
    archive_free(&a);
    diag_free(&d);
    testutil_remove_dir(dir);
    diag_init(&d);
    CU_ASSERT_TRUE(archive_load("archive", &a, &d));
    const cluster_info *c = archive_cluster(&a, "sim-a-fe");
    CU_ASSERT_PTR_NOT_NULL(c);
    CU_ASSERT_DOUBLE_EQUAL(table_number_named(&a.cluster_table, (size_t)(c - a.clusters),
                                              "sim_core_speed"), 0.5, 0);
    archive_free(&a);
    diag_free(&d);
}

static void test_missing_archive(void)
{
    archive a;
    diag_list d;
    diag_init(&d);
    CU_ASSERT_FALSE(archive_load("tests/fixtures/no-such-archive", &a, &d));
    CU_ASSERT_EQUAL(d.count, 1);
    archive_free(&a);
    diag_free(&d);
}

/* Everything archive_load gave, as text: campaigns (rows, experiments and
 * their problems, README length), skipped names, every problem in order. */
static char *archive_text(const archive *a, const diag_list *d)
{
    size_t cap = 1 << 20, n = 0;
    char *t = malloc(cap);
    for (size_t i = 0; t && i < a->ncampaigns; i++) {
        const campaign *c = &a->campaigns[i];
        n += (size_t)snprintf(t + n, cap - n, "campaign %s %zu %zu %zu\n", c->name, c->runs.nrows,
                              c->nexperiments, c->readme ? strlen(c->readme) : 0);
        for (size_t k = 0; k < c->nexperiments && n < cap; k++)
            n += (size_t)snprintf(t + n, cap - n, "  %s %s\n", c->experiments[k].name,
                                  c->experiments[k].problem ? c->experiments[k].problem : "-");
    }
    for (size_t i = 0; t && i < a->nskipped && n < cap; i++)
        n += (size_t)snprintf(t + n, cap - n, "skipped %s\n", a->skipped[i]);
    for (size_t i = 0; t && i < d->count && n < cap; i++)
        n += (size_t)snprintf(t + n, cap - n, "%s:%ld:%ld: %s\n", d->items[i].file,
                              d->items[i].line, d->items[i].column, d->items[i].message);
    CU_ASSERT_TRUE(n < cap);
    return t;
}

static char *load_text(const char *dir, int jobs)
{
    archive a;
    diag_list d;
    diag_init(&d);
    CU_ASSERT_TRUE(archive_load_jobs(dir, &a, &d, jobs));
    char *t = archive_text(&a, &d);
    archive_free(&a);
    diag_free(&d);
    return t;
}

/* Campaigns read on several threads: the same archive, the same problems
 * in the same order (the bad fixtures: a problem in nearly every
 * campaign; the embedded archive: none). */
static void test_threads_change_nothing(void)
{
    const char *dirs[] = {BAD_ARCHIVE, "archive"};
    for (int i = 0; i < 2; i++) {
        char *one = load_text(dirs[i], 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(one);
        CU_ASSERT_TRUE(strlen(one) > 200);
        for (int jobs = 2; jobs <= 5; jobs += 3) {
            char *many = load_text(dirs[i], jobs);
            CU_ASSERT_PTR_NOT_NULL(many);
            CU_ASSERT_TRUE(many && strcmp(one, many) == 0);
            free(many);
        }
        free(one);
    }
}

int main(void)
{
    static const testutil_test tests[] = {
        {"every bad input reported once, positioned", test_bad_inputs},
        {"good archive in all accepted forms", test_good_archive},
        {"1 MB field", test_huge_field},
        {"bad campaign does not stop others", test_bad_campaign_does_not_stop_others},
        {"simulated cluster columns", test_simulated_cluster_columns},
        {"missing archive", test_missing_archive},
        {"campaigns read on threads: the same archive and problems", test_threads_change_nothing},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"archive", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
