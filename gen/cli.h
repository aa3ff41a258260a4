/*
 * cli.h — the options every data subcommand shares:
 *   --archive DIR (default "archive"), --format F (checked against a list),
 *   --help / -h, and positional arguments.
 */
#ifndef PERFCAST_CLI_H
#define PERFCAST_CLI_H

#include <stdbool.h>

typedef struct {
    const char *archive;
    const char *format;
    const char *positional[4];
    int npositional;
    bool help;
} cli_args;

/* Parse argv (argv[0] is the subcommand). formats is a NULL-terminated list
 * whose first entry is the default; NULL when the command has no --format.
 * On a usage error prints it with the usage text and returns false. */
bool cli_parse(int argc, char **argv, const char *const *formats, int max_positional,
               const char *usage, cli_args *out);

#endif
