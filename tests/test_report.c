/*
 * test_report.c — the printable PDF report (`perfcast report`,
 * gen/site/site_pdf.c, and report.pdf on the site), read back with
 * poppler's pdfinfo and pdftotext, tools that share nothing with Cairo's
 * PDF writer:
 *   - on a small archive made here and on the embedded one, every row of
 *     the site's estimates.csv (read with the CSV reader) is on its
 *     cluster's section of the PDF: the job's name, and its time and
 *     calibrated interval, which this test parses back from the PDF's
 *     words ("6 min 29 s") into seconds and compares with the CSV's;
 *   - the page count pdfinfo reads is the one perfcast reports;
 *   - pdftotext -bbox puts every word of every page at least 1 cm from
 *     the paper's edge, and every page ends with its footer "page N"
 *     (pdfdoc draws a page's texts when the page ends: none may be lost
 *     or drawn on the wrong page);
 *   - the same archive gives the same bytes (two runs);
 *   - the site's report is a front (no cost table; where each cluster's
 *     report is) and one report per cluster with that cluster's rows and
 *     no other cluster's name, linked from its page; `build --verify`
 *     passes;
 *   - a night after one new run on a cluster (a copy of hard links to the
 *     last site, then built) writes that cluster's report again, dated by
 *     the new run (pdfinfo), and keeps the others (still hard-linked, same
 *     bytes); every report is byte for byte what a build from nothing makes;
 *   - --cluster keeps one cluster's section; bad arguments fail with a
 *     message and write nothing (nor through a symbolic link).
 * Without poppler-utils every test fails saying so (.ci/deps installs it).
 */
#include "tests/testutil.h"
#include "tests/testutil_csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool have_poppler(void)
{
    int rc = testutil_run_command("command -v pdftotext && command -v pdfinfo", NULL);
    if (rc != 0)
        CU_FAIL("pdftotext/pdfinfo missing: install poppler-utils (make deps)");
    return rc == 0;
}

/* pdftotext -layout of path, or NULL. */
static char *pdf_text(const char *path)
{
    char txt[600];
    snprintf(txt, sizeof txt, "%s.txt", path);
    if (testutil_run_commandf(NULL, "pdftotext -layout '%s' '%s'", path, txt) != 0)
        return NULL;
    char *text = testutil_read_file(txt);
    unlink(txt);
    return text;
}

/* What pdftotext -bbox says of a PDF's words: pages, pages that have
 * words, words closer than 1 cm (28.35 pt) to the paper's edge, and pages
 * whose last two words are not "page" and their own number. */
typedef struct {
    long pages, pages_with_words, near_edge, footers_missing;
} word_boxes;

static bool read_word_boxes(const char *path, word_boxes *w)
{
    char html[700];
    snprintf(html, sizeof html, "%s.bbox.html", path);
    *w = (word_boxes){0};
    if (testutil_run_commandf(NULL, "pdftotext -bbox '%s' '%s'", path, html) != 0)
        return false;
    FILE *f = fopen(html, "r");
    if (!f)
        return false;
    const double edge = 28.35;
    double pw = 0, ph = 0;
    long words = 0;
    char line[4096], last[2][256] = {"", ""};
    while (fgets(line, sizeof line, f)) {
        double x0, y0, x1, y1;
        char text[256];
        bool page_end = strstr(line, "</page>") != NULL;
        if (sscanf(line, " <page width=\"%lf\" height=\"%lf\">", &pw, &ph) == 2) {
            w->pages++, words = 0;
        } else if (sscanf(line, " <word xMin=\"%lf\" yMin=\"%lf\" xMax=\"%lf\" yMax=\"%lf\">%255[^<]",
                          &x0, &y0, &x1, &y1, text) == 5) {
            words++;
            w->near_edge += x0 < edge || y0 < edge || x1 > pw - edge || y1 > ph - edge;
            memcpy(last[0], last[1], sizeof last[0]);
            snprintf(last[1], sizeof last[1], "%s", text);
        } else if (page_end) {
            char number[32];
            snprintf(number, sizeof number, "%ld", w->pages);
            w->pages_with_words += words > 0;
            w->footers_missing += strcmp(last[0], "page") != 0 || strcmp(last[1], number) != 0;
        }
    }
    fclose(f);
    unlink(html);
    return true;
}

