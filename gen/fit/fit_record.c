/*
 * fit_record.c — see fit_record.h. The writer and the reader follow the
 * same order of tags; the reader checks every count against what it
 * fills, so a record cut short or edited is rejected as a whole.
 */
#include "gen/fit/fit_record.h"

#include <stdlib.h>
#include <string.h>

#include "gen/base/textout.h"

enum { MAX_FIELDS = 32 };

/* ------------------------------------------------------------------ */
/* Writing                                                             */

/* Exact (textout_double_bits), and never a "nan" a check of the site for
 * non-finite numbers would have to tell from a page's. */
static void put_double(rbuf *out, double v)
{
    char bits[17];
    textout_double_bits(bits, v);
    rbuf_putc(out, '\t');
    rbuf_puts(out, bits);
}

static void put_size(rbuf *out, size_t v)
{
    rbuf_printf(out, "\t%zu", v);
}

/* '=' and the text with the bytes that would end a field or a line as
 * %XX; '~' for NULL. */
static void put_text(rbuf *out, const char *s)
{
    rbuf_putc(out, '\t');
    if (!s) {
        rbuf_putc(out, '~');
        return;
    }
    rbuf_putc(out, '=');
    for (; *s; s++) {
        if (*s == '%' || *s == '\t' || *s == '\n' || *s == '\r')
            rbuf_printf(out, "%%%02X", (unsigned char)*s);
        else
            rbuf_putc(out, *s);
    }
}

static void put_scores(rbuf *out, const calibrate_scores *s)
{
    put_size(out, s->ntargets);
    put_double(out, s->median_abs_error_pct);
    put_double(out, s->max_abs_error_pct);
    put_size(out, s->nwith_interval);
    put_size(out, s->ninside);
    put_double(out, s->coverage);
    put_double(out, s->mean_width_pct);
    put_double(out, s->median_width_ratio);
    put_double(out, s->mean_interval_score);
}

/* An estimate with its confidence and prediction intervals, as a
 * prediction and a component's part both carry them. */
static void put_estimate(rbuf *out, double estimate, double ci_low, double ci_high,
                         double pi_low, double pi_high)
{
    const double v[] = {estimate, ci_low, ci_high, pi_low, pi_high};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        put_double(out, v[i]);
}

static void write_report(const report *r, rbuf *out)
{
    const char *texts[] = {r->model, r->formula, r->equation, r->interval_method, r->regime,
                           r->gain_stop};
    rbuf_puts(out, "report");
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        put_text(out, texts[i]);
    put_double(out, r->cal_inside_log_half_width);
    for (size_t i = 0; i < r->ncoefs; i++) {
        const report_coef *c = &r->coefs[i];
        rbuf_puts(out, "\ncoef");
        put_text(out, c->term);
        const double v[] = {c->coefficient, c->std_error, c->t, c->p};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
            put_double(out, v[k]);
        put_size(out, c->aliased);
    }
    for (size_t i = 0; i < r->nstats; i++) {
        rbuf_puts(out, "\nstat");
        put_text(out, r->stats[i].name);
        put_double(out, r->stats[i].value);
        put_text(out, r->stats[i].text);
    }
    for (size_t i = 0; i < r->npreds; i++) {
        const report_prediction *p = &r->preds[i];
        rbuf_puts(out, "\npred");
        put_size(out, p->config);
        put_estimate(out, p->estimate, p->ci_low, p->ci_high, p->pi_low, p->pi_high);
        put_size(out, p->extrapolation);
        put_text(out, p->note);
        put_double(out, p->cal_low), put_double(out, p->cal_high);
        put_double(out, p->distance);
        put_text(out, p->beyond);
        put_text(out, p->cal_source);
        put_size(out, p->held_to_trend);
        put_double(out, p->gain_stop_at);
        put_size(out, p->gain_stop_column);
    }
    for (size_t i = 0; i < r->nparts; i++) {
        const report_part *p = &r->parts[i];
        rbuf_puts(out, "\npart");
        put_size(out, p->config);
        put_text(out, p->response);
        put_estimate(out, p->estimate, p->ci_low, p->ci_high, p->pi_low, p->pi_high);
    }
    for (size_t i = 0; i < r->ndiagnostics; i++) {
        rbuf_puts(out, "\ndiag");
        put_text(out, r->diagnostics[i]);
    }
    for (size_t i = 0; i < r->nwarnings; i++) {
        rbuf_puts(out, "\nwarn");
        put_text(out, r->warnings[i]);
    }
    rbuf_putc(out, '\n');
}

