/*
 * archive.c — loads clusters.csv and every campaign folder of an archive.
 *
 * A campaign is all-or-nothing: if any of its files has a problem, the
 * problems are reported and the campaign is skipped, so a site never shows
 * predictions built on half a file. Other campaigns are unaffected. The
 * exception is a problem in one row of experiments.csv: it concerns that
 * experiment only, which is marked (experiment_info.problem) and not run,
 * while the campaign and its other experiments load.
 */
#include "gen/ingest/archive.h"
#include "models/topology.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "gen/base/csvread.h"
#include "gen/base/fileio.h"
#include "gen/base/parallel.h"
#include "gen/base/run_engine.h"
#include "gen/ingest/campaign_settings.h"
#include "gen/ingest/experiment_check.h"
#include "gen/ingest/schema.h"

static const column_spec cluster_columns[] = {
    {"cluster", RULE_TEXT, true, true, "the resource's name, unique"},
    {"description", RULE_TEXT, false, false, "free text"},
    {"nodes", RULE_COUNT, false, false, "number of nodes"},
    {"cores_per_node", RULE_COUNT, false, false, "cores per node"},
    {"mem_per_core_gb", RULE_POSITIVE, false, false, "memory per core, GB"},
    {"interconnect", RULE_TEXT, false, false, "network fabric"},
    {"rate_per_core_hour", RULE_NONNEGATIVE, false, false, "charge per core-hour"},
    {"currency", RULE_TEXT, false, false, "unit of the charge"},
    {"mbw_read_gbs", RULE_POSITIVE, false, false, "memory read bandwidth per node, GB/s"},
    {"mbw_write_gbs", RULE_POSITIVE, false, false, "memory write bandwidth per node, GB/s"},
    {"mbw_core_gbs", RULE_POSITIVE, false, false, "memory bandwidth of one core alone, GB/s"},
    {"net_bw_gbs", RULE_POSITIVE, false, false, "network bandwidth per node, GB/s"},
    {"platform_contribution", RULE_POSITIVE, false, false, "relative platform speed"},
    /* A simulated cluster (SimGrid SMPI; mgbench/smpi_platform reads these). */
    {"sim_core_speed", RULE_POSITIVE, false, false, "simulated core speed, relative"},
    {"sim_link_bw_gbs", RULE_POSITIVE, false, false, "simulated node link, GB/s"},
    {"sim_link_lat_us", RULE_POSITIVE, false, false, "simulated node link latency, us"},
    {"sim_backbone_bw_gbs", RULE_POSITIVE, false, false, "simulated switch, GB/s"},
    {"sim_backbone_lat_us", RULE_POSITIVE, false, false, "simulated switch latency, us"},
    /* A real cluster's link to other clusters (a job split across two). */
    {"link_bw_gbs", RULE_POSITIVE, false, false, "link to other clusters, GB/s"},
    {"link_lat_us", RULE_NONNEGATIVE, false, false, "link to other clusters' latency, us"},
    {"sim_uplink_bw_gbs", RULE_POSITIVE, false, false, "simulated uplink to other clusters, GB/s"},
    {"sim_uplink_lat_us", RULE_POSITIVE, false, false, "simulated uplink latency, us"},
    {"sim_topology", RULE_TEXT, false, false, "simulated network: FLAT, TORUS or FAT_TREE"},
    {"sim_topo_parameters", RULE_TEXT, false, false, "its SimGrid parameters (2,2,2 or 2;4,4;1,2;1,2)"},
    {NULL, RULE_TEXT, false, false, NULL},
};

