/*
 * refuse.c — see refuse.h.
 */
#include "mgbench/refuse.h"

#include <stdarg.h>
#include <stdio.h>

int mgb_refuse(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}
