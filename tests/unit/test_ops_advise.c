/*
** Unit tests of gpuprof advise: one synthetic trace per problem (built in
** C), each must raise its finding; a clean trace must raise none.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops_fixture.h"
#include "analysis/breakdown.h"
#include "analysis/advise.h"
#include "analysis/critpath.h"
#include <stdlib.h>

/* linear x[n,k] @ w[m,k]^T in dt on kernel name, dur ns after gap ns. */
static size_t gemm(struct fx *f, const char *kname, enum gp_dtype dt, int64_t n, int64_t m, int64_t k,
		   gp_ns gap, gp_ns dur)
{
	size_t i = fx_kernel_at(f, kname, gap, dur, "torch.nn.functional", "linear", GP_DIR_FPROP, 0);
	fx_tensor(f, dt, 2, n, k);
	fx_tensor(f, dt, 2, m, k);
	return i;
}

static const struct gp_finding *find(const struct gp_findings *out, const char *kind)
{
	for (size_t i = 0; i < out->v.n; i++)
		if (strcmp(out->v.v[i].kind, kind) == 0)
			return &out->v.v[i];
	return NULL;
}

/* Runs the op model, the dependency graph, the time breakdown (gaps with
** their causes from it), the steps and advise on f, as
** gpuprof advise does; returns the finding of kind (NULL if absent), which
** lives in *out. */
static const struct gp_finding *advise(struct fx *f, struct gp_findings *out, const char *kind)
{
	struct gp_breakdown_opts bo = {.gap_causes = true};
	gp_breakdown b;
	gp_deps d;
	struct gp_steps st;
	struct gp_gpu gpu;
	gp_error err = {0};

	fx_done(f);
	fx_ops(f, NULL);
	gp_deps_build(&d, &f->t);
	bo.deps = &d;
	assert_int_equal(gp_breakdown_run(&f->t, &bo, &b, &err), GP_OK);
	gp_steps_find(&f->t, &st);
	gp_gpu_of_run(&f->t, &f->ops.po, &gpu);
	gp_advise(&f->t, &f->ops, gpu.name ? &gpu : NULL, &b, &d, &st, NULL, out);
	gp_steps_free(&st);
	if (getenv("GP_TEST_DEBUG"))   /* each gap's causes */
		for (size_t i = 0; i < b.ngap_causes; i++)
			for (int c = 0; c < GP_CAUSE__COUNT; c++)
				if (gp_bd_gap_idle(&b, &b.gap_causes[i], c))
					print_message("gap %zu [%lld,%lld) unit %d: %s %lld\n", i,
						      (long long)b.gap_causes[i].start, (long long)b.gap_causes[i].end,
						      (int)b.gap_causes[i].unit, gp_cause_name(c),
						      (long long)gp_bd_gap_idle(&b, &b.gap_causes[i], c));
	gp_breakdown_free(&b);
	gp_deps_free(&d);
	return find(out, kind);
}

/* Prints the findings (for a failing test's log). */
static void show(const struct gp_findings *out)
{
	for (size_t i = 0; i < out->v.n; i++)
		print_message("%s: ns %.0f alone %.0f total %.0f count %zu: %s | %s\n", out->v.v[i].kind,
			      out->v.v[i].ns, out->v.v[i].alone_ns, out->v.v[i].total_ns, out->v.v[i].count,
			      out->v.v[i].title, out->v.v[i].evidence);
}

/* 20 large fp16 GEMMs on tensor cores at 88% of the A100 peak, back to
** back, full grids: nothing to say. */
static void clean_trace_has_no_findings(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 20; i++)   /* 2*8192^3 = 1.1e12 FLOP: 3.52 ms at 312 TFLOP/s */
		gemm(&f, "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn", GP_DT_FP16, 8192, 8192, 8192,
		     2000, 4000000);
	advise(&f, &out, "none");
	for (size_t i = 0; i < out.v.n; i++)
		print_message("unexpected: %s: %s\n", out.v.v[i].kind, out.v.v[i].title);
	assert_int_equal(out.v.n, 0);
	assert_string_equal(out.gpu, "A100-SXM4-40GB");
	gp_findings_free(&out);
	fx_free(&f);
}

