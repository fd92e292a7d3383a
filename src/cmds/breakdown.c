/*
** gpuprof breakdown: where the GPU time goes, per device and iteration
** (src/analysis/breakdown.h; definitions in docs/breakdown.md).  Views:
**   time     one row per (device, iteration, part): span, busy, compute,
**            communication, memory, overlaps, idle and its causes;
**   streams  per stream: launches, launch delay and queue depth percentiles;
**   gaps     the longest idle gaps and what the CPU was doing in them;
**   depth    per stream, the queue depth over time: --buckets equal parts
**            of the device's span, the launches and the largest depth in each;
**   phases   per serving phase and batch size of replayed graphs
**            (analysis/phases.h): steps, kernels, GPU time, idle in the steps;
**   steps    per serving step (analysis/serving.h): kind, requests and
**            tokens recorded, its time and time per token, warm-up or not;
**   graphs   per graph replayed (analysis/graph_table.h): replays, kernels
**            per replay, GPU time, its attributed share, idle in replays.
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
	{"view", 'V', "V", "time (default), streams, gaps, depth, critical, phases,\nsteps, graphs or comm"},
	{"as", 0, "TOOL", "tracelens: TraceLens' gpu_timeline (all GPUs as one\n"
	 "timeline, the whole trace, the GPU events it links to a\n"
	 "launch; times in ms as it writes them); hta: HTA's\n"
	 "temporal breakdown and communication/computation overlap\n"
	 "(GPU work launched before the last ProfilerStep; all of\n"
	 "it with one step); hta-idle: HTA's idle time per stream by\n"
	 "host_wait, kernel_wait, other"},
	{"include-unlinked", 0, NULL, "--as tracelens: the GPU events it does not link to a\n"
	 "launch too (TraceLens' --include_unlinked_kernels)"},
	{"buckets", 0, "N", "--view depth: buckets per stream (default 100, at most 100000)"},
	{NULL, 0, NULL, NULL},
};
enum { OWN_VIEW, OWN_AS, OWN_UNLINKED, OWN_BUCKETS };

static const struct gp_cmd_spec breakdown_spec = {
	.name = "breakdown",
	.about =
	"Where the GPU time goes, per device and per iteration (ProfilerStep#N,\n"
	"NVTX 'iteration N', libgpuprof iterations; 'all' = the whole trace).  The\n"
	"span (first to last GPU work of the device in the window) splits exactly\n"
	"into compute, communication (NCCL/RCCL, symmetric-memory and custom\n"
	"all-reduce kernels...), memory (memcpy, memset)\n"
	"and idle time, as a union over all streams (concurrent work counts once;\n"
	"'overlap' is the time counted twice, so compute + communication + memory\n"
	"+ idle - overlap = span).  Idle time splits by what held the work after\n"
	"each gap (the chain of waits back to the gap's start, docs/dependencies.md):\n"
	"launch, gpu_gap, pageable_copy, event_wait, sync, comm_wait, cpu_op,\n"
	"python, annotation, dataloader, allocator, first_alloc, jit, autotune,\n"
	"module_load, capture, cuda_api, untraced,\n"
	"unknown (docs/cli.md, \"Causes\"; first_alloc, jit, autotune, module_load\n"
	"and capture are one-time costs).  --view\n"
	"critical: the critical path by cause, op and layer.  --view streams gives each\n"
	"stream's launch delay and queue depth; --view depth each stream's queue\n"
	"depth over time (the largest per bucket); --view gaps the longest idle\n"
	"gaps with the CPU ranges open in them (-n: gaps per device, default 10;\n"
	"the other views write all their rows).  --view phases: per serving phase\n"
	"(prefill, decode, mixed step markers) and batch size of the graphs\n"
	"replayed ('decode bs=8'; 'bs=8' outside marked steps): steps (or\n"
	"replays), kernels, GPU time and the idle inside each step or replay.\n"
	"--view steps: per serving step (a step marker, else a graph replay of a\n"
	"known batch size), in start order: its kind, the requests and tokens its\n"
	"marker records, the batch size of the graphs it replayed, kernels, its\n"
	"time (first kernel start to last kernel end), busy GPU time, time per\n"
	"token, and whether it is a warm-up step (docs/correlation.md).\n"
	"--view graphs: per CUDA/HIP graph replayed (its graph id, else its first\n"
	"kernel and size): the batch size of the captures its replays matched,\n"
	"replays, kernels per replay, GPU time, the share of it attributed to an\n"
	"op, and the idle inside its replays (the gaps that advise's graph-gaps\n"
	"finding counts).\n"
	"--view comm: per device, then per layer and pass (a user annotation's\n"
	"dispatch(F), an op's layer), the communication kernels' time hidden under\n"
	"compute and exposed, and the SMs they hold while compute runs (their\n"
	"blocks, time-weighted, of the device's SMs; docs/comm.md, \"Overlap\").\n"
	"Definitions: docs/breakdown.md.",
	.shared = GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_JOBS | GP_OPT_WINDOW | GP_OPT_OPS_FILE,
	.row_formats = true,
	.format_note = "(times in ns except in the table)",
	.top_help = "--view gaps: gaps per device (a positive number;\ndefault 10); the other views write all their rows",
	.own = breakdown_own,
	.many_files = true,
};

enum view { VIEW_TIME, VIEW_STREAMS, VIEW_GAPS, VIEW_DEPTH, VIEW_CRITICAL, VIEW_TRACELENS, VIEW_HTA,
	    VIEW_HTA_IDLE, VIEW_PHASES, VIEW_GRAPHS, VIEW_STEPS, VIEW_COMM };

struct opts {
	enum view view;
	size_t buckets;
	bool unlinked;          /* --include-unlinked */
};

