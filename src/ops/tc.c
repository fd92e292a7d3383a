/*
** Tensor-core use and element type from kernel names.  Substring patterns
** on the full demangled name (template arguments included, which PyProf's
** short-name test could not see), Volta through Blackwell.  Also which
** kernels are NCCL/RCCL communication, by short-name prefix.  The lists
** are data: add a pattern here and a case to tests/unit/test_ops_tc.c.
*/
#include <stdbool.h>
#include <string.h>

#include "ops/ops.h"

/* Names that show tensor-core instructions (HMMA/IMMA/DMMA/GMMA/UMMA). */
static const char *const tc_yes[] = {
	/* PyProf tc.py TC_Whitelist (Volta/Turing cuBLAS and cuDNN, early xmma) */
	"h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "dgrad_1x1_stride_2x2",
	"first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group", "xmma_implicit_gemm",
	"xmma_sparse_conv", "xmma_warp_specialized_implicit_gemm", "xmma_gemm", "xmma_sparse_gemm",
	"c1688",
	/* apex-era spellings and other mma shapes */
	"884gemm", "1688gemm", "884cudnn", "1688cudnn", "i16832", "16832", "s161616", "h161616",
	"i8832", "imma", "dmma", "wmma",
	/* cuBLAS/cuDNN xmma generations (sm80_xmma_*, sm90_xmma_*_gmma) */
	/* ("umma" alone would match "summary": only its library spellings) */
	"_xmma_", "gmma", "GMMA", "tcgen05", "_umma", "umma_", "UMMA",
	/* cuBLAS 12.8+ JIT kernels (Hopper/Blackwell) */
	"nvjet",
	/* CUTLASS 2.x/3.x: cutlass_80_tensorop_*, OpClassTensorOp, Sm90/Sm100 collectives */
	"tensorop", "TensorOp", "MainloopSm90", "MainloopSm100", "Sm90TmaGmma", "KernelTmaWarpSpecialized",
	/* attention */
	"flash_fwd", "flash_bwd", "flash::", "pytorch_flash::", "fmha_cutlass", "fmha_", "_fmha",
	"cudnn_generated_fort_native_sdpa", "sdpa_", "flash_attn", "FlashAttn",
	NULL
};

/* Names that say CUDA-core (SIMT) math even though they also contain a
** tensor-core-looking token (xmma with all-fp32 types, fp32 memory-efficient
** attention); checked before tc_yes. */
static const char *const tc_simt[] = {
	"simt", "Simt", "fmha_cutlassF_f32", "fmha_cutlassB_f32", "f32f32_f32f32_f32",
	"f64f64_f64f64_f64", NULL
};

/* Other GEMM/conv names that use CUDA cores; checked after tc_yes. */
static const char *const tc_no[] = {
	"sgemm", "dgemm", "hgemm", "cgemm", "zgemm", "gemv", "gemmk1", "gemmSN", "scudnn", "hcudnn",
	"dcudnn", "implicit_convolve_sgemm", "implicit_convolve_hgemm", "explicit_convolve", "fft",
	"winograd", "wgrad_alg0", "wgrad_alg1", "dgrad_engine", "dgrad2d_grouped_direct",
	"conv2d_grouped_direct", "conv_depthwise", "dot_kernel", NULL
};

/* GEMM/convolution kernel names (with or without tensor cores). */
static const char *const gemm_like[] = {
	"gemm", "gemv", "Gemm", "GEMM", "cutlass", "nvjet", "xmma", "scudnn", "hcudnn", "884cudnn",
	"1688cudnn", "convolve", "conv2d", "conv3d", "conv1x1", "dgrad", "wgrad", "_fprop_", "winograd",
	"dot_kernel", "splitKreduce", "reduce_1Block_kernel", "fmha", "flash_fwd", "flash_bwd", "sdpa",
	NULL
};

/* Helper kernels of GEMMs and convolutions: offset and pointer setup,
** Winograd and FFT transforms, layout conversions, split-K reductions.
** Their names carry GEMM/conv/attention tokens (cudnn::gemm::, winograd,
** cutlass, flash_bwd) but they do no matrix math.  Matched on the full name: the split-K
** reduction of CUTLASS names itself only in a template argument. */
static const char *const helper_kernels[] = {
	"OffsetsKernel", "compute_gemm_pointers", "generateWinogradTilesKernel", "winogradForwardData",
	"winogradForwardFilter", "winogradForwardOutput", "winogradWgradData", "winogradWgradDelta",
	"winogradWgradOutput", "fft2d_r2c", "fft2d_c2r", "fft1d_r2c", "fft1d_c2r", "flip_filter",
	"nchwToNhwc", "nhwcToNchw", "im2col", "col2im", "Im2Col", "Im3d2Col", "Col2Im", "scalePackedTensor", "splitKreduce_kernel",
	"reduce_1Block_kernel", "ReduceSplitK", "reduce_wgrad_nchw_helper",
	/* FlashAttention's pre/post-processing around the fused kernels */
	"flash_bwd_dot_do_o", "flash_bwd_convert_dq", "flash_bwd_convert_dkv", "flash_bwd_clear_dkvaccum",
	"flash_fwd_splitkv_combine", NULL
};

