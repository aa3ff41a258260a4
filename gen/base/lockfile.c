/*
 * lockfile.c — see lockfile.h.
 */
#include "gen/base/lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether the path still names the file open at fd. */
static bool still_named(int fd, const char *path)
{
    struct stat held, named;
    return fstat(fd, &held) == 0 && lstat(path, &named) == 0 && held.st_dev == named.st_dev &&
           held.st_ino == named.st_ino;
}

lockfile_status lockfile_take(const char *path, bool exclusive, lockfile *out)
{
    *out = (lockfile){.fd = -1, .exclusive = exclusive};
    /* Each round loses only to a holder that let go (and removed the file)
     * between our open and our lock: a few rounds at most in practice. */
    for (int round = 0; round < 100; round++) {
        int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
            return LOCKFILE_NONE;
        int rc;
        while ((rc = flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB)) != 0 && errno == EINTR)
            ;
        if (rc != 0) {
            bool busy = errno == EWOULDBLOCK;
            close(fd);
            return busy ? LOCKFILE_BUSY : LOCKFILE_NONE;
        }
        if (still_named(fd, path)) {
            if (!(out->path = strdup(path))) {
                close(fd);
                return LOCKFILE_NONE;
            }
            out->fd = fd;
            return LOCKFILE_HELD;
        }
        close(fd);
    }
    return LOCKFILE_NONE;
}

void lockfile_release(lockfile *l)
{
    if (l->fd < 0)
        return;
    /* Removed before the lock goes, so that whoever takes the path next
     * makes a new file (lockfile_take's check): a shared holder only when
     * it is the last (its lock turns exclusive without waiting). */
    if (l->exclusive || flock(l->fd, LOCK_EX | LOCK_NB) == 0)
        unlink(l->path);
    close(l->fd);
    free(l->path);
    *l = (lockfile){.fd = -1};
}
