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
 * Asserted (the acceptance): the term search predicts every region
 * (a finite estimate for every held-out configuration); the calibrated 95%
 * prediction intervals cover at least 85% of the held-out measurements, per
 * data set and pooled. The error target, median held-out |error| at
 * or below 10%, is NOT met on these data (relearn's regions extrapolate
 * with 10-20% errors, see the README): the measured medians are asserted in
 * tight bands instead, so that a regression fails and an improvement must
 * update the numbers here and in the README.
 */
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/csvread.h"
#include "gen/diag.h"

#define FIX "tests/fixtures/public"
#define MAX_PARAMS 2
#define MAX_COORDS 32
#define MAX_REGIONS 24
#define MAX_TARGETS 128

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

/* Held-out configurations: those at the largest process count (the first
 * parameter), as import's default experiments choose them. */
static size_t held_out_count(const xp_file *f)
{
    double top = 0;
    size_t n = 0;
    for (size_t i = 0; i < f->ncoords; i++)
        top = f->coord[i][0] > top ? f->coord[i][0] : top;
    for (size_t i = 0; i < f->ncoords; i++)
        n += f->coord[i][0] == top;
    return n;
}

/* Score one region's predict output into t; the region counts as
 * predicted when every held-out configuration has a finite estimate. */
static void score_region(const xp_file *f, const xp_region *r, const data_set *d,
                         const char *csv, tally *t)
{
    csv_doc doc;
    diag_list diags;
    diag_init(&diags);
    CU_ASSERT_TRUE_FATAL(csv_parse_buffer(csv, strlen(csv), "predict", &doc, &diags));
    int est = column(&doc, "estimate"), meas = column(&doc, "measured");
    int lo = column(&doc, "cal_pi_low"), hi = column(&doc, "cal_pi_high");
    CU_ASSERT_FATAL(est >= 0 && meas >= 0 && lo >= 0 && hi >= 0);
    size_t want = held_out_count(f), estimated = 0;
    CU_ASSERT_EQUAL(doc.nrows - 1, want);
    for (size_t i = 1; i < doc.nrows; i++) {
        const csv_row *row = &doc.rows[i];
        int c = coordinate_of(f, d, &doc, row);
        CU_ASSERT_FATAL(c >= 0);
        double m = r->mean[c], e = number(row, est);
        /* predict's measured value is the fixture's mean (6 digits printed) */
        CU_ASSERT(testutil_rel_diff(number(row, meas), m) < 1e-6);
        CU_ASSERT_FATAL(t->targets < MAX_TARGETS);
        t->abs_err[t->targets++] = 100 * fabs(e - m) / m;
        estimated += isfinite(e);
        t->nonpositive += !(e > 0);
        /* An estimate <= 0 has no calibrated interval: a miss. */
        t->inside += number(row, lo) <= m && m <= number(row, hi);
    }
    t->regions++;
    t->predicted += estimated == want && estimated > 0;
    csv_doc_free(&doc);
    diag_free(&diags);
}

/* Clear the formula of every experiment import wrote ("1/np": its
 * default), so that the term search chooses one. Returns how many. */
static size_t use_term_search(const char *archive, const char *campaign)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/experiments.csv", archive, campaign);
    char *text = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    size_t n = 0;
    for (char *p = strstr(text, ",1/np,"); p; p = strstr(p + 2, ",1/np,")) {
        memmove(p + 1, p + 5, strlen(p + 5) + 1); /* ",1/np," -> ",," */
        n++;
    }
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, text));
    free(text);
    return n;
}

/* Import data set d into archive, predict every region, add to t. */
static void validate(const char *archive, const data_set *d, tally *t)
{
    xp_file *f = calloc(1, sizeof *f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FIX, d->file);
    xp_read(path, f);

    char *out = NULL;
    int rc = testutil_perfcast_run(&out, "import extrap %s --archive %s --campaign %s --cluster %s",
                                   path, archive, d->campaign, d->cluster);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(out);
    CU_ASSERT_EQUAL_FATAL(use_term_search(archive, d->campaign), f->nregions);

    /* import names experiments scaling-<column>, in region order */
    snprintf(path, sizeof path, "%s/%s/experiments.csv", archive, d->campaign);
    char *exps = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(exps);
    char *line = strchr(exps, '\n');
    for (size_t r = 0; r < f->nregions; r++) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        char *name = line + 1, *comma = strchr(name, ',');
        CU_ASSERT_PTR_NOT_NULL_FATAL(comma);
        *comma = '\0';
        line = strchr(comma + 1, '\n');
        rc = testutil_perfcast_run(&out, "predict --archive %s --format csv %s %s", archive,
                                   d->campaign, name);
        if (rc != 0)
            fprintf(stderr, "\n%s/%s: %s\n", d->campaign, name, out ? out : "");
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        if (rc == 0)
            score_region(f, &f->region[r], d, out, t);
        else
            t->regions++;
        free(out);
    }
    free(exps);
    free(f);
}

