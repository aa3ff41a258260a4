/*
 * import_txn.h — how an import changes an archive: all or nothing, one at
 * a time, and only inside the archive.
 *
 *   begin   takes an exclusive flock(2) on the archive folder, so imports
 *           into one archive run one after another, and the POSIX record
 *           lock mgbench takes on the campaign's runs.csv (mgbench/runs_csv.c),
 *           so an mgbench run never appends to a file an import is
 *           replacing (after taking it, both check that the path still
 *           names the file they locked, and start again if it does not).
 *           It refuses a campaign folder, runs.csv, experiments.csv,
 *           README.md, campaign.csv or clusters.csv that is a symbolic link
 *           or not a regular file: perfcast writes only plain files inside
 *           the archive. It makes a staging folder
 *           ARCHIVE/.perfcast-import-XXXXXX (the archive reader skips
 *           names that start with '.'), and removes the staging folders of
 *           imports that died (under the lock, nobody else owns one).
 *   stage   writes a file's new bytes into the staging folder: created with
 *           O_CREAT|O_EXCL|O_NOFOLLOW, written, fsync'ed. The staging
 *           folder is a small archive (clusters.csv and the campaign's
 *           folder) that the caller loads with the archive reader to
 *           validate everything before anything is replaced.
 *   commit  renames the staged files over the archive's, in the order
 *           given (each rename is atomic; a new campaign's folder is renamed
 *           into place whole), then fsyncs the folders. A kill at any
 *           moment leaves every file either old or new, never torn.
 *   end     removes the staging folder and releases the locks; after a
 *           failure the archive is as it was (a folder made by begin is
 *           removed again).
 *
 * Ownership: an import_txn holds paths, descriptors and locks until
 * import_txn_end, which must be called after any begin (also a failed one).
 */
#ifndef PERFCAST_IMPORT_TXN_H
#define PERFCAST_IMPORT_TXN_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/base/diag.h"

typedef struct {
    char *archive;        /* the archive folder */
    char *campaign;       /* its campaign's name */
    char *campaign_dir;   /* ARCHIVE/CAMPAIGN */
    char *stage;          /* ARCHIVE/.perfcast-import-XXXXXX, NULL before it exists */
    int archive_fd;       /* flock'ed; -1 none */
    int runs_fd;          /* runs.csv, record-locked; -1 none */
    bool made_archive;    /* begin created the archive folder */
    bool campaign_exists; /* the campaign folder existed at begin */
    char staged[8][32];   /* names of files staged ("clusters.csv", "CAMPAIGN/runs.csv" as "runs.csv") */
    bool staged_top[8];   /* staged[i] is in the archive's top folder, not the campaign's */
    size_t nstaged;
} import_txn;

/* Lock, check the paths and make the staging folder. False with the reason
 * in diags; import_txn_end must still be called. */
bool import_txn_begin(import_txn *t, const char *archive, const char *campaign,
                      diag_list *diags);

/* Stage data[0..len) as name: in the archive's top folder when top
 * ("clusters.csv"), else in the campaign's ("runs.csv"). */
bool import_txn_stage(import_txn *t, const char *name, bool top, const char *data, size_t len,
                      diag_list *diags);

/* The staging folder, to load as an archive. */
const char *import_txn_stage_dir(const import_txn *t);

/* Rename the staged files named in order[0..n) (as given to stage) over
 * the archive's; a file staged but not named is not committed (it was
 * there to validate). For a new campaign, the campaign's files are moved
 * as its whole folder after the top-level ones. */
bool import_txn_commit(import_txn *t, const char *const *order, size_t n, diag_list *diags);

/* Remove the staging folder, release the locks, free the paths. */
void import_txn_end(import_txn *t, bool committed);

/* Whether name is usable as a campaign folder name: not empty, not '.'-first
 * (".", "..", ".git" and the staging folders are reserved), no '/', '\\'
 * or control character, at most 255 bytes, and not a file the archive
 * keeps for itself (archive_is_reserved_name: advice.csv, ...). */
bool import_txn_name_ok(const char *name);

#endif
