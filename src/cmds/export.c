/*
** gpuprof export: the whole trace as a picture for other tools: -f
** perfetto, a Chrome trace-event JSON for ui.perfetto.dev (the perfetto
** sink), or -f folded, flame-graph stacks (the folded sinks); docs/export.md.
** The command parses the window and output options, loads, runs the
** analysis its sink formats and hands it over; the sink streams to the
** output (a file, gzip-compressed when its name ends in .gz, or stdout).
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/collectives.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "writers/sink.h"

static const char *const export_formats[] = {"perfetto", "folded", NULL};

enum { O_OUT, O_FORCE, O_WEIGHT, O_PER_RANK, O_ALIGN, O_CRITICAL };

static const struct gp_cmd_opt export_opts[] = {
	[O_OUT] = {"output", 'o', "FILE", "write to FILE (FILE.gz: gzip-compressed; - or none:\nstandard output)"},
	[O_FORCE] = {"force", 0, NULL, "overwrite an existing FILE"},
	[O_WEIGHT] = {"weight", 0, "W", "folded: time (GPU ns, default), flops (modelled\nFLOPs) or idle (GPU idle ns)"},
	[O_PER_RANK] = {"per-rank", 0, NULL, "folded: each stack starts with a frame 'rank-R'\n(default: the files' stacks summed)"},
	[O_ALIGN] = {"align-clocks", 0, NULL, "perfetto, several files: shift each rank's times by\nits clock offset to the first rank, estimated from\nthe collectives' ends as gpuprof comm does (reads\nevery file twice)"},
	[O_CRITICAL] = {"critical-path", 0, NULL, "perfetto: mark the critical path (docs/dependencies.md):\n\"critical\": true in the args of every record on it (as\nHTA does) and a \"critical path\" track in its process\nwith a slice per piece, named by its cause"},
	{NULL, 0, NULL, NULL},
};

static const struct gp_cmd_spec export_spec = {
	.name = "export",
	.about =
	"The trace as a picture for other tools.  -f perfetto: a Chrome\n"
	"trace-event JSON that ui.perfetto.dev and chrome://tracing open, from\n"
	"any input: a process per host process and per GPU, tracks per thread and\n"
	"stream, NVTX ranges and framework ops, every kernel's layer, op, shapes,\n"
	"FLOPs, bytes and efficiency in its args, flow arrows from launch calls\n"
	"to kernels and from forward to backward kernels, counters of GPU busy %,\n"
	"TFLOP/s and GB/s, and each GPU's idle gaps named by their cause (short\n"
	"gap, sync, pageable copy, host launch, other).  It is a Kineto trace too:\n"
	"gpuprof reads it back with the same kernels, ops and times.  -f folded:\n"
	"flame-graph stacks (layer;...;op;kernel weight) for flamegraph.pl,\n"
	"speedscope and inferno; the weights sum to the trace's total exactly.\n"
	"See docs/export.md.",
	.shared = GP_OPT_FORMAT | GP_OPT_PEAKS | GP_OPT_WINDOW,
	.formats = export_formats,
	.own = export_opts,
	.many_files = true,
	.many_help =
	"Several traces: give several FILEs, a directory (the trace files in it,\n"
	"by name) or a quoted glob ('run/rank*.json.gz').  Each file is one rank\n"
	"(from its metadata, else its name: rank-3, rank3, _3., else its\n"
	"position; docs/ranks.md), read, written and freed before the next.\n"
	"-f perfetto: one trace with each rank's processes and GPUs under their\n"
	"own pids, named 'rank R: ...' and sorted by rank, on each file's own\n"
	"clock (--align-clocks: shifted to the first rank's); flows stay within\n"
	"their file.  -f folded: the files' stacks summed (--per-rank: under a\n"
	"first frame 'rank-R').  The window options cut each file.  A file that\n"
	"fails stops the export (-o FILE removed).\n\n",
	.more =
	"Open the perfetto export: https://ui.perfetto.dev -> Open trace file (or\n"
	"drag it in); chrome://tracing -> Load.  Flame graph: flamegraph.pl\n"
	"out.folded > out.svg, or drop out.folded on https://www.speedscope.app.",
};

struct export_opts {
	const char *out;        /* NULL or "-": stdout */
	bool force;
	const char *weight;     /* "time", "flops", "idle" */
	bool per_rank;          /* folded: a first frame "rank-R" */
	bool align;             /* perfetto: --align-clocks */
	bool critical;          /* perfetto: --critical-path */
};

