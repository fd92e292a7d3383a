/*
** Unit tests: the dependency graph, the critical path, idle-gap causes and
** the what-if replay (graph replays too) on hand-built traces whose every
** number is worked out below; the API classes by name.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critpath.h"
#include "analysis/deps.h"
#include "analysis/whatif.h"
#include "model/classify.h"

#define US 1000

static void api(gp_trace *t, gp_ns s, gp_ns e, uint64_t corr, const char *name)
{
	struct gp_api *a = gp_vec_push(t->apis);
	memset(a, 0, sizeof(*a));
	a->start = s * US;
	a->end = e * US;
	a->corr = corr;
	a->pid = a->tid = 1;
	a->def = gp_api_def_add(t, &(struct gp_api_def){.name = gp_intern(t, name), .cbid = -1});
}

static void kernel(gp_trace *t, gp_ns s, gp_ns e, uint32_t stream, uint64_t corr, const char *name)
{
	struct gp_kernel *k = gp_vec_push(t->kernels);
	memset(k, 0, sizeof(*k));
	k->start = s * US;
	k->end = e * US;
	k->stream = stream;
	k->corr = corr;
	k->def = gp_kernel_def_add(t, &(struct gp_kernel_def){.name = gp_intern(t, name), .pid = 1});
}

static void range(gp_trace *t, gp_ns s, gp_ns e, uint8_t kind, const char *text)
{
	struct gp_range *r = gp_vec_push(t->ranges);
	memset(r, 0, sizeof(*r));
	r->pid = r->tid = 1;
	r->start = s * US;
	r->end = e * US;
	r->text = gp_intern(t, text);
	r->kind = kind;
	r->parent = -1;
}

static void sync_rec(gp_trace *t, uint64_t corr, uint8_t kind, uint32_t stream, uint64_t event)
{
	struct gp_sync *y = gp_vec_push(t->syncs);
	memset(y, 0, sizeof(*y));
	y->corr = corr;
	y->pid = 1;
	y->kind = kind;
	y->stream = stream;
	y->event_id = event;
}

/* One step on device 0, times in us (thread 1 of process 1):
**   R0 ProfilerStep#4 [0,1000) (not the run's first: A7 is allocator's); R1 enumerate(DataLoader) [10,200)
**   R2 aten::mm [210,260) launching K1 (A1 [220,230)) on stream 7 [235,400)
**   R3 aten::add [270,300) launching K2 (A2 [280,290)) on stream 7 [401,420):
**      queued behind K1 (stream edge, 1 us gap)
**   A3 cudaEventRecord [300,305) of event 5 on stream 7: captures K2
**   A4 cudaStreamWaitEvent [306,310): stream 8 waits for event 5
**   A5 launches K3 on stream 8 [425,500): its event source K2 binds (5 us)
**   A6 cudaStreamSynchronize(8) [330,505): waits for K3, returns 5 us later
**   A7 cudaMalloc [510,600); A8 launches K4 on stream 7 [615,700)
**   A9 cudaDeviceSynchronize [800,810), no sync record: target K4, which
**      finished before it: it does not wait */
static void build(gp_trace *t)
{
	gp_trace_init(t);
	range(t, 0, 1000, GP_RANGE_USER_ANNOTATION, "ProfilerStep#4");
	range(t, 10, 200, GP_RANGE_USER_ANNOTATION, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
	range(t, 210, 260, GP_RANGE_CPU_OP, "aten::mm");
	range(t, 270, 300, GP_RANGE_CPU_OP, "aten::add");
	api(t, 220, 230, 1, "cudaLaunchKernel");
	api(t, 280, 290, 2, "cudaLaunchKernel");
	api(t, 300, 305, 3, "cudaEventRecord");
	api(t, 306, 310, 4, "cudaStreamWaitEvent");
	api(t, 311, 320, 5, "cudaLaunchKernel");
	api(t, 330, 505, 6, "cudaStreamSynchronize");
	api(t, 510, 600, 7, "cudaMalloc");
	api(t, 600, 610, 8, "cudaLaunchKernel");
	api(t, 800, 810, 9, "cudaDeviceSynchronize");
	kernel(t, 235, 400, 7, 1, "gemm");
	kernel(t, 401, 420, 7, 2, "add");
	kernel(t, 425, 500, 8, 5, "gelu");
	kernel(t, 615, 700, 7, 8, "scale");
	*gp_vec_push(t->event_records) = (struct gp_event_record){.corr = 3, .event_id = 5, .pid = 1, .stream = 7};
	sync_rec(t, 4, GP_SYNC_STREAM_WAIT, 8, 5);
	sync_rec(t, 6, GP_SYNC_STREAM, 8, UINT32_MAX);
	*gp_vec_push(t->threads) = (struct gp_thread){.pid = 1, .tid = 1};
	gp_trace_finish(t);
}

static void test_edges(void **state)
{
	gp_trace t;
	gp_deps d;
	int32_t from;
	gp_ns ready;

	build(&t);
	gp_deps_build(&d, &t);
	assert_int_equal(d.n, 4);
	assert_int_equal(d.edges[GP_EDGE_LAUNCH], 4);
	assert_int_equal(d.edges[GP_EDGE_STREAM], 2);     /* K1 -> K2 -> K4 on stream 7 */
	assert_int_equal(d.edges[GP_EDGE_EVENT], 1);      /* K2 -> K3 */
	assert_int_equal(d.edges[GP_EDGE_SYNC], 2);       /* A6 -> K3, A9 -> K4 (inferred) */
	assert_int_equal(gp_deps_wait_of(&d, 2), 1);
	assert_int_equal(gp_deps_synced_of(&d, 5), 2);
	assert_int_equal(gp_deps_synced_of(&d, 8), 3);
	assert_int_equal(gp_deps_binding(&d, 0, &from, &ready), GP_EDGE_LAUNCH);
	assert_int_equal(from, 0);
	assert_int_equal(gp_deps_binding(&d, 1, &from, &ready), GP_EDGE_STREAM);
	assert_int_equal(ready, 400 * US);
	assert_int_equal(gp_deps_binding(&d, 2, &from, &ready), GP_EDGE_EVENT);
	assert_int_equal(from, 1);
	assert_int_equal(gp_deps_binding(&d, 3, &from, &ready), GP_EDGE_LAUNCH);
	assert_int_equal(from, 7);
	gp_deps_free(&d);
	gp_trace_free(&t);
}

static void test_critical_path(void **state)
{
	gp_trace t;
	gp_deps d = {0};
	gp_critpath cp;
	gp_ns sum = 0;
	static const struct {
		int cause;
		gp_ns us;
	} want[] = {
		{GP_CAUSE_ANNOTATION, 190 + 190 + 5 + 10 + 10}, {GP_CAUSE_SYNC, 10 + 5},
		{GP_CAUSE_CPU_OP, 10 + 10 + 10}, {GP_CAUSE_ALLOCATOR, 90},
		{GP_CAUSE_GPU_COMPUTE, 75 + 19 + 165}, {GP_CAUSE_EVENT_WAIT, 5}, {GP_CAUSE_GPU_GAP, 1},
		{GP_CAUSE_LAUNCH, 5}, {GP_CAUSE_DATALOADER, 190},
	};

	build(&t);
	gp_critpath_run(&d, &t, true, &cp);
	assert_int_equal(cp.nwin, 2);   /* the whole trace and step 0 */
	assert_int_equal(cp.win[1].iter, 4);
	for (int c = 0; c < GP_CAUSE__COUNT; c++)
		sum += cp.win[0].by_cause[c];
	assert_int_equal(sum, 1000 * US);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(cp.win[0].by_cause[want[i].cause], want[i].us * US);
	assert_memory_equal(cp.win[0].by_cause, cp.win[1].by_cause, sizeof(cp.win[0].by_cause));
	/* K1..K3 ran on the path, K4 did not (it finished before A9 began);
	** A2 and A3..A5 did not either (the path went through the GPU from
	** K1's launch to A6's end) */
	for (size_t u = 0; u < 3; u++)
		assert_true(gp_critpath_on(cp.unit_on, u));
	assert_false(gp_critpath_on(cp.unit_on, 3));
	assert_true(gp_critpath_on(cp.api_on, 0));
	assert_false(gp_critpath_on(cp.api_on, 1));
	assert_false(gp_critpath_on(cp.api_on, 4));
	assert_true(gp_critpath_on(cp.api_on, 5));
	assert_true(gp_critpath_on(cp.api_on, 6));
	/* the largest row: the annotation's own time */
	assert_int_equal(cp.rows[0].cause, GP_CAUSE_ANNOTATION);
	/* the pieces kept tile the walk in time order, cause by cause */
	gp_ns by[GP_CAUSE__COUNT] = {0};
	assert_true(cp.pieces.n > 0);
	for (size_t i = 0; i < cp.pieces.n; i++) {
		const struct gp_piece *p = &cp.pieces.v[i];
		assert_true(p->end > p->start);
		if (i)
			assert_int_equal(p->start, cp.pieces.v[i - 1].end);
		by[p->cause] += p->end - p->start;
	}
	assert_int_equal(cp.pieces.v[cp.pieces.n - 1].end - cp.pieces.v[0].start, 1000 * US);
	assert_memory_equal(by, cp.win[0].by_cause, sizeof(by));
	gp_critpath_free(&cp);
	gp_deps_free(&d);
	gp_trace_free(&t);
}

static void test_gap_causes(void **state)
{
	gp_trace t;
	gp_deps d;
	gp_ns by[GP_CAUSE__COUNT] = {0};
	struct gp_piece main;

	build(&t);
	gp_deps_build(&d, &t);
	/* [500,615) before K4: the sync returning (5), the annotation (5),
	** cudaMalloc (90), K4's launch call (10), its latency (5) */
	assert_int_equal(gp_gap_causes(&d, 3, 500 * US, by, &main), 115 * US);
	assert_int_equal(by[GP_CAUSE_ALLOCATOR], 90 * US);
	assert_int_equal(by[GP_CAUSE_CPU_OP], 10 * US);
	assert_int_equal(by[GP_CAUSE_LAUNCH], 5 * US);
	assert_int_equal(by[GP_CAUSE_SYNC], 5 * US);
	assert_int_equal(by[GP_CAUSE_ANNOTATION], 5 * US);
	assert_int_equal(main.cause, GP_CAUSE_ALLOCATOR);
	assert_int_equal(main.idx, 6);
	memset(by, 0, sizeof(by));
	/* [420,425) before K3: the event wait */
	gp_gap_causes(&d, 2, 420 * US, by, &main);
	assert_int_equal(by[GP_CAUSE_EVENT_WAIT], 5 * US);
	gp_deps_free(&d);
	gp_trace_free(&t);
}

static void test_whatif(void **state)
{
	gp_trace t;
	gp_deps d;
	struct gp_whatif_result r;
	float f[4] = {1, 1, 1, 1};
	struct gp_whatif_spec same = {0}, faster = {.unit_factor = f};

	build(&t);
	gp_deps_build(&d, &t);
	gp_whatif_run(&d, &same, &r);
	assert_int_equal(r.span_before, 1000 * US);
	assert_int_equal(r.span_after, 1000 * US);   /* unchanged: every time replays */
	assert_int_equal(r.niters, 1);
	gp_whatif_result_free(&r);
	/* K1 twice as fast (165 -> 82.5 us): K2 follows it, K3 its event, A6
	** returns 82.5 us sooner and the rest of the thread with it */
	f[0] = 0.5f;
	gp_whatif_run(&d, &faster, &r);
	assert_int_equal(r.span_after, 917500);
	assert_int_equal(r.iters[0].after, 917500);
	gp_whatif_result_free(&r);
	/* the data loader removed: 190 us less */
	f[0] = 1;
	faster.remove_cpu = 1u << GP_CAUSE_DATALOADER;
	gp_whatif_run(&d, &faster, &r);
	assert_int_equal(r.span_after, 810 * US);
	gp_whatif_result_free(&r);
	gp_deps_free(&d);
	gp_trace_free(&t);
}

/* CPU time removed around a launch, times in us (thread 1): A0
** cudaLaunchKernel [0,5) launches K0 [8,10) on stream 7; A1 cudaGetDevice
** [10,100) (cuda_api); A2 cudaLaunchKernel [100,1600) (a launch over 1 ms
** loads its module: module_load) launches K1 [1605,1700).  The GPU span is
** [8,1700).  Removing cuda_api moves A2 90 us earlier; removing module_load takes
** A2's own time out of K1's latency (5 us after the call, not 1505 after
** its start); both together touch, one stretch [10,1600), and K1 comes
** right after what is kept before it: never later than either alone. */
static void test_whatif_removed(void **state)
{
	gp_trace t;
	gp_deps d;
	struct gp_whatif_result r;
	struct gp_whatif_spec spec = {0};
	const uint32_t api_only = 1u << GP_CAUSE_CUDA_API, load_only = 1u << GP_CAUSE_MODULE_LOAD;
	const struct {
		uint32_t remove;
		gp_ns gpu_after;
	} cases[] = {{0, 1692 * US}, {api_only, 1602 * US}, {load_only, 192 * US}, {api_only | load_only, 102 * US}};

	gp_trace_init(&t);
	api(&t, 0, 5, 1, "cudaLaunchKernel");
	api(&t, 10, 100, 0, "cudaGetDevice");
	api(&t, 100, 1600, 2, "cudaLaunchKernel");
	kernel(&t, 8, 10, 7, 1, "k0");
	kernel(&t, 1605, 1700, 7, 2, "k1");
	*gp_vec_push(t.threads) = (struct gp_thread){.pid = 1, .tid = 1};
	gp_trace_finish(&t);
	gp_deps_build(&d, &t);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		spec.remove_cpu = cases[i].remove;
		gp_whatif_run(&d, &spec, &r);
		assert_int_equal(r.gpu_before, 1692 * US);
		assert_int_equal(r.gpu_after, cases[i].gpu_after);
		gp_whatif_result_free(&r);
	}
	gp_deps_free(&d);
	gp_trace_free(&t);
}