/* The page count pdfinfo reads, -1 when it cannot. */
static long pdf_pages(const char *path)
{
    char *out = NULL;
    long pages = -1;
    if (testutil_run_commandf(&out, "pdfinfo '%s'", path) == 0 && out) {
        const char *p = strstr(out, "\nPages:");
        if (p)
            pages = strtol(p + 7, NULL, 10);
    }
    free(out);
    return pages;
}

static bool same_bytes(const char *a, const char *b)
{
    return testutil_run_commandf(NULL, "cmp -s '%s' '%s'", a, b) == 0;
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* ------------------------------------------------------------------ */
/* Reading durations back                                              */

static const char *skip_spaces(const char *s)
{
    while (*s == ' ')
        s++;
    return s;
}

/* A duration as people read it ("20.92 s", "6 min 29 s", "2 h 05 min",
 * "0†"): seconds, NAN when s does not start with one; *end after it. */
static double parse_duration(const char *s, const char **end)
{
    double total = 0;
    bool any = false;
    s = skip_spaces(s);
    if (strncmp(s, "0\xE2\x80\xA0", 4) == 0) { /* a lower end clipped at 0 */
        *end = s + 4;
        return 0;
    }
    /* Its parts go from larger units to smaller ("1 h 05 min", "6 min 29 s");
     * what follows a part in seconds is not this duration's. */
    for (double last = 1e9; last > 1;) {
        char *after;
        double v = strtod(s, &after);
        if (after == s)
            break;
        const char *u = skip_spaces(after);
        double unit = strncmp(u, "min", 3) == 0 ? 60 : u[0] == 'h' ? 3600 : u[0] == 's' ? 1 : 0;
        if (unit == 0 || unit >= last)
            break;
        last = unit;
        total += v * unit;
        any = true;
        s = u + (unit == 60 ? 3 : 1);
        *end = s;
        s = skip_spaces(s);
    }
    return any ? total : NAN;
}

/* Whether shown (a duration read from the PDF) is v as the pages round it:
 * 4 significant digits under a minute, whole seconds under an hour, whole
 * minutes above. */
static bool duration_matches(double shown, double v)
{
    double m = fmax(shown, v); /* 59.996 s is shown as "1 min 0 s" */
    double tol = m < 60 ? 5e-4 * v + 1e-9 : m < 3600 ? 0.51 : 30.1;
    return v < 0 ? shown == 0 : fabs(shown - v) <= tol;
}

/* After "JOB  EXPERIMENT": the time, then the interval "lo – hi". */
static bool row_values_match(const char *rest, double t, double lo, double hi)
{
    const char *p;
    double shown = parse_duration(rest, &p);
    if (!duration_matches(shown, t))
        return false;
    if (!isfinite(lo) || !isfinite(hi))
        return strncmp(skip_spaces(p), "\xE2\x80\x94", 3) == 0;
    double slo = parse_duration(p, &p);
    p = skip_spaces(p);
    if (strncmp(p, "\xE2\x80\x93", 3) != 0)
        return false;
    double shi = parse_duration(p + 3, &p);
    return duration_matches(slo, lo) && duration_matches(shi, hi);
}

/* Where the line "LINE" starts in text (a page's first line follows a
 * form feed), from `from` on; NULL when there is none. */
static const char *find_line(const char *text, const char *from, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = strstr(from, line); p; p = strstr(p + 1, line))
        if ((p == text || p[-1] == '\n' || p[-1] == '\f') && (p[n] == '\n' || p[n] == '\0'))
            return p;
    return NULL;
}

/* The part of text from the heading "Cluster NAME" (a line of its own) to
 * the next cluster heading: malloc'ed, or NULL when there is none. */
static char *cluster_section(const char *text, const char *name)
{
    char heading[300];
    snprintf(heading, sizeof heading, "Cluster %s", name);
    const char *from = find_line(text, text, heading);
    if (!from)
        return NULL;
    const char *to = strstr(from + 1, "\fCluster ");
    size_t n = to ? (size_t)(to - from) : strlen(from);
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, from, n);
        s[n] = '\0';
    }
    return s;
}

/* The start of the line after p's, NULL at the end of s. */
static const char *next_line(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : NULL;
}

/* The words a job's cell adds after its name when estimates.csv says the
 * job is oversubscribed (the page's flag, gen/site/site_option_text.h). */
static const char crowd_flag[] = " (oversubscribed";

