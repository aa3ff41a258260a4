/*
 * import_write.c — merging imported rows into an archive campaign, all or
 * nothing (import.h states the rules).
 *
 * Every file the import changes (clusters.csv, runs.csv, experiments.csv,
 * README.md) is built whole in memory first, then staged with its
 * campaign.csv beside it in a staging folder that is itself a small
 * archive, and that archive is loaded with the archive reader: the same
 * checks `perfcast check` makes on every cell, filter and formula. Only
 * when it loads without a problem are the files renamed into place
 * (gen/import/import_txn.h: locked, link-safe, atomic). A refused import
 * writes nothing.
 */
#include "gen/import/import.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/csvread.h"
#include "gen/base/fileio.h"
#include "gen/import/import_csvtext.h"
#include "gen/base/textout.h"
#include "gen/import/import_experiments.h"
#include "gen/import/import_lines.h"
#include "gen/import/import_rowset.h"
#include "gen/import/import_txn.h"
#include "gen/ingest/archive.h"
#include "gen/ingest/campaign_settings.h"

/* The files of one import, built in memory, in the order they are
 * committed: clusters.csv first (runs name its clusters), runs.csv before
 * experiments.csv (experiments name its columns), README.md last. A kill
 * between two renames leaves an archive that loads. */
enum { F_CLUSTERS, F_RUNS, F_EXPERIMENTS, F_README, F_SETTINGS, NFILES };
static const char *const file_names[NFILES] = {"clusters.csv", "runs.csv", "experiments.csv",
                                               "README.md", "campaign.csv"};

typedef struct {
    rbuf text[NFILES];
    bool changed[NFILES]; /* to commit; the others are staged only to validate */
    bool present[NFILES]; /* to stage at all */
} import_files;

/* ------------------------------------------------------------------ */
/* Checks                                                              */

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

/* The cluster of rows whose source names none. */
static const char *default_cluster(const import_request *req)
{
    return req->cluster ? req->cluster : "imported";
}

static const char *row_cluster(const import_request *req, const import_rows *rows, size_t r)
{
    const char *c = import_rows_get(rows, r, "cluster");
    return c ? c : default_cluster(req);
}

/* Whether clusters.csv (t) has a row whose cluster is name. */
static bool knows_cluster(const csv_text *t, long name_col, const char *name)
{
    for (size_t k = 0; k < t->nrows; k++)
        if (strcmp(t->rows[k][name_col], name) == 0)
            return true;
    return false;
}

/* Every cluster the rows name that clusters.csv lacks, appended to t. */
static bool merge_clusters(const import_request *req, const import_rows *rows, csv_text *t,
                           bool *changed, const char *path, diag_list *diags)
{
    bool ok = t->exists || (csv_text_add_column(t, "cluster") &&
                            csv_text_add_column(t, "description"));
    long name_col = csv_text_column(t, "cluster"), descr_col = csv_text_column(t, "description");
    if (ok && name_col < 0) {
        diag_add(diags, path, 1, 1, "no 'cluster' column");
        return false;
    }
    *changed = !t->exists;
    for (size_t r = 0; ok && r < rows->nrows; r++) {
        const char *name = row_cluster(req, rows, r);
        if (knows_cluster(t, name_col, name))
            continue;
        char **cells = csv_text_blank_row(t->ncols);
        ok = cells && csv_text_set_cell(cells, (size_t)name_col, name) &&
             (descr_col < 0 ||
              csv_text_set_cell(cells, (size_t)descr_col,
                                "added by perfcast import; fill in cores, rates and bandwidths"));
        if (ok)
            ok = csv_text_add_row(t, cells);
        else
            csv_text_free_row(cells, t->ncols);
        *changed = true;
    }
    return ok;
}

/* ------------------------------------------------------------------ */
/* runs.csv                                                            */

/* Merging into runs.csv, streamed: the old file's rows are read one at a
 * time and written straight into the new text, then the imported rows,
 * each unless the same line is there already (import_rowset). No cell is
 * copied but into that text; the default experiments' groups are counted
 * on the way (import_groups). */
