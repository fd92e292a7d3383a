/*
** gpuprof breakdown: where the GPU time goes, per device and iteration
** (src/analysis/breakdown.h; definitions in docs/breakdown.md).  Views:
**   time     one row per (device, iteration, part): span, busy, compute,
**            communication, memory, overlaps, idle and its causes;
**   streams  per stream: launches, launch delay and queue depth percentiles;
**   gaps     the longest idle gaps and what the CPU was doing in them;
**   depth    per stream, the queue depth over time: --buckets equal parts
**            of the device's span, the launches and the largest depth in each.
** --as tracelens gives TraceLens' gpu_timeline rows instead, --as hta
** HTA's temporal breakdown and comm/comp overlap, --as hta-idle HTA's idle
** time breakdown per stream.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "util/stats.h"
#include "writers/writer.h"

static const struct gp_cmd_opt breakdown_own[] = {
	{"view", 'V', "V", "time (default), streams, gaps or depth"},
	{"as", 0, "TOOL", "tracelens: TraceLens' gpu_timeline (all GPUs as one\n"
	 "timeline, the whole trace; times in ms as it writes them);\n"
	 "hta: HTA's temporal breakdown and communication/computation\n"
	 "overlap (GPU work launched inside ProfilerStep ranges but\n"
	 "the last); hta-idle: HTA's idle time per stream by\n"
	 "host_wait, kernel_wait, other"},
	{"short-gap", 0, "NS", "idle gaps shorter than NS ns are short_gap (default 10000)"},
	{"buckets", 0, "N", "--view depth: buckets per stream (default 100, at most 100000)"},
	{NULL, 0, NULL, NULL},
};
enum { OWN_VIEW, OWN_AS, OWN_SHORT_GAP, OWN_BUCKETS };

static const struct gp_cmd_spec breakdown_spec = {
	.name = "breakdown",
	.about =
	"Where the GPU time goes, per device and per iteration (ProfilerStep#N,\n"
	"NVTX 'iteration N', libgpuprof iterations; 'all' = the whole trace).  The\n"
	"span (first to last GPU work of the device in the window) splits exactly\n"
	"into compute, communication (NCCL/RCCL kernels), memory (memcpy, memset)\n"
	"and idle time, as a union over all streams (concurrent work counts once;\n"
	"'overlap' is the time counted twice, so compute + communication + memory\n"
	"+ idle - overlap = span).  Idle time splits by cause: short_gap,\n"
	"sync, pageable_memcpy, host_launch, other.  --view streams gives each\n"
	"stream's launch delay and queue depth; --view depth each stream's queue\n"
	"depth over time (the largest per bucket); --view gaps the longest idle\n"
	"gaps with the CPU ranges open in them (-n: gaps per device, default 10;\n"
	"the other views write all their rows).\n"
	"Definitions: docs/breakdown.md.",
	.shared = GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_JOBS | GP_OPT_WINDOW,
	.row_formats = true,
	.format_note = "(times in ns except in the table)",
	.top_help = "--view gaps: gaps per device (a positive number;\ndefault 10); the other views write all their rows",
	.own = breakdown_own,
	.many_files = true,
};

enum view { VIEW_TIME, VIEW_STREAMS, VIEW_GAPS, VIEW_DEPTH, VIEW_TRACELENS, VIEW_HTA, VIEW_HTA_IDLE };

struct opts {
	enum view view;
	gp_ns short_gap;
	size_t buckets;
};

static const struct gp_column time_cols[] = {
	{"device", "Device", 3, true, false, "all"},
	{"iteration", "Iter", 4, true, false, "all"},
	{"part", "Part", 16, false, false, NULL},
	{"time_ns", "Time", 10, true, false, NULL},
	{"pct", "Pct", 5, true, false, NULL},
};

/* -f csv/tsv/json: times in ns, and the headers say so */
static const struct gp_column time_cols_raw[] = {
	{"device", "Device", 3, true, false, "all"},
	{"iteration", "Iter", 4, true, false, "all"},
	{"part", "Part", 16, false, false, NULL},
	{"time_ns", "Time (ns)", 10, true, false, NULL},
	{"pct", "Pct", 5, true, false, NULL},
};

