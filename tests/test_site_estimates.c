/*
 * test_site_estimates.c — the "my job" page (gen/site/site_estimates.c) on
 * the embedded archive: its CSV, read with the CSV reader, has for every
 * job an interval around its time and a cost interval in proportion to
 * it; every row's time and interval are what `perfcast predict` prints for
 * that experiment (another path through the program, read with the same
 * reader); the index links to the page.
 */
#include "tests/testutil.h"
#include "tests/testutil_csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[256];

static double num(const csv_doc *doc, size_t r, const char *col)
{
    const char *v = testutil_csv_cell(doc, r, col);
    return v && *v ? atof(v) : NAN;
}

/* Whether predict's CSV for campaign/experiment has a row with this
 * estimate and calibrated interval (10 significant digits both ways). */
static bool predict_has(const char *campaign, const char *experiment, double est, double lo,
                        double hi)
{
    char *out = NULL, path[512];
    if (testutil_perfcast_run(&out, "predict --archive archive --format csv %s '%s'", campaign,
                              experiment) != 0) {
        free(out);
        return false;
    }
    snprintf(path, sizeof path, "%s/predict.csv", dir);
    testutil_write_file(path, out);
    free(out);
    csv_doc doc;
    bool found = false;
    if (!testutil_csv_load(path, &doc))
        return false;
    for (size_t r = 0; r + 1 < doc.nrows && !found; r++) {
        double e = num(&doc, r, "estimate"), l = num(&doc, r, "cal_pi_low"),
               h = num(&doc, r, "cal_pi_high");
        found = fabs(e - est) <= 1e-9 * fabs(est) &&
                (isnan(lo) ? isnan(l) : fabs(l - lo) <= 1e-9 * fabs(lo)) &&
                (isnan(hi) ? isnan(h) : fabs(h - hi) <= 1e-9 * fabs(hi));
    }
    csv_doc_free(&doc);
    return found;
}

static void test_estimates(void)
{
    char *out = NULL, path[512];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "build --archive archive --out %s/site", dir),
                          0);
    free(out);
    snprintf(path, sizeof path, "%s/site/index.md", dir);
    char *index = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(index && strstr(index, "(estimates.md)"));
    free(index);
    snprintf(path, sizeof path, "%s/site/estimates.csv", dir);
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, &doc));
    CU_ASSERT_TRUE_FATAL(doc.nrows > 20);
    size_t checked = 0, costed = 0;
    for (size_t r = 0; r + 1 < doc.nrows; r++) {
        double t = num(&doc, r, "time_s"), lo = num(&doc, r, "cal_pi_low_s"),
               hi = num(&doc, r, "cal_pi_high_s"), cost = num(&doc, r, "cost");
        CU_ASSERT(t > 0);
        /* README ("Runs that stopped gaining"): no embedded job extends runs
         * that stopped gaining; the column is there, empty */
        const char *stop = testutil_csv_cell(&doc, r, "gain_stop_at");
        CU_ASSERT(stop && !*stop);
        if (isfinite(lo) && isfinite(hi))
            CU_ASSERT(lo <= t * (1 + 1e-9) && t <= hi * (1 + 1e-9));
        if (isfinite(cost) && isfinite(lo) && isfinite(hi)) {
            CU_ASSERT_DOUBLE_EQUAL(num(&doc, r, "cost_low"), cost * lo / t, 1e-6 * cost + 1e-12);
            CU_ASSERT_DOUBLE_EQUAL(num(&doc, r, "cost_high"), cost * hi / t, 1e-6 * cost + 1e-12);
            costed++;
        }
        /* Every tenth row against perfcast predict. */
        if (r % 10 == 0) {
            bool same = predict_has(testutil_csv_cell(&doc, r, "campaign"),
                                    testutil_csv_cell(&doc, r, "experiment"), t, lo, hi);
            if (!same)
                printf("\n  row %zu (%s/%s) not in predict's output\n", r,
                       testutil_csv_cell(&doc, r, "campaign"),
                       testutil_csv_cell(&doc, r, "experiment"));
            CU_ASSERT(same);
            checked++;
        }
    }
    CU_ASSERT(checked > 2 && costed > 0);
    csv_doc_free(&doc);
    /* A cluster page points at its section of the page, and its cost.csv
     * carries the same intervals and verdicts. */
    snprintf(path, sizeof path, "%s/site/clusters/dev-16core/index.md", dir);
    char *cluster = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(cluster && strstr(cluster, "(../../estimates.md#cluster-dev-16core)"));
    free(cluster);
    snprintf(path, sizeof path, "%s/site/clusters/dev-16core/cost.csv", dir);
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, &doc));
    size_t rows = 0;
    for (size_t r = 0; r + 1 < doc.nrows; r++) {
        double t = num(&doc, r, "time_s"), lo = num(&doc, r, "cal_pi_low_s"),
               hi = num(&doc, r, "cal_pi_high_s");
        const char *v = testutil_csv_cell(&doc, r, "verdict");
        CU_ASSERT(v && *v);
        if (isfinite(lo) && isfinite(hi))
            CU_ASSERT(lo <= t * (1 + 1e-9) && t <= hi * (1 + 1e-9));
        rows++;
    }
    CU_ASSERT(rows > 0);
    csv_doc_free(&doc);
    testutil_remove_dir(dir);
}

