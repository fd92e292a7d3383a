/*
** gpuprof ranges: statistics per range, keyed by its nesting path
** ("iteration/forward/layer:Conv1"), so that annotated CPU-only recordings
** (libgpuprof) are useful as well as NVTX ranges of any trace.  Marker
** texts are keyed by their short label (one parse per distinct text), so
** PyProf's kilobyte dict markers group by op, not by their arguments.  GPU timer
** statistics of a libgpuprof recording (metadata "gpu-timer NAME") follow
** as rows of kind gpu-timer.
*/
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/markers.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "writers/writer.h"

static const struct gp_cmd_opt ranges_own[] = {
	{"name-only", 0, NULL, "group by range name, not by nesting path (long\n"
	 "option only: -n is --top, as in every command)"},
	{"full-paths", 0, NULL, "every level of a path deeper than 8 ranges (by\n"
	 "default its first 3 and last 4 levels around '...')"},
	{NULL, 0, NULL, NULL},
};

static const struct gp_cmd_spec ranges_spec = {
	.name = "ranges",
	.about =
	"One row per distinct range path (a range's name preceded by the names of\n"
	"the ranges enclosing it on its thread, joined with '/'; a path deeper\n"
	"than 8 ranges, a Python call stack, as its first 3 and last 4 levels\n"
	"around '...', --full-paths for all): NVTX push/pop and\n"
	"start/end ranges, marks, framework ops and annotations, libgpuprof timers\n"
	"and training markers; sorted by total time.  Times in human units in the\n"
	"table, in ns in csv, tsv and json.\n"
	"Marker texts show a short name: a PyProf dict marker its module and op\n"
	"(torch.nn.functional.conv2d) or call site (trace model.py:12), an\n"
	"emit_nvtx range its op (aten::mm); PyProf's per-op markers are not path\n"
	"components of what they enclose.  -f json adds \"text\": the full text of\n"
	"the row's first range (docs/markers.md).",
	.shared = GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_JOBS | GP_OPT_WINDOW,
	.many_files = true,
	.row_formats = true,
	.own = ranges_own,
};

static const struct gp_column cols[] = {
	{"calls", "Calls", 5, true, false, NULL},
	{"total_ns", "Total", 10, true, false, NULL, GP_UNIT_NS},
	{"avg_ns", "Avg", 8, true, false, NULL, GP_UNIT_NS},
	{"min_ns", "Min", 8, true, false, NULL, GP_UNIT_NS},
	{"max_ns", "Max", 8, true, false, NULL, GP_UNIT_NS},
	{"stddev_ns", "StdDev", 8, true, false, NULL, GP_UNIT_NS},
	{"kind", "Kind", 10, false, false, NULL},
	{"name", "Name", 10, false, true, NULL},
	/* json only: the full text behind a short name */
	{"text", "Text", 10, false, true, NULL},
};
#define NCOLS ((int)(sizeof(cols) / sizeof(cols[0])) - 1)   /* without text */

struct stat_row {
	gp_str name;
	gp_str text;            /* full text of the row's first range */
	uint8_t kind;           /* enum gp_range_kind */
	int gpu_timer;
	uint64_t calls;
	double total, min, max, sumsq;
};
typedef GP_VEC(struct stat_row) row_vec;

static int by_total(const void *a, const void *b)
{
	const struct stat_row *x = a, *y = b;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->name < y->name ? -1 : x->name > y->name;
}

static const char *kind_label(const struct stat_row *s)
{
	if (s->gpu_timer)
		return "gpu-timer";
	switch (s->kind) {
	case GP_RANGE_PUSHPOP: return "push";
	case GP_RANGE_STARTEND: return "startend";
	case GP_RANGE_MARK: return "mark";
	case GP_RANGE_CPU_OP: return "op";
	case GP_RANGE_TIMER: return "timer";
	default: return "annotation";
	}
}

/* The name range r shows: NVTX marker texts get their short label
** (gp_marker_label(), docs/markers.md: "torch.nn.functional.conv2d" for a
** PyProf dict marker, "aten::mm" for an emit_nvtx range), other ranges
** their text.  Sets *per_op. */
static gp_str range_label(const struct gp_marker_labels *l, const struct gp_range *r, bool *per_op)
{
	bool nvtx = r->kind == GP_RANGE_PUSHPOP || r->kind == GP_RANGE_STARTEND || r->kind == GP_RANGE_MARK;

	*per_op = false;
	if (!nvtx)
		return r->text;
	return gp_marker_labels_get(l, r->text, per_op);
}