typedef struct {
    const import_request *req;
    const import_rows *rows;
    const char *procs;
    char **header;           /* the new file's columns: the old ones, then the new */
    size_t ncols, old_ncols;
    const char **cells;      /* scratch: one row's cells in header order */
    rbuf *out;               /* the new runs.csv */
    rbuf line;               /* scratch: one imported row's line */
    rbuf canon;              /* every kept row's line with its numbers made
                                canonical (2.0, 2e0 -> 2): what seen indexes */
    rbuf canon_line;         /* scratch: one row's canonical line */
    const char **canon_cells; /* scratch: its cells */
    char (*numbers)[32];     /* scratch: their canonical number texts */
    import_rowset seen;
    import_groups *groups;
    bool started;            /* the header is written */
    long added;
} runs_merge;

static bool add_header_name(runs_merge *m, const char *name)
{
    for (size_t c = 0; c < m->ncols; c++)
        if (strcmp(m->header[c], name) == 0)
            return true;
    char **more = realloc(m->header, (m->ncols + 1) * sizeof *more);
    if (!more)
        return false;
    m->header = more;
    return (m->header[m->ncols++] = strdup(name)) != NULL;
}

/* The header: the old file's columns (when there is one), then cluster and
 * the process count (a new file starts with them: runs.csv requires them),
 * then the imported columns. Written, and the groups started over it. */
static bool start_runs(runs_merge *m, const csv_row *old_header)
{
    bool ok = true;
    for (size_t c = 0; ok && old_header && c < old_header->nfields; c++)
        ok = add_header_name(m, old_header->fields[c].text);
    m->old_ncols = m->ncols;
    ok = ok && add_header_name(m, "cluster") && add_header_name(m, m->procs);
    for (size_t c = 0; ok && c < m->rows->ncols; c++)
        if (strcmp(m->rows->names[c], "np") != 0) /* the process count: procs */
            ok = add_header_name(m, m->rows->names[c]);
    ok = ok && (m->cells = calloc(m->ncols ? m->ncols : 1, sizeof *m->cells)) &&
         (m->canon_cells = calloc(m->ncols ? m->ncols : 1, sizeof *m->canon_cells)) &&
         (m->numbers = calloc(m->ncols ? m->ncols : 1, sizeof *m->numbers)) &&
         csv_text_put_row(m->out, (const char *const *)m->header, m->ncols) &&
         (m->groups = import_groups_new(m->header, m->ncols, m->procs, m->rows->responses,
                                        m->rows->nresponses));
    m->started = true;
    return ok;
}

/* m->cells as a line whose numbers are in one canonical text (the
 * shortest that reads back as the same double), into m->canon_line: a
 * row is already there when its cells are equal as numbers (2.0, 2, 2e0;
 * 0.50, 5e-1), not only as text. */
static bool canonical_line(runs_merge *m)
{
    double v;
    for (size_t c = 0; c < m->ncols; c++) {
        m->canon_cells[c] = m->cells[c];
        if (m->cells[c][0] && import_number(m->cells[c], &v)) {
            textout_shortest_number(m->numbers[c], sizeof m->numbers[c], v == 0 ? 0 : v);
            m->canon_cells[c] = m->numbers[c];
        }
    }
    rbuf_clear(&m->canon_line);
    return csv_text_put_row(&m->canon_line, m->canon_cells, m->ncols);
}

/* Whether a row equal to m->cells (as canonical_line compares them) is
 * kept already; m->canon_line holds its canonical line after. */
static bool already_kept(runs_merge *m, bool *kept)
{
    if (!canonical_line(m))
        return false;
    *kept = import_rowset_has(&m->seen, rbuf_str(&m->canon), m->canon.len,
                              rbuf_str(&m->canon_line), m->canon_line.len);
    return true;
}

/* Write the line of cells at the end of the new text and remember it
 * (m->canon_line: its canonical line, from already_kept). */
static bool keep_line(runs_merge *m, const char *text, size_t len)
{
    size_t at = m->canon.len;
    return rbuf_put(m->out, text, len) && !m->out->oom &&
           rbuf_put(&m->canon, rbuf_str(&m->canon_line), m->canon_line.len) && !m->canon.oom &&
           import_rowset_add(&m->seen, rbuf_str(&m->canon), m->canon.len, at,
                             m->canon_line.len) &&
           import_groups_add(m->groups, m->cells);
}

/* csv_row_fn over the old runs.csv: its header, then each row as it was,
 * widened with empty cells for the columns the import adds. */
