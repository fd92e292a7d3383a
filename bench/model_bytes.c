/*
** Bytes per table of the loaded model (docs/PERFORMANCE.md, "Where the
** bytes go"): loads a trace as `gpuprof report` does (reader, correlation,
** op model), then prints for each table its rows, record size, bytes in
** use and bytes reserved, and the string table's parts, each also per
** kernel.  Accounting by hand, in place of massif: the peak RSS of a run is
** these tables plus what lived only during the load (parse buffers, sort
** scratch, the correlation's temporary tables) and the allocator's slack.
**
** usage: build/bench/model_bytes TRACE   (bench/large.sh builds it)
*/
#include <stdio.h>
#include <stdlib.h>

#include "analysis/correlate.h"
#include "ops/ops.h"
#include "readers/reader.h"

static double per_kernel;   /* 1 / kernels, 0 for a trace without kernels */

static void row(const char *table, size_t n, size_t size, size_t cap)
{
	printf("%-12s %10zu %6zu %12zu %12zu %8.1f\n", table, n, size, n * size, cap * size,
	       (double)(n * size) * per_kernel);
}

#define VEC_ROW(name, vec) row(name, (vec).n, sizeof(*(vec).v), (vec).cap)

int main(int argc, char **argv)
{
	gp_trace t;
	gp_error err = {0};
	struct gp_correlate_opts co = {0};
	struct gp_load_opts lo = {0};
	struct gp_peak_opts po = {0};

	if (argc != 2) {
		fprintf(stderr, "usage: %s TRACE\n", argv[0]);
		return 2;
	}
	gp_trace_init(&t);
	if (gp_trace_load(argv[1], &t, &lo, &err) || gp_correlate(&t, &co, &err)) {
		gp_err_print(&err);
		return 1;
	}
	struct gp_ops ops;
	gp_ops_run(&t, &po, &ops);
	per_kernel = t.kernels.n ? 1.0 / (double)t.kernels.n : 0;

	size_t text = 0;   /* records: length prefix, bytes, NUL */
	for (uint32_t i = 1; i < t.strs.n; i++) {
		size_t len = gp_strtab_len(&t.strs, i);
		text += (len < 255 ? 1 : 5) + len + 1;
	}
	printf("%-12s %10s %6s %12s %12s %8s\n", "table", "rows", "B/row", "bytes", "reserved",
	       "B/kernel");
	VEC_ROW("kernels", t.kernels);
	VEC_ROW("kernel defs", t.kernel_defs);
	row("attrs", t.kernels.n, sizeof(*t.attrs), t.kernels.n);
	row("opres", t.kernels.n, sizeof(*ops.r), t.kernels.n);
	row("peaks", ops.npeaks, sizeof(*ops.peaks), ops.npeaks);
	VEC_ROW("apis", t.apis);
	VEC_ROW("api defs", t.api_defs);
	VEC_ROW("ranges", t.ranges);
	VEC_ROW("range nvtx", t.range_nvtx);
	VEC_ROW("op_exts", t.op_exts);
	VEC_ROW("args", t.args);
	VEC_ROW("memcpys", t.memcpys);
	VEC_ROW("memsets", t.memsets);
	VEC_ROW("syncs", t.syncs);
	VEC_ROW("memevents", t.memevents);
	row("str text", t.strs.n, 0, 0);
	printf("%-12s %10u %6s %12zu %12zu %8.1f\n", "  (bytes)", t.strs.n, "", text,
	       t.strs.blocks.n << 20, (double)text * per_kernel);
	row("str index", t.strs.n, sizeof(*t.strs.offs), t.strs.cap);
	row("str slots", t.strs.nslots, sizeof(*t.strs.slots), t.strs.nslots);
	row("trace arena", t.arena.used, 1, t.arena.used);
	gp_ops_free(&ops);
	gp_trace_free(&t);
	return 0;
}
