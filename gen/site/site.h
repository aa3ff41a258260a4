/*
 * site.h — `perfcast build`: the whole static site from an archive.
 *
 * Loads the archive and fits every experiment whose inputs changed since
 * the previous build into the same folder, reusing the others' cached
 * fits (gen/site/site_fitcache.h, which also says when the pooled error
 * model is refreshed) (gen/site/site_data.h), writes
 * every page as Markdown and HTML, every chart as SVG and PNG, every table
 * as CSV (gen/site/site_pages.h), and swaps the result in atomically and
 * incrementally (gen/site/site_out.h). The output depends only on the archive,
 * the templates, SOURCE_DATE_EPOCH and the base URL (and the alerts page's
 * "new" marks on the previous site's alerts.csv): identical input,
 * identical bytes, whatever the number of threads (opt->jobs): while the
 * archive is read on them, the previous site's files are checked on
 * another, and for a new folder made from a previous site
 * (opt->previous_dir) the inputs key on another still.
 */
#ifndef PERFCAST_SITE_H
#define PERFCAST_SITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gen/site/site_data.h"

typedef struct {
    const char *archive_dir;
    const char *out_dir;
    const char *templates_dir;    /* holds page.html and style.css */
    const char *base_url;         /* absolute URL of the site, for the Atom feed's links
                                     (xml:base, rel=self); NULL: relative links */
    long long source_date_epoch;  /* < 0: unset */
    int jobs;                     /* threads drawing pages; 0 = one per processor */
    long fail_after;              /* fault injection (tests): see site_out.h; < 0 = never */
    bool fail_kill;
    uint64_t inputs_key;          /* site_write: the hash of every input (gen/site/site_inputs.h)
                                     to record in the manifest; 0 = none */
    bool refresh_pool;            /* fill the pooled error model again instead of
                                     reusing the previous build's (gen/site/site_fitcache.h) */
    const char *previous_dir;     /* the previous site, when out_dir is a new folder
                                     (a nightly release): its cache of fits, its
                                     alerts and its unchanged files (hard-linked)
                                     are reused, and it is only read; NULL: out_dir
                                     is the previous site (gen/site/site_out.h) */
} site_options;

typedef struct {
    size_t campaigns, skipped_campaigns, problems;
    size_t experiments, failed_experiments;
    size_t pages, charts, charts_drawn;
    size_t pages_rendered; /* HTML rendered from Markdown by this build */
    size_t files_written, files_kept;
    size_t alerts;     /* configurations alerted, as the alerts page lists them */
    bool up_to_date; /* nothing was loaded, fitted, drawn or written */
    size_t experiments_fitted, experiments_reused; /* fitted, or read back from the
                                     previous build's cache (gen/site/site_fitcache.h) */
    bool pool_reused;  /* the previous build's pooled error model was kept */
    bool fits_saved;   /* the cache of fits was written for the next build */
} site_stats;

/* Build the site. When the output was built from the very same inputs
 * (gen/site/site_inputs.h), had no problem, and every file is intact, nothing
 * is loaded, fitted or written: stats are those recorded then. Returns
 * false with a reason in err when no site could be built; the previous
 * site is then untouched. Problems of single
 * campaigns and failed fits do not fail the build: they are shown on the
 * pages and counted in stats; nor does a cache of fits that cannot be
 * written once the site is (stats->fits_saved says so). With
 * opt->refresh_pool the build is never skipped as up to date. diags, when not NULL, receives the archive's
 * problems as "FILE:LINE:COL: message" lines (the caller frees each line
 * and the array). */
bool site_build(const site_options *opt, site_stats *stats, char ***diags, size_t *ndiags,
                char *err, size_t errlen);

/* Whether site_build with opt would do nothing: opt->out_dir was built
 * from the very same inputs, without a problem, and every file is intact.
 * Reads, never writes. */
bool site_up_to_date(const site_options *opt);

/* The second half of site_build, for data already loaded (opt->archive_dir
 * is not used). Records opt->inputs_key in the manifest when the data has
 * no problem. */
bool site_write(const site_data *data, const site_options *opt, site_stats *stats, char *err,
                size_t errlen);

#endif
