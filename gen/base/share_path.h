/*
 * share_path.h — where perfcast's shipped files are: the folder, installed
 * (PREFIX/share/perfcast/...) or in the source tree the running executable
 * was built in, that holds a given file. The page templates and the pooled
 * error model's prior (gen/fit/error_prior.h) are found this way.
 *
 * Method: next to the running executable (/proc/self/exe) first, so that
 * an installed perfcast uses its own PREFIX/share/perfcast/INSTALLED and a
 * built one (SOURCE/build/<variant>/perfcast) its tree's SOURCE/IN_SOURCE;
 * then /usr/local/share/perfcast/INSTALLED and /usr/share/perfcast/INSTALLED.
 * The caller checks its own environment variable and working folder first.
 *
 * Ownership: the folder is written into the caller's buffer; nothing is
 * allocated. No state.
 */
#ifndef PERFCAST_SHARE_PATH_H
#define PERFCAST_SHARE_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* Whether dir/file is a regular file. */
bool share_dir_has(const char *dir, const char *file);

/* The first folder of the list above that holds the regular file probe,
 * installed and in_source relative to share/perfcast and to the source
 * tree ("" for those folders themselves), written to buf[0..len). False
 * (buf "") when none holds it. */
bool share_path_find(const char *installed, const char *in_source, const char *probe, char *buf,
                     size_t len);

#endif
