/*
 * cli.h — the options every data subcommand shares:
 *   --archive DIR (default "archive"), --format F (checked against a list),
 *   --help / -h, and positional arguments;
 * and, for commands with many options and no positional arguments
 * (advise, plan), a table-driven parser of --name VALUE options and flags.
 */
#ifndef PERFCAST_CLI_H
#define PERFCAST_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include "gen/ingest/archive.h"

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

/* Print a usage error as one line, "perfcast: WHAT ARG; see perfcast CMD
 * --help" (arg may be NULL), and return 2, the usage exit status. */
int cli_usage_error(const char *cmd, const char *what, const char *arg);

/* "perfcast: no WHAT 'TYPED' in WHERE; did you mean 'NAME'?" on stderr
 * (where may be NULL; the suggestion only when suggest_name finds one,
 * gen/base/suggest.h). */
void cli_print_unknown(const char *what, const char *typed, const char *const *names, size_t n,
                       const char *where);

/* The campaign of a named name, or NULL after saying on stderr that a
 * has no usable one of that name, with the nearest (cli_print_unknown;
 * archive_dir names the archive). The result is borrowed from a. */
const campaign *cli_find_campaign(const archive *a, const char *name, const char *archive_dir);

/* The experiment of c named name, or NULL after saying so on stderr with
 * the nearest. The result is borrowed from c. */
const experiment_info *cli_find_experiment(const campaign *c, const char *name);

/* One option of cli_parse_options: --name VALUE stores VALUE in *value;
 * a flag --name (value NULL) sets *flag. */
typedef struct {
    const char *name;    /* without the leading "--"; NULL ends the table */
    const char **value;
    bool *flag;
} cli_option;

/* Parse argv[1..argc-1]: --help or -h sets *help, the rest must be options
 * of the table, each with a value at most once (a second --free silently
 * replaced the first; a flag may repeat). Returns NULL, or the argument at
 * fault (borrowed from argv) with
 * *why the words to put before it: "unknown option", "unexpected
 * argument", "missing value after" or "option given twice:". Options not
 * given keep their values. */
const char *cli_parse_options(int argc, char **argv, const cli_option *options, bool *help,
                              const char **why);

/* The whole number >= 0 in the environment variable name
 * (SOURCE_DATE_EPOCH), or fallback when it is unset or empty; when it is
 * not such a number, fallback and a warning "perfcast CMD: ignoring ..." on
 * stderr. */
long long cli_env_number(const char *cmd, const char *name, long long fallback);

/* Warn on stderr ("perfcast CMD: warning: ...") when the charts' font is
 * not installed (render/plot.h, plot_font_installed): what was drawn is
 * laid out with another font, or has no text at all. */
void cli_warn_missing_font(const char *cmd);

/* Warn on stderr when the shipped error prior is not found
 * (gen/fit/error_prior.h, error_prior_missing): the calibrated intervals
 * then differ from those of an installed perfcast. */
void cli_warn_missing_prior(const char *cmd);

#endif