/* Whether cell text t of n characters is exactly the job's rest, or, for
 * a flagged job, the rest followed by the flag. */
static bool cell_is(const char *rest, const char *t, size_t n, bool flagged)
{
    size_t r = strlen(rest);
    if (r >= n)
        return strncmp(rest, t, n) == 0;
    return flagged && strncmp(rest, t, r) == 0 &&
           strncmp(t + r, crowd_flag, sizeof crowd_flag - 1) == 0;
}

/* Whether the rest of a job's name wrapped in its cell, rest, is what
 * the lines from `line` on start with (pdftotext -layout puts a cell's
 * next lines at its column, under the row); a flagged job's cell may go
 * on with the flag. */
static bool continues(const char *line, const char *rest, bool flagged)
{
    rest = skip_spaces(rest);
    while (*rest && line) {
        const char *t = skip_spaces(line);
        size_t n = strcspn(t, "\n");
        const char *gap = strstr(t, "  "); /* another wrapped cell further right */
        if (gap && (size_t)(gap - t) < n)
            n = (size_t)(gap - t);
        if (n == 0 || !cell_is(rest, t, n, flagged))
            return false;
        if (strlen(rest) < n)
            return true; /* the flag follows the name on this line */
        rest = skip_spaces(rest + n);
        line = next_line(line);
    }
    return *rest == '\0';
}

/* Whether a row of section has the job (wrapped in its cell or not), its
 * experiment, and the CSV's time and interval (the same job can be
 * predicted by several experiments and rows, so any such row). */
static bool section_has_row(const char *section, const char *job, bool flagged,
                            const char *experiment, double t, double lo, double hi)
{
    size_t elen = strlen(experiment);
    for (const char *line = section; line; line = next_line(line)) {
        size_t len = strcspn(line, "\n");
        for (const char *e = strstr(line, experiment); e && e < line + len;
             e = strstr(e + 1, experiment)) {
            const char *head = skip_spaces(line);
            size_t n = (size_t)(e - head);
            while (n > 0 && head[n - 1] == ' ')
                n--;
            if (e == line || e[-1] != ' ' || e[elen] != ' ' || n == 0 ||
                !cell_is(job, head, n, flagged))
                continue;
            const char *rest = n < strlen(job) ? job + n : "";
            if (row_values_match(e + elen, t, lo, hi) &&
                continues(next_line(line), rest, flagged))
                return true;
        }
    }
    return false;
}

static double num(const csv_doc *doc, size_t r, const char *col)
{
    const char *v = testutil_csv_cell(doc, r, col);
    return v && *v ? atof(v) : NAN;
}

/* The text of the site's own report of cluster (its folder is named as
 * the cluster in these archives), NULL when there is none. */
static char *cluster_report_text(const char *site, const char *cluster)
{
    char path[700];
    snprintf(path, sizeof path, "%s/clusters/%s/report.pdf", site, cluster);
    return pdf_text(path);
}

/* Every row of site/estimates.csv on its cluster's section of text (NULL:
 * of that cluster's own report on the site); returns how many rows were
 * checked. */
static size_t check_rows(const char *site, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/estimates.csv", site);
    csv_doc doc;
    CU_ASSERT_TRUE_FATAL(testutil_csv_load(path, &doc));
    size_t checked = 0;
    for (size_t r = 0; r + 1 < doc.nrows; r++) {
        const char *cluster = testutil_csv_cell(&doc, r, "cluster");
        const char *job = testutil_csv_cell(&doc, r, "job");
        const char *exp = testutil_csv_cell(&doc, r, "experiment");
        char *own = text ? NULL : cluster_report_text(site, cluster);
        char *section = text || own ? cluster_section(text ? text : own, cluster) : NULL;
        free(own);
        bool flagged = num(&doc, r, "oversubscribed") == 1;
        bool found = section && section_has_row(section, job, flagged, exp,
                                                num(&doc, r, "time_s"),
                                                num(&doc, r, "cal_pi_low_s"),
                                                num(&doc, r, "cal_pi_high_s"));
        if (!found)
            printf("\n  not in the PDF: %s / %s / %s (%s s)", cluster, job, exp,
                   testutil_csv_cell(&doc, r, "time_s"));
        CU_ASSERT_TRUE(found);
        checked++;
        free(section);
    }
    csv_doc_free(&doc);
    return checked;
}