/* Graph replays in the replay (whatif.h: keep_graphs, unit_loose), times in
** us: A1 cudaLaunchKernel [0,10) launches K1 [20,30) on stream 7 (eager);
** A2 cudaGraphLaunch [40,45) replays K2 [50,60) (bound by its launch: 10
** us latency) and K3 [62,72) (behind K2: a 2 us gap inside the replay).
** The GPU span is [20,72).  Typical values: the gap 2 us (K3's), the launch
** latency 20 us (the median of K1's 20 and K2's 10). */
static void test_whatif_graphs(void **state)
{
	gp_trace t;
	gp_deps d;
	struct gp_whatif_result r;
	uint8_t loose[3] = {0};
	struct gp_whatif_spec spec = {.no_gpu_gaps = true};

	gp_trace_init(&t);
	api(&t, 0, 10, 1, "cudaLaunchKernel");
	api(&t, 40, 45, 2, "cudaGraphLaunch");
	kernel(&t, 20, 30, 7, 1, "eager");
	kernel(&t, 50, 60, 7, 2, "node_a");
	kernel(&t, 62, 72, 7, 2, "node_b");
	t.kernel_defs.v[t.kernels.v[1].def].graph_id = 3;
	t.kernel_defs.v[t.kernels.v[2].def].graph_id = 3;
	*gp_vec_push(t.threads) = (struct gp_thread){.pid = 1, .tid = 1};
	gp_trace_finish(&t);
	gp_deps_build(&d, &t);
	assert_false(gp_unit_replayed(&d, 0));
	assert_true(gp_unit_replayed(&d, 1));
	assert_true(gp_unit_replayed(&d, 2));
	/* no gaps anywhere: K3 right after K2, the span 2 us shorter */
	gp_whatif_run(&d, &spec, &r);
	assert_int_equal(r.gpu_before, 52 * US);
	assert_int_equal(r.gpu_after, 50 * US);
	gp_whatif_result_free(&r);
	/* the eager launches' gaps only: the replay keeps its own */
	spec.keep_graphs = true;
	gp_whatif_run(&d, &spec, &r);
	assert_int_equal(r.gpu_after, 52 * US);
	gp_whatif_result_free(&r);
	/* ... unless a change loosens its units: K3 without its gap */
	loose[2] = GP_WI_UNIT_NO_GAP;
	spec.unit_loose = loose;
	gp_whatif_run(&d, &spec, &r);
	assert_int_equal(r.gpu_after, 50 * US);
	gp_whatif_result_free(&r);
	/* the replay no longer waiting for its launch: K2 follows K1 after the
	** typical gap (32..42), K3 2 us later (44..54) */
	loose[1] = loose[2] = GP_WI_UNIT_UNLAUNCHED;
	spec.no_gpu_gaps = false;
	gp_whatif_run(&d, &spec, &r);
	assert_int_equal(r.gpu_after, 34 * US);
	gp_whatif_result_free(&r);
	gp_deps_free(&d);
	gp_trace_free(&t);
}

