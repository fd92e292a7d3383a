/*
** Unit tests: the export's pieces: the bucketed device timeline (busy time
** is the union of overlapping activities, work is spread pro rata), the
** perfetto sink's exact microsecond times, window and flows, and the
** folded sinks' escaping and exact sums, on small hand-built traces.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "writers/sink.h"

/* The op model of build()'s kernels: FLOPs, no peaks. */
static struct gp_peak no_peak;
#define OPS_OF(r) {.r = (r), .peaks = &no_peak, .npeaks = 1}

/* Two kernels on device 0 that overlap ([100,300) and [200,500)), one on
** device 1 ([0,100)), one copy on device 0 ([700,800)); each kernel
** launched by its own call; kernel 2 is the backward of kernel 0. */
static void build(gp_trace *t, struct gp_opres *r)
{
	static const struct { gp_ns s, e; int32_t dev; const char *name; } k[] = {
		{100, 300, 0, "gemm;with space"}, {200, 500, 0, "add%"}, {0, 100, 1, "gemm;with space"},
	};
	gp_trace_init(t);
	for (size_t i = 0; i < 3; i++) {
		struct gp_kernel *kr = gp_vec_push(t->kernels);
		memset(kr, 0, sizeof(*kr));
		kr->start = k[i].s;
		kr->end = k[i].e;
		kr->stream = 7;
		kr->corr = i + 1;
		kr->def = gp_kernel_def_add(t, &(struct gp_kernel_def){.name = gp_intern(t, k[i].name),
									.device = k[i].dev});
		struct gp_api *a = gp_vec_push(t->apis);
		memset(a, 0, sizeof(*a));
		a->start = k[i].s - 50;
		a->end = k[i].s - 40;
		a->corr = i + 1;
		a->pid = 42;
		a->tid = 43;
		a->def = gp_api_def_add(t, &(struct gp_api_def){.name = gp_intern(t, "cudaLaunchKernel")});
	}
	struct gp_memcpy *m = gp_vec_push(t->memcpys);
	memset(m, 0, sizeof(*m));
	m->start = 700;
	m->end = 800;
	t->attrs = gp_xcalloc(3, sizeof(*t->attrs));
	for (int i = 0; i < 3; i++) {
		t->attrs[i].api = i;
		t->attrs[i].fwd = -1;
		t->attrs[i].iter = -1;
		t->attrs[i].seq = -1;
		t->attrs[i].layer = gp_intern(t, "Net/Block 1/fc:a2a");
		t->attrs[i].op = gp_intern(t, "aten::linear");
		memset(&r[i], 0, sizeof(r[i]));
		r[i].flops = 1000.0 * (i + 1);
		r[i].bytes = -1;
	}
	t->attrs[2].fwd = 0;
}

static void timeline_union_and_spread(void **state)
{
	gp_trace t;
	struct gp_opres r[3];
	struct gp_timeline tl;
	size_t n;

	build(&t, r);
	struct gp_activity *acts = gp_trace_activities(&t, &n);
	assert_int_equal(n, 4);
	gp_timeline_build(&tl, &t, r, acts, n, 0, 1000, 10);
	assert_int_equal(tl.nbuckets, 10);
	assert_int_equal(tl.width, 100);
	assert_int_equal(tl.ndev, 2);
	assert_int_equal(tl.devs[0], 0);
	/* device 0 busy [100,500) and [700,800): 100 ns in buckets 1..4 and 7 */
	for (int i = 0; i < 10; i++)
		assert_true(tl.b[i].busy_ns == ((i >= 1 && i <= 4) || i == 7 ? 100.0 : 0.0));
	/* kernel 1 (2000 FLOPs over [200,500)) puts 666.67 in each of 2, 3, 4 */
	assert_true(tl.b[1].flops == 1000.0 / 2);
	assert_true(tl.b[2].flops > 1166.6 && tl.b[2].flops < 1166.7);
	double sum = 0;
	for (size_t i = 0; i < 2 * tl.nbuckets; i++)
		sum += tl.b[i].flops;
	assert_true(sum > 5999.999 && sum < 6000.001);
	assert_true(tl.b[10].busy_ns == 100.0);   /* device 1, bucket 0 */
	gp_timeline_free(&tl);
	gp_timeline_build(&tl, &t, r, acts, n, 5, 5, 10);
	assert_int_equal(tl.nbuckets, 0);
	gp_timeline_free(&tl);
	free(acts);
	gp_trace_free(&t);
}

