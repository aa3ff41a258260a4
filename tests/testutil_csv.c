/*
 * testutil_csv.c — see testutil_csv.h.
 */
#include "tests/testutil_csv.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

bool testutil_csv_load(const char *path, csv_doc *doc)
{
    diag_list d;
    diag_init(&d);
    bool ok = csv_read_file(path, path, doc, &d);
    if (ok && d.count != 0) {
        csv_doc_free(doc);
        ok = false;
    }
    diag_free(&d);
    return ok;
}

const char *testutil_csv_cell(const csv_doc *doc, size_t r, const char *name)
{
    const csv_row *head = &doc->rows[0];
    for (size_t c = 0; c < head->nfields; c++)
        if (strcmp(head->fields[c].text, name) == 0 && r + 1 < doc->nrows &&
            c < doc->rows[r + 1].nfields)
            return doc->rows[r + 1].fields[c].text;
    return NULL;
}

bool testutil_csv_has_column(const csv_doc *doc, const char *name)
{
    for (size_t c = 0; doc->nrows && c < doc->rows[0].nfields; c++)
        if (strcmp(doc->rows[0].fields[c].text, name) == 0)
            return true;
    return false;
}

void testutil_assert_cell(const csv_doc *doc, size_t r, const char *name, const char *want)
{
    const char *got = testutil_csv_cell(doc, r, name);
    if (!got || strcmp(got, want) != 0)
        fprintf(stderr, "\nrow %zu %s: got '%s', want '%s'\n", r, name, got ? got : "(none)",
                want);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, want);
}
