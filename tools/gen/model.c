/*
** The synthetic workload behind gpuprof-gen: a transformer-style encoder
** (4 blocks of Linear-GELU-Dropout-Linear-residual-LayerNorm) trained with
** AdamW, profiled with PyProf + emit_nvtx(record_shapes=True).  Per
** iteration: an "iteration N" range, the batch copied HtoD (on a copy stream
** when there are 3+ streams), forward ops with `layer:` ranges and PyProf
** dict markers on the main thread, backward ops with the forward's sequence
** numbers on the autograd thread, gradient all-reduce on a second stream,
** the optimizer step, zero_grad memsets, and loss.item() (DtoH + stream
** sync).  Times come from a simple model: an API call takes a few us, a
** kernel starts after the launch latency once its stream is free, the CPU
** runs ahead of the GPU until it synchronizes, data loading leaves the GPU
** idle.  Everything is drawn from a splitmix64 stream seeded by --seed, so
** one seed always gives the same events.
*/
#include <stdio.h>
#include <string.h>

#include "gen.h"

/* Kernel catalog (the KD_* indices are in gen.h).  Mangled names come
** from g++ on declarations that mirror PyTorch's; demangled names are
** written the way nsys prints them. */
const struct gen_kdef gen_kdefs[KD__COUNT] = {
	/* the loss gradient's ones, in the loss' dtype (half: the time the
	** generator gives it is that of 2-byte elements) */
	[KD_FILL] = {"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIN3c104HalfEEENS_6detail5ArrayIPcLi1EEEEEviT0_T1_",
		     "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<c10::Half>, "
		     "at::detail::Array<char *, (int)1>>(int, T2, T3)",
		     "vectorized_elementwise_kernel", 16, 0, 0},
	[KD_MUL] = {"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13BinaryFunctorIN3c104HalfES4_S4_NS0_10MulFunctorIfEEEENS_6detail5ArrayIPcLi3EEEEEviT0_T1_",
		    "void at::native::vectorized_elementwise_kernel<(int)4, at::native::BinaryFunctor<c10::Half, "
		    "c10::Half, c10::Half, at::native::MulFunctor<float>>, at::detail::Array<char *, (int)3>>(int, T2, T3)",
		    "vectorized_elementwise_kernel", 24, 0, 0},
	[KD_ADD] = {"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIN3c104HalfEEENS_6detail5ArrayIPcLi3EEEEEviT0_T1_",
		    "void at::native::vectorized_elementwise_kernel<(int)4, at::native::CUDAFunctor_add<c10::Half>, "
		    "at::detail::Array<char *, (int)3>>(int, T2, T3)",
		    "vectorized_elementwise_kernel", 24, 0, 0},
	[KD_GELU] = {"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_12_GLOBAL__N_118GeluCUDAKernelImplIN3c104HalfEEENS_6detail5ArrayIPcLi2EEEEEviT0_T1_",
		     "void at::native::vectorized_elementwise_kernel<(int)4, at::native::<unnamed>::GeluCUDAKernelImpl<c10::Half>, "
		     "at::detail::Array<char *, (int)2>>(int, T2, T3)",
		     "vectorized_elementwise_kernel", 28, 0, 0},
	[KD_GELU_BWD] = {"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_12_GLOBAL__N_126GeluBackwardCUDAKernelImplIN3c104HalfEEENS_6detail5ArrayIPcLi3EEEEEviT0_T1_",
			 "void at::native::vectorized_elementwise_kernel<(int)4, at::native::<unnamed>::GeluBackwardCUDAKernelImpl<c10::Half>, "
			 "at::detail::Array<char *, (int)3>>(int, T2, T3)",
			 "vectorized_elementwise_kernel", 30, 0, 0},
	[KD_DROPOUT] = {"_ZN2at6native12_GLOBAL__N_124fused_dropout_kernel_vecIN3c104HalfEfjLi4EEEvT0_S5_S5_T1_fi",
			"void at::native::<unnamed>::fused_dropout_kernel_vec<c10::Half, float, unsigned int, (int)4>"
			"(T2, T2, T2, T3, float, int)",
			"fused_dropout_kernel_vec", 40, 0, 0},
	[KD_LAYERNORM] = {"_ZN2at6native12_GLOBAL__N_128vectorized_layer_norm_kernelIN3c104HalfEfEEviT0_PKT_S8_S8_PS5_S9_PS6_",
			  "void at::native::<unnamed>::vectorized_layer_norm_kernel<c10::Half, float>"
			  "(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
			  "vectorized_layer_norm_kernel", 32, 64, 0},
	[KD_LAYERNORM_BWD] = {"_ZN2at6native12_GLOBAL__N_128layer_norm_grad_input_kernelIN3c104HalfEfEEvPKT_S7_PKT0_SA_S7_PS5_i",
			      "void at::native::<unnamed>::layer_norm_grad_input_kernel<c10::Half, float>"
			      "(const T1 *, const T1 *, const T2 *, const T2 *, const T1 *, T1 *, int)",
			      "layer_norm_grad_input_kernel", 40, 128, 0},
	[KD_REDUCE] = {"_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIN3c104HalfENS0_14func_wrapper_tIfNS0_10SumFunctorIfEEEEEEEEvT1_",
		       "void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<c10::Half, "
		       "at::native::func_wrapper_t<float, at::native::SumFunctor<float>>>>(T3)",
		       "reduce_kernel", 32, 0, 16},
	[KD_SOFTMAX] = {"_ZN2at6native12_GLOBAL__N_119cunn_SoftMaxForwardILi4EN3c104HalfEfS4_NS1_13SoftMaxFwdEpiEEEvPT2_PKT0_i",
			"void at::native::<unnamed>::cunn_SoftMaxForward<(int)4, c10::Half, float, c10::Half, "
			"at::native::<unnamed>::SoftMaxFwdEpi>(T4 *, const T2 *, int)",
			"cunn_SoftMaxForward", 30, 0, 1024},
	[KD_ADAM] = {"_Z25multi_tensor_apply_kernelILi4E18TensorListMetadataILi4EEN2at6native12_GLOBAL__N_120FusedAdamMathFunctorIfLi4ELi0ELi0EEEEvT0_T1_f",
		     "void multi_tensor_apply_kernel<(int)4, TensorListMetadata<(int)4>, "
		     "at::native::<unnamed>::FusedAdamMathFunctor<float, (int)4, (int)0, (int)0>>(T2, T3, float)",
		     "multi_tensor_apply_kernel", 64, 0, 0},
	[KD_NCCL] = {"_Z39ncclDevKernel_AllReduce_Sum_f16_RING_LL24ncclDevKernelArgsStorageILm4096EE",
		     "ncclDevKernel_AllReduce_Sum_f16_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>)",
		     "ncclDevKernel_AllReduce_Sum_f16_RING_LL", 96, 0, 0},
	[KD_GEMM_TN] = {NULL, "sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel",
			"sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel",
			222, 0, 81920},
	[KD_GEMM_NN] = {NULL, "sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize256x128x32_stage3_warpsize4x2x1_tensor16x8x16_kernel",
			"sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize256x128x32_stage3_warpsize4x2x1_tensor16x8x16_kernel",
			232, 0, 98304},
	[KD_GEMM_NT] = {NULL, "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nt",
			"ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nt", 234, 0, 81920},
	[KD_GEMM_RELU] = {"_ZN7cutlass6KernelI64cutlass_80_tensorop_f16_s16816gemm_relu_f16_64x64_64x4_nn_align8EEvNT_6ParamsE",
			  "void cutlass::Kernel<cutlass_80_tensorop_f16_s16816gemm_relu_f16_64x64_64x4_nn_align8>(T1::Params)",
			  "Kernel", 128, 0, 73728},
	[KD_V_GEMM_TN] = {NULL, "volta_fp16_s884gemm_fp16_128x128_ldg8_f2f_tn", "volta_fp16_s884gemm_fp16_128x128_ldg8_f2f_tn",
			  234, 0, 0},
	[KD_V_GEMM_NN] = {NULL, "volta_fp16_s884gemm_fp16_256x128_ldg8_f2f_nn", "volta_fp16_s884gemm_fp16_256x128_ldg8_f2f_nn",
			  236, 0, 0},
	[KD_V_GEMM_NT] = {NULL, "volta_fp16_s884gemm_fp16_128x128_ldg8_f2f_nt", "volta_fp16_s884gemm_fp16_128x128_ldg8_f2f_nt",
			  234, 0, 0},
	[KD_V_GEMM_RELU] = {NULL, "volta_h884gemm_relu_64x64_ldg8_nn", "volta_h884gemm_relu_64x64_ldg8_nn", 128, 0, 0},
	[KD_NCCL_ALL_GATHER] = {"_Z31ncclDevKernel_AllGather_RING_LL24ncclDevKernelArgsStorageILm4096EE",
				"ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>)",
				"ncclDevKernel_AllGather_RING_LL", 96, 0, 0},
	[KD_NCCL_REDUCE_SCATTER] = {"_Z43ncclDevKernel_ReduceScatter_Sum_f16_RING_LL24ncclDevKernelArgsStorageILm4096EE",
				    "ncclDevKernel_ReduceScatter_Sum_f16_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>)",
				    "ncclDevKernel_ReduceScatter_Sum_f16_RING_LL", 96, 0, 0},
	[KD_CAST] = {"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11CastFunctorIN3c104HalfEfEENS_6detail5ArrayIPcLi2EEEEEviT0_T1_",
		     "void at::native::vectorized_elementwise_kernel<(int)4, at::native::CastFunctor<c10::Half, float>, "
		     "at::detail::Array<char *, (int)2>>(int, T2, T3)",
		     "vectorized_elementwise_kernel", 20, 0, 0},
	[KD_SIMT_GEMM] = {NULL, "cutlass_80_simt_hgemm_128x128_8x2_nt_align1", "cutlass_80_simt_hgemm_128x128_8x2_nt_align1",
			  168, 0, 49152},
	[KD_FP8_GEMM] = {NULL, "sm90_xmma_gemm_e4m3e4m3_bf16f32_f32_tn_n_tilesize128x256x128_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
			 "sm90_xmma_gemm_e4m3e4m3_bf16f32_f32_tn_n_tilesize128x256x128_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
			 168, 0, 213120},
	[KD_FP8_GROUPED] = {NULL, "cutlass3x_sm90_tensorop_gemm_grouped_e4m3_e4m3_f32_bf16_bf16_128x128x128_1x2x1_0_tnn_align16_warpspecialized_cooperative",
			    "cutlass3x_sm90_tensorop_gemm_grouped_e4m3_e4m3_f32_bf16_bf16_128x128x128_1x2x1_0_tnn_align16_warpspecialized_cooperative",
			    168, 0, 213120},
	[KD_BF16_GROUPED] = {NULL, "cutlass3x_sm90_tensorop_gemm_grouped_bf16_bf16_f32_bf16_bf16_128x256x64_1x2x1_0_tnn_align8_warpspecialized_cooperative",
			     "cutlass3x_sm90_tensorop_gemm_grouped_bf16_bf16_f32_bf16_bf16_128x256x64_1x2x1_0_tnn_align8_warpspecialized_cooperative",
			     168, 0, 213120},
	[KD_FP4_GEMM] = {NULL, "cutlass3x_sm100_bstensorop_gemm_ue4m3xe2m1_ue4m3xe2m1_f32_bf16_bf16_256x128x256_2x1x1_0_tnt_align32_o_vs16_2sm",
			 "cutlass3x_sm100_bstensorop_gemm_ue4m3xe2m1_ue4m3xe2m1_f32_bf16_bf16_256x128x256_2x1x1_0_tnt_align32_o_vs16_2sm",
			 168, 0, 213120},
	[KD_NCCL_SENDRECV] = {"_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm4096EE",
			      "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned long)4096>)",
			      "ncclDevKernel_SendRecv", 96, 0, 0},
};

