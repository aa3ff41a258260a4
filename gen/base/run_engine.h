/*
 * run_engine.h — what ran a campaign's runs: a real MPI library or the
 * SimGrid SMPI simulator (runs.csv column `engine`, issue 12).
 *
 * `openmpi` is a real run; `smpi` a run simulated by SimGrid SMPI (its
 * times are simulated seconds on the simulated platform of its cluster). A
 * runs.csv without the column, or an empty cell, means `openmpi`: every row
 * written before the column existed was a real run. Pure: no I/O; the
 * strings returned are static or point into the table.
 */
#ifndef GEN_RUN_ENGINE_H
#define GEN_RUN_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "models/table.h"

/* The engine of one row: the cell, or "openmpi" when absent or empty. */
const char *run_engine_of(const table *runs, size_t row);

/* NULL when value is a known engine (openmpi, smpi), else the problem
 * (for the schema's text check). */
const char *run_engine_check(const char *value);

/* Rows of each engine. */
typedef struct {
    size_t real;        /* openmpi */
    size_t simulated;   /* smpi */
} run_engine_counts;

run_engine_counts run_engine_count(const table *runs);

/* One phrase for people: "real (Open MPI)", "simulated (SimGrid SMPI)", or
 * "mixed: N real (Open MPI), M simulated (SimGrid SMPI)". Writes into buf. */
const char *run_engine_describe(const run_engine_counts *n, char *buf, size_t len);

/* The campaign's engine as one word for machine output: "openmpi", "smpi",
 * or "mixed". */
const char *run_engine_word(const run_engine_counts *n);

#endif
