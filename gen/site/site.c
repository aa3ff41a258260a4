/*
 * site.c — the order of a build: data, templates, pages, swap.
 */
#include "gen/site/site.h"
#include "gen/base/hash.h"
#include "gen/base/parallel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/base/fileio.h"
#include "gen/site/site_data.h"
#include "gen/site/site_fitcache.h"
#include "gen/site/site_inputs.h"
#include "gen/site/site_out.h"
#include "gen/site/site_pages.h"
#include "render/template.h"

static char *read_template_file(const char *dir, const char *name, char *err, size_t errlen)
{
    char *path = fileio_join(dir, name);
    if (!path) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    /* Templates are published: like archive files, they must lie inside
     * their folder and be regular files. */
    char *text;
    size_t len;
    fileio_status status = fileio_read_inside(dir, path, FILEIO_MAX_BYTES, &text, &len);
    if (status != FILEIO_OK)
        snprintf(err, errlen, "cannot read the template %s: %s", path,
                 fileio_status_text(status, errno));
    free(path);
    return text;
}

/* Every page and the PDF reports are independent: workers take the next
 * one until none is left. The report's front is job 0 and the clusters'
 * reports (each a cluster's whole cost table laid out, the longest single
 * jobs when drawn) follow the pages made of the whole archive (alerts,
 * advice, estimates, the index), so that they run beside the campaign
 * pages instead of after them. */
typedef bool (*site_writer)(site_ctx *c);
static const site_writer whole_site_pages[] = {site_write_report, site_write_alerts,
                                               site_write_advice, site_write_estimates,
                                               site_write_index};
enum { NWHOLE = sizeof whole_site_pages / sizeof whole_site_pages[0] };

/* Job j: the whole-site pages, the clusters' reports (long when drawn,
 * so early), the campaigns, the cluster pages. */
static bool run_job(site_ctx *c, size_t j)
{
    size_t ncamps = c->data->ncamps, nclusters = c->data->nclusters;
    if (j < NWHOLE)
        return whole_site_pages[j](c);
    if ((j -= NWHOLE) < nclusters)
        return site_write_cluster_report(c, j);
    if ((j -= nclusters) < ncamps)
        return site_write_campaign(c, j);
    return site_write_cluster(c, j - ncamps);
}

/* The page writers: one context per thread (its scratch and counts);
 * after a failure the jobs left are skipped. */
typedef struct {
    site_ctx *workers;
    bool failed; /* atomic */
} page_jobs;

static void run_page_job(void *ctx, size_t worker, size_t job)
{
    page_jobs *p = ctx;
    if (!__atomic_load_n(&p->failed, __ATOMIC_RELAXED) && !run_job(&p->workers[worker], job))
        __atomic_store_n(&p->failed, true, __ATOMIC_RELAXED);
}

static size_t thread_count(const site_options *opt)
{
    long n = opt->jobs > 0 ? opt->jobs : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 16 ? 16 : (size_t)n;
}

/* Run the report and every page on the build's threads; c gets their
 * counts. */
static bool write_parallel(site_ctx *c, size_t nthreads)
{
    page_jobs p = {calloc(nthreads, sizeof *p.workers), false};
    if (!p.workers)
        return false;
    for (size_t i = 0; i < nthreads; i++) {
        p.workers[i] = (site_ctx){.out = c->out, .tpl = c->tpl, .data = c->data,
                                  .base_url = c->base_url, .previous_dir = c->previous_dir,
                                  .page_seed = c->page_seed, .program_key = c->program_key};
        rbuf_init(&p.workers[i].html);
        rbuf_init(&p.workers[i].page);
    }
    size_t njobs = NWHOLE + c->data->ncamps + 2 * c->data->nclusters;
    parallel_for_workers(njobs, (int)nthreads, run_page_job, &p);
    for (size_t i = 0; i < nthreads; i++) {
        c->pages += p.workers[i].pages;
        c->pages_rendered += p.workers[i].pages_rendered;
        c->charts += p.workers[i].charts;
        c->charts_drawn += p.workers[i].charts_drawn;
        rbuf_free(&p.workers[i].html);
        rbuf_free(&p.workers[i].page);
    }
    free(p.workers);
    return !p.failed;
}

