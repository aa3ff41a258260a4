/*
 * growth.h — making room in a heap array by doubling its capacity, the
 * one copy of that loop (the CSV reader and the importers use it).
 *
 * Ownership: the array stays the caller's; on failure it is unchanged.
 */
#ifndef PERFCAST_GROWTH_H
#define PERFCAST_GROWTH_H

#include <stdbool.h>
#include <stddef.h>

/* Room for need items of size bytes in the array whose pointer is at
 * array (a T **, passed as void *), of *cap items now: its capacity is
 * doubled (from 8) until it holds need. False when out of memory. */
bool growth_reserve(void *array, size_t *cap, size_t need, size_t size);

#endif
