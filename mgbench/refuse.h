/*
 * refuse.h — how mgbench's parsers and checkers say no: the reason goes
 * into the caller's buffer and the function returns -1, so a check reads
 * `return mgb_refuse(err, len, "...", ...);`.
 */
#ifndef MGBENCH_REFUSE_H
#define MGBENCH_REFUSE_H

#include <stddef.h>

/* Formats the reason into err (len bytes, truncated to fit) and returns -1. */
int mgb_refuse(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