static int export_option(void *ctx, int index, const char *arg)
{
	struct export_opts *x = ctx;

	switch (index) {
	case O_OUT: x->out = arg; return 0;
	case O_FORCE: x->force = true; return 0;
	case O_PER_RANK: x->per_rank = true; return 0;
	case O_ALIGN: x->align = true; return 0;
	case O_CRITICAL: x->critical = true; return 0;
	case O_WEIGHT:
		if (strcmp(arg, "time") && strcmp(arg, "flops") && strcmp(arg, "idle"))
			return gp_cli_usage("export", "--weight is time, flops or idle, not '%s'", arg);
		x->weight = arg;
		return 0;
	}
	return GP_EXIT_USAGE;
}

/* --align-clocks: each file's clock offset to the first rank's
** (offsets[i] for in->paths.v[i]), estimated from the collectives' ends as
** gpuprof comm does (analysis/collectives.h), over a first read of every
** file read as o says (window, capture traces).  A rank that shares no collective with the first
** keeps its clock (offset 0), with a note.  Returns 0 or the exit code
** after printing the error. */
static int clock_offsets(const struct gp_cli_inputs *in, const struct gp_cli_opts *w, gp_ns *offsets)
{
	size_t n = in->paths.n;
	struct gp_coll_rank *ranks = gp_xcalloc(n, sizeof(*ranks));
	size_t *order = gp_xmalloc(n * sizeof(*order));
	struct gp_coll_match m;
	int rc = gp_cli_coll_load("export", in, w, NULL, ranks, order);

	if (rc == GP_EXIT_OK) {
		gp_coll_match(ranks, n, &m);
		for (size_t i = 0; i < n; i++) {
			offsets[order[i]] = m.ranks[i].aligned ? m.ranks[i].offset : 0;
			if (!m.ranks[i].aligned)
				fprintf(stderr, "gpuprof export: note: %s: no collective shared with rank %d: its "
					"clock is left as it is\n", in->paths.v[order[i]], ranks[0].rank);
		}
		gp_coll_match_free(&m);
	}
	for (size_t i = 0; i < n; i++)
		gp_coll_rank_free(&ranks[i]);
	free(ranks);
	free(order);
	return rc;
}

/* The number of idle gaps per GPU the perfetto sink names with the CPU's
** context (its idle slices). */
#define EXPORT_TOP_GAPS 20

/* Runs the analysis the output formats over t (cut to the window o names,
** of span) into a: the op model for the folded stacks; for perfetto also
** every idle gap with its cause and the CPU's context of the longest, each
** stream's queue depth and the device timeline in as many buckets as its
** counters, and the critical path with its pieces when x asks.  GP_OK or
** the runner's error (gp_analysis_free a either way). */
static int analyse(const struct export_opts *x, const struct gp_cli_opts *o, gp_trace *t, const gp_ns span[2],
		   struct gp_analysis *a, gp_error *err)
{
	bool folded = strcmp(o->format, "folded") == 0;
	struct gp_analysis_opts ao;

	gp_cli_analysis_opts(o, &ao);
	ao.top_gaps = EXPORT_TOP_GAPS;
	ao.depth_buckets = ao.timeline_buckets = GP_PERFETTO_BUCKETS;
	if (o->window.mode != GP_WINDOW_NONE) {
		ao.window_start = span[0];
		ao.window_end = span[1];
	}
	ao.critpath_pieces = x->critical;
	return gp_analysis_run(t, folded ? GP_NEED_OPS : GP_NEED_OPS | GP_NEED_GAP_CAUSES | GP_NEED_TOP_GAPS |
			       GP_NEED_DEPTH | GP_NEED_TIMELINE | (x->critical ? GP_NEED_CRITPATH : 0), &ao, a, err);
}