static const column_spec run_columns[] = {
    {"cluster", RULE_TEXT, true, true, "the cluster of clusters.csv the run used"},
    {"code", RULE_TEXT, false, false, "the program that ran"},
    {"np", RULE_COUNT, true, true, "number of processes"},
    {"npa", RULE_COUNT, false, false, "processes along the first grid axis"},
    {"npb", RULE_COUNT, false, false, "processes along the second grid axis"},
    {"na", RULE_COUNT, false, false, "mesh points along the first axis"},
    {"nb", RULE_COUNT, false, false, "mesh points along the second axis"},
    {"nodes", RULE_COUNT, false, false, "nodes used"},
    {"ppn", RULE_COUNT, false, false, "processes per node"},
    {"work_mb", RULE_POSITIVE, false, false, "memory per process, MB"},
    /* Only experiments whose response is time_s need it: check says so there. */
    {"time_s", RULE_POSITIVE, false, false, "wall time, seconds; empty = to predict"},
    {"rep", RULE_INDEX, false, false, "repetition number"},
    {"date", RULE_DATE, false, false, "date of the run"},
    {"note", RULE_TEXT, false, false, "free text"},
    {"dataset", RULE_TEXT, false, false, "input data set"},
    {"seq_of_np", RULE_COUNT, false, false, "sequential run standing for this np's per-process mesh"},
    {"engine", RULE_TEXT, false, false,
     "openmpi (a real run) or smpi (simulated by SimGrid SMPI); empty = openmpi"},
    /* A ping-pong row (mgbench --pingpong) measures the link between two
     * clusters' ranks: check_run_row wants the last three with it. */
    {"kind", RULE_TEXT, false, false, "pingpong (a link measurement) or empty (a run)"},
    {"cluster_b", RULE_TEXT, false, false, "the far side's cluster of a ping-pong row"},
    {"bytes", RULE_COUNT, false, false, "the largest ping-pong message, bytes"},
    {"link_lat_us", RULE_NONNEGATIVE, false, false, "measured link latency, us"},
    {"link_bw_gbs", RULE_POSITIVE, false, false, "measured link bandwidth, GB/s"},
    {NULL, RULE_TEXT, false, false, NULL},
};

static const column_spec experiment_columns[] = {
    {"name", RULE_TEXT, true, true, "the experiment's name"},
    {"model", RULE_TEXT, true, true, "scopred, strip, block, multicluster or multicore"},
    {"response", RULE_TEXT, false, false, "column(s) to predict"},
    {"formula", RULE_TEXT, false, false, "the model's formula"},
    {"train", RULE_TEXT, false, false, "filter of the runs to fit"},
    {"target", RULE_TEXT, false, false, "filter of the runs to predict"},
    {"title", RULE_TEXT, false, false, "a human title"},
    {"options", RULE_TEXT, false, false, "key=value;key=value"},
    {NULL, RULE_TEXT, false, false, NULL},
};

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* The number in column `name`, else in column `fallback` (NAN: neither). */
static double number_or(const table *t, size_t r, const char *name, const char *fallback)
{
    double x = table_number_named(t, r, name);
    return isnan(x) ? table_number_named(t, r, fallback) : x;
}

/* Read a whole text file of the archive (root); NULL (and a problem,
 * unless missing_ok) on failure. */
static char *read_text(const char *root, const char *path, const char *display, bool missing_ok,
                       diag_list *d)
{
    size_t len;
    char *buf;
    fileio_status status = fileio_read_inside(root, path, FILEIO_MAX_BYTES, &buf, &len);
    if (status != FILEIO_OK) {
        if (!(missing_ok && status == FILEIO_MISSING))
            diag_add(d, display, 0, 0, "cannot read: %s", fileio_status_text(status, errno));
        return NULL;
    }
    if (strlen(buf) != len || csv_utf8_invalid_at(buf, len) != len) {
        diag_add(d, display, 0, 0, "not UTF-8 text");
        free(buf);
        return NULL;
    }
    return buf;
}

/* Load one CSV file of the archive (root) into a typed table, streamed
 * (a runs.csv can have millions of rows); false when it is unusable or
 * has any problem. */
static bool load_csv(const char *root, const char *path, const schema *s, table *out, diag_list *d)
{
    schema_stream st;
    size_t before = d->count;
    schema_stream_init(&st, s, out, d);
    if (csv_read_rows(root, path, s->file, schema_stream_lines, schema_stream_row, &st, d))
        schema_stream_finish(&st);
    else
        schema_stream_discard(&st); /* unusable as a whole: nothing of it is kept */
    return d->count == before;
}

/* ------------------------------------------------------------------ */
/* Clusters                                                            */

/* The two cells of a cluster's simulated network (models/topology.h). */
static const char *check_cluster_cell(void *ctx, const char *column, const char *value)
{
    (void)ctx;
    if (strcmp(column, "sim_topology") == 0)
        return topology_kind_problem(value);
    if (strcmp(column, "sim_topo_parameters") == 0)
        return topology_params_problem(value);
    return NULL;
}

