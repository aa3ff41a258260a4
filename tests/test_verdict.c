/*
 * test_verdict.c — the verdict rules of gen/fit/verdict.h on hand-made results:
 * small errors and good coverage read reliable, a 227% error unreliable
 * (never "ok"), nothing measured not verified, a failed fit unreliable,
 * noisy repetitions, few points and estimates held to the runs' trend
 * uncertain, and a campaign takes the worst of its verified experiments.
 */
#include "gen/fit/verdict.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Training runs at np = 1..ntrain_configs (times 100/np, two repetitions
 * 100/np and (1 + spread) * 100/np), targets at np = 100, 200, ... with the
 * given measured means and estimates, calibrated interval +-10%. */
typedef struct {
    campaign camp;
    experiment_result res;
    char *responses[1];
} made;

static void make(made *m, size_t ntrain_configs, double spread, const double *measured,
                 const double *estimate, size_t ntargets, size_t ncoefs)
{
    memset(m, 0, sizeof *m);
    table *t = &m->camp.runs;
    table_init(t);
    CU_ASSERT_FATAL(table_add_column(t, "np", COL_NUMBER) == 0);
    CU_ASSERT_FATAL(table_add_column(t, "time_s", COL_NUMBER) == 1);
    experiment_input *in = &m->res.input;
    in->camp = &m->camp;
    m->responses[0] = "time_s";
    in->responses = m->responses;
    in->nresponses = 1;
    in->train_rows = calloc(2 * ntrain_configs + 1, sizeof *in->train_rows);
    for (size_t k = 0; k < ntrain_configs; k++)
        for (int rep = 0; rep < 2; rep++) {
            long r = table_add_row(t, 0);
            table_set_number(t, (size_t)r, 0, (double)(k + 1));
            table_set_number(t, (size_t)r, 1, 100.0 / (double)(k + 1) * (rep ? 1 + spread : 1));
            in->train_rows[in->ntrain++] = (size_t)r;
        }
    in->targets = calloc(ntargets + 1, sizeof *in->targets);
    report_init(&m->res.rep);
    for (size_t i = 0; i < ntargets; i++) {
        long r = table_add_row(t, 0);
        table_set_number(t, (size_t)r, 0, 100.0 * (double)(i + 1));
        target_config *tc = &in->targets[in->ntargets++];
        tc->rows = malloc(sizeof *tc->rows);
        tc->rows[0] = (size_t)r;
        tc->nrows = 1;
        tc->measured = measured[i];
        tc->nmeasured = isnan(measured[i]) ? 0 : 1;
        tc->error_pct = isnan(measured[i]) ? NAN : 100 * (estimate[i] - measured[i]) / measured[i];
        report_prediction p = {.config = i, .estimate = estimate[i], .pi_low = NAN,
                               .pi_high = NAN, .ci_low = NAN, .ci_high = NAN};
        CU_ASSERT_FATAL(report_add_prediction(&m->res.rep, &p));
        report_prediction *q = &m->res.rep.preds[i];
        q->cal_low = 0.9 * estimate[i], q->cal_high = 1.1 * estimate[i], q->distance = 1;
    }
    for (size_t i = 0; i < ncoefs; i++)
        report_add_coef(&m->res.rep, "x", 1, 0.1, 10, 0.001, false);
    m->res.ok = true;
}

static void unmake(made *m)
{
    free(m->res.input.train_rows);
    for (size_t i = 0; i < m->res.input.ntargets; i++)
        free(m->res.input.targets[i].rows);
    free(m->res.input.targets);
    report_free(&m->res.rep);
    table_free(&m->camp.runs);
}

static verdict judge(made *m)
{
    verdict v;
    CU_ASSERT_TRUE_FATAL(verdict_judge(&m->res, &v));
    CU_ASSERT_PTR_NOT_NULL_FATAL(v.reasons);
    return v;
}

static void test_levels(void)
{
    double meas[] = {10, 20, 30, 40}, good[] = {10.3, 19.5, 30.6, 39.8};
    made m;
    make(&m, 6, 0.02, meas, good, 4, 2);
    verdict v = judge(&m);
    CU_ASSERT_EQUAL(v.level, VERDICT_RELIABLE);
    CU_ASSERT_PTR_NOT_NULL(strstr(v.reasons, "calibrated 95% PI covered 4 of 4"));
    verdict_free(&v);
    unmake(&m);

    /* 227% too high on average: unreliable, and says why. */
    double bad[] = {32.7, 65.4, 98.1, 130.8};
    make(&m, 6, 0.02, meas, bad, 4, 2);
    v = judge(&m);
    CU_ASSERT_EQUAL(v.level, VERDICT_UNRELIABLE);
    CU_ASSERT_STRING_EQUAL(verdict_name(v.level), "unreliable");
    CU_ASSERT_PTR_NOT_NULL(strstr(v.reasons, "held-out median |error| 227%, max 227%"));
    CU_ASSERT_PTR_NOT_NULL(strstr(v.reasons, "covered 0 of 4"));
    verdict_free(&v);
    unmake(&m);

    /* Errors of 15%: uncertain; repetitions 12% apart (11.3% of their mean) and 3 configurations
     * for 2 coefficients are named too. */
    double mid[] = {11.5, 23, 34.5, 46};
    make(&m, 3, 0.12, meas, mid, 4, 2);
    v = judge(&m);
    CU_ASSERT_EQUAL(v.level, VERDICT_UNCERTAIN);
    CU_ASSERT_PTR_NOT_NULL(strstr(v.reasons, "repetitions spread up to 11.3%"));
    CU_ASSERT_PTR_NOT_NULL(strstr(v.reasons, "3 training configurations for 2 coefficients"));
    verdict_free(&v);
    unmake(&m);

    /* Good errors but noisy repetitions alone: uncertain, not reliable. */
    make(&m, 6, 0.2, meas, good, 4, 2);
    v = judge(&m);
    CU_ASSERT_EQUAL(v.level, VERDICT_UNCERTAIN);
    verdict_free(&v);
    unmake(&m);

    /* Nothing measured: not verified. */
    double none[] = {NAN, NAN};
    make(&m, 6, 0.02, none, good, 2, 2);
    v = judge(&m);
    CU_ASSERT_EQUAL(v.level, VERDICT_NOT_VERIFIED);
    CU_ASSERT_PTR_NOT_NULL(strstr(v.reasons, "no held-out target was measured"));
    verdict_free(&v);

    /* A failed fit. */
    m.res.ok = false;
    strcpy(m.res.error, "no sequential run");
    v = judge(&m);
    CU_ASSERT_EQUAL(v.level, VERDICT_UNRELIABLE);
    CU_ASSERT_STRING_EQUAL(v.reasons, "the fit failed: no sequential run");
    verdict_free(&v);
    unmake(&m);
}

