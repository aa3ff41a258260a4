/*
 * import_table.c — tables with a header line: any CSV file (`csv`) and JUBE
 * result tables (`jube`: the csv style, or the pretty style whose cells are
 * separated by '|' and whose rule line of '-' and '+' is skipped).
 *
 * Each header name becomes a runs.csv column: the --map target when given,
 * else a well-known name (procs, processes, ranks, ntasks, tasks, num_tasks
 * -> np; time, runtime, walltime, elapsed, time_in_sec, seconds -> time_s;
 * nnodes, num_nodes -> nodes; system, machine -> cluster), else the name made
 * an identifier: a number column when every cell is a number, else a text
 * column `tag_<name>`. np must be a whole number >= 1, time_s a number > 0,
 * every time_* column a number >= 0; the first problem is reported with its
 * position and nothing is imported.
 */
#include "gen/import/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gen/base/column_rules.h"
#include "gen/base/csvread.h"
#include "gen/import/import_lines.h"

static const struct {
    const char *from;
    const char *to;
} known_names[] = {
    {"np", "np"}, {"procs", "np"}, {"processes", "np"}, {"ranks", "np"}, {"nprocs", "np"},
    {"ntasks", "np"}, {"tasks", "np"}, {"num_tasks", "np"}, {"mpi_tasks", "np"},
    {"time_s", "time_s"}, {"time", "time_s"}, {"runtime", "time_s"}, {"walltime", "time_s"},
    {"elapsed", "time_s"}, {"time_in_sec", "time_s"}, {"seconds", "time_s"},
    {"nodes", "nodes"}, {"nnodes", "nodes"}, {"num_nodes", "nodes"},
    {"cluster", "cluster"}, {"system", "cluster"}, {"machine", "cluster"},
};

static bool all_numbers(const import_text *t, size_t col)
{
    for (size_t r = 1; r < t->nlines; r++) {
        const import_line *l = &t->lines[r];
        double v;
        if (col < l->nfields && l->fields[col].text[0] && !import_number(l->fields[col].text, &v))
            return false;
    }
    return true;
}

/* The runs.csv column of header field col; malloc'ed. */
static char *column_name(const import_request *req, const import_text *t, size_t col)
{
    const char *name = t->lines[0].fields[col].text;
    const char *mapped = import_mapped(req, name);
    if (mapped != name)
        return strdup(mapped);
    for (size_t i = 0; i < sizeof known_names / sizeof known_names[0]; i++)
        if (strcasecmp(name, known_names[i].from) == 0)
            return strdup(known_names[i].to);
    char *id = import_identifier(name);
    if (!id || all_numbers(t, col) || strncmp(id, "tag_", 4) == 0)
        return id;
    char *tagged = malloc(strlen(id) + 5);
    if (tagged)
        sprintf(tagged, "tag_%s", id);
    free(id);
    return tagged;
}

/* Check a cell against its column's rule; false (recorded) when it breaks it. */
static bool check_cell(const char *file, const import_line *l, size_t col, const char *column,
                       diag_list *diags)
{
    const import_field *f = &l->fields[col];
    double v;
    bool is_np = strcmp(column, "np") == 0, is_time = column_is_time(column);
    if (!is_np && !is_time)
        return true;
    if (!f->text[0] && !is_np)
        return true;
    bool ok = import_number(f->text, &v);
    if (ok && is_np)
        ok = v >= 1 && v == floor(v);
    else if (ok)
        ok = strcmp(column, "time_s") == 0 ? v > 0 : v >= 0;
    if (!ok)
        diag_add(diags, file, l->line, f->column, "%s '%s' is not %s", column, f->text,
                 is_np ? "a whole number >= 1" : strcmp(column, "time_s") == 0
                                                      ? "a number of seconds > 0"
                                                      : "a number >= 0");
    return ok;
}