/* One column set a view: times declared in ns and percentages in %, so
** the table shows them in human units and csv/tsv/json raw with the unit
** in the header; a view's machine columns (absolute timestamps) are left
** out of the table. */
static const struct gp_column time_cols[] = {
	{"device", "Device", 3, true, false, "all"},
	{"iteration", "Iter", 4, true, false, "all"},
	{"part", "Part", 16, false, false, NULL},
	{"time_ns", "Time", 10, true, false, NULL, GP_UNIT_NS},
	{"pct", "Share", 5, true, false, NULL, GP_UNIT_PCT},
};

static const struct gp_column stream_cols[] = {
	{"device", "Device", 3, true, false, NULL},
	{"stream", "Stream", 3, true, false, NULL},
	{"kernels", "Kernels", 5, true, false, NULL},
	{"launches", "Launches", 5, true, false, NULL},
	{"graph_launches", "Graph launches", 5, true, false, NULL},
	{"early", "Early", 3, true, false, NULL},
	{"delay_p50_ns", "Delay p50", 8, true, false, NULL, GP_UNIT_NS},
	{"delay_p90_ns", "Delay p90", 8, true, false, NULL, GP_UNIT_NS},
	{"delay_p99_ns", "Delay p99", 8, true, false, NULL, GP_UNIT_NS},
	{"delay_max_ns", "Delay max", 8, true, false, NULL, GP_UNIT_NS},
	{"depth_p50", "Depth p50", 4, true, false, NULL},
	{"depth_p90", "Depth p90", 4, true, false, NULL},
	{"depth_p99", "Depth p99", 4, true, false, NULL},
	{"depth_max", "Depth max", 4, true, false, NULL},
};

static const struct gp_column gap_cols[] = {
	{"device", "Device", 3, true, false, "all"},
	{"iteration", "Iter", 4, true, false, NULL},
	{"start_from_trace_start_ns", "Start", 10, true, false, NULL, GP_UNIT_SINCE_START},
	{"dur_ns", "Idle", 8, true, false, NULL, GP_UNIT_NS},
	{"cause", "Cause", 10, false, false, NULL},
	{"cpu", "CPU context", 20, false, true, "(none)"},
	{"start_abs_ns", "Start on the trace's clock", 10, true, false, NULL, GP_UNIT_NS, true},
};

static const struct gp_column depth_cols[] = {
	{"device", "Device", 3, true, false, NULL},
	{"stream", "Stream", 3, true, false, NULL},
	{"start_from_trace_start_ns", "Start", 10, true, false, NULL, GP_UNIT_SINCE_START},
	{"launches", "Launches", 5, true, false, NULL},
	{"max_depth", "Depth max", 4, true, false, NULL},
	{"start_abs_ns", "Start on the trace's clock", 10, true, false, NULL, GP_UNIT_NS, true},
};

