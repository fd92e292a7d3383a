/*
** Unit tests: the comparison of two runs (src/analysis/diff.c): the names
** kernels and ops are matched by, --fail-if's syntax, and the figures of a
** tiny pair of traces built in C, worked out by hand in the comments.
*/
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"

static void test_kernel_key(void **state)
{
	/* the same kernels as Kineto (c++filt) and nsys spell them */
	static const char *const same[][2] = {
		{"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::GeluCUDAKernelImpl<c10::Half>, "
		 "at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::GeluCUDAKernelImpl<c10::Half>, at::detail::Array<char*, 2>)",
		 "void at::native::vectorized_elementwise_kernel<(int)4, at::native::<unnamed>::GeluCUDAKernelImpl<c10::Half>, "
		 "at::detail::Array<char *, (int)2>>(int, T2, T3)"},
		{"ncclDevKernel_AllReduce_Sum_f16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
		 "ncclDevKernel_AllReduce_Sum_f16_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>)"},
		{"void cutlass::Kernel<cutlass_80_tensorop_f16_s16816gemm_relu_f16_64x64_64x4_nn_align8>(cutlass_80_tensorop_f16_s16816gemm_relu_f16_64x64_64x4_nn_align8::Params)",
		 "void cutlass::Kernel<cutlass_80_tensorop_f16_s16816gemm_relu_f16_64x64_64x4_nn_align8>(T1::Params)"},
		{"sm80_xmma_gemm_f16f16", "sm80_xmma_gemm_f16f16"},
	};
	char a[512], b[512];

	(void)state;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		assert_string_equal(gp_diff_kernel_key(same[i][0], a, sizeof(a)), gp_diff_kernel_key(same[i][1], b, sizeof(b)));
	assert_string_equal(gp_diff_kernel_key("void f<(int)4, 16ul>(int)", a, sizeof(a)), "f<4,16>");
	/* numbers inside identifiers keep their letters: f16 is no "16" + suffix */
	assert_string_equal(gp_diff_kernel_key("k_f16l<2u>", a, sizeof(a)), "k_f16l<2>");
	/* different kernels stay different */
	assert_string_not_equal(gp_diff_kernel_key("void g<GeluCUDAKernelImpl<c10::Half>>(int)", a, sizeof(a)),
				gp_diff_kernel_key("void g<GeluBackwardCUDAKernelImpl<c10::Half>>(int)", b, sizeof(b)));
	/* a name that is all parameter list is kept, and a tiny buffer truncates */
	assert_string_equal(gp_diff_kernel_key("(x)", a, sizeof(a)), "(x)");
	assert_string_equal(gp_diff_kernel_key("abcdef", a, 4), "abc");
	assert_string_equal(gp_diff_op_key("aten::mm"), "mm");
	assert_string_equal(gp_diff_op_key("AddmmBackward0"), "AddmmBackward0");
}

static void test_gate_parse(void **state)
{
	struct gp_diff_gate g;
	gp_error err = {0};

	(void)state;
	assert_int_equal(gp_diff_gate_parse("step>+5%", &g, &err), 0);
	assert_int_equal(g.target, GP_GATE_STEP);
	assert_true(g.above && g.relative);
	assert_true(fabs(g.limit - 0.05) < 1e-12);
	assert_int_equal(gp_diff_gate_parse("total<-3%", &g, &err), 0);
	assert_int_equal(g.target, GP_GATE_TOTAL);
	assert_false(g.above);
	assert_true(fabs(g.limit + 0.03) < 1e-12);
	assert_int_equal(gp_diff_gate_parse("op:aten::mm>+10%", &g, &err), 0);
	assert_int_equal(g.target, GP_GATE_GROUP);
	assert_int_equal(g.by, GP_DIFF_BY_OP);
	assert_string_equal(g.pattern, "aten::mm");
	/* template brackets in the pattern: the comparison is the last one */
	assert_int_equal(gp_diff_gate_parse("kernel:*gemm<float>*>1.5ms", &g, &err), 0);
	assert_string_equal(g.pattern, "*gemm<float>*");
	assert_false(g.relative);
	assert_true(fabs(g.limit - 1.5e6) < 1e-6);
	assert_int_equal(gp_diff_gate_parse("layer:Block_*<-200us", &g, &err), 0);
	assert_int_equal(g.by, GP_DIFF_BY_LAYER);
	assert_true(fabs(g.limit + 2e5) < 1e-6);
	static const char *const bad[] = {"step", "step>5", "step>%", "steps>+5%", "op:>+5%", "kernel>+5%",
					  "iter:1>+5 %", "step>+5%%", "step>+inf%", ""};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(gp_diff_gate_parse(bad[i], &g, &err), GP_ERR_USAGE);
		assert_non_null(strstr(err.msg, "bad --fail-if"));
	}
}

