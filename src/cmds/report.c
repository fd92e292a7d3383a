/*
** gpuprof report: one row per kernel in start order with PyProf's columns
** (prof -c ...), their names and meanings, plus columns PyProf lacked
** (docs/report.md).  Cells are formatted into per-column buffers reused for
** every row: no allocation per row.
*/
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds/cmds.h"
#include "util/fmt.h"
#include "ops/ops.h"
#include "writers/writer.h"

enum col {
	C_IDX, C_SEQ, C_ALTSEQ, C_TID, C_LAYER, C_TRACE, C_DIR, C_SUB, C_MOD, C_OP, C_KERNEL,
	C_PARAMS, C_SIL, C_TC, C_DEVICE, C_STREAM, C_GRID, C_BLOCK, C_FLOPS, C_BYTES,
	/* beyond PyProf */
	C_START, C_END, C_PID, C_CORR, C_LONGNAME, C_REGS, C_SMEM, C_LATENCY, C_API,
	/* roofline (op model) */
	C_GFLOPS, C_GBPS, C_INTENSITY, C_IDEAL, C_EFF, C_BOUND, C_TCELIG,
	C_ITER,   /* iteration (Kineto ProfilerStep#N) */
	C__COUNT
};

static const struct gp_column columns[C__COUNT] = {
	[C_IDX] = {"idx", "Idx", 7, true, false},
	[C_SEQ] = {"seq", "SeqId", 7, false, false},
	[C_ALTSEQ] = {"altseq", "AltSeqId", 7, false, false},
	[C_TID] = {"tid", "TId", 12, true, false},
	[C_LAYER] = {"layer", "Layer", 10, false, false},
	[C_TRACE] = {"trace", "Trace", 25, false, false},
	[C_DIR] = {"dir", "Direction", 5, false, false},
	[C_SUB] = {"sub", "Sub", 3, true, false},
	[C_MOD] = {"mod", "Module", 15, false, false},
	[C_OP] = {"op", "Op", 15, false, false},
	[C_KERNEL] = {"kernel", "Kernel", 10, false, true},
	[C_PARAMS] = {"params", "Params", 10, false, true},
	[C_SIL] = {"sil", "Sil(ns)", 10, true, false},
	[C_TC] = {"tc", "TC", 2, false, false},
	[C_DEVICE] = {"device", "Device", 3, true, false},
	[C_STREAM] = {"stream", "Stream", 3, true, false},
	[C_GRID] = {"grid", "Grid", 12, false, false},
	[C_BLOCK] = {"block", "Block", 12, false, false},
	[C_FLOPS] = {"flops", "FLOPs", 12, true, false},
	[C_BYTES] = {"bytes", "Bytes", 12, true, false},
	[C_START] = {"start", "Start(ns)", 12, true, false},
	[C_END] = {"end", "End(ns)", 12, true, false},
	[C_PID] = {"pid", "PId", 6, true, false},
	[C_CORR] = {"corr", "CorrId", 6, true, false},
	[C_LONGNAME] = {"longname", "LongName", 20, false, true},
	[C_REGS] = {"regs", "Regs", 4, true, false},
	[C_SMEM] = {"smem", "SMem", 6, true, false},
	[C_LATENCY] = {"latency", "Latency(ns)", 10, true, false},
	[C_API] = {"api", "API", 16, false, false},
	[C_GFLOPS] = {"gflops", "GFLOP/s", 8, true, false},
	[C_GBPS] = {"gbps", "GB/s", 8, true, false},
	[C_INTENSITY] = {"intensity", "FLOP/B", 7, true, false},
	[C_IDEAL] = {"ideal", "Ideal(ns)", 10, true, false},
	[C_EFF] = {"eff", "Eff", 5, true, false},
	[C_BOUND] = {"bound", "Bound", 7, false, false},
	[C_TCELIG] = {"tceligible", "TCElig", 2, false, false},
	[C_ITER] = {"iter", "Iter", 4, true, false},
};

static const char report_help[] =
	"usage: gpuprof report [-c COLS] [-f FORMAT] [-w WIDTH] [--no-header] FILE\n\n"
	"One row per kernel in start order, with PyProf's columns and meanings: the\n"
	"launching op (module, op, direction, sequence number, sub-index), the\n"
	"kernel, its duration and launch shape, and the op model's params, FLOPs,\n"
	"bytes and tensor-core use.  Empty fields print as 'na' ('-' for seq,\n"
	"altseq, layer and trace, as PyProf).  See docs/report.md.\n\n"
	"  -c, --columns LIST  comma-separated columns (default\n"
	"                      idx,dir,sub,mod,op,kernel,params,sil)\n"
	"  -f, --format F      table (default), csv, tsv or json\n"
	"  -w, --width N       table: fit lines into N columns, truncating kernel\n"
	"                      and params first (and trace shows the innermost file)\n"
	"      --no-header     omit the header line (table, csv, tsv)\n"
	"      --gpu NAME      peaks of this GPU for the roofline columns (default:\n"
	"                      the trace's device; 'list' shows the table)\n"
	"      --peak-flops F  peak FLOP/s for every kernel (e.g. 312e12)\n"
	"      --peak-bw B     peak memory bandwidth in bytes/s (e.g. 1.555e12)\n"
	"  -h, --help          this text\n\n"
	"Columns (PyProf's): idx seq altseq tid layer trace dir sub mod op kernel\n"
	"  params sil tc device stream grid block flops bytes\n"
	"Columns (added): start end pid corr longname (demangled name) regs\n"
	"  smem (static+dynamic bytes) latency (kernel start - API start, ns)\n"
	"  api (launching API call) iter (iteration: ProfilerStep#N, \"iteration N\" ranges)\n"
	"Columns (roofline, docs/op-model.md): gflops gbps (achieved), intensity\n"
	"  (FLOP/byte), ideal (max(FLOPs/peak, bytes/bandwidth), ns), eff\n"
	"  (ideal/measured), bound (compute or memory), tceligible (1: a GEMM,\n"
	"  conv or attention op in fp16/bf16/tf32/fp8)\n\n";

