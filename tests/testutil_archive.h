/*
 * testutil_archive.h — loading a test's archive (apart from testutil.h,
 * which knows no archive type: a test may name its own things campaign).
 */
#ifndef PERFCAST_TESTUTIL_ARCHIVE_H
#define PERFCAST_TESTUTIL_ARCHIVE_H

#include "gen/ingest/archive.h"

/* Load the archive in dir into *a (released with archive_free), and
 * assert that it loads without a problem (printing any to stderr). */
void testutil_load_archive(const char *dir, archive *a);

#endif
