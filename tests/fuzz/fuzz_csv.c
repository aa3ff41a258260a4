/*
 * fuzz_csv.c — archive ingest as `perfcast check` runs it: the input
 * becomes a campaign's runs.csv (and, after a line "%%", its
 * experiments.csv) in a scratch archive with a fixed clusters.csv; the
 * archive is loaded, experiments checked, advice.csv linted, and each
 * experiment's train and target filters evaluated over the first rows, as
 * a fit selects its runs (issue 10: a filter `check` passed crashed
 * `build` there). Invariants
 * checked (abort on failure), beyond not crashing:
 *   - every problem names a file, and a line and column >= 0;
 *   - a campaign either loads (no problem inside it) or is skipped;
 *   - the raw input parsed in memory (csv_parse_buffer) gives, when it
 *     parses, fields whose text has no NUL byte and positions >= 1.
 */
#include "tests/fuzz/fuzz.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/base/csvread.h"
#include "gen/base/fileio.h"
#include "gen/cli/archive_check.h"
#include "gen/ingest/archive.h"
#include "models/expr.h"

static const char clusters_csv[] =
    "cluster,nodes,cores_per_node,rate_per_core_hour\n"
    "ant,4,8,0.05\n"
    "bee,16,32,0.02\n";

static const char experiments_csv[] =
    "name,model,response,formula,train,target,title,options\n"
    "scale,scopred,time_s,N/np + log2(np),np <= 8,np >= 16,Scale,\n";

static const char *const separator = "\n%%\n";

/* The scratch archive, made once per process. */
static char archive_dir[64];

static void remove_archive(void)
{
    static const char *const files[] = {"c/runs.csv", "c/experiments.csv", "c/README.md",
                                        "clusters.csv"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *path = fileio_join(archive_dir, files[i]);
        if (path)
            unlink(path);
        free(path);
    }
    char *dir = fileio_join(archive_dir, "c");
    if (dir)
        rmdir(dir);
    free(dir);
    rmdir(archive_dir);
}

static void write_file(const char *name, const void *data, size_t len)
{
    char *path = fileio_join(archive_dir, name);
    FILE *f = path ? fopen(path, "wb") : NULL;
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
        abort(); /* the harness itself cannot work */
    free(path);
}

static void make_archive(void)
{
    /* In memory when the system has /dev/shm: a disk write per input
     * would be most of the time. */
    struct stat st;
    const char *base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
    snprintf(archive_dir, sizeof archive_dir, "%s/perfcast-fuzz-XXXXXX", base);
    if (!mkdtemp(archive_dir))
        abort();
    atexit(remove_archive);
    char *dir = fileio_join(archive_dir, "c");
    if (!dir || mkdir(dir, 0700) != 0)
        abort();
    free(dir);
    write_file("clusters.csv", clusters_csv, sizeof clusters_csv - 1);
    write_file("c/README.md", "# c\n", 4);
}

static void check_parse_in_memory(const uint8_t *data, size_t size)
{
    csv_doc doc;
    diag_list d;
    diag_init(&d);
    if (csv_parse_buffer((const char *)data, size, "fuzz.csv", &doc, &d)) {
        if (memchr(data, '\0', size))
            abort(); /* a NUL byte would have cut a field short */
        for (size_t r = 0; r < doc.nrows; r++)
            for (size_t f = 0; f < doc.rows[r].nfields; f++) {
                const csv_field *x = &doc.rows[r].fields[f];
                if (x->line < 1 || x->column < 1)
                    abort();
            }
    } else if (d.count == 0) {
        abort(); /* refused without saying why */
    }
    csv_doc_free(&doc);
    diag_free(&d);
}

/* Evaluate filter (when it parses) over the first rows of runs. */
static void select_rows(const table *runs, const char *filter)
{
    expr_error err;
    expr *e = filter ? expr_parse(filter, &err) : NULL;
    for (size_t r = 0; e && r < runs->nrows && r < 64; r++) {
        table_row_ctx row = {.t = runs, .row = r};
        expr_value v;
        expr_eval(e, expr_lookup_table_row, &row, &v, &err);
    }
    expr_free(e);
}

static void select_all(const archive *a)
{
    for (size_t c = 0; c < a->ncampaigns; c++)
        for (size_t i = 0; i < a->campaigns[c].nexperiments; i++) {
            const experiment_info *x = &a->campaigns[c].experiments[i];
            select_rows(&a->campaigns[c].runs, x->train);
            select_rows(&a->campaigns[c].runs, x->target);
        }
}

static void check_diags(const archive *a, const diag_list *d)
{
    for (size_t i = 0; i < d->count; i++) {
        const diag *g = &d->items[i];
        if (!g->file || g->line < 0 || g->column < 0 || !g->message[0])
            abort();
    }
    if (a->ncampaigns + a->nskipped > 1)
        abort(); /* the scratch archive has one campaign */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!archive_dir[0])
        make_archive();
    check_parse_in_memory(data, size);
    const uint8_t *sep = NULL;
    size_t seplen = strlen(separator);
    for (size_t i = 0; i + seplen <= size && !sep; i++)
        if (memcmp(data + i, separator, seplen) == 0)
            sep = data + i;
    size_t runs_len = sep ? (size_t)(sep - data) + 1 : size;
    write_file("c/runs.csv", data, runs_len);
    if (sep)
        write_file("c/experiments.csv", sep + seplen, size - runs_len - (seplen - 1));
    else
        write_file("c/experiments.csv", experiments_csv, sizeof experiments_csv - 1);
    archive a;
    diag_list d;
    diag_init(&d);
    if (archive_load(archive_dir, &a, &d)) {
        archive_check(&a, &d); /* options, fits and advice.csv, as check runs them */
        select_all(&a);
    }
    check_diags(&a, &d);
    if (getenv("FUZZ_VERBOSE")) /* to see what a corpus file exercises */
        diag_print(&d, stderr);
    archive_free(&a);
    diag_free(&d);
    return 0;
}
