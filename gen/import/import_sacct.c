/*
 * import_sacct.c — Slurm accounting as `sacct --parsable2` (or `-p`, whose
 * lines end with an extra '|') prints it, header line first, e.g.
 *
 *   sacct -X? --parsable2 --format=JobID,JobName,State,Elapsed,NNodes,NTasks,Start
 *
 * A job is its allocation line (JobID without a '.') and its step lines
 * (`123.batch`, `123.extern`, `123.0`, ...). Each COMPLETED job becomes one
 * run: time_s = the allocation's Elapsed ([DD-][HH:]MM:SS[.fff], or
 * ElapsedRaw seconds), np = the largest NTasks of its numbered steps (the
 * srun/mpirun steps), else of the allocation line, else of its batch step,
 * nodes = NNodes, code = JobName, cluster = Cluster (else --cluster),
 * date = the day of Start, note = "job JOBID". Jobs in any other state,
 * and jobs of zero elapsed time, are left out and counted in the README.
 * --map NAME=np takes the process count from another column (AllocCPUS).
 */
#include "gen/import/import.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gen/import/import_lines.h"

typedef struct {
    const char *file;
    const import_request *req;
    const import_line *head;
    diag_list *diags;
} sacct_table;

static long column_of(const import_line *head, const char *name)
{
    for (size_t c = 0; c < head->nfields; c++)
        if (strcasecmp(head->fields[c].text, name) == 0)
            return (long)c;
    return -1;
}

static const char *cell(const sacct_table *t, const import_line *l, const char *name)
{
    long c = column_of(t->head, name);
    return c < 0 || (size_t)c >= l->nfields || !l->fields[c].text[0] ? NULL : l->fields[c].text;
}

static long cell_column(const sacct_table *t, const char *name)
{
    long c = column_of(t->head, name);
    return c < 0 ? 1 : t->head->fields[c].column;
}

/* "[DD-][HH:]MM:SS[.fff]" into seconds; false when it is not one. */
static bool parse_elapsed(const char *s, double *seconds)
{
    double days = 0, parts[3];
    size_t n = 0;
    const char *dash = strchr(s, '-');
    char *end;
    if (dash) {
        days = strtod(s, &end);
        if (end != dash || days < 0)
            return false;
        s = dash + 1;
    }
    while (n < 3) {
        if (!isdigit((unsigned char)*s))
            return false;
        parts[n++] = strtod(s, &end);
        if (*end != ':')
            break;
        s = end + 1;
    }
    if (*end != '\0' || n < 2)
        return false;
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total = total * 60 + parts[i];
    *seconds = days * 86400 + total;
    return true;
}

/* The job a line belongs to: JobID up to the first '.'. */
static size_t job_key_len(const char *id)
{
    return strcspn(id, ".");
}

static bool same_job(const char *a, const char *b)
{
    size_t n = job_key_len(a);
    return n == job_key_len(b) && strncmp(a, b, n) == 0;
}

/* The process count of the job whose allocation is lines[first]: the
 * largest of its numbered steps (the srun/mpirun steps), else the
 * allocation line's, else the batch step's. NAN when no line has one. */
static double process_count(const sacct_table *t, const import_text *text, size_t first,
                            const char *source)
{
    double steps = NAN, batch = NAN, alloc = NAN, v;
    const char *id = cell(t, &text->lines[first], "JobID");
    for (size_t i = first; i < text->nlines; i++) {
        const import_line *l = &text->lines[i];
        const char *step_id = cell(t, l, "JobID");
        if (!step_id || !same_job(id, step_id))
            break;
        const char *tasks = cell(t, l, source);
        if (!tasks || !import_number(tasks, &v))
            continue;
        const char *step = strchr(step_id, '.');
        if (!step)
            alloc = v;
        else if (isdigit((unsigned char)step[1]))
            steps = isnan(steps) ? v : fmax(steps, v);
        else if (strcmp(step, ".batch") == 0)
            batch = v;
    }
    return !isnan(steps) ? steps : !isnan(alloc) ? alloc : batch;
}

typedef struct {
    size_t not_completed, zero_time;
} skipped_jobs;

