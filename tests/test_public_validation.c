/*
 * test_public_validation.c — issue 11's first acceptance item, on held-back
 * real public scaling data (tests/fixtures/public; sources, licences and the
 * measured table in the README there).
 *
 * Each data set is an Extra-P text file, imported as an archive campaign by
 * `perfcast import extrap`. The experiments import writes train on every
 * process count below the largest and predict the largest; the test clears
 * their formula, so the ScoPred term search chooses one per region, runs
 * `perfcast predict --format csv` for every region and scores each held-out
 * configuration against the mean of its repetitions. Those means come from
 * a small Extra-P reader written here, not from perfcast's importer or
 * archive reader; predict's own `measured` column must agree with them.
 *
 * Asserted (the issue's acceptance): the term search predicts every region
 * (a finite estimate for every held-out configuration); the calibrated 95%
 * prediction intervals cover at least 85% of the held-out measurements, per
 * data set and pooled. The issue's error target, median held-out |error|
 * "at or below 10% where it is today": where the term search of the day
 * the issue was filed predicted (issue_time_estimates.csv, written by the
 * script beside it from commit 408e032) the median was 12.68%, not 10%
 * (relearn's regions extrapolate with 10-20% errors, see the README), and
 * it stayed there or lower until issue 22's relative scale, which raised
 * it to 16.00% (reported in the README, asserted as measured). The
 * measured medians are asserted in tight bands, so that a regression fails
 * and an improvement must update the numbers here and in the README.
 *
 * A third real data set, MPI collective latencies (14 regions, 4 training
 * process counts each, np = 512 held out), was added after the first
 * validation; it is scored and asserted apart, not merged into pooled.
 *
 * A second held-out set validates the few-points family (3 to 5 training
 * configurations) on data its forward-fold variant was not designed on:
 * relearn cut into one-parameter slices (at each n, train np <= 256 and
 * predict np = 512; at each np, train n <= 8000 and predict n = 9000: 4
 * training configurations each) and Extra-P's synthetic strong-scaling test
 * file. Every split is scored twice, with the default leave-one-out
 * selection and with `selection=forward`; both sets of numbers are
 * asserted in bands, so the README's comparison stays true.
 */
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/base/csvread.h"
#include "gen/base/diag.h"

#define FIX "tests/fixtures/public"
#define MAX_PARAMS 2
#define MAX_COORDS 32
#define MAX_REGIONS 32
#define MAX_TARGETS 512

/* ------------------------------------------------------------------ */
/* An Extra-P text reader of its own (PARAMETER, POINTS "( a b )", REGION,
 * METRIC, DATA, # comments): the independent source of measured means.   */

typedef struct {
    char name[128];
    double mean[MAX_COORDS]; /* mean of the DATA line's repetitions */
} xp_region;

typedef struct {
    size_t nparams;
    double coord[MAX_COORDS][MAX_PARAMS];
    size_t ncoords;
    xp_region region[MAX_REGIONS];
    size_t nregions;
    size_t next_data; /* coordinate of the next DATA line in this region */
} xp_file;

static void xp_points(xp_file *f, const char *s)
{
    while ((s = strchr(s, '(')) != NULL) {
        CU_ASSERT_FATAL(f->ncoords < MAX_COORDS);
        char *end;
        s++;
        for (size_t k = 0; k < f->nparams; k++, s = end)
            f->coord[f->ncoords][k] = strtod(s, &end);
        f->ncoords++;
    }
}

static void xp_data(xp_file *f, const char *s)
{
    CU_ASSERT_FATAL(f->nregions > 0 && f->next_data < f->ncoords);
    double sum = 0;
    int n = 0;
    for (char *end;; s = end, n++) {
        double v = strtod(s, &end);
        if (end == s)
            break;
        sum += v;
    }
    CU_ASSERT_FATAL(n > 0);
    f->region[f->nregions - 1].mean[f->next_data++] = sum / n;
}

static void xp_read(const char *path, xp_file *f)
{
    memset(f, 0, sizeof *f);
    char *text = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        line += strspn(line, " \t");
        if (strncmp(line, "PARAMETER", 9) == 0)
            f->nparams++;
        else if (strncmp(line, "POINTS", 6) == 0)
            xp_points(f, line + 6);
        else if (strncmp(line, "REGION", 6) == 0) {
            CU_ASSERT_FATAL(f->nregions < MAX_REGIONS);
            xp_region *r = &f->region[f->nregions++];
            snprintf(r->name, sizeof r->name, "%s", line + 6 + strspn(line + 6, " \t"));
            f->next_data = 0;
        } else if (strncmp(line, "DATA", 4) == 0)
            xp_data(f, line + 4);
    }
    free(text);
    CU_ASSERT_FATAL(f->nparams >= 1 && f->nparams <= MAX_PARAMS);
}

/* ------------------------------------------------------------------ */
/* Scores                                                              */

typedef struct {
    const char *file;     /* fixture, under FIX */
    const char *campaign;
    const char *cluster;
    const char *params[MAX_PARAMS]; /* predict's column of each parameter */
} data_set;

typedef struct {
    size_t regions, predicted;    /* regions, those with every target estimated */
    size_t targets, inside;       /* held-out configurations; inside the calibrated PI */
    size_t nonpositive;           /* estimates <= 0: a time the model cannot mean */
    double abs_err[MAX_TARGETS];  /* |estimate - measured| / measured, percent */
    double width[MAX_TARGETS];    /* calibrated high / low, printed (issue 22: sharpness) */
    size_t nwidth, wide;          /* widths known; of them, wider than x/÷2 (high/low > 4) */
    bool beyond_stop[MAX_TARGETS]; /* per abs_err: beyond where its runs stopped gaining
                                      (its note, gen/fit/gain_stop.h) */
    bool covered[MAX_TARGETS];     /* per abs_err: inside the calibrated PI */
} tally;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(const double *v, size_t n)
{
    double s[MAX_TARGETS];
    memcpy(s, v, n * sizeof *v);
    qsort(s, n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static double max_of(const double *v, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

/* Column index of name in the header row, -1 when absent. */
static int column(const csv_doc *doc, const char *name)
{
    for (size_t c = 0; c < doc->rows[0].nfields; c++)
        if (strcmp(doc->rows[0].fields[c].text, name) == 0)
            return (int)c;
    return -1;
}

static double number(const csv_row *row, int c)
{
    if (c < 0 || (size_t)c >= row->nfields || row->fields[c].text[0] == '\0')
        return NAN;
    return atof(row->fields[c].text);
}

/* The coordinate of the fixture a predicted row stands for, -1 if none. */
static int coordinate_of(const xp_file *f, const data_set *d, const csv_doc *doc,
                         const csv_row *row)
{
    for (size_t i = 0; i < f->ncoords; i++) {
        bool same = true;
        for (size_t k = 0; k < f->nparams; k++)
            same &= number(row, column(doc, d->params[k])) == f->coord[i][k];
        if (same)
            return (int)i;
    }
    return -1;
}

/* Score one region's predict output into t; the region counts as
 * predicted when each of its want held-out configurations has a finite
 * estimate. */
static void score_region(const xp_file *f, const xp_region *r, const data_set *d,
                         const csv_doc *doc, size_t want, tally *t)
{
    int est = column(doc, "estimate"), meas = column(doc, "measured");
    int lo = column(doc, "cal_pi_low"), hi = column(doc, "cal_pi_high");
    int note = column(doc, "note");
    CU_ASSERT_FATAL(est >= 0 && meas >= 0 && lo >= 0 && hi >= 0 && note >= 0);
    size_t estimated = 0;
    CU_ASSERT_EQUAL(doc->nrows - 1, want);
    for (size_t i = 1; i < doc->nrows; i++) {
        const csv_row *row = &doc->rows[i];
        int c = coordinate_of(f, d, doc, row);
        CU_ASSERT_FATAL(c >= 0);
        double m = r->mean[c], e = number(row, est);
        /* predict's measured value is the fixture's mean (6 digits printed) */
        CU_ASSERT(testutil_rel_diff(number(row, meas), m) < 1e-6);
        CU_ASSERT_FATAL(t->targets < MAX_TARGETS);
        const char *why = (size_t)note < row->nfields ? row->fields[note].text : "";
        t->beyond_stop[t->targets] = strstr(why, "beyond where the runs stopped gaining") != NULL;
        t->abs_err[t->targets++] = 100 * fabs(e - m) / m;
        estimated += isfinite(e);
        t->nonpositive += !(e > 0);
        /* An estimate <= 0 has no calibrated interval: a miss. */
        t->covered[t->targets - 1] = number(row, lo) <= m && m <= number(row, hi);
        t->inside += t->covered[t->targets - 1];
        double w = number(row, hi) / number(row, lo);
        if (isfinite(w) && w > 0)
            t->width[t->nwidth++] = w, t->wide += w > 4;
    }
    t->regions++;
    t->predicted += estimated == want && estimated > 0;
}

/* ------------------------------------------------------------------ */
/* The term search of the day issue 11 was filed                        */

/* issue_time_estimates.csv: what commit 408e032's term search predicted
 * on these data (written by issue_time_estimates.sh beside it, which
 * builds that commit), one row per held-out configuration it predicted;
 * the regions it refused have none. */
#define MAX_PINS 64

typedef struct {
    char data_set[16], experiment[160];
    double np, n; /* n is NAN for one-parameter data sets */
    double estimate;
    bool seen;
} pin;

typedef struct {
    pin p[MAX_PINS];
    size_t n;
    tally then, now; /* |error| of its estimates and of today's, same targets */
} issue_time;

static void issue_time_read(issue_time *t)
{
    const char *path = FIX "/issue_time_estimates.csv";
    char *text = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    csv_doc doc;
    diag_list diags;
    diag_init(&diags);
    CU_ASSERT_TRUE_FATAL(csv_parse_buffer(text, strlen(text), path, &doc, &diags));
    int ds = column(&doc, "data_set"), ex = column(&doc, "experiment");
    int np = column(&doc, "np"), n = column(&doc, "n"), est = column(&doc, "estimate");
    CU_ASSERT_FATAL(ds >= 0 && ex >= 0 && np >= 0 && n >= 0 && est >= 0);
    CU_ASSERT_FATAL(doc.nrows - 1 <= MAX_PINS);
    memset(t, 0, sizeof *t);
    for (size_t i = 1; i < doc.nrows; i++, t->n++) {
        const csv_row *row = &doc.rows[i];
        pin *p = &t->p[t->n];
        snprintf(p->data_set, sizeof p->data_set, "%s", row->fields[ds].text);
        snprintf(p->experiment, sizeof p->experiment, "%s", row->fields[ex].text);
        p->np = number(row, np);
        p->n = number(row, n);
        p->estimate = number(row, est);
    }
    csv_doc_free(&doc);
    diag_free(&diags);
    free(text);
}

/* The pin of a predicted configuration, NULL when the old search had none. */
static pin *issue_time_find(issue_time *t, const char *campaign, const char *experiment,
                            double np, double n)
{
    for (size_t i = 0; i < t->n; i++) {
        pin *p = &t->p[i];
        bool same_n = isnan(p->n) ? isnan(n) : p->n == n;
        if (strcmp(p->data_set, campaign) == 0 && strcmp(p->experiment, experiment) == 0 &&
            p->np == np && same_n)
            return p;
    }
    return NULL;
}

/* Today's predict output for one experiment against the issue-time
 * estimates: where that search predicted, both errors are tallied. Until
 * issue 22's relative scale (item 2) today's estimates there were the
 * issue-time ones but for two laws changed on purpose (sequential
 * replacement and product splits: Create_synapses, Update_local_trees);
 * the relative scale changes every searched fit, so only the errors are
 * compared now. */
static void issue_time_check(issue_time *t, const char *campaign, const char *experiment,
                             const xp_file *f, const xp_region *r, const data_set *d,
                             const csv_doc *doc)
{
    int est = column(doc, "estimate"), np = column(doc, d->params[0]);
    int n = d->params[1] ? column(doc, d->params[1]) : -1;
    for (size_t i = 1; i < doc->nrows; i++) {
        const csv_row *row = &doc->rows[i];
        pin *p = issue_time_find(t, campaign, experiment, number(row, np), number(row, n));
        if (p == NULL)
            continue;
        double m = r->mean[coordinate_of(f, d, doc, row)], e = number(row, est);
        CU_ASSERT_FATAL(t->then.targets < MAX_TARGETS);
        t->then.abs_err[t->then.targets++] = 100 * fabs(p->estimate - m) / m;
        t->now.abs_err[t->now.targets++] = 100 * fabs(e - m) / m;
        p->seen = true;
    }
}

/* ------------------------------------------------------------------ */
/* Experiments                                                         */

/* One experiment to write: import's region (its name and response), the
 * split, and the options. */
typedef struct {
    char name[160], response[160], train[96], target[96], options[64];
    size_t region;    /* index into the fixture's regions */
    size_t held_out;  /* configurations the target selects */
    tally *into;
} experiment;

typedef struct {
    experiment e[MAX_REGIONS * 11];
    size_t n;
    issue_time *then; /* check against the issue-time estimates; NULL: do not */
} experiment_list;

/* Import's experiments (names and responses, in region order) for a
 * campaign: names[r] and responses[r]. Returns how many. */
static size_t imported_regions(const char *archive, const char *campaign,
                               char names[][160], char responses[][160])
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/experiments.csv", archive, campaign);
    csv_doc doc;
    diag_list diags;
    diag_init(&diags);
    char *text = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_TRUE_FATAL(csv_parse_buffer(text, strlen(text), path, &doc, &diags));
    int response = column(&doc, "response");
    CU_ASSERT_FATAL(response >= 0);
    /* Import adds one default experiment per response and per value of
     * the other parameters (relearn's n): a region is a response, named as
     * import names a one-group experiment (the names the issue-time
     * estimates were recorded under). */
    size_t n = 0;
    for (size_t i = 1; i < doc.nrows; i++) {
        const char *r = doc.rows[i].fields[response].text;
        bool seen = false;
        for (size_t k = 0; k < n && !seen; k++)
            seen = strcmp(responses[k], r) == 0;
        if (seen)
            continue;
        CU_ASSERT_FATAL(n < MAX_REGIONS);
        snprintf(responses[n], 160, "%s", r);
        if (strcmp(r, "time_s") == 0)
            snprintf(names[n], 160, "scaling");
        else
            snprintf(names[n], 160, "scaling-%s", r);
        n++;
    }
    csv_doc_free(&doc);
    diag_free(&diags);
    free(text);
    return n;
}

static void add_experiment(experiment_list *l, const char *name, const char *suffix,
                           const char *response, size_t region, size_t held_out, tally *into,
                           const char *options, const char *train, const char *target)
{
    CU_ASSERT_FATAL(l->n < sizeof l->e / sizeof l->e[0]);
    experiment *e = &l->e[l->n++];
    snprintf(e->name, sizeof e->name, "%s%s", name, suffix);
    snprintf(e->response, sizeof e->response, "%s", response);
    snprintf(e->options, sizeof e->options, "%s", options);
    snprintf(e->train, sizeof e->train, "%s", train);
    snprintf(e->target, sizeof e->target, "%s", target);
    e->region = region;
    e->held_out = held_out;
    e->into = into;
}

/* Write l as the campaign's experiments.csv: an empty formula, so the
 * term search chooses one for each. */
static void write_experiments(const char *archive, const char *campaign,
                              const experiment_list *l)
{
    size_t cap = 512 * (l->n + 1);
    char *text = malloc(cap), path[1024];
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    size_t len = (size_t)snprintf(text, cap, "name,model,response,formula,train,target,title,options\n");
    for (size_t i = 0; i < l->n; i++) {
        const experiment *e = &l->e[i];
        len += (size_t)snprintf(text + len, cap - len, "%s,scopred,%s,,%s,%s,%s,%s\n", e->name,
                                e->response, e->train, e->target, e->name, e->options);
        CU_ASSERT_FATAL(len < cap);
    }
    snprintf(path, sizeof path, "%s/%s/experiments.csv", archive, campaign);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, text));
    free(text);
}

