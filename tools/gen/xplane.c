/*
** `gpuprof-gen --format xplane`: the XPlane profile (`<host>.xplane.pb`)
** that JAX's profiler writes for a data- and tensor-parallel training step
** on NVIDIA H100s, the truth known by construction.  What real files lack
** (the TraceLens ones are MI300X convolutions on one host): NVIDIA names,
** CUPTI's device stats, collectives, several hosts.
**
** The layout follows XLA's CUPTI collector and JAX's host tracer as they
** are merged into one XSpace (and as the real MI300X file shows it):
**   /device:GPU:<g>  id g; plane stats device_vendor "Nvidia",
**                    gpu_device_name, clock_rate (kHz), core_count (SMs),
**                    memory_bandwidth (B/s), memory_size (B),
**                    compute_cap_major/minor; lines are CUPTI streams,
**                    id = stream id, named "Stream #13(Kernel)" (compute),
**                    "Stream #14(MemcpyH2D,MemcpyD2H)" (copies),
**                    "Stream #22(Kernel)" (collectives).  A kernel's stats:
**                    correlation_id, context_id "$$1",
**                    theoretical_occupancy_pct, occupancy_min_grid_size,
**                    occupancy_suggested_block_size, kernel_details (a ref:
**                    "regs:R static_shared:S dynamic_shared:D grid:x,y,z
**                    block:x,y,z occ_pct:P"), then the XLA annotation:
**                    tf_op "XlaModule:", name (the JAX name stack), hlo_op,
**                    hlo_module (refs) and program_id (int).  A copy:
**                    MemcpyH2D / MemcpyD2H with correlation_id, context_id
**                    and memcpy_details ("kind_src:pinned kind_dst:device
**                    size:N dest:0 async:1").
**   /host:CPU        id 0; line "python" (the train_step step marker with
**                    step_num and _r, PjitFunction(train_step)); per GPU a
**                    line "py_xla_execute/<id>" (GpuExecutable::ExecuteThunks
**                    with module_name, "jit_train_step:XLA GPU module", one
**                    TraceMe per thunk named by its HLO op) and a line
**                    "Host Threads/<tid>" of CUPTI driver calls
**                    (cuLaunchKernel, cuLaunchKernelEx for NCCL,
**                    cuMemcpyHtoDAsync_v2, cuMemcpyDtoHAsync_v2) with
**                    device_id, correlation_id and context_id.
**   Task Environment profile_start_time, profile_stop_time (ns since 1970).
** Every line's timestamp_ns is LINE_TS_NS; events are offset_ps from it.
**
** The workload (the same on every GPU of every host): STEPS of
** jit_train_step (program_id 42): an H2D copy of the batch, then the ops
** of ops[] in order on the compute stream, each one kernel, collectives on
** their own stream, then a D2H copy of the loss.  A synchronous collective
** starts when the compute kernel before it ends (+ GAP_NS) and the next
** compute kernel waits for it: all of its time is exposed.  The one
** asynchronous collective (all-reduce-start, layer 1's gradients) starts
** with the backward of layer 0 and ends before that layer's compute does:
** only the gaps between compute kernels leave it exposed, which the writer
** counts as it schedules.  The truth goes to a text file (gen_xplane_run).
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "gen.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/strtab.h"
#include "xplane.pb-c.h"

#define US 1000LL
#define GAP_NS (5 * US)                 /* between kernels on a stream */
#define LINE_TS_NS 500000LL             /* every line's timestamp_ns */
#define ORIGIN_NS 1000000LL             /* the first step, ns after the profile start */
#define START_WALL_NS 1767225600000000000ULL    /* 2026-01-01 00:00:00 UTC */
#define MODULE "jit_train_step"
#define PROGRAM_ID 42
#define STREAM_COMPUTE 13
#define STREAM_COPY 14
#define STREAM_COLL 22
#define BATCH_BYTES 4194304LL           /* the H2D copy of each step */
#define H2D_NS (200 * US)
#define LOSS_BYTES 4LL
#define D2H_NS (2 * US)

/* A kernel as CUPTI describes it. */
struct xk {
	const char *name;               /* NULL: the HLO op's name with '.' -> '_' (XLA's fusions) */
	const char *launch;             /* the driver call */
	unsigned regs, static_smem, dyn_smem, grid, block;
	double occ;                     /* theoretical occupancy, % */
	int min_grid, suggested_block;
};

enum { XK_FUSION, XK_REDUCE, XK_GEMM, XK_AR, XK_AG, XK_RS, XK_SENDRECV };

