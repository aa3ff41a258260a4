/*
 * overhead.c — see overhead.h. Lines by gsl_fit_linear; the polynomial in
 * log2 np by Householder QR on caller-owned arrays, so no GSL workspace is
 * allocated (GSL's default handler would abort on a failed allocation).
 */
#include "models/overhead.h"

#include <gsl/gsl_fit.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *overhead_status_text(overhead_status s)
{
    switch (s) {
    case OVERHEAD_OK: return "ok";
    case OVERHEAD_NOMEM: return "out of memory";
    case OVERHEAD_BAD_INPUT: return "an overhead point is not a finite number or has np < 1";
    case OVERHEAD_TOO_FEW_WORKS:
        return "no process count has runs at two different work levels, so no line "
               "overhead = alpha + gamma*work can be fitted";
    case OVERHEAD_TOO_FEW_NP:
        return "fewer than two process counts have a line over work, so alpha(np) "
               "cannot be extrapolated in log2 np";
    }
    return "unknown error";
}

void overhead_law_free(overhead_law *law)
{
    free(law->lines);
    free(law->places);
    memset(law, 0, sizeof *law);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Distinct np values of the points, ascending, into nps (n slots). */
static size_t distinct_np(const overhead_point *pts, size_t n, double *nps)
{
    for (size_t i = 0; i < n; i++)
        nps[i] = pts[i].np;
    qsort(nps, n, sizeof *nps, cmp_double);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || nps[i] != nps[k - 1])
            nps[k++] = nps[i];
    return k;
}

/* Fit the line of one np; false when its points have fewer than two works.
 * x and y are scratch arrays of n slots. */
static bool fit_line(const overhead_point *pts, size_t n, double np,
                     double *x, double *y, overhead_line *line)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (pts[i].np == np) {
            x[m] = pts[i].work;
            y[m] = pts[i].overhead;
            m++;
        }
    double lo = x[0], hi = x[0];
    for (size_t i = 1; i < m; i++) {
        lo = fmin(lo, x[i]);
        hi = fmax(hi, x[i]);
    }
    if (m < 2 || !(hi - lo > 1e-12 * fmax(fabs(hi), 1.0)))
        return false;
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(x, 1, y, 1, m, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    line->np = np;
    line->alpha = c0;
    line->gamma = c1;
    line->npoints = m;
    line->work_min = lo;
    line->work_max = hi;
    line->max_residual = 0;
    for (size_t i = 0; i < m; i++)
        line->max_residual = fmax(line->max_residual, fabs(y[i] - c0 - c1 * x[i]));
    return true;
}

/* Least squares of a over the columns 1, L, .., L^p and, when step is not
 * NULL, step; rows i < n, n >= the columns (exact when equal). coef gets
 * c, d, e (0 beyond p) and *s the step's coefficient. Returns 0, or -1 out
 * of memory, or 1 when the columns are collinear (the step cannot be told
 * from the curve in log2 np on these rows). */
static int fit_columns(const double *L, const double *step, const double *a, size_t n, int p,
                       double coef[3], double *s)
{
    size_t cols = (size_t)p + 1 + (step != NULL);
    double *buf = malloc(sizeof(double) * (n * cols + n + n + cols + cols));
    if (!buf)
        return -1;
    double *design = buf, *rhs = buf + n * cols, *resid = rhs + n;
    double *tau = resid + n, *x = tau + cols;
    for (size_t i = 0; i < n; i++) {
        double v = 1;
        for (size_t j = 0; j <= (size_t)p; j++, v *= L[i])
            design[i * cols + j] = v;
        if (step)
            design[i * cols + cols - 1] = step[i];
        rhs[i] = a[i];
    }
    gsl_matrix_view A = gsl_matrix_view_array(design, n, cols);
    gsl_vector_view b = gsl_vector_view_array(rhs, n);
    gsl_vector_view t = gsl_vector_view_array(tau, cols);
    gsl_vector_view xv = gsl_vector_view_array(x, cols);
    gsl_vector_view r = gsl_vector_view_array(resid, n);
    gsl_linalg_QR_decomp(&A.matrix, &t.vector);
    double rmax = 0;
    for (size_t j = 0; j < cols; j++)
        rmax = fmax(rmax, fabs(design[j * cols + j]));
    for (size_t j = 0; step && j < cols; j++)
        if (!(fabs(design[j * cols + j]) > 1e-9 * rmax)) {
            free(buf);
            return 1;
        }
    gsl_linalg_QR_lssolve(&A.matrix, &t.vector, &b.vector, &xv.vector, &r.vector);
    for (size_t j = 0; j < 3; j++)
        coef[j] = j <= (size_t)p ? x[j] : 0;
    if (s)
        *s = step ? x[cols - 1] : 0;
    free(buf);
    return 0;
}