/* Loads, analyses and writes the input path (argument position pos) into
** the open sink: the whole output when it is the only one (many false),
** else its part, with its rank.  Opens the output (*out) at the first
** input that loads, so a failed load leaves no file; offset is added to
** the times written.  When alone, the sink is closed on return whatever
** happened.  Returns the exit code after printing any error; id receives
** the input's rank. */
static int export_one(const struct export_opts *x, const struct gp_cli_opts *o, gp_sink *sink, FILE **out,
		      const char *path, size_t pos, bool many, gp_ns offset, struct gp_rank_id *id)
{
	bool folded = strcmp(o->format, "folded") == 0;
	bool to_stdout = !x->out || strcmp(x->out, "-") == 0;
	struct gp_cli_progress *progress = sink->opts.progress_ctx;
	struct gp_analysis a;
	gp_error err = {0};
	gp_ns span[2];
	gp_trace t;
	int rc;

	gp_trace_init(&t);
	rc = gp_cli_load(path, o, &t, span);
	if (rc) {
		if (!many)
			gp_sink_discard(sink);
		gp_trace_free(&t);
		return rc;
	}
	*id = gp_rank_from_meta(&t);
	gp_rank_complete(id, path, pos);
	const struct gp_sink_input in = {.path = path, .an = &a, .rank = many && (!folded || x->per_rank) ? id : NULL,
					 .clock_offset = offset};
	if (!*out) {
		*out = to_stdout ? stdout : gp_cli_open_output("export", x->out, x->force);
		if (!*out) {
			if (!many)
				gp_sink_discard(sink);
			gp_trace_free(&t);
			return GP_EXIT_IO;
		}
		/* only this thread writes: no stream lock per character (as
		** main.c does for stdout) */
		__fsetlocking(*out, FSETLOCKING_BYCALLER);
	}
	sink->out = *out;
	rc = analyse(x, o, &t, span, &a, &err);
	gp_cli_progress_start(progress, "writing");
	if (!rc)
		rc = many ? gp_sink_write(sink, &in, &err) : gp_sink_write_close(sink, &in, &err);
	else if (!many)
		gp_sink_discard(sink);
	gp_cli_progress_end(progress);
	if (rc) {
		gp_err_print(&err);
		rc = gp_exit_code(err.status);
	}
	gp_analysis_free(&a);
	gp_trace_free(&t);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	struct export_opts x = {.weight = "time"};
	struct gp_cli_opts o;
	struct gp_cli_inputs in;
	struct gp_cli_progress progress;
	const struct gp_sink_opts so = {.top = SIZE_MAX, .progress = gp_cli_progress_show, .progress_ctx = &progress};
	gp_error err = {0};
	struct stat st;
	gp_sink sink;
	FILE *out = NULL;
	int rc;

	rc = gp_cli_parse(&export_spec, argc, argv, &o, export_option, &x);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	bool folded = strcmp(o.format, "folded") == 0;
	if (!folded && strcmp(x.weight, "time") != 0)
		return gp_cli_usage("export", "--weight is for -f folded");
	if (!folded && x.per_rank)
		return gp_cli_usage("export", "--per-rank is for -f folded (-f perfetto always shows the ranks)");
	if (folded && x.align)
		return gp_cli_usage("export", "--align-clocks is for -f perfetto");
	if (folded && x.critical)
		return gp_cli_usage("export", "--critical-path is for -f perfetto");
	bool to_stdout = !x.out || strcmp(x.out, "-") == 0;
	if (!to_stdout && !x.force && stat(x.out, &st) == 0) {
		fprintf(stderr, "gpuprof export: %s exists (--force overwrites it)\n", x.out);
		return GP_EXIT_IO;
	}
	const char *sink_name = !folded ? "perfetto" : strcmp(x.weight, "flops") == 0 ? "folded-flops"
			      : strcmp(x.weight, "idle") == 0 ? "folded-idle" : "folded";
	rc = gp_cli_inputs("export", o.files, o.nfiles, &in);
	if (rc)
		return rc;
	size_t n = in.paths.n;
	bool many = n > 1 || x.per_rank;
	struct gp_rank_id *ids = gp_xcalloc(n, sizeof(*ids));
	gp_ns *offsets = gp_xcalloc(n, sizeof(*offsets));
	if (x.align && n > 1)
		rc = clock_offsets(&in, &o, offsets);
	if (rc) {
		many = false;   /* no sink opened */
	} else if (gp_sink_open(&sink, sink_name, stdout, &so, &err)) {
		gp_err_print(&err);
		rc = gp_exit_code(err.status);
		many = false;   /* nothing to discard */
	}
	/* one input at a time, each freed before the next: memory is the
	** largest input's, whatever their number */
	for (size_t i = 0; i < n && !rc; i++)
		rc = export_one(&x, &o, &sink, &out, in.paths.v[i], i, many, offsets[i], &ids[i]);
	if (many && !rc) {
		/* the notes on the ranks, once: the alignment's pass printed them */
		size_t *order = gp_xmalloc(n * sizeof(*order));
		if (!(x.align && n > 1))
			gp_cli_ranks_order("export", ids, (const char *const *)in.paths.v, n, order);
		free(order);
		rc = gp_sink_end_close(&sink, &err);
		if (rc) {
			gp_err_print(&err);
			rc = gp_exit_code(err.status);
		}
	} else if (many) {
		gp_sink_discard(&sink);
	}
	if (out && !to_stdout && fclose(out) != 0 && !rc) {
		gp_err(&err, GP_ERR_IO, "%s: write failure", x.out);
		gp_err_print(&err);
		rc = GP_EXIT_IO;
	}
	if (rc && out && !to_stdout)
		gp_cli_remove_output(x.out);
	free(offsets);
	free(ids);
	gp_cli_inputs_free(&in);
	return rc;
}
