/*
** gpuprof report: one row per kernel in start order with PyProf's columns
** (prof -c ...), their names and meanings, plus columns PyProf lacked
** (docs/report.md).  Cells are formatted into per-column buffers reused for
** every row: no allocation per row.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/attr_graph.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "util/fmt.h"
#include "writers/writer.h"

enum col {
	C_IDX, C_SEQ, C_ALTSEQ, C_TID, C_LAYER, C_TRACE, C_DIR, C_SUB, C_MOD, C_OP, C_KERNEL,
	C_PARAMS, C_SIL, C_TC, C_DEVICE, C_STREAM, C_GRID, C_BLOCK, C_FLOPS, C_BYTES,
	/* beyond PyProf */
	C_START, C_END, C_PID, C_CORR, C_LONGNAME, C_REGS, C_SMEM, C_LATENCY, C_API,
	/* roofline (op model) */
	C_GFLOPS, C_GBPS, C_INTENSITY, C_IDEAL, C_EFF, C_BOUND, C_TCELIG,
	C_ITER,   /* iteration (Kineto ProfilerStep#N) */
	C_MARKER, C_GRAPH,  /* the raw op, the graph replay's attribution */
	C_LABEL,            /* the kernel's label, as the other commands show it */
	C_DTYPE, C_PEAK,    /* the element type it computes in, the peak its eff is against */
	C__COUNT
};

static const struct gp_column columns[C__COUNT] = {
	[C_IDX] = {"idx", "Idx", 7, true, false, NULL},
	[C_SEQ] = {"seq", "SeqId", 7, false, false, "-"},
	[C_ALTSEQ] = {"altseq", "AltSeqId", 7, false, false, "-"},
	[C_TID] = {"tid", "TId", 12, true, false, NULL},
	[C_LAYER] = {"layer", "Layer", 10, false, false, "-"},
	[C_TRACE] = {"trace", "Trace", 25, false, false, "-"},
	[C_DIR] = {"dir", "Direction", 5, false, false, NULL},
	[C_SUB] = {"sub", "Sub", 3, true, false, NULL},
	[C_MOD] = {"mod", "Module", 15, false, false, NULL},
	[C_OP] = {"op", "Op", 15, false, false, NULL},
	[C_KERNEL] = {"kernel", "Kernel", 10, false, true, NULL},
	[C_PARAMS] = {"params", "Params", 10, false, true, NULL},
	[C_SIL] = {"sil", "Sil(ns)", 10, true, false, NULL},
	[C_TC] = {"tc", "TC", 2, false, false, NULL},
	[C_DEVICE] = {"device", "Device", 3, true, false, NULL},
	[C_STREAM] = {"stream", "Stream", 3, true, false, NULL},
	[C_GRID] = {"grid", "Grid", 12, false, false, NULL},
	[C_BLOCK] = {"block", "Block", 12, false, false, NULL},
	[C_FLOPS] = {"flops", "FLOPs", 12, true, false, NULL},
	[C_BYTES] = {"bytes", "Bytes", 12, true, false, NULL},
	[C_START] = {"start", "Start(ns)", 12, true, false, NULL},
	[C_END] = {"end", "End(ns)", 12, true, false, NULL},
	[C_PID] = {"pid", "PId", 6, true, false, NULL},
	[C_CORR] = {"corr", "CorrId", 6, true, false, NULL},
	[C_LONGNAME] = {"longname", "LongName", 20, false, true, NULL},
	[C_LABEL] = {"label", "Label", 20, false, true, NULL},
	[C_REGS] = {"regs", "Regs", 4, true, false, NULL},
	[C_SMEM] = {"smem", "SMem", 6, true, false, NULL},
	[C_LATENCY] = {"latency", "Latency(ns)", 10, true, false, NULL},
	[C_API] = {"api", "API", 16, false, false, NULL},
	[C_GFLOPS] = {"gflops", "GFLOP/s", 8, true, false, NULL},
	[C_GBPS] = {"gbps", "GB/s", 8, true, false, NULL},
	[C_INTENSITY] = {"intensity", "FLOP/B", 7, true, false, NULL},
	[C_IDEAL] = {"ideal", "Ideal(ns)", 10, true, false, NULL},
	[C_EFF] = {"eff", "Eff", 5, true, false, NULL},
	[C_BOUND] = {"bound", "Bound", 7, false, false, NULL},
	[C_TCELIG] = {"tceligible", "TCElig", 2, false, false, NULL},
	[C_ITER] = {"iter", "Iter", 4, true, false, NULL},
	[C_MARKER] = {"marker", "Marker", 15, false, false, NULL},
	[C_GRAPH] = {"graph", "Graph", 8, false, false, NULL},
	[C_DTYPE] = {"dtype", "DType", 7, false, false, NULL},
	[C_PEAK] = {"peak", "Peak(TFLOP/s)", 8, true, false, NULL},
};

