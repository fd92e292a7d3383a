/*
** Unit tests: the time breakdown on a hand-built trace whose every number
** is worked out below (masks, idle causes, iteration windows, launch delay,
** queue depth, a CUDA graph launch counted once, the longest gaps), the
** mergeable histogram, where a gap lies among the steps (gp_bd_step_of) and
** the HTML report's neighbourhood of a gap (gp_timeline_nearby).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "analysis/timeline.h"

static void api(gp_trace *t, gp_ns s, gp_ns e, const char *name)
{
	struct gp_api *a = gp_vec_push(t->apis);
	memset(a, 0, sizeof(*a));
	a->start = s;
	a->end = e;
	a->def = gp_api_def_add(t, &(struct gp_api_def){.name = gp_intern(t, name)});
}

static void kernel(gp_trace *t, gp_ns s, gp_ns e, uint32_t stream, const char *name, uint32_t graph)
{
	struct gp_kernel *k = gp_vec_push(t->kernels);
	memset(k, 0, sizeof(*k));
	k->start = s;
	k->end = e;
	k->stream = stream;
	k->def = gp_kernel_def_add(t, &(struct gp_kernel_def){.name = gp_intern(t, name), .graph_id = graph});
}

static void copy(gp_trace *t, gp_ns s, gp_ns e, bool pageable)
{
	struct gp_memcpy *c = gp_vec_push(t->memcpys);
	memset(c, 0, sizeof(*c));
	c->start = s;
	c->end = e;
	c->stream = 3;
	c->src_kind = pageable ? GP_MEM_PAGEABLE : GP_MEM_PINNED;
	c->dst_kind = GP_MEM_DEVICE;
}

static void range(gp_trace *t, gp_ns s, gp_ns e, const char *text)
{
	struct gp_range *r = gp_vec_push(t->ranges);
	memset(r, 0, sizeof(*r));
	r->pid = r->tid = 1;
	r->start = s;
	r->end = e;
	r->text = gp_intern(t, text);
	r->kind = GP_RANGE_CPU_OP;
	r->parent = -1;
}

/* Device 0, times in ns:
**   A compute  [0,100)   stream 1  launch ends -10   iter 0
**   B nccl     [50,150)  stream 2  launch ends 40    iter 0
**   M1 copy    [140,160) pinned
**   idle [160,200): cudaStreamSynchronize [165,175), C's launch ends 195
**   C compute  [200,300) stream 1  launch ends 195   iter 1
**   idle [300,305)
**   D compute  [305,320) stream 1  launch ends 250   iter 1
**   idle [320,400)
**   M2 copy    [400,410) pageable
**   idle [410,500): the graph launch ends 450
** (the gaps' causes: time_split)
**   E compute  [500,510) stream 2  graph launch (ends 450)
**   F compute  [510,520) stream 1  same graph launch
** Masks: compute 50+100+15+20 = 185, compute+comm 50, comm 40, comm+memory
** 10, memory 10+10 = 20, idle 40+5+80+90 = 215: span 520. */
static void build(gp_trace *t)
{
	static const int32_t api_of[6] = {0, 1, 3, 4, 5, 5}, iter_of[6] = {0, 0, 1, 1, -1, -1};

	gp_trace_init(t);
	api(t, -20, -10, "cudaLaunchKernel");
	api(t, 30, 40, "cudaLaunchKernel");
	api(t, 165, 175, "cudaStreamSynchronize");
	api(t, 190, 195, "cudaLaunchKernel");
	api(t, 240, 250, "cudaLaunchKernel");
	api(t, 440, 450, "cudaGraphLaunch");
	kernel(t, 0, 100, 1, "gemm", 0);
	kernel(t, 50, 150, 2, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 0);
	kernel(t, 200, 300, 1, "gemm", 0);
	kernel(t, 305, 320, 1, "relu", 0);
	kernel(t, 500, 510, 2, "g1", 7);
	kernel(t, 510, 520, 1, "g2", 7);
	copy(t, 140, 160, false);
	copy(t, 400, 410, true);
	range(t, 150, 600, "step");
	range(t, 160, 180, "aten::item");
	gp_trace_finish(t);
	t->attrs = gp_xcalloc(t->kernels.n, sizeof(*t->attrs));
	for (size_t i = 0; i < t->kernels.n; i++) {
		t->attrs[i].api = api_of[i];
		t->attrs[i].iter = iter_of[i];
	}
}

static const struct gp_breakdown_opts opts = {.top_gaps = 2};

/* gp_breakdown_run with t's dependency graph (the idle causes' source). */
static int bd_run(gp_trace *t, const struct gp_breakdown_opts *o, gp_breakdown *b, gp_error *err)
{
	struct gp_breakdown_opts with = *o;
	gp_deps d;
	int rc;

	gp_deps_build(&d, t);
	with.deps = &d;
	rc = gp_breakdown_run(t, &with, b, err);
	gp_deps_free(&d);
	return rc;
}