static void test_whatif_parse(void **state)
{
	struct gp_whatif_expr x;
	gp_error err = {0};

	assert_int_equal(gp_whatif_parse("op:aten::mm=2x", &x, &err), GP_OK);
	assert_int_equal(x.target, GP_WI_OP);
	assert_string_equal(x.pattern, "aten::mm");
	assert_true(x.speedup == 2.0);
	assert_int_equal(gp_whatif_parse("kernel:*gemm*=roofline", &x, &err), GP_OK);
	assert_true(x.roofline);
	assert_int_equal(gp_whatif_parse("cause:dataloader=0", &x, &err), GP_OK);
	assert_int_equal(x.cause, GP_CAUSE_DATALOADER);
	assert_int_equal(gp_whatif_parse("copies=pinned", &x, &err), GP_OK);
	assert_int_equal(x.target, GP_WI_COPIES);
	assert_int_equal(gp_whatif_parse("op:x=fast", &x, &err), GP_ERR_USAGE);
	assert_int_equal(gp_whatif_parse("cause:dataloader=2x", &x, &err), GP_ERR_USAGE);
	assert_int_equal(gp_whatif_parse("cause:bogus=0", &x, &err), GP_ERR_USAGE);
	assert_int_equal(gp_whatif_parse("nothing", &x, &err), GP_ERR_USAGE);
	assert_int_equal(gp_whatif_parse("op:=2x", &x, &err), GP_ERR_USAGE);
	assert_int_equal(gp_whatif_parse("op:aten::mm=0.001x", &x, &err), GP_OK);
	assert_int_equal(gp_whatif_parse("layer:a=b=1e6x", &x, &err), GP_OK);   /* the last '=' splits */
	assert_string_equal(x.pattern, "a=b");
}