static bool write_pages(site_ctx *c, const char *css, size_t nthreads)
{
    rbuf style;
    rbuf_init(&style);
    rbuf_puts(&style, css);
    bool ok = site_file(c, "style.css", &style);
    rbuf_free(&style);
    return ok && write_parallel(c, nthreads);
}

static void count(const site_data *d, const site_ctx *c, site_stats *s)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < d->ncamps; i++) {
        s->campaigns++;
        s->skipped_campaigns += d->camps[i].camp == NULL;
        for (size_t k = 0; k < d->camps[i].nexps; k++) {
            s->experiments++;
            s->failed_experiments += !d->camps[i].exps[k].res.ok;
        }
    }
    s->problems = d->diags.count;
    /* As the alerts page counts them: configurations, not the runs
     * outside their interval (the log said 70 where the page listed 41). */
    s->alerts = site_alert_configurations(d);
    s->pages = c->pages;
    s->charts = c->charts;
    s->charts_drawn = c->charts_drawn;
    s->pages_rendered = c->pages_rendered;
}

/* The archive's problems as printable lines. */
static void export_diags(const site_data *d, char ***out, size_t *n)
{
    *out = calloc(d->diags.count + 1, sizeof **out);
    *n = 0;
    for (size_t i = 0; *out && i < d->diags.count; i++) {
        const diag *g = &d->diags.items[i];
        rbuf b;
        rbuf_init(&b);
        if (g->line > 0)
            rbuf_printf(&b, "%s:%ld:%ld: %s", g->file, g->line, g->column > 0 ? g->column : 1,
                        g->message);
        else
            rbuf_printf(&b, "%s: %s", g->file, g->message);
        char *line = rbuf_take(&b);
        if (line)
            (*out)[(*n)++] = line;
    }
}

/* The stats a build records with its inputs key (site_out_record_inputs),
 * in this order; a build skipped as up to date reports them. */
enum { SUMMARY_CAMPAIGNS, SUMMARY_SKIPPED, SUMMARY_EXPERIMENTS, SUMMARY_FAILED, SUMMARY_PAGES,
       SUMMARY_CHARTS, SUMMARY_ALERTS, SUMMARY_N };

static void summary_of(const site_stats *s, size_t *v)
{
    v[SUMMARY_CAMPAIGNS] = s->campaigns, v[SUMMARY_SKIPPED] = s->skipped_campaigns;
    v[SUMMARY_EXPERIMENTS] = s->experiments, v[SUMMARY_FAILED] = s->failed_experiments;
    v[SUMMARY_PAGES] = s->pages, v[SUMMARY_CHARTS] = s->charts, v[SUMMARY_ALERTS] = s->alerts;
}

static void stats_of(const size_t *v, size_t nfiles, site_stats *s)
{
    *s = (site_stats){.campaigns = v[SUMMARY_CAMPAIGNS], .skipped_campaigns = v[SUMMARY_SKIPPED],
                      .experiments = v[SUMMARY_EXPERIMENTS], .failed_experiments = v[SUMMARY_FAILED],
                      .pages = v[SUMMARY_PAGES], .charts = v[SUMMARY_CHARTS],
                      .alerts = v[SUMMARY_ALERTS], .files_kept = nfiles, .up_to_date = true};
}

/* What every page's HTML depends on besides its own Markdown and
 * variables: the template and the program that renders (a new perfcast
 * renders every page again). 0 when the program cannot be read. */
static uint64_t page_seed(const char *page_html)
{
    static const char version[] = "page-v1";
    uint64_t program = site_program_key();
    uint64_t h = hash_bytes(version, sizeof version, program);
    h = hash_bytes(page_html, strlen(page_html), h);
    return program && h ? h : 0;
}

/* The site this build reuses: the output folder itself, or the previous
 * site a new one is made from. */
static const char *previous_site(const site_options *opt)
{
    return opt->previous_dir ? opt->previous_dir : opt->out_dir;
}

/* The templates every page is made with. */
typedef struct {
    char *page_html, *css;
    template *tpl;
} templates;

static void templates_free(templates *t)
{
    template_free(t->tpl);
    free(t->page_html);
    free(t->css);
}

