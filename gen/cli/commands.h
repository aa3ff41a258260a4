/*
 * commands.h — the perfcast subcommands. Each takes the arguments after
 * its own name (argv[0] is the subcommand) and returns the process exit
 * status: 0 ok, 1 input problems, 2 usage (or "not yet available").
 */
#ifndef PERFCAST_COMMANDS_H
#define PERFCAST_COMMANDS_H

int cmd_check(int argc, char **argv);   /* gen/cli/cmd_check.c */
int cmd_build(int argc, char **argv);   /* gen/cli/cmd_build.c */
int cmd_fit(int argc, char **argv);     /* gen/cli/cmd_fit.c */
int cmd_predict(int argc, char **argv); /* gen/cli/cmd_fit.c */
int cmd_advise(int argc, char **argv);  /* gen/cli/cmd_advise.c */
int cmd_plan(int argc, char **argv);    /* gen/cli/cmd_plan.c */
int cmd_compare(int argc, char **argv); /* gen/cli/cmd_compare.c */
int cmd_import(int argc, char **argv);  /* gen/cli/cmd_import.c */
int cmd_list(int argc, char **argv);    /* gen/cli/cmd_list.c */
int cmd_report(int argc, char **argv);  /* gen/cli/cmd_report.c */

#endif
