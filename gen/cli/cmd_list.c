/*
 * cmd_list.c — `perfcast list [CAMPAIGN]`: what an archive holds, so nobody
 * has to read experiments.csv to find a name. Without CAMPAIGN: every
 * campaign (runs, experiments, or why it was skipped) and every cluster;
 * with CAMPAIGN: its experiments (name, model, response, title).
 */
#include "gen/cli/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/cli/cli.h"
#include "gen/ingest/archive.h"
#include "gen/ingest/namelist.h"

static const char usage[] =
    "usage: perfcast list [--archive DIR] [CAMPAIGN]\n"
    "\n"
    "Without CAMPAIGN: the campaigns (with their runs and experiments; a campaign\n"
    "with problems is listed as skipped, `perfcast check` says why) and the\n"
    "clusters. With CAMPAIGN: its experiments, one per line: name, model,\n"
    "response and title, tab-separated.\n"
    "\n"
    "  --archive DIR   the archive folder (default: archive)\n"
    "  --help          this text\n"
    "Exit status: 0 ok, 1 no such archive or campaign, 2 usage.\n";

static void list_archive(const archive *a)
{
    printf("campaigns in %s:\n", a->dir ? a->dir : "the archive");
    for (size_t i = 0; i < a->ncampaigns; i++) {
        const campaign *c = &a->campaigns[i];
        printf("  %-24s %5zu runs  %3zu experiment%s\n", c->name, c->runs.nrows, c->nexperiments,
               c->nexperiments == 1 ? "" : "s");
    }
    for (size_t i = 0; i < a->nskipped; i++)
        printf("  %s\tskipped: it has problems (perfcast check)\n", a->skipped[i]);
    printf("clusters:\n");
    for (size_t i = 0; i < a->nclusters; i++)
        printf("  %s\n", a->clusters[i].name);
}

static void list_campaign(const campaign *c)
{
    for (size_t i = 0; i < c->nexperiments; i++) {
        const experiment_info *e = &c->experiments[i];
        printf("%s\t%s\t%s\t%s\n", e->name, e->model, e->response ? e->response : "time_s",
               e->title ? e->title : "");
    }
}

int cmd_list(int argc, char **argv)
{
    cli_args args;
    if (!cli_parse(argc, argv, NULL, 1, usage, &args))
        return 2;
    if (args.help) {
        fputs(usage, stdout);
        return 0;
    }
    diag_list diags;
    diag_init(&diags);
    archive a = {0};
    bool loaded = archive_load(args.archive, &a, &diags);
    diag_free(&diags); /* list shows names; check shows problems */
    int status = 0;
    if (!loaded) {
        fprintf(stderr, "perfcast: cannot read the archive %s (perfcast check --archive %s says "
                        "why)\n", args.archive, args.archive);
        status = 1;
    } else if (args.npositional == 0) {
        list_archive(&a);
    } else {
        const campaign *c = archive_campaign(&a, args.positional[0]);
        if (c) {
            list_campaign(c);
        } else {
            size_t n;
            const char **names = namelist_campaigns(&a, &n);
            cli_print_unknown("usable campaign", args.positional[0], names, n, args.archive);
            free(names);
            status = 1;
        }
    }
    archive_free(&a);
    return status;
}
