/*
 * test_schema_forgiving.c — an archive as people have it (issue 15 item 2):
 * the process count called `ranks` (campaign.csv: procs,ranks), an
 * experiment named "FFT (comm), 3-D", another whose response is the plain
 * column `wall_seconds`. check, predict and a site build run on it; the
 * expected predictions are derived by hand from the invented data
 * (t = 2 + 64/ranks, wall = 1 + 32/ranks, both exact), and the site is
 * read back by the independent libxml2 verifier (tests/verify_site.h):
 * links and anchors resolve, no number in e-notation on any page, even
 * with the exact fits whose backtest scale is rounding noise
 * ("s = 4.44e-16" before the fix).
 */
#include "tests/testutil.h"
#include "tests/verify_site.h"

#include "gen/ingest/experiment_names.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char clusters_csv[] = "cluster,cores_per_node,rate_per_core_hour,currency\n"
                                   "lab,8,1,units\n";

/* Two repetitions of ranks 1..16, then two configurations to predict. The
 * `np` column is an ordinary parameter here (constant), so nothing may
 * take it for the process count. */
static const char runs_csv[] = "cluster,ranks,np,N,wall_seconds,time_s\n"
                               "lab,1,7,100,33,66\n"
                               "lab,1,7,100,33,66\n"
                               "lab,2,7,100,17,34\n"
                               "lab,2,7,100,17,34\n"
                               "lab,4,7,100,9,18\n"
                               "lab,4,7,100,9,18\n"
                               "lab,8,7,100,5,10\n"
                               "lab,8,7,100,5,10\n"
                               "lab,16,7,100,3,6\n"
                               "lab,16,7,100,3,6\n"
                               "lab,32,7,100,,\n"
                               "lab,64,7,100,,\n";

static const char experiments_csv[] =
    "name,model,response,formula,train,target,title,options\n"
    "\"FFT (comm), 3-D\",scopred,time_s,1/ranks,ranks <= 16,ranks >= 16,\"<b>FFT</b> & comm\",\n"
    "wall,scopred,wall_seconds,1/ranks,ranks <= 8,ranks >= 8,,\n";

static char dir[4096];

static void write_in(const char *name, const char *text)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, text));
}

static void write_archive(const char *experiments, const char *settings)
{
    write_in("a/clusters.csv", clusters_csv);
    write_in("a/forgive/runs.csv", runs_csv);
    write_in("a/forgive/experiments.csv", experiments);
    write_in("a/forgive/README.md", "# forgive\n\nInvented: t = 2 + 64/ranks.\n");
    write_in("a/forgive/campaign.csv", settings);
}

static int perfcast(char **out, const char *args)
{
    return testutil_perfcast_run(out, "%s --archive %s/a", args, dir);
}

static bool contains(const char *text, const char *want)
{
    if (text && strstr(text, want))
        return true;
    fprintf(stderr, "\nmissing [%s] in:\n%s\n", want, text ? text : "(null)");
    return false;
}

static void test_check_accepts(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(perfcast(&out, "check"), 0);
    CU_ASSERT_TRUE(contains(out, "1 campaigns (12 runs, 2 experiments); 0 problems"));
    free(out);
}

/* The row of a predict --format csv output whose first two cells are
 * "lab,<ranks>," (NULL when absent). */
static const char *row_of(const char *csv, const char *ranks)
{
    char key[32];
    snprintf(key, sizeof key, "\nlab,%s,", ranks);
    const char *r = csv ? strstr(csv, key) : NULL;
    return r ? r + 1 : NULL;
}

/* The estimate cell: identifying columns cluster, ranks, np, N, then it. */
static double estimate_of(const char *csv, const char *ranks)
{
    const char *r = row_of(csv, ranks);
    for (int i = 0; r && i < 4; i++) {
        r = strchr(r, ',');
        r = r ? r + 1 : NULL;
    }
    return r ? strtod(r, NULL) : -1;
}