/* fp16 GEMMs on a SIMT kernel with M = 1001: pad to 1008. */
static void tc_eligible_not_on_tc(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 10; i++)
		gemm(&f, "maxwell_hgemm_128x64_nn", GP_DT_FP16, 4096, 1001, 4096, 2000, 1000000);
	const struct gp_finding *x = advise(&f, &out, "tc-not-used");
	assert_non_null(x);
	assert_int_equal(x->count, 10);
	assert_true(x->ns == 5e6);     /* half of 10 x 1 ms */
	assert_non_null(strstr(x->change, "M=1001 to 1008"));
	assert_non_null(strstr(x->evidence, "linear 10.000 ms in 10 kernels"));
	assert_string_equal(out.v.v[0].kind, "tc-not-used");   /* ranked first */
	gp_findings_free(&out);
	fx_free(&f);
}

/* fp32 GEMMs on an A100: TF32 advice; on a V100: AMP advice. */
static void fp32_gemms(void **state)
{
	const char *gpus[] = {"NVIDIA A100-SXM4-40GB", "Tesla V100-SXM2-16GB"};
	const char *want[] = {"allow_tf32", "torch.float16"};
	for (int g = 0; g < 2; g++) {
		struct fx f;
		struct gp_findings out;
		fx_init(&f);
		fx_device(&f, gpus[g], g ? 80 : 108);
		for (int i = 0; i < 10; i++)
			gemm(&f, "ampere_sgemm_128x64_tn", GP_DT_FP32, 4096, 4096, 4096, 2000, 10000000);
		const struct gp_finding *x = advise(&f, &out, "fp32-gemm");
		assert_non_null(x);
		assert_non_null(strstr(x->change, want[g]));
		assert_null(find(&out, "tc-not-used"));     /* fp32 is not eligible */
		gp_findings_free(&out);
		fx_free(&f);
	}
}

/* A tensor-core GEMM at 9% of its roofline. */
static void far_below_roofline(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 5; i++)
		gemm(&f, "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn", GP_DT_FP16, 8192, 8192, 8192,
		     2000, 40000000);
	const struct gp_finding *x = advise(&f, &out, "below-roofline");
	assert_non_null(x);
	assert_int_equal(x->count, 5);
	assert_non_null(strstr(x->evidence, "compute-bound"));
	gp_findings_free(&out);
	fx_free(&f);
}

/* The below-roofline finding of five SDPA kernels named name with q, k
** and v of [8,16,1024,e] bf16, far below their roofline, into *out; the
** finding, NULL when none. */
static const struct gp_finding *attention_finding(const char *name, int64_t e, struct gp_findings *out,
						  struct fx *f)
{
	fx_init(f);
	fx_device(f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 5; i++) {
		fx_kernel_at(f, name, 2000, 2000000000, "torch.nn.functional", "scaled_dot_product_attention",
			     GP_DIR_FPROP, 0);
		for (int j = 0; j < 3; j++)
			fx_tensor(f, GP_DT_BF16, 4, D(8), D(16), D(1024), D(e));
	}
	return advise(f, out, "below-roofline");
}

/* A fused attention kernel far below its roofline is not told to fuse (it
** already is), nor to check what its evidence already shows: the flash
** kernel with an aligned head dim is told so; a head dim of 70 is told to
** pad to 72; the memory-efficient backend's kernel is named as such; a
** kernel of a backend the name does not tell is asked to check it. */
static void fused_attention_below_roofline(void **state)
{
	struct fx f;
	struct gp_findings out;
	const struct gp_finding *x;

	x = attention_finding("flash_fwd_kernel", 128, &out, &f);
	assert_non_null(x);
	assert_int_equal(x->count, 5);
	assert_non_null(strstr(x->change, "Already the flash/cuDNN attention kernel, with dims that are multiples "
					  "of 8 (E=128, L=1024, S=1024)"));
	assert_null(strstr(x->change, "check that"));
	assert_null(strstr(x->change, "fuse it"));
	gp_findings_free(&out);
	fx_free(&f);

	x = attention_finding("flash_fwd_kernel", 70, &out, &f);
	assert_non_null(x);
	assert_non_null(strstr(x->change, "Pad E=70 to 72"));
	assert_null(strstr(x->change, "Already"));
	assert_null(strstr(x->change, "backend"));
	gp_findings_free(&out);
	fx_free(&f);

	x = attention_finding("fmha_cutlassF_bf16_aligned_64x64_rf_sm80", 128, &out, &f);
	assert_non_null(x);
	assert_non_null(strstr(x->change, "is the memory-efficient backend, not flash or cuDNN"));
	assert_null(strstr(x->change, "Pad"));
	gp_findings_free(&out);
	fx_free(&f);

	x = attention_finding("attn_fwd", 128, &out, &f);
	assert_non_null(x);
	assert_non_null(strstr(x->change, "Head dim and sequence lengths are multiples of 8 (E=128, L=1024, "
					  "S=1024); check that the fastest SDPA backend ran"));
	gp_findings_free(&out);
	fx_free(&f);
}