/* The cells of a Markdown table row "| a | b |" (split at " | "; the
 * writer escapes a '|' inside a cell, which this test's rows have none of). */
static size_t md_cells(char *line, char **cell, size_t max)
{
    size_t n = 0;
    char *p = line + 2;
    while (n < max && p && *p) {
        char *end = strstr(p, " |");
        if (!end)
            break;
        *end = '\0';
        cell[n++] = p;
        p = end[2] == ' ' ? end + 3 : NULL;
    }
    return n;
}

/* The cluster pages' cost tables: on ci-2core (2 cores per node in
 * clusters.csv) every job comes with its time interval, its cost interval
 * and a verdict, and exactly the jobs whose configuration puts more than 2
 * processes on the node (its ppn, read from the job's configuration text,
 * not from the writer's flag) are marked oversubscribed, on the page and
 * in cost.csv. */
static void test_cluster_costs(void)
{
    char *out = NULL, path[512];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "build --archive archive --out %s/site", dir),
                          0);
    free(out);
    csv_doc clusters;
    CU_ASSERT_TRUE_FATAL(testutil_csv_load("archive/clusters.csv", &clusters));
    double cores = NAN;
    for (size_t r = 0; r + 1 < clusters.nrows; r++)
        if (strcmp(testutil_csv_cell(&clusters, r, "cluster"), "ci-2core") == 0)
            cores = atof(testutil_csv_cell(&clusters, r, "cores_per_node"));
    csv_doc_free(&clusters);
    CU_ASSERT_EQUAL_FATAL(cores, 2);

    snprintf(path, sizeof path, "%s/site/clusters/ci-2core/cost.csv", dir);
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, &doc));
    size_t over = 0;
    for (size_t r = 0; r + 1 < doc.nrows; r++) {
        const char *ppn = strstr(testutil_csv_cell(&doc, r, "configuration"), "ppn=");
        bool crowded = ppn && atof(ppn + 4) > cores;
        testutil_assert_cell(&doc, r, "oversubscribed", crowded ? "1" : "0");
        over += crowded;
    }
    CU_ASSERT(over > 0 && over < doc.nrows - 1);

    snprintf(path, sizeof path, "%s/site/clusters/ci-2core/index.md", dir);
    char *page = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    char *table = strstr(page, "| job | predicted time | calibrated 95% PI | cost | cost, calibrated 95% PI "
                               "| verdict |");
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    size_t rows = 0, flagged = 0;
    for (char *line = strchr(table, '\n') + 1; line && strncmp(line, "| ", 2) == 0;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *cell[12];
        if (line[2] != '-' && md_cells(line, cell, 12) == 9) {
            static const char *const verdicts[] = {"reliable", "uncertain", "unreliable",
                                                   "not verified"};
            bool known = false;
            for (size_t v = 0; v < 4; v++)
                known |= strcmp(cell[5], verdicts[v]) == 0;
            CU_ASSERT(known);
            CU_ASSERT_PTR_NOT_NULL(strstr(cell[2], " \xE2\x80\x93 "));
            CU_ASSERT_PTR_NOT_NULL(strstr(cell[4], " \xE2\x80\x93 "));
            flagged += strstr(cell[0], "(oversubscribed: ") != NULL;
            rows++;
        }
        line = next;
    }
    CU_ASSERT_EQUAL(rows, doc.nrows - 1);
    CU_ASSERT_EQUAL(flagged, over);
    free(page);
    csv_doc_free(&doc);
    testutil_remove_dir(dir);
}

/* Whether the runs of runs.csv on cluster whose cells match every
 * "name=value" of label (", "-separated, as cost.csv's configuration)
 * all hold one problem size N and one class: then the label names one
 * job. Read with the test's CSV reader, the columns named from the
 * paper's Table 2 (a class is a size), not from the writer's choice. */