/* A bootstrap-only calibration says it covers noise, not misfit — unless
 * the multi-cluster model's own interval (pooled misfit widths of its
 * sides and its link) gave every prediction a PI that the bootstrap was
 * widened to contain. */
static void test_bootstrap_reason(void)
{
    static const char *const noise = "no backtest was possible: the interval covers noise";
    double meas[] = {10, 20, 30, 40}, good[] = {10.3, 19.5, 30.6, 39.8};
    experiment_info info = {.model = "strip"};
    made m;
    make(&m, 6, 0.02, meas, good, 4, 2);
    m.res.input.exp = &info;
    CU_ASSERT_TRUE_FATAL(report_set_text(&m.res.rep.interval_method, "bootstrap over repetitions"));
    verdict v = judge(&m);
    CU_ASSERT_PTR_NOT_NULL(strstr(v.reasons, noise));
    verdict_free(&v);

    info.model = "multicluster"; /* without PIs of its own: still noise only */
    v = judge(&m);
    CU_ASSERT_PTR_NOT_NULL(strstr(v.reasons, noise));
    verdict_free(&v);

    for (size_t i = 0; i < m.res.rep.npreds; i++) /* with them: misfit is in the interval */
        m.res.rep.preds[i].pi_low = 0.5 * good[i], m.res.rep.preds[i].pi_high = 2 * good[i];
    v = judge(&m);
    CU_ASSERT_PTR_NULL(strstr(v.reasons, noise));
    verdict_free(&v);

    info.model = "strip"; /* another model's PI does not count */
    v = judge(&m);
    CU_ASSERT_PTR_NOT_NULL(strstr(v.reasons, noise));
    verdict_free(&v);
    unmake(&m);
}

/* An estimate held to the runs' trend (models/trendbound.h) weighs like a
 * change of regime: the reliable case above becomes uncertain, and the
 * reason counts the held estimates. */
static void test_held_to_trend(void)
{
    double meas[] = {10, 20, 30, 40}, good[] = {10.3, 19.5, 30.6, 39.8};
    made m;
    make(&m, 6, 0.02, meas, good, 4, 2);
    verdict v = judge(&m);
    CU_ASSERT_STRING_EQUAL(verdict_name(v.level), "reliable");
    CU_ASSERT_PTR_NULL(strstr(v.reasons, "trend"));
    verdict_free(&v);
    m.res.rep.preds[1].held_to_trend = m.res.rep.preds[3].held_to_trend = true;
    v = judge(&m);
    CU_ASSERT_STRING_EQUAL(verdict_name(v.level), "uncertain");
    CU_ASSERT_PTR_NOT_NULL(strstr(v.reasons, "2 of 4 estimates held to the runs' trend"));
    verdict_free(&v);
    unmake(&m);
}

static void test_campaign(void)
{
    verdict per[] = {{VERDICT_RELIABLE, "fine"},
                     {VERDICT_NOT_VERIFIED, "nothing measured"},
                     {VERDICT_UNCERTAIN, "few points"}};
    const char *names[] = {"a", "b", "c"};
    verdict v;
    CU_ASSERT_TRUE_FATAL(verdict_campaign(per, names, 3, &v));
    CU_ASSERT_EQUAL(v.level, VERDICT_UNCERTAIN);
    CU_ASSERT_STRING_EQUAL(v.reasons, "of 3 experiments: 1 reliable, 1 uncertain, "
                                      "1 not verified; worst, c: few points");
    verdict_free(&v);
    CU_ASSERT_TRUE_FATAL(verdict_campaign(per + 1, names + 1, 1, &v));
    CU_ASSERT_EQUAL(v.level, VERDICT_NOT_VERIFIED);
    verdict_free(&v);
    CU_ASSERT_TRUE_FATAL(verdict_campaign(NULL, NULL, 0, &v));
    CU_ASSERT_EQUAL(v.level, VERDICT_NOT_VERIFIED);
    CU_ASSERT_STRING_EQUAL(v.reasons, "no experiments");
    verdict_free(&v);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"experiment verdicts", test_levels},
        {"bootstrap-only reason and the multi-cluster model's own interval", test_bootstrap_reason},
        {"an estimate held to the runs' trend", test_held_to_trend},
        {"campaign verdict", test_campaign},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"verdict", tests}, {NULL, NULL}};
    return testutil_run_suites(suites);
}
