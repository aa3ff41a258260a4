/*
 * report.c — growable arrays behind report.h.
 */
#include "models/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void report_init(report *r)
{
    memset(r, 0, sizeof *r);
}

static void free_strings(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(items[i]);
    free(items);
}

void report_free(report *r)
{
    free(r->model);
    free(r->formula);
    free(r->equation);
    free(r->interval_method);
    free(r->regime);
    free(r->gain_stop);
    for (size_t i = 0; i < r->nparts; i++)
        free(r->parts[i].response);
    free(r->parts);
    for (size_t i = 0; i < r->ncoefs; i++)
        free(r->coefs[i].term);
    free(r->coefs);
    for (size_t i = 0; i < r->nstats; i++) {
        free(r->stats[i].name);
        free(r->stats[i].text);
    }
    free(r->stats);
    for (size_t i = 0; i < r->npreds; i++) {
        free(r->preds[i].note);
        free(r->preds[i].beyond);
        free(r->preds[i].cal_source);
    }
    free(r->preds);
    free_strings(r->diagnostics, r->ndiagnostics);
    free_strings(r->warnings, r->nwarnings);
    report_init(r);
}

bool report_set_text(char **field, const char *text)
{
    char *copy = NULL;
    if (text && !(copy = strdup(text)))
        return false;
    free(*field);
    *field = copy;
    return true;
}

bool report_append_note(report_prediction *p, const char *text)
{
    if (!p->note || !p->note[0])
        return report_set_text(&p->note, text);
    size_t len = strlen(p->note) + strlen(text) + 3;
    char *joined = malloc(len);
    if (!joined)
        return false;
    snprintf(joined, len, "%s; %s", p->note, text);
    bool ok = report_set_text(&p->note, joined);
    free(joined);
    return ok;
}

/* Make room for one more element of size elem in *items (count n). */
static bool grow(void **items, size_t n, size_t elem)
{
    /* Double at powers of two: n is also the capacity marker. */
    if (n != 0 && (n & (n - 1)) != 0)
        return true;
    size_t cap = n ? n * 2 : 4;
    void *p = realloc(*items, cap * elem);
    if (!p)
        return false;
    *items = p;
    return true;
}

bool report_add_coef(report *r, const char *term, double coefficient,
                     double std_error, double t, double p, bool aliased)
{
    if (!grow((void **)&r->coefs, r->ncoefs, sizeof *r->coefs))
        return false;
    char *copy = strdup(term);
    if (!copy)
        return false;
    r->coefs[r->ncoefs++] = (report_coef){copy, coefficient, std_error, t, p, aliased};
    return true;
}

bool report_add_stat(report *r, const char *name, double value, const char *text)
{
    if (!grow((void **)&r->stats, r->nstats, sizeof *r->stats))
        return false;
    report_stat s = {strdup(name), value, text ? strdup(text) : NULL};
    if (!s.name || (text && !s.text)) {
        free(s.name);
        free(s.text);
        return false;
    }
    r->stats[r->nstats++] = s;
    return true;
}

bool report_add_prediction(report *r, const report_prediction *p)
{
    if (!grow((void **)&r->preds, r->npreds, sizeof *r->preds))
        return false;
    report_prediction copy = *p;
    copy.note = NULL;
    copy.cal_low = copy.cal_high = copy.distance = NAN;
    copy.beyond = copy.cal_source = NULL;
    copy.gain_stop_at = 0;
    copy.gain_stop_column = 0;
    if (p->note && !(copy.note = strdup(p->note)))
        return false;
    r->preds[r->npreds++] = copy;
    return true;
}

bool report_add_part(report *r, const report_part *p)
{
    if (!grow((void **)&r->parts, r->nparts, sizeof *r->parts))
        return false;
    report_part copy = *p;
    if (!(copy.response = strdup(p->response)))
        return false;
    r->parts[r->nparts++] = copy;
    return true;
}

const report_part *report_find_part(const report *r, size_t config, const char *response)
{
    for (size_t i = 0; i < r->nparts; i++)
        if (r->parts[i].config == config && strcmp(r->parts[i].response, response) == 0)
            return &r->parts[i];
    return NULL;
}

static bool add_line(char ***items, size_t *n, const char *line)
{
    if (!grow((void **)items, *n, sizeof **items))
        return false;
    char *copy = strdup(line);
    if (!copy)
        return false;
    (*items)[(*n)++] = copy;
    return true;
}

bool report_add_diagnostic(report *r, const char *line)
{
    return add_line(&r->diagnostics, &r->ndiagnostics, line);
}

bool report_add_warning(report *r, const char *line)
{
    return add_line(&r->warnings, &r->nwarnings, line);
}

const report_stat *report_find_stat(const report *r, const char *name)
{
    for (size_t i = 0; i < r->nstats; i++)
        if (strcmp(r->stats[i].name, name) == 0)
            return &r->stats[i];
    return NULL;
}
