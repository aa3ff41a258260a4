/*
 * fuzz_expr.c — the expression language through its public API
 * (models/expr.h): parse any text; when it parses, print it, copy it,
 * split its terms, visit its names and evaluate it over a row of known
 * values. Invariants checked (abort on failure):
 *   - the copy prints the same canonical text as the original;
 *   - the canonical text parses back to the same text, and a number that
 *     evaluates without error is finite (issue 10, items 2, 9 and 10).
 */
#include "tests/fuzz/fuzz.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "models/expr.h"

static bool lookup(void *ctx, const char *name, expr_value *out)
{
    (void)ctx;
    static const struct { const char *name; double v; } numbers[] = {
        {"np", 8}, {"N", 1000}, {"P", 4}, {"Q", 2}, {"time_s", 12.5}, {"zero", 0}, {"missing", NAN},
    };
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
        if (strcmp(name, numbers[i].name) == 0) {
            *out = (expr_value){.kind = VALUE_NUMBER, .number = numbers[i].v};
            return true;
        }
    if (strcmp(name, "cluster") == 0 || strcmp(name, "nothing") == 0) {
        *out = (expr_value){.kind = VALUE_STRING, .string = name[0] == 'c' ? "ant" : NULL};
        return true;
    }
    return false;
}

static bool count_name(void *ctx, const char *name, int column)
{
    if (!name || column < 1)
        abort();
    ++*(size_t *)ctx;
    return true;
}

static void check_copy_and_terms(const expr *e, const char *canonical)
{
    expr *copy = expr_copy(e);
    char *copy_text = copy ? expr_to_string(copy) : NULL;
    if (copy_text && strcmp(copy_text, canonical) != 0)
        abort();
    free(copy_text);
    expr_free(copy);
    expr **terms = NULL;
    int n = expr_split_terms(e, &terms);
    for (int i = 0; i < n; i++) {
        free(expr_to_string(terms[i]));
        expr_free(terms[i]);
    }
    free(terms);
}

static void check_round_trip(const char *canonical)
{
    expr_error err;
    expr *again = expr_parse(canonical, &err);
    if (!again)
        abort(); /* canonical text that does not parse back */
    char *text = expr_to_string(again);
    if (text && strcmp(text, canonical) != 0)
        abort();
    free(text);
    expr_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    expr_error err;
    expr *e = expr_parse(text, &err);
    if (!e) {
        if (err.column < 1 || err.message[0] == '\0')
            abort(); /* every syntax error says where and what */
        free(text);
        return 0;
    }
    char *canonical = expr_to_string(e);
    if (canonical) {
        check_copy_and_terms(e, canonical);
        check_round_trip(canonical);
    }
    size_t names = 0;
    expr_visit_names(e, count_name, &names);
    expr_value v;
    if (expr_eval(e, lookup, NULL, &v, &err) && v.kind == VALUE_NUMBER && !isfinite(v.number))
        abort();
    double x;
    if (expr_eval_number(e, lookup, NULL, &x, &err) && !isfinite(x))
        abort();
    free(canonical);
    expr_free(e);
    free(text);
    return 0;
}