/* Kernels that are not matrix math although their names start with an MMA
** library's prefix (sm50_xmma_pooling_fw_*, cutlass elementwise or
** reduction kernels).  Matched on the kernel's own name only (before its
** template arguments and parameters): the template arguments of real GEMMs
** name copy atoms and reduction epilogues. */
static const char *const not_mma[] = {
	"pooling", "Pooling", "elementwise", "Elementwise", "reduction", "Reduction", "reduce_", "_reduce",
	"copy", "Copy", "transpose", "Transpose", NULL
};

static bool has_any(const char *s, const char *const *needles)
{
	for (; *needles; needles++)
		if (strstr(s, *needles))
			return true;
	return false;
}

/* Whether the kernel's own name (name up to its first '<' or '(') contains
** any of the needles. */
static bool own_name_has_any(const char *name, const char *const *needles)
{
	char own[256];
	size_t n = strcspn(name, "<(");

	if (n >= sizeof(own))
		n = sizeof(own) - 1;
	memcpy(own, name, n);
	own[n] = '\0';
	return has_any(own, needles);
}

bool gp_kernel_is_helper(const char *name)
{
	return name && has_any(name, helper_kernels);
}

/* Whether a name cannot be a GEMM/conv/attention kernel whatever tokens it
** carries: a helper, or pooling/elementwise/reduction/copy by its own name. */
static bool not_matrix_math(const char *name)
{
	return gp_kernel_is_helper(name) || own_name_has_any(name, not_mma);
}

int gp_tc_kernel(const char *name)
{
	if (!name || !*name || not_matrix_math(name))
		return GP_TC_NOT_APPLICABLE;
	if (has_any(name, tc_simt))
		return GP_TC_NO;
	if (has_any(name, tc_yes))
		return GP_TC_YES;
	if (has_any(name, tc_no))
		return GP_TC_NO;
	return GP_TC_NOT_APPLICABLE;
}

/* Whether s contains needle other than as part of "fbgemm" (FBGEMM's
** embedding, permute and quantize kernels are not GEMMs). */
static bool has_not_fbgemm(const char *s, const char *needle)
{
	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		if (p - s < 2 || strncmp(p - 2, "fb", 2) != 0)
			return true;
	return false;
}

bool gp_kernel_is_gemm_like(const char *name)
{
	if (!name || not_matrix_math(name))
		return false;
	for (const char *const *n = gemm_like; *n; n++)
		if (has_not_fbgemm(name, *n))
			return true;
	return false;
}

/* Element-type tokens in kernel names, most specific first: fp8 before
** fp16 ("e4m3"), bf16 before fp16 ("bf16" contains "f16"), reduced
** precision before "float" (softmax<c10::Half, float> computes in half). */
static const struct {
	const char *pat;
	enum gp_dtype dt;
} dtype_pats[] = {
	{"e4m3", GP_DT_FP8_E4M3}, {"E4M3", GP_DT_FP8_E4M3}, {"e5m2", GP_DT_FP8_E5M2}, {"E5M2", GP_DT_FP8_E5M2},
	{"BFloat16", GP_DT_BF16}, {"bfloat16", GP_DT_BF16}, {"bf16", GP_DT_BF16}, {"__nv_bfloat", GP_DT_BF16},
	{"c10::Half", GP_DT_FP16}, {"__half", GP_DT_FP16}, {"fp16", GP_DT_FP16}, {"f16", GP_DT_FP16},
	{"h884", GP_DT_FP16}, {"h1688", GP_DT_FP16}, {"h16816", GP_DT_FP16}, {"hgemm", GP_DT_FP16},
	{"hmma", GP_DT_FP16}, {"half", GP_DT_FP16}, {"Half", GP_DT_FP16},
	{"tf32", GP_DT_TF32}, {"s1688gemm", GP_DT_TF32},
	{"sgemm", GP_DT_FP32}, {"scudnn", GP_DT_FP32}, {"float", GP_DT_FP32}, {"f32", GP_DT_FP32},
	{"dgemm", GP_DT_FP64}, {"double", GP_DT_FP64}, {"f64", GP_DT_FP64},
};

enum gp_dtype gp_kernel_dtype(const char *name)
{
	if (!name)
		return GP_DT_UNKNOWN;
	for (size_t i = 0; i < sizeof(dtype_pats) / sizeof(dtype_pats[0]); i++)
		if (strstr(name, dtype_pats[i].pat))
			return dtype_pats[i].dt;
	return GP_DT_UNKNOWN;
}

bool gp_dtype_tc_capable(enum gp_dtype dt)
{
	return dt == GP_DT_FP16 || dt == GP_DT_BF16 || dt == GP_DT_TF32 || dt == GP_DT_FP8_E4M3 ||
	       dt == GP_DT_FP8_E5M2 || dt == GP_DT_FP6 || dt == GP_DT_FP4;
}