/* Rows from a header-first table; responses are time_s and time_* columns. */
static bool table_rows(const import_request *req, const char *file, const import_text *t,
                       import_rows *out, diag_list *diags)
{
    const import_line *head = &t->lines[0];
    char **columns = calloc(head->nfields + 1, sizeof *columns);
    bool ok = columns != NULL, have_np = false;
    for (size_t c = 0; ok && c < head->nfields; c++) {
        ok = (columns[c] = column_name(req, t, c)) != NULL;
        have_np = have_np || (ok && strcmp(columns[c], "np") == 0);
    }
    if (ok && !have_np) {
        diag_add(diags, file, head->line, 1,
                 "no process-count column: name it with --map COLUMN=np");
        ok = false;
    }
    for (size_t r = 1; ok && r < t->nlines; r++) {
        const import_line *l = &t->lines[r];
        if (l->nfields != head->nfields) {
            diag_add(diags, file, l->line, l->nfields > head->nfields
                                                ? l->fields[head->nfields].column : 1,
                     "%zu cells where the header has %zu", l->nfields, head->nfields);
            ok = false;
            break;
        }
        ok = import_rows_add_row(out);
        for (size_t c = 0; ok && c < l->nfields; c++)
            ok = check_cell(file, l, c, columns[c], diags) &&
                 import_rows_set(out, columns[c], l->fields[c].text);
    }
    for (size_t c = 0; ok && c < head->nfields; c++)
        if (strcmp(columns[c], "time_s") == 0)
            ok = import_rows_add_response(out, "time_s");
    for (size_t c = 0; ok && c < head->nfields; c++) {
        if (column_is_time(columns[c]))
            ok = import_rows_add_response(out, columns[c]);
        if (ok && strcmp(columns[c], head->fields[c].text) != 0)
            ok = import_rows_note(out, "`%s` is the column '%s' of the source.", columns[c],
                                  head->fields[c].text);
    }
    if (ok && out->nresponses == 0 && !req->response) {
        diag_add(diags, file, head->line, 1,
                 "no time column: name one with --map COLUMN=time_s, or choose the column "
                 "to predict with --response");
        ok = false;
    }
    for (size_t c = 0; columns && c < head->nfields; c++)
        free(columns[c]);
    free(columns);
    return ok;
}

/* A CSV document as lines of fields (the form table_rows reads). */
static bool csv_as_text(const csv_doc *doc, import_text *out)
{
    memset(out, 0, sizeof *out);
    out->lines = calloc(doc->nrows ? doc->nrows : 1, sizeof *out->lines);
    if (!out->lines)
        return false;
    for (size_t r = 0; r < doc->nrows; r++) {
        const csv_row *row = &doc->rows[r];
        import_line *l = &out->lines[out->nlines++];
        l->line = row->line;
        l->fields = calloc(row->nfields ? row->nfields : 1, sizeof *l->fields);
        if (!l->fields)
            return false;
        for (size_t c = 0; c < row->nfields; c++) {
            const char *s = row->fields[c].text;
            size_t len = strlen(s);
            while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
                len--;
            size_t skip = strspn(s, " \t");
            l->fields[c].text = strndup(s + skip, len > skip ? len - skip : 0);
            l->fields[c].column = row->fields[c].column + (long)skip + row->fields[c].quoted;
            if (!l->fields[c].text)
                return false;
            l->nfields++;
        }
    }
    return true;
}

bool import_read_csv(const import_request *req, const char *path, import_rows *out,
                     diag_list *diags)
{
    csv_doc doc;
    size_t before = diags->count;
    bool ok = csv_read_file(path, path, &doc, diags) && diags->count == before;
    import_text t = {0};
    if (ok && doc.nrows < 2) {
        diag_add(diags, path, 0, 0, "no rows under the header: nothing to import");
        ok = false;
    }
    if (ok && !csv_as_text(&doc, &t)) {
        diag_add(diags, path, 0, 0, "out of memory");
        ok = false;
    }
    ok = ok && table_rows(req, path, &t, out, diags);
    import_text_free(&t);
    csv_doc_free(&doc);
    return ok;
}

/* A pretty-style rule line: only '-', '+', '|' and blanks. */
static bool is_rule(const import_line *l)
{
    return strspn(l->text, "-+| \t") == strlen(l->text);
}

/* Drop the empty first and last cells of "| a | b |" lines, and rule lines. */
static void tidy_pretty(import_text *t)
{
    size_t kept = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        import_line *l = &t->lines[i];
        if (is_rule(l)) {
            for (size_t f = 0; f < l->nfields; f++)
                free(l->fields[f].text);
            free(l->fields);
            free(l->text);
            continue;
        }
        if (l->nfields > 1 && !l->fields[l->nfields - 1].text[0])
            free(l->fields[--l->nfields].text);
        if (l->nfields > 1 && !l->fields[0].text[0]) {
            free(l->fields[0].text);
            memmove(l->fields, l->fields + 1, --l->nfields * sizeof *l->fields);
        }
        t->lines[kept++] = *l;
    }
    t->nlines = kept;
}

bool import_read_jube(const import_request *req, const char *path, import_rows *out,
                      diag_list *diags)
{
    import_text t;
    if (!import_text_read(path, path, '|', &t, diags))
        return false;
    bool pretty = strchr(t.lines[0].text, '|') != NULL;
    bool ok;
    if (!pretty) {
        import_text_free(&t);
        return import_read_csv(req, path, out, diags);
    }
    tidy_pretty(&t);
    ok = t.nlines >= 2;
    if (!ok)
        diag_add(diags, path, 0, 0, "no rows under the header: nothing to import");
    ok = ok && table_rows(req, path, &t, out, diags);
    import_text_free(&t);
    return ok;
}