/* A run of iters iterations: per iteration kernel "A" of a_ns, "B" of 50
** ns, and (with_c) "C" of 10 ns, one after the other from t = 1000 * i. */
static void make_run(gp_trace *t, int iters, gp_ns a_ns, bool with_c)
{
	gp_trace_init(t);
	for (int i = 0; i < iters; i++) {
		gp_ns s = 1000 * i;
		const char *names[3] = {"A", "B", "C"};
		gp_ns durs[3] = {a_ns, 50, 10};
		for (int j = 0; j < (with_c ? 3 : 2); j++) {
			struct gp_kernel *k = gp_vec_push(t->kernels);
			k->start = s;
			k->end = s + durs[j];
			k->def = gp_kernel_def_add(t, &(struct gp_kernel_def){.name = gp_intern(t, names[j])});
			s += durs[j];
		}
	}
	t->attrs = calloc(t->kernels.n, sizeof(*t->attrs));
	for (size_t k = 0; k < t->kernels.n; k++) {
		t->attrs[k].api = t->attrs[k].range = -1;
		t->attrs[k].iter = (int32_t)(k / (with_c ? 3 : 2)) + 7;   /* numbers need not start at 0 */
	}
}

/* The steps of a make_run trace, as the runner's would be (steps.h): each
** kernel in its iteration's step, each step its kernels' span (start of
** the first to end of the last), in iteration order. */
static void steps_of(const gp_trace *t, struct gp_steps *s)
{
	memset(s, 0, sizeof(*s));
	s->kernel_iter = malloc(t->kernels.n * sizeof(*s->kernel_iter));
	s->v = calloc(t->kernels.n, sizeof(*s->v));
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		int32_t it = t->attrs[k].iter;
		s->kernel_iter[k] = it;
		if (!s->n || s->v[s->n - 1].iter != it)
			s->v[s->n++] = (struct gp_step){.iter = it, .start = kr->start, .end = kr->end};
		s->v[s->n - 1].end = kr->end;
	}
}

/* Runs of rank traces base[0..nb) and test[0..nt) compared as the command
** does: each trace reduced to a part with its steps, the parts added per
** run. */
static void compare(gp_trace *const *base, size_t nb, gp_trace *const *test, size_t nt,
		    const struct gp_diff_opts *o, struct gp_diff *d)
{
	struct gp_diff_run_in run[2];
	gp_trace *const *t[2] = {base, test};
	size_t n[2] = {nb, nt};

	for (int s = 0; s < 2; s++) {
		gp_diff_run_init(&run[s], o->by);
		for (size_t i = 0; i < n[s]; i++) {
			struct gp_diff_part p;
			struct gp_steps steps;
			steps_of(t[s][i], &steps);
			gp_diff_part_make(t[s][i], NULL, &steps, NULL, o->by, &p);
			gp_steps_free(&steps);
			gp_diff_run_add(&run[s], &p, (int32_t)i);
			gp_diff_part_free(&p);
		}
	}
	gp_diff_compute(&run[0], &run[1], o, d);
	gp_diff_run_free(&run[0]);
	gp_diff_run_free(&run[1]);
}

