/*
 * slug.h — file names for names from the archive.
 *
 * A name made only of lowercase letters, digits, '-', '_' and '.' (not
 * first) is its own slug, so "scopred-ep" lives in campaigns/scopred-ep/.
 * Any other name is reduced to those characters and gets 7 characters of a
 * hash of the original appended ("<script>" -> "script-3fza9c1"), so two
 * different names (but for a hash collision, which experiments.csv is
 * checked for: gen/ingest/experiment_names.h) never share a slug and no name can
 * reach outside its folder. The hash is written in digits and letters
 * without 'e': pages show file names, and "0537e561" would read as a
 * number in e-notation.
 */
#ifndef PERFCAST_SLUG_H
#define PERFCAST_SLUG_H

#include "render/buf.h"

/* Append the slug of name to out. */
void slug_append(const char *name, rbuf *out);

#endif
