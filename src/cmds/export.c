/*
** gpuprof export: the whole trace as a picture for other tools: -f
** perfetto, a Chrome trace-event JSON for ui.perfetto.dev (the perfetto
** sink), -f folded, flame-graph stacks (the folded sinks), or -f sqlite,
** every table in one SQLite database (the sqlite sink, which writes the
** file itself); docs/export.md, docs/export-sqlite.md.
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
#include "analysis/jobpath.h"
#include "analysis/optable.h"
#include "util/alloc.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "writers/sink.h"

static const char *const export_formats[] = {"perfetto", "folded", "sqlite", NULL};

enum { O_OUT, O_FORCE, O_WEIGHT, O_PER_RANK, O_ALIGN, O_CRITICAL };

static const struct gp_cmd_opt export_opts[] = {
	[O_OUT] = {"output", 'o', "FILE", "write to FILE (FILE.gz: gzip-compressed; - or none:\nstandard output)"},
	[O_FORCE] = {"force", 0, NULL, "overwrite an existing FILE"},
	[O_WEIGHT] = {"weight", 0, "W", "folded: time (GPU ns, default), flops (modelled\nFLOPs) or idle (GPU idle ns)"},
	[O_PER_RANK] = {"per-rank", 0, NULL, "folded: each stack starts with a frame 'rank-R'\n(default: the files' stacks summed)"},
	[O_ALIGN] = {"align-clocks", 0, NULL, "perfetto, several files: shift each rank's times by\nits clock offset to the first rank, estimated from\nthe collectives' ends as gpuprof comm does (reads\nevery file twice)"},
	[O_CRITICAL] = {"critical-path", 0, NULL, "perfetto: mark the critical path (docs/dependencies.md):\n\"critical\": true in the args of every record on it (as\nHTA does) and a \"critical path\" track in its process\nwith a slice per piece, named by its cause; several\nfiles: the job's path across the ranks (reads every\nfile twice)"},
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
	"-f sqlite -o FILE: every table in one SQLite database (facts, ranks,\n"
	"devices, steps, kernels with report's columns, copies, ops, layers,\n"
	"gaps and their causes, the critical path, findings, collectives, memory\n"
	"events), times in integer ns, a rank column in each; several files go\n"
	"into one database.  See docs/export.md and docs/export-sqlite.md.",
	.shared = GP_OPT_FORMAT | GP_OPT_PEAKS | GP_OPT_WINDOW | GP_OPT_FILTER,
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

typedef GP_VEC(struct gp_cp_leg) leg_vec;

/* The job's critical path across several files, as each file's legs. */
struct job_legs {
	const struct gp_cli_inputs *in;
	bool known;             /* the traces could tell: legs hold it */
	leg_vec *legs;          /* [in->paths.n]: the path's legs on each file */
	gp_ns *offsets;         /* [in->paths.n]: clock offsets, or NULL */
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

/* Each file's record with its path's legs (gp_cli_trace_fn). */
static int leg_record(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	struct gp_analysis a;
	int rc = gp_analysis_run(t, GP_NEED_RANK_PATH, NULL, &a, err);

	(void)ctx;
	(void)rec;
	if (rc == GP_OK)
		gp_rank_record_put(&a.record, w);
	gp_analysis_free(&a);
	return rc;
}

/* The job's path from the files' records (gp_cli_reduce_fn): its visits
** as each file's legs, and the clock offsets when asked (those of the
** job's collectives, as clock_offsets estimates them).  A note when the
** traces cannot tell; each file then shows its own path. */
static int leg_reduce(const void *ctx, const struct gp_cli_result *const *res, size_t n, gp_writer *unused,
		      gp_error *err)
{
	struct job_legs *jl = (struct job_legs *)ctx;
	const struct gp_cli_inputs *in = jl->in;
	size_t *input = gp_xmalloc((n ? n : 1) * sizeof(*input));
	struct gp_rank_job j;
	struct gp_job_path p;
	int rc = gp_cli_rank_job(res, n, true, &j, err);

	(void)unused;
	if (rc != GP_OK) {
		free(input);
		return rc;
	}
	/* the results are in rank order: each one's input */
	for (size_t r = 0; r < n; r++) {
		input[r] = SIZE_MAX;
		for (size_t i = 0; i < in->paths.n && input[r] == SIZE_MAX; i++)
			if (strcmp(in->paths.v[i], res[r]->path) == 0)
				input[r] = i;
	}
	gp_job_path_run(&j, &p);
	if (!p.known)
		fprintf(stderr, "gpuprof export: note: no critical path across the ranks (%s): each rank's own "
			"path is marked\n", p.why);
	jl->known = p.known;
	for (size_t v = 0; p.known && v < p.nvisits; v++) {
		size_t i = input[p.visits[v].rank];
		if (i != SIZE_MAX)
			*gp_vec_push(jl->legs[i]) = p.visits[v].leg;
	}
	for (size_t r = 0; jl->offsets && r < n; r++)
		if (input[r] != SIZE_MAX) {
			jl->offsets[input[r]] = j.coll.ranks[r].aligned ? j.coll.ranks[r].offset : 0;
			if (!j.coll.ranks[r].aligned)
				fprintf(stderr, "gpuprof export: note: %s: no collective shared with rank %d: its "
					"clock is left as it is\n", res[r]->path, res[0]->id.rank);
		}
	gp_job_path_free(&p);
	gp_rank_job_free(&j);
	free(input);
	return GP_OK;
}

/* --critical-path over several files: the job's path across the ranks
** (jobpath.h), from a first read of every file (as `ranks --view
** critical`), into jl; with --align-clocks, the clock offsets from the
** same read.  Returns 0 or the exit code after printing the error. */
static int job_legs(const struct gp_cli_opts *o, struct job_legs *jl)
{
	struct gp_cli_many m = {.cmd = "export", .fn = leg_record, .ctx = jl, .cols = gp_rank_record_cols,
				.ncols = GP_RANK_RECORD_NCOLS, .reduce = leg_reduce};

	return gp_cli_run(&m, o);
}

/* The number of idle gaps per GPU the perfetto sink names with the CPU's
** context (its idle slices). */
#define EXPORT_TOP_GAPS 20

/* Runs the analysis the output formats over t (cut to the window o names,
** of span) into a: for sqlite every table's result (the op model, steps,
** every gap's causes, the critical path's pieces, the findings, the rank's
** record with its collectives, the kernels by layer); the op model for the
** folded stacks; for perfetto also
** every idle gap with its cause and the CPU's context of the longest, each
** stream's queue depth and the device timeline in as many buckets as its
** counters, and the critical path with its pieces when x asks.  GP_OK or
** the runner's error (gp_analysis_free a either way). */
static int analyse(const struct export_opts *x, const struct gp_cli_opts *o, gp_trace *t, const gp_ns span[2],
		   const leg_vec *legs, struct gp_analysis *a, gp_error *err)
{
	static const struct gp_cp_leg none;
	bool folded = strcmp(o->format, "folded") == 0;
	struct gp_analysis_opts ao;

	gp_cli_analysis_opts(o, &ao);
	if (o->window.mode != GP_WINDOW_NONE) {
		ao.window_start = span[0];
		ao.window_end = span[1];
	}
	if (strcmp(o->format, "sqlite") == 0) {
		ao.critpath_pieces = true;
		return gp_analysis_run(t, GP_NEED_OPS | GP_NEED_STEPS | GP_NEED_GAP_CAUSES | GP_NEED_CRITPATH |
				       GP_NEED_FINDINGS | GP_NEED_RECORD | GP_NEED_GROUPS | GP_NEED_COMM_OVERLAP, &ao, a,
				       err);
	}
	ao.top_gaps = EXPORT_TOP_GAPS;
	ao.depth_buckets = ao.timeline_buckets = GP_PERFETTO_BUCKETS;
	ao.critpath_pieces = x->critical;
	if (legs) {
		ao.critpath_legs = legs->n ? legs->v : &none;
		ao.ncritpath_legs = legs->n;
	}
	return gp_analysis_run(t, folded ? GP_NEED_OPS : GP_NEED_OPS | GP_NEED_GAP_CAUSES | GP_NEED_TOP_GAPS |
			       GP_NEED_DEPTH | GP_NEED_TIMELINE | GP_NEED_COMM_OVERLAP |
			       (x->critical ? GP_NEED_CRITPATH : 0), &ao, a, err);
}

/* The ops table of t by name, as `gpuprof ops` builds it (with the FLOPs
** of a's op model), into tb. */
static void build_optable(gp_trace *t, const struct gp_analysis *a, struct gp_optable *tb)
{
	double *flops = gp_xmalloc((t->kernels.n ? t->kernels.n : 1) * sizeof(*flops));
	struct gp_optable_opts to = {.group = GP_OPTABLE_BY_NAME, .stack_depth = 1, .flops = flops};

	for (size_t k = 0; k < t->kernels.n; k++)
		flops[k] = a->ops.r[k].flops;
	gp_optable_build(t, &to, tb);
	free(flops);
}

/* Loads, analyses and writes the input path (argument position pos) into
** the open sink: the whole output when it is the only one (many false),
** else its part, with its rank.  Opens the output (*out) at the first
** input that loads, so a failed load leaves no file; offset is added to
** the times written.  When alone, the sink is closed on return whatever
** happened.  Returns the exit code after printing any error; id receives
** the input's rank.  legs, when not NULL, is the job's critical path on
** this input (else its own path is marked, when asked). */
static int export_one(const struct export_opts *x, const struct gp_cli_opts *o, gp_sink *sink, FILE **out,
		      const char *path, size_t pos, bool many, gp_ns offset, const leg_vec *legs,
		      struct gp_rank_id *id)
{
	bool folded = strcmp(o->format, "folded") == 0;
	bool sqlite = strcmp(o->format, "sqlite") == 0;
	bool to_stdout = !x->out || strcmp(x->out, "-") == 0;
	struct gp_optable tb = {0};
	struct gp_cli_progress *progress = sink->opts.progress_ctx;
	struct gp_analysis a;
	gp_error err = {0};
	gp_ns span[2];
	gp_trace t;
	int rc;

