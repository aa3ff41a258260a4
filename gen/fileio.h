/*
 * fileio.h — reading whole files and streams into memory, and the paths
 * to them.
 *
 * Ownership: every returned buffer or path is malloc'ed, NUL-terminated
 * (the NUL is not counted in *len) and belongs to the caller.
 */
#ifndef PERFCAST_FILEIO_H
#define PERFCAST_FILEIO_H

#include <stddef.h>
#include <stdio.h>

/* Everything left in stream; NULL on a read error or out of memory. */
char *fileio_read_stream(FILE *stream, size_t *len);

/* The whole file; NULL with errno set when it cannot be opened or read. */
char *fileio_read_file(const char *path, size_t *len);

/* dir/name; NULL when out of memory. */
char *fileio_join(const char *dir, const char *name);

#endif