static const struct xk kernels[] = {
	[XK_FUSION] = {NULL, "cuLaunchKernel", 16, 0, 0, 1056, 128, 100, 1056, 1024},
	[XK_REDUCE] = {NULL, "cuLaunchKernel", 32, 1024, 0, 4096, 256, 100, 528, 512},
	[XK_GEMM] = {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_"
		     "off_kernel__5x_cublas",
		     "cuLaunchKernel", 168, 0, 213248, 132, 384, 18.75, 132, 384},
	[XK_AR] = {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "cuLaunchKernelEx", 96, 0,
		   4864, 24, 512, 25, 264, 640},
	[XK_AG] = {"ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "cuLaunchKernelEx", 96, 0, 4864, 24,
		   512, 25, 264, 640},
	[XK_RS] = {"ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "cuLaunchKernelEx", 96,
		   0, 4864, 24, 512, 25, 264, 640},
	[XK_SENDRECV] = {"ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", "cuLaunchKernelEx", 64, 0, 4864, 24, 512,
			 25, 264, 640},
};

enum op_kind { OP_COMPUTE, OP_SYNC, OP_ASYNC };

/* One thunk of jit_train_step: its HLO op, the JAX name stack XLA keeps as
** the op's name, its kernel and how long that runs. */
struct xop {
	const char *hlo_op, *name;
	int kernel;
	int64_t ns;
	enum op_kind kind;
	const char *coll;               /* the collective's type, NULL for compute */
};

#define FWD(l) "jit(train_step)/transformer/layer_" #l "/"
#define BWD(l) "jit(train_step)/transpose(jvp(transformer))/layer_" #l "/"

static const struct xop ops[] = {
	/* forward, layer 0 */
	{"input_reduce_fusion", FWD(0) "ln/reduce_sum", XK_REDUCE, 20 * US, OP_COMPUTE, NULL},
	{"all-gather-start", FWD(0) "attn/all_gather", XK_AG, 60 * US, OP_SYNC, "all-gather"},
	{"cublas-gemm.1", FWD(0) "attn/dot_general", XK_GEMM, 180 * US, OP_COMPUTE, NULL},
	{"loop_exponential_fusion", FWD(0) "attn/exp", XK_FUSION, 25 * US, OP_COMPUTE, NULL},
	{"all-to-all", FWD(0) "moe/all_to_all", XK_SENDRECV, 50 * US, OP_SYNC, "all-to-all"},
	{"cublas-gemm.2", FWD(0) "mlp/dot_general", XK_GEMM, 240 * US, OP_COMPUTE, NULL},
	{"loop_tanh_fusion", FWD(0) "mlp/tanh", XK_FUSION, 30 * US, OP_COMPUTE, NULL},
	/* forward, layer 1 */
	{"input_reduce_fusion.1", FWD(1) "ln/reduce_sum", XK_REDUCE, 20 * US, OP_COMPUTE, NULL},
	{"all-gather-start.1", FWD(1) "attn/all_gather", XK_AG, 60 * US, OP_SYNC, "all-gather"},
	{"cublas-gemm.3", FWD(1) "attn/dot_general", XK_GEMM, 180 * US, OP_COMPUTE, NULL},
	{"loop_exponential_fusion.1", FWD(1) "attn/exp", XK_FUSION, 25 * US, OP_COMPUTE, NULL},
	{"all-to-all.1", FWD(1) "moe/all_to_all", XK_SENDRECV, 50 * US, OP_SYNC, "all-to-all"},
	{"cublas-gemm.4", FWD(1) "mlp/dot_general", XK_GEMM, 240 * US, OP_COMPUTE, NULL},
	{"loop_tanh_fusion.1", FWD(1) "mlp/tanh", XK_FUSION, 30 * US, OP_COMPUTE, NULL},
	/* backward, layer 1, then its gradients' all-reduce behind layer 0's */
	{"cublas-gemm.5", BWD(1) "mlp/dot_general", XK_GEMM, 240 * US, OP_COMPUTE, NULL},
	{"cublas-gemm.6", BWD(1) "mlp/dot_general", XK_GEMM, 240 * US, OP_COMPUTE, NULL},
	{"loop_multiply_fusion.1", BWD(1) "mlp/mul", XK_FUSION, 30 * US, OP_COMPUTE, NULL},
	{"cublas-gemm.7", BWD(1) "attn/dot_general", XK_GEMM, 180 * US, OP_COMPUTE, NULL},
	{"reduce-scatter.1", BWD(1) "attn/reduce_scatter", XK_RS, 60 * US, OP_SYNC, "reduce-scatter"},
	{"all-reduce-start", "jit(train_step)/psum", XK_AR, 400 * US, OP_ASYNC, "all-reduce"},
	/* backward, layer 0 */
	{"cublas-gemm.8", BWD(0) "mlp/dot_general", XK_GEMM, 240 * US, OP_COMPUTE, NULL},
	{"cublas-gemm.9", BWD(0) "mlp/dot_general", XK_GEMM, 240 * US, OP_COMPUTE, NULL},
	{"loop_multiply_fusion", BWD(0) "mlp/mul", XK_FUSION, 30 * US, OP_COMPUTE, NULL},
	{"cublas-gemm.10", BWD(0) "attn/dot_general", XK_GEMM, 180 * US, OP_COMPUTE, NULL},
	{"reduce-scatter", BWD(0) "attn/reduce_scatter", XK_RS, 60 * US, OP_SYNC, "reduce-scatter"},
	{"all-reduce-start.1", "jit(train_step)/psum", XK_AR, 400 * US, OP_SYNC, "all-reduce"},
	{"collective-permute-start", "jit(train_step)/ppermute", XK_SENDRECV, 40 * US, OP_SYNC, "collective-permute"},
	/* the optimizer */
	{"loop_add_fusion", "jit(train_step)/optimizer/add", XK_FUSION, 80 * US, OP_COMPUTE, NULL},
	{"loop_multiply_fusion.2", "jit(train_step)/optimizer/mul", XK_FUSION, 50 * US, OP_COMPUTE, NULL},
};
#define NOPS ((int)(sizeof(ops) / sizeof(ops[0])))

