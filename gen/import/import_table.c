/*
 * import_table.c — tables with a header line: any CSV file (`csv`) and JUBE
 * result tables (`jube`), as `jube result` writes them: the csv style, or
 * the pretty style ("| a | b |" lines under the table's title line
 * "NAME:", with a rule line "|---|---|" under the header; an older JUBE's
 * " a | b" with "---+---" is read too).
 *
 * Reading. CSV is RFC 4180 (gen/base/csvread.h). The separator is
 * --delimiter, else ';' when the header line has a ';' and no ',' outside
 * quotes (pandas' sep=';', JUBE's separator=";", a spreadsheet's export),
 * else ','. csvread splits at ',' only, so another separator is read by
 * swapping it and ',' byte for byte before parsing and back in every cell:
 * quotes and positions are unchanged. A number may be written with a
 * decimal comma ("1,5" is 1.5) with --decimal-comma or in a ';'-separated
 * file; a number with both '.' and ',' (a thousands mark) is not read as
 * a number. The file's bytes are held once and its rows streamed past
 * twice (csv_parse_rows), each row forgotten when handed on: first for
 * the facts the rules below need about whole columns (every cell a
 * number; a pandas index), then into the rows. A million-row file costs
 * its size, not a document of every cell.
 *
 * Columns. Each header cell becomes one runs.csv column, by the first rule
 * that fits:
 *   1. --map FROM=TO: TO (so --map X=X keeps X a configuration column).
 *      When TO is a time column, a time unit in the header still converts
 *      the values, and an unknown one is refused.
 *   2. A pandas index — an unnamed first column ("" or "Unnamed: 0") of
 *      distinct whole numbers >= 0 — is left out, so a data frame written
 *      with or without its index imports the same rows.
 *   3. A name import_is_procs_name knows (p, np, procs, ranks, tasks, ...)
 *      is np. No other column becomes np without --map.
 *   4. nodes, nnodes, num_nodes are nodes; cluster, system, machine are
 *      cluster; time_in_sec, time_in_seconds, seconds are time_s.
 *   5. A time (gen/base/units.h: the rule every importer follows). A
 *      header with a time unit ("time (ms)",
 *      "time[ms]", "Runtime(ms)", "solve_time_avg[ms]", "kernel_ns") is
 *      time_<part>_s with its values converted to seconds; <part> is the
 *      name's words less one duration word (time, runtime, walltime,
 *      elapsed, duration, t), and the column is time_s when nothing is
 *      left. A unit written as a last "_U" or " U" word counts only below a
 *      second (ns, us, µs, ms) or after a duration word ("walltime_min"):
 *      "n_min" is a parameter. A header without a unit whose words name a
 *      duration is in seconds: always for a lone duration word ("runtime"),
 *      else when every cell is a number and no word marks a point in time
 *      (start, end, stamp, date, limit: "time_limit" is a setting). A
 *      bracketed unit that is not a time unit on a name that says duration
 *      (units_name_is_duration: "time (furlongs)") is refused, never
 *      guessed.
 *   6. A measured figure is metric_<name>: a number column whose name has
 *      a result word (rate, bandwidth, bw, flops, gflops, throughput, perf,
 *      speedup, efficiency, residual, error, energy, latency, iops, score,
 *      pat — JUBE's tutorial names its patterns *_pat) or ends with a
 *      statistic (avg, mean, median, std, sd, var, sum, cnt, iqr). In a
 *      JUBE table also one with a bracketed unit that is not a time
 *      ("rate[MB/s]" -> metric_rate_MB_s) or ending with _min, _max,
 *      _first or _last: JUBE writes units, and derives these statistics,
 *      for patterns only, and patterns are results. (In a plain CSV,
 *      "size (MB)" stays a configuration column size_MB, and "n_min" too.)
 *      Results are measured, never configuration, so repetitions of one
 *      configuration group. --map X=X keeps any X a configuration column.
 *   7. Any other number column is a configuration column named by its
 *      header (made an identifier); a text column is tag_<name>.
 * A header cell without a name (but a pandas index), two header cells
 * that become one column, and a table without an np column are refused.
 *
 * Cells. np must be a whole number >= 1, time_s a number > 0, every other
 * time_* column a number >= 0. A converted time is written as the
 * shortest text that reads back as the same double (1600 ms -> 1.6), any
 * other number as written (a decimal comma made a point). The first
 * problem is reported at FILE:LINE:COL and nothing is imported.
 */
