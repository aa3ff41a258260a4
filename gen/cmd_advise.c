/*
 * cmd_advise.c — `perfcast advise` (not yet available: says so, exit 2).
 */
#include "gen/commands.h"

#include <stdio.h>

int cmd_advise(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "perfcast advise: not yet available\n");
    return 2;
}
