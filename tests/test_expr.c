/*
 * test_expr.c — the expression language: precedence, functions, strings,
 * term splitting, canonical text and positioned errors.
 */
#include "models/expr.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Variables for the tests: N=1000, P=4, Q=2, zero=0, cluster="wrg3-myrinet". */
static bool lookup(void *ctx, const char *name, expr_value *out)
{
    (void)ctx;
    static const struct { const char *name; double v; } nums[] = {
        {"N", 1000}, {"P", 4}, {"Q", 2}, {"zero", 0}, {"np", 8}, {"missing", NAN},
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (strcmp(nums[i].name, name) == 0) {
            out->kind = VALUE_NUMBER;
            out->number = nums[i].v;
            return true;
        }
    if (strcmp(name, "cluster") == 0) {
        out->kind = VALUE_STRING;
        out->string = "wrg3-myrinet";
        return true;
    }
    return false;
}

static double eval(const char *text)
{
    expr_error err = {0};
    expr *e = expr_parse(text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    double v = NAN;
    bool ok = expr_eval_number(e, lookup, NULL, &v, &err);
    if (!ok)
        fprintf(stderr, "eval(%s): %d: %s\n", text, err.column, err.message);
    CU_ASSERT_TRUE(ok);
    expr_free(e);
    return v;
}

/* Parse (and, when parse_ok, evaluate) text expecting an error at column. */
static void expect_error(const char *text, int column, const char *message)
{
    expr_error err = {0};
    expr *e = expr_parse(text, &err);
    if (e) {
        double v;
        CU_ASSERT_FALSE(expr_eval_number(e, lookup, NULL, &v, &err));
        expr_free(e);
    }
    CU_ASSERT_EQUAL(err.column, column);
    if (strstr(err.message, message) == NULL || err.column != column)
        fprintf(stderr, "'%s': got %d: %s, want %d: %s\n", text, err.column, err.message,
                column, message);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, message));
}

