/*
** The kernel row's columns and cells; see kernel_cols.h.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attr_graph.h"
#include "util/alloc.h"
#include "util/fmt.h"
#include "writers/kernel_cols.h"

const struct gp_column gp_kernel_columns[GP_KC__COUNT] = {
	[GP_KC_IDX] = {"idx", "Idx", 7, true, false, NULL},
	[GP_KC_SEQ] = {"seq", "SeqId", 7, false, false, "-"},
	[GP_KC_ALTSEQ] = {"altseq", "AltSeqId", 7, false, false, "-"},
	[GP_KC_TID] = {"tid", "TId", 12, true, false, NULL},
	[GP_KC_LAYER] = {"layer", "Layer", 10, false, false, "-"},
	[GP_KC_TRACE] = {"trace", "Trace", 25, false, false, "-"},
	[GP_KC_DIR] = {"dir", "Direction", 5, false, false, NULL},
	[GP_KC_SUB] = {"sub", "Sub", 3, true, false, NULL},
	[GP_KC_MOD] = {"mod", "Module", 15, false, false, NULL},
	[GP_KC_OP] = {"op", "Op", 15, false, false, NULL},
	[GP_KC_KERNEL] = {"kernel", "Kernel", 10, false, true, NULL},
	[GP_KC_PARAMS] = {"params", "Params", 10, false, true, NULL},
	[GP_KC_SIL] = {"sil", "Sil(ns)", 10, true, false, NULL},
	[GP_KC_TC] = {"tc", "TC", 2, false, false, NULL},
	[GP_KC_DEVICE] = {"device", "Device", 3, true, false, NULL},
	[GP_KC_STREAM] = {"stream", "Stream", 3, true, false, NULL},
	[GP_KC_GRID] = {"grid", "Grid", 12, false, false, NULL},
	[GP_KC_BLOCK] = {"block", "Block", 12, false, false, NULL},
	[GP_KC_FLOPS] = {"flops", "FLOPs", 12, true, false, NULL},
	[GP_KC_BYTES] = {"bytes", "Bytes", 12, true, false, NULL},
	[GP_KC_START] = {"start", "Start(ns)", 12, true, false, NULL},
	[GP_KC_END] = {"end", "End(ns)", 12, true, false, NULL},
	[GP_KC_PID] = {"pid", "PId", 6, true, false, NULL},
	[GP_KC_CORR] = {"corr", "CorrId", 6, true, false, NULL},
	[GP_KC_LONGNAME] = {"longname", "LongName", 20, false, true, NULL},
	[GP_KC_LABEL] = {"label", "Label", 20, false, true, NULL},
	[GP_KC_REGS] = {"regs", "Regs", 4, true, false, NULL},
	[GP_KC_SMEM] = {"smem", "SMem", 6, true, false, NULL},
	[GP_KC_LATENCY] = {"latency", "Latency(ns)", 10, true, false, NULL},
	[GP_KC_API] = {"api", "API", 16, false, false, NULL},
	[GP_KC_GFLOPS] = {"gflops", "GFLOP/s", 8, true, false, NULL},
	[GP_KC_GBPS] = {"gbps", "GB/s", 8, true, false, NULL},
	[GP_KC_INTENSITY] = {"intensity", "FLOP/B", 7, true, false, NULL},
	[GP_KC_IDEAL] = {"ideal", "Ideal(ns)", 10, true, false, NULL},
	[GP_KC_EFF] = {"eff", "Eff", 5, true, false, NULL},
	[GP_KC_BOUND] = {"bound", "Bound", 7, false, false, NULL},
	[GP_KC_TCELIG] = {"tceligible", "TCElig", 2, false, false, NULL},
	[GP_KC_ITER] = {"iter", "Iter", 4, true, false, NULL},
	[GP_KC_MARKER] = {"marker", "Marker", 15, false, false, NULL},
	[GP_KC_GRAPH] = {"graph", "Graph", 8, false, false, NULL},
	[GP_KC_DTYPE] = {"dtype", "DType", 7, false, false, NULL},
	[GP_KC_PEAK] = {"peak", "Peak(TFLOP/s)", 8, true, false, NULL},
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

static const char *kernel_cell(struct gp_kcells *c, const char *name)
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

/* See kernel_cols.h. */
const char *gp_kernel_cell(const gp_trace *t, const struct gp_ops *ops, size_t k, int col, bool short_trace,
			struct gp_kcells *c)
{
	const struct gp_opres *res = ops ? ops->r : NULL;
	const struct gp_kernel *kr = &t->kernels.v[k];
	const struct gp_kernel_def *kd = gp_kernel_def(t, kr);
	const struct gp_attr *a = &t->attrs[k];
	const struct gp_api *api = a->api >= 0 ? &t->apis.v[a->api] : NULL;
	char *buf = c->num[col];
	const size_t sz = sizeof(c->num[col]);