/* Adds a framework op's CPU range of text on thread 1 over [start, end)
** (ranges added in time order, none nested). */
static void cpu_op(struct fx *f, const char *text, gp_ns start, gp_ns end)
{
	struct gp_range *r = gp_vec_push(f->t.ranges);

	r->start = start;
	r->end = end;
	r->tid = 1;
	r->text = gp_intern(&f->t, text);
	r->parent = -1;
	r->kind = GP_RANGE_CPU_OP;
}

/* Whether two times agree to a nanosecond (claims split wall time in
** floating point). */
static bool near(double a, double b)
{
	return fabs(a - b) < 1;
}

/* The sum of the findings' times at stake. */
static double stake_sum(const struct gp_findings *out)
{
	double ns = 0;

	for (size_t i = 0; i < out->v.n; i++)
		ns += out->v.v[i].ns;
	return ns;
}

/* Whether a is within frac of b. */
static bool within(double a, double b, double frac)
{
	return fabs(a - b) <= frac * fabs(b);
}

/* 500 relu kernels of 3 us, 20 us apart: each launched by a 4 us call
** inside its op's 18 us CPU range, the kernel 3 us after the call
** returned; the op's range starts when the kernel before ends.  Each
** 20 us gap is 17 us of the CPU issuing work (the op, its launch call)
** and 3 us of launch latency: tiny-kernels and cpu_op, whose change (a
** CUDA graph: the ops' CPU time and the latency gone) leaves the 5 us of
** untraced CPU time between the ops to pace the 3 us kernels: 18 us of
** each gap saved, shared by the two; launch is no finding: the
** CPU paces the launches, so without the latency each kernel only starts
** 3 us earlier after its launch, and the span ends 3 us sooner. */
static void launch_bound_tiny_kernels(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 500; i++) {
		size_t k = fx_kernel_at(&f, "vectorized_elementwise_kernel", 20000, 3000, "torch.nn.functional",
					"relu", GP_DIR_FPROP, 0);
		fx_tensor(&f, GP_DT_FP32, 1, D(1024));
		gp_ns s = f.t.kernels.v[k].start;
		cpu_op(&f, "aten::relu", s - 20000, s - 2000);
		fx_launch(&f, k, 3000, 4000);
	}
	const struct gp_finding *tiny = advise(&f, &out, "tiny-kernels");
	const struct gp_finding *cpu = find(&out, "cpu_op"), *lat = find(&out, "launch");
	show(&out);
	assert_non_null(tiny);
	assert_non_null(cpu);
	assert_null(lat);
	assert_int_equal(tiny->count, 500);
	assert_true(cpu->total_ns == 499 * 17000.0);    /* the op, the launch call in it */
	assert_null(find(&out, "untraced"));
	assert_true(near(tiny->alone_ns, 499 * 18000.0));
	assert_true(near(cpu->alone_ns, 499 * 18000.0));
	assert_true(near(tiny->ns + cpu->ns, 499 * 18000.0));
	assert_true(near(tiny->overlap_ns + cpu->overlap_ns, 499 * 18000.0));
	assert_true(stake_sum(&out) <= out.span_ns);
	assert_non_null(strstr(cpu->evidence, "aten::relu"));
	gp_findings_free(&out);
	fx_free(&f);
}