static void write_compare(const compare_result *c, rbuf *out)
{
    rbuf_puts(out, "compare");
    put_size(out, c->nrows);
    put_size(out, c->ntargets);
    rbuf_printf(out, "\t%d\n", c->best);
    for (size_t i = 0; i < c->nrows; i++) {
        const compare_row *w = &c->rows[i];
        rbuf_puts(out, "row");
        put_text(out, w->label);
        put_size(out, w->own);
        put_size(out, w->applies);
        put_text(out, w->reason);
        put_scores(out, &w->calibrated);
        put_scores(out, &w->textbook);
        put_size(out, (size_t)w->verdict.level);
        put_text(out, w->verdict.reasons);
        put_size(out, w->n);
        rbuf_putc(out, '\n');
        for (size_t k = 0; k < w->n; k++) {
            const double v[] = {w->estimate[k], w->measured[k], w->cal_low[k],
                                w->cal_high[k], w->pi_low[k], w->pi_high[k]};
            rbuf_puts(out, "value");
            for (size_t c = 0; c < sizeof v / sizeof v[0]; c++)
                put_double(out, v[c]);
            rbuf_putc(out, '\n');
        }
    }
}

bool fit_record_write(const experiment_result *res, const compare_result *cmp, rbuf *out)
{
    rbuf_printf(out, "result\t%d", res->ok ? 1 : 0);
    put_text(out, res->error);
    put_text(out, res->where.cell);
    rbuf_printf(out, "\t%d\n", res->where.offset);
    for (size_t i = 0; i < res->input.ntargets; i++) {
        rbuf_puts(out, "target");
        put_double(out, res->input.targets[i].error_pct);
        rbuf_putc(out, '\n');
    }
    write_report(&res->rep, out);
    write_compare(cmp, out);
    rbuf_puts(out, "end\n");
    return !out->oom;
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */

typedef struct {
    char *text;      /* a NUL-terminated copy, cut into lines and fields */
    char *next;      /* the next line */
    char *field[MAX_FIELDS];
    size_t nfields;
    bool ok;
} reader;

/* The next line split at tabs; false at the end of the text. */
static bool next_line(reader *r)
{
    if (!r->ok || !r->next || !*r->next)
        return false;
    char *line = r->next, *nl = strchr(line, '\n');
    if (!nl)
        return r->ok = false; /* every line ends with a newline */
    *nl = '\0';
    r->next = nl + 1;
    r->nfields = 0;
    for (char *f = line; f && r->nfields < MAX_FIELDS;) {
        r->field[r->nfields++] = f;
        char *tab = strchr(f, '\t');
        if (tab)
            *tab = '\0';
        f = tab ? tab + 1 : NULL;
    }
    return true;
}

/* Whether the current line is tag with n fields after it. */
static bool is(const reader *r, const char *tag, size_t n)
{
    return r->ok && r->nfields == n + 1 && strcmp(r->field[0], tag) == 0;
}

static double get_double(reader *r, size_t i)
{
    double v = 0;
    if (!textout_parse_double_bits(r->field[i], &v))
        r->ok = false;
    return v;
}

static size_t get_size(reader *r, size_t i)
{
    char *end;
    const char *s = r->field[i];
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *end || *s == '-')
        r->ok = false;
    return (size_t)v;
}

