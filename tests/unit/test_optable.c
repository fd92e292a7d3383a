/*
** Unit tests: the op table (src/analysis/optable.c) on synthetic traces
** built in C; every expected number is worked out by hand in the comments.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/correlate.h"
#include "analysis/optable.h"

static void api(gp_trace *t, uint32_t tid, gp_ns s, gp_ns e, uint64_t corr)
{
	struct gp_api *a = gp_vec_push(t->apis);
	memset(a, 0, sizeof(*a));
	a->pid = 1;
	a->tid = tid;
	a->start = s;
	a->end = e;
	a->corr = corr;
	a->def = gp_api_def_add(t, &(struct gp_api_def){.name = gp_intern(t, "cudaLaunchKernel"), .cbid = 211});
}

static void kernel(gp_trace *t, gp_ns s, gp_ns dur, uint64_t corr)
{
	struct gp_kernel *k = gp_vec_push(t->kernels);
	memset(k, 0, sizeof(*k));
	k->start = s;
	k->end = s + dur;
	k->corr = corr;
	k->def = gp_kernel_def_add(t, &(struct gp_kernel_def){.name = gp_intern(t, "k"), .pid = 1});
}

static int32_t range(gp_trace *t, int kind, uint32_t tid, gp_ns s, gp_ns e, const char *text)
{
	struct gp_range *r = gp_vec_push(t->ranges);
	memset(r, 0, sizeof(*r));
	r->pid = 1;
	r->tid = tid;
	r->start = s;
	r->end = e;
	r->text = gp_intern(t, text);
	r->kind = (uint8_t)kind;
	r->parent = -1;
	return (int32_t)t->ranges.n - 1;
}

static void correlate(gp_trace *t)
{
	struct gp_correlate_opts o = {0};
	gp_error err = {0};

	gp_trace_finish(t);
	assert_int_equal(gp_correlate(t, &o, &err), GP_OK);
}

static const struct gp_oprow *row(const gp_trace *t, const struct gp_optable *tb, const char *name,
				  const char *extra)
{
	for (size_t i = 0; i < tb->rows.n; i++) {
		const struct gp_oprow *r = &tb->rows.v[i];
		gp_str x = r->shapes ? r->shapes : r->stack;
		if (strcmp(gp_s(t, r->name), name) == 0 && (!extra || (x && strcmp(gp_s(t, x), extra) == 0)))
			return r;
	}
	fail_msg("no row %s", name);
	return NULL;
}

/* step [0,1000) > linear [100,600) > addmm [200,500), and mm [700,900) on
** the same thread; a python frame between linear and addmm; a kernel
** launched in addmm (call [300,310), 50 ns), one in mm ([750,760), 30 ns),
** one in step outside any op ([650,660), 7 ns), one with no call (11 ns);
** a memcpy launched in mm ([770,780), 13 ns). */
static void key_averages(void **state)
{
	gp_trace t;
	struct gp_optable tb;
	double flops[4] = {1e9, -1, 2e9, 5e9};   /* in kernel start order */
	struct gp_optable_opts o = {.group = GP_OPTABLE_BY_NAME, .flops = flops};

	gp_trace_init(&t);
	range(&t, GP_RANGE_USER_ANNOTATION, 1, 0, 1000, "step");
	range(&t, GP_RANGE_CPU_OP, 1, 100, 600, "aten::linear");
	range(&t, GP_RANGE_PYTHON, 1, 150, 550, "torch/nn/functional.py(12): linear");
	range(&t, GP_RANGE_CPU_OP, 1, 200, 500, "aten::addmm");
	range(&t, GP_RANGE_CPU_OP, 1, 700, 900, "aten::mm");
	api(&t, 1, 300, 310, 1);
	api(&t, 1, 750, 760, 2);
	api(&t, 1, 650, 660, 3);
	kernel(&t, 400, 50, 1);
	kernel(&t, 800, 30, 2);
	kernel(&t, 700, 7, 3);
	kernel(&t, 900, 11, 99);
	api(&t, 1, 770, 780, 4);
	struct gp_memcpy *m = gp_vec_push(t.memcpys);
	memset(m, 0, sizeof(*m));
	m->start = 850;
	m->end = 863;
	m->corr = 4;
	m->pid = 1;
	correlate(&t);
	gp_optable_build(&t, &o, &tb);
	assert_int_equal(tb.rows.n, 4);
	/* all kernels and the memcpy: 50 + 30 + 7 + 11 + 13 */
	assert_int_equal(tb.gpu_sum, 111);
	/* the Self CPU of the top-level op covers the whole thread */
	assert_int_equal(tb.self_cpu_sum, 1000);

	const struct gp_oprow *step = row(&t, &tb, "step", NULL);
	assert_int_equal(step->calls, 1);
	assert_int_equal(step->cpu_total, 1000);
	assert_int_equal(step->self_cpu, 1000 - 500 - 200);
	assert_int_equal(step->self_gpu, 7);
	assert_int_equal(step->gpu_total, 7 + 50 + 30 + 13);
	/* kernels sorted by start: 700 (step: 5e9), 400 (addmm: 1e9), 800
	** (mm: -1, unknown), 900 (none) -- flops[] is indexed by kernel */
	const struct gp_oprow *linear = row(&t, &tb, "aten::linear", NULL);
	assert_int_equal(linear->self_cpu, 500 - 300);   /* the python frame is no op */
	assert_int_equal(linear->self_gpu, 0);
	assert_int_equal(linear->gpu_total, 50);
	assert_true(linear->flops < 0);
	const struct gp_oprow *addmm = row(&t, &tb, "aten::addmm", NULL);
	assert_int_equal(addmm->self_cpu, 300);
	assert_int_equal(addmm->self_gpu, 50);
	assert_int_equal(addmm->gpu_total, 50);
	const struct gp_oprow *mm = row(&t, &tb, "aten::mm", NULL);
	assert_int_equal(mm->self_gpu, 30 + 13);
	/* the FLOPs of a row are its own kernels' */
	for (size_t k = 0; k < t.kernels.n; k++) {
		if (t.kernels.v[k].start == 400)
			assert_int_equal((int64_t)flops[k], (int64_t)addmm->flops);
		if (t.kernels.v[k].start == 800)
			assert_true(flops[k] < 0 ? mm->flops < 0 : mm->flops == flops[k]);
	}
	gp_optable_free(&tb);
	gp_trace_free(&t);
}