/* Per-column cell buffers, reused for every row. */
struct cells {
	char num[C__COUNT][48];   /* >= GP_FMT_INT_SIZE */
	char *kernel;           /* kernel name with spaces -> '_' */
	size_t kernel_cap;
};

static const char *or_na(const char *s)
{
	return s && *s ? s : "na";
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

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
	size_t n = strlen(name);

	if (!strchr(name, ' '))
		return name;
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
	default: return "na";
	}
}

/* Formats one cell of kernel k. */
static const char *cell(const gp_trace *t, const struct gp_opres *res, size_t k, int col,
			bool short_trace, const struct gp_peak_opts *po, struct cells *c)
{
	const struct gp_kernel *kr = &t->kernels.v[k];
	const struct gp_attr *a = &t->attrs[k];
	const struct gp_api *api = a->api >= 0 ? &t->apis.v[a->api] : NULL;
	char *buf = c->num[col];
	const size_t sz = sizeof(c->num[col]);

	switch (col) {
	case C_IDX: return gp_fmt_u64(buf, k);
	case C_SEQ: return or_dash(gp_s(t, a->seq_list));
	case C_ALTSEQ: return or_dash(gp_s(t, a->altseq_list));
	case C_TID:
		if (!api)
			return "na";
		return gp_fmt_u64(buf, api->tid);
	case C_LAYER: return or_dash(gp_s(t, a->layer));
	case C_TRACE:
		if (!a->trace)
			return "-";
		return short_trace ? innermost_frame(gp_s(t, a->trace)) : gp_s(t, a->trace);
	case C_DIR: return gp_dir_name(a->dir);
	case C_SUB: return gp_fmt_i64(buf, a->sub);
	case C_MOD: return or_na(gp_s(t, a->mod));
	case C_OP: return or_na(gp_s(t, res && res[k].op ? res[k].op : a->op));
	case C_KERNEL: return kernel_cell(c, or_na(gp_s(t, kr->name)));
	case C_PARAMS: return or_na(res ? gp_s(t, res[k].params) : NULL);
	case C_SIL: return gp_fmt_i64(buf, kr->end - kr->start);
	case C_TC: return tc_name(res ? res[k].tc : GP_TC_NA);
	case C_DEVICE: return gp_fmt_i64(buf, kr->device);
	case C_STREAM: return gp_fmt_u64(buf, kr->stream);
	case C_GRID:
		snprintf(buf, sz, "%" PRIu32 ",%" PRIu32 ",%" PRIu32, kr->grid[0], kr->grid[1], kr->grid[2]);
		return buf;
	case C_BLOCK:
		snprintf(buf, sz, "%" PRIu32 ",%" PRIu32 ",%" PRIu32, kr->block[0], kr->block[1], kr->block[2]);
		return buf;
	case C_FLOPS:
	case C_BYTES: {
		double v = !res ? -1 : col == C_FLOPS ? res[k].flops : res[k].bytes;
		if (v < 0)
			return "na";
		snprintf(buf, sz, "%.0f", v);
		return buf;
	}
	case C_START: return gp_fmt_i64(buf, kr->start);
	case C_END: return gp_fmt_i64(buf, kr->end);
	case C_PID:
		if (!kr->pid)
			return "na";
		return gp_fmt_u64(buf, kr->pid);
	case C_CORR: return gp_fmt_u64(buf, kr->corr);
	case C_LONGNAME: return or_na(gp_s(t, kr->demangled ? kr->demangled : kr->name));
	case C_REGS: return gp_fmt_u64(buf, kr->regs);
	case C_SMEM:
		return gp_fmt_u64(buf, (uint64_t)kr->static_smem + kr->dynamic_smem);
	case C_LATENCY:
		if (!api)
			return "na";
		return gp_fmt_i64(buf, kr->start - api->start);
	case C_API: return api ? or_na(gp_s(t, api->name)) : "na";
	case C_GFLOPS: case C_GBPS: case C_INTENSITY: case C_IDEAL: case C_EFF: case C_BOUND: {
		struct gp_roofline rl;
		double pf = 0, pbw = 0, v;
		if (!res)
			return "na";
		if (!gp_op_is_comm(&res[k]))
			gp_kernel_peaks(t, k, &res[k], po, &pf, &pbw);
		gp_roofline(res[k].flops, res[k].bytes, (double)(kr->end - kr->start), pf, pbw, &rl);
		if (col == C_BOUND)
			return rl.bound < 0 ? "na" : rl.bound ? "compute" : "memory";
		v = col == C_GFLOPS ? rl.gflops : col == C_GBPS ? rl.gbps : col == C_INTENSITY ? rl.intensity
		    : col == C_IDEAL ? rl.ideal_ns : rl.eff;
		if (v < 0)
			return "na";
		snprintf(buf, sz, col == C_IDEAL ? "%.0f" : col == C_EFF ? "%.3f" : "%.2f", v);
		return buf;
	}
	case C_TCELIG:
		if (!res || !res[k].family)
			return "na";
		return res[k].tc_eligible ? "1" : "0";
	case C_ITER:
		if (a->iter < 0)
			return "na";
		return gp_fmt_i64(buf, a->iter);
	}
	return "na";
}

