/*
 * cli.c — see cli.h.
 */
#include "gen/cli/cli.h"

#include "gen/base/suggest.h"
#include "gen/fit/error_prior.h"
#include "gen/ingest/namelist.h"
#include "render/plot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
    bool archive_given = false, format_given = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            out->help = true;
        } else if (strcmp(a, "--archive") == 0 || (formats && strcmp(a, "--format") == 0)) {
            bool *given = a[2] == 'a' ? &archive_given : &format_given;
            if (*given) /* the last one silently won */
                return usage_error(cmd, usage, "option given twice:", a);
            *given = true;
            if (i + 1 >= argc)
                return usage_error(cmd, usage, "missing value after", a);
            if (strcmp(a, "--archive") == 0)
                out->archive = argv[++i];
            else if (!format_known(formats, argv[++i]))
                return usage_error(cmd, usage, "unknown format", argv[i]);
            else
                out->format = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            static const char *const known[] = {"--archive", "--format", "--help"};
            const char *near = suggest_name(a, known, formats ? 3 : 2);
            (void)usage;
            fprintf(stderr, "perfcast: unknown option %s%s%s%s; see perfcast %s --help\n", a,
                    near ? " (did you mean " : "", near ? near : "", near ? "?)" : "", cmd);
            return false;
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
                              const char **why)
{
    bool seen[64] = {false}; /* per option of the table (commands have ~30) */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const cli_option *o = option_named(options, arg);
        size_t k = o ? (size_t)(o - options) : 0;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            *help = true;
            continue;
        }
        *why = !o ? (arg[0] == '-' ? "unknown option" : "unexpected argument")
               : o->value && k < 64 && seen[k] ? "option given twice:"
               : o->value && i + 1 >= argc ? "missing value after"
                                           : NULL;
        if (*why)
            return arg;
        if (k < 64)
            seen[k] = true;
        if (o->value)
            *o->value = argv[++i];
        else
            *o->flag = true;
    }
    return NULL;
}

void cli_print_unknown(const char *what, const char *typed, const char *const *names, size_t n,
                       const char *where)
{
    const char *near = suggest_name(typed, names, n);
    fprintf(stderr, "perfcast: no %s '%s'%s%s", what, typed, where ? " in " : "",
            where ? where : "");
    /* The nearest name is the typed one: it exists but was left out (a
     * campaign without README.md, say), which the problems printed above
     * explain; suggesting the same name back would only puzzle. */
    if (near && strcmp(near, typed) == 0)
        fprintf(stderr, "; '%s' is there but was left out: see the problems above", typed);
    else if (near)
        fprintf(stderr, "; did you mean '%s'?", near);
    fputc('\n', stderr);
}

const campaign *cli_find_campaign(const archive *a, const char *name, const char *archive_dir)
{
    const campaign *c = archive_campaign(a, name);
    if (!c) {
        size_t n;
        const char **names = namelist_campaigns(a, &n);
        cli_print_unknown("usable campaign", name, names, n, archive_dir);
        free(names);
    }
    return c;
}

const experiment_info *cli_find_experiment(const campaign *c, const char *name)
{
    const experiment_info *e = campaign_experiment(c, name);
    if (!e) {
        size_t n;
        const char **names = namelist_experiments(c, &n);
        cli_print_unknown("experiment", name, names, n, c->name);
        free(names);
    }
    return e;
}

long long cli_env_number(const char *cmd, const char *name, long long fallback)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return fallback;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < 0) {
        fprintf(stderr, "perfcast %s: ignoring %s=%s (not a whole number)\n", cmd, name, s);
        return fallback;
    }
    return v;
}

void cli_warn_missing_font(const char *cmd)
{
    char found[256];
    if (plot_font_installed(found, sizeof found))
        return;
    if (found[0])
        fprintf(stderr, "perfcast %s: warning: the charts' font DejaVu Sans is not installed "
                "(fontconfig gives %s): their text is laid out with that font, and the charts "
                "and PDFs differ from other machines' (Debian: apt-get install "
                "fonts-dejavu-core)\n", cmd, found);
    else
        fprintf(stderr, "perfcast %s: warning: the charts' font DejaVu Sans is not installed "
                "(fontconfig finds no font at all): the charts and PDFs have no text (Debian: "
                "apt-get install fonts-dejavu-core)\n", cmd);
}

void cli_warn_missing_prior(const char *cmd)
{
    if (error_prior_missing())
        fprintf(stderr, "perfcast %s: warning: the shipped error prior (" ERROR_PRIOR_FILE ") "
                "is not next to this executable nor in /usr/local/share/perfcast or "
                "/usr/share/perfcast: calibrated intervals are made without it and differ from "
                "an installed perfcast's (install with make install, or name the file in "
                ERROR_PRIOR_ENV "; " ERROR_PRIOR_ENV "=none to do without it)\n", cmd);
}
