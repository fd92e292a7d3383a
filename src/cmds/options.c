/*
** The shared option table and the one parser of the commands; see
** options.h.  Limits are the same for every command: -w and -n take a
** positive number (-w is a limit the table writer fits the lines into,
** cutting names before other text and never numbers or headers), --peak-*
** a positive number of at most 1e20.
*/
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds/cmds.h"
#include "cmds/options.h"
#include "ops/opdefs.h"

/* Parses arg into o for the shared option; 0, GP_CLI_DONE or an exit code. */
typedef int (*shared_parse_fn)(const char *cmd, const char *arg, struct gp_cli_opts *o);

struct shared_opt {
	unsigned bit;
	const char *name;
	int short_name;
	const char *arg;
	const char *help;       /* NULL: generated (the -f line) */
	shared_parse_fn parse;
};

/* A positive integer up to max, or -1. */
static long positive(const char *s, long max)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *s && !*end && v > 0 && v <= max ? v : -1;
}

static int parse_columns(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	o->columns = arg;
	return 0;
}

static int parse_format(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	o->format = arg;
	return 0;
}

static int parse_width(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	long v = positive(arg, 100000);

	if (v < 0)
		return gp_cli_usage(cmd, "bad --width '%s' (a positive number)", arg);
	o->wo.width = (int)v;
	return 0;
}

/* PyProf's --csv: the last of -f and --csv wins, as between two -f. */
static int parse_csv(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	o->format = "csv";
	return 0;
}

static int parse_no_header(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	o->wo.no_header = true;
	return 0;
}

static int parse_top(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	long v = positive(arg, LONG_MAX);

	if (v < 0)
		return gp_cli_usage(cmd, "bad --top '%s' (a positive number)", arg);
	o->top = (size_t)v;
	return 0;
}

static int parse_depth(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	long v = positive(arg, 1000);

	if (v < 0)
		return gp_cli_usage(cmd, "bad --depth '%s' (a number from 1 to 1000)", arg);
	o->depth = (int)v;
	return 0;
}

static int parse_base(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	o->names = GP_NAMES_BASE;
	return 0;
}

static int parse_full_names(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	o->names = GP_NAMES_FULL;
	return 0;
}

static int parse_jobs(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	long v = positive(arg, 4096);

	if (v < 0)
		return gp_cli_usage(cmd, "bad --jobs '%s' (a number from 1 to 4096)", arg);
	o->jobs = (int)v;
	return 0;
}

/* A whole signed decimal integer into *v; false if s is not one. */
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

/* An iteration number: 0 to INT32_MAX. */
static bool parse_iter_number(const char *s, int32_t *v)
{
	int64_t x;

	if (!parse_i64(s, &x) || x < 0 || x > INT32_MAX)
		return false;
	*v = (int32_t)x;
	return true;
}

/* --iter and --iters choose iterations; --start and --end a time span:
** one or the other. */
static int window_mode(const char *cmd, struct gp_cli_opts *o, enum gp_window_mode mode)
{
	if (o->window.mode != GP_WINDOW_NONE && o->window.mode != mode)
		return gp_cli_usage(cmd, "--iter/--iters and --start/--end are alternatives");
	o->window.mode = mode;
	return 0;
}

static int parse_iter(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	if (!parse_iter_number(arg, &o->window.iter_a))
		return gp_cli_usage(cmd, "--iter wants an iteration number, not '%s'", arg);
	o->window.iter_b = o->window.iter_a;
	return window_mode(cmd, o, GP_WINDOW_ITERS);
}

static int parse_iters(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	const char *colon = strchr(arg, ':');
	char a[32];

	if (!colon || (size_t)(colon - arg) >= sizeof(a))
		return gp_cli_usage(cmd, "--iters wants A:B, not '%s'", arg);
	snprintf(a, sizeof(a), "%.*s", (int)(colon - arg), arg);
	if (!parse_iter_number(a, &o->window.iter_a) || !parse_iter_number(colon + 1, &o->window.iter_b) ||
	    o->window.iter_b < o->window.iter_a)
		return gp_cli_usage(cmd, "--iters wants A:B with A <= B, not '%s'", arg);
	return window_mode(cmd, o, GP_WINDOW_ITERS);
}

