/*
 * site_out.c — the temporary folder, the manifest, hard links to the
 * previous site and the final swap (see site_out.h).
 */
#define _GNU_SOURCE /* renameat2 */

#include "gen/site_out.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/fileio.h"

static const char manifest_name[] = ".perfcast-manifest";

typedef struct {
    char *path;
    uint64_t hash;
    uint64_t key;  /* 0 = a file known by its content only */
    size_t size;
} entry;

typedef struct {
    entry *items;
    size_t n, cap;
} entry_list;

struct site_out {
    char *out_dir;       /* as given, without trailing slashes */
    char *tmp_dir;       /* the new site being built */
    bool out_exists;
    entry_list old;      /* the previous manifest, sorted by path */
    entry_list now;      /* this build's files */
    site_out_options opt;
    site_out_stats stats;
    long files;          /* written or linked, for fail_after */
    char made_dir[4096]; /* the last folder known to exist in tmp_dir */
    char error[512];
    pthread_mutex_t lock; /* page writers run in several threads */
};

/* ------------------------------------------------------------------ */
/* Hash                                                                */

uint64_t site_hash(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed ^ (0x9E3779B97F4A7C15ull * (len + 1));
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
        p += 8;
        len -= 8;
    }
    uint64_t tail = 0;
    memcpy(&tail, p, len);
    h = (h ^ tail) * 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 29;
    return h;
}

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

/* Site paths are relative, without "." or ".." parts or empty parts. */
static bool valid_site_path(const char *path)
{
    if (!path[0] || path[0] == '/')
        return false;
    for (const char *s = path; *s;) {
        size_t n = strcspn(s, "/");
        if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return false;
        s += n;
        if (*s == '/')
            s++;
        else
            break;
    }
    return path[strlen(path) - 1] != '/';
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static bool remove_tree(const char *dir)
{
    return nftw(dir, remove_entry, 32, FTW_DEPTH | FTW_PHYS) == 0 || errno == ENOENT;
}

/* ------------------------------------------------------------------ */
/* Manifests                                                           */

static bool entry_add(entry_list *l, const char *path, uint64_t hash, uint64_t key, size_t size)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        entry *items = realloc(l->items, cap * sizeof *items);
        if (!items)
            return false;
        l->items = items;
        l->cap = cap;
    }
    char *copy = strdup(path);
    if (!copy)
        return false;
    l->items[l->n++] = (entry){copy, hash, key, size};
    return true;
}

static void entry_list_free(entry_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i].path);
    free(l->items);
    memset(l, 0, sizeof *l);
}

static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->path, ((const entry *)b)->path);
}

static const entry *entry_find(const entry_list *l, const char *path)
{
    entry key = {(char *)path, 0, 0, 0};
    return l->n ? bsearch(&key, l->items, l->n, sizeof *l->items, compare_entries) : NULL;
}

/* Read "HASH KEY SIZE PATH" lines; a malformed manifest counts as empty
 * (the build then writes every file, which is always correct). */
static void read_manifest(site_out *o)
{
    char *path = fileio_join(o->out_dir, manifest_name);
    char *text = path ? fileio_read_file(path, NULL) : NULL;
    free(path);
    for (char *line = text; line && *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        uint64_t hash, key;
        size_t size;
        int used = 0;
        if (sscanf(line, "%" SCNx64 " %" SCNx64 " %zu %n", &hash, &key, &size, &used) == 3 &&
            used > 0 && valid_site_path(line + used))
            entry_add(&o->old, line + used, hash, key, size);
        line = end ? end + 1 : line + strlen(line);
    }
    free(text);
    if (o->old.n)
        qsort(o->old.items, o->old.n, sizeof *o->old.items, compare_entries);
}

static void manifest_text(const entry_list *l, char **text, size_t *len)
{
    size_t cap = 64;
    for (size_t i = 0; i < l->n; i++)
        cap += strlen(l->items[i].path) + 64;
    char *s = malloc(cap);
    size_t n = 0;
    for (size_t i = 0; s && i < l->n; i++)
        n += (size_t)snprintf(s + n, cap - n, "%016" PRIx64 " %016" PRIx64 " %zu %s\n",
                              l->items[i].hash, l->items[i].key, l->items[i].size,
                              l->items[i].path);
    *text = s;
    *len = s ? n : 0;
}

/* ------------------------------------------------------------------ */
/* Writing and linking                                                 */

/* Make the folders of path inside the temporary folder. */
static bool make_parents(site_out *o, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return true;
    size_t n = (size_t)(slash - path);
    if (n >= sizeof o->made_dir)
        return fail(o, "path too long: %s", path);
    if (strncmp(o->made_dir, path, n) == 0 && o->made_dir[n] == '\0')
        return true;
    char dir[4096 + 512];
    for (size_t i = 0; i <= n; i++) {
        if (i < n && path[i] != '/')
            continue;
        snprintf(dir, sizeof dir, "%s/%.*s", o->tmp_dir, (int)i, path);
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            return fail(o, "cannot make %s: %s", dir, strerror(errno));
    }
    memcpy(o->made_dir, path, n);
    o->made_dir[n] = '\0';
    return true;
}

