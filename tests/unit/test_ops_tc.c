/*
** Unit tests: tensor-core and dtype patterns on real kernel names (Volta
** to Blackwell), the GPU peak table and the roofline arithmetic.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/ops.h"

static void tensor_core_names(void **state)
{
	static const char *const yes[] = {
		"volta_h884gemm_64x64_ldg8_nn",
		"volta_fp16_s884cudnn_fp16_128x128_ldg8_relu_f2f_exp_small_nhwc_tn_v1",
		"turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_nn",
		"ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_tn",
		"ampere_tf32_s1688gemm_tf32_128x128_ldg4_stages_32x3_nn",
		"sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel",
		"sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel",
		"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
		"nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NTT",
		"void cutlass::Kernel2<cutlass_80_tensorop_s16816gemm_relu_f16_64x64_32x6_tn_align8>(cutlass_80_tensorop_s16816gemm_relu_f16_64x64_32x6_tn_align8::Params)",
		"void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90TmaGmmaWarpSpecialized<4, cute::tuple<cute::C<1>>>>>>(...)",
		"void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, cutlass::half_t>, false>(Flash_fwd_params)",
		"fmha_cutlassF_f16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::half_t, cutlass::arch::Sm80, true, 64, 128, 64, true, true>::Params)",
		"sm100_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_cga2x1x1_tcgen05",
		"volta_int8_i8816gemm_int8_128x128_ldg16_nn",
		NULL
	};
	static const char *const no[] = {
		"volta_sgemm_128x64_tn",
		"ampere_sgemm_64x32_sliced1x4_nn",
		"void cutlass::Kernel<cutlass_80_simt_sgemm_128x128_8x4_nn_align1>(cutlass_80_simt_sgemm_128x128_8x4_nn_align1::Params)",
		"sm80_xmma_fprop_implicit_gemm_indexed_wo_smem_f32f32_f32f32_f32_nhwckrsc_nchw_tilesize32x32x8_stage1_warpsize1x2x1_g1_tensor1x1x1_execute_kernel__5x_cudnn",
		"fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<float, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)",
		"volta_scudnn_128x64_relu_interior_nn_v1",
		"void cudnn::detail::implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, false, true>(int, int)",
		"void cudnn::detail::wgrad_alg0_engine<float, 128, 6, 7, 3, 3, 5, false, 512>(int, int)",
		"void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4, false, false>(float)",
		"maxwell_hgemm_128x64_nn",
		NULL
	};
	static const char *const na[] = {
		"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
		"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
		"cunn_SoftMaxForward", "",
		"void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int const*, int*)",
		"sm50_xmma_pooling_fw_4d_FP16FP32NHWC_Max",          /* MMA prefix, not matrix math */
		"void cutlass::reduction::kernel::ReduceSplitK<cutlass::MatrixShape<4, 64>>(Params)",
		"void at::native::compute_summary_kernel<float>(float const*, float*, long)",   /* "umma" */
		NULL
	};
	for (int i = 0; yes[i]; i++) {
		print_message("yes: %s\n", yes[i]);
		assert_int_equal(gp_tc_kernel(yes[i]), GP_TC_YES);
		assert_true(gp_kernel_is_gemm_like(yes[i]) || strstr(yes[i], "flash") || strstr(yes[i], "i8816"));
	}
	for (int i = 0; no[i]; i++) {
		print_message("no: %s\n", no[i]);
		assert_int_equal(gp_tc_kernel(no[i]), GP_TC_NO);
		assert_true(gp_kernel_is_gemm_like(no[i]));
	}
	for (int i = 0; na[i]; i++) {
		assert_int_equal(gp_tc_kernel(na[i]), GP_TC_NOT_APPLICABLE);
		assert_false(gp_kernel_is_gemm_like(na[i]));
	}
	assert_int_equal(gp_tc_kernel(NULL), GP_TC_NOT_APPLICABLE);
}

