/*
 * testutil.c — see testutil.h.
 */
#include "tests/testutil.h"
#include "gen/base/fileio.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

int testutil_run_suites(const testutil_suite *suites)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    for (const testutil_suite *s = suites; s->name; s++) {
        CU_pSuite suite = CU_add_suite(s->name, NULL, NULL);
        if (!suite)
            goto fail;
        for (const testutil_test *t = s->tests; t->name; t++)
            if (!CU_add_test(suite, t->name, t->fn))
                goto fail;
    }
    CU_basic_set_mode(CU_BRM_NORMAL);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned ran = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    return failed == 0 && ran > 0 ? 0 : 1;
fail:
    fprintf(stderr, "CUnit registry error: %s\n", CU_get_error_msg());
    CU_cleanup_registry();
    return 2;
}

double testutil_rel_diff(double a, double b)
{
    double scale = fabs(b) > 1e-300 ? fabs(b) : 1e-300;
    return fabs(a - b) / scale;
}

void testutil_line_fit(const double *x, const double *y, const double *w, const bool *keep,
                       size_t n, bool flat, double *a, double *b)
{
    double sw = 0, swx = 0, swy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        if (keep && !keep[i])
            continue;
        double wi = w ? w[i] : 1;
        sw += wi, swx += wi * x[i], swy += wi * y[i];
    }
    double xbar = swx / sw, ybar = swy / sw;
    for (size_t i = 0; i < n; i++) {
        if (keep && !keep[i])
            continue;
        double wi = w ? w[i] : 1;
        sxx += wi * (x[i] - xbar) * (x[i] - xbar);
        sxy += wi * (x[i] - xbar) * (y[i] - ybar);
    }
    *b = flat ? 0 : sxy / sxx;
    *a = ybar - *b * xbar;
}

double testutil_number_after(const char *text, const char *key)
{
    const char *at = text ? strstr(text, key) : NULL;
    return at ? strtod(at + strlen(key), NULL) : NAN;
}

double testutil_json_number(const char *json, const char *key)
{
    char quoted[160];
    snprintf(quoted, sizeof quoted, "\"%s\": ", key);
    return testutil_number_after(json, quoted);
}

char *testutil_read_file(const char *path)
{
    return fileio_read_file(path, NULL);
}

bool testutil_import_readme_has(const char *dir, const char *campaign, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/a/%s/README.md", dir, campaign);
    char *readme = testutil_read_file(path);
    bool found = readme && strstr(readme, text);
    if (!found)
        fprintf(stderr, "\n%s lacks '%s':\n%s\n", path, text, readme ? readme : "(no file)");
    free(readme);
    return found;
}

bool testutil_write_file(const char *path, const char *text)
{
    char cmd[4200];
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
        if (system(cmd) != 0)
            return false;
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    size_t n = strlen(text);
    bool ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

int testutil_import(char **out, const char *dir, const char *format, const char *file,
                    const char *campaign, const char *extra)
{
    return testutil_perfcast_run(out, "import %s %s --archive %s/a --campaign %s %s", format, file,
                                 dir, campaign, extra ? extra : "");
}

bool testutil_write_archive(const char *dir, const char *clusters, const char *campaign,
                            const char *experiments, const char *runs)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/clusters.csv", dir);
    bool ok = testutil_write_file(path, clusters);
    snprintf(path, sizeof path, "%s/%s/runs.csv", dir, campaign);
    ok = ok && testutil_write_file(path, runs);
    snprintf(path, sizeof path, "%s/%s/experiments.csv", dir, campaign);
    ok = ok && testutil_write_file(path, experiments ? experiments
                                                     : "name,model,response,formula,train,"
                                                       "target,title,options\n");
    snprintf(path, sizeof path, "%s/%s/README.md", dir, campaign);
    return ok && testutil_write_file(path, "# A test campaign\n\nWritten by a test.\n");
}

bool testutil_temp_dir(char *out, size_t len)
{
    const char *base = getenv("TMPDIR");
    snprintf(out, len, "%s/perfcast-test-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(out) != NULL;
}

void testutil_remove_dir(const char *path)
{
    char cmd[4200];
    /* Only ever remove what testutil_temp_dir made. */
    if (!strstr(path, "/perfcast-test-"))
        return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", path);
}

int testutil_run_command(const char *command, char **output)
{
    char full[8192];
    snprintf(full, sizeof full, "(%s) 2>&1", command);
    FILE *p = popen(full, "r");
    if (!p)
        return -1;
    char *buf = fileio_read_stream(p, NULL);
    int status = pclose(p);
    if (output)
        *output = buf;
    else
        free(buf);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* prefix followed by the formatted arguments, run as one command line. */
static int run_formatted(char **output, const char *prefix, const char *fmt, va_list ap)
{
    char cmd[8000];
    int n = snprintf(cmd, sizeof cmd, "%s", prefix);
    int m = n >= 0 && (size_t)n < sizeof cmd ? vsnprintf(cmd + n, sizeof cmd - (size_t)n, fmt, ap)
                                             : -1;
    if (m < 0 || (size_t)n + (size_t)m >= sizeof cmd) {
        if (output)
            *output = NULL;
        return -1;
    }
    return testutil_run_command(cmd, output);
}

int testutil_run_commandf(char **output, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = run_formatted(output, "", fmt, ap);
    va_end(ap);
    return rc;
}

const char *testutil_perfcast(void)
{
    const char *p = getenv("PERFCAST");
    return p && *p ? p : "build/plain/perfcast";
}

int testutil_perfcast_run(char **output, const char *fmt, ...)
{
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s ", testutil_perfcast());
    va_list ap;
    va_start(ap, fmt);
    int rc = run_formatted(output, prefix, fmt, ap);
    va_end(ap);
    return rc;
}
