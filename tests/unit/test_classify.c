/*
** Unit tests: the model's one definition of a communication kernel and of
** a call that holds the host (model/classify.h).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "model/classify.h"

static void comm_kernel_names(void **state)
{
	/* every library's communication kernels, by short and full name */
	static const struct {
		const char *name, *full, *library;
	} comm[] = {
		{"ncclKernel_AllReduce_RING_LL_Sum_float", NULL, "NCCL/RCCL"},
		{"ncclDevKernel_AllGather_RING_LL", NULL, "NCCL/RCCL"},
		{"ncclDevKernel_AllReduce_Sum_bf16_NVLS", NULL, "NCCL/RCCL"},
		{"ncclDevKernel_Generic_1", "ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)", "NCCL/RCCL"},
		{"ncclSymkDevKernel_AllReduce_AGxLL_R_sum_f32",
		 "ncclSymkDevKernel_AllReduce_AGxLL_R_sum_f32(ncclSymkDevWorkArgs4K)", "NCCL symmetric memory"},
		{"rcclGenericKernel", NULL, "RCCL"},
		{"mscclKernel_Sum_bf16_LL", NULL, "MSCCL"},
		{"allreduce6", "void mscclpp::allreduce6<__nv_bfloat16>(__nv_bfloat16*, mscclpp::DeviceHandle<mscclpp::SmChannel>*, unsigned long, int, int, int, unsigned long)", "MSCCL++"},
		{"nvshmemi_transfer_rma_kernel", NULL, "NVSHMEM"},
		{"multimem_all_reduce_kernel",
		 "void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*, unsigned long, unsigned int**, unsigned long, unsigned long)",
		 "PyTorch symmetric memory"},
		{"one_shot_all_reduce_kernel", NULL, "PyTorch symmetric memory"},
		{"two_shot_all_reduce_kernel_inplace", NULL, "PyTorch symmetric memory"},
		{"cross_device_reduce_1stage",
		 "void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)",
		 "vLLM/SGLang custom all-reduce"},
		{"cross_device_reduce_2stage", NULL, "vLLM/SGLang custom all-reduce"},
		{"oneShotAllReduceKernel", NULL, "TensorRT-LLM all-reduce"},
		{"twoShotAllReduceKernel", NULL, "TensorRT-LLM all-reduce"},
		{"allreduce_prototype_twoshot", "void quickreduce::allreduce_prototype_twoshot<quickreduce::AllReduceTwoshot<quickreduce::CodecFP<__hip_bfloat16>>>(...)",
		 "vLLM quick all-reduce (ROCm)"},
		{"dispatch", "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*, long*, float*, int*, int*, int4 const*, float const*, long const*, float const*, bool const*, int const*, int, int, int, int, int, int, int, void**, int, int, int)", "DeepEP"},
		{"combine", "void deep_ep::internode_ll::combine<false, 7168>(void*, int*, int*, void*, void const*, long const*, int const*, int const*, int*, void*, int, int, int, int, int, int, int, int, int, int, int)", "DeepEP"},
		/* forks in other namespaces, by their tokens (issue 34) */
		{"intranode_dispatch", "void my_ep::intranode_dispatch<8, 768>(int*, void const*)",
		 "expert-parallel dispatch/combine"},
		{"combine", "void moe_ep::internode::combine<false>(void*)", "expert-parallel dispatch/combine"},
		{"all_to_all_v_kernel", "void fastcomm::all_to_all_v_kernel<4>(int*)", "all-to-all"},
		{"allreduce_fusion_kernel_oneshot_lamport",
		 "void tensorrt_llm::kernels::ar_fusion::allreduce_fusion_kernel_oneshot_lamport<__nv_bfloat16>(int*)",
		 "TensorRT-LLM all-reduce"},
		{"lamport_one_shot_all_gather", "void myfork::lamport_one_shot_all_gather<8>(int*)", "custom all-reduce"},
		{"custom_all_reduce_kernel", NULL, "custom all-reduce"},
		{"nvshmemi_transfer_rma", "void nvshmemi_transfer_rma(int)", "NVSHMEM"},
		{"put_tokens", "void myfork::nvshmem::put_tokens<4>(int*)", "NVSHMEM"},
		{"ag_multimem_kernel", "void fork::ag_multimem_kernel<16>(int*)", "NVLS multimem"},
	};
	for (size_t i = 0; i < sizeof(comm) / sizeof(comm[0]); i++) {
		const char *lib = gp_comm_kernel_library(comm[i].name, comm[i].full);
		if (!lib || strcmp(lib, comm[i].library) != 0)
			fail_msg("%s: %s, not %s", comm[i].name, lib ? lib : "not communication", comm[i].library);
		assert_true(gp_kernel_name_is_comm(comm[i].name, comm[i].full));
	}
	/* names that look alike and are local work */
	assert_false(gp_kernel_name_is_comm("ncclKernel", NULL));          /* no collective named */
	assert_false(gp_kernel_name_is_comm("my_nccl_pack_kernel", NULL));
	assert_false(gp_kernel_name_is_comm("elementwise_kernel", NULL));
	assert_false(gp_kernel_name_is_comm("get_dispatch_layout",
		"void deep_ep::layout::get_dispatch_layout<256, 32, 8>(long const*, int*, int*, int*, bool*, int, int, int, int)"));
	assert_false(gp_kernel_name_is_comm("dispatch", "void my::moe::dispatch<4>(float*)"));
	assert_false(gp_kernel_name_is_comm("reduce_kernel", "void at::native::reduce_kernel<512, 1>(...)"));
	assert_false(gp_kernel_name_is_comm("groupnorm_kernel_dispatch_down",
		"void (anonymous namespace)::groupnorm_kernel_dispatch_down<__hip_bfloat16, 1024u>(unsigned int)"));
	assert_false(gp_kernel_name_is_comm("_combined_routing_compute", NULL));
	assert_false(gp_kernel_name_is_comm("notify_dispatch_layout", "void my_ep::notify_dispatch_layout<1>(int*)"));
	assert_false(gp_kernel_name_is_comm(NULL, NULL));
}