static void dtype_from_names(void **state)
{
	assert_int_equal(gp_kernel_dtype("ampere_bf16_s16816gemm_bf16_128x64"), GP_DT_BF16);
	assert_int_equal(gp_kernel_dtype("volta_h884gemm_64x64_ldg8_nn"), GP_DT_FP16);
	assert_int_equal(gp_kernel_dtype("cunn_SoftMaxForward<4, c10::Half, float, c10::Half>"), GP_DT_FP16);
	assert_int_equal(gp_kernel_dtype("ampere_tf32_s1688gemm_tf32_128x128"), GP_DT_TF32);
	assert_int_equal(gp_kernel_dtype("volta_sgemm_128x64_tn"), GP_DT_FP32);
	assert_int_equal(gp_kernel_dtype("sm90_xmma_gemm_e4m3e4m3_e4m3f32_f32"), GP_DT_FP8_E4M3);
	assert_int_equal(gp_kernel_dtype("elementwise_kernel"), GP_DT_UNKNOWN);
	assert_int_equal(gp_kernel_dtype(NULL), GP_DT_UNKNOWN);
}

/* The MMA's low-precision type by library: the widest operand, never a
** block-scale type, never an output; a 16-bit input (W4A16) is no
** low-precision MMA. */
static void mma_dtype_from_names(void **state)
{
	(void)state;
	assert_int_equal(gp_kernel_mma_dtype("sm90_xmma_gemm_e4m3e4m3_e4m3f32_f32_tn_n_tilesize128x128x128"),
			 GP_DT_FP8_E4M3);
	assert_int_equal(gp_kernel_mma_dtype("cutlass3x_sm100_bstensorop_gemm_ue4m3xe2m1_ue4m3xe2m1_f32_bf16_bf16_128x128x256"),
			 GP_DT_FP4);
	assert_int_equal(gp_kernel_mma_dtype("cutlass3x_sm100_bstensorop_gemm_ue8m0xe2m1_ue8m0xe2m1_f32_void_ue8m0xe2m1"),
			 GP_DT_FP4);
	assert_int_equal(gp_kernel_mma_dtype("cutlass3x_sm100_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_256x128x128"),
			 GP_DT_FP8_E4M3);
	/* trtllm-gen: MXFP4 weights x MXFP8 activations run as an FP8 MMA
	** (Blackwell's kind::mxf8f6f4), whatever the output */
	assert_int_equal(gp_kernel_mma_dtype("bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3_et128x16_sm100f"),
			 GP_DT_FP8_E4M3);
	assert_int_equal(gp_kernel_mma_dtype("bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3"), GP_DT_FP8_E4M3);
	assert_int_equal(gp_kernel_mma_dtype("bmm_E4m3_E2m1E2m1_Fp32_t128x8x512_s3"), GP_DT_FP4);
	assert_int_equal(gp_kernel_mma_dtype("bmm_Bfloat16_MxE2m1Bfloat16_Fp32_t128x8x256"), GP_DT_UNKNOWN);
	assert_int_equal(gp_kernel_mma_dtype("fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvCausalP16"), GP_DT_FP8_E4M3);
	assert_int_equal(gp_kernel_mma_dtype("void deep_gemm::sm90_fp8_gemm_1d2d_impl<0u, 4096u, 7168u>(float*)"),
			 GP_DT_FP8_E4M3);
	assert_int_equal(gp_kernel_mma_dtype("void deep_gemm::sm100_fp8_fp4_gemm_1d1d_impl<128u>(int*)"),
			 GP_DT_FP8_E4M3);
	/* Tensile: the types field's input type */
	assert_int_equal(gp_kernel_mma_dtype("Cijk_Alik_Bljk_F8BS_BH_Bias_HA_S_SAB_SAV_UserArgs_MT256x256x128_MI16x16x1"),
			 GP_DT_FP8_E4M3);
	assert_int_equal(gp_kernel_mma_dtype("Custom_Cijk_Alik_Bljk_B8F8BS_BH_MT256x256x128"), GP_DT_FP8_E5M2);
	assert_int_equal(gp_kernel_mma_dtype("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x128x64_MI16x16x1"),
			 GP_DT_UNKNOWN);
	assert_int_equal(gp_kernel_mma_dtype("nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT"), GP_DT_UNKNOWN);
	assert_int_equal(gp_kernel_mma_dtype(NULL), GP_DT_UNKNOWN);
	assert_true(gp_dtype_tc_capable(GP_DT_TF32));
	assert_false(gp_dtype_tc_capable(GP_DT_FP32));
}

