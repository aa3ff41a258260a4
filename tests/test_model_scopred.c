/*
 * test_model_scopred.c — the scopred adapter (gen/fit/model_scopred.c) on small
 * in-memory campaigns: positioned errors for bad formulas and options, the
 * term search when no formula is given, components summed with their
 * half-widths, ScoPred's historical-mean remark, targets that cannot be
 * evaluated, and fits without intervals that say why.
 */
#include "gen/fit/calibration.h"
#include "gen/fit/experiment_run.h"
#include "gen/ingest/experiment.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A campaign of runs with numeric columns N, P, Z (always 0) and the
 * responses time_s, time_a_s, time_b_s; rows with y < 0 are targets
 * (time_s empty). Source lines start at 2. */
typedef struct {
    campaign camp;
    experiment_info exp;
} fixture;

static void add_runs(fixture *fx, const double *n, const double *p, const double *y,
                     size_t count)
{
    table *t = &fx->camp.runs;
    table_init(t);
    const char *cols[] = {"N", "P", "Z", "time_s", "time_a_s", "time_b_s"};
    for (size_t c = 0; c < 6; c++)
        CU_ASSERT_FATAL(table_add_column(t, cols[c], COL_NUMBER) == (int)c);
    for (size_t i = 0; i < count; i++) {
        long r = table_add_row(t, (long)i + 2);
        CU_ASSERT_FATAL(r >= 0);
        table_set_number(t, (size_t)r, 0, n[i]);
        table_set_number(t, (size_t)r, 1, p[i]);
        table_set_number(t, (size_t)r, 2, 0);
        if (y[i] >= 0) {
            table_set_number(t, (size_t)r, 3, y[i]);
            table_set_number(t, (size_t)r, 4, 0.25 * y[i] + 0.01 * (double)(i % 3));
            table_set_number(t, (size_t)r, 5, 0.75 * y[i] - 0.01 * (double)(i % 3));
        }
    }
}

/* EP-like: T = 0.05 + N/(1000*P) with a small wobble, P = 1..8 and two N;
 * targets P = 16 for both N. */
static void ep_fixture(fixture *fx, const char *formula, const char *response,
                       const char *options, const char *target)
{
    double n[18], p[18], y[18];
    size_t k = 0;
    for (int big = 0; big < 2; big++)
        for (int i = 0; i < 9; i++, k++) {
            n[k] = big ? 4000 : 1000;
            p[k] = i < 8 ? i + 1 : 16;
            y[k] = i < 8 ? 0.05 + n[k] / (1000 * p[k]) + 0.003 * ((i * 7 + big) % 5 - 2) : -1;
        }
    memset(fx, 0, sizeof *fx);
    add_runs(fx, n, p, y, k);
    fx->camp.name = "test";
    fx->exp = (experiment_info){.name = "e", .model = "scopred", .response = (char *)response,
                                .formula = (char *)formula, .train = "P <= 8",
                                .target = (char *)(target ? target : "P == 16"),
                                .options = (char *)options, .line = 2};
}

static bool run(fixture *fx, experiment_result *res)
{
    return experiment_run(NULL, &fx->camp, &fx->exp, res);
}

static void done(fixture *fx, experiment_result *res)
{
    experiment_result_free(res);
    table_free(&fx->camp.runs);
}

/* The fit fails with want in its message, pointing at character offset of
 * cell (the cell of experiments.csv that `check` and `fit` then name). */
static void expect_error(const char *formula, const char *options, const char *want,
                         const char *cell, int offset)
{
    fixture fx;
    experiment_result res;
    ep_fixture(&fx, formula, "time_s", options, NULL);
    CU_ASSERT_FALSE(run(&fx, &res));
    if (!strstr(res.error, want))
        fprintf(stderr, "formula '%s': got '%s', want '%s'\n", formula, res.error, want);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.error, want));
    CU_ASSERT_PTR_NOT_NULL_FATAL(res.where.cell);
    CU_ASSERT_STRING_EQUAL(res.where.cell, cell);
    CU_ASSERT_EQUAL(res.where.offset, offset);
    done(&fx, &res);
}

