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

/* Runs the op model, the time breakdown (gaps with their causes, the 10 us
** short-gap threshold) and advise on f, as gpuprof advise does; returns the
** finding of kind (NULL if absent), which lives in *out. */
static const struct gp_finding *advise(struct fx *f, struct gp_findings *out, const char *kind)
{
	struct gp_breakdown_opts bo = {.short_gap_ns = 10000, .gap_causes = true};
	gp_breakdown b;
	gp_error err = {0};

	fx_done(f);
	fx_ops(f, NULL);
	assert_int_equal(gp_breakdown_run(&f->t, &bo, &b, &err), GP_OK);
	gp_advise(&f->t, &f->ops, &b, out);
	gp_breakdown_free(&b);
	return find(out, kind);
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
	assert_non_null(strstr(x->evidence, "linear 10.00 ms in 10 kernels"));
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

/* A fused attention kernel far below its roofline is not told to fuse:
** it already is. */
static void fused_attention_below_roofline(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 5; i++) {
		fx_kernel_at(&f, "flash_fwd_kernel", 2000, 2000000000, "torch.nn.functional",
			     "scaled_dot_product_attention", GP_DIR_FPROP, 0);
		for (int j = 0; j < 3; j++)
			fx_tensor(&f, GP_DT_BF16, 4, D(8), D(16), D(1024), D(128));
	}
	const struct gp_finding *x = advise(&f, &out, "below-roofline");
	assert_non_null(x);
	assert_int_equal(x->count, 5);
	assert_non_null(strstr(x->change, "Already a fused attention kernel"));
	assert_null(strstr(x->change, "fuse it"));
	gp_findings_free(&out);
	fx_free(&f);
}

/* 500 kernels of 3 us with 20 us launch gaps between them. */
static void launch_bound_tiny_kernels(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 500; i++) {
		fx_kernel_at(&f, "vectorized_elementwise_kernel", 20000, 3000, "torch.nn.functional", "relu", GP_DIR_FPROP, 0);
		fx_tensor(&f, GP_DT_FP32, 1, D(1024));
	}
	const struct gp_finding *x = advise(&f, &out, "tiny-kernels");
	assert_non_null(x);
	assert_int_equal(x->count, 500);
	assert_true(x->ns == 499 * 20000.0);
	assert_null(find(&out, "idle-gaps"));           /* 20 us gaps are launch gaps */
	gp_findings_free(&out);
	fx_free(&f);
}

/* 5 ms idle gaps, each inside a cudaStreamSynchronize; pageable and
** synchronous copies; a long kernel on 4 blocks.  The breakdown puts the
** gaps' time on its causes: sync-calls and pageable-memcpy claim it, and
** what no cause explains (11 us a gap, 1 ms before the pinned copy) is
** under 1% of the span: no idle-gaps finding. */
static void gaps_syncs_copies_small_grid(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 10; i++) {
		size_t k = gemm(&f, "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn", GP_DT_FP16, 8192,
				8192, 8192, 5000000, 4000000);
		struct gp_api *a = gp_vec_push(f.t.apis);
		a->start = f.t.kernels.v[k].start - 4990000;
		a->end = f.t.kernels.v[k].start - 1000;
		a->def = gp_api_def_add(&f.t, &(struct gp_api_def){
			.name = gp_intern(&f.t, "cudaStreamSynchronize"), .cbid = -1});
	}
	size_t k = fx_kernel_at(&f, "reduce_kernel", 1000, 30000000, "Tensor", "sum", GP_DIR_FPROP, 0);
	fx_grid(&f, k, 4);
	fx_tensor(&f, GP_DT_FP32, 1, D(1000));
	for (int i = 0; i < 3; i++) {
		struct gp_memcpy *m = gp_vec_push(f.t.memcpys);
		m->start = f.now + 1000 + i * 2000000;
		m->end = m->start + 1000000;
		m->bytes = 1 << 20;
		m->copy_kind = GP_COPY_HTOD;
		m->src_kind = i < 2 ? GP_MEM_PAGEABLE : GP_MEM_PINNED;
		m->dst_kind = GP_MEM_DEVICE;
		m->async = false;
	}
	const struct gp_finding *x = advise(&f, &out, "sync-calls");
	assert_non_null(x);
	assert_int_equal(x->count, 9);     /* the gaps between the GEMMs, 4.989 ms of each */
	assert_true(x->ns == 9 * 4989000.0);
	assert_non_null(strstr(x->evidence, "cudaStreamSynchronize"));
	assert_null(find(&out, "idle-gaps"));
	x = find(&out, "pageable-memcpy");
	assert_non_null(x);
	assert_int_equal(x->count, 2);
	assert_true(x->total_ns == 2e6 + 1e6);   /* the two copies and the gap before the second */
	x = find(&out, "sync-memcpy");
	assert_non_null(x);
	assert_int_equal(x->count, 1);
	x = find(&out, "small-grid");
	assert_non_null(x);
	assert_non_null(strstr(x->evidence, "4 blocks"));
	assert_non_null(strstr(x->title, "108 SMs"));
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

