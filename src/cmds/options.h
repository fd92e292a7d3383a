/*
** The options every command shares (-f, -w, -c, --no-header, --gpu,
** --peak-flops, --peak-bw, -n, -h, --csv (PyProf's spelling of -f csv),
** --depth, --base, --full-names, the window: --iter, --iters, --start,
** --end, the filters --name, --layer, --range, and --ops-file with the configuration's ops files, docs/op-model.md
** "Your own ops"): one table in options.c gives each its
** long and short name, argument, help text and parser, and a command says
** by a mask which of them it takes, so they are spelt, limited and
** documented the same way everywhere.  A command's own options ride along
** in its gp_cmd_spec.
**
** Ownership: specs are static tables of the commands; gp_cli_opts holds
** pointers into argv and into the specs, valid while they are.
*/
#ifndef GP_CMDS_OPTIONS_H
#define GP_CMDS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/window.h"
#include "ops/ops.h"
#include "writers/writer.h"

enum gp_shared_opt {
	GP_OPT_COLUMNS = 1u << 0,
	GP_OPT_FORMAT = 1u << 1,
	GP_OPT_WIDTH = 1u << 2,
	GP_OPT_NO_HEADER = 1u << 3,
	GP_OPT_TOP = 1u << 4,
	GP_OPT_GPU = 1u << 5,
	GP_OPT_PEAK_FLOPS = 1u << 6,
	GP_OPT_PEAK_BW = 1u << 7,
	GP_OPT_CSV = 1u << 8,           /* --csv = -f csv (PyProf's prof.py flag) */
	GP_OPT_JOBS = 1u << 9,          /* -j N: files read at once (commands of many files) */
	GP_OPT_WINDOW = 1u << 10,       /* --iter, --iters, --start, --end; --capture
					** (what of the input is read: every command
					** reading traces takes them) */
	GP_OPT_OPS_FILE = 1u << 11,     /* --ops-file: the user's kernel families and op formulas */
	GP_OPT_DEPTH = 1u << 12,        /* --depth N: layer paths cut to N components */
	GP_OPT_NAMES = 1u << 13,        /* --base, --full-names: how kernel names show */
	GP_OPT_FILTER = 1u << 14,       /* --name, --layer, --range: which kernels
					** (gp_window.filter; docs/window.md) */
};

/* How a command shows kernel names (--base, --full-names). */
enum gp_names { GP_NAMES_DEFAULT, GP_NAMES_BASE, GP_NAMES_FULL };

/* Whether kernels are shown by their labels (gp_kernel_label_of:
** "elementwise_kernel<MulFunctor>") rather than their full names: --base,
** else the table by default; --full-names, else csv/tsv/json (nsys' full
** names, for tools) by default. */
#define gp_cli_short_names(o) \
	((o)->names == GP_NAMES_BASE || ((o)->names == GP_NAMES_DEFAULT && strcmp((o)->format, "table") == 0))

/* The op model's options: every command that runs it takes them all. */
#define GP_OPT_PEAKS (GP_OPT_GPU | GP_OPT_PEAK_FLOPS | GP_OPT_PEAK_BW | GP_OPT_OPS_FILE)

/* An option of one command only. */
struct gp_cmd_opt {
	const char *name;       /* long name, without "--" */
	int short_name;         /* letter, or 0 */
	const char *arg;        /* argument's name in --help, NULL = takes none */
	const char *help;       /* '\n' continues the text on the next line */
};

struct gp_cmd_spec {
	const char *name;               /* "report" */
	const char *about;              /* --help's paragraph after the usage line */
	unsigned shared;                /* enum gp_shared_opt bits (-h always) */
	const char *const *formats;     /* -f names before the row writers'
					** (the first is the default), or NULL */
	bool row_formats;               /* the row writers (gp_writers) too */
	const char *format_note;        /* more -f help, or NULL */
	const struct gp_cmd_opt *own;   /* ends with name == NULL; NULL = none */
	const char *more;               /* --help text after the options, or NULL */
	bool many_files;                /* takes several FILEs, directories, globs */
	const char *many_help;          /* its paragraph on several FILEs, NULL =
					** gp_many_files_help (rows with a rank column) */
	const char *two_files;          /* usage words of two FILE arguments
					** ("BASE TEST"); NULL = exactly one FILE */
	const char *usage;              /* --help's arguments after [OPTIONS], NULL = "FILE" */
	const char *exit_help;          /* the exit-code paragraph, NULL = gp_exit_help */
	const char *top_help;           /* -n's help when its default is not "all" */
};

/* Most --capture options one command line may give. */
#define GP_MAX_CAPTURE_ARGS 64

/* What the shared options and the FILE arguments say. */
struct gp_cli_opts {
	const char *file;               /* the first FILE argument */
	const char *file2;              /* the second FILE of a two_files command */
	char **files;                   /* every FILE argument (into argv) */
	int nfiles;                     /* 1 unless spec->many_files */
	int jobs;                       /* -j; 0 = one per CPU */
	const char *format;             /* a valid format of the command */
	const char *columns;            /* -c, NULL when not given */
	struct gp_writer_opts wo;       /* -w, --no-header */
	struct gp_peak_opts peaks;      /* --gpu, --peak-flops, --peak-bw; the ops files: the
					** configuration's, then each --ops-file */
	char ops_config[4096];          /* the configuration's ops path (peaks.ops_paths[0]) */
	size_t top;                     /* -n, SIZE_MAX when not given */
	struct gp_window window;        /* --iter(s), --start, --end, the filter */
	int depth;                      /* --depth; 0 when not given */
	int names;                      /* enum gp_names: the last of --base, --full-names */
	const char *capture[GP_MAX_CAPTURE_ARGS];  /* --capture FILE|DIR (into argv) */
	int ncapture;
	bool no_capture;                /* --capture none */
};

/* Called for each of the command's own options: index into spec->own and
** the argument (NULL when it takes none).  Returns 0, or an exit code
** after printing the error (gp_cli_usage). */
typedef int (*gp_own_opt_fn)(void *ctx, int index, const char *arg);

/* gp_cli_parse's answer when it has done the command's work (--help,
** --gpu list): the command returns GP_EXIT_OK. */
#define GP_CLI_DONE (-1)

/* Parses argv (argv[0] is the command's name) by spec into o: the shared
** options, the command's own through own(ctx, ...), and exactly one FILE
** (at least one when spec->many_files, two with spec->two_files).
** Checks -f against the command's formats before any input is read.
** Returns 0, GP_CLI_DONE, or an exit code after printing the error. */
int gp_cli_parse(const struct gp_cmd_spec *spec, int argc, char **argv, struct gp_cli_opts *o,
		 gp_own_opt_fn own, void *ctx);

/* Writes the command's --help (usage, about, options, more, exit codes). */
void gp_cli_help(const struct gp_cmd_spec *spec, FILE *out);

#endif
