/*
** gpuprof ops: the table PyTorch users read first,
** prof.key_averages().table(), for every input format; and with --python
** the cProfile/pstats view of a trace's python_function frames.  The
** numbers come from the op table (src/analysis/optable.h); this file
** picks the columns, sorts and formats (docs/ops-table.md).
*/
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/optable.h"
#include "analysis/phases.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "util/sort.h"
#include "writers/writer.h"

static const struct gp_cmd_opt ops_own[] = {
	{"by", 'b', "KEY", "group by: name (default), shape (name + input\n"
	 "shapes: group_by_input_shape), stack (name + the\n"
	 "innermost python frames: group_by_stack_n) or layer\n"
	 "(name + the layer path it ran in; --depth cuts it)"},
	{"group-by", 'g', "KEY", "the same as --by"},
	{"stack-depth", 0, "N", "frames in a stack key (default 5)"},
	{"sort", 's', "COL", "sort by this column's key (see -f json), largest\n"
	 "first; name, shapes, stack and kind A to Z.  PyTorch's\n"
	 "sort_by names work too (self_cuda_time_total...).\n"
	 "Default: gpu_total_ns, then cpu_total_ns; --python:\n"
	 "cumtime_ns"},
	{"python", 0, NULL, "cProfile's view of the python_function frames\n"
	 "(Kineto traces recorded with_stack=True)"},
	{"phase", 0, "P", "only serving steps of phase P (prefill, decode, mixed:\n"
	 "the ops inside those steps, their kernels), or the\n"
	 "graph replays of batch size N (bs=N: kernels of the\n"
	 "captured ops), or both ('decode bs=8'); kernels only:\n"
	 "memcpys and memsets left out; GPU % of the kept\n"
	 "kernels (docs/correlation.md)"},
	{NULL, 0, NULL, NULL},
};
enum { OWN_BY, OWN_GROUP, OWN_DEPTH, OWN_SORT, OWN_PYTHON, OWN_PHASE };

static const struct gp_cmd_spec ops_spec = {
	.name = "ops",
	.about =
	"PyTorch's key_averages() table: one row per op or range name (Kineto\n"
	"cpu_op and user_annotation, NVTX ranges with emit_nvtx op names,\n"
	"libgpuprof timers): calls; Self CPU (its time minus the ops and ranges it\n"
	"encloses) and CPU total; Self GPU (kernels, memcpys and memsets whose\n"
	"launching call's innermost enclosing op is this one) and GPU total (those\n"
	"of the ops it encloses too); each as a share (CPU: of the sum of Self\n"
	"CPU; GPU: of all kernel, memcpy and memset time); average per call;\n"
	"GFLOPs of its own kernels from the op model (na: none known).  Times and\n"
	"sizes in human units in the table, in ns and bytes in csv, tsv and json.\n"
	"Traces with allocator events (profile_memory=True, nsys\n"
	"--cuda-memory-usage) add the bytes allocated inside each op, host (CPU)\n"
	"and GPU apart: net (allocated - freed: PyTorch's CPU Mem, CUDA Mem) and\n"
	"gross (allocated only: Alloc), Self (events whose innermost op it is) and\n"
	"total (its descendants' too).  docs/ops-table.md.",
	.shared = GP_OPT_COLUMNS | GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_WINDOW | GP_OPT_FILTER |
		  GP_OPT_OPS_FILE | GP_OPT_DEPTH,
	.row_formats = true,
	.own = ops_own,
	.more = "Columns (-c, comma-separated; default: all of the grouping's, the memory\n"
		"ones with allocator events): name, shapes (--by shape), stack (--by\n"
		"stack), layer (--by layer), self_cpu_pct, self_cpu_ns, cpu_total_pct, cpu_total_ns,\n"
		"cpu_avg_ns, self_gpu_ns, self_gpu_pct, gpu_total_ns, gpu_total_pct,\n"
		"gpu_avg_ns, cpu_mem_bytes, self_cpu_mem_bytes, gpu_mem_bytes,\n"
		"self_gpu_mem_bytes, cpu_alloc_bytes, self_cpu_alloc_bytes,\n"
		"gpu_alloc_bytes, self_gpu_alloc_bytes, calls, gflops, kind; --python:\n"
		"ncalls, tottime_ns, tot_percall_ns, cumtime_ns, cum_percall_ns,\n"
		"function.",
};

