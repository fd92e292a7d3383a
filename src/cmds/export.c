/*
** gpuprof export: the whole trace as a picture for other tools: -f
** perfetto, a Chrome trace-event JSON for ui.perfetto.dev (the perfetto
** sink), or -f folded, flame-graph stacks (the folded sinks); docs/export.md.
** The command parses the window and output options, loads, runs the op
** model and hands a gp_analysis to the sink, which streams to the output
** (a file, gzip-compressed when its name ends in .gz, or stdout).
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/breakdown.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "ops/ops.h"
#include "writers/sink.h"

static const char *const export_formats[] = {"perfetto", "folded", NULL};

enum { O_OUT, O_FORCE, O_ITER, O_ITERS, O_START, O_END, O_WEIGHT };

static const struct gp_cmd_opt export_opts[] = {
	[O_OUT] = {"output", 'o', "FILE", "write to FILE (FILE.gz: gzip-compressed; - or none:\nstandard output)"},
	[O_FORCE] = {"force", 0, NULL, "overwrite an existing FILE"},
	[O_ITER] = {"iter", 0, "N", "only iteration N (ProfilerStep#N, \"iteration N\" ranges)"},
	[O_ITERS] = {"iters", 0, "A:B", "only iterations A to B"},
	[O_START] = {"start", 0, "NS", "only what runs at or after NS (ns, the trace's clock:\nreport's start column)"},
	[O_END] = {"end", 0, "NS", "only what runs at or before NS"},
	[O_WEIGHT] = {"weight", 0, "W", "folded: time (GPU ns, default), flops (modelled\nFLOPs) or idle (GPU idle ns)"},
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
	.shared = GP_OPT_FORMAT | GP_OPT_PEAKS,
	.formats = export_formats,
	.own = export_opts,
	.more =
	"Open the perfetto export: https://ui.perfetto.dev -> Open trace file (or\n"
	"drag it in); chrome://tracing -> Load.  Flame graph: flamegraph.pl\n"
	"out.folded > out.svg, or drop out.folded on https://www.speedscope.app.",
};

struct export_opts {
	const char *out;        /* NULL or "-": stdout */
	bool force;
	bool have_iters, have_start, have_end;
	int32_t iter_a, iter_b;
	gp_ns start, end;
	const char *weight;     /* "time", "flops", "idle" */
};

/* Parses a whole signed decimal integer; false if s is not one. */
static bool parse_i64(const char *s, int64_t *v)
{
	char *end;

	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return false;
	*v = x;
	return true;
}

static bool parse_iter(const char *s, int32_t *v)
{
	int64_t x;

	if (!parse_i64(s, &x) || x < 0 || x > INT32_MAX)
		return false;
	*v = (int32_t)x;
	return true;
}

static int export_option(void *ctx, int index, const char *arg)
{
	struct export_opts *x = ctx;
	char a[32];
	const char *colon;

	switch (index) {
	case O_OUT: x->out = arg; return 0;
	case O_FORCE: x->force = true; return 0;
	case O_ITER:
		if (!parse_iter(arg, &x->iter_a))
			return gp_cli_usage("export", "--iter wants an iteration number, not '%s'", arg);
		x->iter_b = x->iter_a;
		x->have_iters = true;
		return 0;
	case O_ITERS:
		colon = strchr(arg, ':');
		if (!colon || (size_t)(colon - arg) >= sizeof(a))
			return gp_cli_usage("export", "--iters wants A:B, not '%s'", arg);
		snprintf(a, sizeof(a), "%.*s", (int)(colon - arg), arg);
		if (!parse_iter(a, &x->iter_a) || !parse_iter(colon + 1, &x->iter_b) || x->iter_b < x->iter_a)
			return gp_cli_usage("export", "--iters wants A:B with A <= B, not '%s'", arg);
		x->have_iters = true;
		return 0;
	case O_START:
	case O_END:
		if (!parse_i64(arg, index == O_START ? &x->start : &x->end))
			return gp_cli_usage("export", "--%s wants nanoseconds, not '%s'", export_opts[index].name, arg);
		*(index == O_START ? &x->have_start : &x->have_end) = true;
		return 0;
	case O_WEIGHT:
		if (strcmp(arg, "time") && strcmp(arg, "flops") && strcmp(arg, "idle"))
			return gp_cli_usage("export", "--weight is time, flops or idle, not '%s'", arg);
		x->weight = arg;
		return 0;
	}
	return GP_EXIT_USAGE;
}

