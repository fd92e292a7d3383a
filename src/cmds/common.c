/*
** Helpers shared by the commands: the FILE arguments expanded (files,
** directories, globs), loading with progress, usage errors, opening an
** output file.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
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
#include "cmds/options.h"
#include "analysis/analysis.h"
#include "analysis/correlate.h"
#include "analysis/window.h"
#include "readers/reader.h"
#include "util/alloc.h"

const char gp_exit_help[] =
	"Exit codes:\n"
	"  0  success; also for a valid trace that has no kernels, where a\n"
	"     command about kernels says \"this trace has no kernels\" instead\n"
	"  1  internal error or out of memory\n"
	"  2  bad command line, or a window (--iters) with none of the trace's\n"
	"     iterations\n"
	"  3  cannot read the input (missing, no permission, a pipe) or write\n"
	"     the output\n"
	"  4  input not a trace: not recognised, truncated or corrupt, empty,\n"
	"     a directory (for commands of one FILE) or a device\n"
	"  5  diff: a --fail-if limit was crossed by a change (a significant one\n"
	"     when both runs have iterations to compare)\n";

const char gp_many_files_help[] =
	"Several traces: give several FILEs, a directory (the trace files in it,\n"
	"by name; other files are skipped with a note) or a quoted glob\n"
	"('run/rank*.json.gz').  Each file is one rank (from its metadata, else\n"
	"its name: rank-3, rank3, _3., else its position; docs/ranks.md); the\n"
	"rows get a leading 'rank' column, one rank after another, each rank's\n"
	"rows those of the file alone.  Files are read -j at a time.  A file\n"
	"that fails stops the command after all are read, with its error.\n\n";

static double elapsed(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

void gp_cli_progress_start(struct gp_cli_progress *p, const char *what)
{
	const char *after = getenv("GPUPROF_PROGRESS_AFTER");
	char *end;

	memset(p, 0, sizeof(*p));
	p->tty = isatty(2);
	p->what = what;
	p->after = 1.0;
	if (after) {
		double v = strtod(after, &end);
		if (!*end && v >= 0)
			p->after = v;
	}
	clock_gettime(CLOCK_MONOTONIC, &p->t0);
}

void gp_cli_progress_show(void *ctx, uint64_t done, uint64_t total)
{
	struct gp_cli_progress *p = ctx;

	if (!p->tty || elapsed(&p->t0) < p->after)
		return;
	if (total)
		fprintf(stderr, "\rgpuprof: %s... %3.0f%%", p->what,
			100.0 * (double)(done < total ? done : total) / (double)total);
	else
		fprintf(stderr, "\rgpuprof: %s... %llu", p->what, (unsigned long long)done);
	p->shown = 1;
}

void gp_cli_progress_end(struct gp_cli_progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%40s\r", "");
	p->shown = 0;
}

/* The load options the environment sets (docs/kineto.md): GPUPROF_THREADS
** (a number >= 1, else every CPU), GPUPROF_PARALLEL_MIN_BYTES (a byte
** count; 0 splits every file, which is what 1 byte does too) and
** GPUPROF_GZIP_KEEP (inflated bytes a gzip window read keeps to inflate
** once; 0 keeps none, as 1 byte does; docs/window.md). */
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
	s = getenv("GPUPROF_GZIP_KEEP");
	if (s && *s) {
		unsigned long long n = strtoull(s, &end, 10);
		if (!*end)
			o->gzip_keep_bytes = n ? n : 1;
	}
}

void gp_cli_load_opts(struct gp_load_opts *o, const struct gp_cli_opts *co)
{
	memset(o, 0, sizeof(*o));
	load_opts_from_env(o);
	o->window = co->window;
	o->captures = (struct gp_capture_opts){co->capture, (size_t)co->ncapture, co->no_capture};
}

int gp_cli_load_quiet(const char *path, gp_trace *t, const struct gp_load_opts *o, const struct gp_peak_opts *po,
		      gp_error *err)
{
	struct gp_correlate_opts co = {.window_cut = o->window.mode != GP_WINDOW_NONE || gp_window_filters(&o->window)};
	gp_ns a, b;
	int rc = gp_trace_load(path, t, o, err);

	if (!rc)
		gp_fmt_note_clock(t->clock_res);
	if (!rc)
		rc = gp_correlate(t, &co, err);
	return rc ? rc : gp_window_apply(t, &o->window, po, &a, &b, err);
}