static const char *const coll_types[] = {"all-reduce", "all-gather", "reduce-scatter", "all-to-all",
					 "collective-permute"};
#define NCOLL 5

typedef Gpuprof__Xplane__XPlane XPlane;
typedef Gpuprof__Xplane__XLine XLine;
typedef Gpuprof__Xplane__XEvent XEvent;
typedef Gpuprof__Xplane__XStat XStat;

#define MAX_STATS 16    /* an event's or a plane's */

/* A line being filled: its events grow in a vector. */
struct xline {
	XLine line;
	GP_VEC(XEvent *) ev;
};

/* A plane being filled: names of events and stats interned, their ids the
** intern ids (1 up). */
struct xplane {
	XPlane plane;
	gp_strtab ev_names, stat_names;
	GP_VEC(struct xline *) lines;
};

/* What one host's file is built from; everything lives in the arena. */
struct xhost {
	gp_arena arena;
	struct xplane *gpu[GEN_XPLANE_MAX_GPUS], host, env;
	struct xline *python, *exec[GEN_XPLANE_MAX_GPUS], *api[GEN_XPLANE_MAX_GPUS];
	struct xline *stream[GEN_XPLANE_MAX_GPUS][3];   /* compute, copy, collectives */
	uint64_t corr;
};

/* The truth of one GPU (all GPUs and hosts are the same). */
struct xtruth {
	int64_t op_count[NOPS], op_ns[NOPS];
	int64_t kernels, kernel_ns, memcpy, memcpy_bytes, memcpy_ns;
	int64_t coll_count[NCOLL], coll_ns[NCOLL], coll_exposed_ns, coll_async_ns;
	int64_t step_ns;                /* every step's train_step marker */
};

static void plane_init(struct xplane *p, int64_t id, const char *name)
{
	Gpuprof__Xplane__XPlane init = GPUPROF__XPLANE__XPLANE__INIT;

	p->plane = init;
	p->plane.id = id;
	p->plane.name = (char *)name;
	gp_strtab_init(&p->ev_names);
	gp_strtab_init(&p->stat_names);
}

/* A new line of p with id and name (also its display name). */
static struct xline *line_new(struct xhost *h, struct xplane *p, int64_t id, const char *name)
{
	Gpuprof__Xplane__XLine init = GPUPROF__XPLANE__XLINE__INIT;
	struct xline *l = gp_arena_alloc(&h->arena, sizeof(*l));

	l->line = init;
	l->line.id = id;
	l->line.name = l->line.display_name = gp_arena_strndup(&h->arena, name, strlen(name));
	l->line.timestamp_ns = LINE_TS_NS;
	*gp_vec_push(p->lines) = l;
	return l;
}

/* An event named name on line l of plane p from start for dur ns (times
** since the profile start); stats are added with the stat_* helpers. */
static XEvent *event(struct xhost *h, struct xplane *p, struct xline *l, const char *name, int64_t start, int64_t dur)
{
	Gpuprof__Xplane__XEvent init = GPUPROF__XPLANE__XEVENT__INIT;
	XEvent *e = gp_arena_alloc(&h->arena, sizeof(*e));

	*e = init;
	e->metadata_id = gp_strtab_intern(&p->ev_names, name);
	e->data_case = GPUPROF__XPLANE__XEVENT__DATA_OFFSET_PS;
	e->offset_ps = (start - l->line.timestamp_ns) * 1000;
	e->duration_ps = dur * 1000;
	e->stats = gp_arena_alloc(&h->arena, MAX_STATS * sizeof(*e->stats));
	*gp_vec_push(l->ev) = e;
	return e;
}

/* A new stat named name appended to stats (*n of at most MAX_STATS). */
static XStat *stat_new(struct xhost *h, struct xplane *p, XStat **stats, size_t *n, const char *name)
{
	Gpuprof__Xplane__XStat init = GPUPROF__XPLANE__XSTAT__INIT;
	XStat *s = gp_arena_alloc(&h->arena, sizeof(*s));

	*s = init;
	s->metadata_id = gp_strtab_intern(&p->stat_names, name);
	if (*n < MAX_STATS)
		stats[(*n)++] = s;
	return s;
}

