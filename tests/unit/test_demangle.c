/*
** Unit tests: demangling and the short kernel name (src/util/demangle.c)
** that every reader gives a kernel.  The table holds each distinct form of
** kernel name found in ../shared/testdata (nsys, nvprof, Kineto of NVIDIA
** and AMD GPUs, cuDNN/cuBLAS/CUTLASS/CUB/NCCL/Triton/mshadow/fbgemm/Julia
** kernels) and the forms the issue names (enable_if return types, auto,
** lambdas, operator names, names cut mid-template).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/demangle.h"

static const struct {
	const char *full, *short_name;
} names[] = {
	/* plain C names (cuBLAS, cuDNN, NCCL, Triton, rocBLAS) */
	{"volta_sgemm_128x64_tn", "volta_sgemm_128x64_tn"},
	{"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
	 "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"},
	{"triton_poi_fused_add_cos_sin_0", "triton_poi_fused_add_cos_sin_0"},
	{"Cijk_Ailk_Bjlk_SB_Bias_AS_SAV_UserArgs_MT64x16x16_MI16x16x1_SN", "Cijk_Ailk_Bjlk_SB_Bias_AS_SAV_UserArgs_MT64x16x16_MI16x16x1_SN"},
	{"Memcpy", "Memcpy"},
	{"", ""},
	/* parameters without a return type (nsys' shortName of C kernels, Julia) */
	{"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
	 "ncclKernel_AllReduce_RING_LL_Sum_float"},
	{"compute_gemm_pointers(float2 **, const float2 *, int, const float2 *, int, int)", "compute_gemm_pointers"},
	{"add_arrays_(CuDeviceArray<Int64, (int)3, (int)1>, CuDeviceArray<Int64, (int)3, (int)1>)", "add_arrays_"},
	{"cask_cudnn::computeOffsetsKernel(cask_cudnn::ComputeOffsetsParams)", "computeOffsetsKernel"},
	{"cudnn::gemm::computeOffsetsKernel(cudnn::gemm::ComputeOffsetsParams)", "computeOffsetsKernel"},
	{"at::cuda::(anonymous namespace)::spin_kernel(long)", "spin_kernel"},
	/* void and a template */
	{"void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, "
	 "float, float, at::native::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, "
	 "float, float, at::native::MulFunctor<float> > const&)::{lambda(int)#1}>(int, "
	 "at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::MulFunctor<float> > "
	 ">(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::MulFunctor<float> > "
	 "const&)::{lambda(int)#1})", "elementwise_kernel"},
	{"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
	 "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
	 "vectorized_elementwise_kernel"},
	{"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<bool, at::native::func_wrapper_t<bool, "
	 "at::native::and_kernel_cuda(at::TensorIterator&)::{lambda(bool, bool)#1}>, unsigned int, bool, 4> >"
	 "(at::native::ReduceOp<bool, at::native::func_wrapper_t<bool, at::native::and_kernel_cuda(at::TensorIterator&)"
	 "::{lambda(bool, bool)#1}>, unsigned int, bool, 4>)", "reduce_kernel"},
	{"void cunn_ClassNLLCriterion_updateGradInput_kernel<float>(float*, float*, long*, float*, float*, int, int, int, int, long)",
	 "cunn_ClassNLLCriterion_updateGradInput_kernel"},
	{"void kernelReduceAllPass2<long, ReduceMin<long> >(int, long, ReduceMin<long>, long*, long*)", "kernelReduceAllPass2"},
	{"void fbgemm_gpu::permute_2D_data_kernel<false, int, int, decltype(nullptr)>(int, int, int, int const*, "
	 "decltype(nullptr) const*, int const*, int*, decltype(nullptr)*)", "permute_2D_data_kernel"},
	{"void deformable_im2col_gpu_kernel<float>(int, const T1 *, const T1 *, int, int, int)", "deformable_im2col_gpu_kernel"},
	/* namespaces other than PyTorch's */
	{"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, 512, true, 1>(cudnnTensorStruct, float const*)",
	 "bn_fw_tr_1C11_kernel_NCHW"},
	{"void cudnn::winograd::generateWinogradTilesKernel<(int)0, float, float>(cudnn::winograd::GenerateWinogradTilesParams<T2, T3>)",
	 "generateWinogradTilesKernel"},
	{"void mshadow::cuda::MapPlanKernel<mshadow::sv::plusto, 8, mshadow::expr::Plan<mshadow::Tensor<mshadow::gpu, "
	 "2, float>, float> >(mshadow::expr::Plan<mshadow::Tensor<mshadow::gpu, 2, float>, float>, int)", "MapPlanKernel"},
	{"void cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<long, float, int>::Policy800, false, long, "
	 "float, int, int>(int*, int*, int*)", "DeviceRadixSortOnesweepKernel"},
	{"void at_cuda_detail::cub::DeviceScanInitKernel<at_cuda_detail::cub::ScanTileState<long, true> >"
	 "(at_cuda_detail::cub::ScanTileState<long, true>, int)", "DeviceScanInitKernel"},
	{"void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, float, true, false, false>"
	 "(cublasLt::cublasSplitKParams<float>, float const*)", "splitKreduce_kernel"},
	{"void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, "
	 "cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, "
	 "true, false, false, true, true, false, false>(pytorch_flash::Flash_fwd_params)", "flash_fwd_kernel"},
	{"void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_bf16_256x128_64x3_tn_align2>"
	 "(cutlass_80_tensorop_bf16_s16816gemm_bf16_256x128_64x3_tn_align2::Params)", "Kernel2"},
	{"void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(T1::Params)", "Kernel"},
	{"cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8>(Params)", "Kernel2"},
	/* anonymous namespaces, both spellings */
	{"void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, true>(float*, float const*, int, int, int)",
	 "softmax_warp_forward"},
	{"void at::native::(anonymous namespace)::CatArrayBatchedCopy_aligned16_contig<at::native::(anonymous "
	 "namespace)::OpaqueType<4u>, unsigned int, 1, 128, 1>(at::native::(anonymous namespace)::OpaqueType<4u>*)",
	 "CatArrayBatchedCopy_aligned16_contig"},
	{"void at::native::<unnamed>::avg_pool3d_cuda_update_output<(int)2, float, float>"
	 "(at::GenericPackedTensorAccessor<T2, (unsigned long)4, at::DefaultPtrTraits, long>)",
	 "avg_pool3d_cuda_update_output"},
	{"void fbgemm_gpu::(anonymous namespace)::_FP8rowwise_to_float_cuda_kernel<float>(unsigned char const*, int)",
	 "_FP8rowwise_to_float_cuda_kernel"},
	{"(anonymous namespace)::k2(int)", "k2"},
	/* return types that are not "void" */
	{"std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, float, float, float, false, "
	 "true, false, false, 7, cublasGemvParams<cublasGemvTensorStridedBatched<float const> > >(float)", "kernel"},
	{"std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int, float2, (bool)0>(cublasGemvParams<T1>)", "kernel"},
	{"std::enable_if<(((8)>(0)))&&(((8)<=(16))), void>::type vllm::rms_norm_kernel<c10::BFloat16, 8>"
	 "(c10::BFloat16*, c10::BFloat16 const*, long, c10::BFloat16 const*, float, int, int)", "rms_norm_kernel"},
	{"std::enable_if<vllm::_typeConvert<c10::Half>::exists, void>::type "
	 "vllm::fused_add_rms_norm_kernel<c10::Half, 8>(c10::Half*, long, c10::Half*)", "fused_add_rms_norm_kernel"},
	{"auto vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, true>(c10::BFloat16*)",
	 "act_and_mul_kernel"},
	{"decltype(auto) ns::k3<int>(int)", "k3"},
	{"int* ns::alloc_kernel(int)", "alloc_kernel"},
	/* operator names, including the lambda form of __global__ lambdas */
	{"void ns::Functor<int>::operator()<float>(float)", "operator()"},
	{"void ns::op::operator<< <int>(int)", "operator<<"},
	{"ns::(anonymous namespace)::{lambda(int)#1}::operator()(int) const", "operator()"},
	/* cut by the profiler inside the template or parameter list */
	{"void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::nat", "elementwise_kernel"},
	{"std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, floa", "kernel"},
	{"void cudnn::ops::nchwToNhwcKernel<float, float, float, (bool)0, (bool)1, (cudnnKernelDataTy",
	 "nchwToNhwcKernel"},
	{"split_embedding_backward_codegen_find_long_segments(at::GenericPackedTensorAccessor<int, 1ul, at::Restr",
	 "split_embedding_backward_codegen_find_long_segments"},
};