static bool old_row(void *ctx, const csv_row *row)
{
    runs_merge *m = ctx;
    if (!m->started)
        return start_runs(m, row);
    for (size_t c = 0; c < m->ncols; c++)
        m->cells[c] = c < m->old_ncols && c < row->nfields ? row->fields[c].text : "";
    rbuf_clear(&m->line);
    return csv_text_put_row(&m->line, m->cells, m->ncols) && canonical_line(m) &&
           keep_line(m, rbuf_str(&m->line), m->line.len);
}

/* Where each column of the new file takes its imported value from: the
 * rows' column index, or one of these. The campaign's process count
 * (campaign.csv may call it otherwise) is the importers' np; a column np
 * of such a campaign is an ordinary parameter, not ours. */
enum { FROM_NONE = -1, FROM_CLUSTER = -2 };

static long source_of(const runs_merge *m, const char *name)
{
    if (strcmp(name, "cluster") == 0)
        return FROM_CLUSTER;
    if (strcmp(name, m->procs) == 0)
        return import_rows_column(m->rows, "np");
    if (strcmp(name, "np") == 0)
        return FROM_NONE; /* an ordinary parameter of this campaign, not ours */
    long c = import_rows_column(m->rows, name);
    return c >= 0 ? c : FROM_NONE;
}

/* The imported rows, each unless its line is there already. */
static bool new_rows(runs_merge *m)
{
    long *from = malloc((m->ncols ? m->ncols : 1) * sizeof *from);
    const char **got = malloc((m->rows->ncols ? m->rows->ncols : 1) * sizeof *got);
    bool ok = from && got;
    for (size_t c = 0; ok && c < m->ncols; c++)
        from[c] = source_of(m, m->header[c]);
    long cluster = import_rows_column(m->rows, "cluster");
    for (size_t r = 0; ok && r < m->rows->nrows; r++) {
        import_rows_cells(m->rows, r, got);
        for (size_t c = 0; c < m->ncols; c++) {
            const char *v = from[c] >= 0              ? got[from[c]]
                            : from[c] == FROM_CLUSTER ? (cluster >= 0 && got[cluster]
                                                             ? got[cluster]
                                                             : default_cluster(m->req))
                                                      : NULL;
            m->cells[c] = v ? v : "";
        }
        rbuf_clear(&m->line);
        bool kept = false;
        ok = csv_text_put_row(&m->line, m->cells, m->ncols) && already_kept(m, &kept);
        if (ok && !kept) {
            ok = keep_line(m, rbuf_str(&m->line), m->line.len);
            m->added++;
        }
    }
    free(from);
    free(got);
    return ok;
}

/* Room for the old file's len bytes of data and the imported rows, in the
 * text and in the row set, before either grows: growing holds the old and
 * the new memory at once, and with a million rows that is the peak. */
static bool reserve(runs_merge *m, const char *data, size_t len)
{
    size_t lines = 0, text = len;
    for (const char *p = data; p && (p = memchr(p, '\n', len - (size_t)(p - data))); p++)
        lines++;
    text += import_rows_text_bytes(m->rows);
    return rbuf_reserve(m->out, text + m->rows->nrows + 1024) &&
           rbuf_reserve(&m->canon, text + m->rows->nrows + 1024) &&
           import_rowset_reserve(&m->seen, rbuf_str(&m->canon), m->canon.len,
                                 lines + m->rows->nrows);
}

/* Read the old runs.csv at path (when there is one) into the merge. An
 * old file that does not parse is a problem: import never rewrites a file
 * it cannot read. */
static bool merge_old_runs(runs_merge *m, const char *path, bool *existed, diag_list *diags)
{
    size_t len = 0, before = diags->count;
    char *data = fileio_read_file(path, &len);
    *existed = data != NULL;
    if (!data)
        return errno == ENOENT || (diag_add(diags, path, 0, 0, "cannot read: %s",
                                            strerror(errno)), false);
    bool ok = reserve(m, data, len) && csv_parse_rows(data, len, path, old_row, m, diags) &&
              diags->count == before;
    free(data);
    if (ok && !m->started) {
        diag_add(diags, path, 0, 0, "no header line; fix or remove the file before importing");
        ok = false;
    }
    return ok;
}