static void gpu_table_lookup_and_peaks(void **state)
{
	const struct gp_gpu *g;

	g = gp_gpu_lookup("NVIDIA A100-PG509-200");
	assert_non_null(g);
	assert_string_equal(g->name, "A100-SXM4-40GB");
	assert_string_equal(gp_gpu_lookup("NVIDIA A100-SXM4-80GB")->name, "A100-SXM4-80GB");
	assert_string_equal(gp_gpu_lookup("Tesla V100-SXM2-16GB")->name, "V100-SXM2");
	assert_string_equal(gp_gpu_lookup("Tesla V100-DGXS-32GB")->name, "V100-SXM2");
	assert_string_equal(gp_gpu_lookup("NVIDIA H100 80GB HBM3")->name, "H100-SXM");
	assert_string_equal(gp_gpu_lookup("NVIDIA H100 PCIe")->name, "H100-PCIE");
	assert_string_equal(gp_gpu_lookup("NVIDIA H200")->name, "H200");
	assert_string_equal(gp_gpu_lookup("NVIDIA B200")->name, "B200");
	assert_string_equal(gp_gpu_lookup("NVIDIA A10")->name, "A10");
	assert_string_equal(gp_gpu_lookup("NVIDIA L40S")->name, "L40S");
	assert_string_equal(gp_gpu_lookup("NVIDIA L4")->name, "L4");
	assert_string_equal(gp_gpu_lookup("NVIDIA GeForce RTX 4090")->name, "RTX 4090");
	assert_string_equal(gp_gpu_lookup("NVIDIA GeForce RTX 2080 Ti")->name, "RTX 2080 Ti");
	assert_string_equal(gp_gpu_lookup("Tesla T4")->name, "T4");
	assert_null(gp_gpu_lookup("AMD Radeon Graphics"));
	assert_null(gp_gpu_lookup(""));
	assert_null(gp_gpu_lookup(NULL));

	g = gp_gpu_lookup("A100");
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP16, true) == 312e12);
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP16, false) == 39e12);
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP32, false) == 19.5e12);
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP32, true) == 156e12);      /* TF32 */
	assert_true(gp_gpu_peak_flops(g, GP_DT_UNKNOWN, false) == 19.5e12);
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP64, true) == 19.5e12);
	g = gp_gpu_lookup("Quadro GP100");
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP16, true) == 2 * 10.3e12); /* no tensor cores */
	assert_true(gp_gpu_peak_flops(NULL, GP_DT_FP32, false) == 0);
	/* element-type peaks (datasheets, dense): FP8 twice BF16 on Hopper;
	** FP6 at the FP8 rate and FP4 twice it on B200; MI355X FP6 = FP4 */
	g = gp_gpu_lookup("NVIDIA H100 80GB HBM3");
	assert_non_null(g);
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP8_E4M3, true) == 2 * gp_gpu_peak_flops(g, GP_DT_BF16, true));
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP8_E4M3, true) == 1979e12);
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP4, true) == 1979e12);       /* no FP4 MMA: the FP8 rate */
	g = gp_gpu_lookup("NVIDIA B200");
	assert_non_null(g);
	assert_true(gp_gpu_peak_flops(g, GP_DT_BF16, true) == 2250e12);
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP8_E5M2, true) == 4500e12);
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP6, true) == 4500e12);
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP4, true) == 9000e12);
	assert_true(gp_gpu_peak_flops(g, GP_DT_FP4, false) == 75e12);
	g = gp_gpu_lookup("NVIDIA GB300");
	assert_true(g && gp_gpu_peak_flops(g, GP_DT_FP4, true) == 15000e12);
	g = gp_gpu_lookup("AMD Instinct MI300X");
	assert_true(g && gp_gpu_peak_flops(g, GP_DT_FP8_E4M3, true) == 2614.9e12);
	g = gp_gpu_lookup("AMD Instinct MI355X");
	assert_true(g && gp_gpu_peak_flops(g, GP_DT_FP6, true) == 10066.3e12 &&
		    gp_gpu_peak_flops(g, GP_DT_FP4, true) == 10066.3e12 &&
		    gp_gpu_peak_flops(g, GP_DT_FP8_E4M3, true) == 5033.2e12);
}

