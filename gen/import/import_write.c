/*
 * import_write.c — merging imported rows into an archive campaign (see
 * import.h for the rules: rows appended never changed, files replaced
 * atomically when their header grows).
 */
#include "gen/import/import.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/base/csvread.h"
#include "gen/base/fileio.h"
#include "gen/base/textout.h"
#include "gen/import/import_lines.h"
#include "gen/ingest/campaign_settings.h"

/* A CSV file as loaded for merging: its header and rows as plain text. */
typedef struct {
    bool exists;
    char **header;
    size_t ncols;
    char ***rows; /* rows[r][c], "" when empty; every row has ncols cells */
    size_t nrows;
    bool ends_with_newline;
} csv_text;

static void csv_text_free(csv_text *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++)
            free(t->rows[r][c]);
        free(t->rows[r]);
    }
    free(t->rows);
    for (size_t c = 0; c < t->ncols; c++)
        free(t->header[c]);
    free(t->header);
    memset(t, 0, sizeof *t);
}

static long header_index(const csv_text *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->header[c], name) == 0)
            return (long)c;
    return -1;
}

static char **copy_fields(const csv_row *row, size_t n)
{
    char **cells = calloc(n ? n : 1, sizeof *cells);
    for (size_t c = 0; cells && c < n; c++) {
        cells[c] = strdup(c < row->nfields ? row->fields[c].text : "");
        if (!cells[c]) {
            for (size_t k = 0; k < c; k++)
                free(cells[k]);
            free(cells);
            return NULL;
        }
    }
    return cells;
}

/* Load path when it exists; a file that exists but does not parse is a
 * problem (import never rewrites a file it cannot read). */
static bool csv_text_load(const char *path, csv_text *out, diag_list *diags)
{
    memset(out, 0, sizeof *out);
    struct stat st;
    if (stat(path, &st) != 0)
        return errno == ENOENT || (diag_add(diags, path, 0, 0, "%s", strerror(errno)), false);
    out->exists = true;
    size_t before = diags->count;
    csv_doc doc;
    bool ok = csv_read_file(path, path, &doc, diags) && diags->count == before && doc.nrows > 0;
    if (ok) {
        out->ncols = doc.rows[0].nfields;
        out->header = copy_fields(&doc.rows[0], out->ncols);
        out->rows = calloc(doc.nrows, sizeof *out->rows);
        ok = out->header && out->rows;
        for (size_t r = 1; ok && r < doc.nrows; r++) {
            ok = (out->rows[out->nrows] = copy_fields(&doc.rows[r], out->ncols)) != NULL;
            out->nrows += ok;
        }
        if (!ok)
            diag_add(diags, path, 0, 0, "out of memory");
    } else if (diags->count == before) {
        diag_add(diags, path, 0, 0, "no header line; fix or remove the file before importing");
    }
    csv_doc_free(&doc);
    size_t len = 0;
    char *data = ok ? fileio_read_file(path, &len) : NULL;
    out->ends_with_newline = data && len > 0 && data[len - 1] == '\n';
    free(data);
    return ok;
}

static bool add_header(csv_text *t, const char *name)
{
    if (header_index(t, name) >= 0)
        return true;
    char **more = realloc(t->header, (t->ncols + 1) * sizeof *more);
    if (!more)
        return false;
    t->header = more;
    return (t->header[t->ncols++] = strdup(name)) != NULL;
}

static void write_row(FILE *f, char *const *cells, size_t n)
{
    for (size_t c = 0; c < n; c++) {
        if (c)
            fputc(',', f);
        textout_csv_text(f, cells[c] && *cells[c] ? cells[c] : NULL);
    }
    fputc('\n', f);
}