/* Count a file for the fault-injection hook. */
static bool count_file(site_out *o)
{
    if (o->opt.fail_after >= 0 && ++o->files > o->opt.fail_after) {
        if (o->opt.fail_kill)
            raise(SIGKILL);
        return fail(o, "build stopped after %ld files (fault injection)", o->opt.fail_after);
    }
    return true;
}

static bool write_file(site_out *o, const char *path, const void *data, size_t len)
{
    char *full = fileio_join(o->tmp_dir, path);
    if (!full)
        return fail(o, "out of memory");
    int fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    bool ok = fd >= 0;
    const char *p = data;
    size_t left = len;
    while (ok && left > 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        ok = n > 0;
        p += ok ? n : 0;
        left -= ok ? (size_t)n : 0;
    }
    if (fd >= 0 && close(fd) != 0)
        ok = false;
    if (!ok)
        fail(o, "cannot write %s: %s", full, strerror(errno));
    free(full);
    o->stats.written += ok;
    o->stats.bytes += ok ? len : 0;
    return ok;
}

/* Is the previous site's copy still the file its manifest describes? The
 * size is checked (a stat, not a read of the whole site); the manifest's
 * hash says the content is the same as the new one. */
static bool old_file_intact(const site_out *o, const entry *e)
{
    char *full = fileio_join(o->out_dir, e->path);
    struct stat st;
    bool ok = full && lstat(full, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == e->size;
    free(full);
    return ok;
}

static bool link_old(site_out *o, const char *path)
{
    char *from = fileio_join(o->out_dir, path), *to = fileio_join(o->tmp_dir, path);
    bool ok = from && to && link(from, to) == 0;
    free(from);
    free(to);
    o->stats.linked += ok;
    return ok;
}

/* Keep the previous file when it matches: by content (key 0) or by key. */
static bool try_keep(site_out *o, const char *path, uint64_t key, uint64_t hash, size_t len)
{
    const entry *e = entry_find(&o->old, path);
    if (!e || e->key != key)
        return false;
    if (key == 0 && (e->hash != hash || e->size != len))
        return false;
    if (!old_file_intact(o, e) || !link_old(o, path))
        return false;
    return entry_add(&o->now, path, e->hash, e->key, e->size) || fail(o, "out of memory");
}

static bool begin_file(site_out *o, const char *path)
{
    if (failed(o))
        return false;
    if (!valid_site_path(path))
        return fail(o, "invalid site path '%s'", path);
    return count_file(o) && make_parents(o, path);
}

static bool put(site_out *o, const char *path, uint64_t key, const void *data, size_t len)
{
    if (!begin_file(o, path))
        return false;
    uint64_t hash = site_hash(data, len, 0);
    if (key == 0 && o->out_exists && try_keep(o, path, 0, hash, len))
        return true;
    if (!write_file(o, path, data, len))
        return false;
    return entry_add(&o->now, path, hash, key, len) || fail(o, "out of memory");
}

bool site_out_write(site_out *o, const char *path, const void *data, size_t len)
{
    pthread_mutex_lock(&o->lock);
    bool ok = put(o, path, 0, data, len);
    pthread_mutex_unlock(&o->lock);
    return ok;
}

bool site_out_write_keyed(site_out *o, const char *path, uint64_t key, const void *data,
                          size_t len)
{
    pthread_mutex_lock(&o->lock);
    bool ok = put(o, path, key ? key : 1, data, len);
    pthread_mutex_unlock(&o->lock);
    return ok;
}

/* The previous manifest's entry for path made from key, or NULL. */
static const entry *reusable(const site_out *o, const char *path, uint64_t key)
{
    if (failed(o) || !o->out_exists || !valid_site_path(path))
        return NULL;
    const entry *e = entry_find(&o->old, path);
    return e && e->key == (key ? key : 1) ? e : NULL;
}

bool site_out_can_reuse(site_out *o, const char *path, uint64_t key)
{
    pthread_mutex_lock(&o->lock);
    bool ok = reusable(o, path, key) != NULL;
    pthread_mutex_unlock(&o->lock);
    return ok;
}

bool site_out_reuse(site_out *o, const char *path, uint64_t key)
{
    pthread_mutex_lock(&o->lock);
    const entry *e = reusable(o, path, key);
    bool ok = e && begin_file(o, path) && try_keep(o, path, e->key, e->hash, e->size);
    pthread_mutex_unlock(&o->lock);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Begin: check the output folder, make the temporary one               */

/* A folder without a manifest may be replaced only when it holds nothing
 * but hidden files and README.md. */
static bool replaceable(site_out *o)
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
             o->out_dir, manifest_name);
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

/* Remove ".BASE.build-PID" folders of builds that are no longer running. */
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
        long pid = strtol(de->d_name + plen, NULL, 10);
        if (pid > 0 && (pid == (long)getpid() || (kill((pid_t)pid, 0) != 0 && errno == ESRCH))) {
            char *full = fileio_join(parent, de->d_name);
            if (full)
                remove_tree(full);
            free(full);
        }
    }
    closedir(d);
}

