/*
** gpuprof memory: memory over time from the allocator events of a trace
** (Kineto [memory] instants, nsys CUDA memory-usage events): per device the
** peak and final allocated and reserved bytes, per op or layer what it
** allocated and what was still live at the peak, and the series a plot
** uses (bucketed, or every step).  src/analysis/memory.c computes;
** docs/memory.md defines.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/layers.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "writers/writer.h"

enum view { VIEW_DEVICE, VIEW_OP, VIEW_LAYER, VIEW_SERIES, VIEW_STEPS };
static const char *const view_names[] = {"device", "op", "layer", "series", "steps", NULL};

#define DEFAULT_BUCKETS 100
#define MAX_BUCKETS 1000000

static const struct gp_cmd_opt memory_own[] = {
	{"by", 'b', "V", "device (default: peak and final totals per device),\n"
	 "op, layer or module-type (allocations per op, layer path\n"
	 "or the layer's module class, and what was live at the\n"
	 "peak), series (highest totals per time bucket) or steps\n"
	 "(every change, exact)"},
	{"buckets", 0, "N", "--by series: this many buckets over the trace's span\n"
	 "(default 100)"},
	{NULL, 0, NULL, NULL},
};
enum { OWN_BY, OWN_BUCKETS };

static const struct gp_cmd_spec memory_spec = {
	.name = "memory",
	.about =
	"Allocated and reserved memory over time per device, from the allocator\n"
	"events the profiler recorded (PyTorch profile_memory=True, nsys\n"
	"--cuda-memory-usage=true).  Where the file states the allocator's totals\n"
	"they are used as stated; otherwise they are replayed from the byte counts,\n"
	"starting at 0.  Device 'host' is CPU memory.  Sizes in binary units in the\n"
	"table, in bytes in csv, tsv and json; times in ns on the trace's clock;\n"
	"-n limits the rows per device.  The reader's notes and those about odd\n"
	"events go to standard error.  docs/memory.md.",
	.shared = GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_WINDOW | GP_OPT_DEPTH,
	.row_formats = true,
	.own = memory_own,
};

static const struct gp_column device_cols[] = {
	{"device", "Device", 6, false, false, NULL},
	{"events", "Events", 6, true, false, NULL},
	{"allocs", "Allocs", 6, true, false, NULL},
	{"frees", "Frees", 5, true, false, NULL},
	{"alloc_bytes", "Alloc", 9, true, false, NULL, GP_UNIT_BYTES},
	{"free_bytes", "Freed", 9, true, false, NULL, GP_UNIT_BYTES},
	{"peak_bytes", "Peak", 8, true, false, NULL, GP_UNIT_BYTES},
	{"peak_at_from_trace_start_ns", "Peak at", 12, true, false, NULL, GP_UNIT_SINCE_START},
	{"final_bytes", "Final", 9, true, false, NULL, GP_UNIT_BYTES},
	{"peak_reserved_bytes", "Peak rsv", 12, true, false, NULL, GP_UNIT_BYTES},
	{"final_reserved_bytes", "Final rsv", 13, true, false, NULL, GP_UNIT_BYTES},
	{"live_known_bytes", "Live known", 14, true, false, NULL, GP_UNIT_BYTES},
	{"totals", "Totals", 8, false, false, NULL},
	{"peak_at_abs_ns", "Peak at on the trace's clock", 12, true, false, NULL, GP_UNIT_NS, true},
};

static const struct gp_column group_cols[] = {
	{"device", "Device", 6, false, false, NULL},
	{"allocs", "Allocs", 6, true, false, NULL},
	{"alloc_bytes", "Alloc", 9, true, false, NULL, GP_UNIT_BYTES},
	{"frees", "Frees", 5, true, false, NULL},
	{"free_bytes", "Freed", 9, true, false, NULL, GP_UNIT_BYTES},
	{"live_at_peak_bytes", "Live at peak", 16, true, false, NULL, GP_UNIT_BYTES},
	{"live_count", "Live allocs", 11, true, false, NULL},
	{"name", "Name", 10, false, true, "(none)"},
};

static const struct gp_column series_cols[] = {
	{"device", "Device", 6, false, false, NULL},
	{"time_from_trace_start_ns", "Time", 9, true, false, NULL, GP_UNIT_SINCE_START},
	{"allocated_bytes", "Allocated", 13, true, false, NULL, GP_UNIT_BYTES},
	{"reserved_bytes", "Reserved", 12, true, false, NULL, GP_UNIT_BYTES},
	{"time_abs_ns", "Time on the trace's clock", 9, true, false, NULL, GP_UNIT_NS, true},
};

#define NCOLS(c) ((int)(sizeof(c) / sizeof((c)[0])))

struct opts {
	enum view view;
	struct gp_layer_view layers;   /* --depth, --by module-type */
	size_t buckets;
};