#include "gen/import/import.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gen/base/column_rules.h"
#include "gen/base/csvread.h"
#include "gen/base/fileio.h"
#include "gen/base/units.h"
#include "gen/base/words.h"
#include "gen/import/import_lines.h"
#include "gen/base/growth.h"

/* Names that always become one column (rule 4). */
static const struct {
    const char *from;
    const char *to;
} fixed_names[] = {
    {"nodes", "nodes"},        {"nnodes", "nodes"},  {"num_nodes", "nodes"},
    {"cluster", "cluster"},    {"system", "cluster"}, {"machine", "cluster"},
    {"time_in_sec", "time_s"}, {"time_in_seconds", "time_s"}, {"seconds", "time_s"},
};

static const char *const result_words[] = {
    "rate",    "bandwidth", "bw",         "flops",    "gflops", "mflops", "tflops",
    "throughput", "perf",   "performance", "speedup", "efficiency", "residual", "error",
    "energy",  "latency",   "iops",       "score",    "pat",    NULL};
static const char *const statistic_words[] = {"avg", "mean", "median", "std", "stddev", "sd",
                                              "var", "sum",  "cnt",    "iqr", NULL};
static const char *const jube_statistic_words[] = {"min", "max", "first", "last", NULL};

/* What becomes of one header cell. */
typedef struct {
    char *name;        /* runs.csv column (malloc'ed); NULL: the column is left out */
    double to_seconds; /* a converted time's unit in seconds; 1: written as it is */
    char unit[32];     /* the unit converted from, for the README note */
    bool number;       /* every cell is a number (or empty) */
    bool is_np, is_time, is_time_s; /* what its cells are checked for, said once */
} column_plan;

/* What one pass over a table's rows learned of its columns: facts about
 * whole columns that the plan needs before any row is added, in memory
 * that does not grow with the rows. */
typedef struct {
    bool *number;       /* per header cell: every cell under it is a number or empty */
    size_t ncols;
    size_t nrows;       /* rows under the header */
    bool index_whole;   /* an unnamed first column, every cell a whole number >= 0 */
    bool index_rising;  /* ... each above the one before, so all distinct */
    double index_last;
    bool index;         /* settled: the first column is a pandas index (rule 2) */
} column_facts;

/* One table being read: what every step needs. Borrowed, not owned. */
typedef struct {
    const import_request *req;
    const char *file;
    const import_line *head;   /* the header's cells */
    const column_facts *facts; /* what the rows under it hold */
    bool decimal_comma;
    bool jube;            /* a JUBE table: every unit and statistic is a pattern's */
    const char *style;    /* what the table looks like, for refusals */
    diag_list *diags;
} table;

/* ---- numbers ----------------------------------------------------------- */

/* text with its one decimal comma made a point, into buf; false when it
 * has none, has two, also has a '.', or does not fit. */
static bool comma_to_point(const char *text, char *buf, size_t len)
{
    const char *comma = strchr(text, ',');
    size_t n = strlen(text);
    if (!comma || strchr(comma + 1, ',') || strchr(text, '.') || n >= len)
        return false;
    memcpy(buf, text, n + 1);
    buf[comma - text] = '.';
    return true;
}