static void stat_u64(struct xhost *h, struct xplane *p, XEvent *e, const char *name, uint64_t v)
{
	XStat *s = stat_new(h, p, e->stats, &e->n_stats, name);
	s->value_case = GPUPROF__XPLANE__XSTAT__VALUE_UINT64_VALUE;
	s->uint64_value = v;
}

static void stat_i64(struct xhost *h, struct xplane *p, XEvent *e, const char *name, int64_t v)
{
	XStat *s = stat_new(h, p, e->stats, &e->n_stats, name);
	s->value_case = GPUPROF__XPLANE__XSTAT__VALUE_INT64_VALUE;
	s->int64_value = v;
}

static void stat_dbl(struct xhost *h, struct xplane *p, XEvent *e, const char *name, double v)
{
	XStat *s = stat_new(h, p, e->stats, &e->n_stats, name);
	s->value_case = GPUPROF__XPLANE__XSTAT__VALUE_DOUBLE_VALUE;
	s->double_value = v;
}

static void stat_str(struct xhost *h, struct xplane *p, XEvent *e, const char *name, const char *v)
{
	XStat *s = stat_new(h, p, e->stats, &e->n_stats, name);
	s->value_case = GPUPROF__XPLANE__XSTAT__VALUE_STR_VALUE;
	s->str_value = gp_arena_strndup(&h->arena, v, strlen(v));
}

/* A string stat written as XLA writes most: a reference to a stat
** metadata entry whose name is the value. */
static void stat_ref(struct xhost *h, struct xplane *p, XEvent *e, const char *name, const char *v)
{
	XStat *s = stat_new(h, p, e->stats, &e->n_stats, name);
	s->value_case = GPUPROF__XPLANE__XSTAT__VALUE_REF_VALUE;
	s->ref_value = gp_strtab_intern(&p->stat_names, v);
}

/* The device plane of GPU g: an H100 SXM as CUPTI's collector describes it. */
static void gpu_plane(struct xhost *h, int g)
{
	static const char *const names[] = {"/device:GPU:0", "/device:GPU:1", "/device:GPU:2", "/device:GPU:3",
					    "/device:GPU:4", "/device:GPU:5", "/device:GPU:6", "/device:GPU:7"};
	struct xplane *p = h->gpu[g] = gp_arena_alloc(&h->arena, sizeof(*p));
	XStat *s;

	plane_init(p, g, names[g]);
	p->plane.stats = gp_arena_alloc(&h->arena, MAX_STATS * sizeof(*p->plane.stats));
	s = stat_new(h, p, p->plane.stats, &p->plane.n_stats, "device_vendor");
	s->value_case = GPUPROF__XPLANE__XSTAT__VALUE_STR_VALUE;
	s->str_value = "Nvidia";
	s = stat_new(h, p, p->plane.stats, &p->plane.n_stats, "gpu_device_name");
	s->value_case = GPUPROF__XPLANE__XSTAT__VALUE_STR_VALUE;
	s->str_value = "NVIDIA H100 80GB HBM3";
	const struct {
		const char *name;
		int64_t v;
		bool u;
	} caps[] = {
		{"clock_rate", 1980000, false},                 /* kHz */
		{"core_count", 132, false},                     /* SMs */
		{"memory_bandwidth", 3352320000000LL, true},    /* 2 x 2619 MHz x 5120 bits / 8 */
		{"memory_size", 84929216512LL, true},
		{"compute_cap_major", 9, false},
		{"compute_cap_minor", 0, false},
	};
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		s = stat_new(h, p, p->plane.stats, &p->plane.n_stats, caps[i].name);
		s->value_case = caps[i].u ? GPUPROF__XPLANE__XSTAT__VALUE_UINT64_VALUE : GPUPROF__XPLANE__XSTAT__VALUE_INT64_VALUE;
		if (caps[i].u)
			s->uint64_value = (uint64_t)caps[i].v;
		else
			s->int64_value = caps[i].v;
	}
	h->stream[g][0] = line_new(h, p, STREAM_COMPUTE, "Stream #13(Kernel)");
	h->stream[g][1] = line_new(h, p, STREAM_COPY, "Stream #14(MemcpyH2D,MemcpyD2H)");
	h->stream[g][2] = line_new(h, p, STREAM_COLL, "Stream #22(Kernel)");
}

/* The kernel name of op o (XLA names a fusion's kernel after it). */
static const char *kernel_name(const struct xop *o, char *buf, size_t size)
{
	if (kernels[o->kernel].name)
		return kernels[o->kernel].name;
	snprintf(buf, size, "%s", o->hlo_op);
	for (char *c = buf; *c; c++)
		if (*c == '.')
			*c = '_';
	return buf;
}

