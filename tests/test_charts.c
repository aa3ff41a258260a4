/*
 * test_charts.c — the site's charts as a reader gets them, checked from
 * the SVG files alone: built by the perfcast binary from a small archive
 * written here (and from the embedded archive), parsed with libxml2,
 * never with the chart writer's code.
 *
 * The small archive: two clusters x five problem sizes N, trained on
 * np = 3, 6, 12 and predicted at np = 14 and 24 (scopred, time = a +
 * b N/np), so its time-vs-processes chart has 10 series. Checked:
 *  - small multiples: one panel per cluster (5 series each), no single
 *    chart with all 10;
 *  - x ticks at the data's process counts 3, 6, 12, 14, 24;
 *  - every fitted curve and its calibrated PI band span the plotted
 *    range from the first training run (np 3) to the last target (np 24);
 *  - training and held-out runs named apart in the legend.
 * On every SVG of both sites:
 *  - no legend or label cut short ("…", "… N more");
 *  - every colour is a themed CSS variable defined for the light and the
 *    dark scheme (prefers-color-scheme), the dark background is dark, and
 *    each palette colour has WCAG contrast >= 3:1 on its scheme's
 *    background (text >= 4.5:1), and no two palette colours of a scheme
 *    are closer than a CIE76 colour difference of 20 (CIELAB from sRGB,
 *    D65), computed here from the hex values;
 *  - every text is at least 11 px when the chart is shown at a 390 px
 *    viewport: the page's content column there is 390 - 2 x 9.6 px
 *    padding (style.css, max-width 40rem: padding 0 0.6rem) - 2 x 1 px
 *    image border = 368.8 px, and a wider SVG is scaled down to it.
 * And one plot drawn here: a legend entry wider than the chart breaks after
 * a comma onto a second line (the drawing one legend row taller).
 */
#include "tests/testutil.h"

#include "render/chart.h"
#include "render/plot.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char work[256];

/* ------------------------------------------------------------------ */
/* WCAG 2.1 contrast, from the definition                              */

