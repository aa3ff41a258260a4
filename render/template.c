/*
 * template.c — parses a template into literal and placeholder pieces once,
 * so rendering a page is a walk over the pieces.
 */
#include "render/template.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/escape.h"

typedef struct {
    const char *text; /* into template.source: a literal, or a placeholder's name */
    size_t len;
    int kind;         /* PIECE_* */
} piece;

enum { PIECE_LITERAL, PIECE_ESCAPED, PIECE_RAW };

struct template {
    char *source;
    piece *pieces;
    size_t npieces;
};

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int line_of(const char *start, const char *at)
{
    int line = 1;
    for (const char *s = start; s < at; s++)
        line += *s == '\n';
    return line;
}

static bool add_piece(template *t, const char *text, size_t len, int kind)
{
    piece *pieces = realloc(t->pieces, (t->npieces + 1) * sizeof *pieces);
    if (!pieces)
        return false;
    t->pieces = pieces;
    t->pieces[t->npieces++] = (piece){text, len, kind};
    return true;
}

/* Read the placeholder at s ("{{" already seen); stores its end in *end. */
static bool parse_placeholder(template *t, const char *s, const char **end, char *err,
                              size_t errlen)
{
    bool raw = s[2] == '{';
    const char *name = s + (raw ? 3 : 2);
    const char *p = name;
    while (is_name_char(*p))
        p++;
    const char *close = raw ? "}}}" : "}}";
    if (p == name || strncmp(p, close, strlen(close)) != 0) {
        snprintf(err, errlen, "line %d: expected %s{{name}}%s", line_of(t->source, s),
                 raw ? "{" : "", raw ? "}" : "");
        return false;
    }
    *end = p + strlen(close);
    if (!add_piece(t, name, (size_t)(p - name), raw ? PIECE_RAW : PIECE_ESCAPED)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    return true;
}

template *template_parse(const char *text, char *err, size_t errlen)
{
    template *t = calloc(1, sizeof *t);
    if (!t || !(t->source = strdup(text))) {
        free(t);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    const char *s = t->source;
    while (*s) {
        const char *open = strstr(s, "{{");
        size_t literal = open ? (size_t)(open - s) : strlen(s);
        if (literal && !add_piece(t, s, literal, PIECE_LITERAL)) {
            snprintf(err, errlen, "out of memory");
            template_free(t);
            return NULL;
        }
        if (!open)
            break;
        if (!parse_placeholder(t, open, &s, err, errlen)) {
            template_free(t);
            return NULL;
        }
    }
    return t;
}

void template_free(template *t)
{
    if (!t)
        return;
    free(t->source);
    free(t->pieces);
    free(t);
}

static bool piece_is(const piece *p, const char *name)
{
    return strlen(name) == p->len && memcmp(p->text, name, p->len) == 0;
}

bool template_uses(const template *t, const char *name)
{
    for (size_t i = 0; i < t->npieces; i++)
        if (t->pieces[i].kind != PIECE_LITERAL && piece_is(&t->pieces[i], name))
            return true;
    return false;
}

bool template_render(const template *t, const template_var *vars, size_t nvars, rbuf *out,
                     char *err, size_t errlen)
{
    for (size_t i = 0; i < t->npieces; i++) {
        const piece *p = &t->pieces[i];
        if (p->kind == PIECE_LITERAL) {
            rbuf_put(out, p->text, p->len);
            continue;
        }
        size_t v = 0;
        while (v < nvars && !piece_is(p, vars[v].name))
            v++;
        if (v == nvars) {
            snprintf(err, errlen, "template placeholder '%.*s' has no value", (int)p->len,
                     p->text);
            return false;
        }
        const char *value = vars[v].value ? vars[v].value : "";
        if (p->kind == PIECE_RAW)
            rbuf_puts(out, value);
        else
            esc_html(out, value);
    }
    if (out->oom)
        snprintf(err, errlen, "out of memory");
    return !out->oom;
}
