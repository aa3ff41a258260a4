/*
 * site_notes.h — numbered footnotes for a table: a long text that several
 * rows share (why no model applies, where an interval came from) is said
 * once below the table, and each row carries its number, "[2]".
 *
 * Ownership: site_notes_add copies the text; site_notes_free releases
 * every copy. Empty on init; never shrinks until freed.
 */
#ifndef PERFCAST_SITE_NOTES_H
#define PERFCAST_SITE_NOTES_H

#include <stdbool.h>
#include <stddef.h>
#include "render/buf.h"

typedef struct {
    char **text;
    size_t n, cap;
    size_t written;   /* notes already on the page (site_notes_write) */
    bool oom;
} site_notes;

void site_notes_init(site_notes *n);
void site_notes_free(site_notes *n);

/* The number (1-based) of text, added when it is new; 0 when out of
 * memory (then n->oom is set and the caller's page fails). */
size_t site_notes_add(site_notes *n, const char *text);

/* "[k]" for a cell. */
void site_notes_mark(rbuf *cell, size_t k);

/* The notes added since the last call as a Markdown list "[1] text"
 * (escaped), nothing when there are none: below each table the notes it
 * introduced, so a note shared by two tables is said once, under the
 * first. */
void site_notes_write(site_notes *n, rbuf *md);

#endif
