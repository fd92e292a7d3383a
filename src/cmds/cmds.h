/*
** Subcommands: one file each in src/cmds/, all with the same signature.
** A command parses its own options, prints its own errors and returns a
** documented exit code (enum gp_exit).
*/
#ifndef GP_CMDS_H
#define GP_CMDS_H

#include <stdio.h>

#include "util/error.h"
#include "model/trace.h"

typedef int (*gp_cmd_fn)(int argc, char **argv);

struct gp_command {
	const char *name;
	gp_cmd_fn fn;
	const char *summary;
	int hidden;             /* not listed in `gpuprof --help` */
};

extern const struct gp_command gp_commands[];   /* terminated by name == NULL */

int cmd_info(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_advise(int argc, char **argv);
int cmd_ranges(int argc, char **argv);

/* Shared by the commands (common.c). */

/* The exit-code paragraph every --help ends with. */
extern const char gp_exit_help[];

/* Loads path (reader chosen by content), then runs correlation.  Shows a
** progress line on stderr when it takes over a second and stderr is a
** terminal.  On failure prints the error and returns the exit code;
** returns 0 on success. */
int gp_cli_load(const char *path, gp_trace *t);

/* Prints "gpuprof CMD: msg" for a usage error and returns GP_EXIT_USAGE. */
int gp_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses --gpu NAME (or "list": prints the table, returns -1), --peak-flops
** and --peak-bw (opt without dashes) into po.  Returns 0, -1 (done: exit 0)
** or a usage exit code after printing the error (peakopt.c, ops branch). */
struct gp_peak_opts;
int gp_peak_option(const char *cmd, const char *opt, const char *arg, struct gp_peak_opts *po);

/* Formats ns as a human duration ("1.234 ms") into buf. */
const char *gp_fmt_duration(double ns, char *buf, size_t size);

#endif
