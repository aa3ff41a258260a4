/*
 * site_out.c — the staging folder, keeping unchanged files, and moving
 * the new ones into place (see site_out.h).
 */
#include "gen/site/site_out.h"
#include "gen/base/hash.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/base/fileio.h"
#include "gen/base/lockfile.h"
#include "gen/site/site_manifest.h"
#include "gen/site/site_out_commit.h"

/* Marks on the previous manifest's entries (site_manifest_entry.mark). */
enum { OLD_UNCHECKED = 0, OLD_INTACT, OLD_CHANGED };

struct site_out {
    char *out_dir;       /* the output folder, links resolved when it exists */
    char *tmp_dir;       /* the staging folder: this build's new files */
    char *old_dir;       /* the previous site: out_dir, or opt.previous_dir */
    bool out_exists;
    bool has_old;        /* old_dir is a site whose files may be kept */
    bool link_kept;      /* out_dir is new: kept files are linked into tmp_dir */
    site_manifest old;   /* the previous build's files, sorted by path */
    site_manifest now;   /* this build's files */
    site_out_options opt;
    site_out_stats stats;
    long files;          /* written or kept, for fail_after */
    long moves;          /* moved into place, for kill_after_moves */
    char made_dir[4096]; /* the last folder known to exist in tmp_dir */
    char error[1024];
    lockfile out_lock;      /* the output folder's, exclusive (lock_output) */
    lockfile previous_lock; /* opt.previous_dir's, shared (use_previous) */
    pthread_mutex_t lock; /* page writers run in several threads */
    pthread_t checker;   /* site_out_check_ahead's thread, while checking */
    bool checking;       /* the checker was started and not yet joined */
    bool stop_checking;  /* asks the checker to stop (under lock) */
    char *private_name;  /* site_out_stage_private's file in tmp_dir, NULL: none */
    bool *private_placed; /* set true once it is at out_dir/private_name */
};

/* ------------------------------------------------------------------ */
/* Errors and paths                                                    */

static bool fail(site_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(site_out *o, const char *fmt, ...)
{
    if (o->error[0])
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->error, sizeof o->error, fmt, ap);
    va_end(ap);
    return false;
}

static bool failed(const site_out *o)
{
    return o->error[0] != '\0';
}

/* fail() from the writing calls, which run on several threads and do
 * their file work outside the lock. */
static bool fail_shared(site_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail_shared(site_out *o, const char *fmt, ...)
{
    char text[sizeof o->error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&o->lock);
    fail(o, "%s", text);
    pthread_mutex_unlock(&o->lock);
    return false;
}

bool site_out_failed(site_out *o)
{
    pthread_mutex_lock(&o->lock);
    bool f = failed(o);
    pthread_mutex_unlock(&o->lock);
    return f;
}

const char *site_out_error(site_out *o)
{
    return o->error; /* set once, never changed after */
}

void site_out_get_stats(site_out *o, site_out_stats *s)
{
    pthread_mutex_lock(&o->lock);
    *s = o->stats;
    pthread_mutex_unlock(&o->lock);
}


/* Whether the regular file at path has exactly size bytes, and they are
 * data's (data not NULL) or hash to hash. Read a block at a time, never
 * whole: a night checks every file of the last release (15,000 of them,
 * 230 MB on the bench's archive), and a buffer per file, fresh memory for
 * the large ones, cost a page fault per 4 KB. Links are not followed: a
 * page replaced by a link is not ours. */
static bool file_has(const char *path, size_t size, const void *data, uint64_t hash)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    bool same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == size;
    hash_stream h;
    hash_stream_begin(&h, size, 0);
    unsigned char block[1 << 16];
    for (size_t got = 0; same && got < size;) {
        size_t want = size - got < sizeof block ? size - got : sizeof block;
        ssize_t n = read(fd, block, want);
        if (n < 0 && errno == EINTR)
            continue;
        same = n > 0 && (data ? memcmp(block, (const char *)data + got, (size_t)n) == 0
                              : (hash_stream_add(&h, block, (size_t)n), true));
        got += same ? (size_t)n : 0;
    }
    close(fd);
    return same && (data || hash_stream_end(&h) == hash);
}

/* The whole regular file at path when it has exactly size bytes, else
 * NULL. Links are not followed: a page replaced by a link is not ours. */