/* A range that starts inside another and ends after it is no child of it
** (PyTorch's tree: containment), so Self CPU never goes negative there;
** equal intervals nest, the earlier range outside. */
static void containment(void **state)
{
	gp_trace t;
	struct gp_optable tb;
	struct gp_optable_opts o = {.group = GP_OPTABLE_BY_NAME};

	gp_trace_init(&t);
	range(&t, GP_RANGE_CPU_OP, 1, 0, 100, "a");
	range(&t, GP_RANGE_CPU_OP, 1, 50, 300, "b");      /* overlaps a's end */
	range(&t, GP_RANGE_CPU_OP, 1, 400, 500, "outer");
	range(&t, GP_RANGE_CPU_OP, 1, 400, 500, "inner");  /* same interval */
	api(&t, 1, 410, 420, 1);
	kernel(&t, 450, 9, 1);
	correlate(&t);
	gp_optable_build(&t, &o, &tb);
	assert_int_equal(row(&t, &tb, "a", NULL)->self_cpu, 100);
	assert_int_equal(row(&t, &tb, "b", NULL)->self_cpu, 250);
	assert_int_equal(row(&t, &tb, "outer", NULL)->self_cpu, 0);
	assert_int_equal(row(&t, &tb, "outer", NULL)->self_gpu, 0);
	assert_int_equal(row(&t, &tb, "outer", NULL)->gpu_total, 9);
	assert_int_equal(row(&t, &tb, "inner", NULL)->self_gpu, 9);
	gp_optable_free(&tb);
	gp_trace_free(&t);
}