/* Predict every experiment of l and score it against f. */
static void predict_all(const char *archive, const char *campaign, const xp_file *f,
                        const data_set *d, const experiment_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        const experiment *e = &l->e[i];
        char *out = NULL;
        int rc = testutil_perfcast_run(&out, "predict --archive %s --format csv %s %s", archive,
                                       campaign, e->name);
        if (rc != 0)
            fprintf(stderr, "\n%s/%s: %s\n", campaign, e->name, out ? out : "");
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        if (rc == 0) {
            csv_doc doc;
            diag_list diags;
            diag_init(&diags);
            CU_ASSERT_TRUE_FATAL(csv_parse_buffer(out, strlen(out), "predict", &doc, &diags));
            score_region(f, &f->region[e->region], d, &doc, e->held_out, e->into);
            if (l->then)
                issue_time_check(l->then, campaign, e->name, f, &f->region[e->region], d, &doc);
            csv_doc_free(&doc);
            diag_free(&diags);
        } else {
            e->into->regions++;
        }
        free(out);
    }
}

/* ------------------------------------------------------------------ */
/* The data sets                                                       */

static const data_set relearn = {"relearn.txt", "relearn", "relearn-cluster", {"np", "n"}};
static const data_set lulesh = {"lulesh.txt", "lulesh", "opal", {"np", NULL}};
static const data_set strong = {"extrap_strong_scaling.txt", "strong", "synthetic",
                                {"np", NULL}};
static const data_set mpi = {"mpi_collectives.txt", "mpi", "extrap-mpi", {"np", NULL}};

/* The scores of one selection criterion (archive option `selection`). */
typedef struct {
    tally relearn, lulesh, pooled; /* the original split: largest np held out */
    tally p_slices;   /* relearn at one n: train np <= 256, predict np = 512 */
    tally n_slices;   /* relearn at one np: train n <= 8000, predict n = 9000 */
    tally strong;     /* Extra-P's synthetic strong scaling, largest p held out */
    tally mpi;        /* MPI collectives (real), np = 512 held out; added after
                         the first validation, so scored apart from pooled */
} scores;

/* Import data set d into archive and read its fixture into f; the region
 * names and responses import gave into names and responses. */
static size_t import_data_set(const char *archive, const data_set *d, xp_file *f,
                              char names[][160], char responses[][160])
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FIX, d->file);
    xp_read(path, f);
    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "import extrap %s --archive %s --campaign %s --cluster %s",
                                   path, archive, d->campaign, d->cluster);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(out);
    size_t n = imported_regions(archive, d->campaign, names, responses);
    CU_ASSERT_EQUAL_FATAL(n, f->nregions);
    return n;
}

/* The original split: every region, the largest np held out (every
 * configuration at it: one for a one-parameter set, one per value of the
 * second parameter otherwise). */
static void score_largest_np(const char *archive, const data_set *d, const char *options,
                             tally *t, issue_time *then)
{
    static xp_file f;
    static char names[MAX_REGIONS][160], responses[MAX_REGIONS][160];
    size_t n = import_data_set(archive, d, &f, names, responses);
    double top = 0;
    size_t held = 0;
    for (size_t i = 0; i < f.ncoords; i++)
        top = fmax(top, f.coord[i][0]);
    for (size_t i = 0; i < f.ncoords; i++)
        held += f.coord[i][0] == top;
    char train[96], target[96];
    snprintf(train, sizeof train, "np < %g", top);
    snprintf(target, sizeof target, "np == %g", top);
    static experiment_list l;
    l.n = 0;
    l.then = then;
    for (size_t r = 0; r < n; r++)
        add_experiment(&l, names[r], "", responses[r], r, held, t, options, train, target);
    write_experiments(archive, d->campaign, &l);
    predict_all(archive, d->campaign, &f, d, &l);
}

/* relearn: the original split (np = 512 held out, 5 configurations) and
 * its one-parameter slices, each with 4 training configurations: the few-
 * points family at work on real data it was not designed on. */
static void score_relearn(const char *archive, const char *options, scores *s,
                          issue_time *then)
{
    static xp_file f;
    static char names[MAX_REGIONS][160], responses[MAX_REGIONS][160];
    size_t n = import_data_set(archive, &relearn, &f, names, responses);
    static experiment_list l;
    l.n = 0;
    l.then = then;
    char with_params[64], suffix[16], train[96], target[96];
    for (size_t r = 0; r < n; r++)
        add_experiment(&l, names[r], "", responses[r], r, 5, &s->relearn, options, "np < 512",
                       "np == 512");
    for (size_t r = 0; r < n; r++)
        for (int nv = 5000; nv <= 9000; nv += 1000) {
            snprintf(suffix, sizeof suffix, "-n%d", nv);
            snprintf(train, sizeof train, "n == %d && np < 512", nv);
            snprintf(target, sizeof target, "n == %d && np == 512", nv);
            snprintf(with_params, sizeof with_params, "%s%sparams=np", options,
                     *options ? ";" : "");
            add_experiment(&l, names[r], suffix, responses[r], r, 1, &s->p_slices, with_params,
                           train, target);
        }
    for (size_t r = 0; r < n; r++)
        for (int np = 32; np <= 512; np *= 2) {
            snprintf(suffix, sizeof suffix, "-p%d", np);
            snprintf(train, sizeof train, "np == %d && n < 9000", np);
            snprintf(target, sizeof target, "np == %d && n == 9000", np);
            snprintf(with_params, sizeof with_params, "%s%sparams=n", options,
                     *options ? ";" : "");
            add_experiment(&l, names[r], suffix, responses[r], r, 1, &s->n_slices, with_params,
                           train, target);
        }
    write_experiments(archive, relearn.campaign, &l);
    predict_all(archive, relearn.campaign, &f, &relearn, &l);
}

static void print_row(const char *what, const tally *t)
{
    printf("\n  %-9s regions %2zu, predicted %2zu; held-out %3zu, calibrated PI covers %3zu "
           "(%.1f%%); |error| median %.2f%%, max %.1f%%; %zu estimate(s) <= 0; "
           "PI width median x%.2f, %zu of %zu wider than x/÷2",
           what, t->regions, t->predicted, t->targets, t->inside,
           100.0 * (double)t->inside / (double)t->targets, median_of(t->abs_err, t->targets),
           max_of(t->abs_err, t->targets), t->nonpositive,
           t->nwidth ? median_of(t->width, t->nwidth) : NAN,
           t->wide, t->nwidth);
}

