/*
 * testutil_archive.c — see testutil_archive.h.
 */
#include "tests/testutil_archive.h"

#include <CUnit/CUnit.h>
#include <stdio.h>

void testutil_load_archive(const char *dir, archive *a)
{
    diag_list d;
    diag_init(&d);
    archive_load(dir, a, &d);
    if (d.count)
        diag_print(&d, stderr);
    CU_ASSERT_EQUAL(d.count, 0);
    diag_free(&d);
}
