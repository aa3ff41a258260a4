/*
 * expr.c — recursive-descent parser and tree evaluator for expr.h.
 *
 * The parser keeps the source column of every node so evaluation errors
 * (unknown column, division by zero) can point at the exact place, the same
 * way syntax errors do.
 *
 * Every function here that walks a tree recurses once per level, so depth is
 * bounded where trees are made: the parser refuses more than EXPR_MAX_DEPTH
 * levels of nesting in the text (its own recursion) and in the tree (a long
 * flat chain `1+1+...` is a deep left-leaning tree), with a positioned
 * error. Copies and split terms are at most one level deeper than the tree
 * they come from, so no walk ever needs more than a few hundred frames.
 */
#include "models/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    NODE_NUMBER, NODE_STRING, NODE_NAME, NODE_CALL,
    NODE_NEG, NODE_NOT, NODE_BINARY
} node_kind;

typedef enum {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POW,
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_AND, OP_OR
} binary_op;

typedef enum { FN_LOG, FN_LOG2, FN_LOG10, FN_SQRT, FN_EXP, FN_ABS, FN_HAS } function_id;

struct expr {
    node_kind kind;
    int column;          /* 1-based position in the source text */
    double number;       /* NODE_NUMBER */
    char *text;          /* NODE_STRING, NODE_NAME */
    binary_op op;        /* NODE_BINARY */
    function_id fn;      /* NODE_CALL */
    struct expr *left;   /* operand of NEG, NOT, CALL; left of BINARY */
    struct expr *right;  /* right of BINARY */
    int depth;           /* levels of this subtree, 1 for a leaf */
};

static const struct { const char *name; function_id id; } functions[] = {
    {"log", FN_LOG}, {"log2", FN_LOG2}, {"log10", FN_LOG10},
    {"sqrt", FN_SQRT}, {"exp", FN_EXP}, {"abs", FN_ABS}, {"has", FN_HAS},
};

static const char *const op_text[] = {
    "+", "-", "*", "/", "^", "==", "!=", "<", "<=", ">", ">=", "&&", "||"
};

/* ------------------------------------------------------------------ */
/* Errors                                                              */