static void merge(tally *into, const tally *t)
{
    into->regions += t->regions;
    into->predicted += t->predicted;
    into->inside += t->inside;
    into->nonpositive += t->nonpositive;
    /* A pool that outgrew the arrays would give medians of a part of it. */
    CU_ASSERT_FATAL(into->targets + t->targets <= MAX_TARGETS);
    CU_ASSERT_FATAL(into->nwidth + t->nwidth <= MAX_TARGETS);
    for (size_t i = 0; i < t->targets; i++) {
        into->beyond_stop[into->targets] = t->beyond_stop[i];
        into->covered[into->targets] = t->covered[i];
        into->abs_err[into->targets++] = t->abs_err[i];
    }
    into->wide += t->wide;
    for (size_t i = 0; i < t->nwidth; i++)
        into->width[into->nwidth++] = t->width[i];
}

/* Every data set and split under one archive option string; then, when
 * not NULL, checks the original splits against the issue-time estimates. */
static void evaluate(const char *options, scores *s, issue_time *then)
{
    char dir[256], archive[512], path[600];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    snprintf(archive, sizeof archive, "%s/a", dir);
    snprintf(path, sizeof path, "%s/clusters.csv", archive);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, "cluster\n"));
    memset(s, 0, sizeof *s);
    score_relearn(archive, options, s, then);
    score_largest_np(archive, &lulesh, options, &s->lulesh, then);
    score_largest_np(archive, &strong, options, &s->strong, NULL);
    score_largest_np(archive, &mpi, options, &s->mpi, then);
    merge(&s->pooled, &s->relearn);
    merge(&s->pooled, &s->lulesh);
    printf("\n options '%s':", options);
    print_row("relearn", &s->relearn);
    print_row("lulesh", &s->lulesh);
    print_row("pooled", &s->pooled);
    print_row("p-slices", &s->p_slices);
    print_row("n-slices", &s->n_slices);
    print_row("strong", &s->strong);
    print_row("mpi", &s->mpi);
    printf("\n");
    testutil_remove_dir(dir);
}

static double median_error(const tally *t)
{
    return median_of(t->abs_err, t->targets);
}

static double coverage(const tally *t)
{
    return (double)t->inside / (double)t->targets;
}

/* The measured medians (percent) and the half-width of the band asserted
 * around them; see the header comment and the README's tables. */
/* Issue 22 items 2 and 3 (the relative scale and the average of laws)
 * moved them, the medians mostly up: relearn 10.86 -> 16.03, LULESH
 * 4.33 -> 3.52, pooled 10.79 -> 16.02, p-slices 6.36 -> 17.88, n-slices
 * 1.52 -> 1.66, MPI 8.33 -> 9.75 (README of tests/fixtures/public). */
/* The free power law (models/termsearch.h, FREE POWER LAW) moved relearn's
 * 16.03 -> 16.61: 9 of its 10 changed targets err less (Allgather +77.6%
 * -> +60.8% ...), one crosses the median (Insert branch nodes n = 6000,
 * -14.8% -> -17.3%); every other median here stays. */
#define RELEARN_MEDIAN 16.61 /* 13.25 before issue 22, 10.86 before its items 2-3 */
/* The trend bound (models/trendbound.h, the default since rounds 7 and 8
 * chose it) moved LULESH 3.52 -> 2.88 (its largest error 68.3% -> 45.3%)
 * and MPI 9.75 -> 8.34 (forward folds 14.37 -> 11.70, LULESH 2.95 -> 2.58);
 * relearn and the slices did not move. */
#define LULESH_MEDIAN 2.88
#define POOLED_MEDIAN 16.02 /* 12.68 before issue 22, 10.79 before its items 2-3 */
#define LULESH_LOO_MAX 45.3
#define MEDIAN_BAND 0.5
/* The slices' medians (55 targets each) are asserted more tightly: the
 * two criteria differ there by half a percentage point. */
#define SLICE_BAND 0.2
#define P_SLICES_LOO_MEDIAN 17.88
#define N_SLICES_LOO_MEDIAN 1.66
#define LULESH_FORWARD_MAX 39.7
#define LULESH_FORWARD_MEDIAN 2.58
/* 16.03 before the free power law, which moved it as RELEARN_MEDIAN (above):
 * relearn's searched regions weigh it by leave-one-out either way. */
#define RELEARN_FORWARD_MEDIAN 16.61 /* 12.70 before issue 22, 10.80 before items 2-3 */
#define P_SLICES_FORWARD_MEDIAN 14.06
#define N_SLICES_FORWARD_MEDIAN 1.83
/* The issue-time term search's median |error| on the 52 targets it
 * predicted (relearn 50, MPI collectives 2), and today's on them. */
#define ISSUE_TIME_MEDIAN 12.68
#define ISSUE_TIME_TODAY_MEDIAN 16.00 /* 10.79 before issue 22 items 2-3 */
/* MPI collectives (14 regions, one held-out np = 512 each): every region
 * uses the few-points family; the two selections gave the same value
 * (8.33) until the average of laws, which weighs each family's laws by
 * its own criterion. */
#define MPI_MEDIAN 8.34
#define MPI_FORWARD_MEDIAN 11.70

