/*
** Records classified by their names; see classify.h.
*/
#include <stdbool.h>
#include <stddef.h>
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
	/* the libraries' namespaces, whatever the kernel's own name */
	{"NCCL/RCCL", "qual~@nccl::|@rccl::"},
	{"MSCCL", "qual~@msccl::"},
	/* NVSHMEM's own kernels and any kernel in its namespace or named
	** after it (nvshmemi_*, a fork's *_nvshmem_* transfers) */
	{"NVSHMEM", "qual~nvshmem|NVSHMEM"},
	/* PyTorch symmetric memory (vLLM's and SGLang's all-reduce on NVLS):
	** multimem_all_reduce_kernel, multimem_one_shot_all_reduce_kernel,
	** one_shot_all_reduce_kernel, two_shot_all_reduce_kernel_inplace;
	** any other kernel on NVLS multimem addresses */
	{"PyTorch symmetric memory", "name^multimem_|one_shot_all_reduce|two_shot_all_reduce"},
	{"NVLS multimem", "qual~multimem|Multimem"},
	/* vLLM's and SGLang's custom all-reduce (one-stage and two-stage) */
	{"vLLM/SGLang custom all-reduce", "name^cross_device_reduce_"},
	/* TensorRT-LLM's one-shot and two-shot all-reduce, and its (and
	** FlashInfer's) all-reduce fused with the residual add and norm */
	{"TensorRT-LLM all-reduce", "name^oneShotAllReduce|twoShotAllReduce|allreduce_fusion_kernel"},
	{"vLLM quick all-reduce (ROCm)", "full~@quickreduce::"},
	/* DeepEP's expert-parallel dispatch and combine (and their notify
	** steps), not its layout kernel */
	{"DeepEP", "full~@deep_ep::intranode::|@deep_ep::internode & name~dispatch|combine|notify"},
	/* forks and look-alikes of the above in any namespace
	** (docs/comm.md, "Which kernels are communication"): expert-parallel
	** dispatch, combine and notify (my_ep::intranode_dispatch,
	** moe_ep::internode::combine), not a layout or routing kernel.  "moe"
	** alone does not make one: a MoE layer's local token permutation is
	** named dispatch too (my::moe::dispatch); those under a dispatch or
	** combine annotation are found by their launcher (commclass.c) */
	{"expert-parallel dispatch/combine",
	 "qual~dispatch|combine|notify|Dispatch|Combine|Notify & "
	 "qual~intranode|internode|Intranode|Internode|deep_ep|deepep|DeepEP|_ep::|@ep::|_ep_|@ep_|_EP|@EP & "
	 "!qual~layout|Layout|routing|Routing"},
	/* all-to-all kernels of any library */
	{"all-to-all", "qual~all_to_all|alltoall|AllToAll|Alltoall|allToAll|all2all|All2All"},
	/* one-shot, two-shot and Lamport all-reduce and all-gather kernels
	** (TensorRT-LLM, SGLang, FlashInfer and their forks) */
	{"custom all-reduce",
	 "qual~one_shot|two_shot|oneShot|twoShot|OneShot|TwoShot|lamport|Lamport & "
	 "qual~reduce|Reduce|gather|Gather|all_|All"},
	{"custom all-reduce",
	 "qual~cross_device|custom_all_reduce|custom_allreduce|customAllReduce|CustomAllReduce|allreduce_fusion|"
	 "allReduceFusion|AllReduceFusion|AllreduceFusion"},
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

/* ---- API classes: a name is cut to its stem ("cudaStreamSynchronize_v3020"
** and "hipStreamSynchronize" are both "StreamSynchronize"), then stems are
** matched by prefix in a table ---- */

struct stem_rule {
	const char *stem;
	unsigned char whole;    /* 1: the stem must equal it, 0: start with it */
	unsigned char cls;      /* enum gp_api_class */
};

