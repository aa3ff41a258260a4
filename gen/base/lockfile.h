/*
 * lockfile.h — a lock held on a file of its own (flock), taken without
 * waiting and removed when the last holder lets go, so that a lock on
 * something that does not exist yet (a site folder a build is about to
 * make) needs neither that thing nor its parent folder, and leaves
 * nothing behind.
 *
 * Method: take opens the file (made when missing, never through a
 * symbolic link), flocks it without blocking, then checks that the path
 * still names the file it locked — a holder letting go removes the file
 * first, and a lock on the removed file would guard nothing — and tries
 * again when it does not. Release removes the file when no one else
 * holds it (an exclusive holder always; a shared one when it can turn its
 * lock exclusive without waiting), then closes it. A process killed
 * while holding leaves the file, which the next holder reuses.
 *
 * Ownership: a held lockfile owns a copy of its path and its descriptor
 * until lockfile_release. No global state.
 */
#ifndef PERFCAST_LOCKFILE_H
#define PERFCAST_LOCKFILE_H

#include <stdbool.h>

typedef struct {
    int fd;         /* -1: nothing held */
    char *path;
    bool exclusive;
} lockfile;

typedef enum {
    LOCKFILE_HELD, /* *out holds it */
    LOCKFILE_BUSY, /* another holder's lock excludes this one */
    LOCKFILE_NONE  /* the file cannot be made or locked here (no locks, no
                      room, no permission, out of memory): nothing held */
} lockfile_status;

/* Take the lock of the file at path, exclusive or shared, without
 * waiting. out->fd is -1 unless LOCKFILE_HELD. */
lockfile_status lockfile_take(const char *path, bool exclusive, lockfile *out);

/* Let go of l (nothing when nothing is held); l holds nothing after. */
void lockfile_release(lockfile *l);

#endif
