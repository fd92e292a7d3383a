/*
** Unit tests: the cut to a window (analysis/window.c) on a synthetic trace
** of three NVTX iterations, with indices renumbered by hand; iteration
** range texts and their numbering (model/window.c); the read window's
** arithmetic at the ends of the clock.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/correlate.h"
#include "analysis/window.h"

static void api(gp_trace *t, gp_ns s, uint64_t corr)
{
	struct gp_api *a = gp_vec_push(t->apis);
	a->pid = 1;
	a->tid = 1;
	a->start = s;
	a->end = s + 2;
	a->corr = corr;
	a->def = gp_api_def_add(t, &(struct gp_api_def){.name = gp_intern(t, "cudaLaunchKernel"), .cbid = 211});
}

static void kernel(gp_trace *t, gp_ns s, gp_ns e, uint64_t corr)
{
	struct gp_kernel *k = gp_vec_push(t->kernels);
	k->start = s;
	k->end = e;
	k->corr = corr;
	k->def = gp_kernel_def_add(t, &(struct gp_kernel_def){.name = gp_intern(t, "k"), .pid = 1});
}

static void range(gp_trace *t, gp_ns s, gp_ns e, const char *text)
{
	struct gp_range *r = gp_vec_push(t->ranges);
	r->pid = 1;
	r->tid = 1;
	r->start = s;
	r->end = e;
	r->text = gp_intern(t, text);
	r->kind = GP_RANGE_PUSHPOP;
	r->parent = -1;
}

/* Iterations 0, 1, 2 at 0-99, 100-199, 200-299, each with a "layer:L"
** range and one launch at +10 whose kernel runs at +50..+60, except
** iteration 1's second kernel, launched at 190 and running 205..215, in
** iteration 2's time; a memcpy at 150. */
static void build(gp_trace *t)
{
	gp_trace_init(t);
	t->path = gp_intern(t, "synthetic");
	for (int i = 0; i < 3; i++) {
		gp_ns b = 100 * i;
		range(t, b, b + 99, "iteration");
		range(t, b + 5, b + 40, "layer:L");
		api(t, b + 10, (uint64_t)(10 + i));
		kernel(t, b + 50, b + 60, (uint64_t)(10 + i));
	}
	api(t, 190, 20);
	kernel(t, 205, 215, 20);
	struct gp_memcpy *m = gp_vec_push(t->memcpys);
	m->start = 150;
	m->end = 160;
	gp_trace_finish(t);
	struct gp_correlate_opts o = {0};
	gp_error err = {0};
	assert_int_equal(gp_correlate(t, &o, &err), GP_OK);
}

static void iteration_cut(void **state)
{
	gp_trace t;
	gp_error err = {0};
	gp_ns lo, hi;
	struct gp_window w = {.mode = GP_WINDOW_ITERS, .iter_a = 1, .iter_b = 1};

	build(&t);
	/* bare "iteration" ranges are numbered by their order: 0, 1, 2; the
	** kernel at 205 was launched at 190, in iteration 1 */
	assert_int_equal(t.kernels.v[2].start, 205);
	assert_int_equal(t.attrs[2].iter, 1);
	assert_int_equal(t.attrs[3].iter, 2);
	assert_int_equal(gp_window_apply(&t, &w, NULL, &lo, &hi, &err), GP_OK);
	/* from the first launch (110) to the last kernel end (215) */
	assert_int_equal(lo, 110);
	assert_int_equal(hi, 215);
	assert_int_equal(t.kernels.n, 2);
	assert_int_equal(t.kernels.v[0].start, 150);
	assert_int_equal(t.kernels.v[1].start, 205);
	assert_int_equal(t.attrs[1].iter, 1);
	/* API calls overlapping [110, 215]: the launches at 110, 190 and 210 */
	assert_int_equal(t.apis.n, 3);
	assert_int_equal(t.apis.v[t.attrs[0].api].start, 110);
	assert_int_equal(t.apis.v[t.attrs[1].api].start, 190);
	/* ranges overlapping: iterations 1 and 2 and their layer ranges, the
	** parents renumbered */
	assert_int_equal(t.ranges.n, 4);
	assert_int_equal(t.ranges.v[0].start, 100);
	assert_int_equal(t.ranges.v[1].parent, 0);
	assert_int_equal(t.ranges.v[3].parent, 2);
	assert_int_equal(t.attrs[0].range, 1);   /* layer:L around the launch at 110 */
	assert_int_equal(t.attrs[1].range, 0);   /* iteration 1 around the launch at 190 */
	assert_int_equal(t.memcpys.n, 1);
	gp_trace_free(&t);
}

static void time_cut(void **state)
{
	gp_trace t;
	gp_error err = {0};
	gp_ns lo, hi;
	struct gp_window w = {.mode = GP_WINDOW_TIME, .start = 200, .end = 206};

	build(&t);
	assert_int_equal(gp_window_apply(&t, &w, NULL, &lo, &hi, &err), GP_OK);
	/* the kernel at 205..215 overlaps; its launch at 190 is kept with the
	** range around it (iteration 1 at 100..199, which does not overlap) */
	assert_int_equal(t.kernels.n, 1);
	assert_int_equal(t.kernels.v[0].start, 205);
	assert_int_equal(t.apis.n, 1);
	assert_int_equal(t.apis.v[0].start, 190);
	assert_int_equal(t.attrs[0].api, 0);
	assert_int_equal(t.ranges.n, 3);
	assert_int_equal(t.attrs[0].range, 0);
	assert_int_equal(t.ranges.v[0].start, 100);
	assert_int_equal(t.ranges.v[2].parent, 1);   /* layer:L in iteration 2 */
	assert_int_equal(t.memcpys.n, 0);
	gp_trace_free(&t);
}