/* Every column of the op table; rows fill vals[] in this order.  Adding a
** column is a line here and a field in struct gp_oprow.  The memory
** columns (C_CPU_MEM .. C_SELF_GPU_ALLOC) only for traces with allocator
** events, as PyTorch adds them only with profile_memory=True. */
enum col {
	C_NAME, C_SHAPES, C_STACK, C_LAYER, C_SELF_CPU_PCT, C_SELF_CPU, C_CPU_TOTAL_PCT, C_CPU_TOTAL,
	C_CPU_AVG, C_SELF_GPU, C_SELF_GPU_PCT, C_GPU_TOTAL, C_GPU_TOTAL_PCT, C_GPU_AVG,
	C_CPU_MEM, C_SELF_CPU_MEM, C_GPU_MEM, C_SELF_GPU_MEM,
	C_CPU_ALLOC, C_SELF_CPU_ALLOC, C_GPU_ALLOC, C_SELF_GPU_ALLOC,
	C_CALLS, C_GFLOPS, C_KIND, C__COUNT
};
static const struct gp_column op_cols[C__COUNT] = {
	[C_NAME] = {"name", "Name", 12, false, true, NULL},
	[C_SHAPES] = {"shapes", "Input Shapes", 12, false, true, "-"},
	[C_STACK] = {"stack", "Source Location", 12, false, true, "-"},
	[C_LAYER] = {"layer", "Layer", 12, false, true, "-"},
	[C_SELF_CPU_PCT] = {"self_cpu_pct", "Self CPU share", 6, true, false, NULL, GP_UNIT_PCT},
	[C_SELF_CPU] = {"self_cpu_ns", "Self CPU", 8, true, false, NULL, GP_UNIT_NS},
	[C_CPU_TOTAL_PCT] = {"cpu_total_pct", "CPU total share", 6, true, false, NULL, GP_UNIT_PCT},
	[C_CPU_TOTAL] = {"cpu_total_ns", "CPU total", 8, true, false, NULL, GP_UNIT_NS},
	[C_CPU_AVG] = {"cpu_avg_ns", "CPU time avg", 8, true, false, NULL, GP_UNIT_NS},
	[C_SELF_GPU] = {"self_gpu_ns", "Self GPU", 8, true, false, NULL, GP_UNIT_NS},
	[C_SELF_GPU_PCT] = {"self_gpu_pct", "Self GPU share", 6, true, false, NULL, GP_UNIT_PCT},
	[C_GPU_TOTAL] = {"gpu_total_ns", "GPU total", 8, true, false, NULL, GP_UNIT_NS},
	[C_GPU_TOTAL_PCT] = {"gpu_total_pct", "GPU total share", 6, true, false, NULL, GP_UNIT_PCT},
	[C_GPU_AVG] = {"gpu_avg_ns", "GPU time avg", 8, true, false, NULL, GP_UNIT_NS},
	[C_CPU_MEM] = {"cpu_mem_bytes", "CPU Mem", 8, true, false, NULL, GP_UNIT_BYTES},
	[C_SELF_CPU_MEM] = {"self_cpu_mem_bytes", "Self CPU Mem", 8, true, false, NULL, GP_UNIT_BYTES},
	[C_GPU_MEM] = {"gpu_mem_bytes", "GPU Mem", 8, true, false, NULL, GP_UNIT_BYTES},
	[C_SELF_GPU_MEM] = {"self_gpu_mem_bytes", "Self GPU Mem", 8, true, false, NULL, GP_UNIT_BYTES},
	[C_CPU_ALLOC] = {"cpu_alloc_bytes", "CPU Alloc", 8, true, false, NULL, GP_UNIT_BYTES},
	[C_SELF_CPU_ALLOC] = {"self_cpu_alloc_bytes", "Self CPU Alloc", 8, true, false, NULL, GP_UNIT_BYTES},
	[C_GPU_ALLOC] = {"gpu_alloc_bytes", "GPU Alloc", 8, true, false, NULL, GP_UNIT_BYTES},
	[C_SELF_GPU_ALLOC] = {"self_gpu_alloc_bytes", "Self GPU Alloc", 8, true, false, NULL, GP_UNIT_BYTES},
	[C_CALLS] = {"calls", "# of Calls", 5, true, false, NULL},
	[C_GFLOPS] = {"gflops", "Total GFLOPs", 6, true, false, NULL},
	[C_KIND] = {"kind", "Kind", 6, false, false, NULL},
};

