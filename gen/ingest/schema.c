/*
 * schema.c — header checks and per-cell validation for schema.h.
 */
#include "gen/ingest/schema.h"
#include "gen/base/fileio.h"
#include <sys/stat.h>
#include "gen/base/column_rules.h"
#include "gen/base/dates.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

value_rule schema_default_rule(const char *column)
{
    if (has_prefix(column, "tag_"))
        return RULE_TEXT;
    if (column_is_time(column) || column_is_published(column))
        return RULE_NONNEGATIVE;
    return RULE_NUMBER;
}

bool schema_rule_is_text(value_rule rule)
{
    return rule == RULE_TEXT || rule == RULE_DATE;
}

static const char *rule_expectation(value_rule rule)
{
    switch (rule) {
    case RULE_TEXT:        return "text";
    case RULE_NUMBER:      return "a number";
    case RULE_POSITIVE:    return "a number greater than 0";
    case RULE_NONNEGATIVE: return "a number of at least 0";
    case RULE_COUNT:       return "a whole number of at least 1";
    case RULE_INDEX:       return "a whole number of at least 0";
    case RULE_DATE:        return "a date YYYY-MM-DD";
    }
    return "a value";
}

/* A short, printable excerpt of a cell for messages (cells can be 1 MB). */
static void excerpt(const char *text, char *buf, size_t len)
{
    size_t n = strlen(text);
    size_t keep = n < 40 ? n : 40;
    /* Do not cut a UTF-8 sequence in half. */
    while (keep < n && keep > 0 && ((unsigned char)text[keep] & 0xC0) == 0x80)
        keep--;
    snprintf(buf, len, "\"%.*s%s\"", (int)keep, text, keep < n ? "…" : "");
}

/* Trimmed copy boundaries of a cell. */
static void trim(const char *s, size_t *start, size_t *len)
{
    size_t a = 0, b = strlen(s);
    while (a < b && isspace((unsigned char)s[a]))
        a++;
    while (b > a && isspace((unsigned char)s[b - 1]))
        b--;
    *start = a;
    *len = b - a;
}