static bool label_names_one_job(const csv_doc *runs, const char *cluster, const char *label)
{
    char text[256], *pairs[8];
    size_t npairs = 0;
    snprintf(text, sizeof text, "%s", label);
    for (char *p = strtok(text, ","); p && npairs < 8; p = strtok(NULL, ","))
        pairs[npairs++] = p + strspn(p, " ");
    const char *n = NULL, *cls = NULL;
    size_t matched = 0;
    for (size_t r = 0; r + 1 < runs->nrows; r++) {
        bool all = strcmp(testutil_csv_cell(runs, r, "cluster"), cluster) == 0;
        for (size_t k = 0; k < npairs && all; k++) {
            char *eq = strchr(pairs[k], '=');
            *eq = '\0';
            all = strcmp(testutil_csv_cell(runs, r, pairs[k]), eq + 1) == 0;
            *eq = '=';
        }
        if (!all)
            continue;
        const char *rn = testutil_csv_cell(runs, r, "N"), *rc = testutil_csv_cell(runs, r, "tag_class");
        if (matched++ && (strcmp(rn, n) != 0 || strcmp(rc, cls) != 0))
            return false;
        n = rn, cls = rc;
    }
    return matched > 0;
}

/* A cost table names a job the same way whichever experiment predicts
 * it, and never two jobs alike: Table 2's class A and class B
 * experiments each hold their class constant, and were both named
 * "np=12, P=12" (and "all configurations") while Table 4 named class B
 * at 8 processes with N and the class; the one name now comes from the
 * campaign's runs. */
static void test_cost_job_names(void)
{
    char *out = NULL, path[512];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "build --archive archive --out %s/site", dir),
                          0);
    free(out);
    csv_doc runs, cost;
    CU_ASSERT_TRUE_FATAL(testutil_csv_load("archive/scopred-ep/runs.csv", &runs));
    snprintf(path, sizeof path, "%s/site/clusters/scopred-local16/cost.csv", dir);
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, &cost));
    const char *t3 = NULL, *t4 = NULL;
    size_t ep = 0;
    for (size_t r = 0; r + 1 < cost.nrows; r++) {
        const char *exp = testutil_csv_cell(&cost, r, "experiment"),
                   *config = testutil_csv_cell(&cost, r, "configuration");
        if (strcmp(testutil_csv_cell(&cost, r, "campaign"), "scopred-ep") != 0)
            continue;
        ep++;
        CU_ASSERT(label_names_one_job(&runs, "scopred-local16", config));
        CU_ASSERT_PTR_NULL(strstr(testutil_csv_cell(&cost, r, "job"), "all configurations"));
        bool np8_b = strncmp(config, "np=8,", 5) == 0 && strstr(config, "tag_class=B");
        if (np8_b && strcmp(exp, "table3_np8") == 0)
            t3 = config;
        if (np8_b && strcmp(exp, "table4") == 0)
            t4 = config;
    }
    CU_ASSERT(ep >= 12);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t4);
    CU_ASSERT_STRING_EQUAL(t3, t4);
    csv_doc_free(&runs);
    csv_doc_free(&cost);
    /* A CSV cell with nothing to say is empty: no currency beside no cost
     * (it said "units"), no dash for an interconnect clusters.csv lacks. */
    snprintf(path, sizeof path, "%s/site/estimates.csv", dir);
    csv_doc est;
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, &est));
    size_t costless = 0;
    for (size_t r = 0; r + 1 < est.nrows; r++)
        if (!*testutil_csv_cell(&est, r, "cost")) {
            costless++;
            testutil_assert_cell(&est, r, "currency", "");
        }
    CU_ASSERT(costless > 0);
    csv_doc_free(&est);
    csv_doc facts;
    snprintf(path, sizeof path, "%s/site/clusters/ci-2core/cluster.csv", dir);
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, &facts));
    for (size_t r = 0; r + 1 < facts.nrows; r++)
        if (strcmp(testutil_csv_cell(&facts, r, "property"), "interconnect") == 0)
            testutil_assert_cell(&facts, r, "value", "");
    csv_doc_free(&facts);
    testutil_remove_dir(dir);
}

static int by_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Per model, what the index's accuracy table summarises, gathered here
 * from the predictions CSVs: every held-out |error|, and every calibrated
 * interval's width (high/low) and interval score (log width plus 40 times
 * the log distance of a miss outside it). */
typedef struct {
    double *err, *width, *score;
    size_t n, nwidth;
} model_sample;

