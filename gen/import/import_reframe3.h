/*
 * import_reframe3.h — ReFrame 3 performance logs (no header line), read by
 * `perfcast import reframe` when a file does not start with ReFrame 4's
 * header. The default ReFrame 3 format, with num_tasks added as most sites
 * do:
 *
 *   2020-10-14T17:30:42|reframe 3.2|stream on daint:gpu using PrgEnv-gnu|
 *       jobid=1234|num_tasks=4|Copy=41012.3|ref=0 (l=null, u=null)|MB/s
 *
 * One line per performance variable; consecutive lines of the same job
 * (completion time and jobid) are one run. Columns as for ReFrame 4
 * (gen/import/import_reframe.c).
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

#endif