/* How range_paths names a row: its path cut (PATH_HEAD levels, "...", the
** last PATH_TAIL levels) when deeper than PATH_MAX levels, its name alone
** (--name-only) or its whole path (--full-paths). */
enum path_mode { PATHS_CUT, PATHS_NAME_ONLY, PATHS_FULL };
#define PATH_MAX_LEVELS 8
#define PATH_HEAD 3
#define PATH_TAIL 4

/* The row key of every range: its label preceded by the path of the
** ranges enclosing it, joined with '/' (parents first: gp_trace_finish
** orders ranges so that a parent precedes what it encloses); a path of
** more than PATH_MAX_LEVELS levels (a Python call stack of a serving
** engine is hundreds deep) as its first PATH_HEAD and last PATH_TAIL
** levels around "..." unless mode is PATHS_FULL; the label alone with
** PATHS_NAME_ONLY.  PyProf's per-op markers name their own row but are not
** path components of what they enclose: they mark one call (PyProf nests
** its traceMarker and op markers into each other, hundreds deep), so an
** op's row is grouped by the scopes around it (layer:, user ranges,
** emit_nvtx ops), not by the call chain of markers.  Each range's levels
** are read by walking up its enclosing components, so no whole path is
** built unless asked for.  Returns a new array. */
static gp_str *range_paths(gp_trace *t, enum path_mode mode)
{
	size_t n = t->ranges.n ? t->ranges.n : 1;
	gp_str *path = gp_xcalloc(n, sizeof(*path));
	gp_str *label = gp_xcalloc(n, sizeof(*label));
	int32_t *outer = gp_xmalloc(n * sizeof(*outer));   /* the enclosing component, -1 none */
	int32_t *scope = gp_xmalloc(n * sizeof(*scope));   /* the component its children extend */
	uint32_t *levels = gp_xcalloc(n, sizeof(*levels)); /* levels of its path */
	GP_VEC(int32_t) chain = {0};
	GP_VEC(char) buf = {0};
	struct gp_marker_labels l;

	gp_marker_labels_init(&l, t);
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		bool per_op;
		label[i] = range_label(&l, r, &per_op);
		outer[i] = mode != PATHS_NAME_ONLY && r->parent >= 0 && (size_t)r->parent < i ? scope[r->parent] : -1;
		levels[i] = (outer[i] >= 0 ? levels[outer[i]] : 0) + 1;
		scope[i] = per_op ? outer[i] : (int32_t)i;
		if (outer[i] < 0) {
			path[i] = label[i];
			continue;
		}
		/* the levels shown, innermost first */
		bool cut = mode == PATHS_CUT && levels[i] > PATH_MAX_LEVELS;
		chain.n = 0;
		for (int32_t x = (int32_t)i; x >= 0; x = outer[x])
			if (!cut || levels[x] <= PATH_HEAD || levels[x] > levels[i] - PATH_TAIL)
				*gp_vec_push(chain) = x;
		buf.n = 0;
		for (size_t k = chain.n; k-- > 0;) {
			const char *tx = gp_s(t, label[chain.v[k]]);
			size_t len = strlen(tx);
			gp_vec_reserve(buf, buf.n + len + 6);
			if (k + 1 < chain.n) {
				if (cut && levels[chain.v[k]] == levels[i] - PATH_TAIL + 1) {
					memcpy(buf.v + buf.n, "/...", 4);
					buf.n += 4;
				}
				buf.v[buf.n++] = '/';
			}
			memcpy(buf.v + buf.n, tx, len);
			buf.n += len;
		}
		buf.v[buf.n] = '\0';
		path[i] = gp_intern(t, buf.v);
	}
	gp_vec_free(buf);
	gp_vec_free(chain);
	free(levels);
	free(scope);
	free(outer);
	free(label);
	gp_marker_labels_free(&l);
	return path;
}

/* Adds the gpu-timer metadata of a libgpuprof recording as rows. */
static void add_gpu_timers(gp_trace *t, row_vec *rows)
{
	const char *prefix = "gpu-timer ";
	size_t plen = strlen(prefix);

	for (size_t i = 0; i < t->meta.n; i++) {
		const char *k = gp_s(t, t->meta.v[i].key);
		unsigned long long calls;
		double total, min, max, sumsq;
		if (strncmp(k, prefix, plen) != 0 ||
		    sscanf(gp_s(t, t->meta.v[i].value), "calls=%llu total_ns=%lf min_ns=%lf max_ns=%lf sumsq_ns2=%lf",
			   &calls, &total, &min, &max, &sumsq) != 5)
			continue;
		struct stat_row *s = gp_vec_push(*rows);
		s->name = gp_intern(t, k + plen);
		s->text = s->name;
		s->gpu_timer = 1;
		s->calls = calls;
		s->total = total;
		s->min = min;
		s->max = max;
		s->sumsq = sumsq;
	}
}

