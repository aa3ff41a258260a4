/*
 * import_reframe3.h — ReFrame 3 performance logs (no header line), read by
 * `perfcast import reframe` when a file does not start with ReFrame 4's
 * header, and the rules every ReFrame reader shares (the 4.x perflog in
 * gen/import/import_reframe.c, the JSON run report in
 * gen/import/import_reframe_json.c): they live here, the lowest of the
 * three, so that no two readers use each other.
 *
 * ReFrame 3's default format, with num_tasks added as most sites do; the
 * label is "NAME on SYS:PART using ENV" up to 3.9 and
 * "DISPLAY_NAME @SYS:PART+ENV" from 3.10 on, where the display name carries
 * the test's parameters ("stream %size=100 %tasks=2"):
 *
 *   2022-01-19T17:17:15+0100|reframe 3.12.0|stream %size=100 @daint:gpu+gnu|
 *       jobid=1234|num_tasks=4|Copy=41012.3|ref=0 (l=null, u=null)|MB/s
 *
 * One line per performance variable; consecutive lines of the same job
 * (completion time and jobid) are one run. Fields system=, partition= and
 * environ= (a site's own format) override the label's. Without num_tasks=,
 * a parameter named as a process count (tasks, np, ...) gives np.
 */
#ifndef PERFCAST_IMPORT_REFRAME3_H
#define PERFCAST_IMPORT_REFRAME3_H

#include "gen/import/import.h"
#include "gen/import/import_lines.h"

/* True when line looks like a ReFrame 3 perflog line ("DATE|reframe X|..."). */
bool import_reframe3_line(const import_line *l);

/* Read every line of text (already split at '|') into out. */
bool import_reframe3_read(const import_request *req, const char *file, const import_text *text,
                          import_rows *out, diag_list *diags);

/* ---- Shared by every ReFrame reader ---- */

/* Where a value came from, for FILE:LINE:COL messages. */
typedef struct {
    const char *file;
    long line;
    long column;
    diag_list *diags;
} import_reframe3_at;

/* Whether a performance unit is a time unit (gen/base/units.h). */
bool import_reframe3_unit_is_time(const char *unit);

/* Set performance variable var (value as text, NULL = missing, in unit,
 * NULL = none given) on the last row of out, as a response with a README
 * note. A time unit makes it time_<var>_s (time_s when only_time: it is the
 * file's only timed variable) converted to seconds, which must be > 0; any
 * other unit metric_<var>, the value unchanged, and in the unit its
 * column's first value had (import_rows_unit: two units, from one file or
 * several, are refused naming both). A variable whose name says
 * it is a duration but whose unit is no time unit (and no rate such as
 * "steps/s") is refused: its scale cannot be known. False after recording
 * the problem at at. */
bool import_reframe3_set_perf(import_rows *out, const char *var, const char *value,
                              const char *unit, bool only_time, const import_reframe3_at *at);

/* Set code (the test's name) and one column per test parameter from a
 * display name "NAME %p=v %q=w": a number into column p (param_p when p is
 * a column perfcast fills itself or a measured one), text into tag_p; a
 * fixture's "%f.p=v" as f_p. A parameter named as a process count (see
 * import_is_procs_name) is the run's np, not a column of its own. False
 * when out of memory (recorded at at). */
bool import_reframe3_set_name(import_rows *out, const char *display_name,
                              const import_reframe3_at *at);

/* The value of the first parameter of display_name named as a process
 * count, malloc'ed; NULL when there is none. */
char *import_reframe3_name_procs(const char *display_name);

/* Set np (and ppn when per_node is a whole number >= 1): tasks must be a
 * whole number >= 1, else the problem is recorded at at naming what. */
bool import_reframe3_set_np(import_rows *out, const char *what, const char *tasks,
                            const char *per_node, const import_reframe3_at *at);

/* Set date from a completion time as ReFrame prints it
 * (YYYY-MM-DD, optionally followed by "T..." or " ...", as in
 * "2024-05-03T10:20:31+0200", or the compact "20240503T102031+0200"): the
 * day as printed, the run's local day. NULL or empty sets nothing; text
 * that is not a valid date is refused at at. */
bool import_reframe3_set_date(import_rows *out, const char *what, const char *when,
                              const import_reframe3_at *at);

#endif