	gp_trace_init(&t);
	rc = gp_cli_load(path, o, &t, span);
	/* one trace without kernels is said, and its CPU timeline still
	** exported (ranges, ops, API calls) */
	if (!rc && !many)
		gp_cli_no_kernels("export", path, &t, o, false);
	if (rc) {
		if (!many)
			gp_sink_discard(sink);
		gp_trace_free(&t);
		return rc;
	}
	*id = gp_rank_from_meta(&t);
	gp_rank_complete(id, path, pos);
	const struct gp_sink_input in = {.path = path, .an = &a,
					 .rank = sqlite || (many && (!folded || x->per_rank)) ? id : NULL,
					 .clock_offset = offset, .optable = sqlite ? &tb : NULL};
	if (!*out && !sqlite) {   /* the sqlite sink writes its own file */
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
	rc = analyse(x, o, &t, span, legs, &a, &err);
	if (!rc && sqlite)
		build_optable(&t, &a, &tb);
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
	gp_optable_free(&tb);
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
	char note[256] = "";
	struct gp_sink_opts so = {.top = SIZE_MAX, .progress = gp_cli_progress_show, .progress_ctx = &progress,
				  .note = note, .note_size = sizeof(note)};
	gp_error err = {0};
	struct stat st;
	gp_sink sink;
	FILE *out = NULL;
	int rc;

	rc = gp_cli_parse(&export_spec, argc, argv, &o, export_option, &x);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	bool folded = strcmp(o.format, "folded") == 0;
	bool sqlite = strcmp(o.format, "sqlite") == 0;
	if (!folded && strcmp(x.weight, "time") != 0)
		return gp_cli_usage("export", "--weight is for -f folded");
	if (!folded && x.per_rank)
		return gp_cli_usage("export", "--per-rank is for -f folded (-f perfetto%s always shows the ranks)",
				    sqlite ? " and sqlite" : "");
	if ((folded || sqlite) && x.align)
		return gp_cli_usage("export", "--align-clocks is for -f perfetto");
	if ((folded || sqlite) && x.critical)
		return gp_cli_usage("export", "--critical-path is for -f perfetto (-f sqlite always has "
				    "the critpath table)");
	bool to_stdout = !x.out || strcmp(x.out, "-") == 0;
	/* megabytes of JSON are no use on a terminal: -o - says it is meant */
	if (!x.out && !sqlite && isatty(STDOUT_FILENO))
		return gp_cli_usage("export", "standard output is a terminal: give -o FILE (-o - writes there anyway)");
	if (sqlite && to_stdout)
		return gp_cli_usage("export", "-f sqlite writes a database file: give -o FILE");
	if (!to_stdout && !x.force && stat(x.out, &st) == 0) {
		fprintf(stderr, "gpuprof export: %s exists (--force overwrites it)\n", x.out);
		return GP_EXIT_IO;
	}
	/* the database is made anew, not added to */
	if (sqlite && x.force && unlink(x.out) != 0 && errno != ENOENT) {
		fprintf(stderr, "gpuprof export: cannot replace %s: %s\n", x.out, strerror(errno));
		return GP_EXIT_IO;
	}
	so.path = sqlite ? x.out : NULL;
	const char *sink_name = sqlite ? "sqlite" : !folded ? "perfetto" : strcmp(x.weight, "flops") == 0 ? "folded-flops"
			      : strcmp(x.weight, "idle") == 0 ? "folded-idle" : "folded";
	rc = gp_cli_inputs("export", o.files, o.nfiles, &in);
	if (rc)
		return rc;
	size_t n = in.paths.n;
	bool many = n > 1 || x.per_rank;
	struct gp_rank_id *ids = gp_xcalloc(n, sizeof(*ids));
	gp_ns *offsets = gp_xcalloc(n, sizeof(*offsets));
	struct job_legs jl = {.in = &in, .legs = gp_xcalloc(n, sizeof(*jl.legs)), .offsets = x.align ? offsets : NULL};
	if (x.critical && n > 1)
		rc = job_legs(&o, &jl);   /* the clock offsets too, from the same read */
	else if (x.align && n > 1)
		rc = clock_offsets(&in, &o, offsets);
	if (rc) {
		many = false;   /* no sink opened */
	} else if (gp_sink_open(&sink, sink_name, sqlite ? NULL : stdout, &so, &err)) {
		gp_err_print(&err);
		rc = gp_exit_code(err.status);
		many = false;   /* nothing to discard */
		if (sqlite) {   /* what its open made: the state, the file */
			gp_sink_discard(&sink);
			gp_cli_remove_output(x.out);
		}
		sqlite = false;   /* nothing of ours to remove */
	}
	/* one input at a time, each freed before the next: memory is the
	** largest input's, whatever their number */
	for (size_t i = 0; i < n && !rc; i++)
		rc = export_one(&x, &o, &sink, &out, in.paths.v[i], i, many, offsets[i], jl.known ? &jl.legs[i] : NULL,
				&ids[i]);
	if (many && !rc) {
		/* the notes on the ranks, once: the alignment's pass printed them */
		size_t *order = gp_xmalloc(n * sizeof(*order));
		if (!((x.align || x.critical) && n > 1))
			rc = gp_cli_ranks_order("export", ids, (const char *const *)in.paths.v, n, order, in.expanded);
		free(order);
	}
	if (many && !rc) {
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
	if (rc && ((out && !to_stdout) || sqlite))
		gp_cli_remove_output(x.out);
	if (!rc && !to_stdout)
		gp_cli_wrote("export", x.out, note);
	for (size_t i = 0; i < n; i++)
		gp_vec_free(jl.legs[i]);
	free(jl.legs);
	free(offsets);
	free(ids);
	gp_cli_inputs_free(&in);
	return rc;
}
