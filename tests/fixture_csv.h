/*
 * fixture_csv.h — test-only reader for the small all-numeric CSV fixtures
 * written by the R scripts under tests/fixtures/ (a header line, then rows
 * of numbers; "NA" is a missing value). Not a general CSV reader: the
 * archive goes through gen/ ingest.
 *
 * Included by the scopred tests only (a header with static functions, so
 * it needs no entry in the Makefile).
 */
#ifndef PERFCAST_TESTS_FIXTURE_CSV_H
#define PERFCAST_TESTS_FIXTURE_CSV_H

#include "models/table.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Read path into t (initialised here). Returns false when the file is
 * missing or malformed. */
static inline bool fixture_csv_read(const char *path, table *t)
{
    table_init(t);
    char *text = testutil_read_file(path);
    if (!text)
        return false;
    char *save_line = NULL;
    bool ok = true;
    size_t ncols = 0;
    for (char *line = strtok_r(text, "\n", &save_line); line && ok;
         line = strtok_r(NULL, "\n", &save_line)) {
        char *save_cell = NULL;
        long row = ncols ? table_add_row(t, 0) : -1;
        size_t col = 0;
        for (char *cell = strtok_r(line, ",", &save_cell); cell && ok;
             cell = strtok_r(NULL, ",", &save_cell), col++) {
            while (*cell == ' ')
                cell++;
            if (row < 0)
                ok = table_add_column(t, cell, COL_NUMBER) >= 0;
            else if (col >= ncols)
                ok = false;
            else
                ok = table_set_number(t, (size_t)row, col,
                                      strcmp(cell, "NA") == 0 ? NAN : strtod(cell, NULL));
        }
        if (row < 0)
            ncols = t->ncols;
        else if (col != ncols)
            ok = false;
    }
    free(text);
    return ok;
}

/* The numeric column called name (NULL when absent). */
static inline const double *fixture_column(const table *t, const char *name)
{
    int c = table_find(t, name);
    return c < 0 ? NULL : t->cols[c].num;
}

#endif