/* The driver call of a copy or launch on GPU g's API line, and the device
** event it correlates with on stream line sl. */
static XEvent *launch(struct xhost *h, int g, const char *api, int64_t cpu, struct xline *sl, const char *name,
		      int64_t start, int64_t dur)
{
	struct xplane *hp = &h->host, *gp = h->gpu[g];
	uint64_t corr = ++h->corr;
	char ctx[16];
	XEvent *a = event(h, hp, h->api[g], api, cpu, 6 * US), *k;

	stat_u64(h, hp, a, "device_id", (uint64_t)g);
	stat_u64(h, hp, a, "correlation_id", corr);
	snprintf(ctx, sizeof(ctx), "$$%d", g + 1);     /* CUPTI's context of the GPU */
	stat_str(h, hp, a, "context_id", ctx);
	k = event(h, gp, sl, name, start, dur);
	stat_u64(h, gp, k, "correlation_id", corr);
	stat_str(h, gp, k, "context_id", ctx);
	return k;
}

/* One step s of GPU g from t (ns since the profile start): its thunks on
** the executor line, launches, kernels and copies; returns when the step's
** D2H copy ends and adds to tr (GPU 0 only: the others are the same). */
static int64_t gpu_step(struct xhost *h, int g, int64_t t, struct xtruth *tr)
{
	struct xplane *hp = &h->host, *gp = h->gpu[g];
	int64_t cpu = t + 100 * US, gpu, compute_free, coll_free, async_start = 0, async_end = 0;
	int64_t mod_len = NOPS * 10 * US + 20 * US;
	char kbuf[128], details[256];
	XEvent *e;

	/* the batch's copy to the device */
	e = launch(h, g, "cuMemcpyHtoDAsync_v2", t + 60 * US, h->stream[g][1], "MemcpyH2D", t + 80 * US, H2D_NS);
	snprintf(details, sizeof(details), "kind_src:pinned kind_dst:device size:%lld dest:0 async:1", BATCH_BYTES);
	stat_ref(h, gp, e, "memcpy_details", details);
	gpu = t + 80 * US + H2D_NS + GAP_NS;
	if (tr) {
		tr->memcpy++;
		tr->memcpy_bytes += BATCH_BYTES;
		tr->memcpy_ns += H2D_NS;
	}
	e = event(h, hp, h->exec[g], "GpuExecutable::ExecuteThunks", cpu, mod_len);
	stat_ref(h, hp, e, "module_name", MODULE);
	event(h, hp, h->exec[g], MODULE ":XLA GPU module", cpu + 5 * US, mod_len - 10 * US);
	compute_free = coll_free = gpu;
	for (int i = 0; i < NOPS; i++) {
		const struct xop *o = &ops[i];
		const struct xk *k = &kernels[o->kernel];
		int64_t thunk = cpu + 10 * US + i * 10 * US, start;
		bool coll = o->kind != OP_COMPUTE;

		event(h, hp, h->exec[g], o->hlo_op, thunk, 8 * US);
		if (o->kind == OP_SYNC)         /* after the compute before it and its own stream */
			start = (compute_free > coll_free ? compute_free : coll_free);
		else if (o->kind == OP_ASYNC)
			start = compute_free;
		else
			start = compute_free;
		e = launch(h, g, k->launch, thunk + 1 * US, h->stream[g][coll ? 2 : 0], kernel_name(o, kbuf, sizeof(kbuf)),
			   start, o->ns);
		stat_dbl(h, gp, e, "theoretical_occupancy_pct", k->occ);
		stat_i64(h, gp, e, "occupancy_min_grid_size", k->min_grid);
		stat_i64(h, gp, e, "occupancy_suggested_block_size", k->suggested_block);
		snprintf(details, sizeof(details), "regs:%u static_shared:%u dynamic_shared:%u grid:%u,1,1 block:%u,1,1 occ_pct:%g",
			 k->regs, k->static_smem, k->dyn_smem, k->grid, k->block, k->occ);
		stat_ref(h, gp, e, "kernel_details", details);
		stat_ref(h, gp, e, "tf_op", "XlaModule:");
		stat_ref(h, gp, e, "name", o->name);
		stat_ref(h, gp, e, "hlo_op", o->hlo_op);
		stat_ref(h, gp, e, "hlo_module", MODULE);
		stat_i64(h, gp, e, "program_id", PROGRAM_ID);
		if (o->kind == OP_SYNC) {
			compute_free = coll_free = start + o->ns + GAP_NS;
		} else if (o->kind == OP_ASYNC) {
			async_start = start;
			async_end = start + o->ns;
			coll_free = async_end + GAP_NS;
		} else {
			compute_free = start + o->ns + GAP_NS;
		}
		if (!tr)
			continue;
		tr->op_count[i]++;
		tr->op_ns[i] += o->ns;
		tr->kernels++;
		tr->kernel_ns += o->ns;
		for (int c = 0; coll && c < NCOLL; c++)
			if (strcmp(coll_types[c], o->coll) == 0) {
				tr->coll_count[c]++;
				tr->coll_ns[c] += o->ns;
			}
		if (o->kind == OP_SYNC)
			tr->coll_exposed_ns += o->ns;
		else if (o->kind == OP_ASYNC)
			tr->coll_exposed_ns += o->ns, tr->coll_async_ns += o->ns;
		else if (async_end > start) {  /* a compute kernel hides part of the async collective */
			int64_t lo = start > async_start ? start : async_start;
			int64_t hi = start + o->ns < async_end ? start + o->ns : async_end;
			if (hi > lo)
				tr->coll_exposed_ns -= hi - lo;
		}
	}
	/* the loss back to the host, after the last kernel */
	gpu = compute_free > coll_free ? compute_free : coll_free;
	e = launch(h, g, "cuMemcpyDtoHAsync_v2", cpu + mod_len + 5 * US, h->stream[g][1], "MemcpyD2H", gpu, D2H_NS);
	snprintf(details, sizeof(details), "kind_src:device kind_dst:pinned size:%lld dest:0 async:1", LOSS_BYTES);
	stat_ref(h, gp, e, "memcpy_details", details);
	if (tr) {
		tr->memcpy++;
		tr->memcpy_bytes += LOSS_BYTES;
		tr->memcpy_ns += D2H_NS;
	}
	return gpu + D2H_NS;
}