static void time_split(void **state)
{
	gp_trace t;
	gp_breakdown b;
	gp_error err = {0};
	const struct gp_bd_window *w;

	(void)state;
	build(&t);
	assert_int_equal(bd_run(&t, &opts, &b, &err), 0);
	assert_int_equal(b.nwin, 3);
	w = &b.win[0];
	assert_int_equal(w->iter, -1);
	assert_int_equal(w->end - w->start, 520);
	assert_int_equal(w->by_mask[GP_BD_COMPUTE], 185);
	assert_int_equal(w->by_mask[GP_BD_COMPUTE | GP_BD_COMM], 50);
	assert_int_equal(w->by_mask[GP_BD_COMM], 40);
	assert_int_equal(w->by_mask[GP_BD_COMM | GP_BD_MEMORY], 10);
	assert_int_equal(w->by_mask[GP_BD_MEMORY], 20);
	assert_int_equal(w->by_mask[0], 215);
	assert_int_equal(gp_bd_busy(w), 305);
	assert_int_equal(gp_bd_overlap(w), 60);
	assert_int_equal(gp_bd_kind_time(w, GP_BD_COMPUTE) + gp_bd_kind_time(w, GP_BD_COMM) +
			 gp_bd_kind_time(w, GP_BD_MEMORY) + w->by_mask[0] - gp_bd_overlap(w), 520);
	/* the causes, from the chain of the work after each gap (the API
	** calls are thread 0's, which records nothing else):
	**   [160,200) before C: C's launch returned at 195 (launch 5), the call
	**      itself (cpu_op 5), nothing recorded since the sync (untraced 15),
	**      the sync (sync 10, it did not wait: M1 ended at 160), untraced 5
	**   [300,305) before D: queued behind C (gpu_gap 5)
	**   [320,400) before M2, launched nowhere in the trace, behind M1 on its
	**      stream: under 10 us, the GPU's own gap (gpu_gap 80)
	**   [410,500) before E: the graph launch returned at 450 (launch 50),
	**      the call (cpu_op 10), untraced 30 */
	assert_int_equal(w->idle[GP_CAUSE_SYNC], 10);
	assert_int_equal(w->idle[GP_CAUSE_LAUNCH], 55);
	assert_int_equal(w->idle[GP_CAUSE_CPU_OP], 15);
	assert_int_equal(w->idle[GP_CAUSE_UNTRACED], 50);
	assert_int_equal(w->idle[GP_CAUSE_GPU_GAP], 85);
	assert_int_equal(w->idle[GP_CAUSE_UNKNOWN], 0);
	assert_int_equal(w->kernels, 6);
	assert_int_equal(w->copies, 2);
	assert_int_equal(w->gaps, 4);
	/* iteration 0: A and B, [0,150) */
	w = &b.win[1];
	assert_int_equal(w->iter, 0);
	assert_int_equal(w->start, 0);
	assert_int_equal(w->end, 150);
	assert_int_equal(w->by_mask[GP_BD_COMPUTE], 50);
	assert_int_equal(w->by_mask[GP_BD_COMM | GP_BD_MEMORY], 10);
	assert_int_equal(w->by_mask[0], 0);
	/* iteration 1: C and D, [200,320), with the short gap */
	w = &b.win[2];
	assert_int_equal(w->iter, 1);
	assert_int_equal(w->end - w->start, 120);
	assert_int_equal(w->by_mask[GP_BD_COMPUTE], 115);
	assert_int_equal(w->idle[GP_CAUSE_GPU_GAP], 5);
	assert_int_equal(w->kernels, 2);
	gp_breakdown_free(&b);
	gp_trace_free(&t);
}

static void streams_and_gaps(void **state)
{
	gp_trace t;
	gp_breakdown b;
	gp_error err = {0};
	const struct gp_bd_stream *s1, *s2;

	(void)state;
	build(&t);
	assert_int_equal(bd_run(&t, &opts, &b, &err), 0);
	assert_int_equal(b.nstreams, 2);
	s1 = &b.streams[0];
	s2 = &b.streams[1];
	/* stream 1: A, C, D eager (delays 10, 5, 55; depth 0, 0, 1: C still
	** queued when D's launch returns); F belongs to the graph launch that
	** E, seen first, counted */
	assert_int_equal(s1->stream, 1);
	assert_int_equal(s1->kernels, 4);
	assert_int_equal(s1->launches, 3);
	assert_int_equal(s1->graph_launches, 0);
	assert_int_equal(gp_hist_quantile(&s1->delay, 0.5), 10);
	assert_int_equal(gp_hist_quantile(&s1->delay, 0.99), 55);
	assert_int_equal(s1->delay.sum, 70);
	assert_int_equal(s1->depth.max, 1);
	assert_int_equal(s2->kernels, 2);
	assert_int_equal(s2->launches, 2);
	assert_int_equal(s2->graph_launches, 1);
	assert_int_equal(s2->delay.max, 50);
	/* the two longest gaps, longest first, with the chain that held the
	** work after them */
	assert_int_equal(b.ngaps, 2);
	assert_int_equal(b.gaps[0].start, 410);
	assert_int_equal(b.gaps[0].cause, GP_CAUSE_LAUNCH);
	assert_int_equal(b.gaps[1].start, 320);
	assert_int_equal(b.gaps[1].cause, GP_CAUSE_GPU_GAP);
	assert_string_equal(b.gaps[0].context, "launch g1 50 ns; untraced 30 ns; cpu_op cudaGraphLaunch 10 ns");
	gp_breakdown_free(&b);
	gp_trace_free(&t);
}

