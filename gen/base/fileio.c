/*
 * fileio.c — see fileio.h.
 *
 * A file is checked twice: stat() before opening, so a device is never
 * even opened, and fstat() on the open descriptor, so what is read is
 * what was checked. The open uses O_NONBLOCK: opening a FIFO for reading
 * would otherwise wait for a writer.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "gen/base/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Files from this size up are read into memory asked for in huge pages. */
#define HUGE_READ ((size_t)4 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

/* A buffer of cap bytes, for free(). A large one is aligned and advised
 * into huge pages where the system allows: filled at once by read(), its
 * 4 KB pages would each cost a fault (a 12 MB file, the site's cache of
 * fits, took 40 ms here to read that way, and 2-10 ms in huge pages). */
static char *read_buffer(size_t cap)
{
    if (cap < HUGE_READ)
        return malloc(cap);
    size_t rounded = (cap + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *buf = NULL;
    if (posix_memalign(&buf, HUGE_PAGE, rounded) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(buf, rounded, MADV_HUGEPAGE); /* a hint: refused, the pages are small */
#endif
    return buf;
}

/* Read all of fd (a regular file of about size bytes) into *out; more
 * than max_bytes (the file grew) is FILEIO_TOO_LARGE. The buffer has one
 * byte to spare beyond size and the NUL, so a file that did not change
 * is read without growing it. */
static fileio_status read_descriptor(int fd, size_t size, size_t max_bytes, char **out, size_t *len)
{
    size_t cap = size + 2, used = 0;
    char *buf = read_buffer(cap);
    if (!buf) {
        errno = ENOMEM;
        return FILEIO_FAILED;
    }
    for (;;) {
        if (used + 1 == cap) {
            if (used > max_bytes) {
                free(buf);
                return FILEIO_TOO_LARGE;
            }
            size_t grown = cap < max_bytes / 2 ? cap * 2 : max_bytes + 2;
            char *bigger = realloc(buf, grown);
            if (!bigger) {
                free(buf);
                errno = ENOMEM;
                return FILEIO_FAILED;
            }
            buf = bigger;
            cap = grown;
        }
        ssize_t n = read(fd, buf + used, cap - used - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int saved = errno;
            free(buf);
            errno = saved;
            return FILEIO_FAILED;
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    if (used > max_bytes) {
        free(buf);
        return FILEIO_TOO_LARGE;
    }
    buf[used] = '\0';
    *out = buf;
    if (len)
        *len = used;
    return FILEIO_OK;
}

static fileio_status check_kind(const struct stat *st, size_t max_bytes)
{
    if (!S_ISREG(st->st_mode))
        return FILEIO_NOT_REGULAR;
    if (st->st_size < 0 || (unsigned long long)st->st_size > max_bytes)
        return FILEIO_TOO_LARGE;
    return FILEIO_OK;
}

static fileio_status failure(void)
{
    return errno == ENOENT || errno == ENOTDIR ? FILEIO_MISSING : FILEIO_FAILED;
}

/* Open a path already known to be allowed; flags adds O_NOFOLLOW for a
 * path that has been resolved. */
static fileio_status open_regular(const char *path, int flags, size_t max_bytes, int *fd,
                                  size_t *size)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return failure();
    fileio_status status = check_kind(&st, max_bytes);
    if (status != FILEIO_OK)
        return status;
    *fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags);
    if (*fd < 0)
        return errno == ELOOP ? FILEIO_OUTSIDE : failure();
    if (fstat(*fd, &st) != 0)
        status = FILEIO_FAILED;
    else
        status = check_kind(&st, max_bytes);
    if (status != FILEIO_OK) {
        int saved = errno;
        close(*fd);
        errno = saved;
        *fd = -1;
    }
    *size = (size_t)st.st_size;
    return status;
}

/* Whether resolved (an absolute path without links) lies in the folder
 * resolved_root. */
static bool has_root(const char *resolved_root, const char *resolved)
{
    size_t n = strlen(resolved_root);
    if (n == 1) /* the root folder "/" holds everything */
        return true;
    return strncmp(resolved, resolved_root, n) == 0 && resolved[n] == '/';
}

/* Resolve path and check it lies under root: FILEIO_OK with *resolved
 * (malloc'ed) set, or why not. */
static fileio_status resolve_inside(const char *root, const char *path, char **resolved)
{
    *resolved = NULL;
    char *real_root = realpath(root, NULL);
    if (!real_root)
        return failure();
    char *real = realpath(path, NULL);
    fileio_status status = real ? FILEIO_OK : failure();
    if (real && !has_root(real_root, real))
        status = FILEIO_OUTSIDE;
    int saved = errno;
    free(real_root);
    if (status == FILEIO_OK)
        *resolved = real;
    else
        free(real);
    errno = saved;
    return status;
}

/* path resolved as an absolute path without links, even where its last
 * components do not exist yet: the nearest existing ancestor is resolved
 * and the rest appended as written. NULL when nothing resolves or out of
 * memory. "." and ".." among the missing components are kept as written,
 * which at worst makes two paths look apart: callers use this to refuse
 * overlaps, never to grant access. */
static char *resolve_planned(const char *path)
{
    char *head = NULL;
    if (path[0] == '/') {
        head = strdup(path);
    } else {
        char *cwd = realpath(".", NULL);
        head = cwd ? fileio_join(cwd, path) : NULL;
        free(cwd);
    }
    if (!head)
        return NULL;
    size_t full = strlen(head), cut = full;
    char *whole = strdup(head); /* head is cut short below; the rest is read from here */
    if (!whole) {
        free(head);
        return NULL;
    }
    char *real = NULL;
    while (!(real = realpath(cut ? head : "/", NULL))) {
        char *slash = strrchr(head, '/'); /* head is absolute: one exists */
        if (!slash) {
            free(head);
            free(whole);
            return NULL;
        }
        *slash = '\0';
        cut = (size_t)(slash - head);
    }
    const char *rest = cut < full ? whole + cut + 1 : "";
    while (*rest == '/')
        rest++;
    char *joined = *rest ? fileio_join(real, rest) : NULL;
    if (*rest) {
        free(real);
        real = joined;
    }
    free(head);
    free(whole);
    return real;
}

bool fileio_folders_overlap(const char *a, const char *b)
{
    char *ra = resolve_planned(a), *rb = resolve_planned(b);
    bool overlap = ra && rb &&
                   (strcmp(ra, rb) == 0 || has_root(ra, rb) || has_root(rb, ra));
    free(ra);
    free(rb);
    return overlap;
}

fileio_status fileio_open_inside(const char *root, const char *path, size_t max_bytes, int *fd,
                                 size_t *size)
{
    *fd = -1;
    *size = 0;
    if (!root)
        return open_regular(path, 0, max_bytes, fd, size);
    char *resolved;
    fileio_status status = resolve_inside(root, path, &resolved);
    if (status == FILEIO_OK)
        status = open_regular(resolved, O_NOFOLLOW, max_bytes, fd, size);
    int saved = errno;
    free(resolved);
    errno = saved;
    return status;
}

fileio_status fileio_read_inside(const char *root, const char *path, size_t max_bytes,
                                 char **out, size_t *len)
{
    *out = NULL;
    int fd;
    size_t size;
    fileio_status status = fileio_open_inside(root, path, max_bytes, &fd, &size);
    if (status == FILEIO_OK) {
        status = read_descriptor(fd, size, max_bytes, out, len);
        int saved = errno;
        close(fd);
        errno = saved;
    }
    return status;
}

bool fileio_is_inside(const char *root, const char *path)
{
    char *resolved;
    bool inside = resolve_inside(root, path, &resolved) == FILEIO_OK;
    free(resolved);
    return inside;
}

const char *fileio_status_text(fileio_status status, int err)
{
    switch (status) {
    case FILEIO_OK: return "no problem";
    case FILEIO_MISSING: return "no such file";
    case FILEIO_OUTSIDE:
        return "it leads outside its folder (the archive or the templates) through a symbolic "
               "link or '..' (expected a file inside the folder; copy the file in instead of "
               "linking it)";
    case FILEIO_NOT_REGULAR:
        return "not a regular file (a folder, FIFO, device or socket; expected a plain file)";
    case FILEIO_TOO_LARGE:
        return "the file is too large (perfcast reads files of at most 512 MiB; see archive/README.md)";
    case FILEIO_FAILED: return strerror(err);
    }
    return "unknown problem";
}

char *fileio_read_file(const char *path, size_t *len)
{
    char *buf;
    fileio_status status = fileio_read_inside(NULL, path, FILEIO_MAX_BYTES, &buf, len);
    switch (status) {
    case FILEIO_OK: return buf;
    case FILEIO_MISSING: errno = ENOENT; break;
    case FILEIO_NOT_REGULAR: errno = EINVAL; break;
    case FILEIO_TOO_LARGE: errno = EFBIG; break;
    case FILEIO_OUTSIDE: errno = ELOOP; break;
    case FILEIO_FAILED: break;
    }
    return NULL;
}

char *fileio_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (path)
        snprintf(path, n, "%s/%s", dir, name);
    return path;
}

bool fileio_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO; /* nothing written and no error: say so */
            return false;
        }
        p += n, len -= (size_t)n;
    }
    return true;
}