static const struct gp_column crit_cols[] = {
	{"iteration", "Iter", 4, true, false, "all"},
	{"cause", "Cause", 10, false, false, NULL},
	{"op", "Op", 24, false, true, "(none)"},
	{"layer", "Layer", 16, false, true, "(none)"},
	{"time_ns", "Time", 10, true, false, NULL, GP_UNIT_NS},
	{"pct", "Share", 5, true, false, NULL, GP_UNIT_PCT},
	{"pass", "Pass", 5, false, false, ""},
};

/* --as tracelens and --as hta: the tool's own column names, so that its
** readers keep working (docs/breakdown.md) */
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

static const struct gp_column phase_cols[] = {
	{"phase", "Phase", 12, false, false, "(none)"},
	{"steps", "Steps", 5, true, false, NULL},
	{"kernels", "Kernels", 5, true, false, NULL},
	{"gpu_ns", "GPU time", 10, true, false, NULL, GP_UNIT_NS},
	{"gpu_pct", "GPU", 5, true, false, NULL, GP_UNIT_PCT},
	{"window_ns", "In steps", 10, true, false, NULL, GP_UNIT_NS},
	{"idle_ns", "Idle", 10, true, false, NULL, GP_UNIT_NS},
	{"idle_pct", "Idle share", 5, true, false, NULL, GP_UNIT_PCT},
};

static const struct gp_column step_cols[] = {
	{"step", "Step", 4, true, false, NULL},
	{"kind", "Kind", 8, false, false, "(none)"},
	{"requests", "Requests", 5, true, false, "-"},
	{"tokens", "Tokens", 6, true, false, "-"},
	{"batch", "Batch", 4, true, false, "-"},
	{"kernels", "Kernels", 5, true, false, NULL},
	{"start_from_trace_start_ns", "Start", 10, true, false, NULL, GP_UNIT_SINCE_START},
	{"time_ns", "Time", 10, true, false, NULL, GP_UNIT_NS},
	{"busy_ns", "Busy", 10, true, false, NULL, GP_UNIT_NS},
	{"per_token_ns", "Per token", 10, true, false, "-", GP_UNIT_NS},
	{"warmup", "Warm-up", 3, false, false, NULL},
};

static const struct gp_column graph_cols[] = {
	{"graph", "Graph", 16, false, true, NULL},
	{"batch", "Batch", 4, false, false, "-"},
	{"replays", "Replays", 5, true, false, NULL},
	{"kernels_per_replay", "Kernels/replay", 5, true, false, NULL},
	{"gpu_ns", "GPU time", 10, true, false, NULL, GP_UNIT_NS},
	{"attributed_pct", "Attributed", 5, true, false, NULL, GP_UNIT_PCT},
	{"gaps", "Gaps", 5, true, false, NULL},
	{"idle_ns", "Idle in replays", 10, true, false, NULL, GP_UNIT_NS},
};

static const struct gp_column comm_cols[] = {
	{"device", "Device", 3, true, false, "all"},
	{"layer", "Layer", 16, false, true, "(all)"},
	{"pass", "Pass", 5, false, false, "-"},
	{"kernels", "Kernels", 5, true, false, NULL},
	{"comm_ns", "Comm", 10, true, false, NULL, GP_UNIT_NS},
	{"hidden_ns", "Hidden", 10, true, false, NULL, GP_UNIT_NS},
	{"exposed_ns", "Exposed", 10, true, false, NULL, GP_UNIT_NS},
	{"hidden_pct", "Hidden share", 5, true, false, NULL, GP_UNIT_PCT},
	{"sms_held", "SMs held", 5, true, false, "-"},
	{"sm_count", "SMs", 4, true, false, "-"},
};

#define NCOL(c) ((int)(sizeof(c) / sizeof((c)[0])))

static void cell_time(char *buf, size_t size, gp_ns ns)
{
	snprintf(buf, size, "%" PRId64, ns);
}