static void set_error(expr_error *err, int column, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_error(expr_error *err, int column, const char *fmt, ...)
{
    if (!err)
        return;
    err->column = column;
    err->missing_value = false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Nodes                                                               */

static expr *node_new(node_kind kind, int column)
{
    expr *e = calloc(1, sizeof *e);
    if (e) {
        e->kind = kind;
        e->column = column;
        e->depth = 1;
    }
    return e;
}

/* Link children under e and record its depth. */
static void adopt(expr *e, expr *left, expr *right)
{
    e->left = left;
    e->right = right;
    int below = left ? left->depth : 0;
    if (right && right->depth > below)
        below = right->depth;
    e->depth = below + 1;
}

void expr_free(expr *e)
{
    if (!e)
        return;
    expr_free(e->left);
    expr_free(e->right);
    free(e->text);
    free(e);
}

expr *expr_copy(const expr *e)
{
    if (!e)
        return NULL;
    expr *c = node_new(e->kind, e->column);
    if (!c)
        return NULL;
    c->number = e->number;
    c->op = e->op;
    c->fn = e->fn;
    c->depth = e->depth;
    bool ok = true;
    if (e->text && !(c->text = strdup(e->text)))
        ok = false;
    if (ok && e->left && !(c->left = expr_copy(e->left)))
        ok = false;
    if (ok && e->right && !(c->right = expr_copy(e->right)))
        ok = false;
    if (!ok) {
        expr_free(c);
        return NULL;
    }
    return c;
}

/* ------------------------------------------------------------------ */
/* Parser                                                              */

typedef struct {
    const char *text;
    size_t pos;
    expr_error *err;
    bool failed;
    int nesting;  /* parentheses, calls, signs, '^' and '!' open at pos */
} parser;

static int column_of(const parser *p) { return (int)p->pos + 1; }

static void skip_space(parser *p)
{
    while (isspace((unsigned char)p->text[p->pos]))
        p->pos++;
}

static void fail_at(parser *p, int column, const char *message)
{
    if (p->failed)
        return;
    p->failed = true;
    set_error(p->err, column, "%s", message);
}

static void fail(parser *p, const char *message)
{
    fail_at(p, column_of(p), message);
}

static void fail_too_deep(parser *p, int column)
{
    char message[160];
    snprintf(message, sizeof message,
             "nested too deeply (at most %d levels of parentheses, signs and operators; "
             "a chain of N operators counts as N levels)", EXPR_MAX_DEPTH);
    fail_at(p, column, message);
}

/* Enter one more level of the parser's recursion; false (after failing at
 * the cursor) beyond EXPR_MAX_DEPTH. Every true is paired with leave(). */
static bool enter(parser *p)
{
    if (p->nesting >= EXPR_MAX_DEPTH) {
        fail_too_deep(p, column_of(p));
        return false;
    }
    p->nesting++;
    return true;
}

static void leave(parser *p) { p->nesting--; }

/* A new inner node of the tree, or NULL (after failing at column) when out
 * of memory or when the tree would grow deeper than EXPR_MAX_DEPTH. */
static expr *inner_node(parser *p, node_kind kind, int column, expr *left, expr *right)
{
    int below = left->depth;
    if (right && right->depth > below)
        below = right->depth;
    if (below >= EXPR_MAX_DEPTH) {
        fail_too_deep(p, column);
        return NULL;
    }
    expr *e = node_new(kind, column);
    if (!e) {
        fail_at(p, column, "out of memory");
        return NULL;
    }
    adopt(e, left, right);
    return e;
}

/* Describe what is at the cursor, for "expected X, found Y" messages. */
static void describe_here(const parser *p, char *buf, size_t len)
{
    char c = p->text[p->pos];
    if (c == '\0')
        snprintf(buf, len, "end of text");
    else if (isprint((unsigned char)c))
        snprintf(buf, len, "'%c'", c);
    else
        snprintf(buf, len, "byte 0x%02x", (unsigned char)c);
}

static void fail_expected(parser *p, const char *what)
{
    char found[32], msg[96];
    describe_here(p, found, sizeof found);
    snprintf(msg, sizeof msg, "expected %s, found %s", what, found);
    fail(p, msg);
}

/* Match an operator token; returns its length or 0. "<" must not match "<=". */
static size_t match(parser *p, const char *token)
{
    skip_space(p);
    size_t n = strlen(token);
    if (strncmp(p->text + p->pos, token, n) != 0)
        return 0;
    if (n == 1 && (token[0] == '<' || token[0] == '>' || token[0] == '!') &&
        p->text[p->pos + 1] == '=')
        return 0;
    if (n == 1 && token[0] == '*' && p->text[p->pos + 1] == '*')
        return 0;
    return n;
}

static expr *make_binary(parser *p, binary_op op, int column, expr *l, expr *r)
{
    expr *e = l && r ? inner_node(p, NODE_BINARY, column, l, r) : NULL;
    if (!e) {
        expr_free(l);
        expr_free(r);
        return NULL;
    }
    e->op = op;
    return e;
}

/* A negation, a logical not or a call of operand (freed on failure; NULL
 * passes). */
static expr *make_unary(parser *p, node_kind kind, int column, expr *operand)
{
    if (!operand)
        return NULL;
    expr *e = inner_node(p, kind, column, operand, NULL);
    if (!e)
        expr_free(operand);
    return e;
}

static expr *parse_or(parser *p);
static expr *parse_unary(parser *p);

/* "(" expr ")" with the cursor on the "(". */
static expr *parse_parenthesized(parser *p)
{
    if (!enter(p))
        return NULL;
    p->pos++; /* '(' */
    expr *inner = parse_or(p);
    leave(p);
    if (!inner)
        return NULL;
    if (!match(p, ")")) {
        fail_expected(p, "')'");
        expr_free(inner);
        return NULL;
    }
    p->pos++;
    return inner;
}

static expr *parse_number(parser *p)
{
    const char *start = p->text + p->pos;
    char *end;
    double v = strtod(start, &end);
    /* parse_atom only calls here on a digit or ".digit", which rules out
     * strtod's "inf" and "nan"; hexadecimal is not part of the language. */
    bool hex = start[0] == '0' && (start[1] == 'x' || start[1] == 'X');
    if (end == start || hex) {
        fail_expected(p, "a number");
        return NULL;
    }
    if (!isfinite(v)) {
        char msg[120];
        snprintf(msg, sizeof msg, "number %.*s%s is too large (at most about 1.8e308)",
                 end - start > 40 ? 40 : (int)(end - start), start, end - start > 40 ? "..." : "");
        fail_at(p, column_of(p), msg);
        return NULL;
    }
    expr *e = node_new(NODE_NUMBER, column_of(p));
    if (!e) {
        fail(p, "out of memory");
        return NULL;
    }
    e->number = v;
    p->pos += (size_t)(end - start);
    return e;
}

static expr *parse_string(parser *p)
{
    char quote = p->text[p->pos];
    int column = column_of(p);
    size_t start = ++p->pos;
    while (p->text[p->pos] && p->text[p->pos] != quote)
        p->pos++;
    if (!p->text[p->pos]) {
        p->pos = start - 1;
        fail(p, "unterminated string");
        return NULL;
    }
    expr *e = node_new(NODE_STRING, column);
    if (!e || !(e->text = strndup(p->text + start, p->pos - start))) {
        free(e);
        fail(p, "out of memory");
        return NULL;
    }
    p->pos++;
    return e;
}

static expr *parse_call(parser *p, char *name, int column)
{
    size_t i;
    for (i = 0; i < sizeof functions / sizeof functions[0]; i++)
        if (strcmp(functions[i].name, name) == 0)
            break;
    if (i == sizeof functions / sizeof functions[0]) {
        char msg[96];
        snprintf(msg, sizeof msg, "unknown function '%.40s'", name);
        p->pos = (size_t)column - 1;
        fail(p, msg);
        return NULL;
    }
    size_t open = p->pos; /* the '(' */
    expr *arg = parse_parenthesized(p);
    if (arg && functions[i].id == FN_HAS && arg->kind != NODE_NAME) {
        /* has() asks about a cell, so it takes a column, not a value. */
        p->pos = open + 1;
        skip_space(p);
        fail(p, "has() takes a column name");
        expr_free(arg);
        return NULL;
    }
    expr *e = make_unary(p, NODE_CALL, column, arg);
    if (e)
        e->fn = functions[i].id;
    return e;
}

static expr *parse_name(parser *p)
{
    int column = column_of(p);
    size_t start = p->pos;
    while (isalnum((unsigned char)p->text[p->pos]) || p->text[p->pos] == '_')
        p->pos++;
    char *name = strndup(p->text + start, p->pos - start);
    if (!name) {
        fail(p, "out of memory");
        return NULL;
    }
    skip_space(p);
    if (p->text[p->pos] == '(') {
        expr *e = parse_call(p, name, column);
        free(name);
        return e;
    }
    expr *e = node_new(NODE_NAME, column);
    if (!e) {
        free(name);
        fail(p, "out of memory");
        return NULL;
    }
    e->text = name;
    return e;
}

static expr *parse_atom(parser *p)
{
    skip_space(p);
    char c = p->text[p->pos];
    if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)p->text[p->pos + 1])))
        return parse_number(p);
    if (c == '"' || c == '\'')
        return parse_string(p);
    if (isalpha((unsigned char)c) || c == '_')
        return parse_name(p);
    if (c == '(')
        return parse_parenthesized(p);
    fail_expected(p, "a number, a name or '('");
    return NULL;
}

