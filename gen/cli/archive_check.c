/*
 * archive_check.c — see archive_check.h.
 */
#include "gen/cli/archive_check.h"

#include <stdlib.h>

#include "gen/advice/advice_scenarios.h"
#include "gen/base/fileio.h"
#include "gen/fit/experiment_run.h"
#include "gen/fit/model_adapters.h"
#include "gen/ingest/acknowledgements.h"
#include "gen/ingest/experiment.h"

/* Options first (a bad key would fail the fit with the same message), then
 * the fit itself: selections and fit, without the calibrated intervals and
 * the report's diagnostics, which only fail when out of memory
 * (experiment_fit). */
static void check_experiment(const archive *a, const campaign *c, const experiment_info *e,
                             const char *file, diag_list *d)
{
    char err[300];
    if (e->problem)
        return; /* reported with its row already, and never run */
    if (!model_check_options(c, e, err, sizeof err)) {
        diag_add(d, file, e->line, experiment_cell_column(e, "options", 0), "%s", err);
        return;
    }
    experiment_result res;
    if (!experiment_fit(a, c, e, true, &res))
        diag_add(d, file, e->line, experiment_cell_column(e, res.where.cell, res.where.offset),
                 "experiment '%s': %s", e->name, res.error);
    experiment_result_free(&res);
}

static void check_scenarios(const archive *a, diag_list *d)
{
    advice_scenarios scenarios;
    char *file = fileio_join(a->dir, "advice.csv");
    if (!advice_scenarios_load(a, NULL, &scenarios, d)) /* no interval to check */
        diag_add(d, file ? file : a->dir, 0, 0, "out of memory");
    for (size_t i = 0; i < scenarios.n; i++) {
        const advice_scenario *s = &scenarios.items[i];
        if (!s->ok)
            diag_add(d, file ? file : a->dir, s->line, s->column, "scenario '%s': %s",
                     s->name ? s->name : "", s->error);
    }
    advice_scenarios_free(&scenarios);
    free(file);
}

/* acknowledgements.csv: its loader reports every problem at its cell. */
static void check_acknowledgements(const archive *a, diag_list *d)
{
    acknowledgements acks;
    if (!acknowledgements_load(a, &acks, d))
        diag_add(d, a->dir, 0, 0, "out of memory");
    acknowledgements_free(&acks);
}

void archive_check(const archive *a, diag_list *d)
{
    for (size_t i = 0; i < a->ncampaigns; i++) {
        const campaign *c = &a->campaigns[i];
        char *file = fileio_join(c->dir, "experiments.csv");
        for (size_t k = 0; k < c->nexperiments; k++)
            check_experiment(a, c, &c->experiments[k], file ? file : c->dir, d);
        free(file);
    }
    check_scenarios(a, d);
    check_acknowledgements(a, d);
}
