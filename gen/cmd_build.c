/*
 * cmd_build.c — `perfcast build`: not yet available. --help shows the interface
 * it will have; running it says so and exits 2 rather than printing
 * anything that could be mistaken for a result.
 */
#include "gen/commands.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: perfcast build [--archive DIR] [--out DIR]\n"
    "\n"
    "Publishes the static site: Markdown and HTML pages, charts (SVG, PNG) and CSV.\n"
    "\n"
    "  --archive DIR   the archive folder (default: archive)\n"
    "  --out DIR       where the site goes (default: site)\n"
    "  --help          this text\n";

int cmd_build(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        }
    fprintf(stderr, "perfcast build: not yet available\n");
    return 2;
}