/* Two devices overlapping in time stay apart; as one timeline they merge. */
static void devices(void **state)
{
	struct gp_breakdown_opts one = opts;
	gp_trace t;
	gp_breakdown b;
	gp_error err = {0};

	(void)state;
	gp_trace_init(&t);
	kernel(&t, 0, 100, 1, "a", 0);
	kernel(&t, 50, 200, 1, "b", 0);
	struct gp_kernel_def d = *gp_kernel_def(&t, &t.kernels.v[1]);
	d.device = 1;
	t.kernels.v[1].def = gp_kernel_def_add(&t, &d);
	gp_trace_finish(&t);
	assert_int_equal(bd_run(&t, &opts, &b, &err), 0);
	assert_int_equal(b.nwin, 2);
	assert_int_equal(b.win[0].device, 0);
	assert_int_equal(b.win[0].end - b.win[0].start, 100);
	assert_int_equal(b.win[1].end - b.win[1].start, 150);
	gp_breakdown_free(&b);
	one.one_timeline = true;
	assert_int_equal(bd_run(&t, &one, &b, &err), 0);
	assert_int_equal(b.nwin, 1);
	assert_int_equal(b.win[0].by_mask[GP_BD_COMPUTE], 200);
	assert_int_equal(b.win[0].by_mask[0], 0);
	gp_breakdown_free(&b);
	one.depth_buckets = GP_BD_MAX_BUCKETS + 1;
	assert_int_equal(bd_run(&t, &one, &b, &err), GP_ERR_USAGE);
	gp_breakdown_free(&b);
	gp_trace_free(&t);
}

/* An iteration window spanning the others (a kernel of iteration 0 runs
** after iterations 1 and 2): every window is still complete and exact. */
static void nested_windows(void **state)
{
	static const int32_t iter_of[4] = {0, 1, 2, 0};
	gp_trace t;
	gp_breakdown b;
	gp_error err = {0};

	(void)state;
	gp_trace_init(&t);
	for (int i = 0; i < 4; i++)
		kernel(&t, 20 * i, 20 * i + 10, 1, "k", 0);
	gp_trace_finish(&t);
	t.attrs = gp_xcalloc(t.kernels.n, sizeof(*t.attrs));
	for (int i = 0; i < 4; i++) {
		t.attrs[i].api = -1;
		t.attrs[i].iter = iter_of[i];
	}
	assert_int_equal(bd_run(&t, &opts, &b, &err), 0);
	assert_int_equal(b.nwin, 4);
	assert_int_equal(b.win[1].iter, 0);
	assert_int_equal(b.win[1].end - b.win[1].start, 70);
	assert_int_equal(b.win[1].by_mask[GP_BD_COMPUTE], 40);
	assert_int_equal(b.win[1].by_mask[0], 30);
	assert_int_equal(b.win[1].kernels, 4);
	for (int i = 2; i < 4; i++) {
		assert_int_equal(b.win[i].end - b.win[i].start, 10);
		assert_int_equal(b.win[i].by_mask[GP_BD_COMPUTE], 10);
		assert_int_equal(b.win[i].kernels, 1);
	}
	assert_int_equal(b.nstreams, 1);
	assert_int_equal(b.streams[0].launches, 0);
	gp_breakdown_free(&b);
	gp_trace_free(&t);
}