static const struct gp_cmd_spec report_spec = {
	.name = "report",
	.about =
	"One row per kernel in start order, with PyProf's columns and meanings: the\n"
	"launching op (module, op, direction, sequence number, sub-index), the\n"
	"kernel, its duration and launch shape, and the op model's params, FLOPs,\n"
	"bytes and tensor-core use.  Unknown fields print as 'na' ('-' for seq,\n"
	"altseq, layer and trace, as PyProf), null in json.  See docs/report.md.",
	.shared = GP_OPT_COLUMNS | GP_OPT_FORMAT | GP_OPT_CSV | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_TOP |
		  GP_OPT_PEAKS | GP_OPT_WINDOW | GP_OPT_NAMES,
	.row_formats = true,
	.more =
	"With -w, kernel and params (and longname) are truncated first, then the\n"
	"other text columns down to their minimum widths; trace shows the\n"
	"innermost file.  PyProf's command line works as it is:\n"
	"prof.py --csv -c idx,kernel,sil -w 150 FILE = gpuprof report --csv ...\n\n"
	"Default columns: idx,dir,sub,mod,op,kernel,params,sil\n"
	"Columns (PyProf's): idx seq altseq tid layer trace dir sub mod op kernel\n"
	"  params sil tc device stream grid block flops bytes\n"
	"Columns (added): start end pid corr longname (demangled name) label (the\n"
	"  short name keeping the functor, as summary and html show kernels) regs\n"
	"  smem (static+dynamic bytes) latency (kernel start - API start, ns)\n"
	"  api (launching API call) iter (iteration: ProfilerStep#N, \"iteration N\" ranges)\n"
	"Columns (roofline, docs/op-model.md; peaks of the trace's GPU from the\n"
	"  GPU table, else estimated from its properties: info says which):\n"
	"  gflops gbps (achieved), intensity\n"
	"  (FLOP/byte), ideal (max(FLOPs/peak, bytes/bandwidth), ns), eff\n"
	"  (ideal/measured, at most 1: na, as flops and bytes, for a kernel whose\n"
	"  modelled work exceeds the peaks; info names them), bound (compute or\n"
	"  memory), tceligible (1: a GEMM, conv or attention op in\n"
	"  fp16/bf16/tf32/fp8/fp6/fp4), dtype (the element type it computes in: the\n"
	"  op's, or the fp8/fp6/fp4 its tensor-core kernel's name shows), peak (the\n"
	"  TFLOP/s of that type, tensor cores or not, eff is measured against)",
};

/* Per-column cell buffers, reused for every row. */
struct cells {
	char num[C__COUNT][48];   /* >= GP_FMT_INT_SIZE */
	char *kernel;           /* kernel name with spaces -> '_' */
	size_t kernel_cap;
	char label[1024];       /* C_LABEL */
};

/* The innermost frame's file name ("model.py:12") of a comma-joined
** frame list, as PyProf's -w mode shows it. */
static const char *innermost_frame(const char *trace)
{
	const char *last = strrchr(trace, ',');
	const char *p = last ? last + 1 : trace;
	const char *slash = strrchr(p, '/');
	return slash ? slash + 1 : p;
}

static const char *kernel_cell(struct cells *c, const char *name)
{
	size_t n;

	if (!name || !strchr(name, ' '))
		return name;
	n = strlen(name);
	if (n + 1 > c->kernel_cap) {
		c->kernel_cap = 2 * (n + 1);
		c->kernel = gp_xrealloc(c->kernel, c->kernel_cap);
	}
	for (size_t i = 0; i <= n; i++)
		c->kernel[i] = name[i] == ' ' ? '_' : name[i];
	return c->kernel;
}

static const char *tc_name(int tc)
{
	switch (tc) {
	case GP_TC_YES: return "1";
	case GP_TC_NO: return "0";
	case GP_TC_NOT_APPLICABLE: return "-";
	default: return NULL;
	}
}

