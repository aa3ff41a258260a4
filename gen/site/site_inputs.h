/*
 * site_inputs.h — one hash of everything a site build reads, so that a
 * rebuild with nothing changed can skip the fits and the pages
 * (gen/site/site.c, site_out_up_to_date in gen/site/site_out.h).
 *
 * The key covers: every regular file under the archive folder that is not
 * hidden (its path relative to the folder and its bytes, in byte-wise
 * path order), the templates page.html and style.css, SOURCE_DATE_EPOCH,
 * and the running perfcast executable itself (so a new perfcast rebuilds
 * everything). Files that are not regular (FIFOs, devices) are not read:
 * only their names and kinds count.
 */
#ifndef PERFCAST_SITE_INPUTS_H
#define PERFCAST_SITE_INPUTS_H

#include <stdbool.h>
#include <stdint.h>

/* The key, never 0; 0 when something cannot be read (then no build may
 * be skipped). */
uint64_t site_inputs_key(const char *archive_dir, const char *templates_dir,
                         long long source_date_epoch);

/* The hash of the running perfcast executable (so that pages rendered by
 * another perfcast are not taken for this one's); 0 when unreadable. */
uint64_t site_program_key(void);

/* The same hash of one folder's entries chained from seed: every
 * non-hidden regular file under it (paths relative to it, and bytes), or
 * with files_only the files directly in it, its folders counted by name
 * only (an archive's own files without its campaigns). 0 when something
 * cannot be read. */
uint64_t site_inputs_folder_key(const char *dir, bool files_only, uint64_t seed);

#endif
