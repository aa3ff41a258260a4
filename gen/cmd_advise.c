/*
 * cmd_advise.c — `perfcast advise`: not yet available. --help shows the interface
 * it will have; running it says so and exits 2 rather than printing
 * anything that could be mistaken for a result.
 */
#include "gen/commands.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: perfcast advise [--archive DIR] --size NAxNB --free CLUSTER:CORES[,...]\n"
    "                      [--deadline SECONDS] [--budget UNITS] [--maximize-size]\n"
    "                      [--format text|csv|json]\n"
    "\n"
    "Ranks every option (each cluster alone, each split) by time and by cost.\n"
    "\n"
    "  --archive DIR   the archive folder (default: archive)\n"
    "  --help          this text\n";

int cmd_advise(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        }
    fprintf(stderr, "perfcast advise: not yet available\n");
    return 2;
}
