/*
 * testutil.h — shared plumbing for the CUnit test programs.
 *
 * Each tests/test_<module>.c is its own program: it lists its suites in a
 * testutil_suite array and calls testutil_run_suites from main. The basic
 * interface prints CUnit's run summary, which CI reads.
 */
#ifndef PERFCAST_TESTUTIL_H
#define PERFCAST_TESTUTIL_H

#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *name;
    CU_TestFunc fn;
} testutil_test;

typedef struct {
    const char *name;
    const testutil_test *tests; /* terminated by {NULL, NULL} */
} testutil_suite;

/* Register and run the suites (terminated by {NULL, NULL}); returns the
 * process exit status: 0 when every assertion passed. */
int testutil_run_suites(const testutil_suite *suites);

/* Relative difference |a-b|/max(|b|, tiny). */
double testutil_rel_diff(double a, double b);

/* Weighted least squares of y ~ a + b x in closed form, over the i with
 * keep[i] (keep NULL: all), run i weighing w[i] (w NULL: 1); with flat, b
 * is 0 and a the weighted mean. A check written out, independent of
 * models/ols.h. */
void testutil_line_fit(const double *x, const double *y, const double *w, const bool *keep,
                       size_t n, bool flat, double *a, double *b);

/* The number written right after the first `key` in text ("s = ",
 * "\"estimate\": "), or NAN when text is NULL or has no key. */
double testutil_number_after(const char *text, const char *key);

/* The number of member `key` in perfcast's JSON output (the first one):
 * testutil_number_after(json, "\"key\": "). */
double testutil_json_number(const char *json, const char *key);

/* Read a whole file into a NUL-terminated malloc'ed buffer (caller frees),
 * or NULL. */
char *testutil_read_file(const char *path);

/* Write text to path (creating folders as needed); false on failure. */
bool testutil_write_file(const char *path, const char *text);

/* `perfcast import FORMAT FILE --archive DIR/a --campaign CAMPAIGN EXTRA`
 * (the import tests' archive lives in DIR/a; extra may be NULL): the exit
 * status, the output in *out (caller frees; out may be NULL). */
int testutil_import(char **out, const char *dir, const char *format, const char *file,
                    const char *campaign, const char *extra);

/* Whether the README.md of campaign in the import tests' archive (DIR/a)
 * contains text; when it does not, the README (or its absence) goes to
 * stderr. */
bool testutil_import_readme_has(const char *dir, const char *campaign, const char *text);

/* A one-campaign archive in dir: dir/clusters.csv, and campaign's
 * runs.csv, experiments.csv (experiments NULL: the header alone) and a
 * README.md; false on failure. */
bool testutil_write_archive(const char *dir, const char *clusters, const char *campaign,
                            const char *experiments, const char *runs);

/* Make a fresh empty temporary folder and return its path (static buffer
 * owned by the caller's string: copy it). Returns false on failure. */
bool testutil_temp_dir(char *out, size_t len);

/* Remove a temporary folder made by testutil_temp_dir, with its contents. */
void testutil_remove_dir(const char *path);

/* Run a shell command, capture stdout+stderr into *output (malloc'ed, caller
 * frees) and return its exit status (or -1). */
int testutil_run_command(const char *command, char **output);

/* testutil_run_command with a printf-style command line; -1 (and *output
 * NULL) when the line is too long to run as given. */
int testutil_run_commandf(char **output, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Path of the perfcast binary under test ($PERFCAST, else build/plain/perfcast). */
const char *testutil_perfcast(void);

/* The start of a shell command that reads CSV with gawk, a parser of its
 * own (RFC 4180 quoting: a quoted cell, "" inside, is one field), for
 * tests that check perfcast's CSV files without perfcast's reader; the
 * awk program follows in single quotes. */
#define TESTUTIL_GAWK_CSV "gawk -v 'FPAT=([^,]*)|(\"([^\"]|\"\")*\")' "

/* Run the perfcast under test with printf-style arguments (shell words),
 * as testutil_run_commandf. */
int testutil_perfcast_run(char **output, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
