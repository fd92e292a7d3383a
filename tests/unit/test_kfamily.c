/*
** Unit tests: kernel families (src/ops/kernels.def, kfamily.c) on real
** kernel names of every library the table knows, as the libraries spell
** them (their sources, their users' public profiles); the name patterns
** (util/namepat.h); and the op model's use of the families: a GEMM kernel
** under aten::mm is the GEMM whatever its name says about a bias, AMD
** matrix cores by MFMA/WMMA families, a Triton GEMM by its dtype.
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
#include "ops/opdefs.h"

static void patterns(void **state)
{
	struct gp_namepat p;
	char why[160];

	assert_true(gp_namepat_compile("name^sm#0_ & name~gemm", &p, why, sizeof(why)));
	assert_true(gp_namepat_match(&p, "sm80_xmma_gemm_f16", NULL));
	assert_false(gp_namepat_match(&p, "sm8x_gemm", NULL));
	assert_false(gp_namepat_match(&p, "sm80_xmma_fprop", NULL));
	assert_true(gp_namepat_compile("full~@ck::", &p, why, sizeof(why)));
	assert_true(gp_namepat_match(&p, "k", "void ck::kernel_gemm_xdl<1>()"));
	assert_false(gp_namepat_match(&p, "k", "void cub::block::k()"));
	/* a namespace in template arguments is not the kernel's */
	assert_true(gp_namepat_compile("qual~@fbgemm_gpu::", &p, why, sizeof(why)));
	assert_false(gp_namepat_match(&p, "vectorized_elementwise_kernel",
		"void at::native::vectorized_elementwise_kernel<4, fbgemm_gpu::_float_to_hfp8_gpu(at::Tensor const&)::{lambda(float)#1}>(int)"));
	assert_true(gp_namepat_match(&p, "permute_2D_lengths_kernel", "void fbgemm_gpu::permute_2D_lengths_kernel<int>(int)"));
	char q[128];
	assert_string_equal(gp_namepat_qual("k", "void at::native::(anonymous namespace)::k<float>(float)", q, sizeof(q)),
			    "at::native::(anonymous namespace)::k");
	assert_string_equal(gp_namepat_qual("avg_pool3d_cuda_update_output",
		"void at::native::<unnamed>::avg_pool3d_cuda_update_output<(int)2, float>(int)", q, sizeof(q)),
		"at::native::<unnamed>::avg_pool3d_cuda_update_output");
	assert_string_equal(gp_namepat_qual("volta_sgemm_128x64_tn", "volta_sgemm_128x64_tn", q, sizeof(q)), "volta_sgemm_128x64_tn");
	assert_true(gp_namepat_compile("!name=a|b", &p, why, sizeof(why)));
	assert_true(gp_namepat_match(&p, "c", NULL));
	assert_false(gp_namepat_match(&p, "b", NULL));
	/* bad patterns say why */
	assert_false(gp_namepat_compile("nme^x", &p, why, sizeof(why)));
	assert_non_null(strstr(why, "name, qual or full"));
	assert_false(gp_namepat_compile("name?x", &p, why, sizeof(why)));
	assert_false(gp_namepat_compile("name^", &p, why, sizeof(why)));
	assert_false(gp_namepat_compile("name^a b", &p, why, sizeof(why)));
	assert_false(gp_namepat_compile("", &p, why, sizeof(why)));
}

/* Every built-in row reads (a row that does not is skipped at run time). */
static void builtin_rows_read(void **state)
{
	struct gp_opdefs d;
	gp_error err;
	size_t rows = 0;
	FILE *f = fopen("src/ops/kernels.def", "r");
	char line[2048];

	assert_int_equal(gp_opdefs_init(&d, NULL, NULL, 0, &err), 0);
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		rows += strncmp(line, "GP_KFAM(", 8) == 0;
	fclose(f);
	assert_int_equal(d.kfams.n, rows);
	assert_true(d.hint.n == 1);
	gp_opdefs_free(&d);
}

