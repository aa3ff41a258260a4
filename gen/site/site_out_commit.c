/*
 * site_out_commit.c — moving a finished build into the output folder (see
 * site_out_commit.h).
 */
#include "gen/site/site_out_commit.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/base/fileio.h"

const char site_commit_staging_mark[] = ".perfcast-staging";

static bool fail(const site_commit *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(const site_commit *j, const char *fmt, ...)
{
    if (j->error[0])
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->error, j->errlen, fmt, ap);
    va_end(ap);
    return false;
}

bool site_commit_write_parts(const char *path, const fileio_part *parts, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    bool ok = fd >= 0;
    for (size_t i = 0; ok && i < n; i++)
        ok = fileio_write_all(fd, parts[i].data, parts[i].len);
    int saved = errno;
    if (fd >= 0 && close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    errno = saved;
    return ok;
}

bool site_commit_write_file(const char *path, const void *data, size_t len)
{
    fileio_part whole = {data, len};
    return site_commit_write_parts(path, &whole, 1);
}

/* out_dir/path with the first n bytes of path, into buf. */
static const char *out_path(const site_commit *j, const char *path, size_t n, char *buf,
                            size_t len)
{
    snprintf(buf, len, "%s/%.*s", j->out_dir, (int)n, path);
    return buf;
}

/* ------------------------------------------------------------------ */
/* 1. Check, changing nothing                                          */

/* Are the folders of path, as far as they exist, real folders (not links
 * that would lead out of the site, not files)? When not, full names the
 * first that is not. */
static bool parents_are_folders(const site_commit *j, const char *path, char *full, size_t len)
{
    struct stat st;
    for (const char *s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
        out_path(j, path, (size_t)(s - path), full, len);
        if (lstat(full, &st) != 0)
            return true; /* made by the commit, or nothing to remove there */
        if (!S_ISDIR(st.st_mode))
            return false;
    }
    return true;
}

/* May the staged file path be moved into place? */
static bool place_is_ours(const site_commit *j, const char *path)
{
    char full[8192];
    struct stat st;
    if (!parents_are_folders(j, path, full, sizeof full))
        return fail(j, "cannot write %s/%s: %s is not a folder (perfcast did not make it); "
                    "move it away or choose another --out", j->out_dir, path, full);
    out_path(j, path, strlen(path), full, sizeof full);
    if (lstat(full, &st) != 0)
        return errno == ENOENT || fail(j, "cannot use %s: %s", full, strerror(errno));
    if (S_ISDIR(st.st_mode) || !site_manifest_find(j->old, path))
        return fail(j, "%s exists and perfcast did not write it (it is not in %s); move it away "
                    "or choose another --out", full, site_manifest_name);
    return true;
}

static bool check_places(const site_commit *j)
{
    for (size_t i = 0; i < j->now->n; i++)
        if (j->now->items[i].mark == SITE_COMMIT_STAGED && !place_is_ours(j, j->now->items[i].path))
            return false;
    return true;
}

/* ------------------------------------------------------------------ */
/* 2. Folders                                                          */

typedef struct {
    char **dirs; /* made by this commit, in order */
    size_t n;
} made_list;

static bool make_out_parents(const site_commit *j, const char *path, made_list *made)
{
    char full[8192];
    for (const char *s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
        out_path(j, path, (size_t)(s - path), full, sizeof full);
        if (mkdir(full, 0755) != 0) {
            if (errno == EEXIST)
                continue;
            return fail(j, "cannot make %s: %s", full, strerror(errno));
        }
        char **more = realloc(made->dirs, (made->n + 1) * sizeof *more);
        char *copy = more ? strdup(full) : NULL;
        if (more)
            made->dirs = more;
        if (!copy) {
            rmdir(full);
            return fail(j, "out of memory");
        }
        made->dirs[made->n++] = copy;
    }
    return true;
}

/* Undo step 2 (when nothing was moved yet). */
static void remove_made(made_list *made, bool undo)
{
    for (size_t i = made->n; i-- > 0;) {
        if (undo)
            rmdir(made->dirs[i]);
        free(made->dirs[i]);
    }
    free(made->dirs);
    made->dirs = NULL;
    made->n = 0;
}

/* ------------------------------------------------------------------ */
/* 3 and 6. Manifests                                                  */

/* Write m as out_dir's manifest, through a new file in the staging folder
 * and one rename; nothing when the manifest already has those bytes. */
static bool put_manifest(const site_commit *j, const site_manifest *m)
{
    size_t len, old_len = 0;
    char *text = site_manifest_text(m, &len);
    char *tmp = fileio_join(j->tmp_dir, site_manifest_name);
    char *dst = fileio_join(j->out_dir, site_manifest_name);
    char *old = dst && j->out_exists ? fileio_read_file(dst, &old_len) : NULL;
    bool ok = text && tmp && dst;
    if (!ok)
        fail(j, "out of memory");
    else if (!(old && old_len == len && memcmp(old, text, len) == 0)) {
        unlink(tmp);
        ok = site_commit_write_file(tmp, text, len) || fail(j, "cannot write %s: %s", tmp,
                                                            strerror(errno));
        ok = ok && (!j->out_exists || rename(tmp, dst) == 0 ||
                    fail(j, "cannot write %s: %s", dst, strerror(errno)));
    }
    free(old);
    free(dst);
    free(tmp);
    free(text);
    return ok;
}

/* This build's files and the previous build's that it did not make. */
static bool union_manifest(const site_commit *j, site_manifest *u, size_t *nstale)
{
    *nstale = 0;
    for (size_t i = 0; i < j->now->n; i++) {
        const site_manifest_entry *e = &j->now->items[i];
        if (!site_manifest_add(u, e->path, e->hash, e->key, e->size))
            return false;
    }
    for (size_t i = 0; i < j->old->n; i++) {
        const site_manifest_entry *e = &j->old->items[i];
        if (site_manifest_find(j->now, e->path))
            continue;
        (*nstale)++;
        if (!site_manifest_add(u, e->path, e->hash, e->key, e->size))
            return false;
    }
    site_manifest_sort(u);
    return true;
}

/* ------------------------------------------------------------------ */
/* 4. Moves, 5. removals                                               */

static bool move_staged(const site_commit *j)
{
    long moves = 0;
    for (size_t i = 0; i < j->now->n; i++) {
        const char *path = j->now->items[i].path;
        if (j->now->items[i].mark != SITE_COMMIT_STAGED)
            continue;
        char *from = fileio_join(j->tmp_dir, path), *to = fileio_join(j->out_dir, path);
        bool ok = from && to && rename(from, to) == 0;
        if (!ok)
            fail(j, "cannot move %s into place: %s; the site is partly updated (build again to "
                 "complete it)", to ? to : path, from && to ? strerror(errno) : "out of memory");
        free(from);
        free(to);
        if (!ok)
            return false;
        if (j->kill_after_moves > 0 && ++moves >= j->kill_after_moves)
            raise(SIGKILL);
    }
    return true;
}

/* Remove the file at path if it is a file or a link, then its folders as
 * long as that leaves them empty. */
static bool remove_stale_file(const site_commit *j, const char *path)
{
    char full[8192];
    struct stat st;
    if (!parents_are_folders(j, path, full, sizeof full))
        return true; /* not inside the site any more: not ours to follow */
    out_path(j, path, strlen(path), full, sizeof full);
    if (lstat(full, &st) != 0)
        return errno == ENOENT || fail(j, "cannot remove %s: %s", full, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return true; /* a folder in its place is not ours to empty */
    if (unlink(full) != 0)
        return fail(j, "cannot remove %s: %s", full, strerror(errno));
    size_t n = strlen(path);
    while (n > 0) {
        while (n > 0 && path[n - 1] != '/')
            n--;
        if (n == 0 || rmdir(out_path(j, path, n - 1, full, sizeof full)) != 0)
            break;
        n--;
    }
    return true;
}

static bool remove_stale(const site_commit *j)
{
    bool ok = true;
    for (size_t i = 0; i < j->old->n; i++)
        if (!site_manifest_find(j->now, j->old->items[i].path))
            ok &= remove_stale_file(j, j->old->items[i].path);
    return ok;
}

/* ------------------------------------------------------------------ */
/* The commit                                                          */

static bool commit_new_folder(const site_commit *j)
{
    char *mark = fileio_join(j->tmp_dir, site_commit_staging_mark);
    if (mark)
        unlink(mark);
    free(mark);
    return put_manifest(j, j->now) &&
           (rename(j->tmp_dir, j->out_dir) == 0 ||
            fail(j, "cannot rename %s to %s: %s", j->tmp_dir, j->out_dir, strerror(errno)));
}

static bool commit_in_place(const site_commit *j)
{
    if (!check_places(j))
        return false;
    made_list made = {NULL, 0};
    bool ok = true;
    for (size_t i = 0; ok && i < j->now->n; i++)
        if (j->now->items[i].mark == SITE_COMMIT_STAGED)
            ok = make_out_parents(j, j->now->items[i].path, &made);
    site_manifest u = {0};
    size_t nstale = 0;
    if (ok && !union_manifest(j, &u, &nstale))
        ok = fail(j, "out of memory");
    ok = ok && put_manifest(j, &u);
    remove_made(&made, !ok);
    site_manifest_free(&u);
    /* From here on the manifest claims every file that may be in place.
     * The union has no inputs line: only the final manifest says the site
     * is complete (nothing is written when the union was it already). */
    ok = ok && move_staged(j);
    ok = ok && (!nstale || remove_stale(j));
    return ok && put_manifest(j, j->now);
}

bool site_commit_run(const site_commit *j)
{
    return j->out_exists ? commit_in_place(j) : commit_new_folder(j);
}