static expr *parse_power(parser *p)
{
    expr *base = parse_atom(p);
    if (!base)
        return NULL;
    if (!match(p, "^"))
        return base;
    int column = column_of(p);
    if (!enter(p)) {
        expr_free(base);
        return NULL;
    }
    p->pos++;
    /* The exponent may carry its own sign: 2^-1. Right-associative. */
    expr *exponent = parse_unary(p);
    leave(p);
    return make_binary(p, OP_POW, column, base, exponent);
}

static expr *parse_unary(parser *p)
{
    if (match(p, "-") || match(p, "+")) {
        char sign = p->text[p->pos];
        int column = column_of(p);
        if (!enter(p))
            return NULL;
        p->pos++;
        expr *operand = parse_unary(p);
        leave(p);
        return sign == '+' ? operand : make_unary(p, NODE_NEG, column, operand);
    }
    return parse_power(p);
}

/* One level of left-associative binary operators. */
typedef struct {
    const char *token;
    binary_op op;
} op_entry;

static expr *parse_left_assoc(parser *p, expr *(*operand)(parser *),
                              const op_entry *ops, size_t nops)
{
    expr *left = operand(p);
    while (left) {
        size_t i, len = 0;
        for (i = 0; i < nops; i++)
            if ((len = match(p, ops[i].token)) != 0)
                break;
        if (i == nops)
            break;
        int column = column_of(p);
        p->pos += len;
        left = make_binary(p, ops[i].op, column, left, operand(p));
    }
    return left;
}

static expr *parse_product(parser *p)
{
    static const op_entry ops[] = {{"*", OP_MUL}, {"/", OP_DIV}};
    return parse_left_assoc(p, parse_unary, ops, 2);
}

static expr *parse_sum(parser *p)
{
    static const op_entry ops[] = {{"+", OP_ADD}, {"-", OP_SUB}};
    return parse_left_assoc(p, parse_product, ops, 2);
}

static expr *parse_comparison(parser *p)
{
    static const op_entry ops[] = {
        {"==", OP_EQ}, {"!=", OP_NE}, {"<=", OP_LE}, {">=", OP_GE},
        {"<", OP_LT}, {">", OP_GT},
    };
    expr *left = parse_sum(p);
    if (!left)
        return NULL;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t len = match(p, ops[i].token);
        if (len) {
            int column = column_of(p);
            p->pos += len;
            return make_binary(p, ops[i].op, column, left, parse_sum(p));
        }
    }
    return left;
}

static expr *parse_not(parser *p)
{
    if (match(p, "!")) {
        int column = column_of(p);
        if (!enter(p))
            return NULL;
        p->pos++;
        expr *operand = parse_not(p);
        leave(p);
        return make_unary(p, NODE_NOT, column, operand);
    }
    return parse_comparison(p);
}