static void test_precedence(void)
{
    CU_ASSERT_DOUBLE_EQUAL(eval("1 + 2 * 3"), 7, 0);
    CU_ASSERT_DOUBLE_EQUAL(eval("(1 + 2) * 3"), 9, 0);
    CU_ASSERT_DOUBLE_EQUAL(eval("2 ^ 3 ^ 2"), 512, 0);   /* right-associative */
    CU_ASSERT_DOUBLE_EQUAL(eval("-2 ^ 2"), -4, 0);       /* power binds tighter */
    CU_ASSERT_DOUBLE_EQUAL(eval("2 ^ -1"), 0.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(eval("10 - 4 - 3"), 3, 0);    /* left-associative */
    CU_ASSERT_DOUBLE_EQUAL(eval("24 / 4 / 2"), 3, 0);
    CU_ASSERT_DOUBLE_EQUAL(eval("--3"), 3, 0);
    CU_ASSERT_DOUBLE_EQUAL(eval("1e-3 * 1000"), 1, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(eval(".5 + 0.25"), 0.75, 0);
}

static void test_scopred_formula(void)
{
    /* The Linpack formula of seed 004 with N=1000, P=4, Q=2, worked by hand:
     * 1e9/24 + 1e6*14/16 + 1000*ln 4 + 4000. */
    double want = 1e9 / 24.0 + 1e6 * 14.0 / 16.0 + 1000 * log(4.0) + 4000;
    double got = eval("N^3/(3*P*Q) + N^2*(3*P+Q)/(2*P*Q) + N*log(P) + N*P");
    CU_ASSERT_DOUBLE_EQUAL(got, want, 1e-6);
}

static void test_functions(void)
{
    CU_ASSERT_DOUBLE_EQUAL(eval("log2(np)"), 3, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(eval("log10(N)"), 3, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(eval("log(exp(2))"), 2, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(eval("sqrt(P) * abs(-3)"), 6, 1e-15);
}

static void test_logic_and_strings(void)
{
    CU_ASSERT_DOUBLE_EQUAL(eval("np <= 8 && cluster == \"wrg3-myrinet\""), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(eval("np < 8 || cluster != 'wrg3-myrinet'"), 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(eval("!(np == 8)"), 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(eval("1 + 1 == 2 && 3 > 2"), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(eval("np >= 8 && np != 9"), 1, 0);
    /* Short-circuit: the division by zero on the right is never evaluated. */
    CU_ASSERT_DOUBLE_EQUAL(eval("zero > 0 && N / zero > 1"), 0, 0);
}

static void test_syntax_errors(void)
{
    expect_error("N^", 3, "expected a number, a name or '('");
    expect_error("log(", 5, "expected a number, a name or '('");
    expect_error("(N + 1", 7, "expected ')'");
    expect_error("N^3/(3*P*Q) + N^2*(3*P+Q", 25, "expected ')'");
    expect_error("N $ 2", 3, "expected an operator or end of text");
    expect_error("lg(N)", 1, "unknown function 'lg'");
    expect_error("cluster == \"abc", 12, "unterminated string");
    expect_error("", 1, "expected a number");
}

static void test_eval_errors(void)
{
    expect_error("N + nosuch", 5, "unknown column 'nosuch'");
    expect_error("N / zero", 3, "division by zero");
    expect_error("log(zero)", 1, "log(0) is not a finite number");
    expect_error("cluster + 1", 1, "expected a number");
    expect_error("np == cluster", 4, "cannot compare");
    expect_error("missing * 2", 1, "has no value");
    /* Callers tell a missing value from other failures without reading text. */
    expr_error err;
    double v;
    expr *e = expr_parse("missing * 2", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_FALSE(expr_eval_number(e, lookup, NULL, &v, &err));
    CU_ASSERT_TRUE(err.missing_value);
    expr_free(e);
    e = expr_parse("N / zero", &err);
    CU_ASSERT_FALSE(expr_eval_number(e, lookup, NULL, &v, &err));
    CU_ASSERT_FALSE(err.missing_value);
    expr_free(e);
}

static void test_terms(void)
{
    expr_error err;
    expr *e = expr_parse("N^3/(3*P*Q) + N*log(P) - N*P + 2", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    expr **terms;
    int n = expr_split_terms(e, &terms);
    CU_ASSERT_EQUAL_FATAL(n, 4);
    const char *want[] = {"N^3/(3*P*Q)", "N*log(P)", "-(N*P)", "2"};
    for (int i = 0; i < n; i++) {
        char *s = expr_to_string(terms[i]);
        CU_ASSERT_STRING_EQUAL(s, want[i]);
        free(s);
        expr_free(terms[i]);
    }
    free(terms);
    expr_free(e);
}

/* expr_to_string must re-parse to the same value and to the same text. */
static void test_round_trip(void)
{
    const char *cases[] = {
        "a - (b - c)", "(a ^ b) ^ c", "a ^ b ^ c", "-(a + b) * c", "!(a < b) || c && d",
        "a / (b * c)", "-a ^ 2", "log2(a + 1) * 3.5",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expr_error err;
        expr *e = expr_parse(cases[i], &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        char *s1 = expr_to_string(e);
        expr *e2 = expr_parse(s1, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e2);
        char *s2 = expr_to_string(e2);
        CU_ASSERT_STRING_EQUAL(s1, s2);
        free(s1);
        free(s2);
        expr_free(e);
        expr_free(e2);
    }
    expr_error err;
    expr *e = expr_parse("a - (b - c)", &err);
    char *s = expr_to_string(e);
    CU_ASSERT_STRING_EQUAL(s, "a - (b - c)");
    free(s);
    expr_free(e);
}

int main(void)
{
    static const testutil_test parse_tests[] = {
        {"precedence", test_precedence},
        {"scopred formula", test_scopred_formula},
        {"functions", test_functions},
        {"logic and strings", test_logic_and_strings},
        {"terms", test_terms},
        {"round trip", test_round_trip},
        {NULL, NULL},
    };
    static const testutil_test error_tests[] = {
        {"syntax errors", test_syntax_errors},
        {"evaluation errors", test_eval_errors},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {
        {"expr", parse_tests},
        {"expr errors", error_tests},
        {NULL, NULL},
    };
    return testutil_run_suites(suites);
}