static void test_predict_named_with_punctuation(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(perfcast(&out, "predict --format csv forgive 'FFT (comm), 3-D'"), 0);
    /* The process column keeps its name; the responses are not columns of
     * a configuration. */
    CU_ASSERT_TRUE(contains(out, "cluster,ranks,np,N,estimate,"));
    CU_ASSERT_TRUE(contains(out, "1/ranks,2 + 64*(1/ranks),"));
    /* By hand: 2 + 64/32 = 4, 2 + 64/64 = 3. */
    CU_ASSERT_DOUBLE_EQUAL(estimate_of(out, "32"), 4.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(estimate_of(out, "64"), 3.0, 1e-9);
    /* Beyond the trained range is counted along ranks, the process count. */
    CU_ASSERT_TRUE(contains(out, "ranks 64 = 4x max trained 16"));
    free(out);
}

static void test_predict_any_numeric_response(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(perfcast(&out, "predict --format csv forgive wall"), 0);
    /* wall_seconds is the response, not a setting: its rows at ranks 8
     * are two repetitions of one configuration (n_measured 2, mean 5). */
    CU_ASSERT_TRUE(contains(out, "cluster,ranks,np,N,estimate,"));
    CU_ASSERT_PTR_NULL(out ? strstr(out, "wall_seconds,estimate") : NULL);
    const char *r8 = row_of(out, "8");
    CU_ASSERT_TRUE(r8 && strncmp(r8, "lab,8,7,100,5,,,,,5,2,", 22) == 0);
    /* By hand: 1 + 32/16 = 3, 1 + 32/32 = 2, 1 + 32/64 = 1.5. */
    CU_ASSERT_DOUBLE_EQUAL(estimate_of(out, "16"), 3.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(estimate_of(out, "32"), 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(estimate_of(out, "64"), 1.5, 1e-9);
    free(out);
    CU_ASSERT_EQUAL(perfcast(&out, "fit --format json forgive wall"), 0);
    CU_ASSERT_TRUE(contains(out, "\"equation\": \"1 + 32*(1/ranks)\""));
    free(out);
}

static char *read_in(const char *name)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return testutil_read_file(path);
}

/* A file of folder whose name starts with prefix and ends with suffix. */
static bool has_file(const char *folder, const char *prefix, const char *suffix)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", dir, folder);
    DIR *h = opendir(path);
    bool found = false;
    for (struct dirent *e; h && !found && (e = readdir(h)) != NULL;) {
        size_t n = strlen(e->d_name), s = strlen(suffix);
        found = strncmp(e->d_name, prefix, strlen(prefix)) == 0 && n > s &&
                strcmp(e->d_name + n - s, suffix) == 0;
    }
    if (h)
        closedir(h);
    return found;
}

static void test_site(void)
{
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "build --archive %s/a --out %s/site --quiet", dir, dir);
    if (rc != 0)
        fprintf(stderr, "\n%s", out ? out : "");
    free(out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    char *page = read_in("site/campaigns/forgive/index.html");
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    /* Shown as given, escaped; the title's markup is text, not markup. */
    CU_ASSERT_TRUE(contains(page, ">Experiment FFT (comm), 3-D</h2>"));
    CU_ASSERT_TRUE(contains(page, "&lt;b&gt;FFT&lt;/b&gt; &amp; comm"));
    CU_ASSERT_PTR_NULL(strstr(page, "<b>FFT"));
    /* Linked by the heading's own id, as GitHub would make it. */
    CU_ASSERT_TRUE(contains(page, "href=\"#experiment-fft-comm-3-d\""));
    CU_ASSERT_TRUE(contains(page, "id=\"experiment-fft-comm-3-d\""));
    /* Charts and tables name the campaign's process column. */
    CU_ASSERT_TRUE(contains(page, "processes (ranks)"));
    free(page);
    /* Slugged only for file names. */
    CU_ASSERT_TRUE(has_file("site/campaigns/forgive", "fft-comm-3-d-", "-predictions.csv"));
    CU_ASSERT_TRUE(has_file("site/campaigns/forgive", "wall-", "predictions.csv"));
    CU_ASSERT_TRUE(has_file("site", "index", ".html"));
    char *index = read_in("site/index.html");
    CU_ASSERT_TRUE(contains(index, "forgive"));
    free(index);

    /* The independent reader: every link and anchor resolves, and no page
     * shows a number in e-notation (the exact fits' backtest scale is 0). */
    char site[4200];
    snprintf(site, sizeof site, "%s/site", dir);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    verify_counts c;
    size_t n = verify_site(site, f, &c);
    fclose(f);
    if (n)
        fprintf(stderr, "\n%s", text);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_TRUE(c.pages >= 4);
    free(text);
}

/* check's output, for an archive with these experiments and settings. */
static char *check_with(const char *experiments, const char *settings, int want_rc)
{
    char *out = NULL;
    write_archive(experiments, settings);
    CU_ASSERT_EQUAL(perfcast(&out, "check"), want_rc);
    return out;
}

static void test_name_clashes(void)
{
    /* "FFT comm" and "FFT (comm)" differ but share the heading id. */
    char *out = check_with("name,model,response,formula,train,target\n"
                           "FFT comm,scopred,time_s,1/ranks,,\n"
                           "FFT (comm),scopred,time_s,1/ranks,,\n",
                           "setting,value\nprocs,ranks\n", 1);
    CU_ASSERT_TRUE(contains(out, "forgive/experiments.csv:3:1: experiment name 'FFT (comm)' gives "
                                 "the same anchor 'experiment-fft-comm' as 'FFT comm' (line 2)"));
    free(out);
    /* A name that is another name's slug would overwrite its files. */
    rbuf slug;
    rbuf_init(&slug);
    experiment_name_slug("A b", &slug);
    char experiments[512];
    snprintf(experiments, sizeof experiments,
             "name,model,response,formula,train,target\n"
             "A b,scopred,time_s,1/ranks,,\n"
             "%s,scopred,time_s,1/ranks,,\n", rbuf_str(&slug));
    out = check_with(experiments, "setting,value\nprocs,ranks\n", 1);
    char want[256];
    snprintf(want, sizeof want, "forgive/experiments.csv:3:1: experiment name '%s' gives the same "
             "file name '%s' as 'A b' (line 2)", rbuf_str(&slug), rbuf_str(&slug));
    CU_ASSERT_TRUE(contains(out, want));
    rbuf_free(&slug);
    free(out);
    /* A control character is the one thing a name may not hold. */
    out = check_with("name,model,response,formula,train,target\n"
                     "\"tab\there\",scopred,time_s,1/ranks,,\n",
                     "setting,value\nprocs,ranks\n", 1);
    CU_ASSERT_TRUE(contains(out, "experiments.csv:2:1: the experiment name holds a control character"));
    free(out);
}

static void test_settings_errors(void)
{
    static const struct {
        const char *settings, *want;
    } cases[] = {
        {"setting,value\nprocess,ranks\n",
         "forgive/campaign.csv:2:1: unknown setting 'process' (expected procs)"},
        {"setting,value\nprocs,ranks\nprocs,np\n",
         "forgive/campaign.csv:3:1: the setting procs is given twice"},
        {"setting,value\nprocs,time_s\n",
         "forgive/campaign.csv:2:7: procs 'time_s' names a result or a label column"},
        {"setting,value\nprocs, nodes\n",
         "forgive/campaign.csv:2:7: procs 'nodes' is another documented column of runs.csv"},
        {"setting,value\nprocs,2ranks\n",
         "forgive/campaign.csv:2:7: procs '2ranks' must start with a letter or '_'"},
        /* A column runs.csv lacks: runs.csv says so, like a missing np. */
        {"setting,value\nprocs,tasks\n", "forgive/runs.csv:1:1: missing required column 'tasks'"},
        /* np is then an ordinary parameter: no campaign.csv, no ranks rule,
         * and the archive loads with np as the process count (7 for all). */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = check_with(experiments_csv, cases[i].settings, 1);
        CU_ASSERT_TRUE(contains(out, cases[i].want));
        free(out);
    }
    write_archive(experiments_csv, "setting,value\nprocs,ranks\n");
}

/* The mesh models (strip, block) and the multicore model read the process
 * count through the campaign: the embedded mgbench campaigns with np
 * renamed ranks (header, filters, campaign.csv) must predict exactly what
 * they predict with np, cell for cell, once the column is named back. Both
 * archives hold the same three campaigns: a calibrated interval shrinks
 * toward the backtests of the archive's other campaigns
 * (gen/fit/error_pool.h), so the embedded archive, with more of them,
 * would give other widths. */
static void test_models_read_the_named_column(void)
{
    static const char *const camps[] = {"mgbench-strip", "mgbench-block", "mgbench-multicore"};
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "mkdir -p %s/r %s/n && cp archive/clusters.csv %s/r/ && "
                                   "cp archive/clusters.csv %s/n/", dir, dir, dir, dir);
    free(out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    size_t compared = 0;
    for (size_t i = 0; i < sizeof camps / sizeof camps[0]; i++) {
        rc = testutil_run_commandf(&out,
                                   "cp -r archive/%s %s/n/ && cp -r archive/%s %s/r/ && "
                                   "cd %s/r/%s && "
                                   "sed -i -E '1s/(^|,)np(,|$)/\\1ranks\\2/' runs.csv && "
                                   "sed -i -E 's/\\bnp\\b/ranks/g' experiments.csv && "
                                   "printf 'setting,value\\nprocs,ranks\\n' > campaign.csv",
                                   camps[i], dir, camps[i], dir, dir, camps[i]);
        free(out);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        char *names = NULL;
        CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&names, "list --archive archive %s", camps[i]), 0);
        for (char *line = names, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            line[strcspn(line, "\t")] = '\0';
            char *np = NULL, *ranks = NULL;
            CU_ASSERT_EQUAL(testutil_perfcast_run(&np, "predict --archive %s/n --format csv "
                                                  "%s %s", dir, camps[i], line), 0);
            CU_ASSERT_EQUAL(testutil_perfcast_run(&ranks, "predict --archive %s/r --format csv "
                                                  "%s %s | sed -E 's/\\branks\\b/np/g'",
                                                  dir, camps[i], line), 0);
            bool same = np && ranks && strcmp(np, ranks) == 0 && strlen(np) > 100;
            if (!same)
                fprintf(stderr, "\n%s %s:\n%s\n---\n%s\n", camps[i], line, np ? np : "",
                        ranks ? ranks : "");
            CU_ASSERT_TRUE(same);
            compared += same;
            free(np);
            free(ranks);
        }
        free(names);
    }
    CU_ASSERT_EQUAL(compared, 8); /* 1 strip, 1 block, 6 multicore experiments */
    rc = testutil_perfcast_run(&out, "check --archive %s/r", dir);
    CU_ASSERT_EQUAL(rc, 0);
    /* 60 strip runs (40 of 2026-11-21, 20 re-measured on 2026-11-26), 90 block, 40
     * multicore. */
    CU_ASSERT_TRUE(contains(out, "3 campaigns (190 runs, 8 experiments); 0 problems"));
    free(out);
}