/* Writes the first n rows to w (as many cells as w has columns). */
static void print_rows(gp_writer *w, gp_trace *t, struct stat_row *rows, size_t n)
{
	char v[6][32];
	const char *vals[NCOLS + 1];

	for (size_t i = 0; i < n; i++) {
		const struct stat_row *s = &rows[i];
		double avg = s->calls ? s->total / (double)s->calls : 0, sd = 0;
		if (s->calls > 1) {
			double var = (s->sumsq - (double)s->calls * avg * avg) / (double)(s->calls - 1);
			sd = var > 0 ? sqrt(var) : 0;
		}
		snprintf(v[0], sizeof(v[0]), "%" PRIu64, s->calls);
		snprintf(v[1], sizeof(v[1]), "%.0f", s->total);
		snprintf(v[2], sizeof(v[2]), "%.1f", avg);
		snprintf(v[3], sizeof(v[3]), "%.0f", s->min);
		snprintf(v[4], sizeof(v[4]), "%.0f", s->max);
		snprintf(v[5], sizeof(v[5]), "%.1f", sd);
		for (int c = 0; c < 6; c++)
			vals[c] = v[c];
		vals[6] = kind_label(s);
		vals[7] = gp_s(t, s->name);
		vals[8] = gp_s(t, s->text);
		gp_writer_row(w, vals);
	}
}

/* What ranges does with each trace (gp_cli_trace_fn). */
struct job {
	enum path_mode paths;
	size_t top;
};

/* --name-only (index 0) and --full-paths (1): the path mode, the last one
** given winning. */
static int ranges_option(void *ctx, int index, const char *arg)
{
	((struct job *)ctx)->paths = index == 0 ? PATHS_NAME_ONLY : PATHS_FULL;
	return 0;
}

static int ranges_trace(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	const struct job *j = ctx;
	row_vec rows = {0};

	gp_str *path = range_paths(t, j->paths);
	/* row index per (path, kind): the string table's ids are dense */
	size_t nids = t->strs.n;
	size_t nslots = (nids ? nids : 1) * (GP_RANGE_OTHER + 1);
	int32_t *slot = gp_xmalloc(nslots * sizeof(int32_t));
	memset(slot, 0xff, nslots * sizeof(int32_t));   /* -1: no row yet */
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		uint8_t kind = r->kind > GP_RANGE_OTHER ? GP_RANGE_OTHER : r->kind;
		int32_t *sl = &slot[(size_t)path[i] * (GP_RANGE_OTHER + 1) + kind];
		double d = (double)(r->end - r->start);
		if (*sl < 0) {
			struct stat_row *s = gp_vec_push(rows);
			s->name = path[i];
			s->text = r->text;
			s->kind = kind;
			s->min = d;
			s->max = d;
			*sl = (int32_t)(rows.n - 1);
		}
		struct stat_row *s = &rows.v[*sl];
		s->calls++;
		s->total += d;
		s->sumsq += d * d;
		if (d < s->min)
			s->min = d;
		if (d > s->max)
			s->max = d;
	}
	free(slot);
	free(path);
	add_gpu_timers(t, &rows);
	if (rows.n)
		qsort(rows.v, rows.n, sizeof(*rows.v), by_total);
	print_rows(w, t, rows.v, rows.n < j->top ? rows.n : j->top);
	gp_vec_free(rows);
	return GP_OK;
}

int cmd_ranges(int argc, char **argv)
{
	struct job j = {.paths = PATHS_CUT};
	struct gp_cli_many m = {.cmd = "ranges", .fn = ranges_trace, .ctx = &j, .cols = cols};
	struct gp_cli_opts o;
	int rc;

	rc = gp_cli_parse(&ranges_spec, argc, argv, &o, ranges_option, &j);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	j.top = o.top;
	m.ncols = strcmp(o.format, "json") == 0 ? NCOLS + 1 : NCOLS;
	return gp_cli_run(&m, &o);
}