static expr *parse_and(parser *p)
{
    static const op_entry ops[] = {{"&&", OP_AND}};
    return parse_left_assoc(p, parse_not, ops, 1);
}

static expr *parse_or(parser *p)
{
    static const op_entry ops[] = {{"||", OP_OR}};
    return parse_left_assoc(p, parse_and, ops, 1);
}

expr *expr_parse(const char *text, expr_error *err)
{
    parser p = {text ? text : "", 0, err, false, 0};
    expr *e = parse_or(&p);
    if (e) {
        skip_space(&p);
        if (p.text[p.pos] != '\0') {
            fail_expected(&p, "an operator or end of text");
            expr_free(e);
            return NULL;
        }
    } else if (!p.failed) {
        set_error(err, column_of(&p), "out of memory");
    }
    return e;
}

/* ------------------------------------------------------------------ */
/* Evaluation                                                          */

typedef struct {
    expr_lookup_fn lookup;
    void *ctx;
    expr_error *err;
} eval_env;

static bool eval_node(const expr *e, const eval_env *env, expr_value *out);

static bool want_number(const expr *e, const expr_value *v, const eval_env *env)
{
    if (v->kind != VALUE_NUMBER) {
        set_error(env->err, e->column, "expected a number, found the text \"%.40s\"",
                  v->string ? v->string : "");
        return false;
    }
    return true;
}

static bool finite_result(const expr *e, double v, const eval_env *env, const char *what)
{
    if (isfinite(v))
        return true;
    set_error(env->err, e->column, "%s is not a finite number", what);
    return false;
}

static bool eval_name(const expr *e, const eval_env *env, expr_value *out)
{
    if (!env->lookup || !env->lookup(env->ctx, e->text, out)) {
        set_error(env->err, e->column, "unknown column '%.60s'", e->text);
        return false;
    }
    bool missing = out->kind == VALUE_NUMBER ? isnan(out->number) : out->string == NULL;
    if (missing) {
        set_error(env->err, e->column, "column '%.60s' has no value here", e->text);
        if (env->err)
            env->err->missing_value = true;
        return false;
    }
    if (out->kind == VALUE_NUMBER && !isfinite(out->number)) {
        set_error(env->err, e->column, "column '%.60s' is not a finite number here", e->text);
        return false;
    }
    return true;
}

/* has(name): 1 when the column has a value in this row, 0 when it is
 * empty; the one place a missing value is not an error. */
static bool eval_has(const expr *e, const eval_env *env, expr_value *out)
{
    const expr *name = e->left;
    expr_value v;
    if (!env->lookup || !env->lookup(env->ctx, name->text, &v)) {
        set_error(env->err, name->column, "unknown column '%.60s'", name->text);
        return false;
    }
    out->kind = VALUE_NUMBER;
    out->number = v.kind == VALUE_NUMBER ? !isnan(v.number) : v.string != NULL;
    return true;
}

static bool eval_call(const expr *e, const eval_env *env, expr_value *out)
{
    if (e->fn == FN_HAS)
        return eval_has(e, env, out);
    expr_value a;
    if (!eval_node(e->left, env, &a) || !want_number(e->left, &a, env))
        return false;
    double x = a.number, r;
    const char *name = functions[0].name;
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
        if (functions[i].id == e->fn)
            name = functions[i].name;
    switch (e->fn) {
    case FN_LOG:   r = x > 0 ? log(x) : NAN; break;
    case FN_LOG2:  r = x > 0 ? log2(x) : NAN; break;
    case FN_LOG10: r = x > 0 ? log10(x) : NAN; break;
    case FN_SQRT:  r = x >= 0 ? sqrt(x) : NAN; break;
    case FN_EXP:   r = exp(x); break;
    default:       r = fabs(x); break;
    }
    if (!isfinite(r)) {
        set_error(env->err, e->column, "%s(%g) is not a finite number", name, x);
        return false;
    }
    out->kind = VALUE_NUMBER;
    out->number = r;
    return true;
}

static bool compare_values(const expr *e, const expr_value *l, const expr_value *r,
                           const eval_env *env, int *cmp)
{
    if (l->kind != r->kind) {
        set_error(env->err, e->column, "cannot compare a number with a text");
        return false;
    }
    if (l->kind == VALUE_STRING)
        *cmp = strcmp(l->string, r->string);
    else
        *cmp = (l->number > r->number) - (l->number < r->number);
    return true;
}

static bool eval_arith(const expr *e, double a, double b, const eval_env *env, double *r)
{
    switch (e->op) {
    case OP_ADD: *r = a + b; break;
    case OP_SUB: *r = a - b; break;
    case OP_MUL: *r = a * b; break;
    case OP_DIV:
        if (b == 0) {
            set_error(env->err, e->column, "division by zero");
            return false;
        }
        *r = a / b;
        break;
    default: *r = pow(a, b); break;
    }
    return finite_result(e, *r, env, "the result");
}

