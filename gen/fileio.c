/*
 * fileio.c — see fileio.h.
 */
#include "gen/fileio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

char *fileio_read_stream(FILE *stream, size_t *len)
{
    size_t cap = 1 << 16, used = 0, n;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    while ((n = fread(buf + used, 1, cap - used - 1, stream)) > 0) {
        used += n;
        if (used + 1 == cap) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                errno = ENOMEM;
                return NULL;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    if (ferror(stream)) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[used] = '\0';
    if (len)
        *len = used;
    return buf;
}

char *fileio_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = fileio_read_stream(f, len);
    int saved = errno;
    fclose(f);
    errno = saved;
    return buf;
}

char *fileio_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (path)
        snprintf(path, n, "%s/%s", dir, name);
    return path;
}