/* 5 ms idle gaps before 10 GEMMs, each gap a cudaStreamSynchronize that
** waits for nothing (4.989 ms), then the GEMM's launch; pageable and
** synchronous copies; then a long kernel on 4 blocks.  The chain puts each
** gap's 4.989 ms on the sync: sync, whose change (the syncs gone)
** saves about that; what is left of each gap (11 us) is no finding. */
static void gaps_syncs_copies_small_grid(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 10; i++) {
		size_t k = gemm(&f, "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn", GP_DT_FP16, 8192,
				8192, 8192, 5000000, 4000000);
		gp_ns s = f.t.kernels.v[k].start;
		fx_call(&f, "cudaStreamSynchronize", s - 4990000, s - 1000);
		fx_launch(&f, k, 500, 400);
	}
	for (int i = 0; i < 3; i++) {
		struct gp_memcpy *m = gp_vec_push(f.t.memcpys);
		m->start = f.now + (i ? 1000000 : 1000);
		m->end = m->start + 1000000;
		m->bytes = 1 << 20;
		m->copy_kind = GP_COPY_HTOD;
		m->src_kind = i < 2 ? GP_MEM_PAGEABLE : GP_MEM_PINNED;
		m->dst_kind = GP_MEM_DEVICE;
		m->async = false;
		m->stream = 7;
		m->corr = 1000 + (uint64_t)i;
		size_t c = fx_call(&f, "cudaMemcpy", m->start - 2000, m->end + 3000);
		f.t.apis.v[c].corr = m->corr;
		f.now = m->end;
	}
	size_t k = fx_kernel_at(&f, "reduce_kernel", 1000, 30000000, "Tensor", "sum", GP_DIR_FPROP, 0);
	fx_grid(&f, k, 4);
	fx_tensor(&f, GP_DT_FP32, 1, D(1000));
	const struct gp_finding *x = advise(&f, &out, "sync");
	show(&out);
	assert_non_null(x);
	/* the gaps between the GEMMs, and two before a copy: the synchronous
	** copy before it returning 3 us after its copy */
	assert_int_equal(x->count, 11);
	assert_true(x->total_ns == 9 * 4989000.0 + 2 * 3000);
	assert_true(x->alone_ns <= 9 * 5000000.0 && within(x->alone_ns, 9 * 4989000.0, 0.01));
	assert_non_null(strstr(x->evidence, "cudaStreamSynchronize"));
	assert_null(find(&out, "launch"));
	x = find(&out, "pageable_copy");
	assert_non_null(x);
	assert_int_equal(x->count, 2);
	assert_true(x->total_ns == 2e6);   /* the two copies */
	/* the synchronous pinned copy: issued without waiting it saves
	** nothing, the reduce kernel after it waits for it on its stream (it
	** used to borrow the pageable copies' saving: one change pinned all) */
	assert_null(find(&out, "sync-memcpy"));
	assert_null(find(&out, "host-sync-copies"));
	x = find(&out, "small-grid");
	assert_non_null(x);
	assert_non_null(strstr(x->evidence, "4 blocks"));
	assert_non_null(strstr(x->title, "108 SMs"));
	gp_findings_free(&out);
	fx_free(&f);
}

/* Small copies the host waits for are host syncs, not data to pin: 40
** pageable device-to-host reads of 4 bytes (.item()) and 40 synchronous
** host-to-device copies of 0 bytes from pinned memory, 100 us each, whose
** calls hold the thread before the next GEMM's launch, give host-sync-copies (80 copies, 0.2 KB), with the sync change;
** neither pageable_copy nor sync-memcpy (they name bulk copies) nor
** pin_memory is said.  One pageable copy of 1 MB beside them is
** pageable_copy's alone. */
static void small_copies_are_syncs(void **state)
{
	struct fx f;
	struct gp_findings out;

	(void)state;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 81; i++) {
		size_t k = gemm(&f, "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn", GP_DT_FP16, 4096,
				4096, 4096, 10000, 300000);
		fx_launch(&f, k, 5000, 1000);
		struct gp_memcpy *m = gp_vec_push(f.t.memcpys);
		m->start = f.now + 1000;
		m->end = m->start + 100000;
		m->bytes = i == 80 ? 1 << 20 : i % 2 ? 0 : 4;
		m->copy_kind = i % 2 ? GP_COPY_HTOD : GP_COPY_DTOH;
		m->src_kind = i % 2 ? GP_MEM_PINNED : GP_MEM_DEVICE;
		m->dst_kind = i % 2 ? GP_MEM_DEVICE : GP_MEM_PAGEABLE;
		m->async = false;
		m->stream = 7;
		m->corr = 1000 + (uint64_t)i;
		size_t c = fx_call(&f, "cudaMemcpy", m->start - 2000, m->end + 3000);
		f.t.apis.v[c].corr = m->corr;
		f.now = m->end + 3000;
	}
	advise(&f, &out, "host-sync-copies");
	const struct gp_finding *x = find(&out, "host-sync-copies");
	show(&out);
	assert_non_null(x);
	assert_int_equal(x->count, 80);
	assert_non_null(strstr(x->title, "80 copies under 64 KB that hold the host"));
	assert_non_null(strstr(x->evidence, "0.2 KB in all"));
	assert_non_null(strstr(x->change, "Remove synchronizations"));
	assert_null(strstr(x->change, "pin_memory"));
	x = find(&out, "pageable_copy");
	if (x)
		assert_int_equal(x->count, 1);
	assert_null(find(&out, "sync-memcpy"));
	gp_findings_free(&out);
	fx_free(&f);
}