static bool eval_binary(const expr *e, const eval_env *env, expr_value *out)
{
    expr_value l, r;
    out->kind = VALUE_NUMBER;
    if (!eval_node(e->left, env, &l))
        return false;
    if (e->op == OP_AND || e->op == OP_OR) {
        /* Short-circuit, so `np > 1 && x/np > 2` never divides by zero. */
        if (!want_number(e->left, &l, env))
            return false;
        bool lv = l.number != 0;
        if ((e->op == OP_AND && !lv) || (e->op == OP_OR && lv)) {
            out->number = lv;
            return true;
        }
        if (!eval_node(e->right, env, &r) || !want_number(e->right, &r, env))
            return false;
        out->number = r.number != 0;
        return true;
    }
    if (!eval_node(e->right, env, &r))
        return false;
    if (e->op >= OP_EQ) {
        int cmp;
        if (!compare_values(e, &l, &r, env, &cmp))
            return false;
        switch (e->op) {
        case OP_EQ: out->number = cmp == 0; break;
        case OP_NE: out->number = cmp != 0; break;
        case OP_LT: out->number = cmp < 0; break;
        case OP_LE: out->number = cmp <= 0; break;
        case OP_GT: out->number = cmp > 0; break;
        default:    out->number = cmp >= 0; break;
        }
        return true;
    }
    if (!want_number(e->left, &l, env) || !want_number(e->right, &r, env))
        return false;
    return eval_arith(e, l.number, r.number, env, &out->number);
}

static bool eval_node(const expr *e, const eval_env *env, expr_value *out)
{
    switch (e->kind) {
    case NODE_NUMBER:
        out->kind = VALUE_NUMBER;
        out->number = e->number;
        return true;
    case NODE_STRING:
        out->kind = VALUE_STRING;
        out->string = e->text;
        return true;
    case NODE_NAME:
        return eval_name(e, env, out);
    case NODE_CALL:
        return eval_call(e, env, out);
    case NODE_NEG:
        if (!eval_node(e->left, env, out) || !want_number(e->left, out, env))
            return false;
        out->number = -out->number;
        return true;
    case NODE_NOT:
        if (!eval_node(e->left, env, out) || !want_number(e->left, out, env))
            return false;
        out->number = out->number == 0;
        return true;
    case NODE_BINARY:
        return eval_binary(e, env, out);
    }
    return false;
}

bool expr_eval(const expr *e, expr_lookup_fn lookup, void *ctx,
               expr_value *out, expr_error *err)
{
    eval_env env = {lookup, ctx, err};
    return eval_node(e, &env, out);
}

bool expr_eval_number(const expr *e, expr_lookup_fn lookup, void *ctx,
                      double *out, expr_error *err)
{
    expr_value v;
    eval_env env = {lookup, ctx, err};
    if (!eval_node(e, &env, &v) || !want_number(e, &v, &env) ||
        !finite_result(e, v.number, &env, "the result"))
        return false;
    *out = v.number;
    return true;
}

/* ------------------------------------------------------------------ */
/* Terms, text, names                                                  */

typedef struct {
    expr **items;
    int count;
    int cap;
    bool oom;
} term_list;

static void term_push(term_list *l, expr *e)
{
    if (!e) {
        l->oom = true;
        return;
    }
    if (l->count == l->cap) {
        int cap = l->cap ? l->cap * 2 : 8;
        expr **items = realloc(l->items, (size_t)cap * sizeof *items);
        if (!items) {
            expr_free(e);
            l->oom = true;
            return;
        }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->count++] = e;
}

static expr *negated_copy(const expr *e)
{
    expr *inner = expr_copy(e);
    expr *neg = inner ? node_new(NODE_NEG, e->column) : NULL;
    if (!neg) {
        expr_free(inner);
        return NULL;
    }
    adopt(neg, inner, NULL);
    return neg;
}

static void collect_terms(const expr *e, bool negate, term_list *l)
{
    if (e->kind == NODE_BINARY && (e->op == OP_ADD || e->op == OP_SUB)) {
        collect_terms(e->left, negate, l);
        collect_terms(e->right, e->op == OP_SUB ? !negate : negate, l);
        return;
    }
    term_push(l, negate ? negated_copy(e) : expr_copy(e));
}

int expr_split_terms(const expr *e, expr ***terms)
{
    term_list l = {0};
    collect_terms(e, false, &l);
    if (l.oom) {
        for (int i = 0; i < l.count; i++)
            expr_free(l.items[i]);
        free(l.items);
        *terms = NULL;
        return -1;
    }
    *terms = l.items;
    return l.count;
}

typedef struct {
    char *buf;
    size_t len;
    size_t cap;
    bool oom;
} text_buf;

