/*
 * site_inputs.c — the hash of a build's inputs (see site_inputs.h).
 */
#include "gen/site/site_inputs.h"
#include "gen/base/hash.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/base/fileio.h"
#include "gen/site/site_out.h"

typedef struct {
    uint64_t h;
    bool ok;
    int max_depth; /* folders deeper than this count by name only */
} hasher;

static void add_text(hasher *x, const char *s)
{
    x->h = hash_bytes(s, strlen(s) + 1, x->h); /* with its NUL: "ab","c" != "a","bc" */
}

/* The file's bytes, read in blocks (an archive file may be huge). */
static void add_file(hasher *x, const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* never waits on a FIFO */
    struct stat st;
    bool regular = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    char *block = regular ? malloc(1 << 16) : NULL;
    ssize_t n = 0;
    while (block && (n = read(fd, block, 1 << 16)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        x->h = hash_bytes(block, (size_t)n, x->h);
    }
    if (!block || n < 0)
        x->ok = false;
    free(block);
    if (fd >= 0)
        close(fd);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

/* The names in dir that are not hidden, sorted; NULL on failure. */
static char **sorted_names(const char *dir, size_t *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t cap = 16;
    char **names = malloc(cap * sizeof *names);
    bool ok = names != NULL;
    struct dirent *de;
    while (ok && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (*n == cap) {
            char **more = realloc(names, 2 * cap * sizeof *names);
            if (!(ok = more != NULL))
                break;
            names = more;
            cap *= 2;
        }
        ok = (names[*n] = strdup(de->d_name)) != NULL;
        *n += ok;
    }
    closedir(d);
    if (!ok) {
        free_names(names, *n);
        return NULL;
    }
    qsort(names, *n, sizeof *names, compare_names);
    return names;
}

static void add_tree(hasher *x, const char *dir, const char *rel, int depth)
{
    size_t n;
    char **names = depth < 16 ? sorted_names(dir, &n) : NULL;
    if (!names) {
        x->ok = false;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        char *full = fileio_join(dir, names[i]);
        char *path = rel[0] ? fileio_join(rel, names[i]) : strdup(names[i]);
        struct stat st;
        if (!full || !path || stat(full, &st) != 0) {
            x->ok = false;
        } else {
            add_text(x, path);
            add_text(x, S_ISREG(st.st_mode) ? "file" : S_ISDIR(st.st_mode) ? "folder" : "other");
            if (S_ISREG(st.st_mode))
                add_file(x, full);
            else if (S_ISDIR(st.st_mode) && depth < x->max_depth)
                add_tree(x, full, path, depth + 1);
        }
        free(full);
        free(path);
    }
    free_names(names, n);
}

uint64_t site_inputs_key(const char *archive_dir, const char *templates_dir,
                         long long source_date_epoch)
{
    hasher x = {0x70657266636173ull, true, INT_MAX}; /* "perfcas" */
    add_tree(&x, archive_dir, "", 0);
    char *page = fileio_join(templates_dir, "page.html");
    char *css = fileio_join(templates_dir, "style.css");
    if (page && css) {
        add_file(&x, page);
        add_file(&x, css);
    } else {
        x.ok = false;
    }
    free(page);
    free(css);
    x.h = hash_bytes(&source_date_epoch, sizeof source_date_epoch, x.h);
    add_file(&x, "/proc/self/exe");
    return x.ok ? (x.h ? x.h : 1) : 0;
}

uint64_t site_program_key(void)
{
    hasher x = {0x70726f6772616dull, true, 0}; /* "program" */
    add_file(&x, "/proc/self/exe");
    return x.ok ? (x.h ? x.h : 1) : 0;
}

uint64_t site_inputs_folder_key(const char *dir, bool files_only, uint64_t seed)
{
    hasher x = {seed, true, files_only ? 0 : INT_MAX};
    add_tree(&x, dir, "", 0);
    return x.ok ? (x.h ? x.h : 1) : 0;
}