/* Malformed expressions: each fails with a usage error whose message
** quotes the expression and says what was expected. */
static void test_whatif_parse_malformed(void **state)
{
	static const struct {
		const char *expr, *says;
	} cases[] = {
		{"", "not TARGET=CHANGE"},
		{"=", "not TARGET=CHANGE"},
		{"op:mm=", "not TARGET=CHANGE"},
		{"op:mm", "not TARGET=CHANGE"},
		{"mm=2x", "not TARGET:NAME=CHANGE"},
		{"op=2x", "not TARGET:NAME=CHANGE"},
		{"op:=2x", "not TARGET:NAME=CHANGE"},
		{"speed:mm=2x", "unknown target"},
		{"copies=fast", "copies can only be 'pinned'"},
		{"copies:all=pinned", "unknown target"},
		{"cause:dataloader=", "not TARGET=CHANGE"},
		{"cause:dataloader=1", "a cause can only be removed (=0)"},
		{"cause:sync=0", "unknown cause 'sync'"},
		{"cause:gpu_compute=0", "unknown cause 'gpu_compute'"},
		{"cause:unknown=0", "unknown cause 'unknown'"},
		{"op:mm=2", "the change is Nx with N from 0.001 to 1e+06"},
		{"op:mm=2xx", "not '2xx'"},
		{"op:mm=x", "not 'x'"},
		{"op:mm=0x", "not '0x'"},
		{"op:mm=-2x", "not '-2x'"},
		{"op:mm=1e-300x", "not '1e-300x'"},   /* it once made every kernel vanish */
		{"op:mm=1e7x", "not '1e7x'"},
		{"op:mm=nanx", "not 'nanx'"},
		{"op:mm=infx", "not 'infx'"},
		{"kernel:*gemm*=fast", "or roofline, not 'fast'"},
	};
	struct gp_whatif_expr x;
	char longname[300];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gp_error err = {0};
		if (gp_whatif_parse(cases[i].expr, &x, &err) != GP_ERR_USAGE)
			fail_msg("'%s' parsed", cases[i].expr);
		if (!strstr(err.msg, cases[i].says) || !strstr(err.msg, cases[i].expr))
			fail_msg("'%s': \"%s\" does not say \"%s\"", cases[i].expr, err.msg, cases[i].says);
	}
	memset(longname, 'a', sizeof(longname));
	memcpy(longname, "op:", 3);
	memcpy(longname + sizeof(longname) - 4, "=2x", 4);
	gp_error err = {0};
	assert_int_equal(gp_whatif_parse(longname, &x, &err), GP_ERR_USAGE);
	assert_non_null(strstr(err.msg, "name longer than 255 characters"));
}