static bool templates_load(const char *dir, templates *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->page_html = read_template_file(dir, "page.html", err, errlen);
    t->css = t->page_html ? read_template_file(dir, "style.css", err, errlen) : NULL;
    t->tpl = t->css ? template_parse(t->page_html, err, errlen) : NULL;
    if (t->tpl && !template_uses(t->tpl, "content")) {
        snprintf(err, errlen, "%s/page.html has no {{{content}}}", dir);
        template_free(t->tpl);
        t->tpl = NULL;
    }
    if (!t->tpl)
        templates_free(t);
    return t->tpl != NULL;
}

static site_out *begin_output(const site_options *opt, char *err, size_t errlen)
{
    site_out_options oo = {.fail_after = opt->fail_after, .fail_kill = opt->fail_kill,
                           .previous_dir = opt->previous_dir};
    return site_out_begin(opt->out_dir, &oo, err, errlen);
}

/* The cache of fits for the next build, staged beside the pages
 * (site_out_stage_private): on a thread of its own while they are written
 * when the build has a second one (its megabytes were the longest step
 * after the commit), else before them. placed says, after the commit,
 * whether it is in place. */
typedef struct {
    site_out *out;
    const site_fitcache *fits;
    bool *placed;
    parallel_task task;
} fits_job;

static void *stage_fits(void *arg)
{
    fits_job *f = arg;
    size_t n;
    fileio_part *parts = site_fitcache_parts(f->fits, &n);
    if (parts)
        site_out_stage_private(f->out, site_fitcache_name, parts, n, f->placed);
    free(parts);
    return NULL;
}

/* Write every page of d into out, with d's cache of fits when it has one,
 * and commit it (or abort: out is released either way). */
static bool write_into(site_out *out, const templates *t, const site_data *d,
                       const site_options *opt, site_stats *stats, char *err, size_t errlen)
{
    site_ctx c = {.out = out, .tpl = t->tpl, .data = d, .base_url = opt->base_url,
                  .previous_dir = previous_site(opt), .page_seed = page_seed(t->page_html),
                  .program_key = site_program_key()};
    rbuf_init(&c.html);
    rbuf_init(&c.page);
    fits_job fits = {.out = out, .fits = d->fitcache, .placed = &stats->fits_saved};
    if (fits.fits)
        parallel_task_start(&fits.task, thread_count(opt) > 1, stage_fits, &fits);
    bool ok = write_pages(&c, t->css, thread_count(opt));
    parallel_task_finish(&fits.task);
    rbuf_free(&c.html);
    rbuf_free(&c.page);
    count(d, &c, stats);
    site_out_stats os;
    site_out_get_stats(out, &os);
    stats->files_written = os.written;
    stats->files_kept = os.linked;
    if (ok && opt->inputs_key && d->diags.count == 0) {
        size_t summary[SUMMARY_N];
        summary_of(stats, summary);
        site_out_record_inputs(out, opt->inputs_key, summary, SUMMARY_N);
    }
    if (ok)
        return site_out_commit(out, err, errlen);
    snprintf(err, errlen, "%s", site_out_failed(out) ? site_out_error(out) : "out of memory");
    site_out_abort(out);
    return false;
}

bool site_write(const site_data *d, const site_options *opt, site_stats *stats, char *err,
                size_t errlen)
{
    memset(stats, 0, sizeof *stats);
    templates t;
    if (!templates_load(opt->templates_dir, &t, err, errlen))
        return false;
    site_out *out = begin_output(opt, err, errlen);
    bool ok = out && write_into(out, &t, d, opt, stats, err, errlen);
    templates_free(&t);
    return ok;
}

/* The fits the build reused and made (the cache of them for the next
 * build came with the site: write_into). */
static void fits_of(const site_data *d, site_stats *s)
{
    site_fitcache_stats fs;
    site_fitcache_get_stats(d->fitcache, &fs);
    s->experiments_fitted = fs.experiments_fitted;
    s->experiments_reused = fs.experiments_reused;
    s->pool_reused = fs.pool_reused;
}

/* The key of opt's inputs (0 under fault injection: never skip then). */
static uint64_t inputs_key(const site_options *opt)
{
    return opt->fail_after < 0
               ? site_inputs_key(opt->archive_dir, opt->templates_dir, opt->source_date_epoch)
               : 0;
}

