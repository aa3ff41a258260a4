/*
 * site_out.h — writes a site folder safely and incrementally.
 *
 * Ownership of the folder: perfcast replaces or removes only the files
 * its manifest lists (gen/site/site_manifest.h); everything else in the output
 * folder — hidden entries such as .git/ and .ssh/, a user's docs/, notes
 * beside the pages, files inside perfcast's own sub-folders — is never
 * opened for writing, moved or deleted: it survives every build byte for
 * byte. A page path that is taken by a file or folder perfcast did not
 * write fails the build (before anything is changed) instead of replacing
 * it, and perfcast never writes a hidden path.
 *
 * Which folders are used: a new one; a previous site (it has a manifest);
 * or a folder without a manifest that holds nothing but hidden entries and
 * README.md (the committed site/ placeholder, a fresh clone of a pages
 * branch with only .git/): the site is written beside them and they are
 * kept as they are. Any other folder is refused.
 *
 * Failed or killed builds: every new or changed file is first written
 * into a staging folder beside the output (".NAME.build-PID"). Only when
 * the whole site is written does site_out_commit move those files into
 * place one rename each (every file is replaced atomically, the site as a
 * whole is not), then remove the files of the previous build that are no
 * longer made, then write the manifest. Before the first move it records
 * a manifest that lists both builds' files, so a build killed while moving
 * leaves no file perfcast would not recognise: the next build finishes the
 * work. A build that fails or is killed before the commit leaves the
 * previous site exactly as it was; its staging folder is removed by the
 * next build. A new output folder is made by renaming the staging folder,
 * so it appears whole or not at all.
 *
 * Incremental: a file whose bytes are the same as the previous build's
 * (compared with the file on disk, not only its size; whatever key it was
 * made from), or a keyed file (a chart, a page's HTML) whose input key
 * matches and whose bytes still hash to the manifest's hash, is left where
 * it is: it keeps its inode and mtime, a rebuild with unchanged inputs
 * moves no file, and a chart or page whose inputs did not change is not
 * even drawn or rendered again. A file changed in place (even at the same
 * size) is rewritten.
 *
 * From a previous site (site_out_options.previous_dir, for a nightly
 * release): the output folder must not exist yet; the previous site's
 * manifest says what may be kept, and a kept file (checked against that
 * manifest as above) is hard-linked from the previous site into the
 * staging folder, as it is decided (on the page writers' threads), or
 * copied where links cannot be made; the staging folder is renamed into
 * place at the commit. The previous site is only read, never written, and
 * is held under a shared lock for the build, so that no build writes into
 * it meanwhile. This does what a copy of links to the previous site
 * (`cp -al`) then a build into it would, without linking the files that
 * are made again or no longer made, and on the build's threads.
 *
 * One build at a time: site_out_begin fails when another build holds the
 * output folder (a lock released by commit, abort, or the process's end).
 *
 * Errors are sticky: after the first failure every call is a no-op
 * returning false, and site_out_error says what happened.
 *
 * Threads: the writing and reusing calls may come from several threads at
 * once (a lock guards the bookkeeping; reading, hashing and creating files
 * run outside it, each path from one thread only); begin, commit and abort
 * from one. site_out_check_ahead runs a thread of its own, which commit
 * and abort stop and join.
 *
 * Ownership: site_out_begin returns a writer that site_out_commit or
 * site_out_abort releases (exactly one of them).
 */
#ifndef PERFCAST_SITE_OUT_H
#define PERFCAST_SITE_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gen/base/fileio.h"

typedef struct site_out site_out;

typedef struct {
    long fail_after; /* fault injection for tests: fail once this many files
                        were written or linked; < 0 = never */
    bool fail_kill;  /* ... by SIGKILL, like an interrupted build */
    long kill_after_moves; /* fault injection: > 0 = SIGKILL once this many
                              files were moved into place by the commit */
    const char *previous_dir; /* a previous site to keep unchanged files from
                                 (out_dir must be new); NULL: out_dir's own */
} site_out_options;

typedef struct {
    size_t written; /* files written */
    size_t linked;  /* files kept from the previous site as they were */
    size_t bytes;   /* bytes written */
} site_out_stats;