const int gen_nkdefs = KD__COUNT;
const int gen_kd_gemm = KD_GEMM_TN;
const int gen_kd_coll[3] = {KD_NCCL, KD_NCCL_ALL_GATHER, KD_NCCL_REDUCE_SCATTER};
const int gen_kd_a2a = KD_NCCL_SENDRECV;

const struct gen_api_def gen_apis[GEN_API__COUNT] = {
	[GEN_API_LAUNCH] = {"cudaLaunchKernel_v7000", 211},
	[GEN_API_MEMCPY_ASYNC] = {"cudaMemcpyAsync_v3020", 41},
	[GEN_API_MEMSET_ASYNC] = {"cudaMemsetAsync_v3020", 51},
	[GEN_API_STREAM_SYNC] = {"cudaStreamSynchronize_v3020", 131},
	[GEN_API_EVENT_RECORD] = {"cudaEventRecord_v3020", 135},
	[GEN_API_STREAM_WAIT_EVENT] = {"cudaStreamWaitEvent_v3020", 147},
	[GEN_API_GRAPH_LAUNCH] = {"cudaGraphLaunch_v10000", 311},
	[GEN_API_BEGIN_CAPTURE] = {"cudaStreamBeginCapture_v10000", 315},
	[GEN_API_END_CAPTURE] = {"cudaStreamEndCapture_v10000", 319},
	[GEN_API_INSTANTIATE] = {"cudaGraphInstantiate_v10000", 310},
	/* a cuDNN call, written as a tracer of library calls records it (no
	** CUPTI callback id) */
	[GEN_API_CUDNN_FIND] = {"cudnnFindConvolutionForwardAlgorithmEx", 0},
	[GEN_API_MALLOC] = {"cudaMalloc_v3020", 20},
};