static const struct gp_column stream_cols[] = {
	{"device", "Device", 3, true, false, NULL},
	{"stream", "Stream", 3, true, false, NULL},
	{"kernels", "Kernels", 5, true, false, NULL},
	{"launches", "Launches", 5, true, false, NULL},
	{"graph_launches", "Graph launches", 5, true, false, NULL},
	{"early", "Early", 3, true, false, NULL},
	{"delay_p50_ns", "Delay p50", 8, true, false, NULL},
	{"delay_p90_ns", "Delay p90", 8, true, false, NULL},
	{"delay_p99_ns", "Delay p99", 8, true, false, NULL},
	{"delay_max_ns", "Delay max", 8, true, false, NULL},
	{"depth_p50", "Depth p50", 4, true, false, NULL},
	{"depth_p90", "Depth p90", 4, true, false, NULL},
	{"depth_p99", "Depth p99", 4, true, false, NULL},
	{"depth_max", "Depth max", 4, true, false, NULL},
};

static const struct gp_column stream_cols_raw[] = {
	{"device", "Device", 3, true, false, NULL},
	{"stream", "Stream", 3, true, false, NULL},
	{"kernels", "Kernels", 5, true, false, NULL},
	{"launches", "Launches", 5, true, false, NULL},
	{"graph_launches", "Graph launches", 5, true, false, NULL},
	{"early", "Early", 3, true, false, NULL},
	{"delay_p50_ns", "Delay p50 (ns)", 8, true, false, NULL},
	{"delay_p90_ns", "Delay p90 (ns)", 8, true, false, NULL},
	{"delay_p99_ns", "Delay p99 (ns)", 8, true, false, NULL},
	{"delay_max_ns", "Delay max (ns)", 8, true, false, NULL},
	{"depth_p50", "Depth p50", 4, true, false, NULL},
	{"depth_p90", "Depth p90", 4, true, false, NULL},
	{"depth_p99", "Depth p99", 4, true, false, NULL},
	{"depth_max", "Depth max", 4, true, false, NULL},
};

static const struct gp_column gap_cols[] = {
	{"device", "Device", 3, true, false, "all"},
	{"iteration", "Iter", 4, true, false, NULL},
	{"start_ns", "Start (ns)", 10, true, false, NULL},
	{"dur_ns", "Idle", 8, true, false, NULL},
	{"cause", "Cause", 10, false, false, NULL},
	{"cpu", "CPU context", 20, false, true, "(none)"},
};

static const struct gp_column gap_cols_raw[] = {
	{"device", "Device", 3, true, false, "all"},
	{"iteration", "Iter", 4, true, false, NULL},
	{"start_ns", "Start (ns)", 10, true, false, NULL},
	{"dur_ns", "Idle (ns)", 8, true, false, NULL},
	{"cause", "Cause", 10, false, false, NULL},
	{"cpu", "CPU context", 20, false, true, "(none)"},
};

static const struct gp_column depth_cols[] = {
	{"device", "Device", 3, true, false, NULL},
	{"stream", "Stream", 3, true, false, NULL},
	{"ts_ns", "Start (ns)", 10, true, false, NULL},
	{"launches", "Launches", 5, true, false, NULL},
	{"max_depth", "Depth max", 4, true, false, NULL},
};

static const struct gp_column tl_cols[] = {
	{"type", "type", 20, false, false, NULL},
	{"time_ms", "time ms", 10, true, false, NULL},
	{"percent", "percent", 8, true, false, NULL},
};

static const struct gp_column hta_cols[] = {
	{"device", "device", 3, true, false, NULL},
	{"idle_time_ns", "idle_time(ns)", 10, true, false, NULL},
	{"compute_time_ns", "compute_time(ns)", 10, true, false, NULL},
	{"non_compute_time_ns", "non_compute_time(ns)", 10, true, false, NULL},
	{"kernel_time_ns", "kernel_time(ns)", 10, true, false, NULL},
	{"idle_time_pctg", "idle_time_pctg", 6, true, false, NULL},
	{"compute_time_pctg", "compute_time_pctg", 6, true, false, NULL},
	{"non_compute_time_pctg", "non_compute_time_pctg", 6, true, false, NULL},
	{"comp_comm_overlap_pctg", "comp_comm_overlap_pctg", 6, true, false, NULL},
};

