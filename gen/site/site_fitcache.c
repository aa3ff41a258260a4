/*
 * site_fitcache.c — see site_fitcache.h. The previous file is read whole
 * (a few hundred bytes per experiment) and indexed; the new one is built
 * as the experiments are run or reused: a list of parts, its own text
 * (headers, new records) and the previous file's records kept as they
 * were, referred to, not copied (on a nightly rebuild nearly every
 * record is kept, and copying megabytes of them was a measurable part of
 * the build's one thread).
 */
#include "gen/site/site_fitcache.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/fileio.h"
#include "gen/base/growth.h"
#include "gen/base/hash.h"
#include "gen/base/parallel.h"
#include "gen/fit/error_pool.h"
#include "gen/fit/experiment_run.h"
#include "gen/site/site_inputs.h"
#include "render/buf.h"

const char site_fitcache_name[] = ".perfcast-fits";

static const char format_version[] = "perfcast-fits 1";

typedef struct {
    char *campaign;
    size_t index;
    uint64_t key;
    const char *body;
    size_t len;
    uint64_t hash; /* of the body, as its header says and reading checked */
} fit_entry;

/* A part of the new file: bytes off..off+len of the previous file's
 * text, or of the new file's own text. */
typedef struct {
    bool previous;
    size_t off, len;
} out_part;

typedef struct {
    bool present;
    size_t runs;
    uint64_t shape;
    const char *body;
    size_t len;
} pool_entry;

struct site_fitcache {
    const archive *a;
    uint64_t program;
    bool refresh_pool;
    char *previous;        /* the previous file's text */
    size_t previous_len;
    fit_entry *fits;       /* its records, bodies pointing into previous */
    size_t nfits, fits_cap;
    const fit_entry **by_key; /* the same, ordered by key (site_fitcache_find) */
    pool_entry pool;       /* its pool */
    uint64_t pool_digest;  /* of the pool this build uses */
    uint64_t archive_key;  /* the archive's own files */
    uint64_t *folder_keys; /* each campaign's files (site_inputs_folder_key, seed 0),
                              in a->campaigns order; NULL when out of memory */
    parallel_task hasher;  /* hashing folder_keys, until site_fitcache_pool */
    rbuf own;              /* the new file's own text */
    out_part *parts;       /* the new file: its parts in order */
    size_t nparts, parts_cap;
    bool oom;
    site_fitcache_stats stats;
};

/* ------------------------------------------------------------------ */
/* Reading the previous file                                           */

static void put_name(rbuf *b, const char *name)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p <= ' ' || *p == '%')
            rbuf_printf(b, "%%%02X", *p);
        else
            rbuf_putc(b, (char)*p);
    }
}

