/*
 * main.c — the perfcast command line: dispatches to one subcommand.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "gen/base/suggest.h"
#include "gen/cli/cli.h"
#include "gen/cli/commands.h"

/* The release; `perfcast --version` prints it. */
#define PERFCAST_VERSION "1.0.0"

static const char usage[] =
    "usage: perfcast COMMAND [OPTIONS]   (perfcast COMMAND --help for its options)\n"
    "\n"
    "Predicts how long a parallel job takes on many processors, and what it costs,\n"
    "from benchmark runs on a few, with the models of Romanazzi & Jimack (strip,\n"
    "block, multi-cluster), Delgado et al. (multicore) and ScoPred.\n"
    "\n"
    "commands:\n"
    "  list      the campaigns, experiments and clusters of the archive\n"
    "  check     lint the archive; every problem as FILE:LINE:COL: message\n"
    "  build     publish the static site (Markdown, HTML, charts, CSV)\n"
    "  report    the printable PDF report: advice, cost tables, charts\n"
    "  fit       fit one experiment and show its coefficients and goodness of fit\n"
    "  predict   predict one experiment's targets with intervals and errors\n"
    "  advise    fastest and cheapest options for a problem on the free resources\n"
    "  plan      the small runs a model needs, as a table, mpirun lines or Slurm\n"
    "  compare   every model on the same training and held-out runs: error, coverage\n"
    "  import    turn Extra-P, ReFrame, sacct, JUBE or CSV results into a campaign\n"
    "\n"
    "\n"
    "  --version   print the version\n"
    "  --help      this text (man perfcast: the manual)\n"
    "Exit status: 0 ok, 1 input problems, 2 usage.\n";

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"check", cmd_check}, {"build", cmd_build}, {"fit", cmd_fit},
    {"predict", cmd_predict}, {"advise", cmd_advise}, {"plan", cmd_plan},
    {"compare", cmd_compare}, {"import", cmd_import}, {"list", cmd_list},
    {"report", cmd_report},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

/* Output that could not be written (a full disk, a closed pipe) is a
 * runtime problem: exit 1, never 0. */
static int finish(int status)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return status;
    fprintf(stderr, "perfcast: cannot write the output: %s\n", strerror(errno));
    return status ? status : 1;
}

int main(int argc, char **argv)
{
    /* GSL's default handler aborts the process. Every call the models make
     * is guarded and checks the returned status, so a GSL failure must come
     * back as a status and become a message, never a crash. */
    gsl_set_error_handler_off();
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        puts("perfcast " PERFCAST_VERSION);
        return 0;
    }
    const char *names[NCOMMANDS];
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (strcmp(argv[1], commands[i].name) == 0)
            return finish(commands[i].run(argc - 1, argv + 1));
        names[i] = commands[i].name;
    }
    char near[64];
    fprintf(stderr, "perfcast: unknown command '%s'%s; see perfcast --help\n", argv[1],
            suggest_aside(argv[1], names, NCOMMANDS, near, sizeof near));
    return 2;
}