enum pycol { P_NCALLS, P_TOTTIME, P_TOT_PERCALL, P_CUMTIME, P_CUM_PERCALL, P_FUNC, P__COUNT };
static const struct gp_column py_cols[P__COUNT] = {
	[P_NCALLS] = {"ncalls", "ncalls", 6, true, false, NULL},
	[P_TOTTIME] = {"tottime_ns", "tottime", 8, true, false, NULL, GP_UNIT_NS},
	[P_TOT_PERCALL] = {"tot_percall_ns", "percall", 8, true, false, NULL, GP_UNIT_NS},
	[P_CUMTIME] = {"cumtime_ns", "cumtime", 8, true, false, NULL, GP_UNIT_NS},
	[P_CUM_PERCALL] = {"cum_percall_ns", "percall", 8, true, false, NULL, GP_UNIT_NS},
	[P_FUNC] = {"function", "filename:lineno(function)", 20, false, true, NULL},
};

/* PyTorch's sort_by names for our columns. */
static const char *const sort_alias[][2] = {
	{"self_cpu_time_total", "self_cpu_ns"}, {"cpu_time_total", "cpu_total_ns"},
	{"cpu_time", "cpu_avg_ns"}, {"self_cuda_time_total", "self_gpu_ns"},
	{"self_device_time_total", "self_gpu_ns"}, {"cuda_time_total", "gpu_total_ns"},
	{"device_time_total", "gpu_total_ns"}, {"cuda_time", "gpu_avg_ns"},
	{"device_time", "gpu_avg_ns"}, {"count", "calls"}, {"flops", "gflops"},
	{"cpu_memory_usage", "cpu_mem_bytes"}, {"self_cpu_memory_usage", "self_cpu_mem_bytes"},
	{"cuda_memory_usage", "gpu_mem_bytes"}, {"self_cuda_memory_usage", "self_gpu_mem_bytes"},
	{"device_memory_usage", "gpu_mem_bytes"}, {"self_device_memory_usage", "self_gpu_mem_bytes"},
	{"cumulative", "cumtime_ns"}, {"time", "tottime_ns"},
};

struct ops_opts {
	int group;              /* enum gp_optable_group */
	int depth;
	const char *sort;       /* a column key or alias; NULL = default */
	bool python;
	bool select;            /* --phase given */
	struct gp_phase_sel sel;
};

static int ops_option(void *ctx, int index, const char *arg)
{
	struct ops_opts *oo = ctx;
	char *end;

	switch (index) {
	case OWN_BY:
	case OWN_GROUP:
		if (strcmp(arg, "name") == 0)
			oo->group = GP_OPTABLE_BY_NAME;
		else if (strcmp(arg, "shape") == 0 || strcmp(arg, "shapes") == 0)
			oo->group = GP_OPTABLE_BY_SHAPE;
		else if (strcmp(arg, "stack") == 0)
			oo->group = GP_OPTABLE_BY_STACK;
		else if (strcmp(arg, "layer") == 0)
			oo->group = GP_OPTABLE_BY_LAYER;
		else
			return gp_cli_usage("ops", "bad --by '%s' (name, shape, stack or layer)", arg);
		return 0;
	case OWN_DEPTH:
		oo->depth = (int)strtol(arg, &end, 10);
		if (!*arg || *end || oo->depth < 1 || oo->depth > 1000)
			return gp_cli_usage("ops", "bad --stack-depth '%s' (1 to 1000)", arg);
		return 0;
	case OWN_SORT:
		oo->sort = arg;
		return 0;
	case OWN_PHASE:
		oo->select = true;
		if (gp_phase_sel_parse(arg, &oo->sel) == 0)
			return 0;
		return gp_cli_usage("ops", "--phase wants " GP_PHASE_SEL_WANTS ", not '%s'", arg);
	default:
		oo->python = true;
		return 0;
	}
}

