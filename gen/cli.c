/*
 * cli.c — see cli.h.
 */
#include "gen/cli.h"

#include <stdio.h>
#include <string.h>

static bool format_known(const char *const *formats, const char *f)
{
    for (; *formats; formats++)
        if (strcmp(*formats, f) == 0)
            return true;
    return false;
}

int cli_usage_error(const char *cmd, const char *what, const char *arg)
{
    fprintf(stderr, "perfcast: %s%s%s; see perfcast %s --help\n", what, arg ? " " : "",
            arg ? arg : "", cmd);
    return 2;
}

static bool usage_error(const char *cmd, const char *usage, const char *what, const char *arg)
{
    (void)usage; /* one line, not the whole help: the help is one --help away */
    cli_usage_error(cmd, what, arg);
    return false;
}

bool cli_parse(int argc, char **argv, const char *const *formats, int max_positional,
               const char *usage, cli_args *out)
{
    memset(out, 0, sizeof *out);
    out->archive = "archive";
    out->format = formats ? formats[0] : NULL;
    const char *cmd = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            out->help = true;
        } else if (strcmp(a, "--archive") == 0 || (formats && strcmp(a, "--format") == 0)) {
            if (i + 1 >= argc)
                return usage_error(cmd, usage, "missing value after", a);
            if (strcmp(a, "--archive") == 0)
                out->archive = argv[++i];
            else if (!format_known(formats, argv[++i]))
                return usage_error(cmd, usage, "unknown format", argv[i]);
            else
                out->format = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error(cmd, usage, "unknown option", a);
        } else if (out->npositional >= max_positional) {
            return usage_error(cmd, usage, "unexpected argument", a);
        } else {
            out->positional[out->npositional++] = a;
        }
    }
    return true;
}

static const cli_option *option_named(const cli_option *options, const char *arg)
{
    if (strncmp(arg, "--", 2) != 0)
        return NULL;
    for (; options->name; options++)
        if (strcmp(arg + 2, options->name) == 0)
            return options;
    return NULL;
}

const char *cli_parse_options(int argc, char **argv, const cli_option *options, bool *help,
                              bool *missing_value)
{
    *missing_value = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const cli_option *o = option_named(options, arg);
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            *help = true;
        } else if (!o) {
            return arg;
        } else if (!o->value) {
            *o->flag = true;
        } else if (i + 1 < argc) {
            *o->value = argv[++i];
        } else {
            *missing_value = true;
            return arg;
        }
    }
    return NULL;
}