static bool get_bool(reader *r, size_t i)
{
    size_t v = get_size(r, i);
    if (v > 1)
        r->ok = false;
    return v == 1;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The text of field i, decoded in place; NULL for '~' (and on error,
 * which clears r->ok). */
static char *field_text(reader *r, size_t i)
{
    char *s = r->field[i];
    if (strcmp(s, "~") == 0)
        return NULL;
    if (s[0] != '=') {
        r->ok = false;
        return NULL;
    }
    char *w = s;
    for (const char *p = s + 1; *p; p++) {
        if (*p != '%') {
            *w++ = *p;
            continue;
        }
        int hi = hex_digit(p[1]), lo = hi >= 0 ? hex_digit(p[2]) : -1;
        if (lo < 0) {
            r->ok = false;
            return NULL;
        }
        *w++ = (char)(hi * 16 + lo);
        p += 2;
    }
    *w = '\0';
    return s;
}

/* field i as a malloc'ed text (NULL for '~'). */
static char *get_text(reader *r, size_t i)
{
    char *s = field_text(r, i);
    if (!s)
        return NULL;
    char *copy = strdup(s);
    if (!copy)
        r->ok = false;
    return copy;
}

/* A text field that must be present (never '~'). */
static const char *need_text(reader *r, size_t i)
{
    const char *s = field_text(r, i);
    if (!s)
        r->ok = false;
    return s ? s : "";
}

/* The cells experiments.csv has (experiment_where): the record names one
 * by text, the result points at the static name. */
static const char *known_cell(reader *r, const char *name)
{
    static const char *const cells[] = {"name", "model", "response", "formula",
                                        "train", "target", "options"};
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++)
        if (strcmp(cells[i], name) == 0)
            return cells[i];
    r->ok = false;
    return NULL;
}

static void read_result(reader *r, experiment_result *res)
{
    if (!next_line(r) || !is(r, "result", 4)) {
        r->ok = false;
        return;
    }
    res->ok = get_bool(r, 1);
    const char *error = need_text(r, 2);
    if (strlen(error) >= sizeof res->error)
        r->ok = false;
    else
        memcpy(res->error, error, strlen(error) + 1);
    res->where.cell = known_cell(r, field_text(r, 3));
    res->where.offset = (int)get_size(r, 4);
    for (size_t i = 0; r->ok && i < res->input.ntargets; i++) {
        if (!next_line(r) || !is(r, "target", 1))
            r->ok = false;
        else
            res->input.targets[i].error_pct = get_double(r, 1);
    }
}

static void read_prediction(reader *r, report *rep)
{
    report_prediction p = {.config = get_size(r, 1), .estimate = get_double(r, 2),
                           .ci_low = get_double(r, 3), .ci_high = get_double(r, 4),
                           .pi_low = get_double(r, 5), .pi_high = get_double(r, 6),
                           .extrapolation = get_bool(r, 7), .held_to_trend = get_bool(r, 14)};
    double gain_stop_at = get_double(r, 15);
    size_t gain_stop_column = get_size(r, 16);
    p.note = field_text(r, 8);
    double cal_low = get_double(r, 9), cal_high = get_double(r, 10), distance = get_double(r, 11);
    char *beyond = get_text(r, 12), *source = get_text(r, 13);
    report_prediction *q = NULL;
    if (r->ok && report_add_prediction(rep, &p))
        q = &rep->preds[rep->npreds - 1];
    if (!q) {
        r->ok = false;
        free(beyond);
        free(source);
        return;
    }
    q->cal_low = cal_low, q->cal_high = cal_high, q->distance = distance;
    q->beyond = beyond, q->cal_source = source;
    q->gain_stop_at = gain_stop_at, q->gain_stop_column = gain_stop_column;
}

static void read_part(reader *r, report *rep)
{
    report_part p = {.config = get_size(r, 1), .estimate = get_double(r, 3),
                     .ci_low = get_double(r, 4), .ci_high = get_double(r, 5),
                     .pi_low = get_double(r, 6), .pi_high = get_double(r, 7)};
    p.response = (char *)need_text(r, 2);
    if (r->ok && !report_add_part(rep, &p))
        r->ok = false;
}

/* One line of the report's body; false at the first line that is not. */
static bool read_report_item(reader *r, report *rep)
{
    if (is(r, "coef", 6)) {
        double c = get_double(r, 2), se = get_double(r, 3), t = get_double(r, 4),
               p = get_double(r, 5);
        bool aliased = get_bool(r, 6);
        const char *term = need_text(r, 1);
        r->ok = r->ok && report_add_coef(rep, term, c, se, t, p, aliased);
    } else if (is(r, "stat", 3)) {
        double v = get_double(r, 2);
        const char *name = need_text(r, 1), *text = field_text(r, 3);
        r->ok = r->ok && report_add_stat(rep, name, v, text);
    } else if (is(r, "pred", 16)) {
        read_prediction(r, rep);
    } else if (is(r, "part", 7)) {
        read_part(r, rep);
    } else if (is(r, "diag", 1)) {
        const char *line = need_text(r, 1);
        r->ok = r->ok && report_add_diagnostic(rep, line);
    } else if (is(r, "warn", 1)) {
        const char *line = need_text(r, 1);
        r->ok = r->ok && report_add_warning(rep, line);
    } else {
        return false;
    }
    return true;
}

