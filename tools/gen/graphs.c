/*
** `gpuprof-gen --graphs MODE`: a small inference server that captures CUDA
** graphs and replays them, told through the format's sink (gen.h), with
** the truth of every replayed kernel written beside the trace, for the
** graph-attribution tests (docs/correlation.md, "Graph replays").
**
** The graphs, each a list of ops (layer, op, kernel, shapes), captured on
** the main thread between cudaStreamBeginCapture and EndCapture, each op a
** range around its launch:
**   P  prologue, 3 kernels, captured once
**   G  two decoder layers, 16 kernels (a GEMM kernel in several ops and
**      layers), captured for batch sizes 1, 8 and 32: the same kernels,
**      other shapes
**   M  a router and a shared expert on two streams, 6 kernels (one kernel
**      name on both streams at once, in different layers), a copy and a
**      memset; its replay runs the second stream first
**   X  G with one more kernel, for batch size 64: captured, never replayed
**   U  2 kernels replayed, never captured (nsys: captured before the
**      profile began: its node ids lead nowhere)
** Four steps (nsys "iteration N", Kineto ProfilerStep#N) each replay P, G
** (batch size 1, 8, 32, 8), M and U, and launch one op eagerly.
**
** nsys (MODE node or graph, as --cuda-graph-trace): one export at path;
** gprec: the same as a `gpuprof record` recording (CUPTI's node callbacks);
** MODE eager (nsys, gprec): the same steps with every graph's ops launched
** one by one inside their ranges, no capture (a run to diff against);
** the capture inside "iteration 0" with emit_nvtx op ranges and layer:
** ranges, a CUDA_GRAPH_NODE_EVENTS row per node created and per node
** cloned by cudaGraphInstantiate; replays as node kernels, copies and
** memsets with graphNodeId (node), or one GRAPH_TRACE row each (graph).
** Only G's batch size 8 is captured: nsys needs no telling apart.
** Kineto (MODE amd or cuda): the replay trace at path; the capture traces
** beside it in capture_traces/graph_capture_rank_0.B.pt.trace.json with an
** execution_details.json, as vLLM writes them (B = 1: P, G; 8: G, M; 32:
** G; 64: X).  amd: HIP names, the launch's args name the kernel with its
** grid and block, replayed kernels have no grid; cuda: CUDA names, launches
** name nothing.
**
** path.truth, one line per replayed kernel, tab-separated: start (ns on the
** trace's clock), stream, the gp_attr.graph state gpuprof should give
** (report's graph column), op, layer, iteration and FLOPs as report should
** print them ("-" where it should have none; FLOPs "na" where they are
** unknown, "-" where the test need not check them).
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"

#define US 1000LL
#define HID 1024
#define FFN 4096
#define KINETO_BASE_NS 1719619200000000000LL   /* kineto.c's base */
#define EXEC_NODE 100000u                       /* an exec node's id: its original's + this */

enum { S_MAIN, S_SIDE };
enum { N_KERNEL, N_COPY, N_SET };

/* One op of a graph. */
struct gop {
	const char *layer, *op;
	int kind;               /* N_* */
	int kd;                 /* kernel (N_KERNEL) */
	int stream;             /* S_* */
	int k, n;               /* mm: [bs, k] x [k, n]; others: [bs, k] */
};