/* Two threads of process 1 handing the walk to each other: main thread 1
** runs aten::foo [0,50), then idles until A1 [150,155) launches K
** [160,200); worker thread 2 runs aten::bar [60,80) and [120,140).  From
** A1 the walk goes to the worker (its waker, idle at 140); the worker, idle
** at 120 with nobody waking it since 80, goes back to the main thread,
** idle at 120 too, whose waker is the worker again, at 120: the walk must
** not hop between them for ever, but stay on the worker (untraced since
** 80) and go on.  The pieces tile [0,200). */
static void test_thread_hops(void **state)
{
	gp_trace t;
	gp_deps d = {0};
	gp_critpath cp;
	gp_ns by[GP_CAUSE__COUNT] = {0};

	(void)state;
	gp_trace_init(&t);
	range(&t, 0, 50, GP_RANGE_CPU_OP, "aten::foo");
	range(&t, 60, 80, GP_RANGE_CPU_OP, "aten::bar");
	range(&t, 120, 140, GP_RANGE_CPU_OP, "aten::bar");
	t.ranges.v[1].tid = t.ranges.v[2].tid = 2;
	api(&t, 150, 155, 1, "cudaLaunchKernel");
	kernel(&t, 160, 200, 7, 1, "K");
	for (uint32_t tid = 1; tid <= 2; tid++)
		*gp_vec_push(t.threads) = (struct gp_thread){.pid = 1, .tid = tid};
	gp_trace_finish(&t);
	gp_critpath_run(&d, &t, true, &cp);
	for (size_t i = 0; i < cp.pieces.n; i++) {
		const struct gp_piece *p = &cp.pieces.v[i];
		print_message("piece [%lld,%lld) %s tid %u\n", (long long)p->start / US, (long long)p->end / US,
			      gp_cause_name(p->cause), p->lane_b);
		if (i)
			assert_int_equal(p->start, cp.pieces.v[i - 1].end);
		by[p->cause] += p->end - p->start;
	}
	assert_int_equal(cp.pieces.v[0].start, 0);
	assert_int_equal(cp.pieces.v[cp.pieces.n - 1].end, 200 * US);
	assert_int_equal(by[GP_CAUSE_GPU_COMPUTE], 40 * US);
	assert_int_equal(by[GP_CAUSE_LAUNCH], 5 * US);
	assert_int_equal(by[GP_CAUSE_CPU_OP], (5 + 20 + 20 + 50) * US);   /* A1, the bars, aten::foo */
	assert_int_equal(by[GP_CAUSE_UNTRACED], (10 + 40 + 10) * US);     /* [140,150) [80,120) [50,60) */
	gp_critpath_free(&cp);
	gp_deps_free(&d);
	gp_trace_free(&t);
}

