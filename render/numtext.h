/*
 * numtext.h — numbers as people read them on a page: never "2.3e-04".
 *
 * A value is written with a given number of significant digits, in fixed
 * notation from 0.0001 up to a million ("0.0004855", "984.3", "123457")
 * and as "3.076 × 10⁻⁵" (superscript exponent) outside that range.
 * CSV files keep their machine-readable form; only pages use this.
 *
 * Both functions append to out (rbuf rules: false only when out of memory).
 */
#ifndef PERFCAST_RENDER_NUMTEXT_H
#define PERFCAST_RENDER_NUMTEXT_H

#include <stdbool.h>
#include "render/buf.h"

/* v (finite) with sig (1..12) significant digits, trailing zeros dropped. */
bool numtext_value(rbuf *out, double v, int sig);

/* text with every number in e-notation ("1.2e-05", "3E6", not inside a
 * word such as "x1e5") rewritten by numtext_value with as many significant
 * digits as its mantissa had. */
bool numtext_humanize(rbuf *out, const char *text);

#endif