static void compare1(gp_trace *base, gp_trace *test, const struct gp_diff_opts *o, struct gp_diff *d)
{
	compare(&base, 1, &test, 1, o, d);
}

static const struct gp_diff_row *row(const struct gp_diff *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(gp_strtab_get(&d->strs, d->rows[i].name), name) == 0)
			return &d->rows[i];
	fail_msg("no row %s", name);
	return NULL;
}

static void test_compute(void **state)
{
	gp_trace tb, tt;
	struct gp_diff d;
	struct gp_diff_opts o = {.by = GP_DIFF_BY_KERNEL, .stats = true, .threshold = 0.02,
				 .resamples = 500, .seed = 1};
	const struct gp_diff_row *r;
	size_t from = 0;
	struct gp_diff_gate g;
	gp_error err = {0};

	(void)state;
	make_run(&tb, 5, 100, false);
	make_run(&tt, 5, 120, true);
	compare1(&tb, &tt, &o, &d);
	assert_true(d.stats);
	assert_int_equal(d.base_iters, 5);
	/* step, idle (none known: no cause of it leads), total, 3 groups */
	assert_int_equal(d.lead, 3);
	assert_int_equal(d.n, 6);
	/* step: A + B = 150 ns -> A + B + C = 180 ns in every iteration */
	assert_int_equal(d.rows[0].kind, GP_DIFF_ROW_STEP);
	assert_true(fabs(d.rows[0].change - 30) < 1e-9);
	assert_true(fabs(d.rows[0].rel - 0.2) < 1e-9);
	assert_int_equal(d.rows[1].kind, GP_DIFF_ROW_IDLE);
	assert_int_equal(d.rows[2].kind, GP_DIFF_ROW_TOTAL);
	assert_int_equal(d.rows[2].base.total, 750);
	assert_int_equal(d.rows[2].test.total, 900);
	/* then by |change|: A (+20), C (+10, new), B (0) */
	assert_string_equal(gp_strtab_get(&d.strs, d.rows[3].name), "A");
	assert_string_equal(gp_strtab_get(&d.strs, d.rows[4].name), "C");
	assert_string_equal(gp_strtab_get(&d.strs, d.rows[5].name), "B");
	r = row(&d, "A");
	assert_int_equal(r->status, GP_DIFF_CHANGED);
	assert_int_equal(r->verdict, GP_DIFF_SIGNIFICANT);
	/* no spread at all: every resample gives +20 */
	assert_true(r->ci_lo == 20 && r->ci_hi == 20);
	assert_int_equal(r->base.calls, 5);
	r = row(&d, "C");
	assert_int_equal(r->status, GP_DIFF_NEW);
	assert_true(isinf(r->rel) && r->rel > 0);
	assert_int_equal(r->verdict, GP_DIFF_SIGNIFICANT);
	r = row(&d, "B");
	assert_int_equal(r->status, GP_DIFF_SAME);
	assert_int_equal(r->verdict, GP_DIFF_NOISE);
	/* gates */
	assert_int_equal(gp_diff_gate_parse("kernel:*>+10%", &g, &err), 0);
	assert_ptr_equal(gp_diff_gate_next(&d, &g, true, &from), row(&d, "A"));
	assert_ptr_equal(gp_diff_gate_next(&d, &g, true, &from), row(&d, "C"));
	assert_null(gp_diff_gate_next(&d, &g, true, &from));
	from = 0;
	assert_int_equal(gp_diff_gate_parse("step>+25%", &g, &err), 0);
	assert_null(gp_diff_gate_next(&d, &g, true, &from));
	gp_diff_free(&d);

	/* fewer than 4 iterations a side: no statistics, the threshold decides */
	gp_trace_free(&tb);
	make_run(&tb, 3, 101, false);
	compare1(&tb, &tt, &o, &d);
	assert_false(d.stats);
	r = row(&d, "A");
	assert_false(r->has_ci);
	/* totals: 303 -> 600 ns */
	assert_true(fabs(r->change - 297) < 1e-9);
	assert_int_equal(r->verdict, GP_DIFF_ABOVE);
	gp_diff_free(&d);
	gp_trace_free(&tb);
	gp_trace_free(&tt);
}

