/*
 * cmd_check.c — `perfcast check`: lint the whole archive, print every
 * problem as FILE:LINE:COL: message, exit 1 if there is any.
 */
#include "gen/cli/commands.h"

#include <stdio.h>

#include "gen/cli/archive_check.h"
#include "gen/cli/cli.h"
#include "gen/ingest/archive.h"

static const char usage[] =
    "usage: perfcast check [--archive DIR]\n"
    "\n"
    "Reads DIR/clusters.csv, DIR/advice.csv and every campaign folder (runs.csv,\n"
    "experiments.csv, README.md), checks every cell, filter and formula, runs every\n"
    "experiment as fit and build would (selections and fit) and every advice\n"
    "scenario, and prints each problem as\n"
    "FILE:LINE:COL: message. Exit status: 0 no problem, 1 problems, 2 usage.\n"
    "\n"
    "  --archive DIR   the archive folder (default: archive)\n"
    "  --help          this text\n";

int cmd_check(int argc, char **argv)
{
    cli_args args;
    if (!cli_parse(argc, argv, NULL, 0, usage, &args))
        return 2;
    if (args.help) {
        fputs(usage, stdout);
        return 0;
    }
    archive a;
    diag_list diags;
    diag_init(&diags);
    if (archive_load(args.archive, &a, &diags))
        archive_check(&a, &diags);
    diag_print(&diags, stderr);
    size_t runs = 0, experiments = 0;
    for (size_t i = 0; i < a.ncampaigns; i++) {
        runs += a.campaigns[i].runs.nrows;
        experiments += a.campaigns[i].nexperiments;
    }
    printf("%s: %zu clusters, %zu campaigns (%zu runs, %zu experiments)", args.archive,
           a.nclusters, a.ncampaigns, runs, experiments);
    if (a.nskipped)
        printf(", %zu skipped", a.nskipped);
    printf("; %zu problem%s\n", diags.count, diags.count == 1 ? "" : "s");
    int status = diags.count ? 1 : 0;
    diag_free(&diags);
    archive_free(&a);
    return status;
}
