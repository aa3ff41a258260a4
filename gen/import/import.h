/*
 * import.h — turning benchmark results in other tools' formats into an
 * archive campaign (runs.csv + experiments.csv + README.md).
 *
 * Every format reader (gen/import/import_extrap.c, import_reframe.c, import_sacct.c,
 * import_table.c for JUBE and any CSV) fills an import_rows: a table of text
 * cells whose columns are runs.csv columns, in the order they were first
 * used. import_write_campaign then merges it into the archive:
 *
 *   - the campaign folder is created when absent;
 *   - runs.csv gets the new rows after the old ones; a row equal to one
 *     already there, or to an earlier one of the same import (the same
 *     cell in every column, numbers compared as numbers: 2.0 is 2), is not
 *     added twice, so importing a file again adds
 *     nothing; rows already there are never changed. New columns come last,
 *     empty in the old rows;
 *   - experiments.csv gets the default experiments (gen/import/import_experiments.h:
 *     per response column and per configuration besides the process count)
 *     whose names are not there yet;
 *   - README.md is written when absent, else a line saying what was added is
 *     appended;
 *   - every cluster named by the rows that clusters.csv lacks is appended to
 *     clusters.csv (name and a description saying it came from an import).
 *
 * Problems in the input are recorded as FILE:LINE:COL: message; a reader
 * that records any problem imports nothing (no half-imported file).
 *
 * Ownership: an import_rows owns every string in it; import_rows_free
 * releases them (and may be called again: it leaves an empty table).
 * Strings passed in are copied; a cell returned by import_rows_get lives
 * as long as the table.
 */
#ifndef PERFCAST_IMPORT_H
#define PERFCAST_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/base/diag.h"

typedef struct import_arena import_arena;

/* The unit a column's values were first given in, and where. */
typedef struct {
    char *column, *unit, *file;
    long line, at;
} import_unit;

typedef struct {
    char **names;   /* column names (runs.csv header), in order of first use */
    size_t ncols;
    size_t nrows;
    char **responses; /* columns the default experiments predict, in order */
    size_t nresponses;
    char **notes;   /* lines for the campaign README (units, what was skipped) */
    size_t nnotes;
    char **sources; /* the source's names --map FROM may take (import_rows_source) */
    size_t nsources;
    import_unit *units; /* per column whose source gives a unit per value */
    size_t nunits;
    /* Private to import_rows.c (read cells with import_rows_get). A row's
     * cells are packed one after the other, each ended by its NUL, in an
     * arena: a million rows are millions of cells, and an allocation and a
     * pointer each cost several times the file in memory. The last row is
     * open: its cells are found through `open` until the next row starts. */
    char **packed;        /* row r's first cell; its nrow_cols[r] cells follow */
    size_t *nrow_cols;
    size_t rows_cap;
    char **open;          /* the last row's cells by column, NULL = unset */
    size_t open_cap, open_cols;
    size_t text_bytes;    /* the cells' texts with their NULs, all rows */
    import_arena *arena;
    size_t *name_slots;   /* column index + 1 by hash of its name; 0 = free */
    size_t nname_slots;
    size_t next_column;   /* the column after the last one set: readers set a
                             row's columns in the same order every row */
} import_rows;

/* A source column renamed to a runs.csv column: --map from=to. */
typedef struct {
    const char *from;
    const char *to;
} import_map;

/* What the command line asked for. */
typedef struct {
    const char *format;       /* extrap | reframe | sacct | jube | csv */
    const char *archive;      /* archive folder */
    const char *campaign;     /* campaign folder name */
    const char *cluster;      /* cluster for rows whose source names none; NULL = "imported" */
    const char *response;     /* column the default experiment predicts; NULL = the format's */
    const import_map *maps;   /* --map pairs */
    size_t nmaps;
    char delimiter;           /* --delimiter for csv/jube: ',' or ';' etc.; 0 = detect */
    bool decimal_comma;       /* --decimal-comma: "1,5" is 1.5 (csv/jube) */
    bool allow_truncated;     /* --allow-truncated: accept a last line without a line end */
    const char *time_unit;    /* --time-unit: the unit of times the source gives without
                                 one (an Extra-P time metric, a CSV/JUBE "time" column);
                                 NULL: seconds */
    double time_unit_seconds; /* that unit in seconds (gen/base/units.h); 0 when NULL */
    const char *scaling;      /* --scaling: "strong" or "weak" (checked by the caller,
                                 gen/fit/scaling_option.h), written into the options of the
                                 default experiments it adds; NULL: none */
} import_request;

