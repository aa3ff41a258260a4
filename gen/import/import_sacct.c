/*
 * import_sacct.c — Slurm accounting as `sacct --parsable2` (or `-p`, whose
 * lines end with an extra '|') prints it, header line first, e.g.
 *
 *   sacct --parsable2 --format=JobID,JobName,State,Elapsed,NNodes,NTasks,Start,Cluster
 *
 * A job is its allocation line (`123`) and its step lines (`123.batch`,
 * `123.extern`, `123.interactive`, and the srun steps `123.0`, `123.1`,
 * ...); sacct prints them together. Each COMPLETED srun step is one run,
 * with its own figures: time_s = its Elapsed (or ElapsedRaw), np = its
 * NTasks, nodes = its NNodes, date = the day of its Start, code = its
 * JobName (the program srun ran), note = "job 123.0". A job plans its
 * runs as steps (`perfcast plan --format slurm` writes one srun per run),
 * so the allocation line, which spans them all, is a run only for a job
 * without srun steps, and then only when it names a process count itself:
 * the batch step's one task is the script, not the program's processes.
 * Steps of one job with the same np, nodes and code are repetitions of
 * one configuration: `rep` numbers them 1, 2, ...
 *
 * Left out, counted in the campaign README: steps and jobs not COMPLETED,
 * of zero elapsed time, jobs without srun steps and without a process
 * count, and heterogeneous jobs (`123+0`, or a step `123.0+1`): a step of
 * those spans components whose tasks sacct lists apart.
 *
 * Everything a run is made of is checked strictly, refused at
 * FILE:LINE:COL: Elapsed is `[DD-][HH:]MM:SS[.fff]` in decimal digits with
 * minutes and seconds below 60 (hours too after a day count) and at most
 * ten years; counts are decimal digits; Start is Slurm's
 * YYYY-MM-DDTHH:MM:SS, written as the archive's YYYY-MM-DD. NUL and other
 * control bytes, header columns this reader uses given twice, lines with
 * a different number of fields and a job's lines split apart are refused.
 * A line given again unchanged (`sacct -n ... >> log` appends every job
 * each time) counts once, noted in the README; the same JobID and Cluster
 * with other values is refused, naming both lines.
 * --map NAME=np takes the process count from another column (AllocCPUS).
 */
#include "gen/import/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gen/base/fileio.h"
#include "gen/import/import_lines.h"
#include "gen/base/dates.h"

/* The default process-count column; import_is_procs_name accepts it. */
#define SACCT_TASKS "NTasks"
/* Elapsed longer than this many days is not a measurement. */
#define SACCT_MAX_DAYS 3660ULL
/* Digits in a count or a time field; more is absurd (and would overflow). */
#define SACCT_MAX_DIGITS 9

/* The header's columns this reader uses; -1 when absent. */
typedef struct {
    long jobid, state, elapsed, raw, np, nodes, name, cluster, start;
} sacct_columns;

typedef struct {
    const char *file;
    const char *np_source;
    const import_text *text;
    sacct_columns col;
    diag_list *diags;
} sacct_reader;

typedef enum { LINE_ALLOCATION, LINE_SRUN_STEP, LINE_OTHER_STEP } line_kind;

/* What a line's JobID says. */
typedef struct {
    size_t key_len;     /* bytes naming the job: up to the first '+' or '.' */
    line_kind kind;
    bool heterogeneous; /* a component ('+') of a heterogeneous job or step */
    bool repeated;      /* the same line as an earlier one: counted once */
} line_info;

/* A run about to be written. */
typedef struct {
    const char *id;          /* its JobID */
    double seconds;
    unsigned long long np, nodes; /* nodes 0: not known */
    const char *code, *cluster;
    char date[11];           /* "" = not known */
    unsigned long long rep;       /* 0 = not a step */
} sacct_run;

/* What was left out, for the README. */
typedef struct {
    size_t not_completed, zero_time, no_np, heterogeneous, repeated;
} skipped_runs;

static const char *cell(const import_line *l, long c)
{
    return c < 0 || (size_t)c >= l->nfields || !l->fields[c].text[0] ? NULL : l->fields[c].text;
}

static long cell_column(const import_line *l, long c)
{
    return c >= 0 && (size_t)c < l->nfields ? l->fields[c].column : 1;
}

/* Bytes of s to show in a message: at most 40, not cutting a UTF-8
 * character (a cell may be a megabyte long). */