/* A cell as a finite number, reading a decimal comma where the table allows it. */
static bool cell_number(const table *tb, const char *text, double *v)
{
    char buf[64];
    if (tb->decimal_comma && strchr(text, ','))
        return comma_to_point(text, buf, sizeof buf) && import_number(buf, v);
    return import_number(text, v);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- column facts ------------------------------------------------------- */

/* Facts for the columns of head, before any row: every column a number
 * column, the first an index when it has no name ("" or "Unnamed: 0"). */
static bool facts_init(column_facts *f, const import_line *head)
{
    const char *first = head->nfields ? head->fields[0].text : "x";
    *f = (column_facts){.ncols = head->nfields, .index_rising = true};
    f->index_whole = !first[0] || strcmp(first, "Unnamed: 0") == 0;
    f->number = malloc(f->ncols + 1);
    if (f->number)
        memset(f->number, true, f->ncols + 1);
    return f->number != NULL;
}

/* Take in one row under the header: O(1) per cell. A pandas index is
 * 0, 1, 2, ... in order unless the frame was sorted or filtered, so
 * rising values (distinct without looking back) are the common case. */
static void facts_add_row(const table *tb, column_facts *f, const import_line *l)
{
    double v;
    for (size_t c = 0; c < f->ncols && c < l->nfields; c++)
        if (f->number[c] && l->fields[c].text[0] && !cell_number(tb, l->fields[c].text, &v))
            f->number[c] = false;
    if (f->index_whole) {
        f->index_whole = l->nfields > 0 && cell_number(tb, l->fields[0].text, &v) && v >= 0 &&
                         v == floor(v);
        f->index_rising = f->index_rising && f->index_whole && (f->nrows == 0 || v > f->index_last);
        f->index_last = f->index_whole ? v : 0;
    }
    f->nrows++;
}

/* Whether the first column's values are yet to be compared one with
 * another: whole numbers >= 0 that do not rise. */
static bool facts_need_values(const column_facts *f)
{
    return f->index_whole && !f->index_rising && f->nrows > 0;
}

/* Settle rule 2 once every row is in; values (the first column, nrows of
 * them, sorted here) are only needed when facts_need_values said so. */
static void facts_settle(column_facts *f, double *values)
{
    bool distinct = f->index_rising;
    if (!distinct && values) {
        qsort(values, f->nrows, sizeof *values, compare_doubles);
        distinct = true;
        for (size_t r = 1; distinct && r < f->nrows; r++)
            distinct = values[r] != values[r - 1];
    }
    f->index = f->index_whole && f->nrows > 0 && distinct;
}

static void facts_free(column_facts *f)
{
    free(f->number);
    f->number = NULL;
}

/* ---- names ------------------------------------------------------------- */

/* "time_s", or "time_<part>_s" with part the words of stem's identifier
 * less its first duration word. Malloc'ed; NULL when out of memory. */
static char *time_name(const char *stem)
{
    char *id = import_identifier(stem);
    char *out = id ? malloc(strlen(id) + 8) : NULL;
    if (!out) {
        free(id);
        return NULL;
    }
    strcpy(out, "time");
    bool dropped = false;
    for (const char *p = id; *p;) {
        size_t n = words_len(p);
        if (n && !dropped && units_is_duration_word(p, n))
            dropped = true;
        else if (n)
            sprintf(out + strlen(out), "_%.*s", (int)n, p);
        p += n + (p[n] != '\0');
    }
    strcat(out, "_s");
    free(id);
    return out;
}

/* prefix + the identifier of text, unless it starts with prefix already. */
static char *prefixed(const char *prefix, const char *text)
{
    char *id = import_identifier(text);
    if (!id || strncmp(id, prefix, strlen(prefix)) == 0)
        return id;
    char *out = malloc(strlen(prefix) + strlen(id) + 1);
    if (out)
        sprintf(out, "%s%s", prefix, id);
    free(id);
    return out;
}

/* ---- the plan: what each header cell becomes ---------------------------- */

/* The unit units_in_header found in a header, and what it means here. */
typedef struct {
    units_found found;
    char stem[256];
    double to_seconds;
    const char *unit;
    size_t unit_len;
    bool counts; /* a time unit that converts (see rule 5) */
} header_unit;

/* Whether the "_min" that ends header is a statistic, not minutes: always
 * in a JUBE table (JUBE derives _min/_max/_avg for patterns), and in any
 * table with a sibling column of the same stem ending _max, _avg or _mean
 * ("runtime_min" beside "runtime_max": 9 is the least time, not 540 s). */
static bool min_is_statistic(const table *tb, const char *header)
{
    static const char *const min_word[] = {"min", NULL};
    static const char *const siblings[] = {"max", "avg", "mean"};
    size_t n = strlen(header);
    if (units_bracketed(header) || !words_last_in(header, min_word) || n < 4 ||
        strcasecmp(header + n - 4, "_min") != 0)
        return false;
    if (tb->jube)
        return true;
    for (size_t c = 0; c < tb->head->nfields; c++) {
        const char *other = tb->head->fields[c].text;
        for (size_t k = 0; k < sizeof siblings / sizeof siblings[0]; k++)
            if (strncasecmp(other, header, n - 3) == 0 && strcasecmp(other + n - 3, siblings[k]) == 0)
                return true;
    }
    return false;
}

static void read_unit(const table *tb, const char *header, header_unit *u)
{
    u->to_seconds = 1;
    u->found = units_in_header(header, u->stem, sizeof u->stem, &u->to_seconds, &u->unit,
                               &u->unit_len);
    if (u->found == UNITS_TIME && min_is_statistic(tb, header)) {
        u->found = UNITS_NONE; /* the name is the stem: runtime_min -> time_min_s */
        snprintf(u->stem, sizeof u->stem, "%s", header);
        u->unit = NULL;
        u->unit_len = 0;
    }
    u->counts = u->found == UNITS_TIME && units_unit_makes_time(header, u->stem, u->to_seconds);
    if (u->found != UNITS_TIME)
        u->to_seconds = 1;
}

static bool refuse(const table *tb, size_t col, const char *why, const char *header)
{
    const import_field *h = &tb->head->fields[col];
    diag_add(tb->diags, tb->file, tb->head->line, h->column, "'%s': %s", header, why);
    return false;
}

/* The unit of a time column: converts when it counts, refused when unknown. */
static bool time_unit(const table *tb, size_t col, const header_unit *u, column_plan *p)
{
    if (u->found == UNITS_UNKNOWN)
        return refuse(tb, col,
                      "a time in a unit perfcast does not know (it knows " UNITS_KNOWN
                      "): it is not guessed; give the column in one of these units",
                      tb->head->fields[col].text);
    if (u->counts) {
        p->to_seconds = u->to_seconds;
        snprintf(p->unit, sizeof p->unit, "%.*s", (int)u->unit_len, u->unit);
    } else if (u->found == UNITS_NONE && tb->req->time_unit) {
        p->to_seconds = import_unitless_time(tb->req); /* --time-unit */
        snprintf(p->unit, sizeof p->unit, "%s (--time-unit)", tb->req->time_unit);
    }
    return true;
}

/* Rules 5 to 7 for a header no earlier rule named. */
static bool plan_by_content(const table *tb, size_t col, const header_unit *u, column_plan *p)
{
    if (u->found == UNITS_UNKNOWN && units_name_is_duration(u->stem))
        return time_unit(tb, col, u, p); /* refused: an unknown unit on a time */
    const char *header = tb->head->fields[col].text;
    const char *word;
    size_t word_len;
    if (units_name_is_duration(u->stem) && !units_name_is_instant(u->stem) &&
        units_unknown_word(u->stem, &word, &word_len)) {
        char why[512];
        snprintf(why, sizeof why,
                 "a time whose name carries '%.*s', which reads as a unit perfcast does not "
                 "know (it knows " UNITS_KNOWN "): it is not guessed; say what the column is "
                 "with --map '%s'=time_s and its unit with --time-unit U",
                 (int)word_len, word, header);
        return refuse(tb, col, why, header);
    }
    char *id = import_identifier(header);
    if (!id)
        return false;
    bool duration = units_name_is_duration(id) && !units_name_is_instant(id);
    bool lone_duration = !id[words_len(id)] && units_is_duration_word(id, strlen(id));
    bool result = words_any_in(id, result_words) || words_last_in(id, statistic_words) ||
                  (tb->jube && (u->found == UNITS_UNKNOWN ||
                                words_last_in(id, jube_statistic_words)));
    if (u->counts)
        p->name = time_name(u->stem);
    else if (lone_duration || (duration && p->number && u->found == UNITS_NONE))
        p->name = time_name(header);
    else if (p->number && result && !column_is_measured(id))
        p->name = prefixed("metric_", header);
    else
        p->name = p->number ? strdup(id) : prefixed("tag_", header);
    free(id);
    return p->name && (!column_is_time(p->name) || time_unit(tb, col, u, p));
}

/* What header cell col becomes; false when refused (recorded) or out of memory. */
static bool plan_column(const table *tb, size_t col, column_plan *p)
{
    const char *header = tb->head->fields[col].text;
    const char *mapped = import_mapped(tb->req, header);
    header_unit u;
    read_unit(tb, header, &u);
    p->to_seconds = 1;
    p->number = tb->facts->number[col];
    if (mapped != header) {
        p->name = strdup(mapped);
        return p->name && (!column_is_time(p->name) || time_unit(tb, col, &u, p));
    }
    if (col == 0 && tb->facts->index)
        return true; /* rule 2: left out */
    if (!header[0])
        return refuse(tb, col, "a column without a name: name it in the header", header);
    if (import_is_procs_name(header))
        return (p->name = strdup("np")) != NULL;
    for (size_t i = 0; i < sizeof fixed_names / sizeof fixed_names[0]; i++)
        if (strcasecmp(header, fixed_names[i].from) == 0)
            return (p->name = strdup(fixed_names[i].to)) != NULL;
    return plan_by_content(tb, col, &u, p);
}

static void plans_free(column_plan *plan, size_t n)
{
    for (size_t c = 0; plan && c < n; c++)
        free(plan[c].name);
    free(plan);
}

/* Every header cell planned, no two into one column, an np column among them. */
static bool plan_columns(const table *tb, column_plan *plan)
{
    const import_line *head = tb->head;
    bool ok = true, have_np = false;
    for (size_t c = 0; ok && c < head->nfields; c++) {
        ok = plan_column(tb, c, &plan[c]);
        if (ok && plan[c].name) {
            plan[c].is_np = strcmp(plan[c].name, "np") == 0;
            plan[c].is_time = column_is_time(plan[c].name);
            plan[c].is_time_s = strcmp(plan[c].name, "time_s") == 0;
        }
        for (size_t k = 0; ok && plan[c].name && k < c; k++)
            if (plan[k].name && strcmp(plan[k].name, plan[c].name) == 0) {
                diag_add(tb->diags, tb->file, head->line, head->fields[c].column,
                         "'%s' and '%s' (column %zu) would both be the column %s: --map one "
                         "of them to another name",
                         head->fields[c].text, head->fields[k].text, k + 1, plan[c].name);
                ok = false;
            }
        have_np = have_np || (ok && plan[c].is_np);
    }
    if (ok && !have_np) {
        diag_add(tb->diags, tb->file, head->line, 1,
                 "no process-count column (a header named p, np, procs, processes, ranks, "
                 "tasks, ntasks or num_tasks): name it with --map COLUMN=np; no other column "
                 "is taken as the process count");
        ok = false;
    }
    return ok;
}

/* ---- cells and rows ----------------------------------------------------- */

/* Check a cell against its column's rule; false (recorded) when it breaks it. */
static bool check_cell(const table *tb, const import_line *l, size_t col, const column_plan *p)
{
    const import_field *f = &l->fields[col];
    double v;
    bool is_np = p->is_np, is_time_s = p->is_time_s;
    if ((!is_np && !p->is_time) || (!f->text[0] && !is_np))
        return true;
    bool ok = cell_number(tb, f->text, &v);
    if (ok && is_np)
        ok = v >= 1 && v == floor(v);
    else if (ok)
        ok = is_time_s ? v > 0 : v >= 0;
    if (!ok)
        diag_add(tb->diags, tb->file, l->line, f->column, "%s '%s' is not %s", p->name, f->text,
                 is_np       ? "a whole number >= 1"
                 : is_time_s ? "a number of seconds > 0"
                             : "a number >= 0");
    return ok;
}

/* Put a checked cell into the last row of out. */
static bool set_cell(const table *tb, const char *text, const column_plan *p, import_rows *out)
{
    double v;
    char buf[64];
    if (!text[0])
        return import_rows_set(out, p->name, NULL);
    if (p->to_seconds != 1 && cell_number(tb, text, &v))
        return import_rows_set_number(out, p->name, units_in_seconds(v, p->to_seconds));
    if (p->number && tb->decimal_comma && comma_to_point(text, buf, sizeof buf))
        return import_rows_set(out, p->name, buf);
    return import_rows_set(out, p->name, text);
}

static bool add_row(const table *tb, const import_line *l, const column_plan *plan,
                    import_rows *out)
{
    size_t want = tb->head->nfields;
    if (l->nfields != want) {
        diag_add(tb->diags, tb->file, l->line, l->nfields > want ? l->fields[want].column : 1,
                 "%s; this line has %zu cells where the header has %zu", tb->style, l->nfields,
                 want);
        return false;
    }
    bool ok = import_rows_add_row(out);
    for (size_t c = 0; ok && c < l->nfields; c++)
        ok = !plan[c].name ||
             (check_cell(tb, l, c, &plan[c]) && set_cell(tb, l->fields[c].text, &plan[c], out));
    return ok;
}

/* The responses (time_s first, then the other times) and a README note
 * for every column renamed, converted or left out. */
static bool describe(const table *tb, const column_plan *plan, import_rows *out)
{
    const import_line *head = tb->head;
    bool ok = true;
    for (size_t c = 0; ok && c < head->nfields; c++)
        if (plan[c].name && strcmp(plan[c].name, "time_s") == 0)
            ok = import_rows_add_response(out, "time_s");
    for (size_t c = 0; ok && c < head->nfields; c++) {
        const column_plan *p = &plan[c];
        const char *source = head->fields[c].text;
        if (!p->name)
            ok = import_rows_note(out, "The source's unnamed first column ('%s': 0, 1, 2, ...) "
                                       "is a pandas index and was left out.", source);
        else if (column_is_time(p->name) && !(ok = import_rows_add_response(out, p->name)))
            break;
        if (ok && p->name && p->to_seconds != 1)
            ok = import_rows_note(out, "`%s` is the column '%s' of the source, converted from "
                                       "%s to seconds.", p->name, source, p->unit);
        else if (ok && p->name && strcmp(p->name, source) != 0)
            ok = import_rows_note(out, "`%s` is the column '%s' of the source.", p->name,
                                  source);
    }
    return ok;
}

/* Adds every row under the header to out with add_row, in order; false
 * when one is refused (recorded) or out of memory. */
typedef bool (*rows_fn)(const table *tb, const column_plan *plan, void *ctx, import_rows *out);

/* Rows from a header-first table: the plan, then the rows, then what the
 * campaign README says of them. */
static bool table_rows(const table *tb, rows_fn rows, void *ctx, import_rows *out)
{
    const import_line *head = tb->head;
    column_plan *plan = calloc(head->nfields + 1, sizeof *plan);
    size_t before = tb->diags->count;
    bool ok = plan != NULL;
    for (size_t c = 0; ok && c < head->nfields; c++)
        ok = import_rows_source(out, head->fields[c].text); /* what --map may name */
    ok = ok && plan_columns(tb, plan) && rows(tb, plan, ctx, out);
    ok = ok && describe(tb, plan, out);
    if (ok && out->nresponses == 0 && !tb->req->response) {
        diag_add(tb->diags, tb->file, head->line, 1,
                 "no time column: name one with --map COLUMN=time_s, or choose the column "
                 "to predict with --response (a metric_* column, say)");
        ok = false;
    }
    if (!ok && tb->diags->count == before)
        diag_add(tb->diags, tb->file, 0, 0, "out of memory");
    plans_free(plan, head->nfields);
    return ok;
}

/* ---- CSV ---------------------------------------------------------------- */

/* Swap bytes a and b throughout s[0..n). */
static void swap_bytes(char *s, size_t n, char a, char b)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == a)
            s[i] = b;
        else if (s[i] == b)
            s[i] = a;
}

