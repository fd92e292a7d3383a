/*
** Unit tests: the model's one definition of a communication kernel and of
** a call that holds the host (model/classify.h).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "model/classify.h"

static void comm_kernel_names(void **state)
{
	assert_true(gp_kernel_name_is_comm("ncclKernel_AllReduce_RING_LL_Sum_float"));
	assert_true(gp_kernel_name_is_comm("ncclDevKernel_AllGather_RING_LL"));
	assert_true(gp_kernel_name_is_comm("rcclGenericKernel"));
	assert_false(gp_kernel_name_is_comm("ncclKernel"));          /* no collective named */
	assert_false(gp_kernel_name_is_comm("my_nccl_pack_kernel"));
	assert_false(gp_kernel_name_is_comm("elementwise_kernel"));
	assert_false(gp_kernel_name_is_comm(NULL));
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
