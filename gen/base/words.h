/*
 * words.h — the words of a name, as the column and unit rules read them.
 * A word is a maximal run of ASCII letters and digits; every other
 * character separates words ("elapsed-time [ms]" has the words elapsed,
 * time, ms; the identifier "time_main_s" has time, main, s). Comparisons
 * ignore case. Lists are NULL-terminated arrays of words.
 *
 * Why one module: units.c (what is a duration, what is an instant) and
 * import_table.c (which column is a result or a statistic) both ask
 * "does this name contain one of these words"; one splitter keeps their
 * answers consistent.
 *
 * The same module answers the one free-text question the rules ask
 * (words_text_contains), so no caller loops over strncasecmp itself.
 *
 * Pure: no I/O, no allocation, no state.
 */
#ifndef PERFCAST_WORDS_H
#define PERFCAST_WORDS_H

#include <stdbool.h>
#include <stddef.h>

/* The length of the word that starts at p (0 when *p is a separator or
 * the end of the string). */
size_t words_len(const char *p);

/* Whether the len characters at word are, in any case, one of list. */
bool words_is_one_of(const char *word, size_t len, const char *const *list);

/* Whether some word of name is one of list. */
bool words_any_in(const char *name, const char *const *list);

/* Whether the last word of name is one of list (false when name has no
 * word). */
bool words_last_in(const char *name, const char *const *list);

/* Free text (an interconnect, a note): whether needle occurs anywhere in
 * text, in any case. A substring, not a word: "10GbE" contains "gbe".
 * False when text is NULL. */
bool words_text_contains(const char *text, const char *needle);

#endif