static double channel(unsigned v)
{
    double c = v / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double luminance(unsigned rgb)
{
    return 0.2126 * channel(rgb >> 16 & 0xFF) + 0.7152 * channel(rgb >> 8 & 0xFF) +
           0.0722 * channel(rgb & 0xFF);
}

static double contrast(unsigned a, unsigned b)
{
    double la = luminance(a), lb = luminance(b);
    return (fmax(la, lb) + 0.05) / (fmin(la, lb) + 0.05);
}

/* CIELAB (D65 white, sRGB primaries) and the CIE76 difference between
 * two colours: the Euclidean distance in L*a*b*. */
static void lab(unsigned rgb, double out[3])
{
    double r = channel(rgb >> 16 & 0xFF), g = channel(rgb >> 8 & 0xFF), b = channel(rgb & 0xFF);
    double xyz[3] = {(0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
                     0.2126 * r + 0.7152 * g + 0.0722 * b,
                     (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883};
    double f[3];
    for (int k = 0; k < 3; k++)
        f[k] = xyz[k] > 216.0 / 24389 ? cbrt(xyz[k]) : (24389.0 / 27 * xyz[k] + 16) / 116;
    out[0] = 116 * f[1] - 16, out[1] = 500 * (f[0] - f[1]), out[2] = 200 * (f[1] - f[2]);
}

static double delta_e(unsigned a, unsigned b)
{
    double x[3], y[3];
    lab(a, x), lab(b, y);
    return sqrt(pow(x[0] - y[0], 2) + pow(x[1] - y[1], 2) + pow(x[2] - y[2], 2));
}

/* Published values: white is L* 100, a* b* 0; black L* 0; sRGB red is
 * L* 53.24, a* 80.09, b* 67.20; black to white is a difference of 100. */
static void test_lab_formula(void)
{
    double v[3];
    lab(0xFFFFFF, v);
    CU_ASSERT_DOUBLE_EQUAL(v[0], 100, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(v[1], 0, 0.05); /* the 4-digit matrix: white's b* is 0.02 */
    CU_ASSERT_DOUBLE_EQUAL(v[2], 0, 0.05);
    lab(0xFF0000, v);
    CU_ASSERT_DOUBLE_EQUAL(v[0], 53.24, 0.05);
    CU_ASSERT_DOUBLE_EQUAL(v[1], 80.09, 0.1);
    CU_ASSERT_DOUBLE_EQUAL(v[2], 67.20, 0.1);
    CU_ASSERT_DOUBLE_EQUAL(delta_e(0x000000, 0xFFFFFF), 100, 0.01);
}

/* Hand-checked values: black on white is 21:1, Okabe-Ito yellow on white
 * 1.3:1 and sky blue 2.3:1 (issue 13's figures). */
static void test_contrast_formula(void)
{
    CU_ASSERT_DOUBLE_EQUAL(contrast(0x000000, 0xFFFFFF), 21.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(contrast(0xF0E442, 0xFFFFFF), 1.3, 0.05);
    CU_ASSERT_DOUBLE_EQUAL(contrast(0x56B4E9, 0xFFFFFF), 2.3, 0.05);
    CU_ASSERT_DOUBLE_EQUAL(contrast(0x777777, 0x777777), 1.0, 1e-12);
}

/* ------------------------------------------------------------------ */
/* The colour variables of a chart's <style>                           */

enum { MAX_VARS = 48 };

typedef struct {
    char name[MAX_VARS][24];
    unsigned value[MAX_VARS];
    size_t n;
} var_set;

/* "--name:#RRGGBB;" pairs of the first "{...}" block at or after from. */
static const char *parse_block(const char *from, var_set *v)
{
    const char *open = strchr(from, '{');
    if (!open)
        return NULL;
    while (open[1] == 's' || open[1] == '{') /* "svg{" inside "@media (...){" */
        open = strchr(open + 1, '{');
    const char *close = open ? strchr(open, '}') : NULL;
    if (!close)
        return NULL;
    v->n = 0;
    for (const char *p = open; (p = strstr(p, "--")) != NULL && p < close && v->n < MAX_VARS;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p - 2) : 0;
        if (!colon || len == 0 || len >= sizeof v->name[0])
            return NULL;
        memcpy(v->name[v->n], p + 2, len);
        v->name[v->n][len] = '\0';
        if (sscanf(colon, ":#%6x", &v->value[v->n]) != 1)
            return NULL;
        v->n++;
        p = colon;
    }
    return close;
}

static bool var_value(const var_set *v, const char *name, unsigned *out)
{
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->name[i], name) == 0) {
            *out = v->value[i];
            return true;
        }
    return false;
}

/* ------------------------------------------------------------------ */
/* One SVG                                                             */

typedef struct {
    double width;
    var_set light, dark;
    bool has_dark;
    size_t texts, small_texts, cut_texts, unthemed, undefined_vars;
    size_t low_contrast;    /* palette or grey colours under 3:1, text under 4.5:1 */
    size_t close_hues;      /* pairs of palette colours closer than CIE76 20 */
    char first_problem[256];
} svg_report;

static void note(svg_report *r, const char *what, const char *detail)
{
    if (!r->first_problem[0])
        snprintf(r->first_problem, sizeof r->first_problem, "%s: %.200s", what, detail);
}

static void check_contrast(svg_report *r, const var_set *v, const char *scheme)
{
    unsigned bg;
    if (!var_value(v, "bg", &bg)) {
        r->low_contrast++;
        note(r, "no --bg in", scheme);
        return;
    }
    for (size_t i = 0; i < v->n; i++) {
        const char *n = v->name[i];
        bool text = strncmp(n, "text", 4) == 0;
        bool mark = (n[0] == 'c' && n[1] >= '0' && n[1] <= '9') || strcmp(n, "grey") == 0;
        double need = text ? 4.5 : mark ? 3.0 : 0;
        if (contrast(v->value[i], bg) < need) {
            r->low_contrast++;
            note(r, "low contrast", n);
        }
    }
}

/* Series must be told apart: every two palette colours (c0, c1, ...) of a
 * scheme at least a CIE76 difference of 20 apart. */
enum { MIN_DELTA_E = 20 };

static bool is_palette(const char *name)
{
    return name[0] == 'c' && name[1] >= '0' && name[1] <= '9';
}

static void check_distances(svg_report *r, const var_set *v)
{
    for (size_t i = 0; i < v->n; i++)
        for (size_t j = i + 1; j < v->n; j++)
            if (is_palette(v->name[i]) && is_palette(v->name[j]) &&
                delta_e(v->value[i], v->value[j]) < MIN_DELTA_E) {
                r->close_hues++;
                note(r, "close colours", v->name[j]);
            }
}

static void check_style(svg_report *r, const char *css)
{
    const char *end = parse_block(css, &r->light);
    const char *media = strstr(css, "@media (prefers-color-scheme: dark)");
    r->has_dark = end && media && parse_block(media, &r->dark);
    if (!end)
        note(r, "unreadable <style>", css);
}

/* Every colour of a style attribute ("fill:#0072B2;fill:var(--c0)") must
 * be followed by the same property as a variable both schemes define. */
static void check_paint(svg_report *r, const char *style)
{
    for (const char *p = style; (p = strchr(p, '#')) != NULL; p++) {
        const char *colon = p;
        while (colon > style && colon[-1] != ';' && colon[-1] != ' ')
            colon--;
        char want[40];
        snprintf(want, sizeof want, "%.*s", (int)(p - colon), colon); /* "fill:" */
        char var[48];
        snprintf(var, sizeof var, "%svar(--", want);
        if (!want[0] || !strstr(p, var)) {
            r->unthemed++;
            note(r, "colour without a variable", style);
            return;
        }
    }
    for (const char *p = style; (p = strstr(p, "var(--")) != NULL; p += 6) {
        char name[24];
        unsigned v;
        if (sscanf(p, "var(--%23[a-z0-9-])", name) != 1 || !var_value(&r->light, name, &v) ||
            !var_value(&r->dark, name, &v)) {
            r->undefined_vars++;
            note(r, "undefined variable", p);
        }
    }
}

static char *prop(xmlNode *n, const char *name)
{
    return (char *)xmlGetProp(n, (const xmlChar *)name);
}

static bool is(xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The phone's content column, see the header. */
#define PHONE_COLUMN_PX 368.8

static void check_text(svg_report *r, xmlNode *n)
{
    char *size = prop(n, "font-size");
    char *content = (char *)xmlNodeGetContent(n);
    double px = size ? strtod(size, NULL) : 0;
    double shown = px * fmin(1.0, PHONE_COLUMN_PX / r->width);
    r->texts++;
    if (shown < 11.0 - 1e-9) {
        r->small_texts++;
        note(r, "text under 11 px at 390 px", content ? content : "");
    }
    if (content && strstr(content, "\xE2\x80\xA6")) {
        r->cut_texts++;
        note(r, "text cut short", content);
    }
    char *fill = prop(n, "fill"), *style = prop(n, "style");
    if (fill && (!style || !strstr(style, "var(--"))) {
        r->unthemed++;
        note(r, "text colour without a variable", content ? content : "");
    }
    if (style)
        check_paint(r, style);
    xmlFree(size), xmlFree(content), xmlFree(fill), xmlFree(style);
}

static void walk(svg_report *r, xmlNode *n)
{
    for (; n; n = n->next) {
        if (is(n, "text")) {
            check_text(r, n);
            continue;
        }
        if (n->type == XML_ELEMENT_NODE && !is(n, "style")) {
            char *style = prop(n, "style");
            if (style)
                check_paint(r, style);
            xmlFree(style);
        }
        walk(r, n->children);
    }
}

static xmlDoc *read_svg(const char *path)
{
    return xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
}

static xmlNode *find_style(xmlNode *n)
{
    for (; n; n = n->next) {
        if (is(n, "style"))
            return n;
        xmlNode *in = find_style(n->children);
        if (in)
            return in;
    }
    return NULL;
}

static bool check_svg(const char *path, svg_report *r)
{
    memset(r, 0, sizeof *r);
    xmlDoc *doc = read_svg(path);
    if (!doc) {
        note(r, "not well-formed XML", path);
        return false;
    }
    xmlNode *root = xmlDocGetRootElement(doc);
    char *w = prop(root, "width");
    r->width = w ? strtod(w, NULL) : 0;
    xmlFree(w);
    xmlNode *style = find_style(root);
    char *css = style ? (char *)xmlNodeGetContent(style) : NULL;
    if (css)
        check_style(r, css);
    else
        note(r, "no <style>", path);
    xmlFree(css);
    if (r->has_dark) {
        check_contrast(r, &r->light, "light");
        check_contrast(r, &r->dark, "dark");
        check_distances(r, &r->light);
        check_distances(r, &r->dark);
    }
    walk(r, root);
    xmlFreeDoc(doc);
    return r->width > 0;
}

/* ------------------------------------------------------------------ */
/* Sites                                                               */

static bool write(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", work, rel);
    return testutil_write_file(path, text);
}

/* Two clusters, N = 1000..5000, np 3, 6, 12 (training) and 14, 24
 * (targets), two repetitions +-1%. */
static bool write_archive(void)
{
    bool ok = write("arch/clusters.csv",
          "cluster,description,nodes,cores_per_node,mem_per_core_gb,interconnect,"
          "rate_per_core_hour,currency\n"
          "ant,first,16,4,2,Ethernet,0.5,GBP\nbee,second,16,4,2,Ethernet,0.5,GBP\n");
    ok = ok && write("arch/gamma/README.md", "# gamma\n\nA small campaign for the chart tests.\n");
    ok = ok && write("arch/gamma/experiments.csv",
          "name,model,response,formula,train,target,title,options\n"
          "scale,scopred,time_s,N/np,np <= 12,np >= 14,Ten series,\n");
    char *runs = malloc(64 * 1024);
    if (!runs)
        return false;
    size_t len = (size_t)sprintf(runs, "cluster,np,N,time_s,rep,date\n");
    const char *clusters[] = {"ant", "bee"};
    const int nps[] = {3, 6, 12, 14, 24};
    for (int c = 0; c < 2; c++)
        for (int n = 1; n <= 5; n++)
            for (int p = 0; p < 5; p++)
                for (int rep = 1; rep <= 2; rep++) {
                    double t = (0.5 + 0.01 * 1000 * n / nps[p]) * (c ? 1.3 : 1.0) *
                               (rep == 1 ? 0.99 : 1.01);
                    len += (size_t)sprintf(runs + len, "%s,%d,%d,%.6f,%d,2024-05-0%d\n",
                                           clusters[c], nps[p], 1000 * n, t, rep, rep);
                }
    ok = ok && write("arch/gamma/runs.csv", runs);
    free(runs);
    return ok;
}

static bool build_site(const char *archive, const char *out)
{
    char *output = NULL;
    int rc = testutil_perfcast_run(&output, "build --archive '%s' --out '%s'", archive, out);
    if (rc != 0)
        fprintf(stderr, "\nperfcast build: %s\n", output ? output : "");
    free(output);
    return rc == 0;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* ------------------------------------------------------------------ */
/* The small archive's scaling panels                                  */

typedef struct {
    double x;
    char label[16];
} tick;

/* Paths inside the plot (above the x tick labels at tick_y) whose style
 * contains key: the smallest and largest x of each, in pixels. */
typedef struct {
    double lo[32], hi[32];
    size_t n;
} spans;

/* The extent of an SVG path's coordinate pairs: smallest and largest x,
 * largest y (every number pair in d, the command letters skipped). */
typedef struct {
    double x_lo, x_hi, y_hi;
} path_extent;

static path_extent path_extent_of(const char *d)
{
    path_extent ext = {INFINITY, -INFINITY, -INFINITY};
    const char *p = d;
    while (*p) {
        char *end;
        while (*p && !(*p == '-' || (*p >= '0' && *p <= '9') || *p == '.'))
            p++;
        if (!*p)
            break;
        double x = strtod(p, &end);
        if (end == p)
            break;
        p = end;
        while (*p == ' ')
            p++;
        double y = strtod(p, &end);
        if (end == p)
            break;
        p = end;
        ext.x_lo = fmin(ext.x_lo, x), ext.x_hi = fmax(ext.x_hi, x);
        ext.y_hi = fmax(ext.y_hi, y);
    }
    return ext;
}

typedef struct {
    tick ticks[32];
    size_t nticks;
    double tick_y;
    spans curves, bands;
    size_t series, training_key, held_out_key, textbook_key;
} panel;

static void collect_texts(panel *pn, xmlNode *n)
{
    for (; n; n = n->next) {
        if (is(n, "text")) {
            char *anchor = prop(n, "text-anchor"), *x = prop(n, "x"), *y = prop(n, "y");
            char *c = (char *)xmlNodeGetContent(n);
            if (c && strstr(c, "N="))
                pn->series++;
            if (c && strncmp(c, "training runs", 13) == 0)
                pn->training_key++;
            if (c && strcmp(c, "held-out runs") == 0)
                pn->held_out_key++;
            if (c && strstr(c, "own 95% prediction interval"))
                pn->textbook_key++;
            /* x tick labels: centred numbers on one line under the plot */
            if (c && anchor && strcmp(anchor, "middle") == 0 && c[0] >= '0' && c[0] <= '9' &&
                pn->nticks < 32 && strlen(c) < 16) {
                pn->ticks[pn->nticks].x = strtod(x, NULL);
                snprintf(pn->ticks[pn->nticks].label, 16, "%s", c);
                pn->nticks++;
                pn->tick_y = strtod(y, NULL);
            }
            xmlFree(anchor), xmlFree(x), xmlFree(y), xmlFree(c);
            continue;
        }
        collect_texts(pn, n->children);
    }
}

static void collect_paths(panel *pn, xmlNode *n)
{
    for (; n; n = n->next) {
        if (is(n, "path")) {
            char *style = prop(n, "style"), *d = prop(n, "d");
            path_extent ext = d ? path_extent_of(d) : (path_extent){0, 0, INFINITY};
            if (style && d && ext.y_hi < pn->tick_y - 12) {
                bool curve = strstr(style, "stroke-width:2;") && !strstr(style, "dasharray") &&
                             strstr(style, "var(--c");
                bool band = strstr(style, "fill-opacity:0.22") && strstr(style, "var(--c");
                spans *s = curve ? &pn->curves : band ? &pn->bands : NULL;
                if (s && s->n < 32) {
                    s->lo[s->n] = ext.x_lo, s->hi[s->n] = ext.x_hi;
                    s->n++;
                }
            }
            xmlFree(style), xmlFree(d);
        }
        collect_paths(pn, n->children);
    }
}

static bool read_panel(const char *path, panel *pn)
{
    memset(pn, 0, sizeof *pn);
    xmlDoc *doc = read_svg(path);
    if (!doc)
        return false;
    xmlNode *root = xmlDocGetRootElement(doc);
    collect_texts(pn, root);
    collect_paths(pn, root);
    xmlFreeDoc(doc);
    return true;
}

static double tick_x(const panel *pn, const char *label)
{
    for (size_t i = 0; i < pn->nticks; i++)
        if (strcmp(pn->ticks[i].label, label) == 0)
            return pn->ticks[i].x;
    return NAN;
}

static void test_small_archive_panels(void)
{
    char dir[512], path[768];
    snprintf(dir, sizeof dir, "%s/site/campaigns/gamma", work);
    snprintf(path, sizeof path, "%s/scale-scaling.svg", dir);
    CU_ASSERT_FALSE(exists(path)); /* not one chart of 10 series */
    size_t series = 0, panels = 0;
    for (int k = 1; k <= 3; k++) {
        snprintf(path, sizeof path, "%s/scale-scaling-%d.svg", dir, k);
        if (!exists(path))
            break;
        panel pn;
        CU_ASSERT_TRUE_FATAL(read_panel(path, &pn));
        panels++;
        series += pn.series;
        CU_ASSERT_EQUAL(pn.series, 5); /* one cluster's five N */
        const char *want[] = {"3", "6", "12", "14", "24"};
        for (size_t i = 0; i < 5; i++)
            CU_ASSERT_TRUE(isfinite(tick_x(&pn, want[i])));
        CU_ASSERT_EQUAL(pn.nticks, 5);
        double first = tick_x(&pn, "3"), last = tick_x(&pn, "24");
        /* Each series' curve and band from np 3 to np 24. */
        CU_ASSERT_EQUAL(pn.curves.n, 5);
        CU_ASSERT_TRUE(pn.bands.n >= 5);
        for (size_t i = 0; i < pn.curves.n; i++) {
            CU_ASSERT_DOUBLE_EQUAL(pn.curves.lo[i], first, 1.0);
            CU_ASSERT_DOUBLE_EQUAL(pn.curves.hi[i], last, 1.0);
        }
        for (size_t i = 0; i < pn.bands.n; i++) {
            CU_ASSERT_DOUBLE_EQUAL(pn.bands.lo[i], first, 1.0);
            CU_ASSERT_DOUBLE_EQUAL(pn.bands.hi[i], last, 1.0);
        }
        CU_ASSERT_EQUAL(pn.training_key, 1);
        CU_ASSERT_EQUAL(pn.held_out_key, 1);
    }
    CU_ASSERT_EQUAL(panels, 2);
    CU_ASSERT_EQUAL(series, 10);
}

/* ------------------------------------------------------------------ */
/* Every SVG of a site                                                  */

static size_t check_tree(const char *root, size_t *files)
{
    char *list = NULL;
    size_t problems = 0;
    CU_ASSERT_EQUAL_FATAL(testutil_run_commandf(&list, "find '%s' -name '*.svg' | sort", root), 0);
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
        svg_report r;
        bool ok = check_svg(line, &r);
        size_t bad = !ok + !r.has_dark + r.small_texts + r.cut_texts + r.unthemed +
                     r.undefined_vars + r.low_contrast + r.close_hues;
        unsigned dark_bg = 0xFFFFFF;
        if (r.has_dark && (!var_value(&r.dark, "bg", &dark_bg) || luminance(dark_bg) > 0.05))
            bad++, note(&r, "dark background is not dark", line);
        if (bad && problems < 5)
            fprintf(stderr, "\n%s: %s", line, r.first_problem);
        problems += bad;
        (*files)++;
    }
    free(list);
    return problems;
}

static void test_small_archive_svgs(void)
{
    char site[512];
    snprintf(site, sizeof site, "%s/site", work);
    size_t files = 0;
    CU_ASSERT_EQUAL(check_tree(site, &files), 0);
    CU_ASSERT_TRUE(files >= 4);
}

static void test_embedded_site_svgs(void)
{
    char site[512];
    snprintf(site, sizeof site, "%s/embedded", work);
    CU_ASSERT_TRUE_FATAL(build_site("archive", site));
    size_t files = 0;
    CU_ASSERT_EQUAL(check_tree(site, &files), 0);
    CU_ASSERT_TRUE(files >= 100);
}

/* The checker itself fails where it must: a chart without a dark scheme,
 * with an unthemed colour, small or cut text, yellow on white. */
static void test_checker_fails_on_bad_svg(void)
{
    CU_ASSERT_TRUE_FATAL(write("bad.svg",
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720px\" height=\"450px\">"
          "<style>svg{--c0:#F0E442;--bg:#FFFFFF;--text:#1A1A1A;}</style>"
          "<path style=\"fill:#123456;\" d=\"M 0 0 L 1 1\"/>"
          "<text x=\"1\" y=\"1\" font-size=\"12\" fill=\"#1A1A1A\" style=\"fill:var(--text)\">"
          "\xE2\x80\xA6 15 more</text></svg>"));
    char path[512];
    snprintf(path, sizeof path, "%s/bad.svg", work);
    svg_report r;
    CU_ASSERT_TRUE(check_svg(path, &r));
    CU_ASSERT_FALSE(r.has_dark);
    CU_ASSERT_EQUAL(r.small_texts, 1); /* 12 px at 720 shown at 368.8: 6.1 px */
    CU_ASSERT_EQUAL(r.cut_texts, 1);
    CU_ASSERT_EQUAL(r.unthemed, 1);
    var_set v;
    CU_ASSERT_PTR_NOT_NULL(parse_block("svg{--c0:#F0E442;--bg:#FFFFFF;}", &v));
    svg_report c = {0};
    check_contrast(&c, &v, "light");
    CU_ASSERT_EQUAL(c.low_contrast, 1);
    /* The two blues the palette once had (CIE76 7.0 apart). */
    CU_ASSERT_PTR_NOT_NULL(parse_block("svg{--c0:#0072B2;--c6:#2C7FB8;--bg:#FFFFFF;}", &v));
    check_distances(&c, &v);
    CU_ASSERT_EQUAL(c.close_hues, 1);
}

/* A chart measured only (chart_files.size_only, as the PDF report
 * measures a figure before placing it) has the height its drawing has
 * (here read from the SVG's own height attribute), and nothing is drawn. */
static void test_size_only(void)
{
    chart_cost_point p[40];
    char groups[40][16];
    for (size_t i = 0; i < 40; i++) {
        snprintf(groups[i], sizeof groups[i], "campaign-%02zu", i / 2); /* 20 legend entries */
        p[i] = (chart_cost_point){groups[i], 10.0 * (double)(i + 1), 2.0 + (double)i};
    }
    char err[128];
    chart_files drawn, measured;
    chart_files_init(&drawn), chart_files_init(&measured);
    measured.size_only = true;
    CU_ASSERT_TRUE_FATAL(chart_cost_time("t", "cost", p, 40, &drawn, err, sizeof err));
    CU_ASSERT_TRUE_FATAL(chart_cost_time("t", "cost", p, 40, &measured, err, sizeof err));
    const char *h = strstr(rbuf_str(&drawn.svg), " height=\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    int svg_height = atoi(h + strlen(" height=\""));
    CU_ASSERT_TRUE(svg_height > 300); /* the legend's rows are part of it */
    CU_ASSERT_EQUAL(measured.height, svg_height);
    CU_ASSERT_EQUAL(measured.svg.len, 0);
    CU_ASSERT_EQUAL(measured.png.len, 0);
    chart_files_free(&drawn), chart_files_free(&measured);
}

/* A marker's look: its palette fill (the CSS variable) and its outline,
 * every coordinate pair of d taken relative to the first (so one shape
 * anywhere on the chart reads the same), to 0.1 px. */
static void marker_look(const char *style, const char *d, char *out, size_t size)
{
    const char *var = strstr(style, "fill:var(--c");
    size_t len = snprintf(out, size, "%.*s|", var ? 14 : 0, var ? var : "");
    double x0 = NAN, y0 = NAN;
    for (const char *p = d; *p && len < size;) {
        char *end;
        if (!(*p == '-' || (*p >= '0' && *p <= '9') || *p == '.')) {
            p++;
            continue;
        }
        double x = strtod(p, &end), y = strtod(end, &end);
        p = end;
        if (isnan(x0))
            x0 = x, y0 = y;
        len += snprintf(out + len, size - len, "%.1f,%.1f ", x - x0 + 0.0, y - y0 + 0.0);
    }
}

/* The distinct looks of the filled palette markers under n (paths at
 * most 12 px wide whose fill is a palette colour), added to looks. */
static void collect_looks(xmlNode *n, char looks[][256], size_t *nlooks, size_t max)
{
    for (; n; n = n->next) {
        if (is(n, "path")) {
            char *style = prop(n, "style"), *d = prop(n, "d");
            path_extent e = d ? path_extent_of(d) : (path_extent){0, INFINITY, 0};
            if (style && d && strstr(style, "fill:var(--c") && e.x_hi - e.x_lo <= 12) {
                char look[256];
                marker_look(style, d, look, sizeof look);
                bool seen = false;
                for (size_t i = 0; i < *nlooks && !seen; i++)
                    seen = strcmp(looks[i], look) == 0;
                if (!seen && *nlooks < max)
                    snprintf(looks[(*nlooks)++], 256, "%s", look);
            }
            xmlFree(style), xmlFree(d);
        }
        collect_looks(n->children, looks, nlooks, max);
    }
}

/* A cost chart of 20 jobs (more than the palette's 8 colours) draws
 * every job's markers with a look of its own, read back from the SVG:
 * jobs 1, 9 and 17 were one colour and one shape. */
static void test_cost_series_apart(void)
{
    chart_cost_point p[40];
    char groups[20][16];
    for (size_t i = 0; i < 40; i++) {
        snprintf(groups[i / 2], sizeof groups[i / 2], "job-%02zu", i / 2);
        p[i] = (chart_cost_point){groups[i / 2], 10.0 * (double)(i + 1), 2.0 + (double)i};
    }
    char err[128], path[512];
    chart_files files;
    chart_files_init(&files);
    CU_ASSERT_TRUE_FATAL(chart_cost_time("t", "cost", p, 40, &files, err, sizeof err));
    CU_ASSERT_TRUE_FATAL(write("cost20.svg", rbuf_str(&files.svg)));
    chart_files_free(&files);
    snprintf(path, sizeof path, "%s/cost20.svg", work);
    xmlDoc *doc = read_svg(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    static char looks[64][256];
    size_t nlooks = 0;
    collect_looks(xmlDocGetRootElement(doc), looks, &nlooks, 64);
    xmlFreeDoc(doc);
    CU_ASSERT_EQUAL(nlooks, 20);
}

/* A legend entry wider than the drawing breaks after a comma onto a second
 * line (the drawing grows by one legend row, 17 px) instead of being cut. */
static void test_long_legend_wraps(void)
{
    static const double x[] = {1, 2}, y[] = {1, 2};
    static const char long_text[] = "sim-a-fe, na=16384, work_mb=32.4539, rows_a=4096, "
                                    "rows_b=12288";
    plot_layer layer = {.kind = LAYER_POINTS, .legend = "short", .x = x, .y = y, .n = 2};
    plot_spec spec = {.title = "t", .x_label = "x", .y_label = "y", .x_scale = SCALE_LINEAR,
                      .y_scale = SCALE_LINEAR, .layers = &layer, .nlayers = 1};
    int short_height = plot_height(&spec);
    layer.legend = long_text;
    CU_ASSERT_EQUAL(plot_height(&spec), short_height + 17);
    rbuf svg;
    rbuf_init(&svg);
    char err[128];
    CU_ASSERT_TRUE_FATAL(plot_render(&spec, PLOT_SVG, &svg, err, sizeof err));
    CU_ASSERT_TRUE_FATAL(write("wrap.svg", rbuf_str(&svg)));
    CU_ASSERT_PTR_NOT_NULL(strstr(rbuf_str(&svg), ">rows_b=12288</text>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rbuf_str(&svg), ", rows_a=4096,</text>"));
    rbuf_free(&svg);
    char path[512];
    snprintf(path, sizeof path, "%s/wrap.svg", work);
    svg_report r;
    CU_ASSERT_TRUE(check_svg(path, &r));
    CU_ASSERT_EQUAL(r.cut_texts, 0);
    plot_release_fonts();
}

/* ------------------------------------------------------------------ */

static int setup(void)
{
    if (!testutil_temp_dir(work, sizeof work) || !write_archive())
        return 1;
    char archive[512], site[512];
    snprintf(archive, sizeof archive, "%s/arch", work);
    snprintf(site, sizeof site, "%s/site", work);
    return build_site(archive, site) ? 0 : 1;
}

int main(void)
{
    static const testutil_test tests[] = {
        {"WCAG contrast formula", test_contrast_formula},
        {"CIELAB and CIE76 from the definition", test_lab_formula},
        {"checker fails on a bad SVG", test_checker_fails_on_bad_svg},
        {"small archive: panels, ticks, curve, band", test_small_archive_panels},
        {"small archive: every SVG", test_small_archive_svgs},
        {"embedded site: every SVG", test_embedded_site_svgs},
        {"a chart measured only: its drawing's height, nothing drawn", test_size_only},
        {"a cost chart of 20 jobs: each job's markers look its own", test_cost_series_apart},
        {"a long legend entry wraps (draws last: it releases the fonts)", test_long_legend_wraps},
        {NULL, NULL}};
    static const testutil_suite suites[] = {{"charts", tests}, {NULL, NULL}};
    if (setup() != 0) {
        fprintf(stderr, "test_charts: cannot build the small archive's site\n");
        return 1;
    }
    int rc = testutil_run_suites(suites);
    testutil_remove_dir(work);
    xmlCleanupParser();
    return rc;
}