static bool points_valid(const overhead_point *pts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(pts[i].np) || pts[i].np < 1 || !isfinite(pts[i].work) ||
            !isfinite(pts[i].overhead))
            return false;
    return true;
}

/* Lines for every np with two distinct works; records the skipped ones. */
static overhead_status fit_lines(const overhead_point *pts, size_t n, overhead_law *out)
{
    double *nps = malloc(sizeof(double) * n * 3);
    out->lines = malloc(sizeof *out->lines * n);
    if (!nps || !out->lines) {
        free(nps);
        return OVERHEAD_NOMEM;
    }
    size_t k = distinct_np(pts, n, nps);
    for (size_t i = 0; i < k; i++) {
        if (fit_line(pts, n, nps[i], nps + n, nps + 2 * n, &out->lines[out->nlines]))
            out->nlines++;
        else if (out->nskipped++ < sizeof out->skipped_np / sizeof out->skipped_np[0])
            out->skipped_np[out->nskipped - 1] = nps[i];
    }
    free(nps);
    return out->nlines == 0 ? OVERHEAD_TOO_FEW_WORKS : OVERHEAD_OK;
}

const char *overhead_law_name(overhead_law_kind k)
{
    static const char *const names[] = {"log2", "node", "topology", "auto"};
    return (size_t)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

bool overhead_law_parse(const char *text, overhead_law_kind *k)
{
    for (int i = OVERHEAD_LAW_LOG2; text && i <= OVERHEAD_LAW_AUTO; i++)
        if (strcmp(text, overhead_law_name((overhead_law_kind)i)) == 0) {
            *k = (overhead_law_kind)i;
            return true;
        }
    return false;
}

/* The place of np: exact, else the largest placed np below it; NULL when
 * none is below. places ascend by np. */
static const overhead_place *place_of(const overhead_place *places, size_t n, double np)
{
    const overhead_place *best = NULL;
    for (size_t i = 0; i < n && places[i].np <= np; i++)
        best = &places[i];
    return best;
}

/* The step regressor of np under kind (NAN when its place is unknown). */
static double step_value(overhead_law_kind kind, const overhead_place *places, size_t n,
                         double np)
{
    const overhead_place *p = place_of(places, n, np);
    if (kind == OVERHEAD_LAW_LOG2 || !p)
        return 0; /* no step, or below every placed np: one node, level 0 */
    if (kind == OVERHEAD_LAW_NODE)
        return isnan(p->nodes) ? NAN : p->nodes > 1 + 1e-9; /* np / ppn rounding is one node */
    return p->level;
}

/* The step a target is checked against: auto's is the finest law's. */
static overhead_law_kind reach_kind(overhead_law_kind asked)
{
    return asked == OVERHEAD_LAW_AUTO ? OVERHEAD_LAW_TOPOLOGY : asked;
}

/* One fit of alpha over the lines, one of them possibly left out. */
typedef struct {
    double coef[3];
    double step;
    int degree;
    overhead_step_state state;
} alpha_fit;

/* Whether the step column can be fitted on m rows with p+1 curve terms. */
static overhead_step_state step_state_of(const double *steps, size_t m, int p)
{
    bool varies = false;
    for (size_t i = 0; i < m; i++) {
        if (isnan(steps[i]))
            return OVERHEAD_STEP_UNKNOWN;
        varies = varies || steps[i] != steps[0];
    }
    if (!varies)
        return OVERHEAD_STEP_NOT_CROSSED;
    return m < (size_t)p + 2 ? OVERHEAD_STEP_TOO_FEW_NP : OVERHEAD_STEP_FITTED;
}

/* Fit alpha by kind on the lines but `skip` (nlines = none), degree as
 * asked or fewer when the rows are fewer; buf has 3*nlines slots. Needs
 * two rows at least; false only out of memory. */
static bool fit_alpha_kind(const overhead_law *law, size_t skip, overhead_law_kind kind,
                           int degree, double *buf, alpha_fit *f)
{
    size_t n = law->nlines, m = 0;
    double *L = buf, *a = buf + n, *st = buf + 2 * n;
    for (size_t i = 0; i < n; i++)
        if (i != skip) {
            L[m] = log2(law->lines[i].np);
            a[m] = law->lines[i].alpha;
            st[m] = step_value(kind, law->places, law->nplaces, law->lines[i].np);
            m++;
        }
    f->degree = (size_t)degree < m ? degree : (int)m - 1;
    f->state = kind == OVERHEAD_LAW_LOG2 ? OVERHEAD_STEP_NONE : step_state_of(st, m, f->degree);
    f->step = 0;
    int rc = 1;
    if (f->state == OVERHEAD_STEP_FITTED &&
        (rc = fit_columns(L, st, a, m, f->degree, f->coef, &f->step)) == 1)
        f->state = OVERHEAD_STEP_CONFOUNDED;
    if (rc == 1)
        rc = fit_columns(L, NULL, a, m, f->degree, f->coef, &f->step);
    return rc == 0;
}

static double alpha_of(const alpha_fit *f, double L, double step)
{
    return f->coef[0] + f->coef[1] * L + f->coef[2] * L * L +
           (f->state == OVERHEAD_STEP_FITTED ? f->step * step : 0);
}

/* Leave-one-level-out score of kind: the RMS error of each line's alpha
 * as predicted by a fit without that line. */
static bool loo_score(const overhead_law *law, overhead_law_kind kind, int degree, double *buf,
                      double *rms)
{
    double sum = 0;
    for (size_t i = 0; i < law->nlines; i++) {
        alpha_fit f;
        if (!fit_alpha_kind(law, i, kind, degree, buf, &f))
            return false;
        double np = law->lines[i].np;
        double e = alpha_of(&f, log2(np), step_value(kind, law->places, law->nplaces, np)) -
                   law->lines[i].alpha;
        sum += e * e;
    }
    *rms = sqrt(sum / (double)law->nlines);
    return true;
}

/* auto's choice (overhead.h); the scores go to law->loo_rms. */
static bool choose_law(overhead_law *law, int degree, double *buf, overhead_law_kind *kind)
{
    *kind = OVERHEAD_LAW_LOG2;
    for (int k = 0; k < 3; k++)
        law->loo_rms[k] = NAN;
    if (law->nlines < 3)
        return true;
    for (int k = OVERHEAD_LAW_LOG2; k <= OVERHEAD_LAW_TOPOLOGY; k++) {
        if (!loo_score(law, (overhead_law_kind)k, degree, buf, &law->loo_rms[k]))
            return false;
        if (law->loo_rms[k] < OVERHEAD_AUTO_MARGIN * law->loo_rms[*kind])
            *kind = (overhead_law_kind)k;
    }
    return true;
}

/* The largest step among the lines under kind, and the first line np
 * past the smallest line's step. */
static void trained_steps(overhead_law *law, overhead_law_kind kind)
{
    double first = step_value(kind, law->places, law->nplaces, law->lines[0].np);
    law->step_trained = first;
    law->step_np = NAN;
    for (size_t i = 0; i < law->nlines; i++) {
        double s = step_value(kind, law->places, law->nplaces, law->lines[i].np);
        law->step_trained = fmax(law->step_trained, s);
        if (s > first && isnan(law->step_np))
            law->step_np = law->lines[i].np;
    }
}

/* alpha in log2 np (and the step) through the lines' intercepts. */
static overhead_status fit_alpha(overhead_law *out, int degree, overhead_law_kind kind)
{
    size_t n = out->nlines;
    if (n < 2)
        return OVERHEAD_TOO_FEW_NP;
    double *buf = malloc(sizeof(double) * 3 * n);
    alpha_fit f;
    out->asked = kind;
    for (int k = 0; k < 3; k++)
        out->loo_rms[k] = NAN;
    bool ok = buf && (kind != OVERHEAD_LAW_AUTO || choose_law(out, degree, buf, &kind)) &&
              fit_alpha_kind(out, n, kind, degree, buf, &f);
    free(buf);
    if (!ok)
        return OVERHEAD_NOMEM;
    bool stepped = f.state == OVERHEAD_STEP_FITTED;
    out->kind = stepped ? kind : OVERHEAD_LAW_LOG2;
    out->step_state = f.state;
    out->step = stepped ? f.step : 0;
    out->degree = f.degree;
    out->degree_reduced = out->degree < degree;
    memcpy(out->coef, f.coef, sizeof out->coef);
    trained_steps(out, reach_kind(out->asked));
    out->gamma = out->lines[n - 1].gamma;
    out->np_max = out->lines[n - 1].np;
    return OVERHEAD_OK;
}

static int cmp_place(const void *a, const void *b)
{
    return cmp_double(&((const overhead_place *)a)->np, &((const overhead_place *)b)->np);
}

static bool copy_places(const overhead_place *places, size_t n, overhead_law *out)
{
    if (n == 0)
        return true;
    out->places = malloc(sizeof *places * n);
    if (!out->places)
        return false;
    memcpy(out->places, places, sizeof *places * n);
    qsort(out->places, n, sizeof *places, cmp_place);
    out->nplaces = n;
    return true;
}

overhead_status overhead_fit_steps(const overhead_point *pts, size_t n, int degree,
                                   overhead_law_kind kind, const overhead_place *places,
                                   size_t nplaces, overhead_law *out)
{
    memset(out, 0, sizeof *out);
    if (degree < 1 || degree > 2 || !points_valid(pts, n) || kind > OVERHEAD_LAW_AUTO)
        return OVERHEAD_BAD_INPUT;
    if (n == 0)
        return OVERHEAD_TOO_FEW_WORKS;
    overhead_status s = copy_places(places, nplaces, out) ? fit_lines(pts, n, out)
                                                          : OVERHEAD_NOMEM;
    if (s == OVERHEAD_OK)
        s = fit_alpha(out, degree, kind);
    if (s != OVERHEAD_OK)
        overhead_law_free(out);
    return s;
}

overhead_status overhead_fit(const overhead_point *pts, size_t n, int degree,
                             overhead_law *out)
{
    return overhead_fit_steps(pts, n, degree, OVERHEAD_LAW_LOG2, NULL, 0, out);
}

double overhead_step_of(const overhead_law *law, double np)
{
    return step_value(law->kind, law->places, law->nplaces, np);
}

bool overhead_step_beyond(const overhead_law *law, double np)
{
    return law->asked != OVERHEAD_LAW_LOG2 &&
           step_value(reach_kind(law->asked), law->places, law->nplaces, np) > law->step_trained;
}

double overhead_gamma_of(const overhead_law *law, double np)
{
    if (law->asked == OVERHEAD_LAW_LOG2 || law->nplaces == 0)
        return law->gamma;
    overhead_law_kind kind = reach_kind(law->asked);
    double level = step_value(kind, law->places, law->nplaces, np);
    const overhead_line *own = NULL;
    for (size_t i = 0; !isnan(level) && i < law->nlines; i++)
        if (step_value(kind, law->places, law->nplaces, law->lines[i].np) == level)
            own = &law->lines[i]; /* ascending: the last is the level's largest np */
    return own ? own->gamma : law->gamma;
}

double overhead_alpha(const overhead_law *law, double np)
{
    double L = log2(np);
    double step = law->step != 0 ? law->step * overhead_step_of(law, np) : 0;
    return law->coef[0] + law->coef[1] * L + law->coef[2] * L * L + step;
}

double overhead_eval(const overhead_law *law, double np, double work)
{
    return overhead_alpha(law, np) + law->gamma * work;
}

bool overhead_work_outside(const overhead_law *law, double work, double tol)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < law->nlines; i++) {
        lo = fmin(lo, law->lines[i].work_min);
        hi = fmax(hi, law->lines[i].work_max);
    }
    tol = fmax(tol, 1e-9);
    return work < lo * (1 - tol) || work > hi * (1 + tol);
}

