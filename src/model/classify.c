/*
** Records classified by their names; see classify.h.
*/
#include <string.h>

#include "model/classify.h"
#include "util/namepat.h"
#include "util/u64map.h"

/* Communication kernels, by library: the names of kernels that move data
** between GPUs (util/namepat.h patterns on the short and full name).  A
** kernel that only prepares a transfer on its own GPU (DeepEP's layout,
** a collective op's packing copy) is not here. */
static const struct {
	const char *library;
	const char *pattern;
} comm_kernels[] = {
	/* NCCL before 2.19 (ncclKernel_AllReduce_RING_LL_Sum_float), 2.19+
	** (ncclDevKernel_AllReduce_Sum_f16_RING_LL, NVLS and CollNet
	** algorithms alike), RCCL's copies of them; a bare "ncclKernel"
	** names no collective */
	{"NCCL/RCCL", "name^ncclKernel_|ncclDevKernel_"},
	/* NCCL 2.27+ symmetric-memory kernels (ncclSymkDevKernel_AllReduce_AGxLL_R_sum_f32) */
	{"NCCL symmetric memory", "name^ncclSymkDevKernel_|ncclSymDevKernel_"},
	{"RCCL", "name^rccl"},
	{"MSCCL", "name^mscclKernel"},
	{"MSCCL++", "full~@mscclpp::"},
	{"NVSHMEM", "name^nvshmem"},
	/* PyTorch symmetric memory (vLLM's and SGLang's all-reduce on NVLS):
	** multimem_all_reduce_kernel, multimem_one_shot_all_reduce_kernel,
	** one_shot_all_reduce_kernel, two_shot_all_reduce_kernel_inplace */
	{"PyTorch symmetric memory", "name^multimem_|one_shot_all_reduce|two_shot_all_reduce"},
	/* vLLM's and SGLang's custom all-reduce (one-stage and two-stage) */
	{"vLLM/SGLang custom all-reduce", "name^cross_device_reduce_"},
	/* TensorRT-LLM's one-shot and two-shot all-reduce, and its (and
	** FlashInfer's) all-reduce fused with the residual add and norm */
	{"TensorRT-LLM all-reduce", "name^oneShotAllReduce|twoShotAllReduce|allreduce_fusion_kernel"},
	{"vLLM quick all-reduce (ROCm)", "full~@quickreduce::"},
	/* DeepEP's expert-parallel dispatch and combine (and their notify
	** steps), not its layout kernel */
	{"DeepEP", "full~@deep_ep::intranode::|@deep_ep::internode & name~dispatch|combine|notify"},
};

/* The compiled patterns of comm_kernels (the table is constant: compiled
** on each call, a few microseconds, so nothing here is global state). */
static bool comm_match(size_t i, const char *short_name, const char *full_name)
{
	struct gp_namepat p;
	char why[8];

	return gp_namepat_compile(comm_kernels[i].pattern, &p, why, sizeof(why)) &&
	       gp_namepat_match(&p, short_name, full_name);
}

const char *gp_comm_kernel_library(const char *short_name, const char *full_name)
{
	if (!short_name && !full_name)
		return NULL;
	for (size_t i = 0; i < sizeof(comm_kernels) / sizeof(comm_kernels[0]); i++)
		if (comm_match(i, short_name, full_name))
			return comm_kernels[i].library;
	return NULL;
}

bool gp_kernel_name_is_comm(const char *short_name, const char *full_name)
{
	return gp_comm_kernel_library(short_name, full_name) != NULL;
}

void gp_trace_classify_kernels(gp_trace *t)
{
	gp_u64map seen = {0};   /* short name << 32 | full name -> comm */

	t->def_comm.n = 0;
	for (size_t i = 0; i < t->kernel_defs.n; i++) {
		const struct gp_kernel_def *d = &t->kernel_defs.v[i];
		gp_str s = d->name ? d->name : d->demangled, f = d->demangled ? d->demangled : d->name;
		uint64_t key = (uint64_t)s << 32 | f;
		int32_t comm = gp_u64map_get(&seen, key);
		if (comm < 0) {
			comm = gp_kernel_name_is_comm(gp_s(t, s), gp_s(t, f));
			gp_u64map_put(&seen, key, comm);
		}
		*gp_vec_push(t->def_comm) = (uint8_t)comm;
	}
	gp_u64map_free(&seen);
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
