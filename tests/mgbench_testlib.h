/*
 * mgbench_testlib.h — plumbing shared by the mgbench CUnit programs
 * (tests/mgbench_*.c): running suites, running mgbench under mpirun,
 * reading its key=value output.
 */
#ifndef MGBENCH_TESTLIB_H
#define MGBENCH_TESTLIB_H

#include <CUnit/CUnit.h>
#include <stddef.h>

typedef struct {
    const char *name;
    CU_TestFunc fn;
} mgbt_test;

typedef struct {
    const char *name;
    const mgbt_test *tests; /* terminated by {NULL, NULL} */
} mgbt_suite;

/* Remembers argv[0] (mgbench is found beside the test program's folder:
 * $(B)/tests/x -> $(B)/mgbench, unless $MGBENCH is set), then registers and
 * runs the suites with CUnit's basic interface, which prints the run
 * summary. Returns the exit status: 0 when every assertion passed. */
int mgbt_main(const char *argv0, const mgbt_suite *suites);

/* Path of the mgbench binary under test. */
const char *mgbt_mgbench(void);

/* "mpirun" plus the flags this machine needs: --allow-run-as-root as root,
 * --oversubscribe always (tests run more processes than there are cores). */
const char *mgbt_mpirun(void);

/* Runs a shell command with stdout and stderr captured into *out (malloc'ed,
 * caller frees; may be NULL to discard). Returns the exit status, -1 when
 * the command could not run. */
int mgbt_run(const char *command, char **out);

/* Runs `mpirun -n np mgbench ARGS` (for np = 1 mgbench alone, a singleton
 * MPI process); same contract as mgbt_run. */
int mgbt_mgbench_run(int np, const char *args, char **out);

/* The number after "key=" in the first line of text starting with `prefix`
 * (e.g. "rep 1:"), or NAN when absent. */
double mgbt_value(const char *text, const char *prefix, const char *key);

/* Makes a fresh temporary folder; returns 0 and its path in out. */
int mgbt_temp_dir(char *out, size_t len);

/* Removes a folder made by mgbt_temp_dir. */
void mgbt_remove_dir(const char *path);

/* Reads a whole file (malloc'ed, NUL-terminated; *len gets its size when
 * len is not NULL), or NULL. */
char *mgbt_read_file(const char *path, size_t *len);

/* Writes text as the whole of path: 0, or -1 when it cannot. */
int mgbt_write_file(const char *path, const char *text);

#endif
