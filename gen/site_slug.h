/*
 * site_slug.h — file names on the site for names from the archive.
 *
 * A name made only of lowercase letters, digits, '-', '_' and '.' (not
 * first) is its own slug, so "scopred-ep" lives in campaigns/scopred-ep/.
 * Any other name is reduced to those characters and gets the first 8 hex
 * digits of a hash of the original appended ("<script>" -> "script-3f2a9c1d"),
 * so two different names never share a slug and no name can reach outside
 * its folder.
 */
#ifndef PERFCAST_SITE_SLUG_H
#define PERFCAST_SITE_SLUG_H

#include "render/buf.h"

/* Append the slug of name to out. */
void site_slug(const char *name, rbuf *out);

#endif