static bool load_clusters(archive *a, diag_list *d)
{
    char *path = fileio_join(a->dir, "clusters.csv");
    if (!path)
        return false;
    schema s = {.file = path, .specs = cluster_columns, .allow_unknown = true,
                .check_text = check_cluster_cell};
    bool ok = load_csv(a->dir, path, &s, &a->cluster_table, d);
    const table *t = &a->cluster_table;
    a->clusters = t->nrows ? calloc(t->nrows, sizeof *a->clusters) : NULL;
    for (size_t r = 0; r < t->nrows && a->clusters; r++) {
        const char *name = table_text_named(t, r, "cluster");
        if (archive_cluster(a, name)) {
            diag_add(d, path, t->line[r], 1, "duplicate cluster '%s' (expected each cluster once)", name);
            ok = false;
            continue;
        }
        cluster_info *c = &a->clusters[a->nclusters++];
        c->name = strdup(name);
        c->description = dup_or_null(table_text_named(t, r, "description"));
        c->interconnect = dup_or_null(table_text_named(t, r, "interconnect"));
        c->currency = dup_or_null(table_text_named(t, r, "currency"));
        c->nodes = table_number_named(t, r, "nodes");
        c->cores_per_node = table_number_named(t, r, "cores_per_node");
        c->mem_per_core_gb = table_number_named(t, r, "mem_per_core_gb");
        c->rate_per_core_hour = table_number_named(t, r, "rate_per_core_hour");
        c->mbw_read_gbs = table_number_named(t, r, "mbw_read_gbs");
        c->mbw_write_gbs = table_number_named(t, r, "mbw_write_gbs");
        c->mbw_core_gbs = table_number_named(t, r, "mbw_core_gbs");
        c->net_bw_gbs = table_number_named(t, r, "net_bw_gbs");
        c->platform_contribution = table_number_named(t, r, "platform_contribution");
        c->link_bw_gbs = number_or(t, r, "link_bw_gbs", "sim_uplink_bw_gbs");
        c->link_lat_us = number_or(t, r, "link_lat_us", "sim_uplink_lat_us");
        c->line = t->line[r];
    }
    free(path);
    return ok && a->nclusters > 0;
}

/* ------------------------------------------------------------------ */
/* Campaigns                                                           */

static const char *check_cluster_known(void *ctx, const char *column, const char *value)
{
    const archive *a = ctx;
    if ((strcmp(column, "cluster") == 0 || strcmp(column, "cluster_b") == 0) &&
        !archive_cluster(a, value))
        return "unknown cluster (not in clusters.csv)";
    if (strcmp(column, "engine") == 0)
        return run_engine_check(value);
    if (strcmp(column, "kind") == 0 && strcmp(value, "pingpong") != 0)
        return "unknown kind (expected pingpong, or empty for a run)";
    return NULL;
}

/* A ping-pong row gives the pair and the link, and no solve time. */
static const char *check_run_row(void *ctx, const table *t, size_t row, const char **column)
{
    (void)ctx;
    static const char *const needed[] = {"cluster_b", "link_lat_us", "link_bw_gbs"};
    if (!runs_row_is_pingpong(t, row))
        return NULL;
    for (size_t k = 0; k < sizeof needed / sizeof needed[0]; k++) {
        int c = table_find(t, needed[k]);
        bool empty = c < 0 || (t->cols[c].kind == COL_TEXT ? !t->cols[c].text[row]
                                                           : isnan(t->cols[c].num[row]));
        if (empty) {
            *column = c < 0 ? "kind" : needed[k];
            return c < 0 ? "a ping-pong row (kind=pingpong) needs the columns cluster_b, "
                           "link_lat_us and link_bw_gbs (mgbench --pingpong writes them)"
                         : "missing value for a ping-pong row (kind=pingpong needs cluster_b, "
                           "link_lat_us and link_bw_gbs)";
        }
    }
    if (!isnan(table_number_named(t, row, "time_s"))) {
        *column = "time_s";
        return "a ping-pong row (kind=pingpong) measures a link, not a run: expected time_s "
               "empty";
    }
    return NULL;
}

static void campaign_free(campaign *c)
{
    free(c->name);
    free(c->dir);
    table_free(&c->runs);
    for (size_t i = 0; i < c->nexperiments; i++) {
        experiment_info *e = &c->experiments[i];
        free(e->name);
        free(e->model);
        free(e->response);
        free(e->formula);
        free(e->train);
        free(e->target);
        free(e->title);
        free(e->options);
        free(e->problem);
    }
    free(c->experiments);
    free(c->readme);
    free(c->procs);
    memset(c, 0, sizeof *c);
}