/* Waits for another device's work, which the replay cannot re-time: a
** notice, not a ranked finding.  Five steps 400 us apart: P [0,300) on
** device 0's stream 7, then an event recorded after it, device 1's stream 8
** made to wait for it, and C [302,352) on stream 8, all launched 20 us
** ahead.  Each of device 1's gaps but the first is the wait for P (302 us
** of event_wait: the other device's work it waited for), four in all; with
** more than a tenth of the GPU span in them, advise tells it first. */
static void event_waits_are_a_notice(void **state)
{
	struct fx f;
	struct gp_findings out;
	const gp_ns t0 = 1000000;

	(void)state;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 5; i++) {
		gp_ns t = t0 + (gp_ns)i * 400000;
		uint64_t c = 100 + 10 * (uint64_t)i;
		f.now = t;
		size_t p = fx_kernel_at(&f, "producer", 0, 300000, "m", "aten::mm", GP_DIR_FPROP, 0);
		fx_launch(&f, p, 19000, 1000);
		size_t a = fx_call(&f, "cudaEventRecord", t - 18000, t - 17000);
		f.t.apis.v[a].corr = c;
		*gp_vec_push(f.t.event_records) = (struct gp_event_record){
			.corr = c, .event_id = (uint64_t)i + 1, .device = 0, .stream = 7};
		a = fx_call(&f, "cudaStreamWaitEvent", t - 16000, t - 15000);
		f.t.apis.v[a].corr = c + 1;
		struct gp_sync *y = gp_vec_push(f.t.syncs);
		y->corr = c + 1;
		y->kind = GP_SYNC_STREAM_WAIT;
		y->device = 1;
		y->stream = 8;
		y->event_id = (uint64_t)i + 1;
		y->record_corr = c;
		size_t k = fx_kernel_at(&f, "consumer", 2000, 50000, "m", "aten::add", GP_DIR_FPROP, 0);
		struct gp_kernel_def d = *gp_kernel_def(&f.t, &f.t.kernels.v[k]);
		d.device = 1;
		f.t.kernels.v[k].def = gp_kernel_def_add(&f.t, &d);
		f.t.kernels.v[k].stream = 8;
		fx_launch(&f, k, 300000 + 16000, 1000);
	}
	advise(&f, &out, "event_wait");
	show(&out);
	const struct gp_finding *x = find(&out, "event_wait");
	assert_non_null(x);
	assert_true(x->first);
	assert_true(x == &out.v.v[0] || out.v.v[0].first);
	assert_int_equal(x->count, 4);
	assert_true(x->total_ns == 4 * 302000.0);
	assert_non_null(strstr(x->change, "waited for an event on another stream or device"));
	gp_findings_free(&out);
	fx_free(&f);
}

/* NCCL kernels use few blocks by design: long 4-block all-reduce kernels,
** with or without an op, are not in the small-grid finding that the same
** grid on a compute kernel raises. */
static void comm_kernels_are_not_small_grids(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	size_t k = fx_kernel_at(&f, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 1000, 30000000, NULL, NULL,
				GP_DIR_NA, 0);
	fx_grid(&f, k, 4);
	k = fx_kernel_at(&f, "ncclKernel_AllReduce_RING_LL_Sum_float", 1000, 30000000, "c10d",
			 "c10d::allreduce_", GP_DIR_NA, 0);
	fx_grid(&f, k, 4);
	fx_tensor(&f, GP_DT_FP32, 1, D(1000));
	k = fx_kernel_at(&f, "reduce_kernel", 1000, 30000000, "Tensor", "sum", GP_DIR_FPROP, 0);
	fx_grid(&f, k, 4);
	fx_tensor(&f, GP_DT_FP32, 1, D(1000));
	const struct gp_finding *x = advise(&f, &out, "small-grid");
	assert_non_null(x);
	assert_int_equal(x->count, 1);
	assert_non_null(strstr(x->evidence, "reduce_kernel"));
	assert_null(strstr(x->evidence, "nccl"));
	gp_findings_free(&out);
	fx_free(&f);
}