/* The separator: --delimiter, else ';' when the first non-blank line has
 * a ';' and no ',' outside quotes, else ','. */
static char separator(const import_request *req, const char *data, size_t len)
{
    if (req->delimiter)
        return req->delimiter;
    bool quoted = false, semicolon = false, text = false;
    for (size_t i = 0; i < len; i++) {
        char c = data[i];
        if (c == '"')
            quoted = !quoted;
        else if (!quoted && c == ',')
            return ',';
        else if (!quoted && c == '\n' && text)
            break;
        semicolon |= !quoted && c == ';';
        text |= c != ' ' && c != '\t' && c != '\r' && c != '\n';
    }
    return semicolon ? ';' : ',';
}

/* A csv_row as an import_line, the form the table steps read: each cell
 * trimmed of blanks (its column moved past them and past an opening
 * quote) and, for a separator sep other than ',', swapped back. The texts
 * live in text until the next row. */
typedef struct {
    char sep;
    import_line line;
    size_t field_cap;
    char *text;
    size_t text_cap;
} row_cells;

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static bool cells_of(row_cells *rc, const csv_row *row)
{
    size_t bytes = 0;
    for (size_t c = 0; c < row->nfields; c++)
        bytes += strlen(row->fields[c].text) + 1;
    if (!growth_reserve((void **)&rc->line.fields, &rc->field_cap, row->nfields + 1,
                 sizeof *rc->line.fields) ||
        !growth_reserve((void **)&rc->text, &rc->text_cap, bytes + 1, 1))
        return false;
    char *to = rc->text;
    rc->line.line = row->line;
    rc->line.nfields = row->nfields;
    for (size_t c = 0; c < row->nfields; c++) {
        const char *s = row->fields[c].text, *end = s;
        while (is_blank(*s))
            s++;
        for (const char *p = s; *p; p++)
            if (!is_blank(*p))
                end = p + 1;
        size_t len = end > s ? (size_t)(end - s) : 0;
        memcpy(to, s, len);
        to[len] = '\0';
        if (rc->sep != ',')
            swap_bytes(to, len, rc->sep, ',');
        rc->line.fields[c].text = to;
        rc->line.fields[c].column =
            row->fields[c].column + (long)(s - row->fields[c].text) + row->fields[c].quoted;
        to += len + 1;
    }
    return true;
}

