/*
 * options.h — mgbench's command line.
 *
 * mgbench --help lists every option (mgb_options_usage). Parsing is pure:
 * it fills an mgb_options from argv; mgb_options_resolve then turns it into
 * the solver configuration for a given number of processes.
 */
#ifndef MGBENCH_OPTIONS_H
#define MGBENCH_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "mgbench/config.h"

typedef struct {
    mgb_config cfg;        /* na, nb, sweeps, levels, kernel, problem */
    int block;             /* --partition block (else strip) */
    int grid_a, grid_b;    /* --grid AxB (0 when absent) */
    int seq_a, seq_b;      /* --seq-of AxB (0 when absent) */
    int cycles;            /* --cycles: fixed count, 0 = run to --tol */
    double tol;            /* --tol */
    int max_cycles;        /* --max-cycles */
    int reps;              /* --reps */
    int warmup;            /* --warmup: untimed solves before the first rep */
    const char *archive;   /* --archive (default "archive") */
    const char *campaign;  /* --campaign: append rows when set */
    const char *cluster;   /* --cluster */
    const char *note;      /* --note */
    const char *date;      /* --date (default: today) */
    const char *dump;      /* --dump FILE */
    int verbose;           /* --verbose: one line per cycle */
    int stream;            /* --stream: measure the triad bandwidth too */
    int pingpong;          /* --pingpong: measure the link instead of solving */
    const char *cluster_b; /* --cluster-b: the far side's cluster of a ping-pong */
    int help;              /* --help was given */
} mgb_options;

/* Parses argv (argv[0] is the program). Returns 0, or -1 with a message in
 * err. Strings in o point into argv. */
int mgb_options_parse(int argc, char **argv, mgb_options *o, char *err, size_t errlen);

/* Fills cfg->npa/npb (and, for --seq-of, the per-process mesh) for nprocs
 * processes. Returns 0, or -1 with a message in err. */
int mgb_options_resolve(mgb_options *o, int nprocs, char *err, size_t errlen);

/* Prints the usage text. */
void mgb_options_usage(FILE *out);

#endif
