/*
 * import_reframe_json.h — ReFrame's JSON run report (`reframe
 * --report-file FILE`, also kept under ~/.reframe/reports), read by
 * `perfcast import reframe` when the file's first non-blank byte is '{'.
 *
 *   {"session_info": {"version": ..., "time_start": ...},
 *    "runs": [{"testcases": [{...}, ...]}, ...]}
 *
 * Two layouts of a test case are read:
 *   ReFrame 4 (data_version 3.x/4.x): "system", "partition", "environ",
 *     "display_name", "num_tasks", "num_tasks_per_node",
 *     "job_completion_time", "jobid", "result", and "perfvalues":
 *     {"SYS:PART:VAR": [value, ref, lower, upper, unit, result], ...};
 *   ReFrame 3 (data_version 2.x): "system" as "SYS:PART", "environment",
 *     "display_name", "check_vars": {"num_tasks", ...}, "jobid", "result",
 *     and "perfvars": [{"name", "value", "unit", "reference", ...}]; no
 *     completion time per case, so date is the day the session started.
 *
 * Each test case with performance values becomes one run, with the columns
 * and rules of the perflog readers (gen/import/import_reframe3.h): np,
 * cluster, code and one column per test parameter, tag_environ, date, note,
 * time_<var>_s in seconds or metric_<var>. Every run of the report (reruns
 * with --max-retries) is read. json-c reports no positions, so a problem
 * is placed at the key it concerns, found in the text of its test case.
 */
#ifndef PERFCAST_IMPORT_REFRAME_JSON_H
#define PERFCAST_IMPORT_REFRAME_JSON_H

#include "gen/import/import.h"

/* Read the report at path into out; false (problems in diags) when it is
 * not a readable ReFrame report or any value is refused. */
bool import_reframe_json_read(const import_request *req, const char *path, import_rows *out,
                              diag_list *diags);

#endif