/* ------------------------------------------------------------------ */
/* A small archive: two clusters with predictions, one without         */

static char dir[256];

static void write_tiny_archive(void)
{
    char path[512], runs[4096] = "cluster,np,rep,time_s,date\n";
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/arch/clusters.csv", dir);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(
        path, "cluster,nodes,cores_per_node,rate_per_core_hour,currency\n"
              "alpha-one,4,8,2,EUR\nbeta-two,2,16,0.5,EUR\ngamma-idle,1,4,1,EUR\n"));
    snprintf(path, sizeof path, "%s/arch/tiny/README.md", dir);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, "A tiny campaign.\n"));
    snprintf(path, sizeof path, "%s/arch/tiny/experiments.csv", dir);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(
        path, "name,model,response,formula,train,target\n"
              "alpha,scopred,time_s,1/np,cluster == 'alpha-one' && np <= 8,np == 32\n"
              "beta,scopred,time_s,1/np,cluster == 'beta-two' && np <= 8,np == 16\n"));
    static const char *const clusters[] = {"alpha-one", "beta-two"};
    static const double base[] = {400, 900};
    for (int c = 0; c < 2; c++) {
        for (int np = 1; np <= 8; np *= 2)
            for (int rep = 1; rep <= 2; rep++) {
                size_t n = strlen(runs);
                snprintf(runs + n, sizeof runs - n, "%s,%d,%d,%.4f,2025-03-0%d\n", clusters[c],
                         np, rep, base[c] / np * (1 + 0.02 * rep), rep);
            }
        size_t n = strlen(runs);
        snprintf(runs + n, sizeof runs - n, "%s,%d,1,,\n", clusters[c], c ? 16 : 32);
    }
    snprintf(path, sizeof path, "%s/arch/tiny/runs.csv", dir);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, runs));
}

static void test_small_archive(void)
{
    if (!have_poppler())
        return;
    write_tiny_archive();
    char *out = NULL, pdf[512], again[512], site[512];
    snprintf(site, sizeof site, "%s/site", dir);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "build --archive %s/arch --out %s --quiet",
                                                dir, site), 0);
    free(out);
    snprintf(pdf, sizeof pdf, "%s/r.pdf", dir);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "report --archive %s/arch --out %s", dir,
                                                pdf), 0);
    long said = out && strstr(out, ": ") ? strtol(strstr(out, ": ") + 2, NULL, 10) : -2;
    free(out);
    CU_ASSERT_EQUAL(pdf_pages(pdf), said);
    CU_ASSERT(said >= 3); /* title, and a page per cluster with predictions */
    /* Deterministic: again, and as the site has it. */
    snprintf(again, sizeof again, "%s/again.pdf", dir);
    CU_ASSERT_EQUAL(testutil_perfcast_run(NULL, "report --archive %s/arch --out %s", dir, again),
                    0);
    CU_ASSERT_TRUE(same_bytes(pdf, again));
    char *text = pdf_text(pdf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(check_rows(site, text), 2);
    CU_ASSERT_EQUAL(check_rows(site, NULL), 2); /* each in its cluster's own report */
    /* A cluster without predictions is in the clusters table only. */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "gamma-idle"));
    CU_ASSERT_PTR_NULL(find_line(text, text, "Cluster gamma-idle"));
    /* Hand-derived cost: beta's target is 900/16 s (the fit of exact 1/np
     * data up to the 2% rep spread: within 3%) on 16 processes at 0.5 EUR
     * per core-hour: 16 * 56.25 / 3600 * 0.5 = 0.125 EUR. */
    char *beta = cluster_section(text, "beta-two");
    CU_ASSERT_PTR_NOT_NULL_FATAL(beta);
    const char *eur = strstr(beta, " EUR");
    const char *p = eur;
    while (p && p > beta && p[-1] != ' ')
        p--;
    double cost = p ? atof(p) : NAN;
    CU_ASSERT(fabs(cost - 0.125) <= 0.125 * 0.03 + 0.005);
    if (!(fabs(cost - 0.125) <= 0.125 * 0.03 + 0.005))
        printf("\n  beta-two's cost read as %g EUR, not about 0.125", cost);
    free(beta);
    free(text);
}

/* A PDF whose every page has words and ends with its footer, none near
 * the paper's edge, as many pages as pdfinfo reads; false otherwise. */