/* The index in cols[0..n) of the column key (or PyTorch alias, or key
** without its unit) name; -1 when none. */
static int find_col(const struct gp_column *cols, int n, const char *name)
{
	for (size_t a = 0; a < sizeof(sort_alias) / sizeof(sort_alias[0]); a++)
		if (strcmp(name, sort_alias[a][0]) == 0)
			name = sort_alias[a][1];
	return gp_column_find(cols, n, name);
}


static double pct(gp_ns part, gp_ns whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static double per_call(gp_ns total, uint64_t calls)
{
	return calls ? (double)total / (double)calls : 0;
}

/* The number in column c of row r (text columns: 0). */
static double op_value(const struct gp_optable *tb, const struct gp_oprow *r, int c)
{
	switch (c) {
	case C_SELF_CPU_PCT: return pct(r->self_cpu, tb->self_cpu_sum);
	case C_SELF_CPU: return (double)r->self_cpu;
	case C_CPU_TOTAL_PCT: return pct(r->cpu_total, tb->self_cpu_sum);
	case C_CPU_TOTAL: return (double)r->cpu_total;
	case C_CPU_AVG: return per_call(r->cpu_total, r->calls);
	case C_SELF_GPU: return (double)r->self_gpu;
	case C_SELF_GPU_PCT: return pct(r->self_gpu, tb->gpu_sum);
	case C_GPU_TOTAL: return (double)r->gpu_total;
	case C_GPU_TOTAL_PCT: return pct(r->gpu_total, tb->gpu_sum);
	case C_GPU_AVG: return per_call(r->gpu_total, r->calls);
	case C_CPU_MEM: return (double)r->total_mem[GP_OPMEM_CPU_NET];
	case C_SELF_CPU_MEM: return (double)r->self_mem[GP_OPMEM_CPU_NET];
	case C_GPU_MEM: return (double)r->total_mem[GP_OPMEM_GPU_NET];
	case C_SELF_GPU_MEM: return (double)r->self_mem[GP_OPMEM_GPU_NET];
	case C_CPU_ALLOC: return (double)r->total_mem[GP_OPMEM_CPU_ALLOC];
	case C_SELF_CPU_ALLOC: return (double)r->self_mem[GP_OPMEM_CPU_ALLOC];
	case C_GPU_ALLOC: return (double)r->total_mem[GP_OPMEM_GPU_ALLOC];
	case C_SELF_GPU_ALLOC: return (double)r->self_mem[GP_OPMEM_GPU_ALLOC];
	case C_CALLS: return (double)r->calls;
	case C_GFLOPS: return r->flops >= 0 ? r->flops / 1e9 : -1;
	default: return 0;
	}
}

static const char *kind_label(int kind)
{
	switch (kind) {
	case GP_RANGE_PUSHPOP: return "push";
	case GP_RANGE_STARTEND: return "startend";
	case GP_RANGE_CPU_OP: return "op";
	case GP_RANGE_TIMER: return "timer";
	default: return "annotation";
	}
}

/* The text in column c of row r, or NULL (numbers: into buf). */
static const char *op_text(const gp_trace *t, const struct gp_optable *tb, const struct gp_oprow *r,
			   int c, char *buf, size_t size)
{
	double v;

	switch (c) {
	case C_NAME: return gp_s(t, r->name);
	case C_SHAPES: return r->shapes ? gp_s(t, r->shapes) : NULL;
	case C_STACK: return r->stack ? gp_s(t, r->stack) : NULL;
	case C_LAYER: return r->layer ? gp_s(t, r->layer) : NULL;
	case C_KIND: return kind_label(r->kind);
	case C_SELF_CPU_PCT: case C_CPU_TOTAL_PCT: case C_SELF_GPU_PCT: case C_GPU_TOTAL_PCT:
		snprintf(buf, size, "%.2f", op_value(tb, r, c));
		return buf;
	case C_CPU_AVG: case C_GPU_AVG:
		snprintf(buf, size, "%.1f", op_value(tb, r, c));
		return buf;
	case C_GFLOPS:
		v = op_value(tb, r, c);
		if (v < 0)
			return NULL;
		snprintf(buf, size, "%.3f", v);
		return buf;
	default:
		snprintf(buf, size, "%.0f", op_value(tb, r, c));
		return buf;
	}
}

/* The columns of a grouping (the shapes or stack column only with it; the
** memory columns only with memory): their specs into cols, their enum col
** into sel; returns the count. */
static int op_columns(int group, bool memory, struct gp_column *cols, int *sel)
{
	int n = 0;

	for (int c = 0; c < C__COUNT; c++)
		if ((c != C_SHAPES || group == GP_OPTABLE_BY_SHAPE) &&
		    (c != C_STACK || group == GP_OPTABLE_BY_STACK) &&
		    (c != C_LAYER || group == GP_OPTABLE_BY_LAYER) &&
		    (memory || c < C_CPU_MEM || c > C_SELF_GPU_ALLOC)) {
			sel[n] = c;
			cols[n++] = op_cols[c];
		}
	return n;
}

/* Writes the op table's first top rows, sorted by column sort_col (enum
** col, shown or not), to w, whose columns are sel[0..ncols). */
static void write_ops(gp_writer *w, const gp_trace *t, const struct gp_optable *tb, const int *sel,
		      int ncols, int sort_col, size_t top)
{
	size_t n = tb->rows.n;
	struct gp_sort_key *keys = gp_xmalloc((n ? n : 1) * sizeof(*keys));
	char buf[C__COUNT][40];
	const char *vals[C__COUNT];
	bool text = sort_col == C_NAME || sort_col == C_SHAPES || sort_col == C_STACK || sort_col == C_LAYER ||
		    sort_col == C_KIND;

	for (size_t i = 0; i < n; i++) {
		const struct gp_oprow *r = &tb->rows.v[i];
		keys[i].row = i;
		keys[i].text = text ? op_text(t, tb, r, sort_col, buf[0], sizeof(buf[0])) : NULL;
		if (text && !keys[i].text)
			keys[i].text = "";
		keys[i].num = text ? 0 : op_value(tb, r, sort_col);
		keys[i].tie = (double)r->cpu_total;
	}
	if (n > 1)
		qsort(keys, n, sizeof(*keys), gp_sort_key_cmp);
	for (size_t i = 0; i < n && i < top; i++) {
		const struct gp_oprow *r = &tb->rows.v[keys[i].row];
		for (int c = 0; c < ncols; c++)
			vals[c] = op_text(t, tb, r, sel[c], buf[c], sizeof(buf[c]));
		gp_writer_row(w, vals);
	}
	free(keys);
}

/* pstats' filename:lineno(function) for a Kineto python_function name:
** "dir/f.py(12): fwd" -> "dir/f.py:12(fwd)", "<built-in method x>" ->
** "{built-in method x}", anything else as it is. */
static const char *py_location(const char *name, char *buf, size_t size)
{
	const char *open = strchr(name, '('), *close = open ? strstr(open, "): ") : NULL;
	size_t len = strlen(name);

	if (open && close && open > name && close > open + 1 &&
	    strspn(open + 1, "0123456789") == (size_t)(close - open - 1)) {
		snprintf(buf, size, "%.*s:%.*s(%s)", (int)(open - name), name, (int)(close - open - 1),
			 open + 1, close + 3);
		return buf;
	}
	if (len >= 2 && name[0] == '<' && name[len - 1] == '>') {
		snprintf(buf, size, "{%.*s}", (int)(len - 2), name + 1);
		return buf;
	}
	return name;
}

static double py_value(const struct gp_pyrow *r, int c)
{
	switch (c) {
	case P_NCALLS: return (double)r->calls;
	case P_TOTTIME: return (double)r->tottime;
	case P_TOT_PERCALL: return per_call(r->tottime, r->calls);
	case P_CUMTIME: return (double)r->cumtime;
	case P_CUM_PERCALL: return per_call(r->cumtime, r->prim_calls);
	default: return 0;
	}
}

/* Writes the python view's first top rows in sort order to w, the
** columns pick[0..npick) (enum pycol). */
static void write_python(gp_writer *w, const gp_trace *t, const struct gp_optable *tb, int sort_col,
			 size_t top, const int *pick, int npick)
{
	size_t n = tb->py.n;
	struct gp_sort_key *keys = gp_xmalloc((n ? n : 1) * sizeof(*keys));
	char buf[P__COUNT][4096];
	const char *vals[P__COUNT];

	for (size_t i = 0; i < n; i++) {
		const struct gp_pyrow *r = &tb->py.v[i];
		keys[i].row = i;
		keys[i].text = sort_col == P_FUNC ? gp_s(t, r->func) : NULL;
		keys[i].num = py_value(r, sort_col);
		keys[i].tie = (double)r->cumtime;
	}
	if (n > 1)
		qsort(keys, n, sizeof(*keys), gp_sort_key_cmp);
	for (size_t i = 0; i < n && i < top; i++) {
		const struct gp_pyrow *r = &tb->py.v[keys[i].row];
		/* pstats: "12/3" when some calls were recursive */
		if (r->calls != r->prim_calls)
			snprintf(buf[P_NCALLS], sizeof(buf[0]), "%" PRIu64 "/%" PRIu64, r->calls, r->prim_calls);
		else
			snprintf(buf[P_NCALLS], sizeof(buf[0]), "%" PRIu64, r->calls);
		snprintf(buf[P_TOTTIME], sizeof(buf[0]), "%" PRId64, r->tottime);
		snprintf(buf[P_TOT_PERCALL], sizeof(buf[0]), "%.1f", py_value(r, P_TOT_PERCALL));
		snprintf(buf[P_CUMTIME], sizeof(buf[0]), "%" PRId64, r->cumtime);
		snprintf(buf[P_CUM_PERCALL], sizeof(buf[0]), "%.1f", py_value(r, P_CUM_PERCALL));
		const char *all[P__COUNT];
		for (int c = 0; c < P_FUNC; c++)
			all[c] = buf[c];
		all[P_FUNC] = py_location(gp_s(t, r->func), buf[P_FUNC], sizeof(buf[P_FUNC]));
		for (int c = 0; c < npick; c++)
			vals[c] = all[pick[c]];
		gp_writer_row(w, vals);
	}
	free(keys);
}

int cmd_ops(int argc, char **argv)
{
	struct ops_opts oo = {.group = GP_OPTABLE_BY_NAME, .depth = 5};
	struct gp_column cols[C__COUNT];
	int sel[C__COUNT];
	struct gp_cli_opts o;
	struct gp_optable tb;
	gp_error err = {0};
	gp_writer w;
	gp_trace t;
	int rc, ncols, sort_col;

	rc = gp_cli_parse(&ops_spec, argc, argv, &o, ops_option, &oo);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	if (o.depth && oo.group != GP_OPTABLE_BY_LAYER)
		return gp_cli_usage("ops", "--depth cuts layer paths: it needs --by layer");
	/* the sort key among every column (memory ones too: the trace is not
	** read yet), as an enum col / enum pycol */
	if (oo.python) {
		ncols = P__COUNT;
		memcpy(cols, py_cols, sizeof(py_cols));
	} else {
		ncols = op_columns(oo.group, true, cols, sel);
	}
	sort_col = find_col(cols, ncols, oo.sort ? oo.sort : oo.python ? "cumtime_ns" : "gpu_total_ns");
	if (sort_col < 0) {
		const char *keys[C__COUNT + 1];
		char list[1024];
		for (int c = 0; c < ncols; c++)
			keys[c] = cols[c].key;
		keys[ncols] = NULL;
		return gp_cli_usage("ops", "bad --sort '%s' (a column key: %s; or PyTorch's sort_by names)", oo.sort,
				    gp_name_list(keys, list, sizeof(list)));
	}
	if (!oo.python)
		sort_col = sel[sort_col];
	/* -c: checked against every column now, picked after the read */
	int pick[C__COUNT], npick = ncols;
	for (int c = 0; c < ncols; c++)
		pick[c] = c;
	if (o.columns && (npick = gp_columns_select(cols, ncols, o.columns, pick, C__COUNT, &err)) < 0)
		return gp_cli_usage("ops", "%s", err.msg);

	gp_trace_init(&t);
	rc = gp_cli_load(o.file, &o, &t, NULL);
	if (rc) {
		gp_trace_free(&t);
		return rc;
	}
	/* said, but the table stays: its ops' and ranges' CPU times hold */
	gp_cli_no_kernels("ops", o.file, &t, &o, false);
	memset(&tb, 0, sizeof(tb));
	if (oo.python) {
		gp_optable_python(&t, &tb);
	} else {
		struct gp_analysis a;
		struct gp_analysis_opts ao;
		gp_cli_analysis_opts(&o, &ao);
		ao.layers.depth = o.depth;   /* --by layer --depth N */
		/* the op model, the layers and the phases never fail */
		gp_analysis_run(&t, GP_NEED_OPS | (oo.group == GP_OPTABLE_BY_LAYER ? GP_NEED_LAYERS : 0) |
				(oo.select ? GP_NEED_KERNEL_PHASES : 0), &ao, &a, &err);
		double *flops = gp_xmalloc((t.kernels.n ? t.kernels.n : 1) * sizeof(*flops));
		struct gp_optable_opts to = {.group = oo.group, .stack_depth = oo.depth, .flops = flops};
		uint8_t *keep_kernel = oo.select ? gp_phase_sel_kernels(t.kernels.n, a.kernel_phases.phase,
									a.kernel_phases.batch, &oo.sel) : NULL;
		uint8_t *keep_range = oo.select ? gp_phase_sel_ranges(&t, &oo.sel) : NULL;
		for (size_t k = 0; k < t.kernels.n; k++)
			flops[k] = a.ops.r[k].flops;
		to.keep_kernel = keep_kernel;
		to.keep_range = keep_range;
		gp_optable_build(&t, &to, &tb);
		free(keep_kernel);
		free(keep_range);
		free(flops);
		gp_analysis_free(&a);
		ncols = op_columns(oo.group, tb.has_memory, cols, sel);
		if (o.columns && (npick = gp_columns_select(cols, ncols, o.columns, pick, C__COUNT, &err)) < 0) {
			gp_optable_free(&tb);
			gp_trace_free(&t);
			return gp_cli_usage("ops", "%s: the memory columns need allocator events "
					    "(profile_memory=True)", err.msg);
		}
	}
	if (!o.columns)
		for (npick = 0; npick < ncols; npick++)
			pick[npick] = npick;
	/* the columns shown: pick[] of cols (and of sel) */
	struct gp_column shown[C__COUNT];
	int shown_sel[C__COUNT];
	for (int c = 0; c < npick; c++) {
		shown[c] = cols[pick[c]];
		shown_sel[c] = oo.python ? pick[c] : sel[pick[c]];
	}
	rc = GP_EXIT_OK;
	if (gp_writer_open(&w, o.format, stdout, shown, npick, &o.wo, &err)) {
		rc = gp_cli_usage("ops", "%s", err.msg);
	} else {
		if (oo.python)
			write_python(&w, &t, &tb, sort_col, o.top, shown_sel, npick);
		else
			write_ops(&w, &t, &tb, shown_sel, npick, sort_col, o.top);
		if (gp_writer_close(&w, &err)) {
			gp_err_print(&err);
			rc = gp_exit_code(err.status);
		}
	}
	gp_optable_free(&tb);
	gp_trace_free(&t);
	return rc;
}