/* Histograms: exact below 16, within 1/16 above, and merging equals
** adding the values to one histogram. */
static void histogram(void **state)
{
	static struct gp_hist a, b, all;
	int64_t q;

	(void)state;
	for (int64_t v = 0; v < 1000; v++) {
		gp_hist_add(v % 2 ? &a : &b, v * 997);
		gp_hist_add(&all, v * 997);
	}
	gp_hist_merge(&a, &b);
	assert_memory_equal(&a, &all, sizeof(a));
	q = gp_hist_quantile(&all, 0.5);
	/* the 500th smallest is 499 * 997 */
	assert_true(q >= 499 * 997 && q <= 499 * 997 + 499 * 997 / 16);
	assert_int_equal(gp_hist_quantile(&all, 1), 999 * 997);
	memset(&a, 0, sizeof(a));
	gp_hist_add(&a, 3);
	gp_hist_add(&a, 7);
	gp_hist_add(&a, -4);   /* clamped to 0 */
	assert_int_equal(gp_hist_quantile(&a, 0.5), 3);
	assert_int_equal(gp_hist_quantile(&a, 0.1), 0);
	memset(&a, 0, sizeof(a));
	assert_int_equal(gp_hist_quantile(&a, 0.5), 0);
	gp_hist_add(&a, INT64_MAX);
	assert_int_equal(gp_hist_quantile(&a, 0.5), INT64_MAX);
}

/* Steps 0 [100, 200) and 1 [300, 400) on device 0, step 5 [0, 1000) on
** device 1: a time inside a step, between two, before the first, after
** the last, and on a device without steps. */
static void step_of(void **state)
{
	struct gp_bd_window w[] = {
		{.device = 0, .iter = -1, .start = 100, .end = 400},
		{.device = 0, .iter = 0, .start = 100, .end = 200},
		{.device = 0, .iter = 1, .start = 300, .end = 400},
		{.device = 1, .iter = 5, .start = 0, .end = 1000},
		{.device = 2, .iter = -1, .start = 0, .end = 1000},
	};
	gp_breakdown b = {.win = w, .nwin = 5};
	int32_t before, after;

	(void)state;
	assert_int_equal(gp_bd_step_of(&b, 0, 120, 150, &before, &after), 0);
	assert_int_equal(gp_bd_step_of(&b, 0, 200, 300, &before, &after), -1);
	assert_int_equal(before, 0);
	assert_int_equal(after, 1);
	/* a gap that is not whole inside step 0 is not in it */
	assert_int_equal(gp_bd_step_of(&b, 0, 150, 250, &before, &after), -1);
	assert_int_equal(before, -1);
	assert_int_equal(after, 1);
	assert_int_equal(gp_bd_step_of(&b, 0, 50, 90, &before, &after), -1);
	assert_int_equal(before, -1);
	assert_int_equal(after, 0);
	assert_int_equal(gp_bd_step_of(&b, 0, 450, 500, &before, &after), -1);
	assert_int_equal(before, 1);
	assert_int_equal(after, -1);
	assert_int_equal(gp_bd_step_of(&b, 1, 450, 500, &before, &after), 5);
	assert_int_equal(gp_bd_step_of(&b, 2, 450, 500, &before, &after), -1);
	assert_int_equal(before, -1);
	assert_int_equal(after, -1);
}

/* Kernels every 10 ns, 5 long, alternating devices 0 and 1 (kernel k at
** 10k on device k % 2); the neighbourhood of [200, 260) on device 0 with a
** 50 ns margin: device 0's kernels starting in [150, 310), at most 3 before
** 200 (there are two: 160, 180) and the first 3 from 200, in start order. */
static void nearby(void **state)
{
	gp_trace t;
	size_t out[6];

	(void)state;
	gp_trace_init(&t);
	for (int k = 0; k < 60; k++) {
		struct gp_kernel *x = gp_vec_push(t.kernels);
		memset(x, 0, sizeof(*x));
		x->start = 10 * k;
		x->end = 10 * k + 5;
		x->def = gp_kernel_def_add(&t, &(struct gp_kernel_def){.name = gp_intern(&t, "k"), .device = k % 2});
	}
	size_t n = gp_timeline_nearby(&t, 0, 200, 260, 50, 3, out);
	assert_int_equal(n, 5);
	const size_t want[] = {16, 18, 20, 22, 24};
	for (size_t i = 0; i < n; i++)
		assert_int_equal(out[i], want[i]);
	/* a wider limit stops at the margin: 150 .. 300 on device 0 */
	size_t wide[40];
	n = gp_timeline_nearby(&t, 0, 200, 260, 50, 20, wide);
	assert_int_equal(n, 8);   /* 160, 180 before; 200, 220, 240, 260, 280, 300 */
	assert_int_equal(wide[0], 16);
	assert_int_equal(wide[n - 1], 30);
	/* device 1 after its last kernel: the closest 3 before it in [500, 1000) */
	n = gp_timeline_nearby(&t, 1, 1000, 1010, 500, 3, out);
	assert_int_equal(n, 3);
	assert_int_equal(out[0], 55);
	assert_int_equal(out[2], 59);
	gp_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(time_split),
		cmocka_unit_test(streams_and_gaps),
		cmocka_unit_test(devices),
		cmocka_unit_test(nested_windows),
		cmocka_unit_test(histogram),
		cmocka_unit_test(step_of),
		cmocka_unit_test(nearby),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