static void print_row(const char *what, const tally *t)
{
    printf("\n  %-8s regions %2zu, predicted %2zu; held-out %3zu, calibrated PI covers %3zu "
           "(%.1f%%); |error| median %.1f%%, max %.1f%%; %zu estimate(s) <= 0",
           what, t->regions, t->predicted, t->targets, t->inside,
           100.0 * (double)t->inside / (double)t->targets, median_of(t->abs_err, t->targets),
           max_of(t->abs_err, t->targets), t->nonpositive);
}

static void merge(tally *into, const tally *t)
{
    into->regions += t->regions;
    into->predicted += t->predicted;
    into->inside += t->inside;
    into->nonpositive += t->nonpositive;
    for (size_t i = 0; i < t->targets && into->targets < MAX_TARGETS; i++)
        into->abs_err[into->targets++] = t->abs_err[i];
}

static const data_set relearn = {"relearn.txt", "relearn", "relearn-cluster", {"np", "n"}};
static const data_set lulesh = {"lulesh.txt", "lulesh", "opal", {"np", NULL}};

/* The measured medians (percent) and the half-width of the band asserted
 * around them; see the header comment and the README's table. */
#define RELEARN_MEDIAN 13.25
#define LULESH_MEDIAN 4.33
#define POOLED_MEDIAN 12.68
#define MEDIAN_BAND 0.5

static void test_public_data(void)
{
    char dir[256], archive[512];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    snprintf(archive, sizeof archive, "%s/a", dir);
    char path[600];
    snprintf(path, sizeof path, "%s/clusters.csv", archive);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, "cluster\n"));

    tally r = {0}, l = {0}, all = {0};
    validate(archive, &relearn, &r);
    validate(archive, &lulesh, &l);
    merge(&all, &r);
    merge(&all, &l);
    print_row("relearn", &r);
    print_row("lulesh", &l);
    print_row("pooled", &all);
    printf("\n");

    /* Every region predicted: 11 relearn regions, 18 LULESH functions. */
    CU_ASSERT_EQUAL(r.regions, 11);
    CU_ASSERT_EQUAL(l.regions, 18);
    CU_ASSERT_EQUAL(r.predicted, r.regions);
    CU_ASSERT_EQUAL(l.predicted, l.regions);
    CU_ASSERT_EQUAL(r.targets, 55); /* 5 n at p = 512 per region */
    CU_ASSERT_EQUAL(l.targets, 18); /* p = 343 per function */
    /* One LULESH estimate is negative today (CalcQForElems, see the
     * README): no more may appear. */
    CU_ASSERT(all.nonpositive <= 1);

    /* Calibrated 95% PIs cover at least 85%, per data set and pooled. */
    CU_ASSERT(r.inside >= 0.85 * (double)r.targets);
    CU_ASSERT(l.inside >= 0.85 * (double)l.targets);
    CU_ASSERT(all.inside >= 0.85 * (double)all.targets);

    /* Median |error|: the measured values, in a tight band. */
    CU_ASSERT_DOUBLE_EQUAL(median_of(r.abs_err, r.targets), RELEARN_MEDIAN, MEDIAN_BAND);
    CU_ASSERT_DOUBLE_EQUAL(median_of(l.abs_err, l.targets), LULESH_MEDIAN, MEDIAN_BAND);
    CU_ASSERT_DOUBLE_EQUAL(median_of(all.abs_err, all.targets), POOLED_MEDIAN, MEDIAN_BAND);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test tests[] = {
        {"term search on relearn and LULESH, held-out largest process count", test_public_data},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {{"validation on public scaling data", tests},
                                            {NULL, NULL}};
    return testutil_run_suites(suites);
}
