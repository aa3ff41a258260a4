/*
 * levels.h — a line of training levels, as models/trendbound.h and
 * models/gainstop.h take it: the values x of one parameter, strictly
 * ascending, each with the mean time y of its runs. One check of its
 * validity for both.
 *
 * Ownership: the caller's arrays are only read. No I/O, no global state.
 */
#ifndef PERFCAST_LEVELS_H
#define PERFCAST_LEVELS_H

#include <stdbool.h>
#include <stddef.h>

/* True when every x[i] and y[i] is positive and finite and x is strictly
 * ascending (n = 0 is valid). */
bool levels_valid(const double *x, const double *y, size_t n);

/* True when v is positive and finite. */
bool levels_positive(double v);

#endif