static void roofline_math(void **state)
{
	struct gp_roofline r;

	/* 1 GFLOP, 1 MB in 1 ms on 1 TFLOP/s and 1 TB/s: compute time 1 ms,
	** memory 1 us: compute bound, efficiency 1. */
	gp_roofline(1e9, 1e6, 1e6, 1e12, 1e12, &r);
	assert_true(fabs(r.gflops - 1000) < 1e-9);
	assert_true(fabs(r.gbps - 1) < 1e-9);
	assert_true(fabs(r.intensity - 1000) < 1e-9);
	assert_true(fabs(r.ideal_ns - 1e6) < 1e-6);
	assert_true(fabs(r.eff - 1) < 1e-12);
	assert_int_equal(r.bound, 1);
	/* memory bound: 1e9 bytes at 1e12 B/s = 1 ms ideal, measured 4 ms */
	gp_roofline(1e6, 1e9, 4e6, 1e15, 1e12, &r);
	assert_int_equal(r.bound, 0);
	assert_true(fabs(r.eff - 0.25) < 1e-12);
	/* unknown inputs */
	gp_roofline(-1, 1e9, 4e6, 1e15, 1e12, &r);
	assert_true(r.gflops < 0 && r.ideal_ns < 0 && r.eff < 0 && r.bound == -1);
	assert_true(r.gbps > 0);
	gp_roofline(1e6, 1e9, 4e6, 0, 1e12, &r);
	assert_true(r.eff < 0);
}

/* The tensor-core value report gives a kernel name: "1", "0" (a GEMM or
** convolution on CUDA cores) or "-". */
static const char *tc_class(const char *name)
{
	int tc = gp_tc_kernel(name);

	if (tc == GP_TC_YES)
		return "1";
	return tc == GP_TC_NO || gp_kernel_is_gemm_like(name) ? "0" : "-";
}

/* Every GEMM/conv/attention-looking kernel name of the shared traces, with
** the value reviewed by hand (tests/data/tc_names.tsv): a pattern added to
** tc.c must not change any of them unnoticed. */
static void reviewed_names(void **state)
{
	const char *path = getenv("GPUPROF_TC_NAMES");
	FILE *f = fopen(path && *path ? path : "tests/data/tc_names.tsv", "r");
	char line[16384];
	int rows = 0, bad = 0;
	bool header = true;

	if (!f)
		fail_msg("cannot open tests/data/tc_names.tsv (run from the repository root)");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *tab = strchr(line, '\t');
		if (line[0] == '#' || !line[0])
			continue;
		if (!tab)
			fail_msg("tc_names.tsv: no tab in '%s'", line);
		*tab = '\0';
		if (header) {
			header = false;
			continue;
		}
		rows++;
		if (strcmp(tc_class(tab + 1), line) != 0) {
			print_error("tc %s expected %s: %s\n", tc_class(tab + 1), line, tab + 1);
			bad++;
		}
	}
	fclose(f);
	assert_true(rows >= 300);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tensor_core_names),
		cmocka_unit_test(reviewed_names),
		cmocka_unit_test(dtype_from_names),
		cmocka_unit_test(mma_dtype_from_names),
		cmocka_unit_test(gpu_table_lookup_and_peaks),
		cmocka_unit_test(roofline_math),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