static int memory_option(void *ctx, int index, const char *arg)
{
	struct opts *o = ctx;
	char *end;

	if (index == OWN_BY) {
		o->layers.module_type = strcmp(arg, "module-type") == 0;
		if (o->layers.module_type) {
			o->view = VIEW_LAYER;
			return 0;
		}
		for (int i = 0; view_names[i]; i++)
			if (strcmp(arg, view_names[i]) == 0) {
				o->view = (enum view)i;
				return 0;
			}
		return gp_cli_usage("memory", "--by wants device, op, layer, module-type, series or steps, not '%s'",
				    arg);
	}
	unsigned long long n = strtoull(arg, &end, 10);
	if (*arg == '-' || *end || n < 1 || n > MAX_BUCKETS)
		return gp_cli_usage("memory", "--buckets wants a whole number from 1 to %d, not '%s'",
				    MAX_BUCKETS, arg);
	o->buckets = (size_t)n;
	return 0;
}

static const char *device_label(int32_t id, char *buf, size_t size)
{
	if (id == GP_MEM_HOST)
		return "host";
	snprintf(buf, size, "%d", (int)id);
	return buf;
}

/* A byte figure, NULL ("na") when not stated (-1). */
static const char *bytes_or_na(int64_t v, char *buf, size_t size)
{
	if (v == -1)
		return NULL;
	snprintf(buf, size, "%" PRId64, v);
	return buf;
}

static void device_rows(gp_writer *w, const gp_trace *t, const struct gp_memory *m, size_t top)
{
	char v[14][32];
	gp_ns origin = gp_trace_start(t);
	const char *vals[NCOLS(device_cols)];

	for (size_t i = 0; i < m->devices.n && i < top; i++) {
		const struct gp_mem_device *d = &m->devices.v[i];
		vals[0] = device_label(d->device, v[0], sizeof(v[0]));
		snprintf(v[1], sizeof(v[1]), "%" PRIu64, d->events);
		snprintf(v[2], sizeof(v[2]), "%" PRIu64, d->allocs);
		snprintf(v[3], sizeof(v[3]), "%" PRIu64, d->frees);
		snprintf(v[4], sizeof(v[4]), "%" PRId64, d->alloc_bytes);
		snprintf(v[5], sizeof(v[5]), "%" PRId64, d->free_bytes);
		snprintf(v[6], sizeof(v[6]), "%" PRId64, d->peak_alloc);
		snprintf(v[7], sizeof(v[7]), "%" PRId64, d->peak_ts - origin);
		snprintf(v[13], sizeof(v[13]), "%" PRId64, d->peak_ts);
		snprintf(v[8], sizeof(v[8]), "%" PRId64, d->final_alloc);
		for (int c = 1; c <= 8; c++)
			vals[c] = v[c];
		vals[9] = bytes_or_na(d->peak_reserved, v[9], sizeof(v[9]));
		vals[10] = bytes_or_na(d->final_reserved, v[10], sizeof(v[10]));
		vals[11] = bytes_or_na(d->live_known, v[11], sizeof(v[11]));
		vals[12] = d->stated ? "stated" : "replayed";
		vals[13] = v[13];
		gp_writer_row(w, vals);
	}
}

/* The groups of one kind (op or layer), at most top per device. */
static void group_rows(gp_writer *w, const gp_trace *t, const struct gp_memory *m, uint8_t by,
		       size_t top)
{
	char v[7][32];
	const char *vals[NCOLS(group_cols)];
	size_t shown = 0;
	int32_t device = INT32_MIN;

	for (size_t i = 0; i < m->groups.n; i++) {
		const struct gp_mem_group *g = &m->groups.v[i];
		if (g->by != by)
			continue;
		if (g->device != device) {
			device = g->device;
			shown = 0;
		}
		if (shown++ >= top)
			continue;
		vals[0] = device_label(g->device, v[0], sizeof(v[0]));
		snprintf(v[1], sizeof(v[1]), "%" PRIu64, g->allocs);
		snprintf(v[2], sizeof(v[2]), "%" PRId64, g->alloc_bytes);
		snprintf(v[3], sizeof(v[3]), "%" PRIu64, g->frees);
		snprintf(v[4], sizeof(v[4]), "%" PRId64, g->free_bytes);
		snprintf(v[6], sizeof(v[6]), "%" PRIu64, g->live_count);
		for (int c = 1; c <= 4; c++)
			vals[c] = v[c];
		vals[5] = bytes_or_na(g->live_at_peak, v[5], sizeof(v[5]));
		vals[6] = g->live_at_peak < 0 ? NULL : v[6];
		vals[7] = g->name ? gp_s(t, g->name) : NULL;
		gp_writer_row(w, vals);
	}
}