/* 300 tiny kernels with 500 us gaps: each gap is both launch overhead
** (tiny-kernels, < 1 ms) and idle time (idle-gaps, >= 100 us).  The gaps
** are counted once, in the first finding; the other states the overlap. */
static void idle_and_tiny_share_gaps(void **state)
{
	struct fx f;
	struct gp_findings out;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 300; i++) {
		fx_kernel_at(&f, "vectorized_elementwise_kernel", 500000, 3000, "torch.nn.functional", "relu",
			     GP_DIR_FPROP, 0);
		fx_tensor(&f, GP_DT_FP32, 1, D(1024));
	}
	advise(&f, &out, "none");
	const struct gp_finding *idle = find(&out, "idle-gaps"), *tiny = find(&out, "tiny-kernels");
	assert_non_null(idle);
	assert_non_null(tiny);
	assert_true(idle->total_ns == 299 * 500000.0);     /* the facts stay whole */
	assert_true(idle->ns + tiny->ns == 299 * 500000.0);  /* the time at stake once */
	const struct gp_finding *second = idle->ns >= tiny->ns ? tiny : idle;
	assert_true(second->ns == 0);
	assert_true(second->overlap_ns == 299 * 500000.0);
	assert_string_equal(second->overlaps, second == tiny ? "idle-gaps" : "tiny-kernels");
	assert_true(stake_sum(&out) <= out.span_ns);
	assert_true(out.capacity_ns == out.span_ns);
	gp_findings_free(&out);
	fx_free(&f);
}

/* 20 fp16 GEMMs of 1 ms after gaps of 500 us, each gap split by the time
** breakdown into 300 us waiting for the host's launch and 200 us of no
** known cause: host-launch takes the first part of every gap, idle-gaps
** the rest, neither shares anything with the other, and together they put
** each idle ns at stake once. */
static void idle_causes_split_gaps(void **state)
{
	struct fx f;
	struct gp_findings out;
	struct gp_bd_gap_cause gaps[19];
	struct gp_bd_window all = {.device = 0, .iter = -1};
	gp_breakdown b = {.short_gap_ns = 10000, .win = &all, .nwin = 1, .gap_causes = gaps, .ngap_causes = 19};
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-40GB", 108);
	for (int i = 0; i < 20; i++)
		gemm(&f, "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn", GP_DT_FP16, 8192, 8192,
		     2048, 500000, 1000000);
	fx_done(&f);
	for (int i = 0; i < 19; i++) {
		memset(&gaps[i], 0, sizeof(gaps[i]));
		gaps[i].device = gp_kernel_device(&f.t, &f.t.kernels.v[i]);
		gaps[i].start = f.t.kernels.v[i].end;
		gaps[i].end = f.t.kernels.v[i + 1].start;
		gaps[i].idle[GP_IDLE_HOST_LAUNCH] = 300000;
		gaps[i].idle[GP_IDLE_OTHER] = 200000;
		gaps[i].next = i + 1;
	}
	all.start = f.t.kernels.v[0].start;
	all.end = f.t.kernels.v[19].end;
	all.by_mask[0] = 19 * 500000;
	all.idle[GP_IDLE_HOST_LAUNCH] = 19 * 300000;
	all.idle[GP_IDLE_OTHER] = 19 * 200000;
	all.by_mask[GP_BD_COMPUTE] = all.end - all.start - all.by_mask[0];
	fx_ops(&f, NULL);
	gp_advise(&f.t, &f.ops, &b, &out);
	const struct gp_finding *host = find(&out, "host-launch"), *idle = find(&out, "idle-gaps");
	assert_non_null(host);
	assert_non_null(idle);
	assert_null(find(&out, "short-gaps"));
	assert_null(find(&out, "sync-calls"));
	assert_true(host->ns == 19 * 300000.0 && host->overlap_ns == 0);
	assert_true(idle->ns == 19 * 200000.0 && idle->overlap_ns == 0);
	assert_true(idle->total_ns == 19 * 500000.0);     /* the facts stay whole */
	assert_non_null(strstr(host->title, "the GPU waited for the host to launch work 5.70 ms"));
	assert_non_null(strstr(host->evidence, "the largest gaps: 300.0 us"));
	assert_true(stake_sum(&out) <= out.span_ns);
	gp_findings_free(&out);
	fx_free(&f);
}

/* Two fp32 GEMMs of 10 ms on two streams at the same time, then a third
** alone, all below their roofline on a V100: time at stake is wall time
** (concurrent kernels split it), and fp32-gemm and below-roofline share the
** kernels: together never more than the 20 ms span. */
static void concurrent_kernels_split_wall_time(void **state)
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
	const struct gp_finding *x = find(&out, "fp32-gemm"), *roof = find(&out, "below-roofline");
	assert_non_null(x);
	assert_non_null(roof);
	assert_true(out.span_ns == 20e6);
	assert_true(x->total_ns == 30e6);                  /* kernel time */
	assert_true(x->ns + x->overlap_ns == 10e6);        /* half of 20 ms of wall time */
	assert_true(roof->ns + x->ns <= out.span_ns);
	assert_true(roof->overlap_ns > 0 || x->overlap_ns > 0);
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
** copy flagged async is not in it, the same copy not async is. */
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
		m->copy_kind = GP_COPY_DTOH;
		m->src_kind = GP_MEM_DEVICE;
		m->dst_kind = GP_MEM_PINNED;
		m->async = async;
		const struct gp_finding *x = advise(&f, &out, "sync-memcpy");
		assert_true((x != NULL) == !async);
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
		cmocka_unit_test(comm_kernels_are_not_small_grids),
		cmocka_unit_test(idle_and_tiny_share_gaps),
		cmocka_unit_test(idle_causes_split_gaps),
		cmocka_unit_test(concurrent_kernels_split_wall_time),
		cmocka_unit_test(rows_of_small_ops_fuse),
		cmocka_unit_test(unfused_attention_paths),
		cmocka_unit_test(fp32_gemms_without_shapes),
		cmocka_unit_test(sync_memcpy_reads_the_async_flag),
		cmocka_unit_test(empty_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