static void test_bad_formulas(void)
{
    expect_error("N^", NULL, "expected a number", "formula", 3);
    expect_error("N/P + log(", NULL, "in the formula", "formula", 11);
    expect_error("N/P + X*P", NULL, "unknown column 'X' in the formula", "formula", 7);
    expect_error("N/P + N/Z", NULL, "division by zero in the formula (runs.csv line 2)",
                 "formula", 8);
    expect_error("N/P + log(Z)", NULL, "log(0) is not a finite number", "formula", 7);
    expect_error("N/P", "formula_time_s=N/", "options formula_time_s:3: ", "options", 0);
    expect_error("N/P", "colour=red", "options: unknown key 'colour'", "options", 0);
    expect_error("N/P", "formula_nosuch=N", "options: unknown key 'formula_nosuch'", "options", 0);
    /* A formula for a column that is not a response was ignored without a
     * word. */
    expect_error("N/P", "formula_time_a_s=N", "options: unknown key 'formula_time_a_s': "
                 "'time_a_s' is not a response of the experiment, which predicts time_s",
                 "options", 0);
    expect_error("N/P", "formula_N=N", "'N' is not a response", "options", 0);
    expect_error("N/P", "max_term=2", "options: unknown key 'max_term' (scopred knows "
                 "formula_<response column>, params, max_terms, alpha, min_gain, exponents, "
                 "selection, scale, total, trend, scaling); did you mean 'max_terms'?",
                 "options", 0);
    /* The first of two was read, the second ignored. */
    expect_error("", "max_terms=2; max_terms =-1", "options: max_terms is given twice",
                 "options", 0);
    expect_error("N/P", "formula_time_s=N/P;formula_time_s=N", "formula_time_s is given twice",
                 "options", 0);
}