/* Builds host's planes: GPU planes, the host plane, the task environment,
** then xo->steps steps from ORIGIN_NS; the truth of GPU 0 into tr. */
static void host_build(struct xhost *h, const struct gen_xplane_opts *xo, struct xtruth *tr)
{
	int64_t t = ORIGIN_NS, mod_len = NOPS * 10 * US + 20 * US;
	char name[64];
	XStat *s;

	for (int g = 0; g < xo->gpus; g++)
		gpu_plane(h, g);
	plane_init(&h->host, 0, "/host:CPU");
	h->python = line_new(h, &h->host, GEN_PID, "python");
	for (int g = 0; g < xo->gpus; g++) {
		int64_t id = -1472503042444199177LL - g;        /* TraceMe's thread id */
		snprintf(name, sizeof(name), "py_xla_execute/%" PRId64, id);
		h->exec[g] = line_new(h, &h->host, id, name);
		snprintf(name, sizeof(name), "Host Threads/%d", 24300 + g);   /* the OS thread CUPTI names */
		h->api[g] = line_new(h, &h->host, 24300 + g, name);
	}
	for (int step = 0; step < xo->steps; step++) {
		int64_t end = 0;
		XEvent *e;

		for (int g = 0; g < xo->gpus; g++)
			end = gpu_step(h, g, t, g == 0 ? tr : NULL);
		/* jax.profiler.StepTraceAnnotation("train_step", step_num=s) */
		e = event(h, &h->host, h->python, "train_step", t, end + 20 * US - t);
		stat_i64(h, &h->host, e, "_r", 1);
		stat_i64(h, &h->host, e, "step_num", step);
		event(h, &h->host, h->python, "PjitFunction(train_step)", t + 10 * US, 110 * US + mod_len);
		tr->step_ns = end + 20 * US - t;
		t = end + 100 * US;
	}
	plane_init(&h->env, 0, "Task Environment");
	h->env.plane.stats = gp_arena_alloc(&h->arena, 2 * sizeof(*h->env.plane.stats));
	s = stat_new(h, &h->env, h->env.plane.stats, &h->env.plane.n_stats, "profile_start_time");
	s->value_case = GPUPROF__XPLANE__XSTAT__VALUE_UINT64_VALUE;
	s->uint64_value = START_WALL_NS;
	s = stat_new(h, &h->env, h->env.plane.stats, &h->env.plane.n_stats, "profile_stop_time");
	s->value_case = GPUPROF__XPLANE__XSTAT__VALUE_UINT64_VALUE;
	s->uint64_value = START_WALL_NS + (uint64_t)t;
}

/* Turns p's vectors and intern tables into the message's arrays. */
static void plane_finish(struct xhost *h, struct xplane *p)
{
	uint32_t nev = p->ev_names.n - 1, nst = p->stat_names.n - 1;

	p->plane.n_lines = p->lines.n;
	p->plane.lines = gp_arena_alloc(&h->arena, (p->lines.n + 1) * sizeof(*p->plane.lines));
	for (size_t i = 0; i < p->lines.n; i++) {
		struct xline *l = p->lines.v[i];
		l->line.n_events = l->ev.n;
		l->line.events = l->ev.v;
		p->plane.lines[i] = &l->line;
	}
	p->plane.n_event_metadata = nev;
	p->plane.event_metadata = gp_arena_alloc(&h->arena, (nev + 1) * sizeof(*p->plane.event_metadata));
	for (uint32_t i = 0; i < nev; i++) {
		Gpuprof__Xplane__XPlane__EventMetadataEntry ei = GPUPROF__XPLANE__XPLANE__EVENT_METADATA_ENTRY__INIT, *e;
		Gpuprof__Xplane__XEventMetadata mi = GPUPROF__XPLANE__XEVENT_METADATA__INIT, *m;
		e = gp_arena_alloc(&h->arena, sizeof(*e));
		m = gp_arena_alloc(&h->arena, sizeof(*m));
		*e = ei;
		*m = mi;
		e->key = m->id = i + 1;
		m->name = (char *)gp_strtab_get(&p->ev_names, i + 1);
		e->value = m;
		p->plane.event_metadata[i] = e;
	}
	p->plane.n_stat_metadata = nst;
	p->plane.stat_metadata = gp_arena_alloc(&h->arena, (nst + 1) * sizeof(*p->plane.stat_metadata));
	for (uint32_t i = 0; i < nst; i++) {
		Gpuprof__Xplane__XPlane__StatMetadataEntry ei = GPUPROF__XPLANE__XPLANE__STAT_METADATA_ENTRY__INIT, *e;
		Gpuprof__Xplane__XStatMetadata mi = GPUPROF__XPLANE__XSTAT_METADATA__INIT, *m;
		e = gp_arena_alloc(&h->arena, sizeof(*e));
		m = gp_arena_alloc(&h->arena, sizeof(*m));
		*e = ei;
		*m = mi;
		e->key = m->id = i + 1;
		m->name = (char *)gp_strtab_get(&p->stat_names, i + 1);
		e->value = m;
		p->plane.stat_metadata[i] = e;
	}
}