/* A time of --start or --end: a bare integer is ns on the trace's clock
** (*rel false); a number with a unit (ns, us, ms, s) is a time from the
** trace start, at least 0 (*rel true).  False when s is neither. */
static bool parse_time(const char *s, gp_ns *v, bool *rel)
{
	static const struct { const char *unit; double ns; } units[] = {
		{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9},
	};
	char *end;
	int64_t x;

	if (parse_i64(s, &x)) {
		*v = x;
		*rel = false;
		return true;
	}
	errno = 0;
	double d = strtod(s, &end);
	if (errno || end == s || !isfinite(d) || d < 0 || !strchr("0123456789.", *s))
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].unit) == 0 && d * units[i].ns < 9e18) {
			*v = (gp_ns)llround(d * units[i].ns);
			*rel = true;
			return true;
		}
	return false;
}

/* --start (end false) or --end ARG: a time from the trace start with a
** unit, else ns on the trace's clock. */
static int parse_bound(const char *cmd, const char *arg, bool end, struct gp_cli_opts *o)
{
	gp_ns v;
	bool rel;

	if (!parse_time(arg, &v, &rel))
		return gp_cli_usage(cmd, "%s wants a time from the trace start (%s; units ns, us, ms, s) or ns on "
				    "the trace's clock, not '%s'", end ? "--end" : "--start", end ? "16ms" : "14.5ms", arg);
	*(end ? &o->window.end_rel : &o->window.start_rel) = rel;
	if (rel)
		*(end ? &o->window.rel_end : &o->window.rel_start) = v;
	else
		*(end ? &o->window.end : &o->window.start) = v;
	return window_mode(cmd, o, GP_WINDOW_TIME);
}

static int parse_start(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	return parse_bound(cmd, arg, false, o);
}

static int parse_end(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	return parse_bound(cmd, arg, true, o);
}

/* --name REGEX: compiled once here (a bad one is a usage error).  The
** compiled pattern lives in static storage for the process's life: the
** window that points to it outlives the command's frame, and memory
** reachable from a static is not a leak. */
static regex_t name_re;
static bool name_re_compiled;

