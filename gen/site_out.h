/*
 * site_out.h — writes a site folder atomically and incrementally.
 *
 * Atomic: every file goes into a fresh folder beside the output
 * (".NAME.build-PID"); site_out_commit swaps that folder with the output
 * in one rename (renameat2 with RENAME_EXCHANGE) and then removes the old
 * tree. A build that fails or is killed leaves the previous site as it
 * was; its half-written folder is removed by the next build.
 *
 * Incremental: the output keeps a manifest, ".perfcast-manifest", one line
 * per file: content hash, input key, size and path, sorted by path, with
 * no dates (it is itself deterministic). A file whose content hash (or,
 * for charts, whose input key) and size match the previous build's entry,
 * and which is still a regular file of that size, is hard-linked from the
 * previous site instead of written: it keeps its inode and mtime, so a
 * rebuild with unchanged inputs rewrites no file, and a chart whose data
 * did not change is not even drawn again.
 *
 * Safety: an existing output folder is replaced only when it is a
 * previous site (it has a manifest) or holds nothing but hidden files and
 * README.md (the committed placeholder of site/). Top-level regular files
 * the previous build did not write (such as site/.gitignore) are carried
 * over into the new site.
 *
 * Errors are sticky: after the first failure every call is a no-op
 * returning false, and site_out_error says what happened.
 *
 * Threads: the writing and reusing calls may come from several threads at
 * once (a lock serialises them); begin, commit and abort from one.
 *
 * Ownership: site_out_begin returns a writer that site_out_commit or
 * site_out_abort releases (exactly one of them).
 */
#ifndef PERFCAST_SITE_OUT_H
#define PERFCAST_SITE_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct site_out site_out;

typedef struct {
    long fail_after; /* fault injection for tests: fail once this many files
                        were written or linked; < 0 = never */
    bool fail_kill;  /* ... by SIGKILL, like an interrupted build */
} site_out_options;

typedef struct {
    size_t written; /* files written */
    size_t linked;  /* files kept from the previous site */
    size_t bytes;   /* bytes written */
} site_out_stats;

/* A 64-bit hash of data (for change detection, not security). */
uint64_t site_hash(const void *data, size_t len, uint64_t seed);

/* Start a build of out_dir. Returns NULL with a reason in err when the
 * folder cannot be used or the temporary folder cannot be made. */
site_out *site_out_begin(const char *out_dir, const site_out_options *opt, char *err,
                         size_t errlen);

/* Write the file at the site-relative path (folders are made as needed). */
bool site_out_write(site_out *o, const char *path, const void *data, size_t len);

/* Whether the previous site has path made from inputs whose hash is key
 * (charts), so that site_out_reuse can keep it. No side effect. */
bool site_out_can_reuse(site_out *o, const char *path, uint64_t key);

/* Keep the previous site's path made from the same key: true when it was
 * linked and the caller need not make it; false otherwise (and on error). */
bool site_out_reuse(site_out *o, const char *path, uint64_t key);

/* Write a file made from inputs with hash key, so a later build can reuse it. */
bool site_out_write_keyed(site_out *o, const char *path, uint64_t key, const void *data,
                          size_t len);

bool site_out_failed(site_out *o);
const char *site_out_error(site_out *o);
void site_out_get_stats(site_out *o, site_out_stats *s);

/* Write the manifest and swap the new site in. Releases o. Returns false
 * with the reason in err (the previous site is then untouched). */
bool site_out_commit(site_out *o, char *err, size_t errlen);

/* Give up: remove the temporary folder. Releases o. */
void site_out_abort(site_out *o);

#endif