/* Low-precision operand types in MMA kernel names: CUTLASS
** (cutlass3x_sm100_bstensorop_gemm_ue4m3xe2m1_ue4m3xe2m1_f32_bf16_bf16,
** ..._gemm_e4m3_e4m3_f32_bf16_bf16), cuBLAS (sm90_xmma_gemm_e4m3e4m3_...),
** TensorRT-LLM (bmm_E4m3_E2m1E2m1_Fp32, fmhaSm100aKernel_QkvE4m3...),
** DeepGEMM (sm90_fp8_gemm_1d2d_impl, m_grouped_fp8_gemm), FlashInfer,
** nvfp4/mxfp4 kernels.  A block-scale type (ue4m3, ue8m0: a 'u' before
** the token) is no operand; Float8_e8m0fnu, the scale dtype, is why
** "float8" alone is not a token (Float8_e4m3fn carries "e4m3"). */
static const struct {
	const char *pat;
	enum gp_dtype dt;
} lowp_pats[] = {
	{"e4m3", GP_DT_FP8_E4M3}, {"E4m3", GP_DT_FP8_E4M3}, {"E4M3", GP_DT_FP8_E4M3},
	{"e5m2", GP_DT_FP8_E5M2}, {"E5m2", GP_DT_FP8_E5M2}, {"E5M2", GP_DT_FP8_E5M2},
	{"fp8", GP_DT_FP8_E4M3}, {"Fp8", GP_DT_FP8_E4M3}, {"FP8", GP_DT_FP8_E4M3},
	{"e2m3", GP_DT_FP6}, {"E2m3", GP_DT_FP6}, {"E2M3", GP_DT_FP6},
	{"e3m2", GP_DT_FP6}, {"E3m2", GP_DT_FP6}, {"E3M2", GP_DT_FP6},
	{"fp6", GP_DT_FP6}, {"Fp6", GP_DT_FP6}, {"FP6", GP_DT_FP6},
	{"e2m1", GP_DT_FP4}, {"E2m1", GP_DT_FP4}, {"E2M1", GP_DT_FP4},
	{"fp4", GP_DT_FP4}, {"Fp4", GP_DT_FP4}, {"FP4", GP_DT_FP4},
};

/* How many bits a low-precision type has: the widest operand sets an
** MMA's rate (FP8 x FP4 runs as FP8: Blackwell's kind::f8f6f4). */
static int lowp_bits(enum gp_dtype dt)
{
	return dt == GP_DT_FP4 ? 4 : dt == GP_DT_FP6 ? 6 : dt == GP_DT_UNKNOWN ? 0 : 8;
}

/* The widest low-precision operand type in s[0..n), GP_DT_UNKNOWN if none. */
static enum gp_dtype lowp_in(const char *s, size_t n)
{
	enum gp_dtype best = GP_DT_UNKNOWN;

	for (size_t i = 0; i < sizeof(lowp_pats) / sizeof(lowp_pats[0]); i++) {
		size_t len = strlen(lowp_pats[i].pat);
		for (const char *p = s; p + len <= s + n; p++) {
			if (strncmp(p, lowp_pats[i].pat, len) != 0 || (p > s && (p[-1] == 'u' || p[-1] == 'U')))
				continue;
			if (lowp_bits(lowp_pats[i].dt) > lowp_bits(best))
				best = lowp_pats[i].dt;
			break;
		}
	}
	return best;
}

/* The n-th '_'-separated field of s (from 0) and its length in *len, NULL
** when s has fewer. */
static const char *field(const char *s, int n, size_t *len)
{
	for (; n > 0 && s; n--) {
		s = strchr(s, '_');
		s = s ? s + 1 : NULL;
	}
	if (!s)
		return NULL;
	*len = strcspn(s, "_");
	return s;
}

enum gp_dtype gp_kernel_mma_dtype(const char *name)
{
	const char *f, *p;
	size_t len;

	if (!name)
		return GP_DT_UNKNOWN;
	/* Tensile / hipBLASLt: Cijk_Alik_Bljk_F8BS_BH_...: the types field's
	** first (input) type, F8 (fp8) or B8 (bf8) */
	if ((p = strstr(name, "Cijk_")) != NULL) {
		f = field(p, 3, &len);
		if (f && len >= 2 && (f[0] == 'F' || f[0] == 'B') && f[1] == '8')
			return f[0] == 'F' ? GP_DT_FP8_E4M3 : GP_DT_FP8_E5M2;
		return GP_DT_UNKNOWN;
	}
	/* trtllm-gen: bmm_<out>_<A><B>_<acc>_...: only the inputs count; a
	** 16-bit one (W4A16: bmm_Bfloat16_MxE2m1Bfloat16) makes it a 16-bit MMA */
	if (strncmp(name, "bmm_", 4) == 0) {
		f = field(name, 2, &len);
		if (!f)
			return GP_DT_UNKNOWN;
		for (const char *q = f; q < f + len; q++)
			if (strncmp(q, "Bfloat16", 8) == 0 || strncmp(q, "Fp16", 4) == 0)
				return GP_DT_UNKNOWN;
		return lowp_in(f, len);
	}
	return lowp_in(name, strlen(name));
}