/* The note of a time window or a filter that holds none of the trace's
** kernels: any, whether the read kept kernels (the trace runs first..last,
** from its start; a window read of an absolute window far from the trace
** keeps none), lo..hi the window from the trace start. */
static void empty_window_note(const char *path, const struct gp_window *w, bool any, gp_ns lo, gp_ns hi,
			      gp_ns first, gp_ns last)
{
	char a[32], b[32], c[64];
	bool bare = (w->start != GP_NS_MIN && !w->start_rel) || (w->end != GP_NS_MAX && !w->end_rel);
	const char *hint = bare ? "; a bare number is ns on the trace's clock, a unit (--start 14.5ms) "
			   "counts from the trace start" : "";

	if (w->mode != GP_WINDOW_TIME) {
		fprintf(stderr, "gpuprof: note: %s: no kernel is one that --name, --layer, --range select\n", path);
		return;
	}
	if (!any) {
		fprintf(stderr, "gpuprof: note: %s: the window holds no kernels%s\n", path, hint);
		return;
	}
	snprintf(c, sizeof(c), "%s", gp_fmt_duration((double)first, a, sizeof(a)));
	fprintf(stderr, "gpuprof: note: %s: the window %s-%s holds no kernels%s: the trace runs %s-%s "
		"(from its start)%s\n", path,
		w->start == GP_NS_MIN && !w->start_rel ? "start" : gp_fmt_duration((double)lo, a, sizeof(a)),
		w->end == GP_NS_MAX && !w->end_rel ? "end" : gp_fmt_duration((double)hi, b, sizeof(b)),
		gp_window_filters(w) ? " that --name, --layer, --range select" : "", c,
		gp_fmt_duration((double)last, b, sizeof(b)), hint);
}