static const struct gp_column hta_idle_cols[] = {
	{"device", "device", 3, true, false, NULL},
	{"stream", "stream", 3, true, false, NULL},
	{"idle_category", "idle_category", 11, false, false, NULL},
	{"idle_time_ns", "idle_time(ns)", 10, true, false, NULL},
	{"idle_time_ratio", "idle_time_ratio", 6, true, false, NULL},
	{"count", "count", 5, true, false, NULL},
};

#define NCOL(c) ((int)(sizeof(c) / sizeof((c)[0])))

/* The parts of the time view: a name and the time of window w. */
struct part {
	const char *name;
	unsigned mask_any;      /* union of masks having any of these kinds */
	int idle_cause;         /* >= 0: that idle cause */
	int special;            /* 1 span, 2 overlap, 3 hidden comm, 4 exposed comm, 5 idle */
};

static const struct part parts[] = {
	{"span", 0, -1, 1},
	{"busy", GP_BD_COMPUTE | GP_BD_COMM | GP_BD_MEMORY, -1, 0},
	{"compute", GP_BD_COMPUTE, -1, 0},
	{"communication", GP_BD_COMM, -1, 0},
	{"memory", GP_BD_MEMORY, -1, 0},
	{"overlap", 0, -1, 2},
	{"idle", 0, -1, 5},
	{"comm_hidden", 0, -1, 3},
	{"comm_exposed", 0, -1, 4},
	{"idle_short_gap", 0, GP_IDLE_SHORT_GAP, 0},
	{"idle_sync", 0, GP_IDLE_SYNC, 0},
	{"idle_pageable_memcpy", 0, GP_IDLE_PAGEABLE, 0},
	{"idle_host_launch", 0, GP_IDLE_HOST_LAUNCH, 0},
	{"idle_other", 0, GP_IDLE_OTHER, 0},
};

static gp_ns part_time(const struct gp_bd_window *w, const struct part *p)
{
	gp_ns hidden = w->by_mask[GP_BD_COMPUTE | GP_BD_COMM] +
		       w->by_mask[GP_BD_COMPUTE | GP_BD_COMM | GP_BD_MEMORY];

	if (p->idle_cause >= 0)
		return w->idle[p->idle_cause];
	switch (p->special) {
	case 1:
		return w->end - w->start;
	case 2:
		return gp_bd_overlap(w);
	case 3:
		return hidden;
	case 4:
		return gp_bd_kind_time(w, GP_BD_COMM) - hidden;
	case 5:
		return w->by_mask[0];
	}
	return gp_bd_kind_time(w, p->mask_any);
}

static void cell_time(char *buf, size_t size, gp_ns ns, bool table)
{
	if (table)
		gp_fmt_duration((double)ns, buf, size);
	else
		snprintf(buf, size, "%" PRId64, ns);
}

static void write_time(gp_writer *w, const gp_breakdown *b, bool table)
{
	for (size_t i = 0; i < b->nwin; i++) {
		const struct gp_bd_window *win = &b->win[i];
		char dev[16], it[16], tm[64], pct[32];
		const char *row[5] = {dev, win->iter >= 0 ? it : NULL, NULL, tm, pct};
		snprintf(dev, sizeof(dev), "%d", win->device);
		snprintf(it, sizeof(it), "%d", win->iter);
		for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++) {
			gp_ns v = part_time(win, &parts[p]);
			row[2] = parts[p].name;
			cell_time(tm, sizeof(tm), v, table);
			snprintf(pct, sizeof(pct), "%.2f", gp_percent(v, win->end - win->start));
			gp_writer_row(w, row);
		}
	}
}

