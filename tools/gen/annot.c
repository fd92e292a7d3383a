/*
** `gpuprof-gen --annot MODE`: traces whose layers, passes and serving
** steps come from user annotations alone, the truth known by construction.
** Every kernel lasts a fixed time and runs on one stream, back to back
** inside each annotation; launches sit on the main thread.
**
**   passes (kineto, nsys): two iterations (ProfilerStep#N / NVTX ranges),
**     each inside "block_0", of (annotation: kernels, us)
**       attn(F): gemm 40, softmax 10        mlp(F): gemm 30
**       dispatch(fwd): nccl 20              mlp(B): gemm 30, gelu_bwd 5
**       mlp(W): gemm 25, and an aten::mm op inside it (Kineto) whose
**               kernel (gemm_nt 15) keeps its op's pass, fprop
**       attn(B): gemm 45                    combine(B): nccl 12
**       router_B: add 6 (no pass)           optimizer: adam 8 (no pass)
**     No kernel but mlp(W)'s gemm_nt has an op.  Per iteration: fprop
**     115 us, bprop 92, wgrad 25, no pass 14.  nsys (no op anywhere:
**     the innermost range names the op, block_0 is the layer): mlp(W)'s
**     gemm_nt is wgrad too (40), and the 14 us without a pass are fprop,
**     PyProf's default (114).
**   serving (kineto): vLLM step markers "execute_context_P(T)_generation_D(U)"
**     (P prefill requests of T tokens, D decode requests of U tokens):
**       step 0      prefill 4 requests, 2048 tokens: 2 kernels of 400 us
**       steps 1-8   decode 4 requests, 4 tokens: step 1 one kernel of
**                   300 us (warm-up), the others 2 kernels of 50 us; step
**                   5 also holds an SGLang "step[DECODE bs=4]" marker
**                   inside its own (the same step)
**       step 9      mixed 1 prefill (512 tokens) + 3 decode (3 tokens):
**                   one kernel of 250 us
**     Steps 100 us apart on the GPU.
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"

#define US 1000LL

/* The writer's clock: the CPU time of the next event and when the GPU is
** free, plus the correlation and External ids handed out. */
struct clock {
	const struct gen_sink *sink;
	int64_t cpu, gpu;
	uint64_t corr, op_id;
};

/* Launches kernel kd of dur ns (its op: ext, 0 = none) at the CPU time,
** run when the GPU is free. */
static void launch(struct clock *c, int kd, int64_t dur, uint64_t ext)
{
	struct gen_api a = {c->cpu, c->cpu + 5 * US, GEN_THR_MAIN, GEN_API_LAUNCH, ++c->corr, ext, NULL, 0, {0}, {0}};
	int64_t start = c->cpu + 10 * US > c->gpu ? c->cpu + 10 * US : c->gpu;
	struct gen_kernel k = {start, start + dur, kd, gen_stream_id(0), c->corr, ext, {132, 1, 1}, {256, 1, 1}, 0, 0};

	c->sink->api(c->sink->ctx, &a);
	c->sink->kernel(c->sink->ctx, &k);
	c->gpu = start + dur;
	c->cpu += 6 * US;
}

/* A user annotation (record_function / NVTX range) from start to now. */
static void annotation(struct clock *c, enum gen_range_kind kind, const char *text, int64_t start)
{
	struct gen_range r = {start, c->cpu, GEN_THR_MAIN, kind, text, text, -1, 0, false, NULL, NULL, NULL};

	c->sink->range(c->sink->ctx, &r);
	c->cpu += 1 * US;
}

struct pass_part {
	const char *annot;
	int kd[2];
	int64_t us[2];
};

static const struct pass_part pass_parts[] = {
	{"attn(F)", {KD_GEMM_TN, KD_SOFTMAX}, {40, 10}},  {"mlp(F)", {KD_GEMM_TN, -1}, {30, 0}},
	{"dispatch(fwd)", {KD_NCCL, -1}, {20, 0}},        {"mlp(B)", {KD_GEMM_NN, KD_GELU_BWD}, {30, 5}},
	{"mlp(W)", {KD_GEMM_NT, -1}, {25, 0}},            {"attn(B)", {KD_GEMM_NN, -1}, {45, 0}},
	{"combine(B)", {KD_NCCL, -1}, {12, 0}},           {"router_B", {KD_ADD, -1}, {6, 0}},
	{NULL, {-1, -1}, {0, 0}},
};