static bool pages_whole(const char *path)
{
    word_boxes w;
    bool ok = read_word_boxes(path, &w) && w.pages > 0 && w.pages == pdf_pages(path) &&
              w.pages_with_words == w.pages && w.footers_missing == 0 && w.near_edge == 0;
    if (!ok)
        printf("\n  %s: %ld pages, %ld with words, %ld footers missing, %ld words near the edge",
               path, w.pages, w.pages_with_words, w.footers_missing, w.near_edge);
    return ok;
}

/* The site's report: a front naming each cluster's report, and one report
 * per cluster with that cluster alone, linked from its page. */
static void test_site_reports(void)
{
    if (!have_poppler())
        return;
    char path[600], *text;
    snprintf(path, sizeof path, "%s/site/report.pdf", dir);
    CU_ASSERT_TRUE(pages_whole(path));
    CU_ASSERT_PTR_NOT_NULL_FATAL(text = pdf_text(path));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "clusters/alpha-one/report.pdf"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "clusters/gamma-idle/report.pdf"));
    CU_ASSERT_PTR_NULL(find_line(text, text, "Cluster alpha-one"));
    CU_ASSERT_PTR_NULL(strstr(text, "tiny: 32 processes")); /* no cost table */
    free(text);
    static const char *const names[] = {"alpha-one", "beta-two", "gamma-idle"};
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/site/clusters/%s/report.pdf", dir, names[k]);
        CU_ASSERT_TRUE(pages_whole(path));
        CU_ASSERT_PTR_NOT_NULL_FATAL(text = pdf_text(path));
        char heading[64];
        snprintf(heading, sizeof heading, "Cluster %s", names[k]);
        CU_ASSERT_PTR_NOT_NULL(find_line(text, text, heading));
        for (int other = 0; other < 3; other++)
            CU_ASSERT(other == k || strstr(text, names[other]) == NULL);
        free(text);
        snprintf(path, sizeof path, "%s/site/clusters/%s/index.md", dir, names[k]);
        text = testutil_read_file(path);
        CU_ASSERT_PTR_NOT_NULL(text && strstr(text, "[Printable report (PDF)](report.pdf)"));
        free(text);
    }
    /* alpha's job and not beta's; gamma has none. */
    snprintf(path, sizeof path, "%s/site", dir);
    char *alpha = cluster_report_text(path, "alpha-one");
    char *gamma = cluster_report_text(path, "gamma-idle");
    CU_ASSERT_PTR_NOT_NULL_FATAL(alpha);
    CU_ASSERT_PTR_NOT_NULL(strstr(alpha, "tiny: 32 processes"));
    CU_ASSERT_PTR_NULL(strstr(alpha, "16 processes"));
    CU_ASSERT_PTR_NOT_NULL(gamma && strstr(gamma, "No experiment predicts a run on this cluster"));
    free(alpha);
    free(gamma);
    char *out = NULL;
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "build --archive %s/arch --out %s/site --verify",
                                          dir, dir), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, " 0 problems"));
    free(out);
}

/* Cluster name's report's creation date as pdfinfo reads it
 * ("2025-03-02"), malloc'ed, or NULL. */
static char *report_date(const char *site, const char *name)
{
    char *out = NULL, *date = NULL;
    if (testutil_run_commandf(&out, "pdfinfo -isodates '%s/%s/clusters/%s/report.pdf'", dir, site,
                              name) == 0 && out) {
        const char *p = strstr(out, "\nCreationDate:");
        p = p ? skip_spaces(p + 14) : NULL;
        if (p && (date = malloc(11))) {
            memcpy(date, p, 10);
            date[10] = '\0';
        }
    }
    free(out);
    return date;
}

/* Hard links from the previous site: a report kept by the rebuild still
 * has two (find -links), one made again has one. */
static long links_of(const char *site, const char *name)
{
    char path[700];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s/clusters/%s/report.pdf", dir, site, name);
    return stat(path, &st) == 0 ? (long)st.st_nlink : -1;
}

static bool same_report(const char *a, const char *b, const char *name)
{
    char pa[700], pb[700];
    snprintf(pa, sizeof pa, "%s/%s/clusters/%s/report.pdf", dir, a, name);
    snprintf(pb, sizeof pb, "%s/%s/clusters/%s/report.pdf", dir, b, name);
    return same_bytes(pa, pb);
}

