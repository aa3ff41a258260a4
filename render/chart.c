/*
 * chart.c — builds the plot layers of each chart kind (see chart.h).
 *
 * Points are grouped by name: the distinct names are sorted, each gets a
 * palette colour and a marker by its rank, and the points are copied into
 * per-group arrays the layers point into.
 */
#include "render/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/plot.h"

void chart_files_init(chart_files *f)
{
    rbuf_init(&f->svg);
    rbuf_init(&f->png);
    f->cr = NULL;
    f->size_only = false;
    f->height = 0;
}

void chart_files_free(chart_files *f)
{
    rbuf_free(&f->svg);
    rbuf_free(&f->png);
}

/* ------------------------------------------------------------------ */
/* Groups                                                              */

typedef struct {
    const char **names; /* distinct, sorted */
    size_t n;
} name_set;

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Natural order: digit runs compare as numbers, so "N=8000" comes
 * before "N=10000"; otherwise byte order. Ties fall back to strcmp so
 * the order is total. */
static int natural_compare(const char *a, const char *b)
{
    const char *x = a, *y = b;
    while (*x && *y) {
        if (is_digit(*x) && is_digit(*y)) {
            while (*x == '0')
                x++;
            while (*y == '0')
                y++;
            size_t nx = 0, ny = 0;
            while (is_digit(x[nx]))
                nx++;
            while (is_digit(y[ny]))
                ny++;
            if (nx != ny)
                return nx < ny ? -1 : 1;
            int c = strncmp(x, y, nx);
            if (c)
                return c;
            x += nx, y += ny;
        } else {
            if (*x != *y)
                return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
            x++, y++;
        }
    }
    if (*x || *y)
        return *x ? 1 : -1;
    return strcmp(a, b);
}

