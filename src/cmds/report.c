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
	struct gp_column sel_cols[GP_KC__COUNT];
	int sel[GP_KC__COUNT], nsel, rc;
	gp_error err = {0};
	gp_writer w;
	gp_trace t;

	rc = gp_cli_parse(&report_spec, argc, argv, &o, NULL, NULL);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	nsel = gp_columns_select(gp_kernel_columns, GP_KC__COUNT, o.columns ? o.columns : "idx,dir,sub,mod,op,kernel,params,sil",
				 sel, GP_KC__COUNT, &err);
	if (nsel < 0)
		return gp_cli_usage("report", "%s", err.msg);
	for (int i = 0; i < nsel; i++)
		sel_cols[i] = gp_kernel_columns[sel[i]];
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
	gp_analysis_run(&t, gp_kernel_cols_need_ops(sel, nsel) ? GP_NEED_OPS : 0, &ao, &a, &err);
	const struct gp_ops *ops = gp_analysis_has(&a, GP_NEED_OPS) ? &a.ops : NULL;
	bool short_trace = o.wo.width > 0;
	struct gp_kcells cells = {0};
	const char *vals[GP_KC__COUNT];

	for (size_t k = 0; k < t.kernels.n && k < o.top; k++) {   /* -n: the first N, in start order */
		for (int i = 0; i < nsel; i++)
			vals[i] = gp_kernel_cell(&t, ops, k, sel[i], short_trace, &cells);
		gp_writer_row(&w, vals);
	}
	rc = gp_writer_close(&w, &err);
	gp_kcells_free(&cells);
	gp_analysis_free(&a);
	gp_trace_free(&t);
	if (rc) {
		gp_err_print(&err);
		return gp_exit_code(err.status);
	}
	return GP_EXIT_OK;
}
