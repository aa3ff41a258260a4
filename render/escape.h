/*
 * escape.h — every string that comes from an archive passes through one of
 * these before it reaches a page, a feed, a chart or a CSV file.
 *
 * All of them first clean the text: invalid UTF-8 sequences and control
 * characters (other than those a format keeps, see each function) become
 * U+FFFD, so a hostile or broken byte never reaches a parser downstream
 * (XML forbids most control characters; Cairo refuses invalid UTF-8).
 *
 * Each appends to an rbuf and returns false only when out of memory.
 */
#ifndef PERFCAST_RENDER_ESCAPE_H
#define PERFCAST_RENDER_ESCAPE_H

#include <stdbool.h>
#include "render/buf.h"

/* Decode one UTF-8 character at s (not at the terminating NUL): stores the
 * code point in *cp (U+FFFD for an invalid, overlong or surrogate sequence)
 * and returns the number of bytes consumed (at least 1). */
int utf8_decode(const char *s, unsigned *cp);

/* Append the code point as UTF-8. */
bool utf8_encode(rbuf *b, unsigned cp);

/* Clean text: valid UTF-8, tabs and newlines become spaces, other control
 * characters U+FFFD. For Cairo text and plain-text fields. */
bool esc_text(rbuf *b, const char *s);

/* Clean multi-line text (a README): valid UTF-8, tabs and newlines kept
 * (CR LF and lone CR become LF), other control characters U+FFFD. */
bool esc_clean(rbuf *b, const char *s);

/* HTML and XML text or attribute value: & < > " ' become entities. Newlines
 * and tabs are kept; other control characters become U+FFFD (valid XML 1.0). */
bool esc_html(rbuf *b, const char *s);

/* Inline Markdown text that renders as exactly the given characters, and
 * still reads well as plain text: backslash escapes go only where
 * CommonMark or GFM could read markup (always before \ ` * [ ] < | ~;
 * before _ unless inside a word; before & that could start an entity;
 * and at the start before # > and before - + = or "12." that could open a
 * heading, quote, list, rule or setext underline). Runs of blanks and line
 * breaks become one space, so the text stays on one line (a table cell, a
 * heading); with trim, blanks at either end are dropped. */
bool esc_markdown(rbuf *b, const char *s, bool trim);

/* One RFC 4180 CSV field: line breaks and tabs become spaces; quoted when it
 * contains a comma, a quote or leading/trailing blanks (quotes doubled). A
 * text that a spreadsheet would run as a formula (it starts with = + - @)
 * is prefixed with an apostrophe. Only for text: numbers are written as
 * numbers by their callers. */
bool esc_csv(rbuf *b, const char *s);

#endif