static void cells_free(row_cells *rc)
{
    free(rc->line.fields);
    free(rc->text);
}

/* A copy of line's cells that outlives the row (the header); false when
 * out of memory, with what was copied left in out for line_free. */
static bool copy_line(const import_line *line, import_line *out)
{
    *out = (import_line){NULL, line->line, calloc(line->nfields + 1, sizeof *out->fields), 0};
    if (!out->fields)
        return false;
    for (size_t c = 0; c < line->nfields; c++, out->nfields++) {
        out->fields[c].column = line->fields[c].column;
        if (!(out->fields[c].text = strdup(line->fields[c].text)))
            return false;
    }
    return true;
}

static void line_free(import_line *l)
{
    for (size_t f = 0; f < l->nfields; f++)
        free(l->fields[f].text);
    free(l->fields);
    free(l->text);
}

/* A CSV file being read: its bytes (separators swapped to ','), parsed
 * again for every pass, and what the first pass kept. */
typedef struct {
    table tb;
    const char *data;
    size_t len;
    row_cells cells;
    import_line head;   /* the header's cells, copied */
    column_facts facts;
    size_t rows;        /* rows the current pass has seen, the header included */
    long first_line;    /* where the header is */
    bool pretty;        /* the header or the row under it starts with '|' */
    bool oom;
    const column_plan *plan; /* pass 2 */
    import_rows *out;
    double *values;     /* the first column, when it is to be sorted */
} csv_source;

