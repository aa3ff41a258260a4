/*
 * cmd_build.c — `perfcast build` (not yet available: says so, exit 2).
 */
#include "gen/commands.h"

#include <stdio.h>

int cmd_build(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "perfcast build: not yet available\n");
    return 2;
}
