/*
 * expr.h — the small expression language shared by experiment filters
 * (`np <= 8 && cluster == "wrg3-myrinet"`) and model formulas
 * (`N^3/(3*P*Q) + N*log(P)`).
 *
 * Grammar, lowest precedence first:
 *   or      := and ( "||" and )*
 *   and     := not ( "&&" not )*
 *   not     := "!" not | cmp
 *   cmp     := sum ( ("=="|"!="|"<"|"<="|">"|">=") sum )?
 *   sum     := prod ( ("+"|"-") prod )*
 *   prod    := unary ( ("*"|"/") unary )*
 *   unary   := "-" unary | "+" unary | power
 *   power   := atom ( "^" unary )?          (right-associative: 2^3^2 = 2^9;
 *                                            -2^2 = -4 as in mathematics)
 *   atom    := number | string | name | name "(" expr ")" | "(" expr ")"
 * Functions: log (natural), log2, log10, sqrt, exp, abs, and has(column):
 * 1 when the column has a value in the row, 0 when its cell is empty (its
 * argument must be a column name; elsewhere an empty cell is an error).
 * Strings are "double" or 'single' quoted. Booleans are numbers (0 false,
 * anything else true); comparisons and logic yield 1 or 0.
 * Names are letters, digits and '_' not starting with a digit.
 * A number literal must be finite (1e999 is an error, not infinity). A
 * string cannot hold its own quote (there are no escapes).
 *
 * Limits: at most EXPR_MAX_DEPTH levels of nesting, counted both in the text
 * (parentheses, calls, signs, '^', '!') and in the tree (a chain of N binary
 * operators is N levels deep). Deeper input is a positioned syntax error,
 * never a crash; every walk over a tree here recurses at most that deep.
 *
 * Ownership: expr_parse returns a tree the caller frees with expr_free.
 * No function here does I/O; errors come back in an expr_error.
 */
#ifndef PERFCAST_EXPR_H
#define PERFCAST_EXPR_H

#include <stdbool.h>
#include <stddef.h>

typedef struct expr expr;

#define EXPR_MAX_DEPTH 256

typedef struct {
    int column;        /* 1-based column in the source text of the error */
    char message[160]; /* "expected ')'", "unknown function 'lg'", ... */
    bool missing_value; /* evaluation stopped at a known column with no value */
} expr_error;

typedef enum { VALUE_NUMBER, VALUE_STRING } value_kind;

typedef struct {
    value_kind kind;
    double number;      /* when kind == VALUE_NUMBER; NAN = missing */
    const char *string; /* when kind == VALUE_STRING; NULL = missing; borrowed */
} expr_value;

/* Look up a variable. Return false when the name is unknown.
 * A found but missing value is a number NAN or a string NULL. */
typedef bool (*expr_lookup_fn)(void *ctx, const char *name, expr_value *out);

/* Parse text. Returns NULL and fills err on a syntax error, a number
 * literal that is not finite, nesting beyond EXPR_MAX_DEPTH, or out of
 * memory. */
expr *expr_parse(const char *text, expr_error *err);

void expr_free(expr *e);

/* Evaluate. Returns false and fills err on an unknown name, a type mismatch
 * (string in arithmetic), a missing value (but inside has()), division by
 * zero, or a result that is not finite (log of 0, sqrt of -1). err->column
 * points at the culprit. */
bool expr_eval(const expr *e, expr_lookup_fn lookup, void *ctx,
               expr_value *out, expr_error *err);

/* Convenience: evaluate to a finite number (strings are an error; *out is
 * always finite when it returns true). */
bool expr_eval_number(const expr *e, expr_lookup_fn lookup, void *ctx,
                      double *out, expr_error *err);

/* Split a formula into its top-level additive terms: `a + b - c` gives
 * a, b and -c (the minus kept as a factor -1). Returns the number of terms
 * and stores a newly allocated array of newly allocated trees in *terms
 * (free each with expr_free, then free the array), or -1 when out of memory. */
int expr_split_terms(const expr *e, expr ***terms);

/* Canonical text of an expression, fully determined by the tree (used to
 * name terms and to detect duplicate terms). Returns a malloc'ed string the
 * caller frees, or NULL when out of memory. */
char *expr_to_string(const expr *e);

/* Call fn for every variable name the expression uses (with repeats).
 * Stops and returns false as soon as fn returns false. */
bool expr_visit_names(const expr *e, bool (*fn)(void *ctx, const char *name, int column), void *ctx);

/* A deep copy, or NULL when out of memory. */
expr *expr_copy(const expr *e);

/* True when a and b are the same tree (source columns aside): what
 * expr_parse(expr_to_string(e)) gives back for every parsed e. */
bool expr_equal(const expr *a, const expr *b);

/* The kind of a variable for expr_check_types; false when the name is unknown. */
typedef bool (*expr_kind_fn)(void *ctx, const char *name, value_kind *out);

/* Check without evaluating that e is well typed, given the kinds of its
 * variables: arithmetic, functions, '!', '&&' and '||' take numbers, a
 * comparison takes two values of one kind. Returns true and sets *out (when
 * not NULL) to the kind of the result; else false with err at the first
 * unknown name or mismatch, with the column expr_eval would report. Both
 * sides of '&&' and '||' are checked, even where evaluation would stop early. */
bool expr_check_types(const expr *e, expr_kind_fn kind_of, void *ctx, value_kind *out,
                      expr_error *err);

/* Lookup over one row of a table: ctx is a table_row_ctx. Initialise it
 * with {.t = table, .row = row} (the rest zero). A ctx reused over many rows (set row,
 * evaluate, again) remembers the columns of the first EXPR_ROW_COLUMNS
 * names it was asked for by their address, which is the expression's own
 * text: a name is then found without hashing it again, row after row. So
 * reuse a ctx only for one table and while the expressions it served are
 * alive. */
#include "models/table.h"
#define EXPR_ROW_COLUMNS 8
typedef struct {
    const table *t;
    size_t row;
    const char *seen[EXPR_ROW_COLUMNS]; /* names looked up, by address */
    int seen_col[EXPR_ROW_COLUMNS];     /* their columns (-1: not in t) */
    size_t nseen;
} table_row_ctx;
bool expr_lookup_table_row(void *ctx, const char *name, expr_value *out);

/* expr_eval_number with expr_lookup_table_row over many rows of t: row i
 * (i < n) is rows[start + i], or start + i when rows is NULL; its value
 * goes to out[i * stride]. Returns the rows evaluated before the first that
 * fails (n when none does), with err filled for that one, exactly as
 * expr_eval_number fills it; the values are the same bit for bit. Faster
 * over many rows: expressions of numbers and numeric columns are evaluated
 * a block of rows at a time, node by node. */
size_t expr_eval_rows(const expr *e, const table *t, const size_t *rows, size_t start,
                      size_t n, double *out, size_t stride, expr_error *err);

/* Kinds of the columns of a table, for expr_check_types: ctx is a const table *. */
bool expr_kind_table_column(void *ctx, const char *name, value_kind *out);

#endif