/* A row of the series: its time from the trace's start origin. */
static void step_row(gp_writer *w, int32_t device, const struct gp_mem_step *s, gp_ns origin)
{
	char v[5][32];
	const char *vals[NCOLS(series_cols)];

	vals[0] = device_label(device, v[0], sizeof(v[0]));
	snprintf(v[1], sizeof(v[1]), "%" PRId64, s->ts - origin);
	vals[1] = v[1];
	snprintf(v[4], sizeof(v[4]), "%" PRId64, s->ts);
	vals[4] = v[4];
	vals[2] = NULL;
	if (s->allocated != INT64_MIN) {
		snprintf(v[2], sizeof(v[2]), "%" PRId64, s->allocated);
		vals[2] = v[2];
	}
	vals[3] = bytes_or_na(s->reserved, v[3], sizeof(v[3]));
	gp_writer_row(w, vals);
}

/* --by steps: every step of every device; --by series: o->buckets buckets
** over the span of the trace and its memory events.  -n: at most top rows
** per device. */
static void series_rows(gp_writer *w, const gp_trace *t, const struct gp_memory *m,
			const struct opts *o, size_t top)
{
	gp_ns first = INT64_MAX, last = INT64_MIN, origin = gp_trace_start(t);

	if (o->view == VIEW_STEPS) {
		for (size_t i = 0; i < m->devices.n; i++) {
			const struct gp_mem_device *d = &m->devices.v[i];
			for (size_t k = 0; k < d->nsteps && k < top; k++)
				step_row(w, d->device, &m->steps.v[d->step0 + k], origin);
		}
		return;
	}
	if (!gp_trace_span(t, &first, &last))
		first = INT64_MAX, last = INT64_MIN;
	for (size_t i = 0; i < m->devices.n; i++) {
		if (m->devices.v[i].first_ts < first)
			first = m->devices.v[i].first_ts;
		if (m->devices.v[i].last_ts > last)
			last = m->devices.v[i].last_ts;
	}
	if (!m->devices.n)
		return;
	struct gp_mem_step *b = gp_xmalloc(o->buckets * sizeof(*b));
	for (size_t i = 0; i < m->devices.n; i++) {
		gp_memory_buckets(m, &m->devices.v[i], first, last, b, o->buckets);
		for (size_t k = 0; k < o->buckets && k < top; k++)
			step_row(w, m->devices.v[i].device, &b[k], origin);
	}
	free(b);
}

int cmd_memory(int argc, char **argv)
{
	struct opts o = {.view = VIEW_DEVICE, .buckets = DEFAULT_BUCKETS};
	struct gp_cli_opts co;
	struct gp_analysis a;
	gp_writer w;
	gp_error err = {0};
	gp_trace t;
	int rc;

	rc = gp_cli_parse(&memory_spec, argc, argv, &co, memory_option, &o);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	if (co.depth && o.view != VIEW_LAYER)
		return gp_cli_usage("memory", "--depth cuts layer paths: it needs --by layer or module-type");
	o.layers.depth = co.depth;
	const struct gp_column *cols = o.view == VIEW_DEVICE ? device_cols
				     : o.view == VIEW_OP || o.view == VIEW_LAYER ? group_cols : series_cols;
	int ncols = o.view == VIEW_DEVICE ? NCOLS(device_cols)
		  : o.view == VIEW_OP || o.view == VIEW_LAYER ? NCOLS(group_cols) : NCOLS(series_cols);
	if (gp_writer_open(&w, co.format, stdout, cols, ncols, &co.wo, &err))
		return gp_cli_usage("memory", "%s", err.msg);
	gp_trace_init(&t);
	rc = gp_cli_load(co.file, &co, &t, NULL);
	if (rc) {
		gp_trace_free(&t);
		return rc;
	}
	gp_analysis_run(&t, GP_NEED_MEMORY, NULL, &a, &err);   /* the memory pass never fails */
	gp_memory_layers(&t, &a.memory, &o.layers);
	const struct gp_memory *m = &a.memory;
	if (!t.memevents.n)
		fprintf(stderr, "gpuprof memory: note: %s has no memory events (PyTorch: "
			"profile_memory=True; nsys: --cuda-memory-usage=true)\n", co.file);
	for (size_t i = 0; i < t.warnings.n; i++)   /* the reader's: skipped events among them */
		fprintf(stderr, "gpuprof memory: note: %s\n", gp_s(&t, t.warnings.v[i]));
	for (int i = 0; i < m->nnotes; i++)
		fprintf(stderr, "gpuprof memory: note: %s\n", m->notes[i]);
	switch (o.view) {
	case VIEW_DEVICE:
		device_rows(&w, &t, m, co.top);
		break;
	case VIEW_OP: case VIEW_LAYER:
		group_rows(&w, &t, m, o.view == VIEW_OP ? GP_MEM_BY_OP : GP_MEM_BY_LAYER, co.top);
		break;
	case VIEW_SERIES: case VIEW_STEPS:
		series_rows(&w, &t, m, &o, co.top);
		break;
	}
	if (gp_writer_close(&w, &err)) {
		gp_err_print(&err);
		rc = gp_exit_code(err.status);
	}
	gp_analysis_free(&a);
	gp_trace_free(&t);
	return rc;
}
