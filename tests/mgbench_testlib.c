/*
 * mgbench_testlib.c — see mgbench_testlib.h.
 */
#include "tests/mgbench_testlib.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char mgbench_path[4096];
static char mpirun_cmd[256];

static void find_tools(const char *argv0)
{
    const char *env = getenv("MGBENCH");
    if (env && *env) {
        snprintf(mgbench_path, sizeof mgbench_path, "%s", env);
    } else {
        /* argv0 = $(B)/tests/mgbench_x -> $(B)/mgbench */
        const char *slash = strrchr(argv0, '/');
        int dirlen = slash ? (int)(slash - argv0) : 1;
        snprintf(mgbench_path, sizeof mgbench_path, "%.*s/../mgbench", dirlen,
                 slash ? argv0 : ".");
    }
    /* sigkill_timeout 0: mpirun otherwise lingers a second or two after a
     * process exits with an error, which the error tests do on purpose. */
    snprintf(mpirun_cmd, sizeof mpirun_cmd,
             "mpirun%s --oversubscribe --mca odls_base_sigkill_timeout 0",
             geteuid() == 0 ? " --allow-run-as-root" : "");
    /* Under SAN=1 the mgbench processes keep AddressSanitizer and UBSan, but
     * not leak detection: Open MPI leaves allocations behind at
     * MPI_Finalize, made by plug-ins it has already unloaded, so they cannot
     * even be suppressed by name. (This program's own leaks stay checked.) */
    /* Containers often forbid the cross-memory attach Open MPI's shared
     * memory transport uses for large messages; the copy-in/out path works
     * everywhere and the tests do not time anything. */
    setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 0);
    const char *asan = getenv("ASAN_OPTIONS");
    char opts[1024];
    snprintf(opts, sizeof opts, "%s%sdetect_leaks=0", asan ? asan : "", asan && *asan ? ":" : "");
    setenv("ASAN_OPTIONS", opts, 1);
}

int mgbt_main(const char *argv0, const mgbt_suite *suites)
{
    find_tools(argv0);
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    for (const mgbt_suite *s = suites; s->name; s++) {
        CU_pSuite suite = CU_add_suite(s->name, NULL, NULL);
        if (!suite)
            return 2;
        for (const mgbt_test *t = s->tests; t->name; t++)
            if (!CU_add_test(suite, t->name, t->fn))
                return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned ran = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    return failed == 0 && ran > 0 ? 0 : 1;
}

const char *mgbt_mgbench(void)
{
    return mgbench_path;
}

const char *mgbt_mpirun(void)
{
    return mpirun_cmd;
}

static char *slurp(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                return NULL;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    if (buf)
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int mgbt_run(const char *command, char **out)
{
    char full[8192];
    if (snprintf(full, sizeof full, "(%s) 2>&1", command) >= (int)sizeof full)
        return -1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    FILE *p = popen(full, "r");
    if (!p)
        return -1;
    char *text = slurp(p, NULL);
    int status = pclose(p);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (getenv("MGBT_TRACE")) /* which commands a slow test spends its time in */
        fprintf(stderr, "[%.2f s] %s\n",
                (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), command);
    if (out)
        *out = text;
    else
        free(text);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int mgbt_mgbench_run(int np, const char *args, char **out)
{
    char cmd[8000];
    int n;
    if (np == 1) /* a singleton MPI process: no launcher needed, and faster */
        n = snprintf(cmd, sizeof cmd, "%s %s", mgbt_mgbench(), args);
    else
        n = snprintf(cmd, sizeof cmd, "%s -n %d %s %s", mgbt_mpirun(), np, mgbt_mgbench(), args);
    if (n >= (int)sizeof cmd)
        return -1;
    return mgbt_run(cmd, out);
}

double mgbt_value(const char *text, const char *prefix, const char *key)
{
    size_t pl = strlen(prefix), kl = strlen(key);
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t ll = end ? (size_t)(end - line) : strlen(line);
        if (ll >= pl && strncmp(line, prefix, pl) == 0) {
            for (const char *p = line; p + kl < line + ll; p++)
                if ((p == line || p[-1] == ' ') && strncmp(p, key, kl) == 0 && p[kl] == '=')
                    return strtod(p + kl + 1, NULL);
            return NAN;
        }
        line = end ? end + 1 : NULL;
    }
    return NAN;
}

int mgbt_temp_dir(char *out, size_t len)
{
    const char *base = getenv("TMPDIR");
    snprintf(out, len, "%s/mgbench-test-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(out) ? 0 : -1;
}

void mgbt_remove_dir(const char *path)
{
    char cmd[4200];
    if (!strstr(path, "/mgbench-test-")) /* only what mgbt_temp_dir made */
        return;
    if (snprintf(cmd, sizeof cmd, "rm -rf '%s'", path) >= (int)sizeof cmd || system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", path);
}

char *mgbt_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = slurp(f, len);
    fclose(f);
    return text;
}

int mgbt_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}
