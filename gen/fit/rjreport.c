/*
 * rjreport.c — see rjreport.h.
 */
#include "gen/fit/rjreport.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

bool rjreport_warn(report *r, const char *fmt, ...)
{
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    return report_add_warning(r, line);
}

bool rjreport_diagnose(report *r, const char *fmt, ...)
{
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    return report_add_diagnostic(r, line);
}

static bool coef(report *r, const char *prefix, const char *name, double np, double v)
{
    char term[160];
    if (np > 0)
        snprintf(term, sizeof term, "%s%s(%g)", prefix, name, np);
    else
        snprintf(term, sizeof term, "%s%s", prefix, name);
    return report_add_coef(r, term, v, NAN, NAN, NAN, false);
}

static bool law_notes(report *r, const char *prefix, const overhead_law *law)
{
    bool ok = true;
    for (size_t i = 0; ok && i < law->nskipped && i < 8; i++)
        ok = rjreport_warn(r, "%snp = %g left out: its runs do not span two work levels, so "
                              "no line over work can be fitted", prefix, law->skipped_np[i]);
    if (ok && law->degree_reduced)
        ok = rjreport_warn(r, "%salpha(np) is a line in log2 np, not the paper's quadratic: "
                              "only %zu process counts have lines", prefix, law->nlines);
    double worst = 0;
    for (size_t i = 0; i < law->nlines; i++)
        worst = fmax(worst, law->lines[i].max_residual);
    if (ok)
        ok = rjreport_diagnose(r, "%slines Tcomm = alpha + gamma*work over %zu process counts; "
                                  "largest residual %.3g s", prefix, law->nlines, worst);
    return ok;
}

/* Which overhead law was used and what it found (models/overhead.h), as
 * a diagnostic the fit output, JSON and campaign page all show. */
static bool law_words(report *r, const char *prefix, const overhead_law *law)
{
    if (law->asked == OVERHEAD_LAW_LOG2)
        return true; /* the papers' law, as every equation says */
    char words[600];
    overhead_law_words(law, words, sizeof words);
    return rjreport_diagnose(r, "%soverhead=%s: %s", prefix, overhead_law_name(law->asked),
                             words);
}

bool rjreport_law(report *r, const char *prefix, const overhead_law *law)
{
    static const char *const names[] = {"c", "d", "e"};
    bool ok = true;
    for (size_t i = 0; ok && i < law->nlines; i++)
        ok = coef(r, prefix, "alpha", law->lines[i].np, law->lines[i].alpha) &&
             coef(r, prefix, "gamma", law->lines[i].np, law->lines[i].gamma);
    for (int k = 0; ok && k <= (law->degree == 2 ? 2 : 1); k++)
        ok = coef(r, prefix, names[k], 0, law->coef[k]);
    if (ok && law->step_state == OVERHEAD_STEP_FITTED)
        ok = coef(r, prefix, "s", 0, law->step);
    return ok && coef(r, prefix, "gamma", 0, law->gamma) && law_notes(r, prefix, law) &&
           law_words(r, prefix, law);
}

static bool stat(report *r, const char *prefix, const char *name, double v, const char *text)
{
    char full[200];
    snprintf(full, sizeof full, "%s%s", prefix, name);
    return report_add_stat(r, full, v, text);
}

bool rjreport_configs(report *r, const char *prefix, const mesh_configs *cs,
                      double max_spread_pct, double mb_per_point)
{
    size_t runs = 0, configs = 0;
    for (size_t k = 0; k < cs->nconfigs; k++)
        if (cs->configs[k].used) {
            configs++;
            runs += cs->configs[k].reps;
        }
    return stat(r, prefix, "runs", (double)runs, "training runs that entered the fit") &&
           stat(r, prefix, "configurations", (double)configs,
                "configurations (repetitions averaged) that entered the fit") &&
           stat(r, prefix, "rep_spread_max_pct", max_spread_pct,
                "largest 100*(max-min)/mean over the repetitions of a configuration used") &&
           stat(r, prefix, "mb_per_point", mb_per_point,
                isfinite(mb_per_point) ? "memory per mesh point (MB), from work_mb of the runs"
                                       : "unknown: no run gives both work_mb and its mesh");
}

/* The step term of a law's equation: " + 0.12*[nodes > 1]". */
static int step_text(char *buf, size_t len, const overhead_law *law)
{
    if (law->step_state != OVERHEAD_STEP_FITTED)
        return 0;
    int n = snprintf(buf, len, " %s %.6g*%s", law->step < 0 ? "-" : "+", fabs(law->step),
                     law->kind == OVERHEAD_LAW_NODE ? "[nodes > 1]" : "level(nodes)");
    return n > 0 ? n : 0;
}

int rjreport_law_text(char *buf, size_t len, const overhead_law *law, bool leading_plus)
{
    const double v[4] = {law->coef[0], law->coef[1], law->coef[2], law->gamma};
    static const char *const unit[4] = {"", "*log2(np)", "*log2(np)^2", "*work_mb"};
    int used = 0;
    for (int k = 0; k < 4; k++) {
        if (k == 2 && law->degree < 2)
            continue;
        bool first = used == 0 && !leading_plus;
        const char *sign = first ? (v[k] < 0 ? "-" : "") : (v[k] < 0 ? " - " : " + ");
        int n = snprintf(buf + used, (size_t)used < len ? len - (size_t)used : 0, "%s%.6g%s", sign,
                         fabs(v[k]), unit[k]);
        used += n > 0 ? n : 0;
        if (k == 2 || (k == 1 && law->degree < 2))
            used += step_text(buf + used, (size_t)used < len ? len - (size_t)used : 0, law);
    }
    return used;
}

bool rjreport_predict(report *r, size_t config, double estimate, bool extrapolation,
                      const char *note)
{
    report_prediction p = {.config = config, .estimate = estimate, .ci_low = NAN, .ci_high = NAN,
                           .pi_low = NAN, .pi_high = NAN, .extrapolation = extrapolation,
                           .note = (char *)note};
    return report_add_prediction(r, &p);
}

void rjreport_reference(char *buf, size_t len, mesh_match match, double pa, double pb,
                        size_t reps, double spread_pct)
{
    if (match == MESH_EXACT || match == MESH_SAME_WORK)
        snprintf(buf, len, "%s %gx%g, %zu run%s, spread %.2g%%", mesh_match_text(match), pa, pb,
                 reps, reps == 1 ? "" : "s", spread_pct);
    else
        snprintf(buf, len, "%s (no run with the per-process mesh %gx%g)", mesh_match_text(match),
                 pa, pb);
}