/* 20 fp16 GEMMs of 1 ms after gaps of 500 us: each launched 300 us before
** it starts, the launch 1.2 ms after the one before with nothing recorded
** in between.  The chain splits each gap into 300 us of launch latency and
** 198 us of untraced CPU time (and the 2 us call), but the CPU paces the
** launches: without the latency every GEMM starts 300 us earlier and the
** gaps stay, without the untraced time the launches run ahead and the
** GEMMs go back to back.  So untraced saves the gaps and launch
** saves nothing: no finding, whatever its share of the idle time. */
static void idle_causes_saved_by_replay(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 20; i++) {
		size_t k = gemm(&f, "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn", GP_DT_FP16,
				8192, 8192, 2048, 500000, 1000000);
		fx_launch(&f, k, 300000, 2000);
	}
	advise(&f, &out, "none");
	show(&out);
	const struct gp_finding *cpu = find(&out, "untraced"), *cover = find(&out, "coverage");
	assert_null(find(&out, "launch"));
	assert_null(find(&out, "sync"));
	assert_null(find(&out, "cpu_op"));
	assert_non_null(cpu);
	assert_true(cpu->total_ns == 19 * 198000.0);
	assert_non_null(strstr(cpu->title, "3.762 ms"));
	assert_true(within(cpu->alone_ns, 19 * 500000.0, 0.01) && cpu->alone_ns <= 19 * 500000.0);
	/* the untraced share of the idle time is told first */
	assert_non_null(cover);
	assert_ptr_equal(cover, &out.v.v[0]);
	assert_non_null(strstr(cover->title, "40% of idle time has no known cause"));
	assert_true(stake_sum(&out) <= out.span_ns);
	gp_findings_free(&out);
	fx_free(&f);
}

/* Two fp32 GEMMs of 10 ms on two streams at the same time, then a third
** alone, all below their roofline on a V100: a saving is span, not kernel
** time (the overlapping pair speeds up together), and fp32-gemm and
** below-roofline change the same kernels: the one ranked second saves
** beyond the first only what its own change adds, never more than the
** 20 ms span together. */
static void concurrent_kernels_share_savings(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	fx_device(&f, "Tesla V100-SXM2-16GB", 80);
	for (int i = 0; i < 3; i++)
		gemm(&f, "volta_sgemm_128x64_tn", GP_DT_FP32, 1024, 1024, 1024, 0, 10000000);
	f.t.kernels.v[1].start = f.t.kernels.v[0].start;     /* 0 and 1 overlap on two streams */
	f.t.kernels.v[1].end = f.t.kernels.v[0].end;
	f.t.kernels.v[1].stream = 8;
	f.t.kernels.v[2].start = f.t.kernels.v[0].end;
	f.t.kernels.v[2].end = f.t.kernels.v[2].start + 10000000;
	advise(&f, &out, "none");
	show(&out);
	const struct gp_finding *x = find(&out, "fp32-gemm"), *roof = find(&out, "below-roofline");
	assert_non_null(x);
	assert_non_null(roof);
	assert_true(out.span_ns == 20e6);
	assert_true(x->total_ns == 30e6);                  /* kernel time */
	assert_true(x->alone_ns > 0 && x->alone_ns < 20e6);
	assert_true(roof->alone_ns > 0 && roof->alone_ns < 20e6);
	const struct gp_finding *second = &out.v.v[0] == x ? roof : x;
	assert_true(second->overlap_ns > 0);
	assert_non_null(strstr(second->overlaps, second == x ? "below-roofline" : "fp32-gemm"));
	assert_true(near(second->ns + second->overlap_ns, second->alone_ns));
	assert_true(stake_sum(&out) <= out.span_ns);
	gp_findings_free(&out);
	fx_free(&f);
}