bool site_up_to_date(const site_options *opt)
{
    size_t summary[SUMMARY_N], nfiles;
    return !fileio_folders_overlap(opt->archive_dir, opt->out_dir) &&
           site_out_up_to_date(opt->out_dir, inputs_key(opt), summary, SUMMARY_N, &nfiles);
}

/* Whether the folders can be used at all, before anything is loaded. */
static bool folders_usable(const site_options *opt, char *err, size_t errlen)
{
    /* A site written into the archive would be read back as a campaign on
     * the next build; an archive inside the site would be up for removal. */
    if (fileio_folders_overlap(opt->archive_dir, opt->out_dir)) {
        snprintf(err, errlen,
                 "the output folder %s and the archive %s overlap (one is inside the other); "
                 "choose an --out outside the archive",
                 opt->out_dir, opt->archive_dir);
        return false;
    }
    /* A build from a previous site makes a new folder: one that exists
     * would otherwise be skipped as up to date or built over. */
    struct stat st;
    if (opt->previous_dir && lstat(opt->out_dir, &st) == 0) {
        snprintf(err, errlen, "%s exists: a build from the previous site %s makes a new folder",
                 opt->out_dir, opt->previous_dir);
        return false;
    }
    return true;
}

/* The inputs key, worked out on a thread of its own while the archive
 * loads when nothing needs it before the site is written: a build from a
 * previous site has no output that could be up to date. */
typedef struct {
    const site_options *opt;
    uint64_t key;
    parallel_task task;
} key_job;

static void *work_out_key(void *arg)
{
    key_job *k = arg;
    k->key = inputs_key(k->opt);
    return NULL;
}

/* Load the archive and write the site, with the cache of fits for the
 * next build, into out (begun by the caller, released here). The previous
 * site's files are checked on a second thread meanwhile (most of what a
 * night spends on the files it keeps); opt->inputs_key is key's, once it
 * is worked out. */
static bool load_and_write(site_out *out, const templates *t, site_options *opt, key_job *key,
                           site_stats *stats, char ***diags, size_t *ndiags, char *err,
                           size_t errlen)
{
    if (thread_count(opt) > 1)
        site_out_check_ahead(out);
    site_data d;
    bool ok = site_data_load_reusing(&d, opt->archive_dir, opt->source_date_epoch,
                                     previous_site(opt), opt->refresh_pool,
                                     (int)thread_count(opt), err, errlen);
    if (key->task.started) {
        parallel_task_finish(&key->task);
        opt->inputs_key = key->key;
    }
    if (!ok)
        site_out_abort(out);
    ok = ok && write_into(out, t, &d, opt, stats, err, errlen);
    if (ok)
        fits_of(&d, stats);
    if (diags)
        export_diags(&d, diags, ndiags);
    site_data_free(&d);
    return ok;
}

bool site_build(const site_options *opt, site_stats *stats, char ***diags, size_t *ndiags,
                char *err, size_t errlen)
{
    memset(stats, 0, sizeof *stats);
    if (diags)
        *diags = NULL, *ndiags = 0;
    if (!folders_usable(opt, err, errlen))
        return false;
    site_options o = *opt;
    key_job key = {.opt = opt};
    parallel_task_start(&key.task, opt->previous_dir && thread_count(opt) > 1, work_out_key, &key);
    if (!key.task.started) { /* worked out here, now */
        size_t summary[SUMMARY_N], nfiles;
        o.inputs_key = key.key;
        if (!opt->refresh_pool &&
            site_out_up_to_date(opt->out_dir, o.inputs_key, summary, SUMMARY_N, &nfiles)) {
            stats_of(summary, nfiles, stats);
            return true;
        }
    }
    templates t;
    bool have_templates = templates_load(opt->templates_dir, &t, err, errlen);
    site_out *out = have_templates ? begin_output(&o, err, errlen) : NULL;
    bool ok = out && load_and_write(out, &t, &o, &key, stats, diags, ndiags, err, errlen);
    if (!out)
        parallel_task_finish(&key.task);
    if (have_templates)
        templates_free(&t);
    return ok;
}