void import_rows_init(import_rows *t);
void import_rows_free(import_rows *t);

/* Start a new, empty row; false when out of memory. */
bool import_rows_add_row(import_rows *t);

/* Set column of the last row to value (copied; NULL or "" = empty).
 * Adds the column when it is new. False when out of memory. */
bool import_rows_set(import_rows *t, const char *column, const char *value);

/* Set a number with the shortest text that reads back as the same double. */
bool import_rows_set_number(import_rows *t, const char *column, double value);

/* The cell of row r, column name; NULL when empty or absent. The text
 * lives as long as the table. */
const char *import_rows_get(const import_rows *t, size_t r, const char *column);

/* Row r's cells by column index into cells[0..ncols) (NULL when empty or
 * past the row's end): one walk over the row instead of a lookup by name
 * per cell. */
void import_rows_cells(const import_rows *t, size_t r, const char **cells);

/* The index of column name, or -1. */
long import_rows_column(const import_rows *t, const char *name);

/* The bytes of every cell's text, their NULs included: what writing the
 * rows out will take, give or take quoting. */
size_t import_rows_text_bytes(const import_rows *t);

/* Record a response column (once) and a README note (printf-formatted). */
bool import_rows_add_response(import_rows *t, const char *column);
bool import_rows_note(import_rows *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Record a name of the source (a header column, a parameter, a variable)
 * that the reader would apply a --map FROM=TO to, once: a FROM that no
 * reader recorded is a typo (import_unknown_map). False when out of
 * memory. */
bool import_rows_source(import_rows *t, const char *name);

/* The first --map whose FROM no reader recorded as a source name, or NULL. */
const import_map *import_unknown_map(const import_request *req, const import_rows *t);

/* Record that column's values are in unit, given at file:line:at, the
 * first time; later, a unit that differs sets *other to the first record
 * (else NULL): one column in two units would mix scales. False when out
 * of memory. */
bool import_rows_unit(import_rows *t, const char *column, const char *unit, const char *file,
                      long line, long at, const import_unit **other);

/* The runs.csv column a source name becomes: the --map target when one is
 * given, else the name itself. Borrowed from req or name. */
const char *import_mapped(const import_request *req, const char *name);

/* The length in seconds of the unit of a time the source gives without one:
 * --time-unit's, else 1 (seconds). */
double import_unitless_time(const import_request *req);

/* A column name usable in formulas and filters, made from any text: letters,
 * digits and '_' kept, every other run of characters one '_', a leading
 * digit prefixed with '_'. Malloc'ed (caller frees); NULL when out of memory. */
char *import_identifier(const char *text);

/* Whether a source parameter's name says it counts processes: p, np,
 * nprocs, procs, processes, ranks, nranks, mpi_ranks, tasks, ntasks,
 * num_tasks, num_procs, mpi_tasks (any case). The one rule every reader uses to pick
 * the process count without --map; a parameter named otherwise is never
 * taken as np. */
bool import_is_procs_name(const char *name);

/* A cluster name from a scheduler's system and partition (NULL = none):
 * "system-partition", every character but letters, digits, '.', '_' and
 * '-' made '-'. Malloc'ed; NULL when out of memory. */
char *import_cluster_name(const char *system, const char *partition);

/* Check the rows (np whole and >= 1 in every row, a time or response
 * column present) and merge them into the archive as described above:
 * everything is built and validated with the archive reader's own checks
 * before anything is written, then written atomically under a lock
 * (gen/import/import_txn.h); a refusal writes nothing. source names the
 * imported files for the README. rows is released (import_rows_free) once
 * its runs are staged, whatever the outcome: a later import_rows_free is
 * harmless. Returns the number of rows added, or -1 with the reason in
 * diags. */
long import_write_campaign(const import_request *req, import_rows *rows, const char *source,
                           diag_list *diags);

/* The readers, one per format (gen/import_<format>.c). Each parses path
 * (shown as display in messages) and appends rows to out; false when the
 * file has problems (recorded in diags). */
bool import_read_extrap(const import_request *req, const char *path, import_rows *out,
                        diag_list *diags);
bool import_read_reframe(const import_request *req, const char *path, import_rows *out,
                         diag_list *diags);
bool import_read_sacct(const import_request *req, const char *path, import_rows *out,
                       diag_list *diags);
bool import_read_jube(const import_request *req, const char *path, import_rows *out,
                      diag_list *diags);
bool import_read_csv(const import_request *req, const char *path, import_rows *out,
                     diag_list *diags);

#endif
