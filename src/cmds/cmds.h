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

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "util/alloc.h"
#include "util/error.h"
#include "analysis/ranks.h"
#include "model/trace.h"
#include "model/window.h"
#include "ops/ops.h"
#include "readers/reader.h"
#include "util/rows.h"
#include "writers/writer.h"

typedef int (*gp_cmd_fn)(int argc, char **argv);

struct gp_cli_opts;

struct gp_command {
	const char *name;
	gp_cmd_fn fn;
	const char *call;       /* how it is usually called: "advise FILE" */
	const char *question;   /* what it answers; '\n' continues the text */
	int start;              /* listed under "Start here" */
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
int cmd_ranks(int argc, char **argv);
int cmd_comm(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_record(int argc, char **argv);

/* Shared by the commands (common.c). */

/* The exit-code paragraph every --help ends with. */
extern const char gp_exit_help[];
/* The paragraph of commands that take several FILEs (before the codes). */
extern const char gp_many_files_help[];

/* Loads path (reader chosen by content; what lies far outside window
** o->window is not kept) with the capture traces o names (--capture),
** runs correlation, then cuts the trace to exactly the window
** (analysis/window.h); span, when not NULL, receives the window's span
** (first and last ns).  Shows a progress line on stderr when it takes over
** a second and stderr is a terminal.  On failure (a window with no
** iteration too) prints the error and returns the exit code; returns 0 on
** success. */
int gp_cli_load(const char *path, const struct gp_cli_opts *o, gp_trace *t, gp_ns span[2]);

/* The load options the environment (GPUPROF_THREADS,
** GPUPROF_PARALLEL_MIN_BYTES, GPUPROF_GZIP_KEEP; docs/kineto.md) and the
** command line co (its window and capture traces) set, no progress. */
void gp_cli_load_opts(struct gp_load_opts *o, const struct gp_cli_opts *co);

/* Loads and correlates path and cuts it to the window o->window as
** gp_cli_load does, but prints nothing: returns GP_OK or the gp_status with
** err set.  Safe on any thread. */
int gp_cli_load_quiet(const char *path, gp_trace *t, const struct gp_load_opts *o, const struct gp_peak_opts *po,
		      gp_error *err);

/* The input files the FILE arguments name, in order: a file as given (a
** missing one too: its load says so), a directory's trace files by name, a
** pattern that names no file expanded by glob(3) (sorted); a directory's
** or pattern's files that are not traces (gp_trace_foreign: a README, a
** config.json) are skipped with a note on stderr.  Returns 0, or prints the
** error and returns an exit code: GP_EXIT_IO when a directory cannot be
** listed or a pattern matches nothing, GP_EXIT_FORMAT when a directory or
** pattern holds no trace. */
struct gp_cli_inputs {
	GP_VEC(char *) paths;
	bool expanded;          /* a directory or pattern was among the arguments */
};
int gp_cli_inputs(const char *cmd, char *const *args, int nargs, struct gp_cli_inputs *in);
void gp_cli_inputs_free(struct gp_cli_inputs *in);

/* Many files (multi.c).  A command's work on one loaded, correlated trace:
** writes its rows to w, which is the real output for a single file and
** kept rows (util/rows.h) for many.  Runs on worker threads: it may read ctx
** and change only t; it prints nothing but whole note lines on stderr
** (one fprintf each, naming t's file).  rec, when the command asks for
** it (want_record) and there are several files, takes the rank's record
** (gp_rank_record_put of the analysis' GP_NEED_RECORD); else NULL.  Returns GP_OK, or a gp_status
** with err set. */
typedef int (*gp_cli_trace_fn)(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec,
			       gp_error *err);

/* One file's outcome, kept until every file is read. */
struct gp_cli_result {
	const char *path;
	struct gp_rank_id id;
	int status;             /* gp_status: GP_OK or why it failed */
	char *error;            /* the message when status != GP_OK */
	struct gp_rowbuf rows;
	struct gp_rowbuf record;  /* want_record: the rank's gp_rank_record */
};

/* A command's cross-file output: gets the results in rank order (all
** succeeded) and writes to out (opened over gp_cli_many.out_cols).
** Returns GP_OK or a gp_status with err set. */
typedef int (*gp_cli_reduce_fn)(const void *ctx, const struct gp_cli_result *const *res, size_t n,
				gp_writer *out, gp_error *err);

struct gp_cli_many {
	const char *cmd;
	const struct gp_column *cols;   /* what fn writes */
	int ncols;
	gp_cli_trace_fn fn;
	const void *ctx;
	/* NULL: the output is fn's rows with a leading rank column when there
	** is more than one file, fn's rows alone for one.  Else reduce writes
	** the output over out_cols (NULL: reduce gets out NULL and writes
	** stdout itself) for any number of files... */
	gp_cli_reduce_fn reduce;
	const struct gp_column *out_cols;
	int out_ncols;
	/* ...but one file alone, when single is set: single(ctx, path) does
	** it and returns the exit code (info's own format). */
	int (*single)(const void *ctx, const char *path);
	bool want_record;               /* fn gets rec (several files) */
	/* One file without kernels: gp_cli_no_kernels's line instead of fn's
	** rows (a table of kernels' times would be empty or all zeros). */
	bool needs_kernels;
	/* Read every file in this process, even in an MPI build: for a
	** command that calls gp_cli_run more than once (diff: once per run),
	** as MPI starts and stops once per process. */
	bool local;
};

/* Runs m over the files co names (gp_cli_inputs), co->jobs at a time,
** each loaded, analysed, reduced to kept rows and freed before the worker
** takes the next; in an MPI build under mpirun, the files are spread over
** the processes and process 0 writes.  On a terminal, one progress line
** over all the files.  The output does not depend on
** scheduling.  Prints errors (every failed file, by name) and returns the
** exit code. */
int gp_cli_run(const struct gp_cli_many *m, const struct gp_cli_opts *co);

/* gp_ranks_order (analysis/ranks.h) for command cmd: completes ids[0..n)
** and fills order, printing its notes on stderr when there are several
** files.  Traces that cannot be one job (gp_ranks_one_job) are refused
** when refuse (a directory or pattern named them: the error printed, its
** exit code returned), else noted (files named one by one are compared
** as given); GP_EXIT_OK otherwise. */
int gp_cli_ranks_order(const char *cmd, struct gp_rank_id *ids, const char *const *paths, size_t n,
		       size_t *order, bool refuse);

/* The job of results res[0..n) (rank order, all succeeded): each one's
** rank record (gp_rank_record_put's rows: its record, or its rows when
** rows is set) read back with its path and rank, and the records compared
** into j (gp_rank_job_compare: by steps, and by arrival, which names the
** straggler; gp_rank_job_free it).  GP_OK, or GP_ERR_FORMAT with err set
** when a record is damaged (j is then empty). */
int gp_cli_rank_job(const struct gp_cli_result *const *res, size_t n, bool rows, struct gp_rank_job *j,
		    gp_error *err);

struct gp_coll_rank;
struct gp_gpu;

/* The collectives of the files in (one rank each) for a cross-rank
** match (analysis/collectives.h): each file loaded as w says (window,
** capture traces) and cut to its window, its collectives kept as a small
** record and the trace freed before the next (memory is one trace at a
** time); then the records put in rank order (gp_cli_ranks_order, its notes
** printed as command cmd): ranks[i] is the file in->paths.v[order[i]], its
** rank set, ranks[0] the clock reference.  Each record gets the link of
** gpu, or of the GPU its trace names.  ranks and order have in->paths.n
** entries; the caller frees the records (gp_coll_rank_free) whatever the
** outcome.  Returns 0, or the exit code after printing the error (naming
** the file). */
int gp_cli_coll_load(const char *cmd, const struct gp_cli_inputs *in, const struct gp_cli_opts *w,
		     const struct gp_gpu *gpu, struct gp_coll_rank *ranks, size_t *order);


#ifdef GP_MPI
/* The MPI build (mpi.c, make MPI=1).  gp_mpi_begin starts MPI and says
** this process's rank and the number of processes; gp_mpi_gather brings
** the results of files i with i % size == rank to process 0 (an error
** record for a file that failed, so every process reaches the collective);
** gp_mpi_end shares process 0's exit code, stops MPI and returns that
** code.  gp_mpi_gather returns GP_OK or, on process 0, GP_ERR_FORMAT when
** a record does not decode. */
void gp_mpi_begin(int *rank, int *size);
int gp_mpi_gather(struct gp_cli_result *res, size_t n, int rank, int size, gp_error *err);
int gp_mpi_end(int rc);
#endif
/* Opens path for writing (gzip-compressed when it ends in .gz), creating
** it, or replacing it with force; NULL after printing why as command
** cmd. */
FILE *gp_cli_open_output(const char *cmd, const char *path, bool force);

/* Says on stderr what command cmd wrote: "gpuprof CMD: wrote PATH (1.20
** MiB)", then ": " and more when more is not empty. */
void gp_cli_wrote(const char *cmd, const char *path, const char *more);

/* The charting library the HTML pages inline (html, diff -f html):
** Chart.js 3's single-file build, from --chart-js, else $GPUPROF_CHARTJS,
** else where Debian's libjs-chart.js installs it.  Reads path (NULL: that
** default) into a new buffer (*len bytes, then a 0); NULL after printing
** why as command cmd, with the package that provides it. */
char *gp_cli_read_chartjs(const char *cmd, const char *path, size_t *len);
/* The --chart-js option's help text. */
#define GP_CLI_CHARTJS_HELP "the Chart.js 3 build to inline (default: $GPUPROF_CHARTJS,\n" \
	"else /usr/share/javascript/chart.js/chart.min.js)"

/* Removes the output path a failed command left half written: only a
** regular file, never what -o may also name (/dev/full, a pipe). */
void gp_cli_remove_output(const char *path);

/* A progress line on stderr ("gpuprof: writing... 40%") for a long step:
** shown only when stderr is a terminal and the step has run for a second
** (GPUPROF_PROGRESS_AFTER=S: S seconds, 0 = at once), cleared at the end. */
struct gp_cli_progress {
	struct timespec t0;
	const char *what;       /* "reading", "writing" */
	double after;           /* seconds before the line shows */
	int shown;
	int tty;
};
void gp_cli_progress_start(struct gp_cli_progress *p, const char *what);
/* The callback a reader or sink calls now and then (ctx: the
** gp_cli_progress): done of total units, total 0 = unknown. */
void gp_cli_progress_show(void *ctx, uint64_t done, uint64_t total);
/* Clears the line if one was shown. */
void gp_cli_progress_end(struct gp_cli_progress *p);

struct gp_analysis_opts;
/* The analysis runner's options for command options co (options.h): the
** runner's defaults with co's --gpu and --peak-* peaks. */
void gp_cli_analysis_opts(const struct gp_cli_opts *co, struct gp_analysis_opts *ao);

/* A trace without kernels (an export of NVTX ranges alone, as TensorRT's
** are) has no GPU span, busy time or kernel table to speak of: when t holds
** no kernels, prints the one line "gpuprof CMD: PATH: this trace has no
** kernels" (naming `gpuprof ranges` when it has ranges) on stderr and
** returns true; a command about kernels then writes nothing more and
** exits 0, as gp_exit_help documents (ops, html and export, whose CPU
** side still holds, keep their table, page and timeline).  Returns false, printing nothing, otherwise, and
** under a window of co (an empty --start/--end window is a window with
** nothing in it, its table empty), and unless kernels_only when t holds
** copies or memsets (GPU work that a breakdown, summary or advise still
** speaks of: an nsys export of a program that only copied). */
struct gp_cli_opts;
bool gp_cli_no_kernels(const char *cmd, const char *path, const gp_trace *t, const struct gp_cli_opts *co,
		       bool kernels_only);

/* Prints "gpuprof CMD: msg" for a usage error and returns GP_EXIT_USAGE. */
int gp_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