/* A synchronous copy: cudaMemcpy [100,300) issues its copy [150,250) on
** stream 7 behind K [10,50) (launched by A0 [0,5)), and returns after it.
** The walk from the copy's start reaches the call that waits for the copy
** itself: the call's time before the copy ran is its own (cpu_op), not a
** wait, and the walk goes on back (it used to turn in place there). */
static void test_sync_copy_call(void **state)
{
	gp_trace t;
	gp_deps d = {0};
	gp_critpath cp;
	gp_ns by[GP_CAUSE__COUNT] = {0};

	(void)state;
	gp_trace_init(&t);
	api(&t, 0, 5, 1, "cudaLaunchKernel");
	kernel(&t, 10, 50, 7, 1, "K");
	api(&t, 100, 300, 2, "cudaMemcpy");
	struct gp_memcpy *m = gp_vec_push(t.memcpys);
	memset(m, 0, sizeof(*m));
	m->start = 150 * US;
	m->end = 250 * US;
	m->corr = 2;
	m->stream = 7;
	m->copy_kind = GP_COPY_HTOD;
	gp_trace_finish(&t);
	gp_critpath_run(&d, &t, true, &cp);
	for (size_t i = 0; i < cp.pieces.n; i++) {
		const struct gp_piece *p = &cp.pieces.v[i];
		if (i)
			assert_int_equal(p->start, cp.pieces.v[i - 1].end);
		by[p->cause] += p->end - p->start;
	}
	assert_int_equal(cp.pieces.v[0].start, 0);
	assert_int_equal(cp.pieces.v[cp.pieces.n - 1].end, 300 * US);
	assert_int_equal(by[GP_CAUSE_UNKNOWN], 0);
	assert_int_equal(by[GP_CAUSE_SYNC], 50 * US);       /* [250,300): the call returning */
	assert_int_equal(by[GP_CAUSE_GPU_MEMORY], 100 * US);
	assert_int_equal(by[GP_CAUSE_CPU_OP], (50 + 5) * US);   /* the copy call [100,150), A0 */
	assert_int_equal(by[GP_CAUSE_UNTRACED], 95 * US);      /* [5,100) */
	gp_critpath_free(&cp);
	gp_deps_free(&d);
	gp_trace_free(&t);
}