bool fileio_write_atomic(const char *path, const void *data, size_t len)
{
    struct stat st;
    if (lstat(path, &st) == 0 && (S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode))) {
        errno = S_ISLNK(st.st_mode) ? ELOOP : EISDIR;
        return false;
    }
    /* The temporary file lies in path's folder: a rename within one file
     * system is atomic. */
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    char tmp[PATH_MAX];
    int w = snprintf(tmp, sizeof tmp, "%.*s.%s.tmp-%ld", dir_len, path,
                     slash ? slash + 1 : path, (long)getpid());
    if (w < 0 || (size_t)w >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return false;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return false;
    bool ok = fileio_write_all(fd, data, len) && fsync(fd) == 0;
    int saved = errno;
    if (close(fd) != 0 && ok)
        ok = false, saved = errno;
    if (ok && rename(tmp, path) != 0)
        ok = false, saved = errno;
    if (!ok) {
        unlink(tmp);
        errno = saved;
    }
    return ok;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

bool fileio_remove_tree(const char *dir)
{
    /* FTW_DEPTH: a folder after its entries; FTW_PHYS: a link is an entry
     * to remove, never a way into another tree. */
    return nftw(dir, remove_entry, 32, FTW_DEPTH | FTW_PHYS) == 0 || errno == ENOENT;
}