static void put(text_buf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *buf = realloc(b->buf, cap);
        if (!buf) {
            b->oom = true;
            return;
        }
        b->buf = buf;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, s, n + 1);
    b->len += n;
}

/* Binding strength, to print only the parentheses the tree needs. */
static int precedence(const expr *e)
{
    if (e->kind == NODE_NOT)
        return 3;
    if (e->kind == NODE_NEG)
        return 6;
    if (e->kind != NODE_BINARY)
        return 8;
    switch (e->op) {
    case OP_OR:  return 1;
    case OP_AND: return 2;
    case OP_ADD: case OP_SUB: return 5;
    case OP_MUL: case OP_DIV: return 6;
    case OP_POW: return 7;
    default:     return 4;
    }
}

static void write_node(text_buf *b, const expr *e);

static void write_child(text_buf *b, const expr *child, int min_prec)
{
    bool paren = precedence(child) < min_prec;
    if (paren)
        put(b, "(");
    write_node(b, child);
    if (paren)
        put(b, ")");
}

static void write_node(text_buf *b, const expr *e)
{
    char num[40];
    switch (e->kind) {
    case NODE_NUMBER:
        snprintf(num, sizeof num, "%.17g", e->number);
        put(b, num);
        break;
    case NODE_STRING: {
        /* The language has no escapes: a string holds at most one kind of
         * quote (the one it was not written in), so quote with the other. */
        const char *quote = strchr(e->text, '"') ? "'" : "\"";
        put(b, quote);
        put(b, e->text);
        put(b, quote);
        break;
    }
    case NODE_NAME:
        put(b, e->text);
        break;
    case NODE_CALL:
        for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
            if (functions[i].id == e->fn)
                put(b, functions[i].name);
        put(b, "(");
        write_node(b, e->left);
        put(b, ")");
        break;
    case NODE_NEG:
        /* unary := "-" unary: a sign takes a sign without parentheses, and
         * "-(-x)" would nest deeper than the "--x" it was parsed from
         * (each parenthesis counts towards EXPR_MAX_DEPTH), so that text
         * could fail to parse back. */
        put(b, "-");
        if (e->left->kind == NODE_NEG)
            write_node(b, e->left);
        else
            write_child(b, e->left, 7);
        break;
    case NODE_NOT:
        put(b, "!");
        write_child(b, e->left, 3); /* not := "!" not | cmp */
        break;
    case NODE_BINARY: {
        int prec = precedence(e);
        bool spaced = prec <= 5;
        /* Left-associative operators need parentheses on an equal-precedence
         * right child (a-(b-c)); the right-associative ^ on its left child;
         * a comparison takes no comparison on either side ((a<b)<c). */
        bool comparison = prec == 4;
        write_child(b, e->left, e->op == OP_POW || comparison ? prec + 1 : prec);
        put(b, spaced ? " " : "");
        put(b, op_text[e->op]);
        put(b, spaced ? " " : "");
        write_child(b, e->right, e->op == OP_POW ? prec : prec + 1);
        break;
    }
    }
}

char *expr_to_string(const expr *e)
{
    text_buf b = {0};
    write_node(&b, e);
    if (b.oom) {
        free(b.buf);
        return NULL;
    }
    return b.buf;
}

bool expr_equal(const expr *a, const expr *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case NODE_NUMBER: return a->number == b->number;
    case NODE_STRING:
    case NODE_NAME:   return strcmp(a->text, b->text) == 0;
    case NODE_CALL:   if (a->fn != b->fn) return false; break;
    case NODE_BINARY: if (a->op != b->op) return false; break;
    default:          break;
    }
    return expr_equal(a->left, b->left) && expr_equal(a->right, b->right);
}

/* ------------------------------------------------------------------ */
/* Types                                                               */

typedef struct {
    expr_kind_fn kind_of;
    void *ctx;
    expr_error *err;
} type_env;

/* Like want_number, for a kind known before evaluation. */
static bool want_number_kind(const expr *e, value_kind k, const type_env *env)
{
    if (k == VALUE_NUMBER)
        return true;
    if (e->kind == NODE_STRING)
        set_error(env->err, e->column, "expected a number, found the text \"%.40s\"", e->text);
    else if (e->kind == NODE_NAME)
        set_error(env->err, e->column, "expected a number, found the text column '%.60s'", e->text);
    else
        set_error(env->err, e->column, "expected a number, found a text");
    return false;
}