/* Rows of small elementwise and norm kernels (add, mul, layer_norm, and a
** RoPE kernel with no op) on one stream: fusion, all but the longest of
** each row at stake.  The same kernels one by one between GEMMs, or long
** ones, are no row of small ops. */
static void rows_of_small_ops_fuse(void **state)
{
	for (int variant = 0; variant < 3; variant++) {
		struct fx f;
		struct gp_findings out;
		fx_init(&f);
		fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
		gp_ns d = variant == 2 ? 200000 : 8000;            /* 8 us small, 200 us not */
		for (int i = 0; i < 20; i++) {
			if (variant == 1 || i % 5 == 0)
				gemm(&f, "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn", GP_DT_FP16,
				     1024, 1024, 1024, 1000, 20000);
			fx_kernel_at(&f, "vectorized_elementwise_kernel", 1000, d, "Tensor", "add", GP_DIR_FPROP, 0);
			fx_tensor(&f, GP_DT_FP16, 1, D(1 << 20));
			fx_tensor(&f, GP_DT_FP16, 1, D(1 << 20));
			if (variant == 1)
				continue;
			fx_kernel_at(&f, "vectorized_elementwise_kernel", 1000, d, "Tensor", "mul", GP_DIR_FPROP, 0);
			fx_tensor(&f, GP_DT_FP16, 1, D(1 << 20));
			fx_tensor(&f, GP_DT_FP16, 1, D(1 << 20));
			fx_kernel_at(&f, "vectorized_layer_norm_kernel", 1000, d + 1000, "torch.nn.functional",
				     "layer_norm", GP_DIR_FPROP, 0);
			fx_tensor(&f, GP_DT_FP16, 2, D(1024), D(1024));
			fx_kernel_at(&f, "rotary_embedding_kernel", 1000, d, NULL, NULL, GP_DIR_NA, 0);
		}
		const struct gp_finding *x = advise(&f, &out, "fusion");
		if (variant) {
			assert_null(x);
		} else {
			assert_non_null(x);
			assert_int_equal(x->count, 80);    /* the RoPE kernels (no op) too */
			assert_true(x->total_ns == 20 * (3 * 8000.0 + 9000));
			/* 4 rows of 20 kernels between the GEMMs; each but its
			** longest (one of its five 9 us layer_norms): 15 x 8 us + 4 x 9 us */
			assert_true(near(x->ns + x->overlap_ns, 4 * (15 * 8000.0 + 4 * 9000)));
			assert_non_null(strstr(x->title, "80 small elementwise/norm/RoPE/copy kernels in rows"));
			assert_non_null(strstr(x->evidence, "4 rows of 3 or more kernels under 50 us back to back, the longest 20"));
			assert_non_null(strstr(x->change, "torch.compile"));
		}
		gp_findings_free(&out);
		fx_free(&f);
	}
}

/* Adds one kernel of op (fp16 [8,512,512] tensors) for the attention
** tests. */
static void attn_op(struct fx *f, const char *kname, const char *op)
{
	fx_kernel_at(f, kname, 2000, 100000, "torch.nn.functional", op, GP_DIR_FPROP, 0);
	fx_tensor(f, GP_DT_FP16, 3, D(8), D(512), D(512));
	fx_tensor(f, GP_DT_FP16, 3, D(8), D(512), D(64));
}

/* Unfused attention: baddbmm + softmax + dropout + bmm, and bmm + div +
** softmax + bmm, per layer: SDPA, their softmax/scale/dropout kernels at
** stake.  bmm + bmm without softmax, or with log_softmax, is none; so is
** a path whose output GEMM is in the next layer. */
static void unfused_attention_paths(void **state)
{
	for (int variant = 0; variant < 4; variant++) {
		struct fx f;
		struct gp_findings out;
		fx_init(&f);
		fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
		for (int layer = 0; layer < 4; layer++) {
			attn_op(&f, "ampere_fp16_s16816gemm_fp16_128x128_ldg8_stages_32x5_nn", "linear");
			attn_op(&f, "ampere_fp16_s16816gemm_fp16_128x128_ldg8_stages_32x5_tn",
				layer % 2 ? "bmm" : "baddbmm");
			if (layer % 2)
				attn_op(&f, "vectorized_elementwise_kernel", "div");
			if (variant == 0 || variant == 3)
				attn_op(&f, "softmax_warp_forward", "_softmax");
			else if (variant == 2)
				attn_op(&f, "softmax_warp_forward", "_log_softmax");
			if (!(layer % 2))
				attn_op(&f, "fused_dropout_kernel", "native_dropout");
			attn_op(&f, "ampere_fp16_s16816gemm_fp16_128x128_ldg8_stages_32x5_nn", "bmm");
		}
		for (size_t k = 0; variant == 3 && k < f.attrs.n; k++) {
			char layer[32];      /* each path's last GEMM in the next layer */
			snprintf(layer, sizeof(layer), "layer%zu", (k + 1) / 5);
			f.attrs.v[k].layer = gp_intern(&f.t, layer);
		}
		const struct gp_finding *x = advise(&f, &out, "unfused-attention");
		if (variant) {
			assert_null(x);
		} else {
			assert_non_null(x);
			assert_int_equal(x->count, 4);
			assert_true(near(x->ns + x->overlap_ns, 8 * 100000.0));  /* 4 softmax, 2 div, 2 dropout */
			assert_true(x->total_ns == 16 * 100000.0);
			assert_non_null(strstr(x->title, "4 unfused attention paths (baddbmm + softmax + bmm)"));
			assert_non_null(strstr(x->change, "scaled_dot_product_attention"));
		}
		gp_findings_free(&out);
		fx_free(&f);
	}
}

