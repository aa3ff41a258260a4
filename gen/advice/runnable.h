/*
 * runnable.h — which jobs mgbench can run, for advise to know before it
 * ranks an option. mgbench/config.c is where mgbench refuses the others
 * (check_basic, check_split); these predicates state the same rules for
 * the program that plans, which does not link mgbench:
 *
 *   a strip of np processes on na rows: na divisible by np, so every
 *       process owns na/np whole rows;
 *   a split across two clusters (mgbench --split NPA:ROWS_A): npA
 *       processes own rowsA rows each and npB processes rowsB, with
 *       npA*rowsA + npB*rowsB = na, and rowsA, rowsB whole, even and at
 *       least 2 (the first coarsening halves every process's rows).
 *
 * Pure: no I/O.
 */
#ifndef PERFCAST_RUNNABLE_H
#define PERFCAST_RUNNABLE_H

#include <stdbool.h>

/* mgbench can run na rows as a strip over np processes. */
bool runnable_strip(double np, double na);

/* mgbench can run the split with rows[i] rows on each of np[i] processes. */
bool runnable_split(const double np[2], const double rows[2], double na);

/* The step between rows-per-process counts of side A worth trying: even,
 * and a multiple of the model's quantum when that is a whole number
 * (2 when it is not: rows are whole anyway). */
double runnable_split_step(double quantum);

#endif