static void fill_experiment(experiment_info *e, const table *t, size_t r)
{
    e->name = dup_or_null(table_text_named(t, r, "name"));
    e->model = dup_or_null(table_text_named(t, r, "model"));
    const char *response = table_text_named(t, r, "response");
    e->response = strdup(response ? response : EXPERIMENT_DEFAULT_RESPONSE);
    e->formula = dup_or_null(table_text_named(t, r, "formula"));
    e->train = dup_or_null(table_text_named(t, r, "train"));
    e->target = dup_or_null(table_text_named(t, r, "target"));
    e->title = dup_or_null(table_text_named(t, r, "title"));
    e->options = dup_or_null(table_text_named(t, r, "options"));
    e->line = t->line[r];
}

/* Problems d->items[first..] found in single rows of experiments.csv
 * (below the header line): each marks the experiment of its row, whose
 * first problem is kept as "experiments.csv:LINE:COL: message". Returns
 * how many there are; the others (the header, the file) are the
 * campaign's. */
static size_t mark_row_problems(campaign *c, const diag_list *d, size_t first, long header_line)
{
    size_t n = 0;
    for (size_t i = first; i < d->count; i++) {
        const diag *g = &d->items[i];
        if (g->line <= header_line)
            continue;
        n++;
        for (size_t k = 0; k < c->nexperiments; k++) {
            experiment_info *e = &c->experiments[k];
            if (e->line != g->line || e->problem)
                continue;
            size_t len = strlen(g->message) + 64;
            if ((e->problem = malloc(len)) != NULL)
                snprintf(e->problem, len, "experiments.csv:%ld:%ld: %s", g->line,
                         g->column > 0 ? g->column : 1, g->message);
        }
    }
    return n;
}

/* Load experiments.csv; returns how many of the problems found concern
 * single experiments (see mark_row_problems). */
static size_t load_experiments(const archive *a, campaign *c, const char *path, const char *display,
                               diag_list *d)
{
    csv_doc doc;
    table t;
    size_t before = d->count, in_rows = 0;
    schema s = {.file = display, .specs = experiment_columns, .allow_no_rows = true};
    table_init(&t);
    if (csv_read_file_inside(a->dir, path, display, &doc, d) && schema_load_table(&doc, &s, &t, d)) {
        c->experiments = t.nrows ? calloc(t.nrows, sizeof *c->experiments) : NULL;
        for (size_t r = 0; r < t.nrows && c->experiments; r++)
            fill_experiment(&c->experiments[c->nexperiments++], &t, r);
        experiment_locate_all(c->experiments, c->nexperiments, &doc);
        experiment_check_all(&c->runs, c->experiments, c->nexperiments, &doc, display, d);
        in_rows = mark_row_problems(c, d, before, doc.rows[0].line);
    }
    csv_doc_free(&doc);
    table_free(&t);
    return in_rows;
}

static bool load_campaign(const archive *a, const char *name, campaign *c, diag_list *d)
{
    memset(c, 0, sizeof *c);
    table_init(&c->runs);
    c->name = strdup(name);
    c->dir = fileio_join(a->dir, name);
    char *runs = fileio_join(c->dir, "runs.csv");
    char *exps = fileio_join(c->dir, "experiments.csv");
    char *readme = fileio_join(c->dir, "README.md");
    size_t before = d->count, in_rows = 0;
    campaign_settings settings = {0};
    column_spec *specs = NULL;
    if (c->name && c->dir && runs && exps && readme &&
        campaign_settings_load(a->dir, c->dir, run_columns, &settings, d) &&
        (specs = campaign_settings_run_columns(run_columns, &settings)) != NULL) {
        schema s = {.file = runs, .specs = specs, .allow_unknown = true,
                    .check_text = check_cluster_known, .check_row = check_run_row,
                    .check_ctx = (void *)a};
        bool runs_ok = load_csv(a->dir, runs, &s, &c->runs, d);
        c->procs = settings.procs; /* the campaign owns it now */
        settings.procs = NULL;
        struct stat st;
        if (stat(exps, &st) != 0)
            diag_add(d, exps, 0, 0, "missing experiments.csv (expected the campaign's experiments: "
                     "a header line 'name,model,response,formula,train,target,title,options')");
        else if (runs_ok)
            in_rows = load_experiments(a, c, exps, exps, d);
        campaign_mark_results(c);
        c->readme = read_text(a->dir, readme, readme, true, d);
        if (!c->readme && stat(readme, &st) != 0)
            diag_add(d, readme, 0, 0, "missing README.md (expected the campaign's description and source)");
    } else if (d->count == before) {
        diag_add(d, name, 0, 0, "out of memory");
    }
    campaign_settings_free(&settings);
    free(specs);
    free(runs);
    free(exps);
    free(readme);
    return d->count - before == in_rows;
}