/* The passes scenario; kineto: the op inside mlp(W). */
static void run_passes(struct clock *c, bool kineto)
{
	for (int it = 0; it < 2; it++) {
		char step[32];
		int64_t s0 = c->cpu, b0;
		snprintf(step, sizeof(step), kineto ? "ProfilerStep#%d" : "iteration %d", it);
		c->cpu += 2 * US;
		b0 = c->cpu;
		c->cpu += 1 * US;
		for (const struct pass_part *p = pass_parts; p->annot; p++) {
			int64_t a0 = c->cpu;
			c->cpu += 1 * US;
			for (int i = 0; i < 2 && p->kd[i] >= 0; i++)
				launch(c, p->kd[i], p->us[i] * US, 0);
			if (strcmp(p->annot, "mlp(W)") == 0) {
				/* an op the trace knows: Kineto's cpu_op; in nsys a
				** kernel without an op marker (no emit_nvtx) */
				uint64_t id = ++c->op_id;
				int64_t o0 = c->cpu;
				c->cpu += 1 * US;
				launch(c, KD_GEMM_NT, 15 * US, kineto ? id : 0);
				if (kineto) {
					struct gen_range r = {o0, c->cpu, GEN_THR_MAIN, GEN_R_OP, "aten::mm", "aten::mm",
							      -1, id, false, "[[512, 1024], [1024, 1024]]",
							      "[\"c10::BFloat16\", \"c10::BFloat16\"]", NULL};
					c->sink->range(c->sink->ctx, &r);
				}
				c->cpu += 1 * US;
			}
			annotation(c, GEN_R_ANNOT, p->annot, a0);
		}
		annotation(c, GEN_R_ANNOT, "block_0", b0);
		int64_t o0 = c->cpu;
		c->cpu += 1 * US;
		launch(c, KD_ADAM, 8 * US, 0);
		annotation(c, GEN_R_ANNOT, "optimizer", o0);
		annotation(c, GEN_R_ITER, step, s0);
		c->cpu = (c->cpu > c->gpu ? c->cpu : c->gpu) + 50 * US;
	}
}

/* The serving scenario: steps as the header lists them. */
static void run_serving(struct clock *c)
{
	for (int s = 0; s < 10; s++) {
		char text[96];
		int n = s == 0 ? 2 : s == 1 || s == 9 ? 1 : 2;
		int64_t us = s == 0 ? 400 : s == 1 ? 300 : s == 9 ? 250 : 50, s0 = c->cpu, d0 = 0;
		if (s == 0)
			snprintf(text, sizeof(text), "execute_context_4(2048)_generation_0(0)");
		else if (s == 9)
			snprintf(text, sizeof(text), "execute_context_1(512)_generation_3(3)");
		else
			snprintf(text, sizeof(text), "execute_context_0(0)_generation_4(4)");
		c->cpu += 2 * US;
		if (s == 5) {
			d0 = c->cpu;
			c->cpu += 1 * US;
		}
		for (int i = 0; i < n; i++)
			launch(c, i ? KD_SOFTMAX : KD_GEMM_TN, us * US, 0);
		if (s == 5)
			annotation(c, GEN_R_ANNOT, "step[DECODE bs=4]", d0);
		annotation(c, GEN_R_ANNOT, text, s0);
		/* the next step's launches: 100 us after this one's GPU work */
		c->cpu = c->gpu + 100 * US - 10 * US;
		c->gpu += 100 * US;
	}
}

int gen_annot_run(const struct gen_writer *w, const char *path, const char *mode, bool force, gp_error *err)
{
	struct gen_opts o = {.seed = 1, .streams = 1};
	struct gen_sink sink;
	struct clock c = {&sink, 1000000000LL, 0, 100, 1000};
	bool passes = strcmp(mode, "passes") == 0, serving = strcmp(mode, "serving") == 0;

	if (!passes && !serving)
		return gp_err(err, GP_ERR_USAGE, "--annot wants passes or serving, not '%s'", mode);
	if (w != &gen_writer_kineto && (serving || w != &gen_writer_nsys))
		return gp_err(err, GP_ERR_USAGE, "--annot %s writes %s traces", mode, serving ? "kineto" : "kineto or nsys");
	if (w->open(path, force, &o, &sink, err))
		return err->status;
	if (passes)
		run_passes(&c, w == &gen_writer_kineto);
	else
		run_serving(&c);
	return w->finish(&sink, err);
}