	switch (col) {
	case GP_KC_IDX: return gp_fmt_u64(buf, k);
	case GP_KC_SEQ: return gp_known_text(gp_attr_seq_list(t, a, buf));
	case GP_KC_ALTSEQ: return gp_known_text(gp_s(t, a->altseq_list));
	case GP_KC_TID:
		if (!api)
			return NULL;
		return gp_fmt_u64(buf, api->tid);
	case GP_KC_LAYER: return gp_known_text(gp_s(t, a->layer));
	case GP_KC_TRACE:
		if (!a->trace)
			return NULL;
		return short_trace ? innermost_frame(gp_s(t, a->trace)) : gp_s(t, a->trace);
	case GP_KC_DIR: return a->dir == GP_DIR_NA ? NULL : gp_dir_name(a->dir);
	case GP_KC_SUB: return gp_fmt_i64(buf, a->sub);
	case GP_KC_MOD: return gp_known_text(gp_s(t, a->mod));
	case GP_KC_MARKER: return gp_known_text(gp_s(t, a->marker));
	case GP_KC_GRAPH: return gp_graph_state_name(a->graph);
	case GP_KC_OP: return gp_known_text(gp_s(t, res && res[k].op ? res[k].op : a->op));
	case GP_KC_KERNEL: return kernel_cell(c, gp_known_text(gp_s(t, kd->name)));
	case GP_KC_PARAMS: return gp_known_text(res ? gp_s(t, res[k].params) : NULL);
	case GP_KC_SIL: return gp_fmt_i64(buf, kr->end - kr->start);
	case GP_KC_TC: return tc_name(res ? res[k].tc : GP_TC_NA);
	case GP_KC_DEVICE: return gp_fmt_i64(buf, gp_kernel_device(t, kr));
	case GP_KC_STREAM: return gp_fmt_u64(buf, kr->stream);
	case GP_KC_GRID:
		snprintf(buf, sz, "%" PRIu32 ",%" PRIu32 ",%" PRIu32, gp_kernel_def(t, kr)->grid[0], gp_kernel_def(t, kr)->grid[1],
			 gp_kernel_def(t, kr)->grid[2]);
		return buf;
	case GP_KC_BLOCK:
		snprintf(buf, sz, "%" PRIu32 ",%" PRIu32 ",%" PRIu32, kd->block[0], kd->block[1], kd->block[2]);
		return buf;
	case GP_KC_FLOPS:
	case GP_KC_BYTES: {
		double v = !res ? -1 : col == GP_KC_FLOPS ? res[k].flops : res[k].bytes;
		if (v < 0)
			return NULL;
		snprintf(buf, sz, "%.0f", v);
		return buf;
	}
	case GP_KC_START: return gp_fmt_i64(buf, kr->start);
	case GP_KC_END: return gp_fmt_i64(buf, kr->end);
	case GP_KC_PID:
		if (!gp_kernel_pid(t, kr))
			return NULL;
		return gp_fmt_u64(buf, gp_kernel_pid(t, kr));
	case GP_KC_CORR: return gp_fmt_u64(buf, kr->corr);
	case GP_KC_LONGNAME: return gp_known_text(gp_s(t, gp_kernel_long_name_of(t, kr)));
	case GP_KC_LABEL: return gp_known_text(gp_kernel_label_text(t, kr, c->label, sizeof(c->label)));
	case GP_KC_REGS: return gp_fmt_u64(buf, kd->regs);
	case GP_KC_SMEM:
		return gp_fmt_u64(buf, (uint64_t)kd->static_smem + kd->dynamic_smem);
	case GP_KC_LATENCY:
		if (!api)
			return NULL;
		return gp_fmt_i64(buf, kr->start - api->start);
	case GP_KC_API: return api ? gp_known_text(gp_s(t, gp_api_def(t, api)->name)) : NULL;
	case GP_KC_GFLOPS: case GP_KC_GBPS: case GP_KC_INTENSITY: case GP_KC_IDEAL: case GP_KC_EFF: case GP_KC_BOUND: {
		struct gp_roofline rl;
		double v;
		if (!res)
			return NULL;
		gp_op_roofline(t, ops, k, &rl);
		if (col == GP_KC_BOUND)
			return rl.bound < 0 ? NULL : rl.bound ? "compute" : "memory";
		v = col == GP_KC_GFLOPS ? rl.gflops : col == GP_KC_GBPS ? rl.gbps : col == GP_KC_INTENSITY ? rl.intensity
		    : col == GP_KC_IDEAL ? rl.ideal_ns : rl.eff;
		if (v < 0)
			return NULL;
		snprintf(buf, sz, col == GP_KC_IDEAL ? "%.0f" : col == GP_KC_EFF ? "%.3f" : "%.2f", v);
		return buf;
	}
	case GP_KC_DTYPE:
		if (!res || res[k].dtype == GP_DT_UNKNOWN)
			return NULL;
		return gp_dtype_short((enum gp_dtype)res[k].dtype);
	case GP_KC_PEAK: {
		double f = res && !res[k].comm ? gp_op_peak(ops, k)->flops : 0;
		if (f <= 0)
			return NULL;
		snprintf(buf, sz, "%.1f", f / 1e12);
		return buf;
	}
	case GP_KC_TCELIG:
		if (!res || !res[k].family)
			return NULL;
		return res[k].tc_eligible ? "1" : "0";
	case GP_KC_ITER:
		if (a->iter < 0)
			return NULL;
		return gp_fmt_i64(buf, a->iter);
	}
	return NULL;
}

/* See kernel_cols.h. */
bool gp_kernel_cols_need_ops(const int *sel, int n)
{
	for (int i = 0; i < n; i++)
		if (sel[i] == GP_KC_OP || sel[i] == GP_KC_PARAMS || sel[i] == GP_KC_TC || sel[i] == GP_KC_FLOPS ||
		    sel[i] == GP_KC_BYTES || (sel[i] >= GP_KC_GFLOPS && sel[i] <= GP_KC_TCELIG) ||
		    sel[i] == GP_KC_DTYPE || sel[i] == GP_KC_PEAK)
			return true;
	return false;
}


void gp_kcells_free(struct gp_kcells *c)
{
	free(c->kernel);
	c->kernel = NULL;
	c->kernel_cap = 0;
}