/* perfcast import into a campaign whose campaign.csv names the process
 * count `tasks`: the imported np is written under that name, and the
 * default experiment fits 1/tasks. The data is the CSV importer's own
 * fixture; the prediction at 16 tasks is least squares by hand on the
 * three smaller counts: x = 1/2, 1/4, 1/8, y = 40.1, 20.6, 10.9 give
 * slope 5.679167/0.072917 = 77.885714, intercept 23.866667 - 77.885714 *
 * 0.291667 = 1.15, so 1.15 + 77.885714/16 = 6.0178571. */
static void test_import_into_named_column(void)
{
    write_in("a/imp/campaign.csv", "setting,value\nprocs,tasks\n");
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "import csv tests/fixtures/import/doc/any.csv --archive "
                                   "%s/a --campaign imp --map procs=np,runtime=time_s "
                                   "--cluster lab", dir);
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    char *runs = read_in("a/imp/runs.csv");
    CU_ASSERT_TRUE(contains(runs, "cluster,tasks,time_s,"));
    CU_ASSERT_PTR_NULL(runs ? strstr(runs, ",np") : NULL);
    free(runs);
    char *exps = read_in("a/imp/experiments.csv");
    CU_ASSERT_TRUE(contains(exps, "scaling,scopred,time_s,1/tasks,tasks < 16,tasks == 16,"));
    free(exps);
    CU_ASSERT_EQUAL(perfcast(&out, "check"), 0);
    CU_ASSERT_TRUE(contains(out, "0 problems"));
    free(out);
    CU_ASSERT_EQUAL_FATAL(perfcast(&out, "predict --format csv imp scaling"), 0);
    const char *row = out ? strstr(out, "\nlab,16,64,,") : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(row);
    CU_ASSERT_DOUBLE_EQUAL(strtod(row + strlen("\nlab,16,64,,"), NULL), 6.0178571, 1e-6);
    free(out);
}

static void test_setup(void)
{
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    write_archive(experiments_csv, "setting,value\nprocs,ranks\n");
}

static void test_teardown(void)
{
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"set up the archive", test_setup},
        {"check accepts ranks, punctuation and wall_seconds", test_check_accepts},
        {"predict an experiment named with punctuation", test_predict_named_with_punctuation},
        {"predict any numeric response", test_predict_any_numeric_response},
        {"site: names as given, slugs for files, no e-notation", test_site},
        {"names that clash in a file name or anchor", test_name_clashes},
        {"campaign.csv problems at FILE:LINE:COL", test_settings_errors},
        {"strip, block, multicore read the named column", test_models_read_the_named_column},
        {"import writes np under the campaign's name", test_import_into_named_column},
        {"clean up", test_teardown},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"schema-forgiving", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
