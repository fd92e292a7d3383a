/*
** Records classified by their names; see classify.h.
*/
#include <string.h>

#include "model/classify.h"

/* Short-name prefixes of communication kernels: NCCL before 2.19
** (ncclKernel_AllReduce_RING_LL_Sum_float), NCCL 2.19+
** (ncclDevKernel_AllReduce_Sum_f16_RING_LL), RCCL's own kernels. */
static const char *const comm_prefixes[] = {"ncclKernel_", "ncclDevKernel_", "rccl", NULL};

bool gp_kernel_name_is_comm(const char *short_name)
{
	if (!short_name)
		return false;
	for (const char *const *p = comm_prefixes; *p; p++)
		if (strncmp(short_name, *p, strlen(*p)) == 0)
			return true;
	return false;
}

/* Whether the text of name just before end is word ("Stream" before
** "Synchronize" in "cudaStreamSynchronize"). */
static bool word_before(const char *name, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - name) >= n && strncmp(end - n, word, n) == 0;
}

enum gp_sync_call gp_api_sync_call(const char *name)
{
	const char *sync;

	if (!name)
		return GP_SYNC_CALL_NONE;
	sync = strstr(name, "Synchronize");
	if (sync) {
		if (word_before(name, sync, "Device") || word_before(name, sync, "Ctx") ||
		    word_before(name, sync, "Thread"))
			return GP_SYNC_CALL_DEVICE;
		if (word_before(name, sync, "Stream"))
			return GP_SYNC_CALL_STREAM;
		if (word_before(name, sync, "Event"))
			return GP_SYNC_CALL_EVENT;
		return GP_SYNC_CALL_OTHER;
	}
	/* blocking copies: cudaMemcpy, cudaMemcpy2D, cuMemcpyDtoH, hipMemcpy... */
	if ((strncmp(name, "cudaMemcpy", 10) == 0 || strncmp(name, "cuMemcpy", 8) == 0 ||
	     strncmp(name, "hipMemcpy", 9) == 0) &&
	    !strstr(name, "Async") && !strstr(name, "Symbol"))
		return GP_SYNC_CALL_COPY;
	return GP_SYNC_CALL_NONE;
}