static void write_streams(gp_writer *w, const gp_breakdown *b, bool table)
{
	static const double q[3] = {0.5, 0.9, 0.99};

	for (size_t i = 0; i < b->nstreams; i++) {
		const struct gp_bd_stream *s = &b->streams[i];
		char v[14][64];
		const char *row[14];
		snprintf(v[0], 64, "%d", s->device);
		snprintf(v[1], 64, "%u", s->stream);
		snprintf(v[2], 64, "%" PRIu64, s->kernels);
		snprintf(v[3], 64, "%" PRIu64, s->launches);
		snprintf(v[4], 64, "%" PRIu64, s->graph_launches);
		snprintf(v[5], 64, "%" PRIu64, s->early);
		for (int k = 0; k < 3; k++) {
			cell_time(v[6 + k], 64, gp_hist_quantile(&s->delay, q[k]), table);
			snprintf(v[10 + k], 64, "%" PRId64, gp_hist_quantile(&s->depth, q[k]));
		}
		cell_time(v[9], 64, s->delay.max, table);
		snprintf(v[13], 64, "%" PRId64, s->depth.max);
		for (int c = 0; c < 14; c++)
			row[c] = s->launches || c < 6 ? v[c] : NULL;
		gp_writer_row(w, row);
	}
}

static void write_gaps(gp_writer *w, const gp_breakdown *b, bool table)
{
	for (size_t i = 0; i < b->ngaps; i++) {
		const struct gp_bd_gap *g = &b->gaps[i];
		char dev[16], it[16], st[32], dur[64];
		const char *row[6] = {g->device >= 0 ? dev : NULL, g->iter >= 0 ? it : NULL, st, dur,
				      gp_idle_cause_name(g->cause), g->context};
		snprintf(dev, sizeof(dev), "%d", g->device);
		snprintf(it, sizeof(it), "%d", g->iter);
		snprintf(st, sizeof(st), "%" PRId64, g->start);
		cell_time(dur, sizeof(dur), g->end - g->start, table);
		gp_writer_row(w, row);
	}
}

/* Each stream's queue depth series: one row per bucket; the depth is
** empty (JSON null) in a bucket without launches. */
static void write_depth(gp_writer *w, const gp_breakdown *b)
{
	for (size_t i = 0; i < b->nstreams; i++) {
		const struct gp_bd_stream *s = &b->streams[i];
		for (size_t k = 0; k < b->depth_buckets; k++) {
			const struct gp_bd_depth_bucket *d = &b->depth[i * b->depth_buckets + k];
			char v[5][32];
			const char *row[5] = {v[0], v[1], v[2], v[3], d->max_depth >= 0 ? v[4] : NULL};
			snprintf(v[0], 32, "%d", s->device);
			snprintf(v[1], 32, "%u", s->stream);
			snprintf(v[2], 32, "%" PRId64, d->start);
			snprintf(v[3], 32, "%" PRIu64, d->launches);
			snprintf(v[4], 32, "%" PRId64, d->max_depth);
			gp_writer_row(w, row);
		}
	}
}

/* TraceLens' gpu_timeline: computation = compute union; exposed
** communication = communication not under compute; exposed memcpy = memory
** work under neither; busy, idle, total; then the totals of communication
** and memory work.  Times in ms with its percent of total. */
static void write_tracelens(gp_writer *w, const gp_breakdown *b)
{
	const struct gp_bd_window *win = b->nwin ? &b->win[0] : NULL;
	struct gp_bd_window none = {0};
	gp_ns total, comp, comm, mem, exposed_comm;

	if (!win)
		win = &none;
	total = win->end - win->start;
	comp = gp_bd_kind_time(win, GP_BD_COMPUTE);
	comm = gp_bd_kind_time(win, GP_BD_COMM);
	mem = gp_bd_kind_time(win, GP_BD_MEMORY);
	exposed_comm = win->by_mask[GP_BD_COMM] + win->by_mask[GP_BD_COMM | GP_BD_MEMORY];
	const struct {
		const char *name;
		gp_ns v;
	} rows[] = {
		{"computation_time", comp},
		{"exposed_comm_time", exposed_comm},
		{"exposed_memcpy_time", win->by_mask[GP_BD_MEMORY]},
		{"busy_time", gp_bd_busy(win)},
		{"idle_time", win->by_mask[0]},
		{"total_time", total},
		{"total_comm_time", comm},
		{"total_memcpy_time", mem},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char ms[64], pct[64];
		const char *row[3] = {rows[i].name, ms, pct};
		snprintf(ms, sizeof(ms), "%.6f", (double)rows[i].v / 1e6);
		snprintf(pct, sizeof(pct), "%.6f", gp_percent(rows[i].v, total));
		gp_writer_row(w, row);
	}
}

