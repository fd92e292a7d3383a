/*
** Subcommands: one file each in src/cmds/, all with the same signature.
** A command parses its options through gp_cli_parse (options.h), prints
** its own errors and returns a documented exit code (enum gp_exit).
**
** Ownership: the command table is static; a command owns the trace it
** loads and frees it before returning.
*/
#ifndef GP_CMDS_H
#define GP_CMDS_H

#include <stdio.h>

#include "util/error.h"
#include "model/trace.h"
#include "model/window.h"

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
int cmd_memory(int argc, char **argv);
int cmd_breakdown(int argc, char **argv);
int cmd_ops(int argc, char **argv);
int cmd_export(int argc, char **argv);

/* Shared by the commands (common.c). */

/* The exit-code paragraph every --help ends with. */
extern const char gp_exit_help[];

/* Loads path (reader chosen by content; what lies far outside window w is
** not kept), runs correlation, then cuts the trace to exactly w
** (analysis/window.h); span, when not NULL, receives w's span (first and
** last ns).  Shows a progress line on stderr when it takes over a second
** and stderr is a terminal.  On failure (a window with no iteration too)
** prints the error and returns the exit code; returns 0 on success. */
int gp_cli_load(const char *path, const struct gp_window *w, gp_trace *t, gp_ns span[2]);

/* Prints "gpuprof CMD: msg" for a usage error and returns GP_EXIT_USAGE. */
int gp_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