static int compare_names(const void *a, const void *b)
{
    return natural_compare(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct names of `all` (n of them; NULL counts as ""). */
static bool name_set_make(name_set *s, const char **all, size_t n)
{
    s->n = 0;
    s->names = malloc((n ? n : 1) * sizeof *s->names);
    if (!s->names)
        return false;
    for (size_t i = 0; i < n; i++)
        s->names[i] = all[i] ? all[i] : "";
    qsort(s->names, n, sizeof *s->names, compare_names);
    for (size_t i = 0; i < n; i++)
        if (s->n == 0 || compare_names(&s->names[s->n - 1], &s->names[i]) != 0)
            s->names[s->n++] = s->names[i];
    return true;
}

static size_t name_index(const name_set *s, const char *name)
{
    const char *key = name ? name : "";
    const char **hit = bsearch(&key, s->names, s->n, sizeof *s->names, compare_names);
    return hit ? (size_t)(hit - s->names) : 0;
}

/* One x-y point with its interval, kept with its group for sorting. */
typedef struct {
    size_t group;
    double x, y, lo, hi;
    size_t seq; /* input order: makes the sort total, hence deterministic */
} point;

static int compare_points(const void *a, const void *b)
{
    const point *p = a, *q = b;
    if (p->group != q->group)
        return p->group < q->group ? -1 : 1;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->seq < q->seq ? -1 : p->seq > q->seq;
}

/* Points sorted by group then x, as columns the layers can point into;
 * start[g] .. start[g+1] are group g's. */
typedef struct {
    double *x, *y, *lo, *hi;
    size_t *start; /* ngroups + 1 */
} columns;

static bool columns_make(columns *c, point *pts, size_t n, size_t ngroups)
{
    qsort(pts, n, sizeof *pts, compare_points);
    size_t m = n ? n : 1;
    c->x = malloc(m * sizeof *c->x);
    c->y = malloc(m * sizeof *c->y);
    c->lo = malloc(m * sizeof *c->lo);
    c->hi = malloc(m * sizeof *c->hi);
    c->start = calloc(ngroups + 1, sizeof *c->start);
    if (!c->x || !c->y || !c->lo || !c->hi || !c->start)
        return false;
    for (size_t i = 0; i < n; i++) {
        c->x[i] = pts[i].x, c->y[i] = pts[i].y, c->lo[i] = pts[i].lo, c->hi[i] = pts[i].hi;
        c->start[pts[i].group + 1]++;
    }
    for (size_t g = 0; g < ngroups; g++)
        c->start[g + 1] += c->start[g];
    return true;
}

static void columns_free(columns *c)
{
    free(c->x), free(c->y), free(c->lo), free(c->hi), free(c->start);
}

/* Group g's marker: g's own among the first PLOT_PALETTE_SIZE groups,
 * then moved one on per round of the palette, so that groups g and
 * g + PLOT_PALETTE_SIZE (one colour) differ in shape: no two of the first
 * PLOT_PALETTE_SIZE * MARK_COUNT groups look alike. */
static plot_marker group_marker(size_t g)
{
    return (plot_marker)((g + g / PLOT_PALETTE_SIZE) % MARK_COUNT);
}

/* A layer over group g's slice of the columns. */
static plot_layer slice(plot_layer_kind kind, const columns *c, size_t g)
{
    size_t from = c->start[g];
    return (plot_layer){.kind = kind, .color = (int)g, .marker = group_marker(g),
                        .x = c->x + from, .y = c->y + from, .lo = c->lo + from,
                        .hi = c->hi + from, .n = c->start[g + 1] - from};
}

/* Both files, the vector drawing onto out->cr, or only the height
 * (chart.h). */
static bool render_chart(const plot_spec *spec, chart_files *out, char *err, size_t errlen)
{
    if (out->size_only)
        return plot_measure(spec, &out->height, err, errlen);
    if (out->cr)
        return plot_draw(spec, out->cr, &out->height, err, errlen);
    return plot_render(spec, PLOT_SVG, &out->svg, err, errlen) &&
           plot_render(spec, PLOT_PNG, &out->png, err, errlen);
}

static bool out_of_memory(char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory");
    return false;
}

/* ------------------------------------------------------------------ */
/* Points by group: predicted vs measured, residuals, cost vs time      */

/* Draws n grouped points over the reference layer `ref` (may be NULL);
 * with_lines joins each group's points in x order. */
static bool grouped_points(plot_spec *spec, const plot_layer *ref, const char **groups,
                           point *pts, size_t n, bool with_lines, chart_files *out, char *err,
                           size_t errlen)
{
    name_set names;
    columns c = {0};
    plot_layer *layers = NULL;
    bool ok = false;
    if (!name_set_make(&names, groups, n))
        return out_of_memory(err, errlen);
    for (size_t i = 0; i < n; i++)
        pts[i].group = name_index(&names, groups[i]);
    layers = calloc(2 * names.n + 1, sizeof *layers);
    if (!layers || !columns_make(&c, pts, n, names.n)) {
        out_of_memory(err, errlen);
        goto done;
    }
    size_t nl = 0;
    if (ref)
        layers[nl++] = *ref;
    for (size_t g = 0; g < names.n && with_lines; g++)
        layers[nl++] = slice(LAYER_LINE, &c, g);
    for (size_t g = 0; g < names.n; g++) {
        layers[nl] = slice(LAYER_POINTS, &c, g);
        layers[nl++].legend = names.names[g];
    }
    spec->layers = layers;
    spec->nlayers = nl;
    ok = render_chart(spec, out, err, errlen);
done:
    free(names.names);
    free(layers);
    columns_free(&c);
    return ok;
}

/* Scratch arrays of a grouped-points chart: each point's group name and
 * coordinates. Both are owned here and released by point_set_free. */
typedef struct {
    const char **groups;
    point *pts;
} point_set;

static bool point_set_alloc(point_set *s, size_t n, char *err, size_t errlen)
{
    s->groups = malloc((n ? n : 1) * sizeof *s->groups);
    s->pts = malloc((n ? n : 1) * sizeof *s->pts);
    if (s->groups && s->pts)
        return true;
    free(s->groups);
    free(s->pts);
    return out_of_memory(err, errlen);
}

static void point_set_free(point_set *s)
{
    free(s->groups);
    free(s->pts);
}

bool chart_pred_vs_measured(const char *title, const char *unit, const chart_pvm_point *p,
                            size_t n, chart_files *out, char *err, size_t errlen)
{
    point_set s;
    if (!point_set_alloc(&s, n, err, errlen))
        return false;
    char xl[96], yl[96];
    snprintf(xl, sizeof xl, "measured %s", unit);
    snprintf(yl, sizeof yl, "predicted %s", unit);
    for (size_t i = 0; i < n; i++) {
        s.groups[i] = p[i].group;
        s.pts[i] = (point){0, p[i].measured, p[i].predicted, NAN, NAN, i};
    }
    plot_layer diagonal = {.kind = LAYER_DIAGONAL, .legend = "y = x, \xC2\xB1" "10%",
                           .color = -1, .dashed = true, .band = 0.10};
    plot_spec spec = {.title = title, .x_label = xl, .y_label = yl, .x_scale = SCALE_LOG10,
                      .y_scale = SCALE_LOG10, .same_range = true};
    bool ok = grouped_points(&spec, &diagonal, s.groups, s.pts, n, false, out, err, errlen);
    point_set_free(&s);
    return ok;
}

bool chart_residuals(const char *title, const char *x_label, axis_scale x_scale,
                     const chart_residual *r, size_t n, chart_files *out, char *err,
                     size_t errlen)
{
    point_set s;
    if (!point_set_alloc(&s, n, err, errlen))
        return false;
    for (size_t i = 0; i < n; i++) {
        s.groups[i] = r[i].group;
        s.pts[i] = (point){0, r[i].x, r[i].error_pct, NAN, NAN, i};
    }
    plot_layer zero = {.kind = LAYER_HLINE, .legend = "0, \xC2\xB1" "10%", .color = -1,
                       .dashed = true, .value = 0, .band = 10};
    plot_spec spec = {.title = title, .x_label = x_label,
                      .y_label = "error (%), + = predicted too high",
                      .x_scale = x_scale, .y_scale = SCALE_LINEAR};
    bool ok = grouped_points(&spec, &zero, s.groups, s.pts, n, false, out, err, errlen);
    point_set_free(&s);
    return ok;
}

bool chart_cost_time(const char *title, const char *cost_label, const chart_cost_point *p,
                     size_t n, chart_files *out, char *err, size_t errlen)
{
    point_set s;
    if (!point_set_alloc(&s, n, err, errlen))
        return false;
    for (size_t i = 0; i < n; i++) {
        s.groups[i] = p[i].group;
        s.pts[i] = (point){0, p[i].time_s, p[i].cost, NAN, NAN, i};
    }
    plot_spec spec = {.title = title, .x_label = "predicted time (s)", .y_label = cost_label,
                      .x_scale = SCALE_LOG10, .y_scale = SCALE_LOG10};
    bool ok = grouped_points(&spec, NULL, s.groups, s.pts, n, true, out, err, errlen);
    point_set_free(&s);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Scaling                                                             */

/* Legend entries that explain the marks rather than a series. */
static size_t key_layers(plot_layer *l, bool any_held_out, bool any_calibrated, bool any_textbook)
{
    size_t n = 0;
    l[n++] = (plot_layer){.kind = LAYER_POINTS, .legend = "training runs (mean, min\xE2\x80\x93max)",
                          .color = -1, .marker = MARK_CIRCLE};
    if (any_held_out)
        l[n++] = (plot_layer){.kind = LAYER_POINTS, .legend = "held-out runs", .color = -1,
                              .marker = MARK_SQUARE, .hollow = true};
    if (any_calibrated)
        l[n++] = (plot_layer){.kind = LAYER_BAND, .legend = "calibrated 95% prediction interval",
                              .color = -1};
    if (any_textbook)
        l[n++] = (plot_layer){.kind = LAYER_BAND, .legend = "model's own 95% prediction interval",
                              .color = -1, .hollow = true};
    return n;
}

typedef struct {
    name_set names;
    point *pts;          /* scratch: one role's points at a time */
    columns train, held, cal, textbook;
    plot_layer *layers;
} scaling_work;

static void scaling_work_free(scaling_work *w)
{
    free(w->names.names);
    free(w->pts);
    columns_free(&w->train);
    columns_free(&w->held);
    columns_free(&w->cal);
    columns_free(&w->textbook);
    free(w->layers);
}

/* Copy the runs with the given role into pts and build their columns. */
static bool run_columns(scaling_work *w, const chart_scaling_data *d, bool held_out, columns *c)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nruns; i++)
        if (d->runs[i].held_out == held_out) {
            const chart_run *r = &d->runs[i];
            w->pts[n++] = (point){name_index(&w->names, r->series), r->x, r->mean, r->min, r->max, i};
        }
    return columns_make(c, w->pts, n, w->names.n);
}

/* The curve's points with one of its two intervals. */
static bool curve_columns(scaling_work *w, const chart_scaling_data *d, bool calibrated,
                          columns *c)
{
    for (size_t i = 0; i < d->npreds; i++) {
        const chart_prediction *p = &d->preds[i];
        w->pts[i] = (point){name_index(&w->names, p->series), p->x, p->estimate,
                            calibrated ? p->cal_low : p->pi_low,
                            calibrated ? p->cal_high : p->pi_high, i};
    }
    return columns_make(c, w->pts, d->npreds, w->names.n);
}

static bool scaling_columns(scaling_work *w, const chart_scaling_data *d)
{
    size_t total = d->nruns + d->npreds;
    const char **all = malloc((total ? total : 1) * sizeof *all);
    if (!all)
        return false;
    for (size_t i = 0; i < d->nruns; i++)
        all[i] = d->runs[i].series;
    for (size_t i = 0; i < d->npreds; i++)
        all[d->nruns + i] = d->preds[i].series;
    bool ok = name_set_make(&w->names, all, total);
    free(all);
    w->pts = malloc((total ? total : 1) * sizeof *w->pts);
    return ok && w->pts && run_columns(w, d, false, &w->train) &&
           run_columns(w, d, true, &w->held) && curve_columns(w, d, true, &w->cal) &&
           curve_columns(w, d, false, &w->textbook);
}

static bool any_finite(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            return true;
    return false;
}

/* Whether the textbook interval differs visibly (by more than 1%) from
 * the calibrated one somewhere on the slice. */
static bool textbook_differs(const plot_layer *textbook, const plot_layer *cal)
{
    for (size_t i = 0; i < textbook->n; i++) {
        const double a[2] = {textbook->lo[i], textbook->hi[i]}, b[2] = {cal->lo[i], cal->hi[i]};
        for (int k = 0; k < 2; k++)
            if (isfinite(a[k]) && (!isfinite(b[k]) || fabs(a[k] - b[k]) > 0.01 * fabs(b[k])))
                return true;
    }
    return false;
}

bool chart_scaling(const chart_scaling_data *d, chart_files *out, char *err, size_t errlen)
{
    scaling_work w = {0};
    bool ok = false;
    if (!scaling_columns(&w, d) || !(w.layers = calloc(7 * w.names.n + 4, sizeof *w.layers))) {
        out_of_memory(err, errlen);
        goto done;
    }
    size_t nl = 0;
    bool any_cal = false, any_textbook = false;
    for (size_t g = 0; g < w.names.n; g++) {
        plot_layer band = slice(LAYER_BAND, &w.cal, g);
        plot_layer textbook = slice(LAYER_BAND, &w.textbook, g);
        textbook.hollow = true;
        if (any_finite(band.lo, band.n))
            w.layers[nl++] = band, any_cal = true;
        if (textbook_differs(&textbook, &band))
            w.layers[nl++] = textbook, any_textbook = true;
    }
    for (size_t g = 0; g < w.names.n; g++) {
        plot_layer line = slice(LAYER_LINE, &w.cal, g);
        plot_layer bars = slice(LAYER_ERRORBARS, &w.train, g), hbars = slice(LAYER_ERRORBARS, &w.held, g);
        plot_layer train = slice(LAYER_POINTS, &w.train, g), held = slice(LAYER_POINTS, &w.held, g);
        train.marker = MARK_CIRCLE;
        held.marker = MARK_SQUARE;
        held.hollow = true;
        /* The series is named once: on its curve, else on its runs. */
        (line.n ? &line : train.n ? &train : &held)->legend = w.names.names[g];
        w.layers[nl++] = line;
        w.layers[nl++] = bars;
        w.layers[nl++] = hbars;
        w.layers[nl++] = train;
        w.layers[nl++] = held;
    }
    nl += key_layers(w.layers + nl, d->nruns && w.held.start[w.names.n] > 0, any_cal,
                     any_textbook);
    plot_spec spec = {.title = d->title, .x_label = d->x_label, .y_label = d->y_label,
                      .x_scale = d->x_scale, .y_scale = SCALE_LOG10, .layers = w.layers,
                      .nlayers = nl, .cover = d->cover, .x_min = d->x_min, .x_max = d->x_max,
                      .y_min = d->y_min, .y_max = d->y_max};
    ok = render_chart(&spec, out, err, errlen);
done:
    scaling_work_free(&w);
    return ok;
}

/* ------------------------------------------------------------------ */
/* History                                                             */

typedef struct {
    name_set names;
    point *pts;
    columns runs, medians, changed;
    plot_layer *layers;
} history_work;

static void history_work_free(history_work *w)
{
    free(w->names.names);
    free(w->pts);
    columns_free(&w->runs);
    columns_free(&w->medians);
    columns_free(&w->changed);
    free(w->layers);
}

static bool history_columns(history_work *w, const chart_history_run *runs, size_t nruns,
                            const chart_history_median *medians, size_t nmedians)
{
    size_t total = nruns + nmedians;
    const char **all = malloc((total ? total : 1) * sizeof *all);
    if (!all)
        return false;
    for (size_t i = 0; i < nruns; i++)
        all[i] = runs[i].series;
    for (size_t i = 0; i < nmedians; i++)
        all[nruns + i] = medians[i].series;
    bool ok = name_set_make(&w->names, all, total);
    free(all);
    w->pts = malloc((total ? total : 1) * sizeof *w->pts);
    if (!ok || !w->pts)
        return false;
    for (size_t i = 0; i < nruns; i++)
        w->pts[i] = (point){name_index(&w->names, runs[i].series), runs[i].day, runs[i].time_s,
                            NAN, NAN, i};
    if (!columns_make(&w->runs, w->pts, nruns, w->names.n))
        return false;
    size_t nchanged = 0;
    for (size_t i = 0; i < nmedians; i++)
        w->pts[i] = (point){name_index(&w->names, medians[i].series), medians[i].day,
                            medians[i].median_s, NAN, NAN, i};
    if (!columns_make(&w->medians, w->pts, nmedians, w->names.n))
        return false;
    /* The changes as one group of their own (grey, one legend entry). */
    for (size_t i = 0; i < nmedians; i++)
        if (!isnan(medians[i].changed_from_s))
            w->pts[nchanged++] = (point){0, medians[i].day, medians[i].median_s,
                                         medians[i].changed_from_s, medians[i].median_s, i};
    return columns_make(&w->changed, w->pts, nchanged, 1);
}

bool chart_history(const char *title, const char *x_label, const chart_history_run *runs,
                   size_t nruns, const chart_history_median *medians, size_t nmedians,
                   chart_files *out, char *err, size_t errlen)
{
    history_work w = {0};
    bool ok = false;
    if (!history_columns(&w, runs, nruns, medians, nmedians) ||
        !(w.layers = calloc(3 * w.names.n + 3, sizeof *w.layers))) {
        out_of_memory(err, errlen);
        goto done;
    }
    size_t nl = 0;
    if (w.changed.start[1] > 0) {
        plot_layer changed = slice(LAYER_ERRORBARS, &w.changed, 0);
        changed.color = -1;
        changed.legend = "change: the step beyond the noise";
        w.layers[nl++] = changed;
    }
    for (size_t g = 0; g < w.names.n; g++) {
        plot_layer line = slice(LAYER_LINE, &w.medians, g);
        plot_layer median = slice(LAYER_POINTS, &w.medians, g);
        plot_layer reps = slice(LAYER_POINTS, &w.runs, g);
        reps.hollow = true;
        line.legend = w.names.names[g];
        w.layers[nl++] = reps;
        w.layers[nl++] = line;
        w.layers[nl++] = median;
    }
    w.layers[nl++] = (plot_layer){.kind = LAYER_POINTS, .legend = "one run", .color = -1,
                                  .marker = MARK_CIRCLE, .hollow = true};
    w.layers[nl++] = (plot_layer){.kind = LAYER_POINTS, .legend = "median of the date (joined)",
                                  .color = -1, .marker = MARK_CIRCLE};
    plot_spec spec = {.title = title, .x_label = x_label, .y_label = "time (s)",
                      .x_scale = SCALE_LINEAR, .y_scale = SCALE_LOG10, .layers = w.layers,
                      .nlayers = nl};
    ok = render_chart(&spec, out, err, errlen);
done:
    history_work_free(&w);
    return ok;
}