static void runs_merge_free(runs_merge *m)
{
    for (size_t c = 0; c < m->ncols; c++)
        free(m->header[c]);
    free(m->header);
    free(m->cells);
    free(m->canon_cells);
    free(m->numbers);
    rbuf_free(&m->line);
    rbuf_free(&m->canon);
    rbuf_free(&m->canon_line);
    import_rowset_free(&m->seen);
    import_groups_free(m->groups);
}

/* ------------------------------------------------------------------ */
/* README.md                                                           */

/* The README as it was (or a new one) with a line saying what was added. */
static bool build_readme(const import_request *req, const import_rows *rows, const char *dir,
                         const char *source, long added, rbuf *out, bool *changed)
{
    char *path = fileio_join(dir, "README.md");
    size_t len = 0;
    char *old = path ? fileio_read_file(path, &len) : NULL;
    free(path);
    *changed = old == NULL || added > 0;
    if (old) {
        rbuf_put(out, old, len);
        if (len && old[len - 1] != '\n')
            rbuf_putc(out, '\n');
    } else {
        rbuf_printf(out, "# %s\n\nRuns imported with `perfcast import %s`.\n", req->campaign,
                    req->format);
    }
    free(old);
    if (added > 0) {
        rbuf_printf(out, "\n- %ld run%s from %s (%s).\n", added, added == 1 ? "" : "s", source,
                    req->format);
        for (size_t i = 0; i < rows->nnotes; i++)
            rbuf_printf(out, "  %s\n", rows->notes[i]);
    }
    return !out->oom;
}

/* ------------------------------------------------------------------ */
/* Building, validating, committing                                    */

/* runs.csv's new text into f, and the groups of its rows for the default
 * experiments (*groups, the caller's to free). The number of rows added,
 * -1 on a problem (in diags). */
static long build_runs(const import_request *req, const import_rows *rows, const char *dir,
                       const char *procs, import_files *f, import_groups **groups,
                       diag_list *diags)
{
    char *path = fileio_join(dir, "runs.csv");
    runs_merge m = {.req = req, .rows = rows, .procs = procs, .out = &f->text[F_RUNS]};
    rbuf_init(&m.line);
    rbuf_init(&m.canon);
    rbuf_init(&m.canon_line);
    import_rowset_init(&m.seen);
    bool existed = false;
    bool ok = path && merge_old_runs(&m, path, &existed, diags) &&
              (existed || reserve(&m, NULL, 0)) && (m.started || start_runs(&m, NULL)) &&
              new_rows(&m);
    if (!ok && diags->count == 0)
        diag_add(diags, dir, 0, 0, "out of memory");
    f->changed[F_RUNS] = m.added > 0 || !existed;
    *groups = m.groups;
    m.groups = NULL;
    runs_merge_free(&m);
    free(path);
    return ok ? m.added : -1;
}

/* Every file's new text (and whether it changes). Returns the number of
 * runs added, -1 on a problem (in diags). */
static long build_files(const import_request *req, import_rows *rows, const char *dir,
                        const char *procs, const char *source, import_files *f, diag_list *diags)
{
    char *clusters_path = fileio_join(req->archive, "clusters.csv");
    char *exps_path = fileio_join(dir, "experiments.csv");
    csv_text clusters = {0}, exps = {0};
    import_groups *groups = NULL;
    bool ok = clusters_path && exps_path && csv_text_load(clusters_path, &clusters, diags) &&
              csv_text_load(exps_path, &exps, diags);
    ok = ok && merge_clusters(req, rows, &clusters, &f->changed[F_CLUSTERS], clusters_path, diags);
    long added = ok ? build_runs(req, rows, dir, procs, f, &groups, diags) : -1;
    bool exps_changed = false;
    ok = added >= 0 && import_default_experiments(req, rows, groups, procs, &exps, &exps_changed,
                                                  exps_path, diags);
    /* Like clusters.csv: changed when new, or when its rows changed. */
    f->changed[F_EXPERIMENTS] = ok && (!exps.exists || exps_changed);
    ok = ok && csv_text_serialize(&clusters, &f->text[F_CLUSTERS]) &&
         csv_text_serialize(&exps, &f->text[F_EXPERIMENTS]) &&
         build_readme(req, rows, dir, source, added, &f->text[F_README], &f->changed[F_README]);
    f->present[F_CLUSTERS] = f->present[F_RUNS] = f->present[F_EXPERIMENTS] =
        f->present[F_README] = ok;
    if (!ok && added >= 0 && diags->count == 0)
        diag_add(diags, dir, 0, 0, "out of memory");
    import_groups_free(groups);
    csv_text_free(&clusters);
    csv_text_free(&exps);
    free(clusters_path);
    free(exps_path);
    return ok ? added : -1;
}