/* Leave-one-out selection, the default. */
static void test_public_data(void)
{
    static scores s;
    static issue_time then;
    issue_time_read(&then);
    evaluate("", &s, &then);
    const tally *r = &s.relearn, *l = &s.lulesh, *all = &s.pooled;

    /* Every region predicted: 11 relearn regions, 18 LULESH functions. */
    CU_ASSERT_EQUAL(r->regions, 11);
    CU_ASSERT_EQUAL(l->regions, 18);
    CU_ASSERT_EQUAL(r->predicted, r->regions);
    CU_ASSERT_EQUAL(l->predicted, l->regions);
    CU_ASSERT_EQUAL(r->targets, 55); /* 5 n at p = 512 per region */
    CU_ASSERT_EQUAL(l->targets, 18); /* p = 343 per function */
    /* No estimate is zero or less: the few-points family refuses a law
     * that predicts a negative time at a target (CalcQForElems got one,
     * -148%, before it did; see the README). Its error is now -44.4%, and
     * LULESH's largest is LagrangeElements' -72.0%. */
    CU_ASSERT_EQUAL(all->nonpositive, 0);
    CU_ASSERT_DOUBLE_EQUAL(max_of(l->abs_err, l->targets), LULESH_LOO_MAX, 1.0);

    /* Calibrated 95% PIs cover at least 85%, per data set and pooled. */
    CU_ASSERT(coverage(r) >= 0.85);
    CU_ASSERT(coverage(l) >= 0.85);
    CU_ASSERT(coverage(all) >= 0.85);

    /* Median |error|: the measured values, in a tight band. */
    CU_ASSERT_DOUBLE_EQUAL(median_error(r), RELEARN_MEDIAN, MEDIAN_BAND);
    CU_ASSERT_DOUBLE_EQUAL(median_error(l), LULESH_MEDIAN, MEDIAN_BAND);
    CU_ASSERT_DOUBLE_EQUAL(median_error(all), POOLED_MEDIAN, MEDIAN_BAND);

    /* The held-out slices: 55 each, all predicted (README's second table). */
    CU_ASSERT_EQUAL(s.p_slices.targets, 55);
    CU_ASSERT_EQUAL(s.n_slices.targets, 55);
    CU_ASSERT_EQUAL(s.p_slices.predicted, 55);
    CU_ASSERT_EQUAL(s.n_slices.predicted, 55);
    CU_ASSERT_EQUAL(s.strong.predicted, 4);
    CU_ASSERT(coverage(&s.p_slices) >= 0.85);
    CU_ASSERT(coverage(&s.n_slices) >= 0.85);
    CU_ASSERT_DOUBLE_EQUAL(median_error(&s.p_slices), P_SLICES_LOO_MEDIAN, SLICE_BAND);
    CU_ASSERT_DOUBLE_EQUAL(median_error(&s.n_slices), N_SLICES_LOO_MEDIAN, SLICE_BAND);

    /* MPI collectives, a third real data set added after the first
     * validation: every region predicted, scored apart from pooled. */
    CU_ASSERT_EQUAL(s.mpi.regions, 14);
    CU_ASSERT_EQUAL(s.mpi.predicted, 14);
    CU_ASSERT_EQUAL(s.mpi.targets, 14);
    CU_ASSERT(coverage(&s.mpi) >= 0.85);
    CU_ASSERT_DOUBLE_EQUAL(median_error(&s.mpi), MPI_MEDIAN, MEDIAN_BAND);

    /* Where the issue-time search predicted (12 regions: relearn 10, MPI
     * collectives 2, LULESH none), the median error was no worse (12.68%
     * then, 10.79% before issue 22's items 2 and 3) and every estimate
     * unchanged but those changed on purpose. The relative scale (item 2)
     * changes every searched fit, and there the median is now worse:
     * 16.00% against 12.68%, relearn's growing times extrapolated from
     * fits that no longer favour the largest trained times (README of
     * tests/fixtures/public). Issue 11's "no worse" no longer holds on
     * these targets: it is reported, and the measured value asserted, not
     * the old bound. The other 31 regions are predicted as well. */
    printf("  issue-time estimates: %zu held-out targets, |error| median %.2f%% (today on the "
           "same targets %.2f%%), max %.1f%%\n",
           then.then.targets, median_error(&then.then), median_error(&then.now),
           max_of(then.then.abs_err, then.then.targets));
    CU_ASSERT_EQUAL(then.n, 52);
    for (size_t i = 0; i < then.n; i++)
        CU_ASSERT(then.p[i].seen);
    CU_ASSERT_EQUAL(then.now.targets, then.n);
    CU_ASSERT_DOUBLE_EQUAL(median_error(&then.now), ISSUE_TIME_TODAY_MEDIAN, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(median_error(&then.then), ISSUE_TIME_MEDIAN, 0.01);
}

/* Forward-fold selection (option selection=forward), measured on the
 * same data: it must still predict everything with covering intervals;
 * its numbers are asserted in bands so that the README's comparison stays
 * true. */
static void test_forward_selection(void)
{
    static scores s;
    evaluate("selection=forward", &s, NULL);
    CU_ASSERT_EQUAL(s.pooled.predicted, 29);
    CU_ASSERT_EQUAL(s.p_slices.predicted, 55);
    CU_ASSERT_EQUAL(s.n_slices.predicted, 55);
    CU_ASSERT_EQUAL(s.strong.predicted, 4);
    CU_ASSERT_EQUAL(s.pooled.nonpositive, 0); /* CalcQForElems no longer < 0 */
    CU_ASSERT(coverage(&s.pooled) >= 0.85);
    CU_ASSERT(coverage(&s.p_slices) >= 0.85);
    CU_ASSERT(coverage(&s.n_slices) >= 0.85);
    CU_ASSERT_DOUBLE_EQUAL(max_of(s.lulesh.abs_err, s.lulesh.targets), LULESH_FORWARD_MAX, 1.0);
    CU_ASSERT_DOUBLE_EQUAL(median_error(&s.lulesh), LULESH_FORWARD_MEDIAN, MEDIAN_BAND);
    CU_ASSERT_DOUBLE_EQUAL(median_error(&s.relearn), RELEARN_FORWARD_MEDIAN, MEDIAN_BAND);
    CU_ASSERT_DOUBLE_EQUAL(median_error(&s.p_slices), P_SLICES_FORWARD_MEDIAN, SLICE_BAND);
    CU_ASSERT_DOUBLE_EQUAL(median_error(&s.n_slices), N_SLICES_FORWARD_MEDIAN, SLICE_BAND);
    CU_ASSERT_EQUAL(s.mpi.predicted, 14);
    CU_ASSERT(coverage(&s.mpi) >= 0.85);
    CU_ASSERT_DOUBLE_EQUAL(median_error(&s.mpi), MPI_FORWARD_MEDIAN, MEDIAN_BAND);
}

/* ------------------------------------------------------------------ */
/* The sets held back while issue 22's methods were designed            */

/* tests/fixtures/public/heldout/README.md: five sets collected on
 * 2026-11-26 by a session that designed nothing, kept out of every work
 * tree until the relative scale, the averaged laws and the pooled error
 * model were fixed, then scored once by heldout/eval_public.sh (its own
 * reader, in Python) under the protocol written before: each set in an
 * archive of its own, train below the largest p, predict every point at
 * it. Issue 22's acceptance asks median |error| <= 12%, below Extra-P's
 * (33.01% on these splits), coverage 88-97% and median width <= 2.5; the
 * one scoring gave 19.09%, 99.0% and x5.15 (coverage and width now
 * 94.4% and x4.25, below). Those are asserted as measured, not as the acceptance, and the test's own reader must find
 * the script's numbers: two implementations of one protocol. */
static const data_set heldout_sets[] = {
    {"heldout/lulesh_size.txt", "lulesh-size", "quartz", {"np", "s"}},
    {"heldout/lulesh_strong.txt", "lulesh-strong", "quartz", {"np", NULL}},
    {"heldout/sort_bitonic.txt", "sort-bitonic", "tamu", {"np", NULL}},
    {"heldout/sort_merge.txt", "sort-merge", "tamu", {"np", NULL}},
    {"heldout/sort_sample.txt", "sort-sample", "tamu", {"np", NULL}},
};
enum { NHELDOUT = sizeof heldout_sets / sizeof heldout_sets[0] };

/* Regions and held-out configurations per set, and eval_public.sh's
 * median |error| (percent) per set and pooled, as it printed them. */
static const size_t heldout_regions[NHELDOUT] = {28, 28, 10, 6, 11};
static const size_t heldout_targets[NHELDOUT] = {140, 28, 10, 6, 11};
/* With the trend bound (since rounds 7 and 8 chose it): 13.22% pooled;
 * before it {16.27, 32.85, 71.26, 68.21, 5.30} and 19.09% as scored. */
static const double heldout_median[NHELDOUT] = {11.93, 17.96, 71.26, 48.59, 37.68};
#define HELDOUT_POOLED_MEDIAN 13.22
/* Coverage and median width (high/low) of the calibrated 95% PI: 193 of
 * 195 (99.0%) and x5.15 when scored once; with the shipped error prior and
 * robust scales (gen/fit/error_prior.h, issue 22 items 4 and 7) 185 (94.9%)
 * and x4.46; with errors per unit of the runs' roughness
 * (models/calibrate.h, calibrate_roughness_unit) and the second round in
 * the prior, 184 (94.4%) and x4.25; with the own scale of the nearest
 * refits (models/calibrate.h, NEAREST REFITS), 190 (97.4%) and x3.62;
 * with the trend bound (models/trendbound.h), 194 (99.5%) and x2.81.
 * That prior holds these sets' own
 * backtests (never their targets); left out of it one set at a time, the
 * same scoring gives the numbers of README's "Calibration". */
#define HELDOUT_POOLED_COVERED 194
#define HELDOUT_POOLED_WIDTH 2.81

/* What one round of held-back sets must give again, as eval_public.sh
 * printed it when the round was scored once. */
typedef struct {
    const data_set *sets;
    size_t nsets;
    const size_t *regions;     /* per set: regions, all predicted */
    const size_t *targets;     /* per set: configurations at the largest p */
    const double *median;      /* per set: median |error|, percent */
    double pooled_median;
    size_t pooled_covered;     /* targets inside the calibrated 95% PI */
    double pooled_width;       /* median high/low */
} heldout_round;

/* Score round r; its targets are also merged into *rounds when given (a
 * pool over several rounds). */
static void score_round_into(const heldout_round *r, tally *rounds)
{
    tally t, pooled;
    memset(&pooled, 0, sizeof pooled);
    for (size_t i = 0; i < r->nsets; i++) {
        char dir[256], archive[512], path[600];
        CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
        snprintf(archive, sizeof archive, "%s/a", dir);
        snprintf(path, sizeof path, "%s/clusters.csv", archive);
        CU_ASSERT_TRUE_FATAL(testutil_write_file(path, "cluster\n"));
        memset(&t, 0, sizeof t);
        score_largest_np(archive, &r->sets[i], "", &t, NULL);
        testutil_remove_dir(dir);
        print_row(r->sets[i].campaign, &t);
        merge(&pooled, &t);
        /* Every region predicted, every target at the largest p scored. */
        CU_ASSERT_EQUAL(t.regions, r->regions[i]);
        CU_ASSERT_EQUAL(t.predicted, r->regions[i]);
        CU_ASSERT_EQUAL(t.targets, r->targets[i]);
        CU_ASSERT_DOUBLE_EQUAL(median_error(&t), r->median[i], 0.01);
    }
    print_row("held-back", &pooled);
    printf("\n");
    CU_ASSERT_DOUBLE_EQUAL(median_error(&pooled), r->pooled_median, 0.01);
    CU_ASSERT_EQUAL(pooled.inside, r->pooled_covered);
    CU_ASSERT_DOUBLE_EQUAL(median_of(pooled.width, pooled.nwidth), r->pooled_width, 0.005);
    if (rounds)
        merge(rounds, &pooled);
}

/* Rounds 1-6 pooled as their tests score them (test_design_stop_split
 * reads it after the sixth). */
static tally design_rounds;
static size_t design_rounds_scored;

static void score_heldout_round(const heldout_round *r)
{
    score_round_into(r, &design_rounds);
    design_rounds_scored++;
}

static void test_heldout_sets(void)
{
    static const heldout_round first = {heldout_sets, NHELDOUT, heldout_regions, heldout_targets,
                                        heldout_median, HELDOUT_POOLED_MEDIAN,
                                        HELDOUT_POOLED_COVERED, HELDOUT_POOLED_WIDTH};
    score_heldout_round(&first);
}

/* tests/fixtures/public/heldout2/README.md: the second round, six
 * student MPI sorts (one run per p) collected by a session that designed
 * nothing, kept outside every work tree until the methods of commit
 * bc52237 (relative scale, averaged laws, the free power law, the pool,
 * the shipped error prior) were fixed, then scored once by
 * eval_public.sh: 27.71% (Extra-P with negative exponents 43.69%),
 * coverage 48 of 60 (80.0%), median width x5.48. Issue 22's acceptance
 * (<= 12%, 88-97%, <= x2.5) is not met. Since, these sets are design data:
 * their backtests are in the shipped prior, and errors count per unit of
 * the runs' roughness (models/calibrate.h): 50 of 60 (83.3%), x5.46, as
 * measured; with the own scale of the nearest refits, 53 of 60 (88.3%),
 * x5.65 (their leave-one-set-out numbers are README's); with the trend
 * bound, 28.74%, 50 of 60 (83.3%), x5.37 (per set before it: 65.33,
 * 78.45, 8.04, 38.05, 5.70, 13.15). */
static const data_set heldout2_sets[] = {
    {"heldout2/team2_merge.txt", "team2-merge", "tamu", {"np", NULL}},
    {"heldout2/team3_oddeven.txt", "team3-oddeven", "tamu", {"np", NULL}},
    {"heldout2/team4_merge.txt", "team4-merge", "tamu", {"np", NULL}},
    {"heldout2/team5_bitonic.txt", "team5-bitonic", "tamu", {"np", NULL}},
    {"heldout2/team6_sample.txt", "team6-sample", "tamu", {"np", NULL}},
    {"heldout2/team7_radix.txt", "team7-radix", "tamu", {"np", NULL}},
};
enum { NHELDOUT2 = sizeof heldout2_sets / sizeof heldout2_sets[0] };
static const size_t heldout2_regions[NHELDOUT2] = {8, 12, 9, 8, 15, 8};
static const double heldout2_median[NHELDOUT2] = {39.59, 78.61, 4.88, 31.23, 4.35, 13.15};

static void test_heldout2_sets(void)
{
    /* One configuration per region at the largest p: targets = regions. */
    static const heldout_round second = {heldout2_sets, NHELDOUT2, heldout2_regions,
                                         heldout2_regions, heldout2_median, 28.74, 50, 5.37};
    score_heldout_round(&second);
}

/* tests/fixtures/public/heldout3/README.md: the third round, ten student
 * MPI sorts of teams 9 to 18 (one run per p), collected by a session that
 * designed nothing while the errors per unit of roughness, the block
 * model's route terms and the multi-cluster model's link were designed,
 * kept outside every work tree until those were fixed (commit 7654348),
 * then scored once by eval_public.sh: 49.66% (Extra-P with negative
 * exponents 50.00%), coverage 78 of 92 (84.8%), median width x11.76.
 * Issue 22's acceptance (<= 12% and below Extra-P, 88-97%, <= x2.5) is
 * not met. Asserted as measured; the test's own reader must find the
 * script's numbers. These sets are not in the shipped prior. Since the
 * own scale is the nearest refits' (designed on rounds 1-5 after all were
 * scored): 81 of 92 (88.0%), x11.78; with the trend bound, 26.29%, 85 of
 * 92 (92.4%), x10.13 (per set before it: 71.94, 23.43, 4.58, 65.49,
 * 58.53, 89.89, 67.33, 0.14, 67.13, 6.24). */
static const data_set heldout3_sets[] = {
    {"heldout3/team9_merge.txt", "team9-merge", "tamu", {"np", NULL}},
    {"heldout3/team10_sample.txt", "team10-sample", "tamu", {"np", NULL}},
    {"heldout3/team11_bitonic.txt", "team11-bitonic", "tamu", {"np", NULL}},
    {"heldout3/team12_sample.txt", "team12-sample", "tamu", {"np", NULL}},
    {"heldout3/team13_oddeven.txt", "team13-oddeven", "tamu", {"np", NULL}},
    {"heldout3/team14_sample.txt", "team14-sample", "tamu", {"np", NULL}},
    {"heldout3/team15_merge.txt", "team15-merge", "tamu", {"np", NULL}},
    {"heldout3/team16_bitonic.txt", "team16-bitonic", "tamu", {"np", NULL}},
    {"heldout3/team17_merge.txt", "team17-merge", "tamu", {"np", NULL}},
    {"heldout3/team18_bubble.txt", "team18-bubble", "tamu", {"np", NULL}},
};
enum { NHELDOUT3 = sizeof heldout3_sets / sizeof heldout3_sets[0] };
static const size_t heldout3_regions[NHELDOUT3] = {10, 8, 10, 5, 12, 11, 9, 9, 8, 10};
static const double heldout3_median[NHELDOUT3] = {57.16, 5.99, 3.81, 65.24, 60.85,
                                                  41.67, 67.33, 0.14, 50.70, 6.24};

static const heldout_round third_round = {heldout3_sets, NHELDOUT3, heldout3_regions,
                                          heldout3_regions, heldout3_median, 26.29, 85, 10.13};

static void test_heldout3_sets(void)
{
    score_heldout_round(&third_round);
}

/* tests/fixtures/public/heldout4/README.md: the fourth round, eleven
 * sets of production codes, proxy apps and benchmarks (UMT, Vlasiator,
 * AMG2023, Parthenon-VIBE, SPARTA; six strong scaling, five weak),
 * collected by a session that designed nothing and kept outside every
 * work tree until scored once at 2c8d598 (the methods of f35fd9c):
 * 5.13% (Extra-P with negative exponents 4.60%), coverage 74 of 76
 * (97.4%), median width x2.88. Issue 22's acceptance is not met (not
 * below Extra-P, just above 97%, wider than x2.5). Asserted as measured;
 * the test's own reader must find the script's numbers. Since the own
 * scale is the nearest refits': 74 of 76, x2.92; with the trend bound,
 * 3.92% (below Extra-P's 4.60%), 75 of 76 (98.7%), x2.88 (per set before
 * it: 18.00, 6.93, 1.71, 30.01, 1.35, 4.87, 4.58, 15.73, 6.96, 10.52,
 * 2.14). */
static const data_set heldout4_sets[] = {
    {"heldout4/amg_problem1_weak.txt", "amg-problem1", "crossroads", {"np", NULL}},
    {"heldout4/amg_problem2_weak.txt", "amg-problem2", "crossroads", {"np", NULL}},
    {"heldout4/sparta_weak.txt", "sparta", "crossroads", {"np", NULL}},
    {"heldout4/umt_spp1_strong.txt", "umt-spp1", "spr", {"np", NULL}},
    {"heldout4/umt_spp2_strong.txt", "umt-spp2", "spr", {"np", NULL}},
    {"heldout4/vibe_april_weak.txt", "vibe-april", "crossroads", {"np", NULL}},
    {"heldout4/vibe_august_weak.txt", "vibe-august", "crossroads", {"np", NULL}},
    {"heldout4/vlasiator_lumi_light_strong.txt", "vlasiator-lumi-light", "lumi", {"np", NULL}},
    {"heldout4/vlasiator_lumi_medium_strong.txt", "vlasiator-lumi-medium", "lumi", {"np", NULL}},
    {"heldout4/vlasiator_mahti_light_strong.txt", "vlasiator-mahti-light", "mahti", {"np", NULL}},
    {"heldout4/vlasiator_mahti_medium_strong.txt", "vlasiator-mahti-medium", "mahti", {"np", NULL}},
};
enum { NHELDOUT4 = sizeof heldout4_sets / sizeof heldout4_sets[0] };
static const size_t heldout4_regions[NHELDOUT4] = {5, 5, 8, 5, 5, 16, 16, 4, 4, 4, 4};
static const double heldout4_median[NHELDOUT4] = {3.87, 5.83, 3.14, 32.50, 1.35, 2.87,
                                                  3.98, 15.73, 6.96, 10.52, 2.14};

static const heldout_round fourth_round = {heldout4_sets, NHELDOUT4, heldout4_regions,
                                           heldout4_regions, heldout4_median, 3.92, 75, 2.88};

static void test_heldout4_sets(void)
{
    score_heldout_round(&fourth_round);
}

/* tests/fixtures/public/heldout5/README.md: the fifth round, twelve sets
 * of Castro (nine, strong scaling on Frontier and Summit) and tinyMD /
 * miniMD (three, weak), collected by a session that designed nothing and
 * kept outside every work tree until scored once at 28c0ef4 with round
 * 4's methods (no change was adopted between): 10.67% (Extra-P with
 * negative exponents 13.04%), coverage 34 of 35 (97.1%), median width
 * x4.23. Issue 22's acceptance is not met (error met and below Extra-P,
 * one cover above 97%, far wider than x2.5). Asserted as measured; the
 * test's own reader must find the script's numbers. Since the own scale
 * is the nearest refits': 34 of 35, x3.86; with the trend bound, 8.63%,
 * 35 of 35, x3.86 (per set before it: 7.25, 2.21, 33.42, 13.38, 17.99,
 * 15.41, 7.30, 16.53, 32.43, 4.26, 0.25, 0.82). */
static const data_set heldout5_sets[] = {
    {"heldout5/castro_flame_ase_frontier_strong.txt", "castro-ase", "frontier", {"np", NULL}},
    {"heldout5/castro_flame_iso7_frontier_strong.txt", "castro-iso7", "frontier", {"np", NULL}},
    {"heldout5/castro_flame_summit_20200613_strong.txt", "castro-summit-2020", "summit", {"np", NULL}},
    {"heldout5/castro_flame_summit_20210606_strong.txt", "castro-summit-2021", "summit", {"np", NULL}},
    {"heldout5/castro_flame_summit_20220430_strong.txt", "castro-summit-2022", "summit", {"np", NULL}},
    {"heldout5/castro_flame_summit_20230407_strong.txt", "castro-summit-2023", "summit", {"np", NULL}},
    {"heldout5/castro_wdmerger_1024base_strong.txt", "wdmerger-1024", "frontier", {"np", NULL}},
    {"heldout5/castro_wdmerger_256base_strong.txt", "wdmerger-256", "frontier", {"np", NULL}},
    {"heldout5/castro_wdmerger_512base_strong.txt", "wdmerger-512", "frontier", {"np", NULL}},
    {"heldout5/minimd_cpu_supermuc_weak.txt", "minimd-cpu", "supermuc", {"np", NULL}},
    {"heldout5/tinymd_cpu_supermuc_weak.txt", "tinymd-cpu", "supermuc", {"np", NULL}},
    {"heldout5/tinymd_gpu_pizdaint_weak.txt", "tinymd-gpu", "pizdaint", {"np", NULL}},
};
enum { NHELDOUT5 = sizeof heldout5_sets / sizeof heldout5_sets[0] };
static const size_t heldout5_regions[NHELDOUT5] = {3, 3, 6, 6, 1, 1, 4, 4, 4, 1, 1, 1};
static const double heldout5_median[NHELDOUT5] = {7.25, 2.21, 33.42, 13.38, 17.99, 15.41,
                                                  7.30, 9.72, 29.80, 2.64, 0.19, 0.82};

static const heldout_round fifth_round = {heldout5_sets, NHELDOUT5, heldout5_regions,
                                          heldout5_regions, heldout5_median, 8.63, 35, 3.86};

static void test_heldout5_sets(void)
{
    score_heldout_round(&fifth_round);
}

/* tests/fixtures/public/heldout6/README.md: the sixth round, eight sets
 * of CASTEP, CP2K, GROMACS and OpenSBLI from EPCC's archer-benchmarks
 * (strong scaling on ARCHER and ARCHER2), collected by a session that
 * designed nothing and kept outside every work tree until scored once at
 * 8bb021a, the own scale of the nearest refits fixed before:
 * 14.79% (Extra-P with negative exponents 49.07%), coverage 45 of 46
 * (97.8%), median width x5.55. Issue 22's acceptance is not met (below
 * Extra-P but above 12%, one cover above 97%, far wider than x2.5).
 * Asserted as measured; the test's own reader must find the script's
 * numbers. With the trend bound: 12.48%, 44 of 46 (95.7%), x5.41 (per set
 * before it: 28.48, 5.89, 11.79, 21.32, 23.67, 28.24, 101.22, 8.70). */
static const data_set heldout6_sets[] = {
    {"heldout6/castep_dna2threads_archer_strong.txt", "castep-2threads", "archer", {"np", NULL}},
    {"heldout6/castep_dna4threads_archer_strong.txt", "castep-4threads", "archer", {"np", NULL}},
    {"heldout6/cp2k_lihhfx_archer_strong.txt", "cp2k-lihhfx", "archer", {"np", NULL}},
    {"heldout6/gromacs_large1smt_archer_strong.txt", "gromacs-1smt", "archer", {"np", NULL}},
    {"heldout6/gromacs_large2smt_archer_strong.txt", "gromacs-2smt", "archer", {"np", NULL}},
    {"heldout6/opensbli_tgv1024_archer_strong.txt", "opensbli-archer", "archer", {"np", NULL}},
    {"heldout6/opensbli_tgv1024cores_archer2_strong.txt", "opensbli-cores", "archer2", {"np", NULL}},
    {"heldout6/opensbli_tgv1024ranks_archer2_strong.txt", "opensbli-ranks", "archer2", {"np", NULL}},
};
enum { NHELDOUT6 = sizeof heldout6_sets / sizeof heldout6_sets[0] };
static const size_t heldout6_regions[NHELDOUT6] = {2, 2, 7, 16, 16, 1, 1, 1};
static const double heldout6_median[NHELDOUT6] = {21.33, 5.89, 11.79, 14.72,
                                                  23.67, 28.24, 101.22, 8.70};

static const heldout_round sixth_round = {heldout6_sets, NHELDOUT6, heldout6_regions,
                                          heldout6_regions, heldout6_median, 12.48, 44, 5.41};

static void test_heldout6_sets(void)
{
    score_heldout_round(&sixth_round);
}

/* tests/fixtures/public/heldout7/README.md and heldout8/README.md: the
 * seventh round (six CP2K sets, Piz Daint and Jaguar) and the eighth (ten
 * 3D-FFT libraries, Jean Zay and a V100 cluster), all strong scaling,
 * collected by sessions that designed nothing, kept outside every work
 * tree and scored once at 67d9923, with the defaults and with
 * trend=bound; by a rule written before, both rounds chose the bound,
 * which became the default. With it: round 7 13.09% (Extra-P 29.78%), 8
 * of 8, x4.99; round 8 19.37% (Extra-P 15.25%), 8 of 10 (80.0%), x3.05.
 * Issue 22's acceptance is not met on either. Asserted as measured; the
 * test's own reader must find the script's numbers. */
static const data_set heldout7_sets[] = {
    {"heldout7/cp2k_dmls_nrep1_pizdaint_strong.txt", "cp2k-dmls-1", "pizdaint", {"np", NULL}},
    {"heldout7/cp2k_dmls_nrep2_pizdaint_strong.txt", "cp2k-dmls-2", "pizdaint", {"np", NULL}},
    {"heldout7/cp2k_dmls_nrep3_pizdaint_strong.txt", "cp2k-dmls-3", "pizdaint", {"np", NULL}},
    {"heldout7/cp2k_dmls_nrep4_pizdaint_strong.txt", "cp2k-dmls-4", "pizdaint", {"np", NULL}},
    {"heldout7/cp2k_dmls_nrep6_pizdaint_strong.txt", "cp2k-dmls-6", "pizdaint", {"np", NULL}},
    {"heldout7/cp2k_lihhfx_jaguar_strong.txt", "cp2k-lihhfx-jaguar", "jaguar", {"np", NULL}},
};
enum { NHELDOUT7 = sizeof heldout7_sets / sizeof heldout7_sets[0] };
static const size_t heldout7_regions[NHELDOUT7] = {1, 1, 1, 1, 1, 3};
static const double heldout7_median[NHELDOUT7] = {19.24, 8.88, 1.32, 4.72, 28.03, 17.31};

static const data_set heldout8_sets[] = {
    {"heldout8/2decomp_c2c1024_v100_strong.txt", "2decomp", "v100", {"np", NULL}},
    {"heldout8/cudecomp_c2c1024_v100_strong.txt", "cudecomp", "v100", {"np", NULL}},
    {"heldout8/dtfft_c2c1024_v100_strong.txt", "dtfft", "v100", {"np", NULL}},
    {"heldout8/heffte_c2c1024_v100_strong.txt", "heffte", "v100", {"np", NULL}},
    {"heldout8/p3dfft_n1024_jeanzay_strong.txt", "p3dfft-1024", "jeanzay", {"np", NULL}},
    {"heldout8/p3dfft_n2048_jeanzay_strong.txt", "p3dfft-2048", "jeanzay", {"np", NULL}},
    {"heldout8/p3dfft_n512_jeanzay_strong.txt", "p3dfft-512", "jeanzay", {"np", NULL}},
    {"heldout8/pencilffts_n1024_jeanzay_strong.txt", "pencilffts-1024", "jeanzay", {"np", NULL}},
    {"heldout8/pencilffts_n2048_jeanzay_strong.txt", "pencilffts-2048", "jeanzay", {"np", NULL}},
    {"heldout8/pencilffts_n512_jeanzay_strong.txt", "pencilffts-512", "jeanzay", {"np", NULL}},
};
enum { NHELDOUT8 = sizeof heldout8_sets / sizeof heldout8_sets[0] };
static const size_t heldout8_regions[NHELDOUT8] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
static const double heldout8_median[NHELDOUT8] = {1.91, 1.38, 2.03, 0.99, 65.89,
                                                  22.21, 37.15, 89.37, 48.03, 16.54};


/* tests/fixtures/public/heldout9/README.md: the ninth round, the reserve
 * round 3 named (student MPI sorts of teams 19, 20 and 22-25, the same
 * source and rule), collected by a session that designed nothing, kept
 * outside every work tree and scored once at d329ee3, after the trend
 * bound became the default: 11.29% (Extra-P 44.86%), 47 of 51 (92.2%),
 * x4.57 — every part of issue 22's acceptance but the width. Asserted as
 * measured; the test's own reader must find the script's numbers. */
static const data_set heldout9_sets[] = {
    {"heldout9/team19_oddeven.txt", "team19-oddeven", "tamu", {"np", NULL}},
    {"heldout9/team20_merge.txt", "team20-merge", "tamu", {"np", NULL}},
    {"heldout9/team22_sample.txt", "team22-sample", "tamu", {"np", NULL}},
    {"heldout9/team23_radix.txt", "team23-radix", "tamu", {"np", NULL}},
    {"heldout9/team24_sample.txt", "team24-sample", "tamu", {"np", NULL}},
    {"heldout9/team25_sample.txt", "team25-sample", "tamu", {"np", NULL}},
};
enum { NHELDOUT9 = sizeof heldout9_sets / sizeof heldout9_sets[0] };
static const size_t heldout9_regions[NHELDOUT9] = {10, 7, 7, 13, 6, 8};
static const double heldout9_median[NHELDOUT9] = {29.15, 55.38, 21.65, 4.14, 41.87, 6.53};


/* tests/fixtures/public/heldout10/README.md: the tenth round, nine sets
 * of eight production codes and benchmarks of the JUPITER Benchmark Suite
 * (NekRS, ICON, NAStJA, Quantum ESPRESSO, DynQCD, JUQCS, MMoCLIP, Amber;
 * strong scaling, mostly JUWELS Booster), collected by a session that
 * designed nothing, kept outside every work tree and scored once at
 * e220680 with the trend bound the default: 7.68% (Extra-P 9.38%), 26 of
 * 26 (100%), x2.24 — every part of issue 22's acceptance but coverage,
 * which is above 97%. Asserted as measured; the test's own reader must
 * find the script's numbers. */
static const data_set heldout10_sets[] = {
    {"heldout10/amber_juwelsbooster_strong.txt", "amber", "juwelsbooster", {"np", NULL}},
    {"heldout10/dynqcd_base_jwb_strong.txt", "dynqcd", "jwb", {"np", NULL}},
    {"heldout10/icon_r02b09_juwelsbooster_strong.txt", "icon-r02b09", "juwelsbooster", {"np", NULL}},
    {"heldout10/icon_r02b10_juwelsbooster_strong.txt", "icon-r02b10", "juwelsbooster", {"np", NULL}},
    {"heldout10/juqcs_base_juwelsbooster_strong.txt", "juqcs", "juwelsbooster", {"np", NULL}},
    {"heldout10/mmoclip_vitl14_juwelsbooster_strong.txt", "mmoclip", "juwelsbooster", {"np", NULL}},
    {"heldout10/nastja_cis_juwels_strong.txt", "nastja", "juwels", {"np", NULL}},
    {"heldout10/nekrs_rbc_juwelsbooster_strong.txt", "nekrs", "juwelsbooster", {"np", NULL}},
    {"heldout10/qe_cp_juwelsbooster_strong.txt", "qe-cp", "juwelsbooster", {"np", NULL}},
};
enum { NHELDOUT10 = sizeof heldout10_sets / sizeof heldout10_sets[0] };
static const size_t heldout10_regions[NHELDOUT10] = {1, 1, 7, 7, 5, 2, 1, 1, 1};
static const double heldout10_median[NHELDOUT10] = {8.21, 3.55, 8.08, 3.95, 21.73,
                                                    0.74, 17.18, 3.52, 5.04};

/* tests/fixtures/public/heldout11/README.md and heldout12/README.md: the
 * eleventh round (NekRS, JUQCS and PIConGPU weak scaling on JUWELS
 * Booster; OpenFOAM XiFoam strong scaling on HAWK) and the twelfth
 * (Graph500 on JURECA-DC and JUWELS Booster, GROMACS on JUWELS Booster),
 * collected by sessions that designed nothing, kept outside every work
 * tree and scored once at 9c8d302, beside a candidate (a learned
 * roughness floor) that round 12 rejected by a rule written before. As
 * shipped: round 11 1.68% (Extra-P 1.38%), 13 of 13, x2.72; round 12
 * 16.30% (Extra-P 26.79%), 12 of 12, x4.03. Issue 22's acceptance is not
 * met on either. Asserted as measured; the test's own reader must find
 * the script's numbers. */
static const data_set heldout11_sets[] = {
    {"heldout11/juqcs_high_juwelsbooster_weak.txt", "juqcs-weak", "juwelsbooster", {"np", NULL}},
    {"heldout11/nekrs_large_juwelsbooster_weak.txt", "nekrs-large", "juwelsbooster", {"np", NULL}},
    {"heldout11/nekrs_medium_juwelsbooster_weak.txt", "nekrs-medium", "juwelsbooster", {"np", NULL}},
    {"heldout11/nekrs_small_juwelsbooster_weak.txt", "nekrs-small", "juwelsbooster", {"np", NULL}},
    {"heldout11/openfoam_xifoam24m_hawk_strong.txt", "xifoam-24m", "hawk", {"np", NULL}},
    {"heldout11/openfoam_xifoam3m_hawk_strong.txt", "xifoam-3m", "hawk", {"np", NULL}},
    {"heldout11/openfoam_xifoam489m_hawk_strong.txt", "xifoam-489m", "hawk", {"np", NULL}},
    {"heldout11/picongpu_khi_juwelsbooster_weak.txt", "picongpu-khi", "juwelsbooster", {"np", NULL}},
    {"heldout11/picongpu_khishort_juwelsbooster_weak.txt", "picongpu-khishort", "juwelsbooster",
     {"np", NULL}},
};
enum { NHELDOUT11 = sizeof heldout11_sets / sizeof heldout11_sets[0] };
static const size_t heldout11_regions[NHELDOUT11] = {3, 1, 1, 1, 1, 1, 1, 2, 2};
static const double heldout11_median[NHELDOUT11] = {1.63, 1.38, 7.08, 3.90, 6.87,
                                                    4.88, 2.62, 0.52, 0.86};

static const data_set heldout12_sets[] = {
    {"heldout12/graph500_s27tpn128_jurecadc_strong.txt", "graph500-tpn128", "jurecadc", {"np", NULL}},
    {"heldout12/graph500_s27tpn32_jurecadc_strong.txt", "graph500-tpn32", "jurecadc", {"np", NULL}},
    {"heldout12/graph500_s27tpn64_jurecadc_strong.txt", "graph500-tpn64", "jurecadc", {"np", NULL}},
    {"heldout12/graph500_s30openmpi_juwelsbooster_strong.txt", "graph500-openmpi", "juwelsbooster",
     {"np", NULL}},
    {"heldout12/graph500_s30parastationmpi_juwelsbooster_strong.txt", "graph500-psmpi",
     "juwelsbooster", {"np", NULL}},
    {"heldout12/gromacs_ionchannel_juwelsbooster_strong.txt", "gromacs-ionchannel", "juwelsbooster",
     {"np", NULL}},
    {"heldout12/gromacs_stmv_juwelsbooster_strong.txt", "gromacs-stmv", "juwelsbooster", {"np", NULL}},
};
enum { NHELDOUT12 = sizeof heldout12_sets / sizeof heldout12_sets[0] };
static const size_t heldout12_regions[NHELDOUT12] = {2, 2, 2, 2, 2, 1, 1};
static const double heldout12_median[NHELDOUT12] = {27.08, 16.30, 18.50, 16.34, 22.19, 3.77, 5.74};

/* tests/fixtures/public/heldout13/README.md and heldout14/README.md: the
 * thirteenth round (Cholla on Frontier, two strong and two weak sets;
 * EPIC's parcel merging on ARCHER2, strong) and the fourteenth (VASP on
 * ARCHER2 over two MPI transports, CASINO on ARCHER2, Molpro on Puhti
 * with two scratch file systems, FVCOM on Betzy; all strong), collected
 * by sessions that designed nothing, kept outside every work tree and
 * scored once at 2cfbe47 with the shipped method (no candidate was ready):
 * round 13 14.63% (Extra-P 25.77%), 29 of 34, x3.46 — the five misses
 * are the late EPIC set's communication timers, 2.0-7.6 times their
 * estimates at its largest p;
 * round 14 10.55% (Extra-P 36.10%), 8 of 8, x3.62. */
static const data_set heldout13_sets[] = {
    {"heldout13/cholla_fusedpcm_frontier_weak.txt", "cholla-pcm-weak", "frontier", {"np", NULL}},
    {"heldout13/cholla_fusedplmc_frontier_weak.txt", "cholla-plmc-weak", "frontier", {"np", NULL}},
    {"heldout13/cholla_mhd456_frontier_strong.txt", "cholla-456", "frontier", {"np", NULL}},
    {"heldout13/cholla_mhd459_frontier_strong.txt", "cholla-459", "frontier", {"np", NULL}},
    {"heldout13/epic_rt256early_archer2_strong.txt", "epic-early", "archer2", {"np", NULL}},
    {"heldout13/epic_rt256late_archer2_strong.txt", "epic-late", "archer2", {"np", NULL}},
};
enum { NHELDOUT13 = sizeof heldout13_sets / sizeof heldout13_sets[0] };
static const size_t heldout13_regions[NHELDOUT13] = {4, 4, 4, 4, 9, 9};
static const double heldout13_median[NHELDOUT13] = {1.43, 0.97, 14.60, 9.37, 27.15, 51.03};

static const data_set heldout14_sets[] = {
    {"heldout14/casino_benzenedimer_archer2_strong.txt", "casino", "archer2", {"np", NULL}},
    {"heldout14/fvcom_casestudy_betzy_strong.txt", "fvcom", "betzy", {"np", NULL}},
    {"heldout14/molpro_benzene_lustre_puhti_strong.txt", "molpro-lustre", "puhti", {"np", NULL}},
    {"heldout14/molpro_benzene_nvme_puhti_strong.txt", "molpro-nvme", "puhti", {"np", NULL}},
    {"heldout14/vasp_tio2ofi_archer2_strong.txt", "vasp-ofi", "archer2", {"np", NULL}},
    {"heldout14/vasp_tio2ucx_archer2_strong.txt", "vasp-ucx", "archer2", {"np", NULL}},
};
enum { NHELDOUT14 = sizeof heldout14_sets / sizeof heldout14_sets[0] };
static const size_t heldout14_regions[NHELDOUT14] = {1, 1, 1, 1, 2, 2};
static const double heldout14_median[NHELDOUT14] = {5.42, 1.81, 32.83, 1.72, 33.08, 8.94};

/* tests/fixtures/public/heldout15/README.md and heldout16/README.md: the
 * fifteenth round (NPB CG, EP, FT and MG on a Raspberry Pi 4 cluster;
 * three CP2K inputs on CSCS Alps GH200, p = nodes; all strong) and the
 * sixteenth (LAMMPS on JURECA, strong; the Einstein Toolkit's Carpet on
 * seven machines, weak), collected by sessions that designed nothing,
 * kept outside every work tree and scored once at e34fcc4 with the
 * shipped method (no candidate was ready): round 15 20.52% (Extra-P
 * 21.48%), 7 of 7, x6.74; round 16 5.42% (Extra-P 12.17%), 14 of 14,
 * x2.22 — all but coverage, which is above 97%. */
static const data_set heldout15_sets[] = {
    {"heldout15/cp2k_h2o1024_alpsgh200_strong.txt", "cp2k-h2o1024", "alps", {"np", NULL}},
    {"heldout15/cp2k_h2o128mp2_alpsgh200_strong.txt", "cp2k-mp2", "alps", {"np", NULL}},
    {"heldout15/cp2k_h2o128rpa_alpsgh200_strong.txt", "cp2k-rpa", "alps", {"np", NULL}},
    {"heldout15/npb_cgC_pi4cluster_strong.txt", "npb-cg", "pi4", {"np", NULL}},
    {"heldout15/npb_epD_pi4cluster_strong.txt", "npb-ep", "pi4", {"np", NULL}},
    {"heldout15/npb_ftC_pi4cluster_strong.txt", "npb-ft", "pi4", {"np", NULL}},
    {"heldout15/npb_mgC_pi4cluster_strong.txt", "npb-mg", "pi4", {"np", NULL}},
};
enum { NHELDOUT15 = sizeof heldout15_sets / sizeof heldout15_sets[0] };
static const size_t heldout15_regions[NHELDOUT15] = {1, 1, 1, 1, 1, 1, 1};
static const double heldout15_median[NHELDOUT15] = {19.70, 12.68, 20.52, 56.71, 82.00, 18.02, 48.95};

static const data_set heldout16_sets[] = {
    {"heldout16/carpet_mclachlan9lev_franklin_weak.txt", "carpet-franklin", "franklin", {"np", NULL}},
    {"heldout16/carpet_mclachlan9lev_hlrb2_weak.txt", "carpet-hlrb2", "hlrb2", {"np", NULL}},
    {"heldout16/carpet_mclachlan9lev_kraken_weak.txt", "carpet-kraken", "kraken", {"np", NULL}},
    {"heldout16/carpet_mclachlan9lev_queenbee_weak.txt", "carpet-queenbee", "queenbee", {"np", NULL}},
    {"heldout16/carpet_mclachlan9lev_ranger_weak.txt", "carpet-ranger", "ranger", {"np", NULL}},
    {"heldout16/carpet_mclachlan9lev_sicortex_weak.txt", "carpet-sicortex", "sicortex", {"np", NULL}},
    {"heldout16/carpet_mclachlan9lev_surveyor_weak.txt", "carpet-surveyor", "surveyor", {"np", NULL}},
    {"heldout16/lammps_lj32k_jureca_strong.txt", "lammps", "jureca", {"np", NULL}},
};
enum { NHELDOUT16 = sizeof heldout16_sets / sizeof heldout16_sets[0] };
static const size_t heldout16_regions[NHELDOUT16] = {1, 1, 1, 1, 1, 1, 1, 7};
static const double heldout16_median[NHELDOUT16] = {7.31, 10.55, 5.53, 1.00, 7.10, 5.31, 0.73, 5.26};

/* tests/fixtures/public/heldout17/README.md and heldout18/README.md: the
 * seventeenth round (GROMACS x3, OpenFOAM, CASTEP on CSD3; GROMACS x3,
 * OpenFOAM, CP2K on alaska; ReFrame perflogs of the ExCALIBUR tests) and
 * the eighteenth (WRF x4 and OpenFOAM x2 on CSD3 and alaska, the same
 * project's job outputs), all strong, collected by sessions that designed
 * nothing, kept outside every work tree and scored once at c52ad82 with
 * the shipped method beside two candidate priors that the rule written
 * before rejected: round 17 15.19% (Extra-P 24.34%), 28 of 28, x4.71;
 * round 18 15.69% (Extra-P 21.52%), 26 of 26, x4.52. */
static const data_set heldout17_sets[] = {
    {"heldout17/castep_al3x3_csd3_strong.txt", "castep", "csd3", {"np", NULL}},
    {"heldout17/cp2k_h2o256_alaska_strong.txt", "cp2k-alaska", "alaska", {"np", NULL}},
    {"heldout17/gromacs_1400k_alaska_strong.txt", "gromacs-1400k-alaska", "alaska", {"np", NULL}},
    {"heldout17/gromacs_1400k_csd3_strong.txt", "gromacs-1400k-csd3", "csd3", {"np", NULL}},
    {"heldout17/gromacs_3000k_alaska_strong.txt", "gromacs-3000k-alaska", "alaska", {"np", NULL}},
    {"heldout17/gromacs_3000k_csd3_strong.txt", "gromacs-3000k-csd3", "csd3", {"np", NULL}},
    {"heldout17/gromacs_61k_alaska_strong.txt", "gromacs-61k-alaska", "alaska", {"np", NULL}},
    {"heldout17/gromacs_61k_csd3_strong.txt", "gromacs-61k-csd3", "csd3", {"np", NULL}},
    {"heldout17/openfoam_mbike_alaska_strong.txt", "openfoam-alaska", "alaska", {"np", NULL}},
    {"heldout17/openfoam_mbike_csd3_strong.txt", "openfoam-csd3", "csd3", {"np", NULL}},
};
enum { NHELDOUT17 = sizeof heldout17_sets / sizeof heldout17_sets[0] };
static const size_t heldout17_regions[NHELDOUT17] = {2, 2, 3, 3, 3, 3, 3, 3, 3, 3};
static const double heldout17_median[NHELDOUT17] = {13.75, 27.93, 1.23, 33.38, 12.81,
                                                    60.97, 45.76, 5.74, 9.41, 56.25};

static const data_set heldout18_sets[] = {
    {"heldout18/openfoam_motorbike_roce_alaska_strong.txt", "openfoam-roce-alaska", "alaska",
     {"np", NULL}},
    {"heldout18/openfoam_motorbike_roce_csd3_strong.txt", "openfoam-roce-csd3", "csd3",
     {"np", NULL}},
    {"heldout18/wrf_conus12km_ib_csd3_strong.txt", "wrf-12km-ib", "csd3", {"np", NULL}},
    {"heldout18/wrf_conus12km_roce_csd3_strong.txt", "wrf-12km-roce", "csd3", {"np", NULL}},
    {"heldout18/wrf_conus2p5km_ib_csd3_strong.txt", "wrf-2p5km-ib", "csd3", {"np", NULL}},
    {"heldout18/wrf_conus2p5km_roce_csd3_strong.txt", "wrf-2p5km-roce", "csd3", {"np", NULL}},
};
enum { NHELDOUT18 = sizeof heldout18_sets / sizeof heldout18_sets[0] };
static const size_t heldout18_regions[NHELDOUT18] = {3, 3, 5, 5, 5, 5};
static const double heldout18_median[NHELDOUT18] = {10.73, 42.25, 18.58, 6.52, 7.28, 40.25};

/* tests/fixtures/public/heldout21/README.md: the twenty-first round,
 * twelve strong-scaling sets of three sparse solver libraries (AMGCL,
 * Trilinos ML, PETSc) on SuperMUC, MareNostrum 4 and one workstation, from
 * the tables behind AMGCL's benchmark page, collected by a session that
 * designed nothing, kept outside every work tree and scored once at
 * e7a3aab with the shipped method (no candidate was ready): 27.90%
 * (Extra-P 50.04%), 23 of 24, x9.71 — the worst since round 3: at the
 * largest counts the solvers' times fall less than the laws fitted below
 * them say, or rise (20 of 24 estimates below the measured time). */
static const data_set heldout21_sets[] = {
    {"heldout21/amgcl_nsschur_mn4_strong.txt", "amgcl-nsschur", "mn4", {"np", NULL}},
    {"heldout21/amgcl_poisson256_supermuc_strong.txt", "amgcl-poisson256", "supermuc",
     {"np", NULL}},
    {"heldout21/amgcl_poisson512const_mn4_strong.txt", "amgcl-poisson512const", "mn4",
     {"np", NULL}},
    {"heldout21/amgcl_poisson512lin_mn4_strong.txt", "amgcl-poisson512lin", "mn4", {"np", NULL}},
    {"heldout21/petsc_ns_workstation_strong.txt", "petsc-ns", "workstation", {"np", NULL}},
    {"heldout21/petsc_poisson150_workstation_strong.txt", "petsc-poisson150", "workstation",
     {"np", NULL}},
    {"heldout21/trilinos_ns_mn4_strong.txt", "trilinos-ns-mn4", "mn4", {"np", NULL}},
    {"heldout21/trilinos_ns_workstation_strong.txt", "trilinos-ns-workstation", "workstation",
     {"np", NULL}},
    {"heldout21/trilinos_poisson150_workstation_strong.txt", "trilinos-poisson150",
     "workstation", {"np", NULL}},
    {"heldout21/trilinos_poisson256_supermuc_strong.txt", "trilinos-poisson256", "supermuc",
     {"np", NULL}},
    {"heldout21/trilinos_poisson512_mn4_strong.txt", "trilinos-poisson512", "mn4", {"np", NULL}},
    {"heldout21/trilinos_poisson512ddml_mn4_strong.txt", "trilinos-poisson512ddml", "mn4",
     {"np", NULL}},
};
enum { NHELDOUT21 = sizeof heldout21_sets / sizeof heldout21_sets[0] };
static const size_t heldout21_regions[NHELDOUT21] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
static const double heldout21_median[NHELDOUT21] = {47.03, 26.70, 37.55, 49.37, 4.56, 12.47,
                                                    26.95, 6.65,  16.92, 61.77, 63.07, 40.75};

/* Rounds 7 to 10, each as scored once (7 and 8 with trend=bound, which
 * they chose), and pooled over the four: 95 targets, median |error| 8.88%
 * (Extra-P 19.43% on the same targets), 89 covered (93.7%), median width
 * x3.24 — issue 22's acceptance but the width, on every held-back target
 * scored with the trend bound. With rounds 11 and 12: 120 targets, 8.14%
 * (Extra-P 15.92%), 114 covered (95.0%), x3.23 — again all but the width
 * (eval_public.sh's KEEP CSVs of the six rounds, pooled by hand). With
 * rounds 13 and 14: 162 targets, 9.08% (Extra-P 20.87%), 151 covered
 * (93.2%), x3.39 — all but the width, again (the KEEP CSVs of the eight
 * rounds, pooled by hand). With rounds 15 and 16: 183 targets, 8.88%
 * (Extra-P 19.43%), 172 covered (94.0%), x3.24 — all but the width (one
 * eval_public.sh run over the ten rounds; the same three medians as rounds
 * 7-10's, because the same two targets sit in the middle). With rounds 17
 * and 18: 237 targets, 10.99% (Extra-P 20.99%), 226 covered (95.4%), x3.49
 * — all but the width. With round 21: 261 targets, 12.68% (Extra-P
 * 23.98%), 249 covered (95.4%), x3.84 — the error and the width fail. */
/* What a pool of rounds must give again: eval_public.sh's pooled row. */
typedef struct {
    const char *label;
    size_t targets, inside;
    double median, width; /* median |error| in percent; median high/low */
} pooled_want;

static void assert_pool(const tally *pool, const pooled_want *want)
{
    print_row(want->label, pool);
    printf("\n");
    CU_ASSERT_EQUAL(pool->targets, want->targets);
    CU_ASSERT_DOUBLE_EQUAL(median_error(pool), want->median, 0.01);
    CU_ASSERT_EQUAL(pool->inside, want->inside);
    CU_ASSERT_DOUBLE_EQUAL(median_of(pool->width, pool->nwidth), want->width, 0.005);
}

/* The targets of pool beyond where their runs stopped gaining (beyond
 * true) or the others: how many, how many covered, their median |error|. */
static void stop_split(const tally *pool, bool beyond, size_t *n, size_t *inside, double *median)
{
    static double err[MAX_TARGETS];
    *n = *inside = 0;
    for (size_t i = 0; i < pool->targets; i++)
        if (pool->beyond_stop[i] == beyond) {
            err[(*n)++] = pool->abs_err[i];
            *inside += pool->covered[i];
        }
    *median = median_of(err, *n);
}

/* What a pool's targets beyond a stop in their runs' gains
 * (gen/fit/gain_stop.h) and the others should show. */
typedef struct {
    size_t beyond, beyond_inside;
    double beyond_median;
    size_t others, others_inside;
    double others_median;
} stop_split_want;

/* The targets beyond a stop err far more than the others; the rule's
 * thresholds were fixed before it met any data (README, "Runs that
 * stopped gaining"). gain_stop_check.py, a second implementation of the
 * rule on the fixtures' own numbers, finds the same targets. */
static void assert_stop_split(const tally *pool, const stop_split_want *want)
{
    size_t n, inside;
    double median;
    stop_split(pool, true, &n, &inside, &median);
    printf("  beyond a stop in the runs' gains: %zu targets, %zu covered, median |error| %.2f%%\n",
           n, inside, median);
    CU_ASSERT_EQUAL(n, want->beyond);
    CU_ASSERT_EQUAL(inside, want->beyond_inside);
    CU_ASSERT_DOUBLE_EQUAL(median, want->beyond_median, 0.01);
    stop_split(pool, false, &n, &inside, &median);
    printf("  the others: %zu targets, %zu covered, median |error| %.2f%%\n", n, inside, median);
    CU_ASSERT_EQUAL(n, want->others);
    CU_ASSERT_EQUAL(inside, want->others_inside);
    CU_ASSERT_DOUBLE_EQUAL(median, want->others_median, 0.01);
}

/* Rounds 1-6 (design data), as their six tests above scored them. */
static void test_design_stop_split(void)
{
    static const stop_split_want want = {87, 82, 32.96, 417, 401, 11.90};
    CU_ASSERT_EQUAL_FATAL(design_rounds_scored, 6);
    assert_stop_split(&design_rounds, &want);
}

static void test_heldout7_to_21_sets(void)
{
    static const heldout_round seventh = {heldout7_sets, NHELDOUT7, heldout7_regions,
                                          heldout7_regions, heldout7_median, 13.09, 8, 4.99};
    static const heldout_round eighth = {heldout8_sets, NHELDOUT8, heldout8_regions,
                                         heldout8_regions, heldout8_median, 19.37, 8, 3.05};
    static const heldout_round ninth = {heldout9_sets, NHELDOUT9, heldout9_regions,
                                        heldout9_regions, heldout9_median, 11.29, 47, 4.57};
    static const heldout_round tenth = {heldout10_sets, NHELDOUT10, heldout10_regions,
                                        heldout10_regions, heldout10_median, 7.68, 26, 2.24};
    static const heldout_round eleventh = {heldout11_sets, NHELDOUT11, heldout11_regions,
                                           heldout11_regions, heldout11_median, 1.68, 13, 2.72};
    static const heldout_round twelfth = {heldout12_sets, NHELDOUT12, heldout12_regions,
                                          heldout12_regions, heldout12_median, 16.30, 12, 4.03};
    static const heldout_round thirteenth = {heldout13_sets, NHELDOUT13, heldout13_regions,
                                             heldout13_regions, heldout13_median, 14.63, 29, 3.46};
    static const heldout_round fourteenth = {heldout14_sets, NHELDOUT14, heldout14_regions,
                                             heldout14_regions, heldout14_median, 10.55, 8, 3.62};
    static const heldout_round fifteenth = {heldout15_sets, NHELDOUT15, heldout15_regions,
                                            heldout15_regions, heldout15_median, 20.52, 7, 6.74};
    static const heldout_round sixteenth = {heldout16_sets, NHELDOUT16, heldout16_regions,
                                            heldout16_regions, heldout16_median, 5.42, 14, 2.22};
    static const heldout_round seventeenth = {heldout17_sets, NHELDOUT17, heldout17_regions,
                                              heldout17_regions, heldout17_median, 15.19, 28, 4.71};
    static const heldout_round eighteenth = {heldout18_sets, NHELDOUT18, heldout18_regions,
                                             heldout18_regions, heldout18_median, 15.69, 26, 4.52};
    static const heldout_round twentyfirst = {heldout21_sets, NHELDOUT21, heldout21_regions,
                                              heldout21_regions, heldout21_median, 27.90, 23, 9.71};
    /* Each step adds the rounds scored together and checks the pool so far. */
    static const struct {
        const heldout_round *add[4];
        pooled_want want;
    } steps[] = {
        {{&seventh, &eighth, &ninth, &tenth}, {"rounds 7-10", 95, 89, 8.88, 3.24}},
        {{&eleventh, &twelfth}, {"rounds 7-12", 120, 114, 8.14, 3.23}},
        {{&thirteenth, &fourteenth}, {"rounds 7-14", 162, 151, 9.08, 3.39}},
        {{&fifteenth, &sixteenth}, {"rounds 7-16", 183, 172, 8.88, 3.24}},
        {{&seventeenth, &eighteenth}, {"rounds 7-18", 237, 226, 10.99, 3.49}},
        {{&twentyfirst}, {"rounds 7-18 and 21", 261, 249, 12.68, 3.84}},
    };
    tally rounds;
    memset(&rounds, 0, sizeof rounds);
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        for (size_t k = 0; k < 4 && steps[i].add[k]; k++)
            score_round_into(steps[i].add[k], &rounds);
        assert_pool(&rounds, &steps[i].want);
    }
    static const stop_split_want want = {41, 39, 45.83, 220, 210, 9.44};
    assert_stop_split(&rounds, &want);
}