/* Pass 1: keep the header, learn the columns' facts from the rows. A JUBE
 * pretty table handed to `csv` shows in its header (or, under a title
 * line, its next line) starting with '|'. */
static bool survey_row(void *ctx, const csv_row *row)
{
    csv_source *src = ctx;
    if (src->rows < 2 && row->nfields &&
        row->fields[0].text[strspn(row->fields[0].text, " \t")] == '|')
        src->pretty = true;
    src->oom = !cells_of(&src->cells, row);
    if (!src->oom && src->rows++ == 0) {
        src->first_line = row->line;
        src->oom = !copy_line(&src->cells.line, &src->head) ||
                   !facts_init(&src->facts, &src->head);
    } else if (!src->oom) {
        facts_add_row(&src->tb, &src->facts, &src->cells.line);
    }
    return !src->oom;
}

/* The first column's values, when rule 2 must sort them. */
static bool index_value_row(void *ctx, const csv_row *row)
{
    csv_source *src = ctx;
    if (src->rows++ == 0)
        return true;
    src->oom = !cells_of(&src->cells, row);
    /* every first cell is a number: pass 1 saw to it */
    if (!src->oom)
        cell_number(&src->tb, src->cells.line.fields[0].text, &src->values[src->rows - 2]);
    return !src->oom;
}

