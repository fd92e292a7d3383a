/*
** Helpers shared by the commands: loading with progress, usage errors.
*/
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cmds/cmds.h"
#include "analysis/correlate.h"
#include "analysis/window.h"
#include "readers/reader.h"

const char gp_exit_help[] =
	"Exit codes:\n"
	"  0  success (also for a valid trace that has no kernels)\n"
	"  1  internal error or out of memory\n"
	"  2  bad command line, or a window (--iters) with none of the trace's\n"
	"     iterations\n"
	"  3  cannot read the input (missing, no permission, a pipe) or write\n"
	"     the output\n"
	"  4  input not a trace: not recognised, truncated or corrupt, empty,\n"
	"     a directory or a device\n";

struct progress {
	struct timespec t0;
	int shown;
	int tty;
};

static double elapsed(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;

	if (!p->tty || elapsed(&p->t0) < 1.0)
		return;
	if (total)
		fprintf(stderr, "\rgpuprof: reading... %3.0f%%", 100.0 * (double)done / (double)total);
	else
		fprintf(stderr, "\rgpuprof: reading... %llu", (unsigned long long)done);
	p->shown = 1;
}

/* The load options the environment sets (docs/kineto.md): GPUPROF_THREADS
** (a number >= 1, else every CPU) and GPUPROF_PARALLEL_MIN_BYTES (a byte
** count; 0 splits every file, which is what 1 byte does too). */
static void load_opts_from_env(struct gp_load_opts *o)
{
	const char *s = getenv("GPUPROF_THREADS");
	char *end;

	if (s) {
		long n = strtol(s, &end, 10);
		if (!*end && n >= 1)
			o->threads = n > INT_MAX ? INT_MAX : (int)n;
	}
	s = getenv("GPUPROF_PARALLEL_MIN_BYTES");
	if (s) {
		unsigned long long n = strtoull(s, &end, 10);
		if (!*end)
			o->parallel_min_bytes = n ? n : 1;
	}
}

int gp_cli_load(const char *path, const struct gp_window *w, gp_trace *t, gp_ns span[2])
{
	struct progress p = {.tty = isatty(2)};
	struct gp_load_opts o = {.progress = show_progress, .progress_ctx = &p, .window = *w};
	gp_ns lo, hi;
	struct gp_correlate_opts co = {.window_cut = w->mode != GP_WINDOW_NONE};
	gp_error err = {0};
	int rc;

	load_opts_from_env(&o);
	clock_gettime(CLOCK_MONOTONIC, &p.t0);
	rc = gp_trace_load(path, t, &o, &err);
	if (rc) {
		if (p.shown)
			fprintf(stderr, "\r%40s\r", "");
		gp_err_print(&err);
		return gp_exit_code(err.status);
	}
	/* the correlation pass takes seconds on million-kernel traces too */
	if (p.tty && elapsed(&p.t0) >= 1.0) {
		fprintf(stderr, "\rgpuprof: correlating... ");
		p.shown = 1;
	}
	rc = gp_correlate(t, &co, &err);
	if (p.shown)
		fprintf(stderr, "\r%40s\r", "");
	if (!rc)
		rc = gp_window_apply(t, w, &lo, &hi, &err);
	if (!rc && span) {
		span[0] = lo;
		span[1] = hi;
	}
	if (rc) {
		gp_err_print(&err);
		return gp_exit_code(err.status);
	}
	return GP_EXIT_OK;
}

int gp_cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpuprof %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'gpuprof %s --help')\n", cmd);
	return GP_EXIT_USAGE;
}