static void push(double **v, size_t n, double x)
{
    *v = realloc(*v, (n + 1) * sizeof **v);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*v);
    (*v)[n] = x;
}

static void sample_rows(const csv_doc *pred, model_sample *s)
{
    for (size_t r = 0; r + 1 < pred->nrows; r++) {
        double v = num(pred, r, "error_pct"), k = num(pred, r, "n_measured");
        if (!isfinite(v) || !(k > 0))
            continue;
        push(&s->err, s->n++, fabs(v));
        double y = num(pred, r, "measured"), lo = num(pred, r, "cal_pi_low"),
               hi = num(pred, r, "cal_pi_high");
        if (!(lo > 0) || !isfinite(hi))
            continue;
        double miss = y < lo ? log(lo / y) : y > hi ? log(y / hi) : 0;
        push(&s->width, s->nwidth, hi / lo);
        push(&s->score, s->nwidth++, log(hi / lo) + 40 * miss);
    }
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The index's accuracy table: per model, the median |error| of the
 * held-out configurations and the calibrated intervals' median width and
 * mean interval score, recomputed here from every experiment's
 * predictions CSV (its error_pct where measured, its measured mean and
 * calibrated interval) and experiments.csv's model column, read with the
 * test's CSV reader. CSV numbers carry 10 significant digits. */
static void test_accuracy_medians(void)
{
    static const char *const models[] = {"scopred", "strip", "block", "multicluster", "multicore"};
    char *out = NULL, *list = NULL, path[1024];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "build --archive archive --out %s/site", dir),
                          0);
    free(out);
    CU_ASSERT_EQUAL_FATAL(testutil_run_command("ls archive/*/experiments.csv", &list), 0);
    model_sample sample[5] = {{0}};
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
        csv_doc exps;
        CU_ASSERT_TRUE_FATAL(testutil_csv_load(line, &exps));
        char camp[256];
        snprintf(camp, sizeof camp, "%.*s", (int)(strrchr(line, '/') - line - 8), line + 8);
        for (size_t e = 0; e + 1 < exps.nrows; e++) {
            int m = -1;
            for (int k = 0; k < 5; k++)
                if (strcmp(testutil_csv_cell(&exps, e, "model"), models[k]) == 0)
                    m = k;
            snprintf(path, sizeof path, "%s/site/campaigns/%s/%s-predictions.csv", dir, camp,
                     testutil_csv_cell(&exps, e, "name"));
            csv_doc pred;
            if (m < 0 || !testutil_csv_load(path, &pred))
                continue;
            sample_rows(&pred, &sample[m]);
            csv_doc_free(&pred);
        }
        csv_doc_free(&exps);
    }
    free(list);
    csv_doc acc;
    snprintf(path, sizeof path, "%s/site/accuracy.csv", dir);
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, &acc));
    size_t checked = 0;
    for (size_t r = 0; r + 1 < acc.nrows; r++)
        for (int m = 0; m < 5; m++) {
            model_sample *s = &sample[m];
            if (strcmp(testutil_csv_cell(&acc, r, "model"), models[m]) != 0 || s->n == 0)
                continue;
            double median = median_of(s->err, s->n);
            CU_ASSERT_EQUAL(num(&acc, r, "held_out"), (double)s->n);
            CU_ASSERT_DOUBLE_EQUAL(num(&acc, r, "median_abs_error_pct"), median, 1e-6 * median);
            CU_ASSERT_EQUAL_FATAL(num(&acc, r, "with_calibrated"), (double)s->nwidth);
            double width = median_of(s->width, s->nwidth), score = 0;
            for (size_t i = 0; i < s->nwidth; i++)
                score += s->score[i] / (double)s->nwidth;
            CU_ASSERT_DOUBLE_EQUAL(num(&acc, r, "median_calibrated_width"), width, 1e-6 * width);
            CU_ASSERT_DOUBLE_EQUAL(num(&acc, r, "mean_interval_score"), score, 1e-6 * score);
            checked++;
        }
    CU_ASSERT_EQUAL(checked, 5);
    csv_doc_free(&acc);
    for (int m = 0; m < 5; m++)
        free(sample[m].err), free(sample[m].width), free(sample[m].score);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"every predicted job with its interval, as predict says", test_estimates},
        {"cluster cost tables: intervals, verdicts, oversubscription", test_cluster_costs},
        {"cost tables: one name per job, whichever experiment", test_cost_job_names},
        {"the index's median errors and widths, from every predictions CSV",
         test_accuracy_medians},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"estimates page", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