static bool type_node(const expr *e, const type_env *env, value_kind *out)
{
    value_kind l, r;
    *out = VALUE_NUMBER;
    switch (e->kind) {
    case NODE_NUMBER:
        return true;
    case NODE_STRING:
        *out = VALUE_STRING;
        return true;
    case NODE_NAME:
        if (!env->kind_of || !env->kind_of(env->ctx, e->text, out)) {
            set_error(env->err, e->column, "unknown column '%.60s'", e->text);
            return false;
        }
        return true;
    case NODE_CALL:
        if (e->fn == FN_HAS) /* a column of either kind */
            return type_node(e->left, env, &l);
        return type_node(e->left, env, &l) && want_number_kind(e->left, l, env);
    case NODE_NEG:
    case NODE_NOT:
        return type_node(e->left, env, &l) && want_number_kind(e->left, l, env);
    case NODE_BINARY:
        if (!type_node(e->left, env, &l) || !type_node(e->right, env, &r))
            return false;
        if (e->op >= OP_EQ && e->op <= OP_GE) {
            if (l == r)
                return true;
            set_error(env->err, e->column, "cannot compare a number with a text");
            return false;
        }
        return want_number_kind(e->left, l, env) && want_number_kind(e->right, r, env);
    }
    return false;
}

bool expr_check_types(const expr *e, expr_kind_fn kind_of, void *ctx, value_kind *out,
                      expr_error *err)
{
    type_env env = {kind_of, ctx, err};
    value_kind k;
    if (!type_node(e, &env, &k))
        return false;
    if (out)
        *out = k;
    return true;
}

bool expr_visit_names(const expr *e, bool (*fn)(void *ctx, const char *name, int column), void *ctx)
{
    if (!e)
        return true;
    if (e->kind == NODE_NAME && !fn(ctx, e->text, e->column))
        return false;
    return expr_visit_names(e->left, fn, ctx) && expr_visit_names(e->right, fn, ctx);
}

/* The column of name in rc's table, remembered by the name's address. */
static int row_column(table_row_ctx *rc, const char *name)
{
    for (size_t i = 0; i < rc->nseen; i++)
        if (rc->seen[i] == name)
            return rc->seen_col[i];
    int col = table_find(rc->t, name);
    if (rc->nseen < EXPR_ROW_COLUMNS) {
        rc->seen[rc->nseen] = name;
        rc->seen_col[rc->nseen++] = col;
    }
    return col;
}

bool expr_lookup_table_row(void *ctx, const char *name, expr_value *out)
{
    table_row_ctx *rc = ctx;
    int col = row_column(rc, name);
    if (col < 0)
        return false;
    if (rc->t->cols[col].kind == COL_TEXT) {
        out->kind = VALUE_STRING;
        out->string = table_text(rc->t, rc->row, (size_t)col);
    } else {
        out->kind = VALUE_NUMBER;
        out->number = table_number(rc->t, rc->row, (size_t)col);
    }
    return true;
}

bool expr_kind_table_column(void *ctx, const char *name, value_kind *out)
{
    const table *t = ctx;
    int col = table_find(t, name);
    if (col < 0)
        return false;
    *out = t->cols[col].kind == COL_TEXT ? VALUE_STRING : VALUE_NUMBER;
    return true;
}

/* ------------------------------------------------------------------ */
/* Over many rows                                                      */

/* Evaluating the tree row by row costs a call per node per row and a
 * lookup per name per row: most of the time of a design matrix over half a
 * million runs. Here a block of rows is evaluated node by node instead, each
 * node over a column of numbers. It computes exactly what eval_node does
 * (the same operations on the same doubles, in the same order for each
 * row), so a block is only kept when no row of it met anything eval_node
 * would report: a value that is missing or not finite anywhere sends the
 * block back to eval_node, row by row, which finds the first failure and
 * its message. A '&&' or '||' evaluates both sides here; a right side that
 * fails where the left decided is such a block too. Text (strings, text
 * columns) is left to eval_node altogether. */

enum { BLOCK_ROWS = 128, BLOCK_MAX_DEPTH = 32 /* a buffer of the stack per level */ };

typedef struct {
    const table *t;
    const size_t *rows; /* NULL: the rows start, start + 1, ... */
    size_t start;
    size_t n;           /* rows in this block (at most BLOCK_ROWS) */
} row_block;

static size_t block_row(const row_block *b, size_t i)
{
    return b->rows ? b->rows[b->start + i] : b->start + i;
}

/* Whether every node of e can be evaluated by block_node: numbers and
 * numeric columns of t. */
static bool block_supported(const expr *e, const table *t)
{
    int col;
    switch (e->kind) {
    case NODE_NUMBER:
        return true;
    case NODE_NAME:
        col = table_find(t, e->text);
        return col >= 0 && t->cols[col].kind == COL_NUMBER;
    case NODE_CALL:
    case NODE_NEG:
    case NODE_NOT:
        return block_supported(e->left, t);
    case NODE_BINARY:
        return block_supported(e->left, t) && block_supported(e->right, t);
    case NODE_STRING:
        break;
    }
    return false;
}

static bool all_finite(const double *v, size_t n)
{
    bool ok = true;
    for (size_t i = 0; i < n; i++)
        ok &= isfinite(v[i]) != 0;
    return ok;
}