#define MM(layer, kd, k, n) {layer, "aten::mm", N_KERNEL, kd, S_MAIN, k, n}
#define EW(layer, op, kd, k) {layer, op, N_KERNEL, kd, S_MAIN, k, 0}
#define LAYER_OPS(l)                                                   \
	EW("layers." #l ".attn", "aten::layer_norm", KD_LAYERNORM, HID),  \
	MM("layers." #l ".attn", KD_GEMM_TN, HID, 3 * HID),               \
	EW("layers." #l ".attn", "aten::softmax", KD_SOFTMAX, HID),       \
	MM("layers." #l ".attn", KD_GEMM_NN, HID, HID),                   \
	MM("layers." #l ".mlp", KD_GEMM_TN, HID, FFN),                    \
	EW("layers." #l ".mlp", "aten::gelu", KD_GELU, FFN),              \
	MM("layers." #l ".mlp", KD_GEMM_NN, FFN, HID),                    \
	EW("layers." #l ".mlp", "aten::add", KD_ADD, HID)

static const struct gop g_prologue[] = {
	EW("embed", "aten::embedding", KD_FILL, HID), EW("embed", "aten::mul", KD_MUL, HID),
	EW("embed", "aten::layer_norm", KD_LAYERNORM, HID),
};
static const struct gop g_decoder[] = {LAYER_OPS(0), LAYER_OPS(1)};
static const struct gop g_decoder_x[] = {
	LAYER_OPS(0), LAYER_OPS(1), EW("layers.1.mlp", "aten::dropout", KD_DROPOUT, HID),
};
static const struct gop g_moe[] = {
	{"moe.router", "aten::mm", N_KERNEL, KD_GEMM_NT, S_MAIN, HID, 64},
	{"moe.shared", "aten::mm", N_KERNEL, KD_GEMM_RELU, S_SIDE, HID, HID},
	{"moe.router", "aten::softmax", N_KERNEL, KD_SOFTMAX, S_MAIN, 64, 0},
	{"moe.shared", "aten::gelu", N_KERNEL, KD_GELU, S_SIDE, HID, 0},
	{"moe.router", "aten::add", N_KERNEL, KD_ADD, S_MAIN, HID, 0},
	{"moe.shared", "aten::add", N_KERNEL, KD_ADD, S_SIDE, HID, 0},
	{"moe.out", "aten::copy_", N_COPY, 0, S_MAIN, HID, 0},
	{"moe.out", "aten::zero_", N_SET, 0, S_MAIN, HID, 0},
};
static const struct gop g_sampler[] = {
	EW("sampler", "aten::sum", KD_REDUCE, HID), EW("sampler", "aten::_foreach_add", KD_ADAM, HID),
};

struct gdef {
	const char *name;
	const struct gop *ops;
	int n;
	uint32_t id;            /* graph id (nsys, Kineto cuda) */
};

enum { G_P, G_G, G_M, G_X, G_U, G__COUNT };
static const struct gdef graphs[G__COUNT] = {
	[G_P] = {"prologue", g_prologue, 3, 1},
	[G_G] = {"decoder", g_decoder, 16, 2},
	[G_M] = {"moe", g_moe, 8, 3},
	[G_X] = {"decoder+dropout", g_decoder_x, 17, 4},
	[G_U] = {"sampler", g_sampler, 2, 5},
};

/* The file being written. */
struct run {
	struct gen_sink sink;
	bool nsys, amd, node_mode;
	bool eager;             /* nsys/gprec MODE eager: the graphs' ops launched one by one */
	uint64_t corr, ext;
	FILE *truth;
};

/* The node id of op i of graph g, as captured (exec nodes add EXEC_NODE). */
static uint64_t node_id(int g, int i)
{
	return (uint64_t)g * 100 + (uint64_t)i + 1;
}

static uint32_t stream_of(int s)
{
	return gen_stream_id(s);
}

static const char *api_name(const struct run *r, enum gen_api_id id)
{
	static const char *const hip[GEN_API__COUNT] = {
		[GEN_API_LAUNCH] = "hipLaunchKernel", [GEN_API_MEMCPY_ASYNC] = "hipMemcpyAsync",
		[GEN_API_MEMSET_ASYNC] = "hipMemsetAsync", [GEN_API_GRAPH_LAUNCH] = "hipGraphLaunch",
		[GEN_API_BEGIN_CAPTURE] = "hipStreamBeginCapture", [GEN_API_END_CAPTURE] = "hipStreamEndCapture",
		[GEN_API_INSTANTIATE] = "hipGraphInstantiate",
	};
	return r->amd ? hip[id] : NULL;
}

static void api(struct run *r, int64_t start, int64_t end, enum gen_api_id id, uint64_t corr, uint64_t ext,
		const struct gop *launched, int bs)
{
	struct gen_api a = {.start = start, .end = end, .thr = GEN_THR_MAIN, .api = id, .corr = corr, .ext = ext,
			    .name = api_name(r, id)};

	if (launched && r->amd && launched->kind == N_KERNEL) {
		a.launched = launched->kd + 1;
		a.grid[0] = (uint32_t)(bs * launched->k / 256);
		a.grid[1] = a.grid[2] = a.block[1] = a.block[2] = 1;
		a.block[0] = 256;
	}
	r->sink.api(r->sink.ctx, &a);
}

static void range(struct run *r, int64_t start, int64_t end, enum gen_range_kind kind, const char *text,
		  const char *name, uint64_t ext, const char *dims, const char *types)
{
	struct gen_range x = {.start = start, .end = end, .thr = GEN_THR_MAIN, .kind = kind, .text = text,
			      .name = name, .seq = -1, .op_id = ext, .dims = dims, .types = types};
	r->sink.range(r->sink.ctx, &x);
}

/* Op o's Input Dims at batch size bs, and its emit_nvtx text. */
static void op_text(const struct gop *o, int bs, uint64_t ext, char *dims, size_t dsize, char *text, size_t tsize)
{
	if (o->n)
		snprintf(dims, dsize, "[[%d, %d], [%d, %d]]", bs, o->k, o->k, o->n);
	else
		snprintf(dims, dsize, "[[%d, %d]]", bs, o->k);
	snprintf(text, tsize, "%s, op_id = %" PRIu64 ", sizes = %s", o->op, ext, dims);
}

/* The capture of graph g at batch size bs from t: each op's layer and op
** ranges around its launch (and, in nsys, its node's creation); nsys then
** instantiates it (a clone of every node).  Returns when it ends. */
static int64_t capture(struct run *r, int g, int bs, int64_t t)
{
	const struct gdef *d = &graphs[g];
	char dims[128], text[256], layer[96];

	api(r, t, t + 3 * US, GEN_API_BEGIN_CAPTURE, ++r->corr, 0, NULL, bs);
	t += 10 * US;
	for (int i = 0; i < d->n; i++, t += 50 * US) {
		const struct gop *o = &d->ops[i];
		uint64_t ext = ++r->ext;
		enum gen_api_id id = o->kind == N_COPY ? GEN_API_MEMCPY_ASYNC
				   : o->kind == N_SET ? GEN_API_MEMSET_ASYNC : GEN_API_LAUNCH;
		op_text(o, bs, ext, dims, sizeof(dims), text, sizeof(text));
		if (r->nsys) {
			snprintf(layer, sizeof(layer), "layer:%s", o->layer);
			range(r, t, t + 40 * US, GEN_R_LAYER, layer, layer, 0, NULL, NULL);
		} else {
			range(r, t, t + 40 * US, GEN_R_ANNOT, o->layer, o->layer, 0, NULL, NULL);
		}
		range(r, t + 5 * US, t + 35 * US, GEN_R_OP, text, o->op, ext, dims,
		      o->n ? "[\"c10::Half\", \"c10::Half\"]" : "[\"c10::Half\"]");
		api(r, t + 10 * US, t + 18 * US, id, ++r->corr, ext, o, bs);
		if (r->sink.graph_node)
			r->sink.graph_node(r->sink.ctx, &(struct gen_graph_node){
				.start = t + 12 * US, .end = t + 13 * US, .thr = GEN_THR_MAIN, .node = node_id(g, i)});
	}
	api(r, t, t + 3 * US, GEN_API_END_CAPTURE, ++r->corr, 0, NULL, bs);
	t += 10 * US;
	if (r->nsys) {
		api(r, t, t + 10 * US * d->n, GEN_API_INSTANTIATE, ++r->corr, 0, NULL, bs);
		for (int i = 0; i < d->n && r->sink.graph_node; i++)
			r->sink.graph_node(r->sink.ctx, &(struct gen_graph_node){
				.start = t + 10 * US * i + 2 * US, .end = t + 10 * US * i + 3 * US, .thr = GEN_THR_MAIN,
				.node = node_id(g, i) + EXEC_NODE, .original = node_id(g, i)});
		t += 10 * US * d->n + 10 * US;
	}
	return t;
}

/* What report should say of op o of graph g replayed at batch size bs. */
struct expect {
	const char *state;
	bool op, layer, flops;  /* known */
};

static void truth(struct run *r, int64_t start, uint32_t stream, const struct gop *o, int bs, int iter,
		  const struct expect *e)
{
	char flops[32] = "na";   /* unknown: no op, or no shapes */
	const char *op = o->op;

	if (!r->nsys && strncmp(op, "aten::", 6) == 0)
		op += 6;   /* Kineto ops are named without their namespace */
	if (e->flops && o->n)
		snprintf(flops, sizeof(flops), "%lld", 2LL * bs * o->k * o->n);
	else if (e->flops)
		snprintf(flops, sizeof(flops), "-");   /* not checked: the op model's own */
	fprintf(r->truth, "%" PRId64 "\t%u\t%s\t%s\t%s\t%d\t%s\n", (int64_t)(start + (r->nsys ? 0 : KINETO_BASE_NS)), stream,
		e->state, e->op ? op : "-", e->layer ? o->layer : "-", iter, flops);
}

/* The expected attribution of graph g's replay at batch size bs, op o. */
static struct expect expect_of(const struct run *r, int g, const struct gop *o)
{
	if (r->eager)
		return (struct expect){"eager", true, true, true};
	if (r->nsys && !r->node_mode)
		return (struct expect){"whole-graph", false, false, false};
	if (g == G_U)
		return (struct expect){r->nsys ? "node-unseen" : "no-match", false, false, false};
	if (g == G_G && !r->nsys)   /* captured at three batch sizes: shapes open */
		return (struct expect){"captured-ops", true, true, false};
	if (g == G_M && !r->nsys && (!r->amd || strcmp(o->op, "aten::add") == 0))
		/* no names on two streams; or one name on both at once, in two layers */
		return (struct expect){"ambiguous", false, false, false};
	return (struct expect){"captured", true, true, true};
}

/* A replay of graph g at batch size bs launched at t on the main thread,
** its GPU work from gpu; returns when its GPU work ends. */
static int64_t replay(struct run *r, int g, int bs, int iter, int64_t t, int64_t gpu)
{
	const struct gdef *d = &graphs[g];
	uint64_t corr = ++r->corr;
	int64_t at[2] = {gpu, gpu}, end = gpu;

	if (!r->eager)
		api(r, t, t + 20 * US, GEN_API_GRAPH_LAUNCH, corr, 0, NULL, bs);
	/* the second stream's work goes first */
	for (int i = 0; i < d->n; i++)
		if (d->ops[i].stream == S_SIDE)
			at[S_MAIN] = gpu + 3 * US;
	for (int i = 0; i < d->n; i++) {
		const struct gop *o = &d->ops[i];
		int64_t s = at[o->stream], e = s + 20 * US + (int64_t)bs * US / 8;
		uint32_t st = stream_of(o->stream);
		uint64_t node = node_id(g, i) + EXEC_NODE;
		struct expect x = expect_of(r, g, o);
		at[o->stream] = e + 2 * US;
		if (e > end)
			end = e;
		if (r->eager) {
			/* the op's ranges and its own launch, 1.5 us each on the CPU */
			int64_t c = t + i * 1500;
			char dims[128], text[256], layer[96];
			uint64_t ext = ++r->ext;
			corr = ++r->corr;
			op_text(o, bs, ext, dims, sizeof(dims), text, sizeof(text));
			snprintf(layer, sizeof(layer), "layer:%s", o->layer);
			range(r, c, c + 1400, GEN_R_LAYER, layer, layer, 0, NULL, NULL);
			range(r, c + 100, c + 1300, GEN_R_OP, text, o->op, ext, dims, NULL);
			api(r, c + 200, c + 1200, o->kind == N_COPY ? GEN_API_MEMCPY_ASYNC
						 : o->kind == N_SET ? GEN_API_MEMSET_ASYNC : GEN_API_LAUNCH,
			    corr, ext, o, bs);
		}
		if (r->nsys && !r->node_mode && !r->eager)
			continue;
		if (o->kind == N_COPY) {
			r->sink.memcpy(r->sink.ctx, &(struct gen_memcpy){.start = s, .end = e, .stream = st, .corr = corr,
				.bytes = (uint64_t)bs * o->k * 2, .copy_kind = 8, .src_kind = 3, .dst_kind = 3,
				.graph_node = r->nsys && !r->eager ? node : 0});
			continue;
		}
		if (o->kind == N_SET) {
			r->sink.memset(r->sink.ctx, &(struct gen_memset){.start = s, .end = e, .stream = st, .corr = corr,
				.bytes = (uint64_t)bs * o->k * 2, .graph_node = r->nsys && !r->eager ? node : 0});
			continue;
		}
		struct gen_kernel k = {.start = s, .end = e, .kdef = o->kd, .stream = st, .corr = corr};
		if (!r->amd) {
			k.grid[0] = (uint32_t)(bs * o->k / 256);
			k.grid[1] = k.grid[2] = k.block[1] = k.block[2] = 1;
			k.block[0] = 256;
		}
		if ((r->nsys || !r->amd) && !r->eager) {
			k.graph_node = node;
			k.graph_id = d->id;
		}
		r->sink.kernel(r->sink.ctx, &k);
		truth(r, s, st, o, bs, iter, &x);
	}
	if (r->nsys && !r->node_mode && !r->eager) {
		r->sink.graph_exec(r->sink.ctx, &(struct gen_graph_exec){
			.start = gpu, .end = end, .stream = stream_of(S_MAIN), .corr = corr, .graph_id = d->id,
			.exec_id = d->id + 50});
		for (int i = 0; i < d->n; i++)
			if (d->ops[i].kind == N_KERNEL) {
				/* the whole graph is one record: its truth is one line */
				truth(r, gpu, stream_of(S_MAIN), &d->ops[i], bs, iter,
				      &(struct expect){"whole-graph", false, false, false});
				break;
			}
	}
	return end;
}

/* An op run eagerly at t: its range, its launch and kernel. */
static void eager(struct run *r, int64_t t, int64_t gpu)
{
	static const struct gop copy = EW("", "aten::copy_", KD_FILL, HID);
	uint64_t ext = ++r->ext, corr = ++r->corr;
	char dims[128], text[256];

	op_text(&copy, 8, ext, dims, sizeof(dims), text, sizeof(text));
	range(r, t, t + 30 * US, GEN_R_OP, text, copy.op, ext, dims, "[\"c10::Half\"]");
	api(r, t + 5 * US, t + 12 * US, GEN_API_LAUNCH, corr, ext, &copy, 8);
	r->sink.kernel(r->sink.ctx, &(struct gen_kernel){.start = gpu, .end = gpu + 10 * US, .kdef = KD_FILL,
		.stream = stream_of(S_MAIN), .corr = corr, .ext = ext, .grid = {32, 1, 1}, .block = {256, 1, 1}});
}

/* The replay steps from t: each replays P, G, M and U and runs one op
** eagerly, inside its step range.  Returns when the last ends. */
static int64_t steps(struct run *r, int64_t t, int first_iter)
{
	static const int bs[] = {1, 8, 32, 8};
	char name[32];

	for (int s = 0; s < 4; s++) {
		int iter = first_iter + s, b = r->nsys ? 8 : bs[s];
		int64_t t0 = t, gpu = t + 100 * US;
		gpu = replay(r, G_P, b, iter, t + 10 * US, gpu) + 5 * US;
		gpu = replay(r, G_G, b, iter, t + 40 * US, gpu) + 5 * US;
		gpu = replay(r, G_M, 8, iter, t + 70 * US, gpu) + 5 * US;
		gpu = replay(r, G_U, b, iter, t + 100 * US, gpu) + 5 * US;
		eager(r, t + 130 * US, gpu);
		t = gpu + 50 * US;
		if (r->nsys)
			snprintf(name, sizeof(name), "iteration %d", iter);
		else
			snprintf(name, sizeof(name), "ProfilerStep#%d", iter);
		range(r, t0, t, r->nsys ? GEN_R_ITER : GEN_R_ANNOT, name, name, 0, NULL, NULL);
		t += 100 * US;
	}
	return t;
}

static int nsys_run(const struct gen_writer *w, const char *path, bool force, const char *mode, FILE *truth_f,
		    gp_error *err)
{
	struct gen_opts o = {.seed = 1, .streams = 2, .graphs = true};
	struct run r = {.nsys = true, .node_mode = strcmp(mode, "node") == 0, .eager = strcmp(mode, "eager") == 0,
			.truth = truth_f};
	int64_t t = 1000000000LL;

	if (w->open(path, force, &o, &r.sink, err))
		return err->status;
	/* iteration 0: the warm-up that captures; U was captured before the
	** profile began (no node events).  Eager: the same time, no capture. */
	int64_t t0 = t;
	if (!r.eager) {
		t = capture(&r, G_P, 8, t + 10 * US);
		t = capture(&r, G_G, 8, t + 10 * US);
		t = capture(&r, G_M, 8, t + 10 * US);
	} else {
		t += 3 * 10 * US + 3 * 50 * US;
	}
	range(&r, t0, t + 10 * US, GEN_R_ITER, "iteration 0", "iteration 0", 0, NULL, NULL);
	steps(&r, t + 100 * US, 1);
	return w->finish(&r.sink, err);
}

/* One capture trace: graphs gs[0..n) captured at batch size bs. */
static int capture_file(const struct gen_writer *w, const char *path, bool force, bool amd, const int *gs, int n,
			int bs, int64_t t, gp_error *err)
{
	struct gen_opts o = {.seed = (uint64_t)bs, .streams = 2, .rank = 0, .world_size = 1, .amd = amd};
	struct run r = {.amd = amd};

	if (w->open(path, force, &o, &r.sink, err))
		return err->status;
	for (int i = 0; i < n; i++)
		t = capture(&r, gs[i], bs, t + 10 * US);
	return w->finish(&r.sink, err);
}

static int kineto_run(const struct gen_writer *w, const char *path, bool force, bool amd, FILE *truth_f,
		      gp_error *err)
{
	static const struct {
		int bs, n, g[2];
	} files[] = {{1, 2, {G_P, G_G}}, {8, 2, {G_G, G_M}}, {32, 1, {G_G}}, {64, 1, {G_X}}};
	struct gen_opts o = {.seed = 7, .streams = 2, .rank = 0, .world_size = 1, .amd = amd};
	struct run r = {.amd = amd, .truth = truth_f};
	char dir[4096], file[4200];
	const char *slash = strrchr(path, '/');
	FILE *f;
	int rc;

	snprintf(dir, sizeof(dir), "%.*scapture_traces", slash ? (int)(slash - path + 1) : 0, path);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return gp_err(err, GP_ERR_IO, "%s: cannot create the directory: %s", dir, strerror(errno));
	snprintf(file, sizeof(file), "%s/execution_details.json", dir);
	if (!(f = fopen(file, "w")))
		return gp_err(err, GP_ERR_IO, "%s: %s", file, strerror(errno));
	fputs("[", f);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char name[96];
		snprintf(name, sizeof(name), "graph_capture_rank_0.%d.pt.trace.json", files[i].bs);
		snprintf(file, sizeof(file), "%s/%s", dir, name);
		if ((rc = capture_file(w, file, force, amd, files[i].g, files[i].n, files[i].bs,
				       1000000000LL + (int64_t)i * 100000000LL, err))) {
			fclose(f);
			return rc;
		}
		fprintf(f, "%s\n  {\"file\": \"%s\", \"batch_size\": %d, \"mode\": \"FULL\"}", i ? "," : "", name,
			files[i].bs);
	}
	fputs("\n]\n", f);
	if (fclose(f) != 0)
		return gp_err(err, GP_ERR_IO, "%s/execution_details.json: write failed", dir);
	if (w->open(path, force, &o, &r.sink, err))
		return err->status;
	steps(&r, 10000000000LL, 0);
	return w->finish(&r.sink, err);
}

int gen_graphs_run(const struct gen_writer *w, const char *path, const char *mode, bool force, gp_error *err)
{
	/* a recording tells the capture as an nsys export does: NVTX ranges
	** around the nodes' creation, node events, replayed node ids */
	bool nsys = strcmp(w->name, "nsys") == 0 || strcmp(w->name, "gprec") == 0;
	bool kineto = strcmp(w->name, "kineto") == 0;
	char tpath[4200];
	FILE *f;
	int rc;

	if (nsys ? strcmp(mode, "node") != 0 && strcmp(mode, "graph") != 0 && strcmp(mode, "eager") != 0
		 : !kineto || (strcmp(mode, "amd") != 0 && strcmp(mode, "cuda") != 0))
		return gp_err(err, GP_ERR_USAGE, "--graphs wants node, graph or eager with --format nsys or gprec, "
			      "amd or cuda with --format kineto, not '%s' with %s", mode, w->name);
	snprintf(tpath, sizeof(tpath), "%s.truth", path);
	if (!(f = fopen(tpath, "w")))
		return gp_err(err, GP_ERR_IO, "%s: %s", tpath, strerror(errno));
	rc = nsys ? nsys_run(w, path, force, mode, f, err)
		  : kineto_run(w, path, force, strcmp(mode, "amd") == 0, f, err);
	if (fclose(f) != 0 && !rc)
		rc = gp_err(err, GP_ERR_IO, "%s: write failed", tpath);
	return rc;
}