/* fp32 GEMMs (sgemm kernels of op mm) without shapes: on an A100, TF32
** and "record shapes"; on a Pascal GPU (no tensor cores) nothing; with
** shapes they are fp32-gemm's. */
static void fp32_gemms_without_shapes(void **state)
{
	const char *gpus[] = {"NVIDIA A100-SXM4-40GB", "Quadro GP100", "NVIDIA A100-SXM4-40GB"};
	for (int g = 0; g < 3; g++) {
		struct fx f;
		struct gp_findings out;
		fx_init(&f);
		fx_device(&f, gpus[g], g == 1 ? 56 : 108);
		for (int i = 0; i < 10; i++) {
			fx_kernel_at(&f, "ampere_sgemm_128x64_tn", 2000, 1000000, "Tensor", "mm", GP_DIR_FPROP, 0);
			if (g == 2) {
				fx_tensor(&f, GP_DT_FP32, 2, D(4096), D(4096));
				fx_tensor(&f, GP_DT_FP32, 2, D(4096), D(4096));
			}
		}
		const struct gp_finding *x = advise(&f, &out, "fp32-unshaped");
		if (g == 0) {
			assert_non_null(x);
			assert_int_equal(x->count, 10);
			assert_true(x->ns == 5e6);
			assert_non_null(strstr(x->change, "allow_tf32"));
			assert_non_null(strstr(x->change, "record_shapes=True"));
			assert_non_null(strstr(x->evidence, "no shapes"));
		} else {
			assert_null(x);
		}
		assert_true((find(&out, "fp32-gemm") != NULL) == (g == 2));
		gp_findings_free(&out);
		fx_free(&f);
	}
}

/* sync-memcpy reads the copy's async flag and memory kinds only: a pinned
** copy flagged async is not in it, the same copy not async is.  Its call
** holds the thread until the copy is done, then 2 ms of CPU work before
** the next GEMM's launch: issued without waiting, the copy overlaps that
** work and the GEMM starts the copy's 1 ms earlier. */
static void sync_memcpy_reads_the_async_flag(void **state)
{
	for (int async = 0; async < 2; async++) {
		struct fx f;
		struct gp_findings out;
		fx_init(&f);
		fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
		gemm(&f, "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn", GP_DT_FP16, 8192, 8192, 8192,
		     2000, 4000000);
		struct gp_memcpy *m = gp_vec_push(f.t.memcpys);
		m->start = f.now;
		m->end = m->start + 1000000;
		m->bytes = 1 << 20;
		m->copy_kind = GP_COPY_DTOH;
		m->src_kind = GP_MEM_DEVICE;
		m->dst_kind = GP_MEM_PINNED;
		m->async = async;
		m->stream = 7;
		m->corr = 1000;
		size_t c = fx_call(&f, "cudaMemcpy", m->start - 2000, m->end + 3000);
		f.t.apis.v[c].corr = m->corr;
		f.now = m->end + 3000 + 2000000;
		size_t k = gemm(&f, "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn", GP_DT_FP16, 8192,
				8192, 8192, 6000, 4000000);
		fx_launch(&f, k, 5000, 1000);
		const struct gp_finding *x = advise(&f, &out, "sync-memcpy");
		show(&out);
		assert_true((x != NULL) == !async);
		assert_true(!x || within(x->alone_ns, 1e6, 0.01));
		gp_findings_free(&out);
		fx_free(&f);
	}
}

/* No kernels, no attrs: no findings, no crash. */
static void empty_trace(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	advise(&f, &out, "none");
	assert_int_equal(out.v.n, 0);
	gp_findings_free(&out);
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_trace_has_no_findings),
		cmocka_unit_test(tc_eligible_not_on_tc),
		cmocka_unit_test(fp32_gemms),
		cmocka_unit_test(far_below_roofline),
		cmocka_unit_test(fused_attention_below_roofline),
		cmocka_unit_test(launch_bound_tiny_kernels),
		cmocka_unit_test(gaps_syncs_copies_small_grid),
		cmocka_unit_test(small_copies_are_syncs),
		cmocka_unit_test(event_waits_are_a_notice),
		cmocka_unit_test(comm_kernels_are_not_small_grids),
		cmocka_unit_test(idle_causes_saved_by_replay),
		cmocka_unit_test(concurrent_kernels_share_savings),
		cmocka_unit_test(rows_of_small_ops_fuse),
		cmocka_unit_test(unfused_attention_paths),
		cmocka_unit_test(fp32_gemms_without_shapes),
		cmocka_unit_test(sync_memcpy_reads_the_async_flag),
		cmocka_unit_test(empty_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