/* Formats one cell of kernel k (ops: the op model, NULL when not run);
** NULL when the value is unknown. */
static const char *cell(const gp_trace *t, const struct gp_ops *ops, size_t k, int col, bool short_trace,
			struct cells *c)
{
	const struct gp_opres *res = ops ? ops->r : NULL;
	const struct gp_kernel *kr = &t->kernels.v[k];
	const struct gp_kernel_def *kd = gp_kernel_def(t, kr);
	const struct gp_attr *a = &t->attrs[k];
	const struct gp_api *api = a->api >= 0 ? &t->apis.v[a->api] : NULL;
	char *buf = c->num[col];
	const size_t sz = sizeof(c->num[col]);

	switch (col) {
	case C_IDX: return gp_fmt_u64(buf, k);
	case C_SEQ: return gp_known_text(gp_attr_seq_list(t, a, buf));
	case C_ALTSEQ: return gp_known_text(gp_s(t, a->altseq_list));
	case C_TID:
		if (!api)
			return NULL;
		return gp_fmt_u64(buf, api->tid);
	case C_LAYER: return gp_known_text(gp_s(t, a->layer));
	case C_TRACE:
		if (!a->trace)
			return NULL;
		return short_trace ? innermost_frame(gp_s(t, a->trace)) : gp_s(t, a->trace);
	case C_DIR: return a->dir == GP_DIR_NA ? NULL : gp_dir_name(a->dir);
	case C_SUB: return gp_fmt_i64(buf, a->sub);
	case C_MOD: return gp_known_text(gp_s(t, a->mod));
	case C_MARKER: return gp_known_text(gp_s(t, a->marker));
	case C_GRAPH: return gp_graph_state_name(a->graph);
	case C_OP: return gp_known_text(gp_s(t, res && res[k].op ? res[k].op : a->op));
	case C_KERNEL: return kernel_cell(c, gp_known_text(gp_s(t, kd->name)));
	case C_PARAMS: return gp_known_text(res ? gp_s(t, res[k].params) : NULL);
	case C_SIL: return gp_fmt_i64(buf, kr->end - kr->start);
	case C_TC: return tc_name(res ? res[k].tc : GP_TC_NA);
	case C_DEVICE: return gp_fmt_i64(buf, gp_kernel_device(t, kr));
	case C_STREAM: return gp_fmt_u64(buf, kr->stream);
	case C_GRID:
		snprintf(buf, sz, "%" PRIu32 ",%" PRIu32 ",%" PRIu32, gp_kernel_def(t, kr)->grid[0], gp_kernel_def(t, kr)->grid[1],
			 gp_kernel_def(t, kr)->grid[2]);
		return buf;
	case C_BLOCK:
		snprintf(buf, sz, "%" PRIu32 ",%" PRIu32 ",%" PRIu32, kd->block[0], kd->block[1], kd->block[2]);
		return buf;
	case C_FLOPS:
	case C_BYTES: {
		double v = !res ? -1 : col == C_FLOPS ? res[k].flops : res[k].bytes;
		if (v < 0)
			return NULL;
		snprintf(buf, sz, "%.0f", v);
		return buf;
	}
	case C_START: return gp_fmt_i64(buf, kr->start);
	case C_END: return gp_fmt_i64(buf, kr->end);
	case C_PID:
		if (!gp_kernel_pid(t, kr))
			return NULL;
		return gp_fmt_u64(buf, gp_kernel_pid(t, kr));
	case C_CORR: return gp_fmt_u64(buf, kr->corr);
	case C_LONGNAME: return gp_known_text(gp_s(t, gp_kernel_long_name_of(t, kr)));
	case C_LABEL: return gp_known_text(gp_kernel_label_text(t, kr, c->label, sizeof(c->label)));
	case C_REGS: return gp_fmt_u64(buf, kd->regs);
	case C_SMEM:
		return gp_fmt_u64(buf, (uint64_t)kd->static_smem + kd->dynamic_smem);
	case C_LATENCY:
		if (!api)
			return NULL;
		return gp_fmt_i64(buf, kr->start - api->start);
	case C_API: return api ? gp_known_text(gp_s(t, gp_api_def(t, api)->name)) : NULL;
	case C_GFLOPS: case C_GBPS: case C_INTENSITY: case C_IDEAL: case C_EFF: case C_BOUND: {
		struct gp_roofline rl;
		double v;
		if (!res)
			return NULL;
		gp_op_roofline(t, ops, k, &rl);
		if (col == C_BOUND)
			return rl.bound < 0 ? NULL : rl.bound ? "compute" : "memory";
		v = col == C_GFLOPS ? rl.gflops : col == C_GBPS ? rl.gbps : col == C_INTENSITY ? rl.intensity
		    : col == C_IDEAL ? rl.ideal_ns : rl.eff;
		if (v < 0)
			return NULL;
		snprintf(buf, sz, col == C_IDEAL ? "%.0f" : col == C_EFF ? "%.3f" : "%.2f", v);
		return buf;
	}
	case C_DTYPE:
		if (!res || res[k].dtype == GP_DT_UNKNOWN)
			return NULL;
		return gp_dtype_short((enum gp_dtype)res[k].dtype);
	case C_PEAK: {
		double f = res && !res[k].comm ? gp_op_peak(ops, k)->flops : 0;
		if (f <= 0)
			return NULL;
		snprintf(buf, sz, "%.1f", f / 1e12);
		return buf;
	}
	case C_TCELIG:
		if (!res || !res[k].family)
			return NULL;
		return res[k].tc_eligible ? "1" : "0";
	case C_ITER:
		if (a->iter < 0)
			return NULL;
		return gp_fmt_i64(buf, a->iter);
	}
	return NULL;
}

