/*
 * scopred_ref.h — test-only access to the R reference data sets under
 * tests/fixtures/scopred/<set>/ (written by make_ref.R there):
 *   data.csv     parameters and the response y, one row per run
 *   targets.csv  parameters of the configurations to predict
 *   formula.txt  the formula in perfcast syntax
 *   terms.csv    R's values of each term (t1..tk) for every run
 *   ref.txt      R's lm/summary/predict/hatvalues/cooks.distance results
 *
 * Header-only (static inline) so every test can include it without a
 * Makefile entry.
 */
#ifndef PERFCAST_TESTS_SCOPRED_REF_H
#define PERFCAST_TESTS_SCOPRED_REF_H

#include "models/scopred.h"
#include "tests/fixture_csv.h"

#include <stdio.h>

#define REF_MAX_COEF 16
#define REF_MAX_PRED 16
#define REF_MAX_RUNS 512

typedef struct {
    table data, targets, terms;
    char formula[512];
    size_t n, rank, df_resid;
    size_t ncoef;
    double coef[REF_MAX_COEF][4]; /* estimate, std error, t, p; NAN = NA */
    bool has_sigma, has_f, has_shapiro, has_bp;
    double sigma, r2, adj_r2, f, f_p;
    int f_df1, f_df2;
    size_t npred;
    double pred[REF_MAX_PRED][5]; /* fit, ci low, ci high, pi low, pi high */
    size_t nruns;
    double run[REF_MAX_RUNS][4];  /* residual, hat, Cook's D, influential (0/1) */
    double sw_w, sw_p, bp, bp_df, bp_p;
} ref_set;

static inline double ref_number(const char *token)
{
    return strcmp(token, "NA") == 0 ? NAN : strtod(token, NULL);
}

/* Split line into at most max whitespace-separated tokens. */
static inline size_t ref_tokens(char *line, char **tok, size_t max)
{
    size_t n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
        tok[n++] = t;
    return n;
}

static inline void ref_line(ref_set *r, char **tok, size_t nt)
{
    const char *k = tok[0];
    size_t i = nt > 1 ? (size_t)strtoul(tok[1], NULL, 10) : 0;
    if (strcmp(k, "n") == 0) r->n = i;
    else if (strcmp(k, "rank") == 0) r->rank = i;
    else if (strcmp(k, "df_resid") == 0) r->df_resid = i;
    else if (strcmp(k, "sigma") == 0) { r->sigma = ref_number(tok[1]); r->has_sigma = true; }
    else if (strcmp(k, "r2") == 0) r->r2 = ref_number(tok[1]);
    else if (strcmp(k, "adj_r2") == 0) r->adj_r2 = ref_number(tok[1]);
    else if (strcmp(k, "f") == 0 && nt == 4) {
        r->f = ref_number(tok[1]);
        r->f_df1 = atoi(tok[2]);
        r->f_df2 = atoi(tok[3]);
        r->has_f = true;
    } else if (strcmp(k, "f_p") == 0) r->f_p = ref_number(tok[1]);
    else if (strcmp(k, "coef") == 0 && nt == 6 && i < REF_MAX_COEF) {
        for (int j = 0; j < 4; j++)
            r->coef[i][j] = ref_number(tok[2 + j]);
        if (i + 1 > r->ncoef) r->ncoef = i + 1;
    } else if (strcmp(k, "pred") == 0 && nt == 7 && i < REF_MAX_PRED) {
        for (int j = 0; j < 5; j++)
            r->pred[i][j] = ref_number(tok[2 + j]);
        if (i + 1 > r->npred) r->npred = i + 1;
    } else if (strcmp(k, "run") == 0 && nt == 6 && i < REF_MAX_RUNS) {
        for (int j = 0; j < 4; j++)
            r->run[i][j] = ref_number(tok[2 + j]);
        if (i + 1 > r->nruns) r->nruns = i + 1;
    } else if (strcmp(k, "shapiro") == 0 && nt == 3) {
        r->sw_w = ref_number(tok[1]);
        r->sw_p = ref_number(tok[2]);
        r->has_shapiro = true;
    } else if (strcmp(k, "bp") == 0 && nt == 4) {
        r->bp = ref_number(tok[1]);
        r->bp_df = ref_number(tok[2]);
        r->bp_p = ref_number(tok[3]);
        r->has_bp = true;
    }
}

/* Load tests/fixtures/scopred/<name>. Returns false when a file is
 * missing; release with ref_set_free either way. */
static inline bool ref_set_load(const char *name, ref_set *r)
{
    memset(r, 0, sizeof *r);
    char path[256];
    bool ok = true;
    snprintf(path, sizeof path, "tests/fixtures/scopred/%s/data.csv", name);
    ok &= fixture_csv_read(path, &r->data);
    snprintf(path, sizeof path, "tests/fixtures/scopred/%s/targets.csv", name);
    ok &= fixture_csv_read(path, &r->targets);
    snprintf(path, sizeof path, "tests/fixtures/scopred/%s/terms.csv", name);
    ok &= fixture_csv_read(path, &r->terms);
    snprintf(path, sizeof path, "tests/fixtures/scopred/%s/formula.txt", name);
    char *formula = testutil_read_file(path);
    if (formula) {
        formula[strcspn(formula, "\n")] = '\0';
        snprintf(r->formula, sizeof r->formula, "%s", formula);
        free(formula);
    }
    snprintf(path, sizeof path, "tests/fixtures/scopred/%s/ref.txt", name);
    char *text = testutil_read_file(path);
    if (!formula || !text) {
        free(text);
        return false;
    }
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *tok[8];
        size_t nt = ref_tokens(line, tok, 8);
        if (nt > 0)
            ref_line(r, tok, nt);
    }
    free(text);
    return ok;
}

static inline void ref_set_free(ref_set *r)
{
    table_free(&r->data);
    table_free(&r->targets);
    table_free(&r->terms);
}

/* The set on the heap (a ref_set is large), loaded, and its formula parsed
 * into f, both asserted (CUnit, fatal). Release with ref_set_close. */
static inline ref_set *ref_set_open(const char *name, scopred_formula *f)
{
    ref_set *r = malloc(sizeof *r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_TRUE_FATAL(ref_set_load(name, r));
    expr_error err = {0};
    CU_ASSERT_TRUE_FATAL(scopred_formula_parse(r->formula, f, &err));
    return r;
}

static inline void ref_set_close(ref_set *r, scopred_formula *f)
{
    scopred_formula_free(f);
    ref_set_free(r);
    free(r);
}

/* Agreement to rel (relative), or both absent (NAN). */
static inline bool ref_near(double got, double want, double rel)
{
    if (isnan(want))
        return isnan(got);
    if (isnan(got))
        return false;
    return fabs(got - want) <= rel * fabs(want);
}

#endif