/* The first rule whose stem starts the name's stem (or equals it, for
** whole) gives the class. */
static const struct stem_rule rules[] = {
	{"GraphLaunch", 0, GP_APIC_GRAPH_LAUNCH},
	{"Launch", 0, GP_APIC_LAUNCH},             /* LaunchKernel, LaunchKernelExC, LaunchCooperativeKernel, LaunchHostFunc, Launch */
	{"ExtLaunch", 0, GP_APIC_LAUNCH},          /* hipExtLaunchKernel */
	{"ModuleLaunch", 0, GP_APIC_LAUNCH},       /* hipModuleLaunchKernel */
	{"ExtModuleLaunch", 0, GP_APIC_LAUNCH},
	{"Memcpy", 0, GP_APIC_COPY},
	{"Memset", 0, GP_APIC_MEMSET},
	{"DeviceSynchronize", 1, GP_APIC_SYNC_DEVICE},
	{"ThreadSynchronize", 1, GP_APIC_SYNC_DEVICE},
	{"CtxSynchronize", 1, GP_APIC_SYNC_DEVICE},
	{"StreamSynchronize", 1, GP_APIC_SYNC_STREAM},
	{"EventSynchronize", 1, GP_APIC_SYNC_EVENT},
	{"StreamWaitEvent", 1, GP_APIC_STREAM_WAIT},
	{"EventRecord", 0, GP_APIC_EVENT_RECORD},  /* EventRecordWithFlags */
	{"EventQuery", 1, GP_APIC_QUERY},
	{"StreamQuery", 1, GP_APIC_QUERY},
	{"Malloc", 0, GP_APIC_ALLOC},              /* Malloc, MallocHost, MallocManaged, MallocAsync, Malloc3D... */
	{"ExtMalloc", 0, GP_APIC_ALLOC},           /* hipExtMallocWithFlags */
	{"Free", 0, GP_APIC_ALLOC},                /* Free, FreeHost, FreeAsync, FreeArray */
	{"HostAlloc", 1, GP_APIC_ALLOC},
	{"HostMalloc", 1, GP_APIC_ALLOC},
	{"HostFree", 1, GP_APIC_ALLOC},
	{"HostRegister", 1, GP_APIC_ALLOC},
	{"HostUnregister", 1, GP_APIC_ALLOC},
	{"MemAlloc", 0, GP_APIC_ALLOC},            /* driver: MemAlloc, MemAllocHost, MemAllocManaged... */
	{"MemFree", 0, GP_APIC_ALLOC},
	{"MemHostAlloc", 1, GP_APIC_ALLOC},
	{"MemHostRegister", 1, GP_APIC_ALLOC},
	{"MemHostUnregister", 1, GP_APIC_ALLOC},
	{"MemCreate", 1, GP_APIC_ALLOC},           /* virtual memory (expandable segments) */
	{"MemRelease", 1, GP_APIC_ALLOC},
	{"MemMap", 1, GP_APIC_ALLOC},
	{"MemUnmap", 1, GP_APIC_ALLOC},
	{"MemAddressReserve", 1, GP_APIC_ALLOC},
	{"MemAddressFree", 1, GP_APIC_ALLOC},
	{"MemSetAccess", 1, GP_APIC_ALLOC},
	{"ModuleLoad", 0, GP_APIC_MODULE},         /* ModuleLoad, ModuleLoadData, ModuleLoadDataEx, ModuleLoadFatBinary */
	{"LibraryLoad", 0, GP_APIC_MODULE},        /* LibraryLoadData, LibraryLoadFromFile */
	{"LinkCreate", 1, GP_APIC_COMPILE},
	{"LinkAddData", 1, GP_APIC_COMPILE},
	{"LinkAddFile", 1, GP_APIC_COMPILE},
	{"LinkComplete", 1, GP_APIC_COMPILE},
	{"StreamBeginCapture", 0, GP_APIC_CAPTURE},   /* StreamBeginCapture, StreamBeginCaptureToGraph */
	{"StreamEndCapture", 1, GP_APIC_CAPTURE},
	{"GraphInstantiate", 0, GP_APIC_CAPTURE},     /* GraphInstantiate, GraphInstantiateWithFlags */
	{NULL, 0, 0},
};

/* Copies the stem of name into buf: without the cuda/cu/hip prefix and
** the version (_vNNNN) and per-thread (_ptsz, _ptds, _spt) suffixes.
** Returns NULL when name has none of the prefixes. */
static const char *stem_of(const char *name, char *buf, size_t size)
{
	size_t n;
	char *us;

	if (strncmp(name, "cuda", 4) == 0)
		name += 4;
	else if (strncmp(name, "hip", 3) == 0)
		name += 3;
	else if (strncmp(name, "cu", 2) == 0)
		name += 2;
	else
		return NULL;
	n = strlen(name);
	if (n >= size)
		n = size - 1;
	memcpy(buf, name, n);
	buf[n] = '\0';
	while ((us = strrchr(buf, '_')) != NULL) {
		const char *s = us + 1;
		bool cut = strcmp(s, "ptsz") == 0 || strcmp(s, "ptds") == 0 || strcmp(s, "spt") == 0;
		if (!cut && s[0] == 'v' && s[1]) {
			cut = true;
			for (const char *d = s + 1; *d; d++)
				if (*d < '0' || *d > '9')
					cut = false;
		}
		if (!cut)
			break;
		*us = '\0';
	}
	return buf;
}

/* Whether name is a library call that tries algorithms to pick the
** fastest (cuDNN's Find, its _v7 Get queries, cuBLASLt's and hipBLASLt's
** heuristics, MIOpen's Find): autotuning, not a runtime call. */
static bool autotune_call(const char *name)
{
	static const char *const prefixes[] = {
		"cudnnFind", "miopenFind", "cublasLtMatmulAlgoGetHeuristic", "hipblasLtMatmulAlgoGetHeuristic", NULL
	};
	size_t n;

	for (int i = 0; prefixes[i]; i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	n = strlen(name);
	return strncmp(name, "cudnnGet", 8) == 0 && n > 12 && strcmp(name + n - 12, "Algorithm_v7") == 0;
}

enum gp_api_class gp_api_class_of(const char *name)
{
	char buf[128];
	const char *stem;

	if (!name)
		return GP_APIC_OTHER;
	if (strncmp(name, "nvrtc", 5) == 0 || strncmp(name, "hiprtc", 6) == 0)
		return GP_APIC_COMPILE;
	if (autotune_call(name))
		return GP_APIC_AUTOTUNE;
	if (!(stem = stem_of(name, buf, sizeof(buf))) || !*stem)
		return GP_APIC_OTHER;
	for (int i = 0; rules[i].stem; i++) {
		size_t n = strlen(rules[i].stem);
		if (strncmp(stem, rules[i].stem, n) == 0 && (!rules[i].whole || stem[n] == '\0'))
			return (enum gp_api_class)rules[i].cls;
	}
	return GP_APIC_OTHER;
}

const char *gp_api_class_name(enum gp_api_class c)
{
	static const char *const names[GP_APIC__COUNT] = {
		"other", "launch", "graph_launch", "copy", "memset", "sync_device", "sync_stream",
		"sync_event", "stream_wait", "event_record", "query", "alloc", "module", "compile",
		"capture", "autotune",
	};

	return (unsigned)c < GP_APIC__COUNT ? names[c] : "other";
}