/* Pass 2: every row under the header into the rows. */
static bool add_csv_row(void *ctx, const csv_row *row)
{
    csv_source *src = ctx;
    if (src->rows++ == 0)
        return true;
    return cells_of(&src->cells, row) && add_row(&src->tb, &src->cells.line, src->plan, src->out);
}

static bool csv_rows(const table *tb, const column_plan *plan, void *ctx, import_rows *out)
{
    csv_source *src = ctx;
    src->rows = 0;
    src->plan = plan;
    src->out = out;
    return csv_parse_rows(src->data, src->len, tb->file, add_csv_row, src, tb->diags);
}

/* Pass 1, and the sort rule 2 may need; false when the file is unusable
 * (recorded). */
static bool survey_csv(csv_source *src, diag_list *diags)
{
    const char *path = src->tb.file;
    size_t before = diags->count;
    bool ok = csv_parse_rows(src->data, src->len, path, survey_row, src, diags) &&
              diags->count == before;
    if (ok && src->pretty) {
        diag_add(diags, path, src->first_line, 1,
                 "looks like JUBE's pretty style ('|' between cells); expected CSV: import it "
                 "with `perfcast import jube`");
        ok = false;
    }
    if (ok && src->rows < 2) {
        diag_add(diags, path, 0, 0, "no rows under the header: nothing to import");
        ok = false;
    }
    if (ok && facts_need_values(&src->facts)) {
        src->rows = 0;
        src->values = malloc(src->facts.nrows * sizeof *src->values);
        src->oom = !src->values;
        ok = src->values &&
             csv_parse_rows(src->data, src->len, path, index_value_row, src, diags);
    }
    if (ok)
        facts_settle(&src->facts, src->values);
    if (!ok && src->oom)
        diag_add(diags, path, 0, 0, "out of memory");
    return ok;
}