/* HTA's get_temporal_breakdown (idle, compute, non-compute, kernel time
** = span of the kept work) and get_comm_comp_overlap (the share of
** communication time under computation), one row per device. */
static void write_hta(gp_writer *w, const gp_breakdown *b)
{
	for (size_t i = 0; i < b->nhta_dev; i++) {
		const struct gp_bd_hta_device *d = &b->hta_dev[i];
		gp_ns span = d->kernel_time, non_compute = span - d->compute - d->idle;
		char v[9][48];
		const char *row[9];
		snprintf(v[0], 48, "%d", d->device);
		snprintf(v[1], 48, "%" PRId64, d->idle);
		snprintf(v[2], 48, "%" PRId64, d->compute);
		snprintf(v[3], 48, "%" PRId64, non_compute);
		snprintf(v[4], 48, "%" PRId64, span);
		snprintf(v[5], 48, "%.2f", gp_percent(d->idle, span));
		snprintf(v[6], 48, "%.2f", gp_percent(d->compute, span));
		snprintf(v[7], 48, "%.2f", gp_percent(non_compute, span));
		snprintf(v[8], 48, "%.2f", gp_percent(d->comm_overlap, d->comm));
		for (int c = 0; c < 9; c++)
			row[c] = v[c];
		if (!d->comm)
			row[8] = NULL;   /* HTA: NaN, no communication to overlap */
		gp_writer_row(w, row);
	}
}

static void write_hta_idle(gp_writer *w, const gp_breakdown *b)
{
	static const char *const cat[GP_HTA__COUNT] = {"host_wait", "kernel_wait", "other"};

	for (size_t i = 0; i < b->nhta; i++) {
		const struct gp_bd_hta_stream *h = &b->hta[i];
		gp_ns total = h->idle[0] + h->idle[1] + h->idle[2];
		for (int c = 0; c < GP_HTA__COUNT; c++) {
			char v[6][48];
			const char *row[6] = {v[0], v[1], cat[c], v[3], v[4], v[5]};
			snprintf(v[0], 48, "%d", h->device);
			snprintf(v[1], 48, "%u", h->stream);
			snprintf(v[3], 48, "%" PRId64, h->idle[c]);
			snprintf(v[4], 48, "%.2f", total ? (double)h->idle[c] / (double)total : 0.0);
			snprintf(v[5], 48, "%" PRIu64, h->n[c]);
			gp_writer_row(w, row);
		}
	}
}

static int breakdown_option(void *ctx, int index, const char *arg)
{
	struct opts *o = ctx;
	char *end;
	long long v;

	switch (index) {
	case OWN_VIEW:
		if (strcmp(arg, "time") == 0)
			o->view = VIEW_TIME;
		else if (strcmp(arg, "streams") == 0)
			o->view = VIEW_STREAMS;
		else if (strcmp(arg, "gaps") == 0)
			o->view = VIEW_GAPS;
		else if (strcmp(arg, "depth") == 0)
			o->view = VIEW_DEPTH;
		else
			return gp_cli_usage("breakdown", "--view wants time, streams, gaps or depth, not '%s'", arg);
		return 0;
	case OWN_AS:
		if (strcmp(arg, "tracelens") == 0)
			o->view = VIEW_TRACELENS;
		else if (strcmp(arg, "hta") == 0)
			o->view = VIEW_HTA;
		else if (strcmp(arg, "hta-idle") == 0)
			o->view = VIEW_HTA_IDLE;
		else
			return gp_cli_usage("breakdown", "--as wants tracelens, hta or hta-idle, not '%s'", arg);
		return 0;
	case OWN_SHORT_GAP:
		v = strtoll(arg, &end, 10);
		if (end == arg || *end || v < 0 || v > INT64_MAX / 2)
			return gp_cli_usage("breakdown", "--short-gap wants a number of ns >= 0, not '%s'", arg);
		o->short_gap = v;
		return 0;
	case OWN_BUCKETS:
		v = strtoll(arg, &end, 10);
		if (end == arg || *end || v < 1 || v > GP_BD_MAX_BUCKETS)
			return gp_cli_usage("breakdown", "--buckets wants 1 to %d, not '%s'", GP_BD_MAX_BUCKETS, arg);
		o->buckets = (size_t)v;
		return 0;
	}
	return 0;
}