/* Model size: tokens per batch, hidden and FFN width, encoder blocks. */
#define TOK 2048
#define HID 1024
#define FFN 4096
#define BLOCKS 4
#define US 1000

#define MAX_DEPTH 12
#define MAX_FWD 64

enum fwd_kind { F_ADDMM, F_ADDMM_RELU, F_GELU, F_DROPOUT, F_ADD, F_LN, F_SOFTMAX, F_SUM };

struct open_range {
	struct gen_range r;
	char text[640];
	char name[64];
	char dims[96];
	char types[96];
};

struct model {
	const struct gen_opts *o;
	const struct gen_sink *s;
	uint64_t rng;
	uint64_t kernels, corr, op_id;
	uint32_t event_id;
	int64_t seq;
	int64_t cpu[GEN_THR__COUNT];
	int64_t gpu[GEN_MAX_STREAMS];
	enum gen_thread thr;
	struct open_range stack[GEN_THR__COUNT][MAX_DEPTH];
	int depth[GEN_THR__COUNT];
	/* forward ops of this iteration, for the backward pass */
	struct { enum fwd_kind kind; int64_t seq; int block; } fwd[MAX_FWD];
	int nfwd;
	double slow;            /* kernel time factor: 1 on sm80, 2.2 on sm70 */
	int it;                 /* the iteration being written, from 0 */
};

uint32_t gen_stream_id(int i)
{
	/* nsys and CUPTI number the legacy default stream 7 in PyTorch runs;
	** created streams follow */
	return i == 0 ? 7 : 12 + (uint32_t)i;
}

