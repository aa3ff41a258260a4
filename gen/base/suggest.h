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

#endif