static void write_time(gp_writer *w, const gp_breakdown *b)
{
	for (size_t i = 0; i < b->nwin; i++) {
		const struct gp_bd_window *win = &b->win[i];
		char dev[16], it[16], tm[64], pct[32];
		const char *row[5] = {dev, win->iter >= 0 ? it : NULL, NULL, tm, pct};
		snprintf(dev, sizeof(dev), "%d", win->device);
		snprintf(it, sizeof(it), "%d", win->iter);
		for (int p = 0; p < GP_BD_PARTS; p++) {
			gp_ns v = gp_bd_part_time(win, p);
			row[2] = gp_bd_part_name(p);
			cell_time(tm, sizeof(tm), v);
			snprintf(pct, sizeof(pct), "%.2f", gp_percent(v, win->end - win->start));
			gp_writer_row(w, row);
		}
		/* idle time by cause: idle_ and the cause's one name (critpath.h),
		** every cause idle time can have, in enum gp_cause's order */
		for (int c = 0; c < GP_IDLE__COUNT; c++) {
			char name[48];
			if (!gp_cause_is_idle(c))
				continue;
			snprintf(name, sizeof(name), "idle_%s", gp_cause_name(c));
			row[2] = name;
			cell_time(tm, sizeof(tm), win->idle[c]);
			snprintf(pct, sizeof(pct), "%.2f", gp_percent(win->idle[c], win->end - win->start));
			gp_writer_row(w, row);
		}
	}
}

static void write_streams(gp_writer *w, const gp_breakdown *b)
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
			cell_time(v[6 + k], 64, gp_hist_quantile(&s->delay, q[k]));
			snprintf(v[10 + k], 64, "%" PRId64, gp_hist_quantile(&s->depth, q[k]));
		}
		cell_time(v[9], 64, s->delay.max);
		snprintf(v[13], 64, "%" PRId64, s->depth.max);
		for (int c = 0; c < 14; c++)
			row[c] = s->launches || c < 6 ? v[c] : NULL;
		gp_writer_row(w, row);
	}
}

/* The longest idle gaps: their start from the trace's start (and on its
** clock, for the machine formats). */
static void write_gaps(gp_writer *w, const gp_trace *t, const gp_breakdown *b)
{
	gp_ns origin = gp_trace_start(t);

	for (size_t i = 0; i < b->ngaps; i++) {
		const struct gp_bd_gap *g = &b->gaps[i];
		char dev[16], it[16], st[32], dur[64], abs[32];
		const char *row[7] = {g->device >= 0 ? dev : NULL, g->iter >= 0 ? it : NULL, st, dur,
				      gp_cause_name(g->cause), g->context, abs};
		snprintf(dev, sizeof(dev), "%d", g->device);
		snprintf(it, sizeof(it), "%d", g->iter);
		snprintf(st, sizeof(st), "%" PRId64, g->start - origin);
		snprintf(abs, sizeof(abs), "%" PRId64, g->start);
		cell_time(dur, sizeof(dur), g->end - g->start);
		gp_writer_row(w, row);
	}
}

/* Each stream's queue depth series: one row per bucket; the depth is
** empty (JSON null) in a bucket without launches. */
static void write_depth(gp_writer *w, const gp_trace *t, const gp_breakdown *b)
{
	gp_ns origin = gp_trace_start(t);

	for (size_t i = 0; i < b->nstreams; i++) {
		const struct gp_bd_stream *s = &b->streams[i];
		for (size_t k = 0; k < b->depth_buckets; k++) {
			const struct gp_bd_depth_bucket *d = &b->depth[i * b->depth_buckets + k];
			char v[6][32];
			const char *row[6] = {v[0], v[1], v[2], v[3], d->max_depth >= 0 ? v[4] : NULL, v[5]};
			snprintf(v[0], 32, "%d", s->device);
			snprintf(v[1], 32, "%u", s->stream);
			snprintf(v[2], 32, "%" PRId64, d->start - origin);
			snprintf(v[3], 32, "%" PRIu64, d->launches);
			snprintf(v[4], 32, "%" PRId64, d->max_depth);
			snprintf(v[5], 32, "%" PRId64, d->start);
			gp_writer_row(w, row);
		}
	}
}

