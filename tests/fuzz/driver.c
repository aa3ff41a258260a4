/*
 * driver.c — runs a harness (fuzz.h) without libFuzzer.
 *
 *   fuzz_X FILE|DIR...   every file given, and every file in each folder
 *                        given (sorted by name), once; prints how many ran
 *                        and exits 0, or dies with the harness.
 *   fuzz_X               (built with afl-cc) AFL++ persistent mode: inputs
 *                        come from afl-fuzz through shared memory.
 */
#include "tests/fuzz/fuzz.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h> /* read(), which afl-cc's persistent-mode macros call */

#include "gen/base/fileio.h"

#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();
#endif

static int run_file(const char *path)
{
    size_t len;
    char *data = fileio_read_file(path, &len);
    if (!data) {
        fprintf(stderr, "%s: cannot read\n", path);
        return 1;
    }
    fprintf(stderr, "%s\n", path); /* the culprit's name, should the harness die */
    LLVMFuzzerTestOneInput((const uint8_t *)data, len);
    free(data);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order; the number run, or -1. */
static long run_dir(const char *dir)
{
    DIR *h = opendir(dir);
    if (!h)
        return -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(h)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **more = realloc(names, cap * sizeof *names);
            if (!more)
                break;
            names = more;
        }
        names[n++] = fileio_join(dir, e->d_name);
    }
    closedir(h);
    if (n)
        qsort(names, n, sizeof *names, compare_names);
    long ran = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (names[i] && stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            ran += run_file(names[i]) == 0;
        free(names[i]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv)
{
#ifdef __AFL_FUZZ_TESTCASE_LEN
    if (argc < 2) {
        __AFL_INIT();
        const unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
        while (__AFL_LOOP(10000))
            LLVMFuzzerTestOneInput(buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
        return 0;
    }
#endif
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    long ran = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        bool dir = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode);
        long n = dir ? run_dir(argv[i]) : run_file(argv[i]) == 0 ? 1 : -1;
        if (n < 0) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            return 1;
        }
        ran += n;
    }
    printf("%ld inputs ran without a crash\n", ran);
    return 0;
}
