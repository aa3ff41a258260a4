/*
 * import_extrap_json.h — Extra-P's JSON and JSON Lines inputs, read with
 * json-c and handed, measurement by measurement, to a sink the caller
 * provides (gen/import/import_extrap.c builds its rows from them; a sink
 * of function pointers keeps this module from using that one).
 *
 * The three layouts Extra-P 4 reads (extrap/fileio/file_reader/
 * json_file_reader.py and jsonlines_file_reader.py):
 *
 *   JSON, current:  {"parameters": ["x", "y"],
 *                    "measurements": {CALLPATH: {METRIC: [{"point": [4, 10],
 *                                                          "values": [3.5, ...]}, ...]}}}
 *   JSON, legacy:   {"parameters": [{"id": 1, "name": "x"}], "callpaths": [{"id", "name"}],
 *                    "metrics": [{"id", "name"}], "coordinates": [{"id": 1,
 *                    "parameter_value_pairs": [{"parameter_id": 1, "parameter_value": 4}]}],
 *                    "measurements": [{"coordinate_id", "callpath_id", "metric_id", "value"}]}
 *   JSON Lines:     one object per line, {"params": {"x": 4, "y": 10}, "metric": "time",
 *                    "callpath": "main", "value": 3.5 or [3.5, ...]}; callpath and metric
 *                    are optional ("<root>", "<default>"), parameters in the first line's order.
 *
 * Positions: json-c keeps none inside a parsed document, so a syntax error
 * is placed at the tokener's offset (LINE:COL), a JSON Lines record at its
 * line, and any other problem in a JSON document names its path in the
 * message (line 0: FILE: message).
 */
#ifndef PERFCAST_IMPORT_EXTRAP_JSON_H
#define PERFCAST_IMPORT_EXTRAP_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/base/diag.h"

/* The most parameters a JSON input may have (the text format allows 4). */
#define EXTRAP_MAX_PARAMS 16

/* What the reader reports; each call returns false to stop (the sink has
 * recorded why). Strings and arrays are borrowed for the call only. line
 * is the JSON Lines line, 0 in a JSON document. */
typedef struct {
    void *ctx;
    /* A parameter, in the file's order; every one comes before any measurement. */
    bool (*parameter)(void *ctx, const char *name, long line);
    /* Repetitions measured for (region, metric) at point (one value per parameter). */
    bool (*measurement)(void *ctx, const char *region, const char *metric, const double *point,
                        const double *values, size_t nvalues, long line);
} extrap_json_sink;

/* Whether data[0..len) is JSON or JSON Lines: its first non-blank byte is '{' or '['. */
bool extrap_json_detect(const char *data, size_t len);

/* The line and column (characters, from 1) of byte offset in data. */
void extrap_json_line_col(const char *data, size_t offset, long *line, long *column);

/* Read data[0..len) (file is the name shown in messages). False when it has
 * problems (recorded in diags) or the sink stopped. */
bool extrap_json_read(const char *file, const char *data, size_t len,
                      const extrap_json_sink *sink, diag_list *diags);

#endif
