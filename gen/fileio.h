/*
 * fileio.h — reading whole files and streams into memory.
 *
 * Ownership: every returned buffer is malloc'ed, NUL-terminated (the NUL is
 * not counted in *len) and belongs to the caller.
 */
#ifndef PERFCAST_FILEIO_H
#define PERFCAST_FILEIO_H

#include <stddef.h>
#include <stdio.h>

/* Everything left in stream; NULL on a read error or out of memory. */
char *fileio_read_stream(FILE *stream, size_t *len);

/* The whole file; NULL with errno set when it cannot be opened or read. */
char *fileio_read_file(const char *path, size_t *len);

#endif