/* One new run on alpha-one: a night's rebuild (a copy of links to the
 * last site, as .ci/nightly makes it) makes alpha-one's report again,
 * dated by that run, and keeps the others' files as they were; every
 * report is what a build from nothing makes. */
static void test_rebuild_keeps(void)
{
    if (!have_poppler())
        return;
    char path[600], *out = NULL;
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(NULL, "cp -al %s/site %s/night", dir, dir), 0);
    snprintf(path, sizeof path, "%s/arch/tiny/runs.csv", dir);
    char *runs = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
    size_t n = strlen(runs);
    char *more = malloc(n + 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(more);
    snprintf(more, n + 64, "%salpha-one,4,3,103.5,2025-03-09\n", runs);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(path, more));
    free(runs);
    free(more);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "build --archive %s/arch --out %s/night "
                                                "--verify", dir, dir), 0);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, " 0 problems"));
    free(out);
    CU_ASSERT_EQUAL(links_of("night", "alpha-one"), 1);
    CU_ASSERT_FALSE(same_report("site", "night", "alpha-one"));
    static const char *const kept[] = {"beta-two", "gamma-idle"};
    for (int k = 0; k < 2; k++) {
        CU_ASSERT_EQUAL(links_of("night", kept[k]), 2);
        CU_ASSERT_TRUE(same_report("site", "night", kept[k]));
    }
    /* Dated by the runs on the cluster: the new one for alpha-one, beta's
     * own newest for beta-two (its runs of 2025-03-01 and -02). */
    char *a = report_date("night", "alpha-one"), *b = report_date("night", "beta-two");
    CU_ASSERT_PTR_NOT_NULL(a && strcmp(a, "2025-03-09") == 0 ? a : NULL);
    CU_ASSERT_PTR_NOT_NULL(b && strcmp(b, "2025-03-02") == 0 ? b : NULL);
    free(a);
    free(b);
    /* gamma-idle has no runs and the build no SOURCE_DATE_EPOCH: no date
     * at all (it was 1970-01-01). */
    char *none = report_date("night", "gamma-idle");
    CU_ASSERT_PTR_NULL(none);
    free(none);
    /* Kept or made, each report has the bytes of a build from nothing. */
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(NULL, "build --archive %s/arch --out %s/fresh "
                                                "--quiet", dir, dir), 0);
    static const char *const all[] = {"alpha-one", "beta-two", "gamma-idle"};
    for (int k = 0; k < 3; k++)
        CU_ASSERT_TRUE(same_report("night", "fresh", all[k]));
    snprintf(path, sizeof path, "%s/night/report.pdf", dir);
    char fresh[600];
    snprintf(fresh, sizeof fresh, "%s/fresh/report.pdf", dir);
    CU_ASSERT_TRUE(same_bytes(path, fresh));
}

static void test_one_cluster(void)
{
    if (!have_poppler())
        return;
    char *out = NULL, pdf[512];
    snprintf(pdf, sizeof pdf, "%s/alpha.pdf", dir);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "report --archive %s/arch --out %s "
                                                "--cluster alpha-one", dir, pdf), 0);
    free(out);
    char *text = pdf_text(pdf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(find_line(text, text, "Cluster alpha-one"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "tiny: 32 processes"));
    CU_ASSERT_PTR_NULL(strstr(text, "beta-two"));
    CU_ASSERT_PTR_NULL(strstr(text, "gamma-idle"));
    CU_ASSERT_PTR_NULL(strstr(text, "16 processes"));
    free(text);
}