int gp_cli_load(const char *path, const struct gp_cli_opts *opts, gp_trace *t, gp_ns span[2])
{
	struct gp_cli_progress p;
	struct gp_load_opts o;
	const struct gp_window *w = &opts->window;
	struct gp_correlate_opts co = {.window_cut = w->mode != GP_WINDOW_NONE || gp_window_filters(w)};
	gp_ns lo, hi, first = 0, last = 0, origin;
	gp_error err = {0};
	int rc;

	gp_cli_load_opts(&o, opts);
	o.progress = gp_cli_progress_show;
	o.progress_ctx = &p;
	gp_cli_progress_start(&p, "reading");
	rc = gp_trace_load(path, t, &o, &err);
	if (rc) {
		gp_cli_progress_end(&p);
		gp_err_print(&err);
		return gp_exit_code(err.status);
	}
	gp_fmt_note_clock(t->clock_res);   /* durations print at the trace's clock step */
	/* the correlation pass takes seconds on million-kernel traces too */
	if (p.tty && elapsed(&p.t0) >= p.after) {
		fprintf(stderr, "\rgpuprof: correlating... ");
		p.shown = 1;
	}
	rc = gp_correlate(t, &co, &err);
	gp_cli_progress_end(&p);
	origin = gp_trace_start(t);
	bool any = t->kernels.n && gp_trace_span(t, &first, &last);
	if (!rc)
		rc = gp_window_apply(t, w, &opts->peaks, &lo, &hi, &err);
	if (!rc && !t->kernels.n && (any || w->mode == GP_WINDOW_TIME))
		empty_window_note(path, w, any, lo - origin, hi - origin, first - origin, last - origin);
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

static void add_path(struct gp_cli_inputs *in, const char *path)
{
	*gp_vec_push(in->paths) = gp_xstrdup(path);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dir joined with name by one '/'; the caller frees it. */
static char *path_join(const char *dir, const char *name)
{
	size_t len = strlen(dir);
	char *path = gp_xmalloc(len + strlen(name) + 2);

	sprintf(path, "%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/", name);
	return path;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* True when dir's last component is name (trailing slashes ignored). */
static bool last_is(const char *dir, const char *name)
{
	size_t len = strlen(dir), n = strlen(name);

	while (len > 1 && dir[len - 1] == '/')
		len--;
	return len >= n && memcmp(dir + len - n, name, n) == 0 &&
	       (len == n || dir[len - n - 1] == '/');
}

/* The folder of profile runs a TensorBoard log directory holds
** (`LOGDIR/plugins/profile/<run>/<host>.xplane.pb`, docs/trace-model.md
** "XPlane mapping"): dir/plugins/profile, dir/profile when dir is the
** `plugins` folder, or dir itself when it is `plugins/profile`; NULL when
** dir is none of these.  The caller frees it. */
static char *profile_runs_dir(const char *dir)
{
	char *p = path_join(dir, "plugins/profile");

	if (is_dir(p))
		return p;
	free(p);
	if (last_is(dir, "plugins")) {
		p = path_join(dir, "profile");
		if (is_dir(p))
			return p;
		free(p);
	}
	return last_is(dir, "plugins/profile") ? gp_xstrdup(dir) : NULL;
}

static int by_name(const void *a, const void *b);

/* The run folder of the profile-runs folder runs (profile_runs_dir) to
** read: the only one, or the newest by name (JAX and TensorFlow name a
** run by its start, `YYYY_MM_DD_HH_MM_SS`) with one note on stderr naming
** the others.  Returns the path (the caller frees it), or NULL after
** printing why with *rc set: GP_EXIT_IO when runs cannot be listed,
** GP_EXIT_FORMAT when it holds no run folder. */
static char *newest_run(const char *cmd, const char *runs, int *rc)
{
	GP_VEC(char *) names = {0};
	struct dirent *e;
	DIR *d = opendir(runs);
	char *path = NULL;

	if (!d) {
		fprintf(stderr, "gpuprof: %s: cannot open: %s\n", runs, strerror(errno));
		*rc = GP_EXIT_IO;
		return NULL;
	}
	while ((e = readdir(d)) != NULL) {
		char *p;
		if (e->d_name[0] == '.')
			continue;
		p = path_join(runs, e->d_name);
		if (is_dir(p))
			*gp_vec_push(names) = gp_xstrdup(e->d_name);
		free(p);
	}
	closedir(d);
	if (!names.n) {
		fprintf(stderr, "gpuprof: %s: no profile run folder in this directory\n", runs);
		gp_vec_free(names);
		*rc = GP_EXIT_FORMAT;
		return NULL;
	}
	qsort(names.v, names.n, sizeof(*names.v), by_name);
	path = path_join(runs, names.v[names.n - 1]);
	if (names.n > 1) {
		/* one line: the run read, then the others, newest first */
		fprintf(stderr, "gpuprof %s: note: %zu profile runs in %s: reading the newest, %s (others:",
			cmd, names.n, runs, names.v[names.n - 1]);
		for (size_t i = names.n - 1; i-- > 0;)
			fprintf(stderr, " %s", names.v[i]);
		fprintf(stderr, "; name a run folder to read another)\n");
	}
	for (size_t i = 0; i < names.n; i++)
		free(names.v[i]);
	gp_vec_free(names);
	return path;
}

/* Adds the trace files of directory dir, by name; notes on stderr which
** entries were skipped and why (one line per entry: a directory of 1,000
** ranks has few other files).  A TensorBoard log directory (or its
** `plugins`, `plugins/profile` folders) stands for its newest profile
** run's folder (newest_run).  GP_EXIT_IO when it cannot be listed,
** GP_EXIT_FORMAT when it holds no trace (or no run). */
static int add_dir(struct gp_cli_inputs *in, const char *cmd, const char *dir)
{
	GP_VEC(char *) names = {0};
	struct dirent *e;
	DIR *d;
	size_t before = in->paths.n;
	char *runs = profile_runs_dir(dir);

	if (runs) {
		int rc = GP_EXIT_OK;
		char *run = newest_run(cmd, runs, &rc);
		if (run)
			rc = add_dir(in, cmd, run);
		free(run);
		free(runs);
		return rc;
	}
	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "gpuprof: %s: cannot open: %s\n", dir, strerror(errno));
		return GP_EXIT_IO;
	}
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			*gp_vec_push(names) = gp_xstrdup(e->d_name);
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), by_name);
	for (size_t i = 0; i < names.n; i++) {
		char *path = path_join(dir, names.v[i]);
		gp_error err = {0};
		if (is_dir(path))
			fprintf(stderr, "gpuprof %s: note: %s skipped: a directory (not searched)\n", cmd, path);
		else if (gp_trace_foreign(path, &err))
			fprintf(stderr, "gpuprof %s: note: skipped %s\n", cmd, err.msg);
		else
			*gp_vec_push(in->paths) = path, path = NULL;
		free(path);
		free(names.v[i]);
	}
	gp_vec_free(names);
	if (in->paths.n == before) {
		fprintf(stderr, "gpuprof: %s: no trace file in this directory\n", dir);
		return GP_EXIT_FORMAT;
	}
	return GP_EXIT_OK;
}

