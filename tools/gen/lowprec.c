/*
** `gpuprof-gen --lowprec GPU`: a Kineto trace of low-precision GEMMs on
** one GPU, the truth known by construction.  Each op runs on the main
** thread, launches one kernel on the trace's one stream, and that kernel lasts exactly
** what its FLOPs take at a chosen fraction (eff) of the datasheet peak of
** the element type it computes in (docs/op-model.md, "GPU peaks"); every
** one is compute-bound (its bytes at the GPU's bandwidth take less).
**
**   h100 (H100 SXM: FP8 1979, BF16 989.5 TFLOP/s dense)
**     aten::_scaled_mm          fp8 [4096,8192] x [8192,4096], out bf16   eff 0.70 of FP8
**     aten::_scaled_grouped_mm  fp8 [16384,4096] x [8,4096,2048], offs [8] eff 0.60 of FP8
**     aten::_grouped_mm         bf16 [16384,4096] x [8,4096,2048], offs [8] eff 0.80 of BF16
**   b200 (B200: FP4 9000 TFLOP/s dense)
**     aten::_scaled_mm          float4_e2m1fn_x2 [8192,4096] x [4096,8192] (K = 8192), out bf16
**                                                                        eff 0.50 of FP4
** FLOPs: 2 M N K (grouped: 2 M_total N K), 2.75e11 on the H100, 1.10e12
** on the B200.
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"

#define US 1000LL

/* One op of a scenario and its kernel. */
struct lp_op {
	const char *name;
	const char *dims, *types, *concrete;    /* Kineto's Input Dims, Input type, Concrete Inputs */
	int kd;
	double flops, peak_tflops, eff;
};

static const struct lp_op h100_ops[] = {
	{"aten::_scaled_mm", "[[4096, 8192], [8192, 4096], [], [], [], [], [], []]",
	 "[\"c10::Float8_e4m3fn\", \"c10::Float8_e4m3fn\", \"float\", \"float\", \"\", \"\", \"Scalar\", \"Scalar\"]",
	 "[\"\", \"\", \"\", \"\", \"\", \"\", \"15\", \"False\"]", KD_FP8_GEMM, 2.0 * 4096 * 4096 * 8192, 1979, 0.70},
	{"aten::_scaled_grouped_mm", "[[16384, 4096], [8, 4096, 2048], [16384], [8, 2048], [8], [], [], [], []]",
	 "[\"c10::Float8_e4m3fn\", \"c10::Float8_e4m3fn\", \"float\", \"float\", \"int\", \"\", \"\", \"Scalar\", \"Scalar\"]",
	 "[\"\", \"\", \"\", \"\", \"\", \"\", \"\", \"15\", \"False\"]", KD_FP8_GROUPED, 2.0 * 16384 * 2048 * 4096, 1979,
	 0.60},
	{"aten::_grouped_mm", "[[16384, 4096], [8, 4096, 2048], [8], [], []]",
	 "[\"c10::BFloat16\", \"c10::BFloat16\", \"int\", \"\", \"\"]", "[\"\", \"\", \"\", \"\", \"\"]", KD_BF16_GROUPED,
	 2.0 * 16384 * 2048 * 4096, 989.5, 0.80},
	{NULL, NULL, NULL, NULL, 0, 0, 0, 0},
};

static const struct lp_op b200_ops[] = {
	{"aten::_scaled_mm", "[[8192, 4096], [4096, 8192], [8192, 512], [512, 8192], [], [], [], []]",
	 "[\"c10::Float4_e2m1fn_x2\", \"c10::Float4_e2m1fn_x2\", \"c10::Float8_e4m3fn\", \"c10::Float8_e4m3fn\", \"\", "
	 "\"\", \"Scalar\", \"Scalar\"]",
	 "[\"\", \"\", \"\", \"\", \"\", \"\", \"15\", \"False\"]", KD_FP4_GEMM, 2.0 * 8192 * 8192 * 8192, 9000, 0.50},
	{NULL, NULL, NULL, NULL, 0, 0, 0, 0},
};

int gen_lowprec_run(const struct gen_writer *w, const char *path, const char *gpu, bool force, gp_error *err)
{
	const struct lp_op *ops = strcmp(gpu, "h100") == 0 ? h100_ops : strcmp(gpu, "b200") == 0 ? b200_ops : NULL;
	struct gen_opts o = {.seed = 1, .streams = 1, .gpu = gpu};
	struct gen_sink sink;
	int64_t t = 1000000000LL, gpu_free = 0;
	uint64_t corr = 100, op_id = 1000;

	if (!ops)
		return gp_err(err, GP_ERR_USAGE, "--lowprec wants h100 or b200, not '%s'", gpu);
	if (w != &gen_writer_kineto)
		return gp_err(err, GP_ERR_USAGE, "--lowprec writes kineto traces");
	if (w->open(path, force, &o, &sink, err))
		return err->status;
	for (const struct lp_op *p = ops; p->name; p++, corr++, op_id++) {
		/* the kernel's time: its FLOPs at eff of its type's peak */
		int64_t dur = (int64_t)(p->flops / (p->peak_tflops * 1e3 * p->eff) + 0.5);
		struct gen_range r = {t, t + 30 * US, GEN_THR_MAIN, GEN_R_OP, p->name, p->name, -1, op_id, false,
				      p->dims, p->types, NULL};
		char more[256];
		snprintf(more, sizeof(more), "\"Concrete Inputs\": %s", p->concrete);
		r.more_args = more;
		sink.range(sink.ctx, &r);
		struct gen_api a = {t + 10 * US, t + 15 * US, GEN_THR_MAIN, GEN_API_LAUNCH, corr, op_id, NULL, 0,
				    {0}, {0}};
		sink.api(sink.ctx, &a);
		int64_t start = t + 20 * US > gpu_free ? t + 20 * US : gpu_free;
		struct gen_kernel k = {start, start + dur, p->kd, gen_stream_id(0), corr, op_id, {132, 1, 1}, {384, 1, 1}, 0, 0};
		sink.kernel(sink.ctx, &k);
		gpu_free = start + dur + 10 * US;
		t += 40 * US;
	}
	return w->finish(&sink, err);
}