static const column_spec *find_spec(const schema *s, const char *name)
{
    for (const column_spec *c = s->specs; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

/* Column layout of the file: for each header field, its table column and rule. */
typedef schema_layout layout;

static void layout_free(layout *l)
{
    free(l->table_col);
    free(l->rule);
    free(l->spec);
}

static bool check_header(const csv_row *h, const schema *s, layout *l, table *out, diag_list *d)
{
    bool ok = true;
    l->n = h->nfields;
    l->table_col = calloc(l->n, sizeof *l->table_col);
    l->rule = calloc(l->n, sizeof *l->rule);
    l->spec = calloc(l->n, sizeof *l->spec);
    if (!l->table_col || !l->rule || !l->spec) {
        diag_add(d, s->file, h->line, 1, "out of memory");
        return false;
    }
    for (size_t i = 0; i < h->nfields; i++) {
        const csv_field *f = &h->fields[i];
        size_t a, n;
        trim(f->text, &a, &n);
        char *name = strndup(f->text + a, n);
        l->table_col[i] = -1;
        if (!name) {
            diag_add(d, s->file, f->line, f->column, "out of memory");
            return false;
        }
        const column_spec *spec = find_spec(s, name);
        int first = table_find(out, name);
        if (n == 0) {
            diag_add(d, s->file, f->line, f->column, "empty column name in the header");
            ok = false;
        } else if (first >= 0) {
            diag_add(d, s->file, f->line, f->column,
                     "duplicate column '%s' (expected each column once)", name);
            ok = false;
        } else if (!spec && !s->allow_unknown) {
            char known[512] = "";
            for (const column_spec *c = s->specs; c->name; c++)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                         c == s->specs ? "" : ", ", c->name);
            diag_add(d, s->file, f->line, f->column, "unknown column '%s' (expected one of: %s)",
                     name, known);
            ok = false;
        } else {
            l->spec[i] = spec;
            l->rule[i] = spec ? spec->rule : schema_default_rule(name);
            column_kind kind = schema_rule_is_text(l->rule[i]) ? COL_TEXT : COL_NUMBER;
            l->table_col[i] = table_add_column(out, name, kind);
            if (l->table_col[i] < 0) {
                diag_add(d, s->file, f->line, f->column, "out of memory");
                ok = false;
            }
        }
        free(name);
    }
    for (const column_spec *c = s->specs; c->name; c++)
        if (c->required_column && table_find(out, c->name) < 0) {
            diag_add(d, s->file, h->line, 1, "missing required column '%s' (%s)", c->name, c->meaning);
            ok = false;
        }
    return ok;
}

/* Validate one cell and store it. Returns false (after reporting) on a problem. */
static bool store_cell(const schema *s, const layout *l, size_t i, const csv_field *f,
                       table *out, size_t row, diag_list *d)
{
    const char *column = out->cols[l->table_col[i]].name;
    size_t a, n;
    trim(f->text, &a, &n);
    long col = f->column + (f->quoted ? 1 : 0);
    if (n == 0) {
        if (l->spec[i] && l->spec[i]->required_value) {
            diag_add(d, s->file, f->line, f->column, "missing value in column '%s' (expected %s)",
                     column, rule_expectation(l->rule[i]));
            return false;
        }
        return true; /* an empty cell is a missing value, never zero */
    }
    char shown[64];
    if (schema_rule_is_text(l->rule[i])) {
        /* Stored first (no copy per cell), checked there; a row with a
         * problem is dropped by the caller. */
        size_t tc = (size_t)l->table_col[i];
        if (!table_set_text_n(out, row, tc, f->text + a, n)) {
            diag_add(d, s->file, f->line, col, "out of memory");
            return false;
        }
        const char *value = table_text(out, row, tc), *problem = NULL;
        if (l->rule[i] == RULE_DATE && !dates_text_valid(value))
            problem = "expected a date YYYY-MM-DD";
        else if (s->check_text)
            problem = s->check_text(s->check_ctx, column, value);
        if (problem) {
            excerpt(value, shown, sizeof shown);
            diag_add(d, s->file, f->line, col, "%s in column '%s', found %s", problem, column, shown);
        }
        return !problem;
    }
    double v;
    const char *why = NULL;
    bool ok = csv_parse_number(f->text, &v, &why);
    if (ok) {
        bool integral = v == floor(v);
        switch (l->rule[i]) {
        case RULE_POSITIVE:    ok = v > 0; break;
        case RULE_NONNEGATIVE: ok = v >= 0; break;
        case RULE_COUNT:       ok = integral && v >= 1; break;
        case RULE_INDEX:       ok = integral && v >= 0; break;
        default:               break;
        }
    }
    if (!ok) {
        excerpt(f->text + a, shown, sizeof shown);
        diag_add(d, s->file, f->line, col, "expected %s in column '%s', found %s%s%s",
                 rule_expectation(l->rule[i]), column, shown, why ? ": " : "", why ? why : "");
        return false;
    }
    table_set_number(out, row, (size_t)l->table_col[i], v);
    return true;
}

/* s->check_row on a stored row: false (after reporting, at the cell it
 * names) on a problem. */
static bool check_whole_row(const csv_row *r, const schema *s, const layout *l, table *out,
                            size_t row, diag_list *d)
{
    const char *column = NULL;
    const char *problem = s->check_row ? s->check_row(s->check_ctx, out, row, &column) : NULL;
    if (!problem)
        return true;
    long at = r->nfields ? r->fields[0].column : 1;
    for (size_t i = 0; column && i < r->nfields; i++)
        if (l->table_col[i] >= 0 && strcmp(out->cols[l->table_col[i]].name, column) == 0)
            at = r->fields[i].column + (r->fields[i].quoted ? 1 : 0);
    diag_add(d, s->file, r->line, at, "%s", problem);
    return false;
}

static void load_row(const csv_row *r, const schema *s, const layout *l, table *out, diag_list *d)
{
    if (r->nfields != l->n) {
        bool extra = r->nfields > l->n;
        long column = extra ? r->fields[l->n].column : r->end_column;
        diag_add(d, s->file, r->line, column,
                 "expected %zu fields as in the header, found %zu (%s)", l->n, r->nfields,
                 extra ? "extra field here" : "row ends early");
        return;
    }
    long row = table_add_row(out, r->line);
    if (row < 0) {
        diag_add(d, s->file, r->line, 1, "out of memory");
        return;
    }
    bool ok = true;
    for (size_t i = 0; i < r->nfields; i++)
        if (l->table_col[i] >= 0 && !store_cell(s, l, i, &r->fields[i], out, (size_t)row, d))
            ok = false;
    if (ok)
        ok = check_whole_row(r, s, l, out, (size_t)row, d);
    if (!ok) {
        /* Drop the row: clear its cells and give its slot back. */
        for (size_t c = 0; c < out->ncols; c++)
            if (out->cols[c].kind == COL_TEXT)
                table_set_text(out, (size_t)row, c, NULL);
            else
                table_set_number(out, (size_t)row, c, NAN);
        out->nrows--;
    }
}

void schema_stream_init(schema_stream *st, const schema *s, table *out, diag_list *diags)
{
    *st = (schema_stream){.s = s, .out = out, .diags = diags};
    table_init(out);
}

bool schema_stream_row(void *stream, const csv_row *row)
{
    schema_stream *st = stream;
    if (st->nrows++ == 0) {
        st->header_line = row->line;
        st->header_ok = check_header(row, st->s, &st->layout, st->out, st->diags);
    }
    else if (st->header_ok)
        load_row(row, st->s, &st->layout, st->out, st->diags);
    return true;
}

void schema_stream_lines(void *stream, size_t lines)
{
    schema_stream *st = stream;
    /* A hint only: without the room, rows are added as they come. */
    if (lines > 1)
        table_reserve_rows(st->out, lines - 1);
}

bool schema_stream_finish(schema_stream *st)
{
    const schema *s = st->s;
    if (st->nrows == 0)
        diag_add(st->diags, s->file, 0, 0, "the file is empty (expected a header line)");
    else if (st->header_ok && st->nrows == 1 && !s->allow_no_rows)
        diag_add(st->diags, s->file, st->header_line, 1,
                 "the file has a header but no rows (expected at least one row)");
    layout_free(&st->layout);
    if (!st->header_ok)
        table_free(st->out);
    return st->header_ok;
}

void schema_stream_discard(schema_stream *st)
{
    layout_free(&st->layout);
    table_free(st->out);
}

bool schema_load_table(const csv_doc *doc, const schema *s, table *out, diag_list *diags)
{
    schema_stream st;
    schema_stream_init(&st, s, out, diags);
    for (size_t i = 0; i < doc->nrows; i++)
        schema_stream_row(&st, &doc->rows[i]);
    return schema_stream_finish(&st);
}

long schema_cell_column(const csv_doc *doc, long line, const char *name)
{
    for (size_t r = 1; name && doc->nrows > 0 && r < doc->nrows; r++) {
        const csv_row *row = &doc->rows[r], *header = &doc->rows[0];
        for (size_t i = 0; row->line == line && i < header->nfields && i < row->nfields; i++)
            if (strcmp(header->fields[i].text, name) == 0)
                return row->fields[i].column + (row->fields[i].quoted ? 1 : 0);
    }
    return 1;
}

bool schema_load_optional(const char *dir, const char *name, const column_spec *specs,
                          char **path, csv_doc *doc, table *out, diag_list *diags)
{
    struct stat st;
    *doc = (csv_doc){0};
    table_init(out);
    *path = fileio_join(dir, name);
    if (!*path || stat(*path, &st) != 0)
        return false;
    schema s = {.file = *path, .specs = specs, .allow_unknown = false, .allow_no_rows = true};
    return csv_read_file_inside(dir, *path, *path, doc, diags) &&
           schema_load_table(doc, &s, out, diags);
}