/* campaign.csv as it is, staged so that the validation reads the same
 * process-count column; never committed. */
static bool copy_settings(const char *dir, import_files *f)
{
    char *path = fileio_join(dir, "campaign.csv");
    size_t len = 0;
    char *old = path ? fileio_read_file(path, &len) : NULL;
    free(path);
    f->present[F_SETTINGS] = old != NULL;
    bool ok = !old || rbuf_put(&f->text[F_SETTINGS], old, len);
    free(old);
    return ok;
}

static bool stage_all(import_txn *t, const import_files *f, diag_list *diags)
{
    bool ok = true;
    for (int i = 0; ok && i < NFILES; i++)
        if (f->present[i])
            ok = import_txn_stage(t, file_names[i], i == F_CLUSTERS, rbuf_str(&f->text[i]),
                                  f->text[i].len, diags);
    return ok;
}

/* Load the staging folder as an archive: every problem is one the import
 * would have written. They are reported at the real file's name. */
static bool validate(const import_txn *t, const char *archive_dir, diag_list *diags)
{
    diag_list found;
    diag_init(&found);
    archive a = {0};
    archive_load(import_txn_stage_dir(t), &a, &found);
    archive_free(&a);
    size_t stage_len = strlen(import_txn_stage_dir(t));
    for (size_t i = 0; i < found.count; i++) {
        const diag *g = &found.items[i];
        rbuf file;
        rbuf_init(&file);
        if (strncmp(g->file, import_txn_stage_dir(t), stage_len) == 0)
            rbuf_printf(&file, "%s%s", archive_dir, g->file + stage_len);
        else
            rbuf_puts(&file, g->file);
        diag_add(diags, rbuf_str(&file), g->line, g->column,
                 "%s (in the file as this import would write it; nothing imported)",
                 g->message);
        rbuf_free(&file);
    }
    bool ok = found.count == 0;
    diag_free(&found);
    return ok;
}

static bool commit(import_txn *t, const import_files *f, diag_list *diags)
{
    const char *order[NFILES];
    size_t n = 0;
    for (int i = 0; i < NFILES; i++)
        if (f->present[i] && f->changed[i])
            order[n++] = file_names[i];
    return n == 0 || import_txn_commit(t, order, n, diags);
}

long import_write_campaign(const import_request *req, import_rows *rows, const char *source,
                           diag_list *diags)
{
    if (!check_rows(req, rows, diags))
        return -1;
    import_txn t;
    import_files f;
    memset(&f, 0, sizeof f);
    for (int i = 0; i < NFILES; i++)
        rbuf_init(&f.text[i]);
    campaign_settings settings = {0};
    bool ok = import_txn_begin(&t, req->archive, req->campaign, diags) &&
              campaign_settings_load(req->archive, t.campaign_dir, NULL, &settings, diags);
    const char *procs = settings.procs ? settings.procs : "np";
    long added = ok ? build_files(req, rows, t.campaign_dir, procs, source, &f, diags) : -1;
    ok = added >= 0 && copy_settings(t.campaign_dir, &f) && stage_all(&t, &f, diags);
    /* Staged on disk: neither the texts nor the rows are needed while the
     * archive reader loads the staging folder (with a million rows, they
     * and the reader's table would not fit the memory an import may use
     * together). */
    for (int i = 0; i < NFILES; i++)
        rbuf_free(&f.text[i]);
    import_rows_free(rows);
    ok = ok && validate(&t, req->archive, diags) && commit(&t, &f, diags);
    import_txn_end(&t, ok);
    campaign_settings_free(&settings);
    for (int i = 0; i < NFILES; i++)
        rbuf_free(&f.text[i]);
    import_rows_free(rows);
    return ok ? added : -1;
}