/* The file's bytes are read once and parsed in two passes (three when a
 * pandas index is out of order), each row handed over and forgotten: a
 * million-row file is held once, not as a document of every cell. */
bool import_read_csv(const import_request *req, const char *path, import_rows *out,
                     diag_list *diags)
{
    size_t len = 0;
    char *data = fileio_read_file(path, &len);
    if (!data) {
        diag_add(diags, path, 0, 0, "cannot read: %s", strerror(errno));
        return false;
    }
    char sep = separator(req, data, len);
    char style[64];
    snprintf(style, sizeof style, "read as CSV with '%s' between cells",
             sep == '\t' ? "\\t" : (char[2]){sep, '\0'});
    bool jube = req->format && strcmp(req->format, "jube") == 0;
    csv_source src = {.tb = {req, path, NULL, NULL, req->decimal_comma || sep == ';', jube, style,
                             diags},
                      .data = data, .len = len, .cells = {.sep = sep}};
    if (sep != ',')
        swap_bytes(data, len, sep, ',');
    src.tb.head = &src.head;
    src.tb.facts = &src.facts;
    bool ok = survey_csv(&src, diags) && table_rows(&src.tb, csv_rows, &src, out);
    free(src.values);
    facts_free(&src.facts);
    line_free(&src.head);
    cells_free(&src.cells);
    free(data);
    return ok;
}

/* ---- JUBE's pretty style ------------------------------------------------ */

/* A pretty-style rule line: only '-', '+', '|' and blanks. */
static bool is_rule(const import_line *l)
{
    return strspn(l->text, "-+| \t") == strlen(l->text);
}

/* Drop the first skip lines (a title), rule lines, and the empty first
 * and last cells of "| a | b |" lines. */
static void tidy_pretty(import_text *t, size_t skip)
{
    size_t kept = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        import_line *l = &t->lines[i];
        if (i < skip || is_rule(l)) {
            line_free(l);
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

/* Lines before the header: 1 for the table's title line JUBE writes above
 * a pretty table ("NAME:", no '|', the next line starting with '|'). */
static size_t title_lines(const import_text *t)
{
    if (t->nlines < 2 || strchr(t->lines[0].text, '|'))
        return 0;
    const char *next = t->lines[1].text;
    return next[strspn(next, " \t")] == '|' ? 1 : 0;
}

/* The facts of a pretty table's columns, every row being in memory. */
static bool pretty_facts(const table *tb, const import_text *t, column_facts *f)
{
    if (!facts_init(f, &t->lines[0])) {
        diag_add(tb->diags, tb->file, 0, 0, "out of memory");
        return false;
    }
    for (size_t r = 1; r < t->nlines; r++)
        facts_add_row(tb, f, &t->lines[r]);
    double *values = facts_need_values(f) ? malloc(f->nrows * sizeof *values) : NULL;
    if (facts_need_values(f) && !values) {
        diag_add(tb->diags, tb->file, 0, 0, "out of memory");
        return false;
    }
    for (size_t r = 0; values && r < f->nrows; r++)
        cell_number(tb, t->lines[r + 1].fields[0].text, &values[r]);
    facts_settle(f, values);
    free(values);
    return true;
}

static bool text_rows(const table *tb, const column_plan *plan, void *ctx, import_rows *out)
{
    const import_text *t = ctx;
    bool ok = true;
    for (size_t r = 1; ok && r < t->nlines; r++)
        ok = add_row(tb, &t->lines[r], plan, out);
    return ok;
}

bool import_read_jube(const import_request *req, const char *path, import_rows *out,
                      diag_list *diags)
{
    import_text t;
    if (!import_text_read(path, path, '|', &t, diags))
        return false;
    size_t title = title_lines(&t);
    if (!strchr(t.lines[title].text, '|')) {
        import_text_free(&t);
        return import_read_csv(req, path, out, diags);
    }
    tidy_pretty(&t, title);
    table tb = {req, path, &t.lines[0], NULL, req->decimal_comma, true,
                "looks like JUBE's pretty style ('|' between cells)", diags};
    bool ok = t.nlines >= 2;
    if (!ok)
        diag_add(diags, path, 0, 0,
                 "looks like JUBE's pretty style, but no rows under the header line: nothing "
                 "to import");
    column_facts facts = {0};
    ok = ok && pretty_facts(&tb, &t, &facts);
    tb.facts = &facts;
    ok = ok && table_rows(&tb, text_rows, &t, out);
    facts_free(&facts);
    import_text_free(&t);
    return ok;
}
