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
#include "writers/kernel_cols.h"
#include "writers/writer.h"

static const struct gp_cmd_opt report_own[] = {
	{"sort", 's', "COL", "rows in the order of this column (a -c key, shown or\n"
	 "not): numbers largest first, texts A to Z; -n then\n"
	 "keeps the first N of that order (default: start order)"},
	{NULL, 0, NULL, NULL},
};

/* -s's column: the option's argument. */
static int report_option(void *ctx, int index, const char *arg)
{
	*(const char **)ctx = arg;
	return 0;
}

static const struct gp_cmd_spec report_spec = {
	.name = "report",
	.about =
	"One row per kernel in start order, with PyProf's columns and meanings: the\n"
	"launching op (module, op, direction, sequence number, sub-index), the\n"
	"kernel, its duration and launch shape, and the op model's params, FLOPs,\n"
	"bytes and tensor-core use.  Unknown fields print as 'na' ('-' for seq,\n"
	"altseq, layer and trace, as PyProf), null in json.  See docs/report.md.",
	.shared = GP_OPT_COLUMNS | GP_OPT_FORMAT | GP_OPT_CSV | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_TOP |
		  GP_OPT_PEAKS | GP_OPT_WINDOW | GP_OPT_FILTER | GP_OPT_NAMES,
	.row_formats = true,
	.own = report_own,
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

int cmd_report(int argc, char **argv)
{
	struct gp_cli_opts o;
	struct gp_column sel_cols[GP_KC__COUNT + 1];
	int sel[GP_KC__COUNT + 1], nsel, rc, sort_col = -1;
	const char *sort = NULL;
	gp_error err = {0};
	gp_writer w;
	gp_trace t;

	rc = gp_cli_parse(&report_spec, argc, argv, &o, report_option, &sort);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	nsel = gp_columns_select(gp_kernel_columns, GP_KC__COUNT, o.columns ? o.columns : "idx,dir,sub,mod,op,kernel,params,sil",
				 sel, GP_KC__COUNT, &err);
	if (nsel < 0)
		return gp_cli_usage("report", "%s", err.msg);
	if (sort && (sort_col = gp_column_find(gp_kernel_columns, GP_KC__COUNT, sort)) < 0)
		return gp_cli_usage("report", "bad --sort '%s' (a column key: see --help)", sort);
	for (int i = 0; i < nsel; i++)
		sel_cols[i] = gp_kernel_columns[sel[i]];
	if (sort_col >= 0) {   /* kept after the shown ones (cell nsel) */
		sel[nsel] = sort_col == GP_KC_KERNEL && o.names == GP_NAMES_FULL ? GP_KC_LONGNAME : sort_col;
		sel_cols[nsel] = gp_kernel_columns[sort_col];
	}
	if (gp_writer_open(&w, o.format, stdout, sel_cols, nsel, &o.wo, &err))
		return gp_cli_usage("report", "%s", err.msg);
	/* --full-names: the kernel column shows longname's text */
	for (int i = 0; i < nsel && o.names == GP_NAMES_FULL; i++)
		if (sel[i] == GP_KC_KERNEL)
			sel[i] = GP_KC_LONGNAME;

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
	gp_analysis_run(&t, gp_kernel_cols_need_ops(sel, nsel + (sort_col >= 0)) ? GP_NEED_OPS : 0, &ao, &a, &err);
	const struct gp_ops *ops = gp_analysis_has(&a, GP_NEED_OPS) ? &a.ops : NULL;
	bool short_trace = o.wo.width > 0;
	struct gp_kcells cells = {0};
	const char *vals[GP_KC__COUNT];

	if (sort_col < 0) {
		for (size_t k = 0; k < t.kernels.n && k < o.top; k++) {   /* -n: the first N, in start order */
			for (int i = 0; i < nsel; i++)
				vals[i] = gp_kernel_cell(&t, ops, k, sel[i], short_trace, &cells);
			gp_writer_row(&w, vals);
		}
	} else {
		/* -s: every row kept with the sort column after the shown
		** ones, then written in its order */
		struct gp_rowbuf rb = {0};
		gp_writer kept;
		gp_rowbuf_writer(&kept, &rb, sel_cols, nsel + 1);
		for (size_t k = 0; k < t.kernels.n; k++) {
			for (int i = 0; i <= nsel; i++)
				vals[i] = gp_kernel_cell(&t, ops, k, sel[i], short_trace, &cells);
			gp_writer_row(&kept, vals);
		}
		rc = gp_rowbuf_replay_sorted(&rb, &w, nsel, sel_cols[nsel].numeric, o.top, &err);
		gp_rowbuf_free(&rb);
	}
	if (gp_writer_close(&w, &err))   /* a kept row cannot be damaged: rc is 0 */
		rc = err.status;
	gp_kcells_free(&cells);
	gp_analysis_free(&a);
	gp_trace_free(&t);
	if (rc) {
		gp_err_print(&err);
		return gp_exit_code(err.status);
	}
	return GP_EXIT_OK;
}
