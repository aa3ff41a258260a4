/*
 * fuzz_import.c — `perfcast import` on any bytes: the first byte picks the
 * reader (Extra-P, ReFrame, sacct, JUBE, CSV; --map flavours for the
 * table readers), the rest is the file. When the reader accepts it, the
 * rows go through the writer into a scratch archive. Invariants checked
 * (abort on failure), beyond not crashing or hanging:
 *   - a refusal says why: every problem names a file and a line and
 *     column >= 0, and a reader that returns false recorded one;
 *   - the writer is all or nothing: when it fails, the scratch archive
 *     holds no campaign folder and no clusters.csv; when it succeeds, the
 *     archive reader loads the campaign with no problem;
 *   - nothing but the archive's own files is left in it (no staging folder).
 */
#include "tests/fuzz/fuzz.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/base/fileio.h"
#include "gen/import/import.h"
#include "gen/import/import_lines.h"
#include "gen/ingest/archive.h"

typedef bool (*reader_fn)(const import_request *, const char *, import_rows *, diag_list *);

static const struct {
    const char *format;
    reader_fn read;
    const char *map_from; /* a --map pair, or NULL */
    const char *map_to;
} readers[] = {
    {"extrap", import_read_extrap, NULL, NULL},
    {"reframe", import_read_reframe, NULL, NULL},
    {"sacct", import_read_sacct, NULL, NULL},
    {"jube", import_read_jube, NULL, NULL},
    {"jube", import_read_jube, "number", "np"},
    {"csv", import_read_csv, NULL, NULL},
    {"csv", import_read_csv, "procs", "np"},
    {"csv", import_read_csv, "runtime", "time_s"},
};

/* The scratch folder: the input file and, inside, the archive. */
static char work[64];

static char *in_work(const char *name)
{
    char *p = fileio_join(work, name);
    if (!p)
        abort();
    return p;
}

/* Remove what an import may have made in the archive (files, one level of
 * folders, a staging folder left behind would be found by check_clean). */
static void clear_dir(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *p = fileio_join(dir, e->d_name);
        struct stat st;
        if (p && lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && depth < 2)
            clear_dir(p, depth + 1);
        else if (p)
            unlink(p);
        free(p);
    }
    if (d)
        closedir(d);
    if (depth > 0)
        rmdir(dir);
}

static void remove_work(void)
{
    clear_dir(work, 0);
    rmdir(work);
}

static void make_work(void)
{
    struct stat st;
    const char *base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
    snprintf(work, sizeof work, "%s/perfcast-fuzzi-XXXXXX", base);
    if (!mkdtemp(work))
        abort();
    atexit(remove_work);
}

static void check_diags(const diag_list *d)
{
    for (size_t i = 0; i < d->count; i++) {
        const diag *g = &d->items[i];
        if (!g->file || g->line < 0 || g->column < 0 || !g->message[0])
            abort();
    }
}

/* Names in the archive folder other than the import's own. */
static void check_clean(const char *arch, bool written)
{
    DIR *d = opendir(arch);
    struct dirent *e;
    size_t n = 0;
    while (d && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (strcmp(e->d_name, "clusters.csv") != 0 && strcmp(e->d_name, "c") != 0)
            abort(); /* a staging folder or a stray file left behind */
        n++;
    }
    if (d)
        closedir(d);
    if (!written && n != 0)
        abort(); /* a refused import changed the archive */
}

/* A written campaign loads without a problem. */
static void check_loads(const char *arch)
{
    archive a = {0};
    diag_list d;
    diag_init(&d);
    archive_load(arch, &a, &d);
    check_diags(&d);
    if (d.count != 0 || !archive_campaign(&a, "c"))
        abort();
    archive_free(&a);
    diag_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!work[0])
        make_work();
    if (size == 0)
        return 0;
    size_t pick = data[0] % (sizeof readers / sizeof readers[0]);
    char *file = in_work("input"), *arch = in_work("a");
    FILE *f = fopen(file, "wb");
    if (!f || fwrite(data + 1, 1, size - 1, f) != size - 1 || fclose(f) != 0)
        abort();
    import_map map = {readers[pick].map_from, readers[pick].map_to};
    import_request req = {.format = readers[pick].format, .archive = arch, .campaign = "c",
                          .maps = &map, .nmaps = map.from ? 1 : 0};
    import_rows rows;
    import_rows_init(&rows);
    diag_list d;
    diag_init(&d);
    bool read = import_file_complete(file, "input", false, &d) &&
                readers[pick].read(&req, file, &rows, &d);
    check_diags(&d);
    if (!read && d.count == 0)
        abort(); /* refused without saying why */
    if (read) {
        long added = import_write_campaign(&req, &rows, "`input`", &d);
        check_diags(&d);
        if (added < 0 && d.count == 0)
            abort();
        check_clean(arch, added >= 0);
        if (added >= 0)
            check_loads(arch);
    }
    import_rows_free(&rows);
    diag_free(&d);
    clear_dir(work, 0);
    free(file);
    free(arch);
    return 0;
}
