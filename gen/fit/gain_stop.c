/*
 * gain_stop.c — see gain_stop.h.
 */
#include "gen/fit/gain_stop.h"

#include <stdio.h>
#include <stdlib.h>

#include "gen/fit/scaling_option.h"
#include "gen/fit/trend_line.h"
#include "models/gainstop.h"

/* The index of the training runs' lines, on the experiment's response. */
static bool index_training_runs(const experiment_input *in, trend_index *ix)
{
    double *y = malloc((in->ntrain + 1) * sizeof *y);
    for (size_t i = 0; y && i < in->ntrain; i++)
        y[i] = experiment_row_response(&in->camp->runs, in->train_rows[i], in->responses,
                                       in->nresponses);
    bool ok = y && trend_index_build(&in->camp->runs, in->train_rows, y, in->ntrain, ix);
    free(y);
    return ok;
}

/* The stop on target t's line, if any, and the line's column (false:
 * none, or out of memory, which *nomem says). */
static bool stop_of_target(const experiment_input *in, const trend_index *ix, size_t t,
                           gainstop_result *stop, size_t *column, bool *nomem)
{
    trend_line line;
    bool found = false;
    if (!trend_line_find(ix, in->targets[t].rows[0], &line)) {
        *nomem = true;
    } else if (line.n > 0 && gainstop_find(line.x, line.y, line.n, stop) == GAINSTOP_OK &&
               stop->found) {
        *column = (size_t)line.column;
        found = true;
    }
    trend_line_free(&line);
    return found;
}

/* What the report says: the first target's stop s along column; beyond
 * of ntargets targets lie past it, elsewhere more lie past stops of their
 * own lines at other levels. */
typedef struct {
    gainstop_result s;
    size_t column;
    size_t beyond, elsewhere;
} first_stop;

static bool set_report_text(report *rep, const char *column, const first_stop *f,
                            size_t ntargets)
{
    const gainstop_result *s = &f->s;
    char text[700], more[160] = "";
    if (f->elsewhere)
        snprintf(more, sizeof more, "; %zu more lie%s beyond where their own runs stopped "
                 "gaining, at other levels (their notes say where)",
                 f->elsewhere, f->elsewhere == 1 ? "s" : "");
    snprintf(text, sizeof text,
             "the runs stopped gaining at %s = %g: none of the larger runs, up to %s = %g "
             "(%.3gx), was %.0f%% faster (the best ran %.3gx the time at %g, the largest "
             "%.3gx); beyond %g the runs do not show that a larger %s shortens the time, while "
             "the resources grow with it; %zu of %zu target%s %s beyond it%s",
             column, s->x_stop, column, s->x_last, s->x_last / s->x_stop, 100 * GAINSTOP_MIN_GAIN,
             s->best_ratio, s->x_stop, s->last_ratio, s->x_stop, column, f->beyond, ntargets,
             ntargets == 1 ? "" : "s", f->beyond == 1 ? "lies" : "lie", more);
    return report_set_text(&rep->gain_stop, text);
}

/* Mark prediction p, whose line stops at stop along column, and count it
 * for the report. False when out of memory. */
static bool mark_prediction(const experiment_input *in, report_prediction *p,
                            const gainstop_result *stop, size_t column, first_stop *f)
{
    p->gain_stop_at = stop->x_stop;
    p->gain_stop_column = column;
    if (f->beyond == 0)
        f->s = *stop, f->column = column;
    if (column == f->column && stop->x_stop == f->s.x_stop)
        f->beyond++;
    else
        f->elsewhere++;
    char note[200];
    snprintf(note, sizeof note, "beyond where the runs stopped gaining (%s = %g)",
             in->camp->runs.cols[column].name, stop->x_stop);
    return report_append_note(p, note);
}

/* Whether the experiment says its problem grows with the process count
 * (an option that does not parse was reported by `check`: strong). */
static bool weak_scaling(const experiment_input *in)
{
    bool weak = false;
    char err[200];
    return in->exp && scaling_option_weak(in->exp->options, &weak, err, sizeof err) && weak;
}

bool gain_stop_note(experiment_result *res)
{
    const experiment_input *in = &res->input;
    trend_index ix = {0};
    if (!experiment_response_is_time(in) || in->ntargets == 0 || weak_scaling(in))
        return true;
    bool ok = index_training_runs(in, &ix);
    first_stop f = {0};
    for (size_t i = 0; ok && i < res->rep.npreds; i++) {
        report_prediction *p = &res->rep.preds[i];
        gainstop_result stop;
        size_t column = 0;
        bool nomem = false;
        if (p->config < in->ntargets && stop_of_target(in, &ix, p->config, &stop, &column, &nomem))
            ok = mark_prediction(in, p, &stop, column, &f);
        else
            ok = !nomem;
    }
    ok = ok && (f.beyond == 0 ||
                set_report_text(&res->rep, in->camp->runs.cols[f.column].name, &f,
                                res->rep.npreds));
    trend_index_free(&ix);
    return ok;
}
