/*
 * suggest.h — "did you mean": the known name nearest a mistyped one.
 *
 * Why in base: the command line suggests commands, campaigns and
 * experiments, and the experiment options checked below it (gen/fit)
 * suggest columns; one rule of "near" keeps their answers alike.
 *
 * Pure: no I/O, no state.
 */
#ifndef PERFCAST_SUGGEST_H
#define PERFCAST_SUGGEST_H

#include <stddef.h>

/* The name of names[0..n) closest to typed (a typo: one to three edits,
 * by length, ignoring case; or typed is a prefix of it), or NULL. The
 * result is borrowed from names. */
const char *suggest_name(const char *typed, const char *const *names, size_t n);

/* The suggestion as words, into buf[0..len), returning buf: "" when no
 * name is near, else "; did you mean 'NAME'?" (suggest_clause, after a
 * message's last clause) or " (did you mean 'NAME'?)" (suggest_aside,
 * inside a sentence). One wording for every command and check. */
const char *suggest_clause(const char *typed, const char *const *names, size_t n, char *buf,
                           size_t len);
const char *suggest_aside(const char *typed, const char *const *names, size_t n, char *buf,
                          size_t len);

#endif