static void names(void **state)
{
	static const struct {
		const char *name, *full, *family, *library;
		int tc;
	} cases[] = {
		/* NVIDIA cuBLAS / cuBLASLt */
		{"nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NTT", NULL, "gemm", "cuBLAS", GP_TC_YES},
		{"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", NULL, "gemm", "cuBLAS", GP_TC_YES},
		{"ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_tn", NULL, "gemm", "cuBLAS", GP_TC_YES},
		{"volta_sgemm_128x64_tn", NULL, "gemm", "cuBLAS", GP_TC_NO},
		{"gemv2T_kernel_val", "void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4, false, false>(float)", "gemm", "cuBLAS", GP_TC_NO},
		/* cuDNN, runtime-fused graphs included */
		{"sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel", NULL, "conv", "cuDNN", GP_TC_YES},
		{"cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_3_64x64x128_4x1x1_kernel0_0", NULL, "attention", "cuDNN", GP_TC_YES},
		{"cudnn_generated_sm90_fprop_runtime_fusion_kernel", NULL, "conv", "cuDNN", GP_TC_NOT_APPLICABLE},
		{"volta_scudnn_128x64_relu_interior_nn_v1", NULL, "conv", "cuDNN", GP_TC_NO},
		{"bn_fw_tr_1C11_kernel_NCHW", "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, 512, true, 1>(...)", "norm", "cuDNN", GP_TC_NOT_APPLICABLE},
		/* CUTLASS 2 and 3 */
		{"Kernel2", "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8::Params)", "gemm", "CUTLASS", GP_TC_YES},
		{"device_kernel", "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90TmaGmmaWarpSpecialized<4, cute::tuple<cute::C<1>>>>>>(...)", "gemm", "CUTLASS", GP_TC_YES},
		{"Kernel", "void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params)", "gemm", "CUTLASS", GP_TC_NO},
		{"Kernel", "void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688dgrad_optimized_tf32_64x128_32x3_nhwc_align4>(cutlass_tensorop_s1688dgrad_optimized_tf32_64x128_32x3_nhwc_align4::Params)", "conv", "CUTLASS", GP_TC_YES},
		/* FlashAttention 2 and 3, FlashInfer, xFormers */
		{"flash_fwd_kernel", "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, cutlass::bfloat16_t>, false>(pytorch_flash::Flash_fwd_params)", "attention", "FlashAttention", GP_TC_YES},
		{"device_kernel", "void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<flash::CollectiveMainloopFwdSm90<2, cute::tuple<cute::C<1>>, cute::tuple<cute::C<128>>, 128, cutlass::bfloat16_t>>>>(...)", "attention", "FlashAttention", GP_TC_YES},
		{"flash_bwd_dot_do_o_kernel", "void flash::flash_bwd_dot_do_o_kernel<true, Flash_bwd_kernel_traits<128>>(Flash_bwd_params)", "attention", "FlashAttention", GP_TC_NOT_APPLICABLE},
		{"BatchPrefillWithPagedKVCacheKernel", "void flashinfer::BatchPrefillWithPagedKVCacheKernel<flashinfer::KernelTraits<>, flashinfer::PagedParams>(...)", "attention", "FlashInfer", GP_TC_YES},
		{"BatchDecodeWithPagedKVCacheKernel", "void flashinfer::BatchDecodeWithPagedKVCacheKernel<flashinfer::PosEncodingMode(0), 2u>(...)", "attention", "FlashInfer", GP_TC_NO},
		{"RMSNormKernel", "void flashinfer::norm::RMSNormKernel<8u, __nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*, unsigned int, unsigned int, unsigned int, float)", "norm", "FlashInfer", GP_TC_NOT_APPLICABLE},
		{"fmha_cutlassF_f16_aligned_64x128_rf_sm80", "fmha_cutlassF_f16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::half_t, cutlass::arch::Sm80, true, 64, 128, 64, true, true>::Params)", "attention", "xFormers", GP_TC_YES},
		{"fmha_cutlassF_f32_aligned_64x64_rf_sm80", NULL, "attention", "xFormers", GP_TC_NO},
		/* TensorRT, TensorRT-LLM */
		{"fmha_v2_flash_attention_fp16_64_128_S_qkv_128_sm90_kernel", NULL, "attention", "TensorRT-LLM", GP_TC_YES},
		{"masked_multihead_attention_kernel", "void tensorrt_llm::kernels::mmha::masked_multihead_attention_kernel<__nv_bfloat16, 128>(...)", "attention", "TensorRT-LLM", GP_TC_NO},
		{"trt_volta_h884cudnn_256x64_ldg8_relu_exp_small_nhwc_tn_v1", NULL, "conv", "TensorRT", GP_TC_YES},
		{"__myl_bb0_3_MulAddRelu", NULL, "other", "TensorRT", GP_TC_NOT_APPLICABLE},
		/* Triton */
		{"triton_tem_fused_mm_0", NULL, "gemm", "Triton", GP_TC_NA},
		{"triton_tem_fused_convolution_1", NULL, "conv", "Triton", GP_TC_NA},
		{"triton_poi_fused_add_0", NULL, "other", "Triton", GP_TC_NOT_APPLICABLE},
		{"_matmul_ogs_NNT_bf16xbf16xmxfp4_128x128x128x1", NULL, "gemm", "triton_kernels", GP_TC_NA},
		{"attn_fwd", NULL, "attention", "Triton FlashAttention (ROCm)", GP_TC_NA},
		{"kernel_unified_attention_2d", NULL, "attention", "vLLM (Triton)", GP_TC_NA},
		{"fused_moe_kernel", NULL, "gemm", "vLLM (Triton)", GP_TC_NA},
		/* AMD: hipBLASLt / Tensile, rocBLAS */
		{"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_MIAV0_MIWT4_12_WS64_WG64_4_1", NULL, "gemm", "hipBLASLt/Tensile", GP_TC_YES},
		{"Cijk_Ailk_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT1x4x256_SN_LDSB0_AFC0_AFEM1_AFEM1_ASEM1_CLR0_MIAV0_WS64", NULL, "gemm", "hipBLASLt/Tensile", GP_TC_NO},
		{"rocblas_gemvt_kernel", "void rocblas_gemvt_kernel<false, 256, float, float const*, float*>(...)", "gemm", "rocBLAS", GP_TC_NO},
		/* AMD: Composable Kernel (xdl and wmma: matrix cores; dl: vector ALUs) */
		{"kernel_gemm_xdl_cshuffle_v3", "void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::gemm::RowMajor>, true, 1>(...)", "gemm", "Composable Kernel", GP_TC_YES},
		{"kernel_gemm_wmma", "void ck::kernel_gemm_wmma<ck::GridwiseGemmMultipleD_Wmma<_Float16>, true>(...)", "gemm", "Composable Kernel", GP_TC_YES},
		{"kernel_gemm_dl_v1r3", "void ck::kernel_gemm_dl_v1r3<ck::GridwiseGemmDl_km_kn_mn_v1r3<float>, true, true>(...)", "gemm", "Composable Kernel", GP_TC_NO},
		{"kernel_grouped_conv_fwd_xdl_cshuffle", "void ck::kernel_grouped_conv_fwd_xdl_cshuffle<ck::GridwiseGemmMultipleD_xdl_cshuffle<ck::half_t>, 1>(...)", "conv", "Composable Kernel", GP_TC_YES},
		{"kentry", "void ck_tile::kentry<256, 1, ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVSAsync<ck_tile::BlockFmhaPipelineProblem<ck_tile::bf16_t>>>>(...)", "attention", "Composable Kernel", GP_TC_YES},
		/* AMD: MIOpen (xdlops: MFMA) */
		{"igemm_fwd_gtcx3_nhwc_bf16_bx0_ex1_bt128x128x32_wt32x32x8_ws2x1_wr1x2_ta1x8x2x1_1x4x1x64_tb1x8x1x1_1x4x1x64", NULL, "conv", "MIOpen", GP_TC_YES},
		{"igemm_bwd_gtcx_nchw_fp16_bx0_ex1_bt64x64x32_wt16x16x4_ws1x1_wr2x2", NULL, "conv", "MIOpen", GP_TC_YES},
		{"igemm_fwd_gtc_nchw_fp32_bx0_ex1_bt128x128x8_tb1x1x1x1", NULL, "conv", "MIOpen", GP_TC_NO},
		{"naive_conv_fwd_nchw_float", NULL, "conv", "MIOpen", GP_TC_NO},
		{"MIOpenBatchNormFwdTrainSpatial", NULL, "norm", "MIOpen", GP_TC_NOT_APPLICABLE},
		/* AMD: AITER */
		{"fmha_fwd_hd128_bf16_causal", "aiter::fmha_fwd_hd128_bf16_causal", "attention", "AITER", GP_TC_YES},
		{"paged_attention_ll4mi_QKV_mfma16_kernel", "void aiter::paged_attention_ll4mi_QKV_mfma16_kernel<__hip_bfloat16, 16, 128>(...)", "attention", "AITER", GP_TC_YES},
		{"fmoe_bf16_blockscaleFp8_g1u1_vs_silu", "aiter::fmoe_bf16_blockscaleFp8_g1u1_vs_silu", "gemm", "AITER", GP_TC_YES},
		{"moe_sorting_kernel", "void aiter::moe_sorting_kernel<int>(...)", "other", "AITER", GP_TC_NOT_APPLICABLE},
		/* vLLM / SGLang custom ops */
		{"paged_attention_v2_kernel", "void vllm::paged_attention_v2_kernel<__nv_bfloat16, __nv_bfloat16, 128, 16, 128, (vllm::Fp8KVCacheDataType)0, false, 512>(...)", "attention", "vLLM", GP_TC_NO},
		{"fused_add_rms_norm_kernel", "void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(...)", "norm", "vLLM", GP_TC_NOT_APPLICABLE},
		{"act_and_mul_kernel", "void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel<c10::BFloat16>(c10::BFloat16 const&)), true>(...)", "other", "vLLM", GP_TC_NOT_APPLICABLE},
		{"Marlin", "void marlin::Marlin<__nv_bfloat16, 4, 256, 1, 8, 8, true, 4>(...)", "gemm", "Marlin", GP_TC_YES},
		{"wvSplitK_hf_sml_", "void wvSplitK_hf_sml_<__hip_bfloat16, 64, 2, 16, 8, 2, 1>(...)", "gemm", "vLLM", GP_TC_NA},
		/* communication: classify.c's table, whoever launched it */
		{"multimem_all_reduce_kernel", "void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*, unsigned long, unsigned int**, unsigned long, unsigned long)", "comm", "PyTorch symmetric memory", GP_TC_NOT_APPLICABLE},
		{"cross_device_reduce_1stage", "void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(...)", "comm", "vLLM/SGLang custom all-reduce", GP_TC_NOT_APPLICABLE},
		{"ncclDevKernel_AllReduce_Sum_bf16_NVLS", NULL, "comm", "NCCL/RCCL", GP_TC_NOT_APPLICABLE},
		{"dispatch", "void deep_ep::intranode::dispatch<8, 768, 8192>(...)", "comm", "DeepEP", GP_TC_NOT_APPLICABLE},
		/* not GEMMs although the name says gemm */
		{"permute_2D_lengths_kernel", "void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int const*, int*)", "other", "FBGEMM", GP_TC_NOT_APPLICABLE},
		{"sm50_xmma_pooling_fw_4d_FP16FP32NHWC_Max", NULL, "other", "cuDNN", GP_TC_NOT_APPLICABLE},
	};
	struct gp_opdefs d;
	gp_error err;
	int bad = 0;

	assert_int_equal(gp_opdefs_init(&d, NULL, NULL, 0, &err), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gp_kclass kc;
		gp_kernel_classify(&d, cases[i].name, cases[i].full, &kc);
		if (strcmp(gp_kfamily_name(kc.family), cases[i].family) != 0 || !kc.library ||
		    strcmp(kc.library, cases[i].library) != 0 || kc.tc != cases[i].tc) {
			print_error("%s: %s %s tc %d, expected %s %s tc %d\n", cases[i].name, gp_kfamily_name(kc.family),
				    kc.library ? kc.library : "-", kc.tc, cases[i].family, cases[i].library, cases[i].tc);
			bad++;
		}
	}
	/* an unknown name with a library's mark says which; a plain one none */
	struct gp_kclass kc;
	gp_kernel_classify(&d, "cutlass_new_thing", NULL, &kc);
	assert_int_equal(kc.family, GP_KF_NONE);
	assert_string_equal(kc.hint, "cutlass");
	gp_kernel_classify(&d, "my_kernel", NULL, &kc);
	assert_string_equal(kc.hint, "");
	gp_opdefs_free(&d);
	assert_int_equal(bad, 0);
}

