/*
 * test_expr.c — the expression language: precedence, functions, strings,
 * term splitting, canonical text and positioned errors; hostile input
 * (deep nesting, long chains, overflowing literals) and the static types
 * `perfcast check` relies on.
 */
#include "models/expr.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Variables for the tests: N=1000, P=4, Q=2, zero=0, np=8, missing (a
 * number column with no value), cluster="wrg3-myrinet", nocluster (a text
 * column with no value). */
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
    if (strcmp(name, "cluster") == 0 || strcmp(name, "nocluster") == 0) {
        out->kind = VALUE_STRING;
        out->string = strcmp(name, "cluster") == 0 ? "wrg3-myrinet" : NULL;
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
        fprintf(stderr, "'%.60s': got %d: %s, want %d: %s\n", text, err.column, err.message,
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

static void expect_type(const char *text, int column, const char *message);

/* has(column): whether the cell has a value, of either kind; the one
 * place an empty cell is not an error; it takes a column, not a value. */
static void test_has(void)
{
    static const struct { const char *text; double want; } cases[] = {
        {"has(np)", 1},          {"has(missing)", 0},
        {"has(cluster)", 1},     {"has(nocluster)", 0},
        {"np * has(zero)", 8},   {"!has(missing) && np == 8", 1},
        {"has(missing) && missing > 1", 0}, /* && stops before the empty cell */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CU_ASSERT_DOUBLE_EQUAL(eval(cases[i].text), cases[i].want, 0);
    expect_error("has(np + 1)", 5, "has() takes a column name");
    expect_error("has('np')", 5, "has() takes a column name");
    expect_error("has(nosuch)", 5, "unknown column 'nosuch'");
    expect_error("has(missing) || missing > 1", 17, "has no value");
    expect_type("has(cluster) && np > 1", 0, NULL);
    expect_type("has(nosuch)", 5, "unknown column 'nosuch'");
    expect_type("has(cluster) == 'x'", 14, "cannot compare a number with a text");
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

/* A string of n copies of unit, then tail (caller frees). */
static char *repeat(const char *unit, size_t n, const char *tail)
{
    size_t u = strlen(unit), t = strlen(tail);
    char *s = malloc(u * n + t + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    for (size_t i = 0; i < n; i++)
        memcpy(s + i * u, unit, u);
    memcpy(s + u * n, tail, t + 1);
    return s;
}

/* Parsing text fails with the depth error at column. */
static void expect_too_deep(char *text, int column)
{
    expect_error(text, column, "nested too deeply");
    free(text);
}

/* Hostile depths from the hardening report: each used to overflow the stack. */
static void test_depth_limit(void)
{
    char *open = repeat("(", 30000, "1");
    char *nested = repeat(")", 30000, "");
    size_t n = strlen(open);
    open = realloc(open, n + strlen(nested) + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(open);
    strcpy(open + n, nested);
    free(nested);
    /* The 257th '(' is one level too many. */
    expect_too_deep(open, EXPR_MAX_DEPTH + 1);
    expect_too_deep(repeat("-", 100000, "1"), EXPR_MAX_DEPTH + 1);
    expect_too_deep(repeat("!", 1000000, "1"), EXPR_MAX_DEPTH + 1);
    expect_too_deep(repeat("log(", 100000, "1"), 4 * EXPR_MAX_DEPTH + 4);
    /* "2^2^...": the '^' at column 2k opens level k. */
    expect_too_deep(repeat("2^", 100000, "2"), 2 * (EXPR_MAX_DEPTH + 1));
    /* A flat chain builds a left-leaning tree; its 256th '+' (column 512)
     * would make it 257 levels deep. */
    expect_too_deep(repeat("1+", 1000000, "1"), 2 * EXPR_MAX_DEPTH);
    /* Each "np > 1" is two levels: the 255th '||' is one too many. */
    expect_too_deep(repeat("np > 1 || ", 100000, "np > 2"), 10 * (EXPR_MAX_DEPTH - 2) + 8);

    /* Just below the limit everything works: parse, evaluate, print, copy. */
    char *chain = repeat("1+", EXPR_MAX_DEPTH - 1, "1");
    CU_ASSERT_DOUBLE_EQUAL(eval(chain), EXPR_MAX_DEPTH, 0);
    expr_error err;
    expr *e = expr_parse(chain, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    char *text = expr_to_string(e);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "1 + 1 + 1"));
    expr **terms;
    int nterms = expr_split_terms(e, &terms);
    CU_ASSERT_EQUAL(nterms, EXPR_MAX_DEPTH);
    for (int i = 0; i < nterms; i++)
        expr_free(terms[i]);
    free(terms);
    free(text);
    expr_free(e);
    free(chain);
    char *deep = repeat("-(", EXPR_MAX_DEPTH / 2 - 1, "1");
    char *close = repeat(")", EXPR_MAX_DEPTH / 2 - 1, "");
    deep = realloc(deep, strlen(deep) + strlen(close) + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(deep);
    strcat(deep, close);
    CU_ASSERT_DOUBLE_EQUAL(eval(deep), -1, 0); /* 127 minus signs */
    free(deep);
    free(close);

    /* 255 signs in a row are 255 levels; their canonical text must be no
     * deeper, or it would not parse back ("-(-(" would be 510 levels). */
    char *signs = repeat("-", EXPR_MAX_DEPTH - 1, "np");
    e = expr_parse(signs, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    text = expr_to_string(e);
    CU_ASSERT_STRING_EQUAL(text, signs);
    expr *back = expr_parse(text, &err);
    CU_ASSERT_TRUE(back && expr_equal(e, back));
    CU_ASSERT_DOUBLE_EQUAL(eval(signs), -8, 0);
    expr_free(back);
    expr_free(e);
    free(text);
    free(signs);
}

static bool lookup_infinite(void *ctx, const char *name, expr_value *out)
{
    (void)ctx;
    (void)name;
    out->kind = VALUE_NUMBER;
    out->number = INFINITY;
    return true;
}

/* Literals that overflow are syntax errors; results are always finite. */
static void test_finite_numbers(void)
{
    expect_error("1e348", 1, "too large");
    expect_error("np * 1e999", 6, "number 1e999 is too large");
    expect_error("np < 1.7976931348623159e308", 6, "too large");
    CU_ASSERT_DOUBLE_EQUAL(eval("1.7976931348623157e308 / 1e308"), 1.7976931348623157, 1e-15);
    expect_error("1e308 * 10", 7, "not a finite number");
    /* A lookup that hands back infinity does not leak it through. */
    expr_error err;
    expr *e = expr_parse("-x", &err);
    double v = 0;
    CU_ASSERT_FALSE(expr_eval_number(e, lookup_infinite, NULL, &v, &err));
    CU_ASSERT_EQUAL(err.column, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "not a finite number"));
    expr_free(e);
}

/* Kinds of the test variables, for expr_check_types. */
static bool kind_of(void *ctx, const char *name, value_kind *out)
{
    expr_value v;
    if (!lookup(ctx, name, &v))
        return false;
    *out = v.kind;
    return true;
}

/* Expect expr_check_types to fail at column with message (NULL: succeed
 * with a number). */
static void expect_type(const char *text, int column, const char *message)
{
    expr_error err = {0};
    expr *e = expr_parse(text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    value_kind k = VALUE_STRING;
    bool ok = expr_check_types(e, kind_of, NULL, &k, &err);
    if (!message) {
        CU_ASSERT_TRUE(ok);
        CU_ASSERT_EQUAL(k, VALUE_NUMBER);
    } else {
        CU_ASSERT_FALSE(ok);
        CU_ASSERT_EQUAL(err.column, column);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, message));
        if (err.column != column || !strstr(err.message, message))
            fprintf(stderr, "'%.60s': got %d: %s\n", text, err.column, err.message);
    }
    expr_free(e);
}

/* What fails at evaluation on some row fails the static check, at the same
 * column, even where evaluation would stop early (&&, ||). */
static void test_types(void)
{
    expect_type("np == \"eight\"", 4, "cannot compare a number with a text");
    expect_type("cluster*np", 1, "expected a number, found the text column 'cluster'");
    expect_type("np < 2 || cluster * 2 > 1", 11, "found the text column 'cluster'");
    expect_type("np > 1 && nosuch == 2", 11, "unknown column 'nosuch'");
    expect_type("log(cluster)", 5, "expected a number");
    expect_type("!'x'", 2, "found the text \"x\"");
    expect_type("np <= 8 && cluster == 'a' || !(N / P > Q)", 0, NULL);
    expr_error err;
    expr *e = expr_parse("cluster", &err);
    value_kind k = VALUE_NUMBER;
    CU_ASSERT_TRUE(expr_check_types(e, kind_of, NULL, &k, &err));
    CU_ASSERT_EQUAL(k, VALUE_STRING);
    expr_free(e);
    /* The same over the columns of a table. */
    table t;
    table_init(&t);
    CU_ASSERT_FATAL(table_add_column(&t, "np", COL_NUMBER) == 0);
    CU_ASSERT_FATAL(table_add_column(&t, "cluster", COL_TEXT) == 1);
    e = expr_parse("np > 1 && cluster * np > 2", &err);
    CU_ASSERT_FALSE(expr_check_types(e, expr_kind_table_column, &t, &k, &err));
    CU_ASSERT_EQUAL(err.column, 11);
    expr_free(e);
    e = expr_parse("np > 1 && cluster == 'k1'", &err);
    CU_ASSERT_TRUE(expr_check_types(e, expr_kind_table_column, &t, &k, &err));
    expr_free(e);
    table_free(&t);
    /* Evaluation agrees with the static check on both failures above. */
    expect_error("np == \"eight\"", 4, "cannot compare");
    expect_error("cluster*np", 1, "expected a number");
}

/* A table_row_ctx reused over rows (it remembers columns by the name's
 * address) gives every row's own values, with more names than it
 * remembers, an unknown name refused every time, and a text column. */
static void test_table_rows(void)
{
    table t;
    table_init(&t);
    char name[16];
    for (int c = 0; c < EXPR_ROW_COLUMNS + 3; c++) {
        snprintf(name, sizeof name, "c%d", c);
        CU_ASSERT_FATAL(table_add_column(&t, name, COL_NUMBER) == c);
    }
    CU_ASSERT_FATAL(table_add_column(&t, "cluster", COL_TEXT) == EXPR_ROW_COLUMNS + 3);
    for (int r = 0; r < 50; r++) {
        CU_ASSERT_FATAL(table_add_row(&t, r + 2) == r);
        for (int c = 0; c < EXPR_ROW_COLUMNS + 3; c++)
            table_set_number(&t, (size_t)r, (size_t)c, 100.0 * c + r);
        table_set_text(&t, (size_t)r, EXPR_ROW_COLUMNS + 3, r % 2 ? "odd" : "even");
    }
    /* c0 + c1 + ... + c10, then whether the cluster is "odd". */
    expr_error err;
    expr *sum = expr_parse("c0+c1+c2+c3+c4+c5+c6+c7+c8+c9+c10", &err);
    expr *odd = expr_parse("cluster == 'odd'", &err);
    expr *unknown = expr_parse("c0 + nosuch", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sum && odd && unknown);
    table_row_ctx rc = {.t = &t};
    long wrong = 0;
    for (size_t r = 0; r < 50; r++) {
        rc.row = r;
        double v, is_odd, u;
        wrong += !expr_eval_number(sum, expr_lookup_table_row, &rc, &v, &err) ||
                 v != 100.0 * 55 + 11.0 * (double)r;
        wrong += !expr_eval_number(odd, expr_lookup_table_row, &rc, &is_odd, &err) ||
                 is_odd != (double)(r % 2);
        wrong += expr_eval_number(unknown, expr_lookup_table_row, &rc, &u, &err);
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(rc.nseen, EXPR_ROW_COLUMNS);
    expr_free(sum);
    expr_free(odd);
    expr_free(unknown);
    table_free(&t);
}

/* A deterministic generator (xorshift) for the property test. */
static unsigned next_random(unsigned *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

typedef struct {
    char *buf;
    size_t len, cap;
} gen_text;

static void emit(gen_text *g, const char *s)
{
    size_t n = strlen(s);
    if (g->len + n + 1 > g->cap) {
        g->cap = (g->len + n + 1) * 2;
        g->buf = realloc(g->buf, g->cap);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g->buf);
    }
    memcpy(g->buf + g->len, s, n + 1);
    g->len += n;
}

/* A random expression, fully parenthesised so that its tree is exactly the
 * one generated, whatever the printer's idea of precedence. */
static void generate(gen_text *g, unsigned *rng, int depth)
{
    static const char *const leaves[] = {
        "0", "1", "2.5", ".5", "1e-7", "123456789012", "0.1", "1e300", "3",
        "a", "b", "np", "log", "x_1",
        "\"x\"", "'y\"z'", "\"it's\"", "\"\"", "'\"'",
    };
    static const char *const binary[] = {
        "+", "-", "*", "/", "^", "==", "!=", "<", "<=", ">", ">=", "&&", "||",
    };
    static const char *const prefix[] = {"-", "!", "+", "sqrt", "log2", "abs"};
    unsigned r = next_random(rng) % 10;
    if (depth == 0 || r < 3) {
        emit(g, leaves[next_random(rng) % (sizeof leaves / sizeof leaves[0])]);
    } else if (r < 5) {
        emit(g, prefix[next_random(rng) % (sizeof prefix / sizeof prefix[0])]);
        emit(g, "(");
        generate(g, rng, depth - 1);
        emit(g, ")");
    } else {
        emit(g, "(");
        generate(g, rng, depth - 1);
        emit(g, ") ");
        emit(g, binary[next_random(rng) % (sizeof binary / sizeof binary[0])]);
        emit(g, " (");
        generate(g, rng, depth - 1);
        emit(g, ")");
    }
}

/* Property: for every tree, expr_to_string parses back to the same tree and
 * prints the same text again. */
static void test_round_trip_property(void)
{
    unsigned rng = 20261123u;
    int failures = 0;
    for (int i = 0; i < 5000; i++) {
        gen_text g = {0};
        generate(&g, &rng, 1 + i % 7);
        expr_error err;
        expr *e = expr_parse(g.buf, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        char *s1 = expr_to_string(e);
        expr *e2 = expr_parse(s1, &err);
        char *s2 = e2 ? expr_to_string(e2) : NULL;
        bool same = e2 && expr_equal(e, e2) && strcmp(s1, s2) == 0;
        if (!same && failures++ < 5)
            fprintf(stderr, "round trip: %s -> %s -> %s\n", g.buf, s1, s2 ? s2 : err.message);
        CU_ASSERT_TRUE(same);
        free(s1);
        free(s2);
        expr_free(e);
        expr_free(e2);
        free(g.buf);
    }
}

/* The two cases the hardening report found, and expr_equal telling trees apart. */
static void test_round_trip_cases(void)
{
    const char *cases[][2] = {
        {"tag == '\"'", "tag == '\"'"},
        {"\"it's\"", "\"it's\""},
        {"(np<2)<3", "(np < 2) < 3"},
        {"np == (a != b)", "np == (a != b)"},
        {"!!x", "!!x"},
        {"!has( rows_a )&&np>1", "!has(rows_a) && np > 1"},
        {"- -x", "--x"},
        {"a - - -(b)", "a - --b"},
        {"-(-(2^3))", "--2^3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expr_error err;
        expr *e = expr_parse(cases[i][0], &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        char *s = expr_to_string(e);
        CU_ASSERT_STRING_EQUAL(s, cases[i][1]);
        expr *back = expr_parse(s, &err);
        CU_ASSERT_TRUE(back && expr_equal(e, back));
        free(s);
        expr_free(e);
        expr_free(back);
    }
    expr_error err;
    expr *a = expr_parse("a - (b - c)", &err), *b = expr_parse("a - b - c", &err);
    expr *c = expr_parse("  a-(b -c )", &err);
    CU_ASSERT_FALSE(expr_equal(a, b));
    CU_ASSERT_TRUE(expr_equal(a, c));
    expr_free(a);
    expr_free(b);
    expr_free(c);
}

int main(void)
{
    static const testutil_test parse_tests[] = {
        {"precedence", test_precedence},
        {"scopred formula", test_scopred_formula},
        {"functions", test_functions},
        {"has(column)", test_has},
        {"logic and strings", test_logic_and_strings},
        {"terms", test_terms},
        {"round trip", test_round_trip},
        {"round trip cases", test_round_trip_cases},
        {"round trip property", test_round_trip_property},
        {"static types", test_types},
        {"table rows, one ctx reused", test_table_rows},
        {NULL, NULL},
    };
    static const testutil_test error_tests[] = {
        {"syntax errors", test_syntax_errors},
        {"evaluation errors", test_eval_errors},
        {"depth limit", test_depth_limit},
        {"finite numbers", test_finite_numbers},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {
        {"expr", parse_tests},
        {"expr errors", error_tests},
        {NULL, NULL},
    };
    return testutil_run_suites(suites);
}