site_out *site_out_begin(const char *out_dir, const site_out_options *opt, char *err,
                         size_t errlen)
{
    site_out *o = calloc(1, sizeof *o);
    if (!o || !(o->out_dir = strdup(out_dir))) {
        free(o);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&o->lock, NULL);
    o->opt = opt ? *opt : (site_out_options){-1, false};
    size_t n = strlen(o->out_dir);
    while (n > 1 && o->out_dir[n - 1] == '/')
        o->out_dir[--n] = '\0';
    struct stat st;
    if (stat(o->out_dir, &st) == 0) {
        o->out_exists = true;
        if (!S_ISDIR(st.st_mode))
            fail(o, "%s exists and is not a folder", o->out_dir);
        else
            read_manifest(o);
        if (!failed(o) && o->old.n == 0)
            replaceable(o);
    }
    char parent[4096];
    const char *base;
    split_out_dir(o->out_dir, parent, sizeof parent, &base);
    if (!failed(o)) {
        remove_stale(parent, base);
        char tmp[4096 + 600];
        snprintf(tmp, sizeof tmp, "%s/.%s.build-%ld", parent, base, (long)getpid());
        if (!(o->tmp_dir = strdup(tmp)))
            fail(o, "out of memory");
        else if (mkdir(o->tmp_dir, 0755) != 0)
            fail(o, "cannot make %s: %s", o->tmp_dir, strerror(errno));
    }
    if (failed(o)) {
        snprintf(err, errlen, "%s", o->error);
        site_out_abort(o);
        return NULL;
    }
    return o;
}

/* ------------------------------------------------------------------ */
/* Commit and abort                                                    */

static void release(site_out *o)
{
    pthread_mutex_destroy(&o->lock);
    entry_list_free(&o->old);
    entry_list_free(&o->now);
    free(o->out_dir);
    free(o->tmp_dir);
    free(o);
}

void site_out_abort(site_out *o)
{
    if (!o)
        return;
    if (o->tmp_dir)
        remove_tree(o->tmp_dir);
    release(o);
}

/* Link the previous site's top-level files that no build wrote into the
 * new site (site/.gitignore, site/README.md). */
static void carry_over_foreign(site_out *o)
{
    if (!o->out_exists)
        return;
    DIR *d = opendir(o->out_dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *name = de->d_name;
        if (!strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, manifest_name) ||
            entry_find(&o->old, name) || entry_find(&o->now, name))
            continue;
        char *full = fileio_join(o->out_dir, name);
        struct stat st;
        if (full && lstat(full, &st) == 0 && S_ISREG(st.st_mode))
            link_old(o, name);
        free(full);
    }
    closedir(d);
}

static bool swap_in(site_out *o)
{
    if (!o->out_exists)
        return rename(o->tmp_dir, o->out_dir) == 0 ||
               fail(o, "cannot rename %s to %s: %s", o->tmp_dir, o->out_dir, strerror(errno));
    if (renameat2(AT_FDCWD, o->tmp_dir, AT_FDCWD, o->out_dir, RENAME_EXCHANGE) == 0)
        return true;
    /* No atomic exchange on this file system: three renames, and for a
     * moment no site at all. The previous site ends up in tmp_dir. */
    size_t n = strlen(o->tmp_dir) + 8;
    char *aside = malloc(n);
    bool ok = aside != NULL;
    if (ok) {
        snprintf(aside, n, "%s.old", o->tmp_dir);
        ok = rename(o->out_dir, aside) == 0 && rename(o->tmp_dir, o->out_dir) == 0 &&
             rename(aside, o->tmp_dir) == 0;
    }
    free(aside);
    return ok || fail(o, "cannot replace %s: %s", o->out_dir, strerror(errno));
}

bool site_out_commit(site_out *o, char *err, size_t errlen)
{
    if (o->now.n)
        qsort(o->now.items, o->now.n, sizeof *o->now.items, compare_entries);
    for (size_t i = 1; i < o->now.n; i++)
        if (strcmp(o->now.items[i - 1].path, o->now.items[i].path) == 0)
            fail(o, "%s was written twice", o->now.items[i].path);
    char *text;
    size_t len;
    manifest_text(&o->now, &text, &len);
    if (!text)
        fail(o, "out of memory");
    /* The manifest does not list itself: it is compared by its bytes. */
    if (!failed(o)) {
        char *old_path = fileio_join(o->out_dir, manifest_name);
        size_t old_len = 0;
        char *old_text = o->out_exists && old_path ? fileio_read_file(old_path, &old_len) : NULL;
        bool same = old_text && old_len == len && memcmp(old_text, text, len) == 0;
        if (!(same && link_old(o, manifest_name)))
            write_file(o, manifest_name, text, len);
        free(old_text);
        free(old_path);
    }
    free(text);
    if (!failed(o)) {
        carry_over_foreign(o);
        swap_in(o);
    }
    bool ok = !failed(o);
    if (!ok)
        snprintf(err, errlen, "%s", o->error);
    site_out_abort(o); /* after the swap, tmp_dir holds the previous site */
    return ok;
}