static int shown(const char *s)
{
    size_t n = strnlen(s, 41);
    if (n > 40) {
        n = 40;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    return (int)n;
}

/* ------------------------------------------------------------------ */
/* Bytes import_lines would pass over                                   */

/* The first NUL or control byte of the file (a tab and a CRLF or LF line
 * end are fine) is recorded and false returned: import_lines ends a line
 * at a NUL, so "00:10<NUL>999" would read as 00:10. An unreadable file is
 * left to import_text_read to report. */
static bool no_control_bytes(const char *path, diag_list *diags)
{
    size_t len;
    char *data = fileio_read_file(path, &len);
    if (!data)
        return true;
    long line = 1, column = 1;
    size_t i = 0;
    for (; i < len; i++) {
        unsigned char c = (unsigned char)data[i];
        if (c == '\n') {
            line++, column = 1;
            continue;
        }
        bool line_end = c == '\r' && i + 1 < len && data[i + 1] == '\n';
        if ((c < 0x20 && c != '\t' && !line_end) || c == 0x7F)
            break;
        if ((c & 0xC0) != 0x80)
            column++;
    }
    if (i < len)
        diag_add(diags, path, line, column, "control byte 0x%02X: sacct --parsable2 prints none",
                 (unsigned)(unsigned char)data[i]);
    free(data);
    return i == len;
}

/* ------------------------------------------------------------------ */
/* Numbers and times, strictly as Slurm writes them                     */

/* The decimal digits at s (at most SACCT_MAX_DIGITS are read) into *value;
 * their count (0 when s starts with no digit). */
static size_t digits_at(const char *s, unsigned long long *value)
{
    size_t n = 0;
    *value = 0;
    while (s[n] >= '0' && s[n] <= '9' && n <= SACCT_MAX_DIGITS) {
        *value = *value * 10 + (unsigned long long)(s[n] - '0');
        n++;
    }
    return n;
}

/* Where a value is wrong: the byte in its cell and why. */
typedef struct {
    size_t at;
    char why[96];
} value_problem;

/* Bytes of the UTF-8 character at s. */
static int char_len(const char *s)
{
    int n = 1;
    while (((unsigned char)s[n] & 0xC0) == 0x80)
        n++;
    return n;
}

static bool problem(value_problem *p, size_t at, const char *s, const char *expected)
{
    p->at = at;
    if (s[at] == '\0')
        snprintf(p->why, sizeof p->why, "it ends where %s is expected", expected);
    else
        snprintf(p->why, sizeof p->why, "'%.*s' where %s is expected", char_len(s + at), s + at,
                 expected);
    return false;
}

static bool too_many_digits(value_problem *p, size_t at, int max)
{
    p->at = at;
    snprintf(p->why, sizeof p->why, "more than %d digits", max);
    return false;
}

static bool out_of_range(value_problem *p, size_t at, const char *what, unsigned long long value,
                         unsigned long long limit)
{
    p->at = at;
    snprintf(p->why, sizeof p->why, "%s %llu is not below %llu", what, value, limit);
    return false;
}

/* One digit group of a time at s + *at into *value, exactly `width`
 * digits (0: one to SACCT_MAX_DIGITS); the position moves past it. */
static bool time_group(const char *s, size_t *at, size_t width, unsigned long long *value,
                       value_problem *p)
{
    size_t n = digits_at(s + *at, value);
    if (n == 0 || (width && n < width))
        return problem(p, *at + n, s, "a digit");
    size_t most = width ? width : SACCT_MAX_DIGITS;
    if (n > most)
        return too_many_digits(p, *at + most, (int)most);
    *at += n;
    return true;
}

/* "[DD-][HH:]MM:SS[.fff]" into seconds. Only decimal digits: strtod would
 * read "0x10" as 16 and "1e3" as 1000. */
static bool parse_elapsed(const char *s, double *seconds, value_problem *p)
{
    unsigned long long days = 0, part[3];
    size_t at = 0, n = 0, starts[3];
    bool has_days = false;
    if (!time_group(s, &at, 0, &part[0], p))
        return false;
    if (s[at] == '-') {
        days = part[0], has_days = true;
        if (days > SACCT_MAX_DAYS)
            return out_of_range(p, 0, "days", days, SACCT_MAX_DAYS + 1);
        at++;
        starts[0] = at;
        if (!time_group(s, &at, 2, &part[0], p))
            return false;
    } else {
        starts[0] = 0;
    }
    for (n = 1; n < 3 && s[at] == ':'; n++) {
        starts[n] = ++at;
        if (!time_group(s, &at, 2, &part[n], p))
            return false;
    }
    if (n < 2)
        return problem(p, at, s, "':'");
    double fraction = 0;
    if (s[at] == '.') {
        size_t from = at++;
        unsigned long long ignored;
        size_t k = digits_at(s + at, &ignored);
        if (k == 0)
            return problem(p, at, s, "a digit");
        if (k > SACCT_MAX_DIGITS)
            return too_many_digits(p, at + SACCT_MAX_DIGITS, SACCT_MAX_DIGITS);
        at += k;
        fraction = strtod(s + from, NULL); /* ".ddd", digits only: checked above */
    }
    if (s[at] != '\0')
        return problem(p, at, s, "the end");
    if (part[n - 1] >= 60)
        return out_of_range(p, starts[n - 1], "seconds", part[n - 1], 60);
    if (part[n - 2] >= 60)
        return out_of_range(p, starts[n - 2], "minutes", part[n - 2], 60);
    if (n == 3 && has_days && part[0] >= 24)
        return out_of_range(p, starts[0], "hours", part[0], 24);
    double hours = n == 3 ? (double)part[0] : 0;
    if (hours > SACCT_MAX_DAYS * 24)
        return out_of_range(p, 0, "hours", part[0], SACCT_MAX_DAYS * 24 + 1);
    *seconds = (double)days * 86400 + hours * 3600 + (double)part[n - 2] * 60 +
               (double)part[n - 1] + fraction;
    return true;
}

/* A whole number of decimal digits only, at most max. */
static bool parse_count(const char *s, unsigned long long min, unsigned long long max,
                        unsigned long long *value, value_problem *p)
{
    size_t n = digits_at(s, value);
    if (n > SACCT_MAX_DIGITS)
        return too_many_digits(p, SACCT_MAX_DIGITS, SACCT_MAX_DIGITS);
    if (n == 0 || s[n] != '\0')
        return problem(p, n, s, "a digit");
    if (*value < min) {
        p->at = 0;
        snprintf(p->why, sizeof p->why, "it is below %llu", min);
        return false;
    }
    if (*value > max)
        return out_of_range(p, 0, "the value", *value, max + 1);
    return true;
}

/* Slurm's Start "YYYY-MM-DDTHH:MM:SS" (SLURM_TIME_FORMAT unset or
 * "standard"): its day into date as the archive's YYYY-MM-DD. */
static bool parse_start(const char *s, char date[11], value_problem *p)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd";
    for (size_t i = 0; i < sizeof shape - 1; i++)
        if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
            return problem(p, i, s, shape[i] == 'd' ? "a digit" : "YYYY-MM-DDTHH:MM:SS");
    if (s[sizeof shape - 1] != '\0')
        return problem(p, sizeof shape - 1, s, "the end");
    unsigned long long y, m, d, hh, mm, ss;
    digits_at(s, &y);
    digits_at(s + 5, &m);
    digits_at(s + 8, &d);
    digits_at(s + 11, &hh);
    digits_at(s + 14, &mm);
    digits_at(s + 17, &ss);
    if (y < 1970)
        return out_of_range(p, 0, "Slurm's times are Unix times; year", y, 1970);
    if (m < 1 || m > 12)
        return out_of_range(p, 5, "month", m, 13);
    unsigned long long last = (unsigned long long)dates_days_in_month((long)y, (int)m);
    if (d < 1 || d > last)
        return out_of_range(p, 8, "day", d, last + 1);
    if (hh >= 24 || mm >= 60 || ss >= 60)
        return out_of_range(p, hh >= 24 ? 11 : mm >= 60 ? 14 : 17, "time field",
                            hh >= 24 ? hh : mm >= 60 ? mm : ss, hh >= 24 ? 24 : 60);
    memcpy(date, s, 10);
    date[10] = '\0';
    return true;
}

