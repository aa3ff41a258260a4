/*
 * testutil_csv.h — reading back the CSV files perfcast writes, for tests:
 * parsed by the CSV reader (libcsv through gen/base/csvread.h), cells found
 * by their column's name, asserted with a message that says which.
 *
 * Ownership: testutil_csv_load fills a csv_doc the caller frees with
 * csv_doc_free (only when it returned true); cells are borrowed from doc.
 */
#ifndef PERFCAST_TESTUTIL_CSV_H
#define PERFCAST_TESTUTIL_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/base/csvread.h"

/* path parsed without a problem. */
bool testutil_csv_load(const char *path, csv_doc *doc);

/* The cell of data row r (0 = first under the header) in column name;
 * NULL when there is no such column or row. */
const char *testutil_csv_cell(const csv_doc *doc, size_t r, const char *name);

/* Whether the header has a column called name. */
bool testutil_csv_has_column(const csv_doc *doc, const char *name);

/* CUnit: the cell of row r in column name is want (fatal when absent). */
void testutil_assert_cell(const csv_doc *doc, size_t r, const char *name, const char *want);

#endif
