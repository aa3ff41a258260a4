/*
 * import_txn.c — see import_txn.h.
 */
#include "gen/import/import_txn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/ingest/archive.h"

#include "gen/base/fileio.h"

#define STAGE_PREFIX ".perfcast-import-"

/* The files an import may write, and whether each lives in the archive's
 * top folder (else in the campaign's). */
static const struct {
    const char *name;
    bool top;
} written_files[] = {
    {"clusters.csv", true},     {"runs.csv", false}, {"experiments.csv", false},
    {"README.md", false},       {"campaign.csv", false},
};

bool import_txn_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 255 || name[0] == '.' || archive_is_reserved_name(name))
        return false;
    for (const char *s = name; *s; s++)
        if (*s == '/' || *s == '\\' || (unsigned char)*s < 0x20 || *s == 0x7f)
            return false;
    return true;
}

/* ------------------------------------------------------------------ */
/* Paths and checks                                                    */

/* dir/name, or dir/sub/name when sub is not NULL. Malloc'ed; NULL when out
 * of memory. */
static char *path3(const char *dir, const char *sub, const char *name)
{
    char *mid = sub ? fileio_join(dir, sub) : strdup(dir);
    char *full = mid ? fileio_join(mid, name) : NULL;
    free(mid);
    return full;
}

/* A path perfcast will replace must be absent or a regular file, never a
 * symbolic link (which could lead out of the archive). */
static bool check_plain_file(const char *path, diag_list *diags)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT || (diag_add(diags, path, 0, 0, "cannot inspect: %s",
                                            strerror(errno)), false);
    if (S_ISLNK(st.st_mode)) {
        diag_add(diags, path, 0, 0,
                 "is a symbolic link: perfcast writes only regular files inside the archive "
                 "(replace the link by the file itself); nothing imported");
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        diag_add(diags, path, 0, 0, "is not a regular file; nothing imported");
        return false;
    }
    return true;
}

static bool check_campaign_dir(import_txn *t, diag_list *diags)
{
    struct stat st;
    if (lstat(t->campaign_dir, &st) != 0) {
        if (errno == ENOENT)
            return true;
        diag_add(diags, t->campaign_dir, 0, 0, "cannot inspect: %s", strerror(errno));
        return false;
    }
    if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
        diag_add(diags, t->campaign_dir, 0, 0,
                 "%s: a campaign must be a folder inside the archive; nothing imported",
                 S_ISLNK(st.st_mode) ? "is a symbolic link" : "is not a folder");
        return false;
    }
    t->campaign_exists = true;
    return true;
}

static bool check_files(const import_txn *t, diag_list *diags)
{
    bool ok = true;
    for (size_t i = 0; i < sizeof written_files / sizeof written_files[0]; i++) {
        char *p = written_files[i].top ? fileio_join(t->archive, written_files[i].name)
                                       : fileio_join(t->campaign_dir, written_files[i].name);
        ok = p && check_plain_file(p, diags) && ok;
        free(p);
    }
    return ok;
}

/* ------------------------------------------------------------------ */
/* Locks                                                               */

static bool lock_archive(import_txn *t, diag_list *diags)
{
    t->archive_fd = open(t->archive, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int rc = t->archive_fd < 0 ? -1 : 0;
    while (rc == 0 && (rc = flock(t->archive_fd, LOCK_EX)) != 0 && errno == EINTR)
        rc = 0;
    if (rc != 0)
        diag_add(diags, t->archive, 0, 0, "cannot lock the archive: %s", strerror(errno));
    return rc == 0;
}

/* The record lock mgbench takes on runs.csv (mgbench/runs_csv.c), on the
 * file the path names once the lock is held: a lock taken on a file that
 * another writer has just replaced protects nothing. */
static bool lock_runs(import_txn *t, diag_list *diags)
{
    char *path = fileio_join(t->campaign_dir, "runs.csv");
    bool ok = path != NULL;
    for (int tries = 0; ok && tries < 100; tries++) {
        int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            ok = errno == ENOENT;
            if (!ok)
                diag_add(diags, path, 0, 0, "cannot open: %s", strerror(errno));
            break;
        }
        struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
        int rc;
        while ((rc = fcntl(fd, F_SETLKW, &lk)) != 0 && errno == EINTR)
            ;
        struct stat held, named;
        if (rc == 0 && fstat(fd, &held) == 0 && lstat(path, &named) == 0 &&
            held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
            t->runs_fd = fd;
            break;
        }
        if (rc != 0) {
            diag_add(diags, path, 0, 0, "cannot lock: %s", strerror(errno));
            ok = false;
        }
        close(fd);
    }
    free(path);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Staging folders                                                     */

/* Under the archive lock a staging folder belongs to an import that died. */
static void remove_stale_stages(const import_txn *t)
{
    DIR *d = opendir(t->archive);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, STAGE_PREFIX, strlen(STAGE_PREFIX)) != 0)
            continue;
        char *p = fileio_join(t->archive, e->d_name);
        struct stat st;
        if (p && lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            fileio_remove_tree(p);
        else if (p)
            unlink(p);
        free(p);
    }
    if (d)
        closedir(d);
}