static void read_report(reader *r, report *rep)
{
    report_free(rep);
    char **texts[] = {&rep->model, &rep->formula, &rep->equation, &rep->interval_method,
                      &rep->regime, &rep->gain_stop}; /* write_report's order */
    size_t ntexts = sizeof texts / sizeof texts[0];
    if (!next_line(r) || !is(r, "report", ntexts + 1)) { /* the texts, then one number */
        r->ok = false;
        return;
    }
    for (size_t i = 0; i < ntexts; i++)
        *texts[i] = get_text(r, i + 1);
    rep->cal_inside_log_half_width = get_double(r, ntexts + 1);
    while (next_line(r) && read_report_item(r, rep))
        ;
}

static void read_scores(reader *r, size_t at, calibrate_scores *s)
{
    *s = (calibrate_scores){
        .ntargets = get_size(r, at), .median_abs_error_pct = get_double(r, at + 1),
        .max_abs_error_pct = get_double(r, at + 2), .nwith_interval = get_size(r, at + 3),
        .ninside = get_size(r, at + 4), .coverage = get_double(r, at + 5),
        .mean_width_pct = get_double(r, at + 6), .median_width_ratio = get_double(r, at + 7),
        .mean_interval_score = get_double(r, at + 8)};
}

static void read_values(reader *r, compare_row *w)
{
    size_t n = w->n ? w->n : 1;
    double **cols[] = {&w->estimate, &w->measured, &w->cal_low, &w->cal_high, &w->pi_low,
                       &w->pi_high};
    for (size_t c = 0; c < 6; c++)
        if (!(*cols[c] = malloc(n * sizeof **cols[c])))
            r->ok = false;
    for (size_t k = 0; r->ok && k < w->n; k++) {
        if (!next_line(r) || !is(r, "value", 6)) {
            r->ok = false;
            break;
        }
        for (size_t c = 0; c < 6; c++)
            (*cols[c])[k] = get_double(r, c + 1);
    }
}

static void read_row(reader *r, compare_row *w)
{
    if (!next_line(r) || !is(r, "row", 25)) {
        r->ok = false;
        return;
    }
    w->label = get_text(r, 1);
    w->own = get_bool(r, 2);
    w->applies = get_bool(r, 3);
    w->reason = get_text(r, 4);
    read_scores(r, 5, &w->calibrated);
    read_scores(r, 14, &w->textbook);
    size_t level = get_size(r, 23);
    w->verdict.level = (verdict_level)level;
    if (level > VERDICT_NOT_VERIFIED)
        r->ok = false;
    w->verdict.reasons = get_text(r, 24);
    w->n = get_size(r, 25);
    if (!w->label)
        r->ok = false;
    if (r->ok)
        read_values(r, w);
}

static void read_compare(reader *r, compare_result *cmp)
{
    if (!is(r, "compare", 3)) {
        r->ok = false;
        return;
    }
    size_t nrows = get_size(r, 1);
    cmp->ntargets = get_size(r, 2);
    long best = strtol(r->field[3], NULL, 10);
    if (!r->ok || best < -1 || best >= (long)nrows || nrows > 1000) {
        r->ok = false;
        return;
    }
    cmp->best = (int)best;
    cmp->rows = calloc(nrows ? nrows : 1, sizeof *cmp->rows);
    if (!cmp->rows) {
        r->ok = false;
        return;
    }
    for (size_t i = 0; r->ok && i < nrows; i++)
        read_row(r, &cmp->rows[cmp->nrows++]);
}

bool fit_record_read(const char *text, size_t len, experiment_result *res, compare_result *cmp)
{
    memset(cmp, 0, sizeof *cmp);
    cmp->best = -1;
    reader r = {.text = malloc(len + 1), .ok = true};
    if (!r.text)
        return false;
    memcpy(r.text, text, len);
    r.text[len] = '\0';
    r.next = r.text;
    if (strlen(r.text) != len) /* a NUL inside: not a record */
        r.ok = false;
    read_result(&r, res);
    read_report(&r, &res->rep); /* leaves the line after the report read */
    read_compare(&r, cmp);
    bool ended = next_line(&r) && is(&r, "end", 0) && !*r.next;
    free(r.text);
    return r.ok && ended;
}