static void sync_call_kinds(void **state)
{
	/* calls that wait, in every runtime, by what they wait for */
	assert_int_equal(gp_api_sync_call("cudaDeviceSynchronize"), GP_SYNC_CALL_DEVICE);
	assert_int_equal(gp_api_sync_call("cuCtxSynchronize"), GP_SYNC_CALL_DEVICE);
	assert_int_equal(gp_api_sync_call("cudaThreadSynchronize"), GP_SYNC_CALL_DEVICE);
	assert_int_equal(gp_api_sync_call("hipDeviceSynchronize"), GP_SYNC_CALL_DEVICE);
	assert_int_equal(gp_api_sync_call("cudaStreamSynchronize"), GP_SYNC_CALL_STREAM);
	assert_int_equal(gp_api_sync_call("cuStreamSynchronize"), GP_SYNC_CALL_STREAM);
	assert_int_equal(gp_api_sync_call("hipStreamSynchronize"), GP_SYNC_CALL_STREAM);
	assert_int_equal(gp_api_sync_call("cudaEventSynchronize"), GP_SYNC_CALL_EVENT);
	assert_int_equal(gp_api_sync_call("hipEventSynchronize"), GP_SYNC_CALL_EVENT);
	assert_int_equal(gp_api_sync_call("cudaGraphSynchronize"), GP_SYNC_CALL_OTHER);
	/* blocking copies, not the async ones or symbol copies */
	assert_int_equal(gp_api_sync_call("cudaMemcpy"), GP_SYNC_CALL_COPY);
	assert_int_equal(gp_api_sync_call("cudaMemcpy2D"), GP_SYNC_CALL_COPY);
	assert_int_equal(gp_api_sync_call("cuMemcpyDtoH_v2"), GP_SYNC_CALL_COPY);
	assert_int_equal(gp_api_sync_call("hipMemcpyWithStream"), GP_SYNC_CALL_COPY);
	assert_int_equal(gp_api_sync_call("cudaMemcpyAsync"), GP_SYNC_CALL_NONE);
	assert_int_equal(gp_api_sync_call("hipMemcpyAsync"), GP_SYNC_CALL_NONE);
	assert_int_equal(gp_api_sync_call("cudaMemcpyToSymbol"), GP_SYNC_CALL_NONE);
	/* neither */
	assert_int_equal(gp_api_sync_call("cudaStreamWaitEvent"), GP_SYNC_CALL_NONE);
	assert_int_equal(gp_api_sync_call("cudaLaunchKernel"), GP_SYNC_CALL_NONE);
	assert_int_equal(gp_api_sync_call(NULL), GP_SYNC_CALL_NONE);
	/* what the time breakdown counts as waiting: not the copies */
	assert_true(gp_sync_call_waits(GP_SYNC_CALL_STREAM));
	assert_true(gp_sync_call_waits(GP_SYNC_CALL_OTHER));
	assert_false(gp_sync_call_waits(GP_SYNC_CALL_COPY));
	assert_false(gp_sync_call_waits(GP_SYNC_CALL_NONE));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(comm_kernel_names),
		cmocka_unit_test(sync_call_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