static char *read_exact(const char *path, size_t size)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == size)
        buf = malloc(size ? size : 1);
    size_t got = 0;
    while (buf && got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            free(buf);
            buf = NULL;
        } else {
            got += (size_t)n;
        }
    }
    close(fd);
    return buf;
}

/* ------------------------------------------------------------------ */
/* Writing into the staging folder                                     */

/* The page writers run on several threads. Only the bookkeeping (the
 * error, the fault-injection count, the folder cache, the manifests'
 * marks and lists, the stats) is done under o->lock; hashing, reading the
 * previous files and creating the new ones (most of a cold build's time,
 * in the kernel) are done outside it, so the threads overlap there. Each
 * path is written by one thread only (a second write of a path fails on
 * the existing file). */

/* Make the folder of the first n bytes of path inside the staging folder,
 * and its parents when they are missing: the deepest first, since its
 * parents usually exist (mkdir is harmless when another thread made one
 * first, and each one walks the whole path). */
static bool make_folder(site_out *o, const char *path, size_t n)
{
    char dir[4096 + 512];
    snprintf(dir, sizeof dir, "%s/%.*s", o->tmp_dir, (int)n, path);
    if (mkdir(dir, 0755) == 0 || errno == EEXIST)
        return true;
    size_t parent = n;
    while (parent > 0 && path[parent - 1] != '/')
        parent--;
    if (errno == ENOENT && parent > 1 && make_folder(o, path, parent - 1) &&
        (mkdir(dir, 0755) == 0 || errno == EEXIST))
        return true;
    return fail_shared(o, "cannot make %s: %s", dir, strerror(errno));
}

/* Make the folders of path inside the staging folder. */
static bool make_parents(site_out *o, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return true;
    size_t n = (size_t)(slash - path);
    if (n >= sizeof o->made_dir)
        return fail_shared(o, "path too long: %s", path);
    pthread_mutex_lock(&o->lock);
    bool known = strncmp(o->made_dir, path, n) == 0 && o->made_dir[n] == '\0';
    pthread_mutex_unlock(&o->lock);
    if (known)
        return true;
    if (!make_folder(o, path, n))
        return false;
    pthread_mutex_lock(&o->lock);
    memcpy(o->made_dir, path, n);
    o->made_dir[n] = '\0';
    pthread_mutex_unlock(&o->lock);
    return true;
}

/* Count a file for the fault-injection hook (under the lock). */
static bool count_file(site_out *o)
{
    if (o->opt.fail_after >= 0 && ++o->files > o->opt.fail_after) {
        if (o->opt.fail_kill)
            raise(SIGKILL);
        return fail(o, "build stopped after %ld files (fault injection)", o->opt.fail_after);
    }
    return true;
}

/* Write data to dir/path, a new file. */
static bool write_new_file(site_out *o, const char *dir, const char *path, const void *data,
                           size_t len)
{
    char *full = fileio_join(dir, path);
    if (!full)
        return fail_shared(o, "out of memory");
    bool ok = site_commit_write_file(full, data, len);
    if (!ok && errno == EEXIST)
        fail_shared(o, "%s was written twice", path);
    else if (!ok)
        fail_shared(o, "cannot write %s: %s", full, strerror(errno));
    free(full);
    return ok;
}

/* Is the previous build's copy of e still the file its manifest
 * describes (hash), or the same bytes as data when data is given? Read
 * from disk: a file changed in place at the same size is not kept.
 * Reads only e's path and size: no lock needed. */
static bool old_file_matches(const site_out *o, const site_manifest_entry *e, const void *data)
{
    char *full = fileio_join(o->old_dir, e->path);
    bool same = full && file_has(full, e->size, data, e->hash);
    free(full);
    return same;
}

/* Whether the previous file of e is intact (by its hash), checked once
 * per build: the answer is kept in e->mark. */
static bool old_file_intact(site_out *o, site_manifest_entry *e)
{
    pthread_mutex_lock(&o->lock);
    int mark = e->mark;
    pthread_mutex_unlock(&o->lock);
    if (mark != OLD_UNCHECKED)
        return mark == OLD_INTACT;
    bool same = old_file_matches(o, e, NULL);
    pthread_mutex_lock(&o->lock);
    e->mark = same ? OLD_INTACT : OLD_CHANGED;
    pthread_mutex_unlock(&o->lock);
    return same;
}

/* The checker: every previous file's mark, in the manifest's order, until
 * all are marked or it is asked to stop. */