/* The graph matcher's per-kernel tables follow their kernels through the
** cut: the kept kernel (205..215) keeps its replay graph and node. */
static void replay_tables_cut(void **state)
{
	gp_trace t;
	gp_error err = {0};
	gp_ns lo, hi;
	struct gp_window w = {.mode = GP_WINDOW_TIME, .start = 200, .end = 206};

	build(&t);
	t.replay_graph = gp_xmalloc(t.kernels.n * sizeof(*t.replay_graph));
	t.replay_node = gp_xmalloc(t.kernels.n * sizeof(*t.replay_node));
	for (size_t k = 0; k < t.kernels.n; k++) {
		t.replay_graph[k] = t.kernels.v[k].start == 205 ? 7 : -1;
		t.replay_node[k] = t.kernels.v[k].start == 205 ? 11 : (int32_t)k;
	}
	assert_int_equal(gp_window_apply(&t, &w, NULL, &lo, &hi, &err), GP_OK);
	assert_int_equal(t.kernels.n, 1);
	assert_int_equal(t.replay_graph[0], 7);
	assert_int_equal(t.replay_node[0], 11);
	gp_trace_free(&t);
}

/* An open end cuts nothing on its side and is reported as the trace's own
** first or last time (API calls and GPU work; the ranges start before). */
static void open_time_cut(void **state)
{
	gp_trace t;
	gp_error err = {0};
	gp_ns lo, hi;
	struct gp_window w = {.mode = GP_WINDOW_TIME, .start = GP_NS_MIN, .end = 104};

	build(&t);
	assert_int_equal(gp_window_apply(&t, &w, NULL, &lo, &hi, &err), GP_OK);
	assert_int_equal(lo, 10);
	assert_int_equal(hi, 104);
	assert_int_equal(t.kernels.n, 1);
	assert_int_equal(t.ranges.n, 3);   /* iteration 0, its layer, iteration 1 */
	assert_int_equal(t.ranges.v[0].start, 0);
	gp_trace_free(&t);
}

static void no_such_iteration(void **state)
{
	gp_trace t;
	gp_error err = {0};
	gp_ns lo, hi;
	struct gp_window w = {.mode = GP_WINDOW_ITERS, .iter_a = 7, .iter_b = 9};

	build(&t);
	assert_int_equal(gp_window_apply(&t, &w, NULL, &lo, &hi, &err), GP_ERR_USAGE);
	assert_non_null(strstr(err.msg, "synthetic: no kernels in iterations 7 to 9 (the trace's kernels "
				   "are in iterations 0 to 2)"));
	assert_int_equal(t.kernels.n, 4);
	gp_trace_free(&t);
}

static void iteration_texts(void **state)
{
	int64_t n;

	assert_true(gp_iteration_text("iteration 12", &n));
	assert_int_equal(n, 12);
	assert_true(gp_iteration_text("ProfilerStep#3", &n));
	assert_int_equal(n, 3);
	assert_true(gp_iteration_text("Iteration", &n));
	assert_int_equal(n, -1);
	assert_false(gp_iteration_text("iteration 3 forward", &n));
	assert_false(gp_iteration_text("layer:step", &n));
}

/* The span of iterations numbered by order per thread matches the
** correlation's numbering, whatever order the ranges come in. */
static void iteration_span(void **state)
{
	gp_trace t;
	gp_ns lo = 0, hi = 0;

	gp_trace_init(&t);
	range(&t, 200, 299, "iteration");
	range(&t, 0, 99, "iteration");
	range(&t, 100, 199, "iteration");
	range(&t, 150, 160, "layer:L");
	assert_true(gp_iteration_ranges_span(&t, t.ranges.v, t.ranges.n, 1, 2, &lo, &hi));
	assert_int_equal(lo, 100);
	assert_int_equal(hi, 299);
	assert_false(gp_iteration_ranges_span(&t, t.ranges.v, t.ranges.n, 3, 5, &lo, &hi));
	gp_trace_free(&t);
}

static void read_span(void **state)
{
	gp_ns lo, hi, glo;

	assert_true(gp_window_read_span(10 * GP_WINDOW_MIN_MARGIN, 13 * GP_WINDOW_MIN_MARGIN, &lo, &hi, &glo));
	assert_int_equal(lo, 7 * GP_WINDOW_MIN_MARGIN);
	assert_int_equal(hi, 16 * GP_WINDOW_MIN_MARGIN);
	assert_int_equal(glo, 10 * GP_WINDOW_MIN_MARGIN - 3 * GP_WINDOW_MIN_MARGIN / 2);
	/* a short span reaches GP_WINDOW_MIN_MARGIN out; the clock's ends saturate */
	assert_true(gp_window_read_span(GP_NS_MIN + 5, GP_NS_MIN + 6, &lo, &hi, &glo));
	assert_int_equal(lo, GP_NS_MIN);
	assert_int_equal(hi, GP_NS_MIN + 6 + GP_WINDOW_MIN_MARGIN);
	assert_true(gp_window_read_span(GP_NS_MAX - 6, GP_NS_MAX - 5, &lo, &hi, &glo));
	assert_int_equal(hi, GP_NS_MAX);
	assert_false(gp_window_read_span(GP_NS_MIN, 5, &lo, &hi, &glo));
	assert_false(gp_window_read_span(5, GP_NS_MAX, &lo, &hi, &glo));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(iteration_cut),
		cmocka_unit_test(time_cut),
		cmocka_unit_test(replay_tables_cut),
		cmocka_unit_test(open_time_cut),
		cmocka_unit_test(no_such_iteration),
		cmocka_unit_test(iteration_texts),
		cmocka_unit_test(iteration_span),
		cmocka_unit_test(read_span),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