/* A call followed by zero-length calls: aten::conv [0,1000) calls cudaFree
** [10,600), then five cudaDeviceGetAttribute of no duration at 601..605
** (Kineto writes such calls as "dur": 0), then A [700,710) launches K
** [720,800).  The walk from K back to 0 passes the cudaFree: 590 us of
** allocator, not the op's (the zero-length calls once took the look-back's
** place, and the op's time ran from its start to the calls). */
static void test_zero_length_calls(void **state)
{
	gp_trace t;
	gp_deps d;
	gp_ns by[GP_CAUSE__COUNT] = {0};
	struct gp_piece main;

	(void)state;
	gp_trace_init(&t);
	range(&t, 0, 1000, GP_RANGE_CPU_OP, "aten::conv");
	api(&t, 10, 600, 1, "cudaFree");
	for (int i = 0; i < 5; i++)
		api(&t, 601 + i, 601 + i, 2 + (uint64_t)i, "cudaDeviceGetAttribute");
	api(&t, 700, 710, 7, "cudaLaunchKernel");
	kernel(&t, 720, 800, 7, 7, "K");
	*gp_vec_push(t.threads) = (struct gp_thread){.pid = 1, .tid = 1};
	gp_trace_finish(&t);
	gp_deps_build(&d, &t);
	assert_int_equal(gp_gap_causes(&d, 0, 0, by, &main), 720 * US);
	assert_int_equal(by[GP_CAUSE_ALLOCATOR], 590 * US);
	assert_int_equal(by[GP_CAUSE_CPU_OP], (10 + 100 + 10) * US);   /* [0,10) [600,700) and A */
	assert_int_equal(by[GP_CAUSE_LAUNCH], 10 * US);
	assert_int_equal(main.cause, GP_CAUSE_ALLOCATOR);
	gp_deps_free(&d);
	gp_trace_free(&t);
}

/* One-time costs decided by the calls and the steps: ProfilerStep#0
** [0,1000), ProfilerStep#1 [1000,2000); in step 0, cudaMalloc [10,100)
** then A [100,110) launches K1 [115,200), cudnnFindConvolution-
** ForwardAlgorithmEx [200,500) holding a launch of a trial, B [300,310)
** -> T [312,320), then C [500,510) -> K2 [515,600); in step 1,
** cudaMalloc [1010,1100), D [1100,1110) -> K3 [1115,1200).  The gap
** before K2 is autotune's but for C and its latency (the trial launch
** inside the search is the search's), the one before K1 first_alloc's,
** the one before K3 allocator's. */
static void test_onetime_calls(void **state)
{
	gp_trace t;
	gp_deps d;
	gp_ns by[GP_CAUSE__COUNT] = {0};
	struct gp_piece main;

	(void)state;
	gp_trace_init(&t);
	range(&t, 0, 1000, GP_RANGE_USER_ANNOTATION, "ProfilerStep#0");
	range(&t, 1000, 2000, GP_RANGE_USER_ANNOTATION, "ProfilerStep#1");
	api(&t, 10, 100, 1, "cudaMalloc");
	api(&t, 100, 110, 2, "cudaLaunchKernel");
	api(&t, 200, 500, 3, "cudnnFindConvolutionForwardAlgorithmEx");
	api(&t, 300, 310, 4, "cudaLaunchKernel");
	api(&t, 500, 510, 5, "cudaLaunchKernel");
	api(&t, 1010, 1100, 6, "cudaMalloc");
	api(&t, 1100, 1110, 7, "cudaLaunchKernel");
	kernel(&t, 115, 200, 7, 2, "K1");
	kernel(&t, 312, 320, 7, 4, "T");
	kernel(&t, 515, 600, 7, 5, "K2");
	kernel(&t, 1115, 1200, 7, 7, "K3");
	*gp_vec_push(t.threads) = (struct gp_thread){.pid = 1, .tid = 1};
	gp_trace_finish(&t);
	gp_deps_build(&d, &t);
	assert_int_equal(gp_gap_causes(&d, 0, 0, by, &main), 115 * US);
	assert_int_equal(by[GP_CAUSE_FIRST_ALLOC], 90 * US);
	assert_int_equal(main.cause, GP_CAUSE_FIRST_ALLOC);
	memset(by, 0, sizeof(by));
	assert_int_equal(gp_gap_causes(&d, 2, 320 * US, by, &main), 195 * US);
	assert_int_equal(by[GP_CAUSE_AUTOTUNE], 180 * US);   /* [320,500) */
	assert_int_equal(main.cause, GP_CAUSE_AUTOTUNE);
	memset(by, 0, sizeof(by));
	assert_int_equal(gp_gap_causes(&d, 3, 600 * US, by, &main), 515 * US);
	assert_int_equal(by[GP_CAUSE_ALLOCATOR], 90 * US);
	assert_int_equal(by[GP_CAUSE_FIRST_ALLOC], 0);
	assert_true(gp_cause_one_time(GP_CAUSE_AUTOTUNE) && gp_cause_one_time(GP_CAUSE_FIRST_ALLOC) &&
		    !gp_cause_one_time(GP_CAUSE_ALLOCATOR));
	gp_deps_free(&d);
	gp_trace_free(&t);
}