/* Write header + rows to path through a temporary file and rename. */
static bool write_atomically(const char *path, const csv_text *t, char ***extra, size_t nextra,
                             diag_list *diags)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp)
        return false;
    snprintf(tmp, n, "%s.import-tmp", path);
    FILE *f = fopen(tmp, "w");
    bool ok = f != NULL;
    if (ok) {
        write_row(f, t->header, t->ncols);
        for (size_t r = 0; r < t->nrows; r++)
            write_row(f, t->rows[r], t->ncols);
        for (size_t r = 0; r < nextra; r++)
            write_row(f, extra[r], t->ncols);
        ok = fflush(f) == 0 && !ferror(f);
        ok = (fclose(f) == 0) && ok;
    }
    ok = ok && rename(tmp, path) == 0;
    if (!ok) {
        diag_add(diags, path, 0, 0, "cannot write: %s", strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return ok;
}

/* Append rows to an existing file whose header is unchanged. */
static bool append_rows(const char *path, const csv_text *t, char ***rows, size_t n,
                        diag_list *diags)
{
    FILE *f = fopen(path, "a");
    bool ok = f != NULL;
    if (ok) {
        if (!t->ends_with_newline)
            fputc('\n', f);
        for (size_t r = 0; r < n; r++)
            write_row(f, rows[r], t->ncols);
        ok = fflush(f) == 0 && !ferror(f);
        ok = (fclose(f) == 0) && ok;
    }
    if (!ok)
        diag_add(diags, path, 0, 0, "cannot append: %s", strerror(errno));
    return ok;
}

/* Add rows to the file: append when the header did not grow, else rewrite. */
static bool store_rows(const char *path, const csv_text *t, size_t old_ncols, char ***rows,
                       size_t n, diag_list *diags)
{
    if (t->exists && t->ncols == old_ncols)
        return n == 0 || append_rows(path, t, rows, n, diags);
    return write_atomically(path, t, rows, n, diags);
}

static void free_cells(char **cells, size_t ncols)
{
    for (size_t c = 0; cells && c < ncols; c++)
        free(cells[c]);
    free(cells);
}

static void free_row_list(char ***rows, size_t n, size_t ncols)
{
    for (size_t r = 0; r < n; r++)
        free_cells(rows[r], ncols);
    free(rows);
}

/* ------------------------------------------------------------------ */
/* checks                                                              */

static bool name_is_safe(const char *s)
{
    if (!*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
        return false;
    for (; *s; s++)
        if (*s == '/' || *s == '\\' || (unsigned char)*s < 0x20)
            return false;
    return true;
}

static bool check_rows(const import_request *req, const import_rows *rows, diag_list *diags)
{
    if (rows->nrows == 0) {
        diag_add(diags, req->campaign, 0, 0, "nothing to import: the files hold no runs");
        return false;
    }
    for (size_t r = 0; r < rows->nrows; r++) {
        const char *np = import_rows_get(rows, r, "np");
        double v;
        if (!np || !import_number(np, &v) || v < 1 || v != floor(v)) {
            diag_add(diags, req->campaign, 0, 0,
                     "imported run %zu has no whole process count np >= 1 (got '%s'); "
                     "name the source column with --map SOURCE=np", r + 1, np ? np : "");
            return false;
        }
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* clusters.csv                                                        */

static const char *row_cluster(const import_request *req, const import_rows *rows, size_t r)
{
    const char *c = import_rows_get(rows, r, "cluster");
    return c ? c : req->cluster ? req->cluster : "imported";
}

static bool ensure_clusters(const import_request *req, const import_rows *rows, diag_list *diags)
{
    char *path = fileio_join(req->archive, "clusters.csv");
    csv_text t = {0};
    bool ok = path && csv_text_load(path, &t, diags);
    size_t old_ncols = t.ncols;
    if (ok && !t.exists)
        ok = add_header(&t, "cluster") && add_header(&t, "description");
    long name_col = ok ? header_index(&t, "cluster") : -1;
    long descr_col = ok ? header_index(&t, "description") : -1;
    if (ok && name_col < 0) {
        diag_add(diags, path, 1, 1, "no 'cluster' column");
        ok = false;
    }
    char ***added = NULL;
    size_t nadded = 0;
    for (size_t r = 0; ok && r < rows->nrows; r++) {
        const char *name = row_cluster(req, rows, r);
        bool known = false;
        for (size_t k = 0; !known && k < t.nrows; k++)
            known = strcmp(t.rows[k][name_col], name) == 0;
        for (size_t k = 0; !known && k < nadded; k++)
            known = strcmp(added[k][name_col], name) == 0;
        if (known)
            continue;
        char ***more = realloc(added, (nadded + 1) * sizeof *more);
        char **cells = calloc(t.ncols, sizeof *cells);
        ok = more && cells;
        if (more)
            added = more;
        for (size_t c = 0; ok && c < t.ncols; c++)
            ok = (cells[c] = strdup((long)c == name_col ? name
                                    : (long)c == descr_col ? "added by perfcast import; fill in "
                                                              "cores, rates and bandwidths"
                                    : "")) != NULL;
        if (ok)
            added[nadded++] = cells;
        else if (cells)
            free_cells(cells, t.ncols);
    }
    ok = ok && (nadded == 0 || store_rows(path, &t, old_ncols, added, nadded, diags));
    free_row_list(added, nadded, t.ncols);
    csv_text_free(&t);
    free(path);
    return ok;
}

/* ------------------------------------------------------------------ */
/* runs.csv                                                            */

/* The imported value of row r for column name of the campaign, whose
 * process count is called procs (campaign.csv): the importers call it np. */
static const char *imported_value(const import_request *req, const import_rows *rows, size_t r,
                                  const char *name, const char *procs)
{
    if (strcmp(name, "cluster") == 0)
        return row_cluster(req, rows, r);
    if (strcmp(name, procs) == 0)
        return import_rows_get(rows, r, "np");
    if (strcmp(name, "np") == 0)
        return NULL; /* an ordinary parameter of this campaign, not ours */
    return import_rows_get(rows, r, name);
}

/* Cells of imported row r in the order of header t (copies, "" for empty). */
static char **imported_cells(const import_request *req, const import_rows *rows, size_t r,
                             const csv_text *t, const char *procs)
{
    char **cells = calloc(t->ncols ? t->ncols : 1, sizeof *cells);
    for (size_t c = 0; cells && c < t->ncols; c++) {
        const char *v = imported_value(req, rows, r, t->header[c], procs);
        if (!(cells[c] = strdup(v ? v : ""))) {
            free_cells(cells, c);
            return NULL;
        }
    }
    return cells;
}

static bool same_row(char *const *a, char *const *b, size_t n)
{
    for (size_t c = 0; c < n; c++)
        if (strcmp(a[c], b[c]) != 0)
            return false;
    return true;
}

/* Old rows get "" in the columns the header gained. */
static bool widen_rows(csv_text *t, size_t old_ncols)
{
    for (size_t r = 0; r < t->nrows && t->ncols > old_ncols; r++) {
        char **cells = realloc(t->rows[r], t->ncols * sizeof *cells);
        if (!cells)
            return false;
        t->rows[r] = cells;
        for (size_t c = old_ncols; c < t->ncols; c++)
            if (!(cells[c] = strdup("")))
                return false;
    }
    return true;
}

static long merge_runs(const import_request *req, const import_rows *rows, const char *dir,
                       const char *procs, diag_list *diags)
{
    char *path = fileio_join(dir, "runs.csv");
    csv_text t = {0};
    bool ok = path && csv_text_load(path, &t, diags);
    size_t old_ncols = t.ncols;
    /* The columns runs.csv requires come first in a new file (time_s only
     * when the rows have it: an experiment may predict another column). */
    const char *const required[] = {"cluster", procs};
    for (size_t i = 0; ok && i < sizeof required / sizeof required[0]; i++)
        ok = add_header(&t, required[i]);
    for (size_t c = 0; ok && c < rows->ncols; c++)
        if (strcmp(rows->names[c], "np") != 0) /* the process count: required[1] */
            ok = add_header(&t, rows->names[c]);
    /* Old rows keep their cells; they only gain empty ones. */
    ok = ok && widen_rows(&t, old_ncols);
    char ***fresh = calloc(rows->nrows ? rows->nrows : 1, sizeof *fresh);
    size_t nfresh = 0;
    ok = ok && fresh;
    for (size_t r = 0; ok && r < rows->nrows; r++) {
        char **cells = imported_cells(req, rows, r, &t, procs);
        ok = cells != NULL;
        bool seen = false;
        for (size_t k = 0; ok && !seen && k < t.nrows; k++)
            seen = same_row(t.rows[k], cells, t.ncols);
        if (ok && !seen)
            fresh[nfresh++] = cells;
        else
            free_cells(cells, t.ncols);
    }
    if (!ok)
        diag_add(diags, dir, 0, 0, "out of memory");
    ok = ok && store_rows(path, &t, old_ncols, fresh, nfresh, diags);
    free_row_list(fresh, nfresh, t.ncols);
    csv_text_free(&t);
    free(path);
    return ok ? (long)nfresh : -1;
}

/* ------------------------------------------------------------------ */
/* experiments.csv                                                     */

/* Distinct process counts among rows that measured column, and the largest. */
static size_t distinct_np(const import_rows *rows, const char *column, double *largest)
{
    double seen[64];
    size_t n = 0;
    *largest = 0;
    for (size_t r = 0; r < rows->nrows; r++) {
        double np;
        if (!import_rows_get(rows, r, column) || !import_number(import_rows_get(rows, r, "np"), &np))
            continue;
        bool known = false;
        for (size_t k = 0; k < n && !known; k++)
            known = seen[k] == np;
        if (!known && n < 64)
            seen[n++] = np;
        if (np > *largest)
            *largest = np;
    }
    return n;
}

/* The default experiment of one response column: its values in the order
 * of keys below. Time ~ a + b/np (Amdahl's form) for every response: with
 * three or more process counts the largest is held out as the target, so
 * the page shows an error measured on a run the fit did not see; with two
 * every run is both trained on and predicted; with one there is nothing to
 * scale and the fit is the mean (np is aliased with the intercept). */
static void default_experiment(const import_request *req, const import_rows *rows,
                               const char *response, const char *procs, char values[8][256])
{
    double largest;
    size_t k = distinct_np(rows, response, &largest);
    if (strcmp(response, "time_s") == 0)
        snprintf(values[0], 256, "scaling");
    else
        snprintf(values[0], 256, "scaling-%s", response);
    snprintf(values[1], 256, "scopred");
    snprintf(values[2], 256, "%s", response);
    snprintf(values[3], 256, "%s%s", k >= 2 ? "1/" : "", procs);
    if (k >= 3) {
        snprintf(values[4], 256, "%s < %.17g", procs, largest);
        snprintf(values[5], 256, "%s == %.17g", procs, largest);
    } else {
        values[4][0] = '\0';
        snprintf(values[5], 256, "%s >= 1", procs);
    }
    snprintf(values[6], 256, "%s against the process count (imported from %s)", response,
             req->format);
    values[7][0] = '\0';
}

static const char *const keys[8] = {"name", "model", "response", "formula",
                                    "train", "target", "title", "options"};

static bool merge_experiments(const import_request *req, const import_rows *rows,
                              const char *dir, const char *procs, diag_list *diags)
{
    char *path = fileio_join(dir, "experiments.csv");
    csv_text t = {0};
    bool ok = path && csv_text_load(path, &t, diags);
    size_t old_ncols = t.ncols;
    for (size_t i = 0; ok && !t.exists && i < 8; i++)
        ok = add_header(&t, keys[i]);
    long name_col = ok ? header_index(&t, "name") : -1;
    if (ok && name_col < 0) {
        diag_add(diags, path, 1, 1, "no 'name' column");
        ok = false;
    }
    char ***added = calloc(rows->nresponses + 1, sizeof *added);
    size_t nadded = 0;
    ok = ok && added;
    for (size_t i = 0; ok && i < rows->nresponses; i++) {
        char values[8][256];
        default_experiment(req, rows, rows->responses[i], procs, values);
        bool known = false;
        for (size_t r = 0; r < t.nrows && !known; r++)
            known = strcmp(t.rows[r][name_col], values[0]) == 0;
        if (known)
            continue;
        char **cells = calloc(t.ncols, sizeof *cells);
        ok = cells != NULL;
        for (size_t c = 0; ok && c < t.ncols; c++) {
            const char *v = "";
            for (size_t k = 0; k < 8; k++)
                if (strcmp(t.header[c], keys[k]) == 0)
                    v = values[k];
            ok = (cells[c] = strdup(v)) != NULL;
        }
        if (ok)
            added[nadded++] = cells;
        else if (cells)
            free_cells(cells, t.ncols);
    }
    ok = ok && (nadded == 0 && t.exists ? true
                                        : store_rows(path, &t, old_ncols, added, nadded, diags));
    free_row_list(added, nadded, t.ncols);
    csv_text_free(&t);
    free(path);
    return ok;
}

/* ------------------------------------------------------------------ */
/* README.md                                                           */

static bool write_readme(const import_request *req, const import_rows *rows, const char *dir,
                         const char *source, long added, diag_list *diags)
{
    char *path = fileio_join(dir, "README.md");
    if (!path)
        return false;
    struct stat st;
    bool fresh = stat(path, &st) != 0;
    FILE *f = fopen(path, fresh ? "w" : "a");
    if (!f) {
        diag_add(diags, path, 0, 0, "cannot write: %s", strerror(errno));
        free(path);
        return false;
    }
    if (fresh)
        fprintf(f, "# %s\n\nRuns imported with `perfcast import %s`.\n", req->campaign,
                req->format);
    fprintf(f, "\n- %ld run%s from %s (%s).\n", added, added == 1 ? "" : "s", source, req->format);
    for (size_t i = 0; i < rows->nnotes; i++)
        fprintf(f, "  %s\n", rows->notes[i]);
    bool ok = fclose(f) == 0;
    if (!ok)
        diag_add(diags, path, 0, 0, "cannot write: %s", strerror(errno));
    free(path);
    return ok;
}

long import_write_campaign(const import_request *req, const import_rows *rows,
                           const char *source, diag_list *diags)
{
    if (!name_is_safe(req->campaign)) {
        diag_add(diags, req->campaign, 0, 0,
                 "not a usable campaign name (it names a folder: no '/', not '.' or '..')");
        return -1;
    }
    if (!check_rows(req, rows, diags))
        return -1;
    char *dir = fileio_join(req->archive, req->campaign);
    if (!dir)
        return -1;
    bool ok = (mkdir(req->archive, 0777) == 0 || errno == EEXIST) &&
              (mkdir(dir, 0777) == 0 || errno == EEXIST);
    if (!ok)
        diag_add(diags, dir, 0, 0, "cannot create: %s", strerror(errno));
    ok = ok && ensure_clusters(req, rows, diags);
    /* Extending a campaign whose process count has its own name
     * (campaign.csv) writes the rows' np under that name. */
    campaign_settings settings = {0};
    ok = ok && campaign_settings_load(req->archive, dir, NULL, &settings, diags);
    const char *procs = settings.procs ? settings.procs : "np";
    long added = ok ? merge_runs(req, rows, dir, procs, diags) : -1;
    ok = added >= 0 && merge_experiments(req, rows, dir, procs, diags);
    ok = ok && (added == 0 || write_readme(req, rows, dir, source, added, diags));
    campaign_settings_free(&settings);
    free(dir);
    return ok ? added : -1;
}
