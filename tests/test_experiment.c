/*
 * test_experiment.c — selection of training runs and target configurations,
 * measured means over repetitions, component sums and the signed error,
 * worked by hand on a small archive.
 */
#include "gen/base/config_index.h"
#include "gen/ingest/experiment.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[256];

static void make_archive(void)
{
    char path[512];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/clusters.csv", dir);
    testutil_write_file(path, "cluster\nA\nB\n");
    snprintf(path, sizeof path, "%s/c/runs.csv", dir);
    testutil_write_file(path,
        "cluster,np,N,time_s,time_a_s,time_b_s,rep,note\n"
        "A,1,10,4.0,1,3,1,\n"
        "A,2,10,2.0,0.5,1.5,1,\n"
        "A,4,10,1.1,0.25,0.8,1,first\n"
        "A,4,10,0.9,0.25,0.6,2,second\n"   /* same configuration as the line above */
        "B,4,10,1.0,,,1,\n"                 /* other cluster: other configuration */
        "A,8,10,,,,,to predict\n");
    snprintf(path, sizeof path, "%s/c/experiments.csv", dir);
    testutil_write_file(path,
        "name,model,response,train,target\n"
        "total,scopred,time_s,np <= 2,np >= 4\n"
        "parts,scopred,time_a_s + time_b_s,np <= 4 && cluster == 'A',np >= 4\n");
    snprintf(path, sizeof path, "%s/c/README.md", dir);
    testutil_write_file(path, "c\n");
}

/* Load the archive in dir; it must hold exactly one campaign. */
static const campaign *load_one(archive *a, diag_list *d)
{
    diag_init(d);
    archive_load(dir, a, d);
    CU_ASSERT_EQUAL_FATAL(a->ncampaigns, 1);
    return &a->campaigns[0];
}

static void unload(archive *a, diag_list *d)
{
    archive_free(a);
    diag_free(d);
    testutil_remove_dir(dir);
}