static const report_stat *stat(const report *r, const char *name)
{
    const report_stat *s = report_find_stat(r, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    return s;
}

/* The report carries every statistic of a single-response fit, the
 * diagnostics as one-line verdicts, and predictions with intervals. */
static void test_single_response_report(void)
{
    fixture fx;
    experiment_result res;
    ep_fixture(&fx, "N/P", "time_s", NULL, NULL);
    CU_ASSERT_TRUE_FATAL(run(&fx, &res));
    const report *r = &res.rep;
    CU_ASSERT_STRING_EQUAL(r->model, "scopred");
    CU_ASSERT_STRING_EQUAL(r->formula, "N/P");
    CU_ASSERT_EQUAL_FATAL(r->ncoefs, 2);
    CU_ASSERT_STRING_EQUAL(r->coefs[0].term, "(Intercept)");
    CU_ASSERT_STRING_EQUAL(r->coefs[1].term, "N/P");
    CU_ASSERT_DOUBLE_EQUAL(r->coefs[1].coefficient, 1e-3, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(stat(r, "n")->value, 16, 0);
    CU_ASSERT_DOUBLE_EQUAL(stat(r, "df_resid")->value, 14, 0);
    CU_ASSERT_TRUE(stat(r, "r2")->value > 0.999);
    CU_ASSERT_TRUE(stat(r, "f_p")->value < 1e-10);
    CU_ASSERT_EQUAL(r->ndiagnostics, 4);
    for (size_t i = 0; i < r->ndiagnostics; i++)
        CU_ASSERT_PTR_NULL(strchr(r->diagnostics[i], '\n'));
    CU_ASSERT_EQUAL_FATAL(r->npreds, 2);
    for (size_t i = 0; i < 2; i++) {
        const report_prediction *p = &r->preds[i];
        CU_ASSERT_TRUE(p->ci_low < p->estimate && p->estimate < p->ci_high);
        CU_ASSERT_TRUE(p->pi_low < p->ci_low && p->ci_high < p->pi_high);
        CU_ASSERT_FALSE(p->extrapolation); /* N/P = 62.5 and 250: inside the data */
    }
    done(&fx, &res);
}

/* No formula: the term search picks one, the report says so. */
static void test_term_search(void)
{
    fixture fx;
    experiment_result res;
    ep_fixture(&fx, NULL, "time_s", NULL, NULL);
    CU_ASSERT_TRUE_FATAL(run(&fx, &res));
    const report *r = &res.rep;
    CU_ASSERT_STRING_EQUAL(r->formula, "N*P^(-1)");
    bool said = false;
    for (size_t i = 0; i < r->nwarnings; i++)
        said |= strstr(r->warnings[i], "term search chose 'N*P^(-1)'") != NULL;
    CU_ASSERT_TRUE(said);
    CU_ASSERT_EQUAL(r->npreds, 2);
    done(&fx, &res);

    /* Only N may be used: N alone cannot follow 1/P, so it is kept only if
     * it helps; either way the search is limited to N and always answers. */
    ep_fixture(&fx, "", "time_s", "params=N", NULL);
    CU_ASSERT_TRUE(run(&fx, &res));
    CU_ASSERT_PTR_NULL(strstr(res.rep.formula, "P"));
    done(&fx, &res);

    /* Only exponents 2 and 3 allowed, strictness at its default: whatever
     * is chosen has no P^(-1); the report says how far to trust it, and
     * that the p-values are post-selection. */
    ep_fixture(&fx, "", "time_s", "exponents=2,3", NULL);
    CU_ASSERT_TRUE_FATAL(run(&fx, &res));
    CU_ASSERT_PTR_NULL(strstr(res.rep.formula, "^(-1)"));
    said = false;
    for (size_t i = 0; i < res.rep.nwarnings; i++)
        said |= strstr(res.rep.warnings[i], "post-selection") != NULL ||
                strstr(res.rep.warnings[i], "constant model") != NULL;
    CU_ASSERT_TRUE(said);
    done(&fx, &res);

    /* The search's options are checked, the bad value named. */
    expect_error("", "alpha=1.5", "options: alpha=1.5: must be a number between 0 and 1",
                 "options", 0);
    expect_error("", "min_gain=x", "options: min_gain=x: must be a number", "options", 0);
    expect_error("", "exponents=1,0.1", "options: exponents=1,0.1: exponent '0.1'",
                 "options", 0);
    /* params: each name a numeric parameter of the runs; an unknown or
     * unusable one was dropped without a word, and with none left the
     * search fitted the constant model. */
    expect_error("", "params=nosuch", "options: unknown column 'nosuch' in params", "options", 0);
    expect_error("", "params=N, p", "options: unknown column 'p' in params; did you mean 'P'?",
                 "options", 0);
    expect_error("", "params=time_a_s", "options: 'time_a_s' in params is a response or "
                 "measurement column, not a parameter", "options", 0);
    expect_error("", "params= , ", "options: params names no column", "options", 0);
    ep_fixture(&fx, "", "time_s", "params=\tN , P\t", NULL);
    CU_ASSERT_TRUE_FATAL(run(&fx, &res));
    CU_ASSERT_STRING_EQUAL(res.rep.formula, "N*P^(-1)");
    done(&fx, &res);
    /* max_terms: "-1" once became SIZE_MAX through strtoul and crashed the
     * search; "abc" and "1.5" were read as 0 and 1 without a word. */
    const char *bad_counts[] = {"-1", "-2", "-1000", "0", "11", "abc", "1.5",
                                "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad_counts / sizeof *bad_counts; i++) {
        char options[64], want[160];
        snprintf(options, sizeof options, "max_terms=%s", bad_counts[i]);
        snprintf(want, sizeof want, "option %s: expected a whole number from 1 to 10", options);
        expect_error("", options, want, "options", 0);
    }
    ep_fixture(&fx, "", "time_s", "max_terms=1", NULL);
    CU_ASSERT_TRUE_FATAL(run(&fx, &res));
    CU_ASSERT_STRING_EQUAL(res.rep.formula, "N*P^(-1)");
    done(&fx, &res);
    /* Blanks around a value are no part of it, as in the other models'
     * options ("selection = forward" was refused as " forward "). */
    ep_fixture(&fx, "", "time_s", "selection = forward ; scale = relative ; trend = free", NULL);
    CU_ASSERT_TRUE(run(&fx, &res));
    CU_ASSERT_STRING_EQUAL(res.error, "");
    done(&fx, &res);
}

/* A calibration refit (estimates_only) gives the full fit's estimates, bit
 * for bit, with the term search and with a given formula, and leaves out the
 * diagnostics and the search note it was spared. */
static void test_estimates_only(void)
{
    const char *formulas[] = {NULL, "N/P"};
    for (size_t f = 0; f < 2; f++) {
        fixture fx;
        experiment_result full;
        ep_fixture(&fx, formulas[f], "time_s", NULL, NULL);
        CU_ASSERT_TRUE_FATAL(experiment_fit(NULL, &fx.camp, &fx.exp, false, &full));
        CU_ASSERT_TRUE(full.rep.ndiagnostics > 0);
        report lean;
        report_init(&lean);
        experiment_input in = full.input;
        in.estimates_only = true;
        char err[256] = "";
        CU_ASSERT_TRUE_FATAL(experiment_adapter("scopred")(&in, &lean, err, sizeof err));
        CU_ASSERT_EQUAL(lean.ndiagnostics, 0);
        CU_ASSERT_EQUAL(lean.nwarnings, 0);
        CU_ASSERT_EQUAL_FATAL(lean.npreds, full.rep.npreds);
        CU_ASSERT_EQUAL_FATAL(lean.npreds, 2);
        for (size_t i = 0; i < lean.npreds; i++) {
            CU_ASSERT_EQUAL(lean.preds[i].config, full.rep.preds[i].config);
            CU_ASSERT_TRUE(memcmp(&lean.preds[i].estimate, &full.rep.preds[i].estimate,
                                  sizeof(double)) == 0);
        }
        report_free(&lean);
        done(&fx, &full);
    }
}

/* experiment_run lends the fit's term values to the calibration's refits
 * (experiment_designs): the calibrated intervals are those of refits that
 * evaluate their formulas themselves (experiment_fit, then
 * calibration_apply without designs), bit for bit; with components too. */
static void test_kept_designs(void)
{
    const char *formulas[] = {"N/P", "N/P"};
    const char *responses[] = {"time_s", "time_a_s+time_b_s"};
    const char *options[] = {NULL, "formula_time_b_s=N/P + N"};
    for (size_t f = 0; f < 2; f++) {
        fixture fx;
        experiment_result kept, plain;
        ep_fixture(&fx, formulas[f], responses[f], options[f], NULL);
        CU_ASSERT_TRUE_FATAL(run(&fx, &kept));
        CU_ASSERT_PTR_NULL(kept.input.designs); /* gone once the run is over */
        CU_ASSERT_TRUE_FATAL(experiment_fit(NULL, &fx.camp, &fx.exp, false, &plain));
        CU_ASSERT_TRUE_FATAL(calibration_apply(&plain, experiment_adapter("scopred"), NULL, NULL));
        CU_ASSERT_EQUAL_FATAL(kept.rep.npreds, plain.rep.npreds);
        size_t calibrated = 0;
        for (size_t i = 0; i < kept.rep.npreds; i++) {
            const report_prediction *a = &kept.rep.preds[i], *b = &plain.rep.preds[i];
            CU_ASSERT_EQUAL(memcmp(&a->cal_low, &b->cal_low, sizeof a->cal_low), 0);
            CU_ASSERT_EQUAL(memcmp(&a->cal_high, &b->cal_high, sizeof a->cal_high), 0);
            calibrated += isfinite(a->cal_low);
        }
        CU_ASSERT_TRUE(calibrated > 0);
        CU_ASSERT_STRING_EQUAL(kept.rep.interval_method, plain.rep.interval_method);
        experiment_result_free(&plain);
        done(&fx, &kept);
    }
}

/* Components: each fitted alone (with its own formula from the options),
 * the total is the sum of the estimates, its half-widths the sums of the
 * half-widths. */
static void test_components(void)
{
    fixture fx;
    experiment_result whole, a, b;
    ep_fixture(&fx, "N/P", "time_a_s+time_b_s", "formula_time_b_s=N/P + N", NULL);
    CU_ASSERT_TRUE_FATAL(run(&fx, &whole));
    fx.exp.response = "time_a_s";
    fx.exp.options = NULL; /* formula_time_b_s is no key of this experiment */
    CU_ASSERT_TRUE_FATAL(run(&fx, &a));
    fx.exp.response = "time_b_s";
    fx.exp.options = "formula_time_b_s=N/P + N";
    CU_ASSERT_TRUE_FATAL(run(&fx, &b));
    CU_ASSERT_STRING_EQUAL(b.rep.formula, "N/P + N");
    CU_ASSERT_STRING_EQUAL(whole.rep.formula, "time_a_s: N/P; time_b_s: N/P + N");
    CU_ASSERT_PTR_NOT_NULL(report_find_stat(&whole.rep, "time_b_s: r2"));
    CU_ASSERT_TRUE(isnan(stat(&whole.rep, "r2")->value));
    CU_ASSERT_PTR_NOT_NULL(stat(&whole.rep, "r2")->text);
    CU_ASSERT_EQUAL_FATAL(whole.rep.npreds, 2);
    for (size_t i = 0; i < 2; i++) {
        const report_prediction *t = &whole.rep.preds[i], *pa = &a.rep.preds[i],
                                *pb = &b.rep.preds[i];
        CU_ASSERT_DOUBLE_EQUAL(t->estimate, pa->estimate + pb->estimate, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(t->ci_high - t->estimate,
                               (pa->ci_high - pa->estimate) + (pb->ci_high - pb->estimate), 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(t->estimate - t->pi_low,
                               (pa->estimate - pa->pi_low) + (pb->estimate - pb->pi_low), 1e-12);
        CU_ASSERT_PTR_NOT_NULL(strstr(t->note, "sum of components: time_a_s "));
    }
    /* The measured total is gen/'s sum of the component means. */
    CU_ASSERT_TRUE(isnan(whole.input.targets[0].measured));
    experiment_result_free(&a);
    experiment_result_free(&b);
    done(&fx, &whole);
}

/* A target that has training runs: ScoPred prefers their mean. */
static void test_historical_mean(void)
{
    fixture fx;
    experiment_result res;
    ep_fixture(&fx, "N/P", "time_s", NULL, "P == 2 || P == 16");
    CU_ASSERT_TRUE_FATAL(run(&fx, &res));
    size_t with_note = 0;
    for (size_t i = 0; i < res.rep.npreds; i++) {
        const char *note = res.rep.preds[i].note;
        const target_config *t = &res.input.targets[res.rep.preds[i].config];
        bool trained = !isnan(t->measured);
        bool says = note && strstr(note, "1 training run at this configuration, mean ");
        CU_ASSERT_EQUAL(says, trained);
        with_note += says;
    }
    CU_ASSERT_EQUAL(with_note, 2);
    done(&fx, &res);
}

/* A target where a term cannot be evaluated gets no estimate and a reason;
 * the other targets are still predicted. */
static void test_target_not_evaluable(void)
{
    fixture fx;
    experiment_result res;
    ep_fixture(&fx, "N + log(P)", "time_s", NULL, "P == 16 || P == 0");
    /* One target row gets P = 0: log(0) there. */
    table_set_number(&fx.camp.runs, 8, 1, 0);
    CU_ASSERT_TRUE_FATAL(run(&fx, &res));
    size_t missing = 0;
    for (size_t i = 0; i < res.rep.npreds; i++) {
        const report_prediction *p = &res.rep.preds[i];
        if (isnan(p->estimate)) {
            missing++;
            CU_ASSERT_PTR_NOT_NULL(strstr(p->note, "no estimate: formula:5: log(0)"));
        }
    }
    CU_ASSERT_EQUAL(missing, 1);
    CU_ASSERT_EQUAL(res.rep.npreds, 2);
    done(&fx, &res);
}

/* Two training runs and two coefficients: no residual degrees of freedom;
 * the estimate exists, the intervals do not, and the note says why. */
static void test_no_intervals(void)
{
    fixture fx;
    experiment_result res;
    ep_fixture(&fx, "N/P + N*P", "time_s", NULL, NULL);
    fx.exp.train = "P <= 2 && N == 1000";
    CU_ASSERT_TRUE_FATAL(run(&fx, &res));
    const report *r = &res.rep;
    CU_ASSERT_TRUE(r->coefs[2].aliased);
    bool warned = false;
    for (size_t i = 0; i < r->nwarnings; i++)
        warned |= strstr(r->warnings[i], "fewer training runs (2) than coefficients (3)") != NULL;
    CU_ASSERT_TRUE(warned);
    CU_ASSERT_TRUE(isnan(stat(r, "sigma")->value));
    CU_ASSERT_PTR_NOT_NULL(strstr(stat(r, "sigma")->text, "no residual degrees of freedom"));
    for (size_t i = 0; i < r->npreds; i++) {
        CU_ASSERT_TRUE(isfinite(r->preds[i].estimate));
        CU_ASSERT_TRUE(isnan(r->preds[i].ci_low) && isnan(r->preds[i].pi_high));
        CU_ASSERT_PTR_NOT_NULL(strstr(r->preds[i].note, "no intervals: no residual degrees"));
    }
    done(&fx, &res);
}

/* A formula linear in P fitted on T = 0.05 + N/(1000*P) falls below zero
 * at P = 16: c + a*P over P = 1..8 (both N) has slope about -0.252 and
 * mean 0.90 at P = 4.5, so about -2.0 at P = 16 for both targets. Each
 * such estimate says it is no prediction, and one warning counts them;
 * the EP formula, positive there, says nothing of the kind. */
static void test_nonpositive_time(void)
{
    fixture fx;
    experiment_result res;
    ep_fixture(&fx, "P", "time_s", NULL, NULL);
    CU_ASSERT_TRUE_FATAL(run(&fx, &res));
    const report *r = &res.rep;
    CU_ASSERT_EQUAL_FATAL(r->npreds, 2);
    for (size_t i = 0; i < r->npreds; i++) {
        CU_ASSERT_DOUBLE_EQUAL(r->preds[i].estimate, -2.0, 0.1);
        CU_ASSERT_PTR_NOT_NULL(r->preds[i].note ? strstr(r->preds[i].note,
                               "a time of zero or less: the model does not hold") : NULL);
    }
    size_t warned = 0;
    for (size_t i = 0; i < r->nwarnings; i++)
        warned += strstr(r->warnings[i], "2 estimates are of zero or less") != NULL;
    CU_ASSERT_EQUAL(warned, 1);
    done(&fx, &res);

    ep_fixture(&fx, "N/P", "time_s", NULL, NULL);
    CU_ASSERT_TRUE_FATAL(run(&fx, &res));
    for (size_t i = 0; i < res.rep.nwarnings; i++)
        CU_ASSERT_PTR_NULL(strstr(res.rep.warnings[i], "zero or less"));
    for (size_t i = 0; i < res.rep.npreds; i++)
        CU_ASSERT_TRUE(res.rep.preds[i].estimate > 0);
    done(&fx, &res);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"bad formulas and options: positioned errors", test_bad_formulas},
        {"single response: statistics, verdicts, intervals", test_single_response_report},
        {"no formula: term search", test_term_search},
        {"estimates only (calibration refits): same estimates, no diagnostics",
         test_estimates_only},
        {"the fit's term values lent to the calibration's refits", test_kept_designs},
        {"components summed with their half-widths", test_components},
        {"historical mean at a trained configuration", test_historical_mean},
        {"a target that cannot be evaluated", test_target_not_evaluable},
        {"no residual degrees of freedom: no intervals, a reason", test_no_intervals},
        {"a time of zero or less is flagged, not given as a prediction", test_nonpositive_time},
        {NULL, NULL},
    };
    const testutil_suite suites[] = {{"scopred adapter", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
