/*
 * template.h — page templates: literal text with {{name}} and {{{name}}}
 * placeholders (templates/page.html).
 *
 * {{name}} inserts the value HTML-escaped (safe for text and attribute
 * values); {{{name}}} inserts it as is and is meant for HTML that perfcast
 * made itself (the page body rendered by cmark). Names are letters, digits
 * and '_'. A template is parsed once and rendered for every page.
 *
 * Ownership: template_parse returns a template the caller frees with
 * template_free; it keeps its own copy of the text.
 */
#ifndef PERFCAST_RENDER_TEMPLATE_H
#define PERFCAST_RENDER_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>
#include "render/buf.h"

typedef struct template template;

typedef struct {
    const char *name;
    const char *value; /* NULL renders as empty */
} template_var;

/* Parse text. Returns NULL and writes "line L: reason" into err for an
 * unclosed or malformed placeholder, or when out of memory. */
template *template_parse(const char *text, char *err, size_t errlen);

void template_free(template *t);

/* True when the template has a placeholder called name (either kind). */
bool template_uses(const template *t, const char *name);

/* Append the filled template to out. Returns false, naming the placeholder
 * in err, when one has no variable in vars, or when out of memory. */
bool template_render(const template *t, const template_var *vars, size_t nvars, rbuf *out,
                     char *err, size_t errlen);

#endif