static void test_selection_and_means(void)
{
    make_archive();
    archive a;
    diag_list d;
    const campaign *c = load_one(&a, &d);
    experiment_result res;
    CU_ASSERT_TRUE_FATAL(experiment_prepare(&a, c, campaign_experiment(c, "total"), &res));
    CU_ASSERT_EQUAL(res.input.ntrain, 2);
    /* Targets: (A,4) with two runs, (B,4), (A,8) unmeasured. */
    CU_ASSERT_EQUAL_FATAL(res.input.ntargets, 3);
    CU_ASSERT_EQUAL(res.input.targets[0].nrows, 2);
    CU_ASSERT_EQUAL(res.input.targets[0].nmeasured, 2);
    CU_ASSERT_DOUBLE_EQUAL(res.input.targets[0].measured, 1.0, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(res.input.targets[1].measured, 1.0, 1e-15);
    CU_ASSERT_TRUE(isnan(res.input.targets[2].measured));
    /* Errors: an estimate of 1.1 against 1.0 is +10%; none without a measurement. */
    for (size_t i = 0; i < 3; i++) {
        report_prediction p = {.config = i, .estimate = 1.1, .ci_low = NAN, .ci_high = NAN,
                               .pi_low = NAN, .pi_high = NAN};
        report_add_prediction(&res.rep, &p);
    }
    experiment_compute_errors(&res);
    CU_ASSERT_DOUBLE_EQUAL(res.input.targets[0].error_pct, 10.0, 1e-12);
    CU_ASSERT_TRUE(isnan(res.input.targets[2].error_pct));
    experiment_result_free(&res);

    /* Components are summed per run; runs missing a component are not measured. */
    CU_ASSERT_TRUE_FATAL(experiment_prepare(&a, c, campaign_experiment(c, "parts"), &res));
    CU_ASSERT_EQUAL(res.input.nresponses, 2);
    CU_ASSERT_EQUAL(res.input.ntrain, 4);
    CU_ASSERT_DOUBLE_EQUAL(res.input.targets[0].measured, (1.05 + 0.85) / 2, 1e-15);
    CU_ASSERT_EQUAL(res.input.targets[1].nmeasured, 0);
    experiment_result_free(&res);
    unload(&a, &d);
}

static void test_identifying_columns(void)
{
    CU_ASSERT_TRUE(config_is_identifying("np"));
    CU_ASSERT_TRUE(config_is_identifying("cluster"));
    CU_ASSERT_TRUE(config_is_identifying("N"));
    CU_ASSERT_FALSE(config_is_identifying("time_s"));
    CU_ASSERT_FALSE(config_is_identifying("time_setup_s"));
    CU_ASSERT_FALSE(config_is_identifying("rep"));
    CU_ASSERT_FALSE(config_is_identifying("published_prediction_s"));
    CU_ASSERT_FALSE(config_is_identifying("note"));
    CU_ASSERT_FALSE(config_is_identifying("rel_residual"));
    CU_ASSERT_FALSE(config_is_identifying("cycles"));
    CU_ASSERT_TRUE(config_is_identifying("work_mb"));
}

/* Many configurations, their repetitions interleaved: each target gathers
 * exactly its own rows, in file order, and configurations come in the
 * order they first appear. 0 and -0 are one value, two missing cells are
 * one value, and a missing cell differs from 0. The training runs at each
 * target configuration are counted with their mean (ScoPred's history). */
static void test_many_configurations(void)
{
    enum { NN = 30, KINDS = 10, REPS = 4, CONFIGS = NN * KINDS };
    char path[512];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/clusters.csv", dir);
    testutil_write_file(path, "cluster\nA\n");
    size_t cap = 64 * (CONFIGS * REPS + 8), used = 0;
    char *csv = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
    used += (size_t)snprintf(csv + used, cap - used, "cluster,np,N,tag_kind,time_s,rep\n");
    for (int rep = 1; rep <= REPS; rep++)
        for (int c = 0; c < CONFIGS; c++)
            used += (size_t)snprintf(csv + used, cap - used, "A,1,%d,k%d,%d.%d,%d\n", c % NN + 1,
                                     c / NN, c + 1, rep, rep);
    /* Three more configurations: (0 = -0), (missing), and (0) again. */
    used += (size_t)snprintf(csv + used, cap - used,
                             "A,1,0,z,1,1\nA,1,-0,z,3,2\nA,1,,z,5,1\nA,1,,z,7,2\nA,1,0,,9,1\n");
    snprintf(path, sizeof path, "%s/c/runs.csv", dir);
    testutil_write_file(path, csv);
    free(csv);
    snprintf(path, sizeof path, "%s/c/experiments.csv", dir);
    testutil_write_file(path, "name,model,response,train,target\n"
                              "all,scopred,time_s,rep == 1,rep >= 1\n");
    snprintf(path, sizeof path, "%s/c/README.md", dir);
    testutil_write_file(path, "c\n");

    archive a;
    diag_list d;
    const campaign *c = load_one(&a, &d);
    experiment_result res;
    CU_ASSERT_TRUE_FATAL(experiment_prepare(&a, c, campaign_experiment(c, "all"), &res));
    const experiment_input *in = &res.input;
    CU_ASSERT_EQUAL_FATAL(in->ntargets, CONFIGS + 3);
    size_t wrong = 0;
    for (size_t t = 0; t < CONFIGS; t++) {
        const target_config *tc = &in->targets[t];
        wrong += tc->nrows != REPS;
        for (size_t k = 0; k < tc->nrows && k < REPS; k++)
            wrong += tc->rows[k] != t + k * CONFIGS;
        wrong += tc->nhistory != 1 || tc->history_mean != (double)(t + 1) + 0.1;
        wrong += fabs(tc->measured - ((double)(t + 1) + 0.25)) > 1e-12;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    const target_config *zero = &in->targets[CONFIGS], *missing = &in->targets[CONFIGS + 1];
    CU_ASSERT_EQUAL(zero->nrows, 2);
    CU_ASSERT_DOUBLE_EQUAL(zero->measured, 2.0, 1e-15);
    CU_ASSERT_EQUAL(zero->nhistory, 1);
    CU_ASSERT_EQUAL(missing->nrows, 2);
    CU_ASSERT_DOUBLE_EQUAL(missing->history_mean, 5.0, 1e-15);
    CU_ASSERT_EQUAL(in->targets[CONFIGS + 2].nrows, 1);
    experiment_result_free(&res);
    unload(&a, &d);
}

/* The response cell's names: '+'-joined, blanks around each ignored,
 * empty components skipped. */
static void test_response_names(void)
{
    static const struct {
        const char *cell;
        const char *names[4];
    } cases[] = {
        {"time_s", {"time_s"}},
        {" time_a_s + time_b_s ", {"time_a_s", "time_b_s"}},
        {"+a++ b\t+\n+c d+", {"a", "b", "c d"}},
        {" + \t", {NULL}},
        {"", {NULL}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t k = 0, len;
        for (const char *s = cases[i].cell; (s = experiment_response_next(s, &len)); s += len) {
            CU_ASSERT_FATAL(k < 3 && cases[i].names[k]);
            CU_ASSERT_EQUAL(len, strlen(cases[i].names[k]));
            CU_ASSERT_NSTRING_EQUAL(s, cases[i].names[k], len);
            k++;
        }
        CU_ASSERT_PTR_NULL(cases[i].names[k]);
    }
}

int main(void)
{
    static const testutil_test tests[] = {
        {"selection, grouping, means, errors", test_selection_and_means},
        {"identifying columns", test_identifying_columns},
        {"many configurations, repetitions interleaved", test_many_configurations},
        {"the names of a response cell", test_response_names},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"experiment", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
