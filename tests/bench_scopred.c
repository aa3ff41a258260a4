/*
 * bench_scopred.c — `make bench`: time to fit 1,000 ScoPred experiments of
 * 100 runs and 5 terms (the target: under 0.5 s).
 *
 * Two timings: the least-squares fit alone on ready design matrices, and
 * the whole library path an experiment takes (formula terms evaluated over
 * the runs table, fit, report, diagnostics, three predictions). The data
 * are made before the clock starts; each experiment has its own responses.
 */
#include "models/ols.h"
#include "models/regdiag.h"
#include "models/report.h"
#include "models/scopred.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { EXPERIMENTS = 1000, RUNS = 100, TERMS = 5 };
static const char FORMULA[] = "N^3/(3*P*Q) + N^2*(3*P+Q)/(2*P*Q) + N*log(P) + N*P + N/P";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Uniform in [0, 1) (splitmix64). */
static double uniform(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) / (double)(1ULL << 53);
}

/* A runs table with the parameters N, P, Q of 100 runs. */
static bool make_runs(table *t)
{
    table_init(t);
    int cn = table_add_column(t, "N", COL_NUMBER), cp = table_add_column(t, "P", COL_NUMBER);
    int cq = table_add_column(t, "Q", COL_NUMBER);
    if (cn < 0 || cp < 0 || cq < 0)
        return false;
    for (size_t i = 0; i < RUNS; i++) {
        long r = table_add_row(t, (long)i + 2);
        double N = 2000 + 1000 * (double)(i % 10), P = 1 + (double)(i / 10 % 5);
        double Q = 2 + (double)(i / 50);
        if (r < 0 || !table_set_number(t, (size_t)r, (size_t)cn, N) ||
            !table_set_number(t, (size_t)r, (size_t)cp, P) ||
            !table_set_number(t, (size_t)r, (size_t)cq, Q))
            return false;
    }
    return true;
}

int main(void)
{
    table runs;
    scopred_formula f;
    expr_error err = {0};
    if (!make_runs(&runs) || !scopred_formula_parse(FORMULA, &f, &err)) {
        fprintf(stderr, "bench_scopred: setup failed\n");
        return 1;
    }
    size_t rows[RUNS];
    for (size_t i = 0; i < RUNS; i++)
        rows[i] = i;
    double *x = malloc(RUNS * TERMS * sizeof *x), *y = malloc(EXPERIMENTS * RUNS * sizeof *y);
    size_t bad;
    if (!x || !y || !scopred_design(&f, &runs, rows, RUNS, x, &err, &bad))
        return 1;
    /* Responses: T = 1 + 6e-10*N^3/(3PQ) + 1e-6*N*P with 1% noise, new
     * noise for every experiment. */
    unsigned long long st = 42;
    for (size_t e = 0; e < EXPERIMENTS; e++)
        for (size_t i = 0; i < RUNS; i++)
            y[e * RUNS + i] = (1 + 6e-10 * x[i * TERMS] + 1e-6 * x[i * TERMS + 3]) *
                              (1 + 0.02 * (uniform(&st) - 0.5));

    /* 1. The least-squares fit alone. */
    double t0 = now(), check = 0;
    for (size_t e = 0; e < EXPERIMENTS; e++) {
        ols_model m;
        if (ols_fit(x, y + e * RUNS, RUNS, TERMS, &m) != OLS_OK)
            return 1;
        check += m.r2;
        ols_free(&m);
    }
    double fit_only = now() - t0;

    /* 2. The whole path of an experiment through the library. */
    double *xe = malloc(RUNS * TERMS * sizeof *xe), x0[TERMS];
    if (!xe)
        return 1;
    t0 = now();
    for (size_t e = 0; e < EXPERIMENTS; e++) {
        ols_model m;
        report rep;
        regdiag_result d;
        report_init(&rep);
        if (!scopred_design(&f, &runs, rows, RUNS, xe, &err, &bad) ||
            ols_fit(xe, y + e * RUNS, RUNS, TERMS, &m) != OLS_OK ||
            !scopred_report_fit(&f, &m, NULL, &rep) || !regdiag_run(&m, xe, TERMS, &d))
            return 1;
        for (size_t t = 0; t < 3; t++) {
            table_row_ctx rc = {.t = &runs, .row = t * 37};
            ols_prediction p;
            if (!scopred_formula_eval(&f, expr_lookup_table_row, &rc, x0, &err))
                return 1;
            ols_predict(&m, x0, 0.95, &p);
            check += p.estimate;
        }
        regdiag_free(&d);
        report_free(&rep);
        ols_free(&m);
    }
    double whole = now() - t0;

    printf("scopred: %d fits of %d runs x %d terms: %.3f s least squares alone, "
           "%.3f s with terms, report, diagnostics and 3 predictions (target < 0.5 s)%s\n",
           EXPERIMENTS, RUNS, TERMS, fit_only, whole, isfinite(check) ? "" : " [non-finite!]");
    free(x);
    free(xe);
    free(y);
    scopred_formula_free(&f);
    table_free(&runs);
    return fit_only < 0.5 && whole < 0.5 && isfinite(check) ? 0 : 1;
}