static char *run_sink(const char *name, const struct gp_analysis *a)
{
	const struct gp_sink_input in = {.an = a};
	char *buf = NULL;
	size_t size;
	FILE *f = open_memstream(&buf, &size);
	gp_error err = {0};
	gp_sink s;

	assert_int_equal(gp_sink_open(&s, name, f, NULL, &err), GP_OK);
	assert_int_equal(gp_sink_write_close(&s, &in, &err), GP_OK);
	fclose(f);
	return buf;
}

static void folded_escapes_and_sums(void **state)
{
	gp_trace t;
	struct gp_opres r[3];

	build(&t, r);
	struct gp_analysis a = {.trace = &t, .done = GP_NEED_OPS, .ops = OPS_OF(r)};
	char *out = run_sink("folded", &a);
	/* kernels 0 and 2 share a stack: 200 + 100 ns; the layer splits at
	** '/' only; spaces stay */
	assert_string_equal(out, "Net;Block 1;fc:a2a;aten::linear;gemm%3Bwith space 300\n"
				 "Net;Block 1;fc:a2a;aten::linear;add%25 300\n");
	free(out);
	out = run_sink("folded-flops", &a);
	assert_string_equal(out, "Net;Block 1;fc:a2a;aten::linear;gemm%3Bwith space 4000\n"
				 "Net;Block 1;fc:a2a;aten::linear;add%25 2000\n");
	free(out);
	/* device 0 is idle [500,700), before the copy: "idle" alone */
	out = run_sink("folded-idle", &a);
	assert_string_equal(out, "idle 200\n");
	free(out);
	gp_trace_free(&t);
}

static void perfetto_times_window_flows(void **state)
{
	gp_trace t;
	struct gp_opres r[3];

	build(&t, r);
	t.kernels.v[1].start = -1234567;   /* nsys times may be negative */
	/* the analysis export runs, with these FLOPs for the op model's */
	struct gp_breakdown_opts bo = {.top_gaps = 1, .gap_causes = true};
	gp_deps d;
	struct gp_analysis a = {.trace = &t, .ops = OPS_OF(r),
				.done = GP_NEED_OPS | GP_NEED_BREAKDOWN | GP_NEED_GAP_CAUSES | GP_NEED_TOP_GAPS |
					GP_NEED_TIMELINE};
	gp_error err = {0};
	size_t n;
	struct gp_activity *acts = gp_trace_activities(&t, &n);
	gp_deps_build(&d, &t);
	bo.deps = &d;
	assert_int_equal(gp_breakdown_run(&t, &bo, &a.breakdown, &err), GP_OK);
	gp_timeline_build(&a.timeline, &t, r, acts, n, -1234567, 800, 10);
	char *out = run_sink("perfetto", &a);
	assert_non_null(strstr(out, "\"ts\":-1234.567,\"dur\":1235.067"));
	assert_non_null(strstr(out, "\"ts\":0.100,\"dur\":0.200"));
	assert_non_null(strstr(out, "\"cat\":\"ac2g\""));
	assert_non_null(strstr(out, "\"cat\":\"fwd_bwd\""));
	/* device 0's gap [500,700) ends at a copy launched nowhere in the
	** trace and queued behind nothing: nothing recorded explains it */
	assert_non_null(strstr(out, "\"cat\":\"gpu_idle\",\"name\":\"unknown\",\"pid\":0,\"tid\":2147483646,"
				    "\"ts\":0.500,\"dur\":0.200,\"args\":{\"cause\":\"unknown\","
				    "\"cpu\":\"unknown memcpy 200 ns\"}}"));
	assert_non_null(strstr(out, "\"layer\":\"Net/Block 1/fc:a2a\""));
	assert_non_null(strstr(out, "\"flops\":3000"));
	free(out);
	/* a window around kernel 2 only: its launch comes along, but kernel
	** 0, outside, and so its flows, do not */
	a.opts.window_start = 0;
	a.opts.window_end = 60;
	out = run_sink("perfetto", &a);
	assert_non_null(strstr(out, "\"ts\":0.000,\"dur\":0.100"));
	assert_null(strstr(out, "\"ts\":0.100,\"dur\":0.200"));
	assert_non_null(strstr(out, "\"ts\":-0.050,\"dur\":0.010"));
	assert_null(strstr(out, "fwd_bwd"));
	free(out);
	gp_breakdown_free(&a.breakdown);
	gp_deps_free(&d);
	gp_timeline_free(&a.timeline);
	free(acts);
	gp_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(timeline_union_and_spread),
		cmocka_unit_test(folded_escapes_and_sums),
		cmocka_unit_test(perfetto_times_window_flows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