static int parse_name(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	char msg[128];
	int rc;

	if (name_re_compiled)
		regfree(&name_re);
	name_re_compiled = false;
	o->window.filter.name = NULL;
	if ((rc = regcomp(&name_re, arg, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(rc, &name_re, msg, sizeof(msg));
		return gp_cli_usage(cmd, "bad --name '%s' (%s)", arg, msg);
	}
	name_re_compiled = true;
	o->window.filter.name = &name_re;
	return 0;
}

static int parse_layer(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	o->window.filter.layer = arg;
	return 0;
}

static int parse_range(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	o->window.filter.range = arg;
	return 0;
}

/* --capture FILE|DIR, repeatable; "none" reads no capture trace, not even
** those beside the trace. */
static int parse_capture(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	if (strcmp(arg, "none") == 0) {
		o->no_capture = true;
		return 0;
	}
	if (o->ncapture >= GP_MAX_CAPTURE_ARGS)
		return gp_cli_usage(cmd, "at most %d --capture options", GP_MAX_CAPTURE_ARGS);
	o->capture[o->ncapture++] = arg;
	return 0;
}

static void list_gpus(void)
{
	printf("%-28s %4s %4s %7s %7s %7s %7s %7s %7s %7s %6s %6s  %s\n", "GPU", "SMs", "cc", "FP64", "FP32",
	       "TF32", "FP16", "BF16", "FP8", "INT8", "GB/s", "Link", "(link)");
	for (const struct gp_gpu *g = gp_gpus; g->name; g++)
		printf("%-28s %4d %2d.%d %7.1f %7.1f %7.1f %7.1f %7.1f %7.1f %7.1f %6.0f %6.2f  %s\n", g->name,
		       g->sm_count, g->cc_major, g->cc_minor, g->fp64_tc ? g->fp64_tc : g->fp64, g->fp32, g->tf32,
		       g->fp16, g->bf16, g->fp8, g->int8, g->bw, g->link_bw, g->link ? g->link : "-");
	printf("(dense TFLOP/s (INT8: TOP/s) at boost clock, datasheet roofs; AMD: CUs, gfx version, matrix\n"
	       "cores; sources and the estimate for a GPU not listed: docs/op-model.md; Link: GPU-to-GPU\n"
	       "GB/s per direction, what `comm` compares busbw with, 0 = unknown; docs/comm.md)\n");
}

static int parse_gpu(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	if (strcmp(arg, "list") == 0) {
		list_gpus();
		return GP_CLI_DONE;
	}
	o->peaks.gpu = gp_gpu_lookup(arg);
	if (!o->peaks.gpu)
		return gp_cli_usage(cmd, "unknown GPU '%s' (--gpu list shows the table)", arg);
	return 0;
}

/* A peak: a positive number up to 1e20, or -1. */
static double peak(const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	return end == arg || *end || !(v > 0) || v > 1e20 ? -1 : v;
}

static int parse_peak_flops(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	o->peaks.peak_flops = peak(arg);
	if (o->peaks.peak_flops < 0)
		return gp_cli_usage(cmd, "bad --peak-flops '%s' (a positive number, e.g. 312e12)", arg);
	return 0;
}

static int parse_peak_bw(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	o->peaks.peak_bw = peak(arg);
	if (o->peaks.peak_bw < 0)
		return gp_cli_usage(cmd, "bad --peak-bw '%s' (a positive number, e.g. 1.555e12)", arg);
	return 0;
}

/* --ops-file FILE: the user's kernel families and op formulas (a file or
** a directory of *.ops files), read now so a bad one stops the command. */
static int parse_ops_file(const char *cmd, const char *arg, struct gp_cli_opts *o)
{
	if (o->peaks.nops_paths == GP_OPS_MAX_PATHS - 1)
		return gp_cli_usage(cmd, "at most %d --ops-file options", GP_OPS_MAX_PATHS - 1);
	o->peaks.ops_optional[o->peaks.nops_paths] = false;
	o->peaks.ops_paths[o->peaks.nops_paths++] = arg;
	return 0;
}

/* The configuration's ops path first (the user's --ops-file rows come
** later and win): $GPUPROF_OPS (a file or directory; empty: none), else
** $XDG_CONFIG_HOME/gpuprof/ops.d or ~/.config/gpuprof/ops.d when it
** exists.  Then reads them all once, so a bad file is reported with its
** file:line before any trace is read.  Returns 0 or an exit code. */
static int ops_files(const char *cmd, struct gp_cli_opts *o)
{
	const char *env = getenv("GPUPROF_OPS"), *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	struct gp_peak_opts *p = &o->peaks;
	bool optional = false;

	if (env)
		snprintf(o->ops_config, sizeof(o->ops_config), "%s", env);
	else if (xdg && *xdg)
		optional = snprintf(o->ops_config, sizeof(o->ops_config), "%s/gpuprof/ops.d", xdg) > 0;
	else if (home && *home)
		optional = snprintf(o->ops_config, sizeof(o->ops_config), "%s/.config/gpuprof/ops.d", home) > 0;
	if (o->ops_config[0]) {
		memmove(p->ops_paths + 1, p->ops_paths, p->nops_paths * sizeof(p->ops_paths[0]));
		memmove(p->ops_optional + 1, p->ops_optional, p->nops_paths * sizeof(p->ops_optional[0]));
		p->ops_paths[0] = o->ops_config;
		p->ops_optional[0] = optional;
		p->nops_paths++;
	}
	if (!p->nops_paths)
		return 0;
	struct gp_opdefs d;
	gp_error err;
	int rc = gp_opdefs_init(&d, p->ops_paths, p->ops_optional, p->nops_paths, &err);
	gp_opdefs_free(&d);
	if (rc) {
		gp_err_print(&err);
		return gp_exit_code(err.status);
	}
	return 0;
}

static const struct shared_opt shared_opts[] = {
	{GP_OPT_COLUMNS, "columns", 'c', "LIST", "comma-separated columns (see below)", parse_columns},
	{GP_OPT_FORMAT, "format", 'f', "F", NULL, parse_format},
	{GP_OPT_CSV, "csv", 0, NULL, "the same as -f csv (PyProf's prof.py --csv)", parse_csv},
	{GP_OPT_WIDTH, "width", 'w', "N", "table: lines of at most N characters: names are cut\n"
	 "first, then other text; numbers and headers never\n"
	 "(lines stay longer when they alone need more)", parse_width},
	{GP_OPT_NO_HEADER, "no-header", 0, NULL, "omit the header line (table, csv, tsv)", parse_no_header},
	{GP_OPT_TOP, "top", 'n', "N", "at most N rows (a positive number; default all)", parse_top},
	{GP_OPT_GPU, "gpu", 0, "NAME", "peaks of this GPU for the roofline (default: the\n"
	 "trace's device; 'list' shows the table)", parse_gpu},
	{GP_OPT_PEAK_FLOPS, "peak-flops", 0, "F", "peak FLOP/s for every kernel (e.g. 312e12)", parse_peak_flops},
	{GP_OPT_PEAK_BW, "peak-bw", 0, "B", "peak memory bandwidth in bytes/s (e.g. 1.555e12)", parse_peak_bw},
	{GP_OPT_OPS_FILE, "ops-file", 0, "FILE", "kernel families and op formulas of your own (a file or\n"
	 "a directory of *.ops; after $GPUPROF_OPS, else\n"
	 "~/.config/gpuprof/ops.d/); docs/op-model.md", parse_ops_file},
	{GP_OPT_DEPTH, "depth", 0, "N", "layers: the first N levels of each layer path\n"
	 "(Model/Block_3/Attention at 2: Model/Block_3); with\n"
	 "module types, the type at level N", parse_depth},
	{GP_OPT_NAMES, "base", 0, NULL, "kernel names short: the function and the operation\n"
	 "it runs (elementwise_kernel<MulFunctor>; the table's\n"
	 "default)", parse_base},
	{GP_OPT_NAMES, "full-names", 0, NULL, "kernel names in full: the demangled name with\n"
	 "its template arguments and parameters (the default\n"
	 "of csv, tsv and json)", parse_full_names},
	{GP_OPT_JOBS, "jobs", 'j', "N", "several FILEs: read N at once (default: one per CPU)", parse_jobs},
	{GP_OPT_WINDOW, "iter", 0, "N", "only iteration N: its kernels (ProfilerStep#N, NVTX\n"
	 "\"iteration N\", libgpuprof iterations, as report's iter\n"
	 "column says) and what overlaps them; docs/window.md", parse_iter},
	{GP_OPT_WINDOW, "iters", 0, "A:B", "only iterations A to B (read cheaply: what lies far\n"
	 "outside is dropped while reading)", parse_iters},
	{GP_OPT_WINDOW, "start", 0, "T", "only what runs at or after T: a time from the trace\n"
	 "start with a unit, as outputs print them (14.5ms; ns,\n"
	 "us, ms, s), or a bare integer: ns on the trace's clock\n"
	 "(report's start column)", parse_start},
	{GP_OPT_WINDOW, "end", 0, "T", "only what runs at or before T (as --start)", parse_end},
	{GP_OPT_FILTER, "name", 0, "REGEX", "only kernels whose name or op's name matches REGEX\n"
	 "(POSIX extended, anywhere in the name: '^aten::mm$')", parse_name},
	{GP_OPT_FILTER, "layer", 0, "PATH", "only kernels of layer PATH and the layers under it\n"
	 "(Model/Block_1: not Model/Block_10)", parse_layer},
	{GP_OPT_FILTER, "range", 0, "NAME", "only kernels launched under a range named NAME (NVTX\n"
	 "range, user annotation, framework op); docs/window.md", parse_range},
	{GP_OPT_WINDOW, "capture", 0, "FILE|DIR", "graph-capture traces of the CUDA/HIP graphs the\n"
	 "trace replays (repeatable; default: capture_traces/\n"
	 "beside the trace; 'none': none); docs/correlation.md", parse_capture},
};
#define NSHARED ((int)(sizeof(shared_opts) / sizeof(shared_opts[0])))

/* getopt codes of options without a letter */
enum { CODE_SHARED = 256, CODE_OWN = 512 };

/* The command's formats: its own, then the row writers' it does not list
** already (diff lists "table" first to keep it the default before its
** "html"); NULL-terminated. */
static int format_names(const struct gp_cmd_spec *spec, const char **names, int max)
{
	int n = 0;

	for (int i = 0; spec->formats && spec->formats[i] && n < max - 1; i++)
		names[n++] = spec->formats[i];
	for (int i = 0; spec->row_formats && gp_writers[i] && n < max - 1; i++) {
		bool listed = false;
		for (int j = 0; j < n; j++)
			listed |= strcmp(names[j], gp_writers[i]->name) == 0;
		if (!listed)
			names[n++] = gp_writers[i]->name;
	}
	names[n] = NULL;
	return n;
}

static bool format_known(const struct gp_cmd_spec *spec, const char *name)
{
	const char *names[32];

	format_names(spec, names, 32);
	for (int i = 0; names[i]; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* The edit distance of a and b (insertions, deletions, substitutions),
** counted up to 99: enough to rank a few dozen option names. */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int row[64];

	if (la > 60 || lb > 60)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* "unknown option ARG" for the argument getopt refused, with the command's
** long option nearest to it when one is near ("did you mean --base?"). */
static int unknown_option(const struct gp_cmd_spec *spec, const struct option *longopts, const char *arg,
			  int letter)
{
	char name[64];
	const char *best = NULL;
	int best_d = 99;

	if (letter || !arg || strncmp(arg, "--", 2) != 0)
		return gp_cli_usage(spec->name, "unknown option -%c", letter ? letter : '?');
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
	int prefixed = 0;
	for (int i = 0; longopts[i].name; i++) {
		int d = distance(name, longopts[i].name);
		/* a prefix of an option is that option to getopt, unless two share it */
		if (*name && strncmp(longopts[i].name, name, strlen(name)) == 0 && d) {
			d = 1;
			prefixed++;
		}
		if (d < best_d) {
			best_d = d;
			best = longopts[i].name;
		}
	}
	if (best_d == 0)
		return gp_cli_usage(spec->name, "option --%s takes no value", name);
	if (prefixed > 1)
		return gp_cli_usage(spec->name, "option --%s is ambiguous (did you mean --%s?)", name, best);
	if (best && best_d <= 1 + (int)strlen(name) / 3)
		return gp_cli_usage(spec->name, "unknown option --%s (did you mean --%s?)", name, best);
	return gp_cli_usage(spec->name, "unknown option --%s", name);
}

int gp_cli_parse(const struct gp_cmd_spec *spec, int argc, char **argv, struct gp_cli_opts *o,
		 gp_own_opt_fn own, void *ctx)
{
	struct option longopts[64];
	char optstring[128] = ":h";
	const char *names[32];
	char list[256];
	int nlong = 0, c, rc;

	memset(o, 0, sizeof(*o));
	o->top = SIZE_MAX;
	o->window.start = GP_NS_MIN;
	o->window.end = GP_NS_MAX;
	format_names(spec, names, 32);
	o->format = names[0];
	longopts[nlong++] = (struct option){"help", no_argument, NULL, 'h'};
	for (int i = 0; i < NSHARED; i++) {
		const struct shared_opt *s = &shared_opts[i];
		if (!(spec->shared & s->bit))
			continue;
		longopts[nlong++] = (struct option){s->name, s->arg ? required_argument : no_argument, NULL,
						    s->short_name ? s->short_name : CODE_SHARED + i};
		if (s->short_name) {
			size_t n = strlen(optstring);
			optstring[n] = (char)s->short_name;
			strcpy(optstring + n + 1, s->arg ? ":" : "");
		}
	}
	for (int i = 0; spec->own && spec->own[i].name; i++) {
		const struct gp_cmd_opt *x = &spec->own[i];
		longopts[nlong++] = (struct option){x->name, x->arg ? required_argument : no_argument, NULL,
						    x->short_name ? x->short_name : CODE_OWN + i};
		if (x->short_name) {
			size_t n = strlen(optstring);
			optstring[n] = (char)x->short_name;
			strcpy(optstring + n + 1, x->arg ? ":" : "");
		}
	}
	longopts[nlong] = (struct option){NULL, 0, NULL, 0};

	optind = 1;
	opterr = 0;   /* the errors are said here, on one line */
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		int found = 0;
		if (c == '?')
			return unknown_option(spec, longopts, argv[optind - 1], optopt > 0 && optopt < 256 ? optopt : 0);
		if (c == ':') {
			const char *arg = argv[optind - 1];
			if (optopt > 0 && optopt < 256 && strncmp(arg, "--", 2) != 0)
				return gp_cli_usage(spec->name, "option -%c wants a value", optopt);
			return gp_cli_usage(spec->name, "option %.*s wants a value", (int)strcspn(arg, "="), arg);
		}
		if (c == 'h') {
			gp_cli_help(spec, stdout);
			return GP_CLI_DONE;
		}
		for (int i = 0; i < NSHARED && !found; i++) {
			const struct shared_opt *s = &shared_opts[i];
			if ((spec->shared & s->bit) && (s->short_name ? c == s->short_name : c == CODE_SHARED + i)) {
				found = 1;
				if ((rc = s->parse(spec->name, optarg, o)) != 0)
					return rc;
			}
		}
		for (int i = 0; spec->own && spec->own[i].name && !found; i++) {
			const struct gp_cmd_opt *x = &spec->own[i];
			if (x->short_name ? c == x->short_name : c == CODE_OWN + i) {
				found = 1;
				if ((rc = own(ctx, i, optarg)) != 0)
					return rc;
			}
		}
		if (!found)
			return gp_cli_usage(spec->name, "bad option");
	}
	if (spec->two_files) {
		if (optind != argc - 2)
			return gp_cli_usage(spec->name, "expected two trace files (%s)", spec->two_files);
		o->file2 = argv[optind + 1];
	} else if (spec->many_files ? optind >= argc : optind != argc - 1) {
		return gp_cli_usage(spec->name, spec->many_files ? "expected a trace file, a directory or a glob"
				    : "expected exactly one trace file");
	}
	o->file = argv[optind];
	o->files = argv + optind;
	o->nfiles = argc - optind;
	if (o->window.mode == GP_WINDOW_TIME && o->window.start_rel == o->window.end_rel &&
	    (o->window.start_rel ? o->window.rel_end < o->window.rel_start : o->window.end < o->window.start))
		return gp_cli_usage(spec->name, "--end is before --start");
	if (!format_known(spec, o->format))
		return gp_cli_usage(spec->name, "unknown output format '%s' (valid: %s)", o->format,
				    gp_name_list(names, list, sizeof(list)));
	if (spec->shared & GP_OPT_OPS_FILE)
		return ops_files(spec->name, o);
	return 0;
}

/* One option line: "  -f, --format F      help", continuation lines
** indented under the help. */
static void help_line(FILE *out, int short_name, const char *name, const char *arg, const char *help)
{
	char left[64];
	int n;

	if (short_name)
		n = snprintf(left, sizeof(left), "-%c, --%s%s%s", short_name, name, arg ? " " : "", arg ? arg : "");
	else
		n = snprintf(left, sizeof(left), "    --%s%s%s", name, arg ? " " : "", arg ? arg : "");
	if (n > 19)
		fprintf(out, "  %s\n%22s", left, "");
	else
		fprintf(out, "  %-20s", left);
	for (; *help; help++) {
		fputc(*help, out);
		if (*help == '\n')
			fprintf(out, "%22s", "");
	}
	fputc('\n', out);
}

void gp_cli_help(const struct gp_cmd_spec *spec, FILE *out)
{
	const char *names[32];
	char first[64], list[512], help[768];

	fprintf(out, "usage: gpuprof %s [OPTIONS] %s\n\n%s\n\n", spec->name,
		spec->usage ? spec->usage : spec->two_files ? spec->two_files : spec->many_files ? "FILE..." : "FILE",
		spec->about);
	for (int i = 0; i < NSHARED; i++) {
		const struct shared_opt *s = &shared_opts[i];
		if (!(spec->shared & s->bit))
			continue;
		if (s->bit == GP_OPT_FORMAT) {
			format_names(spec, names, 32);
			snprintf(first, sizeof(first), "%s (default)", names[0]);
			names[0] = first;
			snprintf(help, sizeof(help), "%s%s%s", gp_name_list(names, list, sizeof(list)),
				 spec->format_note ? "\n" : "", spec->format_note ? spec->format_note : "");
			help_line(out, s->short_name, s->name, s->arg, help);
		} else {
			help_line(out, s->short_name, s->name, s->arg,
				  s->bit == GP_OPT_TOP && spec->top_help ? spec->top_help : s->help);
		}
	}
	for (int i = 0; spec->own && spec->own[i].name; i++)
		help_line(out, spec->own[i].short_name, spec->own[i].name, spec->own[i].arg, spec->own[i].help);
	help_line(out, 'h', "help", NULL, "this text");
	fprintf(out, "\n%s%s%s%s", spec->more ? spec->more : "", spec->more ? "\n\n" : "",
		!spec->many_files ? "" : spec->many_help ? spec->many_help : gp_many_files_help, spec->exit_help ? spec->exit_help : gp_exit_help);
}