bool archive_is_reserved_name(const char *name)
{
    static const char *const reserved[] = {"clusters.csv", "advice.csv", "acknowledgements.csv",
                                           "README.md"};
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (strcasecmp(name, reserved[i]) == 0)
            return true;
    return false;
}

static int compare_names(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Whether the entry name of dir is a campaign folder. A link to a folder
 * outside the archive is reported and left out: perfcast reads nothing
 * from outside the archive. */
static bool is_campaign_dir(const char *dir, const char *name, diag_list *d)
{
    char *path = fileio_join(dir, name);
    struct stat st;
    bool is_dir = path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    if (is_dir && !fileio_is_inside(dir, path)) {
        diag_add(d, path, 0, 0, "the campaign folder is a link to a folder outside the archive "
                 "(expected a folder inside the archive; copy it in instead of linking it)");
        is_dir = false;
    }
    free(path);
    return is_dir;
}

/* Sub-folders of dir, sorted byte-wise so every machine lists them alike. */
static char **list_campaigns(const char *dir, size_t *count, diag_list *d)
{
    *count = 0;
    DIR *h = opendir(dir);
    if (!h) {
        diag_add(d, dir, 0, 0, "cannot open the archive folder: %s", strerror(errno));
        return NULL;
    }
    char **names = NULL;
    size_t cap = 0;
    struct dirent *ent;
    while ((ent = readdir(h)) != NULL) {
        if (ent->d_name[0] == '.' || !is_campaign_dir(dir, ent->d_name, d))
            continue;
        if (*count == cap) {
            cap = cap ? cap * 2 : 16;
            char **more = realloc(names, cap * sizeof *names);
            if (!more)
                break;
            names = more;
        }
        if (!(names[*count] = strdup(ent->d_name)))
            break;
        (*count)++;
    }
    closedir(h);
    if (*count)
        qsort(names, *count, sizeof *names, compare_names);
    return names;
}

/* Campaigns read on several threads (gen/base/parallel.h): each into its
 * own slot with its own problems; the caller merges them in the names'
 * order. */
typedef struct {
    const archive *a;
    char **names;
    campaign *camps;
    diag_list *diags;
    bool *loaded;
} campaign_loader;

static void load_campaign_item(void *arg, size_t i)
{
    campaign_loader *l = arg;
    l->loaded[i] = load_campaign(l->a, l->names[i], &l->camps[i], &l->diags[i]);
}

/* Campaign i of names, its problems appended to d: kept in a->campaigns,
 * or freed and its name listed in a->skipped (names[i] is taken either
 * way). */
static void place_campaign(archive *a, char **names, size_t i, campaign *c, bool loaded)
{
    if (a->campaigns && loaded) {
        a->campaigns[a->ncampaigns++] = *c;
        free(names[i]);
    } else {
        campaign_free(c);
        if (a->skipped)
            a->skipped[a->nskipped++] = names[i];
        else
            free(names[i]);
    }
}

/* Every campaign of names on up to jobs threads; false (nothing done)
 * when the slots' memory cannot be had. */
static bool load_in_parallel(archive *a, char **names, size_t n, int jobs, diag_list *d)
{
    campaign_loader l = {.a = a, .names = names};
    l.camps = calloc(n, sizeof *l.camps);
    l.diags = calloc(n, sizeof *l.diags);
    l.loaded = calloc(n, sizeof *l.loaded);
    bool ok = l.camps && l.diags && l.loaded && a->campaigns;
    if (ok) {
        parallel_for(n, jobs, load_campaign_item, &l);
        for (size_t i = 0; i < n; i++) {
            diag_append(d, &l.diags[i]);
            place_campaign(a, names, i, &l.camps[i], l.loaded[i]);
        }
    }
    free(l.camps);
    free(l.diags);
    free(l.loaded);
    return ok;
}

bool archive_load(const char *dir, archive *a, diag_list *d)
{
    return archive_load_jobs(dir, a, d, 1);
}

bool archive_load_jobs(const char *dir, archive *a, diag_list *d, int jobs)
{
    memset(a, 0, sizeof *a);
    table_init(&a->cluster_table);
    a->dir = strdup(dir);
    if (!a->dir)
        return false;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        diag_add(d, dir, 0, 0, "not an archive folder (expected a folder with clusters.csv)");
        return false;
    }
    if (!load_clusters(a, d))
        return false;
    size_t n;
    char **names = list_campaigns(dir, &n, d);
    a->campaigns = n ? calloc(n, sizeof *a->campaigns) : NULL;
    a->skipped = n ? calloc(n, sizeof *a->skipped) : NULL;
    if (jobs < 2 || n < 2 || !load_in_parallel(a, names, n, jobs, d)) {
        for (size_t i = 0; i < n; i++) {
            campaign c = {0}; /* freed as it is when not loaded */
            bool loaded = a->campaigns && load_campaign(a, names[i], &c, d);
            place_campaign(a, names, i, &c, loaded);
        }
    }
    free(names);
    return true;
}