/* --group-by shape: Kineto Input Dims and emit_nvtx sizes; --group-by
** stack: the innermost python frames, depth-limited. */
static void grouping(void **state)
{
	gp_trace t;
	struct gp_optable tb;
	struct gp_optable_opts o = {.group = GP_OPTABLE_BY_SHAPE};

	gp_trace_init(&t);
	int32_t a = range(&t, GP_RANGE_CPU_OP, 1, 0, 10, "aten::mm");
	int32_t b = range(&t, GP_RANGE_CPU_OP, 1, 20, 30, "aten::mm");
	int32_t c = range(&t, GP_RANGE_CPU_OP, 1, 40, 50, "aten::mm");
	struct gp_op_ext *x = gp_vec_push(t.op_exts);
	memset(x, 0, sizeof(*x));
	x->input_dims = gp_intern(&t, "[[2,3],[3,4]]");
	t.ranges.v[a].ext = t.ranges.v[c].ext = 1;
	x = gp_vec_push(t.op_exts);
	memset(x, 0, sizeof(*x));
	x->input_dims = gp_intern(&t, "[[5,6],[6,7]]");
	t.ranges.v[b].ext = 2;
	range(&t, GP_RANGE_PUSHPOP, 2, 0, 10, "aten::add, seq = 3, sizes = [[1, 2], []]");
	range(&t, GP_RANGE_PUSHPOP, 2, 20, 30, "aten::add, seq = 4, sizes = [[1, 2], []]");
	correlate(&t);
	gp_optable_build(&t, &o, &tb);
	assert_int_equal(tb.rows.n, 3);
	assert_int_equal(row(&t, &tb, "aten::mm", "[[2,3],[3,4]]")->calls, 2);
	assert_int_equal(row(&t, &tb, "aten::mm", "[[5,6],[6,7]]")->calls, 1);
	assert_int_equal(row(&t, &tb, "aten::add", "[[1, 2], []]")->calls, 2);
	gp_optable_free(&tb);
	gp_trace_free(&t);

	gp_trace_init(&t);
	range(&t, GP_RANGE_PYTHON, 1, 0, 100, "main.py(1): <module>");
	range(&t, GP_RANGE_PYTHON, 1, 10, 90, "model.py(5): forward");
	range(&t, GP_RANGE_CPU_OP, 1, 20, 30, "aten::relu");
	range(&t, GP_RANGE_PYTHON, 1, 110, 190, "model.py(9): backward");
	range(&t, GP_RANGE_CPU_OP, 1, 120, 130, "aten::relu");
	range(&t, GP_RANGE_CPU_OP, 1, 140, 150, "aten::relu");
	correlate(&t);
	o.group = GP_OPTABLE_BY_STACK;
	o.stack_depth = 1;
	gp_optable_build(&t, &o, &tb);
	assert_int_equal(tb.rows.n, 2);
	assert_int_equal(row(&t, &tb, "aten::relu", "model.py(5): forward")->calls, 1);
	assert_int_equal(row(&t, &tb, "aten::relu", "model.py(9): backward")->calls, 2);
	gp_optable_free(&tb);
	o.stack_depth = 2;
	gp_optable_build(&t, &o, &tb);
	assert_int_equal(row(&t, &tb, "aten::relu", "model.py(5): forward; main.py(1): <module>")->calls, 1);
	gp_optable_free(&tb);
	gp_trace_free(&t);
}

/* cProfile's view: tottime excludes the frames inside, a recursive call
** counts in ncalls but its time only once in cumtime. */
static void python_view(void **state)
{
	gp_trace t;
	struct gp_optable tb = {0};

	gp_trace_init(&t);
	range(&t, GP_RANGE_PYTHON, 1, 0, 100, "f.py(1): fib");
	range(&t, GP_RANGE_PYTHON, 1, 10, 60, "f.py(1): fib");
	range(&t, GP_RANGE_PYTHON, 1, 20, 30, "<built-in method len>");
	range(&t, GP_RANGE_CPU_OP, 1, 70, 80, "aten::add");   /* no frame */
	correlate(&t);
	gp_optable_python(&t, &tb);
	assert_int_equal(tb.py.n, 2);
	const struct gp_pyrow *fib = &tb.py.v[0];
	assert_string_equal(gp_s(&t, fib->func), "f.py(1): fib");
	assert_int_equal(fib->calls, 2);
	assert_int_equal(fib->prim_calls, 1);
	assert_int_equal(fib->tottime, (100 - 50) + (50 - 10));
	assert_int_equal(fib->cumtime, 100);
	assert_int_equal(tb.py.v[1].tottime, 10);
	gp_optable_free(&tb);
	gp_trace_free(&t);
}

/* No ranges, no kernels, no correlation: empty rows, no crash. */
static void empty(void **state)
{
	gp_trace t;
	struct gp_optable tb = {0};
	struct gp_optable_opts o = {.group = GP_OPTABLE_BY_STACK, .stack_depth = 3};

	gp_trace_init(&t);
	gp_trace_finish(&t);
	gp_optable_build(&t, &o, &tb);
	gp_optable_python(&t, &tb);
	assert_int_equal(tb.rows.n, 0);
	assert_int_equal(tb.py.n, 0);
	gp_optable_free(&tb);
	gp_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(key_averages),
		cmocka_unit_test(containment),
		cmocka_unit_test(grouping),
		cmocka_unit_test(python_view),
		cmocka_unit_test(empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
