/*
** Helpers shared by the commands: loading with progress, usage errors,
** opening an output file, the breakdown sums advise uses.
*/
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "cmds/cmds.h"
#include "analysis/correlate.h"
#include "readers/reader.h"
#include "analysis/breakdown.h"
#include "ops/advise.h"

const char gp_exit_help[] =
	"Exit codes:\n"
	"  0  success (also for a valid trace that has no kernels)\n"
	"  1  internal error or out of memory\n"
	"  2  bad command line\n"
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

int gp_cli_load(const char *path, gp_trace *t)
{
	struct progress p = {.tty = isatty(2)};
	struct gp_load_opts o = {.progress = show_progress, .progress_ctx = &p};
	struct gp_correlate_opts co = {0};
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

/* fopencookie's write and close for a gzip stream. */
static ssize_t gz_write(void *cookie, const char *buf, size_t size)
{
	if (!size)
		return 0;
	int n = gzwrite((gzFile)cookie, buf, (unsigned)size);
	return n > 0 ? n : -1;
}

static int gz_close(void *cookie)
{
	return gzclose((gzFile)cookie) == Z_OK ? 0 : EOF;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

FILE *gp_cli_open_output(const char *cmd, const char *path, bool force)
{
	int fd = open(path, O_WRONLY | O_CREAT | (force ? O_TRUNC : O_EXCL), 0666);
	if (fd < 0) {
		if (errno == EEXIST)
			fprintf(stderr, "gpuprof %s: %s exists (--force overwrites it)\n", cmd, path);
		else
			fprintf(stderr, "gpuprof %s: %s: %s\n", cmd, path, strerror(errno));
		return NULL;
	}
	if (!ends_with(path, ".gz")) {
		FILE *f = fdopen(fd, "w");
		if (!f)
			close(fd);
		return f;
	}
	/* level 1: on a 1M-kernel export level 6 costs twice the time of
	** everything else for a file 20% smaller (docs/PERFORMANCE.md) */
	gzFile gz = gzdopen(fd, "wb1");
	if (!gz) {
		close(fd);
		return NULL;
	}
	/* big gzip blocks: zlib's default 8 KiB calls deflate too often */
	gzbuffer(gz, 256 * 1024);
	FILE *f = fopencookie(gz, "w", (cookie_io_functions_t){.write = gz_write, .close = gz_close});
	if (!f)
		gzclose(gz);
	return f;
}

_Static_assert(sizeof(((struct gp_advise_time *)0)->idle_cause_ns) / sizeof(double) == GP_IDLE__COUNT,
	       "gp_advise_time keeps one sum per idle cause");

void gp_cli_advise_time(const struct gp_breakdown *b, struct gp_advise_time *bt)
{
	for (size_t i = 0; i < b->nwin; i++) {
		const struct gp_bd_window *w = &b->win[i];
		gp_ns hidden = w->by_mask[GP_BD_COMPUTE | GP_BD_COMM] +
			       w->by_mask[GP_BD_COMPUTE | GP_BD_COMM | GP_BD_MEMORY];
		if (w->iter >= 0)
			continue;
		bt->comm_ns += (double)gp_bd_kind_time(w, GP_BD_COMM);
		bt->comm_exposed_ns += (double)(gp_bd_kind_time(w, GP_BD_COMM) - hidden);
		bt->idle_ns += (double)w->by_mask[0];
		for (int c = 0; c < GP_IDLE__COUNT; c++)
			bt->idle_cause_ns[c] += (double)w->idle[c];
	}
}

void gp_cli_remove_output(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		unlink(path);
}