void archive_free(archive *a)
{
    for (size_t i = 0; i < a->nclusters; i++) {
        cluster_info *c = &a->clusters[i];
        free(c->name);
        free(c->description);
        free(c->interconnect);
        free(c->currency);
    }
    free(a->clusters);
    table_free(&a->cluster_table);
    for (size_t i = 0; i < a->ncampaigns; i++)
        campaign_free(&a->campaigns[i]);
    free(a->campaigns);
    for (size_t i = 0; i < a->nskipped; i++)
        free(a->skipped[i]);
    free(a->skipped);
    free(a->dir);
    memset(a, 0, sizeof *a);
}

const cluster_info *archive_cluster(const archive *a, const char *name)
{
    for (size_t i = 0; name && i < a->nclusters; i++)
        if (strcmp(a->clusters[i].name, name) == 0)
            return &a->clusters[i];
    return NULL;
}

bool archive_link_path(const cluster_info *a, const cluster_info *b, double *bw_bytes_s,
                       double *latency_s)
{
    bool known = isfinite(a->link_bw_gbs) && isfinite(b->link_bw_gbs) &&
                 isfinite(a->link_lat_us) && isfinite(b->link_lat_us);
    *bw_bytes_s = known ? fmin(a->link_bw_gbs, b->link_bw_gbs) * 1e9 : NAN;
    *latency_s = known ? (a->link_lat_us + b->link_lat_us) * 1e-6 : NAN;
    return known;
}

bool runs_row_is_pingpong(const table *runs, size_t row)
{
    const char *kind = table_text_named(runs, row, "kind");
    return kind && strcmp(kind, "pingpong") == 0;
}

/* Whether row of runs joins clusters a and b, in either order. */
bool runs_row_joins(const table *runs, size_t row, const char *a, const char *b)
{
    const char *x = table_text_named(runs, row, "cluster");
    const char *y = table_text_named(runs, row, "cluster_b");
    return x && y && ((strcmp(x, a) == 0 && strcmp(y, b) == 0) ||
                      (strcmp(x, b) == 0 && strcmp(y, a) == 0));
}

bool campaign_measured_link(const campaign *c, const char *a, const char *b, measured_link *out)
{
    const table *t = &c->runs;
    double lat = 0, per_byte = 0;
    memset(out, 0, sizeof *out);
    for (size_t r = 0; a && b && r < t->nrows; r++) {
        if (!runs_row_is_pingpong(t, r) || !runs_row_joins(t, r, a, b))
            continue;
        if (out->rows++ == 0)
            out->line = t->line[r];
        lat += table_number_named(t, r, "link_lat_us") * 1e-6;
        per_byte += 1 / (table_number_named(t, r, "link_bw_gbs") * 1e9);
    }
    if (out->rows == 0)
        return false;
    out->latency_s = lat / (double)out->rows;
    out->bw_bytes_s = (double)out->rows / per_byte;
    return true;
}

const campaign *archive_campaign(const archive *a, const char *name)
{
    for (size_t i = 0; name && i < a->ncampaigns; i++)
        if (strcmp(a->campaigns[i].name, name) == 0)
            return &a->campaigns[i];
    return NULL;
}

const experiment_info *campaign_experiment(const campaign *c, const char *name)
{
    for (size_t i = 0; name && i < c->nexperiments; i++)
        if (strcmp(c->experiments[i].name, name) == 0)
            return &c->experiments[i];
    return NULL;
}

const char *campaign_procs(const campaign *c)
{
    return c->procs ? c->procs : "np";
}

void campaign_mark_results(campaign *c)
{
    for (size_t i = 0; i < c->nexperiments; i++)
        if (c->experiments[i].response)
            campaign_mark_response(&c->runs, c->experiments[i].response);
}