static void short_name_table(void **state)
{
	char buf[512];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		gp_kernel_short_name(names[i].full, buf, sizeof(buf));
		if (strcmp(buf, names[i].short_name) != 0)
			fail_msg("short name of \"%s\": got \"%s\", expected \"%s\"", names[i].full, buf,
				 names[i].short_name);
	}
}

/* nvprof stores mangled names: the readers demangle, then shorten. */
static void mangled_then_short(void **state)
{
	static const struct {
		const char *mangled, *short_name;
	} m[] = {
		{"_ZN2at6native18elementwise_kernelEv", "elementwise_kernel"},
		{"_Z45cunn_ClassNLLCriterion_updateGradInput_kernelIfEvPT_S1_PlS1_S1_iiiil",
		 "cunn_ClassNLLCriterion_updateGradInput_kernel"},
		{"_ZN2at6native78_GLOBAL__N__54_tmpxft_00008e34_00000000_11_SoftMax_compute_75_cpp1_ii_a331004219"
		 "cunn_SoftMaxForwardILi2EfffNS1_25LogSoftMaxForwardEpilogueEEEvPT2_PT0_i", "cunn_SoftMaxForward"},
		{"_ZN2at6native18elementwise_kernelILi512ELi1EZNS0_15gpu_kernel_implIZZZNS0_15mul_kernel_cudaERNS_14"
		 "TensorIteratorEENKUlvE_clEvENKUlvE2_clEvEUlffE_EEvS4_RKT_EUliE0_EEviT1_", "elementwise_kernel"},
		{"_ZN7cutlass7Kernel2I27cutlass_80_tensorop_s1688gemmEEvNT_6ParamsE", "Kernel2"},
		{"_ZN4vllm15rms_norm_kernelIfLi8EEENSt9enable_ifIXaagtT0_Li0EleT0_Li16EEvE4typeEPT_PKS4_lS6_fii",
		 "rms_norm_kernel"},
	};
	char buf[256];

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		char *d = gp_demangle(m[i].mangled);
		if (!d)
			fail_msg("%s does not demangle", m[i].mangled);
		gp_kernel_short_name(d, buf, sizeof(buf));
		if (strcmp(buf, m[i].short_name) != 0)
			fail_msg("short name of %s (%s): got \"%s\", expected \"%s\"", m[i].mangled, d, buf,
				 m[i].short_name);
		free(d);
	}
	assert_null(gp_demangle("volta_sgemm_128x64_tn"));
	assert_null(gp_demangle(NULL));
}

/* A small buffer truncates the short name and never overflows. */
static void small_buffer(void **state)
{
	char buf[8];

	assert_string_equal(gp_kernel_short_name("void cuda::native::elementwise_kernel<1>(int)", buf, sizeof(buf)),
			    "element");
	assert_string_equal(gp_kernel_short_name("abc", buf, 1), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(short_name_table),
		cmocka_unit_test(mangled_then_short),
		cmocka_unit_test(small_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
