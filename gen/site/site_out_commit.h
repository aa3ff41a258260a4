/*
 * site_out_commit.h — the last step of a site build (gen/site/site_out.h):
 * moving the staged files into the output folder without touching
 * anything perfcast does not own.
 *
 * A new output folder is the staging folder renamed. Into an existing
 * one, in this order:
 *   1. check, changing nothing, that every staged file's place is free or
 *      holds a file the previous manifest lists, and that its folders are
 *      real folders (not links, not files): otherwise fail, naming it;
 *   2. make the missing folders;
 *   3. write a manifest listing this build's files and the previous
 *      build's (so a kill from here on leaves nothing unrecognised);
 *   4. rename each staged file into place;
 *   5. remove the previous build's files that were not made again (only
 *      regular files and links, never a folder's contents; a folder is
 *      removed only when that leaves it empty);
 *   6. write the final manifest.
 *
 * Ownership: the job's lists and paths stay the caller's.
 */
#ifndef PERFCAST_SITE_OUT_COMMIT_H
#define PERFCAST_SITE_OUT_COMMIT_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/base/fileio.h"
#include "gen/site/site_manifest.h"

/* The empty file that marks a staging folder as perfcast's (only such
 * folders are removed as left behind by a killed build). */
extern const char site_commit_staging_mark[];

/* Mark of a `now` entry whose file is in the staging folder (the others
 * are left in place from the previous build). */
enum { SITE_COMMIT_KEPT = 0, SITE_COMMIT_STAGED = 1 };

typedef struct {
    const char *out_dir;        /* the output folder */
    const char *tmp_dir;        /* the staging folder */
    bool out_exists;
    const site_manifest *old;   /* the previous build's files, sorted */
    const site_manifest *now;   /* this build's files, sorted, marked */
    long kill_after_moves;      /* fault injection: > 0 = SIGKILL after that many moves */
    char *error;                /* receives the reason on failure */
    size_t errlen;
} site_commit;

/* Steps 1-6 above. False with the reason in job->error. */
bool site_commit_run(const site_commit *job);

/* Write data to path as a new file (never through an existing entry).
 * False with errno set. */
bool site_commit_write_file(const char *path, const void *data, size_t len);

/* The same, with the file's bytes in n parts, in order. */
bool site_commit_write_parts(const char *path, const fileio_part *parts, size_t n);

#endif