/* Split the header line at spaces into at most n tokens; their count. */
static size_t tokens(char *line, char **tok, size_t n)
{
    size_t k = 0;
    for (char *save = NULL, *t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (k++ < n)
            tok[k - 1] = t;
    return k;
}

static bool hex_of(const char *s, uint64_t *v)
{
    char *end;
    *v = strtoull(s, &end, 16);
    return end != s && !*end && *s != '-';
}

/* Index an entry: header tok[0..n) and its body, which hashes to hash. */
static bool add_entry(site_fitcache *fc, char **tok, size_t n, const char *body, size_t len,
                      uint64_t hash)
{
    uint64_t a = 0, b = 0;
    if (n == 5 && strcmp(tok[0], "pool") == 0 && hex_of(tok[1], &a) && hex_of(tok[2], &b)) {
        fc->pool = (pool_entry){true, (size_t)a, b, body, len};
        return true;
    }
    if (!(n == 6 && strcmp(tok[0], "fit") == 0 && hex_of(tok[2], &a) && hex_of(tok[3], &b)))
        return true; /* not an entry this perfcast knows: ignored */
    if (!growth_reserve(&fc->fits, &fc->fits_cap, fc->nfits + 1, sizeof *fc->fits))
        return false;
    fc->fits[fc->nfits++] = (fit_entry){tok[1], (size_t)a, b, body, len, hash};
    return true;
}

/* Index the previous file's entries (text[0..len), NUL-terminated). An
 * entry whose bytes do not hash to its header's is skipped; a header that
 * does not parse ends the reading (what follows cannot be found). False
 * only when out of memory. */
static bool parse_previous(site_fitcache *fc, char *text, size_t len)
{
    char *end = text + len, *nl = memchr(text, '\n', len);
    char head[80];
    snprintf(head, sizeof head, "%s %016llx", format_version, (unsigned long long)fc->program);
    if (!nl || (size_t)(nl - text) != strlen(head) || memcmp(text, head, strlen(head)) != 0)
        return true; /* another format or another perfcast: nothing is reused */
    for (char *p = nl + 1; p < end;) {
        if (!(nl = memchr(p, '\n', (size_t)(end - p))))
            break;
        *nl = '\0';
        char *tok[6];
        size_t n = tokens(p, tok, 6);
        uint64_t hash = 0, blen = 0;
        if (n < 3 || n > 6 || !hex_of(tok[n - 2], &hash) || !hex_of(tok[n - 1], &blen) ||
            blen > (uint64_t)(end - (nl + 1)))
            break;
        const char *body = nl + 1;
        if (hash_bytes(body, (size_t)blen, 0) == hash && !add_entry(fc, tok, n, body, blen, hash))
            return false;
        p = nl + 1 + blen;
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* The new file                                                        */

static bool add_part(site_fitcache *fc, bool previous, size_t off, size_t len)
{
    out_part *last = fc->nparts ? &fc->parts[fc->nparts - 1] : NULL;
    if (last && last->previous == previous && last->off + last->len == off) {
        last->len += len; /* the own text grows in place: one part */
        return true;
    }
    if (!growth_reserve(&fc->parts, &fc->parts_cap, fc->nparts + 1, sizeof *fc->parts)) {
        fc->oom = true;
        return false;
    }
    fc->parts[fc->nparts++] = (out_part){previous, off, len};
    return true;
}

/* The own text appended since start is the new file's next part. */
static bool add_own(site_fitcache *fc, size_t start)
{
    if (fc->own.oom)
        fc->oom = true;
    return !fc->oom && add_part(fc, false, start, fc->own.len - start);
}

/* Whether record..record+len lies in the previous file's text (a kept
 * record), and where (compared as addresses: record may be any memory). */
static bool in_previous(const site_fitcache *fc, const char *record, size_t len, size_t *off)
{
    uintptr_t p = (uintptr_t)fc->previous, r = (uintptr_t)record;
    if (!fc->previous || r < p || len > fc->previous_len || r - p > fc->previous_len - len)
        return false;
    *off = (size_t)(r - p);
    return true;
}

/* By key, then in the file's order (the first of equal entries is found,
 * as a scan found it). */
static int compare_keys(const void *a, const void *b)
{
    const fit_entry *e = *(const fit_entry *const *)a, *f = *(const fit_entry *const *)b;
    if (e->key != f->key)
        return e->key < f->key ? -1 : 1;
    return (e > f) - (e < f);
}

/* The records ordered by key: a build looks each kept experiment up, and
 * a scan of every record for each was quadratic in the archive. False
 * only when out of memory. */
static bool index_by_key(site_fitcache *fc)
{
    if (fc->nfits == 0)
        return true;
    fc->by_key = malloc(fc->nfits * sizeof *fc->by_key);
    if (!fc->by_key)
        return false;
    for (size_t i = 0; i < fc->nfits; i++)
        fc->by_key[i] = &fc->fits[i];
    qsort(fc->by_key, fc->nfits, sizeof *fc->by_key, compare_keys);
    return true;
}

/* The hash of a record: its previous entry's (checked when the file was
 * read: hashing the kept megabytes again was work done twice) when it is
 * one, else worked out. The entries lie in the file's order. */
static uint64_t record_hash(const site_fitcache *fc, const char *record, size_t len)
{
    size_t off, lo = 0, hi = fc->nfits;
    if (!in_previous(fc, record, len, &off))
        return hash_bytes(record, len, 0);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((size_t)(fc->fits[mid].body - fc->previous) < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    const fit_entry *f = lo < fc->nfits ? &fc->fits[lo] : NULL;
    return f && f->body == record && f->len == len ? f->hash : hash_bytes(record, len, 0);
}

/* Bytes record..record+len as the new file's next part: referred to when
 * they lie in the previous file's text (a kept record), else copied. */
static bool add_bytes(site_fitcache *fc, const char *record, size_t len)
{
    size_t off;
    if (in_previous(fc, record, len, &off))
        return !fc->oom && add_part(fc, true, off, len);
    size_t start = fc->own.len;
    rbuf_put(&fc->own, record, len);
    return add_own(fc, start);
}

/* Every campaign folder's key: read again from disk (the archive loaded
 * them already, but a key must cover every file of the folder, not only
 * those perfcast parses). */
static void *hash_folders(void *arg)
{
    site_fitcache *fc = arg;
    for (size_t i = 0; i < fc->a->ncampaigns; i++)
        fc->folder_keys[i] = site_inputs_folder_key(fc->a->campaigns[i].dir, false, 0);
    return NULL;
}

/* Start hashing the campaign folders: on a thread of its own when the
 * build may use a second one (so that it overlaps reading the previous
 * file and settling the pool, which need none of it), else here. */
static void start_hashing_folders(site_fitcache *fc, bool threaded)
{
    fc->folder_keys = calloc(fc->a->ncampaigns ? fc->a->ncampaigns : 1, sizeof *fc->folder_keys);
    if (!fc->folder_keys)
        return; /* every key is then 0: nothing is reused */
    parallel_task_start(&fc->hasher, threaded, hash_folders, fc);
}

site_fitcache *site_fitcache_open(const char *out_dir, const archive *a, uint64_t program,
                                  bool refresh_pool, bool threaded)
{
    site_fitcache *fc = calloc(1, sizeof *fc);
    if (!fc)
        return NULL;
    *fc = (site_fitcache){.a = a, .program = program, .refresh_pool = refresh_pool};
    rbuf_init(&fc->own);
    start_hashing_folders(fc, threaded);
    fc->archive_key = site_inputs_folder_key(a->dir, true, 0);
    char *path = out_dir ? fileio_join(out_dir, site_fitcache_name) : NULL;
    size_t len = 0;
    fc->previous = path && program ? fileio_read_file(path, &len) : NULL;
    fc->previous_len = fc->previous ? len : 0;
    free(path);
    bool ok = !fc->previous || (parse_previous(fc, fc->previous, len) && index_by_key(fc));
    size_t start = fc->own.len;
    rbuf_printf(&fc->own, "%s %016llx\n", format_version, (unsigned long long)program);
    if (!ok || !add_own(fc, start)) {
        site_fitcache_free(fc);
        return NULL;
    }
    return fc;
}

void site_fitcache_free(site_fitcache *fc)
{
    if (!fc)
        return;
    parallel_task_finish(&fc->hasher);
    free(fc->folder_keys);
    free(fc->previous);
    free(fc->fits);
    free(fc->by_key);
    rbuf_free(&fc->own);
    free(fc->parts);
    free(fc);
}

/* ------------------------------------------------------------------ */
/* The pool                                                            */

/* What the pool's families and campaigns are made of: every experiment's
 * campaign, name, model, and whether `check` refused it, in order. */
static uint64_t archive_shape(const archive *a)
{
    uint64_t h = hash_bytes("shape", 5, 0);
    for (size_t i = 0; i < a->ncampaigns; i++) {
        const campaign *c = &a->campaigns[i];
        h = hash_bytes(c->name, strlen(c->name) + 1, h);
        for (size_t j = 0; j < c->nexperiments; j++) {
            const experiment_info *e = &c->experiments[j];
            const char *model = e->model ? e->model : "";
            h = hash_bytes(e->name, strlen(e->name) + 1, h);
            h = hash_bytes(model, strlen(model) + 1, h);
            h = hash_bytes(e->problem ? "x" : "-", 1, h);
        }
    }
    return h;
}

static size_t archive_runs(const archive *a)
{
    size_t n = 0;
    for (size_t i = 0; i < a->ncampaigns; i++)
        n += a->campaigns[i].runs.nrows;
    return n;
}

/* The refresh rule's test on the run count (site_fitcache.h). */
static bool runs_close(size_t now, size_t filled_at)
{
    return now >= filled_at &&
           (double)(now - filled_at) < SITE_FITCACHE_POOL_GROWTH * (double)filled_at;
}

bool site_fitcache_pool(site_fitcache *fc, backtest_cache *cache)
{
    parallel_task_finish(&fc->hasher); /* every key needs them, and keys follow the pool */
    error_pool *pool = backtest_cache_pool(cache);
    size_t runs = archive_runs(fc->a), filled_at = runs;
    uint64_t shape = archive_shape(fc->a);
    const pool_entry *prev = &fc->pool;
    fc->stats.pool_reused = !fc->refresh_pool && prev->present && prev->shape == shape &&
                            runs_close(runs, prev->runs) &&
                            error_pool_read(pool, fc->a, prev->body, prev->len);
    if (fc->stats.pool_reused) {
        backtest_cache_set_pool_filled(cache, NULL);
        filled_at = prev->runs;
    } else if (!experiment_fill_pool(fc->a, NULL, cache)) {
        return false;
    }
    rbuf text;
    rbuf_init(&text);
    bool ok = error_pool_write(pool, &text);
    /* Never 0, which says the pool could not be written: an archive with
     * no backtest at all has an empty pool, and its fits are still kept. */
    uint64_t digest = hash_bytes(text.data, text.len, 0x706f6f6cull); /* "pool" */
    /* The shipped prior is part of what every interval shrinks toward. */
    uint64_t prior = error_prior_digest(error_pool_prior(pool));
    digest = hash_bytes(&prior, sizeof prior, digest);
    fc->pool_digest = ok ? (digest ? digest : 1) : 0;
    size_t start = fc->own.len;
    rbuf_printf(&fc->own, "pool %zx %016llx %016llx %zx\n", filled_at, (unsigned long long)shape,
                (unsigned long long)hash_bytes(text.data, text.len, 0), text.len);
    rbuf_put(&fc->own, text.data, text.len);
    ok = add_own(fc, start) && ok;
    rbuf_free(&text);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Records                                                             */

/* h chained with the key of c's folder (c one of the archive's
 * campaigns); 0 when it could not be read. */
static uint64_t folder_key(const site_fitcache *fc, const campaign *c, uint64_t h)
{
    size_t i = (size_t)(c - fc->a->campaigns);
    uint64_t k = fc->folder_keys && i < fc->a->ncampaigns ? fc->folder_keys[i] : 0;
    return k ? hash_bytes(&k, sizeof k, h) : 0;
}

uint64_t site_fitcache_key(const site_fitcache *fc, const campaign *c)
{
    uint64_t h = hash_bytes(format_version, sizeof format_version, fc->program);
    h = hash_bytes(&fc->pool_digest, sizeof fc->pool_digest, h);
    h = hash_bytes(&fc->archive_key, sizeof fc->archive_key, h);
    h = folder_key(fc, c, h);
    for (size_t i = 0; h && i < c->nexperiments; i++) {
        const campaign *lender = experiment_lender_campaign(fc->a, &c->experiments[i]);
        if (lender)
            h = folder_key(fc, lender, hash_bytes(lender->name, strlen(lender->name) + 1, h));
    }
    /* Without the program or an archive file read, nothing may match. */
    return fc->program && fc->archive_key && fc->pool_digest ? h : 0;
}

const char *site_fitcache_find(const site_fitcache *fc, const campaign *c, size_t index,
                               uint64_t key, size_t *len)
{
    size_t lo = 0, hi = fc->nfits;
    while (lo < hi) { /* the first record of key */
        size_t mid = lo + (hi - lo) / 2;
        if (fc->by_key[mid]->key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    rbuf name;
    rbuf_init(&name);
    put_name(&name, c->name);
    const char *body = NULL;
    for (size_t i = lo; key && !name.oom && !body && i < fc->nfits && fc->by_key[i]->key == key;
         i++) {
        const fit_entry *f = fc->by_key[i];
        if (f->index == index && strcmp(f->campaign, rbuf_str(&name)) == 0)
            body = f->body, *len = f->len;
    }
    rbuf_free(&name);
    return body;
}

bool site_fitcache_keep(site_fitcache *fc, const campaign *c, size_t index, uint64_t key,
                        const char *record, size_t len, bool reused)
{
    if (reused)
        fc->stats.experiments_reused++;
    else
        fc->stats.experiments_fitted++;
    size_t start = fc->own.len;
    rbuf_puts(&fc->own, "fit ");
    put_name(&fc->own, c->name);
    rbuf_printf(&fc->own, " %zx %016llx %016llx %zx\n", index, (unsigned long long)key,
                (unsigned long long)record_hash(fc, record, len), len);
    return add_own(fc, start) && add_bytes(fc, record, len);
}

void site_fitcache_get_stats(const site_fitcache *fc, site_fitcache_stats *s)
{
    *s = fc->stats;
}

fileio_part *site_fitcache_parts(const site_fitcache *fc, size_t *n)
{
    fileio_part *parts = fc->oom ? NULL : malloc((fc->nparts ? fc->nparts : 1) * sizeof *parts);
    for (size_t i = 0; parts && i < fc->nparts; i++) {
        const out_part *p = &fc->parts[i];
        parts[i] = (fileio_part){(p->previous ? fc->previous : fc->own.data) + p->off, p->len};
    }
    *n = parts ? fc->nparts : 0;
    return parts;
}