/* tests/fixtures/public/width_sim.py is a second implementation of the
 * calibrated width (for design: a rule tried in a second). On the rounds
 * whose sets are in no prior (3 to 6), each set alone in its archive, it
 * must find perfcast's own counts and widths, those the tests above
 * assert (the rounds' pooled_covered and pooled_width). */
static void test_width_sim_agrees(void)
{
    static const struct {
        const char *name;
        const heldout_round *round;
    } want[] = {{"r3", &third_round}, {"r4", &fourth_round}, {"r5", &fifth_round},
                {"r6", &sixth_round}};
    char *out = NULL;
    int rc = testutil_run_commandf(&out, "tests/fixtures/public/width_sim.sh %s 2>&1",
                                   testutil_perfcast());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const heldout_round *r = want[i].round;
        size_t ntargets = 0;
        for (size_t k = 0; k < r->nsets; k++)
            ntargets += r->targets[k];
        char key[8];
        snprintf(key, sizeof key, "\n%s ", want[i].name);
        const char *line = out ? strstr(out, key) : NULL;
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        size_t targets = 0, covered = 0;
        double width = 0;
        CU_ASSERT_EQUAL(sscanf(line + strlen(key), "%zu %zu %lf", &targets, &covered, &width), 3);
        CU_ASSERT_EQUAL(targets, ntargets);
        CU_ASSERT_EQUAL(covered, r->pooled_covered);
        CU_ASSERT_DOUBLE_EQUAL(width, r->pooled_width, 0.005);
    }
    free(out);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"term search on relearn and LULESH, held-out largest process count", test_public_data},
        {"the same with forward-fold selection of the few-points law", test_forward_selection},
        {"the sets held back while issue 22's methods were designed", test_heldout_sets},
        {"the second round of held-back sets, scored once at bc52237", test_heldout2_sets},
        {"the third round of held-back sets, scored once at 7654348", test_heldout3_sets},
        {"the fourth round (production codes), scored once at 2c8d598", test_heldout4_sets},
        {"the fifth round (Castro, tinyMD, miniMD), scored once at 28c0ef4", test_heldout5_sets},
        {"the sixth round (CASTEP, CP2K, GROMACS, OpenSBLI), scored once at 8bb021a",
         test_heldout6_sets},
        {"rounds 1-6: targets beyond a stop in their runs' gains against the others",
         test_design_stop_split},
        {"rounds 7-18 (CP2K; 3D FFTs; sorts 19-25; JUPITER codes; weak JUPITER codes and "
         "OpenFOAM; Graph500 and GROMACS; Cholla and EPIC; VASP, CASINO, Molpro, FVCOM; "
         "NPB and CP2K; LAMMPS and Carpet; GROMACS, OpenFOAM, CASTEP, CP2K; WRF and "
         "OpenFOAM) and 21 (AMGCL, Trilinos ML, PETSc) scored once, and pooled",
         test_heldout7_to_21_sets},
        {"width_sim.py, a second implementation of the width, agrees on rounds 3-6",
         test_width_sim_agrees},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"validation on public scaling data", tests},
                                            {NULL, NULL}};
    return testutil_run_suites(suites);
}