static bool add_job(const sacct_table *t, const import_text *text, size_t first,
                    const char *np_source, import_rows *out, skipped_jobs *skipped)
{
    const import_line *l = &text->lines[first];
    const char *state = cell(t, l, "State");
    if (state && strncmp(state, "COMPLETED", 9) != 0) {
        skipped->not_completed++;
        return true;
    }
    double seconds;
    const char *elapsed = cell(t, l, "Elapsed");
    const char *raw = cell(t, l, "ElapsedRaw");
    bool ok = elapsed ? parse_elapsed(elapsed, &seconds) : raw && import_number(raw, &seconds);
    if (!ok) {
        diag_add(t->diags, t->file, l->line, cell_column(t, elapsed ? "Elapsed" : "ElapsedRaw"),
                 "Elapsed '%s' is not [DD-][HH:]MM:SS", elapsed ? elapsed : raw ? raw : "");
        return false;
    }
    if (seconds <= 0) {
        skipped->zero_time++;
        return true;
    }
    double np = process_count(t, text, first, np_source);
    if (isnan(np) || np < 1 || np != floor(np)) {
        diag_add(t->diags, t->file, l->line, cell_column(t, np_source),
                 "job %s: no whole %s >= 1 on its lines (ask sacct for NTasks, or --map a "
                 "column to np)", cell(t, l, "JobID") ? cell(t, l, "JobID") : "?", np_source);
        return false;
    }
    ok = import_rows_add_row(out) && import_rows_set_number(out, "np", np) &&
         import_rows_set_number(out, "time_s", seconds) &&
         import_rows_set(out, "nodes", cell(t, l, "NNodes")) &&
         import_rows_set(out, "code", cell(t, l, "JobName"));
    if (ok && cell(t, l, "Cluster"))
        ok = import_rows_set(out, "cluster", cell(t, l, "Cluster"));
    const char *start = cell(t, l, "Start");
    if (ok && start && strlen(start) >= 10 && start[4] == '-' && start[7] == '-') {
        char day[11];
        memcpy(day, start, 10);
        day[10] = '\0';
        ok = import_rows_set(out, "date", day);
    }
    char note[128];
    const char *id = cell(t, l, "JobID");
    snprintf(note, sizeof note, "job %s", id ? id : "?");
    return ok && import_rows_set(out, "note", note);
}

/* -p ends every line with '|': drop the empty last field. */
static void drop_trailing_empty(import_text *text)
{
    if (text->lines[0].nfields < 2 || text->lines[0].fields[text->lines[0].nfields - 1].text[0])
        return;
    for (size_t i = 0; i < text->nlines; i++) {
        import_line *l = &text->lines[i];
        if (l->nfields > 1 && !l->fields[l->nfields - 1].text[0])
            free(l->fields[--l->nfields].text);
    }
}

static const char *np_source_of(const import_request *req)
{
    for (size_t m = 0; m < req->nmaps; m++)
        if (strcmp(req->maps[m].to, "np") == 0)
            return req->maps[m].from;
    return "NTasks";
}

bool import_read_sacct(const import_request *req, const char *path, import_rows *out,
                       diag_list *diags)
{
    import_text text;
    if (!import_text_read(path, path, '|', &text, diags))
        return false;
    drop_trailing_empty(&text);
    sacct_table t = {.file = path, .req = req, .head = &text.lines[0], .diags = diags};
    const char *np_source = np_source_of(req);
    bool ok = true;
    const char *needed[] = {"JobID", np_source};
    for (size_t k = 0; ok && k < 2; k++)
        if (column_of(t.head, needed[k]) < 0) {
            diag_add(diags, path, t.head->line, 1, "no %s column in the header (sacct "
                     "--parsable2 --format=JobID,JobName,State,Elapsed,NNodes,NTasks,Start)",
                     needed[k]);
            ok = false;
        }
    if (ok && column_of(t.head, "Elapsed") < 0 && column_of(t.head, "ElapsedRaw") < 0) {
        diag_add(diags, path, t.head->line, 1, "no Elapsed (or ElapsedRaw) column in the header");
        ok = false;
    }
    skipped_jobs skipped = {0, 0};
    for (size_t i = 1; ok && i < text.nlines; i++) {
        const import_line *l = &text.lines[i];
        if (l->nfields != t.head->nfields) {
            diag_add(diags, path, l->line,
                     l->nfields > t.head->nfields ? l->fields[t.head->nfields].column : 1,
                     "%zu fields where the header has %zu", l->nfields, t.head->nfields);
            ok = false;
        } else if (cell(&t, l, "JobID") && !strchr(cell(&t, l, "JobID"), '.')) {
            ok = add_job(&t, &text, i, np_source, out, &skipped);
        }
    }
    if (ok && skipped.not_completed)
        ok = import_rows_note(out, "%zu job%s not COMPLETED left out of %s.",
                              skipped.not_completed, skipped.not_completed == 1 ? "" : "s",
                              path);
    if (ok && skipped.zero_time)
        ok = import_rows_note(out, "%zu job%s of zero elapsed time left out of %s.",
                              skipped.zero_time, skipped.zero_time == 1 ? "" : "s", path);
    ok = ok && import_rows_add_response(out, "time_s") &&
         import_rows_note(out, "`time_s` is the job's Elapsed time; `np` its %s.", np_source);
    import_text_free(&text);
    return ok;
}
