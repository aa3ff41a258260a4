/*
 * site_manifest.h — the list of files perfcast wrote into a site folder,
 * kept there as ".perfcast-manifest": one line per file,
 *
 *     HASH KEY SIZE PATH
 *
 * HASH is hash_bytes (gen/site/site_out.h) of the file's bytes, KEY the hash of
 * the inputs a chart was drawn from (0 for a file known by its content
 * only), both 16 hex digits; SIZE in bytes; PATH relative to the site,
 * sorted byte-wise, no dates (the manifest is itself deterministic).
 *
 * A first line "inputs KEY N1 N2 ..." may record the hash of everything
 * the build read and a few numbers of its summary (gen/site/site.c): a later
 * build with the same inputs and every file intact need not do anything.
 * It is written only once every file is in place.
 *
 * The manifest is the ownership record of the site folder: perfcast
 * replaces or removes only the files it lists; everything else there is
 * the user's. perfcast never writes a hidden path (a part starting with
 * '.') but its own two files at the top, this manifest and the cache of
 * fits .perfcast-fits (gen/site/site_fitcache.h), each replaced by a
 * rename; so every other hidden entry (.git, .ssh, .nojekyll) is the
 * user's, even when a manifest lists it.
 *
 * Ownership: a site_manifest owns its entries and their paths; free it
 * with site_manifest_free. Returned texts are malloc'ed, the caller's.
 */
#ifndef PERFCAST_SITE_MANIFEST_H
#define PERFCAST_SITE_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

extern const char site_manifest_name[]; /* ".perfcast-manifest" */

typedef struct {
    char *path;
    uint64_t hash;
    uint64_t key;  /* 0 = a file known by its content only */
    size_t size;
    int mark;      /* free for the list's user; 0 when added */
} site_manifest_entry;

enum { SITE_MANIFEST_SUMMARY_MAX = 16 };

typedef struct {
    site_manifest_entry *items;
    size_t n, cap;
    uint64_t inputs;  /* the "inputs" line's key; 0 = none */
    size_t summary[SITE_MANIFEST_SUMMARY_MAX]; /* its numbers */
    size_t nsummary;
} site_manifest;

/* A path perfcast may own: relative, parts separated by single '/', no
 * empty, hidden, "." or ".." part, no trailing '/'. */
bool site_manifest_path_ok(const char *path);

/* Append an entry (the list is unsorted until site_manifest_sort); false
 * when out of memory. */
bool site_manifest_add(site_manifest *m, const char *path, uint64_t hash, uint64_t key,
                       size_t size);

/* Sort by path (byte-wise), as site_manifest_find and the text need. */
void site_manifest_sort(site_manifest *m);

/* The entry for path in a sorted manifest, or NULL. */
site_manifest_entry *site_manifest_find(const site_manifest *m, const char *path);

/* The index of the first entry of a sorted manifest whose path is not
 * below prefix byte-wise: the paths that start with prefix ("dir/")
 * follow it, one after the other (m->n when none). */
size_t site_manifest_first_under(const site_manifest *m, const char *prefix);

/* Parse a manifest's text and sort it. Lines that do not parse and paths
 * perfcast cannot own are left out (so a damaged manifest claims less,
 * never more). False only when out of memory. */
bool site_manifest_parse(const char *text, site_manifest *m);

/* Read dir's manifest; an absent or unreadable one is empty. False only
 * when out of memory. */
bool site_manifest_load(const char *dir, site_manifest *m);

/* The text of a sorted manifest (*len bytes); NULL when out of memory. */
char *site_manifest_text(const site_manifest *m, size_t *len);

void site_manifest_free(site_manifest *m);

#endif