static bool block_name(const expr *e, const row_block *b, double *out)
{
    const double *num = b->t->cols[table_find(b->t, e->text)].num;
    for (size_t i = 0; i < b->n; i++)
        out[i] = num[block_row(b, i)];
    return all_finite(out, b->n);
}

static bool block_call(const expr *e, const row_block *b, double *out)
{
    const double *v = out; /* the argument, replaced in place */
    if (e->fn == FN_HAS) {
        const double *num = b->t->cols[table_find(b->t, e->left->text)].num;
        for (size_t i = 0; i < b->n; i++)
            out[i] = !isnan(num[block_row(b, i)]);
        return true;
    }
    for (size_t i = 0; i < b->n; i++) {
        double x = v[i];
        switch (e->fn) {
        case FN_LOG:   out[i] = x > 0 ? log(x) : NAN; break;
        case FN_LOG2:  out[i] = x > 0 ? log2(x) : NAN; break;
        case FN_LOG10: out[i] = x > 0 ? log10(x) : NAN; break;
        case FN_SQRT:  out[i] = x >= 0 ? sqrt(x) : NAN; break;
        case FN_EXP:   out[i] = exp(x); break;
        default:       out[i] = fabs(x); break;
        }
    }
    return all_finite(out, b->n);
}

/* out = out (the left operand) op r, as eval_binary computes it for
 * numbers (all of them finite here). */
static bool block_binary(binary_op op, double *out, const double *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double a = out[i], c = r[i];
        int cmp = (a > c) - (a < c);
        switch (op) {
        case OP_ADD: out[i] = a + c; break;
        case OP_SUB: out[i] = a - c; break;
        case OP_MUL: out[i] = a * c; break;
        case OP_DIV: out[i] = a / c; break; /* by zero: not finite, so refused */
        case OP_POW: out[i] = pow(a, c); break;
        case OP_EQ:  out[i] = cmp == 0; break;
        case OP_NE:  out[i] = cmp != 0; break;
        case OP_LT:  out[i] = cmp < 0; break;
        case OP_LE:  out[i] = cmp <= 0; break;
        case OP_GT:  out[i] = cmp > 0; break;
        case OP_GE:  out[i] = cmp >= 0; break;
        case OP_AND: out[i] = a != 0 && c != 0; break;
        case OP_OR:  out[i] = a != 0 || c != 0; break;
        }
    }
    return all_finite(out, n);
}

/* e over the block into out[b->n]; false when some row needs eval_node. */
static bool block_node(const expr *e, const row_block *b, double *out)
{
    double right[BLOCK_ROWS];
    switch (e->kind) {
    case NODE_NUMBER:
        for (size_t i = 0; i < b->n; i++)
            out[i] = e->number;
        return true;
    case NODE_NAME:
        return block_name(e, b, out);
    case NODE_CALL:
        return (e->fn == FN_HAS || block_node(e->left, b, out)) && block_call(e, b, out);
    case NODE_NEG:
    case NODE_NOT:
        if (!block_node(e->left, b, out))
            return false;
        for (size_t i = 0; i < b->n; i++)
            out[i] = e->kind == NODE_NEG ? -out[i] : out[i] == 0;
        return true;
    case NODE_BINARY:
        return block_node(e->left, b, out) && block_node(e->right, b, right) &&
               block_binary(e->op, out, right, b->n);
    case NODE_STRING:
        break;
    }
    return false;
}

/* Rows of the block one by one, as expr_eval_number; the rows done before
 * the first failure. */
static size_t block_by_rows(const expr *e, const row_block *b, table_row_ctx *rc, double *out,
                            size_t stride, expr_error *err)
{
    for (size_t i = 0; i < b->n; i++) {
        rc->row = block_row(b, i);
        if (!expr_eval_number(e, expr_lookup_table_row, rc, &out[i * stride], err))
            return i;
    }
    return b->n;
}

size_t expr_eval_rows(const expr *e, const table *t, const size_t *rows, size_t start,
                      size_t n, double *out, size_t stride, expr_error *err)
{
    bool fast = e->depth <= BLOCK_MAX_DEPTH && block_supported(e, t);
    table_row_ctx rc = {.t = t}; /* one for every row: it remembers the columns */
    double values[BLOCK_ROWS];
    for (size_t done = 0; done < n;) {
        row_block b = {t, rows, start + done, n - done < BLOCK_ROWS ? n - done : BLOCK_ROWS};
        size_t ok = b.n;
        if (fast && block_node(e, &b, values))
            for (size_t i = 0; i < b.n; i++)
                out[(done + i) * stride] = values[i];
        else
            ok = block_by_rows(e, &b, &rc, out + done * stride, stride, err);
        done += ok;
        if (ok < b.n)
            return done;
    }
    return n;
}