static void plane_free(struct xplane *p)
{
	for (size_t i = 0; i < p->lines.n; i++)
		gp_vec_free(p->lines.v[i]->ev);
	gp_vec_free(p->lines);
	gp_strtab_free(&p->ev_names);
	gp_strtab_free(&p->stat_names);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Writes n bytes of buf to path (see gen_create; gzip when path ends in
** .gz); on failure removes the partial file. */
static int write_file(const char *path, bool force, const uint8_t *buf, size_t n, gp_error *err)
{
	int fd = gen_create(path, force, err);
	bool ok = true;

	if (fd < 0)
		return err->status;
	if (ends_with(path, ".gz")) {
		gzFile gz = gzdopen(fd, "wb6");
		ok = gz && (n == 0 || gzwrite(gz, buf, (unsigned)n) == (int)n);
		if (gz && gzclose(gz) != Z_OK)
			ok = false;
		else if (!gz)
			close(fd);
	} else {
		for (size_t off = 0; ok && off < n;) {
			ssize_t w = write(fd, buf + off, n - off);
			if (w < 0 && errno == EINTR)
				continue;
			ok = w > 0;
			off += w > 0 ? (size_t)w : 0;
		}
		if (close(fd) != 0)
			ok = false;
	}
	if (!ok) {
		unlink(path);
		return gp_err(err, GP_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
	}
	return GP_OK;
}

/* Builds host hostname's XSpace and writes it to path; the truth of one
** GPU into tr. */
static int host_write(const char *path, const char *hostname, const struct gen_xplane_opts *xo, bool force,
		      struct xtruth *tr, gp_error *err)
{
	struct xhost *h = gp_xcalloc(1, sizeof(*h));
	Gpuprof__Xplane__XSpace space = GPUPROF__XPLANE__XSPACE__INIT;
	XPlane *planes[GEN_XPLANE_MAX_GPUS + 2];
	char *hostnames[1] = {(char *)hostname};
	uint8_t *buf;
	size_t n;
	int rc;

	memset(tr, 0, sizeof(*tr));
	host_build(h, xo, tr);
	/* the order of JAX's files: devices, the host, the environment */
	for (int g = 0; g < xo->gpus; g++) {
		plane_finish(h, h->gpu[g]);
		planes[g] = &h->gpu[g]->plane;
	}
	plane_finish(h, &h->host);
	plane_finish(h, &h->env);
	planes[xo->gpus] = &h->host.plane;
	planes[xo->gpus + 1] = &h->env.plane;
	space.n_planes = (size_t)xo->gpus + 2;
	space.planes = planes;
	space.n_hostnames = 1;
	space.hostnames = hostnames;
	n = gpuprof__xplane__xspace__get_packed_size(&space);
	buf = gp_xmalloc(n ? n : 1);
	gpuprof__xplane__xspace__pack(&space, buf);
	rc = write_file(path, force, buf, n, err);
	free(buf);
	for (int g = 0; g < xo->gpus; g++)
		plane_free(h->gpu[g]);
	plane_free(&h->host);
	plane_free(&h->env);
	gp_arena_free(&h->arena);
	free(h);
	return rc;
}

/* The truth file: what every GPU of every host ran (they are the same). */
static int truth_write(const char *path, const struct gen_xplane_opts *xo, const struct xtruth *tr, gp_error *err)
{
	FILE *f = fopen(path, "w");
	int64_t coll_ns = 0, coll_n = 0;
	char kbuf[128];

	if (!f)
		return gp_err(err, GP_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
	for (int c = 0; c < NCOLL; c++)
		coll_ns += tr->coll_ns[c], coll_n += tr->coll_count[c];
	fprintf(f, "# gpuprof-gen --format xplane: the truth by construction (tools/gen/xplane.c).\n"
		   "# Every GPU of every host runs the same: the *_per_gpu values hold for each;\n"
		   "# a host's file holds gpus_per_host times them, the run hosts times that.\n"
		   "# Times in ns.  Rows: key value | collective TYPE kernels ns |\n"
		   "# op HLO_OP KERNEL kernels ns (tab-separated).\n");
	fprintf(f, "hosts\t%d\ngpus_per_host\t%d\nsteps\t%d\nmodule\t%s\nprogram_id\t%d\n", xo->hosts ? xo->hosts : 1,
		xo->gpus, xo->steps, MODULE, PROGRAM_ID);
	fprintf(f, "device\tNVIDIA H100 80GB HBM3\nsms\t132\ncompute_capability\t9.0\n");
	fprintf(f, "step_ns\t%" PRId64 "\n", tr->step_ns);
	fprintf(f, "kernels_per_gpu\t%" PRId64 "\nkernel_ns_per_gpu\t%" PRId64 "\n", tr->kernels, tr->kernel_ns);
	fprintf(f, "memcpy_per_gpu\t%" PRId64 "\nmemcpy_bytes_per_gpu\t%" PRId64 "\nmemcpy_ns_per_gpu\t%" PRId64 "\n",
		tr->memcpy, tr->memcpy_bytes, tr->memcpy_ns);
	fprintf(f, "collective_kernels_per_gpu\t%" PRId64 "\ncollective_ns_per_gpu\t%" PRId64 "\n", coll_n, coll_ns);
	fprintf(f, "collective_exposed_ns_per_gpu\t%" PRId64 "\ncollective_async_ns_per_gpu\t%" PRId64 "\n",
		tr->coll_exposed_ns, tr->coll_async_ns);
	fprintf(f, "compute_ns_per_gpu\t%" PRId64 "\n", tr->kernel_ns - coll_ns);
	for (int c = 0; c < NCOLL; c++)
		fprintf(f, "collective\t%s\t%" PRId64 "\t%" PRId64 "\n", coll_types[c], tr->coll_count[c], tr->coll_ns[c]);
	for (int i = 0; i < NOPS; i++)
		fprintf(f, "op\t%s\t%s\t%" PRId64 "\t%" PRId64 "\n", ops[i].hlo_op, kernel_name(&ops[i], kbuf, sizeof(kbuf)),
			tr->op_count[i], tr->op_ns[i]);
	if (fclose(f) != 0)
		return gp_err(err, GP_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
	return GP_OK;
}

/* mkdir that accepts an existing directory. */
static int mkdir_ok(const char *dir, gp_error *err)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return gp_err(err, GP_ERR_IO, "%s: cannot create the directory: %s", dir, strerror(errno));
	return GP_OK;
}

int gen_xplane_run(const char *path, const struct gen_xplane_opts *xo, bool force, gp_error *err)
{
	struct xtruth tr;
	char file[4200], host[32], run[4096];

	if (xo->gpus < 1 || xo->gpus > GEN_XPLANE_MAX_GPUS || xo->steps < 1 || xo->steps > GEN_XPLANE_MAX_STEPS ||
	    xo->hosts < 0 || xo->hosts > GEN_XPLANE_MAX_HOSTS)
		return gp_err(err, GP_ERR_USAGE, "xplane wants 1 to %d GPUs, 1 to %d steps, up to %d hosts",
			      GEN_XPLANE_MAX_GPUS, GEN_XPLANE_MAX_STEPS, GEN_XPLANE_MAX_HOSTS);
	if (xo->hosts == 0) {
		if ((size_t)snprintf(file, sizeof(file), "%s.truth", path) >= sizeof(file))
			return gp_err(err, GP_ERR_USAGE, "%s: name too long", path);
		if (host_write(path, "host0", xo, force, &tr, err))
			return err->status;
		return truth_write(file, xo, &tr, err);
	}
	/* JAX's layout: DIR/plugins/profile/<run>/<hostname>.xplane.pb */
	if ((size_t)snprintf(run, sizeof(run), "%s/plugins/profile/2026_01_01_00_00_00", path) >= sizeof(run))
		return gp_err(err, GP_ERR_USAGE, "%s: directory name too long", path);
	snprintf(file, sizeof(file), "%s/plugins", path);
	if (mkdir_ok(path, err) || mkdir_ok(file, err))
		return err->status;
	snprintf(file, sizeof(file), "%s/plugins/profile", path);
	if (mkdir_ok(file, err) || mkdir_ok(run, err))
		return err->status;
	for (int i = 0; i < xo->hosts; i++) {
		snprintf(host, sizeof(host), "host%d", i);
		snprintf(file, sizeof(file), "%s/%s.xplane.pb", run, host);
		if (host_write(file, host, xo, force, &tr, err))
			return err->status;
	}
	snprintf(file, sizeof(file), "%s/xplane.truth", path);
	return truth_write(file, xo, &tr, err);
}