/* Each bad call: exit status, a message naming what is wrong, no file. */
static void test_bad_arguments(void)
{
    char *out = NULL, pdf[512], link[512], target[512];
    snprintf(pdf, sizeof pdf, "%s/bad.pdf", dir);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "report --archive %s/arch --out %s --cluster "
                                          "delta", dir, pdf), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "unknown cluster delta"));
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "alpha-one, beta-two, gamma-idle"));
    free(out);
    CU_ASSERT_FALSE(exists(pdf));
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "report --archive %s/arch --out %s/no/such/x.pdf",
                                          dir, dir), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "cannot write"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "report --archive %s/arch --out", dir), 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "missing value after --out"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "report --archive %s/arch --cluser alpha-one",
                                          dir), 2);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "unknown option --cluser"));
    free(out);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "report --archive %s/none --out %s", dir, pdf), 1);
    free(out);
    CU_ASSERT_FALSE(exists(pdf));
    /* A symbolic link is refused, and what it points at is left alone. */
    snprintf(target, sizeof target, "%s/target.txt", dir);
    snprintf(link, sizeof link, "%s/link.pdf", dir);
    CU_ASSERT_TRUE_FATAL(testutil_write_file(target, "mine\n"));
    CU_ASSERT_EQUAL_FATAL(symlink(target, link), 0);
    CU_ASSERT_EQUAL(testutil_perfcast_run(&out, "report --archive %s/arch --out %s", dir, link), 1);
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, "symbolic link"));
    free(out);
    char *kept = testutil_read_file(target);
    CU_ASSERT_PTR_NOT_NULL(kept && strcmp(kept, "mine\n") == 0);
    free(kept);
    /* No temporary file is left beside the outputs. */
    CU_ASSERT_EQUAL(testutil_run_commandf(NULL, "ls -A '%s' | grep -q tmp-", dir), 1);
    testutil_remove_dir(dir);
}

/* ------------------------------------------------------------------ */
/* The embedded archive                                                */

static void test_embedded(void)
{
    if (!have_poppler())
        return;
    char *out = NULL, site[512], pdf[512], site_pdf[600];
    CU_ASSERT_TRUE_FATAL(testutil_temp_dir(dir, sizeof dir));
    snprintf(site, sizeof site, "%s/site", dir);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "build --archive archive --out %s --quiet",
                                                site), 0);
    free(out);
    snprintf(site_pdf, sizeof site_pdf, "%s/report.pdf", site);
    snprintf(pdf, sizeof pdf, "%s/report.pdf", dir);
    CU_ASSERT_EQUAL_FATAL(testutil_perfcast_run(&out, "report --out %s", pdf), 0);
    long said = out && strstr(out, ": ") ? strtol(strstr(out, ": ") + 2, NULL, 10) : -2;
    free(out);
    CU_ASSERT_EQUAL(pdf_pages(pdf), said);
    CU_ASSERT(said > 5);
    char path[600];
    snprintf(path, sizeof path, "%s/index.md", site);
    char *index = testutil_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(index && strstr(index, "[Printable report (PDF)](report.pdf)"));
    free(index);
    word_boxes boxes;
    CU_ASSERT_TRUE_FATAL(read_word_boxes(pdf, &boxes));
    CU_ASSERT_EQUAL(boxes.pages, said);
    CU_ASSERT_EQUAL(boxes.pages_with_words, said);
    CU_ASSERT_EQUAL(boxes.near_edge, 0);
    CU_ASSERT_EQUAL(boxes.footers_missing, 0);
    /* The site's front and every cluster's own report. */
    CU_ASSERT_TRUE(pages_whole(site_pdf));
    char *reports = NULL;
    CU_ASSERT_EQUAL(testutil_run_commandf(&reports, "ls %s/clusters/*/report.pdf", site), 0);
    size_t nreports = 0;
    for (char *line = reports ? strtok(reports, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        CU_ASSERT_TRUE(pages_whole(line));
        nreports++;
    }
    free(reports);
    CU_ASSERT(nreports > 10);
    CU_ASSERT(check_rows(site, NULL) > 100);
    char *text = pdf_text(pdf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT(check_rows(site, text) > 100);
    /* The advice and the charts' own text (vector text, not pictures). */
    CU_ASSERT_PTR_NOT_NULL(find_line(text, text, "Advice"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "wrg2-myrinet:64"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "Cost vs time on dev-16core"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "predicted time (s)"));
    free(text);
    testutil_remove_dir(dir);
}

int main(void)
{
    static const testutil_test small[] = {
        {"every job with its time and interval, page count, same bytes", test_small_archive},
        {"the site's front and clusters' reports", test_site_reports},
        {"--cluster keeps one cluster", test_one_cluster},
        {"a new run on one cluster remakes its report only", test_rebuild_keeps},
        {"bad arguments write nothing", test_bad_arguments},
        {NULL, NULL},
    };
    static const testutil_test embedded[] = {
        {"every estimate of the embedded archive is in the site's report.pdf", test_embedded},
        {NULL, NULL},
    };
    static const testutil_suite suites[] = {
        {"report of a small archive", small}, {"report of the embedded archive", embedded},
        {NULL, NULL}};
    return testutil_run_suites(suites);
}