static void test_api_class(void **state)
{
	static const struct {
		const char *name;
		enum gp_api_class c;
	} cases[] = {
		{"cudaLaunchKernel", GP_APIC_LAUNCH}, {"cudaLaunchKernel_v7000", GP_APIC_LAUNCH},
		{"cudaLaunchKernelExC_v11060", GP_APIC_LAUNCH}, {"cuLaunchKernel", GP_APIC_LAUNCH},
		{"hipLaunchKernel", GP_APIC_LAUNCH}, {"hipExtModuleLaunchKernel", GP_APIC_LAUNCH},
		{"cudaLaunchHostFunc", GP_APIC_LAUNCH}, {"cudaGraphLaunch", GP_APIC_GRAPH_LAUNCH},
		{"hipGraphLaunch", GP_APIC_GRAPH_LAUNCH}, {"cudaMemcpyAsync", GP_APIC_COPY},
		{"hipMemcpyWithStream", GP_APIC_COPY}, {"cuMemcpyHtoDAsync_v2", GP_APIC_COPY},
		{"cudaMemsetAsync", GP_APIC_MEMSET}, {"cudaDeviceSynchronize", GP_APIC_SYNC_DEVICE},
		{"cuCtxSynchronize", GP_APIC_SYNC_DEVICE}, {"hipDeviceSynchronize", GP_APIC_SYNC_DEVICE},
		{"cudaStreamSynchronize_v3020", GP_APIC_SYNC_STREAM}, {"cudaStreamSynchronize_ptsz", GP_APIC_SYNC_STREAM},
		{"cudaEventSynchronize", GP_APIC_SYNC_EVENT}, {"cudaStreamWaitEvent", GP_APIC_STREAM_WAIT},
		{"hipStreamWaitEvent", GP_APIC_STREAM_WAIT}, {"cudaEventRecord", GP_APIC_EVENT_RECORD},
		{"cudaEventRecordWithFlags", GP_APIC_EVENT_RECORD}, {"cudaEventQuery", GP_APIC_QUERY},
		{"cudaMalloc", GP_APIC_ALLOC}, {"cudaFree", GP_APIC_ALLOC}, {"cudaHostAlloc", GP_APIC_ALLOC},
		{"cuMemAlloc_v2", GP_APIC_ALLOC}, {"hipMalloc", GP_APIC_ALLOC}, {"cudaMallocAsync", GP_APIC_ALLOC},
		{"cuModuleLoadData", GP_APIC_MODULE}, {"cuLibraryLoadData", GP_APIC_MODULE},
		{"nvrtcCompileProgram", GP_APIC_COMPILE}, {"cudaStreamBeginCapture", GP_APIC_CAPTURE},
		{"hipStreamEndCapture", GP_APIC_CAPTURE}, {"cudaGetDevice", GP_APIC_OTHER},
		{"cudaStreamIsCapturing", GP_APIC_OTHER}, {"cudnnConvolutionForward", GP_APIC_OTHER},
		{"cudnnFindConvolutionForwardAlgorithmEx", GP_APIC_AUTOTUNE},
		{"cudnnGetConvolutionBackwardDataAlgorithm_v7", GP_APIC_AUTOTUNE},
		{"cudnnGetConvolutionForwardWorkspaceSize", GP_APIC_OTHER},
		{"cublasLtMatmulAlgoGetHeuristic", GP_APIC_AUTOTUNE}, {"miopenFindConvolutionForwardAlgorithm", GP_APIC_AUTOTUNE},
		{"aten::mm", GP_APIC_OTHER}, {"", GP_APIC_OTHER},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (gp_api_class_of(cases[i].name) != cases[i].c)
			fail_msg("%s: %s, expected %s", cases[i].name, gp_api_class_name(gp_api_class_of(cases[i].name)),
				 gp_api_class_name(cases[i].c));
	}
	assert_int_equal(gp_api_class_of(NULL), GP_APIC_OTHER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_critical_path),
		cmocka_unit_test(test_gap_causes),
		cmocka_unit_test(test_whatif),
		cmocka_unit_test(test_whatif_removed),
		cmocka_unit_test(test_whatif_graphs),
		cmocka_unit_test(test_whatif_parse),
		cmocka_unit_test(test_whatif_parse_malformed),
		cmocka_unit_test(test_thread_hops),
		cmocka_unit_test(test_sync_copy_call),
		cmocka_unit_test(test_zero_length_calls),
		cmocka_unit_test(test_onetime_calls),
		cmocka_unit_test(test_api_class),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
