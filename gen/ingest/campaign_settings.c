/*
 * campaign_settings.c — see campaign_settings.h.
 */
#include "gen/ingest/campaign_settings.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/base/config_index.h"
#include "gen/base/csvread.h"
#include "gen/base/fileio.h"
#include "gen/ingest/experiment_info.h"

static const column_spec setting_columns[] = {
    {"setting", RULE_TEXT, true, true, "the setting's name (procs)"},
    {"value", RULE_TEXT, true, true, "its value"},
    {NULL, RULE_TEXT, false, false, NULL},
};

/* A name an expression can use (letters, digits, '_', not starting with a
 * digit) that stays a setting of the run (not a result, not a label) and is
 * not one of runs.csv's other documented columns. */
static const char *procs_problem(const char *name, const column_spec *runs)
{
    if (!isalpha((unsigned char)name[0]) && name[0] != '_')
        return "must start with a letter or '_'";
    for (const char *s = name; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return "must be letters, digits and '_' (a name formulas and filters can use)";
    if (!config_is_identifying(name) || strncmp(name, "tag_", 4) == 0)
        return "names a result or a label column (time_*, metric_*, published_*, tag_*, rep, "
               "date, note...), not a process count";
    for (const column_spec *c = runs; c && c->name; c++)
        if (strcmp(c->name, name) == 0 && strcmp(name, "np") != 0)
            return "is another documented column of runs.csv";
    return NULL;
}

/* The column (for the error position) of the cell under `name` on a row. */
static long field_column(const csv_doc *doc, size_t row, const char *name)
{
    const csv_row *head = &doc->rows[0], *r = &doc->rows[row];
    for (size_t i = 0; i < head->nfields && i < r->nfields; i++)
        if (strcmp(head->fields[i].text, name) == 0)
            return r->fields[i].column;
    return 1;
}

/* One row of campaign.csv into out; a problem goes to d. */
static void apply_row(const csv_doc *doc, size_t row, const char *file, const column_spec *runs,
                      campaign_settings *out, diag_list *d)
{
    const csv_row *r = &doc->rows[row];
    const char *setting = NULL, *value = NULL;
    for (size_t i = 0; i < doc->rows[0].nfields && i < r->nfields; i++) {
        if (strcmp(doc->rows[0].fields[i].text, "setting") == 0)
            setting = r->fields[i].text;
        else if (strcmp(doc->rows[0].fields[i].text, "value") == 0)
            value = r->fields[i].text;
    }
    if (!setting || !value || !*setting || !*value)
        return; /* the schema reports the missing cell */
    while (isspace((unsigned char)*value))
        value++;
    size_t vlen = strlen(value);
    while (vlen > 0 && isspace((unsigned char)value[vlen - 1]))
        vlen--;
    if (strcmp(setting, "procs") != 0) {
        diag_add(d, file, r->line, field_column(doc, row, "setting"),
                 "unknown setting '%s' (expected procs)", setting);
        return;
    }
    if (out->procs) {
        diag_add(d, file, r->line, field_column(doc, row, "setting"),
                 "the setting procs is given twice (expected it once)");
        return;
    }
    char *name = strndup(value, vlen);
    const char *why = name ? procs_problem(name, runs) : "out of memory";
    if (why) {
        diag_add(d, file, r->line, field_column(doc, row, "value"),
                 "procs '%s' %s", name ? name : value, why);
        free(name);
        return;
    }
    out->procs = name;
}

bool campaign_settings_load(const char *root, const char *dir, const column_spec *runs,
                            campaign_settings *out, diag_list *d)
{
    memset(out, 0, sizeof *out);
    char *path = fileio_join(dir, "campaign.csv");
    struct stat st;
    if (!path || stat(path, &st) != 0) {
        free(path);
        return true; /* optional: np it is */
    }
    size_t before = d->count;
    csv_doc doc;
    table t;
    table_init(&t);
    schema s = {.file = path, .specs = setting_columns, .allow_no_rows = true};
    if (csv_read_file_inside(root, path, path, &doc, d)) {
        if (schema_load_table(&doc, &s, &t, d))
            for (size_t row = 1; row < doc.nrows; row++)
                apply_row(&doc, row, path, runs, out, d);
        csv_doc_free(&doc);
    }
    table_free(&t);
    free(path);
    return d->count == before;
}

void campaign_settings_free(campaign_settings *s)
{
    free(s->procs);
    s->procs = NULL;
}

column_spec *campaign_settings_run_columns(const column_spec *base, const campaign_settings *s)
{
    size_t n = 0;
    while (base[n].name)
        n++;
    column_spec *out = malloc((n + 1) * sizeof *out);
    if (!out)
        return NULL;
    memcpy(out, base, (n + 1) * sizeof *out);
    for (size_t i = 0; s->procs && i < n; i++) {
        if (strcmp(out[i].name, "np") == 0)
            out[i].name = s->procs;
    }
    return out;
}

void campaign_mark_response(table *runs, const char *response)
{
    size_t len;
    for (const char *s = response; (s = experiment_response_next(s, &len)); s += len) {
        char *name = strndup(s, len);
        int col = name ? table_find(runs, name) : -1;
        if (col >= 0 && runs->cols[col].kind == COL_NUMBER)
            runs->cols[col].result = true;
        free(name);
    }
}