/* Several ranks a run: per iteration, a group's time is the sum over the
** ranks and the step time the slowest rank's; only the iterations every
** rank holds get per-iteration figures; --by rank compares each rank. */
static void test_ranks(void **state)
{
	gp_trace b[2], t[3];
	gp_trace *bp[2] = {&b[0], &b[1]}, *tp[3] = {&t[0], &t[1], &t[2]};
	struct gp_diff d;
	struct gp_diff_opts o = {.by = GP_DIFF_BY_KERNEL, .stats = true, .threshold = 0.02,
				 .resamples = 500, .seed = 1};
	const struct gp_diff_row *r;

	(void)state;
	make_run(&b[0], 5, 100, false);
	make_run(&b[1], 6, 100, false);     /* one iteration more: totals only */
	make_run(&t[0], 5, 100, false);
	make_run(&t[1], 5, 300, false);     /* the slow rank */
	make_run(&t[2], 5, 100, false);     /* a rank more */
	compare(bp, 2, tp, 3, &o, &d);
	assert_int_equal(d.base_ranks, 2);
	assert_int_equal(d.test_ranks, 3);
	assert_int_equal(d.base_iters, 5);
	assert_int_equal(d.test_iters, 5);
	/* step: the slowest rank's, 150 -> 350 ns */
	assert_true(d.rows[0].base.med == 150 && d.rows[0].test.med == 350);
	assert_int_equal(d.rows[0].base.total, 5 * 150);
	/* total kernel time: every kernel of every rank, the 6th iteration too */
	assert_int_equal(d.rows[2].base.total, 11 * 150);
	assert_int_equal(d.rows[2].test.total, 10 * 150 + 5 * 350);
	/* A per iteration: summed over ranks, 200 -> 500 ns */
	r = row(&d, "A");
	assert_true(r->base.med == 200 && r->test.med == 500);
	assert_int_equal(r->base.calls, 11);
	assert_int_equal(r->verdict, GP_DIFF_SIGNIFICANT);
	gp_diff_free(&d);

	/* --by rank: rank 1's step and compute grow, rank 2 is new, rank 0 same */
	o.by = GP_DIFF_BY_RANK;
	compare(bp, 2, tp, 3, &o, &d);
	assert_int_equal(d.n, 3 + 6);
	r = row(&d, "rank 1 compute");
	assert_true(r->base.med == 150 && r->test.med == 350);
	assert_int_equal(r->verdict, GP_DIFF_SIGNIFICANT);
	r = row(&d, "rank 0 step");
	assert_int_equal(r->status, GP_DIFF_SAME);
	assert_int_equal(r->verdict, GP_DIFF_NOISE);
	r = row(&d, "rank 2 step");
	assert_int_equal(r->status, GP_DIFF_NEW);
	assert_true(isinf(r->rel));
	/* the largest changes first: rank 1's +200 ns, then the new rank 2's +150 ns */
	assert_string_equal(gp_strtab_get(&d.strs, d.rows[3].name), "rank 1 compute");
	assert_string_equal(gp_strtab_get(&d.strs, d.rows[4].name), "rank 1 step");
	assert_true(fabs(row(&d, "rank 2 step")->change - 150) < 1e-9);
	gp_diff_free(&d);
	for (int i = 0; i < 2; i++)
		gp_trace_free(&b[i]);
	for (int i = 0; i < 3; i++)
		gp_trace_free(&t[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_key),
		cmocka_unit_test(test_gate_parse),
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_ranks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