const overhead_line *overhead_line_of(const overhead_law *law, double np)
{
    for (size_t i = 0; i < law->nlines; i++)
        if (law->lines[i].np == np)
            return &law->lines[i];
    return NULL;
}

/* Why a step law was fitted without its step. */
static const char *step_missing(overhead_step_state s)
{
    switch (s) {
    case OVERHEAD_STEP_NOT_CROSSED:
        return "no training line crosses a step (all lie on the same side of it), so the step "
               "cannot be estimated";
    case OVERHEAD_STEP_UNKNOWN: return "the nodes of some training runs are unknown";
    case OVERHEAD_STEP_TOO_FEW_NP: return "too few process counts to fit the step with the curve";
    case OVERHEAD_STEP_CONFOUNDED:
        return "on these process counts the step cannot be told from the curve in log2 np";
    case OVERHEAD_STEP_NONE:
    case OVERHEAD_STEP_FITTED: break;
    }
    return "";
}

/* "auto chose node by leave-one-level-out error (RMS log2 0.1 s, ...): " */
static int auto_words(const overhead_law *law, char *buf, size_t len)
{
    if (law->asked != OVERHEAD_LAW_AUTO)
        return 0;
    if (isnan(law->loo_rms[0]))
        return snprintf(buf, len, "auto kept the log2 law (fewer than three process counts to "
                        "compare laws by leave-one-level-out error); ");
    return snprintf(buf, len, "auto chose the %s law by leave-one-level-out error (RMS of "
                    "alpha: log2 %.3g s, node %.3g s, topology %.3g s); ",
                    overhead_law_name(law->kind), law->loo_rms[0], law->loo_rms[1],
                    law->loo_rms[2]);
}

void overhead_law_words(const overhead_law *law, char *buf, size_t len)
{
    int n = auto_words(law, buf, len);
    size_t used = n > 0 && (size_t)n < len ? (size_t)n : 0;
    char *p = buf + used;
    len -= used;
    if (law->kind == OVERHEAD_LAW_NODE)
        snprintf(p, len, "the overhead changes at %g processes: the job leaves one node, %+.3g s",
                 law->step_np, law->step);
    else if (law->kind == OVERHEAD_LAW_TOPOLOGY)
        snprintf(p, len, "the overhead changes by %+.3g s with each network level the job's "
                 "nodes occupy, first at %g processes (up to level %g in training)",
                 law->step, law->step_np, law->step_trained);
    else if (law->asked == OVERHEAD_LAW_LOG2 || law->asked == OVERHEAD_LAW_AUTO)
        snprintf(p, len, "overhead law alpha = c + d*log2(np)%s, as in the papers",
                 law->degree == 2 ? " + e*log2(np)^2" : "");
    else
        snprintf(p, len, "%s law asked, but %s: fitted as c + d*log2(np) without a step; a "
                 "target beyond the trained step is an extrapolation",
                 overhead_law_name(law->asked), step_missing(law->step_state));
}
