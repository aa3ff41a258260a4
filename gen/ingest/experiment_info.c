/*
 * experiment_info.c — positions of experiments.csv cells (experiment_info.h).
 */
#include "gen/ingest/experiment_info.h"

#include <ctype.h>
#include <string.h>

long experiment_cell_column(const experiment_info *e, const char *cell, int offset)
{
    const struct { const char *name; const char *text; long column; } cells[] = {
        {"name", e->name, e->cells.name},
        {"model", e->model, e->cells.model},
        {"response", e->response, e->cells.response},
        {"formula", e->formula, e->cells.formula},
        {"train", e->train, e->cells.train},
        {"target", e->target, e->cells.target},
        {"options", e->options, e->cells.options},
    };
    for (size_t i = 0; cell && i < sizeof cells / sizeof cells[0]; i++) {
        if (strcmp(cells[i].name, cell) != 0)
            continue;
        long column = cells[i].column;
        const char *text = cells[i].text;
        if (column <= 0)
            return 1; /* no such column in the file: the row */
        if (!text || offset <= 0)
            return column;
        /* A '"' in a cell's text is written twice in the file; past its end
         * come the blanks the loaded value leaves out. */
        size_t len = strlen(text);
        for (int k = 0; k < offset - 1; k++)
            column += (size_t)k < len && text[k] == '"' ? 2 : 1;
        return column;
    }
    return 1;
}

const char *experiment_response_next(const char *s, size_t *len)
{
    while (*(s += strspn(s, " \t+"))) {
        size_t n = strcspn(s, "+");
        *len = n;
        while (*len > 0 && isspace((unsigned char)s[*len - 1]))
            (*len)--;
        if (*len > 0)
            return s;
        s += n; /* blanks of another kind before a '+' */
    }
    return NULL;
}