/* TraceLens' gpu_timeline, as it computes it (analysis/breakdown_tl.h):
** computation, exposed communication, exposed memcpy, busy, idle, total,
** then the totals of communication and memcpy.  Times in ms with its
** percent of total; no rows when TraceLens finds no GPU event (it stops
** there: "No GPU events found in the trace"), a note on stderr. */
static void write_tracelens(gp_writer *w, const struct gp_tl_timeline *tl, const char *path)
{
	if (!tl->events) {
		fprintf(stderr, "gpuprof: %s: no GPU event that TraceLens links to a launch (%zu not linked: "
			"--include-unlinked counts them)\n", path, tl->unlinked);
		return;
	}
	for (int i = 0; i < GP_TL__COUNT; i++) {
		char ms[64], pct[64];
		const char *row[3] = {gp_tl_row_names[i], ms, pct};
		snprintf(ms, sizeof(ms), "%.6f", tl->us[i] / 1e3);
		snprintf(pct, sizeof(pct), "%.6f", tl->us[GP_TL_TOTAL] > 0 ? tl->us[i] / tl->us[GP_TL_TOTAL] * 100 : 0.0);
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

/* The critical path: per cause, op and layer the time it held over the
** whole trace (the -n largest rows), then per iteration its time by cause;
** shares of the path's span (of the iteration's, for its rows). */
static void write_critical(gp_writer *w, const gp_trace *t, const gp_critpath *cp, size_t top)
{
	char it[16], tm[64], pct[32];
	const char *row[7] = {NULL, NULL, NULL, NULL, tm, pct, NULL};

	if (!cp->nwin)
		return;
	for (size_t i = 0; i < cp->nrows && i < top; i++) {
		const struct gp_cp_row *r = &cp->rows[i];
		row[1] = gp_cause_name(r->cause);
		row[2] = r->op ? gp_s(t, r->op) : NULL;
		row[3] = r->layer ? gp_s(t, r->layer) : NULL;
		row[6] = gp_cp_dir_name(r->dir);
		cell_time(tm, sizeof(tm), r->ns);
		snprintf(pct, sizeof(pct), "%.2f", gp_percent(r->ns, cp->win[0].end - cp->win[0].start));
		gp_writer_row(w, row);
	}
	row[0] = it;
	row[2] = row[3] = row[6] = NULL;
	for (size_t i = 1; i < cp->nwin; i++) {
		const struct gp_cp_window *cw = &cp->win[i];
		snprintf(it, sizeof(it), "%d", cw->iter);
		for (int c = 0; c < GP_CAUSE__COUNT; c++) {
			if (!cw->by_cause[c])
				continue;
			row[1] = gp_cause_name(c);
			cell_time(tm, sizeof(tm), cw->by_cause[c]);
			snprintf(pct, sizeof(pct), "%.2f", gp_percent(cw->by_cause[c], cw->end - cw->start));
			gp_writer_row(w, row);
		}
	}
}

/* Per serving phase and batch size (the runner's GP_NEED_PHASES groups):
** steps, kernels, GPU time (share of all kernel time), the steps' windows
** and the idle in them (share of the windows); no rows when there are no
** groups. */
static void write_phases(gp_writer *w, const struct gp_analysis *a)
{
	const struct gp_phase_group *g = a->phases.v;
	size_t n = a->phases.n;
	gp_ns all = 0;
	char v[8][64];
	const char *row[8] = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};

	for (size_t i = 0; i < n; i++)
		all += g[i].gpu_ns;
	for (size_t i = 0; i < n; i++) {
		gp_phase_label(g[i].phase, g[i].batch, v[0], sizeof(v[0]));
		row[0] = v[0][0] ? v[0] : NULL;
		snprintf(v[1], sizeof(v[1]), "%zu", g[i].steps);
		snprintf(v[2], sizeof(v[2]), "%zu", g[i].kernels);
		cell_time(v[3], sizeof(v[3]), g[i].gpu_ns);
		snprintf(v[4], sizeof(v[4]), "%.2f", gp_percent(g[i].gpu_ns, all));
		cell_time(v[5], sizeof(v[5]), g[i].window_ns);
		cell_time(v[6], sizeof(v[6]), g[i].idle_ns);
		snprintf(v[7], sizeof(v[7]), "%.2f", gp_percent(g[i].idle_ns, g[i].window_ns));
		gp_writer_row(w, row);
	}
}

/* Per serving step (the runner's GP_NEED_PHASES steps, start order): its
** number, kind, requests, tokens and batch size (NULL cells where not
** recorded), kernels, start from the trace's start, time, busy time, time
** per token and warm-up ("yes", "no"). */
static void write_steps(gp_writer *w, const gp_trace *t, const struct gp_analysis *a)
{
	gp_ns origin = gp_trace_start(t);
	char v[11][64];
	const char *row[11];

	for (size_t i = 0; i < a->serving.n; i++) {
		const struct gp_serving_step *s = &a->serving.v[i];
		gp_ns time = s->end - s->start;
		for (int c = 0; c < 11; c++)
			row[c] = v[c];
		snprintf(v[0], sizeof(v[0]), "%zu", i);
		snprintf(v[1], sizeof(v[1]), "%s", gp_phase_name(s->phase));
		row[1] = v[1][0] ? v[1] : NULL;
		snprintf(v[2], sizeof(v[2]), "%d", (int)s->requests);
		row[2] = s->requests >= 0 ? v[2] : NULL;
		snprintf(v[3], sizeof(v[3]), "%" PRId64, s->tokens);
		row[3] = s->tokens >= 0 ? v[3] : NULL;
		snprintf(v[4], sizeof(v[4]), "%d", (int)s->batch);
		row[4] = s->batch >= 0 ? v[4] : NULL;
		snprintf(v[5], sizeof(v[5]), "%zu", s->kernels);
		snprintf(v[6], sizeof(v[6]), "%" PRId64, s->start - origin);
		cell_time(v[7], sizeof(v[7]), time);
		cell_time(v[8], sizeof(v[8]), s->busy_ns);
		cell_time(v[9], sizeof(v[9]), s->tokens > 0 ? (gp_ns)((double)time / (double)s->tokens + 0.5) : 0);
		row[9] = s->tokens > 0 ? v[9] : NULL;
		snprintf(v[10], sizeof(v[10]), "%s", s->warmup ? "yes" : "no");
		gp_writer_row(w, row);
	}
}

/* --view comm: per device with communication (layer NULL), its
** communication kernels, their time, hidden under compute and exposed,
** the hidden share, the SMs they hold while compute runs (time-weighted,
** 1 decimal; NULL when nothing is hidden) and the device's SM count (NULL
** unknown); then per layer and pass over every device (device NULL),
** most communication first (docs/comm.md, "Overlap"). */
static void write_comm(gp_writer *w, const gp_trace *t, const struct gp_comm_overlap *o)
{
	char v[10][512];
	const char *row[10];

	for (size_t i = 0; i < o->ndev + o->ngroups; i++) {
		const struct gp_co_device *d = i < o->ndev ? &o->dev[i] : NULL;
		const struct gp_co_group *g = d ? NULL : &o->groups[i - o->ndev];
		gp_ns comm = d ? d->comm : g->comm, hidden = d ? d->hidden : g->hidden;
		for (int c = 0; c < 10; c++)
			row[c] = v[c];
		snprintf(v[0], sizeof(v[0]), "%d", d ? (int)d->device : 0);
		row[0] = d ? v[0] : NULL;
		snprintf(v[1], sizeof(v[1]), "%s", g && g->layer ? gp_s(t, g->layer) : "");
		row[1] = g && g->layer ? v[1] : NULL;
		snprintf(v[2], sizeof(v[2]), "%s", g ? gp_dir_name(g->dir) : "");
		row[2] = g && g->dir != GP_DIR_NA ? v[2] : NULL;
		snprintf(v[3], sizeof(v[3]), "%" PRIu64, d ? d->kernels : g->kernels);
		cell_time(v[4], sizeof(v[4]), comm);
		cell_time(v[5], sizeof(v[5]), hidden);
		cell_time(v[6], sizeof(v[6]), d ? d->exposed : g->exposed);
		snprintf(v[7], sizeof(v[7]), "%.2f", gp_percent(hidden, comm));
		snprintf(v[8], sizeof(v[8]), "%.1f", gp_co_sms(d ? d->sm_ns : g->sm_ns, hidden));
		row[8] = hidden > 0 ? v[8] : NULL;
		snprintf(v[9], sizeof(v[9]), "%d", d ? (int)d->sm_count : 0);
		row[9] = d && d->sm_count > 0 ? v[9] : NULL;
		gp_writer_row(w, row);
	}
}

/* Per graph replayed (the runner's GP_NEED_GRAPHS rows, most GPU time
** first): "graph 3" by its id, else "N kernels: FIRST" (its replays' size
** and first kernel); the batch size of the captures its replays matched
** ("several", none: empty); replays, kernels per replay, GPU time, the
** share of it with an op, the gaps inside its replays and their idle. */
static void write_graphs(gp_writer *w, const gp_trace *t, const struct gp_graph_table *g)
{
	char v[8][512];
	const char *row[8] = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};

	for (size_t i = 0; i < g->v.n; i++) {
		const struct gp_graph_row *r = &g->v.v[i];
		const struct gp_kernel_def *d = gp_kernel_def(t, &t->kernels.v[r->first]);
		if (r->graph_id)
			snprintf(v[0], sizeof(v[0]), "graph %u", (unsigned)r->graph_id);
		else
			snprintf(v[0], sizeof(v[0]), "%u kernels: %s", (unsigned)r->size,
				 gp_s(t, d->name ? d->name : d->demangled));
		row[1] = v[1];
		if (r->batch >= 0)
			snprintf(v[1], sizeof(v[1]), "%d", (int)r->batch);
		else if (r->batch == GP_GRAPH_BATCH_SEVERAL)
			snprintf(v[1], sizeof(v[1]), "several");
		else
			row[1] = NULL;
		snprintf(v[2], sizeof(v[2]), "%zu", r->replays);
		snprintf(v[3], sizeof(v[3]), "%.1f", r->replays ? (double)r->kernels / (double)r->replays : 0.0);
		cell_time(v[4], sizeof(v[4]), r->gpu_ns);
		snprintf(v[5], sizeof(v[5]), "%.2f", gp_percent(r->attributed_ns, r->gpu_ns));
		snprintf(v[6], sizeof(v[6]), "%zu", r->gaps);
		cell_time(v[7], sizeof(v[7]), r->gap_ns);
		gp_writer_row(w, row);
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
		else if (strcmp(arg, "critical") == 0)
			o->view = VIEW_CRITICAL;
		else if (strcmp(arg, "phases") == 0)
			o->view = VIEW_PHASES;
		else if (strcmp(arg, "graphs") == 0)
			o->view = VIEW_GRAPHS;
		else if (strcmp(arg, "steps") == 0)
			o->view = VIEW_STEPS;
		else if (strcmp(arg, "comm") == 0)
			o->view = VIEW_COMM;
		else
			return gp_cli_usage("breakdown", "--view wants time, streams, gaps, depth, critical, phases, "
					    "steps, graphs or comm, not '%s'", arg);
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
	case OWN_UNLINKED:
		o->unlinked = true;
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
	size_t top;                     /* --view critical: rows of the whole path */
};

/* Writes the rows of the view to w: breakdown b's, or a's TraceLens
** timeline. */
static void write_view(const struct job *j, const struct gp_analysis *a, gp_writer *w)
{
	const gp_breakdown *b = &a->breakdown;

	if (j->view == VIEW_PHASES)
		write_phases(w, a);
	else if (j->view == VIEW_STEPS)
		write_steps(w, a->trace, a);
	else if (j->view == VIEW_GRAPHS)
		write_graphs(w, a->trace, &a->graphs);
	else if (j->view == VIEW_COMM)
		write_comm(w, a->trace, &a->comm_overlap);
	else if (j->view == VIEW_STREAMS)
		write_streams(w, b);
	else if (j->view == VIEW_GAPS)
		write_gaps(w, a->trace, b);
	else if (j->view == VIEW_DEPTH)
		write_depth(w, a->trace, b);
	else if (j->view == VIEW_TRACELENS)
		write_tracelens(w, &a->tracelens, gp_s(a->trace, a->trace->path));
	else if (j->view == VIEW_HTA)
		write_hta(w, b);
	else if (j->view == VIEW_HTA_IDLE)
		write_hta_idle(w, b);
	else
		write_time(w, b);
}

/* The time view's note on stderr, per device whose communication runs
** under compute: the SMs its kernels hold meanwhile (commover.h). */
static void sms_note(const gp_trace *t, const struct gp_comm_overlap *o)
{
	char d[32];

	for (size_t i = 0; i < o->ndev; i++) {
		const struct gp_co_device *x = &o->dev[i];
		if (x->hidden <= 0 || x->sm_count <= 0)
			continue;
		fprintf(stderr, "gpuprof: note: %s: GPU %d: communication kernels hold %.1f of %d SMs while "
			"compute runs (their blocks, time-weighted over the %s of comm_hidden; --view comm)\n",
			gp_s(t, t->path), (int)x->device, gp_co_sms(x->sm_ns, x->hidden), (int)x->sm_count,
			gp_fmt_duration((double)x->hidden, d, sizeof(d)));
	}
}

static int breakdown_trace(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	const struct job *j = ctx;
	struct gp_analysis a;
	int rc = gp_analysis_run(t, j->needs, &j->ao, &a, err);

	if (rc == GP_OK && a.comm_audit.nbig) {
		/* the split into compute and communication counts them as compute */
		char note[1024];
		fprintf(stderr, "gpuprof: note: %s: %s\n", gp_s(t, t->path),
			gp_comm_audit_note(t, &a.comm_audit, note, sizeof(note)));
	}
	if (rc == GP_OK && j->view == VIEW_TIME)
		sms_note(t, &a.comm_overlap);
	if (rc == GP_OK && j->view == VIEW_CRITICAL)
		write_critical(w, t, &a.critpath, j->top);
	else if (rc == GP_OK)
		write_view(j, &a, w);
	gp_analysis_free(&a);
	return rc;
}

int cmd_breakdown(int argc, char **argv)
{
	struct opts o = {.view = VIEW_TIME, .buckets = GP_DEPTH_BUCKETS};
	struct job j = {0};
	struct gp_cli_many m = {.cmd = "breakdown", .fn = breakdown_trace, .ctx = &j,
				.needs_kernels = true};
	struct gp_cli_opts co;
	int rc;

	rc = gp_cli_parse(&breakdown_spec, argc, argv, &co, breakdown_option, &o);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	j.table = strcmp(co.format, "table") == 0;
	switch (o.view) {
	case VIEW_STREAMS:
		m.cols = stream_cols, m.ncols = NCOL(stream_cols);
		break;
	case VIEW_GAPS:
		m.cols = gap_cols, m.ncols = NCOL(gap_cols);
		break;
	case VIEW_DEPTH:
		m.cols = depth_cols, m.ncols = NCOL(depth_cols);
		break;
	case VIEW_CRITICAL:
		m.cols = crit_cols, m.ncols = NCOL(crit_cols);
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
	case VIEW_PHASES:
		m.cols = phase_cols, m.ncols = NCOL(phase_cols);
		break;
	case VIEW_GRAPHS:
		m.cols = graph_cols, m.ncols = NCOL(graph_cols);
		break;
	case VIEW_STEPS:
		m.cols = step_cols, m.ncols = NCOL(step_cols);
		break;
	case VIEW_COMM:
		m.cols = comm_cols, m.ncols = NCOL(comm_cols);
		break;
	default:
		m.cols = time_cols, m.ncols = NCOL(time_cols);
	}
	j.view = o.view;
	j.needs = o.view == VIEW_CRITICAL ? GP_NEED_CRITPATH
		: o.view == VIEW_TRACELENS ? GP_NEED_TRACELENS
		: o.view == VIEW_PHASES || o.view == VIEW_STEPS ? GP_NEED_PHASES
		: o.view == VIEW_GRAPHS ? GP_NEED_GRAPHS
		: o.view == VIEW_COMM ? GP_NEED_COMM_OVERLAP
		: GP_NEED_BREAKDOWN | (o.view == VIEW_TIME ? GP_NEED_COMM_OVERLAP : 0) |
		  (o.view == VIEW_GAPS ? GP_NEED_TOP_GAPS : 0) |
		  (o.view == VIEW_DEPTH ? GP_NEED_DEPTH : 0);
	j.top = co.top == SIZE_MAX ? (j.table ? 20 : SIZE_MAX) : co.top;
	gp_cli_analysis_opts(&co, &j.ao);   /* the ops files: communication by the user's rows */
	if (co.top != SIZE_MAX)
		j.ao.top_gaps = co.top;
	j.ao.depth_buckets = o.buckets;
	if (o.unlinked && o.view != VIEW_TRACELENS)
		return gp_cli_usage("breakdown", "--include-unlinked goes with --as tracelens");
	j.ao.tracelens_unlinked = o.unlinked;
	j.ao.hta = o.view == VIEW_HTA || o.view == VIEW_HTA_IDLE;
	return gp_cli_run(&m, &co);
}