int gp_cli_inputs(const char *cmd, char *const *args, int nargs, struct gp_cli_inputs *in)
{
	int rc = GP_EXIT_OK;

	memset(in, 0, sizeof(*in));
	for (int i = 0; i < nargs && rc == GP_EXIT_OK; i++) {
		struct stat st;
		glob_t g;
		if (stat(args[i], &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				in->expanded = true;
				rc = add_dir(in, cmd, args[i]);
			} else {
				add_path(in, args[i]);
			}
			continue;
		}
		if (!strpbrk(args[i], "*?[")) {
			add_path(in, args[i]);   /* missing: its load names it */
			continue;
		}
		in->expanded = true;
		if (glob(args[i], 0, NULL, &g) != 0) {
			fprintf(stderr, "gpuprof: %s: no file matches this pattern\n", args[i]);
			rc = GP_EXIT_IO;
			continue;
		}
		size_t before = in->paths.n;
		for (size_t k = 0; k < g.gl_pathc; k++) {
			gp_error err = {0};
			if (gp_trace_foreign(g.gl_pathv[k], &err))
				fprintf(stderr, "gpuprof %s: note: skipped %s\n", cmd, err.msg);
			else
				add_path(in, g.gl_pathv[k]);
		}
		globfree(&g);
		if (in->paths.n == before) {
			fprintf(stderr, "gpuprof: %s: no trace file matches this pattern\n", args[i]);
			rc = GP_EXIT_FORMAT;
		}
	}
	if (rc)
		gp_cli_inputs_free(in);
	return rc;
}

void gp_cli_inputs_free(struct gp_cli_inputs *in)
{
	for (size_t i = 0; i < in->paths.n; i++)
		free(in->paths.v[i]);
	gp_vec_free(in->paths);
}

bool gp_cli_no_kernels(const char *cmd, const char *path, const gp_trace *t, const struct gp_cli_opts *co,
		       bool kernels_only)
{
	if (t->kernels.n || co->window.mode != GP_WINDOW_NONE || gp_window_filters(&co->window) || (!kernels_only && (t->memcpys.n || t->memsets.n)))
		return false;
	fprintf(stderr, "gpuprof %s: %s: this trace has no kernels%s\n", cmd, path,
		t->ranges.n ? " (its ranges: gpuprof ranges FILE)" : "");
	return true;
}

int gp_cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpuprof %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; see 'gpuprof %s --help'\n", cmd);
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

void gp_cli_wrote(const char *cmd, const char *path, const char *more)
{
	struct stat st;
	char size[32] = "";

	if (stat(path, &st) == 0)
		gp_fmt_bytes((double)st.st_size, size, sizeof(size));
	fprintf(stderr, "gpuprof %s: wrote %s%s%s%s%s%s\n", cmd, path, *size ? " (" : "", size, *size ? ")" : "",
		more && *more ? ": " : "", more ? more : "");
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

void gp_cli_analysis_opts(const struct gp_cli_opts *co, struct gp_analysis_opts *ao)
{
	gp_analysis_opts_init(ao);
	ao->peaks = co->peaks;
}

void gp_cli_remove_output(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		unlink(path);
}

/* Where Debian's libjs-chart.js installs Chart.js 3.9's single-file build. */
#define CHARTJS_DEFAULT "/usr/share/javascript/chart.js/chart.min.js"
#define CHARTJS_ENV "GPUPROF_CHARTJS"
/* A charting library larger than this is not the one the pages expect. */
#define CHARTJS_MAX (16 << 20)

char *gp_cli_read_chartjs(const char *cmd, const char *path, size_t *len)
{
	FILE *f;
	char *buf = NULL;
	long n = -1;

	if (!path)
		path = getenv(CHARTJS_ENV) ? getenv(CHARTJS_ENV) : CHARTJS_DEFAULT;
	f = fopen(path, "rb");
	if (f && fseek(f, 0, SEEK_END) == 0)
		n = ftell(f);
	if (f && n >= 0 && n <= CHARTJS_MAX && fseek(f, 0, SEEK_SET) == 0) {
		buf = gp_xmalloc((size_t)n + 1);
		*len = fread(buf, 1, (size_t)n, f);
		buf[*len] = 0;
		if (ferror(f) || *len != (size_t)n) {
			free(buf);
			buf = NULL;
		}
	}
	if (!buf)
		fprintf(stderr,
			"gpuprof %s: %s: %s: the charting library (Chart.js 3) is needed to write the page;\n"
			"  install Debian's package: apt-get install libjs-chart.js\n"
			"  or name another chart.min.js with --chart-js FILE or $" CHARTJS_ENV "\n",
			cmd, path, !f ? strerror(errno) : n > CHARTJS_MAX ? "too large" : "cannot read it");
	if (f)
		fclose(f);
	return buf;
}