/* What breakdown does with each trace (gp_cli_trace_fn). */
struct job {
	enum view view;
	unsigned needs;                 /* GP_NEED_BREAKDOWN and the view's parts */
	struct gp_analysis_opts ao;
	bool table;
};

/* Writes breakdown b's rows of the view to w. */
static void write_view(const struct job *j, const gp_breakdown *b, gp_writer *w)
{
	if (j->view == VIEW_STREAMS)
		write_streams(w, b, j->table);
	else if (j->view == VIEW_GAPS)
		write_gaps(w, b, j->table);
	else if (j->view == VIEW_DEPTH)
		write_depth(w, b);
	else if (j->view == VIEW_TRACELENS)
		write_tracelens(w, b);
	else if (j->view == VIEW_HTA)
		write_hta(w, b);
	else if (j->view == VIEW_HTA_IDLE)
		write_hta_idle(w, b);
	else
		write_time(w, b, j->table);
}

static int breakdown_trace(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	const struct job *j = ctx;
	struct gp_analysis a;
	int rc = gp_analysis_run(t, j->needs, &j->ao, &a, err);

	if (rc == GP_OK)
		write_view(j, &a.breakdown, w);
	/* rather than a bare header: why HTA's view is empty (one line, so
	** that workers' notes never mix) */
	if (rc == GP_OK && j->ao.hta && a.breakdown.hta_steps == 0)
		fprintf(stderr, "gpuprof breakdown: note: %s: HTA drops the last ProfilerStep of a trace and "
			"this one has a single step, so HTA's view keeps no GPU work (the whole trace: "
			"without --as)\n", gp_s(t, t->path));
	gp_analysis_free(&a);
	return rc;
}

int cmd_breakdown(int argc, char **argv)
{
	struct opts o = {.view = VIEW_TIME, .short_gap = GP_SHORT_GAP_NS, .buckets = GP_DEPTH_BUCKETS};
	struct job j = {0};
	struct gp_cli_many m = {.cmd = "breakdown", .fn = breakdown_trace, .ctx = &j};
	struct gp_cli_opts co;
	int rc;

	rc = gp_cli_parse(&breakdown_spec, argc, argv, &co, breakdown_option, &o);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	j.table = strcmp(co.format, "table") == 0;
	switch (o.view) {
	case VIEW_STREAMS:
		m.cols = j.table ? stream_cols : stream_cols_raw, m.ncols = NCOL(stream_cols);
		break;
	case VIEW_GAPS:
		m.cols = j.table ? gap_cols : gap_cols_raw, m.ncols = NCOL(gap_cols);
		break;
	case VIEW_DEPTH:
		m.cols = depth_cols, m.ncols = NCOL(depth_cols);
		break;
	case VIEW_TRACELENS:
		m.cols = tl_cols, m.ncols = NCOL(tl_cols);
		break;
	case VIEW_HTA:
		m.cols = hta_cols, m.ncols = NCOL(hta_cols);
		break;
	case VIEW_HTA_IDLE:
		m.cols = hta_idle_cols, m.ncols = NCOL(hta_idle_cols);
		break;
	default:
		m.cols = j.table ? time_cols : time_cols_raw, m.ncols = NCOL(time_cols);
	}
	j.view = o.view;
	j.needs = GP_NEED_BREAKDOWN | (o.view == VIEW_GAPS ? GP_NEED_TOP_GAPS : 0) |
		  (o.view == VIEW_DEPTH ? GP_NEED_DEPTH : 0);
	gp_analysis_opts_init(&j.ao);
	j.ao.short_gap_ns = o.short_gap;
	if (co.top != SIZE_MAX)
		j.ao.top_gaps = co.top;
	j.ao.depth_buckets = o.buckets;
	j.ao.one_timeline = j.ao.memset_compute = o.view == VIEW_TRACELENS;
	j.ao.hta = o.view == VIEW_HTA || o.view == VIEW_HTA_IDLE;
	return gp_cli_run(&m, &co);
}
