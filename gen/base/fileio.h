/*
 * fileio.h — reading whole files and streams into memory, and the paths
 * to them.
 *
 * Files are read only when they are regular files of at most
 * FILEIO_MAX_BYTES: a FIFO, a device (/dev/zero), a socket or a folder is
 * refused before a byte is read, so no input can block perfcast or make it
 * read without end. fileio_read_inside also refuses a path that resolves
 * (through symbolic links or "..") outside a given folder: that is how
 * the archive reader makes sure no file from outside the archive reaches
 * a page. archive/README.md documents the limit.
 *
 * Ownership: every returned buffer or path is malloc'ed, NUL-terminated
 * (the NUL is not counted in *len) and belongs to the caller.
 */
#ifndef PERFCAST_FILEIO_H
#define PERFCAST_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The largest file perfcast reads: 512 MiB. */
#define FILEIO_MAX_BYTES ((size_t)512 << 20)

typedef enum {
    FILEIO_OK,
    FILEIO_MISSING,     /* no such file (or a link to nothing) */
    FILEIO_OUTSIDE,     /* resolves outside the folder it must stay in */
    FILEIO_NOT_REGULAR, /* a folder, FIFO, device or socket */
    FILEIO_TOO_LARGE,   /* more than the allowed number of bytes */
    FILEIO_FAILED       /* open or read failed; errno says why */
} fileio_status;

/* Everything left in stream; NULL on a read error or out of memory. */
char *fileio_read_stream(FILE *stream, size_t *len);

/* The whole file, which must be a regular file of at most
 * FILEIO_MAX_BYTES; NULL with errno set otherwise (EINVAL: not a regular
 * file, EFBIG: too large). */
char *fileio_read_file(const char *path, size_t *len);

/* Read path into *out when it is a regular file of at most max_bytes
 * that resolves inside the folder root (root NULL: anywhere). On any
 * status but FILEIO_OK, *out is NULL; on FILEIO_FAILED errno is set. */
fileio_status fileio_read_inside(const char *root, const char *path, size_t max_bytes,
                                 char **out, size_t *len);

/* The checks of fileio_read_inside, then the file open for reading in
 * *fd (the caller closes it) with its size at the time of the check in
 * *size. *fd is -1 on any status but FILEIO_OK. */
fileio_status fileio_open_inside(const char *root, const char *path, size_t max_bytes, int *fd,
                                 size_t *size);

/* Why a read failed, as the end of "cannot read: ..." (err is the errno
 * saved for FILEIO_FAILED). Static text. */
const char *fileio_status_text(fileio_status status, int err);

/* Whether path resolves to a location inside the folder root (both are
 * resolved through every symbolic link). False when either is missing. */
bool fileio_is_inside(const char *root, const char *path);

/* Whether the folders a and b are the same or one lies inside the other,
 * resolved through symbolic links; a path that does not exist yet is
 * resolved through its nearest existing ancestor (so a site folder to be
 * created inside the archive is caught before it is made). False when
 * neither can be resolved. */
bool fileio_folders_overlap(const char *a, const char *b);

/* Replace path with data atomically: written to a new hidden file beside
 * it (created with O_EXCL and O_NOFOLLOW), flushed to disk, then renamed
 * over path, so path holds the old bytes or the new ones, never a part.
 * Refuses (errno ELOOP) a path that is a symbolic link, which the rename
 * would replace instead of writing where it points, and (EISDIR) a
 * folder. False with errno set on any failure; the temporary file is
 * removed then. */
bool fileio_write_atomic(const char *path, const void *data, size_t len);

/* All len bytes of data to fd, however many writes it takes (an
 * interrupted one is retried). False with errno set. */
bool fileio_write_all(int fd, const void *data, size_t len);

/* A file's bytes in pieces, written in order (site_commit_write_parts):
 * a file made mostly of another's bytes is written from them, not from a
 * copy. */
typedef struct {
    const void *data;
    size_t len;
} fileio_part;

/* dir/name; NULL when out of memory. */
char *fileio_join(const char *dir, const char *name);

/* Remove dir and everything under it. Symbolic links are removed, never
 * followed. Only for folders this program made (staging folders): it asks
 * nothing. True when dir is gone (or was never there). */
bool fileio_remove_tree(const char *dir);

#endif