/* splitmix64: small, fast, and the same on every platform. */
static uint64_t rnd(struct model *m)
{
	uint64_t z = (m->rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform integer in [lo, hi]. */
static int64_t uni(struct model *m, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd(m) % (uint64_t)(hi - lo + 1));
}

/* base * (1 +- noise): run-to-run noise of a kernel's duration. */
static int64_t jitter(struct model *m, double base)
{
	double f = (1 - m->o->noise) + 2 * m->o->noise * (double)(rnd(m) >> 11) / 9007199254740992.0;
	int64_t v = (int64_t)(base * f);
	return v < 1000 ? 1000 + (v % 500) : v;
}

static bool done(const struct model *m)
{
	return m->kernels >= m->o->kernels;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static uint32_t stream(const struct model *m, int i)
{
	return gen_stream_id(i % m->o->streams);
}

static int sidx(const struct model *m, int i)
{
	return i % m->o->streams;
}

/* Innermost open op on the current thread: Kineto's External id of what
** it launches. */
static uint64_t cur_ext(const struct model *m)
{
	for (int i = m->depth[m->thr] - 1; i >= 0; i--)
		if (m->stack[m->thr][i].r.op_id)
			return m->stack[m->thr][i].r.op_id;
	return 0;
}

static struct open_range *push(struct model *m, enum gen_range_kind kind, const char *name,
			       const char *text)
{
	struct open_range *o;

	if (m->depth[m->thr] == MAX_DEPTH)   /* the model never nests this deep */
		return NULL;
	o = &m->stack[m->thr][m->depth[m->thr]++];
	memset(&o->r, 0, sizeof(o->r));
	snprintf(o->name, sizeof(o->name), "%s", name);
	snprintf(o->text, sizeof(o->text), "%s", text);
	o->dims[0] = o->types[0] = '\0';
	o->r.kind = kind;
	o->r.thr = m->thr;
	o->r.seq = -1;
	o->r.start = m->cpu[m->thr];
	m->cpu[m->thr] += uni(m, 300, 900);   /* nvtxRangePush itself */
	return o;
}

static void pop(struct model *m)
{
	struct open_range *o;

	if (m->depth[m->thr] == 0)
		return;
	o = &m->stack[m->thr][--m->depth[m->thr]];
	m->cpu[m->thr] += uni(m, 200, 600);
	o->r.end = m->cpu[m->thr];
	o->r.text = o->text;
	o->r.name = o->name;
	o->r.dims = o->dims[0] ? o->dims : NULL;
	o->r.types = o->types[0] ? o->types : NULL;
	m->s->range(m->s->ctx, &o->r);
}

/* An emit_nvtx op marker: "aten::addmm, seq = 12, op_id = 34, sizes = [...]".
** sizes is the NVTX form ("[[2048, 1024], []]"); the Kineto dims are the
** same without spaces.  seq < 0: the op records no autograd node. */
static void op_push(struct model *m, const char *name, int64_t seq, const char *sizes,
		    const char *types)
{
	struct open_range *o;
	char text[640];
	int n;

	m->cpu[m->thr] += uni(m, 4 * US, 12 * US);   /* python dispatch overhead */
	m->op_id++;
	n = snprintf(text, sizeof(text), "%s", name);
	if (seq >= 0)
		n += snprintf(text + n, sizeof(text) - (size_t)n, ", seq = %lld", (long long)seq);
	n += snprintf(text + n, sizeof(text) - (size_t)n, ", op_id = %llu", (unsigned long long)m->op_id);
	if (sizes)
		snprintf(text + n, sizeof(text) - (size_t)n, ", sizes = %s", sizes);
	o = push(m, GEN_R_OP, name, text);
	if (!o)
		return;
	o->r.seq = seq;
	o->r.op_id = m->op_id;
	o->r.backward = m->thr == GEN_THR_AUTOGRAD;
	if (sizes) {
		size_t j = 0;
		for (const char *p = sizes; *p && j + 1 < sizeof(o->dims); p++)
			if (*p != ' ')
				o->dims[j++] = *p;
		o->dims[j] = '\0';
	}
	if (types)
		snprintf(o->types, sizeof(o->types), "%s", types);
}

static void api(struct model *m, enum gen_api_id id, int64_t start, int64_t end, uint64_t corr)
{
	struct gen_api a = {.start = start, .end = end, .thr = m->thr, .api = id, .corr = corr,
			    .ext = cur_ext(m)};
	m->s->api(m->s->ctx, &a);
}

/* Innermost open op on the current thread, or NULL. */
static const char *cur_op(const struct model *m)
{
	for (int i = m->depth[m->thr] - 1; i >= 0; i--)
		if (m->stack[m->thr][i].r.op_id)
			return m->stack[m->thr][i].name;
	return NULL;
}

/* --inject: the kernel kd launches in place of kd and its GPU time. */
static double injected(const struct model *m, int *kd, double ns)
{
	const struct gen_inject *in = &m->o->inject;
	const char *op = in->slow_op ? cur_op(m) : NULL;

	if (op && strcmp(op, in->slow_op) == 0)
		ns *= in->slow_factor;
	if (in->no_tc && strcmp(gen_kdefs[*kd].short_name, in->no_tc) == 0) {
		*kd = KD_SIMT_GEMM;
		ns *= 4;   /* fp16 on CUDA cores: a quarter of the tensor-core rate */
	}
	return ns;
}

/* --inject autotune, malloc: a call of id lasting us microseconds on the
** current thread, 1 us after what it did last (no random draw). */
static void slow_call(struct model *m, enum gen_api_id id, double us)
{
	int64_t t0 = m->cpu[m->thr] + 1 * US, t1 = t0 + (int64_t)(us * US);

	if (done(m))
		return;
	api(m, id, t0, t1, ++m->corr);
	m->cpu[m->thr] = t1;
}

/* cudaLaunchKernel + the kernel it queues on stream index si, with the
** given unjittered GPU time.  Does nothing once the kernel budget is used. */
static void launch(struct model *m, int kd, int si, double ns, uint32_t gx, uint32_t bx)
{
	struct gen_kernel k = {.stream = stream(m, si), .grid = {gx, 1, 1}, .block = {bx, 1, 1}};
	int64_t t0, t1;

	if (done(m))
		return;
	ns = injected(m, &kd, ns);
	k.kdef = kd;
	si = sidx(m, si);
	m->cpu[m->thr] += uni(m, 1 * US, 3 * US);
	t0 = m->cpu[m->thr];
	/* one launch in 200 hits a slow path (allocator, JIT, page fault) */
	t1 = t0 + (uni(m, 0, 199) == 0 ? uni(m, 30 * US, 80 * US) : uni(m, 3 * US, 7 * US));
	k.corr = ++m->corr;
	k.ext = cur_ext(m);
	api(m, GEN_API_LAUNCH, t0, t1, k.corr);
	k.start = max64(t0 + uni(m, 3 * US, 6 * US), m->gpu[si] + uni(m, 500, 2500));
	k.end = k.start + jitter(m, ns * m->slow);
	m->gpu[si] = k.end;
	m->cpu[m->thr] = t1;
	m->s->kernel(m->s->ctx, &k);
	m->kernels++;
}

static void memcpy_async(struct model *m, int si, uint64_t bytes, int kind, int src, int dst)
{
	struct gen_memcpy c = {.stream = stream(m, si), .bytes = bytes, .copy_kind = kind,
			       .src_kind = src, .dst_kind = dst};
	int64_t t0 = m->cpu[m->thr] + uni(m, 1 * US, 3 * US), t1;
	/* pinned copies run at PCIe speed; pageable ones go through a bounce
	** buffer and make the call synchronous */
	double bw = src == 1 || dst == 1 ? 6.0 : 22.0;   /* bytes per ns */

	si = sidx(m, si);
	c.corr = ++m->corr;
	c.ext = cur_ext(m);
	c.start = max64(t0 + uni(m, 3 * US, 6 * US), m->gpu[si] + uni(m, 500, 2000));
	c.end = c.start + uni(m, 1500, 2500) + (int64_t)((double)bytes / bw);
	m->gpu[si] = c.end;
	t1 = t0 + uni(m, 5 * US, 10 * US);
	if (src == 1 || dst == 1) {
		int64_t ret = uni(m, 2 * US, 4 * US);
		if (!m->o->inject.pinned)
			t1 = max64(t1, c.end + ret);
	}
	api(m, GEN_API_MEMCPY_ASYNC, t0, t1, c.corr);
	m->s->memcpy(m->s->ctx, &c);
	m->cpu[m->thr] = t1;
}

static void memset_async(struct model *m, int si, uint64_t bytes)
{
	struct gen_memset s = {.stream = stream(m, si), .bytes = bytes, .value = 0};
	int64_t t0 = m->cpu[m->thr] + uni(m, 1 * US, 3 * US), t1 = t0 + uni(m, 4 * US, 8 * US);

	si = sidx(m, si);
	s.corr = ++m->corr;
	s.ext = cur_ext(m);
	s.start = max64(t0 + uni(m, 3 * US, 5 * US), m->gpu[si] + uni(m, 500, 2000));
	s.end = s.start + 1500 + (int64_t)((double)bytes / 1300.0);
	m->gpu[si] = s.end;
	api(m, GEN_API_MEMSET_ASYNC, t0, t1, s.corr);
	m->s->memset(m->s->ctx, &s);
	m->cpu[m->thr] = t1;
}

/* cudaStreamSynchronize: the CPU blocks until the stream drains. */
static void stream_sync(struct model *m, int si)
{
	struct gen_sync y = {.stream = stream(m, si), .type = 3, .event_id = 0xffffffffu};

	si = sidx(m, si);
	y.start = m->cpu[m->thr] + uni(m, 1 * US, 3 * US);
	y.end = max64(y.start + uni(m, 2 * US, 4 * US), m->gpu[si] + uni(m, 2 * US, 5 * US));
	y.corr = ++m->corr;
	api(m, GEN_API_STREAM_SYNC, y.start, y.end, y.corr);
	m->s->sync(m->s->ctx, &y);
	m->cpu[m->thr] = y.end;
}

/* cudaEventRecord on stream `from`, cudaStreamWaitEvent on stream `to`:
** `to` runs nothing more until `from` has drained to this point. */
static void stream_wait(struct model *m, int from, int to)
{
	struct gen_sync y = {.type = 2};
	int64_t t0, t1;

	from = sidx(m, from);
	to = sidx(m, to);
	if (from == to)
		return;
	y.event_id = ++m->event_id;
	t0 = m->cpu[m->thr] + uni(m, 1 * US, 2 * US);
	t1 = t0 + uni(m, 2 * US, 4 * US);
	y.record_corr = ++m->corr;
	y.record_stream = gen_stream_id(from);
	api(m, GEN_API_EVENT_RECORD, t0, t1, y.record_corr);
	t0 = t1 + uni(m, 500, 1500);
	t1 = t0 + uni(m, 2 * US, 4 * US);
	y.corr = ++m->corr;
	y.start = t0;
	y.end = t1;
	y.stream = gen_stream_id(to);
	api(m, GEN_API_STREAM_WAIT_EVENT, t0, t1, y.corr);
	m->s->sync(m->s->ctx, &y);
	m->gpu[to] = max64(m->gpu[to], m->gpu[from]);
	m->cpu[m->thr] = t1;
}

static int kgemm(const struct model *m, int kd)
{
	return m->o->sm70 ? kd + (KD_V_GEMM_TN - KD_GEMM_TN) : kd;
}

/* GPU time in ns of an fp16 GEMM (m x k) @ (k x n) at ~220 TFLOP/s. */
static double gemm_ns(double mm, double nn, double kk)
{
	return 2.0 * mm * nn * kk / 220e3;
}

/* GPU time of an elementwise pass over `bytes` at ~1.4 TB/s. */
static double mem_ns(double bytes)
{
	return bytes / 1400.0;
}

static void remember(struct model *m, enum fwd_kind kind, int64_t seq, int block)
{
	if (m->nfwd < MAX_FWD) {
		m->fwd[m->nfwd].kind = kind;
		m->fwd[m->nfwd].seq = seq;
		m->fwd[m->nfwd].block = block;
		m->nfwd++;
	}
}

static const char HALF3[] = "[\"c10::Half\",\"c10::Half\",\"c10::Half\",\"Scalar\",\"Scalar\"]";

/* F.linear: PyProf markers, then aten::linear > aten::addmm > GEMM. */
static void linear(struct model *m, int block, int in, int out, bool relu)
{
	char text[512], sizes[96];
	int64_t seq;

	snprintf(text, sizeof(text), "{'traceMarker': ['train.py:88', 'model.py:%d', "
		 "'/usr/lib/python3/site-packages/torch/nn/modules/linear.py:116']}", relu ? 52 : 47);
	push(m, GEN_R_PYPROF, "traceMarker", text);
	snprintf(text, sizeof(text),
		 "{'mod': 'torch.nn.functional', 'op': 'linear', 'args': [{'name': '', 'type': 'tensor', "
		 "'shape': (%d, %d), 'dtype': 'float16'}, {'name': '', 'type': 'tensor', 'shape': (%d, %d), "
		 "'dtype': 'float16'}, {'name': '', 'type': 'tensor', 'shape': (%d,), 'dtype': 'float16'}]}",
		 TOK, in, out, in, out);
	push(m, GEN_R_PYPROF, "linear", text);
	snprintf(sizes, sizeof(sizes), "[[%d, %d], [%d, %d], [%d]]", TOK, in, out, in, out);
	op_push(m, "aten::linear", -1, sizes, "[\"c10::Half\",\"c10::Half\",\"c10::Half\"]");
	seq = m->seq++;
	snprintf(sizes, sizeof(sizes), "[[%d], [%d, %d], [%d, %d], [], []]", out, TOK, in, in, out);
	op_push(m, "aten::addmm", seq, sizes, HALF3);
	launch(m, relu ? kgemm(m, KD_GEMM_RELU) : kgemm(m, KD_GEMM_TN), 0, gemm_ns(TOK, out, in),
	       (uint32_t)(TOK / 128 * out / 128), 256);
	remember(m, relu ? F_ADDMM_RELU : F_ADDMM, seq, block);
	pop(m);
	pop(m);
	pop(m);
	pop(m);
}

/* A one-kernel forward op: aten::<name> with its autograd node. */
static void simple_op(struct model *m, int block, const char *name, enum fwd_kind kind, int kd,
		      double ns, const char *sizes, const char *types)
{
	int64_t seq = m->seq++;

	op_push(m, name, seq, sizes, types);
	launch(m, kd, 0, ns, 4096, 128);
	remember(m, kind, seq, block);
	pop(m);
}

static void layer(struct model *m, const char *name)
{
	char text[64];

	snprintf(text, sizeof(text), "layer:%s", name);
	push(m, GEN_R_LAYER, text, text);
}

static void block_fwd(struct model *m, int b)
{
	char buf[32];
	static const char act[] = "[[2048, 4096]]";
	static const char h1[] = "[\"c10::Half\"]";

	snprintf(buf, sizeof(buf), "Block_%d", b);
	layer(m, buf);

	layer(m, "Linear1");
	if (b == 0 && m->it == 0 && m->o->inject.autotune_us > 0)
		slow_call(m, GEN_API_CUDNN_FIND, m->o->inject.autotune_us);
	linear(m, b, HID, FFN, false);
	pop(m);

	if (b == 0 && (m->it == 0 || m->it == 2) && m->o->inject.malloc_us > 0)
		slow_call(m, GEN_API_MALLOC, m->o->inject.malloc_us);
	layer(m, "GELU");
	simple_op(m, b, "aten::gelu", F_GELU, KD_GELU, mem_ns(2.0 * TOK * FFN * 2), act, h1);
	pop(m);

	if (m->o->inject.add_op) {
		op_push(m, m->o->inject.add_op, -1, "[[2048, 4096], [], [], [], []]", "[\"float\"]");
		launch(m, KD_CAST, 0, mem_ns(6.0 * TOK * FFN), 4096, 128);
		pop(m);
	}

	layer(m, "Dropout");
	push(m, GEN_R_PYPROF, "dropout",
	     "{'mod': 'torch.nn.functional', 'op': 'dropout', 'args': [{'name': '', 'type': 'tensor', "
	     "'shape': (2048, 4096), 'dtype': 'float16'}, {'name': 'p', 'type': 'float', 'value': 0.1}, "
	     "{'name': 'training', 'type': 'bool', 'value': True}, {'name': 'inplace', 'type': 'bool', "
	     "'value': False}]}");
	op_push(m, "aten::dropout", -1, "[[2048, 4096], [], []]", "[\"c10::Half\",\"Scalar\",\"Scalar\"]");
	simple_op(m, b, "aten::native_dropout", F_DROPOUT, KD_DROPOUT, mem_ns(3.0 * TOK * FFN * 2),
		  "[[2048, 4096], [], []]", "[\"c10::Half\",\"Scalar\",\"Scalar\"]");
	pop(m);
	pop(m);
	pop(m);

	layer(m, "Linear2");
	linear(m, b, FFN, HID, b % 2 == 1);
	pop(m);

	layer(m, "Residual");
	simple_op(m, b, "aten::add", F_ADD, KD_ADD, mem_ns(3.0 * TOK * HID * 2),
		  "[[2048, 1024], [2048, 1024], []]", "[\"c10::Half\",\"c10::Half\",\"Scalar\"]");
	pop(m);

	layer(m, "LayerNorm");
	push(m, GEN_R_PYPROF, "layer_norm",
	     "{'mod': 'torch.nn.functional', 'op': 'layer_norm', 'args': [{'name': '', 'type': 'tensor', "
	     "'shape': (2048, 1024), 'dtype': 'float16'}, {'name': '', 'type': 'tuple', 'value': (1024,)}, "
	     "{'name': 'eps', 'type': 'float', 'value': 1e-05}]}");
	op_push(m, "aten::layer_norm", -1, "[[2048, 1024], [], [1024], [1024], [], []]", NULL);
	simple_op(m, b, "aten::native_layer_norm", F_LN, KD_LAYERNORM, mem_ns(2.0 * TOK * HID * 2),
		  "[[2048, 1024], [], [1024], [1024], []]",
		  "[\"c10::Half\",\"\",\"c10::Half\",\"c10::Half\",\"Scalar\"]");
	pop(m);
	pop(m);
	pop(m);

	pop(m);   /* Block_b */
}

static void loss_fwd(struct model *m)
{
	layer(m, "Loss");
	op_push(m, "aten::cross_entropy_loss", -1, "[[2048, 1024], [2048], [], [], [], []]", NULL);
	simple_op(m, -1, "aten::_log_softmax", F_SOFTMAX, KD_SOFTMAX, mem_ns(2.0 * TOK * HID * 2),
		  "[[2048, 1024], [], []]", "[\"c10::Half\",\"Scalar\",\"Scalar\"]");
	simple_op(m, -1, "aten::sum", F_SUM, KD_REDUCE, mem_ns(1.0 * TOK * HID * 2), "[[2048, 1024], []]",
		  "[\"c10::Half\",\"\"]");
	pop(m);
	pop(m);
}

/* A backward op: "AddmmBackward0, seq = 12, op_id = 99" on the autograd
** thread, with the kernels of its gradient formula. */
static void bwd_op(struct model *m, int i)
{
	static const char *const names[] = {
		[F_ADDMM] = "AddmmBackward0", [F_ADDMM_RELU] = "AddmmBackward0",
		[F_GELU] = "GeluBackward0", [F_DROPOUT] = "NativeDropoutBackward0",
		[F_ADD] = "AddBackward0", [F_LN] = "NativeLayerNormBackward0",
		[F_SOFTMAX] = "LogSoftmaxBackward0", [F_SUM] = "SumBackward0",
	};
	enum fwd_kind kind = m->fwd[i].kind;
	int blk = m->fwd[i].block < 0 ? 0 : m->fwd[i].block;
	int side = m->o->streams > 3 ? 3 + blk % (m->o->streams - 3) : 0;

	op_push(m, names[kind], m->fwd[i].seq, NULL, NULL);
	switch (kind) {
	case F_ADDMM:
	case F_ADDMM_RELU:
		launch(m, kgemm(m, KD_GEMM_NN), 0, gemm_ns(TOK, HID, FFN), 512, 256);
		launch(m, kgemm(m, KD_GEMM_NT), 0, gemm_ns(HID, FFN, TOK), 256, 256);
		/* the bias gradient is a reduction, on a side stream when there is one */
		launch(m, KD_REDUCE, side, mem_ns(1.0 * TOK * FFN * 2), 108, 512);
		break;
	case F_GELU:
		launch(m, KD_GELU_BWD, 0, mem_ns(3.0 * TOK * FFN * 2), 8192, 128);
		break;
	case F_DROPOUT:
	case F_SOFTMAX:
		launch(m, KD_MUL, 0, mem_ns(3.0 * TOK * FFN * 2), 8192, 128);
		break;
	case F_ADD:
		break;   /* the gradient passes through: no kernel */
	case F_LN:
		launch(m, KD_LAYERNORM_BWD, 0, mem_ns(3.0 * TOK * HID * 2), TOK, 128);
		launch(m, KD_REDUCE, side, mem_ns(1.0 * TOK * HID * 2), 108, 512);
		break;
	case F_SUM:
		launch(m, KD_FILL, 0, mem_ns(1.0 * TOK * HID * 2), 4096, 128);
		break;
	}
	pop(m);
}

/* DDP-style gradient all-reduce of one block on the communication stream. */
static void allreduce(struct model *m)
{
	if (m->o->streams < 2)
		return;
	stream_wait(m, 0, 1);
	op_push(m, "nccl:all_reduce", -1, "[[8392704]]", "[\"c10::Half\"]");
	launch(m, KD_NCCL, 1, 2.0 * HID * FFN * 2 * 2 / 180.0, 32, 512);
	pop(m);
}

static void backward(struct model *m)
{
	int last_block = -1;

	m->thr = GEN_THR_AUTOGRAD;
	m->cpu[GEN_THR_AUTOGRAD] = max64(m->cpu[GEN_THR_AUTOGRAD], m->cpu[GEN_THR_MAIN]) + uni(m, 10 * US, 30 * US);
	for (int i = m->nfwd - 1; i >= 0 && !done(m); i--) {
		if (last_block >= 0 && m->fwd[i].block != last_block)
			allreduce(m);
		last_block = m->fwd[i].block;
		bwd_op(m, i);
	}
	if (last_block >= 0 && !done(m))
		allreduce(m);
	m->thr = GEN_THR_MAIN;
	/* loss.backward() returns when the engine is done queueing */
	m->cpu[GEN_THR_MAIN] = m->cpu[GEN_THR_AUTOGRAD] + uni(m, 5 * US, 15 * US);
	stream_wait(m, 1, 0);
	if (m->o->streams > 3)
		for (int i = 3; i < m->o->streams; i++)
			stream_wait(m, i, 0);
}

static void optimizer(struct model *m)
{
	push(m, GEN_R_ANNOT, "Optimizer.step#AdamW.step", "Optimizer.step#AdamW.step");
	op_push(m, "aten::_fused_adamw_", -1, NULL, NULL);
	for (int i = 0; i < 3; i++)
		launch(m, KD_ADAM, 0, 120.0 * US, 320, 512);
	pop(m);
	pop(m);
	push(m, GEN_R_ANNOT, "Optimizer.zero_grad#AdamW.zero_grad", "Optimizer.zero_grad#AdamW.zero_grad");
	for (int i = 0; i < 2; i++) {
		op_push(m, "aten::zero_", -1, "[[4096, 1024]]", "[\"c10::Half\"]");
		memset_async(m, 0, (uint64_t)FFN * HID * 2);
		pop(m);
	}
	pop(m);
}

static void iteration(struct model *m, int it)
{
	char text[64], name[64];
	int copy = m->o->streams >= 3 ? 2 : 0;

	m->thr = GEN_THR_MAIN;
	m->it = it;
	/* the data loader: the GPU sits idle meanwhile (the draw happens in
	** every variant, so that --inject changes nothing else) */
	int64_t load = uni(m, 300 * US, 2000 * US);
	if (m->o->inject.data_loader) {
		push(m, GEN_R_ANNOT, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
		     "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
		m->cpu[GEN_THR_MAIN] += (int64_t)((double)load * m->o->inject.loader_factor);
		pop(m);
	} else {
		m->cpu[GEN_THR_MAIN] += load;
	}
	snprintf(text, sizeof(text), "iteration %d", it);
	snprintf(name, sizeof(name), "ProfilerStep#%d", it);
	push(m, GEN_R_ITER, name, text);

	op_push(m, "aten::to", -1, "[[8, 256, 1024], [], [], [], []]", NULL);
	op_push(m, "aten::copy_", -1, "[[8, 256, 1024], [8, 256, 1024], []]", NULL);
	memcpy_async(m, copy, (uint64_t)TOK * HID * 2, 1, 2, 3);
	pop(m);
	pop(m);
	stream_wait(m, copy, 0);

	m->nfwd = 0;
	layer(m, "Encoder");
	for (int b = 0; b < BLOCKS && !done(m); b++)
		block_fwd(m, b);
	pop(m);
	if (!done(m))
		loss_fwd(m);
	if (!done(m))
		backward(m);
	if (!done(m))
		optimizer(m);
	if (!done(m)) {
		/* loss.item(): a 4-byte DtoH into pageable memory, then the sync */
		op_push(m, "aten::item", -1, "[[]]", "[\"float\"]");
		op_push(m, "aten::_local_scalar_dense", -1, "[[]]", "[\"float\"]");
		memcpy_async(m, 0, 4, 2, 3, 1);
		stream_sync(m, 0);
		pop(m);
		pop(m);
	}
	pop(m);
}

void gen_model_run(const struct gen_opts *o, const struct gen_sink *sink)
{
	static struct model m;   /* 60 KB of range stacks: not on the stack */

	memset(&m, 0, sizeof(m));
	m.o = o;
	m.s = sink;
	m.rng = o->seed;
	m.seq = uni(&m, 10, 400);        /* sequence numbers carry over from warm-up */
	m.op_id = (uint64_t)uni(&m, 100, 4000);
	m.corr = (uint64_t)uni(&m, 400, 3000);
	m.slow = o->sm70 ? 2.2 : 1.0;
	m.cpu[GEN_THR_MAIN] = 1500000000LL + uni(&m, 0, 500 * US);
	m.cpu[GEN_THR_AUTOGRAD] = m.cpu[GEN_THR_MAIN];
	for (int it = 0; !done(&m) && (!o->iters || it < o->iters); it++)
		iteration(&m, it);
	for (int t = 0; t < GEN_THR__COUNT; t++) {
		m.thr = (enum gen_thread)t;
		while (m.depth[t])
			pop(&m);
	}
}