static void *check_previous(void *arg)
{
    site_out *o = arg;
    for (size_t i = 0; i < o->old.n; i++) {
        pthread_mutex_lock(&o->lock);
        bool stop = o->stop_checking || failed(o);
        pthread_mutex_unlock(&o->lock);
        if (stop)
            break;
        old_file_intact(o, &o->old.items[i]);
    }
    return NULL;
}

void site_out_check_ahead(site_out *o)
{
    if (o->has_old && !o->checking && !site_out_failed(o))
        o->checking = pthread_create(&o->checker, NULL, check_previous, o) == 0;
}

/* Stop the checker (what it marked stays marked) and wait for it. */
static void stop_checker(site_out *o)
{
    if (!o->checking)
        return;
    pthread_mutex_lock(&o->lock);
    o->stop_checking = true;
    pthread_mutex_unlock(&o->lock);
    pthread_join(o->checker, NULL);
    o->checking = false;
}

/* The previous manifest's entry for path made from key (0: by content);
 * the list itself never changes after begin. */
static site_manifest_entry *old_entry(const site_out *o, const char *path, uint64_t key)
{
    if (!o->has_old)
        return NULL;
    site_manifest_entry *e = site_manifest_find(&o->old, path);
    return e && e->key == key ? e : NULL;
}

/* Start writing or keeping path: not after a failure, a path perfcast
 * may own, counted for fault injection. */
static bool begin_file(site_out *o, const char *path)
{
    pthread_mutex_lock(&o->lock);
    bool ok = !failed(o) &&
              (site_manifest_path_ok(path) || fail(o, "invalid site path '%s'", path)) &&
              count_file(o);
    pthread_mutex_unlock(&o->lock);
    return ok;
}

/* List path in this build's manifest: kept from the previous build
 * (staged false) or written into the staging folder. */
static bool record(site_out *o, const char *path, uint64_t hash, uint64_t key, size_t len,
                   bool staged)
{
    pthread_mutex_lock(&o->lock);
    bool ok = site_manifest_add(&o->now, path, hash, key, len) || fail(o, "out of memory");
    if (ok && staged) {
        o->now.items[o->now.n - 1].mark = SITE_COMMIT_STAGED;
        o->stats.written++;
        o->stats.bytes += len;
    } else if (ok) {
        o->stats.linked++;
    }
    pthread_mutex_unlock(&o->lock);
    return ok;
}

/* A kept file of a previous site that is not the output folder: a hard
 * link to it in the staging folder (its folders made on the first
 * ENOENT), or, where the file system has none (another device, no links
 * allowed), a copy of its bytes. The previous site is only read. */
static bool link_or_copy(site_out *o, const char *from, const char *to,
                         const site_manifest_entry *e)
{
    if (link(from, to) == 0)
        return true;
    if (errno == ENOENT) {
        if (!make_parents(o, e->path))
            return false;
        if (link(from, to) == 0)
            return true;
    }
    if (errno != EXDEV && errno != EPERM && errno != EMLINK && errno != ENOTSUP &&
        errno != EOPNOTSUPP)
        return fail_shared(o, "cannot keep %s in %s: %s", from, o->tmp_dir, strerror(errno));
    char *bytes = read_exact(from, e->size);
    bool ok = (bytes && hash_bytes(bytes, e->size, 0) == e->hash) ||
              fail_shared(o, "%s changed while this build kept it", from);
    ok = ok && write_new_file(o, o->tmp_dir, e->path, bytes, e->size);
    free(bytes);
    return ok;
}

static bool link_old_file(site_out *o, const site_manifest_entry *e)
{
    char *from = fileio_join(o->old_dir, e->path), *to = fileio_join(o->tmp_dir, e->path);
    bool ok = from && to ? link_or_copy(o, from, to, e) : fail_shared(o, "out of memory");
    free(from);
    free(to);
    return ok;
}

/* A kept folder's two ends, each open once, so that its files are linked
 * by their names alone: a link by full paths walks both paths again, and
 * with a new folder's mkdir that was a third of a night's pages. */
typedef struct {
    int old_fd, new_fd; /* -1: not open, every file goes the general way */
    size_t dirlen;      /* the folder's path, up to its '/', in the entries' paths */
} folder_links;