static bool make_stage(import_txn *t, diag_list *diags)
{
    char *tmpl = fileio_join(t->archive, STAGE_PREFIX "XXXXXX");
    if (!tmpl || !mkdtemp(tmpl)) {
        if (tmpl)
            diag_add(diags, t->archive, 0, 0, "cannot make a staging folder: %s",
                     strerror(errno));
        free(tmpl);
        return false;
    }
    t->stage = tmpl;
    char *camp = fileio_join(t->stage, t->campaign);
    bool ok = camp && mkdir(camp, 0777) == 0;
    if (camp && !ok)
        diag_add(diags, camp, 0, 0, "cannot make a staging folder: %s", strerror(errno));
    free(camp);
    return ok;
}

bool import_txn_begin(import_txn *t, const char *archive, const char *campaign,
                      diag_list *diags)
{
    memset(t, 0, sizeof *t);
    t->archive_fd = t->runs_fd = -1;
    if (!import_txn_name_ok(campaign)) {
        diag_add(diags, campaign, 0, 0,
                 "not a usable campaign name (it names a folder: not empty, no '/', no control "
                 "characters, not starting with '.', at most 255 bytes, and none of the "
                 "archive's own files: clusters.csv, advice.csv, acknowledgements.csv, "
                 "README.md)");
        return false;
    }
    t->archive = strdup(archive);
    t->campaign = strdup(campaign);
    t->campaign_dir = fileio_join(archive, campaign);
    if (!t->archive || !t->campaign || !t->campaign_dir)
        return false;
    if (mkdir(archive, 0777) == 0)
        t->made_archive = true;
    else if (errno != EEXIST) {
        diag_add(diags, archive, 0, 0, "cannot create: %s", strerror(errno));
        return false;
    }
    if (!lock_archive(t, diags))
        return false;
    remove_stale_stages(t);
    return check_campaign_dir(t, diags) && check_files(t, diags) &&
           (!t->campaign_exists || lock_runs(t, diags)) && make_stage(t, diags);
}

/* ------------------------------------------------------------------ */
/* Stage and commit                                                    */

bool import_txn_stage(import_txn *t, const char *name, bool top, const char *data, size_t len,
                      diag_list *diags)
{
    if (t->nstaged == sizeof t->staged / sizeof t->staged[0] ||
        strlen(name) >= sizeof t->staged[0])
        return false;
    char *path = path3(t->stage, top ? NULL : t->campaign, name);
    if (!path)
        return false;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    bool ok = fd >= 0 && fileio_write_all(fd, data, len) && fsync(fd) == 0;
    if (!ok)
        diag_add(diags, path, 0, 0, "cannot write: %s", strerror(errno));
    if (fd >= 0 && close(fd) != 0 && ok) {
        diag_add(diags, path, 0, 0, "cannot write: %s", strerror(errno));
        ok = false;
    }
    free(path);
    if (ok) {
        snprintf(t->staged[t->nstaged], sizeof t->staged[0], "%s", name);
        t->staged_top[t->nstaged++] = top;
    }
    return ok;
}

const char *import_txn_stage_dir(const import_txn *t)
{
    return t->stage;
}

/* Whether name is in order[0..n). */
static bool named(const char *name, const char *const *order, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(order[i], name) == 0)
            return true;
    return false;
}

static bool rename_into_place(const char *from, const char *to, diag_list *diags)
{
    if (rename(from, to) == 0)
        return true;
    diag_add(diags, to, 0, 0, "cannot replace: %s", strerror(errno));
    return false;
}

/* Make the renames durable: fsync the folders that changed. */
static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* A staged campaign file left out of order: drop it before a new
 * campaign's folder moves into place (it was there to validate). */
static void drop_unnamed(const import_txn *t, const char *const *order, size_t n)
{
    for (size_t i = 0; i < t->nstaged; i++) {
        if (t->staged_top[i] || named(t->staged[i], order, n))
            continue;
        char *p = path3(t->stage, t->campaign, t->staged[i]);
        if (p)
            unlink(p);
        free(p);
    }
}

bool import_txn_commit(import_txn *t, const char *const *order, size_t n, diag_list *diags)
{
    bool ok = true;
    for (size_t k = 0; ok && k < n; k++)
        for (size_t i = 0; ok && i < t->nstaged; i++) {
            if (strcmp(t->staged[i], order[k]) != 0 || (!t->staged_top[i] && !t->campaign_exists))
                continue;
            char *from = path3(t->stage, t->staged_top[i] ? NULL : t->campaign, t->staged[i]);
            char *to = fileio_join(t->staged_top[i] ? t->archive : t->campaign_dir, t->staged[i]);
            ok = from && to && rename_into_place(from, to, diags);
            free(from);
            free(to);
        }
    if (ok && !t->campaign_exists) {
        drop_unnamed(t, order, n);
        char *from = fileio_join(t->stage, t->campaign);
        ok = from && rename_into_place(from, t->campaign_dir, diags);
        free(from);
    }
    sync_dir(t->archive);
    if (t->campaign_exists)
        sync_dir(t->campaign_dir);
    return ok;
}

void import_txn_end(import_txn *t, bool committed)
{
    if (t->stage)
        fileio_remove_tree(t->stage);
    if (!committed && t->made_archive && t->archive)
        rmdir(t->archive); /* only when still empty */
    if (t->runs_fd >= 0)
        close(t->runs_fd); /* releases the record lock */
    if (t->archive_fd >= 0)
        close(t->archive_fd); /* releases the flock */
    free(t->archive);
    free(t->campaign);
    free(t->campaign_dir);
    free(t->stage);
    memset(t, 0, sizeof *t);
    t->archive_fd = t->runs_fd = -1;
}
