/*
** What a record of the trace is, by the names it carries: whether a kernel
** is communication (a collective or point-to-point transfer between GPUs),
** what an API call does for the step's dependencies (launches, copies,
** waits for the GPU and for what, records an event, makes a stream wait,
** allocates, loads code: gp_api_class, by the CUDA runtime, driver and HIP
** spellings with or without version and per-thread suffixes), and whether
** it holds the host until the GPU catches up.
** The one definition of each: the op model, the time breakdown, the
** collectives, advise and every writer ask here (docs/trace-model.md,
** "Classification").
**
** Ownership: pure functions of their arguments; nothing is allocated.
*/
#ifndef GP_CLASSIFY_H
#define GP_CLASSIFY_H

#include <stdbool.h>

#include "model/trace.h"

/* The library of a communication kernel (one that moves data between
** GPUs) by its short and full demangled names (either may be NULL):
** "NCCL/RCCL" (ncclKernel_*, ncclDevKernel_*, NVLS included), "NCCL
** symmetric memory" (ncclSymkDevKernel_*), "RCCL" (rccl*), "MSCCL",
** "MSCCL++", "NVSHMEM", "PyTorch symmetric memory" (multimem_*,
** one_shot_all_reduce*, two_shot_all_reduce*: vLLM's and SGLang's NVLS
** all-reduce), "vLLM/SGLang custom all-reduce" (cross_device_reduce_*),
** "TensorRT-LLM all-reduce", "vLLM quick all-reduce (ROCm)", "DeepEP"
** (dispatch, combine), and by tokens for forks in any namespace:
** "NVLS multimem", "expert-parallel dispatch/combine", "all-to-all",
** "custom all-reduce" (one-shot, two-shot, Lamport, cross-device,
** all-reduce fusion); NULL for any other kernel.  A bare "ncclKernel"
** names no collective and is not one.  The table is in classify.c; a
** kernel no name here marks can still be communication by what launched
** it or by the user's ops file (analysis/commclass.h). */
const char *gp_comm_kernel_library(const char *short_name, const char *full_name);

/* Whether the kernel named so is communication: gp_comm_kernel_library()
** is not NULL. */
bool gp_kernel_name_is_comm(const char *short_name, const char *full_name);

/* Whether kernel k of t is communication, by its names: kept per kernel
** launch record by gp_trace_finish() (t->def_comm), else asked of
** gp_kernel_name_is_comm().  The name decides, not the op that launched
** it: only these kernels move data between GPUs (a collective op's
** packing copies are local work), and an NCCL kernel that the attribution
** puts under another op (a backward op's range around a DDP hook) is
** communication all the same. */
static inline bool gp_kernel_is_comm(const gp_trace *t, const struct gp_kernel *k)
{
	if (k->def < t->def_comm.n)
		return t->def_comm.v[k->def];
	return gp_kernel_name_is_comm(gp_s(t, gp_kernel_short_name_of(t, k)),
				      gp_s(t, gp_kernel_long_name_of(t, k)));
}

/* Fills t->def_comm: for each kernel launch record, whether its kernel is
** communication (gp_trace_finish() calls it; once per distinct name). */
void gp_trace_classify_kernels(gp_trace *t);

/* How an API call holds the host until the GPU catches up. */
enum gp_sync_call {
	GP_SYNC_CALL_NONE,      /* it does not (a launch, an async copy, an event record) */
	GP_SYNC_CALL_DEVICE,    /* all the device's work: cudaDeviceSynchronize, cuCtxSynchronize,
				** cudaThreadSynchronize, hipDeviceSynchronize, hipCtxSynchronize */
	GP_SYNC_CALL_STREAM,    /* one stream's work: cudaStreamSynchronize, hipStreamSynchronize... */
	GP_SYNC_CALL_EVENT,     /* the work before an event: cudaEventSynchronize... */
	GP_SYNC_CALL_OTHER,     /* another *Synchronize* call */
	GP_SYNC_CALL_COPY,      /* a blocking copy: cudaMemcpy, cudaMemcpy2D, cuMemcpyDtoH,
				** hipMemcpy, hipMemcpyWithStream (not *Async, not *Symbol) */
};