/* Start a build of out_dir (from opt->previous_dir when given). Returns
 * NULL with a reason in err when the folder cannot be used (with a
 * previous site: out_dir exists, the previous site is no perfcast site,
 * another build writes it, or the two overlap) or the temporary folder
 * cannot be made. */
site_out *site_out_begin(const char *out_dir, const site_out_options *opt, char *err,
                         size_t errlen);

/* Write the file at the site-relative path (folders are made as needed). */
bool site_out_write(site_out *o, const char *path, const void *data, size_t len);

/* Whether the previous site has path made from inputs whose hash is key
 * (charts), still with the bytes its manifest records, so that
 * site_out_reuse can keep it. Changes nothing on disk. */
bool site_out_can_reuse(site_out *o, const char *path, uint64_t key);

/* Keep the previous site's path made from the same key: true when it was
 * linked and the caller need not make it; false otherwise (and on error). */
bool site_out_reuse(site_out *o, const char *path, uint64_t key);

/* Keep every file of the previous site under the folder dir ("a/b/",
 * ending in '/') as it is, when the previous site has marker (a path
 * under dir) made from key (see site_out_can_reuse) and every file it
 * listed under dir is intact: true then, and the caller need not make any
 * file of the folder; *counted receives how many of them end in ext.
 * All or nothing: false, with nothing kept, when the key differs or any
 * of the files is missing or changed (and on error). For a folder that
 * one writer makes whole from inputs it can hash before making anything
 * (a campaign's page, its tables and charts). */
bool site_out_reuse_folder(site_out *o, const char *dir, const char *marker, uint64_t key,
                           const char *ext, size_t *counted);

/* Start checking every file of the previous site against its manifest
 * (read and hashed, as site_out_can_reuse would) on a thread of its own,
 * so that the page writers that ask later find the answer ready: for the
 * time a build spends loading its data before it writes, when a second
 * core is free. Changes no answer, only when it is worked out; the
 * commit and abort stop and join the thread. Nothing when there is no
 * previous site or the thread cannot be started. */
void site_out_check_ahead(site_out *o);

/* Write a file made from inputs with hash key, so a later build can reuse
 * it (kept in place, with the new key, when its bytes did not change). */
bool site_out_write_keyed(site_out *o, const char *path, uint64_t key, const void *data,
                          size_t len);

/* Stage perfcast's own hidden file name (".perfcast-fits": no page, never
 * in the manifest, never a user's file) with the bytes of its n parts, in
 * order (written from them: no copy is made), to be put at out_dir/name
 * once the site is committed: it comes with a new output folder, or replaces the previous file of an existing one in one rename
 * right after the commit (not over a link or a folder in its place,
 * which is left as it is). Unlike a page's, its failure (here, or when it
 * is put in place) fails nothing: *placed, false until then, is set true
 * by the commit once the file is there. One such file per build. False
 * when it could not be staged (name not hidden or taken by perfcast's own
 * files, a second one, a write error, or the build has failed); may run
 * on a thread of its own beside the page writers, whose paths are never
 * hidden. */
bool site_out_stage_private(site_out *o, const char *name, const fileio_part *parts, size_t n,
                            bool *placed);

/* Record in the manifest that this build read inputs with hash key and
 * ended with the summary numbers (at most SITE_MANIFEST_SUMMARY_MAX):
 * see site_out_up_to_date. Written only once every file is in place. */
void site_out_record_inputs(site_out *o, uint64_t key, const size_t *summary, size_t n);

/* Whether out_dir was built from inputs with hash key (key != 0), is
 * complete and has every file its manifest lists with the bytes it
 * records (read and hashed, not only sized): then summary receives the
 * n numbers recorded with it, *nfiles how many files the site has, and a
 * build need not do anything. Changes nothing. */
bool site_out_up_to_date(const char *out_dir, uint64_t key, size_t *summary, size_t n,
                         size_t *nfiles);

bool site_out_failed(site_out *o);
const char *site_out_error(site_out *o);
void site_out_get_stats(site_out *o, site_out_stats *s);

/* Move the new files into place, remove the previous build's files that
 * were not made again, write the manifest. Releases o. Returns false with
 * the reason in err; the previous site is then untouched unless err says
 * it was partly updated (the next build completes it). */
bool site_out_commit(site_out *o, char *err, size_t errlen);

/* Give up: remove the staging folder (the output is not touched). Releases o. */
void site_out_abort(site_out *o);

#endif