#define F "torch.nn.functional"
#define FEQ(x, y) assert_true(fabs((double)(x) - (double)(y)) <= 1e-9 * (fabs((double)(y)) + 1))

/* The op model on AMD GEMMs and convolutions and on Triton GEMMs: the op's
** own FLOPs, the family's matrix-core verdict. */
static void op_model_by_family(void **state)
{
	struct fx f;

	fx_init(&f);
	fx_device(&f, "AMD Instinct MI300X", 304);
	/* 0: the MI300X torch.compile trace's mm: [32768,2048] x [2048,2048] */
	fx_kernel_at(&f, "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64_MI16x16x1_SN_LDSB1_ISA942_WG64_4_1",
		     1000, 597526, "aten", "aten::mm", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_BF16, 2, D(32768), D(2048));
	fx_tensor(&f, GP_DT_BF16, 2, D(2048), D(2048));
	/* 1: addmm's Tensile GEMM with a fused bias: the GEMM all the same */
	fx_kernel(&f, "Cijk_Ailk_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT64x64x256_MI16x16x1_SN", "aten", "aten::addmm",
		  GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_BF16, 1, D(64));
	fx_tensor(&f, GP_DT_BF16, 2, D(128), D(256));
	fx_tensor(&f, GP_DT_BF16, 2, D(256), D(64));
	/* 2: MIOpen xdlops convolution with batch 1 */
	fx_kernel(&f, "igemm_fwd_gtcx3_nhwc_bf16_bx0_ex1_bt128x128x32_wt32x32x8_ws2x1_wr1x2", "aten",
		  "aten::miopen_convolution", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_BF16, 4, D(1), D(64), D(56), D(56));
	fx_tensor(&f, GP_DT_BF16, 4, D(64), D(64), D(3), D(3));
	fx_list(&f, NULL, 2, D(1), D(1));
	fx_list(&f, NULL, 2, D(1), D(1));
	/* 3: CK dl (vector ALU) convolution */
	fx_kernel(&f, "void ck::kernel_grouped_conv_fwd_dl_multiple_d<ck::GridwiseGemmDlMultipleD<float>, 1>(...)", "aten",
		  "aten::miopen_convolution", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 4, D(1), D(64), D(56), D(56));
	fx_tensor(&f, GP_DT_FP32, 4, D(64), D(64), D(3), D(3));
	fx_list(&f, NULL, 2, D(1), D(1));
	fx_list(&f, NULL, 2, D(1), D(1));
	/* 4, 5: an Inductor GEMM template in bf16 and in fp32 */
	fx_kernel(&f, "triton_tem_fused_mm_0", "aten", "aten::mm", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_BF16, 2, D(128), D(256));
	fx_tensor(&f, GP_DT_BF16, 2, D(256), D(64));
	fx_kernel(&f, "triton_tem_fused_mm_0", "aten", "aten::mm", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 2, D(128), D(256));
	fx_tensor(&f, GP_DT_FP32, 2, D(256), D(64));
	/* 6: a copy under mm is no GEMM */
	fx_kernel(&f, "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(...)", "aten",
		  "aten::addmm", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 1, D(64));
	fx_tensor(&f, GP_DT_FP32, 2, D(128), D(256));
	fx_tensor(&f, GP_DT_FP32, 2, D(256), D(64));
	fx_done(&f);
	struct gp_opres *r = fx_ops(&f, NULL);

	/* 2*32768*2048*2048 = 2.75e11 in 0.598 ms, as issue 24 measured: 460
	** TFLOP/s, under MI300X's bf16 matrix peak */
	FEQ(r[0].flops, 274877906944.0);
	assert_false(r[0].overpeak);
	assert_int_equal(r[0].tc, GP_TC_YES);
	assert_null(r[0].op ? gp_s(&f.t, r[0].op) : NULL);    /* "mm", not "bias" */
	assert_string_equal(gp_opres_family(&r[0]), "gemm");
	/* M=64 N=128 K=256: 2*64*128*256 */
	FEQ(r[1].flops, 4194304);
	assert_int_equal(r[1].tc, GP_TC_YES);
	/* no padding (the lists are bias and stride): P = Q = 54;
	** 2*N1*K64*P54*Q54*C64*RS9 */
	FEQ(r[2].flops, 2.0 * 64 * 54 * 54 * 64 * 9);
	assert_int_equal(r[2].tc, GP_TC_YES);
	FEQ(r[3].flops, 2.0 * 64 * 54 * 54 * 64 * 9);
	assert_int_equal(r[3].tc, GP_TC_NO);
	/* 2*64*128*256; tensor cores by dtype: bf16 yes, fp32 cannot tell */
	FEQ(r[4].flops, 4194304);
	assert_int_equal(r[4].tc, GP_TC_YES);
	assert_int_equal(r[5].tc, GP_TC_NA);
	/* PyProf's bias row: M x N */
	assert_string_equal(gp_s(&f.t, r[6].op), "bias");
	FEQ(r[6].flops, 64 * 128);
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(patterns),
		cmocka_unit_test(builtin_rows_read),
		cmocka_unit_test(names),
		cmocka_unit_test(op_model_by_family),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