static int open_folder(const char *root, const char *dir, size_t dirlen)
{
    char path[4096 + 512];
    snprintf(path, sizeof path, "%s/%.*s", root, (int)(dirlen - 1), dir); /* no '/' at the end:
                                                                             it would follow a link */
    return open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* Open the kept folder dir (its path ending in '/') of the previous build
 * and make it in the staging folder, whose first kept file is
 * first_path. With anything amiss, both stay closed. */
static void open_folder_links(site_out *o, const char *dir, size_t dirlen, const char *first_path,
                              folder_links *f)
{
    *f = (folder_links){-1, -1, dirlen};
    if (!o->link_kept || dirlen < 2 || !make_parents(o, first_path))
        return;
    f->old_fd = open_folder(o->old_dir, dir, dirlen);
    f->new_fd = f->old_fd >= 0 ? open_folder(o->tmp_dir, dir, dirlen) : -1;
}

static void close_folder_links(folder_links *f)
{
    if (f->old_fd >= 0)
        close(f->old_fd);
    if (f->new_fd >= 0)
        close(f->new_fd);
}

/* Link the kept file e into the staging folder: by its name in f's
 * folders (f may be NULL), else, or when that fails, the general way,
 * which makes parents, copies across file systems and says what failed. */
static bool link_kept_file(site_out *o, const folder_links *f, const site_manifest_entry *e)
{
    const char *name = f ? e->path + f->dirlen : NULL;
    if (f && f->new_fd >= 0 && !strchr(name, '/') &&
        linkat(f->old_fd, name, f->new_fd, name, 0) == 0)
        return true;
    return link_old_file(o, e);
}

/* List the previous build's file e in this build's manifest, made from
 * key: in place, or linked into the staging folder when the output
 * folder is new (through f, a folder of them, when not NULL). */
static bool keep_from(site_out *o, const site_manifest_entry *e, uint64_t key,
                      const folder_links *f)
{
    return (!o->link_kept || link_kept_file(o, f, e)) &&
           record(o, e->path, e->hash, key, e->size, false);
}

static bool keep(site_out *o, const site_manifest_entry *e, uint64_t key)
{
    return keep_from(o, e, key, NULL);
}

/* Write path, or keep the previous file when it has the same bytes,
 * whatever it was made from (recorded with this build's key). */
static bool put(site_out *o, const char *path, uint64_t key, const void *data, size_t len)
{
    if (!begin_file(o, path))
        return false;
    uint64_t hash = hash_bytes(data, len, 0);
    const site_manifest_entry *e = o->has_old ? site_manifest_find(&o->old, path) : NULL;
    if (e && e->size == len && e->hash == hash && old_file_matches(o, e, data))
        return keep(o, e, key);
    return make_parents(o, path) && write_new_file(o, o->tmp_dir, path, data, len) &&
           record(o, path, hash, key, len, true);
}

bool site_out_write(site_out *o, const char *path, const void *data, size_t len)
{
    return put(o, path, 0, data, len);
}

bool site_out_write_keyed(site_out *o, const char *path, uint64_t key, const void *data,
                          size_t len)
{
    return put(o, path, key ? key : 1, data, len);
}

bool site_out_can_reuse(site_out *o, const char *path, uint64_t key)
{
    pthread_mutex_lock(&o->lock);
    bool usable = !failed(o) && site_manifest_path_ok(path);
    pthread_mutex_unlock(&o->lock);
    site_manifest_entry *e = usable ? old_entry(o, path, key ? key : 1) : NULL;
    return e && old_file_intact(o, e);
}

bool site_out_reuse(site_out *o, const char *path, uint64_t key)
{
    if (!begin_file(o, path))
        return false;
    site_manifest_entry *e = old_entry(o, path, key ? key : 1);
    return e && old_file_intact(o, e) && keep(o, e, e->key);
}

/* Whether the previous entry e lies under folder dir (which ends in '/'). */
static bool entry_under(const site_manifest_entry *e, const char *dir, size_t dirlen)
{
    return strncmp(e->path, dir, dirlen) == 0;
}

bool site_out_reuse_folder(site_out *o, const char *dir, const char *marker, uint64_t key,
                           const char *ext, size_t *counted)
{
    *counted = 0;
    if (!site_out_can_reuse(o, marker, key))
        return false;
    /* All or nothing: every file is checked before any is kept, so that a
     * folder with one changed file is made again whole by the caller. */
    size_t dirlen = strlen(dir), first = site_manifest_first_under(&o->old, dir), end = first;
    for (; end < o->old.n && entry_under(&o->old.items[end], dir, dirlen); end++)
        if (!old_file_intact(o, &o->old.items[end]))
            return false;
    size_t extlen = strlen(ext);
    folder_links f = {-1, -1, dirlen};
    if (end > first)
        open_folder_links(o, dir, dirlen, o->old.items[first].path, &f);
    bool ok = true;
    for (size_t i = first; ok && i < end; i++) {
        const site_manifest_entry *e = &o->old.items[i];
        size_t len = strlen(e->path);
        ok = begin_file(o, e->path) && keep_from(o, e, e->key, &f);
        *counted += ok && len >= extlen && strcmp(e->path + len - extlen, ext) == 0;
    }
    close_folder_links(&f);
    return ok;
}

void site_out_record_inputs(site_out *o, uint64_t key, const size_t *summary, size_t n)
{
    pthread_mutex_lock(&o->lock);
    o->now.inputs = key;
    o->now.nsummary = n < SITE_MANIFEST_SUMMARY_MAX ? n : SITE_MANIFEST_SUMMARY_MAX;
    memcpy(o->now.summary, summary, o->now.nsummary * sizeof *summary);
    pthread_mutex_unlock(&o->lock);
}

bool site_out_up_to_date(const char *out_dir, uint64_t key, size_t *summary, size_t n,
                         size_t *nfiles)
{
    site_manifest m = {0};
    bool ok = key && site_manifest_load(out_dir, &m) && m.inputs == key && m.nsummary == n;
    for (size_t i = 0; ok && i < m.n; i++) {
        char *full = fileio_join(out_dir, m.items[i].path);
        ok = full && file_has(full, m.items[i].size, NULL, m.items[i].hash);
        free(full);
    }
    if (ok) {
        memcpy(summary, m.summary, n * sizeof *summary);
        *nfiles = m.n;
    }
    site_manifest_free(&m);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Begin: check the output folder, make the staging one                */

/* A folder without a manifest is used only when it holds nothing but
 * hidden entries and README.md (all of which are kept). */
static bool usable_without_manifest(site_out *o)
{
    DIR *d = opendir(o->out_dir);
    if (!d)
        return fail(o, "cannot read %s: %s", o->out_dir, strerror(errno));
    bool ok = true;
    struct dirent *de;
    while (ok && (de = readdir(d)) != NULL)
        ok = de->d_name[0] == '.' || strcmp(de->d_name, "README.md") == 0;
    closedir(d);
    if (!ok)
        fail(o, "%s exists and is not a perfcast site (no %s); remove it or choose another --out",
             o->out_dir, site_manifest_name);
    return ok;
}

static void split_out_dir(const char *out, char *parent, size_t plen, const char **base)
{
    const char *slash = strrchr(out, '/');
    if (!slash) {
        snprintf(parent, plen, ".");
        *base = out;
    } else {
        snprintf(parent, plen, "%.*s", slash == out ? 1 : (int)(slash - out), out);
        *base = slash + 1;
    }
}

/* Take the lock of the site folder dir (exclusive, or shared to read it):
 * the lock file PARENT/.BASE.lock beside it (gen/base/lockfile.h), not
 * the folder itself, since a folder not made yet cannot be locked, and
 * locking its parent instead made every build into a new folder of /tmp
 * wait for every other. False when another build's lock excludes it. */
static bool lock_site_folder(const char *dir, bool exclusive, lockfile *out)
{
    char parent[4096], path[4096 + 600];
    const char *base;
    split_out_dir(dir, parent, sizeof parent, &base);
    snprintf(path, sizeof path, "%s/.%s.lock", parent, base);
    return lockfile_take(path, exclusive, out) != LOCKFILE_BUSY;
}

/* Remove ".BASE.build-PID" staging folders of builds no longer running,
 * when they carry the staging mark (so a user's folder of that name is
 * never taken for one). */
static void remove_stale(const char *parent, const char *base)
{
    DIR *d = opendir(parent);
    if (!d)
        return;
    char prefix[512];
    snprintf(prefix, sizeof prefix, ".%s.build-", base);
    size_t plen = strlen(prefix);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strncmp(de->d_name, prefix, plen) != 0)
            continue;
        char *end;
        long pid = strtol(de->d_name + plen, &end, 10);
        if (*end || pid <= 0)
            continue;
        if (pid == (long)getpid() || (kill((pid_t)pid, 0) != 0 && errno == ESRCH)) {
            char *full = fileio_join(parent, de->d_name);
            char *mark = full ? fileio_join(full, site_commit_staging_mark) : NULL;
            struct stat st;
            if (mark && lstat(mark, &st) == 0 && S_ISREG(st.st_mode))
                fileio_remove_tree(full); /* a staging folder: all of it ours */
            free(mark);
            free(full);
        }
    }
    closedir(d);
}