/* True if a selected column needs the op model. */
static bool needs_ops(const int *sel, int n)
{
	for (int i = 0; i < n; i++)
		if (sel[i] == C_OP || sel[i] == C_PARAMS || sel[i] == C_TC || sel[i] == C_FLOPS ||
		    sel[i] == C_BYTES || (sel[i] >= C_GFLOPS && sel[i] <= C_TCELIG) ||
		    sel[i] == C_DTYPE || sel[i] == C_PEAK)
			return true;
	return false;
}

int cmd_report(int argc, char **argv)
{
	struct gp_cli_opts o;
	struct gp_column sel_cols[C__COUNT];
	int sel[C__COUNT], nsel, rc;
	gp_error err = {0};
	gp_writer w;
	gp_trace t;

	rc = gp_cli_parse(&report_spec, argc, argv, &o, NULL, NULL);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	nsel = gp_columns_select(columns, C__COUNT, o.columns ? o.columns : "idx,dir,sub,mod,op,kernel,params,sil",
				 sel, C__COUNT, &err);
	if (nsel < 0)
		return gp_cli_usage("report", "%s", err.msg);
	for (int i = 0; i < nsel; i++)
		sel_cols[i] = columns[sel[i]];
	if (gp_writer_open(&w, o.format, stdout, sel_cols, nsel, &o.wo, &err))
		return gp_cli_usage("report", "%s", err.msg);
	/* --full-names: the kernel column shows longname's text */
	for (int i = 0; i < nsel && o.names == GP_NAMES_FULL; i++)
		if (sel[i] == C_KERNEL)
			sel[i] = C_LONGNAME;

	gp_trace_init(&t);
	rc = gp_cli_load(o.file, &o, &t, NULL);
	if (rc || gp_cli_no_kernels("report", o.file, &t, &o, true)) {   /* the writer wrote nothing yet */
		gp_trace_free(&t);
		return rc;
	}

	struct gp_analysis_opts ao;
	struct gp_analysis a;
	gp_cli_analysis_opts(&o, &ao);
	/* the op model never fails */
	gp_analysis_run(&t, needs_ops(sel, nsel) ? GP_NEED_OPS : 0, &ao, &a, &err);
	const struct gp_ops *ops = gp_analysis_has(&a, GP_NEED_OPS) ? &a.ops : NULL;
	bool short_trace = o.wo.width > 0;
	struct cells cells = {0};
	const char *vals[C__COUNT];

	for (size_t k = 0; k < t.kernels.n && k < o.top; k++) {   /* -n: the first N, in start order */
		for (int i = 0; i < nsel; i++)
			vals[i] = cell(&t, ops, k, sel[i], short_trace, &cells);
		gp_writer_row(&w, vals);
	}
	rc = gp_writer_close(&w, &err);
	free(cells.kernel);
	gp_analysis_free(&a);
	gp_trace_free(&t);
	if (rc) {
		gp_err_print(&err);
		return gp_exit_code(err.status);
	}
	return GP_EXIT_OK;
}