/* Record a value problem of column c of line l. */
static bool refuse(const sacct_reader *r, const import_line *l, long c, const char *value,
                   const char *expected, const value_problem *p)
{
    diag_add(r->diags, r->file, l->line, cell_column(l, c) + (long)p->at,
             "%s '%.*s%s' is not %s: %s", r->text->lines[0].fields[c].text, shown(value), value,
             value[shown(value)] ? "…" : "", expected, p->why);
    return false;
}

/* ------------------------------------------------------------------ */
/* Job IDs                                                              */

static bool all_of(const char *s, size_t n, const char *set)
{
    for (size_t i = 0; i < n; i++)
        if (!strchr(set, s[i]))
            return false;
    return n > 0;
}

/* "JOB[_TASK][+COMPONENT][.STEP[+COMPONENT]]": JOB starts with a digit
 * (arrays: 123_4, 123_[1-5%2]); STEP is a number (an srun step) or a name
 * (batch, extern, interactive, TBD). */
static bool parse_job_id(const char *id, line_info *info)
{
    static const char digits[] = "0123456789";
    const char *dot = strchr(id, '.');
    size_t job_len = dot ? (size_t)(dot - id) : strlen(id);
    if (!(id[0] >= '0' && id[0] <= '9') || !all_of(id, job_len, "0123456789_[]-,%+"))
        return false;
    info->key_len = strcspn(id, "+.");
    info->heterogeneous = info->key_len < job_len;
    if (!dot) {
        info->kind = LINE_ALLOCATION;
        return true;
    }
    const char *step = dot + 1;
    size_t number = strspn(step, digits), rest = strlen(step + number);
    if (number > 0 && rest == 0) {
        info->kind = LINE_SRUN_STEP;
        return true;
    }
    if (number > 0 && step[number] == '+' && all_of(step + number + 1, rest - 1, digits)) {
        info->kind = LINE_SRUN_STEP;
        info->heterogeneous = true;
        return true;
    }
    info->kind = LINE_OTHER_STEP;
    return all_of(step, strlen(step),
                  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
}

/* Bytes of a job part to show (ASCII, checked by parse_job_id). */
static int job_shown(size_t key_len)
{
    return key_len < 40 ? (int)key_len : 40;
}

/* ------------------------------------------------------------------ */
/* The header and every line's shape                                    */

/* The column named name (any case) into *at, -1 when absent; a second
 * one is refused: which of the two is meant is not known. */
static bool find_column(const sacct_reader *r, const char *name, long *at)
{
    const import_line *head = &r->text->lines[0];
    *at = -1;
    for (size_t c = 0; c < head->nfields; c++) {
        if (strcasecmp(head->fields[c].text, name) != 0)
            continue;
        if (*at >= 0) {
            diag_add(r->diags, r->file, head->line, head->fields[c].column,
                     "a second %s column (the first is at column %ld): which one holds the "
                     "values is not known", name, head->fields[*at].column);
            return false;
        }
        *at = (long)c;
    }
    return true;
}

static bool find_columns(sacct_reader *r)
{
    sacct_columns *c = &r->col;
    const import_line *head = &r->text->lines[0];
    if (!(find_column(r, "JobID", &c->jobid) && find_column(r, "State", &c->state) &&
          find_column(r, "Elapsed", &c->elapsed) && find_column(r, "ElapsedRaw", &c->raw) &&
          find_column(r, r->np_source, &c->np) && find_column(r, "NNodes", &c->nodes) &&
          find_column(r, "JobName", &c->name) && find_column(r, "Cluster", &c->cluster) &&
          find_column(r, "Start", &c->start)))
        return false;
    const char *missing = c->jobid < 0 ? "JobID" : c->np < 0 ? r->np_source : NULL;
    if (missing) {
        diag_add(r->diags, r->file, head->line, 1,
                 "no %s column in the header (sacct --parsable2 "
                 "--format=JobID,JobName,State,Elapsed,NNodes,NTasks,Start)", missing);
        return false;
    }
    if (c->elapsed < 0 && c->raw < 0) {
        diag_add(r->diags, r->file, head->line, 1, "no Elapsed (or ElapsedRaw) column in the header");
        return false;
    }
    return true;
}

/* Characters (code points) of s. */
static long chars_of(const char *s)
{
    long n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}

/* Every line has the header's number of fields and a JobID; info[i] says
 * what line i's JobID is. */
static bool check_lines(const sacct_reader *r, line_info *info)
{
    const import_text *text = r->text;
    size_t want = text->lines[0].nfields;
    for (size_t i = 1; i < text->nlines; i++) {
        const import_line *l = &text->lines[i];
        if (l->nfields != want) {
            long column = l->nfields > want ? l->fields[want].column : chars_of(l->text) + 1;
            diag_add(r->diags, r->file, l->line, column, "%zu fields where the header has %zu",
                     l->nfields, want);
            return false;
        }
        const char *id = cell(l, r->col.jobid);
        if (!id || !parse_job_id(id, &info[i])) {
            diag_add(r->diags, r->file, l->line, cell_column(l, r->col.jobid),
                     "JobID '%.*s' is not a Slurm job or step ID "
                     "(JOB[_TASK][+COMPONENT][.STEP])", id ? shown(id) : 0, id ? id : "");
            return false;
        }
    }
    return true;
}

/* A stable merge sort of the indexes v[0..n) by order (negative: a before
 * b), with tmp of n entries as room; O(n log n) on any input. */
typedef int (*index_order)(const void *ctx, size_t a, size_t b);

static void sort_indexes(size_t *v, size_t *tmp, size_t n, index_order order, const void *ctx)
{
    if (n < 2)
        return;
    size_t half = n / 2, i = 0, j = half, k = 0;
    sort_indexes(v, tmp, half, order, ctx);
    sort_indexes(v + half, tmp, n - half, order, ctx);
    while (i < half && j < n)
        tmp[k++] = order(ctx, v[j], v[i]) < 0 ? v[j++] : v[i++];
    while (i < half)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

/* A sorted copy of v[0..n) (malloc'ed, caller frees); NULL when out of memory. */
static size_t *sorted_copy(const size_t *v, size_t n, index_order order, const void *ctx)
{
    size_t *copy = malloc((n ? n : 1) * sizeof *copy), *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (copy && tmp) {
        memcpy(copy, v, n * sizeof *v);
        sort_indexes(copy, tmp, n, order, ctx);
    }
    free(tmp);
    if (!tmp) {
        free(copy);
        return NULL;
    }
    return copy;
}

typedef struct {
    const sacct_reader *r;
    const line_info *info;
} job_order_ctx;

/* Lines by job part of the JobID, then Cluster. */
static int job_order(const void *ctx, size_t x, size_t y)
{
    const job_order_ctx *o = ctx;
    const import_line *lx = &o->r->text->lines[x], *ly = &o->r->text->lines[y];
    size_t nx = o->info[x].key_len, ny = o->info[y].key_len;
    if (nx != ny)
        return nx < ny ? -1 : 1;
    int c = memcmp(cell(lx, o->r->col.jobid), cell(ly, o->r->col.jobid), nx);
    if (c != 0)
        return c;
    const char *cx = cell(lx, o->r->col.cluster), *cy = cell(ly, o->r->col.cluster);
    return strcmp(cx ? cx : "", cy ? cy : "");
}

/* A job's lines in one place: sacct prints them together, and a job
 * whose steps were elsewhere would be read as a job without steps (its
 * allocation a run besides them). firsts[0..n) are the first lines of the
 * runs of lines of one job; a job met twice is refused. */
static bool jobs_together(const sacct_reader *r, const line_info *info, const size_t *firsts,
                          size_t n)
{
    job_order_ctx o = {r, info};
    size_t *sorted = sorted_copy(firsts, n, job_order, &o);
    if (!sorted) {
        diag_add(r->diags, r->file, 0, 0, "out of memory");
        return false;
    }
    bool ok = true;
    for (size_t k = 1; ok && k < n; k++)
        if (job_order(&o, sorted[k - 1], sorted[k]) == 0) {
            const import_line *l = &r->text->lines[sorted[k]];
            diag_add(r->diags, r->file, l->line, cell_column(l, r->col.jobid),
                     "job %.*s again (its lines start at line %ld too): sacct prints a job's "
                     "lines together; import joined outputs, or sacct -D's incarnations, "
                     "one file each", job_shown(info[sorted[k]].key_len), cell(l, r->col.jobid),
                     r->text->lines[sorted[k - 1]].line);
            ok = false;
        }
    free(sorted);
    return ok;
}

/* Lines by their whole JobID, then Cluster: one step or job each. */
static int id_order(const void *ctx, size_t x, size_t y)
{
    const sacct_reader *r = ctx;
    const import_line *lx = &r->text->lines[x], *ly = &r->text->lines[y];
    int c = strcmp(cell(lx, r->col.jobid), cell(ly, r->col.jobid));
    if (c != 0)
        return c;
    const char *cx = cell(lx, r->col.cluster), *cy = cell(ly, r->col.cluster);
    return strcmp(cx ? cx : "", cy ? cy : "");
}

static bool same_fields(const import_line *a, const import_line *b)
{
    for (size_t f = 0; f < a->nfields; f++)
        if (strcmp(a->fields[f].text, b->fields[f].text) != 0)
            return false;
    return a->nfields == b->nfields;
}

/* The first field where a and b differ (they do). */
static size_t first_difference(const import_line *a, const import_line *b)
{
    size_t f = 0;
    while (f + 1 < a->nfields && strcmp(a->fields[f].text, b->fields[f].text) == 0)
        f++;
    return f;
}

/* A line given again unchanged (`sacct -n ... >> log` appends every job
 * each time) is one step, not a repetition: it is marked repeated and
 * counted once. The same JobID with other values (a step that was running
 * when one output was taken, sacct -D's incarnations) is refused: which
 * line holds the measurement is not known. */
static bool mark_repeated(const sacct_reader *r, line_info *info, skipped_runs *skipped)
{
    size_t n = r->text->nlines - 1;
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    for (size_t i = 0; order && i < n; i++)
        order[i] = i + 1;
    size_t *sorted = order ? sorted_copy(order, n, id_order, r) : NULL;
    free(order);
    if (!sorted) {
        diag_add(r->diags, r->file, 0, 0, "out of memory");
        return false;
    }
    bool ok = true;
    for (size_t k = 1, first = 0; ok && k < n; k++) {
        if (id_order(r, sorted[first], sorted[k]) != 0) {
            first = k;
            continue;
        }
        const import_line *a = &r->text->lines[sorted[first]], *b = &r->text->lines[sorted[k]];
        if (same_fields(a, b)) {
            info[sorted[k]].repeated = true;
            skipped->repeated++;
            continue;
        }
        size_t f = first_difference(a, b);
        diag_add(r->diags, r->file, b->line, b->fields[f].column,
                 "JobID %.*s again with other values (line %ld has %s '%.*s', this line '%.*s'): "
                 "which line holds the measurement is not known",
                 shown(cell(b, r->col.jobid)), cell(b, r->col.jobid), a->line,
                 r->text->lines[0].fields[f].text, shown(a->fields[f].text), a->fields[f].text,
                 shown(b->fields[f].text), b->fields[f].text);
        ok = false;
    }
    free(sorted);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Runs                                                                 */

/* Line l's cell of column c, else the job's allocation line's (JobName,
 * Cluster and Start may be printed on the allocation line only). */
static const char *own_or_job(const import_line *l, const import_line *alloc, long c)
{
    const char *v = cell(l, c);
    return v || !alloc ? v : cell(alloc, c);
}

/* Without a State column every line is taken as COMPLETED. */
static bool is_completed(const sacct_reader *r, const import_line *l)
{
    const char *state = cell(l, r->col.state);
    return r->col.state < 0 || (state && strcmp(state, "COMPLETED") == 0);
}

/* The seconds of line l from Elapsed, else ElapsedRaw; false (recorded)
 * when they are not what Slurm writes. */
static bool read_seconds(const sacct_reader *r, const import_line *l, double *seconds)
{
    const sacct_columns *c = &r->col;
    value_problem p;
    bool raw = !cell(l, c->elapsed) && c->raw >= 0;
    long tc = raw ? c->raw : c->elapsed;
    const char *text = cell(l, tc) ? cell(l, tc) : "";
    unsigned long long whole;
    if (raw ? !parse_count(text, 0, SACCT_MAX_DAYS * 86400, &whole, &p)
            : !parse_elapsed(text, seconds, &p))
        return refuse(r, l, tc, text, raw ? "whole seconds" : "[DD-][HH:]MM:SS", &p);
    if (raw)
        *seconds = (double)whole;
    return true;
}

/* np, nodes, code, cluster and date of line l into run; false (recorded)
 * when a value is not what Slurm writes. */
static bool read_figures(const sacct_reader *r, const import_line *l, const import_line *alloc,
                         sacct_run *run)
{
    const sacct_columns *c = &r->col;
    value_problem p;
    const char *np = cell(l, c->np);
    if (!parse_count(np, 1, 999999999, &run->np, &p))
        return refuse(r, l, c->np, np, "a whole number of processes >= 1", &p);
    const char *nodes = cell(l, c->nodes);
    if (nodes && !parse_count(nodes, 1, 999999999, &run->nodes, &p))
        return refuse(r, l, c->nodes, nodes, "a whole number of nodes >= 1", &p);
    const char *start = own_or_job(l, alloc, c->start);
    bool unknown = !start || strcmp(start, "Unknown") == 0 || strcmp(start, "None") == 0;
    if (!unknown && !parse_start(start, run->date, &p))
        return refuse(r, cell(l, c->start) ? l : alloc, c->start, start,
                      "a time YYYY-MM-DDTHH:MM:SS (SLURM_TIME_FORMAT=standard)", &p);
    run->code = own_or_job(l, alloc, c->name);
    run->cluster = own_or_job(l, alloc, c->cluster);
    run->id = cell(l, c->jobid);
    return true;
}

/* The run of line l (alloc: its job's allocation line or NULL); false
 * (recorded) when a value is not what Slurm writes. *made is false when
 * the line is left out (counted in skipped). An srun step always has a
 * process count; a job without steps may have none. */
static bool read_run(const sacct_reader *r, const import_line *l, const import_line *alloc,
                     sacct_run *run, bool *made, skipped_runs *skipped)
{
    *made = false;
    memset(run, 0, sizeof *run);
    if (!is_completed(r, l)) {
        skipped->not_completed++;
        return true;
    }
    if (!cell(l, r->col.np) && l == alloc) {
        skipped->no_np++;
        return true;
    }
    if (!cell(l, r->col.np)) {
        diag_add(r->diags, r->file, l->line, cell_column(l, r->col.np),
                 "step %.*s: no %s (an srun step's number of tasks)",
                 shown(cell(l, r->col.jobid)), cell(l, r->col.jobid), r->np_source);
        return false;
    }
    if (!read_seconds(r, l, &run->seconds) || !read_figures(r, l, alloc, run))
        return false;
    if (run->seconds <= 0)
        skipped->zero_time++;
    *made = run->seconds > 0;
    return true;
}

static bool add_run(const sacct_run *run, import_rows *out)
{
    size_t n = strlen(run->id) + 5;
    char *note = malloc(n);
    if (!note)
        return false;
    snprintf(note, n, "job %s", run->id);
    bool ok = import_rows_add_row(out) && import_rows_set_number(out, "np", (double)run->np) &&
              import_rows_set_number(out, "time_s", run->seconds) &&
              (!run->nodes || import_rows_set_number(out, "nodes", (double)run->nodes)) &&
              import_rows_set(out, "code", run->code) &&
              (!run->rep || import_rows_set_number(out, "rep", (double)run->rep)) &&
              (!run->date[0] || import_rows_set(out, "date", run->date)) &&
              import_rows_set(out, "note", note);
    free(note);
    if (ok && run->cluster) {
        char *name = import_cluster_name(run->cluster, NULL);
        ok = name && import_rows_set(out, "cluster", name);
        free(name);
    }
    return ok;
}

/* Runs by the configuration this reader writes: np, nodes, code. */
static int configuration_order(const void *ctx, size_t x, size_t y)
{
    const sacct_run *a = (const sacct_run *)ctx + x, *b = (const sacct_run *)ctx + y;
    if (a->np != b->np)
        return a->np < b->np ? -1 : 1;
    if (a->nodes != b->nodes)
        return a->nodes < b->nodes ? -1 : 1;
    return strcmp(a->code ? a->code : "", b->code ? b->code : "");
}

/* rep of each of the steps runs[0..n) of one job: 1, 2, ... in file order
 * among the steps of its configuration (a stable sort keeps that order). */
static bool number_repetitions(sacct_run *runs, size_t n)
{
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return false;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    size_t *sorted = sorted_copy(order, n, configuration_order, runs);
    free(order);
    if (!sorted)
        return false;
    for (size_t k = 0; k < n; k++) {
        bool same = k > 0 && configuration_order(runs, sorted[k - 1], sorted[k]) == 0;
        runs[sorted[k]].rep = same ? runs[sorted[k - 1]].rep + 1 : 1;
    }
    free(sorted);
    return true;
}

/* The runs of the job on lines [first, end). */
static bool read_job(const sacct_reader *r, const line_info *info, size_t first, size_t end,
                     import_rows *out, skipped_runs *skipped)
{
    const import_line *alloc = NULL;
    size_t steps = 0;
    bool heterogeneous = false;
    for (size_t i = first; i < end; i++) {
        if (info[i].repeated)
            continue;
        if (info[i].kind == LINE_ALLOCATION && !alloc)
            alloc = &r->text->lines[i];
        steps += info[i].kind == LINE_SRUN_STEP;
        heterogeneous = heterogeneous || info[i].heterogeneous;
    }
    if (heterogeneous) {
        skipped->heterogeneous++;
        return true;
    }
    sacct_run *runs = malloc((steps ? steps : 1) * sizeof *runs);
    bool ok = runs != NULL, one;
    size_t made = 0;
    for (size_t i = first; ok && i < end; i++) {
        bool use = !info[i].repeated &&
                   (steps ? info[i].kind == LINE_SRUN_STEP : info[i].kind == LINE_ALLOCATION);
        if (use && (ok = read_run(r, &r->text->lines[i], alloc, &runs[made], &one, skipped)))
            made += one;
    }
    bool memory = runs && (!ok || !steps || number_repetitions(runs, made));
    for (size_t k = 0; ok && memory && k < made; k++)
        memory = add_run(&runs[k], out);
    if (!memory)
        diag_add(r->diags, r->file, 0, 0, "out of memory");
    free(runs);
    return ok && memory;
}

/* Every job of the file, in its order; a job is a run of lines sharing
 * the job part of the JobID (and a Cluster), repeated lines passed over. */
static bool read_jobs(const sacct_reader *r, const line_info *info, import_rows *out,
                      skipped_runs *skipped)
{
    size_t n = r->text->nlines, nblocks = 0;
    size_t *firsts = malloc(n * sizeof *firsts);
    if (!firsts) {
        diag_add(r->diags, r->file, 0, 0, "out of memory");
        return false;
    }
    job_order_ctx o = {r, info};
    for (size_t i = 1, last = 0; i < n; i++) {
        if (info[i].repeated)
            continue;
        if (!last || job_order(&o, last, i) != 0)
            firsts[nblocks++] = i;
        last = i;
    }
    bool ok = jobs_together(r, info, firsts, nblocks);
    for (size_t b = 0; ok && b < nblocks; b++)
        ok = read_job(r, info, firsts[b], b + 1 < nblocks ? firsts[b + 1] : n, out, skipped);
    free(firsts);
    return ok;
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

/* The column np comes from: --map NAME=np, else NTasks. */
static const char *np_source_of(const import_request *req)
{
    for (size_t m = 0; m < req->nmaps; m++)
        if (strcmp(req->maps[m].to, "np") == 0)
            return req->maps[m].from;
    return SACCT_TASKS;
}

static bool note_skipped(import_rows *out, const char *path, const skipped_runs *s)
{
    bool ok = true;
    if (s->not_completed)
        ok = import_rows_note(out, "%zu step%s or job%s not COMPLETED left out of %s.",
                              s->not_completed, s->not_completed == 1 ? "" : "s",
                              s->not_completed == 1 ? "" : "s", path);
    if (ok && s->zero_time)
        ok = import_rows_note(out, "%zu step%s or job%s of zero elapsed time left out of %s.",
                              s->zero_time, s->zero_time == 1 ? "" : "s",
                              s->zero_time == 1 ? "" : "s", path);
    if (ok && s->no_np)
        ok = import_rows_note(out, "%zu job%s without srun steps and without a process count "
                              "left out of %s (its batch step's one task is the script).",
                              s->no_np, s->no_np == 1 ? "" : "s", path);
    if (ok && s->repeated)
        ok = import_rows_note(out, "%zu line%s of %s given again unchanged (appended sacct "
                              "outputs) counted once.", s->repeated, s->repeated == 1 ? "" : "s",
                              path);
    if (ok && s->heterogeneous)
        ok = import_rows_note(out, "%zu heterogeneous job%s left out of %s: a step spans "
                              "components whose tasks sacct lists apart.",
                              s->heterogeneous, s->heterogeneous == 1 ? "" : "s", path);
    return ok;
}

bool import_read_sacct(const import_request *req, const char *path, import_rows *out,
                       diag_list *diags)
{
    import_text text;
    if (!no_control_bytes(path, diags) || !import_text_read(path, path, '|', &text, diags))
        return false;
    drop_trailing_empty(&text);
    sacct_reader r = {.file = path, .np_source = np_source_of(req), .text = &text,
                      .diags = diags};
    line_info *info = calloc(text.nlines, sizeof *info);
    bool ok = info != NULL;
    if (!ok)
        diag_add(diags, path, 0, 0, "out of memory");
    skipped_runs skipped = {0, 0, 0, 0, 0};
    for (size_t c = 0; ok && c < text.lines[0].nfields; c++) /* what --map may name */
        ok = import_rows_source(out, text.lines[0].fields[c].text);
    if (!ok && info)
        diag_add(diags, path, 0, 0, "out of memory");
    ok = ok && find_columns(&r);
    /* --map alloccpus=np names AllocCPUS: columns match in any case. */
    ok = ok && import_rows_source(out, r.np_source);
    ok = ok && check_lines(&r, info) && mark_repeated(&r, info, &skipped) &&
         read_jobs(&r, info, out, &skipped);
    ok = ok && note_skipped(out, path, &skipped) && import_rows_add_response(out, "time_s") &&
         import_rows_note(out, "`time_s` is each srun step's Elapsed time (a job's only when "
                          "it has no srun steps); `np` its %s.", r.np_source);
    free(info);
    import_text_free(&text);
    return ok;
}