/* The window of iterations a..b: from the first launch (or kernel start)
** to the last kernel end of their kernels.  False when none ran. */
static bool iteration_window(const gp_trace *t, int32_t a, int32_t b, gp_ns *ws, gp_ns *we)
{
	bool any = false;

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *at = &t->attrs[k];
		if (at->iter < a || at->iter > b)
			continue;
		gp_ns s = t->kernels.v[k].start, e = t->kernels.v[k].end;
		if (at->api >= 0 && t->apis.v[at->api].start < s)
			s = t->apis.v[at->api].start;
		if (!any || s < *ws)
			*ws = s;
		if (!any || e > *we)
			*we = e;
		any = true;
	}
	return any;
}

int cmd_export(int argc, char **argv)
{
	struct export_opts x = {.weight = "time"};
	struct gp_cli_opts o;
	gp_error err = {0};
	struct stat st;
	gp_sink sink;
	gp_trace t;
	int rc;

	rc = gp_cli_parse(&export_spec, argc, argv, &o, export_option, &x);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	bool folded = strcmp(o.format, "folded") == 0;
	if (!folded && strcmp(x.weight, "time") != 0)
		return gp_cli_usage("export", "--weight is for -f folded");
	if (folded && (x.have_iters || x.have_start || x.have_end))
		return gp_cli_usage("export", "--iter, --iters, --start and --end are for -f perfetto");
	if (x.have_iters && (x.have_start || x.have_end))
		return gp_cli_usage("export", "--iter/--iters and --start/--end are alternatives");
	if (x.have_start && x.have_end && x.end < x.start)
		return gp_cli_usage("export", "--end is before --start");
	bool to_stdout = !x.out || strcmp(x.out, "-") == 0;
	if (!to_stdout && !x.force && stat(x.out, &st) == 0) {
		fprintf(stderr, "gpuprof export: %s exists (--force overwrites it)\n", x.out);
		return GP_EXIT_IO;
	}
	const char *sink_name = !folded ? "perfetto" : strcmp(x.weight, "flops") == 0 ? "folded-flops"
			      : strcmp(x.weight, "idle") == 0 ? "folded-idle" : "folded";

	gp_trace_init(&t);
	rc = gp_cli_load(o.file, &t);
	if (rc) {
		gp_trace_free(&t);
		return rc;
	}
	struct gp_analysis a = {.path = o.file, .trace = &t, .peaks = &o.peaks, .top = SIZE_MAX};
	if (x.have_iters && !iteration_window(&t, x.iter_a, x.iter_b, &a.window_start, &a.window_end)) {
		fprintf(stderr, "gpuprof export: %s: no kernels in iterations %" PRId32 " to %" PRId32
			" (report -c iter shows them)\n", o.file, x.iter_a, x.iter_b);
		gp_trace_free(&t);
		return GP_EXIT_USAGE;
	}
	if (x.have_start || x.have_end) {
		gp_ns first = 0, last = 0;
		gp_trace_span(&t, &first, &last);
		a.window_start = x.have_start ? x.start : first;
		a.window_end = x.have_end ? x.end : last;
	}

	FILE *out = to_stdout ? stdout : gp_cli_open_output("export", x.out, x.force);
	if (!out) {
		gp_trace_free(&t);
		return GP_EXIT_IO;
	}
	/* only this thread writes: no stream lock per character (as main.c
	** does for stdout) */
	__fsetlocking(out, FSETLOCKING_BYCALLER);
	struct gp_opres *res = gp_ops_run(&t, &o.peaks);
	a.opres = res;
	/* every idle gap with its cause, and the CPU's context of the longest
	** (the perfetto sink's idle slices); the defaults of gpuprof breakdown */
	struct gp_breakdown_opts bo = {.short_gap_ns = 10000, .top_gaps = 20, .gap_causes = !folded,
				       .is_comm = gp_kernel_is_comm};
	gp_breakdown b = {0};
	struct gp_cli_progress progress;
	rc = gp_breakdown_run(&t, &bo, &b, &err);
	a.breakdown = &b;
	gp_cli_progress_start(&progress, "writing");
	a.progress = gp_cli_progress_show;
	a.progress_ctx = &progress;
	if (!rc)
		rc = gp_sink_open(&sink, sink_name, out, &err);
	if (!rc)
		rc = gp_sink_write_close(&sink, &a, &err);
	gp_cli_progress_end(&progress);
	if (!to_stdout && fclose(out) != 0 && !rc)
		rc = gp_err(&err, GP_ERR_IO, "%s: write failure", x.out);
	if (rc) {
		gp_err_print(&err);
		rc = gp_exit_code(err.status);
		if (!to_stdout)
			gp_cli_remove_output(x.out);
	}
	gp_breakdown_free(&b);
	free(res);
	gp_trace_free(&t);
	return rc;
}
