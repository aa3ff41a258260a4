/*
 * cmd_plan.c — `perfcast plan` (not yet available: says so, exit 2).
 */
#include "gen/commands.h"

#include <stdio.h>

int cmd_plan(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "perfcast plan: not yet available\n");
    return 2;
}
