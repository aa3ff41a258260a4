/*
 * cmd_plan.c — `perfcast plan`: not yet available. --help shows the interface
 * it will have; running it says so and exits 2 rather than printing
 * anything that could be mistaken for a result.
 */
#include "gen/commands.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: perfcast plan [--archive DIR] --model strip|block --cluster NAME\n"
    "                    --target NAxNB [--grid NPAxNPB] [--format table|mpirun|slurm]\n"
    "\n"
    "Lists exactly the small runs a model needs to predict the target.\n"
    "\n"
    "  --archive DIR   the archive folder (default: archive)\n"
    "  --help          this text\n";

int cmd_plan(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        }
    fprintf(stderr, "perfcast plan: not yet available\n");
    return 2;
}