/* True if a selected column needs the op model. */
static bool needs_ops(const int *sel, int n)
{
	for (int i = 0; i < n; i++)
		if (sel[i] == C_OP || sel[i] == C_PARAMS || sel[i] == C_TC || sel[i] == C_FLOPS ||
		    sel[i] == C_BYTES || (sel[i] >= C_GFLOPS && sel[i] <= C_TCELIG))
			return true;
	return false;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"columns", required_argument, NULL, 'c'},
		{"format", required_argument, NULL, 'f'},
		{"width", required_argument, NULL, 'w'},
		{"no-header", no_argument, NULL, 'H'},
		{"gpu", required_argument, NULL, 'G'},
		{"peak-flops", required_argument, NULL, 'F'},
		{"peak-bw", required_argument, NULL, 'B'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *list = "idx,dir,sub,mod,op,kernel,params,sil", *format = "table";
	struct gp_writer_opts wo = {0};
	struct gp_peak_opts po = {0};
	struct gp_column sel_cols[C__COUNT];
	int sel[C__COUNT], nsel, c, rc = 0;
	gp_error err = {0};
	gp_writer w;
	gp_trace t;

	optind = 1;
	while ((c = getopt_long(argc, argv, "c:f:w:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': list = optarg; break;
		case 'f': format = optarg; break;
		case 'w': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v <= 0 || v > 100000)
				return gp_cli_usage("report", "bad width '%s' (a positive number)", optarg);
			wo.width = (int)v;
			break;
		}
		case 'H': wo.no_header = true; break;
		case 'G': case 'F': case 'B':
			rc = gp_peak_option("report", c == 'G' ? "gpu" : c == 'F' ? "peak-flops" : "peak-bw",
					    optarg, &po);
			if (rc)
				return rc < 0 ? GP_EXIT_OK : rc;
			break;
		case 'h': printf("%s%s", report_help, gp_exit_help); return GP_EXIT_OK;
		default: return gp_cli_usage("report", "bad option");
		}
	}
	if (optind != argc - 1)
		return gp_cli_usage("report", "expected exactly one trace file");
	nsel = gp_columns_select(columns, C__COUNT, list, sel, C__COUNT, &err);
	if (nsel < 0)
		return gp_cli_usage("report", "%s", err.msg);
	if (wo.width) {
		int minw = 0;
		for (int i = 0; i < nsel; i++)
			minw += columns[sel[i]].min_width + (i ? 1 : 0);
		if (wo.width < minw)
			return gp_cli_usage("report", "width %d is below the %d the selected columns need",
					    wo.width, minw);
	}
	for (int i = 0; i < nsel; i++)
		sel_cols[i] = columns[sel[i]];

	gp_trace_init(&t);
	rc = gp_cli_load(argv[optind], &t);
	if (rc) {
		gp_trace_free(&t);
		return rc;
	}
	rc = gp_writer_open(&w, format, stdout, sel_cols, nsel, &wo, &err);
	if (rc) {
		gp_trace_free(&t);
		return gp_cli_usage("report", "%s", err.msg);
	}

	struct gp_opres *res = needs_ops(sel, nsel) ? gp_ops_run(&t) : NULL;
	bool short_trace = wo.width > 0;
	struct cells cells = {0};
	const char *vals[C__COUNT];

	for (size_t k = 0; k < t.kernels.n; k++) {
		for (int i = 0; i < nsel; i++)
			vals[i] = cell(&t, res, k, sel[i], short_trace, &po, &cells);
		gp_writer_row(&w, vals);
	}
	rc = gp_writer_close(&w, &err);
	if (!t.kernels.n)
		fprintf(stderr, "gpuprof report: %s has no kernels%s\n", argv[optind],
			t.ranges.n ? " (its ranges and timers: gpuprof ranges FILE)" : "");
	free(cells.kernel);
	free(res);
	gp_trace_free(&t);
	if (rc) {
		gp_err_print(&err);
		return gp_exit_code(err.status);
	}
	return GP_EXIT_OK;
}