/* The kind of an API call by its name (the version suffix stripped, as
** gp_api_def keeps it); GP_SYNC_CALL_NONE for NULL. */
enum gp_sync_call gp_api_sync_call(const char *name);

/* Whether a kind is a call that only waits (every kind but NONE and COPY):
** the time breakdown's "sync" idle cause and advise's sync-calls finding
** count these; a blocking copy's wait is its copy's (pageable_memcpy,
** sync-memcpy). */
static inline bool gp_sync_call_waits(enum gp_sync_call k)
{
	return k != GP_SYNC_CALL_NONE && k != GP_SYNC_CALL_COPY;
}

/* ---- what an API call does (for the dependency graph, docs/dependencies.md) ---- */

enum gp_api_class {
	GP_APIC_OTHER,          /* cudaGetDevice, cudaSetDevice, attribute queries... */
	GP_APIC_LAUNCH,         /* one kernel (or host function) onto a stream */
	GP_APIC_GRAPH_LAUNCH,   /* a CUDA/HIP graph: many GPU records on one call */
	GP_APIC_COPY,           /* a memcpy; synchronous unless the name says Async */
	GP_APIC_MEMSET,
	GP_APIC_SYNC_DEVICE,    /* waits for all the device's streams */
	GP_APIC_SYNC_STREAM,    /* waits for one stream */
	GP_APIC_SYNC_EVENT,     /* waits for a recorded event */
	GP_APIC_STREAM_WAIT,    /* makes a stream wait for an event: the CPU does not wait */
	GP_APIC_EVENT_RECORD,
	GP_APIC_QUERY,          /* polls an event or stream without waiting */
	GP_APIC_ALLOC,          /* device or pinned memory: malloc, free, map, register */
	GP_APIC_MODULE,         /* loading GPU code: module/library load */
	GP_APIC_COMPILE,        /* compiling GPU code: NVRTC/hipRTC, linking */
	GP_APIC_CAPTURE,        /* capturing a graph: Stream{Begin,End}Capture, GraphInstantiate */
	GP_APIC_AUTOTUNE,       /* trying algorithms: cudnnFind*Algorithm*, cudnnGet*Algorithm_v7,
				** cublasLtMatmulAlgoGetHeuristic, miopenFind*, hipblasLt's */
	GP_APIC__COUNT
};

/* The class of the API function called name (NULL or unknown: OTHER). */
enum gp_api_class gp_api_class_of(const char *name);

/* Whether a call of class c blocks the calling thread until GPU work
** finishes (device, stream and event syncs).  Synchronous copies block
** too, but on their own copy: the dependency pass sees that from the
** copy's end, not from the class. */
static inline bool gp_api_class_is_sync(enum gp_api_class c)
{
	return c == GP_APIC_SYNC_DEVICE || c == GP_APIC_SYNC_STREAM || c == GP_APIC_SYNC_EVENT;
}

/* Whether a call of class c puts work on a GPU stream. */
static inline bool gp_api_class_launches(enum gp_api_class c)
{
	return c == GP_APIC_LAUNCH || c == GP_APIC_GRAPH_LAUNCH || c == GP_APIC_COPY ||
	       c == GP_APIC_MEMSET;
}

/* A short lower-case name of the class ("sync_stream"), for notes and
** tests. */
const char *gp_api_class_name(enum gp_api_class c);

/* Whether kernel k of t was launched as part of a CUDA/HIP graph: it has a
** graph id or node, or its launching call api (-1: not known) is a graph
** launch (cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch).  PyTorch writes
** the graph id only since 2.1: the call decides for older traces. */
static inline bool gp_kernel_graph_launched(const gp_trace *t, const struct gp_kernel *k, int32_t api)
{
	const struct gp_kernel_def *d = gp_kernel_def(t, k);

	return d->graph_id || d->graph_node ||
	       (api >= 0 && gp_api_class_of(gp_s(t, gp_api_def(t, &t->apis.v[api])->name)) == GP_APIC_GRAPH_LAUNCH);
}

#endif