/* The output folder as it will be used: links resolved when it exists
 * (so the staging folder lies beside the real one), without trailing
 * slashes. */
static char *output_path(const char *out_dir, bool *exists)
{
    char real[PATH_MAX];
    struct stat st;
    *exists = stat(out_dir, &st) == 0;
    char *s = strdup(*exists && realpath(out_dir, real) ? real : out_dir);
    size_t n = s ? strlen(s) : 0;
    while (n > 1 && s[n - 1] == '/')
        s[--n] = '\0';
    return s;
}

static void check_output(site_out *o)
{
    struct stat st;
    if (stat(o->out_dir, &st) != 0)
        fail(o, "cannot use %s: %s", o->out_dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        fail(o, "%s exists and is not a folder", o->out_dir);
    else if (!site_manifest_load(o->out_dir, &o->old))
        fail(o, "out of memory");
    else if (o->old.n == 0)
        usable_without_manifest(o);
    o->has_old = o->old.n > 0;
}

/* The previous site a new output folder is made from: it must be a
 * perfcast site (its manifest lists what may be kept), and it is locked
 * shared for the build (lock_output's exclusive lock keeps another
 * build from replacing its files while they are linked), never written. */
static void use_previous(site_out *o, const char *previous_dir)
{
    int dir_fd = open(o->old_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) {
        fail(o, "cannot use the previous site %s: %s", previous_dir, strerror(errno));
        return;
    }
    close(dir_fd);
    if (!lock_site_folder(o->old_dir, false, &o->previous_lock))
        fail(o, "another perfcast build is writing %s; try again when it is done", o->old_dir);
    else if (!site_manifest_load(o->old_dir, &o->old))
        fail(o, "out of memory");
    else if (o->old.n == 0)
        fail(o, "%s is not a perfcast site (no %s)", previous_dir, site_manifest_name);
    o->has_old = o->link_kept = !failed(o);
}

/* The refusals of a build from a previous site that its paths alone
 * decide, made before any lock (a lock file is written beside the output
 * folder, which may lie inside the previous site): the output must be a
 * new folder outside it. Sets old_dir. */
static void check_previous_paths(site_out *o, const char *previous_dir)
{
    bool exists;
    if (o->out_exists) {
        fail(o, "%s exists: a build from the previous site %s makes a new folder", o->out_dir,
             previous_dir);
        return;
    }
    if (!(o->old_dir = output_path(previous_dir, &exists))) {
        fail(o, "out of memory");
        return;
    }
    if (fileio_folders_overlap(o->old_dir, o->out_dir))
        fail(o, "the output folder %s and the previous site %s overlap (one is inside the "
             "other)", o->out_dir, previous_dir);
}

/* One build at a time per output folder: an exclusive lock, held until
 * commit or abort (lock_site_folder). Where the file system has no such
 * locks, builds are not serialised. */
static void lock_output(site_out *o)
{
    if (!lock_site_folder(o->out_dir, true, &o->out_lock))
        fail(o, "another perfcast build is writing %s; try again when it is done", o->out_dir);
}

site_out *site_out_begin(const char *out_dir, const site_out_options *opt, char *err,
                         size_t errlen)
{
    site_out *o = calloc(1, sizeof *o);
    if (!o || !(o->out_dir = output_path(out_dir, &o->out_exists))) {
        free(o);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    o->out_lock.fd = o->previous_lock.fd = -1;
    pthread_mutex_init(&o->lock, NULL);
    o->opt = opt ? *opt : (site_out_options){.fail_after = -1};
    char parent[4096];
    const char *base;
    split_out_dir(o->out_dir, parent, sizeof parent, &base);
    if (o->opt.previous_dir)
        check_previous_paths(o, o->opt.previous_dir);
    if (!failed(o))
        lock_output(o);
    if (o->opt.previous_dir && !failed(o))
        use_previous(o, o->opt.previous_dir);
    else if (o->out_exists && !failed(o))
        check_output(o);
    if (!o->old_dir && !(o->old_dir = strdup(o->out_dir)))
        fail(o, "out of memory");
    if (!failed(o)) {
        remove_stale(parent, base);
        char tmp[4096 + 600];
        snprintf(tmp, sizeof tmp, "%s/.%s.build-%ld", parent, base, (long)getpid());
        if (!(o->tmp_dir = strdup(tmp)))
            fail(o, "out of memory");
        else if (mkdir(o->tmp_dir, 0755) != 0)
            fail(o, "cannot make %s: %s", o->tmp_dir, strerror(errno));
        else
            write_new_file(o, o->tmp_dir, site_commit_staging_mark, "", 0);
    }
    if (failed(o)) {
        snprintf(err, errlen, "%s", o->error);
        site_out_abort(o);
        return NULL;
    }
    return o;
}

/* ------------------------------------------------------------------ */
/* Abort                                                               */

static void release(site_out *o)
{
    stop_checker(o);
    lockfile_release(&o->out_lock);
    lockfile_release(&o->previous_lock);
    pthread_mutex_destroy(&o->lock);
    site_manifest_free(&o->old);
    site_manifest_free(&o->now);
    free(o->out_dir);
    free(o->tmp_dir);
    free(o->old_dir);
    free(o->private_name);
    free(o);
}

void site_out_abort(site_out *o)
{
    if (!o)
        return;
    if (o->tmp_dir)
        fileio_remove_tree(o->tmp_dir);
    release(o);
}

/* ------------------------------------------------------------------ */
/* Commit (gen/site/site_out_commit.c does the moving)                      */

bool site_out_stage_private(site_out *o, const char *name, const fileio_part *parts, size_t n,
                            bool *placed)
{
    *placed = false;
    if (name[0] != '.' || strchr(name, '/') || strcmp(name, site_manifest_name) == 0 ||
        strcmp(name, site_commit_staging_mark) == 0)
        return false;
    pthread_mutex_lock(&o->lock);
    bool free_to_stage = !failed(o) && !o->private_name;
    pthread_mutex_unlock(&o->lock);
    char *full = free_to_stage ? fileio_join(o->tmp_dir, name) : NULL;
    char *copy = full ? strdup(name) : NULL;
    bool ok = copy && site_commit_write_parts(full, parts, n);
    if (!ok && full)
        unlink(full); /* a part would otherwise come with a new output folder */
    if (ok) {
        pthread_mutex_lock(&o->lock);
        o->private_name = copy, copy = NULL;
        o->private_placed = placed;
        pthread_mutex_unlock(&o->lock);
    }
    free(copy);
    free(full);
    return ok;
}

/* After a commit: the staged private file came with a new output folder,
 * or is moved into the existing one (replacing the previous file in one
 * rename). Its failure leaves the site as committed. */
static void place_private(site_out *o)
{
    if (!o->private_name)
        return;
    if (!o->out_exists) {
        *o->private_placed = true;
        return;
    }
    char *from = fileio_join(o->tmp_dir, o->private_name);
    char *to = fileio_join(o->out_dir, o->private_name);
    /* A link or a folder in its place is left as it is (never replaced,
     * never followed), like every path perfcast did not write. */
    struct stat st;
    bool taken = to && lstat(to, &st) == 0 && !S_ISREG(st.st_mode);
    *o->private_placed = from && to && !taken && rename(from, to) == 0;
    free(from);
    free(to);
}

bool site_out_commit(site_out *o, char *err, size_t errlen)
{
    stop_checker(o);
    site_manifest_sort(&o->now);
    for (size_t i = 1; i < o->now.n; i++)
        if (strcmp(o->now.items[i - 1].path, o->now.items[i].path) == 0)
            fail(o, "%s was written twice", o->now.items[i].path);
    if (!failed(o)) {
        site_commit job = {o->out_dir, o->tmp_dir, o->out_exists, &o->old, &o->now,
                           o->opt.kill_after_moves, o->error, sizeof o->error};
        if (site_commit_run(&job))
            place_private(o);
    }
    bool ok = !failed(o);
    if (!ok)
        snprintf(err, errlen, "%s", o->error);
    site_out_abort(o); /* the staging folder holds only what was not moved */
    return ok;
}
